/*
 * bench_window_phase.c - what a sleep sample's later window records of the
 * register file, against the run: the warp-register idle periods that end
 * in its recording, by next access and length, and its pace (warp
 * instructions a cycle), for the window as the jump sample runs it (a
 * fresh GPU from a later block, or for a launch of one wave a later trip
 * of its outer loop), for the same stretch from the run's own start (the
 * launch's first warm + rec cycles), and for the run itself at the place
 * the window stands for (0.656 of it: where `--cap 0.25` puts its one
 * later window), and warm: the run's first `first` cycles continued with
 * the dispatcher moved to the later block (sim_gpu_launch_skip), `skip_warm`
 * cycles, then recorded. Prints figures; asserts nothing (docs/sleep.md,
 * "The register-file misses, period by period").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trapeze.h"
#include "bench/bench_common.h"

#define PLACE 0.656   /* sim_jump_place(0.1, 0, 1): one later window after a first tenth */
static const double edges[] = {0, 16, 128, 1024, 2048, 4096, 8192, 1e18};
#define NCLASS 7

/* One launch of the job: from block fb, loop trip ft (0, 0: the run);
 * recorded over [at, at + rec) after its start, at_block: from that
 * block's placement plus `at` instead (-1: none); skip_at > 0: at cycle
 * skip_at the dispatcher moves to block skip_to, `at` counted from there.
 * Prints the register periods that end there by class. Returns the run's
 * cycles where it ran to its end (at 0 and rec 0), else 0. */
static double one(const trapeze_config *cfg, const trapeze_power *pw, const char *what,
                  const char *name, char **args, int argc, long fb, long ft, long at_block,
                  uint64_t at, uint64_t rec, uint64_t skip_at, long skip_to, long *blocks,
                  long *conc, long *trips)
{
    trapeze_error err;
    sim_sleep_config ao;
    sim_gpu_options opt;
    sim_idle_window_options(pw, &ao, &opt);
    bench_watch w = {at_block, 0};
    opt.on_place = bench_on_place;
    opt.on_place_ctx = &w;
    if (fb > 0)
        opt.first_block = fb;
    sim_gpu *g = NULL;
    sim_kernel *k = NULL;
    sim_kernel_stats st;
    sim_launch l;
    double cycles = 0;
    memset(&st, 0, sizeof st);
    memset(&l, 0, sizeof l);
    if (bench_builtin_opt(cfg, name, argc, args, &opt, &g, &k, &err))
        goto fail;
    k->first_trip = ft;
    if (blocks) {
        const char *why;
        *blocks = sim_kernel_blocks(k);
        *conc = (long)sim_gpu_config(g)->gpu.n_sm * sim_occupancy(sim_gpu_config(g), k, &why);
        *trips = sim_sleep_outer_trips(k);
    }
    if (sim_gpu_launch_begin(g, k, &st, &l, &err))
        goto fail;
    if (!rec) {   /* the whole run: its length */
        if (sim_launch_run_until(&l, 0, &err))
            goto fail;
        cycles = (double)(l.end - l.start);
        goto out;
    }
    while (at_block >= 0 && l.running && !w.placed)
        sim_gpu_launch_step(&l, &err);
    uint64_t from = (at_block >= 0 ? w.placed : l.start) + at;
    if (skip_at > 0) {
        if (sim_launch_run_until(&l, l.start + skip_at, &err) ||
            sim_gpu_launch_skip(&l, 0, skip_to, &err))
            goto fail;
        from = l.t + at;
    }
    if (sim_launch_run_until(&l, from, &err))
        goto fail;
    sim_events *ev = sim_gpu_events(g);
    sim_idle_hist before = *sim_events_hist(ev, SIM_UNIT_REG);
    double ia = (double)sim_gpu_launch_warp_insts(&l);
    uint64_t a = l.t;
    if (sim_launch_run_until(&l, a + rec, &err))
        goto fail;
    ev = sim_gpu_events(g);
    uint64_t b = l.running ? l.t : l.end;
    const sim_idle_hist *now = sim_events_hist(ev, SIM_UNIT_REG);
    double n[SIM_NEXT_COUNT][NCLASS] = {{0}}, cyc[SIM_NEXT_COUNT][NCLASS] = {{0}}, all = 0;
    for (int bin = 0; bin < SIM_IDLE_BINS; bin++)
        for (int x = 0; x < SIM_NEXT_COUNT; x++) {
            uint64_t c = now->bin[x][bin].count - before.bin[x][bin].count, lo, hi;
            if (!c)
                continue;
            sim_idle_bin_range(bin, &lo, &hi);
            int e = 0;
            while (e + 1 < NCLASS && (double)lo > edges[e + 1])
                e++;
            n[x][e] += (double)c;
            cyc[x][e] += (double)(now->bin[x][bin].sum - before.bin[x][bin].sum);
            all += (double)(now->bin[x][bin].sum - before.bin[x][bin].sum);
        }
    printf("  %-38s cycles %7llu-%-7llu pace %7.2f; ended %.3g register-cycles:", what,
           (unsigned long long)(a - l.start), (unsigned long long)(b - l.start),
           b > a ? ((double)sim_gpu_launch_warp_insts(&l) - ia) / (double)(b - a) : 0, all);
    static const char *kind[SIM_NEXT_COUNT] = {"read", "write", "dead"};
    for (int x = 0; x < SIM_NEXT_COUNT; x++)
        for (int e = 0; e < NCLASS; e++)
            if (n[x][e] > 0)
                printf(" %s %g-%g %.0f (%.1f%%)", kind[x], edges[e] + 1, edges[e + 1], n[x][e],
                       all > 0 ? 100 * cyc[x][e] / all : 0);
    printf("\n");
    goto out;
fail:
    fprintf(stderr, "bench_window_phase: %s: %s\n", name, err.message);
out:
    if (k && l.running)
        sim_gpu_launch_cut(&l);
    sim_kernel_destroy(k);
    sim_gpu_destroy(g);
    return cycles;
}

static void job(const char *gpu, const char *name, char *a1, char *a2, uint64_t warm, uint64_t rec,
                uint64_t first, uint64_t skip_warm, uint64_t skip_warm2)
{
    char path[64];
    trapeze_config *cfg = NULL;
    trapeze_power pw;
    trapeze_error err;
    snprintf(path, sizeof path, "data/gpus/%s.config", gpu);
    if (trapeze_config_load(path, &cfg, &err)) {
        fprintf(stderr, "bench_window_phase: %s\n", err.message);
        return;
    }
    snprintf(path, sizeof path, "data/power/%s.ini", gpu);
    if (trapeze_power_load(path, &pw, &err)) {
        fprintf(stderr, "bench_window_phase: %s\n", err.message);
        trapeze_config_destroy(cfg);
        return;
    }
    char *args[2] = {a1, a2};
    int argc = a2 ? 2 : a1 ? 1 : 0;
    long blocks = 0, conc = 1, trips = 1;
    double run = one(cfg, &pw, "", name, args, argc, 0, 0, -1, 0, 0, 0, 0, &blocks, &conc, &trips);
    conc = conc > 0 && conc < blocks ? conc : blocks;
    long waves = conc > 0 ? (blocks + conc - 1) / conc : 1;
    long fb = (long)(PLACE * (double)waves) * conc, ft = waves == 1 ? (long)(PLACE * trips) : 0;
    printf("%s %s%s%s%s%s: %.0f cycles, %ld blocks, %ld at once, %ld trips; the later window from "
           "block %ld, trip %ld, %llu + %llu cycles\n", gpu, name, a1 ? " " : "", a1 ? a1 : "",
           a2 ? " " : "", a2 ? a2 : "", run, blocks, conc, trips, fb, ft, (unsigned long long)warm, (unsigned long long)rec);
    one(cfg, &pw, "fresh GPU (the jump sample's window)", name, args, argc, fb, ft, -1, warm, rec,
        0, 0, NULL, NULL, NULL);
    one(cfg, &pw, "the run's own start", name, args, argc, 0, 0, -1, warm, rec, 0, 0, NULL, NULL,
        NULL);
    if (waves == 1)   /* a later trip: the run at that share of its cycles */
        one(cfg, &pw, "the run there", name, args, argc, 0, 0, -1, (uint64_t)(PLACE * run) + warm,
            rec, 0, 0, NULL, NULL, NULL);
    else              /* the run from that block's placement */
        one(cfg, &pw, "the run there", name, args, argc, 0, 0, fb, warm, rec, 0, 0, NULL, NULL,
            NULL);
    uint64_t skips[2] = {skip_warm, skip_warm2};
    for (int i = 0; i < 2 && waves > 1 && first > 0 && skips[i] > 0; i++) {
        /* warm: the first window continued, its dispatcher moved to fb */
        char what[64];
        snprintf(what, sizeof what, "warm (first %llu, skip, %llu warm-up)",
                 (unsigned long long)first, (unsigned long long)skips[i]);
        one(cfg, &pw, what, name, args, argc, 0, 0, -1, skips[i], rec, first, fb, NULL, NULL,
            NULL);
    }
    trapeze_config_destroy(cfg);
}

int main(void)
{
    /* the windows' lengths as `sleep --cap 0.25` runs them */
    job("v100", "matmul_tiled", "n=256", NULL, 2000, 1000, 0, 0, 0);
    job("v100", "jacobi", "nx=2048", "ny=2048", 2000, 1000, 4650, 2000, 0);
    job("gtx480", "strided", "stride=32", NULL, 4000, 2000, 20000, 4000, 30000);
    return 0;
}
