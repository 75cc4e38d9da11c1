/*
 * Tests of calibration fitting: parameters used to generate synthetic
 * observations from the model are recovered exactly; with noise the
 * estimates lie within a few standard errors and cross-validation reports
 * an error of the size of the noise.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

#define MAX_POINTS 256
static const unsigned FIT_MASK =
    TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_UNCONTENDED_LAT) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_SIGMA) |
    TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_RELAUNCH) |
    TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_CPI);

static trapeze_ghostzone_model *models[8];
static trapeze_ghostzone_fit_point pts[MAX_POINTS];
static int npts;
static trapeze_ghostzone_params truth;

/* Four benchmarks at two input sizes, every height up to 4, both modes. */
static void make_points(double noise, unsigned long seed)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_error err;
    trapeze_config_load("data/gpus/gtx480.config", &cfg, &err);
    trapeze_gpu_from_config(cfg, &gpu, &err);
    trapeze_config_destroy(cfg);
    trapeze_ghostzone_params_default(&truth);
    truth.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 450;
    truth.value[TRAPEZE_GHOSTZONE_SIGMA] = 3.2;
    truth.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] = 160;
    truth.value[TRAPEZE_GHOSTZONE_RELAUNCH] = 9000;
    truth.value[TRAPEZE_GHOSTZONE_CPI] = 2.5;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    npts = 0;
    for (int i = 0; i < 8; i++) {
        char path[128];
        trapeze_workload w;
        snprintf(path, sizeof path, "data/workloads/%s.ini", names[i % 4]);
        CHECK_OK(trapeze_workload_load(path, &w, &err));
        for (int d = 0; d < w.dims && i >= 4; d++)
            w.data_len[d] /= 2; /* the second copy: a smaller input */
        CHECK_OK(trapeze_ghostzone_create(&gpu, &w, &truth, &models[i], &err));
        int hmax = trapeze_ghostzone_max_height(models[i], w.blk_len);
        for (int h = 1; h <= (hmax < 4 ? hmax : 4); h++)
            for (int s = 0; s < 2; s++) {
                trapeze_ghostzone_eval e;
                CHECK_OK(trapeze_ghostzone_evaluate(models[i], (trapeze_sync)s, h, w.blk_len, &e, &err));
                double factor = noise > 0 ? exp(gsl_ran_gaussian(rng, noise)) : 1.0;
                pts[npts++] = (trapeze_ghostzone_fit_point){models[i], (trapeze_sync)s, h, w.blk_len,
                                                    e.cpl * factor};
            }
    }
    gsl_rng_free(rng);
}

static void free_models(void)
{
    for (int i = 0; i < 8; i++)
        trapeze_ghostzone_destroy(models[i]);
}

static void test_exact_recovery(void)
{
    make_points(0.0, 1);
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p); /* start from Meng's GTX 280 values */
    trapeze_fit_report rep;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_fit(pts, npts, FIT_MASK, &p, &rep, &err));
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++)
        CHECK_NEAR(p.value[k], truth.value[k], 1e-6 * truth.value[k]);
    CHECK(rep.n_fitted == 5);
    CHECK(rep.rms_rel_error < 1e-9);
    free_models();
}

static void test_noisy_fit_and_cross_validation(void)
{
    make_points(0.02, 7); /* 2% log-normal noise */
    trapeze_ghostzone_params p, start;
    trapeze_ghostzone_params_default(&start);
    p = start;
    trapeze_fit_report rep;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_fit(pts, npts, FIT_MASK, &p, &rep, &err));
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
        if (!(FIT_MASK & TRAPEZE_GHOSTZONE_MASK(k))) {
            CHECK(p.value[k] == start.value[k] && p.stderr_[k] == 0); /* untouched */
            continue;
        }
        CHECK(p.stderr_[k] > 0);
        CHECK(fabs(p.value[k] - truth.value[k]) < 4 * p.stderr_[k]);
    }
    CHECK(rep.rms_rel_error > 0.01 && rep.rms_rel_error < 0.03);
    CHECK_OK(trapeze_ghostzone_cross_validate(pts, npts, FIT_MASK, &start, 5, 42, &rep, &err));
    /* E|N(0, 2%)| = 1.6%: the held-out error is of that size */
    CHECK(rep.cv_mape_pct > 1.0 && rep.cv_mape_pct < 3.0);
    CHECK(rep.cv_max_ape_pct > rep.cv_mape_pct);
    free_models();
}

static void test_errors(void)
{
    make_points(0.0, 1);
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    trapeze_error err;
    CHECK(trapeze_ghostzone_fit(pts, 3, FIT_MASK, &p, NULL, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "3 samples cannot determine 5 parameters") != NULL);
    pts[0].cpl_measured = -1;
    CHECK(trapeze_ghostzone_fit(pts, npts, FIT_MASK, &p, NULL, &err) == TRAPEZE_ERANGE);
    free_models();
}

int main(void)
{
    test_exact_recovery();
    test_noisy_fit_and_cross_validation();
    test_errors();
    return check_report("test_calib_fit");
}
