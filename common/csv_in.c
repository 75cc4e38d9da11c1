/*
 * csv_in.c - numeric CSV input through libcsv (csv_in.h). Owns parsing,
 * the header check and error messages with file, line and field.
 */
#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv_in.h"
#include "common/error.h"
#include "common/text.h"

typedef struct {
    const char *path;
    const char *const *columns;
    int ncolumns;
    trapeze_csv_row_fn row;
    void *ctx;
    trapeze_error *err;
    trapeze_status status;
    int line, field, header_seen;
    long long values[TRAPEZE_CSV_MAX_COLUMNS];
} reader;

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    if (r->status)
        return;
    const char *text = s;
    int f = r->field++;
    if (f >= r->ncolumns) {
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%d: more than %d fields", r->path,
                                 r->line, r->ncolumns);
        return;
    }
    if (!r->header_seen) {
        if (strlen(r->columns[f]) != len || memcmp(text, r->columns[f], len))
            r->status = trapeze_fail(r->err, TRAPEZE_EPARSE,
                                     "%s:%d: header field %d is '%.*s', expected '%s'", r->path,
                                     r->line, f + 1, (int)(len > 64 ? 64 : len), text,
                                     r->columns[f]);
        return;
    }
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (len == 0 || end != text + len || errno)
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE,
                                 "%s:%d: field %s: expected a whole number, got '%.*s'", r->path,
                                 r->line, r->columns[f], (int)(len > 64 ? 64 : len), text);
    else
        r->values[f] = v;
}

static void on_row(int c, void *data)
{
    (void)c;
    reader *r = data;
    if (!r->status && r->field != r->ncolumns)
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%d: %d fields, expected %d",
                                 r->path, r->line, r->field, r->ncolumns);
    if (!r->status && r->header_seen)
        r->status = r->row(r->ctx, r->values, r->line, r->err);
    r->header_seen = 1;
    r->field = 0;
    r->line++;
}

trapeze_status trapeze_csv_read_integers(const char *path, const char *const *columns,
                                         int ncolumns, trapeze_csv_row_fn row, void *ctx,
                                         trapeze_error *err)
{
    if (ncolumns < 1 || ncolumns > TRAPEZE_CSV_MAX_COLUMNS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d columns", path, ncolumns);
    char *text;
    trapeze_status s = trapeze_read_file(path, &text, err);
    if (s)
        return s;
    reader r = {.path = path, .columns = columns, .ncolumns = ncolumns, .row = row, .ctx = ctx,
                .err = err, .line = 1};
    struct csv_parser p;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        free(text);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    size_t len = strlen(text);
    if (csv_parse(&p, text, len, on_field, on_row, &r) != len && !r.status)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV (%s)", path, r.line,
                                csv_strerror(csv_error(&p)));
    csv_fini(&p, on_field, on_row, &r);
    csv_free(&p);
    free(text);
    if (!r.status && !r.header_seen)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: empty file (expected a header)", path);
    return r.status;
}
