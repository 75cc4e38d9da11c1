/*
 * optimize.c - the generic optimizer: minimizes any model's value
 * (model/model.h) over its decision variables at fixed parameters, with
 * NLopt's gradient-based MMA or SLSQP inside a box and under the model's
 * inequality constraints, from one or more start points (multi-start; the
 * extra starts come from a Sobol sequence, so runs are reproducible).
 *
 * Owns the search only: it must not know any model's equations, and it
 * never writes into a model (parameters are passed in).
 */
#include <gsl/gsl_qrng.h>
#include <math.h>
#include <nlopt.h>
#include <string.h>

#include "common/error.h"
#include "model/model.h"

/* An objective value for points where the model is undefined (outside its
 * domain): MMA treats it as a failed, non-conservative step and shrinks. */
#define OUTSIDE_VALUE 1e30

/* The search runs over the free variables only; `x` holds the full vector
 * with the fixed ones in place. */
typedef struct {
    const trapeze_model *model;
    const double *params;
    double x[TRAPEZE_MODEL_MAX_DECISIONS];
    int free_var[TRAPEZE_MODEL_MAX_DECISIONS];
    unsigned nfree;
    int evaluations;
} search;

typedef struct {
    search *s;
    int k;
} constraint_ref;

static void expand(search *s, const double *xr)
{
    for (unsigned j = 0; j < s->nfree; j++)
        s->x[s->free_var[j]] = xr[j];
}

static double objective(unsigned n, const double *xr, double *grad, void *data)
{
    search *s = data;
    double value, full[TRAPEZE_MODEL_MAX_DECISIONS];
    expand(s, xr);
    s->evaluations++;
    if (trapeze_model_evaluate(s->model, s->params, s->x, &value, NULL, grad ? full : NULL,
                               NULL) != TRAPEZE_OK) {
        if (grad)
            memset(grad, 0, n * sizeof *grad);
        return OUTSIDE_VALUE;
    }
    for (unsigned j = 0; grad && j < n; j++)
        grad[j] = full[s->free_var[j]];
    return value;
}

static double constraint(unsigned n, const double *xr, double *grad, void *data)
{
    const constraint_ref *c = data;
    double full[TRAPEZE_MODEL_MAX_DECISIONS];
    expand(c->s, xr);
    const trapeze_model *m = c->s->model;
    double v = m->ops->constraint(m->self, c->k, c->s->x, grad ? full : NULL);
    for (unsigned j = 0; grad && j < n; j++)
        grad[j] = full[c->s->free_var[j]];
    return v;
}

void trapeze_minimize_options_default(trapeze_minimize_options *o)
{
    memset(o, 0, sizeof *o);
    o->n_starts = 1;
}

/* One run from xr (reduced), leaving the end point there. */
static trapeze_status run_one(search *s, const double *lo, const double *hi,
                              const trapeze_minimize_options *o, double *xr, double *f,
                              trapeze_error *err)
{
    const trapeze_model *m = s->model;
    int nc = m->ops->nconstraints ? m->ops->nconstraints(m->self) : 0;
    if (nc > TRAPEZE_MODEL_MAX_CONSTRAINTS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d constraints (at most %d)",
                            m->ops->name, nc, TRAPEZE_MODEL_MAX_CONSTRAINTS);
    int slsqp = o->algorithm == TRAPEZE_MINIMIZE_SLSQP;
    nlopt_opt opt = nlopt_create(slsqp ? NLOPT_LD_SLSQP : NLOPT_LD_MMA, s->nfree);
    if (!opt)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    constraint_ref refs[TRAPEZE_MODEL_MAX_CONSTRAINTS];
    nlopt_set_lower_bounds(opt, lo);
    nlopt_set_upper_bounds(opt, hi);
    nlopt_set_min_objective(opt, objective, s);
    for (int k = 0; k < nc; k++) {
        refs[k] = (constraint_ref){s, k};
        nlopt_add_inequality_constraint(opt, constraint, &refs[k], o->ctol ? o->ctol[k] : 0.0);
    }
    nlopt_set_xtol_rel(opt, o->xtol_rel > 0 ? o->xtol_rel : 1e-12);
    nlopt_set_ftol_rel(opt, o->ftol_rel > 0 ? o->ftol_rel : 1e-14);
    nlopt_set_maxeval(opt, o->max_evaluations > 0 ? o->max_evaluations : 2000);
    nlopt_result r = nlopt_optimize(opt, xr, f);
    nlopt_destroy(opt);
    if (o->keep_end_point)
        return TRAPEZE_OK;
    if (r < 0 || *f >= OUTSIDE_VALUE)
        return trapeze_fail(err, TRAPEZE_EFAIL, "%s: NLopt %s failed (code %d)", m->ops->name,
                            slsqp ? "SLSQP" : "MMA", (int)r);
    return TRAPEZE_OK;
}

static trapeze_status check_options(const trapeze_model *m, const trapeze_minimize_options *o,
                                    trapeze_error *err)
{
    int nd = m->ops->ndecisions;
    if (nd < 1 || nd > TRAPEZE_MODEL_MAX_DECISIONS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d decision variables (1 to %d)",
                            m->ops->name, nd, TRAPEZE_MODEL_MAX_DECISIONS);
    if (o->n_starts < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d start points", m->ops->name,
                            o->n_starts);
    return TRAPEZE_OK;
}

trapeze_status trapeze_model_minimize(const trapeze_model *m, const double *params,
                                      const double *x_start, const trapeze_minimize_options *o,
                                      trapeze_minimum *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    trapeze_status st = check_options(m, o, err);
    if (st)
        return st;
    int nd = m->ops->ndecisions;
    double box_lo[TRAPEZE_MODEL_MAX_DECISIONS], box_hi[TRAPEZE_MODEL_MAX_DECISIONS];
    if (!o->lo || !o->hi)
        m->ops->decision_bounds(m->self, box_lo, box_hi);
    search s = {.model = m, .params = params};
    double lo[TRAPEZE_MODEL_MAX_DECISIONS], hi[TRAPEZE_MODEL_MAX_DECISIONS];
    for (int i = 0; i < nd; i++) {
        s.x[i] = x_start[i];
        if (o->fixed & (1u << i))
            continue;
        lo[s.nfree] = o->lo ? o->lo[i] : box_lo[i];
        hi[s.nfree] = o->hi ? o->hi[i] : box_hi[i];
        s.free_var[s.nfree++] = i;
    }
    double x0[TRAPEZE_MODEL_MAX_DECISIONS];
    memcpy(x0, s.x, sizeof x0);
    if (s.nfree == 0) { /* nothing to move: the value at the start */
        memcpy(out->x, x0, sizeof out->x);
        out->evaluations = 1;
        return trapeze_model_evaluate(m, params, x0, &out->value, NULL, NULL, err);
    }
    gsl_qrng *sobol = o->n_starts > 1 ? gsl_qrng_alloc(gsl_qrng_sobol, s.nfree) : NULL;
    if (o->n_starts > 1 && !sobol)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    /* A start that fails (say, MMA cannot leave an undefined region) does
     * not sink the others; the first failure is reported when all fail. */
    trapeze_error first_err = {0};
    trapeze_status first = TRAPEZE_OK;
    int found = 0;
    out->value = INFINITY;
    for (int start = 0; start < o->n_starts; start++) {
        double xr[TRAPEZE_MODEL_MAX_DECISIONS], u[TRAPEZE_MODEL_MAX_DECISIONS], f = INFINITY;
        trapeze_error e;
        for (unsigned j = 0; j < s.nfree; j++)
            xr[j] = x0[s.free_var[j]];
        if (start > 0) {
            gsl_qrng_get(sobol, u);
            for (unsigned j = 0; j < s.nfree; j++)
                xr[j] = lo[j] + u[j] * (hi[j] - lo[j]);
        }
        trapeze_status r = run_one(&s, lo, hi, o, xr, &f, &e);
        if (r && !first) {
            first = r;
            first_err = e;
        }
        if (!r && (f < out->value || (o->keep_end_point && !found))) {
            found = 1;
            out->value = f;
            expand(&s, xr);
            memcpy(out->x, s.x, sizeof out->x);
        }
    }
    if (!found) {
        if (err)
            *err = first_err;
        st = first;
    }
    gsl_qrng_free(sobol);
    out->evaluations = s.evaluations;
    return st;
}
