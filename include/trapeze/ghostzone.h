/*
 * trapeze/ghostzone.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * The ghost-zone model (Meng ch. 5): its parameters, evaluation, optimal
 * height and sync mode, ranking and --verify's order; no simulation.
 */
#ifndef TRAPEZE_GHOSTZONE_H
#define TRAPEZE_GHOSTZONE_H

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/csv.h"
#include "trapeze/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parameter vector: every constant Meng measured, assumed or fitted.
 * Calibration fits these; the default is the dissertation's GTX 280 set. */
typedef enum {
    TRAPEZE_GHOSTZONE_UNCONTENDED_LAT,   /* UncontendedLat, cycles (assumed 300) */
    TRAPEZE_GHOSTZONE_SIGMA,             /* sigma: alpha = sigma^(D-1) (fitted 5.0) */
    TRAPEZE_GHOSTZONE_BETA,              /* beta: latency hiding (assumed 0.5; used only with tau) */
    TRAPEZE_GHOSTZONE_MU,                /* mu: exposed fraction of fence sync (assumed 0.5) */
    TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK,   /* fence-barrier cycles per block (measured 210.3) */
    TRAPEZE_GHOSTZONE_RELAUNCH,          /* kernel relaunch cycles (measured 3350) */
    TRAPEZE_GHOSTZONE_CPI,               /* cycles per warp instruction (4) */
    TRAPEZE_GHOSTZONE_BLOCKS_PER_SM,     /* BlksPerSM (8) */
    TRAPEZE_GHOSTZONE_BW_FRACTION,       /* achieved / peak DRAM bandwidth (extension; 1 = Meng) */
    TRAPEZE_GHOSTZONE_FENCE_BARRIER,     /* fence-barrier cycles per stage, the intercept of Meng's
                                     fit (his "negligible" delta; 0 = Meng) */
    TRAPEZE_GHOSTZONE_OVERLAP,           /* omega: memory/compute overlap, CPS = GlbSync +
                                     (MemAcc^p + Comp^p)^(1/p), p = 1/(1-omega): 0 is
                                     Meng's sum, toward 1 the larger of the two (extension) */
    TRAPEZE_GHOSTZONE_TILE_CYCLES,       /* relaunch: cycles per tile on the busiest SM beyond its
                                     instructions (block dispatch and retire; 0 = Meng) */
    TRAPEZE_GHOSTZONE_FENCE_MISC,        /* fence: fraction of MiscComp the persistent kernel still
                                     runs per tile (staging, commit; 0 = Meng, who drops it) */
    TRAPEZE_GHOSTZONE_FENCE_POLL,        /* fence: cycles per stage per participating block and per
                                     wave of tiles it waits through (polling contention at
                                     the L2; 0 = Meng) */
    TRAPEZE_GHOSTZONE_OVERLAP_FENCE,     /* omega of fence mode when fence_overlap = 1 */
    TRAPEZE_GHOSTZONE_HALO_REREAD,       /* rho: DRAM cost of the staged elements a neighbouring tile
                                     also loads (ghost zones re-read from L2), relative to a
                                     first read: LoadSten moves V + rho (T blk^D - V) elements
                                     (1 = Meng: every staged element from DRAM) */
    TRAPEZE_GHOSTZONE_FENCE_ITER,        /* psi: fence: the persistent kernel's loop iterations after
                                     a tile's first run psi more instructions than the relaunch
                                     profile's (tile coordinates recomputed per iteration):
                                     IterComp + psi (h - 1) IterComp/h (0 = Meng) */
    TRAPEZE_GHOSTZONE_PARTIAL_ROUND,     /* lambda: with partial_round = 1, a stage whose busiest SM
                                     has more tiles than resident blocks (k) computes at least
                                     k (1 + lambda) tiles' worth: the few blocks of its partial
                                     last round run latency-bound (0 = Meng) */
    TRAPEZE_GHOSTZONE_LOOP_REREAD,       /* rho_L: with loop_reread = 1, the DRAM cost of a loop's
                                     extra loads (5.10) that a neighbouring tile also makes,
                                     relative to a first read: IterMem moves V + rho_L (T
                                     prod(blk - w_i) - V) elements a loop (1 = Meng) */
    TRAPEZE_GHOSTZONE_FENCE_ISSUE,       /* eta: with fence_issue = 1, the persistent kernel issues
                                     each warp instruction (1 + eta) times as slowly as the
                                     relaunch kernel: fence MiscComp and IterComp cost CPI
                                     (1 + eta) per instruction (its warps wait on the loads the
                                     grid barrier aligns, on __syncthreads and the fence;
                                     0 = Meng) */
    TRAPEZE_GHOSTZONE_NPARAMS
} trapeze_ghostzone_param;

/* A workload's [profile] counts as measured on the calibrated GPU (the
 * profiling run of a calibration). They replace the workload spec's counts
 * in trapeze_ghostzone_create when the names match (case-insensitive). */
#define TRAPEZE_GHOSTZONE_MAX_PROFILES 16
typedef struct trapeze_ghostzone_profile {
    char workload[64];
    double input_elements, insts_per_sm_mc, insts_per_sm_ic, bank_conflict_rate;
    double issue_cycles;   /* SM-cycles per warp instruction of the issue probe (a tall h
                              less half of it, on four waves of tiles); 0 when not measured */
} trapeze_ghostzone_profile;

typedef struct trapeze_ghostzone_params {
    double value[TRAPEZE_GHOSTZONE_NPARAMS];
    double stderr_[TRAPEZE_GHOSTZONE_NPARAMS];  /* standard errors from a fit; 0 when unknown */
    char source[128];                    /* where the values came from */
    int whole_tiles;                     /* extension, "whole_tiles = 1" in [ghostzone]: at a
                                            whole h, T = prod ceil(DataLength_i / edge_i) and
                                            the busiest SM runs ceil(T / M) trapezoids, as a
                                            launch does (else 5.3's real-valued T) */
    int occupancy;                       /* "occupancy = 1": resident blocks per SM from the GPU
                                            and the workload's block, registers and shared
                                            memory (trapeze_ghostzone_occupancy), not blocks_per_sm */
    int waves;                           /* "waves = 1": at a whole h, passes (5.6) are whole
                                            waves, ceil(T / (BlksPerSM M)): the partial last
                                            wave costs a whole latency */
    int persistent_fence;                /* "persistent_fence = 1": the fence barrier's blocks
                                            are the persistent kernel's, min(T, BlksPerSM M),
                                            not T (5.18) */
    int fence_overlap;                   /* "fence_overlap = 1": fence mode has its own omega */
    int fence_staging;                   /* "fence_staging = 1": fence MiscComp is the profiled
                                            MiscComp less the kernel's setup (run once), plus
                                            fence_misc_fraction of the setup */
    int fence_iter;                      /* "fence_iter = 1": fence IterComp adds
                                            fence_iter_fraction (h - 1) iterations */
    int fence_iter_hidden;               /* "fence_iter_hidden = 1" (with fence_iter): not in a
                                            loop that loads from device memory every iteration
                                            (elem_per_op > 0), whose load waits the persistent
                                            kernel's extra issue fills */
    int fence_overlap_loads;             /* "fence_overlap_loads = 1" (with fence_overlap): the
                                            fence-mode omega only for a loop that loads from
                                            device memory every iteration (elem_per_op > 0);
                                            other fence stages overlap as relaunch's (omega) */
    int fence_issue;                     /* "fence_issue = 1": fence MiscComp and IterComp cost
                                            (1 + fence_issue_fraction) times their instructions'
                                            cycles (the fence kernel's issue rate) */
    int row_penalty;                     /* "row_penalty = 1": Meng's dimension penalty is paid
                                            once by any tile whose rows are not contiguous,
                                            alpha = sigma for D >= 2 (not sigma^(D-1)) */
    int row_lines;                       /* "row_lines = 1": in 2-D and 3-D, every memory term
                                            pays for the coalesced segments its tile rows
                                            touch (gz_row_lines), times alpha */
    int barrier_max;                     /* "barrier_max = 1": the fence barrier (5.18) is the
                                            larger of its latency and its P blocks' arrivals,
                                            serialized at one counter, smoothly:
                                            mu sqrt(B^2 + (P (F + poll P))^2), not their sum */
    int loop_reread;                     /* "loop_reread = 1": IterMem's elements a neighbour
                                            also loads cost loop_reread_fraction of a DRAM read */
    int loop_once;                       /* "loop_once = 1": a loop moves each of the grid's V
                                            elements once (5.10): the extra loads of a tile's
                                            neighbours hit the caches; supersedes loop_reread */
    int partial_round;                   /* "partial_round = 1": at a whole h, the busiest SM's
                                            compute is max(n, k (1 + partial_round_fraction))
                                            tiles' worth when its n tiles exceed its k resident
                                            blocks (n otherwise) */
    int round_latency;                   /* "round_latency = 1": at a whole h, when the busiest
                                            SM's n tiles exceed its k resident blocks, a loop that
                                            loads from device memory each iteration
                                            (elem_per_op > 0) computes at least k + elem_per_op
                                            turnaround_cycles / (IterComp per tile-iteration)
                                            tiles' worth: the partial round waits a load's
                                            latency every iteration (with partial_round, the
                                            larger floor) */
    int round_compute;                   /* "round_compute = 1" (with round_latency): that floor
                                            is k + 1 + elem_per_op turnaround_cycles / (IterComp
                                            per tile-iteration): the partial round's iteration
                                            computes one tile-iteration after its loads' latency */
    int round_staging;                   /* "round_staging = 1": at a whole h, a fence stage also
                                            waits turnaround_cycles for each of the busiest SM's
                                            rounds, ceil(n / k): the persistent blocks stage their
                                            next tiles together, after the barrier or their last
                                            tile's commit, with nothing left to issue meanwhile */
    int lone_round;                      /* "lone_round = 1" (with round_latency): at a whole h,
                                            when the busiest SM's n tiles are at most its k
                                            resident blocks, a loop that loads from device memory
                                            each iteration computes at least elem_per_op
                                            turnaround_cycles / (IterComp per tile-iteration)
                                            tiles' worth (one more with round_compute): a lone
                                            partial round waits its loads' latency too */
    int round_spin;                      /* "round_spin = 1" (with round_latency): in fence mode
                                            the partial round's loads wait turnaround_cycles
                                            (1 + S / (k M)) an iteration, S = k M - r the blocks
                                            spinning at the barrier while its r tiles run */
    int spin_staging;                    /* "spin_staging = 1": in fence mode the partial round's
                                            stencil_arrays loads and commit wait turnaround_cycles
                                            a S / (k M) more each, behind the spinners' polls */
    int round_tiles;                     /* "round_tiles = 1" (with round_latency): the partial
                                            round's floor is n + wait / I, not k + wait / I: its
                                            n - k tiles compute after their loads' latency, not
                                            under it (round_compute's one tile, all of them) */
    int round_setup;                     /* "round_setup = 1" (with fence_staging): in fence mode
                                            the fitted share of the setup (fence_misc_fraction) is
                                            paid once for each of the busiest SM's rounds,
                                            ceil(n / k), not once a tile */
    int mem_latency;                     /* "mem_latency = 1": a memory term (5.7) is the larger of
                                            its latency, passes x UncontendedLat (a round of
                                            resident blocks waits on its loads), and its
                                            bandwidth time, not their sum */
    double corr[TRAPEZE_GHOSTZONE_NPARAMS][TRAPEZE_GHOSTZONE_NPARAMS]; /* fitted parameters' correlations
                                            ([correlation] "a,b = r"; 0 when unknown); with
                                            stderr_ they give the fit's covariance */
    double issue_cycles_ref;             /* [ghostzone] issue_cycles_ref: the geometric mean of
                                            the calibrated workloads' issue_cycles. A workload's
                                            CPI is scaled by its issue_cycles over this (1 when
                                            either is 0): its instruction mix's issue rate
                                            against the calibration's */
    double turnaround_cycles;            /* [ghostzone] turnaround_cycles: a relaunched tile's
                                            turnaround (its stores acknowledged, the next block's
                                            first loads back: the chase micro-benchmark's unloaded
                                            latency). Relaunch MiscComp adds what the SM's other
                                            k - 1 resident blocks do not hide, max(0, turnaround -
                                            (k - 1) CPT); 0 (the default): none */
    int n_profiles;                      /* [profile.NAME] sections of a calibration file */
    trapeze_ghostzone_profile profile[TRAPEZE_GHOSTZONE_MAX_PROFILES];
    char gpu[64];                        /* [meta] gpu: the GPU it was made for ("" unknown) */
    char gpu_fingerprint[17];            /* [meta] gpu_fingerprint (trapeze_gpu_fingerprint) */
} trapeze_ghostzone_params;

/* TRAPEZE_EINVAL when p records a GPU whose fingerprint differs from gpu's
 * (a calibration used with another GPU), naming both; OK when they match or
 * p records none (a hand-written file). */
trapeze_status trapeze_ghostzone_params_check_gpu(const trapeze_ghostzone_params *p, const trapeze_gpu *gpu,
                                                  trapeze_error *err);
const char *trapeze_ghostzone_param_name(trapeze_ghostzone_param p);
/* The physically meaningful range of a parameter (fits stay inside it). */
void trapeze_ghostzone_param_range(trapeze_ghostzone_param p, double *lo, double *hi);
/* Meng's GTX 280 values (Table 5.1, sections 5.4.2-5.4.5). */
void trapeze_ghostzone_params_default(trapeze_ghostzone_params *p);
/* A calibration file: [ghostzone] name = value for each parameter; absent
 * names keep their default; unknown names are errors. [profile.NAME]
 * sections (input_elements, insts_per_sm_mc, insts_per_sm_ic,
 * bank_conflict_rate) carry the measured counts of workload NAME. */
trapeze_status trapeze_ghostzone_params_load(const char *path, trapeze_ghostzone_params *p,
                                             trapeze_error *err);
trapeze_status trapeze_ghostzone_params_save(const char *path, const trapeze_ghostzone_params *p,
                                             trapeze_error *err);



/* The six per-loop components of Eq. 5.24 (5.25-5.30), in CSV order. */
typedef enum {
    TRAPEZE_GHOSTZONE_GLBSYNC, TRAPEZE_GHOSTZONE_LOADSTEN, TRAPEZE_GHOSTZONE_COMMIT,
    TRAPEZE_GHOSTZONE_ITERMEM, TRAPEZE_GHOSTZONE_MISCCOMP, TRAPEZE_GHOSTZONE_ITERCOMP,
    TRAPEZE_GHOSTZONE_NCOMPONENTS
} trapeze_ghostzone_component;
const char *trapeze_ghostzone_component_name(trapeze_ghostzone_component c);

typedef struct trapeze_ghostzone_eval {
    double trapezoids;                         /* T (5.3), real-valued */
    double passes;                             /* 5.6 */
    double stage[TRAPEZE_GHOSTZONE_NCOMPONENTS];      /* per stage: GlbSync, LoadSten, Commit,
                                                  IterMem, MiscComp, IterComp (per trapezoid
                                                  for the last two, as in 5.15/5.16) */
    double per_loop[TRAPEZE_GHOSTZONE_NCOMPONENTS];   /* 5.25-5.30 */
    double cps;                                /* 5.2 */
    double cpl;                                /* 5.1 = sum of per_loop */
    double dcpl_dh;                            /* analytic gradient */
    double dcpl_dblk;
    double dcpl_dparam[TRAPEZE_GHOSTZONE_NPARAMS];
} trapeze_ghostzone_eval;

typedef struct trapeze_ghostzone_model trapeze_ghostzone_model;

trapeze_status trapeze_ghostzone_create(const trapeze_gpu *gpu, const trapeze_workload *w,
                                        const trapeze_ghostzone_params *p, trapeze_ghostzone_model **out,
                                        trapeze_error *err);
void trapeze_ghostzone_destroy(trapeze_ghostzone_model *m);
/* A [profile.NAME] of p matching the workload's name replaces its counts
 * once, at create; trapeze_ghostzone_set_params changes the parameter values (and
 * whole_tiles) only, never the workload. The generic model interface
 * (model/model.h) passes parameters to each evaluation instead. */
/* tau = (1 - beta)(1 + BankConflictRate) in 5.11; off ("paper mode") by default. */
void trapeze_ghostzone_set_tau(trapeze_ghostzone_model *m, int enabled);
void trapeze_ghostzone_set_params(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p);
const trapeze_workload *trapeze_ghostzone_workload(const trapeze_ghostzone_model *m);
/* The SM count the workload's per-SM instruction counts were measured on: the
 * model's GPU's when a calibration's [profile.NAME] supplied them, 30 (Meng's
 * GTX 280) when they are the spec's own [profile]; 5.14 uses it, not the GPU's
 * M, so a spec's counts mean the same instructions per element on any GPU. */
double trapeze_ghostzone_profile_sms(const trapeze_ghostzone_model *m);
const trapeze_gpu *trapeze_ghostzone_gpu(const trapeze_ghostzone_model *m);

/* CPL and its parts at (h, blk_len); both may be real-valued. TRAPEZE_ERANGE
 * if (h, blk_len) violates 5.20 or h < 1.
 *
 * The gradient at a whole height. With whole_tiles off (Meng's paper mode)
 * CPL is one smooth function of h and blk_len, and dcpl_dh / dcpl_dblk are
 * its exact derivatives everywhere, whole heights included: they agree with
 * central finite differences taken across the whole height. With whole_tiles
 * on, the value at a whole (h, blk_len) is the step model's (tiles counted
 * with ceilings, as a launch has them) and between whole values the smooth
 * model's; the gradient at a whole height is then the step model's slope
 * within its step (the tile count held at its launched value), not the
 * slope of the smooth model between heights. dcpl_dparam is exact in both
 * cases. */
trapeze_status trapeze_ghostzone_evaluate(const trapeze_ghostzone_model *m, trapeze_sync sync, double h,
                                          double blk_len, trapeze_ghostzone_eval *out, trapeze_error *err);
/* Largest integer h with blk_len - HaloWidth_i * h > 0 for every i (5.20). */
int trapeze_ghostzone_max_height(const trapeze_ghostzone_model *m, int blk_len);
/* Resident blocks per SM of the workload's block (blk_len^D threads, its
 * registers, stencil_arrays tiles of shared memory), by the same rule as the
 * simulator's occupancy: CTA slots, threads, warps, registers, shared memory. */
int trapeze_ghostzone_occupancy(const trapeze_gpu *gpu, const trapeze_workload *w, int blk_len);
/* delta of Eq. 5.23: per-block net cost of fences over relaunch. */
double trapeze_ghostzone_delta(const trapeze_ghostzone_model *m, double blk_len);

typedef struct trapeze_ghostzone_optimum {
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
} trapeze_ghostzone_optimum;

/* Minimizes CPL over h with NLopt (gradient-based, constraint 5.20). With
 * optimize_block, blk_len is a second decision variable bounded by the GPU's
 * threads per block and shared memory per block. */
trapeze_status trapeze_ghostzone_optimize(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                          int optimize_block, trapeze_ghostzone_optimum *out,
                                          trapeze_error *err);

/* The optimum's fields at a given height h (every height field is h,
 * cpl_floor = cpl_argmin = CPL(h), cpl_h1 = CPL(1)) at the workload's
 * block edge: what `trapeze ghostzone --height` reports. */
trapeze_status trapeze_ghostzone_at_height(const trapeze_ghostzone_model *m, trapeze_sync sync, int h,
                                           trapeze_ghostzone_optimum *out, trapeze_error *err);

/* The decision: each sync mode of modes optimized (trapeze_ghostzone_optimize),
 * or, with height > 0, taken at that height (trapeze_ghostzone_at_height), and
 * the faster: the lower CPL at its best integer height (cpl_argmin), the
 * first of modes on a tie. */
typedef struct trapeze_ghostzone_decision {
    int n_modes;
    trapeze_ghostzone_optimum mode[2];
    int chosen;                /* index into mode */
} trapeze_ghostzone_decision;

trapeze_status trapeze_ghostzone_decide(const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                        int n_modes, int optimize_block, int height,
                                        trapeze_ghostzone_decision *out, trapeze_error *err);

/* One integer decision (sync mode, h) and what is known of it. */
typedef struct trapeze_ghostzone_choice {
    trapeze_sync sync;
    int h;
    double cpl_model;
    double diff_sd;            /* standard deviation of cpl_model - the best's cpl_model,
                                  from the fit's covariance (0 for the best, and when the
                                  calibration has no standard errors) */
    int index;                 /* position before ranking (internal) */
    double cpl_sim;            /* trapeze_ghostzone_verify: simulated CPL (0: not simulated) */
    double warp_instructions;  /* trapeze_ghostzone_verify: what simulating it cost */
} trapeze_ghostzone_choice;

/* Every valid (mode, h) at block edge blk_len, best first by the model's CPL
 * (*out is malloc'ed: free() it). p: the model's parameters, whose stderr_
 * and corr give each candidate's uncertainty relative to the best. */
trapeze_status trapeze_ghostzone_rank(const trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p, int blk_len,
                                      trapeze_ghostzone_choice **out, int *n, trapeze_error *err);

/* The candidates `--verify k` simulates: the model's k best of a ranking c[0..n-1]
 * and, when those are all one mode (k >= 2), the other mode's best as well (the
 * sync mode is the decision the model misses most often). Moves that one to c[k],
 * keeping the rest in order, and returns how many to simulate: k or k + 1. */
int trapeze_ghostzone_verify_order(trapeze_ghostzone_choice *c, int n, int k);

/* After those are simulated (cpl_sim > 0), the next candidate of c[0..n-1] to
 * simulate, or -1 when done: a search along h in each sync mode, from that
 * mode's fastest simulated run (the overall fastest's mode first), that reaches
 * an optimum the model placed far off (PathFinder: the model's three best are
 * neighbours of its h = 19, the simulator's best is 44) or a mode whose best
 * height the model missed (the V100's Multi1D at 100x: fence 7 run, fence 5
 * best). Per direction from the mode's fastest: with nothing simulated that
 * way, a step in h of half its h while the simulation agrees with the model's
 * ranking in that mode (its fastest is the one the model ranks first), else twice the distance
 * back to the nearest simulated one (far optima in a few runs); with
 * one simulated that way, the midpoint, unless it is the neighbour or within
 * TRAPEZE_GHOSTZONE_VERIFY_FLAT of the best (the gain between is smaller than that). */
#define TRAPEZE_GHOSTZONE_VERIFY_FLAT 0.01
/* The other mode is searched (after the fastest run's) when its fastest run is
 * within this of the best: on the shipped size sweeps, 0.10 costs 0.354 of the
 * sweeps' work where searching only the best mode cost 0.301 and searching
 * both always 0.418; every pick ratio is 1.000 from a margin of 0.03 up. */
#define TRAPEZE_GHOSTZONE_VERIFY_OTHER 0.10
#define TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH 16 /* the search's runs, at most, beyond the k: 8 a mode */
int trapeze_ghostzone_verify_next(const trapeze_ghostzone_choice *c, int n);

/* Writes one row per valid h (1..max height) of this model and sync mode:
 * workload,gpu,sync,h,trapezoids,cpl_cycles,glbsync_cycles,loadsten_cycles,
 * commit_cycles,itermem_cycles,misccomp_cycles,itercomp_cycles,speedup_vs_h1 */
extern const char *const trapeze_ghostzone_csv_columns[];
extern const int trapeze_ghostzone_csv_ncolumns;
trapeze_status trapeze_ghostzone_write_rows(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                            int blk_len, trapeze_csv_out *csv, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
