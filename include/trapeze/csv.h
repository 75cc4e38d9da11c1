/*
 * trapeze/csv.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * CSV output files written all or nothing (trapeze_csv_*) and the check that
 * an output path can be written so; no reader.
 */
#ifndef TRAPEZE_CSV_H
#define TRAPEZE_CSV_H

#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rows go to a temporary file of the run's own beside PATH
 * (PATH.XXXXXX.tmp, created exclusively, removed on an error, SIGINT or
 * SIGTERM), which replaces PATH only on trapeze_csv_commit(), so a failed or
 * interrupted run never leaves a half-written file. "-" and /dev/stdout are
 * the process's standard output, written in place. A PATH that is a
 * character device or FIFO (/dev/null, a named pipe) is written in
 * place; a folder, a symbolic link to a file, a block device or a socket is
 * refused. Numbers are written in the shortest form that reads back to the
 * same double. */
typedef struct trapeze_csv_out trapeze_csv_out;

trapeze_status trapeze_csv_create(const char *path, const char *const *columns, int ncolumns,
                                  trapeze_csv_out **out, trapeze_error *err);
trapeze_status trapeze_csv_text(trapeze_csv_out *csv, const char *value);
trapeze_status trapeze_csv_number(trapeze_csv_out *csv, double value);
/* Ends the current row; checks it had exactly ncolumns fields. */
trapeze_status trapeze_csv_end_row(trapeze_csv_out *csv, trapeze_error *err);
/* Flushes, fsyncs and closes the temporary file without renaming it yet:
 * the first phase of a command's all-or-nothing outputs (finish every file,
 * then commit each, or abort each). On failure, removes it and frees csv;
 * the message carries the system's reason (e.g. "No space left on device"). */
trapeze_status trapeze_csv_finish(trapeze_csv_out *csv, trapeze_error *err);
/* Finishes (if not yet), renames the temporary file to PATH, frees csv. */
trapeze_status trapeze_csv_commit(trapeze_csv_out *csv, trapeze_error *err);
/* Removes the temporary file and frees csv (safe on NULL). */
void trapeze_csv_abort(trapeze_csv_out *csv);
/* Whether PATH can be written the way trapeze_csv_create and commit write
 * it (any output file of the library goes the same way), checked before a
 * long run: PATH is none of the refused kinds, and a temporary file can be
 * created beside it (created and removed again); a device or FIFO is
 * checked for write permission, not opened. Creates nothing that stays. */
trapeze_status trapeze_output_check(const char *path, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
