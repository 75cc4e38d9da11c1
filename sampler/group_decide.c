/*
 * group_decide.c - the grouping decision of one launch, shared by `trapeze
 * group` and `trapeze validate --model group`: the model's constants fitted
 * to the simulated policies with a fixed grouping (or given), the optimizer
 * run with those policies as candidates (their measured cycles rank them;
 * chen-static, Chen's dispatch decided before launch, beside them),
 * the chosen grouping simulated when it is not one of them, and every
 * policy predicted. Owns the sequence only: the model is model/group*.c,
 * the simulations group_problem.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "trapeze.h"

const char *const trapeze_group_policy_names[TRAPEZE_GROUP_NPOLICIES] = {
    "rr", "bcs", "chen", "mst", "kway", "rbts", "optimized"};

/* The candidates (policies with a fixed grouping) and their rows; after
 * them Chen's dispatch decided before launch, which no policy runs. */
#define N_CAND 5
static const char *const cand_names[N_CAND + 1] = {"rr", "bcs", "mst", "kway", "rbts",
                                                   "chen-static"};
static const int row_of_cand[N_CAND] = {0, 1, 3, 4, 5};
#define CHEN_STATIC N_CAND

/* With five samples: the L1 and DRAM scales and the four times; the
 * sharing shapes (eta2, retain2, theta) and omega keep their values. */
const unsigned long trapeze_group_fit_mask_default =
    TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_MU) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_ETA1) |
    TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_NU) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_CWAVE) |
    TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TL2) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TDRAM) |
    TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TSM);

void trapeze_group_outcome_free(trapeze_group_outcome *o)
{
    if (o) {
        trapeze_grouping_free(&o->grouping);
        trapeze_grouping_free(&o->model_grouping);
    }
}

/* The run of the candidate named source (a policy's row of sim, or
 * chen-static's), NULL when it has none (tiles, soft, nothing simulated). */
static const trapeze_group_measured *run_of(const trapeze_group_measured *sim,
                                            const trapeze_group_outcome *out, const char *source)
{
    for (int c = 0; sim && c < N_CAND; c++)
        if (!strcmp(source, cand_names[c]))
            return &sim[row_of_cand[c]];
    if (out->chen_static_simulated && !strcmp(source, cand_names[CHEN_STATIC]))
        return &out->chen_static_sim;
    return NULL;
}

/* A grouping without a measurement (the soft assignment; chen-static when
 * nothing was simulated) against the choice so far, taken at the lower of
 * its prediction and its measurement: replaces it when predicted faster by
 * more than margin, as the tiles replace a candidate. Takes g either way. */
static void try_predicted(const trapeze_group_measured *sim, double margin, trapeze_grouping *g,
                          const trapeze_group_eval *e, const char *name, trapeze_group_outcome *out)
{
    double bar = out->choice.eval.cycles;
    const trapeze_group_measured *run = run_of(sim, out, out->choice.source);
    if (run && run->cycles < bar)
        bar = run->cycles;
    if (e->cycles < bar * (1 - margin)) {
        trapeze_grouping_free(&out->grouping);
        out->grouping = *g;
        memset(g, 0, sizeof *g);
        snprintf(out->choice.source, sizeof out->choice.source, "%s", name);
        out->choice.gx = out->choice.gy = out->choice.tile_order = 0;
        out->choice.eval = *e;
    }
    trapeze_grouping_free(g);
}

static trapeze_status try_soft(const trapeze_group_model *m, const trapeze_group_measured *sim,
                               double margin, trapeze_group_outcome *out, trapeze_error *err)
{
    trapeze_grouping g;
    trapeze_group_eval e;
    memset(&g, 0, sizeof g);
    trapeze_status s = trapeze_group_soft(m, &g, &out->soft, err);
    if (!s)
        s = trapeze_group_evaluate(m, &g, &e, err);
    if (s) {
        trapeze_grouping_free(&g);
        return s;
    }
    out->soft_tried = 1;
    out->soft_pred_cycles = e.cycles;
    try_predicted(sim, margin, &g, &e, "soft", out);
    return TRAPEZE_OK;
}

/* The candidate the sub-grids pick (0: round-robin): the fastest sub-grid
 * that beat round-robin's by margin, among the candidates the model
 * predicts faster than round-robin by more than rr_bar (the margin and the
 * uncertainty of a predicted gain at the whole-launch scale). Why both: a
 * sub-grid is one SM's queue alone, without the other SMs' L2 and DRAM
 * traffic, so a queue that runs fast alone can run slow beside the others
 * (GTX 480 vecadd: every policy predicted at the same cycles, k-way-TS's
 * one-SM sub-grid the fastest, its launch 6% slower than round-robin's);
 * the model sees the whole GPU, and where it cannot tell a candidate from
 * round-robin beyond its own held-out error, round-robin stays. */
static int window_pick(const trapeze_group_model *m, const trapeze_grouping *cand,
                       const trapeze_group_window_evidence *win, double margin, double rr_bar,
                       int *pick, trapeze_error *err)
{
    trapeze_group_eval e[N_CAND];
    *pick = 0;
    for (int c = 0; c < N_CAND; c++) {
        trapeze_status s = trapeze_group_evaluate(m, &cand[c], &e[c], err);
        if (s)
            return s;
    }
    for (int c = 1; c < N_CAND; c++)
        if (win->sub[c].cycles < win->sub[0].cycles * (1 - margin) &&
            e[c].cycles < e[0].cycles * (1 - rr_bar) &&
            win->sub[c].cycles < win->sub[*pick].cycles)
            *pick = c;
    return TRAPEZE_OK;
}

static int same_choice(const trapeze_group_choice *a, const trapeze_group_choice *b)
{
    return !strcmp(a->source, b->source) && a->gx == b->gx && a->gy == b->gy &&
           a->tile_order == b->tile_order;
}

/* With sim: the model's own pick, as if nothing had been simulated (the
 * candidates and the tiles by prediction, then chen-static by prediction,
 * each against the pick so far by margin), and its run: a candidate's own,
 * the choice's when the same, else simulated now. */
static trapeze_status model_pick(const trapeze_group_problem *pb, const trapeze_group_model *m,
                                 trapeze_grouping *cand, const trapeze_group_measured *sim,
                                 double margin, trapeze_group_outcome *out, trapeze_error *err)
{
    trapeze_group_choice *mc = &out->model_choice;
    trapeze_status s = trapeze_group_optimize(m, cand, cand_names, NULL, N_CAND, margin,
                                              &out->model_grouping, mc, err);
    if (!s && out->chen_static_pred.cycles < mc->eval.cycles * (1 - margin)) {
        trapeze_grouping_free(&out->model_grouping);
        s = trapeze_grouping_alloc(&out->model_grouping, cand[CHEN_STATIC].n_tbs,
                                   cand[CHEN_STATIC].n_groups, err);
        if (!s) {
            memcpy(out->model_grouping.group, cand[CHEN_STATIC].group,
                   (size_t)cand[CHEN_STATIC].n_tbs * sizeof *out->model_grouping.group);
            memcpy(out->model_grouping.order, cand[CHEN_STATIC].order,
                   (size_t)cand[CHEN_STATIC].n_tbs * sizeof *out->model_grouping.order);
            snprintf(mc->source, sizeof mc->source, "%s", cand_names[CHEN_STATIC]);
            mc->gx = mc->gy = mc->tile_order = 0;
            mc->eval = out->chen_static_pred;
        }
    }
    if (s)
        return s;
    out->model_changed = !same_choice(mc, &out->choice);
    const trapeze_group_measured *run = run_of(sim, out, mc->source);
    if (!run && !out->model_changed)
        run = &out->sim[TRAPEZE_GROUP_NPOLICIES - 1];
    if (run)
        out->model_sim = *run;
    else
        s = trapeze_group_problem_simulate(pb, NULL, &out->model_grouping, &out->model_sim, err);
    out->model_simulated = !s;
    return s;
}

trapeze_status trapeze_group_decide(const trapeze_group_problem *pb, const trapeze_group_params *p,
                                    const trapeze_group_measured *sim,
                                    const trapeze_group_window_evidence *win, int fit, double margin,
                                    int soft, trapeze_group_outcome *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    out->params = *p;
    trapeze_group_model *m = NULL;
    trapeze_grouping cand[N_CAND + 1];
    memset(cand, 0, sizeof cand);
    trapeze_status s = trapeze_group_create(trapeze_group_problem_graph(pb),
                                            trapeze_group_problem_machine(pb), p, &m, err);
    for (int c = 0; !s && c < N_CAND; c++)
        s = trapeze_group_problem_policy_grouping(pb, m, cand_names[c], &cand[c], err);
    if (!s)
        s = trapeze_locality_chen_grouping(trapeze_group_problem_graph(pb),
                                           trapeze_group_problem_machine(pb)->n_sm,
                                           trapeze_group_problem_machine(pb)->tbs_per_sm,
                                           &cand[CHEN_STATIC], err);
    if (!s && sim) {   /* ranked by its run, as the policies are by theirs */
        s = trapeze_group_problem_simulate(pb, NULL, &cand[CHEN_STATIC], &out->chen_static_sim,
                                           err);
        out->chen_static_simulated = !s;
    }
    for (int i = 0; sim && i < TRAPEZE_GROUP_NPOLICIES - 1; i++) {
        out->sim[i] = sim[i];
        out->simulated[i] = 1;
    }
    if (!s && sim && fit) {
        trapeze_group_observation obs[N_CAND];
        for (int c = 0; c < N_CAND; c++) {
            const trapeze_group_measured *r = &sim[row_of_cand[c]];
            obs[c] = (trapeze_group_observation){m, &cand[c], r->cycles, r->l2_accesses,
                                               r->dram_reads};
        }
        s = trapeze_group_fit(obs, N_CAND, trapeze_group_fit_mask_default, N_CAND, &out->params,
                              &out->fit, err);
        if (!s) {
            trapeze_group_set_params(m, &out->params);
            out->fitted = 1;
        }
    }
    if (!sim && win) {
        out->fit = win->fit;
        out->fitted = 1;
    }
    const double given_margin = margin;
    /* fitted to this launch's whole runs: the fit's error on the runs it
     * left out is the held-out error at the whole-launch scale */
    out->uncertainty = sim && out->fitted ? out->fit.cv_mape_pct / 100 : p->gain_uncertainty;
    out->params.gain_uncertainty = out->uncertainty;
    /* a fitted model that misses its own samples by e (rms) cannot tell a
     * grouping e faster from an equal one: the margin is at least e (the
     * V100 matmul: a tile predicted 1.2% faster than MST-TS with a fit
     * error of 7% ran 15% slower), and at least the measured uncertainty */
    out->margin = margin;
    if (out->fitted && out->fit.rms_rel_error > out->margin)
        out->margin = out->fit.rms_rel_error;
    if (out->uncertainty > out->margin)
        out->margin = out->uncertainty;
    margin = out->margin;
    const double rr_bar = out->uncertainty > given_margin ? out->uncertainty : given_margin;
    double measured[N_CAND + 1];
    for (int c = 0; c < N_CAND; c++)
        measured[c] = sim ? sim[row_of_cand[c]].cycles : 0;
    measured[CHEN_STATIC] = out->chen_static_sim.cycles;
    /* with sub-grids only, their pick is the one candidate the tiles face */
    int first = 0, n_cand = sim ? N_CAND + 1 : N_CAND;
    if (!s && !sim && win) {
        s = window_pick(m, cand, win, given_margin, rr_bar, &first, err);
        n_cand = 1;
    }
    if (!s)
        s = trapeze_group_optimize(m, cand + first, cand_names + first, sim ? measured : NULL,
                                   n_cand, margin, &out->grouping, &out->choice, err);
    if (!s)
        s = trapeze_group_evaluate(m, &cand[CHEN_STATIC], &out->chen_static_pred, err);
    if (!s && !sim)   /* unmeasured: by prediction, after the tiles (its sub-grid would not
                       * show what it gains, docs/grouping.md) */
        try_predicted(NULL, margin, &cand[CHEN_STATIC], &out->chen_static_pred,
                      cand_names[CHEN_STATIC], out);
    if (!s && soft)
        s = try_soft(m, sim, margin, out, err);
    /* predictions: rr bcs (chen: dynamic, none) mst kway rbts optimized */
    const trapeze_grouping *pred_of[TRAPEZE_GROUP_NPOLICIES] = {
        &cand[0], &cand[1], NULL, &cand[2], &cand[3], &cand[4], &out->grouping};
    for (int i = 0; !s && i < TRAPEZE_GROUP_NPOLICIES; i++)
        if (pred_of[i]) {
            s = trapeze_group_evaluate(m, pred_of[i], &out->pred[i], err);
            out->predicted[i] = 1;
        }
    /* a candidate won: what runs is its run, simulated already (a policy's
     * own run, or chen-static's grouping run above) */
    const trapeze_group_measured *run = !s && sim ? run_of(sim, out, out->choice.source) : NULL;
    const int opt = TRAPEZE_GROUP_NPOLICIES - 1;
    if (run) {
        out->sim[opt] = *run;
        out->simulated[opt] = 1;
        out->optimized_simulated = run == &out->chen_static_sim;
    } else if (!s && sim) {
        s = trapeze_group_problem_simulate(pb, NULL, &out->grouping, &out->sim[opt], err);
        out->simulated[opt] = 1;
        out->optimized_simulated = 1;
    }
    if (!s && sim)
        s = model_pick(pb, m, cand, sim, margin, out, err);
    for (int c = 0; c <= N_CAND; c++)
        trapeze_grouping_free(&cand[c]);
    trapeze_group_destroy(m);
    if (s)
        trapeze_group_outcome_free(out);
    return s;
}
