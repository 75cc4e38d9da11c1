/*
 * grouping.c - the explicit TB grouping (trapeze_grouping) and its file, the
 * contract between the grouping optimizer (model/) and the simulator's
 * explicit dispatch policy: CSV `tb,group,order`, every TB exactly once.
 * Owns storage, validation and the file format; knows nothing of how a
 * grouping is chosen or run.
 */
#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "text.h"

trapeze_status trapeze_grouping_alloc(trapeze_grouping *g, long n_tbs, int n_groups,
                                      trapeze_error *err)
{
    memset(g, 0, sizeof *g);
    if (n_tbs < 1 || n_groups < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "grouping: %ld TBs in %d groups", n_tbs,
                            n_groups);
    g->group = calloc((size_t)n_tbs, sizeof *g->group);
    g->order = calloc((size_t)n_tbs, sizeof *g->order);
    if (!g->group || !g->order) {
        trapeze_grouping_free(g);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping: out of memory (%ld TBs)", n_tbs);
    }
    g->n_tbs = n_tbs;
    g->n_groups = n_groups;
    return TRAPEZE_OK;
}

void trapeze_grouping_free(trapeze_grouping *g)
{
    if (!g)
        return;
    free(g->group);
    free(g->order);
    memset(g, 0, sizeof *g);
}

/* Orders within each group must be exactly 0..size-1: count per group, then
 * mark each (group, order) slot once. */
trapeze_status trapeze_grouping_check(const trapeze_grouping *g, trapeze_error *err)
{
    if (g->n_tbs < 1 || g->n_groups < 1 || !g->group || !g->order)
        return trapeze_fail(err, TRAPEZE_EINVAL, "grouping: empty");
    long *size = calloc((size_t)g->n_groups + 1, sizeof *size);
    long *start = calloc((size_t)g->n_groups + 1, sizeof *start);
    unsigned char *seen = calloc((size_t)g->n_tbs, 1);
    trapeze_status s = TRAPEZE_OK;
    if (!size || !start || !seen) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "grouping: out of memory");
        goto out;
    }
    for (long t = 0; t < g->n_tbs; t++) {
        if (g->group[t] < 0 || g->group[t] >= g->n_groups) {
            s = trapeze_fail(err, TRAPEZE_ERANGE, "grouping: TB %ld: group %d outside 0..%d", t,
                             g->group[t], g->n_groups - 1);
            goto out;
        }
        size[g->group[t]]++;
    }
    for (int k = 1; k <= g->n_groups; k++)
        start[k] = start[k - 1] + size[k - 1];
    for (long t = 0; t < g->n_tbs; t++) {
        long o = g->order[t];
        if (o < 0 || o >= size[g->group[t]]) {
            s = trapeze_fail(err, TRAPEZE_ERANGE,
                             "grouping: TB %ld: order %ld outside 0..%ld of group %d", t, o,
                             size[g->group[t]] - 1, g->group[t]);
            goto out;
        }
        if (seen[start[g->group[t]] + o]++) {
            s = trapeze_fail(err, TRAPEZE_ERANGE, "grouping: TB %ld: group %d order %ld taken twice",
                             t, g->group[t], o);
            goto out;
        }
    }
out:
    free(size);
    free(start);
    free(seen);
    return s;
}

trapeze_status trapeze_grouping_save(const char *path, const trapeze_grouping *g,
                                     trapeze_error *err)
{
    static const char *const cols[] = {"tb", "group", "order"};
    trapeze_status s = trapeze_grouping_check(g, err);
    if (s != TRAPEZE_OK)
        return s;
    trapeze_csv_out *csv;
    if ((s = trapeze_csv_create(path, cols, 3, &csv, err)) != TRAPEZE_OK)
        return s;
    for (long t = 0; t < g->n_tbs && s == TRAPEZE_OK; t++) {
        trapeze_csv_number(csv, (double)t);
        trapeze_csv_number(csv, g->group[t]);
        trapeze_csv_number(csv, (double)g->order[t]);
        s = trapeze_csv_end_row(csv, err);
    }
    if (s != TRAPEZE_OK) {
        trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}

/* ---- reading: libcsv callbacks fill the grouping row by row ---- */

typedef struct {
    const char *path;
    trapeze_grouping *g;
    unsigned char *seen;
    long line;           /* 1-based file line of the current row */
    int field;
    long value[3];
    int row_ok;
    trapeze_status status;
    trapeze_error *err;
} reader;

static const char *const field_names[3] = {"tb", "group", "order"};

static void on_field(void *text, size_t len, void *data)
{
    reader *r = data;
    (void)len;
    if (r->status != TRAPEZE_OK)
        return;
    if (r->field >= 3) {
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%ld: more than 3 fields", r->path,
                                 r->line);
        return;
    }
    if (r->line == 1) {
        if (strcmp(text, field_names[r->field]) != 0)
            r->status = trapeze_fail(r->err, TRAPEZE_EPARSE,
                                     "%s:1: header field %d is '%s', expected 'tb,group,order'",
                                     r->path, r->field + 1, (const char *)text);
        r->field++;
        return;
    }
    if (!trapeze_parse_long(text, &r->value[r->field]))
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%ld: field %s: '%s' is not an integer",
                                 r->path, r->line, field_names[r->field], (const char *)text);
    r->field++;
}

static void on_row(int c, void *data)
{
    reader *r = data;
    (void)c;
    long line = r->line++;
    int fields = r->field;
    r->field = 0;
    if (r->status != TRAPEZE_OK || line == 1) {
        if (r->status == TRAPEZE_OK && fields != 3)
            r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:1: header has %d fields, expected 'tb,group,order'",
                                     r->path, fields);
        return;
    }
    if (fields != 3) {
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%ld: %d fields, expected 3", r->path,
                                 line, fields);
        return;
    }
    long tb = r->value[0], grp = r->value[1], ord = r->value[2];
    trapeze_grouping *g = r->g;
    if (tb < 0 || tb >= g->n_tbs)
        r->status = trapeze_fail(r->err, TRAPEZE_ERANGE, "%s:%ld: field tb: %ld outside 0..%ld",
                                 r->path, line, tb, g->n_tbs - 1);
    else if (grp < 0 || grp >= g->n_groups)
        r->status = trapeze_fail(r->err, TRAPEZE_ERANGE, "%s:%ld: field group: %ld outside 0..%d",
                                 r->path, line, grp, g->n_groups - 1);
    else if (ord < 0 || ord >= g->n_tbs)
        r->status = trapeze_fail(r->err, TRAPEZE_ERANGE, "%s:%ld: field order: %ld outside 0..%ld",
                                 r->path, line, ord, g->n_tbs - 1);
    else if (r->seen[tb]++)
        r->status = trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%ld: field tb: TB %ld listed twice",
                                 r->path, line, tb);
    else {
        g->group[tb] = (int)grp;
        g->order[tb] = ord;
    }
}

trapeze_status trapeze_grouping_load(const char *path, long n_tbs, int max_groups,
                                     trapeze_grouping *g, trapeze_error *err)
{
    if (n_tbs < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: the number of TBs must be given", path);
    int n_groups = max_groups > 0 ? max_groups : (n_tbs < 1 << 30 ? (int)n_tbs : 1 << 30);
    char *text;
    trapeze_status s = trapeze_read_file(path, &text, err);
    if (s != TRAPEZE_OK)
        return s;
    if ((s = trapeze_grouping_alloc(g, n_tbs, n_groups, err)) != TRAPEZE_OK) {
        free(text);
        return s;
    }
    reader r = {.path = path, .g = g, .line = 1, .status = TRAPEZE_OK, .err = err};
    r.seen = calloc((size_t)n_tbs, 1);
    struct csv_parser p;
    if (!r.seen || csv_init(&p, CSV_APPEND_NULL) != 0) {
        free(r.seen);
        free(text);
        trapeze_grouping_free(g);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    size_t len = strlen(text);
    if (csv_parse(&p, text, len, on_field, on_row, &r) != len && r.status == TRAPEZE_OK)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%ld: %s", path, r.line,
                                csv_strerror(csv_error(&p)));
    csv_fini(&p, on_field, on_row, &r);
    csv_free(&p);
    free(text);
    if (r.status == TRAPEZE_OK && r.line == 1)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: empty (expected header 'tb,group,order')",
                                path);
    for (long t = 0; r.status == TRAPEZE_OK && t < n_tbs; t++)
        if (!r.seen[t])
            r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: TB %ld missing (%ld TBs expected)",
                                    path, t, n_tbs);
    free(r.seen);
    if (r.status == TRAPEZE_OK) {
        int top = 0;   /* n_groups: 1 + the largest group named */
        for (long t = 0; t < n_tbs; t++)
            top = g->group[t] > top ? g->group[t] : top;
        g->n_groups = top + 1;
        trapeze_error e2;
        if (trapeze_grouping_check(g, &e2) != TRAPEZE_OK)
            r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: %s", path, e2.message);
    }
    if (r.status != TRAPEZE_OK)
        trapeze_grouping_free(g);
    return r.status;
}
