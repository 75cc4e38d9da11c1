/*
 * slowest.h - the cache decision's samples judged at their slowest SM's
 * pace (sampler/cache/cache_sample.c): a window of a launch whose blocks
 * are all resident at once ends, in the whole run, with its slowest SM.
 * The samples themselves are cache_sample.c's.
 */
#ifndef TRAPEZE_SAMPLER_CACHE_SLOWEST_H
#define TRAPEZE_SAMPLER_CACHE_SLOWEST_H

#include "common/internal.h"
#include "sim/sim.h"

/* The cycles of a windowed one-wave launch (blocks <= resident blocks per
 * SM x SMs) at its slowest SM's pace: its cycles times the mean warp
 * instructions per resident block over the slowest SM's (SMs that held
 * no block left out). A launch of several waves refills its fast SMs
 * first, and a whole launch has already waited for its slowest: their
 * cycles are returned as they are. */
TRAPEZE_INTERNAL
double trapeze_cache_slowest_cycles(const sim_kernel_stats *st);

#endif
