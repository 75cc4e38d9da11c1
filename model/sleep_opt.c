/*
 * sleep_opt.c - choosing the sleep thresholds: maximize the expected
 * leakage saved under a budget on the exposed wake-up penalty, by the
 * generic optimizer's SLSQP on the model's ops table (sleep_model.c: the
 * smooth model and its exact gradients, in u = ln(1 + theta)) from several
 * starts;
 * then the whole-cycle thresholds a hardware policy runs, checked with the
 * hard indicator and, if the rounding broke the budget, raised greedily
 * (the raise that gives up the least saving per penalty removed) until it
 * holds; then a walk of the whole-cycle neighbourhood with the hard model
 * (more saving, or at a saving equal within 0.01 points the lower
 * predicted penalty). With an eager margin (trapeze_sleep_options) the whole-cycle
 * thresholds are held to the budget also where each is that many cycles
 * lower. Owns the search only; the equations are sleep.c's, the local
 * search the generic optimizer's (model/optimize.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/sleep_priv.h"

#define MAX_STARTS 16
#define FEASIBLE_SLACK 1e-9

static void clip_ordered(double *x, int n, double lo, double hi)
{
    for (int i = 0; i < n; i++) {
        x[i] = fmin(fmax(x[i], lo), hi);
        if (i > 0 && x[i] < x[i - 1])
            x[i] = x[i - 1];
    }
}

/* Starting points: the seed's thresholds, the break-even times, the
 * crossovers of neighbouring modes, a ladder of lengths, never sleeping. */
static int starts(const trapeze_sleep_structure *st, double lo, double hi,
                  double x[MAX_STARTS][TRAPEZE_SLEEP_MAX_MODES])
{
    int n = st->n_modes, k = 0;
    trapeze_sleep_seed_thresholds(st, x[k++]);
    for (int i = 0; i < n; i++)
        x[k][i] = trapeze_sleep_break_even(&st->mode[i]);
    k++;
    x[k][0] = trapeze_sleep_break_even(&st->mode[0]);
    for (int i = 1; i < n; i++)
        x[k][i] = trapeze_sleep_crossover(&st->mode[i - 1], &st->mode[i]);
    k++;
    for (double v = 1; v <= 4096 && k < MAX_STARTS - 1; v *= 4, k++)
        for (int i = 0; i < n; i++)
            x[k][i] = v * (1 + 0.5 * i);
    for (int i = 0; i < n; i++)
        x[k][i] = hi;
    k++;
    for (int j = 0; j < k; j++) {
        for (int i = 0; i < n; i++)
            if (!isfinite(x[j][i]))
                x[j][i] = hi;
        clip_ordered(x[j], n, lo, hi);
    }
    return k;
}

static int within(const trapeze_sleep_eval *e, double budget)
{
    return e->penalty_fraction <= budget + FEASIBLE_SLACK;
}

/* A whole-cycle choice: its prediction, and the penalty it is held to: its
 * own, or with the eager margin the larger of its own and the one with
 * every threshold `eager_margin` cycles lower (at least 0). Why: a penalty
 * that rises steeply as a threshold falls is a cliff the choice must not
 * stand on the edge of. The sample's periods are not the run's (a period
 * one cycle longer or shorter in the simulation with the policy, whose
 * stalls move the warps); the optimizer, which buys any saving with
 * penalty up to the budget, went there (GTX 480 Cell 32^3 registers,
 * shallow 4/12 costing 150%/0.2% of the cycles: it chose shallow 9 for no
 * saving, predicted 0.77%, simulated 3.04%; a 1-cycle margin left it
 * there, the model putting shallow 8 within the budget; with 2 cycles,
 * shallow 10: 0.41% predicted, 0.45% simulated). The margin is that
 * measured constant, not an estimate of the sample's uncertainty; that is
 * penalty_z standard errors of the penalty (trapeze_sleep_eval's
 * penalty_sigma: the counts taken as Poisson counts of observed periods),
 * added to both. */
typedef struct {
    trapeze_sleep_eval e;
    double held;
} whole_choice;

static void evaluate_whole(const trapeze_sleep_model *m, const double *t, whole_choice *w,
                           int *evals)
{
    trapeze_sleep_evaluate(m, t, 0, &w->e, NULL);
    (*evals)++;
    /* the sample's own uncertainty: z standard errors of its penalty */
    double z_sigma = trapeze_sleep_options_of(m)->penalty_z * w->e.penalty_sigma;
    w->held = w->e.penalty_fraction + z_sigma;
    double margin = trapeze_sleep_options_of(m)->eager_margin;
    if (!(margin > 0))
        return;
    int n = trapeze_sleep_structure_of(m)->n_modes;
    double x[TRAPEZE_SLEEP_MAX_MODES];
    for (int i = 0; i < n; i++)
        x[i] = fmax(t[i] - margin, 0);   /* the same shift keeps them ordered */
    trapeze_sleep_eval eager;
    trapeze_sleep_evaluate(m, x, 0, &eager, NULL);
    (*evals)++;
    w->held = fmax(w->held, eager.penalty_fraction + z_sigma);
}

static int held_within(const whole_choice *w, double budget)
{
    return w->held <= budget + FEASIBLE_SLACK;
}

/* The local search from theta (updated in place): the generic optimizer
 * (model/optimize.c) on the model's ops table (sleep_model.c, decisions
 * u = ln(1 + theta)) with SLSQP, not its default MMA: with an order
 * constraint active (a mode switched off sits at the next one's threshold)
 * MMA's inner iterations took 0.1 to 15 s per start on a full histogram,
 * SLSQP milliseconds (docs/sleep.md). The budget constraint (k = 0) is
 * held to 1e-12, the order ones to 1e-9; the end point is kept whatever
 * NLopt's status: the caller judges it with the hard model. */
static void local_search(const trapeze_model *gm, int n, double *theta, int *evaluations)
{
    double lo[TRAPEZE_SLEEP_MAX_MODES], hi[TRAPEZE_SLEEP_MAX_MODES], u[TRAPEZE_SLEEP_MAX_MODES];
    double ctol[TRAPEZE_SLEEP_MAX_MODES];
    gm->ops->decision_bounds(gm->self, lo, hi);
    for (int i = 0; i < n; i++) {
        u[i] = fmin(fmax(log1p(theta[i]), lo[i]), hi[i]);
        ctol[i] = i ? 1e-9 : 1e-12;
    }
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.algorithm = TRAPEZE_MINIMIZE_SLSQP;
    o.xtol_rel = 1e-9;
    o.ftol_rel = 1e-12;
    o.max_evaluations = 400;
    o.ctol = ctol;
    o.keep_end_point = 1;
    trapeze_minimum best;
    if (trapeze_model_minimize(gm, NULL, u, &o, &best, NULL) == TRAPEZE_OK)
        memcpy(u, best.x, (size_t)n * sizeof *u);
    *evaluations += best.evaluations;
    sleep_to_theta(n, u, theta, NULL);
}

/* Raise theta_i just past the shortest period it still puts to sleep, or
 * with the eager margin, that theta_i - margin does. */
static int raise_past(const double *lengths, int nl, double *t, int i, int n, double margin)
{
    for (int j = 0; j < nl; j++)
        if (lengths[j] >= t[i] - margin) {
            t[i] = floor(lengths[j]) + 1 + margin;
            for (int k = i + 1; k < n; k++)
                t[k] = fmax(t[k], t[i]);
            return 1;
        }
    return 0;
}

/* Whole-cycle thresholds: the best of floor/ceil per mode held to the
 * budget, else raised until it holds. */
static void whole_cycles(const trapeze_sleep_model *m, double budget, const double *theta,
                         double *best, whole_choice *best_w, int *evals)
{
    int n = trapeze_sleep_structure_of(m)->n_modes, found = 0;
    for (int mask = 0; mask < (1 << n); mask++) {
        double t[TRAPEZE_SLEEP_MAX_MODES];
        for (int i = 0; i < n; i++)
            t[i] = (mask >> i & 1) ? ceil(theta[i]) : floor(theta[i]);
        clip_ordered(t, n, 0, INFINITY);
        whole_choice w;
        evaluate_whole(m, t, &w, evals);
        if (held_within(&w, budget) &&
            (!found || w.e.saving_fraction > best_w->e.saving_fraction)) {
            memcpy(best, t, sizeof t);
            *best_w = w;
            found = 1;
        }
    }
    if (found)
        return;
    double *lengths = malloc(TRAPEZE_IDLE_NBUCKETS * sizeof *lengths);
    int nl = lengths ? sleep_period_lengths(m, lengths) : 0;
    double margin = fmax(trapeze_sleep_options_of(m)->eager_margin, 0);
    for (int i = 0; i < n; i++)
        best[i] = ceil(theta[i]);
    clip_ordered(best, n, 0, INFINITY);
    evaluate_whole(m, best, best_w, evals);
    for (int step = 0; step < 4 * TRAPEZE_IDLE_NBUCKETS && !held_within(best_w, budget); step++) {
        double pick[TRAPEZE_SLEEP_MAX_MODES], pick_ratio = INFINITY;
        whole_choice pick_w;
        for (int i = 0; i < n; i++) {
            double t[TRAPEZE_SLEEP_MAX_MODES];
            memcpy(t, best, sizeof t);
            if (!raise_past(lengths, nl, t, i, n, margin))
                continue;
            whole_choice w;
            evaluate_whole(m, t, &w, evals);
            double freed = best_w->held - w.held;
            double ratio = (best_w->e.saving_fraction - w.e.saving_fraction) / freed;
            if (freed > 0 && ratio < pick_ratio) {
                pick_ratio = ratio;
                memcpy(pick, t, sizeof t);
                pick_w = w;
            }
        }
        if (!(pick_ratio < INFINITY))
            break;   /* nothing left to raise: every mode is past the longest period */
        memcpy(best, pick, sizeof pick);
        *best_w = pick_w;
    }
    free(lengths);
}

/* The distribution-free thresholds: for a look-ahead the crossovers of
 * neighbouring modes (the first mode at its break-even), for a time-out
 * each mode's break-even (the 2-competitive ski-rental choice). */
static void prior_thresholds(const trapeze_sleep_model *m, double *prior)
{
    const trapeze_sleep_structure *st = trapeze_sleep_structure_of(m);
    int lookahead = trapeze_sleep_options_of(m)->policy == TRAPEZE_SLEEP_LOOKAHEAD;
    for (int i = 0; i < st->n_modes; i++) {
        prior[i] = trapeze_sleep_break_even(&st->mode[i]);
        if (lookahead && i > 0)
            prior[i] = fmax(prior[i - 1], trapeze_sleep_crossover(&st->mode[i - 1], &st->mode[i]));
    }
}

static int no_worse(const whole_choice *w, const whole_choice *ref, double budget)
{
    return held_within(w, budget) && w->e.saving_fraction >= ref->e.saving_fraction - 1e-12 &&
           w->e.penalty_fraction <= ref->e.penalty_fraction + 1e-12;
}

/* Thresholds the histogram cannot tell apart (no period between them) give
 * the same prediction; of those, take the one nearest the prior, so that
 * periods the sample did not see are treated as the algebra says. Moves
 * each threshold toward its prior by bisection on whole cycles, keeping
 * only moves that predict no less saving and no more penalty. */
static void settle(const trapeze_sleep_model *m, double budget, double *t, whole_choice *e,
                   int *evals)
{
    int n = trapeze_sleep_structure_of(m)->n_modes;
    double prior[TRAPEZE_SLEEP_MAX_MODES];
    prior_thresholds(m, prior);
    /* Deepest first, then shallowest first: a threshold rising toward its
     * prior is not blocked by the next one still waiting to rise. */
    for (int pass = 0; pass < 2 * n; pass++) {
        int i = pass < n ? n - 1 - pass : pass - n;
        double lo = i > 0 ? t[i - 1] : 0, hi = i + 1 < n ? t[i + 1] : INFINITY;
        double good = t[i], goal = fmin(fmax(ceil(prior[i] - 1e-9), lo), hi);
        for (int step = 0; step < 40 && good != goal; step++) {
            double x[TRAPEZE_SLEEP_MAX_MODES];
            memcpy(x, t, sizeof x);
            x[i] = goal;
            whole_choice trial;
            evaluate_whole(m, x, &trial, evals);
            if (no_worse(&trial, e, budget)) {
                good = goal;
                *e = trial;
                break;
            }
            double mid = good < goal ? floor(0.5 * (good + goal)) : ceil(0.5 * (good + goal));
            if (mid == good)
                break;
            x[i] = mid;
            evaluate_whole(m, x, &trial, evals);
            if (no_worse(&trial, e, budget)) {
                good = mid;
                *e = trial;
            } else {
                goal = mid;
            }
        }
        t[i] = good;
    }
}

/* Savings closer than this (a fraction of the always-ON leakage: 0.01
 * points) are equal to the optimizer: the sample cannot tell them apart,
 * and a penalty it can see is worth more than a saving it cannot. */
#define SAVING_TIE 1e-4
/* How far a threshold walks, cycle by cycle, in the whole-cycle search. */
#define TIE_WALK 64

/* theta_i = v, its neighbours pushed along to keep the order. */
static void move_to(double *t, int n, int i, double v)
{
    t[i] = v;
    for (int k = i + 1; k < n; k++)
        t[k] = fmax(t[k], v);
    for (int k = 0; k < i; k++)
        t[k] = fmin(t[k], v);
}

/* The whole-cycle neighbourhood, searched with the hard model: each
 * threshold walks up to TIE_WALK cycles down and up; a step is taken to the
 * walk's best point held to the budget, where best is more saving by more
 * than SAVING_TIE, or, at a saving equal within SAVING_TIE (and never below
 * the best seen less SAVING_TIE), a lower predicted penalty; repeated while
 * it moves. Why the saving: floor/ceil of the smooth optimum is local, and
 * the relaxed indicator (s = 1 cycle) blurs periods a cycle or two either
 * side of a threshold: with a 4-cycle break-even the smooth optimum kept
 * 5-cycle periods half asleep and sat at 6.3, where 2 saves more (tested).
 * Why the penalty: floor/ceil and the settling keep the first of equal
 * savings, which may stall three times as much for a saving the sample
 * cannot resolve (GTX 480 Jacobi 2048^2 registers: 12/14/21 against
 * 12/13/21, the same saving to 0.01 points, 1.03% simulated against the 1%
 * budget). */
static int better(const whole_choice *t, const whole_choice *pick, double floor_saving)
{
    if (t->e.saving_fraction > pick->e.saving_fraction + SAVING_TIE)
        return 1;
    return t->e.saving_fraction >= floor_saving &&
           t->e.saving_fraction >= pick->e.saving_fraction - SAVING_TIE &&
           t->e.penalty_fraction < pick->e.penalty_fraction - 1e-12;
}

static void polish(const trapeze_sleep_model *m, double budget, double *t, whole_choice *w,
                   int *evals)
{
    int n = trapeze_sleep_structure_of(m)->n_modes;
    double floor_saving = w->e.saving_fraction - SAVING_TIE;
    for (int round = 0; round < 16; round++) {
        double pick[TRAPEZE_SLEEP_MAX_MODES];
        whole_choice pick_w = *w;
        int moved = 0;
        for (int i = 0; i < n; i++)
            for (int dir = -1; dir <= 1; dir += 2)
                for (int step = 1; step <= TIE_WALK && t[i] + dir * step >= 0; step++) {
                    double x[TRAPEZE_SLEEP_MAX_MODES];
                    memcpy(x, t, sizeof x);
                    move_to(x, n, i, t[i] + dir * step);
                    whole_choice trial;
                    evaluate_whole(m, x, &trial, evals);
                    if (held_within(&trial, budget) && better(&trial, &pick_w, floor_saving)) {
                        memcpy(pick, x, sizeof pick);
                        pick_w = trial;
                        moved = 1;
                    }
                }
        if (!moved)
            return;
        memcpy(t, pick, n * sizeof *t);
        *w = pick_w;
        floor_saving = fmax(floor_saving, w->e.saving_fraction - SAVING_TIE);
    }
}

trapeze_status trapeze_sleep_optimize(const trapeze_sleep_model *m, double max_penalty,
                                      trapeze_sleep_choice *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(max_penalty >= 0) || !isfinite(max_penalty))
        return trapeze_fail(err, TRAPEZE_ERANGE, "penalty budget %g must be >= 0", max_penalty);
    const trapeze_sleep_structure *st = trapeze_sleep_structure_of(m);
    int n = st->n_modes;
    double lo = 0, hi = sleep_longest_period(m) + 10 * trapeze_sleep_options_of(m)->smoothing + 1;
    int evaluations = 0;
    sleep_instance in = {.m = m, .budget = max_penalty};
    trapeze_model gm = sleep_as_model(&in);
    double x[MAX_STARTS][TRAPEZE_SLEEP_MAX_MODES];
    int k = starts(st, lo, hi, x), have = 0;
    for (int j = 0; j < k; j++) {
        local_search(&gm, n, x[j], &evaluations);
        clip_ordered(x[j], n, lo, hi);
        trapeze_sleep_eval e;
        trapeze_sleep_evaluate(m, x[j], 1, &e, NULL);
        if (within(&e, max_penalty) &&
            (!have || e.saving_fraction > out->smooth.saving_fraction + 1e-12)) {
            memcpy(out->theta, x[j], sizeof out->theta);
            out->smooth = e;
            have = 1;
        }
    }
    out->starts = k;
    if (!have) {
        /* Not even "never sleep" met the budget in the smooth model (its
         * tails): fall back to it; the whole-cycle step enforces the budget. */
        for (int i = 0; i < n; i++)
            out->theta[i] = hi;
        trapeze_sleep_evaluate(m, out->theta, 1, &out->smooth, NULL);
    }
    whole_choice w;
    whole_cycles(m, max_penalty, out->theta, out->theta_int, &w, &evaluations);
    settle(m, max_penalty, out->theta_int, &w, &evaluations);
    polish(m, max_penalty, out->theta_int, &w, &evaluations);
    out->chosen = w.e;
    out->held_penalty = w.held;
    out->feasible = held_within(&w, max_penalty);
    trapeze_sleep_seed_thresholds(st, out->seed_theta);
    trapeze_sleep_evaluate(m, out->seed_theta, 0, &out->seed, NULL);
    trapeze_sleep_oracle(m, &out->oracle);
    out->evaluations = evaluations;
    return TRAPEZE_OK;
}
