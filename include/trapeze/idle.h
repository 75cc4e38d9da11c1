/*
 * trapeze/idle.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Idle-period histograms (a neutral type, common/): buckets, the idle-period
 * CSV, and the fitted distribution the sleep model reads.
 */
#ifndef TRAPEZE_IDLE_H
#define TRAPEZE_IDLE_H

#include "trapeze/error.h"
#include "trapeze/csv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One structure and granularity's idle-period histogram, split by what ends
 * each period. Bucketing of the idle-period CSV (`trapeze sim --idle-csv`):
 * lengths 1..1024 cycles exactly, then log2 buckets [2^k+1, 2^(k+1)],
 * k = 10..31. sampler/ fills it from a simulation, model/ reads it. */
#define TRAPEZE_IDLE_EXACT 1024
#define TRAPEZE_IDLE_NBUCKETS (TRAPEZE_IDLE_EXACT + 22)

typedef enum {
    TRAPEZE_NEXT_READ,    /* the period ends with a read: state must be kept */
    TRAPEZE_NEXT_WRITE,   /* ends with a write that overwrites the contents */
    TRAPEZE_NEXT_DEAD,    /* never accessed again (evicted, warp exited, kernel ended) */
    TRAPEZE_NEXT_N
} trapeze_next_access;
const char *trapeze_next_access_name(trapeze_next_access a);

/* Bytes of a kernel name in an idle-period histogram, with its NUL: the CSV
 * reader refuses a longer name rather than cut it. */
#define TRAPEZE_IDLE_NAME_MAX 1024

typedef struct trapeze_idle_hist {
    char gpu[64], kernel[TRAPEZE_IDLE_NAME_MAX];
    char structure[16];     /* l1d, l2, rf */
    char granularity[16];   /* line, bank (l1d); line, slice (l2); warp_reg, bank (rf) */
    double cycles;          /* cycles observed (the simulated window); 0 when unknown */
    double requesters;      /* SMs whose accesses wait on the structure; 0 when unknown */
    double count[TRAPEZE_NEXT_N][TRAPEZE_IDLE_NBUCKETS];  /* idle periods per bucket */
} trapeze_idle_hist;

/* The bucket of a length in cycles (>= 1), or -1 when out of range. */
int trapeze_idle_bucket(double length);
/* A bucket's inclusive length range, and the length the models give its
 * periods (the exact length, or the middle of a log2 bucket). */
void trapeze_idle_bucket_range(int bucket, double *lo, double *hi);
double trapeze_idle_bucket_length(int bucket);
void trapeze_idle_hist_init(trapeze_idle_hist *h, const char *gpu, const char *kernel,
                            const char *structure, const char *granularity);
/* Number of periods (next: one kind, or -1 for all) and their idle cycles. */
double trapeze_idle_hist_periods(const trapeze_idle_hist *h, int next);
double trapeze_idle_hist_idle_cycles(const trapeze_idle_hist *h, int next);
/* Periods a window's cut left open: ages[b] of them had lasted bucket b's
 * length. Each is spread over the completed periods of h in buckets above its
 * age, in their proportions (next access and length: how a period that has
 * lasted that long ends, by the run so far; the Kaplan-Meier idea); of those with
 * no completed period longer, the share `filled` (clamped to [0, 1]) ends in a
 * write at its age (a cache frame that a line not yet fetched will take) and
 * the rest dead at its age, as if the run ended there. */
void trapeze_idle_hist_add_censored(trapeze_idle_hist *h,
                                    const double ages[TRAPEZE_IDLE_NBUCKETS], double filled);

/* The idle-period CSV, columns exactly trapeze_idle_csv_columns. Loads every
 * (gpu, kernel, structure, granularity) group as one histogram, in order of
 * first appearance, names compared whole (time linear in the file's size);
 * *out is malloc'd (free()). A bucket whose bounds are not the contract's,
 * an unknown structure or next_access, a count not finite and >= 0, a GPU
 * name over 63 bytes or a kernel name over TRAPEZE_IDLE_NAME_MAX - 1:
 * TRAPEZE_EPARSE naming file, line and field. */
extern const char *const trapeze_idle_csv_columns[];
extern const int trapeze_idle_csv_ncolumns;
trapeze_status trapeze_idle_csv_load(const char *path, trapeze_idle_hist **out, int *n,
                                     trapeze_error *err);
/* The same, and with gpu non-NULL every row's gpu field must be gpu (the
 * name of the GPU config the histograms were simulated on, as `trapeze sim
 * --idle-csv` writes it): TRAPEZE_EINVAL naming file and line if not. */
trapeze_status trapeze_idle_csv_load_gpu(const char *path, const char *gpu,
                                         trapeze_idle_hist **out, int *n, trapeze_error *err);
/* The shortest a run can be that holds h's periods: the lower bound of its
 * longest non-empty bucket, in cycles (0: empty). */
double trapeze_idle_hist_longest(const trapeze_idle_hist *h);
/* Appends the non-empty buckets of h as rows of that CSV. */
trapeze_status trapeze_idle_hist_write_rows(const trapeze_idle_hist *h, trapeze_csv_out *csv,
                                            trapeze_error *err);

/* A fitted idle-period distribution (model/idle_fit.c), for short samples
 * whose tails are sparse: per next_access kind, lengths 1..short_max keep
 * their observed counts (point masses), longer periods follow a mixture of
 * two log-normals truncated to > short_max, fitted by binned maximum
 * likelihood (GSL Nelder-Mead). A kind with fewer than min_tail periods
 * beyond short_max keeps its observed counts (fitted = 0). */
typedef struct trapeze_idle_fit {
    int short_max;
    int fitted[TRAPEZE_NEXT_N];
    double tail_periods[TRAPEZE_NEXT_N];      /* observed periods > short_max */
    double weight[TRAPEZE_NEXT_N];            /* of the first log-normal */
    double mu[TRAPEZE_NEXT_N][2], sigma[TRAPEZE_NEXT_N][2];  /* of ln(cycles) */
    double ks[TRAPEZE_NEXT_N];                /* Kolmogorov-Smirnov distance, observed vs fit */
    double ks_all;                            /* the same over all kinds together */
    int iterations;                           /* Nelder-Mead steps, all kinds */
} trapeze_idle_fit;

/* Fits h; smoothed (may be NULL) receives the fitted expected counts on the
 * same buckets, the same total per kind, ready for trapeze_sleep_create. */
trapeze_status trapeze_idle_hist_fit(const trapeze_idle_hist *h, int short_max, double min_tail,
                                     trapeze_idle_fit *fit, trapeze_idle_hist *smoothed,
                                     trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
