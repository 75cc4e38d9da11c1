/*
 * gpu_window.h - the whole-GPU windows' arithmetic (sampler/group/gpu_window.c):
 * how many TBs a queue a window holds under its part of the samples'
 * budget, and how its measured cycles correct the model's prediction of
 * the whole launch. The windows themselves are group_window.c's, their
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

/* The correction of a candidate's whole-launch cycles: its window's
 * measured cycles over the model's prediction of the same window at DRAM
 * contention beta, sim_w / C(norm_w, tg_w, beta); 1 where either is not
 * positive (no window). */
TRAPEZE_INTERNAL
double trapeze_group_gpu_window_factor(double sim_w, double norm_w, double tg_w, double beta);

#endif
