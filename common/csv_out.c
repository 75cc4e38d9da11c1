/*
 * csv_out.c - CSV files written through libcsv, atomically: rows go to a
 * temporary file renamed over the target only when the whole file is done.
 * Owns quoting, number formatting and the rename; knows no column meanings.
 */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "text.h"

struct trapeze_csv_out {
    FILE *file;
    char *path;
    char *tmp_path;
    int ncolumns;
    int fields_in_row;
    int write_failed;
};

static void put_field(trapeze_csv_out *csv, const char *text)
{
    if (csv->fields_in_row++ > 0 && fputc(',', csv->file) == EOF)
        csv->write_failed = 1;
    if (csv_fwrite(csv->file, text, strlen(text)) != 0)
        csv->write_failed = 1;
}

/* A field that needs no quoting is written bare: numbers stay numbers. */
static void put_bare(trapeze_csv_out *csv, const char *text)
{
    if (csv->fields_in_row++ > 0 && fputc(',', csv->file) == EOF)
        csv->write_failed = 1;
    if (fputs(text, csv->file) == EOF)
        csv->write_failed = 1;
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
    /* shortest of %.15g/%.17g that reads back to the same double */
    snprintf(buf, sizeof buf, "%.15g", value);
    if (strtod(buf, NULL) != value)
        snprintf(buf, sizeof buf, "%.17g", value);
    put_bare(csv, buf);
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
        csv->write_failed = 1;
    return TRAPEZE_OK;
}

static void free_csv(trapeze_csv_out *csv)
{
    free(csv->path);
    free(csv->tmp_path);
    free(csv);
}

trapeze_status trapeze_csv_create(const char *path, const char *const *columns, int ncolumns,
                                  trapeze_csv_out **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_csv_out *csv = calloc(1, sizeof *csv);
    if (!csv)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    csv->path = trapeze_strdup(path);
    csv->tmp_path = malloc(strlen(path) + 5);
    if (!csv->path || !csv->tmp_path) {
        free_csv(csv);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    sprintf(csv->tmp_path, "%s.tmp", path);
    csv->file = fopen(csv->tmp_path, "w");
    if (!csv->file) {
        trapeze_status s = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot create: %s",
                                        csv->tmp_path, strerror(errno));
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

trapeze_status trapeze_csv_commit(trapeze_csv_out *csv, trapeze_error *err)
{
    int failed = csv->write_failed | (fflush(csv->file) != 0) | (fclose(csv->file) != 0);
    csv->file = NULL;
    if (failed || rename(csv->tmp_path, csv->path) != 0) {
        trapeze_status s = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", csv->path,
                                        strerror(errno));
        remove(csv->tmp_path);
        free_csv(csv);
        return s;
    }
    free_csv(csv);
    return TRAPEZE_OK;
}

void trapeze_csv_abort(trapeze_csv_out *csv)
{
    if (!csv)
        return;
    if (csv->file)
        fclose(csv->file);
    remove(csv->tmp_path);
    free_csv(csv);
}
