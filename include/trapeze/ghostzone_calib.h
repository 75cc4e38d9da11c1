/*
 * trapeze/ghostzone_calib.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * The ghost-zone model's calibration (sampler/): its fit, the sampled plan,
 * the plan's validation, profiling and --verify's simulations.
 */
#ifndef TRAPEZE_GHOSTZONE_CALIB_H
#define TRAPEZE_GHOSTZONE_CALIB_H

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/workload.h"
#include "trapeze/ghostzone.h"
#include "trapeze/samples.h"
#include "trapeze/fit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One observation: a workload on a GPU (the model), a sync mode and height,
 * and the cycles per loop measured by simulation or on hardware. */
typedef struct trapeze_ghostzone_fit_point {
    trapeze_ghostzone_model *model;   /* left holding the fitted parameters (never read while fitting) */
    trapeze_sync sync;
    double h, blk_len;
    double cpl_measured;
} trapeze_ghostzone_fit_point;

#define TRAPEZE_GHOSTZONE_MASK(p) (1u << (p))

/* Fits the parameters selected by `mask` (TRAPEZE_GHOSTZONE_MASK bits) by nonlinear
 * least squares on relative residuals (GSL trust region, the model's analytic
 * Jacobian), each kept inside its physical range by a change of variable.
 * p: starting values in; fitted values and standard errors out. Every
 * point's model is left holding the fitted parameters. */
trapeze_status trapeze_ghostzone_fit(trapeze_ghostzone_fit_point *pts, int n, unsigned mask,
                                     trapeze_ghostzone_params *p, trapeze_fit_report *rep,
                                     trapeze_error *err);
/* k-fold cross-validation of that fit (folds by a seeded shuffle): fills
 * rep->cv_mape_pct and rep->cv_max_ape_pct. Models end with `start`. */
trapeze_status trapeze_ghostzone_cross_validate(trapeze_ghostzone_fit_point *pts, int n, unsigned mask,
                                                const trapeze_ghostzone_params *start, int k,
                                                unsigned long seed, trapeze_fit_report *rep,
                                                trapeze_error *err);

/* What a calibration samples and how. Defaults: trapeze_ghostzone_calib_options_init. */
typedef struct trapeze_ghostzone_calib_options {
    int budget;              /* stencil samples per workload (12) */
    int stages;              /* timed stages per sample, after one warm-up stage (2) */
    int max_h;               /* largest h sampled and validated; 0: every valid h */
    double sweep_budget;     /* warp instructions of one workload's validation sweep,
                                which sets the reference grid (5e8) */
    double min_fraction, max_fraction; /* sample volume / reference volume (1/4 .. 4) */
    int folds;               /* k of cross-validation (5) */
    unsigned long seed;      /* cross-validation folds */
    unsigned fit_mask;       /* TRAPEZE_GHOSTZONE_MASK bits fitted; 0: the default set */
    int real_tiles;          /* 1: calibrate Meng's real-valued T, not whole tiles */
    unsigned structure;      /* TRAPEZE_GHOSTZONE_STRUCT_* bits: the model extensions switched on
                                (TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE) */
    double holdout;          /* fraction of each workload's samples, the largest, held out
                                to measure extrapolation (0.25; 0: none) */
    int identify;            /* 1: add the samples that identify the fence-mode constants
                                (a fence profiling pair per workload; both modes at tall h
                                with the busiest SM past its resident blocks for a loop
                                that loads every iteration), after the others (0) */
    int tall;                /* 1: of those, only the tall rows (what the shipped
                                calibrations hold; implied by identify) (0) */
    int logged_only;         /* trapeze_ghostzone_validate_sizes: compare with the runs its sweep
                                log holds and simulate none (0) */
} trapeze_ghostzone_calib_options;

/* Model structure switches a calibration turns on (trapeze_ghostzone_params flags). */
#define TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY 1u
#define TRAPEZE_GHOSTZONE_STRUCT_WAVES 2u
#define TRAPEZE_GHOSTZONE_STRUCT_PERSISTENT_FENCE 4u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP 8u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_STAGING 16u
#define TRAPEZE_GHOSTZONE_STRUCT_ROW_PENALTY 32u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER 64u
#define TRAPEZE_GHOSTZONE_STRUCT_MEM_LATENCY 128u
#define TRAPEZE_GHOSTZONE_STRUCT_ROW_LINES 256u
#define TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX 512u
#define TRAPEZE_GHOSTZONE_STRUCT_PARTIAL_ROUND 1024u
#define TRAPEZE_GHOSTZONE_STRUCT_LOOP_REREAD 2048u
#define TRAPEZE_GHOSTZONE_STRUCT_LOOP_ONCE 4096u
#define TRAPEZE_GHOSTZONE_STRUCT_ROUND_LATENCY 8192u
#define TRAPEZE_GHOSTZONE_STRUCT_ROUND_COMPUTE 16384u
#define TRAPEZE_GHOSTZONE_STRUCT_ROUND_STAGING 32768u
#define TRAPEZE_GHOSTZONE_STRUCT_LONE_ROUND 65536u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_ISSUE 131072u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER_HIDDEN 262144u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP_LOADS 524288u
#define TRAPEZE_GHOSTZONE_STRUCT_ROUND_SPIN 1048576u
#define TRAPEZE_GHOSTZONE_STRUCT_SPIN_STAGING 2097152u
#define TRAPEZE_GHOSTZONE_STRUCT_ROUND_TILES 4194304u
#define TRAPEZE_GHOSTZONE_STRUCT_ROUND_SETUP 8388608u
/* The default: the switches that lowered the error outside the calibration's
 * range (docs/calibration.md, "What each change removed"; persistent_fence
 * with barrier_max, "The fence barrier measured where the persistent kernel
 * meets"); waves did not and stays off. */
#define TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE                                                          \
    (TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY | TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP |                       \
     TRAPEZE_GHOSTZONE_STRUCT_FENCE_STAGING | TRAPEZE_GHOSTZONE_STRUCT_ROW_PENALTY |                     \
     TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER | TRAPEZE_GHOSTZONE_STRUCT_PERSISTENT_FENCE |                   \
     TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX | TRAPEZE_GHOSTZONE_STRUCT_PARTIAL_ROUND |               \
     TRAPEZE_GHOSTZONE_STRUCT_LOOP_REREAD | TRAPEZE_GHOSTZONE_STRUCT_ROUND_LATENCY |               \
     TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER_HIDDEN)

void trapeze_ghostzone_calib_options_init(trapeze_ghostzone_calib_options *o);

/* The samples of one calibration, in a fixed order: micro-benchmarks for the
 * GPU, one profiling pair per workload (h = 1 and h = 2, one stage), then
 * `budget` stencil samples per workload over (h, grid size, sync mode) placed
 * by a Sobol sequence. Each is a trapeze_sample row without results. */
typedef struct trapeze_ghostzone_plan trapeze_ghostzone_plan;

trapeze_status trapeze_ghostzone_plan_create(const char *gpu_config_path,
                                             const trapeze_workload *workloads, int n,
                                             const trapeze_ghostzone_calib_options *o,
                                             trapeze_ghostzone_plan **out, trapeze_error *err);
void trapeze_ghostzone_plan_destroy(trapeze_ghostzone_plan *plan);
int trapeze_ghostzone_plan_count(const trapeze_ghostzone_plan *plan);
const trapeze_sample *trapeze_ghostzone_plan_sample(const trapeze_ghostzone_plan *plan, int i);
const trapeze_gpu *trapeze_ghostzone_plan_gpu(const trapeze_ghostzone_plan *plan);

/* The workload at the grid a validation sweep uses (scaled so that the sweep
 * over every h up to max_h in both modes costs about sweep_budget warp
 * instructions), and the largest h sampled and validated for it. */
trapeze_status trapeze_ghostzone_reference(const trapeze_ghostzone_plan *plan, int workload,
                                           trapeze_workload *out, int *max_h, trapeze_error *err);

/* Runs planned sample i on a fresh simulator and fills out with its results
 * (cycles of the timed stages, cpl_cycles, warp instructions spent). */
trapeze_status trapeze_ghostzone_run_sample(const trapeze_ghostzone_plan *plan, int i,
                                            trapeze_sample *out, trapeze_error *err);

/* The plan indices of the samples missing from log, in plan order (todo
 * holds room for the plan's count). A logged row under a planned id that is
 * not that sample is an error. For drivers that spread samples over
 * processes (MPI): each runs trapeze_ghostzone_run_sample on its share. */
trapeze_status trapeze_ghostzone_pending(const trapeze_ghostzone_plan *plan,
                                         const trapeze_sample_log *log, int *todo, int *n,
                                         trapeze_error *err);

/* The plan as a generic sample set (ghost-zone rows), for drivers such as
 * MPI that run trapeze_samples_pending and set->run themselves. Valid as
 * long as the plan. */
const trapeze_sample_set *trapeze_ghostzone_plan_set(const trapeze_ghostzone_plan *plan);

/* Progress: called from the caller's thread or a worker, under a lock, as
 * each sample ends (work: estimated warp instructions). */
typedef void (*trapeze_ghostzone_progress)(void *ctx, const trapeze_run_progress *p,
                                           const trapeze_sample *s);

/* The warp instructions a ghost-zone sample (a planned calibration sample or
 * a validation run: its workload, grid, h, sync and stages) will simulate,
 * estimated from the kernel's shape before it runs; micro-benchmarks from
 * their block count. A planning figure for progress displays. */
double trapeze_ghostzone_sample_cost(const trapeze_ghostzone_plan *plan, const trapeze_sample *s);

/* Runs, in `threads` workers, every planned sample missing from log, appending
 * each to log the moment it ends. At the end the log is rewritten in plan
 * order (rows not in the plan, e.g. measured ones, kept after), so its bytes
 * do not depend on the thread count. Samples are run independently, each on
 * its own simulator: the results are those of a serial run. */
trapeze_status trapeze_ghostzone_run(const trapeze_ghostzone_plan *plan, trapeze_sample_log *log,
                                     int threads, trapeze_ghostzone_progress progress, void *ctx,
                                     trapeze_error *err);

/* The calibration from a log holding the plan's samples: profiled counts per
 * workload, micro-benchmark values as starting points (and as the values of
 * parameters not fitted), then the least-squares fit over every stencil row
 * of the plan's workloads and GPU (simulated or measured) and its k-fold
 * cross-validation. */
trapeze_status trapeze_ghostzone_from_log(const trapeze_ghostzone_plan *plan,
                                          const trapeze_sample_log *log, trapeze_ghostzone_params *p,
                                          trapeze_fit_report *rep, trapeze_error *err);

/* Validation of a calibration against full simulations of every h up to the
 * plan's max_h, both modes, on the reference grid. One row per workload and
 * sync mode; curve rows per h. */
typedef struct trapeze_ghostzone_validation_row {
    char workload[64];
    trapeze_sync sync;
    double mape_pct, max_ape_pct;
    int h_model, h_sim_best;
    double pick_ratio;        /* CPL_sim(h_sim_best) / CPL_sim(h_model), <= 1 */
    double sample_warp_instructions, sweep_warp_instructions;
} trapeze_ghostzone_validation_row;

typedef struct trapeze_ghostzone_validation_point {
    char workload[64];
    trapeze_sync sync;
    int h;
    double cpl_sim, cpl_model, warp_instructions;
    double area_factor;       /* grid area / reference area (validate --sizes; 1 otherwise) */
} trapeze_ghostzone_validation_point;

typedef struct trapeze_ghostzone_validation {
    int n_rows, n_points;
    trapeze_ghostzone_validation_row *rows;
    trapeze_ghostzone_validation_point *points;
} trapeze_ghostzone_validation;

/* log: the calibration's samples, for their cost (NULL: 0). sweep_log, when
 * not NULL, keeps the sweep's runs like samples.csv: rows already there are
 * reused, new ones appended as they end (a rerun, e.g. after a model change,
 * simulates nothing again). The runs go to `threads` workers. */
trapeze_status trapeze_ghostzone_validate(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p,
                                          const trapeze_sample_log *log,
                                          trapeze_sample_log *sweep_log, int threads,
                                          trapeze_ghostzone_progress progress, void *ctx,
                                          trapeze_ghostzone_validation *out, trapeze_error *err);
void trapeze_ghostzone_validation_free(trapeze_ghostzone_validation *v);

/* Validation at the sizes users run: each workload's reference grid scaled
 * to each area factor, the plausible heights of both modes (those whose
 * output tile keeps a quarter of the block, at most 10, plus the model's
 * pick), a few stages each. One row per (workload, size). */
typedef struct trapeze_ghostzone_size_validation_row {
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
    /* `ghostzone --verify 3` on the same runs: the fastest simulated of the model's three
     * best (mode, h), and the warp instructions those three cost */
    double verify_pick_ratio;
    int verify_sync_right;
    double verify_warp_instructions;
} trapeze_ghostzone_size_validation_row;

typedef struct trapeze_ghostzone_size_validation {
    int n_rows, n_points;
    trapeze_ghostzone_size_validation_row *rows;
    trapeze_ghostzone_validation_point *points;   /* per (workload, size, mode, h) */
} trapeze_ghostzone_size_validation;

trapeze_status trapeze_ghostzone_validate_sizes(const trapeze_ghostzone_plan *plan,
                                                const trapeze_ghostzone_params *p, const double *factors,
                                                int n_factors, int stages, trapeze_sample_log *sweep_log,
                                                int threads, trapeze_ghostzone_progress progress,
                                                void *ctx, trapeze_ghostzone_size_validation *out,
                                                trapeze_error *err);
void trapeze_ghostzone_size_validation_free(trapeze_ghostzone_size_validation *v);

/* A validation as the CSV files `trapeze validate` writes: rows_csv one row
 * per workload and mode (--csv), curve_csv one per point (--curve); with
 * --sizes, one row per workload and size, and one per (size, mode, h).
 * Either path may be NULL; both files appear, or neither. */
trapeze_status trapeze_ghostzone_validation_write_csv(const trapeze_ghostzone_validation *v, const char *rows_csv,
                                                      const char *curve_csv, trapeze_error *err);
trapeze_status trapeze_ghostzone_size_validation_write_csv(const trapeze_ghostzone_size_validation *v,
                                                           const char *rows_csv, const char *curve_csv,
                                                           trapeze_error *err);

/* Meng's profiling (5.14) of a workload the calibration never saw: when p
 * has no [profile.NAME] for w, runs w's profiling rows (one stage at h = 1
 * and at h = 2 on a grid of a few tiles per SM, and the issue probe: a tall
 * h and half of it on four waves of tiles; as `calibrate` plans them) on the
 * GPU of gpu_config_path and adds its counts and issue rate to p, as
 * `validate` does; *warp_instructions is what the runs cost (0: p had the
 * profile). */
trapeze_status trapeze_ghostzone_profile_run(const char *gpu_config_path, const trapeze_workload *w,
                                             int threads, trapeze_ghostzone_params *p,
                                             double *warp_instructions, trapeze_error *err);

/* Decides by simulation among the model's best candidates: runs each of
 * c[0..n) on workload w (its own size) on the GPU of gpu_config_path for
 * `stages` timed stages after a warm-up (the samples' timing), in `threads`
 * workers, and fills cpl_sim and warp_instructions. */
trapeze_status trapeze_ghostzone_verify(const char *gpu_config_path, const trapeze_workload *w,
                                        trapeze_ghostzone_choice *c, int n, int stages, int threads,
                                        trapeze_error *err);

/* The warp instructions trapeze_ghostzone_verify will simulate for one
 * candidate (sync, h) of w, estimated from the kernel's shape: a warm-up and
 * `stages` stages (fence: the warm-up twice). For progress displays. */
double trapeze_ghostzone_verify_cost(const trapeze_workload *w, trapeze_sync sync, int h,
                                     int stages);

/* `--verify k`: simulates c[0..k) of the ranking c[0..n) (trapeze_ghostzone_verify_order),
 * then the search along h (trapeze_ghostzone_verify_next), at most
 * TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH runs more; *searched says how many. The
 * simulated candidates are those with cpl_sim > 0. */
trapeze_status trapeze_ghostzone_verify_search(const char *gpu_config_path, const trapeze_workload *w,
                                               trapeze_ghostzone_choice *c, int n, int k, int stages,
                                               int threads, int *searched, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
