/*
 * csv_out.c - CSV files written through libcsv, atomically: rows go to a
 * temporary file renamed over the target only when the whole file is done
 * (common/outfile.c decides how a path is written and does the rename).
 * Owns quoting and number formatting; knows no column meanings.
 * A command with several outputs makes them all or none: it finishes each
 * (trapeze_csv_finish: written, flushed, fsync'ed, closed, not yet renamed),
 * and only when all are finished commits them, else aborts them all. The
 * first write error's errno is kept so the message gives the system's reason.
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"
#include "text.h"

struct trapeze_csv_out {
    trapeze_outfile *out; /* the file being written (common/outfile.c) */
    FILE *file;           /* its stream */
    char *path;
    int finished;         /* trapeze_csv_finish done: only a commit or abort is left */
    int ncolumns;
    int fields_in_row;
    int write_failed;
    int write_errno;  /* errno of the first failed write, 0 if none */
};

static void failed(trapeze_csv_out *csv)
{
    if (!csv->write_failed)
        csv->write_errno = errno ? errno : EIO;
    csv->write_failed = 1;
}

static void put_field(trapeze_csv_out *csv, const char *text)
{
    if (csv->fields_in_row++ > 0 && fputc(',', csv->file) == EOF)
        failed(csv);
    if (csv_fwrite(csv->file, text, strlen(text)) != 0)
        failed(csv);
}

/* A field that needs no quoting is written bare: numbers stay numbers. */
static void put_bare(trapeze_csv_out *csv, const char *text)
{
    if (csv->fields_in_row++ > 0 && fputc(',', csv->file) == EOF)
        failed(csv);
    if (fputs(text, csv->file) == EOF)
        failed(csv);
}

trapeze_status trapeze_csv_text(trapeze_csv_out *csv, const char *value)
{
    if (strpbrk(value, ",\"\r\n") || value[0] == ' ')
        put_field(csv, value);
    else
        put_bare(csv, value);
    return TRAPEZE_OK;
}

trapeze_status trapeze_csv_number(trapeze_csv_out *csv, double value)
{
    char buf[40];
    put_bare(csv, trapeze_format_double(value, buf, sizeof buf));
    return TRAPEZE_OK;
}

trapeze_status trapeze_csv_end_row(trapeze_csv_out *csv, trapeze_error *err)
{
    int n = csv->fields_in_row;
    csv->fields_in_row = 0;
    if (n != csv->ncolumns)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: row has %d fields, header has %d",
                            csv->path, n, csv->ncolumns);
    if (fputc('\n', csv->file) == EOF)
        failed(csv);
    return TRAPEZE_OK;
}

static void free_csv(trapeze_csv_out *csv)
{
    free(csv->path);
    free(csv);
}

trapeze_status trapeze_csv_create(const char *path, const char *const *columns, int ncolumns,
                                  trapeze_csv_out **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_csv_out *csv = calloc(1, sizeof *csv);
    if (!csv || !(csv->path = trapeze_strdup(path))) {
        free(csv);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    trapeze_status s = trapeze_outfile_open_stream(path, &csv->out, &csv->file, err);
    if (s) {
        free_csv(csv);
        return s;
    }
    csv->ncolumns = ncolumns;
    for (int i = 0; i < ncolumns; i++)
        trapeze_csv_text(csv, columns[i]);
    trapeze_csv_end_row(csv, err);
    *out = csv;
    return TRAPEZE_OK;
}

trapeze_status trapeze_output_check(const char *path, trapeze_error *err)
{
    return trapeze_outfile_check(path, err);
}

trapeze_status trapeze_csv_finish(trapeze_csv_out *csv, trapeze_error *err)
{
    if (csv->finished)
        return TRAPEZE_OK;
    csv->finished = 1;
    trapeze_status s = trapeze_outfile_finish(csv->out, csv->write_failed ? csv->write_errno : 0,
                                              err);
    if (s) {  /* the outfile is removed and freed */
        free_csv(csv);
        return s;
    }
    return TRAPEZE_OK;
}

trapeze_status trapeze_csv_commit(trapeze_csv_out *csv, trapeze_error *err)
{
    trapeze_status s = trapeze_csv_finish(csv, err);
    if (s)
        return s; /* csv is freed */
    s = trapeze_outfile_commit(csv->out, err);
    free_csv(csv);
    return s;
}

void trapeze_csv_abort(trapeze_csv_out *csv)
{
    if (!csv)
        return;
    trapeze_outfile_abort(csv->out);
    free_csv(csv);
}
