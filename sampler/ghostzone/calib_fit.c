/*
 * calib_fit.c - the ghost-zone calibration's fit and cross-validation
 * (trapeze_ghostzone_fit, trapeze_ghostzone_cross_validate): the generic fit
 * (fit.c) on one ghost-zone model instance per calibration point, at its
 * (h, blk_len). Owns that translation only; the fit is fit.c's.
 */
#include <stdlib.h>

#include "common/error.h"
#include "model/ghostzone.h"
#include "sampler/fit.h"

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
