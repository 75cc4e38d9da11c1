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
#include <stdint.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/number.h"
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

/* A row's fields as read, whole: a field longer than what a histogram
 * keeps is refused, never cut (cut names matched no copy of themselves,
 * and names sharing their first 63 bytes merged). */
#define FIELD_MAX TRAPEZE_IDLE_NAME_MAX

typedef struct {
    const char *path;
    const char *gpu;       /* NULL: rows of any GPU */
    trapeze_error *err;
    trapeze_status status;
    int line;              /* 1-based line of the row being read */
    int nfield;
    char field[8][FIELD_MAX];
    size_t len[8];         /* each field's length as read */
    int header_seen;
    trapeze_idle_hist *hist;
    int n, cap;
    int *slot;             /* open addressing: a histogram's index + 1, 0: empty */
    size_t nslot;          /* a power of two, at least twice n */
} reader;

static void on_field(void *data, size_t len, void *ctx)
{
    reader *r = ctx;
    if (r->nfield < 8) {
        size_t keep = len < FIELD_MAX - 1 ? len : FIELD_MAX - 1;
        memcpy(r->field[r->nfield], data, keep);
        r->field[r->nfield][keep] = '\0';
        r->len[r->nfield] = len;
    }
    r->nfield++;
}

static trapeze_status bad(reader *r, int col, const char *what)
{
    return trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%d: field %s: %s ('%s')", r->path, r->line,
                        trapeze_idle_csv_columns[col], what, r->field[col]);
}

/* FNV-1a over the four key fields, each with its terminating NUL. */
static uint64_t key_hash(const char *const k[4])
{
    uint64_t x = 14695981039346656037ull;
    for (int c = 0; c < 4; c++)
        for (const unsigned char *p = (const unsigned char *)k[c];; p++) {
            x = (x ^ *p) * 1099511628211ull;
            if (!*p)
                break;
        }
    return x;
}

static uint64_t hist_hash(const trapeze_idle_hist *h)
{
    const char *const k[4] = {h->gpu, h->kernel, h->structure, h->granularity};
    return key_hash(k);
}

static int same_key(const trapeze_idle_hist *h, char field[][FIELD_MAX])
{
    return !strcmp(h->gpu, field[0]) && !strcmp(h->kernel, field[1]) &&
           !strcmp(h->structure, field[2]) && !strcmp(h->granularity, field[3]);
}

/* Doubles the index (rehashing every histogram); 0 when out of memory. */
static int grow_index(reader *r)
{
    size_t nslot = r->nslot ? 2 * r->nslot : 64;
    int *slot = calloc(nslot, sizeof *slot);
    if (!slot)
        return 0;
    for (int i = 0; i < r->n; i++) {
        size_t at = (size_t)hist_hash(&r->hist[i]) & (nslot - 1);
        while (slot[at])
            at = (at + 1) & (nslot - 1);
        slot[at] = i + 1;
    }
    free(r->slot);
    r->slot = slot;
    r->nslot = nslot;
    return 1;
}

/* The histogram of the row's (gpu, kernel, structure, granularity), made
 * when first met; NULL when out of memory. */
static trapeze_idle_hist *group(reader *r)
{
    if ((size_t)(r->n + 1) * 2 > r->nslot && !grow_index(r))
        return NULL;
    const char *const key[4] = {r->field[0], r->field[1], r->field[2], r->field[3]};
    size_t at = (size_t)key_hash(key) & (r->nslot - 1);
    for (; r->slot[at]; at = (at + 1) & (r->nslot - 1))
        if (same_key(&r->hist[r->slot[at] - 1], r->field))
            return &r->hist[r->slot[at] - 1];
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
    r->slot[at] = r->n;
    return h;
}

static trapeze_status take_header(reader *r)
{
    for (int c = 0; c < trapeze_idle_csv_ncolumns; c++)
        if (strcmp(r->field[c], trapeze_idle_csv_columns[c]) != 0)
            return trapeze_fail(r->err, TRAPEZE_EPARSE,
                                "%s:%d: header column %d is '%s', expected '%s'", r->path,
                                r->line, c + 1, r->field[c], trapeze_idle_csv_columns[c]);
    r->header_seen = 1;
    return TRAPEZE_OK;
}

/* The key fields: names within what a histogram holds, a known structure
 * and granularity, the GPU asked for. */
static trapeze_status take_key(reader *r)
{
    const trapeze_idle_hist *h = NULL;
    if (r->len[0] == 0 || r->len[0] >= sizeof h->gpu)
        return bad(r, 0, "a GPU name of 1 to 63 bytes");
    if (r->len[1] >= sizeof h->kernel)
        return bad(r, 1, "a kernel name longer than 1023 bytes");
    if (r->len[2] >= sizeof h->structure ||
        (strcmp(r->field[2], "l1d") && strcmp(r->field[2], "l2") && strcmp(r->field[2], "rf")))
        return bad(r, 2, "not l1d, l2 or rf");
    if (r->len[3] >= sizeof h->granularity || !known_granularity(r->field[2], r->field[3]))
        return bad(r, 3, "not a granularity of this structure");
    if (r->gpu && strcmp(r->field[0], r->gpu))
        return trapeze_fail(r->err, TRAPEZE_EINVAL, "%s:%d: field gpu: histograms of '%s', "
                            "not of the GPU asked for ('%s')", r->path, r->line, r->field[0],
                            r->gpu);
    return TRAPEZE_OK;
}

/* A number the reader refused (out of range included): a malformed file. */
static trapeze_status malformed(reader *r)
{
    if (r->err)
        r->err->code = TRAPEZE_EPARSE;
    return TRAPEZE_EPARSE;
}

static trapeze_status take_row(reader *r)
{
    if (r->nfield != trapeze_idle_csv_ncolumns)
        return trapeze_fail(r->err, TRAPEZE_EPARSE, "%s:%d: %d fields, expected %d", r->path,
                            r->line, r->nfield, trapeze_idle_csv_ncolumns);
    if (!r->header_seen)
        return take_header(r);
    trapeze_status s = take_key(r);
    if (s)
        return s;
    long lo, hi;
    double count;
    trapeze_where at_lo = {r->path, r->line, "field length_min_cycles"};
    trapeze_where at_hi = {r->path, r->line, "field length_max_cycles"};
    trapeze_where at_count = {r->path, r->line, "field count"};
    if (trapeze_num_long(r->field[4], 1, 4294967296L, &at_lo, &lo, r->err) ||
        trapeze_num_long(r->field[5], 1, 4294967296L, &at_hi, &hi, r->err))
        return malformed(r);
    int b = trapeze_idle_bucket((double)lo);
    double blo, bhi;
    trapeze_idle_bucket_range(b, &blo, &bhi);
    if (blo != (double)lo)
        return bad(r, 4, "not the lower bound of a bucket (1..1024 exact, then 2^k+1)");
    if (bhi != (double)hi)
        return bad(r, 5, "not the upper bound of the bucket that starts at length_min_cycles");
    int next = -1;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        if (!strcmp(r->field[6], next_names[a]))
            next = a;
    if (next < 0)
        return bad(r, 6, "not read, write or dead");
    if (trapeze_num_double(r->field[7], 0, DBL_MAX, &at_count, &count, r->err))
        return malformed(r);
    trapeze_idle_hist *h = group(r);
    if (!h)
        return trapeze_fail(r->err, TRAPEZE_ENOMEM, "%s: out of memory", r->path);
    if (!(h->count[next][b] + count <= DBL_MAX))
        return bad(r, 7, "the bucket's total passes the largest number");
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

trapeze_status trapeze_idle_csv_load_gpu(const char *path, const char *gpu,
                                         trapeze_idle_hist **out, int *n, trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    char *text;
    trapeze_status s = trapeze_read_file(path, &text, err);
    if (s)
        return s;
    reader *r = calloc(1, sizeof *r);
    struct csv_parser p;
    if (!r || csv_init(&p, CSV_APPEND_NULL) != 0) {
        free(r);
        free(text);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    *r = (reader){.path = path, .gpu = gpu, .err = err};
    size_t len = strlen(text);
    if (csv_parse(&p, text, len, on_field, on_row, r) != len && r->status == TRAPEZE_OK)
        r->status = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV (%s)", path,
                                 r->line + 1, csv_strerror(csv_error(&p)));
    csv_fini(&p, on_field, on_row, r);
    csv_free(&p);
    free(text);
    if (r->status == TRAPEZE_OK && !r->header_seen)
        r->status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: empty file (no header)", path);
    if (r->status == TRAPEZE_OK && r->n == 0)
        r->status = trapeze_fail(err, TRAPEZE_EPARSE, "%s: no idle-period rows", path);
    s = r->status;
    if (s)
        free(r->hist);
    else {
        *out = r->hist;
        *n = r->n;
    }
    free(r->slot);
    free(r);
    return s;
}

trapeze_status trapeze_idle_csv_load(const char *path, trapeze_idle_hist **out, int *n,
                                     trapeze_error *err)
{
    return trapeze_idle_csv_load_gpu(path, NULL, out, n, err);
}

double trapeze_idle_hist_longest(const trapeze_idle_hist *h)
{
    for (int b = TRAPEZE_IDLE_NBUCKETS - 1; b >= 0; b--)
        for (int a = 0; a < TRAPEZE_NEXT_N; a++)
            if (h->count[a][b] > 0) {
                double lo, hi;
                trapeze_idle_bucket_range(b, &lo, &hi);
                return lo;
            }
    return 0;
}
