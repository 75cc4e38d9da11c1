/*
 * bench_energy.c - energy figures (printed, never asserted):
 *  1. the seeds' trend checks on the GTX 480 beside the seeds' numbers: Snooze
 *     leakage energy remaining at bank and line level for the L1D and L2
 *     (seed 004 Fig. 5.11, Fermi), Slumber vs drowsy-after-access register
 *     file leakage saving (94% vs 85%), Slumber's performance penalty
 *     (1.2%), and the share of register idle periods longer than 16 cycles
 *     (over 75%), on the seeds' built-in kernels and the four stencils;
 *  2. simulation speed of Jacobi 2048x2048 on the GTX 480 with energy
 *     accounting and sleep policies off and on (target >= 1,000,000 warp
 *     instructions per second with them on);
 *  3. peak memory of a V100 run with every policy on (its L2 has 49,152 lines).
 * Leakage of a policy comes from the idle-period histograms of an always-on
 * run (exact for policies whose wake-ups are hidden, which changes no
 * timing); Slumber's penalty from a second run with Slumber in the timing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "bench/bench_common.h"
#include "sim/sim.h"

static trapeze_power gtx480, v100;
static const trapeze_power *cur = &gtx480;   /* the GPU of the trend checks */

typedef struct trend {
    double snooze[2][2];     /* [l1d, l2][bank, line]: leakage remaining, % */
    double drowsy, slumber;  /* RF leakage saving, % */
    double long_share;       /* RF warp-register idle periods > 16 cycles, % */
    double penalty;          /* Slumber cycles / always-on cycles - 1, % */
    uint64_t warp_insts;
} trend;

/* Leakage of structure s at a granularity under policy kind, from the
 * histograms h of a run of `cycles` cycles on g. */
static double leak_of(sim_gpu *g, const sim_idle_hist *h, uint64_t cycles,
                      trapeze_power_structure s, int line, sim_sleep_kind kind)
{
    sim_energy_input in = {.pw = cur, .clock_hz = sim_gpu_config(g)->gpu.core_clock_hz,
                           .n_sm = sim_gpu_config(g)->gpu.n_sm, .cycles = cycles,
                           .geo = sim_gpu_energy_geometry(g)};
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        in.hist[k] = &h[k];
    sim_sleep_choice c = sim_gpu_sleep(g)->s[s];
    c.kind = kind;
    c.line = line;
    sim_unit_kind u = sim_sleep_unit(s, line);
    if (sim_sleep_bind(&c, s, cur, in.clock_hz, in.geo->unit_leak_w[u], NULL))
        return NAN;
    sim_sleep_result r;
    return sim_energy_leak(&in, s, &c, &r, NULL);
}

/* A workload: a built-in (name, params) or a stencil (w). */
typedef struct job {
    const char *label;
    const char *builtin;
    int argc;
    char *argv[4];
    const char *workload;
} job;

/* Runs j on a fresh GTX 480 with the RF policy `rf`; sums its launches'
 * cycles and instructions; g is kept for the histograms. */
static int run_job(const trapeze_config *cfg, const job *j, const char *rf, sim_gpu **gp,
                   uint64_t *cycles, uint64_t *insts)
{
    trapeze_error err = {0};
    sim_sleep_config sc;
    if (sim_sleep_config_read(cfg, &sc, &err) ||
        sim_sleep_config_set(&sc, TRAPEZE_PS_RF, rf, &err)) {
        fprintf(stderr, "bench_energy: %s\n", err.message);
        return 1;
    }
    sim_gpu_options opt = {.power = cur, .sleep = &sc, .keep_idle = 1};
    sim_gpu *g = NULL;
    if (sim_gpu_create(cfg, &opt, &g, &err))
        goto fail;
    *cycles = *insts = 0;
    if (j->builtin) {
        const sim_builtin *b = sim_builtin_find(j->builtin);
        long p[SIM_BUILTIN_MAX_PARAMS];
        sim_kernel *ks[16];
        int nk = 0;
        if (!b || sim_builtin_params(b, j->argc, (char **)j->argv, p, &err) ||
            b->build(sim_gpu_config(g), p, ks, 16, &nk, &err))
            goto fail;
        for (int i = 0; i < nk; i++) {
            sim_kernel_stats st;
            trapeze_status s = sim_gpu_run(g, ks[i], &st, &err);
            if (!s) {
                *cycles += st.cycles;
                *insts += st.total.warp_insts;
                sim_kernel_stats_free(&st);
            }
            if (s) {
                for (int x = 0; x < nk; x++)
                    sim_kernel_destroy(ks[x]);
                goto fail;
            }
        }
        for (int x = 0; x < nk; x++)
            sim_kernel_destroy(ks[x]);
    } else {
        trapeze_workload w;
        char path[256];
        snprintf(path, sizeof path, "data/workloads/%s.ini", j->workload);
        if (trapeze_workload_load(path, &w, &err))
            goto fail;
        /* a reduced grid: 64 K to 256 K elements, 4 loops at h = 1 */
        double edge = w.dims == 1 ? 262144 : w.dims == 2 ? 512 : 40;
        for (int d = 0; d < w.dims; d++)
            if (w.data_len[d] > edge)
                w.data_len[d] = edge;
        sim_stencil_spec spec = {.workload = &w, .h = 1, .sync = TRAPEZE_SYNC_RELAUNCH,
                                 .iterations = 4};
        sim_stencil_result *r = NULL;
        if (sim_stencil_run(g, &spec, &r, &err)) {
            sim_stencil_result_destroy(r);
            goto fail;
        }
        for (int i = 0; i < r->n_stats; i++)
            *cycles += r->stats[i].cycles;
        *insts = r->warp_insts;
        sim_stencil_result_destroy(r);
    }
    *gp = g;
    return 0;
fail:
    fprintf(stderr, "bench_energy: %s: %s\n", j->label, err.message);
    sim_gpu_destroy(g);
    return 1;
}

/* Sums the histograms of every kernel of g into h. */
static void all_kernels(const sim_gpu *g, sim_idle_hist *h)
{
    memset(h, 0, SIM_UNIT_KIND_COUNT * sizeof *h);
    for (int i = 0; i < sim_gpu_idle_count(g); i++) {
        const sim_idle_hist *x = sim_gpu_idle(g, i, NULL);
        for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
            sim_idle_hist_add(&h[k], &x[k]);
    }
}

static int measure(const trapeze_config *cfg, const job *j, trend *t)
{
    static sim_idle_hist h[SIM_UNIT_KIND_COUNT];
    sim_gpu *g = NULL;
    uint64_t cycles, insts, slow_cycles, unused;
    if (run_job(cfg, j, "always_on", &g, &cycles, &insts))
        return 1;
    all_kernels(g, h);
    t->warp_insts = insts;
    for (int s = 0; s < 2; s++)
        for (int line = 0; line < 2; line++) {
            double on = leak_of(g, h, cycles, (trapeze_power_structure)s, line, SIM_SLEEP_ALWAYS_ON);
            double sn = leak_of(g, h, cycles, (trapeze_power_structure)s, line, SIM_SLEEP_SNOOZE);
            t->snooze[s][line] = 100 * sn / on;
        }
    double on = leak_of(g, h, cycles, TRAPEZE_PS_RF, 1, SIM_SLEEP_ALWAYS_ON);
    t->drowsy = 100 * (1 - leak_of(g, h, cycles, TRAPEZE_PS_RF, 1, SIM_SLEEP_DROWSY) / on);
    t->slumber = 100 * (1 - leak_of(g, h, cycles, TRAPEZE_PS_RF, 1, SIM_SLEEP_SLUMBER) / on);
    uint64_t all = 0, longer = 0;
    for (int n = 0; n < SIM_NEXT_COUNT; n++)
        for (int b = 0; b < SIM_IDLE_BINS; b++) {
            all += h[SIM_UNIT_REG].bin[n][b].count;
            if (b >= sim_idle_bin(17))
                longer += h[SIM_UNIT_REG].bin[n][b].count;
        }
    t->long_share = all ? 100.0 * (double)longer / (double)all : 0;
    sim_gpu_destroy(g);
    if (run_job(cfg, j, "slumber", &g, &slow_cycles, &unused))
        return 1;
    t->penalty = 100.0 * ((double)slow_cycles / (double)cycles - 1);
    sim_gpu_destroy(g);
    return 0;
}

static const job jobs[] = {
        {"vecadd", "vecadd", 1, {"n=262144"}, NULL},
        {"matmul", "matmul", 1, {"n=128"}, NULL},
        {"atax", "atax", 1, {"n=512"}, NULL},
        {"bicg", "bicg", 1, {"n=512"}, NULL},
        {"gesummv", "gesummv", 1, {"n=512"}, NULL},
        {"mvt", "mvt", 1, {"n=512"}, NULL},
        {"syrk", "syrk", 1, {"n=96"}, NULL},
        {"syr2k", "syr2k", 1, {"n=96"}, NULL},
        {"HotSpot", NULL, 0, {NULL}, "hotspot"},
        {"Poisson", NULL, 0, {NULL}, "poisson"},
        {"PathFinder", NULL, 0, {NULL}, "pathfinder"},
        {"Cell", NULL, 0, {NULL}, "cell"},
};

/* The trend table of the jobs whose bit is set in `mask` on cfg, then the
 * seed's row (Fermi, or Volta: Snooze only). */
static void trends(const trapeze_config *cfg, const char *gpu, unsigned mask, int volta)
{
    int n = (int)(sizeof jobs / sizeof *jobs), ok = 0;
    trend mean;
    memset(&mean, 0, sizeof mean);
    printf("seed trend checks, %s (Snooze: leakage remaining %% of always-on; RF: leakage "
           "saving %%)\n", gpu);
    printf("%-11s %9s %9s %9s %9s %8s %8s %8s %8s\n", "kernel", "L1 bank", "L1 block", "L2 bank",
           "L2 block", "drowsy", "slumber", ">16cyc", "penalty");
    for (int i = 0; i < n; i++) {
        trend t;
        if (!(mask >> i & 1))
            continue;
        double t0 = now();
        if (measure(cfg, &jobs[i], &t))
            continue;
        printf("%-11s %8.2f%% %8.2f%% %8.2f%% %8.2f%% %7.1f%% %7.1f%% %7.1f%% %7.2f%%  (%.1f s)\n",
               jobs[i].label, t.snooze[0][0], t.snooze[0][1], t.snooze[1][0], t.snooze[1][1],
               t.drowsy, t.slumber, t.long_share, t.penalty, now() - t0);
        for (int s = 0; s < 2; s++)
            for (int l = 0; l < 2; l++)
                mean.snooze[s][l] += t.snooze[s][l];
        mean.drowsy += t.drowsy;
        mean.slumber += t.slumber;
        mean.long_share += t.long_share;
        mean.penalty += t.penalty;
        ok++;
    }
    if (!ok)
        return;
    printf("%-11s %8.2f%% %8.2f%% %8.2f%% %8.2f%% %7.1f%% %7.1f%% %7.1f%% %7.2f%%\n", "mean",
           mean.snooze[0][0] / ok, mean.snooze[0][1] / ok, mean.snooze[1][0] / ok,
           mean.snooze[1][1] / ok, mean.drowsy / ok, mean.slumber / ok, mean.long_share / ok,
           mean.penalty / ok);
    if (volta)
        printf("%-11s %8.2f%% %8.2f%% %8.2f%% %8.2f%%  (seed 004 Fig. 5.13, Volta; no RF numbers)\n",
               "seed", 25.03, 4.03, 26.49, 4.28);
    else
        printf("%-11s %8.2f%% %8.2f%% %8.2f%% %8.2f%% %7.1f%% %7.1f%% %7s %7.2f%%\n", "seed",
               28.56, 11.17, 36.27, 7.31, 85.0, 94.0, ">75%", 1.2);
}

/* The config's sleep policies with, when `on`, Snooze line on the L1D and
 * L2 and Slumber on the RF. */
static trapeze_status snooze_slumber(const trapeze_config *cfg, int on, sim_sleep_config *sc,
                                     trapeze_error *err)
{
    trapeze_status s = sim_sleep_config_read(cfg, sc, err);
    if (!s && on && !(s = sim_sleep_config_set(sc, TRAPEZE_PS_L1D, "snooze:line", err)) &&
        !(s = sim_sleep_config_set(sc, TRAPEZE_PS_L2, "snooze:line", err)))
        s = sim_sleep_config_set(sc, TRAPEZE_PS_RF, "slumber", err);
    return s;
}

/* Jacobi 2048x2048 on the GTX 480: best of two runs (CPU time), energy off
 * and on. */
static void speed(const trapeze_config *cfg)
{
    const char *label[2] = {"energy accounting and sleep policies off",
                            "on (--power gtx480, Snooze line L1D/L2, Slumber RF)"};
    for (int on = 0; on < 2; on++) {
        double best = 0;
        uint64_t insts = 0, cycles = 0;
        for (int rep = 0; rep < 2; rep++) {
            trapeze_error err = {0};
            sim_sleep_config sc;
            if (snooze_slumber(cfg, on, &sc, &err)) {
                fprintf(stderr, "bench_energy: %s\n", err.message);
                return;
            }
            sim_gpu_options opt = {.power = on ? &gtx480 : NULL, .sleep = &sc};
            sim_gpu *g = NULL;
            const sim_builtin *b = sim_builtin_find("jacobi");
            long p[SIM_BUILTIN_MAX_PARAMS];
            sim_kernel *k[1];
            int nk = 0;
            sim_kernel_stats st;
            if (sim_gpu_create(cfg, &opt, &g, &err) || sim_builtin_params(b, 0, NULL, p, &err) ||
                b->build(sim_gpu_config(g), p, k, 1, &nk, &err)) {
                fprintf(stderr, "bench_energy: %s\n", err.message);
                sim_gpu_destroy(g);
                return;
            }
            double t0 = cpu_now();
            trapeze_status s = sim_gpu_run(g, k[0], &st, &err);
            double secs = cpu_now() - t0;
            if (!s) {
                insts = st.total.warp_insts;
                cycles = st.cycles;
                sim_kernel_stats_free(&st);
            }
            sim_kernel_destroy(k[0]);
            sim_gpu_destroy(g);
            if (s) {
                fprintf(stderr, "bench_energy: %s\n", err.message);
                return;
            }
            if (rep == 0 || secs < best)
                best = secs;
        }
        printf("jacobi 2048x2048 gtx480, %s: %llu cycles, best of 2 %.3f CPU s, %.0f warp "
               "instructions/s (target 1000000)\n",
               label[on], (unsigned long long)cycles, best, (double)insts / best);
    }
}

/* A V100 Jacobi 1024x1024 with power, Snooze line L1D and L2, Slumber. */
static void v100_memory(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err = {0};
    if (trapeze_config_load("data/gpus/v100.config", &cfg, &err)) {
        fprintf(stderr, "bench_energy: %s\n", err.message);
        return;
    }
    sim_sleep_config sc;
    if (snooze_slumber(cfg, 1, &sc, &err)) {
        fprintf(stderr, "bench_energy: v100: %s\n", err.message);
        trapeze_config_destroy(cfg);
        return;
    }
    sim_gpu_options opt = {.power = &v100, .sleep = &sc, .keep_idle = 1};
    sim_gpu *g = NULL;
    const sim_builtin *b = sim_builtin_find("jacobi");
    long p[SIM_BUILTIN_MAX_PARAMS];
    sim_kernel *k[1];
    int nk = 0;
    sim_kernel_stats st;
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    double t0 = now();
    char *size[] = {"nx=1024", "ny=1024"};
    if (sim_gpu_create(cfg, &opt, &g, &err) || sim_builtin_params(b, 2, size, p, &err) ||
        b->build(sim_gpu_config(g), p, k, 1, &nk, &err) || sim_gpu_run(g, k[0], &st, &err)) {
        fprintf(stderr, "bench_energy: v100: %s\n", err.message);
    } else {
        getrusage(RUSAGE_SELF, &after);
        printf("v100 jacobi 1024x1024, every policy on: %llu cycles, %.6g J, %.1f W, %.2f s; "
               "%d L2 lines, %d warp registers tracked; peak memory (maxrss) %.1f MB "
               "(%.1f MB before)\n",
               (unsigned long long)st.cycles, st.energy.total_j,
               st.energy.total_j / st.energy.seconds, now() - t0,
               sim_events_units(sim_gpu_events(g), SIM_UNIT_L2_LINE),
               sim_events_units(sim_gpu_events(g), SIM_UNIT_REG),
               (double)after.ru_maxrss / 1024.0, (double)before.ru_maxrss / 1024.0);
        sim_kernel_stats_free(&st);
        sim_kernel_destroy(k[0]);
    }
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

/* Sections: all, or those named on the command line (memory speed trends
 * trends-v100). */
static int wanted(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], name))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    trapeze_error err = {0};
    trapeze_config *cfg = NULL;
    if (trapeze_power_load("data/power/gtx480.ini", &gtx480, &err) ||
        trapeze_power_load("data/power/v100.ini", &v100, &err) ||
        trapeze_config_load("data/gpus/gtx480.config", &cfg, &err)) {
        fprintf(stderr, "bench_energy: %s\n", err.message);
        return 1;
    }
    if (wanted(argc, argv, "memory"))
        v100_memory();
    if (wanted(argc, argv, "speed"))
        speed(cfg);
    if (wanted(argc, argv, "trends"))
        trends(cfg, "GTX 480", ~0u, 0);
    trapeze_config *volta = NULL;
    if (wanted(argc, argv, "trends-v100") &&
        !trapeze_config_load("data/gpus/v100.config", &volta, &err)) {
        cur = &v100;
        /* matmul, atax, syrk, HotSpot, Cell */
        trends(volta, "V100", (1u << 1) | (1u << 2) | (1u << 6) | (1u << 8) | (1u << 11), 1);
        cur = &gtx480;
    }
    trapeze_config_destroy(volta);
    trapeze_config_destroy(cfg);
    return 0;
}
