/*
 * bench_dws.c - Dynamic Warp Subdivision's trend table (printed, never
 * asserted): the divergent built-ins (filter, kmeans) and two regular ones
 * (jacobi, matmul) under the baseline and each policy set of data/dws/, on a
 * WPU close to the seed's (data/dws/meng-wpu.config over the GTX 480) and on
 * the GTX 480 and V100 presets: speed-ups over the baseline, their harmonic
 * mean beside the seed's published figure, the memory-stall share and the
 * active lanes per warp instruction, and ReviveSplit's speed-up as the L2
 * latency grows from 10 to 300 cycles.
 */
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

int main(void)
{
    printf("Dynamic Warp Subdivision: speed-up over the same GPU without it "
           "(seed: Meng ch. 6, Fig. 6.13, harmonic means)\n");
    const char *meng = "data/gpus/gtx480.config,data/dws/meng-wpu.config";
    if (table("seed-like WPU: 4 SMs x 8 warps, 32 KB 8-way L1, L2 30 + memory 100 cycles",
              meng) ||
        table("GTX 480", "data/gpus/gtx480.config") || table("V100", "data/gpus/v100.config") ||
        latency_sweep(meng))
        return 1;
    return 0;
}
