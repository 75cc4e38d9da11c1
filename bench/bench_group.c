/*
 * bench_group.c - the grouping optimizer's wall time on a 16,384-TB grid:
 * the 2048 x 2048 Jacobi stencil in 16 x 16 blocks (128 x 128 TBs) on the
 * GTX 480, its locality graph built by the simulator's analysis, one
 * prediction of round-robin's grouping, and the whole optimization
 * (relaxation, rounding, refinement, round-robin as the default candidate),
 * the soft assignment and Chen's dispatch decided before launch.
 */
#include <stdio.h>

#include "bench/bench_common.h"
#include "trapeze.h"

int main(void)
{
    trapeze_error err;
    char *params[] = {"nx=2048", "ny=2048", "bx=16", "by=16"};
    double t0 = now();
    trapeze_group_problem *pb = NULL;
    if (trapeze_group_problem_builtin("data/gpus/gtx480.config", "jacobi", params, 4, 0, &pb,
                                      &err)) {
        fprintf(stderr, "bench_group: %s\n", err.message);
        return 1;
    }
    double t1 = now();
    const trapeze_locality_graph *g = trapeze_group_problem_graph(pb);
    const trapeze_group_machine *mc = trapeze_group_problem_machine(pb);
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    trapeze_group_model *m = NULL;
    trapeze_grouping rr, best;
    trapeze_group_eval e;
    trapeze_group_choice ch;
    const char *names[1] = {"rr"};
    int rc = 1;
    if (trapeze_group_create(g, mc, &p, &m, &err) || trapeze_group_rr(m, &rr, &err))
        goto out;
    double t2 = now();
    if (trapeze_group_evaluate(m, &rr, &e, &err))
        goto out;
    double t3 = now();
    if (trapeze_group_optimize(m, &rr, names, NULL, 1, 0.01, &best, &ch, &err))
        goto out;
    double t4 = now();
    printf("jacobi 2048x2048, %ld TBs, %ld edges, %d SMs x %d TBs\n", g->n_tbs, g->n_edges,
           mc->n_sm, mc->tbs_per_sm);
    printf("locality graph and machine: %8.3f s\n", t1 - t0);
    printf("model create:               %8.3f s\n", t2 - t1);
    printf("one prediction (rr):        %8.3f s\n", t3 - t2);
    printf("optimize (%d predictions, %d NLopt steps): %8.3f s, chose %s %dx%d\n",
           ch.model_evaluations, ch.nlopt_evaluations, t4 - t3, ch.source, ch.gx, ch.gy);
    trapeze_grouping_free(&best);
    trapeze_group_soft_info si;
    double t5 = now();
    if (trapeze_group_soft(m, &best, &si, &err))
        goto out;
    double t6 = now();
    printf("soft assignment (%d NLopt steps, %d refining moves, %.1f%% of shared data within "
           "queues): %8.3f s\n", si.nlopt_evaluations, si.moves, 100 * si.kept / si.total_shared,
           t6 - t5);
    trapeze_grouping_free(&best);
    double t7 = now();
    if (trapeze_locality_chen_grouping(g, mc->n_sm, mc->tbs_per_sm, &best, &err))
        goto out;
    double t8 = now();
    printf("chen-static (Chen's dispatch decided before launch): %8.3f s, %.1f%% of shared data "
           "within queues\n", t8 - t7, 100 * trapeze_group_kept_shared(m, &best) / si.total_shared);
    trapeze_grouping_free(&best);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "bench_group: %s\n", err.message);
    trapeze_grouping_free(&rr);
    trapeze_group_destroy(m);
    trapeze_group_problem_destroy(pb);
    return rc;
}
