/*
 * optimize.c - choosing the trapezoid height (and optionally the block
 * edge) by gradient-based constrained minimization of CPL with NLopt's MMA,
 * under Eq. 5.20 (blk_len - HaloWidth_i * h > 0). Also the integer choices:
 * floor(h*) as the dissertation did, and the exact integer argmin.
 *
 * Owns the search only; the equations are ghostzone.c's.
 */
#include <math.h>
#include <nlopt.h>
#include <string.h>

#include "common/error.h"

/* 5.20 is strict; keep the continuous search this far inside it, relative
 * to blk_len, so the model stays finite (T grows without bound at the edge). */
#define EDGE_MARGIN 1e-9
/* An objective value for points outside 5.20, where the model is undefined:
 * MMA treats it as a failed, non-conservative step and shrinks. */
#define OUTSIDE_VALUE 1e30

typedef struct {
    const trapeze_gz_model *model;
    trapeze_sync sync;
    double fixed_blk;   /* used when the block edge is not a variable */
    int with_block;
    int evaluations;
} search;

static double objective(unsigned n, const double *x, double *grad, void *data)
{
    search *s = data;
    double blk = s->with_block ? x[1] : s->fixed_blk;
    trapeze_gz_eval e;
    s->evaluations++;
    if (trapeze_gz_evaluate(s->model, s->sync, x[0], blk, &e, NULL) != TRAPEZE_OK) {
        if (grad)
            memset(grad, 0, n * sizeof *grad);
        return OUTSIDE_VALUE;
    }
    if (grad) {
        grad[0] = e.dcpl_dh;
        if (s->with_block)
            grad[1] = e.dcpl_dblk;
    }
    return e.cpl;
}

typedef struct {
    search *s;
    int dim;  /* which HaloWidth_i */
} edge;

/* 5.20 as NLopt wants it, c(x) <= 0: HaloWidth_i * h - blk_len + margin <= 0. */
static double edge_constraint(unsigned n, const double *x, double *grad, void *data)
{
    const edge *c = data;
    int w = trapeze_gz_workload(c->s->model)->halo[c->dim];
    double blk = c->s->with_block ? x[1] : c->s->fixed_blk;
    if (grad) {
        grad[0] = w;
        if (n > 1)
            grad[1] = -1.0 + EDGE_MARGIN;
    }
    return w * x[0] - blk * (1.0 - EDGE_MARGIN);
}

static int widest_halo(const trapeze_workload *w)
{
    int most = 0;
    for (int i = 0; i < w->dims; i++)
        if (w->halo[i] > most)
            most = w->halo[i];
    return most;
}

/* Largest block edge the GPU allows: threads per block and shared memory
 * per block (the staged arrays live in shared memory). */
static int largest_block(const trapeze_gz_model *m)
{
    const trapeze_workload *w = trapeze_gz_workload(m);
    const trapeze_gpu *g = trapeze_gz_gpu(m);
    int b = 1;
    for (;;) {
        double elems = pow(b + 1, w->dims);
        if (elems > g->max_threads_per_block ||
            elems * w->stencil_arrays * w->element_bytes > g->shmem_per_block)
            return b;
        b++;
    }
}

static trapeze_status run_nlopt(search *s, const double *lo, const double *hi, double *x,
                                trapeze_error *err)
{
    unsigned n = s->with_block ? 2 : 1;
    const trapeze_workload *w = trapeze_gz_workload(s->model);
    nlopt_opt opt = nlopt_create(NLOPT_LD_MMA, n);
    if (!opt)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    edge edges[TRAPEZE_MAX_DIMS];
    nlopt_set_lower_bounds(opt, lo);
    nlopt_set_upper_bounds(opt, hi);
    nlopt_set_min_objective(opt, objective, s);
    for (int i = 0; i < w->dims; i++) {
        edges[i] = (edge){s, i};
        nlopt_add_inequality_constraint(opt, edge_constraint, &edges[i], 0.0);
    }
    nlopt_set_xtol_rel(opt, 1e-12);
    nlopt_set_ftol_rel(opt, 1e-14);
    nlopt_set_maxeval(opt, 2000);
    double f;
    nlopt_result r = nlopt_optimize(opt, x, &f);
    nlopt_destroy(opt);
    if (r < 0 || f >= OUTSIDE_VALUE)
        return trapeze_fail(err, TRAPEZE_EFAIL, "%s: NLopt MMA failed (code %d)", w->name,
                            (int)r);
    return TRAPEZE_OK;
}

static double cpl_at(const trapeze_gz_model *m, trapeze_sync sync, double h, double blk)
{
    trapeze_gz_eval e;
    return trapeze_gz_evaluate(m, sync, h, blk, &e, NULL) == TRAPEZE_OK ? e.cpl : INFINITY;
}

/* Continuous h* at a fixed block edge, then floor and integer argmin. */
static trapeze_status optimize_height(const trapeze_gz_model *m, trapeze_sync sync, int blk,
                                      trapeze_gz_optimum *out, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_gz_workload(m);
    int hmax = trapeze_gz_max_height(m, blk);
    if (hmax < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: block edge %d admits no height (5.20)",
                            w->name, blk);
    search s = {m, sync, blk, 0, 0};
    double lo = 1.0, hi = blk * (1.0 - EDGE_MARGIN) / widest_halo(w), x = 1.0;
    trapeze_status st = run_nlopt(&s, &lo, &hi, &x, err);
    if (st)
        return st;
    out->sync = sync;
    out->blk_len = blk;
    out->h_continuous = x;
    out->h_floor = (int)floor(x);
    if (out->h_floor > hmax)
        out->h_floor = hmax; /* x can sit in (hmax, hmax + 1) only at the strict edge */
    out->cpl_floor = cpl_at(m, sync, out->h_floor, blk);
    out->cpl_h1 = cpl_at(m, sync, 1, blk);
    out->h_argmin = 1;
    out->cpl_argmin = out->cpl_h1;
    for (int h = 2; h <= hmax; h++) {
        double c = cpl_at(m, sync, h, blk);
        if (c < out->cpl_argmin) {
            out->cpl_argmin = c;
            out->h_argmin = h;
        }
    }
    out->evaluations = s.evaluations;
    return TRAPEZE_OK;
}

/* (h, blk_len) jointly: NLopt on both, then the block edge rounded to the
 * better neighbour and the height re-optimized there. */
static trapeze_status optimize_both(const trapeze_gz_model *m, trapeze_sync sync,
                                    trapeze_gz_optimum *out, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_gz_workload(m);
    int bmax = largest_block(m), wmax = widest_halo(w);
    if (bmax <= wmax)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "%s: the GPU's largest block (edge %d) leaves no output tile",
                            w->name, bmax);
    search s = {m, sync, 0, 1, 0};
    double lo[2] = {1.0, wmax + 1.0}, hi[2] = {(double)bmax / wmax, bmax};
    double x[2] = {1.0, bmax};
    trapeze_status st = run_nlopt(&s, lo, hi, x, err);
    if (st)
        return st;
    trapeze_gz_optimum down, up;
    int b_lo = (int)floor(x[1]), b_hi = b_lo + 1 <= bmax ? b_lo + 1 : b_lo;
    if ((st = optimize_height(m, sync, b_lo, &down, err)) ||
        (st = optimize_height(m, sync, b_hi, &up, err)))
        return st;
    *out = up.cpl_floor < down.cpl_floor ? up : down;
    out->blk_continuous = x[1];
    out->evaluations += s.evaluations + (out == &up ? down.evaluations : up.evaluations);
    return TRAPEZE_OK;
}

trapeze_status trapeze_gz_optimize(const trapeze_gz_model *m, trapeze_sync sync,
                                   int optimize_block, trapeze_gz_optimum *out,
                                   trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (optimize_block)
        return optimize_both(m, sync, out, err);
    int blk = trapeze_gz_workload(m)->blk_len;
    trapeze_status st = optimize_height(m, sync, blk, out, err);
    out->blk_continuous = blk;
    return st;
}
