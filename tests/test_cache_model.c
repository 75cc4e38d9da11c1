/*
 * test_cache_model.c - the cache-contention decision (model/cache.c) on
 * counts worked by hand: the screen that keeps the baseline without
 * contention, the predicted speed-ups (cycles per warp instruction against
 * the baseline's, windows of different lengths), the margin that keeps an
 * earlier policy against a later one faster by less than 2%, a pick made at
 * the slowest SM's pace rather than the window's, where a sample's window
 * ends in a launch, the PCs the pcs candidate bypasses, and the errors for
 * a missing or empty sample.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

/* The error message is want (printed when not). */
static void check_msg(const trapeze_error *err, const char *want)
{
    if (strcmp(err->message, want))
        fprintf(stderr, "got: %s\nwant: %s\n", err->message, want);
    CHECK(!strcmp(err->message, want));
}

static trapeze_cache_counts counts(double cycles, double insts)
{
    trapeze_cache_counts c;
    memset(&c, 0, sizeof c);
    c.taken = 1;
    c.cycles = cycles;
    c.slowest_cycles = cycles;   /* every SM at the same pace */
    c.warp_insts = insts;
    c.sm_active_cycles = cycles;
    return c;
}

/* 40 refused probes in 1000 SM cycles: 4% < 5%, no contention; of the
 * other policies only memsched is sampled (CPI 10 against its 9.5: 1.053x,
 * above 1.02: chosen), the rest are predicted at 1. */
static void test_screen(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    trapeze_cache_decision d;
    memset(&d, 0, sizeof d);
    d.sample[TRAPEZE_CACHE_NONE] = counts(1000, 100);
    d.sample[TRAPEZE_CACHE_NONE].refused_resource = 40;
    trapeze_error err;
    CHECK(trapeze_cache_decide(&m, &d, &err) == TRAPEZE_EINVAL);   /* no memsched sample */
    CHECK(strstr(err.message, "memsched") != NULL);
    d.sample[TRAPEZE_CACHE_MEMSCHED] = counts(950, 100);
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(!d.contended && d.choice == TRAPEZE_CACHE_MEMSCHED);
    CHECK_NEAR(d.resource_stall, 0.04, 1e-12);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_MEMSCHED], 1000.0 / 950.0, 1e-12);
    for (int p = 0; p < TRAPEZE_CACHE_POLICIES; p++) {
        CHECK(trapeze_cache_sampled(&m, &d.sample[TRAPEZE_CACHE_NONE], (trapeze_cache_policy)p) ==
              (p == TRAPEZE_CACHE_NONE || p == TRAPEZE_CACHE_MEMSCHED));
        if (p != TRAPEZE_CACHE_MEMSCHED)
            CHECK(d.predicted_speedup[p] == 1.0);
    }
    d.sample[TRAPEZE_CACHE_MEMSCHED] = counts(990, 100);   /* 1.01x: within the margin */
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(d.choice == TRAPEZE_CACHE_NONE);
    d.sample[TRAPEZE_CACHE_NONE].refused_resource = 50;   /* 5%: contended */
    CHECK(trapeze_cache_contended(&m, &d.sample[TRAPEZE_CACHE_NONE]));
}

/* The baseline: 1000 cycles for 100 warp instructions (CPI 10). lasc 500
 * cycles (2x); loc 490 (2.04x, not above 2 x 1.02: lasc stays); lasc+loc
 * 400 (2.5x: taken); memsched 1000 cycles for 125 instructions (CPI 8:
 * 1.25x); memsched+loc 380 (2.63x > 2.5 x 1.02 = 2.55: taken); bypass_all
 * 375 (2.667x < 2.63 x 1.02 = 2.684: memsched+loc stays). */
static void test_pick(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    trapeze_cache_decision d;
    memset(&d, 0, sizeof d);
    d.sample[TRAPEZE_CACHE_NONE] = counts(1000, 100);
    d.sample[TRAPEZE_CACHE_NONE].refused_resource = 500;
    d.sample[TRAPEZE_CACHE_LASC] = counts(500, 100);
    d.sample[TRAPEZE_CACHE_LOC] = counts(490, 100);
    d.sample[TRAPEZE_CACHE_LASC_LOC] = counts(400, 100);
    d.sample[TRAPEZE_CACHE_MEMSCHED] = counts(1000, 125);
    d.sample[TRAPEZE_CACHE_MEMSCHED_LOC] = counts(380, 100);
    d.sample[TRAPEZE_CACHE_BYPASS_ALL] = counts(375, 100);
    trapeze_error err;
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(d.contended);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_LASC], 2.0, 1e-12);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_MEMSCHED], 1.25, 1e-12);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_BYPASS_ALL], 1000.0 / 375.0, 1e-12);
    CHECK(d.choice == TRAPEZE_CACHE_MEMSCHED_LOC);
    /* memsched+loc at 396 cycles (2.525x, not above 2.5 x 1.02 = 2.55):
     * lasc+loc stays, and bypass_all's 2.667x, above 2.55, replaces it
     * (each policy is measured against the choice so far, not the last) */
    d.sample[TRAPEZE_CACHE_MEMSCHED_LOC] = counts(396, 100);
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(d.choice == TRAPEZE_CACHE_BYPASS_ALL);
    d.sample[TRAPEZE_CACHE_BYPASS_ALL] = counts(395, 100);   /* 2.532x: lasc+loc */
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(d.choice == TRAPEZE_CACHE_LASC_LOC);
}

/* pcs: of five load PCs, 0x10 (6 of 10 evicted lines never re-read) and
 * 0x50 (3 of 3) are bypassed; 0x20 (5 of 10: not more than half), 0x30
 * (nothing evicted) and 0x40 (4 of 4, but its lines are shared by blocks on
 * one SM) stay cached. Sampled at 450 cycles for 100 instructions (2.22x)
 * against lasc's 500 (2x), pcs replaces lasc; without contention, or with
 * no PC to bypass, it is not sampled and predicted 1. */
static void test_bypass_pcs(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    trapeze_cache_decision d;
    memset(&d, 0, sizeof d);
    trapeze_cache_counts *b = &d.sample[TRAPEZE_CACHE_NONE];
    *b = counts(1000, 100);
    b->refused_resource = 500;
    double ev[5] = {10, 10, 0, 4, 3}, unused[5] = {6, 5, 0, 4, 3};
    b->n_pcs = 5;
    for (int i = 0; i < 5; i++) {
        b->pc[i] = 0x10u * (unsigned)(i + 1);
        b->pc_evictions[i] = ev[i];
        b->pc_evicted_unused[i] = unused[i];
    }
    b->pc_shared[3] = 1;
    unsigned pcs[TRAPEZE_CACHE_MAX_PCS];
    CHECK(trapeze_cache_bypass_pcs(b, pcs) == 2 && pcs[0] == 0x10 && pcs[1] == 0x50);
    CHECK(trapeze_cache_sampled(&m, b, TRAPEZE_CACHE_PCS));
    for (int p = 1; p < TRAPEZE_CACHE_POLICIES; p++)
        d.sample[p] = counts(1000, 100);
    d.sample[TRAPEZE_CACHE_LASC] = counts(500, 100);
    d.sample[TRAPEZE_CACHE_PCS] = counts(450, 100);
    trapeze_error err;
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(d.choice == TRAPEZE_CACHE_PCS && d.n_bypass_pcs == 2 && d.bypass_pcs[1] == 0x50);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_PCS], 1000.0 / 450.0, 1e-12);
    b->pc_evicted_unused[0] = 5;
    b->pc_shared[4] = 1;   /* no PC left to bypass */
    CHECK(!trapeze_cache_sampled(&m, b, TRAPEZE_CACHE_PCS));
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK(d.choice == TRAPEZE_CACHE_LASC && d.n_bypass_pcs == 0);
    CHECK(d.predicted_speedup[TRAPEZE_CACHE_PCS] == 1.0);
    b->pc_shared[4] = 0;
    b->refused_resource = 40;   /* 4%: no contention */
    CHECK(!trapeze_cache_sampled(&m, b, TRAPEZE_CACHE_PCS));
}

/* The window's cycles would pick lasc+loc (1000 / 400 = 2.5x against
 * memsched+loc's 1000 / 450 = 2.22x), but its slowest SM went at half the
 * mean pace (800 cycles at it: 1.25x) while memsched+loc's kept up within
 * a tenth (500: 2x); the baseline's own slowest SM at 0.8 of the mean
 * (1250: every speed-up is against that). Predicted: lasc+loc 1250 / 800 =
 * 1.5625x, memsched+loc 1250 / 500 = 2.5x, chosen. */
static void test_slowest_pace(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    trapeze_cache_decision d;
    memset(&d, 0, sizeof d);
    d.sample[TRAPEZE_CACHE_NONE] = counts(1000, 100);
    d.sample[TRAPEZE_CACHE_NONE].slowest_cycles = 1250;
    d.sample[TRAPEZE_CACHE_NONE].refused_resource = 500;
    for (int p = 1; p < TRAPEZE_CACHE_POLICIES; p++)
        d.sample[p] = counts(1250, 100);   /* 1x */
    d.sample[TRAPEZE_CACHE_LASC_LOC] = counts(400, 100);
    d.sample[TRAPEZE_CACHE_LASC_LOC].slowest_cycles = 800;
    d.sample[TRAPEZE_CACHE_MEMSCHED_LOC] = counts(450, 100);
    d.sample[TRAPEZE_CACHE_MEMSCHED_LOC].slowest_cycles = 500;
    trapeze_error err;
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_LASC_LOC], 1.5625, 1e-12);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_MEMSCHED_LOC], 2.5, 1e-12);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_LOC], 1.0, 1e-12);
    CHECK(d.choice == TRAPEZE_CACHE_MEMSCHED_LOC);
}

/* A window of 40,000: a launch of 41,040 warp instructions would leave
 * 1,040 after it, less than one more window: run to its end (41,040, at
 * most 80,000); one of 100,000 leaves 60,000: windowed. 80,000 leaves
 * exactly one window (windowed), 79,999 less (to the end); an unknown
 * count keeps the window, a whole run stays whole. */
static void test_launch_window(void)
{
    CHECK(trapeze_cache_launch_window(41040, 40000) == 0);
    CHECK(trapeze_cache_launch_window(100000, 40000) == 40000);
    CHECK(trapeze_cache_launch_window(80000, 40000) == 40000);
    CHECK(trapeze_cache_launch_window(79999, 40000) == 0);
    CHECK(trapeze_cache_launch_window(0, 40000) == 40000);
    CHECK(trapeze_cache_launch_window(41040, 0) == 0);
}

/* Windows sized at a quarter of each launch, at least 40,000 and at most
 * 400,000: syrk n=128's launch of 397,312 warp instructions gets 99,328
 * (a quarter; 198,656 would be left, more than one window); one of 100,000
 * a quarter of 25,000, raised to 40,000; one of 79,999 a window of 40,000
 * that would leave less than one more: to its end (0); one of 2,000,000
 * 500,000, capped at 400,000. Share 0 is the fixed window; a whole run
 * stays whole; a cap below the window does not lower it. */
static void test_window_for(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    CHECK(m.window_share == 0 && m.window_cap == 400000);
    CHECK(trapeze_cache_window_for(&m, 397312, 40000) == 40000);
    CHECK(trapeze_cache_window_for(&m, 79999, 40000) == 0);
    m.window_share = 0.25;
    CHECK(trapeze_cache_window_for(&m, 397312, 40000) == 99328);
    CHECK(trapeze_cache_window_for(&m, 100000, 40000) == 40000);
    CHECK(trapeze_cache_window_for(&m, 79999, 40000) == 0);
    CHECK(trapeze_cache_window_for(&m, 2000000, 40000) == 400000);
    CHECK(trapeze_cache_window_for(&m, 397312, 0) == 0);
    CHECK(trapeze_cache_window_for(NULL, 100000, 40000) == 40000);
    m.window_cap = 30000;
    CHECK(trapeze_cache_window_for(&m, 2000000, 40000) == 500000);
}

/* A window of 80,000 warp instructions in 80,000 cycles, its first half
 * (40,000) in 50,000: the second half went at 0.75 cycles an instruction,
 * so a launch of 400,000 is predicted 80,000 + 320,000 x 0.75 = 320,000
 * cycles, where the window's own rate (1 a cycle) would say 400,000 and the
 * first half's (1.25) 500,000. A window that reached the launch's end, or
 * an empty second half, predicts its own cycles. */
static void test_extrapolate(void)
{
    CHECK_NEAR(trapeze_cache_extrapolate(50000, 40000, 80000, 80000, 400000), 320000, 1e-6);
    CHECK_NEAR(trapeze_cache_extrapolate(50000, 40000, 80000, 80000, 80000), 80000, 1e-9);
    CHECK_NEAR(trapeze_cache_extrapolate(50000, 80000, 80000, 80000, 400000), 80000, 1e-9);
}

/* Sized: the runs predicted (run_cycles) compare, whatever the windows'
 * own cycles say: pcs's window is slower than the baseline's (CPI 12
 * against 10: 0.83x from the window) but its run is predicted 500 cycles
 * against 1000, 2x, chosen; loc 800 (1.25x). */
static void test_sized_pick(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    m.window_share = 0.25;
    trapeze_cache_decision d;
    memset(&d, 0, sizeof d);
    d.sample[TRAPEZE_CACHE_NONE] = counts(1000, 100);
    d.sample[TRAPEZE_CACHE_NONE].refused_resource = 500;
    for (int p = 0; p < TRAPEZE_CACHE_POLICIES; p++) {
        if (p)
            d.sample[p] = counts(1000, 100);
        d.sample[p].run_cycles = 1000;
    }
    d.sample[TRAPEZE_CACHE_NONE].n_pcs = 1;
    d.sample[TRAPEZE_CACHE_NONE].pc[0] = 0x40;
    d.sample[TRAPEZE_CACHE_NONE].pc_evictions[0] = 10;
    d.sample[TRAPEZE_CACHE_NONE].pc_evicted_unused[0] = 9;
    d.sample[TRAPEZE_CACHE_PCS] = counts(1200, 100);
    d.sample[TRAPEZE_CACHE_PCS].run_cycles = 500;
    d.sample[TRAPEZE_CACHE_LOC].run_cycles = 800;
    trapeze_error err;
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_PCS], 2.0, 1e-12);
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_LOC], 1.25, 1e-12);
    CHECK(d.choice == TRAPEZE_CACHE_PCS);
    m.window_share = 0;   /* the fixed window's rule: CPI, pcs 0.83x, loc 1x */
    CHECK_OK(trapeze_cache_decide(&m, &d, &err));
    CHECK_NEAR(d.predicted_speedup[TRAPEZE_CACHE_PCS], 10.0 / 12.0, 1e-12);
    CHECK(d.choice == TRAPEZE_CACHE_NONE);
    m.window_share = 0.25;
    d.sample[TRAPEZE_CACHE_LOC].run_cycles = 0;
    CHECK(trapeze_cache_decide(&m, &d, &err) == TRAPEZE_EINVAL);
    check_msg(&err, "cache decision: the sample of policy loc has no predicted run");
}

static void test_errors(void)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    trapeze_cache_decision d;
    memset(&d, 0, sizeof d);
    trapeze_error err;
    CHECK(trapeze_cache_decide(&m, &d, &err) == TRAPEZE_EINVAL);
    check_msg(&err, "cache decision: no sample of policy none");
    d.sample[TRAPEZE_CACHE_NONE] = counts(1000, 100);
    d.sample[TRAPEZE_CACHE_NONE].refused_resource = 500;
    for (int p = 1; p < TRAPEZE_CACHE_POLICIES; p++)
        d.sample[p] = counts(500, 100);
    d.sample[TRAPEZE_CACHE_LOC].warp_insts = 0;
    CHECK(trapeze_cache_decide(&m, &d, &err) == TRAPEZE_EINVAL);
    check_msg(&err, "cache decision: the sample of policy loc has 500 cycles at its slowest "
                    "SM's pace and 0 warp instructions (both must be positive)");
    d.sample[TRAPEZE_CACHE_LOC].warp_insts = 100;
    d.sample[TRAPEZE_CACHE_BYPASS_ALL].taken = 0;
    CHECK(trapeze_cache_decide(&m, &d, &err) == TRAPEZE_EINVAL);
    check_msg(&err, "cache decision: no sample of policy bypass_all");
}

int main(void)
{
    test_bypass_pcs();
    test_screen();
    test_pick();
    test_slowest_pace();
    test_launch_window();
    test_window_for();
    test_extrapolate();
    test_sized_pick();
    test_errors();
    return check_report("test_cache_model");
}
