/*
 * gpu_window.h - the whole-GPU windows' arithmetic (sampler/group/gpu_window.c)
 * shared inside the library: how many TBs a queue a window holds under its
 * part of the samples' budget (the correction factor is public,
 * trapeze/group.h). The windows themselves are group_window.c's, their
 * rows group_samples.c's, the decision group_decide.c's.
 */
#ifndef TRAPEZE_SAMPLER_GROUP_GPU_WINDOW_H
#define TRAPEZE_SAMPLER_GROUP_GPU_WINDOW_H

#include "common/internal.h"
#include "trapeze.h"

/* The TBs a queue of g's whole-GPU window holds under `part` warp
 * instructions (graph->warp_insts): the largest k >= 1 whose prefixes
 * (orders 0..k-1 of every queue) hold at most part, else 1; *insts what
 * those k hold (0 and k = 1 where the graph counts none). */
TRAPEZE_INTERNAL
long trapeze_group_gpu_window_tbs(const trapeze_locality_graph *graph, const trapeze_grouping *g,
                                  double part, double *insts);

#endif
