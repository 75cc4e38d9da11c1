/*
 * ghostzone_optimize.c - choosing the trapezoid height (and optionally the
 * block edge) of the ghost-zone model: the continuous optimum from the
 * generic optimizer (model/optimize.c: NLopt's MMA under Eq. 5.20), then
 * the integer choices: floor(h*) as the dissertation did, and the exact
 * integer argmin; a given height's figures; the choice of sync mode.
 *
 * Owns the ghost-zone choices only; the search is optimize.c's, the
 * equations ghostzone.c's, the constraints ghostzone_model.c's.
 */
#include <math.h>
#include <string.h>

#include "common/error.h"
#include "model/ghostzone.h"

/* MMA from `x` (h, blk) over the box, h only or both; the model's own
 * parameters. */
static trapeze_status search(const trapeze_ghostzone_model *m, trapeze_sync sync, const double *lo,
                             const double *hi, unsigned fixed, double *x, int *evaluations,
                             trapeze_error *err)
{
    gz_instance in = {m, sync};
    trapeze_model model = gz_as_model(&in);
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.lo = lo;
    o.hi = hi;
    o.fixed = fixed;
    trapeze_minimum best;
    trapeze_status st = trapeze_model_minimize(&model, gz_param_values(m), x, &o, &best, err);
    *evaluations = best.evaluations;
    if (st)
        return trapeze_fail(err, st, "%s: NLopt MMA failed to minimize CPL",
                            trapeze_ghostzone_workload(m)->name);
    memcpy(x, best.x, GZ_NDECISIONS * sizeof *x);
    return TRAPEZE_OK;
}

static double cpl_at(const trapeze_ghostzone_model *m, trapeze_sync sync, double h, double blk)
{
    trapeze_ghostzone_eval e;
    return gz_evaluate_at(m, gz_param_values(m), sync, h, blk, GZ_GRAD_HB, &e, NULL) == TRAPEZE_OK
        ? e.cpl : INFINITY;
}

/* Continuous h* at a fixed block edge, then floor and integer argmin. */
static trapeze_status optimize_height(const trapeze_ghostzone_model *m, trapeze_sync sync, int blk,
                                      trapeze_ghostzone_optimum *out, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    int hmax = trapeze_ghostzone_max_height(m, blk);
    if (hmax < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: block edge %d admits no height (5.20)",
                            w->name, blk);
    double lo[GZ_NDECISIONS] = {1.0, blk}, x[GZ_NDECISIONS] = {1.0, blk};
    double hi[GZ_NDECISIONS] = {blk * (1.0 - GZ_EDGE_MARGIN) / gz_widest_halo(w), blk};
    int evaluations;
    trapeze_status st = search(m, sync, lo, hi, 1u << GZ_DECISION_BLK, x, &evaluations, err);
    if (st)
        return st;
    out->sync = sync;
    out->blk_len = blk;
    out->h_continuous = x[GZ_DECISION_H];
    out->h_floor = (int)floor(out->h_continuous);
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
    out->evaluations = evaluations;
    return TRAPEZE_OK;
}

/* (h, blk_len) jointly: MMA on both, then the block edge rounded to the
 * better neighbour and the height re-optimized there. Every search counts
 * toward the evaluations: the joint one and both neighbours'. */
static trapeze_status optimize_both(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                    trapeze_ghostzone_optimum *out, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    int bmax = gz_largest_block(m), wmax = gz_widest_halo(w);
    if (bmax <= wmax)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "%s: the GPU's largest block (edge %d) leaves no output tile",
                            w->name, bmax);
    double lo[GZ_NDECISIONS] = {1.0, wmax + 1.0}, hi[GZ_NDECISIONS] = {(double)bmax / wmax, bmax};
    double x[GZ_NDECISIONS] = {1.0, bmax};
    int evaluations;
    trapeze_status st = search(m, sync, lo, hi, 0, x, &evaluations, err);
    if (st)
        return st;
    trapeze_ghostzone_optimum down, up;
    int b_lo = (int)floor(x[GZ_DECISION_BLK]), b_hi = b_lo + 1 <= bmax ? b_lo + 1 : b_lo;
    if ((st = optimize_height(m, sync, b_lo, &down, err)) ||
        (st = optimize_height(m, sync, b_hi, &up, err)))
        return st;
    *out = up.cpl_floor < down.cpl_floor ? up : down;
    out->blk_continuous = x[GZ_DECISION_BLK];
    out->evaluations = evaluations + down.evaluations + up.evaluations;
    return TRAPEZE_OK;
}

trapeze_status trapeze_ghostzone_optimize(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                          int optimize_block, trapeze_ghostzone_optimum *out,
                                          trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (optimize_block)
        return optimize_both(m, sync, out, err);
    int blk = trapeze_ghostzone_workload(m)->blk_len;
    trapeze_status st = optimize_height(m, sync, blk, out, err);
    out->blk_continuous = blk;
    return st;
}

trapeze_status trapeze_ghostzone_at_height(const trapeze_ghostzone_model *m, trapeze_sync sync, int h,
                                           trapeze_ghostzone_optimum *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    trapeze_ghostzone_eval e, one;
    int blk = trapeze_ghostzone_workload(m)->blk_len;
    trapeze_status s = trapeze_ghostzone_evaluate(m, sync, (double)h, blk, &e, err);
    if (!s)
        s = trapeze_ghostzone_evaluate(m, sync, 1, blk, &one, err);
    if (s)
        return s;
    out->sync = sync;
    out->blk_len = blk;
    out->blk_continuous = blk;
    out->h_continuous = (double)h;
    out->h_floor = out->h_argmin = h;
    out->cpl_floor = out->cpl_argmin = e.cpl;
    out->cpl_h1 = one.cpl;
    return TRAPEZE_OK;
}

trapeze_status trapeze_ghostzone_decide(const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                        int n_modes, int optimize_block, int height,
                                        trapeze_ghostzone_decision *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (n_modes < 1 || n_modes > 2 || (height > 0 && optimize_block))
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "%s: one or two sync modes, and a fixed height or a block search",
                            trapeze_ghostzone_workload(m)->name);
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; i < n_modes && !s; i++)
        s = height > 0 ? trapeze_ghostzone_at_height(m, modes[i], height, &out->mode[i], err)
                       : trapeze_ghostzone_optimize(m, modes[i], optimize_block, &out->mode[i], err);
    if (s)
        return s;
    out->n_modes = n_modes;
    out->chosen = n_modes == 2 && out->mode[1].cpl_argmin < out->mode[0].cpl_argmin ? 1 : 0;
    return TRAPEZE_OK;
}
