/*
 * bench_dws.c - Dynamic Warp Subdivision's trend table (printed, never
 * asserted): the divergent built-ins (filter, kmeans) and two regular ones
 * (jacobi, matmul) under the baseline and each policy set of data/dws/, on a
 * WPU close to the seed's (data/dws/meng-wpu.config over the GTX 480) and on
 * the GTX 480 and V100 presets: speed-ups over the baseline, their harmonic
 * mean beside the seed's published figure, the memory-stall share and the
 * active lanes per warp instruction, and ReviveSplit's speed-up as the L2
 * latency grows from 10 to 300 cycles.
 *
 * Robust SIMD's table (seed ch. 7, Table 7.3; `bench_dws rsimd` prints it alone): each kernel on a grid of
 * fixed (width x depth) organizations, the best fixed one over all kernels
 * (harmonic mean), each kernel's optimum on the grid, and the adaptive
 * Robust SIMD and RobustDWS, as speed-ups over whole warps all active.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "bench/bench_common.h"

typedef struct policy {
    const char *name, *file;   /* file: the data/dws/ overlay, NULL for the baseline */
    const char *seed;          /* the seed's harmonic-mean speed-up (Fig. 6.13) */
} policy;

static const policy policies[] = {
    {"Conv", NULL, "1.00"},
    {"BranchOnly", "data/dws/branch-only.config", "1.13"},
    {"Revive.MemOnly", "data/dws/revive-memonly.config", "1.20"},
    {"Aggress", "data/dws/aggress.config", "<1"},
    {"Lazy", "data/dws/lazy.config", "<1"},
    {"Revive.Limited", "data/dws/revive-limited.config", "~1"},
    {"Revive", "data/dws/revive.config", "1.71"},
};
#define N_POL (int)(sizeof policies / sizeof policies[0])

typedef struct bench_kernel {
    const char *name;
    int argc;
    const char *argv[3];
} bench_kernel;

static const bench_kernel kernels[] = {
    {"filter", 2, {"w=512", "h=512"}},
    {"kmeans", 3, {"points=2048", "dims=40", "k=4"}},
    {"jacobi", 2, {"nx=512", "ny=512"}},
    {"matmul", 1, {"n=128"}},
};
#define N_KER (int)(sizeof kernels / sizeof kernels[0])

/* Runs kernel k on the comma list of config files `cfgs`; 0 on success. */
static int run(const char *cfgs, const bench_kernel *k, sim_kernel_stats *st)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    if (trapeze_config_load(cfgs, &cfg, &err)) {
        fprintf(stderr, "bench_dws: %s\n", err.message);
        return 1;
    }
    sim_gpu *g;
    sim_kernel *kern;
    trapeze_status s = bench_builtin(cfg, k->name, k->argc, (char **)k->argv, &g, &kern, &err);
    if (!s) {
        s = sim_gpu_run(g, kern, st, &err);
        sim_kernel_destroy(kern);
        sim_gpu_destroy(g);
    }
    trapeze_config_destroy(cfg);
    if (s)
        fprintf(stderr, "bench_dws: %s on %s: %s\n", k->name, cfgs, err.message);
    return s != TRAPEZE_OK;
}

static double stall_share(const sim_sm_stats *t)
{
    uint64_t slots = t->issue_slots;
    for (int i = 0; i < SIM_STALL_COUNT; i++)
        slots += t->stall[i];
    return slots ? (double)t->stall[SIM_STALL_MEMORY] / (double)slots : 0.0;
}

static double lanes(const sim_sm_stats *t)
{
    return t->warp_insts ? (double)t->thread_insts / (double)t->warp_insts : 0.0;
}

/* The table of one GPU (base: its config files, comma-separated). */
static int table(const char *title, const char *base)
{
    printf("\n%s (%s)\n%-8s", title, base, "kernel");
    for (int p = 0; p < N_POL; p++)
        printf(" %15s", policies[p].name);
    printf("   mem stall Conv->Revive   lanes/inst Conv->Revive\n");
    double inv[N_POL] = {0};
    for (int k = 0; k < N_KER; k++) {
        sim_kernel_stats st;
        uint64_t conv = 0;
        double share[2] = {0}, lane[2] = {0};
        printf("%-8s", kernels[k].name);
        for (int p = 0; p < N_POL; p++) {
            char cfgs[512];
            snprintf(cfgs, sizeof cfgs, "%s%s%s", base, policies[p].file ? "," : "",
                     policies[p].file ? policies[p].file : "");
            if (run(cfgs, &kernels[k], &st))
                return 1;
            if (p == 0)
                conv = st.cycles;
            double up = st.cycles ? (double)conv / (double)st.cycles : 0.0;
            inv[p] += 1.0 / up;
            printf(" %15.3f", up);
            if (p == 0 || p == N_POL - 1) {
                share[p != 0] = stall_share(&st.total);
                lane[p != 0] = lanes(&st.total);
            }
            sim_kernel_stats_free(&st);
        }
        printf("   %5.1f%% -> %5.1f%%           %4.1f -> %4.1f\n", 100 * share[0], 100 * share[1],
               lane[0], lane[1]);
    }
    printf("%-8s", "h-mean");
    for (int p = 0; p < N_POL; p++)
        printf(" %15.3f", N_KER / inv[p]);
    printf("\n%-8s", "seed");
    for (int p = 0; p < N_POL; p++)
        printf(" %15s", policies[p].seed);
    printf("   (76%% -> 36%%; 14 -> 4 of 16 lanes)\n");
    return 0;
}

/* ReviveSplit's speed-up on filter as the L2 latency grows (seed Fig. 6.15:
 * DWS's gain grows from 10 to 300 cycles). */
static int latency_sweep(const char *base)
{
    static const int lat[] = {10, 100, 300};
    printf("\nReviveSplit on filter vs L2 latency (%s): ", base);
    for (int i = 0; i < 3; i++) {
        char path[] = "/tmp/bench_dws_XXXXXX";
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f)
            return 1;
        fprintf(f, "-gpgpu_l2_rop_latency %d\n", lat[i]);
        fclose(f);
        char conv[512], dws[512];
        snprintf(conv, sizeof conv, "%s,%s", base, path);
        snprintf(dws, sizeof dws, "%s,%s,data/dws/revive.config", base, path);
        sim_kernel_stats a, b;
        int bad = run(conv, &kernels[0], &a) || run(dws, &kernels[0], &b);
        remove(path);
        if (bad)
            return 1;
        printf("%s%d cycles %.3fx", i ? ", " : "", lat[i], (double)a.cycles / (double)b.cycles);
        sim_kernel_stats_free(&a);
        sim_kernel_stats_free(&b);
    }
    printf(" (seed: grows with latency)\n");
    return 0;
}

/* ---- Robust SIMD ---- */

static const bench_kernel rs_kernels[] = {
    {"filter", 2, {"w=256", "h=256"}},
    {"kmeans", 3, {"points=16384", "dims=8", "k=4"}},
    {"jacobi", 2, {"nx=256", "ny=256"}},
    {"matmul", 1, {"n=128"}},
};
#define RS_KER (int)(sizeof rs_kernels / sizeof rs_kernels[0])
#define RS_WINDOW 4000L   /* warp instructions of each model sample */
#define RS_W 4
#define RS_T 3
static const int rs_width[RS_W] = {32, 16, 8, 4};
static const int rs_threads[RS_T] = {64, 128, 256};   /* active threads W x D per SM */

/* Runs k on base plus the option lines `opts`; returns its cycles (0: failed). */
static uint64_t run_opts(const char *base, const char *opts, const bench_kernel *k,
                         sim_kernel_stats *keep)
{
    char path[] = "/tmp/bench_rsimd_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return 0;
    fputs(opts, f);
    fclose(f);
    char cfgs[512];
    snprintf(cfgs, sizeof cfgs, "%s,%s", base, path);
    sim_kernel_stats st;
    int bad = run(cfgs, k, &st);
    remove(path);
    if (bad)
        return 0;
    uint64_t c = st.cycles;
    if (keep)
        *keep = st;
    else
        sim_kernel_stats_free(&st);
    return c;
}

/* k's speed-up up[i] over 32 x all at each organization of the grid (W
 * rs_width[i / RS_T], rs_threads[i % RS_T] threads); *best its fastest,
 * *insts the warp instructions of 32 x all. Returns its cycles, 0: failed. */
static uint64_t grid(const char *base, const bench_kernel *k, double *up, int *best,
                     uint64_t *insts)
{
    sim_kernel_stats cs;
    uint64_t conv = run_opts(base, "\n", k, &cs);
    if (!conv)
        return 0;
    *insts = cs.total.warp_insts;
    sim_kernel_stats_free(&cs);
    *best = 0;
    for (int i = 0; i < RS_W * RS_T; i++) {
        int w = rs_width[i / RS_T];
        char o[128];
        snprintf(o, sizeof o, "-trapeze_rsimd_width %d\n-trapeze_rsimd_depth %d\n", w,
                 rs_threads[i % RS_T] / w);
        uint64_t c = run_opts(base, o, k, NULL);
        if (!c)
            return 0;
        up[i] = (double)conv / (double)c;
        *best = up[i] > up[*best] ? i : *best;
    }
    return conv;
}

/* The width-and-depth model's pick for k on the grid, from two samples of
 * RS_WINDOW warp instructions at full width (trapeze_simd_decide: all 8
 * warps, 2 of them per SM; its grid is this one); line: what it is worth
 * against the grid's simulated speed-ups up. Returns its index, -1 when a
 * run failed. */
static int model_pick(const char *base, const bench_kernel *k, const double *up, int best,
                      uint64_t conv_insts, char line[160])
{
    trapeze_simd_kernel *sk = NULL;
    trapeze_simd_decision d;
    trapeze_error err;
    trapeze_status s = trapeze_simd_kernel_builtin(base, k->name, (char *const *)k->argv,
                                                   k->argc, &sk, &err);
    if (!s)
        s = trapeze_simd_decide(sk, RS_WINDOW, &d, &err);
    trapeze_simd_kernel_destroy(sk);
    if (s || d.width[RS_W * RS_T - 1] != rs_width[RS_W - 1] ||
        d.width[0] * d.depth[0] != rs_threads[0]) {
        fprintf(stderr, "bench_dws: %s: %s\n", k->name, s ? err.message : "another grid");
        return -1;
    }
    int pick = d.pick;
    snprintf(line, 160, "%-8s model picks %2dx%-2d: %.3f, %.1f%% of the optimum (%dx%d); samples "
             "%.0f%% of one run's warp instructions", k->name, d.width[pick], d.depth[pick],
             up[pick], 100 * up[pick] / up[best], d.width[best], d.depth[best],
             100.0 * 2 * RS_WINDOW / (double)conv_insts);
    return pick;
}

/* Kernels the model's form was not revised on (bench_dws rsimd: the model's
 * lines after the table). */
static const bench_kernel held_out[] = {
    {"kmeans", 3, {"points=2048", "dims=40", "k=4"}},
    {"strided", 2, {"n=65536", "stride=8"}},
    {"matmul_tiled", 2, {"n=128", "tile=16"}},
};
#define N_HELD (int)(sizeof held_out / sizeof held_out[0])

static int model_held_out(const char *base)
{
    double inv = 0, opt_inv = 0;
    printf("  held out (the model's form was not revised on these):\n");
    for (int k = 0; k < N_HELD; k++) {
        double up[RS_W * RS_T];
        int best;
        uint64_t insts;
        char line[160];
        if (!grid(base, &held_out[k], up, &best, &insts))
            return 1;
        int pick = model_pick(base, &held_out[k], up, best, insts, line);
        if (pick < 0)
            return 1;
        printf("  %s\n", line);
        inv += 1.0 / up[pick];
        opt_inv += 1.0 / up[best];
    }
    printf("  h-mean of its held-out picks %.3f, %.1f%% of the optimum %.3f\n", N_HELD / inv,
           100 * opt_inv / inv, N_HELD / opt_inv);
    return 0;
}

static int rsimd_table(const char *title, const char *base)
{
    double up[RS_KER][RS_W * RS_T], inv[RS_W * RS_T] = {0};
    double opt_inv = 0, rs_inv = 0, rd_inv = 0, md_inv = 0;
    char model_lines[RS_KER][160];
    printf("\nRobust SIMD, %s (%s): speed-up over 32 x all\n%-8s %9s %12s %9s %10s %10s %13s  %s\n",
           title, base, "kernel", "Conv", "optimum", "at", "RobustSIMD", "RobustDWS",
           "intervals", "adapted to (widest x deepest SM)");
    for (int k = 0; k < RS_KER; k++) {
        const bench_kernel *bk = &rs_kernels[k];
        uint64_t conv_insts;
        int best;
        uint64_t conv = grid(base, bk, up[k], &best, &conv_insts);
        if (!conv)
            return 1;
        for (int i = 0; i < RS_W * RS_T; i++)
            inv[i] += 1.0 / up[k][i];
        sim_kernel_stats a, d;
        uint64_t rs = run_opts(base, "-trapeze_rsimd_adapt 1\n", bk, &a);
        uint64_t rd = run_opts(base, "-trapeze_rsimd_dws 1\n-trapeze_dws_branch 1\n"
                                     "-trapeze_dws_mem revive\n-trapeze_dws_reconv bypass\n",
                               bk, &d);
        if (!rs || !rd)
            return 1;
        double urs = (double)conv / (double)rs, urd = (double)conv / (double)rd;
        int pick = model_pick(base, bk, up[k], best, conv_insts, model_lines[k]);
        if (pick < 0)
            return 1;
        md_inv += 1.0 / up[k][pick];
        opt_inv += 1.0 / up[k][best];
        rs_inv += 1.0 / urs;
        rd_inv += 1.0 / urd;
        char at[32];
        snprintf(at, sizeof at, "%dx%d", rs_width[best / RS_T],
                 rs_threads[best % RS_T] / rs_width[best / RS_T]);
        printf("%-8s %9.3f %12.3f %9s %10.3f %10.3f %6" PRIu64 "/%-6" PRIu64 "  %" PRIu64
               "x%" PRIu64 ", DWS kept on %" PRIu64 " SMs\n",
               bk->name, 1.0, up[k][best], at, urs, urd, a.total.rsimd_intervals,
               d.total.rsimd_intervals, a.total.rsimd_width, a.total.rsimd_depth,
               d.total.rsimd_dws_kept);
        sim_kernel_stats_free(&a);
        sim_kernel_stats_free(&d);
    }
    int bf = 0;
    for (int i = 1; i < RS_W * RS_T; i++)
        bf = inv[i] < inv[bf] ? i : bf;
    double hbf = RS_KER / inv[bf], hopt = RS_KER / opt_inv, hrs = RS_KER / rs_inv,
           hrd = RS_KER / rd_inv;
    printf("h-mean: best fixed %dx%d %.3f, optimum %.3f, RobustSIMD %.3f (%+.0f%% over the "
           "best fixed, %.0f%% of the optimum), RobustDWS %.3f (%.0f%% of the optimum)\n",
           rs_width[bf / RS_T], rs_threads[bf % RS_T] / rs_width[bf / RS_T], hbf, hopt, hrs,
           100 * (hrs / hbf - 1), 100 * hrs / hopt, hrd, 100 * hrd / hopt);
    printf("seed (Table 7.3, 32 KB): RobustSIMD +17%% over the best fixed (8x4), 98%% of the "
           "optimum; RobustDWS 99%%\n");
    printf("width-and-depth model (model/simd.c), from two samples per kernel, against the "
           "%d simulated organizations:\n", RS_W * RS_T);
    for (int k = 0; k < RS_KER; k++)
        printf("  %s\n", model_lines[k]);
    printf("  h-mean of its picks %.3f, %.1f%% of the optimum\n", RS_KER / md_inv,
           100 * (RS_KER / md_inv) / hopt);
    return model_held_out(base);
}

int main(int argc, char **argv)
{
    const char *meng = "data/gpus/gtx480.config,data/dws/meng-wpu.config";
    if (argc > 1 && !strcmp(argv[1], "rsimd"))   /* Robust SIMD's table alone */
        return rsimd_table("seed-like WPU", meng) != 0;
    printf("Dynamic Warp Subdivision: speed-up over the same GPU without it "
           "(seed: Meng ch. 6, Fig. 6.13, harmonic means)\n");
    if (table("seed-like WPU: 4 SMs x 8 warps, 32 KB 8-way L1, L2 30 + memory 100 cycles",
              meng) ||
        table("GTX 480", "data/gpus/gtx480.config") || table("V100", "data/gpus/v100.config") ||
        latency_sweep(meng) || rsimd_table("seed-like WPU", meng))
        return 1;
    return 0;
}
