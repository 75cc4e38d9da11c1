/*
 * gz_energy_sample.c - the samples the energy-aware ghost-zone model is
 * calibrated on: a short window of a stencil workload (a grid of about four
 * waves of tiles, two stages) simulated at one (sync, h) with the GPU's
 * power description, every structure always on, so that its dynamic
 * energy, leakage and idle periods are those the model's counts and the
 * sleep model read. Joins sim/ and the neutral sample struct; owns no
 * model and no format.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/gpu_sim.h"
#include "sim/power/energy.h"
#include "sim/power/sleep.h"
#include "sim/stencil/stencil_run.h"

/* The sleep model's unit of each structure (TRAPEZE_PS_* order). */
static const struct {
    sim_unit_kind kind;
    const char *structure, *granularity;
} units[TRAPEZE_GZE_NSTRUCT] = {{SIM_UNIT_L1_LINE, "l1d", "line"},
                                {SIM_UNIT_L2_LINE, "l2", "line"},
                                {SIM_UNIT_REG, "rf", "warp_reg"}};

void trapeze_gz_energy_window(const trapeze_gpu *gpu, const trapeze_workload *w, int h,
                              trapeze_workload *window)
{
    *window = *w;
    int occ = trapeze_gz_occupancy(gpu, w, w->blk_len);
    double tiles = 4.0 * gpu->n_sm * (occ > 0 ? occ : 1);
    double per_dim = ceil(pow(tiles, 1.0 / w->dims) - 1e-9);
    for (int i = 0; i < w->dims; i++) {
        double edge = w->blk_len - (double)w->halo[i] * h;
        double len = per_dim * (edge > 1 ? edge : 1);
        window->data_len[i] = len < w->data_len[i] ? len : w->data_len[i];
    }
    window->iterations = 2 * h;
}

/* Adds one simulator histogram to h: each bin to the bucket of its range. */
static void add_hist(trapeze_idle_hist *h, const sim_idle_hist *s)
{
    for (int b = 0; b < SIM_IDLE_BINS; b++)
        for (int x = 0; x < SIM_NEXT_COUNT; x++) {
            if (!s->bin[x][b].count)
                continue;
            uint64_t lo, hi;
            sim_idle_bin_range(b, &lo, &hi);
            int k = trapeze_idle_bucket((double)lo);
            if (k >= 0)
                h->count[x][k] += (double)s->bin[x][b].count;
        }
}

static void collect(sim_gpu *g, const sim_stencil_result *r, const trapeze_power *pw,
                    trapeze_gz_energy_sample *out)
{
    const sim_core_config *c = sim_gpu_config(g);
    double cycles = 0;
    for (int i = 0; i < r->n_stats; i++) {
        const sim_energy *e = &r->stats[i].energy;
        cycles += (double)r->stats[i].cycles;
        out->seconds += e->seconds;
        out->dyn_compute_j += e->j[SIM_EN_DYN_CORE] + e->j[SIM_EN_DYN_RF] +
                              e->j[SIM_EN_DYN_SHMEM] + e->j[SIM_EN_DYN_L1D];
        out->dyn_memory_j += e->j[SIM_EN_DYN_L2] + e->j[SIM_EN_DYN_ICNT] + e->j[SIM_EN_DYN_DRAM];
        static const sim_energy_part leak[TRAPEZE_PS_COUNT] = {
            SIM_EN_LEAK_L1D, SIM_EN_LEAK_L2, SIM_EN_LEAK_RF, SIM_EN_LEAK_SHMEM,
            SIM_EN_LEAK_SM_OTHER};
        for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
            out->leak_w[x] += e->j[leak[x]];   /* joules here, watts below */
    }
    for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
        out->leak_w[x] = out->seconds > 0 ? out->leak_w[x] / out->seconds : 0;
    out->cycles = (double)r->cycles;
    out->warp_instructions = (double)r->warp_insts;
    out->constant_w = pw->constant_w;
    out->idle_sm_w = pw->idle_sm_w * c->gpu.n_sm;
    const sim_energy_geometry *geo = sim_gpu_energy_geometry(g);
    for (int u = 0; u < TRAPEZE_GZE_NSTRUCT; u++) {
        trapeze_idle_hist *h = &out->hist[u];
        trapeze_idle_hist_init(h, c->gpu.name, r->stencil && r->n_stats ? r->stats[0].name : "",
                               units[u].structure, units[u].granularity);
        h->cycles = cycles;
        h->requesters = c->gpu.n_sm;
        /* periods run on the run's clock, launch latencies included */
        out->unit_cycles[u] = geo->physical_units[units[u].kind] * (double)r->cycles;
    }
    for (int i = 0; i < sim_gpu_idle_count(g); i++) {
        const sim_idle_hist *kinds = sim_gpu_idle(g, i, NULL);
        for (int u = 0; u < TRAPEZE_GZE_NSTRUCT; u++)
            add_hist(&out->hist[u], &kinds[units[u].kind]);
    }
}

trapeze_status trapeze_gz_energy_sample_run(const trapeze_config *cfg, const trapeze_power *pw,
                                            const trapeze_workload *w, trapeze_sync sync, int h,
                                            trapeze_gz_energy_sample *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    trapeze_gpu gpu;
    trapeze_status s = trapeze_gpu_from_config(cfg, &gpu, err);
    if (s)
        return s;
    trapeze_workload win;
    trapeze_gz_energy_window(&gpu, w, h, &win);
    sim_sleep_config always_on;
    memset(&always_on, 0, sizeof always_on);   /* SIM_SLEEP_ALWAYS_ON everywhere */
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.power = pw;
    opt.sleep = &always_on;
    opt.keep_idle = 1;
    sim_gpu *g = NULL;
    sim_stencil_result *r = NULL;
    sim_stencil_spec spec = {.workload = &win, .h = h, .sync = sync,
                             .iterations = win.iterations};
    if (!(s = sim_gpu_create(cfg, &opt, &g, err)) && !(s = sim_stencil_run(g, &spec, &r, err))) {
        out->sync = sync;
        out->h = h;
        memcpy(out->data_len, win.data_len, sizeof out->data_len);
        out->iterations = r->iterations;
        collect(g, r, pw, out);
    }
    sim_stencil_result_destroy(r);
    sim_gpu_destroy(g);
    return s;
}
