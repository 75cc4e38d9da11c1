/*
 * slowest.c - a sample window's cycles at its slowest SM's pace
 * (slowest.h): what the cache decision predicts from, since a launch whose
 * blocks are all resident at once ends with its slowest SM, and a policy
 * that lets some SMs race ahead through a window leaves the run to the
 * ones it held back. Reads a launch's statistics; must not run anything.
 */
#include "sampler/cache/slowest.h"

double trapeze_cache_slowest_cycles(const sim_kernel_stats *st)
{
    double cycles = (double)st->cycles;
    if (!st->windowed || st->blocks > st->resident_blocks_per_sm * (uint64_t)st->n_sm)
        return cycles;
    double insts = 0, blocks = 0, slowest = -1;
    for (int i = 0; i < st->n_sm; i++) {
        const sim_sm_stats *sm = &st->sm[i];
        if (!sm->max_resident_blocks)
            continue;
        double pace = (double)sm->warp_insts / (double)sm->max_resident_blocks;
        insts += (double)sm->warp_insts;
        blocks += (double)sm->max_resident_blocks;
        if (slowest < 0 || pace < slowest)
            slowest = pace;
    }
    /* an SM that issued nothing yet gives no pace to scale by */
    return slowest > 0 ? cycles * (insts / blocks) / slowest : cycles;
}
