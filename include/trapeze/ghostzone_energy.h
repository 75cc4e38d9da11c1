/*
 * trapeze/ghostzone_energy.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Energy-aware ghost zones (model/gz_energy.c, sampler/gz_energy/gz_energy_sample.c):
 * energy per stencil loop, its calibration, samples and ranking.
 */
#ifndef TRAPEZE_GHOSTZONE_ENERGY_H
#define TRAPEZE_GHOSTZONE_ENERGY_H

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/csv.h"
#include "trapeze/power.h"
#include "trapeze/workload.h"
#include "trapeze/ghostzone.h"
#include "trapeze/samples.h"
#include "trapeze/idle.h"
#include "trapeze/sleep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Energy per stencil loop at (sync mode, h): dynamic energy from the
 * ghost-zone model's counts (warp instructions and elements moved per loop)
 * times joules per count calibrated on simulated samples, plus the GPU's
 * leakage and constant power over the predicted cycles, less what the sleep
 * model's thresholds save on the L1D, L2 and register file. */
#define TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT 3     /* l1d (line), l2 (line), rf (warp_reg): TRAPEZE_PS_* order */

/* A sample: a short window of the workload (a reduced grid, two stages)
 * simulated with a power description, every structure always on. */
typedef struct trapeze_ghostzone_energy_sample {
    trapeze_sync sync;
    int h;
    double data_len[TRAPEZE_MAX_DIMS];   /* the window's grid */
    int iterations;                      /* loops it ran */
    double cycles, seconds, warp_instructions;
    double dyn_compute_j;                /* core, register file, shared memory, L1D */
    double dyn_memory_j;                 /* L2, interconnect, DRAM */
    double leak_w[TRAPEZE_PS_COUNT];     /* average leakage power by structure, always on */
    double constant_w, idle_sm_w;        /* constant power; idle-SM energy / seconds */
    double unit_cycles[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT]; /* every unit-cycle of the structure (allocated
                                            or not): what its leakage is spread over */
    trapeze_idle_hist hist[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT];
} trapeze_ghostzone_energy_sample;

/* Joules per counted event and the GPU's static power, per sync mode. */
typedef struct trapeze_ghostzone_energy_coef {
    double inst_j[2];                    /* per warp instruction the model counts [sync] */
    double element_j[2];                 /* per element the model moves to or from memory */
    double leak_w[TRAPEZE_PS_COUNT];     /* whole GPU, every unit ON */
    double constant_w;
    double idle_sm_w;                    /* every SM idle: paid during a relaunch's GlbSync */
    int n_samples[2];
} trapeze_ghostzone_energy_coef;

/* What the sleep thresholds chosen on one sample's histograms give. */
typedef struct trapeze_ghostzone_sleep {
    int valid;                           /* 0: no sleep (everything ON) */
    double saving[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT];  /* leakage saved, fraction of the structure's */
    double penalty[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT]; /* exposed wake-up cycles per SM-cycle */
    double theta[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT][TRAPEZE_SLEEP_MAX_MODES]; /* whole-cycle thresholds */
    int n_modes[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT];
} trapeze_ghostzone_sleep;

/* Per loop counts of the model: warp instructions (MiscComp and IterComp
 * of every trapezoid, redundant ones included) and elements loaded,
 * committed and read per iteration; with d/dh. */
typedef struct trapeze_ghostzone_counts {
    double insts, elements;
    double dinsts_dh, delements_dh;
} trapeze_ghostzone_counts;
trapeze_status trapeze_ghostzone_energy_counts(const trapeze_ghostzone_model *m, trapeze_sync sync, double h,
                                               trapeze_ghostzone_counts *out, trapeze_error *err);

typedef struct trapeze_ghostzone_energy_eval {
    trapeze_sync sync;
    double h;
    double cpl;                          /* the time model's cycles per loop */
    double cpl_sleep;                    /* cpl x (1 + sum of the sleep penalties) */
    double seconds;                      /* cpl_sleep / clock */
    trapeze_ghostzone_counts counts;
    double dynamic_j, sync_j, leakage_j, saved_j;   /* per loop; leakage after saving */
    double energy_j;                     /* dynamic + sync + leakage */
    double edp;                          /* energy_j x seconds (J s per loop) */
    double denergy_dh, dedp_dh;          /* exact, the sleep choice held */
    trapeze_ghostzone_sleep sleep;
} trapeze_ghostzone_energy_eval;

trapeze_status trapeze_ghostzone_energy_evaluate(const trapeze_ghostzone_model *m,
                                                 const trapeze_ghostzone_energy_coef *c,
                                                 const trapeze_ghostzone_sleep *sl, trapeze_sync sync,
                                                 double h, trapeze_ghostzone_energy_eval *out,
                                                 trapeze_error *err);

/* Joules per count from samples: per sync mode, the samples' dynamic
 * energy over the model's counts of the same windows (model m's workload
 * with each window's grid and iterations, parameters p); static power the
 * samples' average. A sync mode without samples takes the other's. */
trapeze_status trapeze_ghostzone_energy_calibrate(const trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p,
                                                  const trapeze_ghostzone_energy_sample *s, int n,
                                                  trapeze_ghostzone_energy_coef *out, trapeze_error *err);

/* The thresholds of each structure (Snooze's time-out for the caches,
 * Slumber's look-ahead for the register file, as `trapeze sleep`) chosen
 * by trapeze_sleep_optimize on a sample's histograms with max_penalty. */
trapeze_status trapeze_ghostzone_energy_sleep(const trapeze_power *pw, double clock_hz,
                                              const trapeze_ghostzone_energy_sample *s, double max_penalty,
                                              trapeze_ghostzone_sleep *out, trapeze_error *err);

typedef enum { TRAPEZE_GHOSTZONE_OBJ_TIME, TRAPEZE_GHOSTZONE_OBJ_ENERGY, TRAPEZE_GHOSTZONE_OBJ_EDP } trapeze_ghostzone_objective;
const char *trapeze_ghostzone_objective_name(trapeze_ghostzone_objective o);
/* 0 and *o set, or -1 for a name that is not time, energy or edp. */
int trapeze_ghostzone_objective_parse(const char *name, trapeze_ghostzone_objective *o);
double trapeze_ghostzone_energy_objective(const trapeze_ghostzone_energy_eval *e, trapeze_ghostzone_objective o);

/* Every (sync mode of modes, whole h) at the workload's block, each with the
 * sleep choice of the sample of the same mode nearest in h (sleeps[i] of
 * samples[i]; none: no sleep); *out malloc'd (free()). best[o]: the index of
 * the lowest objective o (the first on a tie). */
trapeze_status trapeze_ghostzone_energy_rank(const trapeze_ghostzone_model *m, const trapeze_ghostzone_energy_coef *c,
                                             const trapeze_ghostzone_energy_sample *samples,
                                             const trapeze_ghostzone_sleep *sleeps, int n_samples,
                                             const trapeze_sync *modes, int n_modes,
                                             trapeze_ghostzone_energy_eval **out, int *n, int best[3],
                                             trapeze_error *err);

/* The window of workload w sampled at (sync, h): the grid cut to about four
 * waves of tiles (at most the workload's own), two stages of h loops. */
void trapeze_ghostzone_energy_window(const trapeze_gpu *gpu, const trapeze_workload *w, int h,
                                     trapeze_workload *window);
/* Simulates that window on a fresh simulator of cfg with pw, always on. */
trapeze_status trapeze_ghostzone_energy_sample_run(const trapeze_config *cfg, const trapeze_power *pw,
                                                   const trapeze_workload *w, trapeze_sync sync, int h,
                                                   trapeze_ghostzone_energy_sample *out, trapeze_error *err);
/* The heights sampled per sync mode: 1, the middle and the largest valid h
 * at the workload's block (fewer when they coincide). Returns the count. */
int trapeze_ghostzone_energy_sample_heights(const trapeze_ghostzone_model *m, int heights[3]);

/* The samples as a log (trapeze_sample_log_open_schema with
 * trapeze_ghostzone_energy_schema): planned (each sync mode of modes x
 * trapeze_ghostzone_energy_sample_heights, ids WORKLOAD-SYNC-hH, kind "energy"),
 * run and resumed by trapeze_samples_run in any number of threads; a row
 * holds the window's inputs, its energies and the thresholds chosen on its
 * idle periods with max_penalty, their saving and penalty. cfg must outlive
 * the plan. */
extern const trapeze_row_schema trapeze_ghostzone_energy_schema;
typedef struct trapeze_ghostzone_energy_plan trapeze_ghostzone_energy_plan;
trapeze_status trapeze_ghostzone_energy_plan_create(const trapeze_config *cfg, const trapeze_power *pw,
                                                    const trapeze_workload *spec,
                                                    const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                                    int n_modes, double max_penalty,
                                                    trapeze_ghostzone_energy_plan **out, trapeze_error *err);
void trapeze_ghostzone_energy_plan_destroy(trapeze_ghostzone_energy_plan *p);
const trapeze_sample_set *trapeze_ghostzone_energy_plan_set(const trapeze_ghostzone_energy_plan *p);
/* A logged row back as a sample (no histograms) and its sleep choice. */
trapeze_status trapeze_ghostzone_energy_from_row(const trapeze_sample_row *row, const trapeze_power *pw,
                                                 int n_sm, trapeze_ghostzone_energy_sample *s,
                                                 trapeze_ghostzone_sleep *sl, trapeze_error *err);

/* CSV of trapeze ghostzone --objective: trapeze_ghostzone_csv_columns, then
 * energy_j_per_loop,dynamic_j,sync_j,leakage_j,saved_j,edp_js,
 * cpl_sleep_cycles,l1d_saving,l2_saving,rf_saving,penalty_fraction,
 * l1d_thresholds,l2_thresholds,rf_thresholds (thresholds: "a/b/c"). */
extern const char *const trapeze_ghostzone_energy_csv_columns[];
extern const int trapeze_ghostzone_energy_csv_ncolumns;
trapeze_status trapeze_ghostzone_energy_write_rows(const trapeze_ghostzone_model *m,
                                                   const trapeze_ghostzone_energy_eval *e, int n,
                                                   trapeze_csv_out *csv, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
