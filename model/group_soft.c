/*
 * group_soft.c - a grouping for locality graphs without grid structure
 * (PAVER's BFS, B+ tree: no tile shape follows their sharing): a soft
 * assignment of TBs to the SMs' group queues, relaxed, optimized with
 * the generic optimizer's L-BFGS (model/optimize.c), rounded under the
 * balance constraint and refined by moves. Owns this search only; the
 * model (group.c) judges its result like any candidate's.
 *
 * The relaxation. X[p][g] = softmax_g(theta[p][g]) is TB p's share of queue
 * g. What the grouping model's L1 term rewards is data shared within a
 * queue, so the objective is the shared data kept apart, relative to all
 * shared data, plus a balance penalty:
 *
 *   f = 1 - sum_(p,j) s_pj sum_g X_pg X_jg / S  +  lambda sum_g (L_g - n/G)^2 / (n/G)^2,
 *
 * L_g = sum_p X_pg the queue's expected load, S = sum of s_pj over edges,
 * with its exact gradient through the softmax (checked against central
 * differences in tests/test_group_opt.c). Minimized by L-BFGS from a start
 * that deals the TBs of Prim's maximum-spanning-tree order to the queues in
 * contiguous runs.
 *
 * Rounding: pairs (p, g) by decreasing X_pg, each TB to the first queue it
 * meets with room, room being ceil(n / G) TBs (every queue within one TB
 * of another once the refinement keeps that bound). Refinement: two TBs
 * swap queues, or one moves to a queue with room, when that keeps more
 * shared data, until none gains (each step raises the kept shared data, so
 * it ends). Order within a queue: greedy, the member sharing most with the
 * last one placed next (ties: smallest id), so neighbours are co-resident.
 *
 * Invariants (checked in the sanitizer build): every TB in exactly one
 * queue, no queue above ceil(n / G), kept shared data never falls in the
 * refinement.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/error.h"
#include "model/group.h"

#define LAMBDA 1.0

typedef struct soft {
    const trapeze_group_model *m;
    int G;
    double S;          /* all shared data (each edge once) */
    double *X;         /* n x G shares */
    double *dX;        /* n x G: d f / d X */
    int evaluations;
} soft;

static void softmax(const double *theta, double *x, int G)
{
    double mx = theta[0], z = 0;
    for (int g = 1; g < G; g++)
        mx = theta[g] > mx ? theta[g] : mx;
    for (int g = 0; g < G; g++)
        z += x[g] = exp(theta[g] - mx);
    for (int g = 0; g < G; g++)
        x[g] /= z;
}

double trapeze_group_soft_objective(const trapeze_group_model *m, int G, const double *theta,
                                    double *grad, double *X, double *dX)
{
    long n = m->n;
    double S = 0;
    for (long p = 0; p < n; p++)
        for (long k = m->adj_start[p]; k < m->adj_start[p + 1]; k++)
            S += m->adj_s[k];
    S = S > 0 ? S / 2 : 1;   /* the adjacency holds each edge twice */
    for (long p = 0; p < n; p++)
        softmax(theta + p * G, X + p * G, G);
    double kept = 0, pen = 0, target = (double)n / G;
    double *load = dX + n * G;   /* G more doubles after dX (caller's room) */
    for (int g = 0; g < G; g++)
        load[g] = 0;
    for (long p = 0; p < n; p++)
        for (int g = 0; g < G; g++) {
            load[g] += X[p * G + g];
            double share = 0;
            for (long k = m->adj_start[p]; k < m->adj_start[p + 1]; k++)
                share += m->adj_s[k] * X[m->adj_tb[k] * G + g];
            kept += X[p * G + g] * share;       /* ordered pairs: each edge twice */
            dX[p * G + g] = -2 * share / (2 * S);
        }
    for (int g = 0; g < G; g++) {
        double d = (load[g] - target) / target;
        pen += d * d;
        for (long p = 0; p < n; p++)
            dX[p * G + g] += LAMBDA * 2 * d / target;
    }
    if (grad)
        for (long p = 0; p < n; p++) {
            double dot = 0;
            for (int g = 0; g < G; g++)
                dot += X[p * G + g] * dX[p * G + g];
            for (int g = 0; g < G; g++)
                grad[p * G + g] = X[p * G + g] * (dX[p * G + g] - dot);
        }
    return 1 - kept / (2 * S) + LAMBDA * pen;
}

/* The relaxation as a model instance for the generic optimizer
 * (model/optimize.c): theta, n x G decisions, unbounded, no constraint.
 * `self` holds the search, whose scratch (X, dX) each evaluation fills: one
 * instance serves one thread. */
typedef struct {
    soft *s;
} soft_self;

static int soft_count(const void *self)
{
    const soft *s = ((const soft_self *)self)->s;
    return (int)(s->m->n * s->G);
}

static void soft_bounds(const void *self, double *lo, double *hi)
{
    for (int i = 0, n = soft_count(self); i < n; i++) {
        lo[i] = -HUGE_VAL;
        hi[i] = HUGE_VAL;
    }
}

static trapeze_status soft_evaluate(const void *self, const double *params, const double *theta,
                                    double *value, double *dparams, double *dtheta,
                                    trapeze_error *err)
{
    soft *s = ((const soft_self *)self)->s;
    (void)params, (void)dparams, (void)err;
    *value = trapeze_group_soft_objective(s->m, s->G, theta, dtheta, s->X, s->dX);
    return TRAPEZE_OK;
}

static const trapeze_model_ops soft_ops = {
    .name = "soft assignment",
    .decision_bounds = soft_bounds,
    .decision_count = soft_count,
    .evaluate = soft_evaluate,
};

/* L-BFGS from theta, the end point back into theta; NLopt's round-off stop
 * is a result (the surrogate is flat near its optimum). */
static trapeze_status relax_shares(soft *s, double *theta, trapeze_error *err)
{
    soft_self self = {s};
    trapeze_model model = {&soft_ops, &self};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.algorithm = TRAPEZE_MINIMIZE_LBFGS;
    o.xtol_rel = -1;
    o.ftol_rel = 1e-8;
    o.max_evaluations = 300;
    o.accept_roundoff = 1;
    o.x_out = theta;
    trapeze_minimum min;
    trapeze_status st = trapeze_model_minimize(&model, NULL, theta, &o, &min, err);
    s->evaluations = min.evaluations;
    return st;
}

/* Prim's order on the maximum spanning tree (heaviest edge to the tree
 * next; a TB with no edge to it starts anew at the smallest id left): each
 * cluster of strongly sharing TBs comes out contiguous, so the start's runs
 * hold whole clusters. O(n^2 + edges). */
static void prim_order(const trapeze_group_model *m, long *order, char *seen, double *key)
{
    long n = m->n;
    for (long p = 0; p < n; p++)
        key[p] = -1;
    for (long r = 0; r < n; r++) {
        long best = -1;
        for (long p = 0; p < n; p++)
            if (!seen[p] && (best < 0 || key[p] > key[best]))
                best = p;
        seen[best] = 1;
        order[r] = best;
        for (long k = m->adj_start[best]; k < m->adj_start[best + 1]; k++)
            if (!seen[m->adj_tb[k]] && m->adj_s[k] > key[m->adj_tb[k]])
                key[m->adj_tb[k]] = m->adj_s[k];
    }
}

/* Shared data p keeps with queue g's members (p itself excluded). */
static double with_queue(const trapeze_group_model *m, const int *group, long p, int g)
{
    double w = 0;
    for (long k = m->adj_start[p]; k < m->adj_start[p + 1]; k++)
        if (group[m->adj_tb[k]] == g)
            w += m->adj_s[k];
    return w;
}

double trapeze_group_kept_shared(const trapeze_group_model *m, const trapeze_grouping *g)
{
    double w = 0;
    for (long p = 0; p < m->n; p++)
        w += with_queue(m, g->group, p, g->group[p]);
    return w / 2;
}

typedef struct pair_share {
    double x;
    long p;
    int g;
} pair_share;

static int by_share(const void *a, const void *b)
{
    const pair_share *u = a, *v = b;
    if (u->x != v->x)
        return u->x > v->x ? -1 : 1;
    return u->p != v->p ? (u->p < v->p ? -1 : 1) : u->g - v->g;
}

/* Rounds X under the room; loads out. */
static trapeze_status round_shares(const soft *s, long cap, int *group, long *load,
                                   trapeze_error *err)
{
    long n = s->m->n;
    int G = s->G;
    pair_share *ps = malloc((size_t)(n * G) * sizeof *ps);
    if (!ps)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (long p = 0; p < n; p++)
        for (int g = 0; g < G; g++)
            ps[p * G + g] = (pair_share){s->X[p * G + g], p, g};
    qsort(ps, (size_t)(n * G), sizeof *ps, by_share);
    for (long p = 0; p < n; p++)
        group[p] = -1;
    for (long i = 0; i < n * G; i++)
        if (group[ps[i].p] < 0 && load[ps[i].g] < cap) {
            group[ps[i].p] = ps[i].g;
            load[ps[i].g]++;
        }
    free(ps);
    return TRAPEZE_OK;
}

/* Shared data between p and q (0 when no edge). */
static double between(const trapeze_group_model *m, long p, long q)
{
    for (long k = m->adj_start[p]; k < m->adj_start[p + 1]; k++)
        if (m->adj_tb[k] == q)
            return m->adj_s[k];
    return 0;
}

/* p's best swap partner: p to the queue it shares most with, the member q
 * there that loses least by coming to p's queue; the gain (kept shared data
 * after less before), and q, through *partner. */
static double best_swap(const trapeze_group_model *m, int G, const int *group, long p,
                        long *partner)
{
    int from = group[p], to = -1;
    double here = with_queue(m, group, p, from), pull = 0;
    for (int g = 0; g < G; g++)
        if (g != from) {
            double d = with_queue(m, group, p, g) - here;
            if (to < 0 || d > pull) {
                pull = d;
                to = g;
            }
        }
    double gain = 0;
    *partner = -1;
    for (long q = 0; to >= 0 && q < m->n; q++)
        if (group[q] == to) {
            double d = pull + with_queue(m, group, q, from) - with_queue(m, group, q, to) -
                       2 * between(m, p, q);
            if (d > gain) {
                gain = d;
                *partner = q;
            }
        }
    return gain;
}

/* Swaps (between any queues) and moves (to a queue with room) that keep
 * more shared data, until none gains. */
static int refine(const trapeze_group_model *m, int G, long cap, int *group, long *load)
{
    int moves = 0;
    for (int changed = 1, pass = 0; changed && pass < 50; pass++) {
        changed = 0;
        for (long p = 0; p < m->n; p++) {
            long q;
            double gain = best_swap(m, G, group, p, &q);
            if (q >= 0 && gain > 1e-12 * (1 + gain)) {
                int g = group[p];
                group[p] = group[q];
                group[q] = g;
                changed = 1;
                moves++;
            }
        }
        for (long p = 0; p < m->n; p++) {
            int from = group[p], best = from;
            double here = with_queue(m, group, p, from), gain = 1e-12 * (here + 1);
            for (int g = 0; g < G; g++)
                if (g != from && load[g] < cap) {
                    double d = with_queue(m, group, p, g) - here;
                    if (d > gain) {
                        gain = d;
                        best = g;
                    }
                }
            if (best != from) {
                group[p] = best;
                load[from]--;
                load[best]++;
                changed = 1;
                moves++;
            }
        }
    }
    return moves;
}

/* Greedy order within each queue: most shared with the last placed next. */
static void order_queues(const trapeze_group_model *m, trapeze_grouping *out, char *placed)
{
    long n = m->n;
    memset(placed, 0, (size_t)n);
    for (int g = 0; g < out->n_groups; g++) {
        long pos = 0, last = -1;
        for (;;) {
            long next = -1;
            double w = 0;
            if (last >= 0)
                for (long k = m->adj_start[last]; k < m->adj_start[last + 1]; k++) {
                    long j = m->adj_tb[k];
                    if (!placed[j] && out->group[j] == g &&
                        (m->adj_s[k] > w || (m->adj_s[k] == w && next >= 0 && j < next))) {
                        w = m->adj_s[k];
                        next = j;
                    }
                }
            for (long p = 0; next < 0 && p < n; p++)
                if (!placed[p] && out->group[p] == g)
                    next = p;
            if (next < 0)
                break;
            placed[next] = 1;
            out->order[next] = pos++;
            last = next;
        }
    }
}

trapeze_status trapeze_group_soft(const trapeze_group_model *m, trapeze_grouping *out,
                                  trapeze_group_soft_info *info, trapeze_error *err)
{
    memset(info, 0, sizeof *info);
    long n = m->n;
    int G = m->m.n_sm;
    long cap = (n + G - 1) / G;
    soft s = {.m = m, .G = G};
    double *theta = malloc((size_t)(n * G) * sizeof *theta);
    s.X = malloc((size_t)(n * G) * sizeof *s.X);
    s.dX = malloc((size_t)(n * G + G) * sizeof *s.dX);
    long *order = malloc((size_t)n * sizeof *order), *load = calloc((size_t)G, sizeof *load);
    char *seen = calloc((size_t)n, 1);
    trapeze_status st = TRAPEZE_OK;
    if (!theta || !s.X || !s.dX || !order || !load || !seen)
        st = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!st)
        st = trapeze_grouping_alloc(out, n, G, err);
    if (!st) {
        prim_order(m, order, seen, s.X);   /* X as scratch before the shares */
        for (long r = 0; r < n; r++)   /* contiguous runs of the BFS order */
            for (int g = 0; g < G; g++)
                theta[order[r] * G + g] = g == (int)(r * G / n) ? 2.0 : 0.0;
        info->relaxed_start = trapeze_group_soft_objective(m, G, theta, NULL, s.X, s.dX);
        st = relax_shares(&s, theta, err);
        /* the shares at the point returned (the last evaluation may differ) */
        info->relaxed = trapeze_group_soft_objective(m, G, theta, NULL, s.X, s.dX);
        info->nlopt_evaluations = s.evaluations;
    }
    if (!st)
        st = round_shares(&s, cap, out->group, load, err);
    if (!st) {
        info->rounded_kept = trapeze_group_kept_shared(m, out);
        info->moves = refine(m, G, cap, out->group, load);
        info->kept = trapeze_group_kept_shared(m, out);
        TRAPEZE_ASSERT(info->kept >= info->rounded_kept);
        for (long p = 0; p < m->adj_start[n]; p++)
            info->total_shared += m->adj_s[p];
        info->total_shared /= 2;
        order_queues(m, out, seen);
        for (int g = 0; g < G; g++)
            TRAPEZE_ASSERT(load[g] <= cap);
        TRAPEZE_ASSERT(trapeze_grouping_check(out, err) == TRAPEZE_OK);
    }
    free(theta);
    free(s.X);
    free(s.dX);
    free(order);
    free(load);
    free(seen);
    if (st)
        trapeze_grouping_free(out);
    return st;
}
