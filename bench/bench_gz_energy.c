/*
 * bench_gz_energy.c - speed of the energy-aware ghost-zone model: energy
 * evaluations (value and h-gradient, the time model inside) per second,
 * and the wall time of one `ghostzone --objective energy` workload split
 * into its six simulated samples, the sleep thresholds chosen on their
 * simulated histograms (one `trapeze sleep` optimization per structure and
 * sample) and the calibration and ranking. Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trapeze.h"
#include "bench/bench_common.h"

#define WORKLOAD "data/validation/gz-energy/tiny1d.ini"

int main(void)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    trapeze_gpu gpu;
    trapeze_power pw;
    trapeze_ghostzone_params p;
    trapeze_workload w;
    trapeze_ghostzone_model *m = NULL;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err) ||
        trapeze_gpu_from_config(cfg, &gpu, &err) ||
        trapeze_power_load("data/power/gtx480.ini", &pw, &err) ||
        trapeze_ghostzone_params_load("data/calibrations/gtx480.ini", &p, &err) ||
        trapeze_workload_load(WORKLOAD, &w, &err) || trapeze_ghostzone_create(&gpu, &w, &p, &m, &err)) {
        fprintf(stderr, "bench_gz_energy: %s\n", err.message);
        return 1;
    }
    trapeze_sync modes[2] = {TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE};
    int heights[3], nh = trapeze_ghostzone_energy_sample_heights(m, heights), ns = 0;
    trapeze_ghostzone_energy_sample *s = calloc(6, sizeof *s);
    trapeze_ghostzone_sleep sl[6];
    double t0 = now();
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < nh; j++)
            if (trapeze_ghostzone_energy_sample_run(cfg, &pw, &w, modes[k], heights[j], &s[ns++], &err)) {
                fprintf(stderr, "bench_gz_energy: %s\n", err.message);
                return 1;
            }
    double t1 = now();
    for (int i = 0; i < ns; i++)
        if (trapeze_ghostzone_energy_sleep(&pw, gpu.core_clock_hz, &s[i], 0.01, &sl[i], &err))
            return 1;
    double t2 = now();
    trapeze_ghostzone_energy_coef c;
    trapeze_ghostzone_energy_eval *e = NULL;
    int n, best[3];
    if (trapeze_ghostzone_energy_calibrate(m, &p, s, ns, &c, &err) ||
        trapeze_ghostzone_energy_rank(m, &c, s, sl, ns, modes, 2, &e, &n, best, &err)) {
        fprintf(stderr, "bench_gz_energy: %s\n", err.message);
        return 1;
    }
    double t3 = now();
    printf("ghostzone --objective energy, Tiny1D on the GTX 480 (%d candidates):\n", n);
    printf("  %d samples simulated: %.2f s\n", ns, t1 - t0);
    printf("  sleep thresholds on their histograms (%d trapeze sleep optimizations): %.1f ms\n",
           3 * ns, 1e3 * (t2 - t1));
    printf("  calibration and ranking: %.2f ms\n", 1e3 * (t3 - t2));
    /* evaluations per second: value and d/dh at a sweep of real heights */
    int hmax = trapeze_ghostzone_max_height(m, w.blk_len), evals = 0;
    double sink = 0, t4 = now();
    while (now() - t4 < 0.5)
        for (int i = 0; i < 1000; i++, evals++) {
            trapeze_ghostzone_energy_eval ev;
            double h = 1 + (hmax - 1.5) * (i / 1000.0);
            if (trapeze_ghostzone_energy_evaluate(m, &c, &sl[0], modes[i & 1], h, &ev, &err))
                return 1;
            sink += ev.denergy_dh;
        }
    double dt = now() - t4;
    printf("  energy model: %.0f thousand evaluations/s (value + d/dh)%s\n", evals / dt / 1e3,
           sink == 12345 ? " " : "");
    free(e);
    free(s);
    trapeze_ghostzone_destroy(m);
    trapeze_config_destroy(cfg);
    return 0;
}
