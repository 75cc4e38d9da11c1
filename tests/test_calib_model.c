/*
 * Tests of the model extensions calibration added, each checked by hand
 * against the unextended evaluation: the overlap of memory and compute
 * (p-norm, p = 1/(1 - omega)), whole tiles at whole heights, the achieved
 * bandwidth fraction, the fence-barrier intercept; their gradients against
 * finite differences; and calibration files with [profile.NAME] sections.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static trapeze_ghostzone_model *hotspot(const trapeze_ghostzone_params *p)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_workload w;
    trapeze_ghostzone_model *m = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx280.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    trapeze_config_destroy(cfg);
    CHECK_OK(trapeze_workload_load("data/workloads/hotspot.ini", &w, &err));
    CHECK_OK(trapeze_ghostzone_create(&gpu, &w, p, &m, &err));
    return m;
}

static trapeze_ghostzone_eval eval(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p, trapeze_sync sync,
                                   double h)
{
    trapeze_ghostzone_eval e;
    trapeze_ghostzone_set_params(m, p);
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h, 20, &e, NULL));
    return e;
}

static void test_overlap(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *meng)
{
    trapeze_ghostzone_eval sum = eval(m, meng, TRAPEZE_SYNC_RELAUNCH, 3);
    double mem = sum.per_loop[TRAPEZE_GHOSTZONE_LOADSTEN] + sum.per_loop[TRAPEZE_GHOSTZONE_COMMIT] +
                 sum.per_loop[TRAPEZE_GHOSTZONE_ITERMEM];
    double comp = sum.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP] + sum.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP];
    trapeze_ghostzone_params p = *meng;
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0.5; /* p = 2: the Euclidean norm */
    trapeze_ghostzone_eval e = eval(m, &p, TRAPEZE_SYNC_RELAUNCH, 3);
    CHECK_NEAR(e.cpl, sum.per_loop[TRAPEZE_GHOSTZONE_GLBSYNC] + sqrt(mem * mem + comp * comp), 1e-9 * e.cpl);
    double parts = 0;
    for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++)
        parts += e.per_loop[c];
    CHECK_NEAR(parts, e.cpl, 1e-9 * e.cpl); /* components still add up */
    for (double w = 0; w <= 0.5; w += 0.5) { /* d/d omega, also at Meng's edge 0 */
        p.value[TRAPEZE_GHOSTZONE_OVERLAP] = w;
        double g = eval(m, &p, TRAPEZE_SYNC_FENCE, 3).dcpl_dparam[TRAPEZE_GHOSTZONE_OVERLAP];
        p.value[TRAPEZE_GHOSTZONE_OVERLAP] = w + 1e-6;
        double hi = eval(m, &p, TRAPEZE_SYNC_FENCE, 3).cpl;
        p.value[TRAPEZE_GHOSTZONE_OVERLAP] = w > 0 ? w - 1e-6 : w;
        double lo = eval(m, &p, TRAPEZE_SYNC_FENCE, 3).cpl;
        CHECK(g < 0); /* overlap only hides time */
        CHECK_NEAR(g, (hi - lo) / (w > 0 ? 2e-6 : 1e-6), 1e-3 * fabs(g));
    }
}

static void test_whole_tiles(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *meng)
{
    trapeze_ghostzone_params p = *meng;
    p.whole_tiles = 1;
    /* 2000 / (20 - 2 x 3) = 142.86 -> 143 tiles a side; 20449 against 5.3's 20408.2 */
    CHECK_NEAR(eval(m, meng, TRAPEZE_SYNC_RELAUNCH, 3).trapezoids, 2000.0 * 2000 / 196, 1e-6);
    trapeze_ghostzone_eval e = eval(m, &p, TRAPEZE_SYNC_RELAUNCH, 3);
    CHECK_NEAR(e.trapezoids, 143.0 * 143, 0);
    /* the busiest of 30 SMs runs ceil(20449 / 30) = 682 trapezoids */
    trapeze_ghostzone_eval real = eval(m, meng, TRAPEZE_SYNC_RELAUNCH, 3);
    double per_sm_real = real.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP] / real.trapezoids * 30;
    CHECK_NEAR(e.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], per_sm_real * 682, 1e-9 * e.cpl);
    /* between whole heights the continuous optimizer keeps Meng's smooth T */
    CHECK_NEAR(eval(m, &p, TRAPEZE_SYNC_RELAUNCH, 2.5).trapezoids, 2000.0 * 2000 / 225, 1e-6);
}

static void test_bandwidth_and_fence(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *meng)
{
    trapeze_ghostzone_params p = *meng;
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 0; /* memory = bytes / bandwidth only */
    double full = eval(m, &p, TRAPEZE_SYNC_RELAUNCH, 2).per_loop[TRAPEZE_GHOSTZONE_COMMIT];
    p.value[TRAPEZE_GHOSTZONE_BW_FRACTION] = 0.5;
    CHECK_NEAR(eval(m, &p, TRAPEZE_SYNC_RELAUNCH, 2).per_loop[TRAPEZE_GHOSTZONE_COMMIT], 2 * full, 1e-9 * full);
    p = *meng;
    double glb = eval(m, &p, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_GLBSYNC];
    p.value[TRAPEZE_GHOSTZONE_FENCE_BARRIER] = 1000; /* mu (0.5) x 1000 per stage, over h = 2 */
    CHECK_NEAR(eval(m, &p, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_GLBSYNC], glb + 250, 1e-9 * glb);
}

static void test_calibration_file(const trapeze_ghostzone_params *meng)
{
    trapeze_ghostzone_params p = *meng, q;
    trapeze_error err;
    p.whole_tiles = 1;
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0.25;
    p.n_profiles = 1;
    p.profile[0] = (trapeze_ghostzone_profile){"HotSpot", 20736, 2740.6, 3660.8, 0.125, 0};
    const char *path = "build/test_calib_model.ini";
    CHECK_OK(trapeze_ghostzone_params_save(path, &p, &err));
    CHECK_OK(trapeze_ghostzone_params_load(path, &q, &err));
    CHECK(q.whole_tiles == 1 && q.n_profiles == 1 && !strcmp(q.profile[0].workload, "HotSpot"));
    CHECK(q.profile[0].insts_per_sm_ic == 3660.8 && q.profile[0].bank_conflict_rate == 0.125);
    CHECK(q.value[TRAPEZE_GHOSTZONE_OVERLAP] == 0.25);
    /* the profile replaces the spec's counts (IterComp scales with them) in
     * a model created with it; setting parameters later leaves them alone */
    trapeze_ghostzone_model *m = hotspot(meng);
    double ic = eval(m, meng, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP];
    q.whole_tiles = 0;
    q.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0;
    double expect = ic / (16645.0 / 250000) * (3660.8 / 20736);
    CHECK_NEAR(eval(m, &q, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], ic, 1e-9 * ic);
    trapeze_ghostzone_destroy(m);
    m = hotspot(&q);
    CHECK_NEAR(eval(m, &q, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], expect, 1e-9 * expect);
    CHECK_NEAR(eval(m, meng, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], expect, 1e-9 * expect);
    trapeze_ghostzone_destroy(m);
    FILE *f = fopen(path, "a");
    fputs("[profile.Cell]\ninsts = 3\n", f);
    fclose(f);
    CHECK(trapeze_ghostzone_params_load(path, &q, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "test_calib_model.ini:") && strstr(err.message, "[profile.Cell] insts: unknown key"));
    remove(path);
}

int main(void)
{
    trapeze_ghostzone_params meng;
    trapeze_ghostzone_params_default(&meng);
    trapeze_ghostzone_model *m = hotspot(&meng);
    test_overlap(m, &meng);
    test_whole_tiles(m, &meng);
    test_bandwidth_and_fence(m, &meng);
    trapeze_ghostzone_destroy(m);
    test_calibration_file(&meng);
    return check_report("test_calib_model");
}
