/*
 * sleep_sample.c - the idle periods the sleep model reads, from a
 * simulation: runs a built-in kernel on a fresh simulator with its power
 * description, every structure always on (so that no policy moves the
 * periods), and turns the simulator's histograms (sim/events.h) into the
 * neutral trapeze_idle_hist, one per unit kind, the kernels of the run
 * summed (one policy serves them all). Joins sim/ and model/'s types; owns
 * no model and no format.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/idle_hist.h"
#include "sim/core/gpu_sim.h"
#include "sim/power/sleep.h"

#define MAX_LAUNCHES 4096

static const struct {
    sim_unit_kind kind;
    const char *structure, *granularity;
} units[] = {{SIM_UNIT_L1_LINE, "l1d", "line"}, {SIM_UNIT_L1_BANK, "l1d", "bank"},
             {SIM_UNIT_L2_LINE, "l2", "line"},  {SIM_UNIT_L2_BANK, "l2", "slice"},
             {SIM_UNIT_REG, "rf", "warp_reg"},  {SIM_UNIT_REG_BANK, "rf", "bank"}};
#define NUNITS ((int)(sizeof units / sizeof units[0]))


trapeze_status trapeze_sleep_sample_builtin(const trapeze_config *cfg, const trapeze_power *pw,
                                            const char *kernel, int argc, char **argv,
                                            trapeze_idle_hist **out, int *n, double *cycles,
                                            trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    *cycles = 0;
    const sim_builtin *b = sim_builtin_find(kernel);
    if (!b)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s' (trapeze sim --list)",
                            kernel);
    long p[SIM_BUILTIN_MAX_PARAMS];
    trapeze_status s = sim_builtin_params(b, argc, argv, p, err);
    if (s)
        return s;
    sim_sleep_config always_on;
    sim_gpu_options opt;
    sampler_idle_options(pw, &always_on, &opt);
    sim_gpu *g = NULL;
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    trapeze_idle_hist *h = calloc(NUNITS, sizeof *h);
    int nk = 0;
    if (!ks || !h)
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    else if (!(s = sim_gpu_create(cfg, &opt, &g, err)))
        s = b->build(sim_gpu_config(g), p, ks, MAX_LAUNCHES, &nk, err);
    for (int i = 0; !s && i < nk; i++) {
        sim_kernel_stats st;
        memset(&st, 0, sizeof st);
        if (!(s = sim_gpu_run(g, ks[i], &st, err)))
            *cycles += (double)st.cycles;
        sim_kernel_stats_free(&st);
    }
    if (!s) {
        for (int u = 0; u < NUNITS; u++)
            trapeze_idle_hist_init(&h[u], sim_gpu_config(g)->gpu.name, kernel, units[u].structure,
                                   units[u].granularity);
        for (int i = 0; i < sim_gpu_idle_count(g); i++) {
            const sim_idle_hist *kinds = sim_gpu_idle(g, i, NULL);
            for (int u = 0; u < NUNITS; u++)
                sampler_idle_hist_add(&h[u], &kinds[units[u].kind]);
        }
        for (int u = 0; u < NUNITS; u++) {
            h[u].cycles = *cycles;
            h[u].requesters = sim_gpu_config(g)->gpu.n_sm;
        }
    }
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    free(ks);
    sim_gpu_destroy(g);
    if (s) {
        free(h);
        return s;
    }
    *out = h;
    *n = NUNITS;
    return TRAPEZE_OK;
}
