/*
 * Tests of the generic model interface (model/model.h): the ghost-zone
 * model seen through it gives the same values as its own API and exact
 * gradients without being written into; the optimizer finds a constrained
 * optimum and, with several starts, the global one of a two-well function;
 * the fit recovers a toy model's parameters; setting parameters leaves a
 * workload's profiled counts alone; the joint (h, blk) search counts every
 * evaluation it makes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/ghostzone.h"
#include "model/model.h"
#include "sampler/fit.h"
#include "trapeze.h"

static trapeze_gpu gpu;
static trapeze_ghostzone_params calib;

static void load(const char *gpu_name)
{
    char path[128];
    trapeze_config *cfg;
    trapeze_error err;
    snprintf(path, sizeof path, "data/gpus/%s.config", gpu_name);
    CHECK_OK(trapeze_config_load(path, &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    trapeze_config_destroy(cfg);
    snprintf(path, sizeof path, "data/calibrations/%s.ini", gpu_name);
    CHECK_OK(trapeze_ghostzone_params_load(path, &calib, &err));
}

static trapeze_ghostzone_model *gz_for(const char *name, const trapeze_ghostzone_params *p)
{
    char path[128];
    trapeze_workload w;
    trapeze_ghostzone_model *m = NULL;
    trapeze_error err;
    snprintf(path, sizeof path, "data/workloads/%s.ini", name);
    if (trapeze_workload_load(path, &w, &err) || trapeze_ghostzone_create(&gpu, &w, p, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return m;
}

/* Through the interface, at parameters other than the model's own: the
 * value equals trapeze_ghostzone_evaluate after set_params, the gradients equal
 * central differences of the interface itself, and the model still holds
 * its own parameters afterwards. */
static void test_gz_through_interface(void)
{
    trapeze_ghostzone_model *m = gz_for("hotspot", &calib);
    trapeze_ghostzone_params other = calib;
    other.value[TRAPEZE_GHOSTZONE_SIGMA] *= 1.7;
    other.value[TRAPEZE_GHOSTZONE_RELAUNCH] += 5000;
    other.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0.3;
    for (int s = 0; s < 2; s++) {
        gz_instance in = {m, (trapeze_sync)s};
        trapeze_model model = gz_as_model(&in);
        double x[GZ_NDECISIONS] = {2.6, 17.5}, v, dp[TRAPEZE_GHOSTZONE_NPARAMS], dx[GZ_NDECISIONS];
        trapeze_ghostzone_eval own_before, own_after, at_other;
        CHECK_OK(trapeze_ghostzone_evaluate(m, in.sync, x[0], x[1], &own_before, NULL));
        CHECK_OK(trapeze_model_evaluate(&model, other.value, x, &v, dp, dx, NULL));
        CHECK_OK(trapeze_ghostzone_evaluate(m, in.sync, x[0], x[1], &own_after, NULL));
        CHECK(own_after.cpl == own_before.cpl); /* nothing written into the model */
        trapeze_ghostzone_model *m2 = gz_for("hotspot", &other);
        CHECK_OK(trapeze_ghostzone_evaluate(m2, in.sync, x[0], x[1], &at_other, NULL));
        trapeze_ghostzone_destroy(m2);
        CHECK(v == at_other.cpl && v != own_before.cpl);
        for (int i = 0; i < GZ_NDECISIONS; i++) {
            double xp[GZ_NDECISIONS] = {x[0], x[1]}, xm[GZ_NDECISIONS] = {x[0], x[1]}, hi, lo;
            double d = 1e-5 * x[i];
            xp[i] += d;
            xm[i] -= d;
            CHECK_OK(trapeze_model_evaluate(&model, other.value, xp, &hi, NULL, NULL, NULL));
            CHECK_OK(trapeze_model_evaluate(&model, other.value, xm, &lo, NULL, NULL, NULL));
            CHECK(fabs(dx[i] - (hi - lo) / (2 * d)) < 1e-5 * fabs(dx[i]) + 1e-9 * v);
        }
        for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
            double pp[TRAPEZE_GHOSTZONE_NPARAMS], pm[TRAPEZE_GHOSTZONE_NPARAMS], hi, lo;
            double d = 1e-5 * fmax(fabs(other.value[k]), 1.0);
            memcpy(pp, other.value, sizeof pp);
            memcpy(pm, other.value, sizeof pm);
            pp[k] += d;
            pm[k] -= d;
            CHECK_OK(trapeze_model_evaluate(&model, pp, x, &hi, NULL, NULL, NULL));
            CHECK_OK(trapeze_model_evaluate(&model, pm, x, &lo, NULL, NULL, NULL));
            CHECK(fabs(dp[k] - (hi - lo) / (2 * d)) < 1e-5 * fabs(dp[k]) + 1e-7 * v);
        }
        /* outside Eq. 5.20 (HotSpot's halo is 2: 2 h < blk) is an error */
        double bad[GZ_NDECISIONS] = {9.0, 17.5};
        CHECK(trapeze_model_evaluate(&model, other.value, bad, &v, NULL, NULL, NULL) ==
              TRAPEZE_ERANGE);
    }
    trapeze_ghostzone_destroy(m);
}

/* The workload's profiled counts are fixed when the model is created;
 * parameters carrying another profile do not rewrite them. */
static void test_set_params_keeps_profile(void)
{
    trapeze_ghostzone_model *m = gz_for("hotspot", &calib);
    double mc = trapeze_ghostzone_workload(m)->insts_per_sm_mc;
    CHECK(mc == 2740.6079999999997); /* gtx480.ini's [profile.HotSpot] */
    trapeze_ghostzone_params other = calib;
    for (int i = 0; i < other.n_profiles; i++)
        other.profile[i].insts_per_sm_mc *= 3;
    trapeze_ghostzone_set_params(m, &other);
    CHECK(trapeze_ghostzone_workload(m)->insts_per_sm_mc == mc);
    trapeze_ghostzone_destroy(m);
}

/* ---- toy models: the interface is not the ghost-zone model's ---- */

/* f(x, y) = a (x - 3)^2 + (y - 2)^2 under x + y <= 4: the optimum is the
 * projection of (3, 2) on the line, weighted: for a = 1, (2.5, 1.5). */
static const char *const bowl_params[] = {"a"};
static const double bowl_lo[] = {0.1}, bowl_hi[] = {10};
static const char *const xy_names[] = {"x", "y"};
static void bowl_bounds(const void *self, double *lo, double *hi)
{
    (void)self;
    lo[0] = lo[1] = -10;
    hi[0] = hi[1] = 10;
}
static int one_constraint(const void *self)
{
    (void)self;
    return 1;
}
static double sum_le_4(const void *self, int k, const double *x, double *grad)
{
    (void)self;
    (void)k;
    if (grad)
        grad[0] = grad[1] = 1;
    return x[0] + x[1] - 4;
}
static trapeze_status bowl_eval(const void *self, const double *p, const double *x, double *v,
                                double *dp, double *dx, trapeze_error *err)
{
    (void)self;
    (void)err;
    *v = p[0] * (x[0] - 3) * (x[0] - 3) + (x[1] - 2) * (x[1] - 2);
    if (dp)
        dp[0] = (x[0] - 3) * (x[0] - 3);
    if (dx) {
        dx[0] = 2 * p[0] * (x[0] - 3);
        dx[1] = 2 * (x[1] - 2);
    }
    return TRAPEZE_OK;
}
static const trapeze_model_ops bowl_ops = {"bowl", 1, bowl_params, bowl_lo, bowl_hi, 2, xy_names,
                                           bowl_bounds, one_constraint, sum_le_4, bowl_eval, NULL};

/* SLSQP (the sleep model's choice) finds the same constrained optimum as
 * MMA; a constraint's tolerance lets it sit that far outside (x + y <= 4
 * with tolerance 0.5 is not x + y <= 4.5: NLopt stops once within it, so
 * the point lies in [4, 4.5]); a run NLopt reports as failed (here a
 * start outside the box, which it refuses) is an error, unless
 * keep_end_point asks for the end point whatever the status. */
static void test_minimize_slsqp(void)
{
    trapeze_model m = {&bowl_ops, NULL};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.algorithm = TRAPEZE_MINIMIZE_SLSQP;
    trapeze_minimum best;
    double a = 1, x0[2] = {0, 0};
    CHECK_OK(trapeze_model_minimize(&m, &a, x0, &o, &best, NULL));
    CHECK_NEAR(best.x[0], 2.5, 1e-6);
    CHECK_NEAR(best.x[1], 1.5, 1e-6);
    CHECK_NEAR(best.value, 0.5, 1e-9);
    const double loose[1] = {0.5};
    o.ctol = loose;
    CHECK_OK(trapeze_model_minimize(&m, &a, x0, &o, &best, NULL));
    CHECK(best.x[0] + best.x[1] >= 4 - 1e-9 && best.x[0] + best.x[1] <= 4.5 + 1e-9);
    /* a start outside the box: NLopt refuses it (NLOPT_INVALID_ARGS) */
    double out_of_box[2] = {20, 0};
    o.ctol = NULL;
    trapeze_error err;
    CHECK(trapeze_model_minimize(&m, &a, out_of_box, &o, &best, &err) == TRAPEZE_EFAIL &&
          strstr(err.message, "SLSQP failed"));
    o.keep_end_point = 1;
    CHECK_OK(trapeze_model_minimize(&m, &a, out_of_box, &o, &best, NULL));
    CHECK(best.x[0] == 20 && best.x[1] == 0 && best.evaluations == 0);
}

static void test_minimize_constrained(void)
{
    trapeze_model m = {&bowl_ops, NULL};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    trapeze_minimum best;
    double a = 1, x0[2] = {0, 0};
    CHECK_OK(trapeze_model_minimize(&m, &a, x0, &o, &best, NULL));
    CHECK_NEAR(best.x[0], 2.5, 1e-6);
    CHECK_NEAR(best.x[1], 1.5, 1e-6);
    CHECK_NEAR(best.value, 0.5, 1e-6);
    CHECK(best.evaluations > 1);
    /* y held at 0: x + 0 <= 4 binds at x = 3? no, 3 < 4: the free optimum */
    o.fixed = 1u << 1;
    CHECK_OK(trapeze_model_minimize(&m, &a, x0, &o, &best, NULL));
    CHECK_NEAR(best.x[0], 3.0, 1e-6);
    CHECK(best.x[1] == 0);
    CHECK_NEAR(best.value, 4.0, 1e-9);
    /* y held at 3: now x <= 1 binds */
    double x3[2] = {0, 3};
    CHECK_OK(trapeze_model_minimize(&m, &a, x3, &o, &best, NULL));
    CHECK_NEAR(best.x[0], 1.0, 1e-6);
    CHECK_NEAR(best.value, 4.0 + 1.0, 1e-6);
}

/* Two wells: f(x) = 10 (x^2 - 1)^2 + 0.3 x on [-2, 2] has a local minimum
 * near x = 0.996 (f = 0.3) and the global one near x = -1.004 (f = -0.3).
 * From x = 1.1 one start ends in the local well; several (Sobol) starts
 * find the global one. */
static const char *const x_names[] = {"x"};
static void well_bounds(const void *self, double *lo, double *hi)
{
    (void)self;
    lo[0] = -2;
    hi[0] = 2;
}
static trapeze_status well_eval(const void *self, const double *p, const double *x, double *v,
                                double *dp, double *dx, trapeze_error *err)
{
    (void)self;
    (void)p;
    (void)err;
    (void)dp;
    double t = x[0] * x[0] - 1;
    *v = 10 * t * t + 0.3 * x[0];
    if (dx)
        dx[0] = 40 * x[0] * t + 0.3;
    return TRAPEZE_OK;
}
static const trapeze_model_ops well_ops = {"wells", 0, NULL, NULL, NULL, 1, x_names,
                                           well_bounds, NULL, NULL, well_eval, NULL};

static void test_multistart(void)
{
    trapeze_model m = {&well_ops, NULL};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    trapeze_minimum one, many;
    double x0 = 1.1;
    CHECK_OK(trapeze_model_minimize(&m, NULL, &x0, &o, &one, NULL));
    CHECK(one.x[0] > 0.99 && one.x[0] < 1.0);
    o.n_starts = 4;
    CHECK_OK(trapeze_model_minimize(&m, NULL, &x0, &o, &many, NULL));
    CHECK(many.x[0] < -1.0 && many.x[0] > -1.01);
    CHECK(many.value < one.value - 0.5);
    CHECK(many.evaluations > one.evaluations);
    o.n_starts = 0;
    trapeze_error err;
    CHECK(trapeze_model_minimize(&m, NULL, &x0, &o, &many, &err) == TRAPEZE_EINVAL);
}

/* A decision count beyond TRAPEZE_MODEL_MAX_DECISIONS, given by the
 * instance (as the grouping model's soft assignment): f = sum (x_i - i)^2
 * over `*self` unbounded variables; L-BFGS finds x_i = i, the end point
 * comes back through x_out only. */
static int many_count(const void *self)
{
    return *(const int *)self;
}
static void many_bounds(const void *self, double *lo, double *hi)
{
    for (int i = 0; i < many_count(self); i++) {
        lo[i] = -HUGE_VAL;
        hi[i] = HUGE_VAL;
    }
}
static trapeze_status many_eval(const void *self, const double *p, const double *x, double *v,
                                double *dp, double *dx, trapeze_error *err)
{
    (void)p, (void)dp, (void)err;
    *v = 0;
    for (int i = 0; i < many_count(self); i++) {
        *v += (x[i] - i) * (x[i] - i);
        if (dx)
            dx[i] = 2 * (x[i] - i);
    }
    return TRAPEZE_OK;
}
static const trapeze_model_ops many_ops = {.name = "many", .decision_bounds = many_bounds,
                                           .evaluate = many_eval, .decision_count = many_count};

static void test_minimize_lbfgs_many(void)
{
    int n = 40;
    trapeze_model m = {&many_ops, &n};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.algorithm = TRAPEZE_MINIMIZE_LBFGS;
    double x[40] = {0};
    trapeze_minimum best;
    trapeze_error err;
    /* no x_out: nowhere to put 40 decisions */
    CHECK(trapeze_model_minimize(&m, NULL, x, &o, &best, &err) == TRAPEZE_EINVAL &&
          strstr(err.message, "40 decision variables"));
    o.x_out = x;   /* the start, overwritten by the end point */
    CHECK_OK(trapeze_model_minimize(&m, NULL, x, &o, &best, NULL));
    for (int i = 0; i < n; i++)
        CHECK_NEAR(x[i], i, 1e-6);
    CHECK_NEAR(best.value, 0, 1e-10);
    CHECK(best.x[0] == 0 && best.evaluations > 1);
    /* L-BFGS takes no constraints: the bowl's is refused, not dropped */
    trapeze_model bowl = {&bowl_ops, NULL};
    double a = 1, x0[2] = {0, 0};
    o.x_out = NULL;
    CHECK(trapeze_model_minimize(&bowl, &a, x0, &o, &best, &err) == TRAPEZE_EINVAL &&
          strstr(err.message, "no constraints"));
}

/* A negative tolerance turns that stopping test off: with neither, MMA
 * runs out its evaluation budget where the defaults stop it early. */
static void test_minimize_no_tolerance(void)
{
    trapeze_model m = {&well_ops, NULL};
    trapeze_minimize_options o;
    trapeze_minimize_options_default(&o);
    o.max_evaluations = 300;
    trapeze_minimum def, none;
    double x0 = 1.1;
    CHECK_OK(trapeze_model_minimize(&m, NULL, &x0, &o, &def, NULL));
    CHECK(def.evaluations < 300);
    o.xtol_rel = o.ftol_rel = -1;
    CHECK_OK(trapeze_model_minimize(&m, NULL, &x0, &o, &none, NULL));
    CHECK(none.evaluations == 300);
    CHECK_NEAR(none.x[0], def.x[0], 1e-6);
}

/* y(t) = a e^(-b t): the decision variable t is the sample's input. */
static const char *const decay_params[] = {"a", "b"};
static const double decay_lo[] = {0, 0}, decay_hi[] = {1e6, 0.9};
static trapeze_status decay_eval(const void *self, const double *p, const double *x, double *v,
                                 double *dp, double *dx, trapeze_error *err)
{
    (void)self;
    (void)err;
    double e = exp(-p[1] * x[0]);
    *v = p[0] * e;
    if (dp) {
        dp[0] = e;
        dp[1] = -x[0] * p[0] * e;
    }
    if (dx)
        dx[0] = -p[1] * p[0] * e;
    return TRAPEZE_OK;
}
static const trapeze_model_ops decay_ops = {"decay", 2, decay_params, decay_lo, decay_hi, 1,
                                            x_names, well_bounds, NULL, NULL, decay_eval, NULL};

static void test_fit_toy(void)
{
    trapeze_fit_point pts[12];
    double truth[2] = {40.0, 0.35};
    for (int i = 0; i < 12; i++) {
        pts[i].model = (trapeze_model){&decay_ops, NULL};
        pts[i].decisions[0] = 0.5 * i;
        double noise = i % 2 ? 1.01 : 0.99; /* +-1% */
        decay_eval(NULL, truth, pts[i].decisions, &pts[i].measured, NULL, NULL, NULL);
        pts[i].measured *= noise;
    }
    double p[2] = {1.0, 0.5}, se[2];
    trapeze_fit_report rep;
    CHECK_OK(trapeze_model_fit(pts, 12, 3ul, p, se, &rep, NULL));
    CHECK_NEAR(p[0], 40.0, 0.8);
    CHECK_NEAR(p[1], 0.35, 0.01);
    CHECK(se[0] > 0 && se[1] > 0 && fabs(p[0] - 40) < 4 * se[0]);
    CHECK_NEAR(rep.rms_rel_error, 0.01, 0.002);
    CHECK(rep.n_fitted == 2 && rep.n_points == 12);
    /* b alone, a held at its start: a wrong a cannot be fitted away */
    double q[2] = {20.0, 0.5};
    CHECK_OK(trapeze_model_fit(pts, 12, 2ul, q, se, NULL, NULL));
    CHECK(q[0] == 20.0 && se[0] == 0);
    double start[2] = {1.0, 0.5};
    CHECK_OK(trapeze_model_cross_validate(pts, 12, 3ul, start, 4, 7, &rep, NULL));
    CHECK(rep.cv_mape_pct > 0.5 && rep.cv_mape_pct < 3);
    /* data that wants a beyond its range (5e6 > 1e6): the fit stops at the
     * edge and says so; the log transform it replaced ran off past 1e6 */
    for (int i = 0; i < 12; i++)
        pts[i].measured *= 5e6 / 40.0;
    double big[2] = {1.0, 0.5};
    CHECK_OK(trapeze_model_fit(pts, 12, 3ul, big, se, &rep, NULL));
    CHECK(big[0] <= decay_hi[0] && big[0] > 0.99 * decay_hi[0]);
    CHECK(rep.at_bound[0]); /* (b follows it to 0: the flattest curve under the cap) */
    CHECK_OK(trapeze_model_cross_validate(pts, 12, 3ul, start, 4, 7, &rep, NULL));
    CHECK(isfinite(rep.cv_mape_pct) && rep.cv_mape_pct > 20); /* capped a: far off, finite */
    /* mixing models in one fit is refused */
    pts[3].model.ops = &bowl_ops;
    trapeze_error err;
    CHECK(trapeze_model_fit(pts, 12, 3ul, p, NULL, NULL, &err) == TRAPEZE_EINVAL);
}

/* optimize.c once compared the caller's pointer with a local (out == &up),
 * so when the upper block edge won, the lower neighbour's search went
 * uncounted and the upper one's counted twice. The count is the joint
 * search plus both neighbours' height searches. */
static void test_joint_search_counts_every_evaluation(void)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    int upper_won = 0;
    for (int i = 0; i < 4; i++)
        for (int s = 0; s < 2; s++) {
            trapeze_ghostzone_model *m = gz_for(names[i], &calib);
            trapeze_ghostzone_optimum o, lo_o, hi_o;
            CHECK_OK(trapeze_ghostzone_optimize(m, (trapeze_sync)s, 1, &o, NULL));
            /* the joint search alone, as ghostzone_optimize.c runs it */
            gz_instance in = {m, (trapeze_sync)s};
            trapeze_model model = gz_as_model(&in);
            int bmax = gz_largest_block(m), wmax = gz_widest_halo(trapeze_ghostzone_workload(m));
            double lo[2] = {1.0, wmax + 1.0}, hi[2] = {(double)bmax / wmax, bmax};
            double x[2] = {1.0, bmax};
            trapeze_minimize_options opt;
            trapeze_minimize_options_default(&opt);
            opt.lo = lo;
            opt.hi = hi;
            trapeze_minimum joint;
            CHECK_OK(trapeze_model_minimize(&model, calib.value, x, &opt, &joint, NULL));
            CHECK(joint.x[1] == o.blk_continuous);
            int b_lo = (int)floor(joint.x[1]), b_hi = b_lo + 1 <= bmax ? b_lo + 1 : b_lo;
            trapeze_workload w = *trapeze_ghostzone_workload(m);
            trapeze_ghostzone_destroy(m);
            trapeze_ghostzone_model *mb;
            w.blk_len = b_lo;
            CHECK_OK(trapeze_ghostzone_create(&gpu, &w, &calib, &mb, NULL));
            CHECK_OK(trapeze_ghostzone_optimize(mb, (trapeze_sync)s, 0, &lo_o, NULL));
            trapeze_ghostzone_destroy(mb);
            w.blk_len = b_hi;
            CHECK_OK(trapeze_ghostzone_create(&gpu, &w, &calib, &mb, NULL));
            CHECK_OK(trapeze_ghostzone_optimize(mb, (trapeze_sync)s, 0, &hi_o, NULL));
            trapeze_ghostzone_destroy(mb);
            CHECK(o.evaluations == joint.evaluations + lo_o.evaluations + hi_o.evaluations);
            upper_won += o.blk_len == b_hi && b_hi != b_lo && lo_o.evaluations != hi_o.evaluations;
        }
    CHECK(upper_won > 0); /* the case the old code got wrong is among them */
}

/* The sync-mode decision and a fixed height, as trapeze ghostzone reports
 * them: the chosen mode has the lower CPL at its best integer height; a fixed
 * height fills every height field with it. */
static void test_decision(void)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    trapeze_sync both[2] = {TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE};
    int chose[2] = {0, 0};
    for (int i = 0; i < 4; i++) {
        trapeze_ghostzone_model *m = gz_for(names[i], &calib);
        trapeze_ghostzone_decision d;
        CHECK_OK(trapeze_ghostzone_decide(m, both, 2, 0, 0, &d, NULL));
        CHECK(d.n_modes == 2 && d.mode[0].sync == TRAPEZE_SYNC_RELAUNCH &&
              d.mode[1].sync == TRAPEZE_SYNC_FENCE);
        int other = 1 - d.chosen;
        CHECK(d.mode[d.chosen].cpl_argmin <= d.mode[other].cpl_argmin);
        chose[d.chosen]++;
        trapeze_ghostzone_optimum o;
        CHECK_OK(trapeze_ghostzone_optimize(m, TRAPEZE_SYNC_FENCE, 0, &o, NULL));
        CHECK(o.cpl_floor == d.mode[1].cpl_floor && o.h_floor == d.mode[1].h_floor);
        /* at a fixed height */
        CHECK_OK(trapeze_ghostzone_decide(m, both + 1, 1, 0, 2, &d, NULL));
        trapeze_ghostzone_eval e2, e1;
        int blk = trapeze_ghostzone_workload(m)->blk_len;
        CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_FENCE, 2, blk, &e2, NULL));
        CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_FENCE, 1, blk, &e1, NULL));
        CHECK(d.n_modes == 1 && d.chosen == 0 && d.mode[0].h_floor == 2 &&
              d.mode[0].h_argmin == 2 && d.mode[0].h_continuous == 2);
        CHECK(d.mode[0].cpl_floor == e2.cpl && d.mode[0].cpl_argmin == e2.cpl &&
              d.mode[0].cpl_h1 == e1.cpl && d.mode[0].blk_len == blk);
        trapeze_error err;
        CHECK(trapeze_ghostzone_decide(m, both, 2, 1, 2, &d, &err) == TRAPEZE_EINVAL);
        trapeze_ghostzone_destroy(m);
    }
    CHECK(chose[0] + chose[1] == 4);
}

int main(void)
{
    load("gtx480");
    test_gz_through_interface();
    test_set_params_keeps_profile();
    test_minimize_constrained();
    test_minimize_slsqp();
    test_multistart();
    test_minimize_lbfgs_many();
    test_minimize_no_tolerance();
    test_fit_toy();
    test_joint_search_counts_every_evaluation();
    test_decision();
    return check_report("test_model");
}
