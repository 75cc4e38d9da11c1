/*
 * Tests of the spread sample's pieces (sim/sample/spread.c,
 * sim/sample/idle_export.c): the later windows' recorded cycles are exactly the
 * whole cycles that fall in them, one window of every/5 cycles in each
 * stretch and inside it, a fifth of the run after the first window; and the
 * periods a histogram gained between two readings reach the model's
 * buckets, weighted, only for the kinds of next access asked for; the
 * share of positions at which a period overlaps a window (the
 * Horvitz-Thompson weights), against brute force.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/sample/idle_export.h"
#include "sim/sample/spread.h"
#include "trapeze.h"

static void test_geometry(void)
{
    const double firsts[] = {0, 20000, 3000}, everys[] = {2500, 1000, 5000};
    for (int c = 0; c < 3; c++) {
        sim_spread p;
        sim_spread_init(&p, firsts[c], everys[c]);
        CHECK_NEAR(p.len, everys[c] / 5, 0);
        long end = (long)p.first + 37 * (long)p.every + 1234, inside = 0, stretch = 0;
        int ok_stretch = 1, ok_recorded = 1;
        for (long t = 0; t < end; t++) {
            int r = sim_spread_region(&p, (double)t);
            if (t < (long)p.first) {
                ok_recorded &= r == 0;
                continue;
            }
            inside += r == 1;
            stretch += r == 1;
            /* each whole stretch holds exactly one window's cycles */
            if ((t - (long)p.first) % (long)p.every == (long)p.every - 1) {
                ok_stretch &= stretch == (long)p.len;
                stretch = 0;
            }
            /* at every cycle, the recorded count so far is the function's */
            if (t % 97 == 0)
                ok_recorded &= sim_spread_recorded(&p, (double)t + 1) == (double)inside;
        }
        CHECK(ok_stretch);
        CHECK(ok_recorded);
        CHECK_NEAR(sim_spread_recorded(&p, (double)end), (double)inside, 0);
        /* a fifth of the run after the first window, give or take part of one window */
        CHECK_NEAR(sim_spread_recorded(&p, (double)end), (end - p.first) / 5, p.len);
        CHECK_NEAR(sim_spread_recorded(&p, p.first), 0, 0);
    }
    /* the windows start at different offsets in their stretches (no alias
     * with a loop whose period divides the stride) */
    sim_spread p;
    sim_spread_init(&p, 0, 2500);
    int starts[8], distinct = 0;
    for (int k = 0; k < 8; k++) {
        int t = k * 2500;
        while (sim_spread_region(&p, t) != 1)
            t++;
        starts[k] = t - k * 2500;
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= starts[j] == starts[k];
        distinct += !seen;
    }
    CHECK(distinct == 8);
    /* no later windows without a stride */
    sim_spread_init(&p, 100, 0);
    CHECK(sim_spread_region(&p, 50) == 0 && sim_spread_region(&p, 150) == 2);
    CHECK_NEAR(sim_spread_recorded(&p, 1000), 0, 0);
}

static void test_diff(void)
{
    sim_idle_hist *before = calloc(2, sizeof *before), *now = before + 1;
    /* 5-cycle periods: 3 reads before, 10 now; writes 1 -> 1; dead 0 -> 4;
     * 3000-cycle periods (a log2 bin, 2049..4096): 2 reads gained */
    int b5 = sim_idle_bin(5), b3k = sim_idle_bin(3000);
    before->bin[SIM_NEXT_READ][b5].count = 3;
    now->bin[SIM_NEXT_READ][b5].count = 10;
    before->bin[SIM_NEXT_WRITE][b5].count = now->bin[SIM_NEXT_WRITE][b5].count = 1;
    now->bin[SIM_NEXT_DEAD][b5].count = 4;
    now->bin[SIM_NEXT_READ][b3k].count = 2;
    trapeze_idle_hist *h = calloc(1, sizeof *h);
    trapeze_idle_hist_init(h, "g", "k", "rf", "warp_reg");
    unsigned live = 1u << SIM_NEXT_READ | 1u << SIM_NEXT_WRITE;
    sim_idle_export_add_diff(h, now, before, 2.5, live);
    uint64_t lo, hi;
    sim_idle_bin_range(b3k, &lo, &hi);
    int k5 = trapeze_idle_bucket(5), k3k = trapeze_idle_bucket((double)lo);
    CHECK_NEAR(h->count[TRAPEZE_NEXT_READ][k5], 2.5 * 7, 0);
    CHECK_NEAR(h->count[TRAPEZE_NEXT_WRITE][k5], 0, 0);
    CHECK_NEAR(h->count[TRAPEZE_NEXT_DEAD][k5], 0, 0);   /* not asked for */
    CHECK_NEAR(h->count[TRAPEZE_NEXT_READ][k3k], 2.5 * 2, 0);
    CHECK_NEAR(trapeze_idle_hist_periods(h, -1), 2.5 * 9, 1e-12);
    /* then the dead ones alone, weight 1, added to what is there */
    sim_idle_export_add_diff(h, now, before, 1, 1u << SIM_NEXT_DEAD);
    CHECK_NEAR(h->count[TRAPEZE_NEXT_DEAD][k5], 4, 0);
    CHECK_NEAR(trapeze_idle_hist_periods(h, -1), 2.5 * 9 + 4, 1e-12);
    free(before);
    free(h);
}

/* The inclusion share against brute force: over 600 stretches, the share
 * of end cycles e (the period's idle cycles [e - L, e), e its next access)
 * at which [e - L, e] meets a later window's cycle; from len / every (L =
 * 0) to 1 (L beyond the longest gap), and exactly (len + L) / every below
 * the shortest gap. */
static void test_inclusion(void)
{
    sim_spread *p = malloc(sizeof *p);
    sim_spread_init(p, 1000, 2500);
    long end = 1000 + 600 * 2500;
    long *in = calloc((size_t)end + 1, sizeof *in);   /* in[t]: window cycles in [0, t) */
    for (long t = 0; t < end; t++)
        in[t + 1] = in[t] + (sim_spread_region(p, (double)t) == 1);
    const long lens[] = {0, 1, 100, 700, 1200, 1500, 2000, 2600, 3000, 3300, 5000};
    double worst = 0;
    for (int i = 0; i < (int)(sizeof lens / sizeof lens[0]); i++) {
        long L = lens[i], hit = 0, n = 0;
        for (long e = 1000 + L; e < end - 1; e++, n++)
            hit += in[e + 1] - in[e - L] > 0;
        double d = fabs((double)hit / (double)n - sim_spread_inclusion(p, (double)L));
        worst = d > worst ? d : worst;
    }
    CHECK(worst < 0.003);
    CHECK_NEAR(sim_spread_inclusion(p, 0), 0.2, 1e-4);
    CHECK_NEAR(sim_spread_inclusion(p, 100), 600.0 / 2500, 1e-4);
    CHECK_NEAR(sim_spread_inclusion(p, 5000), 1, 0);
    /* the middle is below the uniform-offset (L + len) / every: windows
     * close together cover less */
    CHECK(sim_spread_inclusion(p, 2000) < 0.9);
    free(in);
    free(p);
}

/* A diff weighted by each bin's mean length: two 3000-cycle-bin periods of
 * 2500 and 3500 cycles (mean 3000) at weight 1 / (1 + length / 1000). */
static double by_length(const void *ctx, double length)
{
    (void)ctx;
    return 1 / (1 + length / 1000);
}

static void test_diff_by(void)
{
    sim_idle_hist *before = calloc(2, sizeof *before), *now = before + 1;
    int b = sim_idle_bin(3000);
    CHECK(sim_idle_bin(2500) == b && sim_idle_bin(3500) == b);
    now->bin[SIM_NEXT_READ][b].count = 2;
    now->bin[SIM_NEXT_READ][b].sum = 6000;
    trapeze_idle_hist *h = calloc(1, sizeof *h);
    trapeze_idle_hist_init(h, "g", "k", "l1d", "line");
    sim_idle_export_add_diff_by(h, now, before, by_length, NULL, 1u << SIM_NEXT_READ);
    CHECK_NEAR(trapeze_idle_hist_periods(h, -1), 2 * 0.25, 1e-12);
    free(before);
    free(h);
}

int main(void)
{
    test_geometry();
    test_diff();
    test_inclusion();
    test_diff_by();
    return check_report("test_sleep_spread");
}
