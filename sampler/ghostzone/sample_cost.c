/*
 * sample_cost.c - the planned work of a ghost-zone sample, in warp
 * instructions estimated from its inputs before it runs, so that progress
 * displays weigh a tall h on a large grid as the hundreds of short ones it
 * costs. Estimates only: nothing here runs a simulation, and no result
 * depends on them.
 */
#include <string.h>

#include "sampler/sampler.h"

/* Micro-benchmarks by block count, per warp of 256-thread blocks (fitted to
 * the GTX 480's logged runs: fma 1281, an empty launch 1, a fence barrier
 * stage 6, a copied float 5.5/32, a pointer-chase step 2). */
static double micro_cost(const trapeze_sample *s)
{
    double size = s->data_len[0], warps = (s->blk_len > 0 ? s->blk_len : 256) / 32.0;
    const char *m = s->workload;
    if (!strcmp(m, "fma"))
        return size * warps * 1281;
    if (!strcmp(m, "empty"))
        return size * warps * (s->stages + 1);
    if (!strcmp(m, "fencebar"))
        return size * warps * 6.0 * (s->stages + 2);
    if (!strcmp(m, "copy"))
        return size / 32 * 5.5;
    return 2 * size; /* chase */
}

double trapeze_ghostzone_sample_cost(const trapeze_ghostzone_plan *plan, const trapeze_sample *s)
{
    if (!strcmp(s->kind, SAMPLER_KIND_MICRO))
        return micro_cost(s);
    const trapeze_workload *base = sampler_workload(plan, s->workload);
    if (!base)
        return 1; /* not this plan's: weighs as little as a row can */
    trapeze_workload w;
    sampler_resize(base, s->data_len, &w);
    /* sample_run.c: a profiling row runs its stages; relaunch a warm-up and
     * the stages; fence the warm-up and the stages, then the warm-up alone */
    int runs = !strcmp(s->kind, SAMPLER_KIND_PROFILE) ? s->stages
               : s->sync == TRAPEZE_SYNC_FENCE       ? s->stages + 2
                                                     : s->stages + 1;
    return sampler_stage_cost(&w, s->h) * runs;
}
