/*
 * optimize.c - the generic optimizer: minimizes any model's value
 * (model/model.h) over its decision variables at fixed parameters, with
 * NLopt's gradient-based MMA, SLSQP or L-BFGS inside a box and under the
 * model's inequality constraints, from one or more start points
 * (multi-start; the extra starts come from a Sobol sequence, so runs are
 * reproducible).
 *
 * Owns the search only: it must not know any model's equations, and it
 * never writes into a model (parameters are passed in).
 */
#include <gsl/gsl_qrng.h>
#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/model.h"

/* An objective value for points where the model is undefined (outside its
 * domain): MMA treats it as a failed, non-conservative step and shrinks. */
#define OUTSIDE_VALUE 1e30

/* The vectors one search needs, each nd long: on the stack up to
 * TRAPEZE_MODEL_MAX_DECISIONS, on the heap above. */
enum { V_X, V_FULL, V_LO, V_HI, V_X0, V_XR, V_U, V_BOX_LO, V_BOX_HI, N_VECTORS };

/* The search runs over the free variables only; `x` holds the full vector
 * with the fixed ones in place. */
typedef struct {
    const trapeze_model *model;
    const double *params;
    double *x, *full;           /* full: a gradient over every decision */
    int *free_var;
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
    double value;
    expand(s, xr);
    s->evaluations++;
    if (trapeze_model_evaluate(s->model, s->params, s->x, &value, NULL, grad ? s->full : NULL,
                               NULL) != TRAPEZE_OK) {
        if (grad)
            memset(grad, 0, n * sizeof *grad);
        return OUTSIDE_VALUE;
    }
    for (unsigned j = 0; grad && j < n; j++)
        grad[j] = s->full[s->free_var[j]];
    return value;
}

static double constraint(unsigned n, const double *xr, double *grad, void *data)
{
    const constraint_ref *c = data;
    expand(c->s, xr);
    const trapeze_model *m = c->s->model;
    double v = m->ops->constraint(m->self, c->k, c->s->x, grad ? c->s->full : NULL);
    for (unsigned j = 0; grad && j < n; j++)
        grad[j] = c->s->full[c->s->free_var[j]];
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
    if (nc > 0 && o->algorithm == TRAPEZE_MINIMIZE_LBFGS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: L-BFGS takes no constraints", m->ops->name);
    static const nlopt_algorithm algorithms[] = {NLOPT_LD_MMA, NLOPT_LD_SLSQP, NLOPT_LD_LBFGS};
    static const char *const names[] = {"MMA", "SLSQP", "L-BFGS"};
    nlopt_opt opt = nlopt_create(algorithms[o->algorithm], s->nfree);
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
    nlopt_set_xtol_rel(opt, o->xtol_rel > 0 ? o->xtol_rel : o->xtol_rel < 0 ? 0 : 1e-12);
    nlopt_set_ftol_rel(opt, o->ftol_rel > 0 ? o->ftol_rel : o->ftol_rel < 0 ? 0 : 1e-14);
    nlopt_set_maxeval(opt, o->max_evaluations > 0 ? o->max_evaluations : 2000);
    nlopt_result r = nlopt_optimize(opt, xr, f);
    nlopt_destroy(opt);
    if (o->keep_end_point)
        return TRAPEZE_OK;
    if (o->accept_roundoff && r == NLOPT_ROUNDOFF_LIMITED)
        r = NLOPT_SUCCESS;
    if (r < 0 || *f >= OUTSIDE_VALUE)
        return trapeze_fail(err, TRAPEZE_EFAIL, "%s: NLopt %s failed (code %d)", m->ops->name,
                            names[o->algorithm], (int)r);
    return TRAPEZE_OK;
}

static int decision_count(const trapeze_model *m)
{
    return m->ops->decision_count ? m->ops->decision_count(m->self) : m->ops->ndecisions;
}

static trapeze_status check_options(const trapeze_model *m, const trapeze_minimize_options *o,
                                    trapeze_error *err)
{
    int nd = decision_count(m);
    if (nd < 1 || (nd > TRAPEZE_MODEL_MAX_DECISIONS && !o->x_out))
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "%s: %d decision variables (1 to %d without x_out)", m->ops->name,
                            nd, TRAPEZE_MODEL_MAX_DECISIONS);
    if (o->algorithm < TRAPEZE_MINIMIZE_MMA || o->algorithm > TRAPEZE_MINIMIZE_LBFGS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: unknown algorithm %d", m->ops->name,
                            (int)o->algorithm);
    if (o->n_starts < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d start points", m->ops->name,
                            o->n_starts);
    return TRAPEZE_OK;
}

/* The search's vectors: `stack` (N_VECTORS * TRAPEZE_MODEL_MAX_DECISIONS
 * doubles) when they fit, else one heap block; NULL when out of memory. */
static double *vectors(int nd, double *stack, int *stack_idx, int **free_var)
{
    if (nd <= TRAPEZE_MODEL_MAX_DECISIONS) {
        *free_var = stack_idx;
        return stack;
    }
    double *v = malloc((size_t)nd * (N_VECTORS * sizeof *v + sizeof **free_var));
    *free_var = v ? (int *)(v + (size_t)nd * N_VECTORS) : NULL;
    return v;
}

/* Every start in turn; the best end point into out (and o->x_out). */
static trapeze_status multi_start(search *s, double *v, int nd, const trapeze_minimize_options *o,
                                  trapeze_minimum *out, trapeze_error *err)
{
    double *lo = v + V_LO * nd, *hi = v + V_HI * nd, *x0 = v + V_X0 * nd;
    double *xr = v + V_XR * nd, *u = v + V_U * nd;
    gsl_qrng *sobol = o->n_starts > 1 ? gsl_qrng_alloc(gsl_qrng_sobol, s->nfree) : NULL;
    if (o->n_starts > 1 && !sobol)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    /* A start that fails (say, MMA cannot leave an undefined region) does
     * not sink the others; the first failure is reported when all fail. */
    trapeze_error first_err = {0};
    trapeze_status first = TRAPEZE_OK, st = TRAPEZE_OK;
    int found = 0;
    out->value = INFINITY;
    for (int start = 0; start < o->n_starts; start++) {
        double f = INFINITY;
        trapeze_error e;
        for (unsigned j = 0; j < s->nfree; j++)
            xr[j] = x0[s->free_var[j]];
        if (start > 0) {
            gsl_qrng_get(sobol, u);
            for (unsigned j = 0; j < s->nfree; j++)
                xr[j] = lo[j] + u[j] * (hi[j] - lo[j]);
        }
        trapeze_status r = run_one(s, lo, hi, o, xr, &f, &e);
        if (r && !first) {
            first = r;
            first_err = e;
        }
        if (!r && (f < out->value || (o->keep_end_point && !found))) {
            found = 1;
            out->value = f;
            expand(s, xr);
            if (nd <= TRAPEZE_MODEL_MAX_DECISIONS)
                memcpy(out->x, s->x, (size_t)nd * sizeof *s->x);
            if (o->x_out)
                memcpy(o->x_out, s->x, (size_t)nd * sizeof *s->x);
        }
    }
    if (!found) {
        if (err)
            *err = first_err;
        st = first;
    }
    gsl_qrng_free(sobol);
    return st;
}

trapeze_status trapeze_model_minimize(const trapeze_model *m, const double *params,
                                      const double *x_start, const trapeze_minimize_options *o,
                                      trapeze_minimum *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    trapeze_status st = check_options(m, o, err);
    if (st)
        return st;
    int nd = decision_count(m), stack_idx[TRAPEZE_MODEL_MAX_DECISIONS];
    double stack[N_VECTORS * TRAPEZE_MODEL_MAX_DECISIONS];
    search s = {.model = m, .params = params};
    double *v = vectors(nd, stack, stack_idx, &s.free_var);
    if (!v)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    s.x = v + V_X * nd;
    s.full = v + V_FULL * nd;
    double *lo = v + V_LO * nd, *hi = v + V_HI * nd, *x0 = v + V_X0 * nd;
    double *box_lo = v + V_BOX_LO * nd, *box_hi = v + V_BOX_HI * nd;
    if (!o->lo || !o->hi)
        m->ops->decision_bounds(m->self, box_lo, box_hi);
    for (int i = 0; i < nd; i++) {
        s.x[i] = x_start[i];
        if (i < 32 && (o->fixed & (1u << i)))
            continue;
        lo[s.nfree] = o->lo ? o->lo[i] : box_lo[i];
        hi[s.nfree] = o->hi ? o->hi[i] : box_hi[i];
        s.free_var[s.nfree++] = i;
    }
    memcpy(x0, s.x, (size_t)nd * sizeof *x0);
    if (s.nfree == 0) { /* nothing to move: the value at the start */
        if (nd <= TRAPEZE_MODEL_MAX_DECISIONS)
            memcpy(out->x, x0, (size_t)nd * sizeof *x0);
        if (o->x_out)
            memcpy(o->x_out, x0, (size_t)nd * sizeof *x0);
        out->evaluations = 1;
        st = trapeze_model_evaluate(m, params, x0, &out->value, NULL, NULL, err);
    } else {
        st = multi_start(&s, v, nd, o, out, err);
        out->evaluations = s.evaluations;
    }
    if (v != stack)
        free(v);
    return st;
}
