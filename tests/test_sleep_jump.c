/*
 * Tests of the jump sample's pieces (sampler/sleep_jump.c): where a window
 * starts in a launch (worked out by hand: waves of concurrent blocks, trips
 * of the outer loop), the later windows' places (inside (from, 1), in
 * order, one per n-th), and the long periods put back into a histogram
 * with their number and cycles kept, past SAMPLER_JUMP_LONG.
 */
#include <string.h>

#include "check.h"
#include "sampler/sleep_jump.h"
#include "trapeze.h"

static void test_start(void)
{
    /* 64 blocks, 15 at once: 5 waves (15, 15, 15, 15, 4), 128 trips: 640 units */
    sampler_jump_launch l = {.blocks = 64, .concurrent = 15, .trips = 128, .insts = 1};
    long b, t;
    sampler_jump_start(&l, 0, &b, &t);
    CHECK(b == 0 && t == 0);
    sampler_jump_start(&l, 0.5, &b, &t);        /* unit 320: wave 2, trip 64 */
    CHECK(b == 30 && t == 64);
    sampler_jump_start(&l, 0.3, &b, &t);        /* unit 192: wave 1, trip 64 */
    CHECK(b == 15 && t == 64);
    sampler_jump_start(&l, 0.999, &b, &t);      /* unit 639.36: the last wave, trip 127 */
    CHECK(b == 60 && t == 127);
    sampler_jump_start(&l, 1.5, &b, &t);        /* clamped inside the launch */
    CHECK(b == 60 && t == 127);
    /* no loop: whole waves only; one wave: trips only */
    sampler_jump_launch flat = {.blocks = 1024, .concurrent = 90, .trips = 1};
    sampler_jump_start(&flat, 0.5, &b, &t);     /* 12 waves: wave 6 */
    CHECK(b == 540 && t == 0);
    sampler_jump_launch one = {.blocks = 2, .concurrent = 2, .trips = 512};
    sampler_jump_start(&one, 0.25, &b, &t);
    CHECK(b == 0 && t == 128);
}

static void test_place(void)
{
    double last = 0.2;
    int ok = 1;
    for (int k = 0; k < 8; k++) {
        double p = sampler_jump_place(0.2, k, 8);
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
        double got = sampler_jump_add_long(&h, TRAPEZE_NEXT_DEAD, counts[c], masses[c]);
        double n = 0, cycles = 0;
        int beyond = 1;
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            double x = h.count[TRAPEZE_NEXT_DEAD][b];
            if (!(x > 0))
                continue;
            double lo, hi;
            trapeze_idle_bucket_range(b, &lo, &hi);
            beyond &= lo > SAMPLER_JUMP_LONG;
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
    double got = sampler_jump_add_long(&h, TRAPEZE_NEXT_READ, 2, 2000);
    CHECK_NEAR(got, 2 * 3072.5, 1e-9);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_READ][trapeze_idle_bucket(3000)], 2, 1e-12);
    CHECK_NEAR(sampler_jump_add_long(&h, TRAPEZE_NEXT_READ, 0, 100), 0, 0);
}

int main(void)
{
    test_start();
    test_place();
    test_add_long();
    return check_report("test_sleep_jump");
}
