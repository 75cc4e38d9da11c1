/*
 * sampler.h - what the calibration's files share inside the library: the
 * plan's layout, running one sample on the simulator, and the deterministic
 * worker pool. Not part of the public API (include/trapeze.h has that).
 */
#ifndef TRAPEZE_SAMPLER_SAMPLER_H
#define TRAPEZE_SAMPLER_SAMPLER_H

#include "trapeze.h"

/* Sample kinds, as written in samples.csv's `kind` column. */
#define SAMPLER_KIND_MICRO "micro"      /* micro-benchmark: workload column names it */
#define SAMPLER_KIND_PROFILE "profile"  /* one stage at h = 1 or 2: instruction counts;
                                           and the issue probe (id ending SAMPLER_PROFILE_ISSUE) */
#define SAMPLER_PROFILE_ISSUE "profile:issue"      /* the issue probe's tall h */
#define SAMPLER_PROFILE_ISSUE_LOW "profile:issue-low" /* and half of it */
#define SAMPLER_PROFILE_ROWS 4 /* per workload: h = 1, h = 2, the two probes */
#define SAMPLER_KIND_SIM "sim"          /* a short stencil run: the fit's observations */
#define SAMPLER_KIND_MEASURED "measured" /* the same, measured on hardware */

struct trapeze_ghostzone_plan {
    char *config_path;
    trapeze_config *cfg;     /* parsed once; read-only, shared by every worker thread
                                (a config never changes when read) */
    trapeze_gpu gpu;
    int resident_256;        /* blocks of 256 threads resident per SM */
    trapeze_ghostzone_calib_options opt;
    int n_workloads;
    trapeze_workload *workloads;
    int count;
    trapeze_sample *rows;    /* planned rows, results zero */
    trapeze_sample_row *set_rows; /* the same as generic rows, for set */
    trapeze_sample_set set;  /* the plan as a sample set (run.c) */
    int *sim_threads;        /* the threads each sample's simulation runs on, set before
                                each run of samples (sampler_share): the plan itself stays
                                read-only while they run */
};

/* The check every samples-log row passes (samples.c): read from a file,
 * about to be appended, or imported from a measurement. Texts within their
 * room, on one line and among their choices; numbers finite, in their
 * field's range, whole for INT fields; then the schema's own check. path and
 * line (0: none) name where the row came from in messages. */
trapeze_status sampler_row_check(const trapeze_sample_row *row, const char *path, int line,
                                 trapeze_error *err);

/* Fills plan->set_rows and plan->set from plan->rows (run.c). */
trapeze_status sampler_plan_set(trapeze_ghostzone_plan *plan, trapeze_error *err);

/* The plan's workload of that name, or NULL. */
const trapeze_workload *sampler_workload(const trapeze_ghostzone_plan *plan, const char *name);
/* w with data_len replaced (sizes of a sample). */
void sampler_resize(const trapeze_workload *w, const double *data_len, trapeze_workload *out);

/* The simulator's explicit dispatch policy reads a grouping from a file:
 * writes g to a new private temporary file, its name into path (room for
 * 64), for the caller to remove. */
trapeze_status sampler_grouping_tempfile(const trapeze_grouping *g, char *path,
                                         trapeze_error *err);

/* Runs row (its kind, workload, sync, h, sizes, stages) on a fresh simulator
 * of the plan's GPU and fills its results. */
trapeze_status sampler_run_row(const trapeze_ghostzone_plan *plan, trapeze_sample *row,
                               trapeze_error *err);

/* Called under the pool's lock as each row ends, in completion order. */
typedef trapeze_status (*sampler_done_fn)(void *ctx, int i, const trapeze_sample *row,
                                          trapeze_error *err);

/* The worker pool: runs task k = 0..n-1 by run(ctx, k) in `threads`
 * workers (tasks independent), then done(ctx, k) under the pool's lock as
 * each ends, in completion order. Stops handing out tasks at the first
 * error; reports the error of the lowest task. */
typedef trapeze_status (*sampler_task_fn)(void *ctx, int k, trapeze_error *err);
/* One budget of `threads` for `pending` samples: min(threads, pending) run
 * at once (*workers), each simulation split across threads / *workers of
 * them (*sim_threads, at least 1): samples side by side first, since
 * independent samples scale best; threads left over go into each
 * simulation, so the last samples of a run, or a run of one, use them all. */
void sampler_share(int threads, int pending, int *workers, int *sim_threads);
/* The pool over that budget: n tasks in sampler_share's workers, each
 * task's simulation threads written to *sim_threads (NULL: none) before any
 * task starts. Every command that runs several simulations splits its
 * --threads here. */
trapeze_status sampler_budget_run(int n, int threads, int *sim_threads, sampler_task_fn run,
                                  sampler_task_fn done, void *ctx, trapeze_error *err);
trapeze_status sampler_pool_run(int n, int threads, sampler_task_fn run, sampler_task_fn done,
                                void *ctx, trapeze_error *err);

/* Runs rows[0..n) in `threads` workers (each row independent, on its own
 * simulator, so results do not depend on the thread count). Stops handing
 * out rows at the first error; reports the error of the lowest row index. */
/* Warp instructions of one stage of w at height h, estimated from the
 * kernel's shape (setup, staging, h stencil ops, commit per warp of every
 * tile): a planning figure, not a count. */
double sampler_stage_cost(const trapeze_workload *w, int h);

trapeze_status sampler_run_rows(const trapeze_ghostzone_plan *plan, trapeze_sample *rows, int n,
                                int threads, sampler_done_fn done, void *ctx,
                                trapeze_error *err);

/* The logged run of a planned sweep row (by id) in *found, NULL when it is
 * still to run. A logged row whose inputs differ from the planned one (the
 * plan changed since the log was made) is an error naming the log and id:
 * reusing it would report another run's cycles as this one's. */
trapeze_status sampler_sweep_logged(const trapeze_sample_log *log, const trapeze_sample *planned,
                                    const trapeze_sample **found, trapeze_error *err);

/* A validation sweep, rows[0..n): the runs sweep_log holds are read back
 * (sampler_sweep_logged), the others run in `threads` workers, each appended
 * to the log and reported to progress as it ends; then the log is sorted in
 * sweep order, whatever the threads. With plan->opt.logged_only nothing runs:
 * a row the log lacks is left with cpl_cycles 0 for the caller to drop. */
trapeze_status sampler_sweep_run(const trapeze_ghostzone_plan *plan, trapeze_sample *rows, int n,
                                 trapeze_sample_log *sweep_log, int threads,
                                 trapeze_ghostzone_progress progress, void *ctx, trapeze_error *err);

/* Whether plan row i starts a workload's profiling rows: its pair (h = 1,
 * h = 2) and its issue probe, rows i .. i + SAMPLER_PROFILE_ROWS - 1
 * (profile.c). */
int sampler_profile_start(const trapeze_ghostzone_plan *plan, int i);

/* calibrate.c: the fencebar micro-benchmark's cycles over its block counts
 * fitted as sqrt(intercept^2 + (slope P)^2), barrier_max's form. */
void sampler_fence_norm(const double *blocks, const double *cycles, int n, double *slope,
                        double *intercept);
/* The profiled counts of workload w from its profiling rows, plan rows
 * from first_row (sampler_profile_start), found in log. */
trapeze_status sampler_profile_of(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log,
                                  const trapeze_workload *w, int first_row,
                                  trapeze_ghostzone_profile *pr, trapeze_error *err);

/* The profiling pair of every plan workload p has no [profile.NAME] of,
 * found in sweep_log or run (and appended to it; NULL: no log), its counts
 * added to p; *work (NULL: not wanted) grows by the warp instructions run
 * (profile.c). */
trapeze_status sampler_profile_unseen(const trapeze_ghostzone_plan *plan, trapeze_ghostzone_params *p,
                                      trapeze_sample_log *sweep_log, int threads, double *work,
                                      trapeze_error *err);
/* Whether p holds a [profile.NAME] for the workload `name` (profile.c). */
int sampler_has_profile(const trapeze_ghostzone_params *p, const char *name);

/* Heights a size sweep runs (validate_sizes.c): those whose output tile
 * keeps a quarter of the block, thinned to at most 10; returns the count. */
int sampler_plausible_heights(const trapeze_workload *w, int max_h, int *hs);

#endif
