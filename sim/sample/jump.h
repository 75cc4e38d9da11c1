/*
 * jump.h - a jump sample of a run (jump_run.c and jump_window.c run it): the
 * first window simulated from the start, then short windows whose
 * simulation starts at later points of the run (a later block of the grid,
 * a later trip of its outer loop, a later launch) without simulating up to
 * them, and one window at the end of some launches. jump.c owns the
 * geometry (where a window starts), how the long periods the windows
 * cannot time are put back into a histogram, and the warp tails a launch
 * end stands for.
 */
#ifndef TRAPEZE_SIM_SAMPLE_JUMP_H
#define TRAPEZE_SIM_SAMPLE_JUMP_H

#include <stdint.h>

#include "sim/events.h"
#include "trapeze.h"

#define SIM_JUMP_WINDOWS 8     /* later windows inside the run */
#define SIM_JUMP_WARM TRAPEZE_SLEEP_JUMP_WARM     /* simulated, not recorded, before each */
#define SIM_JUMP_RECORD TRAPEZE_SLEEP_JUMP_RECORD /* recorded in each (<= SIM_JUMP_LONG) */
#define SIM_JUMP_LONG 2048     /* a period longer than this is timed by occupancy */
#define SIM_JUMP_END 4000      /* cycles an end window aims to record before its launch ends */
#define SIM_JUMP_ENDS 4        /* launch ends sampled at most */
/* A capped jump sample (a cap c > 0, a share of the run): the whole plan
 * (8 windows, 4 ends) where it costs at most c of the run's cycles at the
 * first window's rate; else fewer windows and ends, planned within
 * SIM_JUMP_BUDGET c (below the cap: a window's rate may exceed the first
 * window's); the first window ends early, at SIM_JUMP_FIRST c of the run's
 * warp instructions, where the run is too short for it to leave room for
 * later ones. Uncapped (c = 0): the whole plan where it costs under
 * SIM_JUMP_DEAR of the run, else the spread sample. */
#define SIM_JUMP_DEAR 0.5
#define SIM_JUMP_BUDGET TRAPEZE_SLEEP_CAP_PLAN
#define SIM_JUMP_FIRST 0.4
/* On a run too short for one full-length window within the cap, the
 * windows' warm-up and recording are halved, at most this many times
 * (4000 + 2000 cycles down to 500 + 250) */
#define SIM_JUMP_HALVINGS 3

/* A capped plan: the most windows, later windows (1..max_windows) before
 * launch ends (0..max_ends), whose cycles cost(ctx, windows, ends, scale)
 * fit `budget`, the windows at full length (scale 1) or, where none fits,
 * shrunk by halves (1/2, 1/4, ... SIM_JUMP_HALVINGS times). Returns the
 * scale, with *windows and *ends; 0 where not one window fits. */
double sim_jump_fit(double (*cost)(const void *ctx, int windows, int ends, double scale),
                    const void *ctx, int max_windows, int max_ends, double budget,
                    int *windows, int *ends);

/* One launch of the run, as the sample places windows in it. */
typedef struct sim_jump_launch {
    long blocks;        /* of the grid */
    long concurrent;    /* blocks resident at once (SMs x occupancy, at most blocks) */
    long trips;         /* trips of its outer counted loop (1: none) */
    double insts;       /* warp instructions of the launch (functional count) */
    double warp_regs;   /* warp registers its warps allocate, each ending dead once */
} sim_jump_launch;

/* Where to start the launch so that the simulation stands for the share g
 * (0 <= g < 1) of its work: the launch's time taken as waves of
 * `concurrent` blocks, each wave `trips` trips long; the wave g falls in
 * starts at its first block, every block at the trip g falls on. Rounds
 * down (the window starts at or before g). */
void sim_jump_start(const sim_jump_launch *l, double g, long *first_block,
                        long *first_trip);

/* The later windows' places in the run's work, in (from, 1): window k of
 * n at from + (1 - from)(k + u_k)/n, u_k = frac((k + 1) phi). */
double sim_jump_place(double from, int k, int n);

/* Adds `count` periods of kind `next` whose lengths sum to `mass` cycles,
 * each longer than long_min (SIM_JUMP_LONG at the windows' scale: what the
 * windows could not time), to h: split between the two
 * buckets whose lengths bracket the mean, so that both the count and the
 * cycles are kept (the models are linear in a period's length this far past
 * every threshold). A mean below the first bucket past long_min
 * is raised to it. Returns the cycles added. */
double sim_jump_add_long(trapeze_idle_hist *h, int next, double count, double mass,
                         double long_min);

/* Warp tails: under GTO the warps of a block end one after another (V100
 * GESUMMV 512: in pairs at 51%, 64%, 87% and 100% of the run) and a warp's
 * registers stay allocated, dead, until its block ends. The later windows
 * restart every warp of a block together and see none of it; a launch end
 * restarts them a few trips before their end, where their ends spread as
 * in the whole block, the oldest first. Where a warp's pace depends only
 * on which warps still run (a fluid model), the whole block's tails are
 * the end window's stretched by the block's work over the work the window
 * simulated of it.
 *
 * For launch l's end window started at first_block, which issued
 * window_insts warp instructions: *blocks = the launch's blocks over the
 * window's, *stretch = a block's warp instructions in the launch over one
 * in the window (at least 1); both 0 where the window issued nothing. */
void sim_jump_tail_scale(const sim_jump_launch *l, long first_block, double window_insts,
                             double *blocks, double *stretch);

/* Takes the warp tails out of an end window's register histogram: `now`
 * and `before` the histogram at the window's end and at its recording's
 * start, `marked` and `marked_before` the same for the periods that began
 * before the recording did (sim_events_set_mark). The dead periods gained
 * that began in the recording are the tails: removed from `now`, their
 * number to *n and their cycles to *cycles. The others (a register named
 * by no instruction, or last used in the warm-up's replay of a warp's
 * prologue, dead from its block's start: the open-period rule counts
 * those) stay. */
void sim_jump_tail_cut(sim_idle_hist *now, const sim_idle_hist *before,
                           const sim_idle_hist *marked, const sim_idle_hist *marked_before,
                           double *n, double *cycles);

/* Adds n dead periods of `cycles` in all to h: around their mean length
 * (sim_jump_add_long) where it is past long_min, else in the
 * mean's bucket. */
void sim_jump_add_dead(trapeze_idle_hist *h, double n, double cycles, double long_min);

/* Warp exits a capped sample did not see. Every warp register a launch
 * allocates ends dead once, at its warp's exit: n_run periods in the run.
 * Later windows restart every block together on an empty GPU, and a window
 * shorter than a block's life sees no exit (GTX 480 filter 512², windows of
 * 1000 + 500 cycles: its registers' dead cycles 17% of their idle ones where
 * the run's are 49%). Where the sample holds fewer (n_have, mass_have
 * cycles), the run's dead cycles are taken as n_run times the mean of the
 * first window's dead periods (first_n, first_cycles: its first wave's
 * exits): returns how many periods to add, their cycles in *cycles (0 and 0
 * where none is missing, the first window saw no exit, or the sample holds
 * that much already). */
double sim_jump_dead_missing(double n_run, double n_have, double mass_have, double first_n,
                             double first_cycles, double *cycles);

/* Warp exits a later window saw. Every warp register of the run ends dead
 * once, at its warp's exit: n_run periods. A later window starts its
 * blocks together on an empty GPU, so its first wave's warps exit together,
 * inside the recording where a block lives about as long as the warm-up and
 * recording; weighted by work those exits stand for far more warps than
 * the run has (GTX 480 copy: 9,136 exits in 8 windows of 54,222 warp
 * instructions, 2.2 times the run's rate per instruction; weighted, 105,470
 * of the sample's 133,506 dead periods where the run has 65,536). So they
 * stand for the exits the rest of the sample does not hold (others: the
 * first window's and launch ends' exits, the warp tails, the long dead
 * periods, as weighted). seen: the later windows' short dead periods as
 * weighted by work. Returns the share of them to keep, each with its
 * length: 1 where others + seen fit n_run, else (n_run - others) / seen,
 * 0 where others alone reach n_run. */
double sim_jump_exit_keep(double n_run, double others, double seen);

/* The share of the warm later windows' dead register periods to keep
 * (jump_warm.c): where every period counts where it ends, each block's
 * registers end dead together at its release, and a wave's releases come
 * in bursts about a block's life apart, so a recording of one life holds
 * the share of a burst its phase catches (GTX 480 copy: 2,112 in two
 * recordings, 51,539 weighted by work, where the run's 65,536 less the
 * first window's 5,760 leave 59,776). Every warp register ends dead once,
 * so the count is held to the run's either way: (n_run - others) / seen,
 * 0 where others alone reach n_run, 1 where none was seen. */
double sim_jump_exit_hold(double n_run, double others, double seen);

/* Cold refills a capped sample's later windows saw. A later window restarts
 * its blocks on an empty GPU, so every line it reads is fetched into the
 * L2 again, each fetch ending a frame's period with a write (the fill),
 * where the run fetched it once: V100 kmeans's footprint fits its L2 and
 * its whole run holds 110 thousand L2 line periods, all but a few in its
 * first 1654 cycles, which the capped sample's later windows, weighted,
 * turned into 429 thousand (each paying a 35-cycle transition). Where
 * the footprint (lines) fits the L2's frames, the run ends at most that
 * many periods with a fill: those the first window saw (first_fills: its
 * write-ended periods that are fills) and the rest. Returns the share of
 * the later windows' fill-ended periods (later_fills, weighted as they
 * stand in the sample) to keep: 1 where the
 * footprint does not fit (capacity misses refill frames in the run too) or
 * the later windows hold no more than the rest, else the rest over
 * later_fills (0 where the first window saw the whole footprint). */
double sim_jump_refill_keep(double footprint, double frames, double first_fills,
                            double later_fills);

/* The share of a cache line frame's time that is not dead where a
 * footprint of `footprint` lines passes through `frames` frames: n =
 * footprint / frames turnovers; with n >= 1 every frame is refilled
 * throughout and only the last turnover's half, 1 / (2n) of the run, is
 * dead: 1 - 1 / (2n); with n < 1 a share n of the frames is ever filled,
 * on average halfway: n / 2 (sim_sleep_filled_share, cut.c). A capped
 * sample without a launch end holds its L2 frames' long periods still open
 * at the recordings' ends as live in this share: that no later window used
 * a frame says nothing where no window sees the launch end (GTX 480 copy,
 * 262144 lines through 6144 frames, 0.988 live: 2486 of the 6429 such
 * periods in its later windows were taken for dead, 18% of the L2's idle
 * cycles where the run has 1.3%, its saving 3.5 points high). 0 where
 * either is 0. */
double sim_jump_refilled(double footprint, double frames);

/* The lines that pass through the L1s in a run a capped sample cuts short,
 * for the L1 frames' filled share (sim_sleep_filled_share): the frames the
 * first window touched (touched) grown with the rest of the run's work
 * (work: the run's warp instructions over the first window's) in the share
 * of the first window's L1 reads that missed (a hit brings no new line).
 * Why: the L1s are one per SM, so the job's footprint (the L2's measure)
 * undercounts the lines they see where SMs read the same lines, and a
 * frame no later window used was taken for dead: V100 matmul_tiled 256
 * (one wave, 16 trips, tiles streamed through the L1s): 6144 lines over
 * 81920 frames (0.037 filled), the L1D's idle cycles 93% dead in the
 * capped sample where the run's are 68% (a frame filled trip by trip is
 * idle, not dead, until then); grown by the misses, 65,025 lines (0.397).
 * Where the reads hit (V100 kmeans: 84% of them; its L1D 94% dead in the
 * run) the touched frames hold the data reused, and grow little. 0 where
 * touched is 0. */
double sim_jump_l1_lines(double touched, double work, double reads, double hits);

/* The strata's weights (jump_run.c): the later windows' (w[1]) stand for
 * the run's work after the first window's less the launch ends' (w[2]:
 * `ends` launch ends over the `sampled` ones) and the partial waves' (w[3]:
 * tail_work over what its window recorded); w[0] = 1. A partial wave
 * shorter than the warm-up ends before its window records (GTX 480 copy
 * --cap 0.25: 46 blocks of 4 trips, from the middle one): its work then
 * stands with the body's, not with nothing. insts: the warp instructions
 * each stratum recorded. */
void sim_jump_weights(double total, double first, int ends, int sampled,
                      const double insts[4], double tail_work, double w[4]);

/* The share of write-ended L2 line periods that end in a fill: fills over
 * fills and writes (stores, atomics) counted over the same stretch; 1
 * where neither was counted. */
double sim_jump_fill_share(double fills, double writes);

/* Warm later windows (jump_warm.c): for a capped sample of a launch of at
 * least SIM_JUMP_WARM_WAVES waves, the first window's GPU continued, its
 * dispatcher moved to each later window's block (sim_gpu_launch_skip),
 * then a warm-up and a recording of one block's life each, so that the
 * recording is of the run's phase (a fresh GPU replays the launch's start:
 * GTX 480 strided stride=32's registers end dead in no fresh window where
 * the run's end dead in bursts a block's life apart). */
#define SIM_JUMP_WARM_WAVES 8

/* A block's life from a placement log (sm[i], placed[i]: the i-th block
 * placed, in order): each SM holds per_sm blocks, so its (k + per_sm)-th
 * placement takes the slot the k-th block left, which ended then (blocks
 * of an SM taken to end in the order they were placed). Returns the mean
 * of end - placement over the blocks so ended; 0 where none ended. */
double sim_jump_block_life(const int *sm, const uint64_t *placed, long n, int n_sm, int per_sm);

/* How many warm later windows, each `life` cycles of warm-up and `life`
 * recorded, fit `budget` cycles beside the first window's t: at most
 * max; 0 where not one fits or life is 0. */
int sim_jump_warm_windows(double budget, double t, double life, int max);

#endif
