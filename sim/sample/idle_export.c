/*
 * idle_export.c - the simulator's idle-period histograms (sim/power) in the
 * model's buckets (trapeze_idle_hist): one conversion for every sampler
 * that measures idle periods (window.c; sampler/gz_energy/gz_energy_sample.c
 * through sim/sim.h), and the GPU options such a measurement runs with.
 * Owns those two only.
 */
#include <string.h>

#include "sim/sample/idle_export.h"

void sim_idle_export_add(trapeze_idle_hist *h, const sim_idle_hist *s)
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

void sim_idle_export_add_diff_by(trapeze_idle_hist *h, const sim_idle_hist *now,
                                   const sim_idle_hist *before,
                                   double (*weight)(const void *ctx, double length),
                                   const void *ctx, unsigned next_mask)
{
    for (int b = 0; b < SIM_IDLE_BINS; b++)
        for (int x = 0; x < SIM_NEXT_COUNT; x++) {
            uint64_t n = now->bin[x][b].count - before->bin[x][b].count;
            if (!n || !(next_mask >> x & 1))
                continue;
            uint64_t lo, hi;
            sim_idle_bin_range(b, &lo, &hi);
            int k = trapeze_idle_bucket((double)lo);
            double mean = (double)(now->bin[x][b].sum - before->bin[x][b].sum) / (double)n;
            if (k >= 0)
                h->count[x][k] += weight(ctx, mean) * (double)n;
        }
}

static double constant(const void *ctx, double length)
{
    (void)length;
    return *(const double *)ctx;
}

void sim_idle_export_add_diff(trapeze_idle_hist *h, const sim_idle_hist *now,
                                const sim_idle_hist *before, double weight, unsigned next_mask)
{
    sim_idle_export_add_diff_by(h, now, before, constant, &weight, next_mask);
}

void sim_idle_window_options(const trapeze_power *pw, sim_sleep_config *always_on,
                          sim_gpu_options *opt)
{
    memset(always_on, 0, sizeof *always_on);   /* SIM_SLEEP_ALWAYS_ON everywhere */
    memset(opt, 0, sizeof *opt);
    opt->power = pw;
    opt->sleep = always_on;
    opt->keep_idle = 1;
}
