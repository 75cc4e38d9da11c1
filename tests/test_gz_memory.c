/*
 * Tests of the two memory-term switches of the ghost-zone model that the
 * unseen stencils' errors led to (docs/calibration.md, "Box9 and Multi1D"):
 * row_lines (each memory term pays the coalesced segments its tile rows
 * touch) and mem_latency (a memory term is the 4-norm of its latency and
 * bandwidth parts, not their sum). Hand-computed factors and stage values,
 * Meng's terms to the bit when off, and every parameter's, h's and the
 * block's derivative against central finite differences.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture.h"
#include "model/ghostzone.h"
#include "trapeze.h"

static trapeze_workload workload(const char *name, double x, double y)
{
    char path[128];
    trapeze_workload w;
    trapeze_error err;
    snprintf(path, sizeof path, "data/workloads/%s.ini", name);
    CHECK_OK(trapeze_workload_load(path, &w, &err));
    w.data_len[0] = x;
    if (w.dims > 1)
        w.data_len[1] = y;
    return w;
}

static trapeze_ghostzone_model *model(const char *name, double x, double y, const trapeze_ghostzone_params *p)
{
    trapeze_gpu g = fixture_gpu_of("data/gpus/gtx480.config");
    trapeze_workload w = workload(name, x, y);
    trapeze_ghostzone_model *m = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_ghostzone_create(&g, &w, p, &m, &err));
    return m;
}

static trapeze_ghostzone_eval eval_at(const trapeze_ghostzone_model *m, trapeze_sync sync, double h, double blk)
{
    trapeze_ghostzone_eval e;
    memset(&e, 0, sizeof e);
    CHECK_OK(trapeze_ghostzone_evaluate(m, sync, h, blk, &e, NULL));
    return e;
}

static trapeze_ghostzone_params meng_flat(void)
{
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    p.value[TRAPEZE_GHOSTZONE_OVERLAP] = 0; /* Meng's sum: stages unscaled */
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 0;
    p.value[TRAPEZE_GHOSTZONE_SIGMA] = 1.5;
    return p;
}

/* Segments by hand: a row of n 4-byte elements starting at element offset
 * o of a 128-byte (32-element) segment touches ceil((o + n) / 32). */
static void test_row_lines_factor(void)
{
    trapeze_gpu fermi = fixture_gpu_of("data/gpus/gtx480.config"), tesla = fixture_gpu_of("data/gpus/gtx280.config");
    trapeze_workload box = workload("box9", 266, 266), line = workload("multi1d", 26040, 1);
    CHECK(fermi.coalesce_degree == 32 && tesla.coalesce_degree == 16);
    CHECK_NEAR(gz_row_lines(&fermi, &box, 16), 47.0 / 16, 1e-12); /* 17 x 1 + 15 x 2 segments */
    CHECK_NEAR(gz_row_lines(&fermi, &box, 8), 39.0 / 8, 1e-12);   /* 25 x 1 + 7 x 2 */
    CHECK_NEAR(gz_row_lines(&fermi, &box, 20), 51.0 / 20, 1e-12); /* 13 x 1 + 19 x 2 */
    CHECK_NEAR(gz_row_lines(&fermi, &box, 32), 63.0 / 32, 1e-12); /* aligned only at offset 0 */
    CHECK_NEAR(gz_row_lines(&tesla, &box, 16), 31.0 / 16, 1e-12); /* 64-byte segments: 1 + 15 x 2 of 16 */
    CHECK(gz_row_lines(&fermi, &line, 128) == 1.0);                /* 1-D: one contiguous stream */
    /* longer rows waste less: the factor falls toward 1 */
    for (int n = 8; n < 256; n += 8)
        CHECK(gz_row_lines(&fermi, &box, n + 8) < gz_row_lines(&fermi, &box, n));
    CHECK(gz_row_lines(&fermi, &box, 1024) < 1.04);
}

/* In the model: LoadSten times the staged row's factor (16), Commit times the
 * output row's (16 - 2h), compute untouched; off, or in 1-D, bit-identical. */
static void test_row_lines_terms(void)
{
    trapeze_gpu g = fixture_gpu_of("data/gpus/gtx480.config");
    trapeze_ghostzone_params p = meng_flat();
    trapeze_ghostzone_model *m = model("box9", 266, 266, &p);
    trapeze_ghostzone_eval off = eval_at(m, TRAPEZE_SYNC_RELAUNCH, 2, 16);
    p.row_lines = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval on = eval_at(m, TRAPEZE_SYNC_RELAUNCH, 2, 16);
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    CHECK_NEAR(on.stage[TRAPEZE_GHOSTZONE_LOADSTEN], off.stage[TRAPEZE_GHOSTZONE_LOADSTEN] * 47.0 / 16,
               1e-12 * on.stage[TRAPEZE_GHOSTZONE_LOADSTEN]);
    CHECK_NEAR(on.stage[TRAPEZE_GHOSTZONE_COMMIT], off.stage[TRAPEZE_GHOSTZONE_COMMIT] * gz_row_lines(&g, w, 12),
               1e-12 * on.stage[TRAPEZE_GHOSTZONE_COMMIT]);
    CHECK_NEAR(gz_row_lines(&g, w, 12), 1.0 * (21 * 1 + 11 * 2) / 32 * 32 / 12, 1e-12);
    CHECK(on.stage[TRAPEZE_GHOSTZONE_ITERCOMP] == off.stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    CHECK(on.stage[TRAPEZE_GHOSTZONE_MISCCOMP] == off.stage[TRAPEZE_GHOSTZONE_MISCCOMP]);
    trapeze_ghostzone_destroy(m);
    p.row_lines = 0;
    trapeze_ghostzone_model *l = model("multi1d", 26040, 1, &p);
    double before = eval_at(l, TRAPEZE_SYNC_FENCE, 3, 128).cpl;
    p.row_lines = 1;
    trapeze_ghostzone_set_params(l, &p);
    CHECK(eval_at(l, TRAPEZE_SYNC_FENCE, 3, 128).cpl == before);
    trapeze_ghostzone_destroy(l);
}

/* mem_latency: each memory term is (L^4 + B^4)^(1/4), L = passes x UL, B the
 * bandwidth part; between max(L, B) and L + B, increasing in UL, B with a
 * flat slope in UL at UL = 0, and Meng's sum L + B with the switch off. */
static void test_mem_latency_terms(void)
{
    trapeze_ghostzone_params p = meng_flat();
    p.occupancy = 1;
    trapeze_ghostzone_model *m = model("box9", 1064, 1064, &p);
    trapeze_ghostzone_eval bw = eval_at(m, TRAPEZE_SYNC_FENCE, 1, 16); /* UL = 0: B alone */
    p.mem_latency = 1;
    trapeze_ghostzone_set_params(m, &p);
    trapeze_ghostzone_eval same = eval_at(m, TRAPEZE_SYNC_FENCE, 1, 16);
    CHECK(same.cpl == bw.cpl);
    /* at UL = 0 the norm's slope in UL is its limit, 0 (the sum's would be passes) */
    CHECK(same.dcpl_dparam[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] == 0 && bw.dcpl_dparam[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] > 0);
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 1e-3; /* and just above 0, almost 0 */
    trapeze_ghostzone_set_params(m, &p);
    CHECK(fabs(eval_at(m, TRAPEZE_SYNC_FENCE, 1, 16).dcpl_dparam[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT]) <
          1e-9 * bw.dcpl_dparam[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT]);
    p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = 0;
    trapeze_ghostzone_set_params(m, &p);
    /* 1064^2 over 14^2 output tiles: 76^2 = 5776 tiles, 6 resident x 15 SMs */
    CHECK(bw.trapezoids == 5776);
    CHECK_NEAR(bw.passes, 5776.0 / 90, 1e-9);
    double prev = bw.cpl;
    for (double ul = 200; ul <= 3200; ul *= 2) {
        p.value[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] = ul;
        trapeze_ghostzone_set_params(m, &p);
        trapeze_ghostzone_eval e = eval_at(m, TRAPEZE_SYNC_FENCE, 1, 16);
        double lat = 5776.0 / 90 * ul;
        for (int c = TRAPEZE_GHOSTZONE_LOADSTEN; c <= TRAPEZE_GHOSTZONE_COMMIT; c++) {
            double b = bw.stage[c], want = pow(pow(lat, 4) + pow(b, 4), 0.25);
            CHECK_NEAR(e.stage[c], want, 1e-12 * want); /* one array: LoadSten is one term */
            CHECK(e.stage[c] >= fmax(lat, b) && e.stage[c] <= lat + b);
        }
        CHECK(e.cpl > prev);
        prev = e.cpl;
        p.mem_latency = 0;
        trapeze_ghostzone_set_params(m, &p);
        CHECK_NEAR(eval_at(m, TRAPEZE_SYNC_FENCE, 1, 16).stage[TRAPEZE_GHOSTZONE_COMMIT],
                   lat + bw.stage[TRAPEZE_GHOSTZONE_COMMIT], 1e-12 * (lat + bw.stage[TRAPEZE_GHOSTZONE_COMMIT]));
        p.mem_latency = 1;
    }
    trapeze_ghostzone_destroy(m);
}

/* Both switches on, the at-size ones too: every parameter's derivative, h's
 * and the block's against central differences, both modes, between whole
 * heights and blocks (the segment counts' steps fall at whole rows). */
static void test_gradients(void)
{
    trapeze_ghostzone_params p;
    trapeze_ghostzone_params_default(&p);
    p.occupancy = p.fence_overlap = p.fence_staging = p.row_penalty = p.fence_iter = 1;
    p.row_lines = p.mem_latency = 1;
    double set[][2] = {{TRAPEZE_GHOSTZONE_UNCONTENDED_LAT, 600}, {TRAPEZE_GHOSTZONE_SIGMA, 1.3},
                       {TRAPEZE_GHOSTZONE_MU, 1}, {TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, 2},
                       {TRAPEZE_GHOSTZONE_RELAUNCH, 4000}, {TRAPEZE_GHOSTZONE_CPI, 0.52},
                       {TRAPEZE_GHOSTZONE_BW_FRACTION, 0.66}, {TRAPEZE_GHOSTZONE_FENCE_BARRIER, 600},
                       {TRAPEZE_GHOSTZONE_OVERLAP, 0.8}, {TRAPEZE_GHOSTZONE_TILE_CYCLES, 20},
                       {TRAPEZE_GHOSTZONE_FENCE_MISC, 0.2}, {TRAPEZE_GHOSTZONE_FENCE_POLL, 0.01},
                       {TRAPEZE_GHOSTZONE_OVERLAP_FENCE, 0.7}, {TRAPEZE_GHOSTZONE_HALO_REREAD, 0.8},
                       {TRAPEZE_GHOSTZONE_FENCE_ITER, 0.2}};
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        p.value[(int)set[i][0]] = set[i][1];
    const char *names[] = {"box9", "star7"};
    for (int wi = 0; wi < 2; wi++) {
        trapeze_ghostzone_model *m = model(names[wi], 266, 266, &p);
        double blk = wi == 0 ? 16.3 : 8.3, h = wi == 0 ? 2.5 : 1.5;
        for (int s = 0; s < 2; s++) {
            trapeze_ghostzone_eval e = eval_at(m, (trapeze_sync)s, h, blk);
            for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
                if (k == TRAPEZE_GHOSTZONE_BLOCKS_PER_SM || k == TRAPEZE_GHOSTZONE_BETA)
                    continue; /* occupancy replaces the one; tau is off for the other */
                trapeze_ghostzone_params q = p;
                /* 1e-4: the 4-norms of terms near 1e7 cancel below it */
                double step = 1e-4 * (fabs(p.value[k]) + 1e-3);
                q.value[k] = p.value[k] + step;
                trapeze_ghostzone_set_params(m, &q);
                double up = eval_at(m, (trapeze_sync)s, h, blk).cpl;
                q.value[k] = p.value[k] - step;
                trapeze_ghostzone_set_params(m, &q);
                double down = eval_at(m, (trapeze_sync)s, h, blk).cpl;
                trapeze_ghostzone_set_params(m, &p);
                double fd = (up - down) / (2 * step);
                CHECK_NEAR(e.dcpl_dparam[k], fd, 1e-5 * (fabs(fd) + 1e-6 * e.cpl));
            }
            double step = 1e-6;
            double fh = (eval_at(m, (trapeze_sync)s, h + step, blk).cpl -
                         eval_at(m, (trapeze_sync)s, h - step, blk).cpl) / (2 * step);
            CHECK_NEAR(e.dcpl_dh, fh, 1e-5 * fabs(fh) + 1e-9 * e.cpl);
            double fb = (eval_at(m, (trapeze_sync)s, h, blk + step).cpl -
                         eval_at(m, (trapeze_sync)s, h, blk - step).cpl) / (2 * step);
            CHECK_NEAR(e.dcpl_dblk, fb, 1e-5 * fabs(fb) + 1e-9 * e.cpl);
            CHECK(e.dcpl_dparam[TRAPEZE_GHOSTZONE_UNCONTENDED_LAT] > 0); /* the latency counts now */
        }
        trapeze_ghostzone_destroy(m);
    }
}

static void test_file_roundtrip(void)
{
    trapeze_ghostzone_params p, q;
    trapeze_error err;
    trapeze_ghostzone_params_default(&p);
    p.row_lines = 1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/trapeze-gzmem-%ld.ini", (long)getpid());
    CHECK_OK(trapeze_ghostzone_params_save(path, &p, &err));
    CHECK_OK(trapeze_ghostzone_params_load(path, &q, &err));
    CHECK(q.row_lines == 1 && q.mem_latency == 0);
    p.row_lines = 0;
    p.mem_latency = 1;
    CHECK_OK(trapeze_ghostzone_params_save(path, &p, &err));
    CHECK_OK(trapeze_ghostzone_params_load(path, &q, &err));
    CHECK(q.row_lines == 0 && q.mem_latency == 1);
    FILE *f = fopen(path, "w");
    fprintf(f, "[ghostzone]\nmem_latency = 2\n");
    fclose(f);
    CHECK(trapeze_ghostzone_params_load(path, &q, &err) != TRAPEZE_OK);
    CHECK(strstr(err.message, ":2:") != NULL && strstr(err.message, "mem_latency") != NULL);
    remove(path);
}

int main(void)
{
    test_row_lines_factor();
    test_row_lines_terms();
    test_mem_latency_terms();
    test_gradients();
    test_file_roundtrip();
    return check_report("test_gz_memory");
}
