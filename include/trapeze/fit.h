/*
 * trapeze/fit.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * What a least-squares fit of any model's parameters reports: identifiability,
 * extrapolation, in-sample and cross-validated errors.
 */
#ifndef TRAPEZE_FIT_H
#define TRAPEZE_FIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The report of a fit (the ghost-zone calibration's, the grouping model's). */
typedef struct trapeze_fit_report {
    /* identifiability, per parameter (fitted ones only): at a range limit,
     * and its largest |correlation| with another fitted parameter */
#define TRAPEZE_FIT_MAX_PARAMS 32
    int at_bound[TRAPEZE_FIT_MAX_PARAMS];
    double max_corr[TRAPEZE_FIT_MAX_PARAMS];
    int corr_with[TRAPEZE_FIT_MAX_PARAMS];
    double corr[TRAPEZE_FIT_MAX_PARAMS][TRAPEZE_FIT_MAX_PARAMS]; /* fitted pairs, else 0 */
    /* extrapolation: a fit without the largest samples, judged on them */
    int n_holdout;
    double holdout_mape_pct, holdout_max_ape_pct, holdout_bias_pct;
    int n_points, n_fitted, iterations;
    double rms_rel_error;     /* in-sample root mean square of relative residuals */
    double cv_mape_pct;       /* k-fold cross-validated mean absolute % error */
    double cv_max_ape_pct;
} trapeze_fit_report;

#ifdef __cplusplus
}
#endif

#endif
