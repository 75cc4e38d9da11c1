/*
 * bench_model.c - speed of the ghost-zone model: evaluations per CPU second
 * on the optimizer's path (gradient in h and blk_len) and on the fit's (every
 * partial), each beside its target, and the wall time of one full
 * optimization of the dissertation's four benchmarks in both sync modes.
 * Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <time.h>

#include "trapeze.h"
#include "bench/bench_common.h"
#include "model/ghostzone.h"

int main(void)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_ghostzone_params p;
    trapeze_error err;
    trapeze_ghostzone_model *models[4];
    double sink = 0;
    if (trapeze_config_load("data/gpus/gtx280.config", &cfg, &err) ||
        trapeze_gpu_from_config(cfg, &gpu, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    trapeze_config_destroy(cfg);
    trapeze_ghostzone_params_default(&p);
    for (int i = 0; i < 4; i++) {
        char path[128];
        trapeze_workload w;
        snprintf(path, sizeof path, "data/workloads/%s.ini", names[i]);
        if (trapeze_workload_load(path, &w, &err) ||
            trapeze_ghostzone_create(&gpu, &w, &p, &models[i], &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
    }

    /* CPU time: the figures are per CPU second, whatever else shares the machine */
    static const struct {
        const char *what;
        gz_gradient grad;
        double target;
    } paths[] = {
        {"optimizer's path (CPL + gradient in h and blk)", GZ_GRAD_HB, 3.0},
        {"the fit's path (CPL + gradient in h, blk and every parameter)", GZ_GRAD_PARAMS, 1.0},
    };
    for (int i = 0; i < 2; i++) {
        long n = 0;
        double t0 = cpu_now(), t;
        do {
            for (int k = 0; k < 10000; k++, n++) {
                trapeze_ghostzone_eval e;
                const trapeze_ghostzone_model *m = models[n % 4];
                gz_evaluate_at(m, gz_param_values(m), (trapeze_sync)(n & 1), 1.0 + (k % 3), 8,
                               paths[i].grad, &e, NULL);
                sink += e.cpl + e.dcpl_dh;
            }
            t = cpu_now() - t0;
        } while (t < 1.0);
        printf("model evaluations, %s: %.2f million per CPU second (target %.0f; %ld in %.2f s)\n",
               paths[i].what, n / t / 1e6, paths[i].target, n, t);
    }

    int rounds = 0, evals = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 4; i++)
            for (int s = 0; s < 2; s++) {
                trapeze_ghostzone_optimum o;
                trapeze_ghostzone_optimize(models[i], (trapeze_sync)s, 0, &o, NULL);
                evals += o.evaluations;
                sink += o.cpl_floor;
            }
        rounds++;
        t = now() - t0;
    } while (t < 1.0);
    printf("full optimization of the 4 benchmarks x 2 sync modes (NLopt MMA + integer argmin): %.3f ms (%d NLopt evaluations)\n",
           1e3 * t / rounds, evals / rounds);
    for (int i = 0; i < 4; i++)
        trapeze_ghostzone_destroy(models[i]);
    return sink == 0; /* keeps the work observable */
}
