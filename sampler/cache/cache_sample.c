/*
 * cache_sample.c - the cache-contention decision's samples and whole runs
 * (include/trapeze/cache.h): a built-in kernel on a GPU config with a
 * policy's lines and the contention counters added, its launches' counters
 * summed: a sample runs each launch alone on a fresh GPU up to a window of
 * warp instructions (-trapeze_window_warp_insts; a windowed launch must be
 * a GPU's last), or to its end when less than one more window would be
 * left after it (trapeze_cache_launch_window), so that a run whose first launch has no contention (bicg)
 * is still judged by the others; a whole run (window 0) runs the sequence
 * on one GPU. A window's cycles are also taken at its slowest SM's pace
 * (slowest.h). Then the decision (the baseline's sample first, the others
 * only when the model finds contention).
 *
 * Joins sim/ (reached through sim/sim.h) and the model; owns no model and
 * no format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config_extend.h"
#include "common/error.h"
#include "sampler/cache/slowest.h"
#include "sim/sim.h"

enum { MAX_LAUNCHES = 64 };

static void add_counts(trapeze_cache_counts *o, const sim_kernel_stats *st)
{
    const sim_sm_stats *t = &st->total;
    const sim_cache_stats *l1 = &st->mem.l1;
    o->cycles += (double)st->cycles;
    o->slowest_cycles += trapeze_cache_slowest_cycles(st);
    o->warp_insts += (double)t->warp_insts;
    o->sm_active_cycles += (double)t->active_cycles;
    /* the L1's own refusals (the LDST unit sees a refused head of the L1's
     * latency queue as a busy bank): one a bank cycle while a request waits */
    o->refused_resource += (double)(l1->fails[SIM_FAIL_LINE_ALLOC] +
                                    l1->fails[SIM_FAIL_MSHR_ENTRY] +
                                    l1->fails[SIM_FAIL_MSHR_MERGE]);
    o->l1_accesses += (double)l1->accesses;
    o->l1_hits += (double)l1->hits;
    o->l1_bypasses += (double)l1->bypasses;
    o->l1_evictions += (double)l1->evictions;
    o->l1_evicted_unused += (double)l1->evicted_unused;
    o->miss_iw += (double)l1->miss_iw;
    o->miss_xw += (double)l1->miss_xw;
    o->miss_xb += (double)l1->miss_xb;
}

/* gpu's config with the policy's lines, the counters and the window. */
static trapeze_status policy_config(const char *gpu, trapeze_cache_policy p,
                                    unsigned long long window, trapeze_config **cfg,
                                    trapeze_error *err)
{
    trapeze_status s = trapeze_config_load(gpu, cfg, err);
    char text[512];
    snprintf(text, sizeof text, "-trapeze_contention_counters 1\n%s-trapeze_window_warp_insts %llu\n",
             trapeze_cache_policy_options(p), window);
    if (!s)   /* named so that an error in the lines names the policy */
        s = trapeze_config_extend(*cfg, text, trapeze_cache_policy_name(p), err);
    if (s) {
        trapeze_config_destroy(*cfg);
        *cfg = NULL;
    }
    return s;
}

/* A windowed launch that trapeze_cache_launch_window runs to its end: g
 * (of the windowed config) replaced by a GPU of the whole-run config. */
static trapeze_status place_window(const trapeze_config *whole, const sim_kernel *k,
                                   sim_gpu **g, trapeze_error *err)
{
    unsigned long long w = sim_gpu_config(*g)->window_warp_insts;
    if (trapeze_cache_launch_window(sim_sleep_count_insts(k), w) == w)
        return TRAPEZE_OK;
    sim_gpu_destroy(*g);
    *g = NULL;
    return sim_gpu_create(whole, NULL, g, err);
}

/* Runs launch `first` (all from it when `all`) of b's sequence on a new
 * GPU of cfg (of whole where the window placement says), summing into
 * out; *nk: the sequence's launches. */
static trapeze_status run_launches(const trapeze_config *cfg, const trapeze_config *whole,
                                   const sim_builtin *b, const long *prm, int first, int all,
                                   int *nk, trapeze_cache_counts *out, trapeze_error *err)
{
    sim_gpu *g = NULL;
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    *nk = 0;
    trapeze_status s = ks ? sim_gpu_create(cfg, NULL, &g, err)
                          : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = b->build(sim_gpu_config(g), prm, ks, MAX_LAUNCHES, nk, err);
    if (!s && !all && first < *nk)   /* the kernels keep no pointer to g */
        s = place_window(whole, ks[first], &g, err);
    for (int i = first; !s && i < *nk && (all || i == first); i++) {
        sim_kernel_stats st;
        sim_gpu_sequence_at(g, i + 1, *nk);
        if (!(s = sim_gpu_run(g, ks[i], &st, err)))
            add_counts(out, &st);
        sim_kernel_stats_free(&st);
    }
    for (int i = 0; ks && i < *nk; i++)
        sim_kernel_destroy(ks[i]);
    free(ks);
    sim_gpu_destroy(g);
    return s;
}

trapeze_status trapeze_cache_sample(const char *gpu, const char *kernel, char *const *settings,
                                    int n_settings, trapeze_cache_policy p,
                                    unsigned long long window, trapeze_cache_counts *out,
                                    trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    const sim_builtin *b = sim_builtin_find(kernel);
    if (!b)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s' (see trapeze sim --list)",
                            kernel);
    if (p < 0 || p >= TRAPEZE_CACHE_POLICIES)
        return trapeze_fail(err, TRAPEZE_EINVAL, "cache sample: no policy %d", (int)p);
    long prm[SIM_BUILTIN_MAX_PARAMS];
    trapeze_config *cfg = NULL, *whole = NULL;
    int nk = 1;
    trapeze_status s = sim_builtin_params(b, n_settings, (char **)settings, prm, err);
    if (!s)
        s = policy_config(gpu, p, window, &cfg, err);
    if (!s && window)
        s = policy_config(gpu, p, 0, &whole, err);
    for (int i = 0; !s && i < nk; i += window ? 1 : nk)
        s = run_launches(cfg, whole, b, prm, i, !window, &nk, out, err);
    out->taken = !s;
    trapeze_config_destroy(cfg);
    trapeze_config_destroy(whole);
    return s;
}

trapeze_status trapeze_cache_choose(const trapeze_cache_model *m, const char *gpu,
                                    const char *kernel, char *const *settings, int n_settings,
                                    unsigned long long window, trapeze_cache_decision *d,
                                    trapeze_error *err)
{
    memset(d, 0, sizeof *d);
    trapeze_status s = trapeze_cache_sample(gpu, kernel, settings, n_settings,
                                            TRAPEZE_CACHE_NONE, window,
                                            &d->sample[TRAPEZE_CACHE_NONE], err);
    for (int p = 1; !s && p < TRAPEZE_CACHE_POLICIES; p++)
        if (trapeze_cache_sampled(m, &d->sample[TRAPEZE_CACHE_NONE], (trapeze_cache_policy)p))
            s = trapeze_cache_sample(gpu, kernel, settings, n_settings, (trapeze_cache_policy)p,
                                     window, &d->sample[p], err);
    return s ? s : trapeze_cache_decide(m, d, err);
}
