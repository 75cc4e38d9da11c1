/*
 * bench_sleep.c - speed of the sleep-threshold model: evaluations (saving
 * and penalty with their gradients in every threshold) per second over a
 * histogram with every bucket filled, and the wall time of one threshold
 * optimization (all starts, whole-cycle step) per structure as `trapeze
 * sleep` runs it. Prints figures; asserts nothing.
 */
#include <math.h>
#include <stdio.h>

#include "trapeze.h"
#include "bench/bench_common.h"

/* Lomax periods in every bucket: the worst case for an evaluation. */
static void fill(trapeze_idle_hist *h, const char *structure)
{
    trapeze_idle_hist_init(h, "gtx480", "bench", structure, "line");
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            double lo, hi;
            trapeze_idle_bucket_range(b, &lo, &hi);
            double s0 = b == 0 ? 1 : pow(1 + (lo - 0.5) / (20.0 + 30 * a), -1.3);
            h->count[a][b] = 1e6 * (s0 - pow(1 + (hi + 0.5) / (20.0 + 30 * a), -1.3));
        }
}

static int run(const char *structure, trapeze_sleep_policy policy)
{
    static trapeze_idle_hist h;
    trapeze_sleep_structure st;
    trapeze_sleep_options o;
    trapeze_sleep_model *m;
    trapeze_error err;
    fill(&h, structure);
    trapeze_sleep_options_default(&o);
    o.policy = policy;
    /* trapeze sleep's presets: Slumber (deep and gated on countdowns),
     * Snooze (gated only when dead) */
    o.exact_wake = policy == TRAPEZE_SLEEP_LOOKAHEAD ? 6 : 0;
    o.gate_writes = policy == TRAPEZE_SLEEP_LOOKAHEAD;
    if (trapeze_sleep_structure_default(structure, &st, &err) ||
        trapeze_sleep_create(&st, &h, &o, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    long n = 0;
    double sink = 0, t0 = now(), t;
    do {
        for (int k = 0; k < 1000; k++, n++) {
            double theta[3] = {2 + k % 7, 13 + k % 5, 16 + k % 9};
            trapeze_sleep_eval e;
            trapeze_sleep_evaluate(m, theta, 1, &e, NULL);
            sink += e.saving_fraction + e.dsaving[0];
        }
        t = now() - t0;
    } while (t < 1.0);
    printf("%s, %s, %d modes, %d buckets x 3 kinds: %.0f thousand evaluations/s (value + "
           "gradient)\n", structure, trapeze_sleep_policy_name(policy), st.n_modes,
           TRAPEZE_IDLE_NBUCKETS, n / t / 1e3);
    int rounds = 0, evals = 0;
    t0 = now();
    do {
        trapeze_sleep_choice c;
        trapeze_sleep_optimize(m, 0.01, &c, NULL);
        evals += c.evaluations;
        sink += c.chosen.saving_fraction;
        rounds++;
        t = now() - t0;
    } while (t < 1.0);
    printf("  one optimization (%d starts): %.2f ms, %d evaluations\n", 11, 1e3 * t / rounds,
           evals / rounds);
    trapeze_sleep_destroy(m);
    return sink == 12345.678;   /* keeps the loops */
}

int main(void)
{
    return run("rf", TRAPEZE_SLEEP_LOOKAHEAD) | run("l1d", TRAPEZE_SLEEP_TIMEOUT);
}
