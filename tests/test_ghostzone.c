/*
 * Tests of the ghost-zone model against Meng's dissertation (ch. 5): the
 * predictions it quotes, an independent hand evaluation of the equations,
 * the analytic gradient against finite differences, the optimizer at the
 * edge of Eq. 5.20, and CSV export read back with libcsv.
 */
#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/ghostzone.h"
#include "trapeze.h"

static trapeze_gpu gtx280;
static trapeze_ghostzone_params meng;

static void load_gpu(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx280.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gtx280, &err));
    trapeze_config_destroy(cfg);
    CHECK_OK(trapeze_ghostzone_params_load("data/calibrations/gtx280-meng2010.ini", &meng, &err));
}

static trapeze_ghostzone_model *model_for(const char *name, int tau)
{
    char path[128];
    trapeze_workload w;
    trapeze_ghostzone_model *m = NULL;
    trapeze_error err;
    snprintf(path, sizeof path, "data/workloads/%s.ini", name);
    if (trapeze_workload_load(path, &w, &err) || trapeze_ghostzone_create(&gtx280, &w, &meng, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    trapeze_ghostzone_set_tau(m, tau);
    return m;
}

static int floor_height(trapeze_ghostzone_model *m, trapeze_sync sync)
{
    trapeze_ghostzone_optimum o;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_optimize(m, sync, 0, &o, &err));
    return o.h_floor;
}

/* Section 5.5.4 and Fig. 5.7: the heights the dissertation's model predicts. */
static void test_paper_predictions(void)
{
    trapeze_ghostzone_model *pf = model_for("pathfinder", 0), *hs = model_for("hotspot", 0),
                     *po = model_for("poisson", 0), *ce = model_for("cell", 0);
    CHECK(floor_height(pf, TRAPEZE_SYNC_RELAUNCH) == 12);
    CHECK(floor_height(pf, TRAPEZE_SYNC_FENCE) == 19);
    CHECK(floor_height(po, TRAPEZE_SYNC_FENCE) == 2);
    CHECK(floor_height(hs, TRAPEZE_SYNC_RELAUNCH) == 2);
    CHECK(floor_height(po, TRAPEZE_SYNC_RELAUNCH) == 2);
    CHECK(floor_height(hs, TRAPEZE_SYNC_FENCE) == 2);
    CHECK(floor_height(ce, TRAPEZE_SYNC_RELAUNCH) == 1);
    CHECK(floor_height(ce, TRAPEZE_SYNC_FENCE) == 1);
    /* delta of Eq. 5.23, quoted as 87, 21, 25 and -464 (only the sign for Cell) */
    CHECK_NEAR(trapeze_ghostzone_delta(pf, 256), 87, 3);
    CHECK_NEAR(trapeze_ghostzone_delta(hs, 20), 21, 3);
    CHECK_NEAR(trapeze_ghostzone_delta(po, 20), 25, 3);
    CHECK(trapeze_ghostzone_delta(ce, 8) < 0);
    /* PathFinder with fences: floor(h*) = 19 but the integer argmin is 20,
     * a near-tie of about 9 cycles in 165,000 */
    trapeze_ghostzone_optimum o;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_optimize(pf, TRAPEZE_SYNC_FENCE, 0, &o, &err));
    CHECK(o.h_argmin == 20);
    CHECK(o.cpl_floor - o.cpl_argmin > 5 && o.cpl_floor - o.cpl_argmin < 15);
    CHECK_NEAR(o.cpl_floor, 165000, 1000);
    trapeze_ghostzone_destroy(pf);
    trapeze_ghostzone_destroy(hs);
    trapeze_ghostzone_destroy(po);
    trapeze_ghostzone_destroy(ce);
}

/* With tau on, PathFinder's fence optimum moves to about 22-23 (notes, 2.4). */
static void test_tau_switch(void)
{
    trapeze_ghostzone_model *pf = model_for("pathfinder", 1);
    int h = floor_height(pf, TRAPEZE_SYNC_FENCE);
    CHECK(h == 22 || h == 23);
    /* delta with tau: 105.15 - 0.5 * 20.46 = 94.9 */
    CHECK_NEAR(trapeze_ghostzone_delta(pf, 256), 94.9, 0.1);
    trapeze_ghostzone_destroy(pf);
}

/* PathFinder, relaunch, h = 3, evaluated by hand from 5.3-5.17 with the
 * GTX 280 numbers, independently of the library's code. */
static void test_hand_evaluation(void)
{
    trapeze_ghostzone_model *pf = model_for("pathfinder", 0);
    trapeze_ghostzone_eval e;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_evaluate(pf, TRAPEZE_SYNC_RELAUNCH, 3, 256, &e, &err));
    double T = 1e6 / (256 - 2 * 3);           /* 5.3: 4000 trapezoids */
    double passes = T / (8 * 30);             /* 5.6 */
    /* x * Clock / BW with alpha = 5^0; BW = 8 x 2 x 4 B x 1107 MHz x 2 = 141.7 GB/s */
    double c_bw = 4 * 1.3e9 / (8 * 2 * 4 * 1107e6 * 2);
    double loadsten = passes * 300 + c_bw * T * 256;
    double commit = passes * 300 + c_bw * 1e6;
    double itermem = 1 * 3 * (passes * 300 + c_bw * T * 254);
    double misc = 1998.0 * 30 / 100000 * 256 * 4;   /* 5.15 per trapezoid */
    double iter = 3 * 1859.0 * 30 / 100000 * 254 * 4; /* 5.16 */
    double cps = 3350 + loadsten + commit + itermem + (misc + iter) * T / 30;
    CHECK_NEAR(T, 4000, 1e-9);
    CHECK_NEAR(e.trapezoids, T, 1e-9);
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_LOADSTEN], loadsten, 1e-6);
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_COMMIT], commit, 1e-6);
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_ITERMEM], itermem, 1e-6);
    CHECK_NEAR(e.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP], misc * T / (3 * 30), 1e-6);
    CHECK_NEAR(e.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], iter * T / (3 * 30), 1e-6);
    CHECK_NEAR(e.per_loop[TRAPEZE_GHOSTZONE_GLBSYNC], 3350.0 / 3, 1e-9);
    CHECK_NEAR(e.cpl, cps / 3, 1e-6);
    double sum = 0;
    for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++)
        sum += e.per_loop[c];
    CHECK_NEAR(sum, e.cpl, 1e-6 * e.cpl); /* 5.24 */
    /* with fences MiscComp is dropped and GlbSync = mu * 210.3 * T (5.18) */
    CHECK_OK(trapeze_ghostzone_evaluate(pf, TRAPEZE_SYNC_FENCE, 3, 256, &e, &err));
    CHECK_NEAR(e.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP], 0, 0);
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_GLBSYNC], 0.5 * 210.3 * 4000, 1e-6);
    trapeze_ghostzone_destroy(pf);
}

static double relative_gap(double a, double b)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return scale < 1e-12 ? fabs(a - b) : fabs(a - b) / scale;
}

/* dCPL/dh, dCPL/dblk and dCPL/dparam against central differences. */
static void check_gradient(trapeze_ghostzone_model *m, trapeze_sync sync, double h, double blk)
{
    trapeze_ghostzone_eval e, lo, hi;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h, blk, &e, &err));
    double step = 1e-5 * h;
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h + step, blk, &hi, &err));
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h - step, blk, &lo, &err));
    CHECK(relative_gap(e.dcpl_dh, (hi.cpl - lo.cpl) / (2 * step)) < 1e-5 ||
          fabs(e.dcpl_dh - (hi.cpl - lo.cpl) / (2 * step)) < 1e-6 * e.cpl);
    step = 1e-5 * blk;
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h, blk + step, &hi, &err));
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h, blk - step, &lo, &err));
    CHECK(relative_gap(e.dcpl_dblk, (hi.cpl - lo.cpl) / (2 * step)) < 1e-5);
    trapeze_ghostzone_params p = meng;
    for (int i = 0; i < TRAPEZE_GHOSTZONE_NPARAMS; i++) {
        double v = meng.value[i], d = 1e-5 * (v != 0 ? v : 1); /* 0: an unused extension */
        p.value[i] = v + d;
        trapeze_ghostzone_set_params(m, &p);
        trapeze_ghostzone_evaluate(m, sync, h, blk, &hi, &err);
        p.value[i] = v - d;
        trapeze_ghostzone_set_params(m, &p);
        trapeze_ghostzone_evaluate(m, sync, h, blk, &lo, &err);
        p.value[i] = v;
        double fd = (hi.cpl - lo.cpl) / (2 * d);
        /* absolute floor: parameters with no effect (beta without tau) give 0 */
        CHECK(relative_gap(e.dcpl_dparam[i], fd) < 1e-5 || fabs(e.dcpl_dparam[i] - fd) < 1e-7 * e.cpl);
    }
    trapeze_ghostzone_set_params(m, &meng);
}

static void test_gradient_matches_finite_differences(void)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    const double blks[] = {256, 20, 20, 8};
    const double hs[] = {7.3, 2.2, 3.6, 1.4};
    for (int tau = 0; tau <= 1; tau++)
        for (int i = 0; i < 4; i++) {
            trapeze_ghostzone_model *m = model_for(names[i], tau);
            check_gradient(m, TRAPEZE_SYNC_RELAUNCH, hs[i], blks[i]);
            check_gradient(m, TRAPEZE_SYNC_FENCE, hs[i], blks[i]);
            trapeze_ghostzone_destroy(m);
        }
}

/* The optimizer's evaluation (a dual of width 2: h and blk_len), the fit's
 * (lanes for the parameters that mode and switches read) and the reference
 * with a lane for every parameter are the same equations compiled per
 * width: every value, d/dh and d/dblk must be the same bits, the fit's
 * parameter partials the reference's bits (a parameter wrongly left without
 * a lane would read 0 where the reference has its partial), and the narrow
 * one leaves the parameter partials NaN (not computed), never a number that
 * looks like a gradient. Paper mode and every extension switched on, both modes, tau on
 * and off, smooth and whole points; d/dh and d/dblk of the narrow one also
 * against central differences. A block edge other than the workload's
 * (whose occupancy the model keeps precomputed) must give what a model
 * created for that edge gives. */
static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int same_eval(const trapeze_ghostzone_eval *a, const trapeze_ghostzone_eval *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static void check_widths_agree(const trapeze_ghostzone_model *m, trapeze_sync sync, double h, double blk)
{
    trapeze_ghostzone_eval full, all, hb, lo, hi;
    const double *p = gz_param_values(m);
    memset(&full, 0, sizeof full); /* whole structs compared: no padding left unset */
    memset(&all, 0, sizeof all);
    CHECK_OK(gz_evaluate_at(m, p, sync, h, blk, GZ_GRAD_PARAMS, &full, NULL));
    CHECK_OK(gz_evaluate_at(m, p, sync, h, blk, GZ_GRAD_ALL, &all, NULL));
    CHECK(same_eval(&full, &all));
    CHECK_OK(gz_evaluate_at(m, p, sync, h, blk, GZ_GRAD_HB, &hb, NULL));
    int same = same_bits(full.cpl, hb.cpl) && same_bits(full.cps, hb.cps) &&
               same_bits(full.trapezoids, hb.trapezoids) && same_bits(full.passes, hb.passes) &&
               same_bits(full.dcpl_dh, hb.dcpl_dh) && same_bits(full.dcpl_dblk, hb.dcpl_dblk);
    for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++)
        same = same && same_bits(full.stage[c], hb.stage[c]) &&
               same_bits(full.per_loop[c], hb.per_loop[c]);
    CHECK(same);
    int nan = 1;
    for (int i = 0; i < TRAPEZE_GHOSTZONE_NPARAMS; i++)
        nan = nan && isnan(hb.dcpl_dparam[i]) && !isnan(full.dcpl_dparam[i]);
    CHECK(nan);
    if (h != floor(h)) { /* whole points are the step model's (trapeze.h) */
        double step = 1e-5 * h;
        CHECK_OK(gz_evaluate_at(m, p, sync, h + step, blk, GZ_GRAD_HB, &hi, NULL));
        CHECK_OK(gz_evaluate_at(m, p, sync, h - step, blk, GZ_GRAD_HB, &lo, NULL));
        CHECK(relative_gap(hb.dcpl_dh, (hi.cpl - lo.cpl) / (2 * step)) < 1e-5);
    }
}

static void test_gradient_widths_agree(void)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    const double blks[] = {256, 20, 20, 8};
    const double hs[] = {7.3, 2.2, 3.6, 1.4};
    trapeze_ghostzone_params every = meng;
    every.whole_tiles = every.occupancy = every.waves = every.persistent_fence = 1;
    every.fence_overlap = every.fence_staging = every.fence_iter = every.row_penalty = 1;
    every.row_lines = every.barrier_max = every.mem_latency = 1;
    every.partial_round = every.loop_reread = 1; /* fences then read 16 parameters */
    every.round_latency = 1; /* PathFinder's partial round at the latency's floor (no parameter) */
    every.round_spin = 1;    /* its fence wait grown by the spinning blocks (the barrier's parameters) */
    every.spin_staging = 1;  /* the partial round's staging behind them (the same parameters) */
    every.round_tiles = 1;   /* its own tiles after the latency (no parameter) */
    every.round_setup = 1;   /* fence MiscComp's setup share once a round (phi's lane) */
    every.turnaround_cycles = 5000;
    every.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.5;
    every.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.6;
    every.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0.3; /* the overlap's pow, not its omega = 0 shortcut */
    every.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = 1.4;
    for (int ext = 0; ext <= 1; ext++)
        for (int tau = 0; tau <= 1; tau++)
            for (int i = 0; i < 4; i++) {
                trapeze_ghostzone_model *m = model_for(names[i], tau);
                if (ext)
                    trapeze_ghostzone_set_params(m, &every);
                for (int s = 0; s < 2; s++) {
                    check_widths_agree(m, (trapeze_sync)s, hs[i], blks[i]);
                    check_widths_agree(m, (trapeze_sync)s, floor(hs[i]) + 1, blks[i]);
                    check_widths_agree(m, (trapeze_sync)s, 1, blks[i] - 1);
                }
                trapeze_ghostzone_destroy(m);
            }
    /* occupancy at another edge: HotSpot's 16 (its own occupancy, not 20's) */
    trapeze_ghostzone_model *hotspot = model_for("hotspot", 0), *at20, *at16;
    trapeze_workload w = *trapeze_ghostzone_workload(hotspot);
    trapeze_ghostzone_destroy(hotspot);
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_create(&gtx280, &w, &every, &at20, &err));
    w.blk_len = 16;
    CHECK_OK(trapeze_ghostzone_create(&gtx280, &w, &every, &at16, &err));
    trapeze_ghostzone_eval a, b;
    CHECK_OK(trapeze_ghostzone_evaluate(at20, TRAPEZE_SYNC_RELAUNCH, 2, 16, &a, &err));
    CHECK_OK(trapeze_ghostzone_evaluate(at16, TRAPEZE_SYNC_RELAUNCH, 2, 16, &b, &err));
    CHECK(same_bits(a.cpl, b.cpl) && same_bits(a.dcpl_dh, b.dcpl_dh));
    CHECK(trapeze_ghostzone_occupancy(&gtx280, &w, 16) != trapeze_ghostzone_occupancy(&gtx280, &w, 20));
    trapeze_ghostzone_destroy(at20);
    trapeze_ghostzone_destroy(at16);
}

/* A relaunch so costly that the optimum presses against Eq. 5.20:
 * blk 9, halo 2 -> h < 4.5, largest valid integer height 4. */
static void test_optimizer_at_constraint_edge(void)
{
    trapeze_ghostzone_model *m = model_for("hotspot", 0);
    trapeze_workload w = *trapeze_ghostzone_workload(m);
    trapeze_ghostzone_destroy(m);
    w.blk_len = 9;
    trapeze_ghostzone_params p = meng;
    p.value[TRAPEZE_GHOSTZONE_RELAUNCH] = 1e13;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_create(&gtx280, &w, &p, &m, &err));
    CHECK(trapeze_ghostzone_max_height(m, 9) == 4);
    trapeze_ghostzone_optimum o;
    CHECK_OK(trapeze_ghostzone_optimize(m, TRAPEZE_SYNC_RELAUNCH, 0, &o, &err));
    CHECK(9 - 2 * o.h_continuous > 0);   /* 5.20 holds */
    CHECK(o.h_continuous > 4.0);        /* and it went close to the edge */
    CHECK(o.h_floor == 4 && o.h_argmin == 4);
    /* evaluating beyond the edge is refused with Eq. 5.20 named */
    trapeze_ghostzone_eval e;
    CHECK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 4.5, 9, &e, &err) == TRAPEZE_ERANGE);
    CHECK(strstr(err.message, "5.20") != NULL);
    CHECK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 0.5, 9, &e, &err) == TRAPEZE_ERANGE);
    trapeze_ghostzone_destroy(m);
}

/* Block edge as a decision variable: HotSpot on the GTX 280 is bounded by
 * 512 threads per block, so the edge is 22 (22^2 = 484 <= 512 < 23^2). */
static void test_block_optimization_respects_gpu_limits(void)
{
    trapeze_ghostzone_model *m = model_for("hotspot", 0);
    trapeze_ghostzone_optimum o;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_optimize(m, TRAPEZE_SYNC_RELAUNCH, 1, &o, &err));
    CHECK(o.blk_len == 22);
    CHECK(o.blk_len * o.blk_len <= gtx280.max_threads_per_block);
    CHECK(o.blk_len - 2 * o.h_continuous > 0);
    trapeze_ghostzone_destroy(m);
}

/* ---- CSV export read back through libcsv ---- */

typedef struct {
    char fields[16][64];
    int nfields, rows, mismatches;
    const trapeze_ghostzone_model *m;
} reader;

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    if (r->nfields < 16) {
        size_t n = len < 63 ? len : 63;
        memcpy(r->fields[r->nfields], s, n);
        r->fields[r->nfields][n] = '\0';
    }
    r->nfields++;
}

static void on_row(int c, void *data)
{
    (void)c;
    reader *r = data;
    if (r->rows++ == 0) { /* header */
        for (int i = 0; i < trapeze_ghostzone_csv_ncolumns; i++)
            if (strcmp(r->fields[i], trapeze_ghostzone_csv_columns[i]) != 0)
                r->mismatches++;
    } else {
        trapeze_ghostzone_eval e, one;
        trapeze_sync sync = strcmp(r->fields[2], "fence") == 0 ? TRAPEZE_SYNC_FENCE
                                                               : TRAPEZE_SYNC_RELAUNCH;
        double h = atof(r->fields[3]);
        trapeze_ghostzone_evaluate(r->m, sync, h, 256, &e, NULL);
        trapeze_ghostzone_evaluate(r->m, sync, 1, 256, &one, NULL);
        double expect[] = {h, e.trapezoids, e.cpl, e.per_loop[0], e.per_loop[1], e.per_loop[2],
                           e.per_loop[3], e.per_loop[4], e.per_loop[5], one.cpl / e.cpl};
        for (int i = 0; i < 10; i++)
            if (strtod(r->fields[3 + i], NULL) != expect[i]) /* exactly the same double */
                r->mismatches++;
        if (strcmp(r->fields[0], "PathFinder") != 0 || strcmp(r->fields[1], "gtx280") != 0)
            r->mismatches++;
    }
    if (r->nfields != trapeze_ghostzone_csv_ncolumns)
        r->mismatches++;
    r->nfields = 0;
}

static void test_csv_reads_back(void)
{
    trapeze_ghostzone_model *m = model_for("pathfinder", 0);
    trapeze_csv_out *csv;
    trapeze_error err;
    const char *path = "build/test_ghostzone.csv";
    CHECK_OK(trapeze_csv_create(path, trapeze_ghostzone_csv_columns, trapeze_ghostzone_csv_ncolumns, &csv, &err));
    CHECK_OK(trapeze_ghostzone_write_rows(m, TRAPEZE_SYNC_RELAUNCH, 256, csv, &err));
    CHECK_OK(trapeze_ghostzone_write_rows(m, TRAPEZE_SYNC_FENCE, 256, csv, &err));
    CHECK_OK(trapeze_csv_commit(csv, &err));
    char *text;
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    text = malloc((size_t)size);
    CHECK(fread(text, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    struct csv_parser p;
    reader r = {.m = m};
    csv_init(&p, CSV_APPEND_NULL);
    CHECK(csv_parse(&p, text, (size_t)size, on_field, on_row, &r) == (size_t)size);
    csv_fini(&p, on_field, on_row, &r);
    csv_free(&p);
    free(text);
    /* 127 valid heights (256 - 2h > 0) in each of two modes, plus the header */
    CHECK(r.rows == 1 + 2 * 127);
    CHECK(r.mismatches == 0);
    trapeze_ghostzone_destroy(m);
}

/* A workload's issue rate over the calibration's reference scales its
 * compute terms (MiscComp, IterComp) and nothing else; 1 when either is 0
 * (every file before the issue probe); and both survive a save and load. */
static void test_issue_factor(void)
{
    trapeze_workload w;
    trapeze_error err;
    CHECK_OK(trapeze_workload_load("data/workloads/pathfinder.ini", &w, &err));
    trapeze_ghostzone_params p = meng;
    CHECK(p.issue_cycles_ref == 0); /* a file without the key */
    p.n_profiles = 1;
    snprintf(p.profile[0].workload, sizeof p.profile[0].workload, "PathFinder");
    p.profile[0].input_elements = 100000;
    p.profile[0].insts_per_sm_mc = 1998;
    p.profile[0].insts_per_sm_ic = 1859;
    p.profile[0].issue_cycles = 0.9;
    trapeze_ghostzone_eval plain, scaled;
    trapeze_ghostzone_model *m;
    CHECK_OK(trapeze_ghostzone_create(&gtx280, &w, &p, &m, &err)); /* no reference: factor 1 */
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 3, 256, &plain, &err));
    double delta_plain = trapeze_ghostzone_delta(m, 256);
    trapeze_ghostzone_destroy(m);
    p.issue_cycles_ref = 0.6; /* this workload issues 1.5 times slower than the reference */
    CHECK_OK(trapeze_ghostzone_create(&gtx280, &w, &p, &m, &err));
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 3, 256, &scaled, &err));
    CHECK_NEAR(scaled.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], 1.5 * plain.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP],
               1e-9 * plain.cpl);
    CHECK_NEAR(scaled.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP], 1.5 * plain.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP],
               1e-9 * plain.cpl);
    CHECK(plain.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP] > 0 && plain.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP] > 0);
    for (int c = TRAPEZE_GHOSTZONE_GLBSYNC; c <= TRAPEZE_GHOSTZONE_ITERMEM; c++)
        CHECK_NEAR(scaled.per_loop[c], plain.per_loop[c], 1e-9 * plain.cpl);
    /* 5.23's delta = mu FencePerBlock - MiscComp per block: its MiscComp scales too */
    double mu_fence = meng.value[TRAPEZE_GHOSTZONE_MU] * meng.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK];
    CHECK_NEAR(trapeze_ghostzone_delta(m, 256) - mu_fence, 1.5 * (delta_plain - mu_fence), 1e-9);
    trapeze_ghostzone_destroy(m);
    const char *path = "build/test_issue_factor.ini";
    CHECK_OK(trapeze_ghostzone_params_save(path, &p, &err));
    trapeze_ghostzone_params q;
    CHECK_OK(trapeze_ghostzone_params_load(path, &q, &err));
    CHECK(q.issue_cycles_ref == 0.6 && q.n_profiles == 1 && q.profile[0].issue_cycles == 0.9);
    remove(path);
}

int main(void)
{
    load_gpu();
    test_paper_predictions();
    test_tau_switch();
    test_hand_evaluation();
    test_gradient_matches_finite_differences();
    test_gradient_widths_agree();
    test_optimizer_at_constraint_edge();
    test_block_optimization_respects_gpu_limits();
    test_csv_reads_back();
    test_issue_factor();
    return check_report("test_ghostzone");
}
