/*
 * trapeze/sleep.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * The sleep-threshold model (model/sleep.c): sleep modes, the model and its
 * optimizer, and its sampling, calibration and validation by simulation.
 */
#ifndef TRAPEZE_SLEEP_H
#define TRAPEZE_SLEEP_H

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/power.h"
#include "trapeze/workload.h"
#include "trapeze/idle.h"
#include "trapeze/samples.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Low-leakage modes of a structure, shallowest first. Energies are in
 * "ON-cycles": one unit is the leakage of the structure ON for one cycle
 * (E_tr [J] x clock [Hz] / P_on [W]), so the model needs no watts. */
#define TRAPEZE_SLEEP_MAX_MODES 4
typedef struct trapeze_sleep_mode {
    char name[16];
    double leak_fraction;      /* p_m: leakage in the mode / leakage ON */
    double wake_cycles;        /* t_wake,m: cycles to come back ON */
    double lost_cycles;        /* tau_m: entry + exit cycles that save nothing */
    double transition_cycles;  /* E_tr,m in ON-cycles */
    int retains_state;         /* 0: allowed only for periods ending in a write or dead */
} trapeze_sleep_mode;

typedef struct trapeze_sleep_structure {
    char name[16];             /* l1d, l2, rf */
    int n_modes;
    trapeze_sleep_mode mode[TRAPEZE_SLEEP_MAX_MODES];
} trapeze_sleep_structure;

/* A structure's modes from a power description (its "on" mode skipped):
 * tau_m = wake_cycles (the linear model: the wake-up is time that saves
 * nothing), E_tr in ON-cycles = transition_j x clock_hz / leak_w. */
trapeze_status trapeze_sleep_structure_from_power(const trapeze_power *p,
                                                  trapeze_power_structure s, double clock_hz,
                                                  trapeze_sleep_structure *out,
                                                  trapeze_error *err);

/* The seeds' tables under the linear model (tau_m = wake_m, E_tr = 0):
 * caches (l1d, l2) Snooze's sleep 0.228 / off 0.015, 2-cycle wake;
 * rf Slumber's shallow 0.94 in 4 / deep 0.42 in 13 / gated 0 in 16. */
trapeze_status trapeze_sleep_structure_default(const char *name, trapeze_sleep_structure *s,
                                               trapeze_error *err);
/* T_be,m = tau_m + E_tr,m / (1 - p_m) (cycles). */
double trapeze_sleep_break_even(const trapeze_sleep_mode *m);
/* The energy break-even alone, E_tr / (P_on - P_off) in cycles
 * (= E_tr,m / (1 - p_m) in ON-cycles): how long a period must sleep to pay
 * for the round trip's energy; INFINITY for a mode that saves nothing. */
double trapeze_sleep_energy_break_even(const trapeze_sleep_mode *m);
/* Saving of one period of length T spent in mode m, in ON-cycles:
 * (1 - p_m)(T - tau_m) - E_tr,m. */
double trapeze_sleep_period_saving(const trapeze_sleep_mode *m, double T);
/* The length at which modes a and b save the same (the crossover). */
double trapeze_sleep_crossover(const trapeze_sleep_mode *a, const trapeze_sleep_mode *b);

/* How the structure learns of an idle period (the simulator's policies,
 * sim/power/, follow the same rules):
 * LOOKAHEAD (Slumber): the length T is predicted; the period goes to the
 *   deepest allowed mode m with T >= theta_m.
 * TIMEOUT (Snooze, drowsy, cache decay): after theta_m idle cycles the
 *   structure enters mode m; it sleeps only if the access is not yet
 *   visible, i.e. T > theta_m + lost.
 * Waking: a mode whose bit is set in exact_wake is woken by a countdown
 *   exactly in time (lost = tau_m cycles of the period, no stall); any other
 *   mode is woken when the access becomes visible, lead_cycles before it
 *   (lost = lead_cycles, stall = max(0, wake_m - lead_cycles)). A period
 *   ending dead needs no wake: lost = 0, no stall. */
typedef enum { TRAPEZE_SLEEP_LOOKAHEAD, TRAPEZE_SLEEP_TIMEOUT } trapeze_sleep_policy;
const char *trapeze_sleep_policy_name(trapeze_sleep_policy p);

typedef struct trapeze_sleep_options {
    trapeze_sleep_policy policy;   /* LOOKAHEAD */
    double lead_cycles;            /* warning before an access (3: Snooze's request queue,
                                      Slumber's 3-warp look-ahead) */
    unsigned exact_wake;           /* bit m: mode m woken exactly in time (0) */
    int gate_writes;               /* 1: state-losing modes also before a write (the RF: the
                                      write overwrites); 0: only dead periods (Snooze) (1) */
    double smoothing;              /* s of the relaxed indicator sigma((T - theta)/s) (1) */
    double penalty_scale;          /* kappa: kernel cycles lost per exposed wake cycle (1) */
    double requester_cycles;       /* cycles x requesters the penalty is a fraction of;
                                      0: from the histogram (see trapeze_sleep_create) */
    double eager_margin;           /* the optimizer's whole-cycle thresholds also meet the
                                      budget with every threshold this many cycles lower
                                      (0; the presets: 2) */
    double penalty_z;              /* ... and with z standard errors of the sample's penalty
                                      (penalty_sigma) added (0; the presets: 2) */
} trapeze_sleep_options;
void trapeze_sleep_options_init(trapeze_sleep_options *o);
/* The defaults with the policy the simulator runs on structure s
 * (sim/power/snooze.c, slumber.c): Slumber's lookahead on the register
 * file (state-losing modes before writes too; deep and gated woken by a
 * countdown), Snooze's time-out on the caches; an eager margin of 2
 * cycles and 2 standard errors of the penalty. Returns the policy's name, "slumber" or "snooze". */
const char *trapeze_sleep_options_preset(trapeze_power_structure s,
                                         const trapeze_sleep_structure *st,
                                         trapeze_sleep_options *o);

typedef struct trapeze_sleep_eval {
    double periods, idle_cycles;
    double leak_on_cycles;       /* leakage of the observed cycles always ON (ON-cycles) */
    double saving_cycles;        /* expected leakage saved (ON-cycles) */
    double saving_fraction;      /* saving / leak_on: 0.3 = 30% of the leakage */
    double penalty_cycles;       /* exposed wake-up cycles, all periods */
    double penalty_fraction;     /* kappa x penalty_cycles / requester cycles */
    double penalty_sigma;        /* its standard error were the histogram's counts Poisson
                                    counts of observed periods: kappa x sqrt(sum of count x
                                    stall^2) / requester cycles */
    double mode_cycles[TRAPEZE_SLEEP_MAX_MODES + 1]; /* idle cycles per mode; [0] is ON */
    double dsaving[TRAPEZE_SLEEP_MAX_MODES];   /* d saving_fraction / d theta_m, exact */
    double dpenalty[TRAPEZE_SLEEP_MAX_MODES];  /* d penalty_fraction / d theta_m, exact */
} trapeze_sleep_eval;

typedef struct trapeze_sleep_model trapeze_sleep_model;

/* The model of one structure over one histogram (copied). The requester
 * cycles are o->requester_cycles, else h->cycles x h->requesters, else
 * estimated: one instance per dead period (each instance's last period is
 * dead), cycles = (idle + access cycles) / instances, one requester. */
trapeze_status trapeze_sleep_create(const trapeze_sleep_structure *s, const trapeze_idle_hist *h,
                                    const trapeze_sleep_options *o, trapeze_sleep_model **out,
                                    trapeze_error *err);
void trapeze_sleep_destroy(trapeze_sleep_model *m);
const trapeze_sleep_structure *trapeze_sleep_structure_of(const trapeze_sleep_model *m);
const trapeze_sleep_options *trapeze_sleep_options_of(const trapeze_sleep_model *m);
/* Expected saving and penalty at thresholds theta[0..n_modes-1], smooth in
 * theta, with exact gradients (dual numbers). smooth = 0 evaluates the hard
 * indicator instead (what a simulator does with integer thresholds). */
trapeze_status trapeze_sleep_evaluate(const trapeze_sleep_model *m, const double *theta,
                                      int smooth, trapeze_sleep_eval *out, trapeze_error *err);
/* The oracle: every period in its best allowed mode (or ON), wakes hidden. */
void trapeze_sleep_oracle(const trapeze_sleep_model *m, trapeze_sleep_eval *out);

/* The idle periods of one simulation (sampler/sleep/sleep_sample.c): built-in
 * kernel `kernel` with "name=value" settings, on a fresh simulator of cfg
 * with power description pw, every structure always on; one histogram per
 * structure and granularity (l1d line, bank; l2 line, slice; rf warp_reg,
 * bank), the run's kernels summed, with cycles (the kernels' cycles) and
 * requesters (SMs) set. *out is malloc'd (free()). */
trapeze_status trapeze_sleep_sample_builtin(const trapeze_config *cfg, const trapeze_power *pw,
                                            const char *kernel, int argc, char **argv,
                                            trapeze_idle_hist **out, int *n, double *cycles,
                                            trapeze_error *err);

/* A run the sleep model is calibrated or validated on (sampler/sleep/sleep_sample.c):
 * a built-in kernel ("matmul n=128", w NULL) or a ghost-zone stencil of
 * workload w ("hotspot size=256x256 sync=fence h=2 iters=8"; defaults:
 * the spec's size and iterations, fence, h = 1). */
#define TRAPEZE_SLEEP_JOB_ARGS 8
typedef struct trapeze_sleep_job {
    char spec[TRAPEZE_ROW_TEXT];         /* as given */
    char name[32];                       /* kernel or workload */
    int stencil;
    int argc;
    char args[TRAPEZE_SLEEP_JOB_ARGS][32];   /* a built-in's name=value settings */
    trapeze_workload workload;
    trapeze_sync sync;
    int h, iterations;
    /* threads each of the job's simulations splits its cycles across
     * (trapeze_sim_options.threads; 0 or 1: one); the same results for any.
     * Runs of several jobs set it from their --threads (the same budget) */
    int threads;
    /* a capped sample's later windows warm (the first window's GPU
     * continued, its dispatcher moved on; a block's life of warm-up and one
     * recorded) where the job is one launch of 8 waves or more and they fit
     * the cap; else the fresh windows (`--warm`; docs/sleep.md) */
    int warm;
} trapeze_sleep_job;
int trapeze_sleep_job_is_builtin(const char *name);
trapeze_status trapeze_sleep_job_parse(const char *spec, const trapeze_workload *w,
                                       trapeze_sleep_job *job, trapeze_error *err);

/* Units with histograms: l1d line, bank; l2 line, slice; rf warp_reg, bank. */
#define TRAPEZE_SLEEP_NUNITS 6
typedef struct trapeze_sleep_run {
    double cycles;          /* simulated: to the window's cut or the run's end */
    double warp_insts;      /* simulated work */
    int cut;                /* 1: the window ended before the run */
    int spread;             /* 1: a spread sample (the run simulated to its end) */
    double recorded;        /* cycles whose periods were recorded (a spread or jump sample) */
    int jumped;             /* 1: a jump sample (cycles: the run's, estimated) */
    double simulated;       /* cycles simulated (a jump sample: all its windows) */
    double censored;        /* periods open at the cut (trapeze_idle_hist_add_censored) */
    int n_sm;
    trapeze_idle_hist hist[TRAPEZE_SLEEP_NUNITS];             /* window only */
    double mode_cycles[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES]; /* simulate only */
    double entries[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES];     /* periods per deepest mode */
    double stall[TRAPEZE_PS_SLEEPABLE];                       /* wake-up cycles exposed */
    /* 1 - (leakage + transition energy) / leakage always ON, tracked units */
    double saving[TRAPEZE_PS_SLEEPABLE];
    double penalty[TRAPEZE_PS_SLEEPABLE]; /* stall / (cycles x SMs) */
    double run_insts;       /* the whole run's warp instructions (0: not known) */
    /* a jump sample's later windows: cycles of warm-up and recorded each
     * (TRAPEZE_SLEEP_JUMP_WARM and _RECORD, or shrunk under a cap) */
    double jump_warm, jump_record;
    int jump_windows;       /* a jump sample's later windows */
    int warm;               /* 1: they ran warm (trapeze_sleep_job's warm) */
    /* a capped sample simulated through because no jump sample fits the cap:
     * the cheapest jump plan's cycles (the first window and one later window
     * at the shortest length) over the run's, at the first window's rate
     * (0: not capped, or jumped) */
    double cap_smallest;
} trapeze_sleep_run;

/* The job's first window_cycles cycles (0: the whole run) always on, with
 * the power description pw: the idle-period histograms (periods still open
 * at the cut spread over the longer completed ones: trapeze_idle_hist_add_censored).
 * spread_cycles > 0 (with window_cycles > 0): a spread sample instead, the
 * run simulated to its end and its periods recorded in the first window and
 * in one window of spread_cycles / 5 cycles in every spread_cycles after it,
 * those weighted to stand for the whole run after the first window; the
 * periods that end dead counted wherever they end (sampler/sleep/sleep_sample.c).
 * out is large: heap it. */
#define TRAPEZE_SLEEP_SPREAD_DEFAULT 2500
/* spread_cycles < 0: a jump sample where it costs less than the run (else
 * the spread sample of stride -spread_cycles): the first window, then
 * windows whose simulation starts at a later block, loop trip or launch
 * of the run without simulating up to it, TRAPEZE_SLEEP_JUMP_WARM cycles
 * not recorded and TRAPEZE_SLEEP_JUMP_RECORD recorded, and the ends of up
 * to four launches, weighted by warp instructions to stand for the run
 * (sampler/sleep/sleep_sample.c; out->jumped, out->simulated; out->cycles is
 * then the run's, estimated). */
#define TRAPEZE_SLEEP_JUMP_WARM 4000
#define TRAPEZE_SLEEP_JUMP_RECORD 2000
/* the share of a cap a capped plan's cycles may take (below the cap: a
 * later window may run faster than the first) */
#define TRAPEZE_SLEEP_CAP_PLAN 0.8
/* trapeze_sleep_window with a jump sample that costs at most the share cap
 * (0 < cap <= 1) of the run's cycles, as planned at the first window's
 * rate: the whole plan where it fits; else the first window cut at 0.4 cap
 * of the run's warp instructions (where it would cost more), then the most
 * later windows and launch ends that fit TRAPEZE_SLEEP_CAP_PLAN cap, their
 * warm-up and recording halved (up to three times) where not one fits at
 * full length (a run under about 15000 / cap cycles); where not one fits
 * even so (under about 1900 / cap), the run simulated on (the spread
 * sample: a run shorter than window_cycles is its own sample, every period
 * recorded) and out->cap_smallest set. out->run_insts: the run's warp
 * instructions; out->jump_warm and jump_record: the windows' lengths (the
 * least plan's where cap_smallest is set). */
trapeze_status trapeze_sleep_window_capped(const trapeze_config *cfg, const trapeze_power *pw,
                                           const trapeze_sleep_job *job, double window_cycles,
                                           double spread_cycles, double cap,
                                           trapeze_sleep_run *out, trapeze_error *err);
trapeze_status trapeze_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                    const trapeze_sleep_job *job, double window_cycles,
                                    double spread_cycles, trapeze_sleep_run *out,
                                    trapeze_error *err);

/* Which structures sleep in a simulation, at which whole-cycle thresholds:
 * l1d and l2 Snooze (line, time-out theta[x][0]); rf Slumber (warp
 * registers, shallow/deep/gated theta[rf][0..2]). Off: always on. */
typedef struct trapeze_sleep_setting {
    int on[TRAPEZE_PS_SLEEPABLE];
    double theta[TRAPEZE_PS_SLEEPABLE][TRAPEZE_SLEEP_MAX_MODES];
} trapeze_sleep_setting;

/* The whole job simulated with those policies in the timing: mode cycles,
 * stall, saving and penalty per structure (the ground truth). The saving
 * charges each sleep period its deepest mode's transition_j (the unit's
 * share, as the simulator's energy does), as the model does. */
trapeze_status trapeze_sleep_simulate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *job,
                                      const trapeze_sleep_setting *set, trapeze_sleep_run *out,
                                      trapeze_error *err);

/* Learning the sleep model (`trapeze calibrate --model sleep`,
 * sampler/sleep/sleep_calib.c): one samples-log row (model "sleep", kind
 * "window") per job: its first window_cycles cycles simulated always on
 * (with spread_cycles > 0 the spread sample of trapeze_sleep_window, < 0
 * its jump sample where cheaper: the commands' default),
 * the idle periods fitted (KS distance), and per structure the thresholds
 * that save the most leakage within max_penalty, predicted saving and
 * penalty. Run with trapeze_samples_run (threads, resume, the same bytes
 * whatever the thread count). use_fit: the model reads the fitted
 * distribution instead of the window's counts. */
extern const trapeze_row_schema trapeze_sleep_schema;
typedef struct trapeze_sleep_plan trapeze_sleep_plan;
trapeze_status trapeze_sleep_plan_create(const trapeze_config *cfg, const trapeze_power *pw,
                                         const trapeze_sleep_job *jobs, int n,
                                         double window_cycles, double spread_cycles,
                                         double max_penalty, int use_fit,
                                         trapeze_sleep_plan **out, trapeze_error *err);
void trapeze_sleep_plan_destroy(trapeze_sleep_plan *p);
const trapeze_sample_set *trapeze_sleep_plan_set(const trapeze_sleep_plan *p);

/* The result: one row per job and structure (gpu, kernel, structure,
 * thresholds, pred_saving, pred_penalty, fit_ks, window_cycles,
 * sampled_cycles, cut) from the plan's logged rows. */
trapeze_status trapeze_sleep_calib_write_csv(const trapeze_sleep_plan *p,
                                             const trapeze_sample_log *log, const char *path,
                                             trapeze_error *err);
/* A logged row, read back. */
typedef struct trapeze_sleep_sampled {
    char job[TRAPEZE_ROW_TEXT], gpu[TRAPEZE_ROW_TEXT];
    double window_cycles, spread_cycles, cycles, warp_insts, censored;
    int cut;
    int n_modes[TRAPEZE_PS_SLEEPABLE];
    double theta[TRAPEZE_PS_SLEEPABLE][TRAPEZE_SLEEP_MAX_MODES];
    double saving[TRAPEZE_PS_SLEEPABLE], penalty[TRAPEZE_PS_SLEEPABLE];
    double ks[TRAPEZE_PS_SLEEPABLE];   /* fit's Kolmogorov-Smirnov distance, all kinds */
} trapeze_sleep_sampled;
trapeze_status trapeze_sleep_from_row(const trapeze_sample_row *row, trapeze_sleep_sampled *out,
                                      trapeze_error *err);

/* The sleep model against full simulation (`trapeze validate --model
 * sleep`, sampler/sleep/sleep_validate.c). Per job and structure (l1d, l2 Snooze
 * on lines; rf Slumber on warp registers): the thresholds chosen on the
 * job's window, then whole runs with that structure's policy alone in the
 * timing at the model's thresholds, the seed's and a sweep (Snooze
 * 0..64, 12 settings; Slumber shallow 4/12 x deep 13/14/20 x gated
 * 16/21/32/never in order, 22), each also predicted by the model on the
 * window. */
typedef struct trapeze_sleep_vrow {
    char gpu[64], job[TRAPEZE_ROW_TEXT];
    int structure;                 /* TRAPEZE_PS_* */
    char choice[8];                /* model, seed, sweep */
    int best;                      /* the sweep's best saving within the budget (simulated) */
    int n_modes;
    char mode[TRAPEZE_SLEEP_MAX_MODES][16];
    double theta[TRAPEZE_SLEEP_MAX_MODES];
    double pred_mode[TRAPEZE_SLEEP_MAX_MODES], sim_mode[TRAPEZE_SLEEP_MAX_MODES]; /* share of
                                      the unit-cycles in each mode */
    double pred_saving, sim_saving, pred_penalty, sim_penalty, sim_cycles;
} trapeze_sleep_vrow;

typedef struct trapeze_sleep_vsummary {
    char job[TRAPEZE_ROW_TEXT];
    int structure;
    int model, seed, best;         /* rows; best -1: nothing swept within the budget */
    double ratio;                  /* model's simulated saving / best swept's */
    double ks, window_cycles, run_cycles;
    int cut;
    /* the job's sample and one whole run of it, in warp instructions (the
     * same on each structure's row) */
    double sample_insts, run_insts;
    double cap_smallest;           /* trapeze_sleep_run's: the whole run is the sample */
} trapeze_sleep_vsummary;

/* The validation's targets over every (job, structure) of the model's choice. */
typedef struct trapeze_sleep_targets {
    int rows;
    int ratio_met;                 /* within the budget and >= 99% of the best swept saving
                                      within it (a choice over the budget misses) */
    int saving_met;                /* |predicted - simulated saving| <= 3 points */
    int penalty_met;               /* |predicted - simulated penalty| <= 0.5 points */
    int over_budget;               /* simulated penalty above the budget */
    double worst_over;             /* the largest simulated penalty less the budget (0: none) */
    int point_met;                 /* within the budget and >= the best swept saving within it
                                      less 1 point */
    double worst_point_gap;        /* the largest (best swept - model) simulated saving */
    int cache_rows, cache_above_floor; /* l1d and l2 rows; those whose model threshold is
                                      above the sweep's lowest (0): the break-even at work */
    double worst_ratio, worst_saving_error, worst_penalty_error;
    double sample_fraction;        /* windows' warp instructions / the sweep's (<= 5%) */
    int jobs, quarter_met;         /* jobs; those whose sample is <= 25% of one run */
    double worst_run_fraction;     /* the largest sample / one run, in warp instructions */
} trapeze_sleep_targets;

typedef struct trapeze_sleep_validation {
    char gpu[64];
    double max_penalty;
    trapeze_sleep_vrow *rows;
    int n_rows, cap_rows;
    trapeze_sleep_vsummary *summary;
    int n_summary;
    double sample_insts, sample_cycles;   /* the windows */
    int jobs, jumped;                     /* jobs; those sampled by a jump sample */
    double jump_simulated, jump_runs;     /* the jump samples' simulated cycles; their
                                             runs' (the model's whole runs) */
    double sweep_insts;                   /* a whole run per row: the sweep's work */
    int sweep_runs;                       /* rows (settings), each as one whole run */
    int simulations;                      /* whole runs simulated for them: settings
                                             that hide every wake-up share one per job */
    trapeze_sleep_targets targets;
} trapeze_sleep_validation;

/* Per job its window and picks, then every whole run of the model's, the
 * seed's and the swept thresholds, with `threads` threads in all (as
 * trapeze_samples_run: simulations side by side, each split across the
 * threads left over; the same rows for any count); progress(ctx, done, total) counts windows and runs. cap > 0:
 * each job's sample is trapeze_sleep_window_capped's at that share. */
trapeze_status trapeze_sleep_validate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *jobs, int n, double window_cycles,
                                      double spread_cycles, double cap, double max_penalty,
                                      int use_fit,
                                      int threads,
                                      void (*progress)(void *ctx, int done, int total),
                                      void *ctx, trapeze_sleep_validation *v,
                                      trapeze_error *err);
/* Recomputes v->targets (and each summary's ratio) from the rows. */
void trapeze_sleep_validation_targets(trapeze_sleep_validation *v);
void trapeze_sleep_validation_free(trapeze_sleep_validation *v);
/* One row per (job, structure, setting, mode): gpu, kernel, structure,
 * choice, thresholds, best_swept, mode, threshold_cycles, pred_mode_fraction,
 * sim_mode_fraction, pred_saving, sim_saving, pred_leakage_fraction,
 * sim_leakage_fraction, pred_penalty, sim_penalty, sim_cycles. */
trapeze_status trapeze_sleep_validation_write_csv(const trapeze_sleep_validation *v,
                                                  const char *path, trapeze_error *err);

/* The seed's fixed thresholds: each mode entered at its wake-up delay
 * (Snooze 2 cycles; Slumber 4/13/16). */
void trapeze_sleep_seed_thresholds(const trapeze_sleep_structure *s, double *theta);

/* The thresholds that maximize the leakage saved with the exposed wake-up
 * penalty at most max_penalty (a fraction of the requester cycles, 0.01 =
 * 1%): the generic optimizer (model/model.h, NLopt MMA) on the smooth model from several starts (the seed's
 * thresholds, the break-even times, the crossovers, a ladder of lengths),
 * thresholds kept in mode order; then the whole-cycle thresholds a policy
 * runs, checked against the budget with the hard model. */
typedef struct trapeze_sleep_choice {
    double theta[TRAPEZE_SLEEP_MAX_MODES];       /* continuous optimum */
    double theta_int[TRAPEZE_SLEEP_MAX_MODES];   /* whole cycles: sleep when T >= theta_int */
    double seed_theta[TRAPEZE_SLEEP_MAX_MODES];
    trapeze_sleep_eval smooth;    /* the smooth model at theta */
    trapeze_sleep_eval chosen;    /* the hard model at theta_int */
    trapeze_sleep_eval seed;      /* the hard model at the seed's thresholds */
    trapeze_sleep_eval oracle;
    double held_penalty;          /* what the choice is held to: the larger of its penalty
                                     and the eager one's, + penalty_z x penalty_sigma */
    int feasible;                 /* held_penalty <= max_penalty */
    int starts, evaluations;
} trapeze_sleep_choice;

trapeze_status trapeze_sleep_optimize(const trapeze_sleep_model *m, double max_penalty,
                                      trapeze_sleep_choice *out, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
