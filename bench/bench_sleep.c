/*
 * bench_sleep.c - speed of the sleep-threshold model: evaluations (saving
 * and penalty with their gradients in every threshold) per second over a
 * histogram with every bucket filled, and the wall time of one threshold
 * optimization (all starts, whole-cycle step) per structure as `trapeze
 * sleep` runs it, and the wall time of one whole `trapeze sleep` on a
 * built-in kernel: its 20000-cycle window simulated, then fit and
 * optimization of all six histograms (L1D line and bank, L2 line and
 * slice, RF warp register and bank). Prints figures; asserts nothing.
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
    trapeze_sleep_options_init(&o);
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

/* `trapeze sleep --gpu GPU KERNEL` through the library, timed in its parts. */
static int command(const char *gpu, const char *spec)
{
    char path[128];
    trapeze_config *cfg = NULL;
    trapeze_gpu g;
    trapeze_power pw;
    trapeze_error err;
    static trapeze_sleep_job job;
    static trapeze_sleep_run r;
    snprintf(path, sizeof path, "data/gpus/%s.config", gpu);
    int rc = trapeze_config_load(path, &cfg, &err) || trapeze_gpu_from_config(cfg, &g, &err);
    snprintf(path, sizeof path, "data/power/%s.ini", gpu);
    rc = rc || trapeze_power_load(path, &pw, &err) ||
         trapeze_sleep_job_parse(spec, NULL, &job, &err);
    double t0 = now(), sink = 0;
    rc = rc || trapeze_sleep_window(cfg, &pw, &job, 20000, 0, &r, &err);
    double t1 = now();
    int evals = 0;
    double fit_s = 0;
    static const int structure[] = {TRAPEZE_PS_L1D, TRAPEZE_PS_L1D, TRAPEZE_PS_L2,
                                    TRAPEZE_PS_L2, TRAPEZE_PS_RF, TRAPEZE_PS_RF};
    for (int u = 0; !rc && u < TRAPEZE_SLEEP_NUNITS; u++) {
        trapeze_sleep_structure st;
        trapeze_sleep_options o;
        trapeze_idle_fit fit;
        static trapeze_idle_hist smooth;
        trapeze_sleep_model *m = NULL;
        trapeze_sleep_choice c;
        rc = trapeze_sleep_structure_from_power(&pw, (trapeze_power_structure)structure[u],
                                                g.core_clock_hz, &st, &err);
        if (!rc) {
            trapeze_sleep_options_preset((trapeze_power_structure)structure[u], &st, &o);
            double tf = now();
            rc = trapeze_idle_hist_fit(&r.hist[u], 8, 50, &fit, &smooth, &err);
            fit_s += now() - tf;
            rc = rc || trapeze_sleep_create(&st, &r.hist[u], &o, &m, &err) ||
                 trapeze_sleep_optimize(m, 0.01, &c, &err);
        }
        if (!rc) {
            evals += c.evaluations;
            sink += c.chosen.saving_fraction + fit.ks_all;
        }
        trapeze_sleep_destroy(m);
    }
    double t2 = now();
    trapeze_config_destroy(cfg);
    if (rc) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    printf("trapeze sleep --gpu %s %s: %.3f s wall: window of %.0f cycles simulated %.3f s, "
           "6 histograms: fits %.1f ms, models and optimizations %.1f ms (%d evaluations)\n",
           gpu, spec, t2 - t0, r.cycles, t1 - t0, 1e3 * fit_s, 1e3 * (t2 - t1 - fit_s), evals);
    return sink == 12345.678;
}

/* The three samples of one long run, timed: the first window alone, the
 * default (a jump sample where it costs under half the run) and the
 * spread sample (--no-jump: the run simulated through). */
static int samples(const char *gpu, const char *spec)
{
    char path[128];
    trapeze_config *cfg = NULL;
    trapeze_power pw;
    trapeze_error err;
    static trapeze_sleep_job job;
    static trapeze_sleep_run r;
    snprintf(path, sizeof path, "data/gpus/%s.config", gpu);
    int rc = trapeze_config_load(path, &cfg, &err);
    snprintf(path, sizeof path, "data/power/%s.ini", gpu);
    rc = rc || trapeze_power_load(path, &pw, &err) ||
         trapeze_sleep_job_parse(spec, NULL, &job, &err);
    static const struct { const char *name; double spread; } kind[] = {
        {"first window (--spread 0)", 0},
        {"default (jump where cheaper)", -TRAPEZE_SLEEP_SPREAD_DEFAULT},
        {"spread (--no-jump)", TRAPEZE_SLEEP_SPREAD_DEFAULT}};
    for (int k = 0; !rc && k < 3; k++) {
        double t0 = now();
        rc = trapeze_sleep_window(cfg, &pw, &job, 20000, kind[k].spread, &r, &err);
        if (!rc)
            printf("  %s %s, %s: %.3f s wall, %.0f warp instructions, %s\n", gpu, spec,
                   kind[k].name, now() - t0, r.warp_insts,
                   r.jumped ? "a jump sample" : r.cut ? "cut" : "simulated through");
    }
    trapeze_config_destroy(cfg);
    if (rc)
        fprintf(stderr, "%s\n", err.message);
    return rc != 0;
}

int main(void)
{
    int rc = run("rf", TRAPEZE_SLEEP_LOOKAHEAD) | run("l1d", TRAPEZE_SLEEP_TIMEOUT) |
             command("gtx480", "matmul n=128") | command("v100", "gesummv n=512");
    printf("the samples of a long run (946184 cycles whole on the GTX 480):\n");
    return rc | samples("gtx480", "gesummv n=512");
}
