/*
 * kernels_divergent.h - built-in kernels with branch and memory divergence
 * (kernels_divergent.c): a K-means assignment step and a branchy 3x3
 * filter, the analogues of the Dynamic Warp Subdivision benchmarks KMeans
 * and Filter. SIM_DIVERGENT_BUILTINS expands to their entries in the
 * built-in table of kernels.c.
 */
#ifndef TRAPEZE_SIM_CORE_KERNELS_DIVERGENT_H
#define TRAPEZE_SIM_CORE_KERNELS_DIVERGENT_H

#include "sim/core/gpu_sim.h"

#define SIM_DIVERGENT_BUILD(name)                                                       \
    trapeze_status name(const sim_core_config *c, const long *p, sim_kernel **ks, int max,   \
                        int *count, trapeze_error *err)
SIM_DIVERGENT_BUILD(sim_div_kmeans);
SIM_DIVERGENT_BUILD(sim_div_filter);

#define SIM_DIVERGENT_BUILTINS                                                          \
    {"kmeans", "K-means assignment: nearest of k centroids per point (divergent branch "  \
     "per centroid, re-read point rows)",                                                \
     {{"points", 30000, "points (one thread each)"}, {"dims", 8, "features per point"},  \
      {"k", 8, "centroids"}, {"warps", 8, "warps per block"}},                       \
     sim_div_kmeans},                                                                    \
    {"filter", "3x3 gather filter on an image, half of each warp on a gather path",       \
     {{"w", 512, "image columns"}, {"h", 512, "image rows"}}, sim_div_filter}

#endif
