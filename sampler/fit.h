/*
 * fit.h - the generic fit of any model (model/model.h) to observations:
 * nonlinear least squares and k-fold cross-validation. The ghost-zone
 * calibration (trapeze_ghostzone_fit in trapeze.h) is one user.
 */
#ifndef TRAPEZE_SAMPLER_FIT_H
#define TRAPEZE_SAMPLER_FIT_H

#include "model/model.h"

/* One observation: an instance, the decision values it ran at, and the
 * value measured there (> 0: residuals are relative). */
typedef struct trapeze_fit_point {
    trapeze_model model;
    double decisions[TRAPEZE_MODEL_MAX_DECISIONS];
    double measured;
} trapeze_fit_point;

/* Nonlinear least squares on relative residuals (GSL trust region, the
 * model's analytic Jacobian in its parameters), fitting the parameters whose
 * bit is set in mask, each kept inside its range by a change of variable
 * (logistic when hi <= 1, else log above lo). params: start in, fit out;
 * stderr_out[nparams] (may be NULL): standard errors, 0 where not fitted.
 * Every point must share the first point's ops. */
trapeze_status trapeze_model_fit(const trapeze_fit_point *pts, int n, unsigned long mask,
                                 double *params, double *stderr_out, trapeze_fit_report *rep,
                                 trapeze_error *err);

/* k-fold cross-validation of that fit (folds by a seeded mt19937 shuffle):
 * fills rep->cv_mape_pct and rep->cv_max_ape_pct. */
trapeze_status trapeze_model_cross_validate(const trapeze_fit_point *pts, int n,
                                            unsigned long mask, const double *start, int k,
                                            unsigned long seed, trapeze_fit_report *rep,
                                            trapeze_error *err);

#endif
