/*
 * simd_sample.c - where the simulator meets the width-and-depth model: a
 * kernel launch on a GPU, simulated at a chosen (width x depth) and window,
 * the model's two samples read from such runs, and its decision on the
 * grid. Owns the joining only: the equations are model/simd.c's, Robust
 * SIMD's slices sim/core/rsimd.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config_extend.h"
#include "common/error.h"
#include "common/text.h"
#include "model/simd.h"
#include "sim/sim.h"

struct trapeze_simd_kernel {
    char *gpu;                         /* the GPU's config, as trapeze_config_load takes it */
    const sim_builtin *builtin;        /* NULL: a trace */
    long p[SIM_BUILTIN_MAX_PARAMS];
    char *trace;                       /* the trace's first kernel file */
    sim_core_config core;
};

void trapeze_simd_kernel_destroy(trapeze_simd_kernel *k)
{
    if (!k)
        return;
    free(k->gpu);
    free(k->trace);
    free(k);
}

static trapeze_status kernel_new(const char *gpu, trapeze_simd_kernel **out, trapeze_error *err)
{
    trapeze_config *cfg = NULL;
    trapeze_simd_kernel *k = calloc(1, sizeof *k);
    *out = NULL;
    if (!k)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = trapeze_config_load(gpu, &cfg, err);
    if (!s)
        s = sim_core_config_read(cfg, &k->core, err);
    if (!s && !(k->gpu = trapeze_strdup(gpu)))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_config_destroy(cfg);
    if (s) {
        trapeze_simd_kernel_destroy(k);
        return s;
    }
    *out = k;
    return TRAPEZE_OK;
}

trapeze_status trapeze_simd_kernel_builtin(const char *gpu, const char *name,
                                           char *const *params, int n_params,
                                           trapeze_simd_kernel **out, trapeze_error *err)
{
    const sim_builtin *b = sim_builtin_find(name);
    *out = NULL;
    if (!b)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s' (trapeze sim --list)",
                            name);
    trapeze_status s = kernel_new(gpu, out, err);
    if (!s && (s = sim_builtin_params(b, n_params, (char **)params, (*out)->p, err))) {
        trapeze_simd_kernel_destroy(*out);
        *out = NULL;
    }
    if (!s)
        (*out)->builtin = b;
    return s;
}

trapeze_status trapeze_simd_kernel_trace(const char *gpu, const char *kernelslist,
                                         trapeze_simd_kernel **out, trapeze_error *err)
{
    sim_trace_list l;
    trapeze_status s = sim_trace_list_read(kernelslist, &l, err);
    *out = NULL;
    if (s)
        return s;
    if (l.n < 1)
        s = trapeze_fail(err, TRAPEZE_EINVAL, "%s: no kernel", kernelslist);
    if (!s && !(s = kernel_new(gpu, out, err)) && !((*out)->trace = trapeze_strdup(l.kernels[0]))) {
        trapeze_simd_kernel_destroy(*out);
        *out = NULL;
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    sim_trace_list_free(&l);
    return s;
}

/* One run of the launch on the GPU with the option lines `extra`. */
static trapeze_status run(const trapeze_simd_kernel *k, const char *extra, sim_kernel_stats *st,
                          trapeze_error *err)
{
    trapeze_config *cfg = NULL;
    sim_gpu *g = NULL;
    sim_kernel *built = NULL;
    sim_trace_kernel *t = NULL;
    int nb = 0;
    trapeze_status s = trapeze_config_load(k->gpu, &cfg, err);
    if (!s)
        s = trapeze_config_extend(cfg, extra, "the simd sample's options", err);
    if (!s)
        s = sim_gpu_create(cfg, NULL, &g, err);
    if (!s)
        s = k->builtin ? k->builtin->build(sim_gpu_config(g), k->p, &built, 1, &nb, err)
                       : sim_trace_kernel_open(k->trace, &t, err);
    if (!s)
        s = sim_gpu_run(g, built ? built : sim_trace_kernel_sim(t), st, err);
    if (!s && t && (s = sim_trace_kernel_status(t, err)))
        sim_kernel_stats_free(st);
    sim_kernel_destroy(built);
    sim_trace_kernel_close(t);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    return s;
}

static trapeze_status simulate(const trapeze_simd_kernel *k, int w, int d, long window,
                               sim_kernel_stats *st, trapeze_error *err)
{
    char o[160];
    snprintf(o, sizeof o, "\n-trapeze_rsimd_width %d\n-trapeze_rsimd_depth %d\n"
                          "-trapeze_window_warp_insts %ld\n", w, d, window);
    return run(k, o, st, err);
}

trapeze_status trapeze_simd_simulate(const trapeze_simd_kernel *k, int w, int d, long window,
                                     trapeze_simd_run *out, trapeze_error *err)
{
    sim_kernel_stats st;
    trapeze_status s = simulate(k, w, d, window, &st, err);
    if (s)
        return s;
    *out = (trapeze_simd_run){st.cycles, st.total.warp_insts, st.total.thread_insts};
    sim_kernel_stats_free(&st);
    return TRAPEZE_OK;
}

/* The model's sample of k at full width and `depth` warps per SM: the
 * first `window` warp instructions, its counters per SM. */
static trapeze_status sample(const trapeze_simd_kernel *k, int depth, long window,
                             trapeze_simd_sample *out, trapeze_error *err)
{
    sim_kernel_stats st;
    trapeze_status s = simulate(k, 32, depth, window, &st, err);
    if (s)
        return s;
    double n_sm = k->core.gpu.n_sm;
    uint64_t slots = st.total.issue_slots;
    for (int i = 0; i < SIM_STALL_COUNT; i++)
        slots += st.total.stall[i];
    *out = (trapeze_simd_sample){
        .threads = 32 * depth, .depth = depth, .cycles = (double)st.cycles,
        .thread_insts = (double)st.total.thread_insts / n_sm,
        .warp_insts = (double)st.total.warp_insts / n_sm,
        .l1_accesses = (double)st.mem.l1.accesses / n_sm,
        .l1_misses = (double)(st.mem.l1.accesses - st.mem.l1.hits) / n_sm,
        .mem_share = slots ? (double)st.total.stall[SIM_STALL_MEMORY] / (double)slots : 0};
    sim_kernel_stats_free(&st);
    return TRAPEZE_OK;
}

trapeze_status trapeze_simd_decide(const trapeze_simd_kernel *k, long window,
                                   trapeze_simd_decision *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    out->n_sm = k->core.gpu.n_sm;
    out->n_sched = k->core.n_sched;
    out->max_warps = k->core.max_warps;
    out->window = window;
    int all = k->core.max_warps, t = 32 * all;
    if (window < 1 || all < 4)
        return trapeze_fail(err, TRAPEZE_EINVAL, "simd model: needs a window of at least one "
                            "warp instruction and 4 warps per SM (%d)", all);
    for (int i = 0; i < TRAPEZE_SIMD_ORGS; i++) {
        out->width[i] = 32 >> (i / 3);
        out->depth[i] = (t >> (2 - i % 3)) / out->width[i];
    }
    trapeze_simd_model m;
    trapeze_status s = sample(k, all, window, &out->a, err);
    if (!s)
        s = sample(k, all / 4, window, &out->b, err);
    if (!s)
        s = trapeze_simd_fit(&out->a, &out->b, k->core.n_sched, &m, err);
    if (s)
        return s;
    for (int i = 0; i < TRAPEZE_SIMD_ORGS; i++)
        out->per_thread_inst[i] = trapeze_simd_predict(&m, out->width[i], out->depth[i]);
    out->pick = trapeze_simd_pick(&m, out->width, out->depth, TRAPEZE_SIMD_ORGS);
    return TRAPEZE_OK;
}
