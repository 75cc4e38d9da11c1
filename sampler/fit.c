/*
 * fit.c - the generic fit of any model (model/model.h): nonlinear least
 * squares on relative residuals (value - measured) / measured with GSL's
 * trust-region solver and the model's analytic Jacobian in its parameters,
 * standard errors from the covariance, and k-fold cross-validation. The
 * ghost-zone calibration (trapeze_ghostzone_fit, trapeze_ghostzone_cross_validate)
 * is this fit on the ghost-zone model's instances.
 *
 * Parameters are fitted through a change of variable that keeps each inside
 * its physical range (logistic for [lo, hi] <= 1; for wide ranges, log-like
 * near lo and saturating at hi: lo + R / (1 + R e^-u), R = hi - lo), so the
 * solver itself is unconstrained. Why saturate at hi: a pure log transform let
 * an unidentified constant run off to 1e39 in a cross-validation fold (the
 * GTX 280's fence barrier), and the fold's CV MAPE came out NaN. Owns fitting only: it must not run
 * simulations, read sample files, or write into a model (parameters are
 * passed to every evaluation).
 */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/ghostzone.h"
#include "sampler/fit.h"

typedef struct {
    const trapeze_fit_point *pts;
    int n;
    const trapeze_model_ops *ops;
    int fitted[TRAPEZE_MODEL_MAX_PARAMS];  /* parameter index of each unknown */
    int n_fitted;
    double params[TRAPEZE_MODEL_MAX_PARAMS]; /* current values */
} problem;

static int bounded(const trapeze_model_ops *ops, int k) { return ops->param_hi[k] <= 1.0; }

/* theta(u) and dtheta/du for each kind of range. */
static double to_param(const trapeze_model_ops *ops, int k, double u, double *dtheta_du)
{
    double lo = ops->param_lo[k], hi = ops->param_hi[k];
    if (bounded(ops, k)) {
        double s = 1.0 / (1.0 + exp(-u));
        *dtheta_du = (hi - lo) * s * (1.0 - s);
        return lo + (hi - lo) * s;
    }
    double r = hi - lo;
    if (u > log(r)) { /* t = R e^-u < 1: no overflow */
        double t = exp(log(r) - u);
        *dtheta_du = r * t / ((1.0 + t) * (1.0 + t));
        return lo + r / (1.0 + t);
    }
    double a = exp(u); /* a <= R */
    *dtheta_du = a * r * r / ((a + r) * (a + r));
    return lo + a * r / (a + r);
}

static double to_unknown(const trapeze_model_ops *ops, int k, double theta)
{
    double lo = ops->param_lo[k], hi = ops->param_hi[k];
    double span = hi - lo, eps = 1e-9 * (span < 1 ? span : 1);
    if (theta < lo + eps)
        theta = lo + eps; /* the edge itself is not reachable by the transform */
    if (theta > hi - 1e-9 * span)
        theta = hi - 1e-9 * span;
    if (bounded(ops, k)) {
        double s = (theta - lo) / span;
        return log(s / (1.0 - s));
    }
    double f = theta - lo; /* inverse of f = a R / (a + R) */
    return log(f * span / (span - f));
}

static void apply(problem *pb, const gsl_vector *u, double *dtheta)
{
    for (int j = 0; j < pb->n_fitted; j++) {
        int k = pb->fitted[j];
        pb->params[k] = to_param(pb->ops, k, gsl_vector_get(u, j), &dtheta[j]);
    }
}

/* Residuals and, when J is non-NULL, the Jacobian in the unknowns u. */
static int evaluate(problem *pb, const gsl_vector *u, gsl_vector *f, gsl_matrix *J)
{
    double dtheta[TRAPEZE_MODEL_MAX_PARAMS], dparams[TRAPEZE_MODEL_MAX_PARAMS], value;
    apply(pb, u, dtheta);
    for (int i = 0; i < pb->n; i++) {
        const trapeze_fit_point *pt = &pb->pts[i];
        if (trapeze_model_evaluate(&pt->model, pb->params, pt->decisions, &value,
                                   J ? dparams : NULL, NULL, NULL))
            return GSL_EDOM;
        if (f)
            gsl_vector_set(f, i, (value - pt->measured) / pt->measured);
        for (int j = 0; J && j < pb->n_fitted; j++)
            gsl_matrix_set(J, i, j, dparams[pb->fitted[j]] * dtheta[j] / pt->measured);
    }
    return GSL_SUCCESS;
}

static int residual_fn(const gsl_vector *u, void *data, gsl_vector *f)
{
    return evaluate(data, u, f, NULL);
}

static int jacobian_fn(const gsl_vector *u, void *data, gsl_matrix *J)
{
    return evaluate(data, u, NULL, J);
}

static trapeze_status check_points(const trapeze_fit_point *pts, int n, int n_fitted,
                                   trapeze_error *err)
{
    if (n_fitted == 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "calibration: no parameter selected to fit");
    if (n <= n_fitted)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "calibration: %d samples cannot determine %d parameters", n,
                            n_fitted);
    for (int i = 0; i < n; i++) {
        if (pts[i].model.ops != pts[0].model.ops)
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "calibration: sample %d is of model %s, not %s", i,
                                pts[i].model.ops->name, pts[0].model.ops->name);
        if (!(pts[i].measured > 0))
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "calibration: sample %d has a non-positive measured CPL", i);
    }
    return TRAPEZE_OK;
}

/* Standard errors: s^2 (J^T J)^-1 in u, mapped to theta by the chain rule;
 * correlations (into rep, when not NULL) are the same in u and theta, each
 * map being monotone. */
static trapeze_status standard_errors(problem *pb, gsl_multifit_nlinear_workspace *w,
                                      double chisq, double *stderr_out, trapeze_fit_report *rep,
                                      trapeze_error *err)
{
    int m = pb->n_fitted;
    gsl_matrix *covar = gsl_matrix_alloc((size_t)m, (size_t)m);
    if (!covar)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar);
    double s2 = chisq / (pb->n - m);
    for (int j = 0; j < m; j++) {
        double dtheta;
        to_param(pb->ops, pb->fitted[j], gsl_vector_get(gsl_multifit_nlinear_position(w), j),
                 &dtheta);
        stderr_out[pb->fitted[j]] = fabs(dtheta) * sqrt(s2 * gsl_matrix_get(covar, j, j));
        for (int k = 0; rep && k < m; k++) {
            double d = sqrt(gsl_matrix_get(covar, j, j) * gsl_matrix_get(covar, k, k));
            rep->corr[pb->fitted[j]][pb->fitted[k]] = d > 0 ? gsl_matrix_get(covar, j, k) / d : 0;
        }
    }
    gsl_matrix_free(covar);
    return TRAPEZE_OK;
}

/* Identifiability of each fitted parameter: at a range limit (the transform
 * pushed it to its edge), and its largest |correlation| with another. */
static void identifiability(const problem *pb, const double *params, trapeze_fit_report *rep)
{
    for (int j = 0; j < pb->n_fitted; j++) {
        int a = pb->fitted[j];
        double lo = pb->ops->param_lo[a], hi = pb->ops->param_hi[a];
        double tol = 1e-6 * (bounded(pb->ops, a) ? hi - lo : 1.0);
        rep->at_bound[a] = params[a] - lo < tol || hi - params[a] < 1e-6 * (hi - lo);
        rep->max_corr[a] = 0;
        rep->corr_with[a] = -1;
        for (int k = 0; k < pb->n_fitted; k++) {
            int b = pb->fitted[k];
            if (b != a && fabs(rep->corr[a][b]) > fabs(rep->max_corr[a])) {
                rep->max_corr[a] = rep->corr[a][b];
                rep->corr_with[a] = b;
            }
        }
    }
}

static trapeze_status setup(problem *pb, const trapeze_fit_point *pts, int n, unsigned long mask,
                            const double *params, trapeze_error *err)
{
    memset(pb, 0, sizeof *pb);
    pb->pts = pts;
    pb->n = n;
    if (n < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "calibration: no samples");
    pb->ops = pts[0].model.ops;
    if (pb->ops->nparams > TRAPEZE_MODEL_MAX_PARAMS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d parameters (at most %d)",
                            pb->ops->name, pb->ops->nparams, TRAPEZE_MODEL_MAX_PARAMS);
    memcpy(pb->params, params, (size_t)pb->ops->nparams * sizeof *params);
    for (int k = 0; k < pb->ops->nparams; k++)
        if (mask & (1ul << k))
            pb->fitted[pb->n_fitted++] = k;
    return check_points(pts, n, pb->n_fitted, err);
}

/* The trust-region solve from params; fills params, stderr_out and rep. */
static trapeze_status solve(problem *pb, double *params, double *stderr_out,
                            trapeze_fit_report *rep, trapeze_error *err)
{
    size_t n = (size_t)pb->n, p = (size_t)pb->n_fitted;
    gsl_multifit_nlinear_fdf fdf = {.f = residual_fn, .df = jacobian_fn, .n = n, .p = p,
                                    .params = pb};
    gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust,
                                                                   &fp, n, p);
    gsl_vector *u = gsl_vector_alloc(p);
    if (!w || !u) {
        gsl_vector_free(u);
        if (w)
            gsl_multifit_nlinear_free(w);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (int j = 0; j < pb->n_fitted; j++)
        gsl_vector_set(u, j, to_unknown(pb->ops, pb->fitted[j], params[pb->fitted[j]]));
    int info, status = gsl_multifit_nlinear_init(u, &fdf, w);
    if (status == GSL_SUCCESS)
        status = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 1e-14, NULL, NULL, &info, w);
    double chisq = 0, dtheta[TRAPEZE_MODEL_MAX_PARAMS];
    trapeze_status s = TRAPEZE_OK;
    if (status == GSL_SUCCESS || status == GSL_EMAXITER) {
        gsl_blas_ddot(gsl_multifit_nlinear_residual(w), gsl_multifit_nlinear_residual(w), &chisq);
        apply(pb, gsl_multifit_nlinear_position(w), dtheta);
        memcpy(params, pb->params, (size_t)pb->ops->nparams * sizeof *params);
        if (rep) {
            memset(rep->corr, 0, sizeof rep->corr);
            for (int k = 0; k < TRAPEZE_FIT_MAX_PARAMS; k++) {
                rep->at_bound[k] = 0;
                rep->corr_with[k] = -1; /* not fitted */
            }
        }
        if (stderr_out) {
            memset(stderr_out, 0, (size_t)pb->ops->nparams * sizeof *stderr_out);
            s = standard_errors(pb, w, chisq, stderr_out, rep, err);
            if (rep && !s)
                identifiability(pb, params, rep);
        }
        if (rep) {
            rep->n_points = pb->n;
            rep->n_fitted = pb->n_fitted;
            rep->iterations = (int)gsl_multifit_nlinear_niter(w);
            rep->rms_rel_error = sqrt(chisq / pb->n);
        }
    } else {
        s = trapeze_fail(err, TRAPEZE_EFAIL, "calibration: the least-squares fit failed: %s",
                         gsl_strerror(status));
    }
    gsl_vector_free(u);
    gsl_multifit_nlinear_free(w);
    return s;
}

trapeze_status trapeze_model_fit(const trapeze_fit_point *pts, int n, unsigned long mask,
                                 double *params, double *stderr_out, trapeze_fit_report *rep,
                                 trapeze_error *err)
{
    gsl_set_error_handler_off(); /* GSL's default handler aborts the process */
    problem pb;
    trapeze_status s = setup(&pb, pts, n, mask, params, err);
    return s ? s : solve(&pb, params, stderr_out, rep, err);
}

static double abs_pct_error(const trapeze_fit_point *pt, const double *params)
{
    double value;
    if (trapeze_model_evaluate(&pt->model, params, pt->decisions, &value, NULL, NULL, NULL) ||
        !isfinite(value))
        return INFINITY; /* a fold's fit that cannot predict: infinite error, never NaN */
    return 100.0 * fabs(value - pt->measured) / pt->measured;
}

trapeze_status trapeze_model_cross_validate(const trapeze_fit_point *pts, int n,
                                            unsigned long mask, const double *start, int k,
                                            unsigned long seed, trapeze_fit_report *rep,
                                            trapeze_error *err)
{
    if (k < 2 || k > n)
        return trapeze_fail(err, TRAPEZE_EINVAL, "cross-validation: %d folds for %d samples", k, n);
    gsl_set_error_handler_off();
    int np = pts[0].model.ops->nparams;
    size_t *order = malloc((size_t)n * sizeof *order);
    trapeze_fit_point *train = malloc((size_t)n * sizeof *train);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!order || !train || !rng || np > TRAPEZE_MODEL_MAX_PARAMS) {
        free(order);
        free(train);
        if (rng)
            gsl_rng_free(rng);
        return np > TRAPEZE_MODEL_MAX_PARAMS
                   ? trapeze_fail(err, TRAPEZE_EINVAL, "cross-validation: too many parameters")
                   : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++)
        order[i] = (size_t)i;
    gsl_rng_set(rng, seed);
    gsl_ran_shuffle(rng, order, (size_t)n, sizeof *order);
    gsl_rng_free(rng);
    double sum = 0, worst = 0;
    trapeze_status s = TRAPEZE_OK;
    for (int fold = 0; fold < k && !s; fold++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (i % k != fold)
                train[m++] = pts[order[i]];
        double p[TRAPEZE_MODEL_MAX_PARAMS];
        memcpy(p, start, (size_t)np * sizeof *p);
        s = trapeze_model_fit(train, m, mask, p, NULL, NULL, err);
        for (int i = fold; !s && i < n; i += k) { /* held-out points, under the fold's fit */
            double e = abs_pct_error(&pts[order[i]], p);
            sum += e;
            worst = e > worst ? e : worst;
        }
    }
    free(order);
    free(train);
    if (!s) {
        rep->cv_mape_pct = sum / n;
        rep->cv_max_ape_pct = worst;
    }
    return s;
}

/* ---------------------------------- the ghost-zone calibration on it */

/* The generic points of calibration points: one instance (model, sync)
 * each, at (h, blk_len). */
static trapeze_status gz_points(const trapeze_ghostzone_fit_point *pts, int n, gz_instance **inst,
                                trapeze_fit_point **fp, trapeze_error *err)
{
    *inst = calloc((size_t)(n > 0 ? n : 1), sizeof **inst);
    *fp = calloc((size_t)(n > 0 ? n : 1), sizeof **fp);
    if (!*inst || !*fp) {
        free(*inst);
        free(*fp);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        (*inst)[i] = (gz_instance){pts[i].model, pts[i].sync};
        (*fp)[i].model = gz_as_model(&(*inst)[i]);
        (*fp)[i].decisions[GZ_DECISION_H] = pts[i].h;
        (*fp)[i].decisions[GZ_DECISION_BLK] = pts[i].blk_len;
        (*fp)[i].measured = pts[i].cpl_measured;
    }
    return TRAPEZE_OK;
}

trapeze_status trapeze_ghostzone_fit(trapeze_ghostzone_fit_point *pts, int n, unsigned mask,
                                     trapeze_ghostzone_params *p, trapeze_fit_report *rep,
                                     trapeze_error *err)
{
    gz_instance *inst;
    trapeze_fit_point *fp;
    trapeze_status s = gz_points(pts, n, &inst, &fp, err);
    if (s)
        return s;
    trapeze_ghostzone_params fitted = *p;
    trapeze_fit_report own;
    if (!rep)
        rep = &own; /* the correlations go into the parameters either way */
    s = trapeze_model_fit(fp, n, mask, fitted.value, fitted.stderr_, rep, err);
    if (!s) {
        for (int a = 0; a < TRAPEZE_GHOSTZONE_NPARAMS; a++)
            for (int b = 0; b < TRAPEZE_GHOSTZONE_NPARAMS; b++)
                fitted.corr[a][b] = a != b ? rep->corr[a][b] : 0;
        *p = fitted;
        for (int i = 0; i < n; i++) /* as documented: models hold the fit */
            trapeze_ghostzone_set_params(pts[i].model, p);
    }
    free(inst);
    free(fp);
    return s;
}

trapeze_status trapeze_ghostzone_cross_validate(trapeze_ghostzone_fit_point *pts, int n, unsigned mask,
                                                const trapeze_ghostzone_params *start, int k,
                                                unsigned long seed, trapeze_fit_report *rep,
                                                trapeze_error *err)
{
    gz_instance *inst;
    trapeze_fit_point *fp;
    trapeze_status s = gz_points(pts, n, &inst, &fp, err);
    if (s)
        return s;
    s = trapeze_model_cross_validate(fp, n, mask, start->value, k, seed, rep, err);
    for (int i = 0; i < n; i++)
        trapeze_ghostzone_set_params(pts[i].model, start);
    free(inst);
    free(fp);
    return s;
}
