/*
 * bench_warm_window.c - the pace of a sleep sample's later window (warp
 * instructions a cycle while it records) started two ways, against the
 * whole run's at the same place: on a fresh GPU from a later block (as the
 * jump sample runs its windows today: empty caches and queues, every
 * resident block starting together), and warm, within the first window's
 * simulation, its dispatcher moved to that block (sim_gpu_launch_skip:
 * the blocks resident keep running, caches, queues and DRAM keep their
 * state). The first window is the capped sample's at --cap 0.25 (a tenth
 * of the run's warp instructions); the later window starts at the middle
 * wave's first block. Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <string.h>

#include "trapeze.h"
#include "bench/bench_common.h"

/* Warp instructions a cycle over [from, from + len) of a launch already at
 * `from`; the launch goes on to the stretch's end. */
static double pace(sim_launch *l, uint64_t len, trapeze_error *err)
{
    uint64_t a = l->t;
    double ia = (double)sim_gpu_launch_warp_insts(l);
    if (sim_launch_run_until(l, a + len, err))
        return -1;
    uint64_t b = l->running ? l->t : l->end;
    return b > a ? ((double)sim_gpu_launch_warp_insts(l) - ia) / (double)(b - a) : 0;
}

/* One launch of `name`: mode 0 the whole run (the pace from block fb's
 * placement plus warm on; *run_pace the whole run's), 1 fresh from fb,
 * 2 the first window then warm from fb. Returns the recording's pace. */
static double window(const trapeze_config *cfg, const char *name, char **args, int argc,
                     int mode, long fb, double first_insts, uint64_t warm, uint64_t rec,
                     double *run_pace, double *insts, long *blocks, long *conc,
                     long *delay)
{
    trapeze_error err;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    bench_watch w = {fb, 0};
    opt.on_place = bench_on_place;
    opt.on_place_ctx = &w;
    if (mode == 1)
        opt.first_block = fb;
    sim_gpu *g = NULL;
    sim_kernel *k = NULL;
    sim_kernel_stats st;
    sim_launch l;
    double p = -1;
    memset(&st, 0, sizeof st);
    if (bench_builtin_opt(cfg, name, argc, args, &opt, &g, &k, &err) ||
        sim_gpu_launch_begin(g, k, &st, &l, &err))
        goto out;
    if (blocks) {
        const char *why;
        *blocks = sim_kernel_blocks(k);
        *conc = (long)sim_gpu_config(g)->gpu.n_sm * sim_occupancy(sim_gpu_config(g), k, &why);
    }
    if (mode == 0) {
        while (l.running && !w.placed)
            sim_gpu_launch_step(&l, &err);
        if (sim_launch_run_until(&l, w.placed + warm, &err))
            goto cut;
        p = pace(&l, rec, &err);
        if (sim_launch_run_until(&l, 0, &err))
            goto cut;
        *insts = (double)sim_gpu_launch_warp_insts(&l);
        *run_pace = *insts / (double)(l.end - l.start);
        goto cut;
    }
    if (mode == 2) {   /* the first window, then the dispatcher moved on */
        if (sim_launch_run_until_insts(&l, (uint64_t)first_insts, &err) ||
            sim_gpu_launch_skip(&l, 0, fb, &err))
            goto cut;
    }
    uint64_t skipped = l.t;
    if (!sim_launch_run_until(&l, l.t + warm, &err))
        p = pace(&l, rec, &err);
    if (delay)   /* from the skip to block fb's placement (-1: not in the window) */
        *delay = w.placed ? (long)(w.placed - skipped) : -1;
cut:
    sim_gpu_launch_cut(&l);
out:
    if (p < 0)
        fprintf(stderr, "bench_warm_window: %s: %s\n", name, err.message);
    sim_kernel_destroy(k);
    sim_gpu_destroy(g);
    return p;
}

static void job(const char *gpu, const char *name, char *arg, uint64_t warm, uint64_t rec)
{
    char path[64];
    trapeze_config *cfg = NULL;
    trapeze_error err;
    snprintf(path, sizeof path, "data/gpus/%s.config", gpu);
    if (trapeze_config_load(path, &cfg, &err)) {
        fprintf(stderr, "bench_warm_window: %s\n", err.message);
        return;
    }
    char *args[1] = {arg};
    int argc = arg ? 1 : 0;
    long blocks = 0, conc = 1;
    double run_pace = 0, insts = 0;
    /* the geometry first: a launch of one wave has no block to skip to */
    window(cfg, name, args, argc, 1, 0, 0, 1, 1, NULL, NULL, &blocks, &conc, NULL);
    conc = conc < blocks ? conc : blocks;
    long waves = conc > 0 ? (blocks + conc - 1) / conc : 1;
    long fb = waves / 2 * conc;
    printf("%s %s%s%s: %ld blocks, %ld at once (%ld wave%s); later window from block %ld, "
           "%llu + %llu cycles\n", gpu, name, arg ? " " : "", arg ? arg : "", blocks, conc,
           waves, waves == 1 ? "" : "s", fb, (unsigned long long)warm, (unsigned long long)rec);
    if (fb <= 0) {
        printf("  one wave: every block is resident from the start, no block to skip to\n");
        trapeze_config_destroy(cfg);
        return;
    }
    long delay = -1;
    double at_run = window(cfg, name, args, argc, 0, fb, 0, warm, rec, &run_pace, &insts, NULL,
                           NULL, NULL);
    double fresh = window(cfg, name, args, argc, 1, fb, 0, warm, rec, NULL, NULL, NULL, NULL,
                          NULL);
    double warmed = window(cfg, name, args, argc, 2, fb, 0.1 * insts, warm, rec, NULL, NULL, NULL,
                           NULL, &delay);
    printf("  warp instructions a cycle while recording: the run there %.2f (whole run %.2f); "
           "fresh GPU %.2f; warm %.2f\n", at_run, run_pace, fresh, warmed);
    if (delay >= 0)
        printf("  warm: block %ld placed %ld cycles after the skip\n", fb, delay);
    else   /* the skip moved nothing: the first window's blocks fill the SMs throughout */
        printf("  warm: block %ld not placed within the window (the first window's blocks "
               "still resident): the run continued, not a later place\n", fb);
    trapeze_config_destroy(cfg);
}

int main(void)
{
    /* the windows' lengths as `sleep --cap 0.25` runs them on these jobs */
    job("gtx480", "filter", NULL, 1000, 500);
    job("gtx480", "matmul_tiled", "n=256", 4000, 2000);
    job("gtx480", "kmeans", NULL, 1000, 500);
    job("gtx480", "syr2k", "n=64", 2000, 1000);
    job("v100", "kmeans", NULL, 1000, 500);
    return 0;
}
