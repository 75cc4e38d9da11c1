/*
 * Tests of the jump sample's pieces (sim/sample/jump.c): where a window
 * starts in a launch (worked out by hand: waves of concurrent blocks, trips
 * of the outer loop), the later windows' places (inside (from, 1), in
 * order, one per n-th), the long periods put back into a histogram
 * with their number and cycles kept, past SIM_JUMP_LONG at the windows'
 * scale, the warp exits a capped sample did not see, the later windows'
 * exits held to the run's, and the warp
 * tails of a launch end: told from the other dead periods by the marked
 * histogram and stretched to whole blocks (worked out by hand), and how
 * many windows of what length a capped plan fits (a short run's windows
 * halved until one fits), the live share of the L2 frames no later
 * window used where no window sees the launch end, the lines a cut
 * capped plan takes through the L1s, and the strata's weights (a partial
 * wave whose window recorded nothing left to the body).
 */
#include <string.h>

#include "check.h"
#include "sim/sample/jump.h"
#include "trapeze.h"

static void test_start(void)
{
    /* 64 blocks, 15 at once: 5 waves (15, 15, 15, 15, 4), 128 trips: 640 units */
    sim_jump_launch l = {.blocks = 64, .concurrent = 15, .trips = 128, .insts = 1};
    long b, t;
    sim_jump_start(&l, 0, &b, &t);
    CHECK(b == 0 && t == 0);
    sim_jump_start(&l, 0.5, &b, &t);        /* unit 320: wave 2, trip 64 */
    CHECK(b == 30 && t == 64);
    sim_jump_start(&l, 0.3, &b, &t);        /* unit 192: wave 1, trip 64 */
    CHECK(b == 15 && t == 64);
    sim_jump_start(&l, 0.999, &b, &t);      /* unit 639.36: the last wave, trip 127 */
    CHECK(b == 60 && t == 127);
    sim_jump_start(&l, 1.5, &b, &t);        /* clamped inside the launch */
    CHECK(b == 60 && t == 127);
    /* no loop: whole waves only; one wave: trips only */
    sim_jump_launch flat = {.blocks = 1024, .concurrent = 90, .trips = 1};
    sim_jump_start(&flat, 0.5, &b, &t);     /* 12 waves: wave 6 */
    CHECK(b == 540 && t == 0);
    sim_jump_launch one = {.blocks = 2, .concurrent = 2, .trips = 512};
    sim_jump_start(&one, 0.25, &b, &t);
    CHECK(b == 0 && t == 128);
}

static void test_place(void)
{
    double last = 0.2;
    int ok = 1;
    for (int k = 0; k < 8; k++) {
        double p = sim_jump_place(0.2, k, 8);
        /* inside its eighth of (0.2, 1), after the one before */
        ok &= p >= 0.2 + 0.1 * k && p < 0.2 + 0.1 * (k + 1) && p > last;
        last = p;
    }
    CHECK(ok);
}

static void test_add_long(void)
{
    static trapeze_idle_hist h;
    const double counts[] = {10, 3.5, 1}, masses[] = {60000, 3.5 * 100000, 5000};
    for (int c = 0; c < 3; c++) {
        memset(&h, 0, sizeof h);
        double got = sim_jump_add_long(&h, TRAPEZE_NEXT_DEAD, counts[c], masses[c], SIM_JUMP_LONG);
        double n = 0, cycles = 0;
        int beyond = 1;
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            double x = h.count[TRAPEZE_NEXT_DEAD][b];
            if (!(x > 0))
                continue;
            double lo, hi;
            trapeze_idle_bucket_range(b, &lo, &hi);
            beyond &= lo > SIM_JUMP_LONG;
            n += x;
            cycles += x * trapeze_idle_bucket_length(b);
        }
        CHECK(beyond);
        CHECK_NEAR(n, counts[c], 1e-9);
        CHECK_NEAR(cycles, masses[c], 1e-6 * masses[c]);
        CHECK_NEAR(got, masses[c], 1e-6 * masses[c]);
        CHECK_NEAR(trapeze_idle_hist_periods(&h, TRAPEZE_NEXT_READ), 0, 0);
    }
    /* a mean below the first bucket past the limit is raised to it: 2 periods
     * of 1000 cycles become 2 of 3072.5 */
    memset(&h, 0, sizeof h);
    double got = sim_jump_add_long(&h, TRAPEZE_NEXT_READ, 2, 2000, SIM_JUMP_LONG);
    CHECK_NEAR(got, 2 * 3072.5, 1e-9);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_READ][trapeze_idle_bucket(3000)], 2, 1e-12);
    CHECK_NEAR(sim_jump_add_long(&h, TRAPEZE_NEXT_READ, 0, 100, SIM_JUMP_LONG), 0, 0);
    /* windows at a quarter of their length call long what passes 512
     * cycles: the same 2 periods of 1000 keep their 2000 cycles (raised to
     * the unscaled bound, a capped GTX 480 filter 512^2 took its registers'
     * read periods 5 times too long: 45.4 million idle cycles against the
     * run's 28.5) */
    memset(&h, 0, sizeof h);
    got = sim_jump_add_long(&h, TRAPEZE_NEXT_READ, 2, 2000, SIM_JUMP_LONG * 0.25);
    CHECK_NEAR(got, 2000, 1e-9);
    CHECK_NEAR(trapeze_idle_hist_periods(&h, TRAPEZE_NEXT_READ), 2, 1e-12);
    CHECK_NEAR(trapeze_idle_hist_idle_cycles(&h, TRAPEZE_NEXT_READ), 2000, 1e-9);
}

/* The warp exits a capped sample did not see, GTX 480 filter 512^2's
 * figures: 1024 blocks x 8 warps x 4 registers = 32768 dead periods in the
 * run; the sample held 22368.7 (most of them long open periods taken for
 * dead) with 12.09 million cycles; its first window saw 2368 exits, 1.889
 * million cycles (797.8 each). So 32768 - 22368.7 = 10399.3 more, bringing
 * the dead cycles to 32768 x 797.8 = 26.14 million: 14.05 million more. */
static void test_dead_missing(void)
{
    double cycles;
    double n = sim_jump_dead_missing(32768, 22368.7, 12.09e6, 2368, 1.889e6, &cycles);
    CHECK_NEAR(n, 10399.3, 1e-6);
    CHECK_NEAR(cycles, 32768 * 1.889e6 / 2368 - 12.09e6, 1e-3);
    CHECK_NEAR(cycles, 14.05e6, 0.01e6);
    /* none missing, no exit in the first window, or the cycles already there */
    CHECK(sim_jump_dead_missing(1024, 28189, 2.9e7, 10, 5000, &cycles) == 0 && cycles == 0);
    CHECK(sim_jump_dead_missing(32768, 22368.7, 12.09e6, 0, 0, &cycles) == 0 && cycles == 0);
    CHECK(sim_jump_dead_missing(100, 50, 1e6, 10, 1000, &cycles) == 0 && cycles == 0);
}

/* Warp exits a later window saw, held to the run's (sim_jump_exit_keep).
 * By hand: 1200 blocks x 4 warps x 4 registers = 19200 warp registers, each
 * ending dead once. The first window saw 1600 exits and the launch end's
 * tails stand for 2000: 3600 held elsewhere. Each of 8 later windows saw
 * its first wave of 120 blocks exit together (120 x 16 = 1920, 15360 in
 * all), weighted by work x4: 61440, so the sample held 65040 dead periods
 * for the run's 19200. Keep (19200 - 3600) / 61440 = 0.25390625, which
 * brings the sample to 19200 exactly. */
static void test_exit_keep(void)
{
    double keep = sim_jump_exit_keep(19200, 3600, 61440);
    CHECK_NEAR(keep, 0.25390625, 1e-12);
    CHECK_NEAR(3600 + keep * 61440, 19200, 1e-9);
    /* fewer exits than the run has: every one kept (a capped sample adds
     * the unseen ones, sim_jump_dead_missing) */
    CHECK(sim_jump_exit_keep(19200, 3600, 15000) == 1);
    /* the rest of the sample already holds the run's: none kept */
    CHECK(sim_jump_exit_keep(384, 4036.26, 7688.52) == 0);
    /* no exit seen in a later window */
    CHECK(sim_jump_exit_keep(65536, 52569.5, 0) == 1);
}

/* Refills held to the footprint (in fills: the write-ended periods times
 * their fill share, sim_jump_fill_share). By hand: 1000 lines fit 4096 frames; the
 * first window ended 400 periods with a write, so 600 are left to the rest
 * of the run, against 2400 in the later windows as weighted: keep 600 / 2400
 * = 0.25. V100 kmeans (--cap 0.25): 8440 lines in 49152 frames, 37429 write
 * periods in the first 1654 cycles (stores and the footprint's sector
 * fills), 189144 in the later windows: none left to them, keep 0. */
static void test_refill_keep(void)
{
    CHECK_NEAR(sim_jump_refill_keep(1000, 4096, 400, 2400), 0.25, 1e-15);
    CHECK(sim_jump_refill_keep(8440, 49152, 37429, 189144) == 0);
    /* the later windows hold no more than the rest: all kept */
    CHECK(sim_jump_refill_keep(1000, 4096, 400, 600) == 1);
    CHECK(sim_jump_refill_keep(1000, 4096, 400, 500) == 1);
    /* a footprint over the L2 (GTX 480 kmeans: 8440 lines, 6144 frames):
     * capacity misses refill frames in the run too; no footprint known;
     * no write in the later windows */
    CHECK(sim_jump_refill_keep(8440, 6144, 17090, 30000) == 1);
    CHECK(sim_jump_refill_keep(0, 6144, 10, 30000) == 1);
    CHECK(sim_jump_refill_keep(1000, 4096, 400, 0) == 1);
    /* which write-ended periods are fills: GTX 480 Poisson 256²'s later
     * window recorded 1319 L2 fills and 2665 stores, 1319 / 3984; V100
     * kmeans's 12020 fills and no store; nothing counted: all fills */
    CHECK_NEAR(sim_jump_fill_share(1319, 2665), 0.33107429718875503, 1e-15);
    CHECK(sim_jump_fill_share(12020, 0) == 1);
    CHECK(sim_jump_fill_share(0, 2665) == 0);
    CHECK(sim_jump_fill_share(0, 0) == 1);
}

static void test_tail_scale(void)
{
    /* 4 blocks of 1000 warp instructions; the end window ran blocks 2 and 3
     * for 200 in all (100 each): twice the blocks, each 10 times as long */
    sim_jump_launch l = {.blocks = 4, .concurrent = 2, .trips = 50, .insts = 4000};
    double blocks, stretch;
    sim_jump_tail_scale(&l, 2, 200, &blocks, &stretch);
    CHECK_NEAR(blocks, 2, 0);
    CHECK_NEAR(stretch, 10, 1e-12);
    /* a window that ran the whole launch: as it is (never shrunk) */
    sim_jump_tail_scale(&l, 0, 5000, &blocks, &stretch);
    CHECK_NEAR(blocks, 1, 0);
    CHECK_NEAR(stretch, 1, 0);
    /* nothing issued, or no block left: no tails */
    sim_jump_tail_scale(&l, 0, 0, &blocks, &stretch);
    CHECK(blocks == 0 && stretch == 0);
    sim_jump_tail_scale(&l, 4, 100, &blocks, &stretch);
    CHECK(blocks == 0 && stretch == 0);
}

static void add_period(sim_idle_hist *h, uint64_t length, sim_next_access what)
{
    int b = sim_idle_bin(length);
    h->bin[what][b].count++;
    h->bin[what][b].sum += length;
}

static void test_tail_cut(void)
{
    static sim_idle_hist before, now, marked_before, marked;
    memset(&before, 0, sizeof before);
    memset(&marked_before, 0, sizeof marked_before);
    add_period(&before, 700, SIM_NEXT_DEAD);          /* before the recording: stays */
    add_period(&marked_before, 700, SIM_NEXT_DEAD);
    now = before;
    marked = marked_before;
    /* in the recording: a read, two tails (300 and 5000 cycles) and a
     * register idle since its block began (9000, marked) */
    add_period(&now, 40, SIM_NEXT_READ);
    add_period(&now, 300, SIM_NEXT_DEAD);
    add_period(&now, 5000, SIM_NEXT_DEAD);
    add_period(&now, 9000, SIM_NEXT_DEAD);
    add_period(&marked, 9000, SIM_NEXT_DEAD);
    double n, cycles;
    sim_jump_tail_cut(&now, &before, &marked, &marked_before, &n, &cycles);
    CHECK_NEAR(n, 2, 0);
    CHECK_NEAR(cycles, 5300, 0);
    /* left: the earlier period, the read and the marked one */
    uint64_t dn = 0, ds = 0;
    for (int b = 0; b < SIM_IDLE_BINS; b++) {
        dn += now.bin[SIM_NEXT_DEAD][b].count;
        ds += now.bin[SIM_NEXT_DEAD][b].sum;
    }
    CHECK(dn == 2 && ds == 9700);
    CHECK(now.bin[SIM_NEXT_READ][sim_idle_bin(40)].count == 1);
    /* nothing gained: nothing cut */
    sim_jump_tail_cut(&now, &now, &marked, &marked, &n, &cycles);
    CHECK(n == 0 && cycles == 0);
}

static void test_add_dead(void)
{
    static trapeze_idle_hist h;
    memset(&h, 0, sizeof h);
    /* 4 tails of 250 cycles: the bucket of 250 */
    sim_jump_add_dead(&h, 4, 1000, SIM_JUMP_LONG);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(250)], 4, 0);
    /* 3 of 40000 in all past the limit: number and cycles kept */
    memset(&h, 0, sizeof h);
    sim_jump_add_dead(&h, 3, 120000, SIM_JUMP_LONG);
    double n = 0, cycles = 0;
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        n += h.count[TRAPEZE_NEXT_DEAD][b];
        cycles += h.count[TRAPEZE_NEXT_DEAD][b] * trapeze_idle_bucket_length(b);
    }
    CHECK_NEAR(n, 3, 1e-12);
    CHECK_NEAR(cycles, 120000, 1e-6);
    CHECK_NEAR(trapeze_idle_hist_periods(&h, TRAPEZE_NEXT_READ), 0, 0);
}

/* A plan's cycles as jump_run.c prices it, for a run of 16911 cycles (GTX
 * 480 Jacobi 512x512) whose first window took 1700: each later window its
 * warm-up and recording (4000 + 2000 at scale 1), each launch end 2500
 * cycles at any scale (its start is placed by the launch's work). */
/* The live share of an L2 frame's long open period where no window sees
 * the launch end (sim_jump_refilled), by hand: GTX 480 copy, 4194304
 * floats in and out (262144 lines) through 6144 frames, n = 42.67: 1 -
 * 6144 / (2 x 262144) = 0.98828125 (the old rule took every such frame no
 * later window used for dead: 0); V100 kmeans, 8440 lines in 49152
 * frames: half of n, 0.0858561...; at n = 1 both rules give 1/2. */
static void test_refilled(void)
{
    CHECK_NEAR(sim_jump_refilled(262144, 6144), 0.98828125, 1e-15);
    CHECK_NEAR(sim_jump_refilled(8440, 49152), 8440.0 / 49152 / 2, 1e-15);
    CHECK_NEAR(sim_jump_refilled(6144, 6144), 0.5, 1e-15);
    CHECK(sim_jump_refilled(0, 6144) == 0);
    CHECK(sim_jump_refilled(262144, 0) == 0);
}

/* The strata's weights, by hand on GTX 480 copy --cap 0.25: 720896 warp
 * instructions, the first window 72090, two later windows that recorded
 * 15426, no launch end, the last partial wave (46 of 4096 blocks: 8096)
 * whose window recorded nothing: the later windows stand for all the rest,
 * (720896 - 72090) / 15426 = 42.0592..., where dropping the wave's work
 * gave 41.5344... and a run 1.1% short. Had it recorded 2024: 8096 / 2024
 * = 4 for it, the body (720896 - 72090 - 8096) / 15426. With a launch end
 * of 3392 standing for 1 of 1 and no partial wave (copy, the default
 * plan: 77415 first, 54222 later): (720896 - 77415 - 3392) / 54222. In
 * each the weighted work is the run's. */
static void test_weights(void)
{
    double w[4], none[4] = {0, 15426, 0, 0}, rec[4] = {0, 15426, 0, 2024};
    double def[4] = {0, 54222, 3392, 0};
    sim_jump_weights(720896, 72090, 0, 0, none, 8096, w);
    CHECK_NEAR(w[1], (720896.0 - 72090) / 15426, 1e-12);
    CHECK(w[0] == 1 && w[2] == 0 && w[3] == 0);
    CHECK_NEAR(72090 + w[1] * 15426, 720896, 1e-6);
    sim_jump_weights(720896, 72090, 0, 0, rec, 8096, w);
    CHECK_NEAR(w[3], 4, 1e-15);
    CHECK_NEAR(w[1], (720896.0 - 72090 - 8096) / 15426, 1e-12);
    CHECK_NEAR(72090 + w[1] * 15426 + w[3] * 2024, 720896, 1e-6);
    sim_jump_weights(720896, 77415, 1, 1, def, 0, w);
    CHECK(w[2] == 1 && w[3] == 0);
    CHECK_NEAR(w[1], (720896.0 - 77415 - 3392) / 54222, 1e-12);
    /* three launch ends sampled of five: each stands for 5/3 */
    sim_jump_weights(720896, 77415, 5, 3, def, 0, w);
    CHECK_NEAR(w[2], 5.0 / 3, 1e-15);
}

/* The lines through the L1s a cut capped plan fills their frames by
 * (sim_jump_l1_lines), by hand on V100 matmul_tiled 256's first window:
 * 6656 frames touched, a tenth of the run's work, 840 of 32768 L1 reads
 * hit: 6656 (1 + 9 x 31928 / 32768) = 65024.375 lines over 81920 frames,
 * n = 0.794, filled n / 2 = 0.397, where the job's footprint (6144 lines)
 * gives 0.0375 and the capped sample's L1D saving was 96.62% against the
 * whole run's 91.32% (tests/cli_sleep.sh). Every read a hit: no growth;
 * no read counted: every trip's lines new; a first window with the whole
 * run's work: the touched frames. */
static void test_l1_lines(void)
{
    double lines = sim_jump_l1_lines(6656, 10, 32768, 840);
    CHECK_NEAR(lines, 65024.375, 1e-9);
    CHECK_NEAR(sim_jump_refilled(lines, 81920), 65024.375 / 81920 / 2, 1e-15);
    CHECK(sim_jump_refilled(lines, 81920) > 10 * sim_jump_refilled(6144, 81920));
    CHECK(sim_jump_l1_lines(6656, 10, 32768, 32768) == 6656);
    CHECK(sim_jump_l1_lines(6656, 10, 0, 0) == 66560);
    CHECK(sim_jump_l1_lines(6656, 1, 32768, 840) == 6656);
    CHECK(sim_jump_l1_lines(0, 10, 32768, 840) == 0);
}

static double jacobi_plan(const void *ctx, int windows, int ends, double scale)
{
    (void)ctx;
    return 1700 + windows * 6000 * scale + ends * 2500;
}

static void test_fit(void)
{
    int w = -1, e = -1;
    /* a cap of 0.25: 0.8 x 0.25 x 16911 = 3382.2 cycles. 6000 and 3000 do
     * not fit after 1700; 1500 does, once (3200), with no launch end (5700) */
    CHECK(sim_jump_fit(jacobi_plan, NULL, 8, 1, 3382.2, &w, &e) == 0.25);
    CHECK(w == 1 && e == 0);
    /* a cap of 1: 13528.8 cycles: at full length one window and the end
     * (10200; two windows 13700 do not fit) */
    CHECK(sim_jump_fit(jacobi_plan, NULL, 8, 1, 13528.8, &w, &e) == 1);
    CHECK(w == 1 && e == 1);
    /* under 1700 + 750 (three halvings) nothing fits */
    CHECK(sim_jump_fit(jacobi_plan, NULL, 8, 1, 2449, &w, &e) == 0);
    CHECK(sim_jump_fit(jacobi_plan, NULL, 8, 1, 2450, &w, &e) == 0.125 && w == 1 && e == 0);
}

int main(void)
{
    test_fit();
    test_start();
    test_place();
    test_add_long();
    test_dead_missing();
    test_exit_keep();
    test_refill_keep();
    test_refilled();
    test_l1_lines();
    test_weights();
    test_tail_scale();
    test_tail_cut();
    test_add_dead();
    return check_report("test_sleep_jump");
}
