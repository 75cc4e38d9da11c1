/*
 * fit.c - calibration of the ghost-zone model: nonlinear least squares on
 * relative residuals (cpl_model - cpl_measured) / cpl_measured with GSL's
 * trust-region solver and the model's analytic Jacobian, standard errors
 * from the covariance, and k-fold cross-validation.
 *
 * Parameters are fitted through a change of variable that keeps each inside
 * its physical range (log for one-sided, logistic for [lo, hi] <= 1), so the
 * solver itself is unconstrained. Owns fitting only: it must not run
 * simulations or read sample files.
 */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

typedef struct {
    trapeze_calib_point *pts;
    int n;
    int fitted[TRAPEZE_GZ_NPARAMS];  /* parameter index of each unknown */
    int n_fitted;
    trapeze_gz_params params;        /* current values */
} problem;

static int bounded(int param)
{
    double lo, hi;
    trapeze_gz_param_range((trapeze_gz_param)param, &lo, &hi);
    return hi <= 1.0;
}

/* theta(u) and dtheta/du for each kind of range. */
static double to_param(int param, double u, double *dtheta_du)
{
    double lo, hi;
    trapeze_gz_param_range((trapeze_gz_param)param, &lo, &hi);
    if (bounded(param)) {
        double s = 1.0 / (1.0 + exp(-u));
        *dtheta_du = (hi - lo) * s * (1.0 - s);
        return lo + (hi - lo) * s;
    }
    double e = exp(u);
    *dtheta_du = e;
    return lo + e;
}

static double to_unknown(int param, double theta)
{
    double lo, hi;
    trapeze_gz_param_range((trapeze_gz_param)param, &lo, &hi);
    double span = hi - lo, eps = 1e-9 * (span < 1 ? span : 1);
    if (theta < lo + eps)
        theta = lo + eps; /* the edge itself is not reachable by the transform */
    if (bounded(param)) {
        if (theta > hi - eps)
            theta = hi - eps;
        double s = (theta - lo) / span;
        return log(s / (1.0 - s));
    }
    return log(theta - lo);
}

static void apply(problem *pb, const gsl_vector *u, double *dtheta)
{
    for (int j = 0; j < pb->n_fitted; j++) {
        int k = pb->fitted[j];
        pb->params.value[k] = to_param(k, gsl_vector_get(u, j), &dtheta[j]);
    }
    for (int i = 0; i < pb->n; i++)
        trapeze_gz_set_params(pb->pts[i].model, &pb->params);
}

/* Residuals and, when J is non-NULL, the Jacobian in the unknowns u. */
static int evaluate(problem *pb, const gsl_vector *u, gsl_vector *f, gsl_matrix *J)
{
    double dtheta[TRAPEZE_GZ_NPARAMS];
    apply(pb, u, dtheta);
    for (int i = 0; i < pb->n; i++) {
        const trapeze_calib_point *pt = &pb->pts[i];
        trapeze_gz_eval e;
        if (trapeze_gz_evaluate(pt->model, pt->sync, pt->h, pt->blk_len, &e, NULL))
            return GSL_EDOM;
        if (f)
            gsl_vector_set(f, i, (e.cpl - pt->cpl_measured) / pt->cpl_measured);
        for (int j = 0; J && j < pb->n_fitted; j++)
            gsl_matrix_set(J, i, j, e.dcpl_dparam[pb->fitted[j]] * dtheta[j] / pt->cpl_measured);
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

static trapeze_status check_points(const trapeze_calib_point *pts, int n, int n_fitted,
                                   trapeze_error *err)
{
    if (n_fitted == 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "calibration: no parameter selected to fit");
    if (n <= n_fitted)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "calibration: %d samples cannot determine %d parameters", n,
                            n_fitted);
    for (int i = 0; i < n; i++)
        if (!(pts[i].cpl_measured > 0))
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "calibration: sample %d has a non-positive measured CPL", i);
    return TRAPEZE_OK;
}

/* Standard errors: s^2 (J^T J)^-1 in u, mapped to theta by the chain rule;
 * correlations are the same in u and theta (each map is monotone). */
static void standard_errors(problem *pb, gsl_multifit_nlinear_workspace *w, double chisq,
                            trapeze_gz_params *p)
{
    int m = pb->n_fitted;
    gsl_matrix *covar = gsl_matrix_alloc((size_t)m, (size_t)m);
    gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar);
    double s2 = chisq / (pb->n - m);
    for (int j = 0; j < m; j++) {
        double dtheta;
        to_param(pb->fitted[j], gsl_vector_get(gsl_multifit_nlinear_position(w), j), &dtheta);
        p->stderr_[pb->fitted[j]] = fabs(dtheta) * sqrt(s2 * gsl_matrix_get(covar, j, j));
        for (int k = 0; k < m; k++) {
            double d = sqrt(gsl_matrix_get(covar, j, j) * gsl_matrix_get(covar, k, k));
            p->corr[pb->fitted[j]][pb->fitted[k]] = d > 0 ? gsl_matrix_get(covar, j, k) / d : 0;
        }
    }
    gsl_matrix_free(covar);
}

/* A fitted value the transform has pushed against its range limit. */
static int at_range_limit(int param, double theta)
{
    double lo, hi;
    trapeze_gz_param_range((trapeze_gz_param)param, &lo, &hi);
    double tol = 1e-6 * (bounded(param) ? hi - lo : 1.0);
    return theta - lo < tol || (bounded(param) && hi - theta < tol);
}

static void identifiability(const problem *pb, const trapeze_gz_params *p,
                            trapeze_calib_report *rep)
{
    for (int j = 0; j < pb->n_fitted; j++) {
        int a = pb->fitted[j];
        rep->at_bound[a] = at_range_limit(a, p->value[a]);
        rep->max_corr[a] = 0;
        rep->corr_with[a] = -1;
        for (int k = 0; k < pb->n_fitted; k++) {
            int b = pb->fitted[k];
            if (b != a && fabs(p->corr[a][b]) > fabs(rep->max_corr[a])) {
                rep->max_corr[a] = p->corr[a][b];
                rep->corr_with[a] = b;
            }
        }
    }
}

trapeze_status trapeze_calib_fit(trapeze_calib_point *pts, int n, unsigned mask,
                                 trapeze_gz_params *p, trapeze_calib_report *rep,
                                 trapeze_error *err)
{
    problem pb = {.pts = pts, .n = n, .params = *p};
    for (int k = 0; k < TRAPEZE_GZ_NPARAMS; k++)
        if (mask & TRAPEZE_GZ_MASK(k))
            pb.fitted[pb.n_fitted++] = k;
    trapeze_status s = check_points(pts, n, pb.n_fitted, err);
    if (s)
        return s;
    gsl_multifit_nlinear_fdf fdf = {.f = residual_fn, .df = jacobian_fn, .n = (size_t)n,
                                    .p = (size_t)pb.n_fitted, .params = &pb};
    gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, (size_t)n, (size_t)pb.n_fitted);
    gsl_vector *u = gsl_vector_alloc((size_t)pb.n_fitted);
    for (int j = 0; j < pb.n_fitted; j++)
        gsl_vector_set(u, j, to_unknown(pb.fitted[j], p->value[pb.fitted[j]]));
    int info, status = gsl_multifit_nlinear_init(u, &fdf, w);
    if (status == GSL_SUCCESS)
        status = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 1e-14, NULL, NULL, &info, w);
    double chisq = 0, dtheta[TRAPEZE_GZ_NPARAMS];
    if (status == GSL_SUCCESS || status == GSL_EMAXITER) {
        gsl_blas_ddot(gsl_multifit_nlinear_residual(w), gsl_multifit_nlinear_residual(w), &chisq);
        apply(&pb, gsl_multifit_nlinear_position(w), dtheta);
        memcpy(p->value, pb.params.value, sizeof p->value);
        memset(p->stderr_, 0, sizeof p->stderr_);
        memset(p->corr, 0, sizeof p->corr);
        standard_errors(&pb, w, chisq, p);
        if (rep) {
            identifiability(&pb, p, rep);
            rep->n_points = n;
            rep->n_fitted = pb.n_fitted;
            rep->iterations = (int)gsl_multifit_nlinear_niter(w);
            rep->rms_rel_error = sqrt(chisq / n);
        }
    }
    gsl_vector_free(u);
    gsl_multifit_nlinear_free(w);
    if (status != GSL_SUCCESS && status != GSL_EMAXITER)
        return trapeze_fail(err, TRAPEZE_EFAIL, "calibration: the least-squares fit failed: %s",
                            gsl_strerror(status));
    return TRAPEZE_OK;
}

static double abs_pct_error(const trapeze_calib_point *pt)
{
    trapeze_gz_eval e;
    if (trapeze_gz_evaluate(pt->model, pt->sync, pt->h, pt->blk_len, &e, NULL))
        return INFINITY;
    return 100.0 * fabs(e.cpl - pt->cpl_measured) / pt->cpl_measured;
}

trapeze_status trapeze_calib_cross_validate(trapeze_calib_point *pts, int n, unsigned mask,
                                            const trapeze_gz_params *start, int k,
                                            unsigned long seed, trapeze_calib_report *rep,
                                            trapeze_error *err)
{
    if (k < 2 || k > n)
        return trapeze_fail(err, TRAPEZE_EINVAL, "cross-validation: %d folds for %d samples", k, n);
    size_t *order = malloc((size_t)n * sizeof *order);
    trapeze_calib_point *train = malloc((size_t)n * sizeof *train);
    if (!order || !train) {
        free(order);
        free(train);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++)
        order[i] = (size_t)i;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
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
        trapeze_gz_params p = *start;
        s = trapeze_calib_fit(train, m, mask, &p, NULL, err);
        for (int i = fold; !s && i < n; i += k) { /* held-out points, under the fold's fit */
            trapeze_gz_set_params(pts[order[i]].model, &p);
            double e = abs_pct_error(&pts[order[i]]);
            sum += e;
            worst = e > worst ? e : worst;
        }
    }
    for (int i = 0; i < n; i++)
        trapeze_gz_set_params(pts[i].model, start);
    free(order);
    free(train);
    if (!s) {
        rep->cv_mape_pct = sum / n;
        rep->cv_max_ape_pct = worst;
    }
    return s;
}
