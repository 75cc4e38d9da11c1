/*
 * trapeze.h - the public C API of libtrapeze.
 *
 * Conventions (after NLopt and GSL): every function is trapeze_<module>_<verb>;
 * objects are opaque handles with create/destroy; every fallible call returns a
 * trapeze_status and, when given a non-NULL trapeze_error, fills it with one
 * human-readable line naming file, line and field where those exist. The
 * library keeps no global state.
 */
#ifndef TRAPEZE_H
#define TRAPEZE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRAPEZE_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

typedef enum {
    TRAPEZE_OK = 0,
    TRAPEZE_EIO = 1,      /* a file could not be opened, read or written */
    TRAPEZE_EPARSE = 2,   /* malformed input: config, workload, CSV, trace */
    TRAPEZE_ERANGE = 3,   /* a value outside its valid range */
    TRAPEZE_EINVAL = 4,   /* an invalid argument to an API call */
    TRAPEZE_ENOMEM = 5,   /* allocation failed */
    TRAPEZE_EFAIL = 6     /* a numerical method failed */
} trapeze_status;

typedef struct trapeze_error {
    trapeze_status code;
    char message[768];
} trapeze_error;

const char *trapeze_status_name(trapeze_status status);

/* ----------------------------------------- GPU config (gpgpusim.config) */

/* A parsed gpgpusim.config: "-option value..." lines, '#' comments. Values
 * stay strings until a consumer asks for a type, so that an error can name
 * the file, line and option of the value that is wrong. */
typedef struct trapeze_config trapeze_config;

trapeze_status trapeze_config_load(const char *path, trapeze_config **out,
                                   trapeze_error *err);
/* Parse text as if it were the file `name` (for tests and embedding). */
trapeze_status trapeze_config_parse(const char *text, const char *name,
                                    trapeze_config **out, trapeze_error *err);
void trapeze_config_destroy(trapeze_config *cfg);

const char *trapeze_config_name(const trapeze_config *cfg);
int trapeze_config_has(const trapeze_config *cfg, const char *option);
/* Typed getters: `fallback` when the option is absent; a malformed value is
 * TRAPEZE_EPARSE with "file:line: option -x: ..." in err. Every getter marks
 * the option as used, so unused ones can be reported as ignored. */
trapeze_status trapeze_config_get_int(const trapeze_config *cfg, const char *option,
                                      long fallback, long *out, trapeze_error *err);
trapeze_status trapeze_config_get_double(const trapeze_config *cfg, const char *option,
                                         double fallback, double *out,
                                         trapeze_error *err);
trapeze_status trapeze_config_get_string(const trapeze_config *cfg, const char *option,
                                         const char *fallback, const char **out);
/* A list of numbers separated by any of `seps` ("1300.0:650.0:650.0:1107.0"). */
trapeze_status trapeze_config_get_doubles(const trapeze_config *cfg, const char *option,
                                          const char *seps, double *values,
                                          int max_values, int *count,
                                          trapeze_error *err);
/* Report a semantic error about an option's value, located at its line. */
trapeze_status trapeze_config_fail(const trapeze_config *cfg, const char *option,
                                   trapeze_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Options present in the file that no getter has asked for (ignored by
 * Trapeze). Returns how many; writes at most `max` names. */
size_t trapeze_config_unused(const trapeze_config *cfg, const char **names, size_t max);

/* The hardware facts every model needs, read from a config. */
typedef struct trapeze_gpu {
    char name[64];
    int n_sm;                     /* clusters x cores per cluster */
    double core_clock_hz;
    double dram_bandwidth_bps;    /* peak bytes per second */
    int warp_size;
    int max_threads_per_block;    /* from the compute capability */
    int shmem_per_block;          /* bytes, from the compute capability */
    int shmem_per_sm;             /* bytes */
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int coalesce_degree;          /* words per coalesced request */
    int compute_capability;       /* e.g. 13, 20, 70 */
} trapeze_gpu;

trapeze_status trapeze_gpu_from_config(const trapeze_config *cfg, trapeze_gpu *gpu,
                                       trapeze_error *err);


/* ------------------------------------------------------ CSV output files */

/* Rows go to PATH.tmp, which replaces PATH only on trapeze_csv_commit(), so a
 * failed or interrupted run never leaves a half-written file. Numbers are
 * written in the shortest form that reads back to the same double. */
typedef struct trapeze_csv_out trapeze_csv_out;

trapeze_status trapeze_csv_create(const char *path, const char *const *columns, int ncolumns,
                                  trapeze_csv_out **out, trapeze_error *err);
trapeze_status trapeze_csv_text(trapeze_csv_out *csv, const char *value);
trapeze_status trapeze_csv_number(trapeze_csv_out *csv, double value);
/* Ends the current row; checks it had exactly ncolumns fields. */
trapeze_status trapeze_csv_end_row(trapeze_csv_out *csv, trapeze_error *err);
/* Flushes, renames PATH.tmp to PATH and frees csv. */
trapeze_status trapeze_csv_commit(trapeze_csv_out *csv, trapeze_error *err);
/* Removes PATH.tmp and frees csv (safe on NULL). */
void trapeze_csv_abort(trapeze_csv_out *csv);

/* ------------------------------------------------- ghost-zone model (Meng ch.5) */

/* An iterative stencil loop (workload spec, INI). Inputs of the model. */
#define TRAPEZE_MAX_DIMS 3
typedef struct trapeze_workload {
    char name[64];
    char path[256];
    int dims;                           /* D: 1, 2 or 3 */
    double data_len[TRAPEZE_MAX_DIMS];  /* DataLength_i */
    int halo[TRAPEZE_MAX_DIMS];         /* HaloWidth_i (both sides together) */
    int blk_len;                        /* thread-block edge, the same in every dimension */
    int regs_per_thread;                /* registers per thread (16, the generated kernels') */
    int stencil_arrays;                 /* NumStencilArrays */
    double elem_per_op;                 /* NumElemPerOp */
    int element_bytes;                  /* x */
    int iterations;                     /* stencil loops to run (simulation) */
    int height;                         /* trapezoid height to run; 0 = unset */
    double profile_elements;            /* N of the profiling run */
    double insts_per_sm_mc;             /* InstsPerSM_MC */
    double insts_per_sm_ic;             /* InstsPerSM_IC */
    double bank_conflict_rate;
} trapeze_workload;

trapeze_status trapeze_workload_load(const char *path, trapeze_workload *w,
                                     trapeze_error *err);

/* The parameter vector: every constant Meng measured, assumed or fitted.
 * Calibration fits these; the default is the dissertation's GTX 280 set. */
typedef enum {
    TRAPEZE_GZ_UNCONTENDED_LAT,   /* UncontendedLat, cycles (assumed 300) */
    TRAPEZE_GZ_SIGMA,             /* sigma: alpha = sigma^(D-1) (fitted 5.0) */
    TRAPEZE_GZ_BETA,              /* beta: latency hiding (assumed 0.5; used only with tau) */
    TRAPEZE_GZ_MU,                /* mu: exposed fraction of fence sync (assumed 0.5) */
    TRAPEZE_GZ_FENCE_PER_BLOCK,   /* fence-barrier cycles per block (measured 210.3) */
    TRAPEZE_GZ_RELAUNCH,          /* kernel relaunch cycles (measured 3350) */
    TRAPEZE_GZ_CPI,               /* cycles per warp instruction (4) */
    TRAPEZE_GZ_BLOCKS_PER_SM,     /* BlksPerSM (8) */
    TRAPEZE_GZ_BW_FRACTION,       /* achieved / peak DRAM bandwidth (extension; 1 = Meng) */
    TRAPEZE_GZ_FENCE_BARRIER,     /* fence-barrier cycles per stage, the intercept of Meng's
                                     fit (his "negligible" delta; 0 = Meng) */
    TRAPEZE_GZ_OVERLAP,           /* omega: memory/compute overlap, CPS = GlbSync +
                                     (MemAcc^p + Comp^p)^(1/p), p = 1/(1-omega): 0 is
                                     Meng's sum, toward 1 the larger of the two (extension) */
    TRAPEZE_GZ_TILE_CYCLES,       /* relaunch: cycles per tile on the busiest SM beyond its
                                     instructions (block dispatch and retire; 0 = Meng) */
    TRAPEZE_GZ_FENCE_MISC,        /* fence: fraction of MiscComp the persistent kernel still
                                     runs per tile (staging, commit; 0 = Meng, who drops it) */
    TRAPEZE_GZ_FENCE_POLL,        /* fence: cycles per stage per participating block and per
                                     wave of tiles it waits through (polling contention at
                                     the L2; 0 = Meng) */
    TRAPEZE_GZ_OVERLAP_FENCE,     /* omega of fence mode when fence_overlap = 1 */
    TRAPEZE_GZ_NPARAMS
} trapeze_gz_param;

/* A workload's [profile] counts as measured on the calibrated GPU (the
 * profiling run of a calibration). They replace the workload spec's counts
 * in trapeze_gz_create when the names match (case-insensitive). */
#define TRAPEZE_GZ_MAX_PROFILES 16
typedef struct trapeze_gz_profile {
    char workload[64];
    double input_elements, insts_per_sm_mc, insts_per_sm_ic, bank_conflict_rate;
} trapeze_gz_profile;

typedef struct trapeze_gz_params {
    double value[TRAPEZE_GZ_NPARAMS];
    double stderr_[TRAPEZE_GZ_NPARAMS];  /* standard errors from a fit; 0 when unknown */
    char source[128];                    /* where the values came from */
    int whole_tiles;                     /* extension, "whole_tiles = 1" in [ghostzone]: at a
                                            whole h, T = prod ceil(DataLength_i / edge_i) and
                                            the busiest SM runs ceil(T / M) trapezoids, as a
                                            launch does (else 5.3's real-valued T) */
    int occupancy;                       /* "occupancy = 1": resident blocks per SM from the GPU
                                            and the workload's block, registers and shared
                                            memory (trapeze_gz_occupancy), not blocks_per_sm */
    int waves;                           /* "waves = 1": at a whole h, passes (5.6) are whole
                                            waves, ceil(T / (BlksPerSM M)): the partial last
                                            wave costs a whole latency */
    int persistent_fence;                /* "persistent_fence = 1": the fence barrier's blocks
                                            are the persistent kernel's, min(T, BlksPerSM M),
                                            not T (5.18) */
    int fence_overlap;                   /* "fence_overlap = 1": fence mode has its own omega */
    double corr[TRAPEZE_GZ_NPARAMS][TRAPEZE_GZ_NPARAMS]; /* fitted parameters' correlations
                                            ([correlation] "a,b = r"; 0 when unknown); with
                                            stderr_ they give the fit's covariance */
    int n_profiles;                      /* [profile.NAME] sections of a calibration file */
    trapeze_gz_profile profile[TRAPEZE_GZ_MAX_PROFILES];
} trapeze_gz_params;

const char *trapeze_gz_param_name(trapeze_gz_param p);
/* The physically meaningful range of a parameter (fits stay inside it). */
void trapeze_gz_param_range(trapeze_gz_param p, double *lo, double *hi);
/* Meng's GTX 280 values (Table 5.1, sections 5.4.2-5.4.5). */
void trapeze_gz_params_default(trapeze_gz_params *p);
/* A calibration file: [ghostzone] name = value for each parameter; absent
 * names keep their default; unknown names are errors. [profile.NAME]
 * sections (input_elements, insts_per_sm_mc, insts_per_sm_ic,
 * bank_conflict_rate) carry the measured counts of workload NAME. */
trapeze_status trapeze_gz_params_load(const char *path, trapeze_gz_params *p,
                                      trapeze_error *err);
trapeze_status trapeze_gz_params_save(const char *path, const trapeze_gz_params *p,
                                      trapeze_error *err);

typedef enum { TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE } trapeze_sync;
const char *trapeze_sync_name(trapeze_sync s);

/* The six per-loop components of Eq. 5.24 (5.25-5.30), in CSV order. */
typedef enum {
    TRAPEZE_GZ_GLBSYNC, TRAPEZE_GZ_LOADSTEN, TRAPEZE_GZ_COMMIT,
    TRAPEZE_GZ_ITERMEM, TRAPEZE_GZ_MISCCOMP, TRAPEZE_GZ_ITERCOMP,
    TRAPEZE_GZ_NCOMPONENTS
} trapeze_gz_component;
const char *trapeze_gz_component_name(trapeze_gz_component c);

typedef struct trapeze_gz_eval {
    double trapezoids;                         /* T (5.3), real-valued */
    double passes;                             /* 5.6 */
    double stage[TRAPEZE_GZ_NCOMPONENTS];      /* per stage: GlbSync, LoadSten, Commit,
                                                  IterMem, MiscComp, IterComp (per trapezoid
                                                  for the last two, as in 5.15/5.16) */
    double per_loop[TRAPEZE_GZ_NCOMPONENTS];   /* 5.25-5.30 */
    double cps;                                /* 5.2 */
    double cpl;                                /* 5.1 = sum of per_loop */
    double dcpl_dh;                            /* analytic gradient */
    double dcpl_dblk;
    double dcpl_dparam[TRAPEZE_GZ_NPARAMS];
} trapeze_gz_eval;

typedef struct trapeze_gz_model trapeze_gz_model;

trapeze_status trapeze_gz_create(const trapeze_gpu *gpu, const trapeze_workload *w,
                                 const trapeze_gz_params *p, trapeze_gz_model **out,
                                 trapeze_error *err);
void trapeze_gz_destroy(trapeze_gz_model *m);
/* tau = (1 - beta)(1 + BankConflictRate) in 5.11; off ("paper mode") by default. */
void trapeze_gz_set_tau(trapeze_gz_model *m, int enabled);
void trapeze_gz_set_params(trapeze_gz_model *m, const trapeze_gz_params *p);
const trapeze_workload *trapeze_gz_workload(const trapeze_gz_model *m);
const trapeze_gpu *trapeze_gz_gpu(const trapeze_gz_model *m);

/* CPL and its parts at (h, blk_len); both may be real-valued. TRAPEZE_ERANGE
 * if (h, blk_len) violates 5.20 or h < 1. */
trapeze_status trapeze_gz_evaluate(const trapeze_gz_model *m, trapeze_sync sync, double h,
                                   double blk_len, trapeze_gz_eval *out, trapeze_error *err);
/* Largest integer h with blk_len - HaloWidth_i * h > 0 for every i (5.20). */
int trapeze_gz_max_height(const trapeze_gz_model *m, int blk_len);
/* Resident blocks per SM of the workload's block (blk_len^D threads, its
 * registers, stencil_arrays tiles of shared memory), by the same rule as the
 * simulator's occupancy: CTA slots, threads, warps, registers, shared memory. */
int trapeze_gz_occupancy(const trapeze_gpu *gpu, const trapeze_workload *w, int blk_len);
/* delta of Eq. 5.23: per-block net cost of fences over relaunch. */
double trapeze_gz_delta(const trapeze_gz_model *m, double blk_len);

typedef struct trapeze_gz_optimum {
    trapeze_sync sync;
    double h_continuous;   /* h* from NLopt under 5.20 */
    int h_floor;           /* floor(h*): what the dissertation reports */
    int h_argmin;          /* integer argmin of CPL over every valid h */
    int blk_len;           /* block edge used (optimized when asked) */
    double blk_continuous; /* continuous optimum of the block edge, when optimized */
    double cpl_floor;      /* CPL(h_floor) */
    double cpl_argmin;     /* CPL(h_argmin) */
    double cpl_h1;         /* CPL(1): no ghost zone */
    int evaluations;       /* model evaluations by the optimizer */
} trapeze_gz_optimum;

/* Minimizes CPL over h with NLopt (gradient-based, constraint 5.20). With
 * optimize_block, blk_len is a second decision variable bounded by the GPU's
 * threads per block and shared memory per block. */
trapeze_status trapeze_gz_optimize(const trapeze_gz_model *m, trapeze_sync sync,
                                   int optimize_block, trapeze_gz_optimum *out,
                                   trapeze_error *err);

/* One integer decision (sync mode, h) and what is known of it. */
typedef struct trapeze_gz_choice {
    trapeze_sync sync;
    int h;
    double cpl_model;
    double diff_sd;            /* standard deviation of cpl_model - the best's cpl_model,
                                  from the fit's covariance (0 for the best, and when the
                                  calibration has no standard errors) */
    int index;                 /* position before ranking (internal) */
    double cpl_sim;            /* trapeze_calib_verify: simulated CPL (0: not simulated) */
    double warp_instructions;  /* trapeze_calib_verify: what simulating it cost */
} trapeze_gz_choice;

/* Every valid (mode, h) at block edge blk_len, best first by the model's CPL
 * (*out is malloc'ed: free() it). p: the model's parameters, whose stderr_
 * and corr give each candidate's uncertainty relative to the best. */
trapeze_status trapeze_gz_rank(const trapeze_gz_model *m, const trapeze_gz_params *p, int blk_len,
                               trapeze_gz_choice **out, int *n, trapeze_error *err);

/* Writes one row per valid h (1..max height) of this model and sync mode:
 * workload,gpu,sync,h,trapezoids,cpl_cycles,glbsync_cycles,loadsten_cycles,
 * commit_cycles,itermem_cycles,misccomp_cycles,itercomp_cycles,speedup_vs_h1 */
extern const char *const trapeze_gz_csv_columns[];
extern const int trapeze_gz_csv_ncolumns;
trapeze_status trapeze_gz_write_rows(const trapeze_gz_model *m, trapeze_sync sync,
                                     int blk_len, trapeze_csv_out *csv, trapeze_error *err);

/* ------------------------------------------------ calibration (sampler/) */

/* One observation: a workload on a GPU (the model), a sync mode and height,
 * and the cycles per loop measured by simulation or on hardware. */
typedef struct trapeze_calib_point {
    trapeze_gz_model *model;   /* its parameters are overwritten while fitting */
    trapeze_sync sync;
    double h, blk_len;
    double cpl_measured;
} trapeze_calib_point;

typedef struct trapeze_calib_report {
    /* identifiability, per parameter (fitted ones only): at a range limit,
     * and its largest |correlation| with another fitted parameter */
    int at_bound[TRAPEZE_GZ_NPARAMS];
    double max_corr[TRAPEZE_GZ_NPARAMS];
    int corr_with[TRAPEZE_GZ_NPARAMS];
    /* extrapolation: a fit without the largest samples, judged on them */
    int n_holdout;
    double holdout_mape_pct, holdout_max_ape_pct, holdout_bias_pct;
    int n_points, n_fitted, iterations;
    double rms_rel_error;     /* in-sample root mean square of relative residuals */
    double cv_mape_pct;       /* k-fold cross-validated mean absolute % error */
    double cv_max_ape_pct;
} trapeze_calib_report;

#define TRAPEZE_GZ_MASK(p) (1u << (p))

/* Fits the parameters selected by `mask` (TRAPEZE_GZ_MASK bits) by nonlinear
 * least squares on relative residuals (GSL trust region, the model's analytic
 * Jacobian), each kept inside its physical range by a change of variable.
 * p: starting values in; fitted values and standard errors out. Every
 * point's model is left holding the fitted parameters. */
trapeze_status trapeze_calib_fit(trapeze_calib_point *pts, int n, unsigned mask,
                                 trapeze_gz_params *p, trapeze_calib_report *rep,
                                 trapeze_error *err);
/* k-fold cross-validation of that fit (folds by a seeded shuffle): fills
 * rep->cv_mape_pct and rep->cv_max_ape_pct. Models end with `start`. */
trapeze_status trapeze_calib_cross_validate(trapeze_calib_point *pts, int n, unsigned mask,
                                            const trapeze_gz_params *start, int k,
                                            unsigned long seed, trapeze_calib_report *rep,
                                            trapeze_error *err);

/* samples.csv: the calibration's observations, one row per finished
 * sample, appended whole (one write, then fsync) the moment a sample ends,
 * so an interrupted run loses nothing and a restarted one skips what is
 * done. A torn last line (a crash mid-write) is cut off on open. Measured
 * rows from real hardware use the same columns. */
typedef struct trapeze_sample {
    char id[96];            /* unique key of the planned sample */
    char kind[16];          /* "sim" or "measured" */
    char workload[64], gpu[64];
    trapeze_sync sync;
    int h, blk_len;
    double data_len[TRAPEZE_MAX_DIMS];
    int stages;             /* stages timed (warm-up excluded) */
    double cycles;          /* over the timed stages */
    double cpl_cycles;      /* cycles / (stages x h) */
    double warp_instructions;
    double bank_conflicts;  /* shared-memory passes beyond one per access (profiling) */
} trapeze_sample;

typedef struct trapeze_sample_log trapeze_sample_log;

extern const char *const trapeze_sample_columns[];
extern const int trapeze_sample_ncolumns;

/* Opens (creating if absent) and reads every complete row. */
trapeze_status trapeze_sample_log_open(const char *path, trapeze_sample_log **out,
                                       trapeze_error *err);
void trapeze_sample_log_close(trapeze_sample_log *log);
int trapeze_sample_log_count(const trapeze_sample_log *log);
const trapeze_sample *trapeze_sample_log_get(const trapeze_sample_log *log, int i);
/* The row with this id, or NULL when the sample is still to run. */
const trapeze_sample *trapeze_sample_log_find(const trapeze_sample_log *log, const char *id);
trapeze_status trapeze_sample_log_append(trapeze_sample_log *log, const trapeze_sample *s,
                                         trapeze_error *err);
/* Rewrites the file (PATH.tmp, renamed) with the rows in the order of ids;
 * rows whose id is not listed follow in their order. No write when the rows
 * are already in that order. */
trapeze_status trapeze_sample_log_sort(trapeze_sample_log *log, const char *const *ids, int n,
                                       trapeze_error *err);

/* ------------------------------------- sampled calibration (sampler/) */

/* What a calibration samples and how. Defaults: trapeze_calib_options_default. */
typedef struct trapeze_calib_options {
    int budget;              /* stencil samples per workload (8) */
    int stages;              /* timed stages per sample, after one warm-up stage (2) */
    int max_h;               /* largest h sampled and validated; 0: every valid h */
    double sweep_budget;     /* warp instructions of one workload's validation sweep,
                                which sets the reference grid (5e8) */
    double min_fraction, max_fraction; /* sample volume / reference volume (1/2 .. 1) */
    int folds;               /* k of cross-validation (5) */
    unsigned long seed;      /* cross-validation folds */
    unsigned fit_mask;       /* TRAPEZE_GZ_MASK bits fitted; 0: the default set */
    int real_tiles;          /* 1: calibrate Meng's real-valued T, not whole tiles */
    unsigned structure;      /* TRAPEZE_GZ_STRUCT_* bits: the model extensions switched on */
    double holdout;          /* fraction of each workload's samples, the largest, held out
                                to measure extrapolation (0.25; 0: none) */
} trapeze_calib_options;

/* Model structure switches a calibration turns on (trapeze_gz_params flags). */
#define TRAPEZE_GZ_STRUCT_OCCUPANCY 1u
#define TRAPEZE_GZ_STRUCT_WAVES 2u
#define TRAPEZE_GZ_STRUCT_PERSISTENT_FENCE 4u
#define TRAPEZE_GZ_STRUCT_FENCE_OVERLAP 8u

void trapeze_calib_options_default(trapeze_calib_options *o);

/* The samples of one calibration, in a fixed order: micro-benchmarks for the
 * GPU, one profiling pair per workload (h = 1 and h = 2, one stage), then
 * `budget` stencil samples per workload over (h, grid size, sync mode) placed
 * by a Sobol sequence. Each is a trapeze_sample row without results. */
typedef struct trapeze_calib_plan trapeze_calib_plan;

trapeze_status trapeze_calib_plan_create(const char *gpu_config_path,
                                         const trapeze_workload *workloads, int n,
                                         const trapeze_calib_options *o,
                                         trapeze_calib_plan **out, trapeze_error *err);
void trapeze_calib_plan_destroy(trapeze_calib_plan *plan);
int trapeze_calib_plan_count(const trapeze_calib_plan *plan);
const trapeze_sample *trapeze_calib_plan_sample(const trapeze_calib_plan *plan, int i);
const trapeze_gpu *trapeze_calib_plan_gpu(const trapeze_calib_plan *plan);

/* The workload at the grid a validation sweep uses (scaled so that the sweep
 * over every h up to max_h in both modes costs about sweep_budget warp
 * instructions), and the largest h sampled and validated for it. */
trapeze_status trapeze_calib_reference(const trapeze_calib_plan *plan, int workload,
                                       trapeze_workload *out, int *max_h, trapeze_error *err);

/* Runs planned sample i on a fresh simulator and fills out with its results
 * (cycles of the timed stages, cpl_cycles, warp instructions spent). */
trapeze_status trapeze_calib_run_sample(const trapeze_calib_plan *plan, int i,
                                        trapeze_sample *out, trapeze_error *err);

/* The plan indices of the samples missing from log, in plan order (todo
 * holds room for the plan's count). A logged row under a planned id that is
 * not that sample is an error. For drivers that spread samples over
 * processes (MPI): each runs trapeze_calib_run_sample on its share. */
trapeze_status trapeze_calib_pending(const trapeze_calib_plan *plan,
                                     const trapeze_sample_log *log, int *todo, int *n,
                                     trapeze_error *err);

/* Progress: called from the caller's thread or a worker, under a lock. */
typedef void (*trapeze_calib_progress)(void *ctx, int done, int total, const trapeze_sample *s);

/* Runs, in `threads` workers, every planned sample missing from log, appending
 * each to log the moment it ends. At the end the log is rewritten in plan
 * order (rows not in the plan, e.g. measured ones, kept after), so its bytes
 * do not depend on the thread count. Samples are run independently, each on
 * its own simulator: the results are those of a serial run. */
trapeze_status trapeze_calib_run(const trapeze_calib_plan *plan, trapeze_sample_log *log,
                                 int threads, trapeze_calib_progress progress, void *ctx,
                                 trapeze_error *err);

/* The calibration from a log holding the plan's samples: profiled counts per
 * workload, micro-benchmark values as starting points (and as the values of
 * parameters not fitted), then the least-squares fit over every stencil row
 * of the plan's workloads and GPU (simulated or measured) and its k-fold
 * cross-validation. */
trapeze_status trapeze_calib_from_log(const trapeze_calib_plan *plan,
                                      const trapeze_sample_log *log, trapeze_gz_params *p,
                                      trapeze_calib_report *rep, trapeze_error *err);

/* Validation of a calibration against full simulations of every h up to the
 * plan's max_h, both modes, on the reference grid. One row per workload and
 * sync mode; curve rows per h. */
typedef struct trapeze_validation_row {
    char workload[64];
    trapeze_sync sync;
    double mape_pct, max_ape_pct;
    int h_model, h_sim_best;
    double pick_ratio;        /* CPL_sim(h_sim_best) / CPL_sim(h_model), <= 1 */
    double sample_warp_instructions, sweep_warp_instructions;
} trapeze_validation_row;

typedef struct trapeze_validation_point {
    char workload[64];
    trapeze_sync sync;
    int h;
    double cpl_sim, cpl_model, warp_instructions;
    double area_factor;       /* grid area / reference area (validate --sizes; 1 otherwise) */
} trapeze_validation_point;

typedef struct trapeze_validation {
    int n_rows, n_points;
    trapeze_validation_row *rows;
    trapeze_validation_point *points;
} trapeze_validation;

/* log: the calibration's samples, for their cost (NULL: 0). sweep_log, when
 * not NULL, keeps the sweep's runs like samples.csv: rows already there are
 * reused, new ones appended as they end (a rerun, e.g. after a model change,
 * simulates nothing again). The runs go to `threads` workers. */
trapeze_status trapeze_calib_validate(const trapeze_calib_plan *plan, const trapeze_gz_params *p,
                                      const trapeze_sample_log *log,
                                      trapeze_sample_log *sweep_log, int threads,
                                      trapeze_calib_progress progress, void *ctx,
                                      trapeze_validation *out, trapeze_error *err);
void trapeze_validation_free(trapeze_validation *v);

/* Validation at the sizes users run: each workload's reference grid scaled
 * to each area factor, the plausible heights of both modes (those whose
 * output tile keeps a quarter of the block, at most 10, plus the model's
 * pick), a few stages each. One row per (workload, size). */
typedef struct trapeze_size_validation_row {
    char workload[64];
    double area_factor;                 /* grid area / reference area */
    double data_len[TRAPEZE_MAX_DIMS];
    int n_points;
    double mape_pct;                    /* both modes */
    double bias_pct[2];                 /* mean signed % error: relaunch, fence */
    trapeze_sync sync_model, sync_sim_best;
    int h_model, h_sim_best;            /* the model's best integer (mode, h); the simulator's */
    int sync_right;                     /* 1 when the two modes agree */
    double pick_ratio;                  /* CPL_sim(best) / CPL_sim(model's pick), <= 1 */
    double sweep_warp_instructions;
} trapeze_size_validation_row;

typedef struct trapeze_size_validation {
    int n_rows, n_points;
    trapeze_size_validation_row *rows;
    trapeze_validation_point *points;   /* per (workload, size, mode, h) */
} trapeze_size_validation;

trapeze_status trapeze_calib_validate_sizes(const trapeze_calib_plan *plan,
                                            const trapeze_gz_params *p, const double *factors,
                                            int n_factors, int stages, trapeze_sample_log *sweep_log,
                                            int threads, trapeze_calib_progress progress,
                                            void *ctx, trapeze_size_validation *out,
                                            trapeze_error *err);
void trapeze_size_validation_free(trapeze_size_validation *v);

/* Decides by simulation among the model's best candidates: runs each of
 * c[0..n) on workload w (its own size) on the GPU of gpu_config_path for
 * `stages` timed stages after a warm-up (the samples' timing), in `threads`
 * workers, and fills cpl_sim and warp_instructions. */
trapeze_status trapeze_calib_verify(const char *gpu_config_path, const trapeze_workload *w,
                                    trapeze_gz_choice *c, int n, int stages, int threads,
                                    trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
