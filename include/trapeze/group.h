/*
 * trapeze/group.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * The TB grouping model (model/group.c): its constants, predictions,
 * optimizer and fit, and the grouping problem, samples and decision of one
 * launch (sampler/).
 */
#ifndef TRAPEZE_GROUP_H
#define TRAPEZE_GROUP_H

#include "trapeze/error.h"
#include "trapeze/locality.h"
#include "trapeze/fit.h"
#include "trapeze/grouping.h"
#include "trapeze/samples.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The grouping model's constants: what capacity, contention and timing leave
 * unknown, fitted from short samples. */
typedef enum {
    TRAPEZE_GROUP_MU,        /* L2 accesses per footprint line a TB fetches itself */
    TRAPEZE_GROUP_ETA1,      /* fraction of lines shared with a co-resident TB that hit in L1 */
    TRAPEZE_GROUP_ETA2,      /* fraction of lines shared with an earlier TB that hit in L2 */
    TRAPEZE_GROUP_RETAIN2,   /* L2 retention: lines survive about retain2 x L2 capacity of traffic */
    TRAPEZE_GROUP_THETA,     /* union of overlaps: theta x largest + (1-theta) x saturating sum */
    TRAPEZE_GROUP_NU,        /* DRAM reads per line missed in L2 */
    TRAPEZE_GROUP_CWAVE,     /* cycles for one SM to run a wave of its co-resident TBs */
    TRAPEZE_GROUP_TL2,       /* cycles per L2 access (the whole GPU's L2 throughput) */
    TRAPEZE_GROUP_TDRAM,     /* cycles per DRAM read */
    TRAPEZE_GROUP_OVERLAP,   /* omega: cycles = (Tc^p + Ts^p + T2^p + Td^p)^(1/p), p = 1/(1-omega) */
    TRAPEZE_GROUP_TSM,       /* cycles an SM's own pipelines (schedulers, L1, load/store) take per
                              TB of its queue: co-resident TBs share them (throughput, where
                              cwave is latency) */
    TRAPEZE_GROUP_CONTENTION, /* beta: how the whole GPU's DRAM time Tg adds to the rest, N:
                              cycles = ((N + Tg) + sqrt((N - Tg)^2 + 4 beta N Tg)) / 2, 0: max(N,
                              Tg), 1: N + Tg; a GPU's, measured on whole launches (held out
                              over launches), never on sub-grids */
    TRAPEZE_GROUP_NPARAMS
} trapeze_group_param;

typedef struct trapeze_group_params {
    double value[TRAPEZE_GROUP_NPARAMS];
    double stderr_[TRAPEZE_GROUP_NPARAMS];
    /* the held-out relative error of a predicted gain over round-robin at
     * the whole-launch scale ([group] gain_uncertainty): a grouping replaces
     * round-robin only when predicted faster by more; < 0: not measured */
    double gain_uncertainty;
    /* the same uncertainty and the DRAM contention beta where each launch's
     * constants are fitted to its own sub-grids, as validate and calibrate
     * fit a user's launch ([group] subgrid_gain_uncertainty,
     * subgrid_dram_contention): both held out over the calibration's
     * launches at those constants; < 0: not measured (then
     * gain_uncertainty and value[TRAPEZE_GROUP_CONTENTION]) */
    double subgrid_gain_uncertainty;
    double subgrid_contention;
    /* the same uncertainty where each launch's whole-launch cycles are
     * corrected by its whole-GPU windows ([group] gpu_window_gain_uncertainty,
     * at the sub-grid DRAM contention); < 0: not measured */
    double gpu_window_gain_uncertainty;
    /* the whole GPU's L2 contention beta2 ([group] l2_contention): cycles
     * C(C(N, Tg; beta), T2g; beta2), T2g the whole launch's L2 accesses at
     * the L2's peak rate (machine.l2_accesses_per_cycle); measured on whole
     * runs at sub-grid-fitted constants, never on sub-grids; < 0: no such
     * term (the default; `--l2-contention` of calibrate and validate) */
    double l2_contention;
    /* beta2 where T2g counts each candidate's L2 accesses as its sub-grid
     * measured them, per TB, scaled to the launch's TBs ([group]
     * l2_measured_contention; trapeze_group_l2_measured_time): measured on
     * whole runs at sub-grid-fitted constants; < 0: no such term (the
     * default; `--l2-measured` of calibrate and validate) */
    double l2_measured_contention;
    /* beta2 where that time is the L2's and the DRAM's together: each
     * candidate's sub-grid L2 accesses and DRAM reads per TB, scaled to the
     * launch, at the slices' and channels' peak rates, summed ([group]
     * memory_measured_contention; trapeze_group_memory_measured_time);
     * measured as l2_measured_contention; < 0: no such term (the default;
     * `--memory-measured` of calibrate and validate) */
    double memory_measured_contention;
    /* kappa, the cycles a grouping pays per cycle of its DRAM rows' time
     * ([group] dram_rows_cost, in [0, 4]; trapeze_group_row_time): measured on
     * whole runs' gains over rr at sub-grid-fitted constants; < 0: no such
     * term (the default; `--dram-rows` of calibrate and validate) */
    double dram_rows_cost;
    /* 1: what a TB finds in L1 is counted in the unit one L1 miss fetches
     * (machine.dram_fetch_bytes: the lines or sectors the L1 holds, so a
     * neighbour's line serves every read of it), as a share of the TB's
     * units times its footprint ([group] l1_by_fetch; `--l1-fetch` of
     * calibrate and validate); 0: in the footprint's unit (the default) */
    int l1_by_fetch;
    /* 1 (the default): with sub-grids, each candidate's whole-launch
     * cycles are at least its DRAM time with the rows its grouping opens
     * (trapeze_group_dram_busiest_time of the counts
     * trapeze_group_problem_dram_banks makes): nothing fitted, the config's
     * address map and timing; 0: off ([group] dram_banks = 0,
     * `--no-dram-banks` of calibrate and validate) */
    int dram_banks;
    /* 1: the gain uncertainties above were measured as the predicted gain
     * minus the simulated one ([group] gain_difference = 1; `--gain-difference`
     * of calibrate and validate); 0: as the ratio of the two (the default).
     * The form goes with u: a launch decided on this calibration reports
     * its u in this form */
    int gain_difference;
    char source[128];
} trapeze_group_params;

const char *trapeze_group_param_name(trapeze_group_param p);
void trapeze_group_param_range(trapeze_group_param p, double *lo, double *hi);
void trapeze_group_params_default(trapeze_group_params *p);
/* Calibration file: [group] name = value (name_stderr), [meta] source;
 * absent names keep their defaults. Errors name file, line and key. */
trapeze_status trapeze_group_params_load(const char *path, trapeze_group_params *p,
                                         trapeze_error *err);
trapeze_status trapeze_group_params_save(const char *path, const trapeze_group_params *p,
                                         trapeze_error *err);

/* What the model needs of the GPU and of the kernel's occupancy. */
typedef struct trapeze_group_machine {
    int n_sm;
    int tbs_per_sm;        /* co-resident TBs per SM (occupancy), x */
    double l1_lines;       /* L1D capacity per SM, in lines */
    double l2_lines;       /* L2 capacity, whole GPU, in lines */
    int by_elements;       /* 1: data counted in elements (footprints and shares in
                              elements, capacities converted at the graph's mean
                              elements per line): L2 accesses follow the elements
                              a TB reads more closely than its lines when lines
                              are partly used; 0: in lines */
    double dram_reads_per_cycle;   /* the whole GPU's peak DRAM rate, in 32-byte
                                      transfers per core cycle (the config's); 0: no
                                      whole-GPU DRAM floor */
    double dram_read_transfers;    /* 32-byte transfers one DRAM read (a 32-byte
                                      sector) occupies: the DRAM's access atom over
                                      32 (GTX 480: 64-byte atoms, 2; V100: 1);
                                      below 1 (0): 1 */
    int dram_fetch_bytes;  /* what one L1 miss fetches from L2 and DRAM: the config's
                              line where the L1 is not sectored (GTX 480: 128), a sector
                              where it is (V100: 32); DRAM reads, their footprints and
                              shares and the L2's retention are counted in that unit
                              (the graph's lines or sectors), so two TBs share in DRAM
                              every unit both touch; 0: in by_elements's unit */
    double l2_accesses_per_cycle;  /* the whole GPU's peak L2 rate: slices (channels
                                      x sub-partitions) at the L2's clock over the
                                      core's, one access each a cycle; 0: no whole-GPU
                                      L2 term */
} trapeze_group_machine;

typedef struct trapeze_group_model trapeze_group_model;

/* Copies what it needs of the graph. */
trapeze_status trapeze_group_create(const trapeze_locality_graph *graph,
                                    const trapeze_group_machine *m, const trapeze_group_params *p,
                                    trapeze_group_model **out, trapeze_error *err);
void trapeze_group_destroy(trapeze_group_model *m);
void trapeze_group_set_params(trapeze_group_model *m, const trapeze_group_params *p);

typedef struct trapeze_group_eval {
    double l1_shared_hits;   /* L1 hits on lines another TB of the same SM brought */
    double l2_accesses;      /* L1 misses sent to L2 (lines) */
    double dram_reads;
    double max_queue;        /* TBs in the longest group queue */
    double t_compute, t_sm, t_l2, t_dram;
    double t_norm;           /* (t_compute^q + t_sm^q + t_l2^q + t_dram^q)^(1/q): an SM's queue */
    double t_gpu_dram;       /* the whole launch's DRAM reads (each its
                                machine.dram_read_transfers) and writes at the
                                GPU's peak rate (machine.dram_reads_per_cycle):
                                beside the norm */
    double t_gpu_l2;         /* the whole launch's L2 accesses and store sectors at the
                                L2's peak rate (machine.l2_accesses_per_cycle); 0 where
                                params.l2_contention < 0 */
    double cycles;           /* trapeze_group_contention_cycles(t_norm, t_gpu_dram, beta),
                                then with t_gpu_l2 at l2_contention where it is on */
    /* exact gradients in the parameters */
    double dl2_dparam[TRAPEZE_GROUP_NPARAMS];
    double ddram_dparam[TRAPEZE_GROUP_NPARAMS];
    double dcycles_dparam[TRAPEZE_GROUP_NPARAMS];
} trapeze_group_eval;

/* The cycles of an SM queue's time N beside the whole GPU's DRAM time Tg
 * under DRAM contention beta in [0, 1]: the larger root of
 * (C - N)(C - Tg) = beta N Tg, i.e. ((N + Tg) + sqrt((N - Tg)^2 + 4 beta N Tg)) / 2.
 * A TB waiting on a DRAM busy a fraction Tg / C of the time waits
 * beta Tg / (C - Tg) longer (a queue's delay grows as rho / (1 - rho)):
 * beta 0 is max(N, Tg), 1 is N + Tg. */
double trapeze_group_contention_cycles(double norm, double t_gpu_dram, double beta);
/* The correction of a candidate's whole-launch cycles by its whole-GPU
 * window (sampler/group/gpu_window.c): the window's measured cycles over
 * the model's prediction of the same window at DRAM contention beta,
 * sim_w / trapeze_group_contention_cycles(norm_w, tg_w, beta); 1 where
 * either is not positive (no window). */
double trapeze_group_gpu_window_factor(double sim_w, double norm_w, double tg_w, double beta);

/* Predicts a grouping (n_groups must be the machine's n_sm). */
trapeze_status trapeze_group_evaluate(const trapeze_group_model *m, const trapeze_grouping *g,
                                      trapeze_group_eval *out, trapeze_error *err);
/* What bounds a prediction: "gpu-dram" where the whole GPU's DRAM floor (Tg)
 * set its cycles, else the largest of its four times: "latency" (Tc), "sm"
 * (Ts), "l2" (T2) or "dram" (Td). */
const char *trapeze_group_eval_bound(const trapeze_group_eval *e);

/* Groupings as the model sees the simulator's baselines and the tiles:
 * round-robin (TB t in queue t mod n_sm at position t / n_sm), BCS (pairs
 * 2p, 2p+1 together, pair p in queue p mod n_sm), and tiles of gx x gy TBs
 * over the grid (y and z folded), taken in row-major (tile_order 0) or
 * column-major (1) tile order, each tile whole to the least-loaded queue
 * (balance), TBs row-major inside. out is allocated (trapeze_grouping_free). */
trapeze_status trapeze_group_rr(const trapeze_group_model *m, trapeze_grouping *out,
                                trapeze_error *err);
trapeze_status trapeze_group_bcs(const trapeze_group_model *m, trapeze_grouping *out,
                                 trapeze_error *err);
trapeze_status trapeze_group_tiles(const trapeze_group_model *m, int gx, int gy,
                                   int tile_order, trapeze_grouping *out,
                                   trapeze_error *err);

/* A soft assignment of the TBs to the SM queues, for graphs without grid
 * structure (model/group_soft.c): shares X[p][g] = softmax(theta[p]) that
 * minimize the shared data kept apart plus a balance penalty (L-BFGS),
 * rounded under ceil(n / n_sm) TBs per queue, refined by moves that keep
 * more shared data, ordered greedily within a queue. */
typedef struct trapeze_group_soft_info {
    double relaxed_start, relaxed;   /* the relaxation's objective: start, optimum */
    double rounded_kept, kept;       /* shared data within queues: rounded, refined */
    double total_shared;             /* all shared data (each edge once) */
    int moves, nlopt_evaluations;
} trapeze_group_soft_info;
trapeze_status trapeze_group_soft(const trapeze_group_model *m, trapeze_grouping *out,
                                  trapeze_group_soft_info *info, trapeze_error *err);
/* The relaxation's objective at theta (n x G) for G queues, its gradient
 * into grad (may be NULL); X (n x G) and dX (n x G + G) are scratch. */
double trapeze_group_soft_objective(const trapeze_group_model *m, int G, const double *theta,
                                    double *grad, double *X, double *dX);
/* Shared data (the model's units) between TBs of the same queue. */
double trapeze_group_kept_shared(const trapeze_group_model *m, const trapeze_grouping *g);

/* The optimizer's result. */
typedef struct trapeze_group_choice {
    char source[32];          /* "tiles", or the name of the candidate that won */
    int gx, gy, tile_order;   /* the tile chosen (0 when a candidate won) */
    double gx_continuous, gy_continuous;   /* the relaxation's optimum */
    double relaxed_cycles;    /* the relaxation's value there */
    int model_evaluations;    /* discrete groupings the model predicted */
    int nlopt_evaluations;
    trapeze_group_eval eval;    /* the prediction of the chosen grouping */
} trapeze_group_choice;

/* Picks a grouping minimizing predicted cycles. The relaxation: tile width
 * and height (gx, gy) real, the model's cycles between whole shapes
 * interpolated bilinearly (exact gradients of the interpolant), minimized
 * by NLopt SLSQP from several starts under gx * gy <= min(TBs per SM at
 * once, ceil(TBs / SMs)) (resident at once, no SM left idle), for both
 * tile orders; then rounded (the whole shapes around the optimum, grown to
 * fill the SM) and refined (every rounded shape in both orders predicted by
 * the discrete model). Candidates (e.g. the baselines' groupings) compete
 * with the tiles. candidates[0] is the default (the GPU's own policy,
 * round-robin). Among the candidates the fastest wins: by measured_cycles
 * when given (they were simulated; NULL: by the model, and only when
 * predicted faster than the default by more than `margin`). The tiles then
 * replace the winner only when predicted faster than the winner, taken at
 * the lower of its prediction and its measurement, by more than `margin`
 * (relative; e.g. the model's error), so a model that cannot tell them
 * apart keeps the winner. out is allocated. */
trapeze_status trapeze_group_optimize(const trapeze_group_model *m,
                                      const trapeze_grouping *candidates,
                                      const char *const *candidate_names,
                                      const double *measured_cycles, int n_candidates,
                                      double margin, trapeze_grouping *out,
                                      trapeze_group_choice *choice, trapeze_error *err);

/* One observation of a grouping, simulated or measured: the model of the
 * kernel on the GPU, the grouping that ran, and what was measured (a value
 * <= 0 is not used). */
typedef struct trapeze_group_observation {
    const trapeze_group_model *model;
    const trapeze_grouping *grouping;
    double cycles, l2_accesses, dram_reads;
} trapeze_group_observation;

#define TRAPEZE_GROUP_MASK(p) (1ul << (p))
/* Fits the parameters selected by mask (0: all) to every measured value by
 * nonlinear least squares on relative residuals (the generic fit, the
 * model's exact Jacobian), in stages from p: the L1 constants (mu, eta1,
 * theta) on L2 accesses, the L2 constants (nu, eta2, retain2) on DRAM
 * reads, the timing constants on cycles from a linear least-squares start
 * (each constant from its own observable). p: start in, fitted values and
 * standard errors out; rep: the relative error over every value. With folds >= 2, also the k-fold cross-validated error
 * (observation i held out in fold i mod k; rep->cv_mape_pct,
 * rep->cv_max_ape_pct). Models keep their own parameters (set them with
 * trapeze_group_set_params). */
trapeze_status trapeze_group_fit(const trapeze_group_observation *obs, int n, unsigned long mask,
                                 int folds, trapeze_group_params *p, trapeze_fit_report *rep,
                                 trapeze_error *err);

/* The DRAM contention beta in [0, 1] that fits n whole runs best: the
 * least squares of ln(trapeze_group_contention_cycles(norm[i], tg[i], beta) /
 * sim[i]) (a grid of 1/200 steps, then golden section within the best
 * step's neighbours). Points without a DRAM time (tg 0) or a run are
 * skipped; none left: beta 0. EINVAL on a negative or non-finite value. */
trapeze_status trapeze_group_fit_contention(const double *norm, const double *tg,
                                            const double *sim, long n, double *beta,
                                            trapeze_error *err);

/* How a predicted gain over round-robin is compared with the runs' gain
 * (sampler/group/gain_error.c), candidate c of a launch against its rr:
 * RATIO (pred_c / pred_rr) / (sim_c / sim_rr) - 1, the shipped u's;
 * DIFFERENCE the predicted gain minus the simulated one, (1 - pred_c /
 * pred_rr) - (1 - sim_c / sim_rr), in the units the gate compares a gain
 * with; both paired per launch (an error common to its candidates
 * cancels). ABSOLUTE the candidate's own cycles error, pred_c / sim_c - 1,
 * unpaired: what a gate on absolute cycles would take. */
typedef enum {
    TRAPEZE_GROUP_GAIN_RATIO,
    TRAPEZE_GROUP_GAIN_DIFFERENCE,
    TRAPEZE_GROUP_GAIN_ABSOLUTE
} trapeze_group_gain_form;

double trapeze_group_gain_error(trapeze_group_gain_form form, double pred, double pred_rr,
                                double sim, double sim_rr);
/* The rms of n_launches x per errors (row-major, a launch's per errors
 * together) but launch skip's (-1: none): the uncertainty of a gain held
 * out from launch skip; -1 when none is left. */
double trapeze_group_gain_uncertainty(const double *err, int n_launches, int per, int skip);

/* A kernel's grouping problem on a GPU (sampler/: the simulator joined to
 * the model): the locality graph and machine of one launch of a built-in
 * kernel ("name=value" parameters), the model's view of the simulator's
 * policies, and simulations of that launch alone (caches cold). */
typedef struct trapeze_group_problem trapeze_group_problem;

trapeze_status trapeze_group_problem_builtin(const char *gpu_config_path, const char *kernel,
                                             char *const *params, int n_params, int launch,
                                             trapeze_group_problem **out, trapeze_error *err);
/* The same for launch `launch` of an Accel-Sim trace (kernelslist.g): the
 * graph from its loads' addresses (trapeze_locality_trace). */
trapeze_status trapeze_group_problem_trace(const char *gpu_config_path, const char *kernelslist,
                                           int launch, trapeze_group_problem **out,
                                           trapeze_error *err);
void trapeze_group_problem_destroy(trapeze_group_problem *pb);
/* The threads each of pb's simulations splits its cycles across
 * (trapeze_sim_options.threads; default 1): the same results for any. */
void trapeze_group_problem_set_threads(trapeze_group_problem *pb, int threads);
const trapeze_locality_graph *trapeze_group_problem_graph(const trapeze_group_problem *pb);
const trapeze_group_machine *trapeze_group_problem_machine(const trapeze_group_problem *pb);
/* The bytes one DRAM row of every bank of every channel holds: the
 * config's address map below its first row bit, times the channels where
 * they are taken out first (dramid@N); GTX 480 384 KiB, V100 1 MiB. */
double trapeze_group_problem_dram_stripe_bytes(const trapeze_group_problem *pb);
/* Each candidate's whole-launch DRAM time with the rows its grouping
 * opens (t_dram[c], core cycles) and its row activations (NULL: not
 * wanted): the launch's loads and stores in the unit one miss fetches,
 * decoded by the config's address map, counted by trapeze_group_dram_count
 * and priced by trapeze_group_dram_busiest_time at the config's timing
 * (sampler/group/dram_banks.c). */
trapeze_status trapeze_group_problem_dram_banks(const trapeze_group_problem *pb,
                                                const trapeze_grouping *cand, int n_cand,
                                                double *t_dram, double *activations,
                                                trapeze_error *err);
/* The grouping policy rr, bcs, mst, kway or rbts places (PAVER's group
 * lists: list k to SM k mod n_sm), as the model predicts it; EINVAL for a
 * dynamic policy (chen). */
trapeze_status trapeze_group_problem_policy_grouping(const trapeze_group_problem *pb,
                                                     const trapeze_group_model *m,
                                                     const char *policy, trapeze_grouping *out,
                                                     trapeze_error *err);

typedef struct trapeze_group_measured {
    double cycles;
    double l2_accesses;       /* L2 read accesses (the loads' L1 misses) */
    double dram_reads;
    double l1_hits;
    double warp_instructions; /* the simulated work */
    double stolen_blocks;
    double tbs;               /* the TBs the run held (a sub-grid's, a launch's); 0: not known */
} trapeze_group_measured;

/* The whole GPU's L2 time of a launch of launch_tbs TBs under a candidate
 * whose sub-grid measured sub (its L2 accesses over its TBs, the per-TB
 * L2 load that transfers from a sub-grid to the launch), at l2_rate
 * accesses a cycle (machine.l2_accesses_per_cycle): sub->l2_accesses x
 * launch_tbs / sub->tbs / l2_rate; 0 where either is not known. */
double trapeze_group_l2_measured_time(const trapeze_group_measured *sub, long launch_tbs,
                                      double l2_rate);
/* The whole GPU's memory time of the same launch: that L2 time plus the
 * DRAM's, sub->dram_reads x launch_tbs / sub->tbs 32-byte reads of
 * mc->dram_read_transfers transfers each at mc->dram_reads_per_cycle: a
 * miss is served by a slice and then a channel, so a grouping that saves
 * L2 accesses by reading more from DRAM pays for both. 0 where the
 * sub-grid's TBs are not known; a side whose rate is not known adds 0. */
double trapeze_group_memory_measured_time(const trapeze_group_measured *sub, long launch_tbs,
                                          const trapeze_group_machine *mc);
/* A candidate's correction by that time: C(cycles, t2m; beta2) / cycles
 * (trapeze_group_contention_cycles), cycles the model's without the L2
 * term; 1 where beta2 < 0 or cycles <= 0. */
double trapeze_group_l2_measured_factor(double cycles, double t2m, double beta2);

/* The DRAM rows a grouping scatters (sampler/group/dram_rows.c). The TBs
 * in flight together are each queue's positions [k x, (k + 1) x) (x TBs
 * run at once on an SM); a TB whose id predecessor along the grid's x
 * (grid_x TBs a row; <= 0: one row) is not in flight with it starts a run
 * of consecutive TBs, whose data open their DRAM rows anew. The spread is
 * the share of TBs that start one: 1 / n for one run, 1 where none is
 * contiguous. rr's waves are runs of n_sm x TBs; a partition's (k-way-TS,
 * RB-TS) as many runs as its parts are far apart. */
double trapeze_group_row_spread(const trapeze_grouping *g, int grid_x, int tbs_per_sm);
/* The time those rows cost: spread x (1 - stripe / bytes) x t_gpu_dram,
 * bytes the launch's DRAM reads of 32 bytes, stripe the bytes one row of
 * every bank and channel holds (trapeze_group_problem_dram_stripe_bytes):
 * data within one stripe never meet another row of their bank (the V100's
 * Jacobi 512^2 reads 1 MiB, its stripe: row misses 512 under every
 * policy), data over many stripes do (2048^2: k-way-TS 220,328 against
 * rr's 18,782). 0 where bytes <= stripe or stripe is not known. */
double trapeze_group_row_time(double spread, double dram_reads, double stripe_bytes,
                              double t_gpu_dram);
/* A candidate's correction by that time: (cycles + kappa t_row) / cycles;
 * 1 where kappa < 0 or cycles <= 0. */
double trapeze_group_row_factor(double cycles, double t_row, double kappa);
/* The DRAM rows a grouping opens, from the hardware (the address map and
 * the row timing; sampler/group/dram_banks.c, the time model/
 * group_dram_banks.c). The launch's DRAM traffic is a list of units (what
 * one miss fetches: a line or a sector), each in one channel, bank and
 * row; TB t touches units[tb_start[t] .. tb_start[t + 1]). */
typedef struct trapeze_group_dram_units {
    long n_tbs, n_units;
    const long *tb_start;          /* n_tbs + 1 */
    const long *unit;              /* dense ids in [0, n_units) */
    const int *channel, *bank;     /* per unit: its channel, its bank in the channel */
    const unsigned long long *row; /* per unit: its row */
    int n_channels, n_banks;
    int window;                    /* requests a channel's scheduler holds at once (the
                                      config's FR-FCFS queue); <= 0: a whole wave */
} trapeze_group_dram_units;
/* The reads and row activations per channel (reads[n_channels],
 * activations[n_channels]) grouping g causes, x TBs a queue in flight: the
 * queues run their positions [k x, (k + 1) x) together (wave k), whose TBs
 * issue their units in turn (the r-th of each, then the r + 1-th); a unit
 * is read the first time it is issued (the L2 keeps it after); each
 * channel serves its requests window at a time (a whole wave where window
 * <= 0), opening each (bank, row) of a window once, the row a bank holds
 * from the window before (its highest) staying open. ENOMEM or EINVAL (a
 * unit out of range) only. */
trapeze_status trapeze_group_dram_count(const trapeze_group_dram_units *u,
                                        const trapeze_grouping *g, int tbs_per_sm,
                                        double *reads, double *activations,
                                        trapeze_error *err);
/* The DRAM's timing as the model prices it: DRAM cycles per read on the
 * data bus (a unit's atoms times the burst's command cycles), per row
 * activation of a bank (tRP + tRCD), the banks of a channel, core cycles
 * per DRAM cycle. */
typedef struct trapeze_group_dram_timing {
    double read_cycles, row_cycles, core_per_dram;
    int n_banks;
} trapeze_group_dram_timing;
/* The whole launch's DRAM time in core cycles: the busiest channel's reads
 * x read_cycles + activations x row_cycles / n_banks (banks open rows while
 * another's data move), x core_per_dram. */
double trapeze_group_dram_busiest_time(const trapeze_group_dram_timing *t, const double *reads,
                                       const double *activations, int n_channels);

/* kappa in [0, 4] that fits the runs' gains over rr best: n launches of
 * n_cand candidates each (the first rr), row-major in pred (the predicted
 * cycles without the rows' time), t_row and sim (the runs); the least
 * squares of ln((pred_c f_c / (pred_rr f_rr)) / (sim_c / sim_rr)), f the
 * row factor at kappa (the DRAM contention's search over [0, 1], times
 * 4). A launch with a value <= 0 is skipped; none left: 0. EINVAL on a
 * non-finite value. */
trapeze_status trapeze_group_fit_row_cost(const double *pred, const double *t_row,
                                          const double *sim, long n, int n_cand, double *kappa,
                                          trapeze_error *err);
/* How many of those n launches identify kappa: a launch the fit uses (no
 * value <= 0) with a candidate whose t_row / pred differs from rr's. The
 * others' gains do not move with kappa (every candidate's factor, or none,
 * is rr's), so where none is left the fit is flat and its 0 measures
 * nothing. moves (NULL: not kept) gets each launch's largest
 * |ln(f_c / f_rr)| at kappa 1, how far the rows' time moves its gains
 * (0 for a launch that identifies nothing). */
long trapeze_group_row_cost_launches(const double *pred, const double *t_row, const double *sim,
                                     long n, int n_cand, double *moves);

/* Simulates the launch under a policy (-trapeze_tb_dispatch NAME) or, when
 * grouping is not NULL, under the explicit policy running it. */
trapeze_status trapeze_group_problem_simulate(const trapeze_group_problem *pb, const char *policy,
                                              const trapeze_grouping *grouping,
                                              trapeze_group_measured *out, trapeze_error *err);

/* A short sample, a sub-grid of the launch: with window_groups > 0 only
 * the grouping's (or the group-list policy's) first window_groups queues
 * run, each on its SM, the other SMs idle (-trapeze_window_groups); 0:
 * the whole launch, as trapeze_group_problem_simulate. With warp_insts > 0
 * the run stops once that many warp instructions issued
 * (-trapeze_window_warp_insts; out holds what it did until then). */
trapeze_status trapeze_group_problem_simulate_window(const trapeze_group_problem *pb,
                                                     const char *policy,
                                                     const trapeze_grouping *grouping,
                                                     int window_groups, double warp_insts,
                                                     trapeze_group_measured *out,
                                                     trapeze_error *err);

/* ---- short samples (sampler/group/group_window.c) ----
 * A policy's sample is a sub-grid of the launch: the TBs of the first
 * non-empty queues of its grouping (as the model sees it), at most m of
 * them holding at most the share m / n_sm of the TBs (at least one queue);
 * with share > 0, at most min(m / n_sm, share) of them, a first queue over
 * it alone cut to its first max(1, floor(that x TBs)) TBs in dispatch
 * order (a prefix). The sub-grid runs alone on its
 * SMs and is predicted by the model on the graph its TBs induce, on a
 * machine of that many SMs. The constants fitted to the five policies'
 * sub-grids predict the whole launch. */
typedef struct trapeze_group_window trapeze_group_window;
/* The sub-grid of grouping g of pb's launch: its first non-empty queues
 * (at most m, at most m / n_sm of the TBs, at least one queue; share > 0:
 * at most min(m / n_sm, share), at least a prefix of one queue;
 * renumbered from 0 in queue order), the model of it at p. */
trapeze_status trapeze_group_window_create(const trapeze_group_problem *pb,
                                           const trapeze_grouping *g, int m, double share,
                                           const trapeze_group_params *p, trapeze_group_window **out,
                                           trapeze_error *err);
/* The whole-GPU window of grouping g (at most n_sm queues): the first k >= 1
 * TBs of every queue (orders 0..k-1), each queue on its own SM, all SMs at
 * once; the model of it at p on the whole machine. Simulated by
 * trapeze_group_window_simulate (-trapeze_window_groups n_sm, the other
 * TBs in a group never dispatched). */
trapeze_status trapeze_group_window_create_gpu(const trapeze_group_problem *pb,
                                               const trapeze_grouping *g, long k,
                                               const trapeze_group_params *p,
                                               trapeze_group_window **out, trapeze_error *err);
void trapeze_group_window_destroy(trapeze_group_window *w);
long trapeze_group_window_tbs(const trapeze_group_window *w);
/* The warp instructions the sub-grid's TBs hold (the locality graph's
 * count; 0 where the graph has none, as one read from a CSV). */
double trapeze_group_window_warp_insts(const trapeze_group_window *w);
/* 1 when the two sub-grids run the same TBs on the same queues in the same
 * order (one simulation serves both: the plan runs it once). */
int trapeze_group_window_same(const trapeze_group_window *a, const trapeze_group_window *b);
const trapeze_group_model *trapeze_group_window_model(const trapeze_group_window *w);
/* The sub-grid's own grouping (its TBs renumbered 0..n-1, in id order). */
const trapeze_grouping *trapeze_group_window_grouping(const trapeze_group_window *w);
/* Simulates the sub-grid: g with its queues (a cut queue's prefix) first,
 * every other TB after, run with -trapeze_window_groups (its queues); with
 * warp_insts > 0 only its first warp_insts warp instructions (a window,
 * trapeze_group_problem_simulate_window's). */
trapeze_status trapeze_group_window_simulate(const trapeze_group_problem *pb,
                                             const trapeze_group_window *w, double warp_insts,
                                             trapeze_group_measured *out, trapeze_error *err);
/* Fits trapeze_group_fit_mask_default to the five policies' sub-grids (rr,
 * bcs, mst, kway, rbts on m SMs and share as trapeze_group_window_create's,
 * measured in meas[5]) from p. */
trapeze_status trapeze_group_window_fit(const trapeze_group_problem *pb, int m, double share,
                                        const trapeze_group_measured meas[TRAPEZE_TB_NFIXED],
                                        trapeze_group_params *p, trapeze_fit_report *rep,
                                        trapeze_error *err);
/* The same fit to n launches' sub-grids at once (one set of constants for
 * all: a GPU's calibration), launch l's on m[l] SMs and share[l], measured
 * in meas[l]; folds as trapeze_group_fit's (0: no cross-validation). */
trapeze_status trapeze_group_window_fit_many(const trapeze_group_problem *const *pb, int n,
                                             const int *m, const double *share,
                                             const trapeze_group_measured (*meas)[TRAPEZE_TB_NFIXED],
                                             int folds,
                                             trapeze_group_params *p, trapeze_fit_report *rep,
                                             trapeze_error *err);

/* The decision of one launch (sampler/group/group_decide.c), what `trapeze group`
 * and `trapeze validate --model group` run. Policy rows: the dispatch
 * policies the model compares (trapeze_tb_policies[0 ..
 * TRAPEZE_TB_NCOMPARED), rr bcs chen mst kway rbts), then optimized. */
#define TRAPEZE_GROUP_NPOLICIES (TRAPEZE_TB_NCOMPARED + 1)
/* Row i's name; NULL past the last. */
const char *trapeze_group_policy_name(int i);
/* mu, eta1, nu, cwave, tl2, tdram, tsm: what five samples of one launch fit */
extern const unsigned long trapeze_group_fit_mask_default;

typedef struct trapeze_group_outcome {
    int predicted[TRAPEZE_GROUP_NPOLICIES], simulated[TRAPEZE_GROUP_NPOLICIES];
    trapeze_group_eval pred[TRAPEZE_GROUP_NPOLICIES];
    trapeze_group_measured sim[TRAPEZE_GROUP_NPOLICIES];
    trapeze_group_choice choice;
    trapeze_group_params params;         /* the constants used (fitted when fitted) */
    trapeze_fit_report fit;
    int fitted;
    double margin;                     /* the margin used: the one given, or the fit's rms
                                          relative error when fitted and larger */
    int optimized_simulated;           /* the chosen grouping was simulated here (not a
                                          policy's own run) */
    trapeze_grouping grouping;         /* the chosen grouping */
    int soft_tried;                    /* the soft assignment was computed */
    trapeze_group_soft_info soft;
    double soft_pred_cycles;
    /* Chen's dispatch decided before launch (trapeze_locality_chen_grouping),
     * a candidate beside the five: with sim it is simulated and ranked by its
     * cycles, else it competes by prediction after the tiles */
    trapeze_group_eval chen_static_pred;
    int chen_static_simulated;
    trapeze_group_measured chen_static_sim;
    /* the uncertainty the decision used against round-robin (< 0: not
     * measured; then the margin alone): with sim and fit, the fit's
     * cross-validated error over the five whole runs, else
     * p->gain_uncertainty */
    double uncertainty;
    /* with sim: the model's own pick before any run ranks the candidates
     * (by prediction alone, round-robin left only for a grouping predicted
     * faster by more than the margin and the uncertainty), its run, and
     * whether the simulations changed it (the choice above differs) */
    trapeze_group_choice model_choice;
    trapeze_grouping model_grouping;
    trapeze_group_measured model_sim;
    int model_simulated, model_changed;
    /* with whole-GPU windows: each candidate's correction (its window's
     * measured over predicted cycles, over rr's; 1 without a window) and
     * the one the optimized row took; 0: no windows */
    double gpu_factor[TRAPEZE_TB_NFIXED], gpu_factor_chosen;
    /* 1: those corrections are (or include) the measured L2 time's
     * (params.l2_measured_contention >= 0 with sub-grids; 2: the memory
     * time's, params.memory_measured_contention >= 0) */
    int l2_measured;
    /* 1: those corrections include the DRAM rows' (params.dram_rows_cost >= 0
     * with sub-grids) */
    int dram_rows;
    /* 1: each candidate's cycles were raised to its DRAM time with the rows
     * its grouping opens where that is longer (params.dram_banks, with
     * sub-grids); that time (core cycles) and its row activations */
    int dram_banks;
    double dram_time[TRAPEZE_TB_NFIXED], dram_activations[TRAPEZE_TB_NFIXED];
} trapeze_group_outcome;

/* sim: the six policies' measurements, rr..rbts in the order above (NULL:
 * predictions only, the model ranks the candidates); fit: fit
 * trapeze_group_fit_mask_default to rr, bcs, mst, kway and rbts from p;
 * margin as trapeze_group_optimize's, raised to the fit's rms relative error
 * when fitted (a model cannot tell apart what its own error covers). With sim, the chosen grouping is
 * simulated unless a policy won (then its run is the optimized row). */
/* chen-static (trapeze_locality_chen_grouping): with sim it is simulated and
 * ranked with the five by its cycles; without, it competes after the tiles
 * by prediction, as the soft assignment does. */
/* soft: the soft assignment (trapeze_group_soft) competes too, as
 * the tiles do: it replaces the choice only when predicted faster than it
 * (taken at the lower of its prediction and its measurement) by margin. */
/* win (used only without sim; NULL: none): the five candidates' sub-grids
 * (rr, bcs, mst, kway, rbts, as trapeze_group_window_fit's meas) and the fit
 * p came from. Then the outcome carries that fit, the margin is raised to
 * its rms error for the model's comparisons, and round-robin is left for
 * the candidate whose sub-grid ran fastest, only when that sub-grid beat
 * round-robin's by the given margin and the model does not predict the
 * candidate slower than round-robin by more than that margin: the
 * sub-grids are measurements, but of one SM's queue alone, so the model
 * (which sees the whole GPU) must not contradict them. */
/* gpu, gpu_k (gpu_k[c] 0: none): the candidates' whole-GPU windows
 * (trapeze_group_window_create_gpu, k = gpu_k[c] TBs a queue) and their
 * measurements. Where they are given, each candidate's whole-launch
 * cycles are the model's times its window's measured cycles over the
 * model's of the window, over the same factor of rr's (rr's prediction
 * stays the model's; a grouping without a window, a tile, takes the
 * factor of the candidate it replaced), and round-robin is left for the
 * candidate with the fewest such cycles only when they are fewer than
 * round-robin's by more than the margin and the uncertainty; the
 * sub-grids then fit the constants only. */
/* p->l2_measured_contention >= 0 (beta2m): the same correction, relative
 * to rr's, with each candidate's factor C(cycles, T2m; beta2m) / cycles,
 * T2m = trapeze_group_l2_measured_time(&sub[c], the launch's TBs, the
 * L2's rate): the whole GPU's L2 time at the L2 accesses per TB its
 * sub-grid measured (sub[c].tbs its TBs); times the window's factor where
 * both are given. p->memory_measured_contention >= 0 instead: the same with
 * T2m = trapeze_group_memory_measured_time (the L2's and the DRAM's).
 * p->dram_rows_cost >= 0 (kappa): each candidate's factor times
 * trapeze_group_row_factor of its DRAM rows' time (trapeze_group_row_time
 * of its grouping's spread and the model's reads and Tg), relative to rr's
 * likewise, with or without the above. p->dram_banks: then each
 * candidate's cycles, rr's too, are at least its DRAM time with the rows
 * it opens (trapeze_group_problem_dram_banks): absolute, not over rr's,
 * since nothing in it is fitted. */
typedef struct trapeze_group_window_evidence {
    trapeze_group_measured sub[TRAPEZE_TB_NFIXED];
    trapeze_fit_report fit;
    trapeze_group_measured gpu[TRAPEZE_TB_NFIXED];
    long gpu_k[TRAPEZE_TB_NFIXED];
} trapeze_group_window_evidence;
trapeze_status trapeze_group_decide(const trapeze_group_problem *pb, const trapeze_group_params *p,
                                    const trapeze_group_measured *sim,
                                    const trapeze_group_window_evidence *win, int fit, double margin,
                                    int soft, trapeze_group_outcome *out, trapeze_error *err);
void trapeze_group_outcome_free(trapeze_group_outcome *o);

/* The grouping model's samples (sampler/group/group_samples.c): one launch under
 * one policy, whole or its sub-grid, a row of model "group" in a samples
 * log (columns gpu, kernel, params, launch, policy, window_sms (0: the
 * whole launch), then cycles, l2_accesses, dram_reads, l1_hits,
 * warp_instructions, tbs), run by trapeze_samples_run (threads, resumed
 * from the log) or over MPI ranks by the command line. */
extern const trapeze_row_schema trapeze_group_sample_schema;
typedef struct trapeze_group_launch {
    const char *kernel;
    const char *params;        /* "name=value name=value" or NULL */
    int launch;
} trapeze_group_launch;
/* The launch's problem: a built-in kernel with its parameters, or, when
 * kernel names a path (holds a '/'), an Accel-Sim trace (DIR or
 * DIR/kernelslist.g; no parameters) as trapeze_group_problem_trace's. */
trapeze_status trapeze_group_launch_problem(const char *gpu, const trapeze_group_launch *l,
                                            trapeze_group_problem **out, trapeze_error *err);
typedef struct trapeze_group_plan trapeze_group_plan;
/* Rows launch by launch: with whole, the whole launch under rr, bcs,
 * (chen when with_chen), mst, kway, rbts (ids KERNEL[.PARAMS].lLAUNCH.POLICY);
 * with window_share > 0, the sub-grids of rr, bcs, mst, kway, rbts on
 * round(window_share * SMs) SMs, at least 1, holding at most
 * min(their share, window_tbs) of the TBs, a first queue over it cut to
 * its prefix (window_tbs 0: their share, whole queues;
 * trapeze_group_window_create; ids ...POLICY.wM, ...POLICY.wMtPCT with
 * window_tbs, column window_pct = 100 x window_tbs), each
 * distinct one once (a policy whose sub-grid an earlier policy's equals has
 * no row: the 1-D launches of 4 TBs place TB 0 alone under rr, MST-TS,
 * k-way-TS and RB-TS). budget b > 0 (at most 0.5) holds a launch's
 * sub-grids to b of its validation's work (they and six whole runs): with
 * window_tbs 0 the share is 6b / (5 (1 - b)) where m SMs' queues hold
 * more, and a distinct sub-grid whose TBs hold more than its part of
 * 6b / (1 - b) of the launch's warp instructions (the locality graph's
 * count) runs only that many (-trapeze_window_warp_insts; id suffix iN),
 * its measurements extrapolated to its TBs' instructions by
 * trapeze_group_plan_windows. gpu_share > 0 (below 1, with a budget) gives
 * that part of the budget to five whole-GPU windows (each candidate's
 * grouping, every queue's first k TBs on all SMs, k the most whose TBs hold
 * a fifth of the part, at least 1; over it, that many warp instructions,
 * extrapolated; ids POLICY.gK, POLICY.gKiN) and the rest to the sub-grids
 * (their ids then ...bBgG). */
trapeze_status trapeze_group_plan_create(const char *gpu_config_path, const char *gpu_name,
                                         const trapeze_group_launch *l, int n, int with_chen,
                                         int whole, double window_share, double window_tbs,
                                         double budget, double gpu_share,
                                         trapeze_group_plan **out, trapeze_error *err);
void trapeze_group_plan_destroy(trapeze_group_plan *plan);
const trapeze_sample_set *trapeze_group_plan_set(const trapeze_group_plan *plan);
/* The problem launch i's sub-grids were planned on (its locality graph:
 * the costliest part to build), owned by the plan; NULL where the plan
 * has no sub-grids. */
const trapeze_group_problem *trapeze_group_plan_problem(const trapeze_group_plan *plan,
                                                        int launch);
/* Launch i's measurements from the log, in trapeze_group_policy_name order
 * (chen's left zero when not planned); EINVAL when one is not logged. */
trapeze_status trapeze_group_plan_measured(const trapeze_group_plan *plan,
                                           const trapeze_sample_log *log, int launch,
                                           trapeze_group_measured sim[TRAPEZE_TB_NCOMPARED],
                                           trapeze_error *err);
/* Launch `launch`'s five sub-grids (rr bcs mst kway rbts) from the log
 * (a window's cycles, L2 accesses, DRAM reads and L1 hits times its TBs'
 * warp instructions over those it ran), their SMs and share of the TBs
 * (window_pct / 100), and the simulated work (warp instructions) of the
 * distinct ones, each run once. */
trapeze_status trapeze_group_plan_windows(const trapeze_group_plan *plan,
                                          const trapeze_sample_log *log, int launch,
                                          trapeze_group_measured meas[TRAPEZE_TB_NFIXED],
                                          int *window_sms,
                                          double *window_share, double *work, trapeze_error *err);
/* Launch `launch`'s five whole-GPU windows from the log (a window cut to
 * its part of the warp instructions extrapolated as a sub-grid's), each
 * one's TBs a queue k (all 0, and no measurement, where the plan has
 * none), and the simulated work of the distinct ones. */
trapeze_status trapeze_group_plan_gpu_windows(const trapeze_group_plan *plan,
                                              const trapeze_sample_log *log, int launch,
                                              trapeze_group_measured meas[TRAPEZE_TB_NFIXED],
                                              long k[TRAPEZE_TB_NFIXED], double *work,
                                              trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
