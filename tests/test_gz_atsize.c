/*
 * Tests of the at-size structure of the ghost-zone model (docs/calibration.md):
 * occupancy from the GPU and the workload, as the simulator computes it;
 * whole waves on hand-made grids; the fence barrier's participants and its
 * monotonicity; the persistent kernel's MiscComp fraction; the per-tile
 * relaunch cost; the fence-mode overlap; the partial last round's floor
 * (partial_round), its load latency (round_latency) and the compute after
 * it (round_compute), the fence setup's share once a round (round_setup),
 * the loops' re-read
 * loads (loop_reread, loop_once) and the relaunch
 * turnaround the resident blocks leave exposed (turnaround_cycles); every new
 * parameter's gradient
 * against finite differences; and calibration files with the switches and
 * a [correlation] section.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture.h"
#include "sim/core/gpu_sim.h"
#include "sim/stencil/stencil_run.h"
#include "trapeze.h"

static trapeze_workload workload(const char *name)
{
    char path[128];
    trapeze_workload w;
    trapeze_error err;
    snprintf(path, sizeof path, "data/workloads/%s.ini", name);
    CHECK_OK(trapeze_workload_load(path, &w, &err));
    return w;
}

/* The simulator's occupancy of the generated relaunch kernel. */
static int sim_resident(const char *config, const trapeze_workload *w)
{
    trapeze_config *cfg;
    sim_core_config core;
    trapeze_error err;
    sim_stencil *st = NULL;
    CHECK_OK(trapeze_config_load(config, &cfg, &err));
    CHECK_OK(sim_core_config_read(cfg, &core, &err));
    trapeze_config_destroy(cfg);
    sim_stencil_spec spec = {.workload = w, .h = 1, .sync = TRAPEZE_SYNC_RELAUNCH, .iterations = 1};
    CHECK_OK(sim_stencil_build(&spec, &st, &err));
    int r = st ? sim_occupancy(&core, st->kernels[0], NULL) : -1;
    sim_stencil_destroy(st);
    return r;
}

static void test_occupancy(void)
{
    static const struct { const char *gpu, *work; int regs, expect; } cases[] = {
        /* GTX 480: 1536 threads, 48 warps, 32768 registers, 48 KB, 8 CTAs per SM */
        {"data/gpus/gtx480.config", "hotspot", 16, 3},    /* 1536 / 400 threads */
        {"data/gpus/gtx480.config", "pathfinder", 16, 6}, /* 1536 / 256 */
        {"data/gpus/gtx480.config", "cell", 16, 3},       /* 1536 / 512 */
        {"data/gpus/gtx480.config", "hotspot", 64, 1},    /* 32768 / (64 x 13 warps x 32) */
        {"data/gpus/gtx480.config", "hotspot", 32, 2},    /* 32768 / (32 x 416) = 2.46 */
        /* V100: 2048 threads, 64 warps: 13-warp blocks fit 4 by warps, not 5 by threads */
        {"data/gpus/v100.config", "hotspot", 16, 4},
        {"data/gpus/v100.config", "pathfinder", 16, 8},
        {"data/gpus/gtx280.config", "hotspot", 16, 2},    /* 1024 / 400 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trapeze_gpu g = fixture_gpu_of(cases[i].gpu);
        trapeze_workload w = workload(cases[i].work);
        w.regs_per_thread = cases[i].regs;
        int r = trapeze_ghostzone_occupancy(&g, &w, w.blk_len);
        CHECK(r == cases[i].expect);
        if (r != cases[i].expect)
            fprintf(stderr, "%s %s regs %d: %d\n", cases[i].gpu, cases[i].work, cases[i].regs, r);
        CHECK(r == sim_resident(cases[i].gpu, &w)); /* the simulator's own count */
    }
}

static trapeze_ghostzone_model *model(const char *gpu_path, const char *name, double x, double y,
                                      const trapeze_ghostzone_params *p)
{
    trapeze_gpu g = fixture_gpu_of(gpu_path);
    trapeze_workload w = workload(name);
    trapeze_ghostzone_model *m = NULL;
    trapeze_error err;
    w.data_len[0] = x;
    w.data_len[1] = y;
    CHECK_OK(trapeze_ghostzone_create(&g, &w, p, &m, &err));
    return m;
}

static trapeze_ghostzone_eval eval(const trapeze_ghostzone_model *m, trapeze_sync sync, double h)
{
    trapeze_ghostzone_eval e;
    memset(&e, 0, sizeof e);
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h, trapeze_ghostzone_workload(m)->blk_len, &e, NULL));
    return e;
}

static trapeze_ghostzone_params at_size(void)
{
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    p.whole_tiles = p.occupancy = p.waves = p.persistent_fence = p.fence_overlap = 1;
    p.fence_staging = 0; /* test_tile_costs switches it on; the gradients check both */
    return p;
}

static void test_waves(void)
{
    trapeze_ghostzone_params p = at_size();
    /* HotSpot on the GTX 480, h = 2: output edge 16, 3 blocks x 15 SMs = 45 at once */
    static const struct { double x, y, tiles, waves; } cases[] = {
        {148, 148, 100, 3},  /* 10 x 10 tiles: 2 full waves and a partial one of 10 */
        {144, 160, 90, 2},   /* 9 x 10: exactly 2 waves */
        {16, 16, 1, 1},      /* one tile is one wave */
        {720, 16, 45, 1},    /* 45 x 1: one full wave */
        {736, 16, 46, 2},    /* one tile more: a second wave */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", cases[i].x, cases[i].y, &p);
        trapeze_ghostzone_eval e = eval(m, TRAPEZE_SYNC_RELAUNCH, 2);
        CHECK_NEAR(e.trapezoids, cases[i].tiles, 0);
        CHECK_NEAR(e.passes, cases[i].waves, 0);
        trapeze_ghostzone_destroy(m);
    }
    /* without the switch: Meng's real-valued passes, T / (BlksPerSM M) with the parameter 8 */
    p.waves = p.occupancy = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).passes, 100.0 / (8 * 15), 1e-12);
    /* occupancy alone: 100 / 45, still real-valued */
    p.occupancy = 1;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).passes, 100.0 / 45, 1e-12);
    trapeze_ghostzone_destroy(m);
}

/* GlbSync of fence mode on grids of 1..90 tiles: the barrier's participants
 * are the persistent kernel's blocks, min(T, 45); the cost rises with them. */
static void test_fence_barrier(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_MU] = 1;
    p.value[TRAPEZE_GHOSTZONE_FENCE_BARRIER] = 400;
    p.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] = 3;
    p.value[TRAPEZE_GHOSTZONE_FENCE_POLL] = 0.05;
    double last = 0;
    for (int tiles = 1; tiles <= 90; tiles++) {
        trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 16.0 * tiles, 16, &p);
        double sync = eval(m, TRAPEZE_SYNC_FENCE, 2).stage[TRAPEZE_GHOSTZONE_GLBSYNC];
        double blocks = tiles < 45 ? tiles : 45;
        CHECK_NEAR(sync, 400 + 3 * blocks + 0.05 * blocks * blocks, 1e-9 * sync);
        CHECK(tiles > 45 ? sync == last : sync > last); /* flat once every resident block takes part */
        last = sync;
        trapeze_ghostzone_destroy(m);
    }
    /* barrier_max: the larger of the round trip and the serialized arrivals,
     * sqrt(400^2 + (P (3 + 0.05 P))^2): at 45 blocks 3 x 45 + 0.05 x 2025 =
     * 236.25 < 400, so 464.5..., below the sum 636.25 */
    p.barrier_max = 1;
    for (int tiles = 1; tiles <= 90; tiles += 11) {
        trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 16.0 * tiles, 16, &p);
        double sync = eval(m, TRAPEZE_SYNC_FENCE, 2).stage[TRAPEZE_GHOSTZONE_GLBSYNC];
        double blocks = tiles < 45 ? tiles : 45, arrivals = blocks * (3 + 0.05 * blocks);
        CHECK_NEAR(sync, sqrt(400.0 * 400 + arrivals * arrivals), 1e-9 * sync);
        CHECK(sync >= 400 && sync >= arrivals && sync < 400 + arrivals);
        trapeze_ghostzone_destroy(m);
    }
    p.barrier_max = 0;
    /* Meng's 5.18: every trapezoid takes part, mu x 210.3 x T */
    trapeze_ghostzone_params meng;
    trapeze_ghostzone_params_default(&meng);
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 16.0 * 90, 16, &meng);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_FENCE, 2).stage[TRAPEZE_GHOSTZONE_GLBSYNC], 0.5 * 210.3 * 90, 1e-9);
    trapeze_ghostzone_destroy(m);
}

/* The persistent kernel's MiscComp fraction and relaunch's per-tile cost,
 * with memory and compute simply added (overlap 0). */
static void test_tile_costs(void)
{
    trapeze_ghostzone_params p = at_size();
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    trapeze_ghostzone_eval relaunch = eval(m, TRAPEZE_SYNC_RELAUNCH, 2);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_MISCCOMP], 0, 0); /* Meng drops it */
    p.value[TRAPEZE_GHOSTZONE_FENCE_MISC] = 0.25;
    p.value[TRAPEZE_GHOSTZONE_TILE_CYCLES] = 70;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_FENCE, 2).per_loop[TRAPEZE_GHOSTZONE_MISCCOMP],
               0.25 * relaunch.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP], 1e-9 * relaunch.cpl);
    /* 100 tiles on 15 SMs: the busiest runs 7, each 70 cycles more, over h = 2 loops */
    trapeze_ghostzone_eval tiles = eval(m, TRAPEZE_SYNC_RELAUNCH, 2);
    CHECK_NEAR(tiles.cpl - relaunch.cpl, 70.0 * 7 / 2, 1e-9 * relaunch.cpl);
    /* the relaunch itself is per launch: the same on a grid 16x the area */
    trapeze_ghostzone_model *big = model("data/gpus/gtx480.config", "hotspot", 592, 592, &p);
    CHECK_NEAR(eval(big, TRAPEZE_SYNC_RELAUNCH, 2).stage[TRAPEZE_GHOSTZONE_GLBSYNC],
               tiles.stage[TRAPEZE_GHOSTZONE_GLBSYNC], 0);
    trapeze_ghostzone_destroy(big);
    /* fence_staging: the persistent kernel runs the spec's setup (HotSpot: 13488 x 30 /
     * 250000 x 32 = 51.8 -> 52 instructions per thread, 13 warps) once, the rest of
     * MiscComp per tile; fence_misc_fraction (0.25) of the setup stays */
    p.fence_staging = 1;
    p.n_profiles = 1; /* the GTX 480 calibration's profile: 2740.608 x 15 / 20736 x 400 = 793 per tile */
    snprintf(p.profile[0].workload, sizeof p.profile[0].workload, "HotSpot");
    p.profile[0].input_elements = 20736;
    p.profile[0].insts_per_sm_mc = 2740.608;
    p.profile[0].insts_per_sm_ic = 3660.8;
    trapeze_ghostzone_model *cal = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    double misc_tile = 793.0 * p.value[TRAPEZE_GHOSTZONE_CPI];
    double setup = 52.0 * 13 * p.value[TRAPEZE_GHOSTZONE_CPI];
    trapeze_ghostzone_eval staged = eval(cal, TRAPEZE_SYNC_FENCE, 2);
    trapeze_ghostzone_destroy(cal);
    p.n_profiles = 0;
    CHECK_NEAR(staged.stage[TRAPEZE_GHOSTZONE_MISCCOMP], misc_tile - setup + 0.25 * setup, 1e-9 * misc_tile);
    CHECK(staged.stage[TRAPEZE_GHOSTZONE_MISCCOMP] < 0.5 * misc_tile); /* the setup is most of it */
    p.fence_staging = 0;
    /* halo re-reads: with rho = 0 only the grid's own 148^2 elements of each of
     * the 2 staged arrays come from DRAM, against 100 tiles x 20^2 at rho = 1 */
    p.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = 0;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval reread = eval(m, TRAPEZE_SYNC_RELAUNCH, 2);
    double lat = reread.passes * p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT];
    CHECK_NEAR((reread.stage[TRAPEZE_GHOSTZONE_LOADSTEN] / 2 - lat) / (tiles.stage[TRAPEZE_GHOSTZONE_LOADSTEN] / 2 - lat),
               148.0 * 148 / (100 * 400), 1e-12);
    p.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = 1;
    /* fence_overlap: fence mode takes its own omega, relaunch keeps the shared one */
    p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0.6;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).cpl, tiles.cpl, 1e-9 * tiles.cpl);
    p.fence_overlap = 0;
    trapeze_ghostzone_set_params(m, &p);
    double shared = eval(m, TRAPEZE_SYNC_FENCE, 2).cpl;
    p.fence_overlap = 1;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 2).cpl < shared); /* 0.6 hides more than 0 */
    trapeze_ghostzone_destroy(m);
}

/* Every parameter's derivative against central differences, both modes,
 * at a whole height (steps) and between heights (smooth T). */
static void test_gradients(void)
{
    trapeze_ghostzone_params p = at_size();
    double set[][2] = {{TRAPEZE_GHOSTZONE_UNCONTENDED_LAT, 250}, {TRAPEZE_GHOSTZONE_SIGMA, 1.5},
                       {TRAPEZE_GHOSTZONE_MU, 0.8}, {TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, 4},
                       {TRAPEZE_GHOSTZONE_RELAUNCH, 3500}, {TRAPEZE_GHOSTZONE_CPI, 0.55},
                       {TRAPEZE_GHOSTZONE_BW_FRACTION, 0.9}, {TRAPEZE_GHOSTZONE_FENCE_BARRIER, 400},
                       {TRAPEZE_GHOSTZONE_OVERLAP, 0.4}, {TRAPEZE_GHOSTZONE_TILE_CYCLES, 80},
                       {TRAPEZE_GHOSTZONE_FENCE_MISC, 0.3}, {TRAPEZE_GHOSTZONE_FENCE_POLL, 0.02},
                       {TRAPEZE_GHOSTZONE_OVERLAP_FENCE, 0.5}, {TRAPEZE_GHOSTZONE_HALO_REREAD, 0.6},
                       {TRAPEZE_GHOSTZONE_FENCE_ITER, 0.4}, {TRAPEZE_GHOSTZONE_FENCE_ISSUE, 0.25}};
    p.fence_iter = p.fence_issue = 1;
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        p.value[(int)set[i][0]] = set[i][1];
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 300, 300, &p);
    double hs[] = {2, 2.5};
    for (int staging = 0; staging < 2; staging++) {
    p.fence_staging = staging;
    p.barrier_max = staging; /* the barrier's smooth maximum, with and without */
    for (int s = 0; s < 2; s++)
        for (int hi = 0; hi < 2; hi++)
            for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
                if (k == TRAPEZE_GHOSTZONE_BLOCKS_PER_SM || k == TRAPEZE_GHOSTZONE_BETA)
                    continue; /* occupancy replaces the one; tau is off for the other */
                trapeze_ghostzone_params q = p;
                trapeze_ghostzone_set_params(m, &q);
                double g = eval(m, (trapeze_sync)s, hs[hi]).dcpl_dparam[k];
                double step = 1e-6 * (fabs(p.value[k]) + 1e-3);
                q.value[k] = p.value[k] + step;
                trapeze_ghostzone_set_params(m, &q);
                double up = eval(m, (trapeze_sync)s, hs[hi]).cpl;
                q.value[k] = p.value[k] - step;
                trapeze_ghostzone_set_params(m, &q);
                double down = eval(m, (trapeze_sync)s, hs[hi]).cpl;
                double fd = (up - down) / (2 * step);
                CHECK_NEAR(g, fd, 1e-5 * (fabs(fd) + 1e-6 * up));
            }
    }
    /* terms of one mode do not move the other */
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_MISC] == 0);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_TILE_CYCLES] == 0);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] == 0);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_POLL] > 0);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ITER] == 0);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ITER] > 0);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ISSUE] == 0);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 2).dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ISSUE] > 0);
    trapeze_ghostzone_destroy(m);
    /* a 3-D star with row_penalty: sigma's derivative (alpha = sigma, not sigma^2) and h */
    trapeze_ghostzone_params r = at_size();
    r.row_penalty = 1;
    r.value[TRAPEZE_GHOSTZONE_SIGMA] = 2.2;
    r.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0.4;
    trapeze_ghostzone_model *star = model("data/gpus/gtx480.config", "star7", 86, 86, &r);
    for (int s = 0; s < 2; s++) {
        trapeze_ghostzone_eval e = eval(star, (trapeze_sync)s, 1.5);
        double step = 1e-6;
        trapeze_ghostzone_params q = r;
        q.value[TRAPEZE_GHOSTZONE_SIGMA] = 2.2 + step;
        trapeze_ghostzone_set_params(star, &q);
        double up = eval(star, (trapeze_sync)s, 1.5).cpl;
        q.value[TRAPEZE_GHOSTZONE_SIGMA] = 2.2 - step;
        trapeze_ghostzone_set_params(star, &q);
        double down = eval(star, (trapeze_sync)s, 1.5).cpl;
        trapeze_ghostzone_set_params(star, &r);
        CHECK_NEAR(e.dcpl_dparam[TRAPEZE_GHOSTZONE_SIGMA], (up - down) / (2 * step),
                   1e-5 * fabs(e.dcpl_dparam[TRAPEZE_GHOSTZONE_SIGMA]) + 1e-9 * e.cpl);
        double hu = eval(star, (trapeze_sync)s, 1.5 + step).cpl;
        double hd = eval(star, (trapeze_sync)s, 1.5 - step).cpl;
        CHECK_NEAR(e.dcpl_dh, (hu - hd) / (2 * step), 1e-5 * fabs(e.dcpl_dh) + 1e-9 * e.cpl);
    }
    trapeze_ghostzone_destroy(star);
}

/* row_penalty: a 3-D tile pays sigma once, as a 2-D one does (sigma^2 without
 * it); 1-D and 2-D are unchanged. fence_iter: fence IterComp grows by psi
 * (h - 1) iterations' worth, 0 at h = 1, relaunch untouched. */
static void test_row_penalty_fence_iter(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 0; /* memory = alpha x elements x constant */
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0;         /* Meng's sum: components unscaled */
    p.value[TRAPEZE_GHOSTZONE_SIGMA] = 2;
    trapeze_ghostzone_model *star = model("data/gpus/gtx480.config", "star7", 86, 86, &p);
    trapeze_ghostzone_eval cube = eval(star, TRAPEZE_SYNC_RELAUNCH, 1);
    p.row_penalty = 1;
    trapeze_ghostzone_set_params(star, &p);
    trapeze_ghostzone_eval rows = eval(star, TRAPEZE_SYNC_RELAUNCH, 1);
    CHECK_NEAR(rows.stage[TRAPEZE_GHOSTZONE_LOADSTEN], cube.stage[TRAPEZE_GHOSTZONE_LOADSTEN] / 2,
               1e-12 * cube.stage[TRAPEZE_GHOSTZONE_LOADSTEN]); /* sigma^2 = 4 -> sigma = 2 */
    CHECK_NEAR(rows.stage[TRAPEZE_GHOSTZONE_COMMIT], cube.stage[TRAPEZE_GHOSTZONE_COMMIT] / 2,
               1e-12 * cube.stage[TRAPEZE_GHOSTZONE_COMMIT]);
    CHECK(rows.stage[TRAPEZE_GHOSTZONE_ITERCOMP] == cube.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    trapeze_ghostzone_destroy(star);
    trapeze_ghostzone_model *flat = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    double with = eval(flat, TRAPEZE_SYNC_RELAUNCH, 2).cpl;
    p.row_penalty = 0;
    trapeze_ghostzone_set_params(flat, &p);
    CHECK(eval(flat, TRAPEZE_SYNC_RELAUNCH, 2).cpl == with);
    /* fence_iter at psi = 0.5: h = 3 adds 0.5 x 2 iterations = one iteration's IterComp */
    trapeze_ghostzone_eval base3 = eval(flat, TRAPEZE_SYNC_FENCE, 3), base1 = eval(flat, TRAPEZE_SYNC_FENCE, 1);
    trapeze_ghostzone_eval rl3 = eval(flat, TRAPEZE_SYNC_RELAUNCH, 3);
    p.fence_iter = 1;
    p.value[TRAPEZE_GHOSTZONE_FENCE_ITER] = 0.5;
    trapeze_ghostzone_set_params(flat, &p);
    trapeze_ghostzone_eval it3 = eval(flat, TRAPEZE_SYNC_FENCE, 3);
    CHECK_NEAR(it3.stage[TRAPEZE_GHOSTZONE_ITERCOMP], base3.stage[TRAPEZE_GHOSTZONE_ITERCOMP] * (1 + 1.0 / 3),
               1e-12 * base3.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    CHECK(eval(flat, TRAPEZE_SYNC_FENCE, 1).cpl == base1.cpl);
    CHECK(eval(flat, TRAPEZE_SYNC_RELAUNCH, 3).cpl == rl3.cpl);
    trapeze_ghostzone_destroy(flat);
}

/* fence_issue at eta = 0.25: the persistent kernel's instructions cost 1.25
 * times the cycles, so fence MiscComp and IterComp are 5/4 of eta = 0's at
 * every h (h = 1 included, where psi adds nothing), relaunch is untouched;
 * with Meng's sum (omega = 0) CPL is linear in eta, so its derivative is the
 * two components' stage share, (CPL(0.25) - CPL(0)) / 0.25, by hand. */
static void test_fence_issue(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    for (int h = 1; h <= 3; h += 2) {
        p.fence_issue = 0;
        trapeze_ghostzone_set_params(m, &p);
        trapeze_ghostzone_eval f0 = eval(m, TRAPEZE_SYNC_FENCE, h), r0 = eval(m, TRAPEZE_SYNC_RELAUNCH, h);
        p.fence_issue = 1;
        p.value[TRAPEZE_GHOSTZONE_FENCE_ISSUE] = 0.25;
        trapeze_ghostzone_set_params(m, &p);
        trapeze_ghostzone_eval f = eval(m, TRAPEZE_SYNC_FENCE, h);
        for (int c = TRAPEZE_GHOSTZONE_MISCCOMP; c <= TRAPEZE_GHOSTZONE_ITERCOMP; c++) /* adjacent */
            CHECK_NEAR(f.stage[c], 1.25 * f0.stage[c], 1e-12 * f0.stage[c]);
        CHECK(f0.stage[TRAPEZE_GHOSTZONE_ITERCOMP] > 0);
        CHECK(f.stage[TRAPEZE_GHOSTZONE_LOADSTEN] == f0.stage[TRAPEZE_GHOSTZONE_LOADSTEN]);
        CHECK(f.cpl > f0.cpl);
        CHECK_NEAR(f.dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ISSUE], (f.cpl - f0.cpl) / 0.25, 1e-9 * f.cpl);
        CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, h).cpl == r0.cpl);
        p.value[TRAPEZE_GHOSTZONE_FENCE_ISSUE] = 0;
    }
    trapeze_ghostzone_destroy(m);
}

/* CPL's partial in parameter k of m in mode sync at h under p, by central
 * differences. */
static double central_difference(trapeze_ghostzone_model *m, trapeze_ghostzone_params p, int k,
                                 trapeze_sync sync, double h)
{
    double x = p.value[k], step = 1e-6 * (fabs(x) + 1e-3);
    p.value[k] = x + step;
    trapeze_ghostzone_set_params(m, &p);
    double up = eval(m, sync, h).cpl;
    p.value[k] = x - step;
    trapeze_ghostzone_set_params(m, &p);
    double down = eval(m, sync, h).cpl;
    return (up - down) / (2 * step);
}

/* Checks d CPL / d param k of m at p (sync, h) against the central
 * difference, which must not be 0, to 1e-5 relative; returns it. */
static double check_gradient(trapeze_ghostzone_model *m, trapeze_ghostzone_params p, int k,
                             trapeze_sync sync, double h)
{
    double fd = central_difference(m, p, k, sync, h);
    trapeze_ghostzone_set_params(m, &p);
    double g = eval(m, sync, h).dcpl_dparam[k];
    CHECK(fd != 0);
    CHECK_NEAR(g, fd, 1e-5 * fabs(fd));
    return fd;
}

/* fence_overlap_loads with omega = 0.7 and the fence omega 0.3: HotSpot's
 * loop loads nothing from device memory, so its fence CPL is, to the bit,
 * the one the switch off gives with the fence omega set to 0.7 (and not
 * the 0.3 one), d/d(fence omega) is exactly 0 and d/domega is the central
 * difference's; PathFinder's loop loads every iteration and keeps the
 * fence omega: its CPL the same bits with the switch on or off, d/domega 0
 * in fence mode; relaunch is untouched in both. */
static void test_fence_overlap_loads(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0.7;
    p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0.3;
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    trapeze_ghostzone_model *pf = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    double hs_fence = eval(hs, TRAPEZE_SYNC_FENCE, 2).cpl, pf_fence = eval(pf, TRAPEZE_SYNC_FENCE, 18).cpl;
    double hs_relaunch = eval(hs, TRAPEZE_SYNC_RELAUNCH, 2).cpl;
    trapeze_ghostzone_params same = p;
    same.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0.7;
    trapeze_ghostzone_set_params(hs, &same);
    double hs_omega = eval(hs, TRAPEZE_SYNC_FENCE, 2).cpl;
    CHECK(hs_omega != hs_fence); /* the two omegas price HotSpot's fence stage apart */
    p.fence_overlap_loads = 1;
    trapeze_ghostzone_set_params(hs, &p);
    trapeze_ghostzone_set_params(pf, &p);
    trapeze_ghostzone_eval e = eval(hs, TRAPEZE_SYNC_FENCE, 2);
    CHECK(e.cpl == hs_omega);
    CHECK(e.dcpl_dparam[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] == 0);
    double fd = central_difference(hs, p, TRAPEZE_GHOSTZONE_OVERLAP, TRAPEZE_SYNC_FENCE, 2);
    CHECK(fd != 0);
    CHECK_NEAR(e.dcpl_dparam[TRAPEZE_GHOSTZONE_OVERLAP], fd, 1e-5 * (fabs(fd) + 1e-6 * e.cpl));
    trapeze_ghostzone_set_params(hs, &p);
    CHECK(eval(hs, TRAPEZE_SYNC_RELAUNCH, 2).cpl == hs_relaunch);
    trapeze_ghostzone_eval f = eval(pf, TRAPEZE_SYNC_FENCE, 18);
    CHECK(f.cpl == pf_fence);
    CHECK(f.dcpl_dparam[TRAPEZE_GHOSTZONE_OVERLAP] == 0);
    fd = central_difference(pf, p, TRAPEZE_GHOSTZONE_OVERLAP_FENCE, TRAPEZE_SYNC_FENCE, 18);
    CHECK(fd != 0);
    CHECK_NEAR(f.dcpl_dparam[TRAPEZE_GHOSTZONE_OVERLAP_FENCE], fd, 1e-5 * (fabs(fd) + 1e-6 * f.cpl));
    trapeze_ghostzone_destroy(hs);
    trapeze_ghostzone_destroy(pf);
}

/* fence_iter_hidden at psi = 0.5: PathFinder's loop loads a row of weights
 * from device memory every iteration (elem_per_op > 0), so its fence CPL is
 * psi = 0's to the bit and d/dpsi exactly 0, where without the switch h = 18
 * adds 0.5 x 17 iterations' worth to IterComp; HotSpot's loop loads nothing
 * from device memory and keeps psi: IterComp x (1 + 1/3) at h = 3, and with
 * Meng's sum (omega = 0) CPL linear in psi, so d/dpsi is (CPL(0.5) -
 * CPL(0)) / 0.5 by hand; relaunch is untouched. */
static void test_fence_iter_hidden(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    p.fence_iter = 1;
    trapeze_ghostzone_model *pf = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    CHECK(trapeze_ghostzone_workload(pf)->elem_per_op > 0 && trapeze_ghostzone_workload(hs)->elem_per_op == 0);
    trapeze_ghostzone_eval pf0 = eval(pf, TRAPEZE_SYNC_FENCE, 18), hs0 = eval(hs, TRAPEZE_SYNC_FENCE, 3);
    double pf_relaunch = eval(pf, TRAPEZE_SYNC_RELAUNCH, 18).cpl;
    p.value[TRAPEZE_GHOSTZONE_FENCE_ITER] = 0.5;
    trapeze_ghostzone_set_params(pf, &p);
    trapeze_ghostzone_eval shown = eval(pf, TRAPEZE_SYNC_FENCE, 18);
    CHECK_NEAR(shown.stage[TRAPEZE_GHOSTZONE_ITERCOMP], pf0.stage[TRAPEZE_GHOSTZONE_ITERCOMP] * (1 + 0.5 * 17 / 18),
               1e-12 * pf0.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    CHECK(shown.dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ITER] > 0);
    p.fence_iter_hidden = 1;
    trapeze_ghostzone_set_params(pf, &p);
    trapeze_ghostzone_set_params(hs, &p);
    trapeze_ghostzone_eval hidden = eval(pf, TRAPEZE_SYNC_FENCE, 18);
    CHECK(hidden.cpl == pf0.cpl && hidden.stage[TRAPEZE_GHOSTZONE_ITERCOMP] == pf0.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    CHECK(hidden.dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ITER] == 0);
    CHECK(eval(pf, TRAPEZE_SYNC_RELAUNCH, 18).cpl == pf_relaunch);
    trapeze_ghostzone_eval kept = eval(hs, TRAPEZE_SYNC_FENCE, 3);
    CHECK_NEAR(kept.stage[TRAPEZE_GHOSTZONE_ITERCOMP], hs0.stage[TRAPEZE_GHOSTZONE_ITERCOMP] * (1 + 1.0 / 3),
               1e-12 * hs0.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    CHECK(kept.cpl > hs0.cpl);
    CHECK_NEAR(kept.dcpl_dparam[TRAPEZE_GHOSTZONE_FENCE_ITER], (kept.cpl - hs0.cpl) / 0.5, 1e-9 * kept.cpl);
    trapeze_ghostzone_destroy(pf);
    trapeze_ghostzone_destroy(hs);
}

/* --verify's candidates: the k best, and the other mode's best when those are one mode. */
static void test_verify_order(void)
{
    trapeze_ghostzone_choice c[5];
    memset(c, 0, sizeof c);
    int sync[] = {1, 1, 1, 0, 0}, h[] = {4, 3, 5, 5, 6};
    for (int i = 0; i < 5; i++) {
        c[i].sync = (trapeze_sync)sync[i];
        c[i].h = h[i];
        c[i].cpl_model = 100 + i;
    }
    CHECK(trapeze_ghostzone_verify_order(c, 5, 3) == 4); /* fence 4, 3, 5, then relaunch 5 */
    int want_sync[] = {1, 1, 1, 0, 0}, want_h[] = {4, 3, 5, 5, 6};
    for (int i = 0; i < 5; i++)
        CHECK(c[i].sync == (trapeze_sync)want_sync[i] && c[i].h == want_h[i]);
    CHECK(trapeze_ghostzone_verify_order(c, 5, 2) == 3); /* fence 4, 3, relaunch 5 moved up */
    CHECK(c[2].sync == TRAPEZE_SYNC_RELAUNCH && c[2].h == 5 && c[3].sync == TRAPEZE_SYNC_FENCE &&
          c[3].h == 5 && c[4].h == 6);
    CHECK(trapeze_ghostzone_verify_order(c, 5, 3) == 3); /* both modes among the 3: as they are */
    CHECK(trapeze_ghostzone_verify_order(c, 5, 1) == 1); /* one candidate: the model's best alone */
    CHECK(trapeze_ghostzone_verify_order(c, 5, 9) == 5); /* no more than there are */
    CHECK(c[0].h == 4 && c[1].h == 3);
}

/* Simulates (reveals) the search's probes of a hand-made curve until it stops;
 * returns the number of probes and the fastest simulated index. */
static int run_search(trapeze_ghostzone_choice *c, int n, const double *sim, int first_k, int *fastest)
{
    for (int i = 0; i < first_k; i++)
        c[i].cpl_sim = sim[c[i].index];
    int probes = 0, next;
    while (probes < 50 && (next = trapeze_ghostzone_verify_next(c, n)) >= 0) {
        CHECK(c[next].cpl_sim == 0); /* never a candidate twice */
        c[next].cpl_sim = sim[c[next].index];
        probes++;
    }
    *fastest = 0;
    for (int i = 0; i < n; i++)
        if (c[i].cpl_sim > 0 && c[i].cpl_sim < c[*fastest].cpl_sim)
            *fastest = i;
    return probes;
}

/* Both modes searched, each from its own fastest run: the V100's Multi1D at
 * 100x (data/validation/v100-sizes-unseen-points.csv, the heights swept). The
 * model ranks relaunch 5, 6, 4 first and fence 7 is its best fence; relaunch 6
 * is the fastest of those and fence 7 within 0.07% of it. Hand-traced:
 * relaunch from 6 (not the model's best relaunch: twice the distance back, 1,
 * gives h 8, nearest swept 7, slower; 5 below is slower): done. Fence from 7
 * (agrees): up half its h (11: swept 12, slower), the midpoint 9 (slower);
 * down half its h (3, slower), the midpoint 5: 73,815, the fastest; from 5,
 * 7 above is its neighbour and 4 the midpoint to 3 (slower). Six probes, fence
 * 5: the best of the sweep, where searching relaunch alone stopped at 0.960. */
static void test_verify_search_both_modes(void)
{
    enum { N = 21 };
    int h[N] = {1, 2, 3, 4, 5, 6, 7, 9, 12, 17, 22, 1, 2, 3, 4, 5, 7, 9, 12, 17, 22};
    double sim[N] = {281244, 142019.5, 96988, 81304, 77191.4, 76907.7, 77376.3, 80498, 91670,
                     121164.9, 180825.4, 353557, 165050.5, 110123.7, 82870.5, 73815.2, 76960.3,
                     81940.4, 92660.2, 121676.6, 181464.4};
    double model[N] = {256727.8, 144477.4, 123333.5, 117697.6, 116294.3, 116792.1, 118539.0,
                       124671.3, 139113.8, 180531.2, 266701.6, 318780.3, 192718.8, 154691.3,
                       138303.7, 130508.4, 125976.4, 128709.2, 140428.6, 179451.7, 263707.9};
    int n = N;
    trapeze_ghostzone_choice c[N];
    memset(c, 0, sizeof c);
    for (int i = 0; i < n; i++)
        c[i] = (trapeze_ghostzone_choice){.sync = i < 11 ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE,
                                   .h = h[i], .cpl_model = model[i], .index = i};
    for (int i = 1; i < n; i++) /* ranked by the model's CPL */
        for (int j = i; j > 0 && c[j].cpl_model < c[j - 1].cpl_model; j--) {
            trapeze_ghostzone_choice t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    int k = trapeze_ghostzone_verify_order(c, n, 3);
    CHECK(k == 4 && c[0].h == 5 && c[1].h == 6 && c[2].h == 4 && c[3].h == 7 &&
          c[3].sync == TRAPEZE_SYNC_FENCE);
    int fastest, probes = run_search(c, n, sim, k, &fastest);
    CHECK(probes == 6);
    CHECK(c[fastest].sync == TRAPEZE_SYNC_FENCE && c[fastest].h == 5);
    for (int i = 0; i < n; i++) /* fence 2 and relaunch 3: never near an optimum, never run */
        if (c[i].h == 2 || (c[i].h == 3 && c[i].sync == TRAPEZE_SYNC_RELAUNCH))
            CHECK(c[i].cpl_sim == 0);
    /* every fence 15% slower: fence 7 (88,504) is beyond TRAPEZE_GHOSTZONE_VERIFY_OTHER
     * of relaunch 6, so fence is not searched: relaunch 7 alone is probed */
    for (int i = 11; i < n; i++)
        sim[i] *= 1.15;
    for (int i = 0; i < n; i++)
        c[i].cpl_sim = 0;
    probes = run_search(c, n, sim, k, &fastest);
    CHECK(probes == 1);
    CHECK(c[fastest].sync == TRAPEZE_SYNC_RELAUNCH && c[fastest].h == 6);
}

/* The search after --verify's candidates, on the V100's PathFinder at 1x
 * (data/validation/v100-sizes-others-points.csv as made on the simulator of
 * fp-c8763f86a2d7, before the IPOLY fix; fence): the model ranks 15,
 * 14, 13 first; the simulated curve dips at 15, rises at 16 and is lowest at
 * 31, so neighbours alone stop at 15 (pick ratio 0.923). Hand-traced: 15 agrees
 * with the model, so a step of half its h (23: nearest swept 22, faster),
 * then twice the distance travelled (22 + 14 = 36: 31, faster), then the end
 * and a slower neighbour: two probes, the best found. */
static void test_verify_search(void)
{
    int h[] = {1, 2, 3, 4, 6, 8, 11, 13, 14, 15, 16, 22, 31};
    double sim[] = {2684, 2548.5, 2293, 2000.75, 1825.3, 1699, 1759.4, 1685.7, 1663.9, 1603.3,
                    1608.7, 1564.9, 1479.6};
    double model[] = {3354.7, 2334.9, 1976.7, 1801.7, 1634.5, 1557.0, 1502.1, 1484.8, 1479.4,
                      1476.6, 1542.6, 1547.6, 1659.8};
    enum { N = 13 };
    trapeze_ghostzone_choice c[N];
    memset(c, 0, sizeof c);
    for (int i = 0; i < N; i++) /* ranked by the model's CPL, as trapeze_ghostzone_rank leaves them */
        c[i] = (trapeze_ghostzone_choice){.sync = TRAPEZE_SYNC_FENCE, .h = h[i], .cpl_model = model[i],
                                   .index = i};
    for (int i = 1; i < N; i++)
        for (int j = i; j > 0 && c[j].cpl_model < c[j - 1].cpl_model; j--) {
            trapeze_ghostzone_choice t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    CHECK(c[0].h == 15 && c[1].h == 14 && c[2].h == 13);
    int fastest, probes = run_search(c, N, sim, 3, &fastest);
    CHECK(probes == 2);
    CHECK(c[fastest].h == 31);
    /* the simulation agreeing with the model at an interior optimum: no probe */
    trapeze_ghostzone_choice d[3] = {{.sync = TRAPEZE_SYNC_FENCE, .h = 2, .cpl_model = 10, .index = 0},
                              {.sync = TRAPEZE_SYNC_FENCE, .h = 1, .cpl_model = 11, .index = 1},
                              {.sync = TRAPEZE_SYNC_FENCE, .h = 3, .cpl_model = 12, .index = 2}};
    double dsim[] = {100, 110, 105};
    CHECK(run_search(d, 3, dsim, 3, &fastest) == 0 && d[fastest].h == 2);
    /* a gap to a slower point, not flat: bisected down to neighbours */
    trapeze_ghostzone_choice e[5];
    double esim[] = {100, 90, 80, 95, 120}; /* h 1..5; the model's best two are h 1 and 5 */
    for (int i = 0; i < 5; i++)
        e[i] = (trapeze_ghostzone_choice){.sync = TRAPEZE_SYNC_RELAUNCH, .h = i + 1,
                                   .cpl_model = i == 0 ? 1 : i == 4 ? 2 : 10 + i, .index = i};
    trapeze_ghostzone_choice t = e[1];
    e[1] = e[4];
    e[4] = t; /* ranked: h 1, 5, 3, 4, 2 */
    probes = run_search(e, 5, esim, 2, &fastest);
    CHECK(e[fastest].h == 3 && probes == 3); /* 3 (bisecting 1..5), then 4 and 2 around it */
    /* nothing simulated: nothing to search from */
    trapeze_ghostzone_choice f[1] = {{.sync = TRAPEZE_SYNC_FENCE, .h = 1, .cpl_model = 1}};
    CHECK(trapeze_ghostzone_verify_next(f, 1) == -1);
}

/* partial_round on PathFinder, GTX 480, 22,860 points: 6 resident blocks of
 * 256 threads per SM, 15 SMs. h = 18: ceil(22860 / 220) = 104 tiles, 7 on the
 * busiest SM, so at lambda = 0.5 it computes 6 x 1.5 = 9 tiles' worth: 9/7 of
 * MiscComp and IterComp, memory untouched (omega = 0: no rescaling). h = 1:
 * 90 tiles, 6 per SM, one round; h = 44: 137 tiles, 10 > 9: both unchanged, as
 * is any height between whole ones (Meng's smooth T). */
static void test_partial_round(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_eval off[2][3];
    double hs[] = {18, 1, 44};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++)
            off[s][i] = eval(m, (trapeze_sync)s, hs[i]);
    double between = eval(m, TRAPEZE_SYNC_RELAUNCH, 18.5).cpl;
    CHECK_NEAR(off[0][0].trapezoids, 104, 0);
    CHECK_NEAR(off[0][2].trapezoids, 137, 0);
    p.partial_round = 1;
    p.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.5;
    trapeze_ghostzone_set_params(m, &p);
    for (int s = 0; s < 2; s++) {
        trapeze_ghostzone_eval on = eval(m, (trapeze_sync)s, 18);
        for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++) {
            int comp = c == TRAPEZE_GHOSTZONE_MISCCOMP || c == TRAPEZE_GHOSTZONE_ITERCOMP;
            CHECK_NEAR(on.per_loop[c], off[s][0].per_loop[c] * (comp ? 9.0 / 7 : 1), 1e-12 * on.cpl);
        }
        CHECK(eval(m, (trapeze_sync)s, 1).cpl == off[s][1].cpl);
        CHECK(eval(m, (trapeze_sync)s, 44).cpl == off[s][2].cpl);
        /* d/dlambda: exact in the active branch (7 < 9), 0 where it is not */
        double step = 1e-6, g = on.dcpl_dparam[TRAPEZE_GHOSTZONE_PARTIAL_ROUND];
        trapeze_ghostzone_params q = p;
        q.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.5 + step;
        trapeze_ghostzone_set_params(m, &q);
        double up = eval(m, (trapeze_sync)s, 18).cpl;
        q.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.5 - step;
        trapeze_ghostzone_set_params(m, &q);
        double down = eval(m, (trapeze_sync)s, 18).cpl;
        trapeze_ghostzone_set_params(m, &p);
        CHECK(g > 0);
        CHECK_NEAR(g, (up - down) / (2 * step), 1e-6 * fabs(g));
        CHECK(eval(m, (trapeze_sync)s, 44).dcpl_dparam[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] == 0);
    }
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18.5).cpl == between);
    /* lambda = 0.25: 7.5 tiles' worth */
    p.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.25;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval quarter = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    CHECK_NEAR(quarter.per_loop[TRAPEZE_GHOSTZONE_ITERCOMP],
               off[0][0].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP] * 7.5 / 7, 1e-12 * quarter.cpl);
    trapeze_ghostzone_destroy(m);
}

/* loop_reread on the same PathFinder: at h = 18 a loop's 104 tiles load
 * 104 x 254 = 26,416 weights for 22,860 points; at rho_L = 0.5 IterMem moves
 * 22,860 + 0.5 x 3,556 = 24,638 of them (no latency, omega = 0: IterMem is
 * proportional to the elements). rho_L = 1 is Meng to the bit; LoadSten and
 * the compute are untouched. */
static void test_loop_reread(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_eval off = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    p.loop_reread = 1;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off.cpl); /* rho_L = 1 */
    p.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.5;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval on = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    CHECK_NEAR(on.stage[TRAPEZE_GHOSTZONE_ITERMEM], off.stage[TRAPEZE_GHOSTZONE_ITERMEM] * 24638.0 / 26416,
               1e-12 * off.stage[TRAPEZE_GHOSTZONE_ITERMEM]);
    CHECK(on.stage[TRAPEZE_GHOSTZONE_LOADSTEN] == off.stage[TRAPEZE_GHOSTZONE_LOADSTEN]);
    CHECK(on.stage[TRAPEZE_GHOSTZONE_ITERCOMP] == off.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    double step = 1e-6, g = on.dcpl_dparam[TRAPEZE_GHOSTZONE_LOOP_REREAD];
    trapeze_ghostzone_params q = p;
    q.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.5 + step;
    trapeze_ghostzone_set_params(m, &q);
    double up = eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl;
    q.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.5 - step;
    trapeze_ghostzone_set_params(m, &q);
    double down = eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl;
    CHECK(g > 0);
    CHECK_NEAR(g, (up - down) / (2 * step), 1e-6 * g);
    trapeze_ghostzone_destroy(m);
    /* no extra loads (HotSpot): nothing to re-read */
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    CHECK(eval(hs, TRAPEZE_SYNC_RELAUNCH, 2).stage[TRAPEZE_GHOSTZONE_ITERMEM] == 0);
    trapeze_ghostzone_destroy(hs);
}

/* loop_once on the same PathFinder: a loop moves the grid's 22,860 weights
 * once, whatever its tiles load. h = 18: IterMem x 22,860 / 26,416 (104
 * tiles x 254) of Meng's, in both modes; h = 44: x 22,860 / 34,798 (137 x
 * 254); h = 1: 90 x 254 = 22,860 already, unchanged. It supersedes
 * loop_reread: rho_L is not read (partial exactly 0), so rho_L = 0.5 gives
 * the same bits. LoadSten and the compute are untouched. */
static void test_loop_once(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    double hs[] = {18, 44, 1}, share[] = {22860.0 / 26416, 22860.0 / 34798, 1};
    trapeze_ghostzone_eval off[2][3];
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++)
            off[s][i] = eval(m, (trapeze_sync)s, hs[i]);
    p.loop_once = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval once18 = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++) {
            trapeze_ghostzone_eval on = eval(m, (trapeze_sync)s, hs[i]);
            double mem = off[s][i].stage[TRAPEZE_GHOSTZONE_ITERMEM];
            CHECK_NEAR(on.stage[TRAPEZE_GHOSTZONE_ITERMEM], mem * share[i], 1e-12 * mem);
            CHECK(on.stage[TRAPEZE_GHOSTZONE_LOADSTEN] == off[s][i].stage[TRAPEZE_GHOSTZONE_LOADSTEN]);
            CHECK(on.stage[TRAPEZE_GHOSTZONE_ITERCOMP] == off[s][i].stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
        }
    p.loop_reread = 1;
    p.value[TRAPEZE_GHOSTZONE_LOOP_REREAD] = 0.5;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval both = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    CHECK(both.cpl == once18.cpl && both.dcpl_dparam[TRAPEZE_GHOSTZONE_LOOP_REREAD] == 0);
    trapeze_ghostzone_destroy(m);
}

/* Both modes at h = 18: MiscComp and IterComp scaled by f against off
 * (the plain model's evaluations), every other component unchanged. */
static void check_compute_scaled(trapeze_ghostzone_model *m, const trapeze_ghostzone_eval off[2], double f)
{
    for (int s = 0; s < 2; s++) {
        trapeze_ghostzone_eval on = eval(m, (trapeze_sync)s, 18);
        for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++) {
            int comp = c == TRAPEZE_GHOSTZONE_MISCCOMP || c == TRAPEZE_GHOSTZONE_ITERCOMP;
            CHECK_NEAR(on.per_loop[c], off[s].per_loop[c] * (comp ? f : 1), 1e-12 * on.cpl);
        }
    }
}

/* The relaunch CPL's d/dcpi at h = 18 under p, checked against central
 * differences; returns the differences' value (the model is left at p). */
static double check_dcpi(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p)
{
    trapeze_ghostzone_set_params(m, p);
    trapeze_ghostzone_eval g = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    double cpi = p->value[TRAPEZE_GHOSTZONE_CPI], step = 1e-6 * cpi, cpl[2];
    for (int i = 0; i < 2; i++) {
        trapeze_ghostzone_params q = *p;
        q.value[TRAPEZE_GHOSTZONE_CPI] = cpi + (i ? step : -step);
        trapeze_ghostzone_set_params(m, &q);
        cpl[i] = eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl;
    }
    trapeze_ghostzone_set_params(m, p);
    double fd = (cpl[1] - cpl[0]) / (2 * step);
    CHECK_NEAR(g.dcpl_dparam[TRAPEZE_GHOSTZONE_CPI], fd, 1e-6 * fabs(fd));
    return fd;
}

/* round_latency on the same PathFinder (NumElemPerOp = 1), GTX 480, h = 18:
 * 7 tiles on the busiest SM, 6 resident. With a load latency L of 3
 * tile-iterations (L = 3 I, I = IterComp / h of one tile) the partial round
 * costs 3 tiles' worth: 6 + 3 = 9, so MiscComp and IterComp x 9/7 in both
 * modes and memory untouched (omega = 0); L = I / 2 gives 6.5 < 7: the same
 * bits. With partial_round at lambda = 0.5 (9 tiles) and L = 4 I (10), the
 * larger floor, 10. h = 1 (one round) and HotSpot (no loop loads) keep their
 * bits. d/dcpi against central differences and by hand: I scales with the
 * CPI and L / I against it, so 6 tiles' worth scale with it, not 9. */
static void test_round_latency(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_eval off[2] = {eval(m, TRAPEZE_SYNC_RELAUNCH, 18), eval(m, TRAPEZE_SYNC_FENCE, 18)};
    double one = eval(m, TRAPEZE_SYNC_RELAUNCH, 1).cpl;
    double iter = off[0].stage[TRAPEZE_GHOSTZONE_ITERCOMP] / 18; /* I: relaunch IterComp is h I */
    p.round_latency = 1;
    p.turnaround_cycles = 3 * iter;
    trapeze_ghostzone_set_params(m, &p);
    check_compute_scaled(m, off, 9.0 / 7);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 1).cpl == one);
    /* d/dcpi: (M + h I)(6 + L / I) / h with M, I proportional to the CPI: 6 tiles' worth scale */
    double cpi = p.value[TRAPEZE_GHOSTZONE_CPI];
    double fd = check_dcpi(m, &p);
    double comp7 = off[0].per_loop[TRAPEZE_GHOSTZONE_MISCCOMP] + off[0].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP];
    CHECK_NEAR(fd, comp7 / 7 * 6 / cpi, 1e-5 * fd);
    /* a latency shorter than the round's own tiles' issue: n */
    p.turnaround_cycles = iter / 2;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off[0].cpl);
    /* with partial_round, the larger of the two floors */
    p.partial_round = 1;
    p.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.5;
    p.turnaround_cycles = 4 * iter;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP],
               off[0].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP] * 10 / 7, 1e-12 * off[0].cpl);
    p.turnaround_cycles = 2 * iter;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_NEAR(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP],
               off[0].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP] * 9 / 7, 1e-12 * off[0].cpl);
    trapeze_ghostzone_destroy(m);
    /* HotSpot 148^2, h = 1: 81 tiles, 6 a SM with 3 resident, no loads in its loop */
    trapeze_ghostzone_params h = at_size();
    h.turnaround_cycles = 1e6;
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &h);
    double before[2] = {eval(hs, TRAPEZE_SYNC_RELAUNCH, 1).cpl, eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl};
    h.round_latency = 1;
    trapeze_ghostzone_set_params(hs, &h);
    CHECK(eval(hs, TRAPEZE_SYNC_RELAUNCH, 1).cpl == before[0] && eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl == before[1]);
    trapeze_ghostzone_destroy(hs);
}

/* round_compute on the same PathFinder, GTX 480, h = 18 (7 tiles, 6
 * resident), L = 2 I: round_latency alone floors at 6 + 2 = 8 tiles' worth,
 * with round_compute the partial round computes one tile-iteration after its
 * loads, 6 + 1 + 2 = 9: MiscComp and IterComp x 9/7 of the plain model in
 * both modes, memory untouched. h = 1 (one round), HotSpot (no loop loads)
 * and round_compute without round_latency keep their bits. d/dcpi: k + 1 =
 * 7 tiles' worth scale with the CPI (L / I against it), by hand and against
 * central differences. */
static void test_round_compute(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_eval off[2] = {eval(m, TRAPEZE_SYNC_RELAUNCH, 18), eval(m, TRAPEZE_SYNC_FENCE, 18)};
    double one = eval(m, TRAPEZE_SYNC_RELAUNCH, 1).cpl;
    double iter = off[0].stage[TRAPEZE_GHOSTZONE_ITERCOMP] / 18;
    p.round_compute = 1; /* without round_latency: nothing to add to */
    p.turnaround_cycles = 2 * iter;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off[0].cpl && eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[1].cpl);
    p.round_latency = 1;
    trapeze_ghostzone_set_params(m, &p);
    check_compute_scaled(m, off, 9.0 / 7);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 1).cpl == one);
    double cpi = p.value[TRAPEZE_GHOSTZONE_CPI];
    double fd = check_dcpi(m, &p);
    double comp7 = off[0].per_loop[TRAPEZE_GHOSTZONE_MISCCOMP] + off[0].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP];
    CHECK_NEAR(fd, comp7 / 7 * 7 / cpi, 1e-5 * fd);
    trapeze_ghostzone_destroy(m);
    trapeze_ghostzone_params h = at_size();
    h.turnaround_cycles = 1e6;
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &h);
    double before = eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl;
    h.round_latency = h.round_compute = 1;
    trapeze_ghostzone_set_params(hs, &h);
    CHECK(eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl == before);
    trapeze_ghostzone_destroy(hs);
}

/* The barrier of test_round_spin and test_spin_staging: F = 2 cycles a
 * block, a round trip of 240 (barrier_max), no poll, both overlaps omega. */
static trapeze_ghostzone_params spin_point(double omega)
{
    trapeze_ghostzone_params p = at_size();
    p.barrier_max = 1;
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = omega;
    p.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] = 2;
    p.value[TRAPEZE_GHOSTZONE_FENCE_BARRIER] = 240;
    p.value[TRAPEZE_GHOSTZONE_FENCE_POLL] = 0;
    return p;
}

/* The plain model at spin_point's PathFinder 22,860 on the GTX 480 (15
 * SMs, k = 6 resident): relaunch and fence at h = 18 (104 tiles), fence at
 * h = 44 (137 tiles) and h = 1, and I, the relaunch IterComp a loop
 * iteration (h I at h = 18); the tests below switch terms on from here. */
typedef struct {
    trapeze_ghostzone_model *m;
    trapeze_ghostzone_eval off[2], tall;
    double one, iter;
} spin_base;

static spin_base spin_base_eval(trapeze_ghostzone_params *p)
{
    spin_base b;
    b.m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, p);
    b.off[0] = eval(b.m, TRAPEZE_SYNC_RELAUNCH, 18);
    b.off[1] = eval(b.m, TRAPEZE_SYNC_FENCE, 18);
    b.tall = eval(b.m, TRAPEZE_SYNC_FENCE, 44);
    b.one = eval(b.m, TRAPEZE_SYNC_FENCE, 1).cpl;
    CHECK_NEAR(b.off[1].trapezoids, 104, 0);
    CHECK_NEAR(b.tall.trapezoids, 137, 0);
    b.iter = b.off[0].stage[TRAPEZE_GHOSTZONE_ITERCOMP] / 18;
    return b;
}

/* round_spin on PathFinder 22,860, GTX 480, h = 18: 104 tiles on k M = 6 x
 * 15 = 90 persistent blocks, so the last round runs r = 14 tiles while S =
 * 76 blocks spin at the barrier; 7 tiles on the busiest SM. With L = 3 I
 * round_latency floors both modes at 6 + 3 = 9 tiles' worth. The barrier at
 * F = 2 cycles a block and a round trip of 240 (barrier_max): 90 blocks'
 * arrivals 180 of sqrt(240^2 + 180^2) = 300, a share a = 0.6, so round_spin
 * makes the fence's wait L (1 + 0.6 x 76/90) an iteration: 6 + 3 (1 + 0.6
 * x 76/90) tiles' worth, MiscComp and IterComp x that / 7 of the plain
 * model, memory untouched (omega = 0). At h = 44, 137 tiles (r = 47, S =
 * 43): 6 + 3 (1 + 0.6 x 43/90) = 9.86 is under the busiest SM's 10: the
 * same bits. Relaunch, h = 1 (one round), F = 0 (arrivals within the round
 * trip: the GTX 480's fencebar) and round_spin without round_latency keep
 * their bits; d/dF, d/d(round trip) and d/dcpi against central differences,
 * d/dcpi also by hand (I and L / I move against each other: k tiles' worth
 * scale with the CPI). */
static void test_round_spin(void)
{
    trapeze_ghostzone_params p = spin_point(0);
    spin_base b = spin_base_eval(&p);
    trapeze_ghostzone_model *m = b.m;
    const trapeze_ghostzone_eval *off = b.off, tall = b.tall;
    const double one = b.one, iter = b.iter;
    p.round_spin = 1; /* without round_latency: no floor to lengthen */
    p.turnaround_cycles = 3 * iter;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[1].cpl);
    p.round_latency = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval rel = eval(m, TRAPEZE_SYNC_RELAUNCH, 18), e = eval(m, TRAPEZE_SYNC_FENCE, 18);
    static const int comp[] = {TRAPEZE_GHOSTZONE_MISCCOMP, TRAPEZE_GHOSTZONE_ITERCOMP};
    for (int i = 0; i < 2; i++) {
        CHECK_NEAR(rel.per_loop[comp[i]], off[0].per_loop[comp[i]] * 9 / 7, 1e-12 * rel.cpl);
        CHECK_NEAR(e.per_loop[comp[i]], off[1].per_loop[comp[i]] * (6 + 3 * (1 + 0.6 * 76 / 90)) / 7,
                   1e-12 * e.cpl);
    }
    CHECK(e.per_loop[TRAPEZE_GHOSTZONE_ITERMEM] == off[1].per_loop[TRAPEZE_GHOSTZONE_ITERMEM]);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 44).cpl == tall.cpl);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 1).cpl == one);
    static const int ks[] = {TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, TRAPEZE_GHOSTZONE_FENCE_BARRIER,
                             TRAPEZE_GHOSTZONE_CPI};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double fd = check_gradient(m, p, ks[i], TRAPEZE_SYNC_FENCE, 18);
        if (ks[i] == TRAPEZE_GHOSTZONE_CPI) {
            double comp7 = off[1].per_loop[TRAPEZE_GHOSTZONE_MISCCOMP] + off[1].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP];
            CHECK_NEAR(fd, comp7 / 7 * 6 / p.value[TRAPEZE_GHOSTZONE_CPI], 1e-5 * fd);
        }
    }
    p.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] = 0; /* arrivals within the round trip: L */
    trapeze_ghostzone_set_params(m, &p);
    double spin0 = eval(m, TRAPEZE_SYNC_FENCE, 18).cpl;
    p.round_spin = 0;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == spin0);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == rel.cpl);
    trapeze_ghostzone_destroy(m);
}

/* round_tiles on test_round_spin's PathFinder 22,860, GTX 480 (15 SMs, k =
 * 6 resident), L = 3 I, omega = 0: at h = 18, 104 tiles, 7 on the busiest
 * SM, round_latency floors at 6 + 3 = 9 tiles' worth and round_tiles at
 * 7 + 3 = 10 (MiscComp and IterComp x 10/7 of the plain model, both
 * modes, memory untouched); at h = 44, 137 tiles, 10 on the busiest SM,
 * 10 + 3 = 13 where round_latency keeps n = 10: the floor steps by one tile
 * with each whole tile the busiest SM gains. With round_compute too, the
 * same bits (its one tile is among the n - k). h = 1 (one round), HotSpot
 * (no loop loads) and round_tiles without round_latency keep their bits.
 * Away from the steps: d/dcpi by hand, n = 7 tiles' worth scale with the
 * CPI (L / I against it), and against central differences; with round_spin
 * at spin_point's barrier, d/dF and d/d(round trip) in fence mode. */
static void test_round_tiles(void)
{
    trapeze_ghostzone_params p = spin_point(0);
    spin_base b = spin_base_eval(&p);
    trapeze_ghostzone_model *m = b.m;
    const trapeze_ghostzone_eval *off = b.off, tall = b.tall;
    const double one = b.one, iter = b.iter;
    p.round_tiles = 1; /* without round_latency: no floor to raise */
    p.turnaround_cycles = 3 * iter;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[1].cpl);
    p.round_latency = 1;
    trapeze_ghostzone_set_params(m, &p);
    check_compute_scaled(m, off, 10.0 / 7);
    trapeze_ghostzone_eval t44 = eval(m, TRAPEZE_SYNC_FENCE, 44);
    static const int comp[] = {TRAPEZE_GHOSTZONE_MISCCOMP, TRAPEZE_GHOSTZONE_ITERCOMP};
    for (int i = 0; i < 2; i++)
        CHECK_NEAR(t44.per_loop[comp[i]], tall.per_loop[comp[i]] * 13 / 10, 1e-12 * t44.cpl);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 1).cpl == one);
    double cpl18 = eval(m, TRAPEZE_SYNC_FENCE, 18).cpl;
    p.round_compute = 1;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == cpl18);
    p.round_compute = 0;
    double cpi = p.value[TRAPEZE_GHOSTZONE_CPI];
    double fd = check_dcpi(m, &p);
    double comp7 = off[0].per_loop[TRAPEZE_GHOSTZONE_MISCCOMP] + off[0].per_loop[TRAPEZE_GHOSTZONE_ITERCOMP];
    CHECK_NEAR(fd, comp7 / 7 * 7 / cpi, 1e-5 * fd);
    p.round_spin = 1;
    trapeze_ghostzone_set_params(m, &p);
    static const int ks[] = {TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, TRAPEZE_GHOSTZONE_FENCE_BARRIER,
                             TRAPEZE_GHOSTZONE_CPI};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        check_gradient(m, p, ks[i], TRAPEZE_SYNC_FENCE, 18);
    trapeze_ghostzone_destroy(m);
    trapeze_ghostzone_params h = at_size(); /* HotSpot 148^2, h = 1: no loads in its loop */
    h.turnaround_cycles = 1e6;
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &h);
    double before = eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl;
    h.round_latency = h.round_tiles = 1;
    trapeze_ghostzone_set_params(hs, &h);
    CHECK(eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl == before);
    trapeze_ghostzone_destroy(hs);
}

/* spin_staging at test_round_spin's point (PathFinder 22,860, GTX 480, k M
 * = 90, a = 0.6): at h = 18, 104 tiles, S = 76 spinning, the fence stage's
 * GlbSync grows by (stencil_arrays + 1) L a S / (k M) = 2 x 300 x 0.6 x
 * 76/90 = 304 cycles, 304/18 a loop, outside the overlap (omega 0.5 here:
 * every other term keeps its bits); at h = 44, 137 tiles (S = 43), by 2 x
 * 300 x 0.6 x 43/90 = 172. Multi1D (two arrays) on the same GPU at h = 10,
 * 160 tiles on k M = 8 x 15 = 120 (a = 240 / sqrt(240^2 + 240^2), S = 80):
 * three round trips, 3 x 300 x a x 80/120. Relaunch, F = 0 (a = 0) and L = 0 keep their bits;
 * d/dF and d/d(round trip) against central differences. PathFinder 9,900
 * at h = 18 is 45 tiles on k M = 90: the persistent grid is those 45
 * blocks, one tile each, and none spins, so the stage keeps its bits (not
 * 2 x 300 x 0.6 x 45/90 = 180 cycles more, as 90 - 45 blocks that do not
 * exist would add). */
static void test_spin_staging(void)
{
    trapeze_ghostzone_params p = spin_point(0.5);
    p.turnaround_cycles = 300;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_eval off[3] = {eval(m, TRAPEZE_SYNC_RELAUNCH, 18), eval(m, TRAPEZE_SYNC_FENCE, 18),
                                     eval(m, TRAPEZE_SYNC_FENCE, 44)};
    CHECK_NEAR(off[1].trapezoids, 104, 0);
    CHECK_NEAR(off[2].trapezoids, 137, 0);
    p.spin_staging = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval e = eval(m, TRAPEZE_SYNC_FENCE, 18), tall = eval(m, TRAPEZE_SYNC_FENCE, 44);
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_GLBSYNC] - off[1].stage[TRAPEZE_GHOSTZONE_GLBSYNC], 304, 1e-9);
    CHECK_NEAR(e.cpl - off[1].cpl, 304.0 / 18, 1e-9);
    CHECK_NEAR(tall.cpl - off[2].cpl, 2 * 300 * 0.6 * 43 / 90 / 44, 1e-9);
    for (int c = TRAPEZE_GHOSTZONE_LOADSTEN; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++)
        CHECK(e.per_loop[c] == off[1].per_loop[c]);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off[0].cpl);
    static const int ks[] = {TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, TRAPEZE_GHOSTZONE_FENCE_BARRIER};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        check_gradient(m, p, ks[i], TRAPEZE_SYNC_FENCE, 18);
    trapeze_ghostzone_params q = p; /* Multi1D 14,000, h = 10: 160 tiles on k M = 8 x 15 */
    q.spin_staging = 0;
    trapeze_ghostzone_model *two = model("data/gpus/gtx480.config", "multi1d", 14000, 1, &q);
    trapeze_ghostzone_eval plain = eval(two, TRAPEZE_SYNC_FENCE, 10);
    CHECK_NEAR(plain.trapezoids, 160, 0);
    CHECK(trapeze_ghostzone_occupancy(trapeze_ghostzone_gpu(two), trapeze_ghostzone_workload(two), 128) == 8);
    trapeze_ghostzone_set_params(two, &p);
    /* 120 arrivals at 2 cycles: 240 of sqrt(240^2 + 240^2), r = 40, S = 80 */
    CHECK_NEAR(eval(two, TRAPEZE_SYNC_FENCE, 10).cpl - plain.cpl, 3 * 300 * sqrt(0.5) * 80 / 120 / 10, 1e-9);
    trapeze_ghostzone_destroy(two);
    q = p; /* PathFinder 9,900, h = 18: one round of 45 tiles on k M = 90 */
    q.spin_staging = 0;
    trapeze_ghostzone_model *lone = model("data/gpus/gtx480.config", "pathfinder", 9900, 1, &q);
    trapeze_ghostzone_eval alone = eval(lone, TRAPEZE_SYNC_FENCE, 18);
    CHECK_NEAR(alone.trapezoids, 45, 0);
    trapeze_ghostzone_set_params(lone, &p);
    CHECK(eval(lone, TRAPEZE_SYNC_FENCE, 18).cpl == alone.cpl);
    trapeze_ghostzone_destroy(lone);
    p.turnaround_cycles = 0;
    trapeze_ghostzone_set_params(m, &p);
    double no_wait = eval(m, TRAPEZE_SYNC_FENCE, 18).cpl;
    p.turnaround_cycles = 300;
    p.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] = 0;
    trapeze_ghostzone_set_params(m, &p);
    double flat = eval(m, TRAPEZE_SYNC_FENCE, 18).cpl;
    p.spin_staging = 0;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == flat);
    p.turnaround_cycles = 0;
    p.value[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] = 2;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == no_wait);
    trapeze_ghostzone_destroy(m);
}

/* lone_round on PathFinder 9,900 (NumElemPerOp = 1), GTX 480, h = 18:
 * ceil(9900 / 220) = 45 tiles, 3 on every SM with 6 resident, one round
 * that is all partial. With L = 5 I the round costs L / I = 5 tiles' worth:
 * MiscComp and IterComp x 5/3 in both modes, memory untouched (omega = 0),
 * and IterComp a loop is h I (L / I) / h = L exactly. I and L / I move
 * against each other with the CPI, so d/dcpi is 0. L = 2 I (under 3 tiles),
 * lone_round without round_latency, and round_latency without lone_round
 * keep the plain bits; with round_compute, L = 3 I gives 1 + 3 = 4 tiles'
 * worth. HotSpot (no loop loads) keeps its bits. */
static void test_lone_round(void)
{
    trapeze_ghostzone_params p = at_size();
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 9900, 1, &p);
    trapeze_ghostzone_eval off[2] = {eval(m, TRAPEZE_SYNC_RELAUNCH, 18), eval(m, TRAPEZE_SYNC_FENCE, 18)};
    CHECK_NEAR(off[0].trapezoids, 45, 0);
    double iter = off[0].stage[TRAPEZE_GHOSTZONE_ITERCOMP] / 18; /* I: relaunch IterComp is h I */
    p.turnaround_cycles = 5 * iter;
    p.lone_round = 1; /* without round_latency: nothing to extend */
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off[0].cpl && eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[1].cpl);
    p.lone_round = 0;
    p.round_latency = 1; /* round_latency alone: only n > k */
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off[0].cpl && eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[1].cpl);
    p.lone_round = 1;
    trapeze_ghostzone_set_params(m, &p);
    check_compute_scaled(m, off, 5.0 / 3);
    for (int s = 0; s < 2; s++)
        CHECK_NEAR(eval(m, (trapeze_sync)s, 18).per_loop[TRAPEZE_GHOSTZONE_ITERCOMP], p.turnaround_cycles,
                   1e-12 * p.turnaround_cycles);
    trapeze_ghostzone_eval g = eval(m, TRAPEZE_SYNC_RELAUNCH, 18);
    CHECK_NEAR(g.dcpl_dparam[TRAPEZE_GHOSTZONE_CPI], 0, 1e-9 * g.cpl / p.value[TRAPEZE_GHOSTZONE_CPI]);
    p.turnaround_cycles = 2 * iter;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == off[0].cpl && eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[1].cpl);
    p.turnaround_cycles = 3 * iter;
    p.round_compute = 1;
    trapeze_ghostzone_set_params(m, &p);
    check_compute_scaled(m, off, 4.0 / 3);
    trapeze_ghostzone_destroy(m);
    trapeze_ghostzone_params h = at_size();
    h.turnaround_cycles = 1e6;
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &h);
    double before[2] = {eval(hs, TRAPEZE_SYNC_RELAUNCH, 3).cpl, eval(hs, TRAPEZE_SYNC_FENCE, 3).cpl};
    h.round_latency = h.lone_round = 1;
    trapeze_ghostzone_set_params(hs, &h);
    CHECK(eval(hs, TRAPEZE_SYNC_RELAUNCH, 3).cpl == before[0] && eval(hs, TRAPEZE_SYNC_FENCE, 3).cpl == before[1]);
    trapeze_ghostzone_destroy(hs);
}

/* round_staging, L = 300: PathFinder 22,860 on the GTX 480 (6 resident).
 * h = 18: ceil(22860 / 220) = 104 tiles, 7 on the busiest SM, 2 rounds: the
 * fence CPL rises by exactly 2 L / 18 (the wait is beside the barrier, not
 * in the overlap); h = 1: 90 tiles, 6 a SM, 1 round, + L. Relaunch keeps its
 * bits, and so does fence with L = 0. Between heights (h = 18.5) the rounds
 * are the passes, T / (k M): + passes L / h, d/dh against central
 * differences. HotSpot 148^2, h = 1 (81 tiles, 6 a SM, 3 resident): 2
 * rounds, + 2 L, though its loop loads nothing: the staging is every
 * tile's. */
static void test_round_staging(void)
{
    trapeze_ghostzone_params p = at_size();
    p.turnaround_cycles = 300;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "pathfinder", 22860, 1, &p);
    trapeze_ghostzone_eval off[3] = {eval(m, TRAPEZE_SYNC_FENCE, 18), eval(m, TRAPEZE_SYNC_FENCE, 1),
                                     eval(m, TRAPEZE_SYNC_FENCE, 18.5)};
    double relaunch = eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl;
    CHECK_NEAR(off[0].trapezoids, 104, 0);
    CHECK_NEAR(off[1].trapezoids, 90, 0);
    p.round_staging = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval on[3] = {eval(m, TRAPEZE_SYNC_FENCE, 18), eval(m, TRAPEZE_SYNC_FENCE, 1),
                                    eval(m, TRAPEZE_SYNC_FENCE, 18.5)};
    CHECK_NEAR(on[0].cpl - off[0].cpl, 2 * 300.0 / 18, 1e-9 * off[0].cpl);
    CHECK_NEAR(on[0].per_loop[TRAPEZE_GHOSTZONE_GLBSYNC] - off[0].per_loop[TRAPEZE_GHOSTZONE_GLBSYNC],
               2 * 300.0 / 18, 1e-9 * off[0].cpl);
    CHECK_NEAR(on[1].cpl - off[1].cpl, 300.0, 1e-9 * off[1].cpl);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 18).cpl == relaunch);
    double passes = (22860.0 / (256 - 2 * 18.5)) / (6 * 15);
    CHECK_NEAR(on[2].passes, passes, 1e-12);
    CHECK_NEAR(on[2].cpl - off[2].cpl, passes * 300 / 18.5, 1e-9 * off[2].cpl);
    double step = 1e-5, c[2];
    for (int i = 0; i < 2; i++)
        c[i] = eval(m, TRAPEZE_SYNC_FENCE, 18.5 + (i ? step : -step)).cpl;
    CHECK_NEAR(on[2].dcpl_dh, (c[1] - c[0]) / (2 * step), 1e-5 * fabs(on[2].dcpl_dh));
    p.turnaround_cycles = 0;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 18).cpl == off[0].cpl);
    trapeze_ghostzone_destroy(m);
    trapeze_ghostzone_params h = at_size();
    h.turnaround_cycles = 300;
    trapeze_ghostzone_model *hs = model("data/gpus/gtx480.config", "hotspot", 148, 148, &h);
    double before = eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl;
    h.round_staging = 1;
    trapeze_ghostzone_set_params(hs, &h);
    CHECK_NEAR(eval(hs, TRAPEZE_SYNC_FENCE, 1).cpl - before, 600, 1e-9 * before);
    trapeze_ghostzone_destroy(hs);
}

/* round_setup on HotSpot 148 x 148, GTX 480 (15 SMs, k = 3 resident), the
 * overlap off so that a stage is its terms' sum. At h = 1, T = 9 x 9 = 81
 * tiles, n = ceil(81 / 15) = 6 on the busiest SM, ceil(6 / 3) = 2 rounds:
 * the fitted share phi of the setup (measured here as the per-tile MiscComp
 * at phi = 1 less at phi = 0) is paid 2 times a stage, not 6, so the fence
 * CPL falls by 4 phi setup; a tile's MiscComp is the phi = 0 one to the bit.
 * Between heights (h = 1.5) the rounds are the passes, T / (k M) with
 * Meng's T = 148^2 / 17^2, and the tiles T / M. d/dphi and d/dh against
 * central differences; relaunch untouched; without fence_staging no share. */
static void test_round_setup(void)
{
    trapeze_ghostzone_params p = at_size();
    p.fence_staging = 1;
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = p.value[TRAPEZE_GHOSTZONE_OVERLAP_FENCE] = 0;
    p.value[TRAPEZE_GHOSTZONE_FENCE_MISC] = 0;
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    double misc0 = eval(m, TRAPEZE_SYNC_FENCE, 1).stage[TRAPEZE_GHOSTZONE_MISCCOMP];
    p.value[TRAPEZE_GHOSTZONE_FENCE_MISC] = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval off = eval(m, TRAPEZE_SYNC_FENCE, 1), off15 = eval(m, TRAPEZE_SYNC_FENCE, 1.5);
    double setup = off.stage[TRAPEZE_GHOSTZONE_MISCCOMP] - misc0;
    double relaunch = eval(m, TRAPEZE_SYNC_RELAUNCH, 1).cpl;
    CHECK_NEAR(off.trapezoids, 81, 0);
    CHECK(setup > 0.1 * misc0);
    p.round_setup = 1;
    p.value[TRAPEZE_GHOSTZONE_FENCE_MISC] = 0.5;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval on = eval(m, TRAPEZE_SYNC_FENCE, 1);
    CHECK(on.stage[TRAPEZE_GHOSTZONE_MISCCOMP] == misc0);
    CHECK_NEAR(on.per_loop[TRAPEZE_GHOSTZONE_MISCCOMP], 6 * misc0 + 2 * 0.5 * setup, 1e-9 * on.cpl);
    p.value[TRAPEZE_GHOSTZONE_FENCE_MISC] = 1;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_NEAR(off.cpl - eval(m, TRAPEZE_SYNC_FENCE, 1).cpl, 4 * setup, 1e-9 * off.cpl);
    double tiles = 148.0 * 148.0 / (17.0 * 17.0), passes = tiles / (3 * 15);
    trapeze_ghostzone_eval on15 = eval(m, TRAPEZE_SYNC_FENCE, 1.5);
    CHECK_NEAR(on15.passes, passes, 1e-12);
    CHECK_NEAR(off15.cpl - on15.cpl, setup * (tiles / 15 - passes) / 1.5, 1e-9 * off15.cpl);
    CHECK(eval(m, TRAPEZE_SYNC_RELAUNCH, 1).cpl == relaunch);
    p.value[TRAPEZE_GHOSTZONE_FENCE_MISC] = 0.5;
    check_gradient(m, p, TRAPEZE_GHOSTZONE_FENCE_MISC, TRAPEZE_SYNC_FENCE, 1);
    check_gradient(m, p, TRAPEZE_GHOSTZONE_FENCE_MISC, TRAPEZE_SYNC_FENCE, 1.5);
    double step = 1e-5, c[2];
    for (int i = 0; i < 2; i++)
        c[i] = eval(m, TRAPEZE_SYNC_FENCE, 1.5 + (i ? step : -step)).cpl;
    double dh = eval(m, TRAPEZE_SYNC_FENCE, 1.5).dcpl_dh;
    CHECK_NEAR(dh, (c[1] - c[0]) / (2 * step), 1e-5 * fabs(dh));
    p.fence_staging = 0;
    trapeze_ghostzone_set_params(m, &p);
    double plain = eval(m, TRAPEZE_SYNC_FENCE, 1).cpl;
    p.round_setup = 0;
    trapeze_ghostzone_set_params(m, &p);
    CHECK(eval(m, TRAPEZE_SYNC_FENCE, 1).cpl == plain);
    trapeze_ghostzone_destroy(m);
}

static void test_file_roundtrip(void)
{
    trapeze_ghostzone_params p = at_size(), q;
    trapeze_error err;
    p.fence_overlap = 0;
    p.value[TRAPEZE_GHOSTZONE_TILE_CYCLES] = 81.5;
    p.corr[TRAPEZE_GHOSTZONE_CPI][TRAPEZE_GHOSTZONE_TILE_CYCLES] = p.corr[TRAPEZE_GHOSTZONE_TILE_CYCLES][TRAPEZE_GHOSTZONE_CPI] = -0.625;
    /* a private temporary file: the test may run from any build folder */
    char path[64];
    snprintf(path, sizeof path, "/tmp/trapeze-atsize-%ld.ini", (long)getpid());
    CHECK_OK(trapeze_ghostzone_params_save(path, &p, &err));
    CHECK_OK(trapeze_ghostzone_params_load(path, &q, &err));
    CHECK(q.whole_tiles == 1 && q.occupancy == 1 && q.waves == 1 && q.persistent_fence == 1 &&
          q.fence_overlap == 0 && q.row_penalty == 0 && q.fence_iter == 0);
    CHECK(q.barrier_max == 0);
    CHECK(q.partial_round == 0);
    /* the opt-in switches' parameters, off and at Meng's values, are not
     * written: a calibration made without them keeps its bytes */
    char text[8192] = "";
    FILE *saved = fopen(path, "r");
    CHECK(saved != NULL);
    if (saved) {
        text[fread(text, 1, sizeof text - 1, saved)] = '\0';
        fclose(saved);
    }
    CHECK(strstr(text, "fence_iter_fraction = ") != NULL);
    CHECK(strstr(text, "partial_round_fraction") == NULL && strstr(text, "loop_reread_fraction") == NULL);
    CHECK(strstr(text, "turnaround_cycles") == NULL && q.turnaround_cycles == 0);
    CHECK(strstr(text, "loop_once") == NULL && q.loop_once == 0);
    CHECK(strstr(text, "round_latency") == NULL && q.round_latency == 0);
    CHECK(strstr(text, "round_compute") == NULL && q.round_compute == 0);
    CHECK(strstr(text, "round_staging") == NULL && q.round_staging == 0);
    CHECK(strstr(text, "lone_round") == NULL && q.lone_round == 0);
    p.row_penalty = p.fence_iter = p.barrier_max = p.partial_round = p.loop_reread = p.loop_once = 1;
    p.round_latency = p.round_compute = p.round_staging = p.lone_round = 1;
    p.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] = 0.375;
    p.turnaround_cycles = 297.1015625;
    CHECK_OK(trapeze_ghostzone_params_save(path, &p, &err));
    CHECK_OK(trapeze_ghostzone_params_load(path, &q, &err));
    CHECK(q.row_penalty == 1 && q.fence_iter == 1 && q.barrier_max == 1 && q.partial_round == 1 &&
          q.loop_reread == 1 && q.loop_once == 1 && q.round_latency == 1 && q.round_compute == 1 &&
          q.round_staging == 1 && q.lone_round == 1);
    CHECK(q.value[TRAPEZE_GHOSTZONE_PARTIAL_ROUND] == 0.375 && q.turnaround_cycles == 297.1015625);
    CHECK(q.value[TRAPEZE_GHOSTZONE_TILE_CYCLES] == 81.5);
    CHECK(q.corr[TRAPEZE_GHOSTZONE_TILE_CYCLES][TRAPEZE_GHOSTZONE_CPI] == -0.625);
    CHECK(q.corr[TRAPEZE_GHOSTZONE_CPI][TRAPEZE_GHOSTZONE_TILE_CYCLES] == -0.625);
    FILE *f = fopen(path, "w");
    fprintf(f, "[correlation]\ncpi,cpi = 0.5\n");
    fclose(f);
    CHECK(trapeze_ghostzone_params_load(path, &q, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":2: [correlation] cpi,cpi") != NULL);
    f = fopen(path, "w");
    fprintf(f, "[correlation]\ncpi,mu = 1.5\n");
    fclose(f);
    CHECK(trapeze_ghostzone_params_load(path, &q, &err) != TRAPEZE_OK);
    remove(path);
}

/* The relaunch turnaround, HotSpot 148^2 on the GTX 480 at h = 2: on 32x32
 * blocks one is resident (1,024 threads of 1,536), nothing hides a tile's
 * turnaround and MiscComp gains all of it; on the spec's 20x20 blocks three
 * are, and two tiles' compute hide all of a small turnaround and part of a
 * large one; fences never pay it. */
static void test_turnaround(void)
{
    trapeze_ghostzone_params p = at_size();
    trapeze_gpu g = fixture_gpu_of("data/gpus/gtx480.config");
    trapeze_ghostzone_model *m = model("data/gpus/gtx480.config", "hotspot", 148, 148, &p);
    CHECK(trapeze_ghostzone_occupancy(&g, trapeze_ghostzone_workload(m), 32) == 1);
    CHECK(trapeze_ghostzone_occupancy(&g, trapeze_ghostzone_workload(m), 20) == 3);
    trapeze_ghostzone_eval base[2], fence[2], e;
    for (int i = 0; i < 2; i++) {
        CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 2, i ? 20 : 32, &base[i], NULL));
        CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_FENCE, 2, i ? 20 : 32, &fence[i], NULL));
    }
    p.turnaround_cycles = 300;
    trapeze_ghostzone_set_params(m, &p);
    /* 32x32: output edge 28, 6 x 6 = 36 tiles, 3 on the busiest SM: 300 x 3 / 2 a loop
     * (omega = 0: no overlap factor) */
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 2, 32, &e, NULL));
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_MISCCOMP] - base[0].stage[TRAPEZE_GHOSTZONE_MISCCOMP], 300, 1e-9);
    CHECK_NEAR(e.cpl - base[0].cpl, 300.0 * 3 / 2, 1e-9 * e.cpl);
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_FENCE, 2, 32, &e, NULL));
    CHECK(e.cpl == fence[0].cpl);
    /* 20x20: two tiles of compute (thousands of cycles) hide 300 cycles to the bit */
    double cpt = base[1].stage[TRAPEZE_GHOSTZONE_MISCCOMP] + base[1].stage[TRAPEZE_GHOSTZONE_ITERCOMP];
    CHECK(2 * cpt > 300);
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 2, 20, &e, NULL));
    CHECK(e.cpl == base[1].cpl);
    /* a turnaround longer than they cover: the rest, 3 cpt - 2 cpt of it exposed */
    p.turnaround_cycles = 3 * cpt;
    trapeze_ghostzone_set_params(m, &p);
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 2, 20, &e, NULL));
    CHECK_NEAR(e.stage[TRAPEZE_GHOSTZONE_MISCCOMP] - base[1].stage[TRAPEZE_GHOSTZONE_MISCCOMP], cpt, 1e-9 * cpt);
    /* there the exposure falls as the CPI rises: its partial against central differences */
    trapeze_ghostzone_eval grad;
    CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 2, 20, &grad, NULL));
    double cpi = p.value[TRAPEZE_GHOSTZONE_CPI], step = 1e-4 * cpi, cpl[2];
    for (int i = 0; i < 2; i++) {
        p.value[TRAPEZE_GHOSTZONE_CPI] = cpi + (i ? step : -step);
        trapeze_ghostzone_set_params(m, &p);
        CHECK_OK(trapeze_ghostzone_evaluate(m, TRAPEZE_SYNC_RELAUNCH, 2, 20, &e, NULL));
        cpl[i] = e.cpl;
    }
    double fd = (cpl[1] - cpl[0]) / (2 * step);
    CHECK_NEAR(grad.dcpl_dparam[TRAPEZE_GHOSTZONE_CPI], fd, 1e-5 * fabs(fd));
    trapeze_ghostzone_destroy(m);
}

int main(void)
{
    test_occupancy();
    test_waves();
    test_fence_barrier();
    test_tile_costs();
    test_gradients();
    test_row_penalty_fence_iter();
    test_fence_issue();
    test_fence_iter_hidden();
    test_fence_overlap_loads();
    test_partial_round();
    test_loop_reread();
    test_loop_once();
    test_round_latency();
    test_round_compute();
    test_lone_round();
    test_round_spin();
    test_spin_staging();
    test_round_tiles();
    test_round_staging();
    test_round_setup();
    test_turnaround();
    test_verify_order();
    test_verify_search();
    test_verify_search_both_modes();
    test_file_roundtrip();
    return check_report("test_gz_atsize");
}
