/*
 * idle_hist.c - the simulator's idle-period histograms (sim/power) in the
 * model's buckets (trapeze_idle_hist): one conversion for every sampler
 * that measures idle periods (sleep_sample.c, gz_energy_sample.c). Owns the
 * conversion only.
 */
#include "sampler/idle_hist.h"

void sampler_idle_hist_add(trapeze_idle_hist *h, const sim_idle_hist *s)
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
