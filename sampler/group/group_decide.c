/*
 * group_decide.c - the grouping decision of one launch, shared by `trapeze
 * group` and `trapeze validate --model group`: the model's constants fitted
 * to the simulated policies with a fixed grouping (or given), the optimizer
 * run with those policies as candidates (their measured cycles rank them;
 * chen-static, Chen's dispatch decided before launch, beside them),
 * the chosen grouping simulated when it is not one of them, and every
 * policy predicted (with whole-GPU windows, each prediction corrected by
 * its candidate's window, gpu_window.c; with a measured L2 contention, by
 * the L2 time its sub-grid measured, l2_measured.c; with a DRAM rows' cost,
 * by the rows its grouping scatters, dram_rows.c; with sub-grids, each
 * candidate's cycles at least its DRAM time with the rows it opens,
 * dram_banks.c). Owns the sequence only: the model is model/group*.c,
 * the simulations group_problem.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "trapeze.h"

/* The policy rows: the dispatch policies the model compares, then the choice. */
const char *trapeze_group_policy_name(int i)
{
    return i >= 0 && i < TRAPEZE_GROUP_NPOLICIES - 1 ? trapeze_tb_policies[i].name
           : i == TRAPEZE_GROUP_NPOLICIES - 1        ? "optimized"
                                                   : NULL;
}

/* The candidates: the policies with a fixed grouping (their rows: the
 * dispatch table's of kind FIXED); after them Chen's dispatch decided
 * before launch, which no policy runs. */
#define N_CAND TRAPEZE_TB_NFIXED
#define CHEN_STATIC N_CAND

static int cand_row(int c)
{
    return trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c);
}

static const char *cand_name(int c)
{
    return c == CHEN_STATIC ? "chen-static" : trapeze_tb_policies[cand_row(c)].name;
}

static void cand_names(const char *names[N_CAND + 1])
{
    for (int c = 0; c <= N_CAND; c++)
        names[c] = cand_name(c);
}

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
        if (!strcmp(source, cand_name(c)))
            return &sim[cand_row(c)];
    if (out->chen_static_simulated && !strcmp(source, cand_name(CHEN_STATIC)))
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
/* With whole-GPU windows (factor: their corrections), the windows see
 * that traffic: the candidate with the fewest corrected cycles, when fewer
 * than round-robin's by more than rr_bar; the sub-grids only fitted the
 * constants. */
/* abs_f: each candidate's DRAM floor over its cycles (bank_factors; 1:
 * none), on the model's cycles in either rule. */
static int window_pick(const trapeze_group_model *m, const trapeze_grouping *cand,
                       const trapeze_group_window_evidence *win, const double *factor,
                       const double *abs_f, double margin, double rr_bar, int *pick,
                       trapeze_error *err)
{
    trapeze_group_eval e[N_CAND];
    *pick = 0;
    for (int c = 0; c < N_CAND; c++) {
        trapeze_status s = trapeze_group_evaluate(m, &cand[c], &e[c], err);
        if (s)
            return s;
        e[c].cycles *= abs_f[c];
    }
    for (int c = 1; factor && c < N_CAND; c++)
        if (e[c].cycles * factor[c] < e[0].cycles * factor[0] * (1 - rr_bar) &&
            e[c].cycles * factor[c] < e[*pick].cycles * factor[*pick])
            *pick = c;
    for (int c = 1; !factor && c < N_CAND; c++)
        if (win->sub[c].cycles < win->sub[0].cycles * (1 - margin) &&
            e[c].cycles < e[0].cycles * (1 - rr_bar) &&
            win->sub[c].cycles < win->sub[*pick].cycles)
            *pick = c;
    return TRAPEZE_OK;
}

/* Each candidate's correction from its whole-GPU window (1 without one):
 * the window's measured cycles over the model's prediction of it at p. */
static trapeze_status gpu_factors(const trapeze_group_problem *pb, const trapeze_group_params *p,
                                  const trapeze_grouping *cand,
                                  const trapeze_group_window_evidence *win, double f[N_CAND],
                                  trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    for (int c = 0; !s && c < N_CAND; c++) {
        f[c] = 1;
        if (!win->gpu_k[c])
            continue;
        trapeze_group_window *w = NULL;
        trapeze_group_eval e;
        s = trapeze_group_window_create_gpu(pb, &cand[c], win->gpu_k[c], p, &w, err);
        if (!s)
            s = trapeze_group_evaluate(trapeze_group_window_model(w),
                                       trapeze_group_window_grouping(w), &e, err);
        if (!s)
            f[c] = trapeze_group_gpu_window_factor(win->gpu[c].cycles, e.t_norm, e.t_gpu_dram,
                                                   p->value[TRAPEZE_GROUP_CONTENTION]);
        trapeze_group_window_destroy(w);
    }
    return s;
}

/* Each candidate's correction by the whole GPU's L2 time its sub-grid
 * measured (l2_measured.c; memory: the L2's and the DRAM's), the model's
 * cycles without it taken as they are, times f[c] (the window's, else 1). */
static trapeze_status l2_measured_factors(const trapeze_group_problem *pb,
                                          const trapeze_group_model *m,
                                          const trapeze_grouping *cand,
                                          const trapeze_group_window_evidence *win, double beta2,
                                          int memory, double f[N_CAND], trapeze_error *err)
{
    const long n = trapeze_group_problem_graph(pb)->n_tbs;
    const trapeze_group_machine *mc = trapeze_group_problem_machine(pb);
    for (int c = 0; c < N_CAND; c++) {
        trapeze_group_eval e;
        trapeze_status s = trapeze_group_evaluate(m, &cand[c], &e, err);
        if (s)
            return s;
        const double t = memory ? trapeze_group_memory_measured_time(&win->sub[c], n, mc)
                                : trapeze_group_l2_measured_time(&win->sub[c], n,
                                                                 mc->l2_accesses_per_cycle);
        f[c] *= trapeze_group_l2_measured_factor(e.cycles, t, beta2);
    }
    return TRAPEZE_OK;
}

/* Each candidate's correction by the DRAM rows its grouping scatters
 * (dram_rows.c) at cost kappa, times f[c]: its spread over the launch's
 * grid, its share of the model's whole-GPU DRAM time beyond one stripe. */
static trapeze_status row_factors(const trapeze_group_problem *pb, const trapeze_group_model *m,
                                  const trapeze_grouping *cand, double kappa, double f[N_CAND],
                                  trapeze_error *err)
{
    const trapeze_locality_graph *gr = trapeze_group_problem_graph(pb);
    const int x = trapeze_group_problem_machine(pb)->tbs_per_sm;
    const double stripe = trapeze_group_problem_dram_stripe_bytes(pb);
    for (int c = 0; c < N_CAND; c++) {
        trapeze_group_eval e;
        trapeze_status s = trapeze_group_evaluate(m, &cand[c], &e, err);
        if (s)
            return s;
        const double t = trapeze_group_row_time(trapeze_group_row_spread(&cand[c], gr->grid[0], x),
                                                e.dram_reads, stripe, e.t_gpu_dram);
        f[c] *= trapeze_group_row_factor(e.cycles, t, kappa);
    }
    return TRAPEZE_OK;
}

/* Each candidate's floor by the DRAM time with the rows its grouping
 * opens (dram_banks.c): max(cycles, T) / cycles, into abs[c]. */
static trapeze_status bank_factors(const trapeze_group_problem *pb, const trapeze_group_model *m,
                                   const trapeze_grouping *cand, trapeze_group_outcome *out,
                                   double abs_f[N_CAND], trapeze_error *err)
{
    trapeze_status s = trapeze_group_problem_dram_banks(pb, cand, N_CAND, out->dram_time,
                                                        out->dram_activations, err);
    for (int c = 0; !s && c < N_CAND; c++) {
        trapeze_group_eval e;
        if ((s = trapeze_group_evaluate(m, &cand[c], &e, err)))
            break;
        abs_f[c] = e.cycles > 0 && out->dram_time[c] > e.cycles ? out->dram_time[c] / e.cycles
                                                                : 1;
    }
    out->dram_banks = !s;
    return s;
}

/* The floors taken as they are (rr's too): each candidate's row, and the
 * optimized row by its source's, else 1 (a tile, chen-static, soft: no
 * count of theirs). */
static void floor_predictions(const double abs_f[N_CAND], trapeze_group_outcome *out)
{
    double chosen = 1;
    for (int c = 0; c < N_CAND; c++) {
        out->pred[cand_row(c)].cycles *= abs_f[c];
        if (!strcmp(out->choice.source, cand_name(c)))
            chosen = abs_f[c];
    }
    out->pred[TRAPEZE_GROUP_NPOLICIES - 1].cycles *= chosen;
}

/* The predictions corrected by the windows, relative to round-robin's:
 * each candidate's row by its factor over rr's, the optimized row by its
 * source's, else (a tile, chen-static, the soft assignment) by that of the
 * candidate it replaced. Relative, because a window of a few waves
 * measures the start of a launch, before a streaming kernel's DRAM queues
 * fill, for every candidate alike (GTX 480 copy, 8 TBs a queue: factors
 * 0.81-0.90; taken as they are, its predicted cycles went from 1.1% to
 * 19.1% under the run): rr's prediction stays the model's, the gains are
 * the windows'. */
static void correct_predictions(const double f[N_CAND], int first, trapeze_group_outcome *out)
{
    out->gpu_factor_chosen = f[first] / f[0];
    for (int c = 0; c < N_CAND; c++) {
        out->gpu_factor[c] = f[c] / f[0];
        out->pred[cand_row(c)].cycles *= f[c] / f[0];
        if (!strcmp(out->choice.source, cand_name(c)))
            out->gpu_factor_chosen = f[c] / f[0];
    }
    out->pred[TRAPEZE_GROUP_NPOLICIES - 1].cycles *= out->gpu_factor_chosen;
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
    const char *names[N_CAND + 1];
    cand_names(names);
    trapeze_status s = trapeze_group_optimize(m, cand, names, NULL, N_CAND, margin,
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
            snprintf(mc->source, sizeof mc->source, "%s", names[CHEN_STATIC]);
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
    const char *names[N_CAND + 1];
    cand_names(names);
    trapeze_status s = trapeze_group_create(trapeze_group_problem_graph(pb),
                                            trapeze_group_problem_machine(pb), p, &m, err);
    for (int c = 0; !s && c < N_CAND; c++)
        s = trapeze_group_problem_policy_grouping(pb, m, names[c], &cand[c], err);
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
            const trapeze_group_measured *r = &sim[cand_row(c)];
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
        measured[c] = sim ? sim[cand_row(c)].cycles : 0;
    measured[CHEN_STATIC] = out->chen_static_sim.cycles;
    /* with sub-grids only, their pick is the one candidate the tiles face */
    int first = 0, n_cand = sim ? N_CAND + 1 : N_CAND, gpu = 0;
    double factor[N_CAND];
    for (int c = 0; !sim && win && c < N_CAND; c++)
        gpu |= win->gpu_k[c] > 0;
    if (!s && gpu)
        s = gpu_factors(pb, &out->params, cand, win, factor, err);
    /* the whole GPU's L2 (or L2 and DRAM) time of each candidate as its
     * sub-grid measured it */
    const int memory = p->memory_measured_contention >= 0;
    if (!s && !sim && win && (memory || p->l2_measured_contention >= 0)) {
        for (int c = 0; !gpu && c < N_CAND; c++)
            factor[c] = 1;
        gpu = 1;
        out->l2_measured = memory ? 2 : 1;
        s = l2_measured_factors(pb, m, cand, win,
                                memory ? p->memory_measured_contention
                                       : p->l2_measured_contention,
                                memory, factor, err);
    }
    /* the DRAM rows each candidate's grouping scatters */
    if (!s && !sim && win && p->dram_rows_cost >= 0) {
        for (int c = 0; !gpu && c < N_CAND; c++)
            factor[c] = 1;
        gpu = 1;
        out->dram_rows = 1;
        s = row_factors(pb, m, cand, p->dram_rows_cost, factor, err);
    }
    /* the DRAM rows each candidate's grouping opens, from the address map */
    double abs_f[N_CAND];
    for (int c = 0; c < N_CAND; c++)
        abs_f[c] = 1;
    const int banks = !s && !sim && win && p->dram_banks;
    if (banks)
        s = bank_factors(pb, m, cand, out, abs_f, err);
    if (!s && !sim && win) {
        s = window_pick(m, cand, win, gpu ? factor : NULL, abs_f, given_margin, rr_bar, &first,
                        err);
        n_cand = 1;
    }
    if (!s)
        s = trapeze_group_optimize(m, cand + first, names + first, sim ? measured : NULL,
                                   n_cand, margin, &out->grouping, &out->choice, err);
    if (!s)
        s = trapeze_group_evaluate(m, &cand[CHEN_STATIC], &out->chen_static_pred, err);
    if (!s && !sim)   /* unmeasured: by prediction, after the tiles (its sub-grid would not
                       * show what it gains, docs/grouping.md) */
        try_predicted(NULL, margin, &cand[CHEN_STATIC], &out->chen_static_pred,
                      names[CHEN_STATIC], out);
    if (!s && soft)
        s = try_soft(m, sim, margin, out, err);
    /* predictions: the candidates' rows and the optimized one (a dynamic
     * policy's, chen's, none) */
    const trapeze_grouping *pred_of[TRAPEZE_GROUP_NPOLICIES] = {NULL};
    for (int c = 0; c < N_CAND; c++)
        pred_of[cand_row(c)] = &cand[c];
    pred_of[TRAPEZE_GROUP_NPOLICIES - 1] = &out->grouping;
    for (int i = 0; !s && i < TRAPEZE_GROUP_NPOLICIES; i++)
        if (pred_of[i]) {
            s = trapeze_group_evaluate(m, pred_of[i], &out->pred[i], err);
            out->predicted[i] = 1;
        }
    if (!s && gpu)
        correct_predictions(factor, first, out);
    if (!s && banks)   /* then the floors, as they are */
        floor_predictions(abs_f, out);
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
