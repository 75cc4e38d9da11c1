/*
 * runs.h - what the sleep samples' runs share inside sim/sample/ (the
 * samples themselves are sim_sleep_window and sim_sleep_whole, sim/sim.h):
 * the unit kinds sampled, a job's kernels, and each kind of run:
 * window.c builds the job and picks the run, cut.c cuts the run at the
 * window, spread_run.c runs the spread sample, jump_run.c decides and plans
 * a jump sample and jump_window.c simulates each of its windows. Internal
 * to sim/sample/: no other folder includes it.
 */
#ifndef TRAPEZE_SIM_SAMPLE_RUNS_H
#define TRAPEZE_SIM_SAMPLE_RUNS_H

#include "sim/core/gpu_sim.h"
#include "sim/sample/jump.h"
#include "sim/sample/spread.h"
#include "sim/stencil/stencil_run.h"
#include "trapeze.h"

#define SIM_SLEEP_MAX_LAUNCHES 4096

/* A unit kind sampled: its simulator kind, structure and granularity names. */
typedef struct {
    sim_unit_kind kind;
    const char *structure, *granularity;
} sim_sleep_sampled;

extern const sim_sleep_sampled sim_sleep_units[TRAPEZE_SLEEP_NUNITS];

/* The job's kernels, built for g: a built-in's launches or a stencil's. */
typedef struct {
    sim_kernel **ks;
    sim_stencil *stencil;
    int n;
    int persistent;         /* a fence-mode stencil: its blocks stay for the whole run */
} sim_sleep_kernels;

trapeze_status sim_sleep_build(const trapeze_sleep_job *j, sim_gpu *g, sim_sleep_kernels *out,
                               trapeze_error *err);
void sim_sleep_release(sim_sleep_kernels *k);

/* What a cut adds to a unit's histogram beyond its open periods. */
typedef struct {
    double filled;          /* share of the oldest open periods that end in a fill */
    double dead_periods;    /* dead periods of length dead_length (the last wave) */
    double dead_length;
} sim_sleep_cut_extra;

/* cut.c: the job's footprint in cache lines, the share of untouched frames
 * filled before the run ends (and the frames touched it counts), the last
 * wave's dead share of the L1s, and
 * the run cut at `window` cycles (0: to the end). */
double sim_sleep_footprint_lines(const sim_sleep_kernels *k);
double sim_sleep_filled_share(sim_events *ev, sim_unit_kind kind, int caches,
                              uint64_t launch_start, double footprint, int usable);
/* The frames of `caches` caches of a kind since launch_start (a frame is
 * touched when its idle period began after it): the first `usable` of each
 * cache can take a line (0, or more than a cache has: all of them); the
 * frames touched, the untouched ones, those of them among the usable of a
 * cache with a touched frame, and the caches with one. */
typedef struct {
    int usable;
    double touched, untouched, untouched_in_use, in_use;
} sim_sleep_frames;
void sim_sleep_frames_count(sim_events *ev, sim_unit_kind kind, int caches,
                            uint64_t launch_start, int usable, sim_sleep_frames *f);
/* The share of the untouched frames that `lines` fill before the run ends
 * (sim_sleep_filled_share's, from frames counted once). */
double sim_sleep_frames_filled(const sim_sleep_frames *f, double lines);
/* The frames of a cache the launch can fill: one past the highest touched
 * in any of the caches (a frame is set x ways + way, so the ways an L1
 * carve-out leaves to shared memory are the last frames of each cache:
 * V100 HotSpot 256², 256 of its L1s' 1024). */
int sim_sleep_frames_usable(sim_events *ev, sim_unit_kind kind, int caches,
                            uint64_t launch_start);
double sim_sleep_last_wave_dead(const sim_kernel *k, int n_sm);
trapeze_status sim_sleep_run_cut(sim_gpu *g, const sim_sleep_kernels *k, double window,
                                 trapeze_sleep_run *out, double (*ages)[TRAPEZE_IDLE_NBUCKETS],
                                 sim_sleep_cut_extra *extra,
                                 void (*each)(void *, sim_gpu *, const sim_kernel_stats *),
                                 void *ctx,
                                 trapeze_error *err);

/* What a jump sample gathers per unit kind, by stratum: 0 the first window
 * (every period that ended in it, exact), 1 the later windows (weighted to
 * stand for the rest of the run), 2 the launch ends (weighted for the ends
 * not sampled), 3 the launches' last partial waves (a capped plan without
 * launch ends: one window in the last launch's, weighted for their share
 * of the work; jump_run.c). In the later windows and at the ends, a
 * period of at most SIM_JUMP_LONG cycles that ends in the recorded stretch
 * is exact (it began after the window's warm-up started) and counts in its
 * bucket; a longer one counts where it ends (count[]) but its length is
 * unknown (it may have begun before the window's simulation did), so the
 * long periods' cycles come from the idle unit-cycles inside the recorded
 * stretches (idle[]) less those of the exact periods (exact[]). */
#define SIM_JUMP_STRATA 4

typedef struct sim_jump_acc {
    trapeze_idle_hist hist[SIM_JUMP_STRATA][TRAPEZE_SLEEP_NUNITS];
    double idle[SIM_JUMP_STRATA][TRAPEZE_SLEEP_NUNITS];
    double exact[SIM_JUMP_STRATA][TRAPEZE_SLEEP_NUNITS];
    /* idle cycles in the recorded stretches of periods already long and
     * still open at its end (their kind not known there) */
    double pending[SIM_JUMP_STRATA][TRAPEZE_SLEEP_NUNITS][2];   /* [0] live, [1] dead */
    double pending_n[SIM_JUMP_STRATA][TRAPEZE_SLEEP_NUNITS][2]; /* how many units */
    /* per unit: 1 if no launch end sampled used it while recording (its
     * long periods open elsewhere end dead), else 0; NULL: no end sampled */
    unsigned char *unused[TRAPEZE_SLEEP_NUNITS];
    /* the first window's open periods at its end */
    uint64_t *first_open[TRAPEZE_SLEEP_NUNITS];
    uint64_t first_start, first_end;
    long n_units[TRAPEZE_SLEEP_NUNITS];
    /* cache line frames no window used: the share of their time that is not
     * dead, by the footprint's turnovers (filled_share, at the first
     * window's end); 0 for the other kinds */
    double filled[TRAPEZE_SLEEP_NUNITS];
    /* the job's footprint in cache lines (sim_sleep_footprint_lines): a
     * capped sample's later windows' refills of the L2 are held to it
     * (sim_jump_refill_keep) */
    double footprint;
    /* L2 fills and L2 writes (stores, atomics) while recording, per
     * stratum; the first window's (stratum 0) from its launch's start: a
     * write-ended L2 line period is one or the other, and only fills are
     * refills */
    double l2_fills[SIM_JUMP_STRATA], l2_writes[SIM_JUMP_STRATA];
    /* the grid's last wave: L1 frame-cycles dead per cycle of the run, as
     * a share of the run's work (last_wave_dead); the windows start every
     * SM together and see none of it */
    double last_wave_frames;
    /* warp tails (a warp's registers dead from its exit to its block's
     * end), from the launch ends scaled to whole blocks (sim_jump_tail_scale):
     * periods and their register-cycles, per launch end */
    double tail_n, tail_mass;
    double count[SIM_JUMP_STRATA][TRAPEZE_SLEEP_NUNITS][TRAPEZE_NEXT_N];
    double insts[SIM_JUMP_STRATA];        /* warp instructions issued in the recorded stretches */
    double cycles[SIM_JUMP_STRATA];       /* cycles recorded */
    int windows[SIM_JUMP_STRATA];
} sim_jump_acc;

/* The first window's block placements (sim_gpu_options.on_place), for a
 * warm plan's block life (sim_jump_block_life); off once it is decided. */
typedef struct sim_jump_places {
    long n, size;
    int *sm;
    uint64_t *cycle;
    long next;               /* one past the highest block placed */
    int off;
} sim_jump_places;
void sim_jump_on_place(void *ctx, int sm, long block, uint64_t cycle);

/* The jump decision, made once the first window is over. */
typedef struct sim_jump_ctx {
    const trapeze_config *cfg;
    const sim_gpu_options *opt;
    const trapeze_sleep_job *job;
    int decided, jumped;
    int cut_launch;          /* the launch running when the first window ended */
    double first_insts;      /* warp instructions issued in the first window */
    double first_cycles;
    sim_jump_launch launch[SIM_SLEEP_MAX_LAUNCHES];
    int n;
    double total_insts;
    double cap;              /* > 0: the sample's cap, a share of the run's work */
    int windows, ends;       /* the plan: later windows, launch ends at most */
    /* the windows' length against SIM_JUMP_WARM, SIM_JUMP_RECORD and
     * SIM_JUMP_END: 1, or under a cap on a short run shrunk by halves
     * (sim_sleep_jump_here) */
    double scale;
    /* a capped plan without launch ends on a run whose launches end in a
     * partial wave: one of its windows in the last launch's partial wave
     * (stratum 3), which stands for tail_work warp instructions */
    int tail;
    double tail_work;
    /* capped, and no plan fits: the cheapest plan's cycles over the run's */
    double smallest;
    /* warm later windows (jump_warm.c): 1 where the job asks for them and
     * its one launch has SIM_JUMP_WARM_WAVES waves or more (the first
     * window then runs to SIM_JUMP_FIRST of the cap's work), the placements
     * logged; warm_len: the block's life, each window's warm-up and
     * recording (0: the plan is not warm); their cycles and warp
     * instructions simulated */
    int warm;
    sim_jump_places *places;
    int n_sm, per_sm;
    double warm_len, warm_simulated, warm_insts;
    sim_jump_acc *acc;
} sim_jump_ctx;

/* jump_run.c: the jump decision at the first window's end, and the jump
 * sample's later windows and launch ends turned into histograms. */
void sim_sleep_jump_count(sim_jump_ctx *jc, sim_gpu *g, const sim_sleep_kernels *k);
int sim_sleep_jump_here(sim_jump_ctx *jc, sim_gpu *g, const sim_sleep_kernels *k, int i,
                        sim_launch *l, double insts_before, double cycles_before);
trapeze_status sim_sleep_run_jumps(sim_jump_ctx *jc,
                                   trapeze_idle_hist (*first)[TRAPEZE_SLEEP_NUNITS],
                                   trapeze_sleep_run *out, trapeze_error *err);
/* jump_warm.c: the warm later windows on the first window's launch l,
 * still running (stratum 1, every period ended in a recording counted at
 * its length: the GPU is the run's, continued). */
trapeze_status sim_sleep_jump_warm(sim_jump_ctx *jc, sim_launch *l, trapeze_error *err);
/* 1 where a warm plan may be taken: the job's one launch (no stencil
 * holding its blocks) of SIM_JUMP_WARM_WAVES waves or more (one wave has
 * no block to move the dispatcher to). */
int sim_sleep_jump_warm_fits(const sim_jump_ctx *jc, const sim_sleep_kernels *k);
/* jump_window.c: the periods a histogram gained between two readings
 * (those of at most max_len cycles, 0: every length, to h, their cycles
 * to *exact; the longer ones' number to count[]); returns the cycles of
 * every period gained. */
double sim_jump_gained(trapeze_idle_hist *h, const sim_idle_hist *now, const sim_idle_hist *before,
                       uint64_t max_len, double *exact, double count[TRAPEZE_NEXT_N]);
/* jump_window.c: one window of stratum 1 (a later window), 2 (a launch
 * end) or 3 (a later window in a partial wave). */
trapeze_status sim_sleep_jump_window(sim_jump_ctx *jc, int i, long first_block, long first_trip,
                                     int stratum, trapeze_sleep_run *out, trapeze_error *err);

/* spread_run.c: the spread sample (and the first window of a jump sample). */
trapeze_status sim_sleep_run_spread(sim_gpu *g, const sim_sleep_kernels *k, const sim_spread *p,
                                    trapeze_sleep_run *out,
                                    trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS],
                                    sim_jump_ctx *jc, trapeze_error *err);

#endif
