/*
 * group_opt.c - choosing a TB grouping with the grouping model: the
 * groupings of the baselines and of rectangular tiles, the continuous
 * relaxation over tile shapes (the generic optimizer's SLSQP with exact
 * gradients of the interpolated model), rounding and refinement. Owns the
 * search only; the predictions are group.c's.
 *
 * Why tiles: the seeds' kernels and the stencils are grid-structured, and a
 * gx x gy tile of neighbouring TBs is the shape whose union of footprints is
 * smallest for sharing along rows, columns or halos (Chen's rectangles,
 * Tripathy's "same row and same column" pattern). The tile runs whole on
 * one SM, so gx * gy <= x (the co-resident TBs) keeps it resident at once,
 * and gx * gy <= ceil(TBs / SMs) leaves no SM idle on a small grid; tiles
 * go to the least-loaded queue, which balances the SMs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/group.h"

/* ------------------------------------------------------------ groupings */

static trapeze_status alloc_for(const trapeze_group_model *m, trapeze_grouping *out,
                                trapeze_error *err)
{
    return trapeze_grouping_alloc(out, m->n, m->m.n_sm, err);
}

trapeze_status trapeze_group_rr(const trapeze_group_model *m, trapeze_grouping *out,
                                trapeze_error *err)
{
    trapeze_status s = alloc_for(m, out, err);
    for (long t = 0; s == TRAPEZE_OK && t < m->n; t++) {
        out->group[t] = (int)(t % m->m.n_sm);
        out->order[t] = t / m->m.n_sm;
    }
    return s;
}

trapeze_status trapeze_group_bcs(const trapeze_group_model *m, trapeze_grouping *out,
                                 trapeze_error *err)
{
    trapeze_status s = alloc_for(m, out, err);
    for (long t = 0; s == TRAPEZE_OK && t < m->n; t++) {
        long pair = t / 2;
        out->group[t] = (int)(pair % m->m.n_sm);
        out->order[t] = (pair / m->m.n_sm) * 2 + t % 2;
    }
    return s;
}

/* The grid as the tiles see it: x by (everything else), y and z folded. */
static void grid_2d(const trapeze_group_model *m, long *gx, long *gy)
{
    long x = m->grid[0];
    if (x < 1 || x > m->n || m->n % x != 0)
        x = m->n;
    *gx = x;
    *gy = m->n / x;
}

trapeze_status trapeze_group_tiles(const trapeze_group_model *m, int gx, int gy,
                                   int tile_order, trapeze_grouping *out,
                                   trapeze_error *err)
{
    long GX, GY;
    grid_2d(m, &GX, &GY);
    if (gx < 1 || gy < 1 || gx > GX || gy > GY)
        return trapeze_fail(err, TRAPEZE_ERANGE, "tile %d x %d outside the %ld x %ld grid", gx,
                            gy, GX, GY);
    trapeze_status s = alloc_for(m, out, err);
    long *load = calloc((size_t)m->m.n_sm, sizeof *load);
    if (s != TRAPEZE_OK || !load) {
        free(load);
        trapeze_grouping_free(out);
        return s != TRAPEZE_OK ? s : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    long tcx = (GX + gx - 1) / gx, tcy = (GY + gy - 1) / gy;
    for (long t = 0; t < tcx * tcy; t++) {
        long tx = tile_order ? t / tcy : t % tcx, ty = tile_order ? t % tcy : t / tcx;
        int q = 0;
        for (int k = 1; k < m->m.n_sm; k++)
            if (load[k] < load[q])
                q = k;
        for (long y = ty * gy; y < (ty + 1) * gy && y < GY; y++)
            for (long x = tx * gx; x < (tx + 1) * gx && x < GX; x++) {
                out->group[y * GX + x] = q;
                out->order[y * GX + x] = load[q]++;
            }
    }
    free(load);
    return TRAPEZE_OK;
}

/* ------------------------------------------------------------ relaxation */

typedef struct {
    const trapeze_group_model *m;
    int order;
    int cap;             /* the largest tile: TBs per SM at once, at most a fair share */
    int xmax, ymax;      /* shapes 1..xmax by 1..ymax */
    int vx, vy;          /* which of gx, gy move (index or -1; -1: held at 1) */
    double *cycles;      /* [order][gx][gy] cache, NAN until predicted */
    int evaluations, nlopt_evaluations;
    trapeze_status status;
    trapeze_error *err;
} relax;

static double *cell(relax *r, int order, int gx, int gy)
{
    return &r->cycles[((size_t)order * (r->xmax + 1) + gx) * (r->ymax + 1) + gy];
}

/* The discrete model at a whole shape (cached; e: evaluated again, its
 * values only: the search compares cycles, group_values.c). */
static double shape_cycles(relax *r, int order, int gx, int gy, trapeze_group_eval *e)
{
    double *c = cell(r, order, gx, gy);
    if (!isnan(*c) && !e)
        return *c;
    trapeze_grouping g;
    trapeze_group_eval local;
    if (!e)
        e = &local;
    if (trapeze_group_tiles(r->m, gx, gy, order, &g, r->err) != TRAPEZE_OK ||
        grp_group_evaluate_values(r->m, &g, e, r->err) != TRAPEZE_OK) {
        r->status = TRAPEZE_EFAIL;
        trapeze_grouping_free(&g);
        return HUGE_VAL;
    }
    trapeze_grouping_free(&g);
    r->evaluations++;
    return *c = e->cycles;
}

/* Bilinear interpolation between the four whole shapes around (u, v), and
 * its exact gradient. */
static double interpolate(relax *r, double u, double v, double *du, double *dv)
{
    int i = (int)floor(u), j = (int)floor(v);
    if (i >= r->xmax)
        i = r->xmax - 1;
    if (j >= r->ymax)
        j = r->ymax - 1;
    if (i < 1)
        i = 1;
    if (j < 1)
        j = 1;
    int i1 = i + 1 <= r->xmax ? i + 1 : i, j1 = j + 1 <= r->ymax ? j + 1 : j;
    double a = i1 > i ? u - i : 0, b = j1 > j ? v - j : 0;
    double c00 = shape_cycles(r, r->order, i, j, NULL), c10 = shape_cycles(r, r->order, i1, j, NULL);
    double c01 = shape_cycles(r, r->order, i, j1, NULL), c11 = shape_cycles(r, r->order, i1, j1, NULL);
    *du = i1 > i ? (1 - b) * (c10 - c00) + b * (c11 - c01) : 0;
    *dv = j1 > j ? (1 - a) * (c01 - c00) + a * (c11 - c10) : 0;
    return (1 - a) * (1 - b) * c00 + a * (1 - b) * c10 + (1 - a) * b * c01 + a * b * c11;
}

/* The interpolant as a model instance for the generic optimizer
 * (model/optimize.c): decisions (gx, gy) in [1, xmax] x [1, ymax], a
 * dimension with one whole shape held at 1 (`fixed`), and the constraint
 * gx * gy - cap <= 0 (the tile is resident at once) when both move. `self`
 * holds the search, whose cache it fills: one instance serves one thread. */
typedef struct {
    relax *r;
} tile_self;

static void tile_bounds(const void *self, double *lo, double *hi)
{
    const relax *r = ((const tile_self *)self)->r;
    lo[0] = lo[1] = 1;
    hi[0] = r->xmax;
    hi[1] = r->ymax;
}

static int tile_nconstraints(const void *self)
{
    const relax *r = ((const tile_self *)self)->r;
    return r->vx >= 0 && r->vy >= 0;
}

static double tile_resident(const void *self, int k, const double *x, double *grad)
{
    const relax *r = ((const tile_self *)self)->r;
    (void)k;
    if (grad) {
        grad[0] = x[1];
        grad[1] = x[0];
    }
    return x[0] * x[1] - r->cap;
}

/* A shape the discrete model cannot predict fails the whole search
 * (r->status); the optimizer sees a point outside the domain. */
static trapeze_status tile_evaluate(const void *self, const double *params, const double *x,
                                    double *value, double *dparams, double *dx,
                                    trapeze_error *err)
{
    relax *r = ((const tile_self *)self)->r;
    double du, dv;
    (void)params, (void)dparams, (void)err;
    *value = interpolate(r, x[0], x[1], &du, &dv);
    if (dx) {
        dx[0] = du;
        dx[1] = dv;
    }
    return r->status;
}

static const char *const tile_names[] = {"gx", "gy"};

static const trapeze_model_ops tile_ops = {
    .name = "group tiles",
    .ndecisions = 2,
    .decision_names = tile_names,
    .decision_bounds = tile_bounds,
    .nconstraints = tile_nconstraints,
    .constraint = tile_resident,
    .evaluate = tile_evaluate,
};

/* One SLSQP run from (u0, v0); keeps the best point in (*bu, *bv, *bc) when
 * NLopt converged and the end point is resident. */
static void relax_from(relax *r, double u0, double v0, double *bu, double *bv, double *bc)
{
    tile_self self = {r};
    trapeze_model model = {&tile_ops, &self};
    static const double ctol[] = {1e-9};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.algorithm = TRAPEZE_MINIMIZE_SLSQP;
    o.fixed = (r->vx < 0 ? 1u : 0u) | (r->vy < 0 ? 2u : 0u);
    o.xtol_rel = 1e-6;
    o.ftol_rel = -1;
    o.max_evaluations = 200;
    o.ctol = ctol;
    double x0[2] = {r->vx >= 0 ? u0 : 1, r->vy >= 0 ? v0 : 1};
    trapeze_minimum min;
    trapeze_status st = trapeze_model_minimize(&model, NULL, x0, &o, &min, NULL);
    r->nlopt_evaluations += min.evaluations;
    double u = min.x[0], v = min.x[1];
    if (st == TRAPEZE_OK && u * v <= r->cap + 1e-6 && min.value < *bc) {
        *bu = u, *bv = v, *bc = min.value;
    }
}

/* ------------------------------------------------------------ the search */

typedef struct {
    int gx, gy, order;
} shape;

static int add_shape(shape *list, int n, int max, const relax *r, int gx, int gy, int order)
{
    if (gx < 1 || gy < 1 || gx > r->xmax || gy > r->ymax ||
        (long)gx * gy > r->cap || n >= max)
        return n;
    for (int k = 0; k < n; k++)
        if (list[k].gx == gx && list[k].gy == gy && list[k].order == order)
            return n;
    list[n] = (shape){gx, gy, order};
    return n + 1;
}

/* The chosen grouping's evaluation with its gradients (the choice's eval,
 * as the API gives it): the candidate g, or else the tiles gx x gy. */
static trapeze_status best_eval(const trapeze_group_model *m, int gx, int gy, int order,
                                const trapeze_grouping *g, trapeze_group_eval *e,
                                trapeze_error *err)
{
    if (g)
        return trapeze_group_evaluate(m, g, e, err);
    trapeze_grouping tiles;
    memset(&tiles, 0, sizeof tiles);
    trapeze_status s = trapeze_group_tiles(m, gx, gy, order, &tiles, err);
    if (!s)
        s = trapeze_group_evaluate(m, &tiles, e, err);
    trapeze_grouping_free(&tiles);
    return s;
}

trapeze_status trapeze_group_optimize(const trapeze_group_model *m,
                                      const trapeze_grouping *candidates,
                                      const char *const *candidate_names,
                                      const double *measured_cycles, int n_candidates,
                                      double margin, trapeze_grouping *out,
                                      trapeze_group_choice *choice, trapeze_error *err)
{
    memset(choice, 0, sizeof *choice);
    memset(out, 0, sizeof *out);
    long GX, GY;
    grid_2d(m, &GX, &GY);
    /* a tile is resident at once (x) and leaves no SM idle (balance) */
    long fair = (m->n + m->m.n_sm - 1) / m->m.n_sm;
    int x = (int)(m->m.tbs_per_sm < fair ? m->m.tbs_per_sm : fair);
    relax r = {.m = m, .cap = x, .status = TRAPEZE_OK, .err = err};
    r.xmax = (int)(GX < x ? GX : x);
    r.ymax = (int)(GY < x ? GY : x);
    r.vx = r.xmax > 1 ? 0 : -1;
    r.vy = r.ymax > 1 ? (r.vx >= 0 ? 1 : 0) : -1;
    size_t cells = (size_t)2 * (r.xmax + 1) * (r.ymax + 1);
    r.cycles = malloc(cells * sizeof *r.cycles);
    if (!r.cycles)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (size_t k = 0; k < cells; k++)
        r.cycles[k] = NAN;

    /* relaxation, per tile order, from three starts */
    shape list[64];
    int n_shapes = 0;
    double best_relaxed = HUGE_VAL;
    for (int order = 0; order < 2 && r.status == TRAPEZE_OK; order++) {
        r.order = order;
        double bu = 1, bv = 1, bc = HUGE_VAL, s = sqrt((double)x);
        if (r.vx >= 0 || r.vy >= 0) {
            relax_from(&r, 1, fmin(r.ymax, x), &bu, &bv, &bc);
            relax_from(&r, fmin(r.xmax, x), 1, &bu, &bv, &bc);
            relax_from(&r, fmin(r.xmax, s), fmin(r.ymax, x / fmin(r.xmax, s)), &bu, &bv, &bc);
        }
        if (bc == HUGE_VAL) {   /* nothing to relax (1 x 1 shapes only) or no run converged */
            double du, dv;
            bc = interpolate(&r, bu, bv, &du, &dv);
        }
        if (bc < best_relaxed) {
            best_relaxed = bc;
            choice->gx_continuous = bu;
            choice->gy_continuous = bv;
        }
        /* rounding: the whole shapes around the optimum, and grown to fill the SM */
        int fx = (int)floor(bu + 1e-9), fy = (int)floor(bv + 1e-9);
        for (int ox = 0; ox <= 1; ox++)
            for (int oy = 0; oy <= 1; oy++) {
                int gx = fx + ox, gy = fy + oy;
                for (int o = 0; o < 2; o++) {
                    n_shapes = add_shape(list, n_shapes, 64, &r, gx, gy, o);
                    if (gx >= 1)
                        n_shapes = add_shape(list, n_shapes, 64, &r, gx,
                                             (int)fmin(r.ymax, x / gx), o);
                    if (gy >= 1)
                        n_shapes = add_shape(list, n_shapes, 64, &r,
                                             (int)fmin(r.xmax, x / gy), gy, o);
                }
            }
    }
    choice->relaxed_cycles = best_relaxed;

    /* refinement: every rounded shape, both orders, by the discrete model */
    double best = HUGE_VAL;
    for (int k = 0; k < n_shapes && r.status == TRAPEZE_OK; k++) {
        trapeze_group_eval e;
        double c = shape_cycles(&r, list[k].order, list[k].gx, list[k].gy, &e);
        if (c < best) {
            best = c;
            choice->gx = list[k].gx;
            choice->gy = list[k].gy;
            choice->tile_order = list[k].order;
            choice->eval = e;
        }
    }
    choice->model_evaluations = r.evaluations;
    choice->nlopt_evaluations = r.nlopt_evaluations;
    free(r.cycles);
    if (r.status != TRAPEZE_OK)
        return r.status;
    trapeze_status s = TRAPEZE_OK;
    snprintf(choice->source, sizeof choice->source, "tiles");
    /* the candidates: by their measured cycles when given (they were
     * simulated: measurement decides among them), else by the model; the
     * default (candidates[0]) is left only for a better one */
    int winner = -1;
    trapeze_group_eval tiles = choice->eval;
    if (n_candidates > 0) {
        trapeze_group_eval e[n_candidates];
        for (int c = 0; c < n_candidates; c++) {
            s = grp_group_evaluate_values(m, &candidates[c], &e[c], err);
            if (s != TRAPEZE_OK)
                return s;
            choice->model_evaluations++;
        }
        winner = 0;
        for (int c = 1; c < n_candidates; c++) {
            double now_c = measured_cycles ? measured_cycles[c] : e[c].cycles;
            double now_w = measured_cycles ? measured_cycles[winner] : e[winner].cycles;
            int beats_default = measured_cycles ? measured_cycles[c] < measured_cycles[0]
                                                : e[c].cycles < e[0].cycles * (1 - margin);
            if (now_c < now_w && beats_default)
                winner = c;
        }
        /* the tiles replace it when the model predicts them faster than the
         * winner by more than the margin, the winner taken at the lower of
         * its prediction and its measurement (a model that overestimates the
         * winner must not let a tile through) */
        double bar = e[winner].cycles;
        if (measured_cycles && measured_cycles[winner] < bar)
            bar = measured_cycles[winner];
        if (tiles.cycles < bar * (1 - margin))
            winner = -1;
        else if ((s = best_eval(m, 0, 0, 0, &candidates[winner], &choice->eval, err)))
            return s;
    }
    if (winner >= 0) {
        snprintf(choice->source, sizeof choice->source, "%s",
                 candidate_names ? candidate_names[winner] : "candidate");
        choice->gx = choice->gy = choice->tile_order = 0;
        s = trapeze_grouping_alloc(out, m->n, candidates[winner].n_groups, err);
        if (s != TRAPEZE_OK)
            return s;
        memcpy(out->group, candidates[winner].group, (size_t)m->n * sizeof *out->group);
        memcpy(out->order, candidates[winner].order, (size_t)m->n * sizeof *out->order);
        return TRAPEZE_OK;
    }
    if (best < HUGE_VAL &&
        (s = best_eval(m, choice->gx, choice->gy, choice->tile_order, NULL, &choice->eval, err)))
        return s;
    return trapeze_group_tiles(m, choice->gx, choice->gy, choice->tile_order, out, err);
}
