/*
 * idle_hist.c - the neutral idle-period histogram (trapeze_idle_hist) and
 * its CSV form, the contract between the simulator's `--idle-csv` and the
 * sleep model. Owns the bucketing (exact lengths 1..1024, then log2
 * buckets [2^k+1, 2^(k+1)]), reading and writing rows, and checking them.
 * Must not know power modes or policies (model/sleep.c does).
 *
 * Invariant: every count is finite and >= 0; a row's bounds are exactly one
 * bucket's bounds.
 */
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"

#define LOG_K0 10   /* first log2 bucket: [2^10+1, 2^11] */

const char *const trapeze_idle_csv_columns[] = {
    "gpu", "kernel", "structure", "granularity", "length_min_cycles",
    "length_max_cycles", "next_access", "count"};
const int trapeze_idle_csv_ncolumns = 8;

static const char *const next_names[TRAPEZE_NEXT_N] = {"read", "write", "dead"};

const char *trapeze_next_access_name(trapeze_next_access a)
{
    return a >= 0 && a < TRAPEZE_NEXT_N ? next_names[a] : "?";
}

int trapeze_idle_bucket(double length)
{
    if (!(length >= 1.0) || length > 4294967296.0)
        return -1;
    unsigned long long n = (unsigned long long)ceil(length - 1e-9);
    if (n <= TRAPEZE_IDLE_EXACT)
        return (int)n - 1;
    int k = 0;
    for (unsigned long long v = n - 1; v > 1; v >>= 1)
        k++;    /* k = floor(log2(n - 1)): n in [2^k + 1, 2^(k+1)] */
    return TRAPEZE_IDLE_EXACT + (k - LOG_K0);
}

void trapeze_idle_bucket_range(int b, double *lo, double *hi)
{
    if (b < TRAPEZE_IDLE_EXACT) {
        *lo = *hi = b + 1;
        return;
    }
    double p = ldexp(1.0, LOG_K0 + (b - TRAPEZE_IDLE_EXACT));
    *lo = p + 1;
    *hi = 2 * p;
}

double trapeze_idle_bucket_length(int b)
{
    double lo, hi;
    trapeze_idle_bucket_range(b, &lo, &hi);
    return 0.5 * (lo + hi);
}

/* Truncating copy (memcpy, not snprintf: gcc's -Wformat-truncation sees
 * through inlining that a longer field may be cut, which is the intent). */
static void copy_name(char *dst, size_t n, const char *src)
{
    size_t len = src ? strnlen(src, n - 1) : 0;
    if (len)
        memcpy(dst, src, len);
    dst[len] = '\0';
}

void trapeze_idle_hist_init(trapeze_idle_hist *h, const char *gpu, const char *kernel,
                            const char *structure, const char *granularity)
{
    memset(h, 0, sizeof *h);
    copy_name(h->gpu, sizeof h->gpu, gpu);
    copy_name(h->kernel, sizeof h->kernel, kernel);
    copy_name(h->structure, sizeof h->structure, structure);
    copy_name(h->granularity, sizeof h->granularity, granularity);
}

static double sum_over(const trapeze_idle_hist *h, int next, int weighted)
{
    double total = 0;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++) {
        if (next >= 0 && a != next)
            continue;
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
            total += h->count[a][b] * (weighted ? trapeze_idle_bucket_length(b) : 1.0);
    }
    return total;
}

double trapeze_idle_hist_periods(const trapeze_idle_hist *h, int next)
{
    return sum_over(h, next, 0);
}

double trapeze_idle_hist_idle_cycles(const trapeze_idle_hist *h, int next)
{
    return sum_over(h, next, 1);
}

/* Why not dead at the cut: where a 20000-cycle window is a small part of a
 * long run, the lines it leaves idle are mostly read again later; counted
 * dead they were gated for free, and the GTX 480's GESUMMV L2 was predicted
 * to save 97% where the whole run saves 81%. Counted as reads at their age
 * instead, the model predicted 6-23 points too little (docs/sleep.md).
 * Those older than every completed period have nothing to be spread over:
 * the caller's `filled` share of them will take a new line (a fill, a
 * write), the rest stay dead. */
void trapeze_idle_hist_add_censored(trapeze_idle_hist *h, const double ages[TRAPEZE_IDLE_NBUCKETS],
                                    double filled)
{
    filled = filled > 0 ? (filled < 1 ? filled : 1) : 0;
    static const int nb = TRAPEZE_IDLE_NBUCKETS;
    double above[TRAPEZE_IDLE_NBUCKETS + 1]; /* completed periods in buckets > b */
    double (*done)[TRAPEZE_IDLE_NBUCKETS] = malloc(sizeof h->count);
    if (!done) { /* no room to spread them: the run-ended reading */
        for (int b = 0; b < nb; b++) {
            h->count[TRAPEZE_NEXT_WRITE][b] += filled * ages[b];
            h->count[TRAPEZE_NEXT_DEAD][b] += (1 - filled) * ages[b];
        }
        return;
    }
    memcpy(done, h->count, sizeof h->count); /* the completed periods alone */
    above[nb - 1] = 0;
    for (int b = nb - 1; b > 0; b--) {
        above[b - 1] = above[b];
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            above[b - 1] += done[x][b];
    }
    for (int a = 0; a < nb; a++) {
        if (!(ages[a] > 0))
            continue;
        if (!(above[a] > 0)) {
            h->count[TRAPEZE_NEXT_WRITE][a] += filled * ages[a];
            h->count[TRAPEZE_NEXT_DEAD][a] += (1 - filled) * ages[a];
            continue;
        }
        double w = ages[a] / above[a];
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            for (int b = a + 1; b < nb; b++)
                h->count[x][b] += w * done[x][b];
    }
    free(done);
}

/* ------------------------------------------------------------ CSV rows */

trapeze_status trapeze_idle_hist_write_rows(const trapeze_idle_hist *h, trapeze_csv_out *csv,
                                            trapeze_error *err)
{
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
        for (int a = 0; a < TRAPEZE_NEXT_N; a++) {
            if (h->count[a][b] == 0)
                continue;
            double lo, hi;
            trapeze_idle_bucket_range(b, &lo, &hi);
            trapeze_csv_text(csv, h->gpu);
            trapeze_csv_text(csv, h->kernel);
            trapeze_csv_text(csv, h->structure);
            trapeze_csv_text(csv, h->granularity);
            trapeze_csv_number(csv, lo);
            trapeze_csv_number(csv, hi);
            trapeze_csv_text(csv, next_names[a]);
            trapeze_csv_number(csv, h->count[a][b]);
            trapeze_status s = trapeze_csv_end_row(csv, err);
            if (s)
                return s;
        }
    return TRAPEZE_OK;
}

/* The contract's granularities per structure. */
static int known_granularity(const char *structure, const char *g)
{
    if (strcmp(structure, "l1d") == 0)
        return strcmp(g, "line") == 0 || strcmp(g, "bank") == 0;
    if (strcmp(structure, "l2") == 0)
        return strcmp(g, "line") == 0 || strcmp(g, "slice") == 0;
    if (strcmp(structure, "rf") == 0)
        return strcmp(g, "warp_reg") == 0 || strcmp(g, "bank") == 0;
    return 0;
}

typedef struct {
    const char *path;
    trapeze_error *err;
    trapeze_status status;
    int line;              /* 1-based line of the row being read */
    int nfield;
    char field[8][96];
    int header_seen;
    trapeze_idle_hist *hist;
    int n, cap;
} reader;

static void on_field(void *data, size_t len, void *ctx)
{
    reader *r = ctx;
    if (r->nfield < 8)
        snprintf(r->field[r->nfield], sizeof r->field[0], "%.*s", (int)len, (const char *)data);
    r->nfield++;
}

static trapeze_status bad(reader *r, int col, const char *what)
{
    return trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%d: field %s: %s ('%s')", r->path, r->line,
                        trapeze_idle_csv_columns[col], what, r->field[col]);
}

static trapeze_idle_hist *group(reader *r)
{
    for (int i = 0; i < r->n; i++) {
        trapeze_idle_hist *h = &r->hist[i];
        if (!strcmp(h->gpu, r->field[0]) && !strcmp(h->kernel, r->field[1]) &&
            !strcmp(h->structure, r->field[2]) && !strcmp(h->granularity, r->field[3]))
            return h;
    }
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 4;
        trapeze_idle_hist *grown = realloc(r->hist, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        r->hist = grown;
        r->cap = cap;
    }
    trapeze_idle_hist *h = &r->hist[r->n++];
    trapeze_idle_hist_init(h, r->field[0], r->field[1], r->field[2], r->field[3]);
    return h;
}

static trapeze_status take_row(reader *r)
{
    if (r->nfield != trapeze_idle_csv_ncolumns)
        return trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%d: %d fields, expected %d", r->path,
                            r->line, r->nfield, trapeze_idle_csv_ncolumns);
    if (!r->header_seen) {
        for (int c = 0; c < trapeze_idle_csv_ncolumns; c++)
            if (strcmp(r->field[c], trapeze_idle_csv_columns[c]) != 0)
                return trapeze_fail(r->err, TRAPEZE_EPARSE,
                                    "%s:%d: header column %d is '%s', expected '%s'", r->path,
                                    r->line, c + 1, r->field[c], trapeze_idle_csv_columns[c]);
        r->header_seen = 1;
        return TRAPEZE_OK;
    }
    if (strcmp(r->field[2], "l1d") && strcmp(r->field[2], "l2") && strcmp(r->field[2], "rf"))
        return bad(r, 2, "not l1d, l2 or rf");
    if (!known_granularity(r->field[2], r->field[3]))
        return bad(r, 3, "not a granularity of this structure");
    double lo, hi, count;
    if (!trapeze_parse_double(r->field[4], &lo) || lo != floor(lo))
        return bad(r, 4, "not a whole number of cycles");
    if (!trapeze_parse_double(r->field[5], &hi) || hi != floor(hi))
        return bad(r, 5, "not a whole number of cycles");
    int b = trapeze_idle_bucket(lo);
    double blo, bhi;
    if (b < 0)
        return bad(r, 4, "outside 1..2^32");
    trapeze_idle_bucket_range(b, &blo, &bhi);
    if (blo != lo)
        return bad(r, 4, "not the lower bound of a bucket (1..1024 exact, then 2^k+1)");
    if (bhi != hi)
        return bad(r, 5, "not the upper bound of the bucket that starts at length_min_cycles");
    int next = -1;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        if (!strcmp(r->field[6], next_names[a]))
            next = a;
    if (next < 0)
        return bad(r, 6, "not read, write or dead");
    if (!trapeze_parse_double(r->field[7], &count) || count < 0)
        return bad(r, 7, "not a count >= 0");
    trapeze_idle_hist *h = group(r);
    if (!h)
        return trapeze_fail(r->err, TRAPEZE_ENOMEM, "%s: out of memory", r->path);
    h->count[next][b] += count;
    return TRAPEZE_OK;
}

static void on_row(int c, void *ctx)
{
    (void)c;
    reader *r = ctx;
    r->line++;
    if (r->status == TRAPEZE_OK)
        r->status = take_row(r);
    r->nfield = 0;
}

trapeze_status trapeze_idle_csv_load(const char *path, trapeze_idle_hist **out, int *n,
                                     trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    char *text;
    trapeze_status s = trapeze_read_file(path, &text, err);
    if (s)
        return s;
    reader r = {.path = path, .err = err};
    struct csv_parser p;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        free(text);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    size_t len = strlen(text);
    if (csv_parse(&p, text, len, on_field, on_row, &r) != len && r.status == TRAPEZE_OK)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV (%s)", path,
                                r.line + 1, csv_strerror(csv_error(&p)));
    csv_fini(&p, on_field, on_row, &r);
    csv_free(&p);
    free(text);
    if (r.status == TRAPEZE_OK && !r.header_seen)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: empty file (no header)", path);
    if (r.status == TRAPEZE_OK && r.n == 0)
        r.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: no idle-period rows", path);
    if (r.status) {
        free(r.hist);
        return r.status;
    }
    *out = r.hist;
    *n = r.n;
    return TRAPEZE_OK;
}
