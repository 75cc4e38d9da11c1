/*
 * outfile.h - the one way the library writes an output file
 * (common/outfile.c): every writer (CSVs, calibration files, traces, the
 * sample log's sorted rewrite) opens, commits or aborts through it.
 */
#ifndef TRAPEZE_COMMON_OUTFILE_H
#define TRAPEZE_COMMON_OUTFILE_H

#include <stdio.h>

#include "trapeze.h"
#include "common/internal.h"

typedef struct trapeze_outfile trapeze_outfile;

/* Opens PATH for writing. A new name or a regular file: a temporary file
 * made beside it (PATH.XXXXXX.tmp, O_CREAT|O_EXCL|O_NOFOLLOW, a name of this
 * run's own) that trapeze_outfile_commit renames over PATH. A character
 * device or a FIFO (/dev/null, /dev/stdout on a terminal or pipe): written
 * in place. "-" and /dev/stdout: this process's standard output (a
 * duplicate of descriptor 1), whatever it leads to. Refused: a folder, a symbolic link to anything but a device or
 * FIFO, a block device, a socket. */
TRAPEZE_INTERNAL
trapeze_status trapeze_outfile_open(const char *path, trapeze_outfile **out,
                                    trapeze_error *err);
/* The same checks without opening anything that stays (nor a FIFO). */
TRAPEZE_INTERNAL
trapeze_status trapeze_outfile_check(const char *path, trapeze_error *err);
/* A stdio stream on the file (made on the first call; owned by o). */
TRAPEZE_INTERNAL
FILE *trapeze_outfile_stream(trapeze_outfile *o);
/* trapeze_outfile_open, then its stream in *f: what a writer of text
 * needs. On failure nothing is left (the temporary file removed). */
TRAPEZE_INTERNAL
trapeze_status trapeze_outfile_open_stream(const char *path, trapeze_outfile **out, FILE **f,
                                           trapeze_error *err);
/* The descriptor, for raw writes. After trapeze_outfile_keep_fd, a commit
 * leaves it open for the caller (who then owns it). */
TRAPEZE_INTERNAL
int trapeze_outfile_fd(const trapeze_outfile *o);
TRAPEZE_INTERNAL
void trapeze_outfile_keep_fd(trapeze_outfile *o);
/* Flushes, fsyncs and closes without renaming yet (the first phase of
 * several outputs made all or none). write_errno: the errno of a write the
 * caller saw fail, or 0. On failure the temporary file is removed, o is
 * freed, and the message carries the system's reason. */
TRAPEZE_INTERNAL
trapeze_status trapeze_outfile_finish(trapeze_outfile *o, int write_errno, trapeze_error *err);
/* Finishes (if not yet) and renames over PATH; frees o either way. */
TRAPEZE_INTERNAL
trapeze_status trapeze_outfile_commit(trapeze_outfile *o, trapeze_error *err);
/* Closes, removes the temporary file, frees o (safe on NULL). */
TRAPEZE_INTERNAL
void trapeze_outfile_abort(trapeze_outfile *o);

#endif
