/*
 * bench_sim.c - simulator speed and sanity figures (printed, never asserted):
 * simulated warp instructions and cycles per CPU second for the 2D 5-point
 * Jacobi on a 2048x2048 float grid with 16x16 blocks on the GTX 480, V100
 * and A100 presets (best of three runs; CPU time, which other jobs on the machine
 * skew far less than wall time), each beside its target, peak memory, the
 * streaming copy's DRAM bandwidth as
 * a share of the configured peak, and the pointer chase's latency per load
 * against the memory system's unloaded latency.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sim/sim.h"
#include "bench/bench_common.h"

/* Runs a built-in; returns 0 on success with the first launch's stats. */
static int run(const trapeze_config *cfg, const char *name, int argc, char **argv,
               sim_kernel_stats *st, double *secs)
{
    trapeze_error err;
    sim_gpu *g;
    sim_kernel *k[1];
    if (bench_builtin(cfg, name, argc, argv, &g, &k[0], &err)) {
        fprintf(stderr, "bench_sim: %s: %s\n", name, err.message);
        return 1;
    }
    double t0 = cpu_now();
    trapeze_status s = sim_gpu_run(g, k[0], st, &err);
    *secs = cpu_now() - t0;
    if (s)
        fprintf(stderr, "bench_sim: %s: %s\n", name, err.message);
    sim_kernel_destroy(k[0]);
    sim_gpu_destroy(g);
    return s != TRAPEZE_OK;
}

/* The bench case on the preset at `config`: best of three, beside the target
 * in million warp instructions per CPU second. */
static int bench_case(const char *config, const char *gpu, double target)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_load(config, &cfg, &err)) {
        fprintf(stderr, "bench_sim: %s\n", err.message);
        return 1;
    }
    double best = 0;
    sim_kernel_stats st;
    for (int rep = 0; rep < 3; rep++) {
        double secs;
        if (run(cfg, "jacobi", 0, NULL, &st, &secs)) {
            trapeze_config_destroy(cfg);
            return 1;
        }
        if (rep == 0 || secs < best)
            best = secs;
        if (rep < 2)
            sim_kernel_stats_free(&st);
    }
    printf("jacobi 2048x2048, 16x16 blocks, %s: %llu warp instructions, %llu cycles, "
           "best of 3: %.3f CPU s\n",
           gpu, (unsigned long long)st.total.warp_insts, (unsigned long long)st.cycles, best);
    printf("  %.2f million simulated warp instructions per CPU second (target %.1f)\n",
           (double)st.total.warp_insts / best / 1e6, target);
    printf("  %.0f simulated cycles per CPU second\n", (double)st.cycles / best);
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    return 0;
}

int main(void)
{
    if (bench_case("data/gpus/gtx480.config", "gtx480", 1.5) ||
        bench_case("data/gpus/v100.config", "v100", 0.6) ||
        bench_case("data/gpus/a100", "a100", 0.6))
        return 1;
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err)) {
        fprintf(stderr, "bench_sim: %s\n", err.message);
        return 1;
    }
    trapeze_gpu gpu;
    trapeze_gpu_from_config(cfg, &gpu, &err);
    sim_kernel_stats st;

    double secs;
    char *copy_args[] = {"n=4194304"};
    if (run(cfg, "copy", 1, copy_args, &st, &secs))
        return 1;
    double t = (double)st.cycles / gpu.core_clock_hz;
    double bw = (double)(st.mem.dram_bytes_read + st.mem.dram_bytes_written) / t;
    printf("copy 16 MB: %.1f GB/s of DRAM traffic = %.1f%% of the configured peak %.1f GB/s "
           "(%.2f CPU s)\n",
           bw / 1e9, 100 * bw / gpu.dram_bandwidth_bps, gpu.dram_bandwidth_bps / 1e9, secs);
    sim_kernel_stats_free(&st);

    char *chase_args[] = {"steps=512"};
    if (run(cfg, "chase", 1, chase_args, &st, &secs))
        return 1;
    uint64_t probe = 0;
    if (sim_memsys_probe_latency(cfg, gpu.n_sm, &probe, &err))
        fprintf(stderr, "bench_sim: %s\n", err.message);
    double per = (double)st.cycles / 512.0;
    printf("chase: %.1f cycles per dependent load; unloaded latency of one miss %llu cycles "
           "(%+.1f%%)\n",
           per, (unsigned long long)probe, probe ? 100 * (per - (double)probe) / (double)probe : 0);
    sim_kernel_stats_free(&st);

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory (maxrss): %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
    trapeze_config_destroy(cfg);
    return 0;
}
