/*
 * Tests of the energy-aware ghost-zone model (model/gz_energy.c): the
 * per-loop counts and the energy of a hand-made 1-D stencil worked out by
 * hand, the h-gradients against central finite differences, the
 * calibration of joules per count, the sleep saving of a histogram worked
 * out by hand, and the objective switch moving the pick on a hand-made
 * case where compute energy grows with h while time falls.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static trapeze_gpu gpu;

/* 1-D, 1000 elements, halo 2 (both sides), block 100, two arrays;
 * profile: 1000 elements, mc and ic instructions per SM. */
static trapeze_workload hand_workload(double mc, double ic)
{
    trapeze_workload w;
    memset(&w, 0, sizeof w);
    snprintf(w.name, sizeof w.name, "hand1d");
    w.dims = 1;
    w.data_len[0] = 1000;
    w.halo[0] = 2;
    w.blk_len = 100;
    w.regs_per_thread = 16;
    w.stencil_arrays = 2;
    w.elem_per_op = 0;
    w.element_bytes = 4;
    w.iterations = 8;
    w.profile_elements = 1000;
    w.insts_per_sm_mc = mc;
    w.insts_per_sm_ic = ic;
    w.setup_insts = 1;
    return w;
}

static trapeze_ghostzone_model *hand_model(double mc, double ic)
{
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    trapeze_workload w = hand_workload(mc, ic);
    trapeze_ghostzone_model *m = NULL;
    trapeze_error err;
    if (trapeze_ghostzone_create(&gpu, &w, &p, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return m;
}

static trapeze_ghostzone_energy_coef hand_coef(void)
{
    trapeze_ghostzone_energy_coef c;
    memset(&c, 0, sizeof c);
    c.inst_j[0] = 1e-9;
    c.inst_j[1] = 3e-9;
    c.element_j[0] = 2e-9;
    c.element_j[1] = 5e-9;
    for (int i = 0; i < TRAPEZE_PS_COUNT; i++)
        c.leak_w[i] = i + 1;        /* 1 + 2 + 3 + 4 + 5 = 15 W */
    c.constant_w = 10;
    c.idle_sm_w = 30;
    return c;
}

static trapeze_ghostzone_sleep hand_sleep(void)
{
    trapeze_ghostzone_sleep s;
    memset(&s, 0, sizeof s);
    s.valid = 1;
    s.saving[0] = 0.5;     /* l1d, 1 W  */
    s.saving[1] = 0.25;    /* l2,  2 W  */
    s.saving[2] = 0.1;     /* rf,  3 W  */
    s.penalty[0] = 0.01;
    s.penalty[2] = 0.005;
    return s;
}

/* T = 1000 / (100 - 2h); per tile 100 mc' + h 98 ic' instructions and
 * 2 x 100 + (100 - 2h) elements; per loop: x T / h. mc' = mc x SMs / 1000. */
static void test_counts_by_hand(void)
{
    trapeze_ghostzone_model *m = hand_model(40, 70);
    trapeze_ghostzone_counts c;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_energy_counts(m, TRAPEZE_SYNC_RELAUNCH, 5, &c, &err));
    double mc = 40.0 * gpu.n_sm / 1000, ic = 70.0 * gpu.n_sm / 1000, T = 1000.0 / 90;
    CHECK_NEAR(c.insts, T * (100 * mc + 5 * 98 * ic) / 5, 1e-9);
    CHECK_NEAR(c.elements, T * (200 + 90) / 5, 1e-9);
    CHECK_NEAR(c.elements, 644.4444444444, 1e-6);
    trapeze_ghostzone_destroy(m);
}

static void test_energy_by_hand(void)
{
    trapeze_ghostzone_model *m = hand_model(40, 70);
    trapeze_ghostzone_energy_coef c = hand_coef();
    trapeze_ghostzone_sleep s = hand_sleep();
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    trapeze_error err;
    for (int k = 0; k < 2; k++) {
        trapeze_sync sync = (trapeze_sync)k;
        trapeze_ghostzone_energy_eval e;
        trapeze_ghostzone_eval g;
        trapeze_ghostzone_counts n;
        CHECK_OK(trapeze_ghostzone_energy_evaluate(m, &c, &s, sync, 5, &e, &err));
        CHECK_OK(trapeze_ghostzone_evaluate(m, sync, 5, 100, &g, &err));
        CHECK_OK(trapeze_ghostzone_energy_counts(m, sync, 5, &n, &err));
        double clock = gpu.core_clock_hz;
        double seconds = g.cpl * 1.015 / clock;                 /* penalties 1% + 0.5% */
        double leak = 25 - (0.5 * 1 + 0.25 * 2 + 0.1 * 3);       /* 15 W + 10 W - saved */
        double dyn = c.inst_j[k] * n.insts + c.element_j[k] * n.elements;
        double gaps = sync == TRAPEZE_SYNC_RELAUNCH
            ? 30 * p.value[TRAPEZE_GHOSTZONE_RELAUNCH] / 5 / clock : 0;  /* idle SMs, per loop */
        CHECK_NEAR(e.cpl_sleep, g.cpl * 1.015, 1e-9 * g.cpl);
        CHECK_NEAR(e.dynamic_j, dyn, 1e-18);
        CHECK_NEAR(e.sync_j, gaps, 1e-18);
        CHECK_NEAR(e.leakage_j, leak * seconds, 1e-15);
        CHECK_NEAR(e.saved_j, 1.3 * seconds, 1e-15);
        CHECK_NEAR(e.energy_j, dyn + gaps + leak * seconds, 1e-15);
        CHECK_NEAR(e.edp, e.energy_j * seconds, 1e-20);
        /* no sleep: the whole static power, no penalty */
        trapeze_ghostzone_energy_eval on;
        CHECK_OK(trapeze_ghostzone_energy_evaluate(m, &c, NULL, sync, 5, &on, &err));
        CHECK_NEAR(on.leakage_j, 25 * g.cpl / clock, 1e-15);
    }
    trapeze_ghostzone_destroy(m);
}

/* d energy / dh and d edp / dh against central differences, off whole
 * heights (Meng's smooth T), both sync modes, with and without sleep. */
static void test_gradients(void)
{
    trapeze_ghostzone_model *m = hand_model(40, 70);
    trapeze_ghostzone_energy_coef c = hand_coef();
    trapeze_ghostzone_sleep s = hand_sleep();
    trapeze_error err;
    const double hs[] = {1.7, 4.3, 11.5};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            for (int with = 0; with < 2; with++) {
                trapeze_ghostzone_energy_eval e, lo, hi;
                double h = hs[i], d = 1e-5;
                const trapeze_ghostzone_sleep *sl = with ? &s : NULL;
                CHECK_OK(trapeze_ghostzone_energy_evaluate(m, &c, sl, (trapeze_sync)k, h, &e, &err));
                CHECK_OK(trapeze_ghostzone_energy_evaluate(m, &c, sl, (trapeze_sync)k, h - d, &lo, &err));
                CHECK_OK(trapeze_ghostzone_energy_evaluate(m, &c, sl, (trapeze_sync)k, h + d, &hi, &err));
                double fd = (hi.energy_j - lo.energy_j) / (2 * d);
                double fde = (hi.edp - lo.edp) / (2 * d);
                CHECK_NEAR(e.denergy_dh, fd, 1e-6 * fabs(fd) + 1e-15);
                CHECK_NEAR(e.dedp_dh, fde, 1e-6 * fabs(fde) + 1e-20);
                CHECK(fabs(e.denergy_dh) > 0);
            }
    trapeze_ghostzone_destroy(m);
}

/* Joules per count: a sample's dynamic energy over the model's counts of
 * its window times its iterations; a mode without samples takes the
 * other's; static power the samples' mean. */
static void test_calibrate(void)
{
    trapeze_ghostzone_model *m = hand_model(40, 70);
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    trapeze_ghostzone_energy_sample s[2];
    memset(s, 0, sizeof s);
    s[0].sync = TRAPEZE_SYNC_RELAUNCH;
    s[0].h = 2;
    s[0].data_len[0] = 500;   /* a window of half the grid */
    s[0].iterations = 4;
    s[0].dyn_compute_j = 1e-3;
    s[0].dyn_memory_j = 2e-3;
    s[0].constant_w = 10;
    s[0].leak_w[TRAPEZE_PS_RF] = 6;
    s[1] = s[0];
    s[1].h = 4;
    s[1].iterations = 8;
    s[1].dyn_compute_j = 3e-3;
    s[1].leak_w[TRAPEZE_PS_RF] = 2;
    trapeze_ghostzone_energy_coef c;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_energy_calibrate(m, &p, s, 2, &c, &err));
    /* counts of the 500-element window by hand: T = 500 / (100 - 2h) */
    double mc = 40.0 * gpu.n_sm / 1000, ic = 70.0 * gpu.n_sm / 1000;
    double i2 = 500.0 / 96 * (100 * mc + 2 * 98 * ic) / 2 * 4;
    double i4 = 500.0 / 92 * (100 * mc + 4 * 98 * ic) / 4 * 8;
    double e2 = 500.0 / 96 * (200 + 96) / 2 * 4, e4 = 500.0 / 92 * (200 + 92) / 4 * 8;
    CHECK_NEAR(c.inst_j[TRAPEZE_SYNC_RELAUNCH], 4e-3 / (i2 + i4), 1e-15);
    CHECK_NEAR(c.element_j[TRAPEZE_SYNC_RELAUNCH], 4e-3 / (e2 + e4), 1e-15);
    CHECK_NEAR(c.inst_j[TRAPEZE_SYNC_FENCE], c.inst_j[TRAPEZE_SYNC_RELAUNCH], 0);
    CHECK_NEAR(c.leak_w[TRAPEZE_PS_RF], 4, 1e-12);
    CHECK_NEAR(c.constant_w, 10, 1e-12);
    CHECK(c.n_samples[0] == 2 && c.n_samples[1] == 0);
    CHECK(trapeze_ghostzone_energy_calibrate(m, &p, s, 0, &c, &err) != TRAPEZE_OK);
    trapeze_ghostzone_destroy(m);
}

/* 1000 dead L1D periods of 100 cycles: Snooze's off mode at threshold 0
 * saves (1 - 0.015) x 100 of the 101 ON-cycles of each (idle + the access
 * cycle); dead periods need no wake, so no penalty. The L2 and RF saw no
 * period: they stay ON. */
static void test_sleep_by_hand(void)
{
    trapeze_power pw;
    trapeze_error err;
    CHECK_OK(trapeze_power_load("data/power/gtx480-seed.ini", &pw, &err));   /* the seed profile: no transition energies */
    trapeze_ghostzone_energy_sample *s = calloc(1, sizeof *s);
    trapeze_idle_hist_init(&s->hist[0], "gtx480", "k", "l1d", "line");
    trapeze_idle_hist_init(&s->hist[1], "gtx480", "k", "l2", "line");
    trapeze_idle_hist_init(&s->hist[2], "gtx480", "k", "rf", "warp_reg");
    s->hist[0].count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(100)] = 1000;
    s->hist[0].cycles = 101;
    s->hist[0].requesters = 1000;
    s->unit_cycles[0] = 1000 * 101;
    trapeze_ghostzone_sleep sl;
    CHECK_OK(trapeze_ghostzone_energy_sleep(&pw, 700e6, s, 0.01, &sl, &err));
    CHECK(sl.valid);
    CHECK_NEAR(sl.saving[0], 0.985 * 100 / 101, 1e-9);
    CHECK_NEAR(sl.penalty[0], 0, 1e-12);
    CHECK(sl.n_modes[0] == 2 && sl.theta[0][0] == 0 && sl.theta[0][1] == 0);
    CHECK(sl.saving[1] == 0 && sl.saving[2] == 0 && sl.n_modes[2] == 0);
    /* half the structure's unit-cycles outside the histogram: half the saving */
    s->unit_cycles[0] = 2000 * 101;
    CHECK_OK(trapeze_ghostzone_energy_sleep(&pw, 700e6, s, 0.01, &sl, &err));
    CHECK_NEAR(sl.saving[0], 0.985 * 100 / 101 / 2, 1e-9);
    free(s);
}

/* No MiscComp (mc = 0): the instructions per loop, T(h) x 98 ic', grow with
 * h (T does), so with only instruction energy and no static power the
 * energy pick is h = 1; relaunch's 3350-cycle GlbSync makes the time pick
 * taller. The objective switch changes the pick, each is its objective's
 * argmin over every height, and EDP's lies between. */
static void test_objective_switch(void)
{
    trapeze_ghostzone_model *m = hand_model(0, 70);
    trapeze_ghostzone_energy_coef c;
    memset(&c, 0, sizeof c);
    c.inst_j[0] = c.inst_j[1] = 1e-9;
    trapeze_sync modes[1] = {TRAPEZE_SYNC_RELAUNCH};
    trapeze_ghostzone_energy_eval *e;
    int n, best[3];
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_energy_rank(m, &c, NULL, NULL, 0, modes, 1, &e, &n, best, &err));
    CHECK(n == 49);                          /* h = 1 .. 49: 100 - 2h >= 1 */
    int tbest = 0;
    for (int i = 0; i < n; i++) {
        trapeze_ghostzone_eval g;
        CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, i + 1, 100, &g, &err));
        if (g.cpl < e[tbest].cpl)
            tbest = i;
        CHECK(e[i].h == i + 1);
        CHECK(i == 0 || e[i].counts.insts > e[i - 1].counts.insts);
    }
    CHECK(best[TRAPEZE_GHOSTZONE_OBJ_TIME] == tbest);
    CHECK(e[best[TRAPEZE_GHOSTZONE_OBJ_TIME]].h > 1);
    CHECK(e[best[TRAPEZE_GHOSTZONE_OBJ_ENERGY]].h == 1);
    CHECK(e[best[TRAPEZE_GHOSTZONE_OBJ_EDP]].h >= 1 &&
          e[best[TRAPEZE_GHOSTZONE_OBJ_EDP]].h <= e[best[TRAPEZE_GHOSTZONE_OBJ_TIME]].h);
    printf("objective switch: time h=%.0f, energy h=%.0f, edp h=%.0f\n",
           e[best[0]].h, e[best[1]].h, e[best[2]].h);
    free(e);
    trapeze_ghostzone_objective o;
    CHECK(trapeze_ghostzone_objective_parse("edp", &o) == 0 && o == TRAPEZE_GHOSTZONE_OBJ_EDP);
    CHECK(trapeze_ghostzone_objective_parse("power", &o) == -1);
    trapeze_ghostzone_destroy(m);
}

int main(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    if (trapeze_config_load("data/gpus/gtx280.config", &cfg, &err) ||
        trapeze_gpu_from_config(cfg, &gpu, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    trapeze_config_destroy(cfg);
    test_counts_by_hand();
    test_energy_by_hand();
    test_gradients();
    test_calibrate();
    test_sleep_by_hand();
    test_objective_switch();
    return check_report("test_gz_energy");
}
