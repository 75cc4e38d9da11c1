/*
 * model.h - the interface every closed-form model implements, and the
 * generic machinery that works on it: the optimizer (model/optimize.c,
 * NLopt, multi-start, bounds, constraints; declared here) and the fit and
 * cross-validation (sampler/fit.c, GSL; declared in sampler/fit.h). A new model writes one ops table; it gets fitting,
 * cross-validation and optimization without copying them.
 *
 * A model *instance* (trapeze_model) is an ops table and a `self` pointer to
 * the model's own state: its inputs (workload, GPU, mode), never its fitted
 * parameters. Parameters and decision variables are passed to every
 * evaluation as plain vectors, so the fit and the optimizer never write into
 * a model, and one instance can be evaluated from many threads at once.
 *
 * Vectors: params[nparams] in the order of param_names; decisions
 * [ndecisions] in the order of decision_names. Gradients come back in the
 * same orders. A model computes them analytically (model/dual.h).
 */
#ifndef TRAPEZE_MODEL_MODEL_H
#define TRAPEZE_MODEL_MODEL_H

#include "trapeze.h"
#include "common/internal.h"

/* Fixed upper limits so the generic code keeps its vectors on the stack. */
#define TRAPEZE_MODEL_MAX_PARAMS 32
#define TRAPEZE_MODEL_MAX_DECISIONS 8
#define TRAPEZE_MODEL_MAX_CONSTRAINTS 8

typedef struct trapeze_model_ops {
    const char *name;

    /* Fitted parameters: names and physical ranges [lo, hi] (fits stay inside). */
    int nparams;
    const char *const *param_names;
    const double *param_lo, *param_hi;

    /* Decision variables (what the optimizer moves) and their widest box for
     * this instance (it may depend on the GPU and the workload). */
    int ndecisions;
    const char *const *decision_names;
    void (*decision_bounds)(const void *self, double *lo, double *hi);

    /* Inequality constraints c_k(decisions) <= 0 beyond the box; grad (when
     * not NULL) gets dc_k/ddecisions. nconstraints may be NULL (none). */
    int (*nconstraints)(const void *self);
    double (*constraint)(const void *self, int k, const double *decisions, double *grad);

    /* The model's value at (params, decisions), with its gradients when the
     * arrays are not NULL. A point outside the model's domain is
     * TRAPEZE_ERANGE (err may be NULL). */
    trapeze_status (*evaluate)(const void *self, const double *params, const double *decisions,
                               double *value, double *dvalue_dparams,
                               double *dvalue_ddecisions, trapeze_error *err);

    /* A count that depends on the instance (the grouping model's soft
     * assignment: a variable per TB and queue); NULL: ndecisions. Above
     * TRAPEZE_MODEL_MAX_DECISIONS only the optimizer serves it (its vectors
     * then on the heap), with decision_names NULL. */
    int (*decision_count)(const void *self);
} trapeze_model_ops;

typedef struct trapeze_model {
    const trapeze_model_ops *ops;
    const void *self;
} trapeze_model;

static inline trapeze_status trapeze_model_evaluate(const trapeze_model *m, const double *params,
                                                    const double *decisions, double *value,
                                                    double *dparams, double *ddecisions,
                                                    trapeze_error *err)
{
    return m->ops->evaluate(m->self, params, decisions, value, dparams, ddecisions, err);
}

/* ------------------------------------------------ optimizer (model/optimize.c) */

/* Minimization of a model's value over its decision variables at fixed
 * parameters. Variables whose bit is set in `fixed` keep the value in
 * x_start; the others move inside [lo, hi] under the model's constraints,
 * by one of NLopt's gradient-based algorithms from every start point in
 * turn: the start x_start (inside the box), then n_starts - 1 more placed
 * by a Sobol sequence in the box. The best end point wins (the first on a
 * tie), so results do not depend on anything but the inputs. */
typedef enum {
    TRAPEZE_MINIMIZE_MMA,       /* the default: any constraints, robust */
    /* SLSQP: far faster where a constraint is active at the optimum (the
     * sleep model's order constraints: MMA's inner iterations took 0.1 to
     * 15 s per start on a full histogram, SLSQP milliseconds) */
    TRAPEZE_MINIMIZE_SLSQP,
    /* L-BFGS: no constraints; many variables (the grouping model's soft
     * assignment) */
    TRAPEZE_MINIMIZE_LBFGS
} trapeze_minimize_algorithm;

typedef struct trapeze_minimize_options {
    const double *lo, *hi;      /* box; NULL: the model's decision_bounds */
    unsigned fixed;             /* bit i: decision i held at x_start[i] */
    int n_starts;               /* >= 1 */
    double xtol_rel, ftol_rel;  /* 0: 1e-12, 1e-14; negative: no such test */
    int max_evaluations;        /* per start; 0: 2000 */
    trapeze_minimize_algorithm algorithm;
    const double *ctol;         /* constraint k's tolerance; NULL: 0 for every one */
    /* 1: an end point counts even when NLopt stops on an error (SLSQP's
     * round-off limit): the caller judges it; 0: such a start failed */
    int keep_end_point;
    /* 1: NLopt's round-off stop counts as a result (the end point is as
     * good as the arithmetic allows); other errors still fail the start */
    int accept_roundoff;
    /* where the end point also goes (may be x_start), the model's decision
     * count long; required above TRAPEZE_MODEL_MAX_DECISIONS, where
     * trapeze_minimum.x is left zero. `fixed` covers the first 32 only. */
    double *x_out;
} trapeze_minimize_options;

typedef struct trapeze_minimum {
    double x[TRAPEZE_MODEL_MAX_DECISIONS];   /* up to that many decisions */
    double value;
    int evaluations;            /* model evaluations over every start */
} trapeze_minimum;

TRAPEZE_INTERNAL
void trapeze_minimize_options_default(trapeze_minimize_options *o);

TRAPEZE_INTERNAL
trapeze_status trapeze_model_minimize(const trapeze_model *m, const double *params,
                                      const double *x_start, const trapeze_minimize_options *o,
                                      trapeze_minimum *out, trapeze_error *err);

#endif
