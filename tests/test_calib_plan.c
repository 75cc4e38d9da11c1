/*
 * Tests of the sampled calibration's plan, runs and fit on the GTX 480
 * config with PathFinder: the Sobol placement (first point (1/2,1/2,1/2)),
 * micro-benchmark values against the config (2 schedulers: CPI 0.5; launch
 * latency 5 us x 700 MHz = 3500 cycles; unloaded load latency 296), the
 * profiled instruction counts against the kernel's hand-counted shape, and
 * the fit's outputs (standard errors, a cross-validated error); the samples
 * `identify` adds (hand-placed on the GTX 480), and that with them the fit
 * measures the loop re-reads rho_L that the Sobol samples leave to chance.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sampler/sampler.h"
#include "trapeze.h"

static const trapeze_sample *find_kind(const trapeze_ghostzone_plan *plan, const char *kind,
                                       const char *workload, int nth)
{
    for (int i = 0; i < trapeze_ghostzone_plan_count(plan); i++) {
        const trapeze_sample *s = trapeze_ghostzone_plan_sample(plan, i);
        if (!strcmp(s->kind, kind) && !strcmp(s->workload, workload) && nth-- == 0)
            return s;
    }
    return NULL;
}

static void test_plan_shape(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_calib_options *o)
{
    int n = trapeze_ghostzone_plan_count(plan);
    CHECK(n == 9 + 4 + o->budget); /* micro-benchmarks, profiling pair, issue probe, stencil samples */
    /* the fence barrier among the most blocks a persistent kernel can have:
     * 8 an SM x 15 SMs, of 1536 / 8 = 192 threads (256-thread blocks reach 90) */
    const trapeze_sample *most = find_kind(plan, "micro", "fencebar", 4);
    CHECK(most && most->data_len[0] == 120 && most->blk_len == 192 &&
          strstr(most->id, "micro/fencebar:120:b192"));
    CHECK(find_kind(plan, "micro", "fencebar", 3)->data_len[0] == 90);
    /* the issue probe: the tallest h keeping a quarter of the block, (256 - 2h) / 256 >= 1/4:
     * 96, and half of it, each on 4 waves of 6 x 15 resident tiles */
    const trapeze_sample *tall = find_kind(plan, "profile", "PathFinder", 2);
    const trapeze_sample *half = find_kind(plan, "profile", "PathFinder", 3);
    CHECK(tall && tall->h == 96 && strstr(tall->id, "profile:issue") && tall->data_len[0] == 360 * 64);
    CHECK(half && half->h == 48 && strstr(half->id, "profile:issue-low") && half->data_len[0] == 360 * 160);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            CHECK(strcmp(trapeze_ghostzone_plan_sample(plan, i)->id,
                         trapeze_ghostzone_plan_sample(plan, j)->id) != 0);
    trapeze_workload ref;
    int max_h;
    CHECK_OK(trapeze_ghostzone_reference(plan, 0, &ref, &max_h, NULL));
    CHECK(max_h >= 1 && max_h <= 127); /* 5.20: (256 - 1) / 2 */
    /* Sobol's first point is (1/2, 1/2, 1/2): h = floor((max_h + 1)^(1/2)),
     * fence (u >= 1/2), volume sqrt(min x max) of the reference */
    const trapeze_sample *first = find_kind(plan, "sim", "PathFinder", 0);
    CHECK(first->h == (int)floor(sqrt(max_h + 1.0)));
    CHECK(first->sync == TRAPEZE_SYNC_FENCE);
    CHECK_NEAR(first->data_len[0], floor(ref.data_len[0] * sqrt(o->min_fraction * o->max_fraction) + 0.5), 0);
    int modes[2] = {0, 0};
    for (int k = 0; k < o->budget; k++) {
        const trapeze_sample *s = find_kind(plan, "sim", "PathFinder", k);
        modes[s->sync]++;
        CHECK(s->h >= 1 && s->h <= max_h);
        double f = s->data_len[0] / ref.data_len[0];
        CHECK(f >= o->min_fraction * 0.99 && f <= o->max_fraction * 1.01);
    }
    CHECK(modes[0] > 0 && modes[1] > 0);
}

static double logged(const trapeze_sample_log *log, const char *id_part)
{
    for (int i = 0; i < trapeze_sample_log_count(log); i++)
        if (strstr(trapeze_sample_log_get(log, i)->id, id_part))
            return trapeze_sample_log_get(log, i)->cpl_cycles;
    return NAN;
}

static void test_micro_and_profile(const trapeze_sample_log *log, const trapeze_ghostzone_params *p)
{
    CHECK_NEAR(logged(log, "micro/fma"), 0.5, 0.01);        /* 2 schedulers, 1 issue each */
    CHECK_NEAR(logged(log, "micro/empty"), 3500 + 25, 10);   /* launch latency + an empty grid */
    CHECK_NEAR(logged(log, "micro/chase"), 296, 0.03 * 296); /* README: 296 unloaded */
    double bw = logged(log, "micro/copy");
    /* The GTX 480's sectored L2 reads 32-byte sectors, each holding a whole
     * 64-byte GDDR5 burst, and writes back whole dirty lines (full bursts):
     * the copy's 4N read + 4N written bytes take (2 x 4N + 4N) / peak, so
     * at most 8/12 = 0.667 of peak counts as moved (it was > 0.8 when lines
     * moved whole). */
    CHECK(bw > 0.6 && bw <= 8.0 / 12.0);
    /* PathFinder, per tile of 8 warps: a loop is the op's 18 instructions
     * (round(1859 x 30 / 1e5 x 32)) + IF, BAR, IF, store, BAR, ENDLOOP = 23;
     * the rest is setup 19 (round(1998 x 30 / 1e5 x 32)) + load, store, BAR
     * + commit IF, store + EXIT = 25. Counts per SM of 15 for N elements. */
    CHECK(p->n_profiles == 1 && !strcmp(p->profile[0].workload, "PathFinder"));
    const trapeze_ghostzone_profile *pr = &p->profile[0];
    double per_tile = pr->input_elements / 15;
    CHECK_NEAR(pr->insts_per_sm_ic * 254 / per_tile, 8 * 23, 0.01 * 8 * 23);
    CHECK_NEAR(pr->insts_per_sm_mc * 256 / per_tile, 8 * 25, 0.01 * 8 * 25);
    CHECK(pr->bank_conflict_rate == 0); /* unit-stride shared accesses */
    /* the issue probe: 48 more iterations of 23 instructions per warp, near the
     * 2 schedulers' peak of 0.5 SM-cycles per warp instruction (never below it),
     * and the calibration's reference is its only workload's rate */
    CHECK(pr->issue_cycles >= 0.5 && pr->issue_cycles < 0.6);
    CHECK_NEAR(p->issue_cycles_ref, pr->issue_cycles, 1e-12);
    /* micro-benchmarks set what is not fitted by default; the GTX 480's
     * barrier is flat from 15 to 120 blocks (no slope), at its round trip
     * (8 samples of one workload calibrate Meng's structure: the line) */
    CHECK_NEAR(p->value[TRAPEZE_GHOSTZONE_BLOCKS_PER_SM], 6, 0); /* 1536 threads / 256 */
    CHECK(p->value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] == 0);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < trapeze_sample_log_count(log); i++) {
        const trapeze_sample *r = trapeze_sample_log_get(log, i);
        if (strstr(r->id, "micro/fencebar")) {
            lo = fmin(lo, r->cpl_cycles);
            hi = fmax(hi, r->cpl_cycles);
        }
    }
    CHECK(p->value[TRAPEZE_GHOSTZONE_FENCE_BARRIER] >= lo && p->value[TRAPEZE_GHOSTZONE_FENCE_BARRIER] <= hi);
    CHECK(hi < 1.05 * lo);
    CHECK(p->stderr_[TRAPEZE_GHOSTZONE_CPI] > 0 && p->stderr_[TRAPEZE_GHOSTZONE_BETA] == 0);
}

/* barrier_max's fit of the fencebar micro-benchmark: exact on its own form,
 * and on the V100's measured barrier (shipped calibration log: 489.75, 570,
 * 795, 1395.25 and 5200.25 cycles for 80 to 2560 blocks) about 2 cycles a
 * block above a round trip of about 460 */
static void test_fence_norm(void)
{
    double blocks[] = {80, 160, 320, 640, 2560}, exact[5], slope, intercept;
    for (int i = 0; i < 5; i++)
        exact[i] = sqrt(450.0 * 450 + 4 * blocks[i] * blocks[i]);
    sampler_fence_norm(blocks, exact, 5, &slope, &intercept);
    CHECK_NEAR(slope, 2, 1e-9);
    CHECK_NEAR(intercept, 450, 1e-7);
    double v100[] = {489.75, 570, 795, 1395.25, 5200.25};
    sampler_fence_norm(blocks, v100, 5, &slope, &intercept);
    CHECK(slope > 1.95 && slope < 2.1 && intercept > 430 && intercept < 500);
    for (int i = 0; i < 5; i++) /* within 6% at every count, the line through them is not */
        CHECK(fabs(sqrt(intercept * intercept + slope * slope * blocks[i] * blocks[i]) / v100[i] - 1) < 0.06);
    double flat[] = {411.75, 411.75, 411.75, 411.75, 408.75};
    sampler_fence_norm(blocks, flat, 5, &slope, &intercept);
    CHECK(slope == 0 && intercept >= 408.75 && intercept <= 411.75);
    double none[] = {0, 0, 0, 0, 0}; /* nothing measured: no barrier, not NaN */
    sampler_fence_norm(blocks, none, 5, &slope, &intercept);
    CHECK(slope == 0 && intercept == 0);
}

/* --tall-rows alone: the plan without options, then PathFinder's four tall
 * rows of --identify (its rows n + 2 .. n + 5), the same ids in the same
 * order, and neither workload's fence pair: what the shipped logs hold, so
 * that scripts/regenerate-data.sh remakes them. */
static void test_tall_plan(const trapeze_workload *w, const trapeze_ghostzone_plan *identify, int n)
{
    trapeze_ghostzone_calib_options o;
    trapeze_ghostzone_plan *tall;
    trapeze_error err;
    trapeze_ghostzone_calib_options_init(&o);
    o.tall = 1;
    CHECK_OK(trapeze_ghostzone_plan_create("data/gpus/gtx480.config", w, 2, &o, &tall, &err));
    CHECK(trapeze_ghostzone_plan_count(tall) == n + 4);
    for (int i = 0; i < n + 4; i++) {
        const trapeze_sample *r = trapeze_ghostzone_plan_sample(tall, i);
        const trapeze_sample *e = trapeze_ghostzone_plan_sample(identify, i < n ? i : i + 2);
        CHECK(r && e && !strcmp(r->id, e->id) && r->h == e->h && r->sync == e->sync &&
              r->data_len[0] == e->data_len[0]);
    }
    CHECK(strstr(trapeze_ghostzone_plan_sample(tall, n)->id, "/tall:relaunch:h36:"));
    trapeze_ghostzone_plan_destroy(tall);
}

/* --identify on the GTX 480 (15 SMs, 6 resident 256-thread blocks) with
 * PathFinder (halo 2 an iteration, NumElemPerOp 1) and HotSpot (20x20,
 * none): after the plan without it, unchanged, each workload's fence pair
 * on its relaunch profiling pair's grid (60 tiles: 60 x 254 = 15,240;
 * HotSpot ceil(sqrt 60) = 8 tiles of 18 an edge, 144 x 144), then for
 * PathFinder alone both modes at h = 36 and 48: 48 = (96 + 1) / 2 (the issue
 * probe's lower height, under the reference sweep's 72), 36 = (3 x 48 + 2) / 4,
 * on 15 x (6 + 2) = 120 tiles of 256 - 2 x 48 = 160 = 19,200 points, which
 * gives the busiest SM 8 tiles at h = 48 and ceil(19200 / 184) = 105 tiles,
 * 7 a SM, at h = 36: one and two past its 6 resident blocks. */
static void test_identify_plan(const trapeze_workload *w, trapeze_ghostzone_plan **with)
{
    trapeze_ghostzone_calib_options o;
    trapeze_ghostzone_plan *without;
    trapeze_error err;
    trapeze_ghostzone_calib_options_init(&o);
    CHECK_OK(trapeze_ghostzone_plan_create("data/gpus/gtx480.config", w, 2, &o, &without, &err));
    o.identify = 1;
    CHECK_OK(trapeze_ghostzone_plan_create("data/gpus/gtx480.config", w, 2, &o, with, &err));
    int n = trapeze_ghostzone_plan_count(without);
    CHECK(trapeze_ghostzone_plan_count(*with) == n + 2 + 4 + 2);
    for (int i = 0; i < n; i++)
        CHECK(!strcmp(trapeze_ghostzone_plan_sample(*with, i)->id, trapeze_ghostzone_plan_sample(without, i)->id));
    static const struct { const char *id; int sync, h; double x, y; } rows[] = {
        {"gtx480/PathFinder/pair:fence:h1:15240:s2", TRAPEZE_SYNC_FENCE, 1, 15240, 1},
        {"gtx480/PathFinder/pair:fence:h2:15240:s2", TRAPEZE_SYNC_FENCE, 2, 15240, 1},
        {"gtx480/PathFinder/tall:relaunch:h36:19200:s2", TRAPEZE_SYNC_RELAUNCH, 36, 19200, 1},
        {"gtx480/PathFinder/tall:relaunch:h48:19200:s2", TRAPEZE_SYNC_RELAUNCH, 48, 19200, 1},
        {"gtx480/PathFinder/tall:fence:h36:19200:s2", TRAPEZE_SYNC_FENCE, 36, 19200, 1},
        {"gtx480/PathFinder/tall:fence:h48:19200:s2", TRAPEZE_SYNC_FENCE, 48, 19200, 1},
        {"gtx480/HotSpot/pair:fence:h1:20736:s2", TRAPEZE_SYNC_FENCE, 1, 144, 144},
        {"gtx480/HotSpot/pair:fence:h2:20736:s2", TRAPEZE_SYNC_FENCE, 2, 144, 144}};
    for (int i = 0; i < 8; i++) {
        const trapeze_sample *r = trapeze_ghostzone_plan_sample(*with, n + i);
        CHECK(r && !strcmp(r->id, rows[i].id) && !strcmp(r->kind, "sim") && (int)r->sync == rows[i].sync &&
              r->h == rows[i].h && r->data_len[0] == rows[i].x && r->data_len[1] == rows[i].y &&
              r->stages == 2 && r->blk_len == (i < 6 ? 256 : 20));
        if (r && strcmp(r->id, rows[i].id))
            fprintf(stderr, "identify row %d: %s\n", i, r->id);
    }
    trapeze_ghostzone_plan_destroy(without);
    test_tall_plan(w, *with, n);
}

/* A synthetic PathFinder on the shipped GTX 480 calibration with rho_L = 0.7
 * (the fit starts at 0.3): every PathFinder stencil sample the plan places,
 * its CPL the model's times 1 + scatter sin(2.4 i), fitted for rho_L with the
 * overlap and the CPI it correlates with (|r| 0.72 in the shipped fit). */
static double fit_rho(const trapeze_ghostzone_plan *plan, int with_identify, double scatter, double *se)
{
    trapeze_ghostzone_params p;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_params_load("data/calibrations/gtx480.ini", &p, &err));
    trapeze_ghostzone_fit_point pts[64];
    int n = 0;
    for (int i = 0; i < trapeze_ghostzone_plan_count(plan) && n < 64; i++) {
        const trapeze_sample *r = trapeze_ghostzone_plan_sample(plan, i);
        int identify = strstr(r->id, "/pair:") || strstr(r->id, "/tall:");
        if (strcmp(r->kind, "sim") || strcmp(r->workload, "PathFinder") || (identify && !with_identify))
            continue;
        trapeze_workload w;
        sampler_resize(sampler_workload(plan, r->workload), r->data_len, &w);
        trapeze_ghostzone_params truth = p;
        truth.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.7;
        trapeze_ghostzone_eval e;
        CHECK_OK(trapeze_ghostzone_create(trapeze_ghostzone_plan_gpu(plan), &w, &truth, &pts[n].model, &err));
        CHECK_OK(trapeze_ghostzone_evaluate(pts[n].model, r->sync, r->h, r->blk_len, &e, &err));
        pts[n] = (trapeze_ghostzone_fit_point){pts[n].model, r->sync, r->h, r->blk_len,
                                               e.cpl * (1 + scatter * sin(2.4 * n))};
        n++;
    }
    p.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.3;
    trapeze_fit_report rep;
    unsigned mask = TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_LOOP_REREAD) |
                    TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_OVERLAP) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_CPI);
    CHECK_OK(trapeze_ghostzone_fit(pts, n, mask, &p, &rep, &err));
    for (int i = 0; i < n; i++)
        trapeze_ghostzone_destroy(pts[i].model);
    *se = p.stderr_[TRAPEZE_GHOSTZONE_LOOP_REREAD];
    CHECK(n == 12 + 6 * with_identify); /* --budget 12, the fence pair and 4 tall rows */
    return p.value[TRAPEZE_GHOSTZONE_LOOP_REREAD];
}

/* Exact CPLs: the fit gives rho_L back. With +-2% scatter it stays within
 * two standard errors of 0.7, and the tall rows, the reference curves'
 * regime, shrink that error (0.106 against 0.129 from the Sobol samples
 * alone: the Sobol samples at h = 24, 42 and 55 already move it as much as
 * any tall row, d ln CPL / d rho_L 0.06-0.12; docs/calibration.md). */
static void test_identify_fit(const trapeze_ghostzone_plan *plan)
{
    double se, se_without;
    CHECK_NEAR(fit_rho(plan, 1, 0, &se), 0.7, 1e-4);
    double rho = fit_rho(plan, 1, 0.02, &se);
    fit_rho(plan, 0, 0.02, &se_without);
    CHECK(se > 0 && fabs(rho - 0.7) < 2 * se);
    CHECK(se < 0.9 * se_without);
}

int main(void)
{
    test_fence_norm();
    trapeze_error err;
    trapeze_workload w, two[2];
    trapeze_ghostzone_plan *identify;
    CHECK_OK(trapeze_workload_load("data/workloads/pathfinder.ini", &two[0], &err));
    CHECK_OK(trapeze_workload_load("data/workloads/hotspot.ini", &two[1], &err));
    test_identify_plan(two, &identify);
    test_identify_fit(identify);
    trapeze_ghostzone_plan_destroy(identify);
    trapeze_ghostzone_calib_options o;
    trapeze_ghostzone_plan *plan;
    trapeze_ghostzone_calib_options_init(&o);
    o.budget = 8;
    o.stages = 1;
    o.sweep_budget = 2e7;
    CHECK_OK(trapeze_workload_load("data/workloads/pathfinder.ini", &w, &err));
    CHECK_OK(trapeze_ghostzone_plan_create("data/gpus/gtx480.config", &w, 1, &o, &plan, &err));
    test_plan_shape(plan, &o);

    const char *path = "build/test_calib_plan.csv";
    remove(path);
    trapeze_sample_log *log;
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK_OK(trapeze_ghostzone_run(plan, log, 2, NULL, NULL, &err));
    CHECK(trapeze_sample_log_count(log) == trapeze_ghostzone_plan_count(plan));
    for (int i = 0; i < trapeze_sample_log_count(log); i++) /* plan order, whatever the threads */
        CHECK(!strcmp(trapeze_sample_log_get(log, i)->id, trapeze_ghostzone_plan_sample(plan, i)->id));

    trapeze_ghostzone_params p;
    trapeze_fit_report rep;
    CHECK_OK(trapeze_ghostzone_from_log(plan, log, &p, &rep, &err));
    test_micro_and_profile(log, &p);
    CHECK(rep.n_points == o.budget && isfinite(rep.cv_mape_pct) && rep.cv_mape_pct >= 0);

    /* a row measured on hardware (same columns, kind "measured") joins the fit */
    trapeze_sample hw = *trapeze_sample_log_get(log, trapeze_sample_log_count(log) - 1);
    snprintf(hw.id, sizeof hw.id, "lab/PathFinder/run1");
    snprintf(hw.kind, sizeof hw.kind, "measured");
    CHECK_OK(trapeze_sample_log_append(log, &hw, &err));
    CHECK_OK(trapeze_ghostzone_from_log(plan, log, &p, &rep, &err));
    CHECK(rep.n_points == o.budget + 1);

    /* a logged row must be the sample planned under its id */
    trapeze_sample_log_close(log);
    remove(path);
    trapeze_sample odd = *trapeze_ghostzone_plan_sample(plan, 0);
    odd.stages = 7;
    odd.cycles = 7; /* a finished row: the reader refuses 0 cycles */
    odd.cpl_cycles = 1;
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK_OK(trapeze_sample_log_append(log, &odd, &err));
    CHECK(trapeze_ghostzone_run(plan, log, 1, NULL, NULL, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "does not match the planned sample") != NULL);
    /* the message names the log's own file, not a fixed "samples.csv" */
    CHECK(strncmp(err.message, path, strlen(path)) == 0 && err.message[strlen(path)] == ':');
    CHECK(trapeze_ghostzone_from_log(plan, log, &p, &rep, &err) == TRAPEZE_EINVAL); /* rows missing */
    trapeze_sample_log_close(log);
    trapeze_ghostzone_plan_destroy(plan);
    remove(path);
    return check_report("test_calib_plan");
}
