/*
 * ghostzone_model.c - the ghost-zone model behind the generic interface
 * (model/model.h): its parameter table, its decision variables (h, blk_len)
 * with their box and the constraints of Eq. 5.20, and an evaluate that
 * returns CPL with its gradients. The generic fit, cross-validation and
 * optimizer reach the model only through this table.
 *
 * Owns the mapping only; the equations are ghostzone.c's, the height
 * choices (floor, integer argmin) ghostzone_optimize.c's.
 */
#include <math.h>

#include "model/ghostzone.h"

_Static_assert(TRAPEZE_GHOSTZONE_NPARAMS <= TRAPEZE_MODEL_MAX_PARAMS, "raise TRAPEZE_MODEL_MAX_PARAMS");

static const char *const decision_names[GZ_NDECISIONS] = {"h", "blk_len"};

int gz_widest_halo(const trapeze_workload *w)
{
    int most = 0;
    for (int i = 0; i < w->dims; i++)
        if (w->halo[i] > most)
            most = w->halo[i];
    return most;
}

/* The staged arrays live in shared memory; a block has at most
 * max_threads_per_block threads, one per element of its input tile. */
int gz_largest_block(const trapeze_ghostzone_model *m)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    const trapeze_gpu *g = trapeze_ghostzone_gpu(m);
    int b = 1;
    for (;;) {
        double elems = pow(b + 1, w->dims);
        if (elems > g->max_threads_per_block ||
            elems * w->stencil_arrays * w->element_bytes > g->shmem_per_block)
            return b;
        b++;
    }
}

/* h from 1 to the largest block over the narrowest halo; blk from one
 * output element past the widest halo to the GPU's largest block. */
static void decision_bounds(const void *self, double *lo, double *hi)
{
    const gz_instance *in = self;
    int bmax = gz_largest_block(in->gz), wmax = gz_widest_halo(trapeze_ghostzone_workload(in->gz));
    lo[GZ_DECISION_H] = 1.0;
    hi[GZ_DECISION_H] = wmax > 0 ? (double)bmax / wmax : bmax;
    lo[GZ_DECISION_BLK] = wmax + 1.0;
    hi[GZ_DECISION_BLK] = bmax;
}

static int nconstraints(const void *self)
{
    const gz_instance *in = self;
    return trapeze_ghostzone_workload(in->gz)->dims;
}

/* 5.20 as c(x) <= 0: HaloWidth_k * h - blk_len (1 - margin) <= 0. */
static double constraint(const void *self, int k, const double *x, double *grad)
{
    const gz_instance *in = self;
    int w = trapeze_ghostzone_workload(in->gz)->halo[k];
    if (grad) {
        grad[GZ_DECISION_H] = w;
        grad[GZ_DECISION_BLK] = -1.0 + GZ_EDGE_MARGIN;
    }
    return w * x[GZ_DECISION_H] - x[GZ_DECISION_BLK] * (1.0 - GZ_EDGE_MARGIN);
}

static trapeze_status evaluate(const void *self, const double *params, const double *x,
                               double *value, double *dparams, double *dx, trapeze_error *err)
{
    const gz_instance *in = self;
    trapeze_ghostzone_eval e;
    trapeze_status s = gz_evaluate_at(in->gz, params, in->sync, x[GZ_DECISION_H],
                                      x[GZ_DECISION_BLK], dparams ? GZ_GRAD_PARAMS : GZ_GRAD_HB,
                                      &e, err);
    if (s)
        return s;
    *value = e.cpl;
    for (int i = 0; dparams && i < TRAPEZE_GHOSTZONE_NPARAMS; i++)
        dparams[i] = e.dcpl_dparam[i];
    if (dx) {
        dx[GZ_DECISION_H] = e.dcpl_dh;
        dx[GZ_DECISION_BLK] = e.dcpl_dblk;
    }
    return TRAPEZE_OK;
}

const trapeze_model_ops gz_model_ops = {
    .name = "ghostzone",
    .nparams = TRAPEZE_GHOSTZONE_NPARAMS,
    .param_names = gz_param_names,
    .param_lo = gz_param_min,
    .param_hi = gz_param_max,
    .ndecisions = GZ_NDECISIONS,
    .decision_names = decision_names,
    .decision_bounds = decision_bounds,
    .nconstraints = nconstraints,
    .constraint = constraint,
    .evaluate = evaluate,
};

trapeze_model gz_as_model(const gz_instance *inst)
{
    return (trapeze_model){&gz_model_ops, inst};
}
