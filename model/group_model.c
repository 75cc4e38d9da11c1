/*
 * group_model.c - the grouping model behind the generic interface
 * (model/model.h): its parameter table and an evaluate that returns one
 * observable (cycles, L2 accesses or DRAM reads) of one fixed grouping with
 * its exact gradient in the parameters. The generic fit and
 * cross-validation reach the model only through this table. It has no
 * decision variables here: the grouping is part of the instance (the tile
 * search is group_opt.c's).
 */
#include <string.h>

#include "common/error.h"
#include "model/group.h"

_Static_assert(TRAPEZE_GROUP_NPARAMS <= TRAPEZE_MODEL_MAX_PARAMS, "raise TRAPEZE_MODEL_MAX_PARAMS");

static void no_bounds(const void *self, double *lo, double *hi)
{
    (void)self, (void)lo, (void)hi;
}

/* The grouping's duals at params: its memo's when they were made at these
 * params, else evaluated (into the memo, when it has one). */
static trapeze_status duals_at(const grp_instance *in, const double *params, grp_duals *local,
                               const grp_duals **out, trapeze_error *err)
{
    grp_memo *m = in->memo;
    if (m && m->valid && !memcmp(m->params, params, sizeof m->params)) {
        *out = &m->d;
        return TRAPEZE_OK;
    }
    grp_duals *d = m ? &m->d : local;
    trapeze_status s = grp_evaluate_duals(in->model, params, in->grouping, d, err);
    if (m) {
        m->valid = s == TRAPEZE_OK;
        memcpy(m->params, params, sizeof m->params);
    }
    *out = d;
    return s;
}

static trapeze_status evaluate(const void *self, const double *params, const double *x,
                               double *value, double *dparams, double *dx, trapeze_error *err)
{
    const grp_instance *in = self;
    grp_duals local;
    const grp_duals *d;
    (void)x, (void)dx;
    trapeze_status s = duals_at(in, params, &local, &d, err);
    if (s)
        return s;
    const grp_dual *v = in->output == GRP_OUT_CYCLES ? &d->cycles
                        : in->output == GRP_OUT_L2   ? &d->l2
                                                     : &d->dram;
    *value = v->v;
    for (int k = 0; dparams && k < TRAPEZE_GROUP_NPARAMS; k++)
        dparams[k] = v->d[GRP_VAR_PARAM0 + k];
    return TRAPEZE_OK;
}

const trapeze_model_ops grp_model_ops = {
    .name = "group",
    .nparams = TRAPEZE_GROUP_NPARAMS,
    .param_names = grp_param_names,
    .param_lo = grp_param_min,
    .param_hi = grp_param_max,
    .ndecisions = 0,
    .decision_names = NULL,
    .decision_bounds = no_bounds,
    .evaluate = evaluate,
};

trapeze_model grp_as_model(const grp_instance *inst)
{
    return (trapeze_model){&grp_model_ops, inst};
}
