/*
 * gpu_window.c - the whole-GPU windows' arithmetic: the prefix a window
 * takes of every queue under its part of the samples' budget, and the
 * correction its measurement makes to the model's whole-launch cycles.
 * A sub-grid runs one or a few SMs' queues alone, so the model fitted to
 * sub-grids never sees the other SMs' L2 and DRAM traffic; a window runs
 * every queue's first TBs at once, and the ratio of its measured cycles to
 * the model's prediction of that same window carries that contention,
 * grouping by grouping, to the whole launch. Must not simulate or fit:
 * group_samples.c runs the windows, group_decide.c applies the factor.
 */
#include <stdlib.h>

#include "sampler/group/gpu_window.h"

long trapeze_group_gpu_window_tbs(const trapeze_locality_graph *graph, const trapeze_grouping *g,
                                  double part, double *insts)
{
    long longest = 0;
    for (long t = 0; t < g->n_tbs; t++)
        longest = g->order[t] + 1 > longest ? g->order[t] + 1 : longest;
    *insts = 0;
    double *at = graph->warp_insts ? calloc((size_t)longest + 1, sizeof *at) : NULL;
    if (!at)   /* no count (or no memory): the first TBs, as a window of one */
        return 1;
    for (long t = 0; t < g->n_tbs; t++)   /* instructions by position in a queue */
        at[g->order[t]] += (double)graph->warp_insts[t];
    long k = 1;
    double sum = at[0];
    while (k < longest && sum + at[k] <= part)
        sum += at[k++];
    free(at);
    *insts = sum;
    return k;
}

double trapeze_group_gpu_window_factor(double sim_w, double norm_w, double tg_w, double beta)
{
    const double pred = trapeze_group_contention_cycles(norm_w, tg_w, beta);
    return sim_w > 0 && pred > 0 ? sim_w / pred : 1;
}
