/*
 * grouping.c - the explicit TB grouping file (CONTRACTS.md): CSV
 * `tb,group,order`, every TB exactly once, each group's orders 0..size-1.
 * Owns storage, reading (with file/line/field errors), checking and
 * writing; the simulator's explicit dispatch policy runs what it reads, the
 * grouping optimizer (model/group_opt.c) writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "common/csv_in.h"
#include "common/error.h"

static const char *const cols[] = {"tb", "group", "order"};

void trapeze_grouping_free(trapeze_grouping *g)
{
    if (!g)
        return;
    free(g->group);
    free(g->order);
    g->group = NULL;
    g->order = NULL;
}

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

typedef struct {
    const char *path;
    long n_tbs, cap;      /* n_tbs 0: grows with the largest tb seen */
    int max_groups;
    int *group;
    long *order;
    int *line;            /* per TB: the line that placed it, 0 none */
    long rows;
} load_ctx;

static int grow(load_ctx *c, long need)
{
    if (need <= c->cap)
        return 0;
    long cap = c->cap ? c->cap : 1024;
    while (cap < need)
        cap *= 2;
    int *g = realloc(c->group, (size_t)cap * sizeof *g);
    if (g)
        c->group = g;
    long *o = realloc(c->order, (size_t)cap * sizeof *o);
    if (o)
        c->order = o;
    int *l = realloc(c->line, (size_t)cap * sizeof *l);
    if (l)
        c->line = l;
    if (!g || !o || !l)
        return -1;
    memset(c->line + c->cap, 0, (size_t)(cap - c->cap) * sizeof *l);
    c->cap = cap;
    return 0;
}

static trapeze_status row(void *vctx, const long long *v, int line, trapeze_error *err)
{
    load_ctx *c = vctx;
    long limit = c->n_tbs ? c->n_tbs : (1L << 31) - 1;
    if (v[0] < 0 || v[0] >= limit)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field tb: %lld is not a TB of the "
                            "kernel (0..%ld)", c->path, line, v[0], limit - 1);
    if (v[1] < 0 || (c->max_groups > 0 && v[1] >= c->max_groups) || v[1] > 1 << 20)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field group: %lld is not a group "
                            "queue (0..%d)", c->path, line, v[1],
                            c->max_groups > 0 ? c->max_groups - 1 : 1 << 20);
    if (v[2] < 0 || v[2] >= limit)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field order: %lld is out of range",
                            c->path, line, v[2]);
    if (grow(c, (long)v[0] + 1))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", c->path);
    long tb = (long)v[0];
    if (c->line[tb])
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field tb: TB %ld again (first on "
                            "line %d)", c->path, line, tb, c->line[tb]);
    c->line[tb] = line;
    c->group[tb] = (int)v[1];
    c->order[tb] = (long)v[2];
    c->rows++;
    return TRAPEZE_OK;
}

/* Every TB once, and each group's orders exactly 0..size-1. */
static trapeze_status check(load_ctx *c, long n, int n_groups, trapeze_error *err)
{
    for (long tb = 0; tb < n; tb++)
        if (!c->line[tb])
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s: field tb: TB %ld is missing (every TB "
                                "of the kernel exactly once)", c->path, tb);
    long *size = calloc((size_t)n_groups, sizeof *size);
    long *start = calloc((size_t)n_groups + 1, sizeof *start);
    char *seen = calloc((size_t)n, 1);
    trapeze_status s = TRAPEZE_OK;
    if (!size || !start || !seen) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", c->path);
        goto out;
    }
    for (long tb = 0; tb < n; tb++)
        size[c->group[tb]]++;
    for (int g = 0; g < n_groups; g++)
        start[g + 1] = start[g] + size[g];
    for (long tb = 0; tb < n && !s; tb++) {
        int g = c->group[tb];
        if (c->order[tb] >= size[g])
            s = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field order: %ld, but group %d holds "
                             "%ld TBs (orders 0..%ld)", c->path, c->line[tb], c->order[tb], g,
                             size[g], size[g] - 1);
        else if (seen[start[g] + c->order[tb]]++)
            s = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field order: %ld appears twice in "
                             "group %d", c->path, c->line[tb], c->order[tb], g);
    }
out:
    free(size);
    free(start);
    free(seen);
    return s;
}

trapeze_status trapeze_grouping_load(const char *path, long n_tbs, int max_groups,
                                     trapeze_grouping *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    load_ctx c = {.path = path, .n_tbs = n_tbs, .max_groups = max_groups};
    trapeze_status s = trapeze_csv_read_integers(path, cols, 3, row, &c, err);
    long n = n_tbs > 0 ? n_tbs : c.cap;
    if (!s && n_tbs <= 0) {   /* the TBs are 0..largest id */
        n = 0;
        for (long tb = 0; tb < c.cap; tb++)
            if (c.line[tb])
                n = tb + 1;
    }
    if (!s && c.rows == 0)
        s = trapeze_fail(err, TRAPEZE_EPARSE, "%s: no TBs", path);
    if (!s && grow(&c, n))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    int n_groups = 0;
    for (long tb = 0; !s && tb < n; tb++)
        if (c.line[tb] && c.group[tb] + 1 > n_groups)
            n_groups = c.group[tb] + 1;
    if (!s)
        s = check(&c, n, n_groups, err);
    free(c.line);
    if (s) {
        free(c.group);
        free(c.order);
        return s;
    }
    out->n_tbs = n;
    out->n_groups = n_groups;
    out->group = c.group;
    out->order = c.order;
    return TRAPEZE_OK;
}

trapeze_status trapeze_grouping_save(const char *path, const trapeze_grouping *g,
                                     trapeze_error *err)
{
    trapeze_csv_out *csv = NULL;
    trapeze_status s = trapeze_grouping_check(g, err);   /* never write a bad file */
    if (!s)
        s = trapeze_csv_create(path, cols, 3, &csv, err);
    for (long tb = 0; !s && tb < g->n_tbs; tb++) {
        trapeze_csv_number(csv, (double)tb);
        trapeze_csv_number(csv, (double)g->group[tb]);
        trapeze_csv_number(csv, (double)g->order[tb]);
        s = trapeze_csv_end_row(csv, err);
    }
    if (s) {
        if (csv)
            trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}
