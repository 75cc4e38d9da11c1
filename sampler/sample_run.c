/*
 * sample_run.c - runs one planned sample on a fresh simulator: the
 * micro-benchmarks (CPI, relaunch, fence barrier, bandwidth, latency), the
 * profiling runs and the short stencil runs. Owns how each is timed; must
 * not plan, fit or write files.
 *
 * Timing of a stencil sample: `stages` timed stages after one warm-up stage
 * (cold caches, first launch). Relaunch: the warm-up is the first kernel;
 * the timed cycles run from its end to the end of the last kernel, launch
 * latencies included. Fence: one persistent kernel holds every stage, so the
 * warm-up is removed by difference: cycles(1 + stages) - cycles(1), two runs
 * on fresh simulators. Warp instructions count everything simulated.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"
#include "sim/core/gpu_sim.h"
#include "sim/stencil/stencil_run.h"

typedef struct {
    double cycles, warp_insts, conflicts;
} run_totals;

/* A fresh simulator of the plan's GPU, from the config parsed once. */
static trapeze_status new_gpu(const trapeze_ghostzone_plan *plan, sim_gpu **g, trapeze_error *err)
{
    *g = NULL;
    return sim_gpu_create(plan->cfg, NULL, g, err);
}

static void add_stats(run_totals *t, const sim_kernel_stats *st)
{
    t->warp_insts += (double)st->total.warp_insts;
    t->conflicts += (double)(st->total.shmem_passes - st->total.shld_insts - st->total.shst_insts);
}

typedef struct {
    sim_gpu *g;
    run_totals *t;
    int from_end_of;
    double start;
} timing;

/* After each launch: its counts, and the start of the timed part. */
static void ran_kernel(void *ctx, int i, const sim_kernel_stats *st)
{
    timing *tm = ctx;
    add_stats(tm->t, st);
    if (i == tm->from_end_of)
        tm->start = (double)sim_gpu_cycle(tm->g);
}

/* Runs kernels in sequence on one simulator; cycles from the end of kernel
 * `from_end_of` (-1: from cycle 0) to the end of the last. */
static trapeze_status run_kernels(const trapeze_ghostzone_plan *plan, sim_kernel **ks, int n,
                                  int from_end_of, run_totals *t, trapeze_error *err)
{
    sim_gpu *g;
    trapeze_status s = new_gpu(plan, &g, err);
    timing tm = {g, t, from_end_of, 0};
    sim_sequence seq = {.n = n, .kernels = ks, .ran = ran_kernel, .ctx = &tm};
    if (!s)
        s = sim_gpu_run_sequence(g, &seq, NULL, NULL, err);
    if (!s)
        t->cycles += (double)sim_gpu_cycle(g) - tm.start;
    sim_gpu_destroy(g);
    return s;
}

static trapeze_status build_stencil(const trapeze_ghostzone_plan *plan, const trapeze_workload *w,
                                    trapeze_sync sync, int h, int stages, sim_stencil **out,
                                    trapeze_error *err)
{
    sim_stencil_spec spec = {.workload = w, .h = h, .sync = sync, .iterations = stages * h};
    sim_core_config core;
    int per_sm;
    const char *limit;
    *out = NULL;
    trapeze_status s = sim_core_config_read(plan->cfg, &core, err);
    if (!s)
        s = sim_stencil_build_sized(&core, &spec, out, &per_sm, &limit, err);
    if (s) {
        sim_stencil_destroy(*out);
        *out = NULL;
    }
    return s;
}

/* One build of `stages` stages, run whole; timed from the end of kernel
 * from_end_of. */
static trapeze_status run_stencil(const trapeze_ghostzone_plan *plan, const trapeze_workload *w,
                                  trapeze_sync sync, int h, int stages, int from_end_of,
                                  run_totals *t, trapeze_error *err)
{
    sim_stencil *st;
    trapeze_status s = build_stencil(plan, w, sync, h, stages, &st, err);
    if (s)
        return s;
    s = run_kernels(plan, st->kernels, st->n_kernels, from_end_of, t, err);
    sim_stencil_destroy(st);
    return s;
}

static trapeze_status stencil_sample(const trapeze_ghostzone_plan *plan, trapeze_sample *row,
                                     trapeze_error *err)
{
    const trapeze_workload *base = sampler_workload(plan, row->workload);
    if (!base)
        return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s: no workload named %s", row->id,
                            row->workload);
    trapeze_workload w;
    sampler_resize(base, row->data_len, &w);
    run_totals t = {0};
    trapeze_status s;
    if (strcmp(row->kind, SAMPLER_KIND_PROFILE) == 0) {
        s = run_stencil(plan, &w, TRAPEZE_SYNC_RELAUNCH, row->h, row->stages, -1, &t, err);
    } else if (row->sync == TRAPEZE_SYNC_RELAUNCH) {
        s = run_stencil(plan, &w, row->sync, row->h, row->stages + 1, 0, &t, err);
    } else {
        run_totals warm = {0};
        s = run_stencil(plan, &w, row->sync, row->h, row->stages + 1, -1, &t, err);
        if (!s)
            s = run_stencil(plan, &w, row->sync, row->h, 1, -1, &warm, err);
        t.cycles -= warm.cycles;
        t.warp_insts += warm.warp_insts;
    }
    row->cycles = t.cycles;
    row->cpl_cycles = t.cycles / ((double)row->stages * row->h);
    row->warp_instructions = t.warp_insts;
    row->bank_conflicts = t.conflicts;
    return s;
}

/* ---- micro-benchmarks: the workload column names the built-in ---- */

static trapeze_status run_builtin(const trapeze_ghostzone_plan *plan, const char *name,
                                  const long *p, int from_end_of, run_totals *t,
                                  trapeze_error *err)
{
    sim_core_config core;
    trapeze_status s = sim_core_config_read(plan->cfg, &core, err);
    sim_kernel *ks[64];
    int n = 0;
    const sim_builtin *b = sim_builtin_find(name);
    if (!s)
        s = b->build(&core, p, ks, 64, &n, err);
    if (!s)
        s = run_kernels(plan, ks, n, from_end_of, t, err);
    for (int i = 0; i < n; i++)
        sim_kernel_destroy(ks[i]);
    return s;
}

/* row->cpl_cycles receives the measured quantity:
 *  fma: cycles per warp instruction per SM (CPI) at full occupancy;
 *  empty: cycles per relaunch of size_0 empty blocks (launch latency included);
 *  fencebar: cycles per fence barrier among size_0 blocks;
 *  copy: achieved / peak DRAM bandwidth of a streaming copy of size_0 floats;
 *  chase: cycles per dependent load (uncontended latency). */
static trapeze_status micro_sample(const trapeze_ghostzone_plan *plan, trapeze_sample *row,
                                   trapeze_error *err)
{
    const char *m = row->workload;
    long size = (long)row->data_len[0], stages = row->stages;
    run_totals t = {0}, warm = {0};
    trapeze_status s;
    double measured;
    if (strcmp(m, "fma") == 0) {
        s = run_builtin(plan, m, (long[]){256, size, 256}, -1, &t, err);
        measured = t.cycles * plan->gpu.n_sm / t.warp_insts;
    } else if (strcmp(m, "empty") == 0) {
        s = run_builtin(plan, m, (long[]){size, stages + 1, 256}, 0, &t, err);
        measured = t.cycles / stages;
    } else if (strcmp(m, "fencebar") == 0) {
        long threads = row->blk_len > 0 ? row->blk_len : 256;
        s = run_builtin(plan, m, (long[]){size, stages + 1, threads}, -1, &t, err);
        if (!s)
            s = run_builtin(plan, m, (long[]){size, 1, threads}, -1, &warm, err);
        t.warp_insts += warm.warp_insts;
        measured = (t.cycles - warm.cycles) / stages;
    } else if (strcmp(m, "copy") == 0) {
        s = run_builtin(plan, m, (long[]){size, 256, 4}, -1, &t, err);
        double peak_per_cycle = plan->gpu.dram_bandwidth_bps / plan->gpu.core_clock_hz;
        measured = 8.0 * size / t.cycles / peak_per_cycle; /* read + write */
    } else if (strcmp(m, "chase") == 0) {
        s = run_builtin(plan, m, (long[]){size, 4096}, -1, &t, err);
        measured = t.cycles / size;
    } else {
        return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s: unknown micro-benchmark %s", row->id, m);
    }
    row->cycles = t.cycles;
    row->cpl_cycles = measured;
    row->warp_instructions = t.warp_insts;
    return s;
}

trapeze_status sampler_run_row(const trapeze_ghostzone_plan *plan, trapeze_sample *row,
                               trapeze_error *err)
{
    if (strcmp(row->kind, SAMPLER_KIND_MICRO) == 0)
        return micro_sample(plan, row, err);
    return stencil_sample(plan, row, err);
}

trapeze_status trapeze_ghostzone_run_sample(const trapeze_ghostzone_plan *plan, int i,
                                            trapeze_sample *out, trapeze_error *err)
{
    if (i < 0 || i >= plan->count)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no planned sample %d", i);
    *out = plan->rows[i];
    return sampler_run_row(plan, out, err);
}
