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
 * (slowest.h). Under a model with a window share the window is sized per
 * launch (trapeze_cache_window_for) and the launch's whole run predicted
 * from the cycles at the window's midpoint and end (run_cycles). The baseline's sample also sums the L1D's per-PC counters
 * and marks each load PC whose own locality graph has a line read by two
 * blocks resident on one SM (what the pcs candidate keeps cached). Then the
 * decision (the baseline's sample first, the others only when the model
 * finds contention, pcs with the PCs the model names).
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

/* The launch's per-PC counters added to o's, by PC, ascending (a PC past
 * o's room is left out, as the simulator's table leaves its extra PCs). */
static void add_pcs(trapeze_cache_counts *o, const sim_mem_stats *m)
{
    for (uint64_t k = 0; k < m->n_pcs; k++) {
        const sim_pc_stats *e = &m->pcs[k];
        int i = 0;
        while (i < o->n_pcs && o->pc[i] < e->pc)
            i++;
        if (i == o->n_pcs || o->pc[i] != e->pc) {
            if (o->n_pcs == TRAPEZE_CACHE_MAX_PCS)
                continue;
            for (int j = o->n_pcs++; j > i; j--) {
                o->pc[j] = o->pc[j - 1];
                o->pc_accesses[j] = o->pc_accesses[j - 1];
                o->pc_misses[j] = o->pc_misses[j - 1];
                o->pc_evictions[j] = o->pc_evictions[j - 1];
                o->pc_evicted_unused[j] = o->pc_evicted_unused[j - 1];
                o->pc_shared[j] = o->pc_shared[j - 1];
            }
            o->pc[i] = (unsigned)e->pc;
            o->pc_accesses[i] = o->pc_misses[i] = o->pc_evictions[i] = 0;
            o->pc_evicted_unused[i] = 0;
            o->pc_shared[i] = 0;
        }
        o->pc_accesses[i] += (double)e->accesses;
        o->pc_misses[i] += (double)e->misses;
        o->pc_evictions[i] += (double)e->evictions;
        o->pc_evicted_unused[i] += (double)e->evicted_unused;
    }
}

/* Whether the locality graph of k's loads at pc has a line read by two
 * blocks resident on one SM at once: blocks i and j of the first wave
 * (i, j < n_sm x resident blocks per SM) with i = j mod n_sm, where the
 * round-robin dispatch puts them. */
static trapeze_status shared_on_sm(const sim_kernel *k, unsigned pc, int n_sm, long resident,
                                   int *shared, trapeze_error *err)
{
    trapeze_locality_graph g;
    trapeze_status s = sim_locality_build_pc(k, SIM_LINE_BYTES, (int64_t)pc, &g, err);
    long wave = (long)n_sm * resident;
    for (long e = 0; !s && e < g.n_edges && !*shared; e++)
        *shared = g.edges[e].shared_lines > 0 && g.edges[e].tb_i < wave &&
                  g.edges[e].tb_j < wave && g.edges[e].tb_i % n_sm == g.edges[e].tb_j % n_sm;
    trapeze_locality_graph_free(&g);
    return s;
}

/* The baseline's launch: each PC it loads from marked shared when its
 * graph says so (once a PC is shared in one launch it stays so). */
static trapeze_status mark_shared(trapeze_cache_counts *o, const sim_kernel *k, int n_sm,
                                  const sim_kernel_stats *st, trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    for (uint64_t q = 0; !s && q < st->mem.n_pcs; q++)
        for (int i = 0; !s && i < o->n_pcs; i++)
            if (o->pc[i] == st->mem.pcs[q].pc && !o->pc_shared[i])
                s = shared_on_sm(k, o->pc[i], n_sm, (long)st->resident_blocks_per_sm,
                                 &o->pc_shared[i], err);
    return s;
}

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
    if (st->mem_stats_valid)
        add_pcs(o, &st->mem);
}

/* gpu's config with the policy's lines, the counters and the window. */
static trapeze_status policy_config(const char *gpu, trapeze_cache_policy p,
                                    const char *pcs_line, unsigned long long window,
                                    trapeze_config **cfg, trapeze_error *err)
{
    trapeze_status s = trapeze_config_load(gpu, cfg, err);
    char text[768];
    snprintf(text, sizeof text, "-trapeze_contention_counters 1\n%s%s-trapeze_window_warp_insts %llu\n",
             trapeze_cache_policy_options(p), pcs_line, window);
    if (!s)   /* named so that an error in the lines names the policy */
        s = trapeze_config_extend(*cfg, text, trapeze_cache_policy_name(p), err);
    if (s) {
        trapeze_config_destroy(*cfg);
        *cfg = NULL;
    }
    return s;
}

typedef struct policy_run {
    const trapeze_cache_model *m;   /* NULL or share 0: a fixed window */
    const char *gpu, *line;
    trapeze_cache_policy p;
    unsigned long long window;      /* 0: whole runs */
    sim_gpu_options opt;            /* every GPU's: its simulation threads */
} policy_run;

/* The GPU launch k runs on: g of the windowed config, or of the config
 * whose window trapeze_cache_window_for places for k (the whole-run config
 * `whole` when that is 0: a sized sample's g is of it already);
 * *launch_insts: k's warp instructions counted from its program. */
static trapeze_status place_window(const policy_run *r, const trapeze_config *whole,
                                   const sim_kernel *k, sim_gpu **g, double *launch_insts,
                                   trapeze_error *err)
{
    int sized = r->m && r->m->window_share > 0;
    *launch_insts = sim_sleep_count_insts(k);
    unsigned long long w = trapeze_cache_window_for(sized ? r->m : NULL, *launch_insts, r->window);
    if (sized ? !w : w == r->window)
        return TRAPEZE_OK;
    sim_gpu_destroy(*g);
    *g = NULL;
    if (!sized)
        return sim_gpu_create(whole, &r->opt, g, err);
    trapeze_config *cfg = NULL;
    trapeze_status s = policy_config(r->gpu, r->p, r->line, w, &cfg, err);
    if (!s)
        s = sim_gpu_create(cfg, &r->opt, g, err);
    trapeze_config_destroy(cfg);
    return s;
}

/* Runs k on g, noting the cycles and warp instructions when it passes
 * half its window (a whole run: at its start). */
static trapeze_status run_noting_mid(sim_gpu *g, const sim_kernel *k, sim_kernel_stats *st,
                                     double *mid_cycles, double *mid_insts, trapeze_error *err)
{
    sim_launch l;
    trapeze_status s = sim_gpu_launch_begin(g, k, st, &l, err);
    if (s)
        return s;
    sim_launch_run_until_insts(&l, sim_gpu_config(g)->window_warp_insts / 2, err);
    *mid_cycles = (double)(l.t - l.start);
    *mid_insts = (double)sim_gpu_launch_warp_insts(&l);
    while (sim_gpu_launch_step(&l, err))
        ;
    return sim_gpu_launch_end(&l, err);
}

/* The launch's whole run predicted from its window into out (sized
 * samples): extrapolated, at the slowest SM's pace; a launch run to its
 * end, its cycles. */
static void add_run(trapeze_cache_counts *out, const sim_kernel_stats *st, double launch_insts,
                    double mid_cycles, double mid_insts)
{
    double c = (double)st->cycles, run = c;
    out->run_warp_insts += launch_insts;
    if (st->windowed) {
        run = trapeze_cache_extrapolate(mid_cycles, mid_insts, c, (double)st->total.warp_insts,
                                        launch_insts);
        if (c > 0)   /* a one-wave launch ends with its slowest SM */
            run *= trapeze_cache_slowest_cycles(st) / c;
        out->mid_cycles += mid_cycles;
        out->mid_warp_insts += mid_insts;
    }
    out->run_cycles += run;
}

/* Runs launch `first` (all from it when `all`) of b's sequence on a new
 * GPU of cfg (of whole, or of the sized window, where the window placement
 * says), summing into out; *nk: the sequence's launches. */
static trapeze_status run_launches(const policy_run *r, const trapeze_config *cfg,
                                   const trapeze_config *whole, const sim_builtin *b,
                                   const long *prm, int first, int all, int locality, int *nk,
                                   trapeze_cache_counts *out, trapeze_error *err)
{
    sim_gpu *g = NULL;
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    int sized = !all && r->m && r->m->window_share > 0;
    double launch_insts = 0, mid_cycles = 0, mid_insts = 0;
    *nk = 0;
    trapeze_status s = ks ? sim_gpu_create(sized ? whole : cfg, &r->opt, &g, err)
                          : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = b->build(sim_gpu_config(g), prm, ks, MAX_LAUNCHES, nk, err);
    if (!s && !all && first < *nk)   /* the kernels keep no pointer to g */
        s = place_window(r, whole, ks[first], &g, &launch_insts, err);
    for (int i = first; !s && i < *nk && (all || i == first); i++) {
        sim_kernel_stats st;
        sim_gpu_sequence_at(g, i + 1, *nk);
        if (!(s = run_noting_mid(g, ks[i], &st, &mid_cycles, &mid_insts, err))) {
            add_counts(out, &st);
            if (sized)
                add_run(out, &st, launch_insts, mid_cycles, mid_insts);
        }
        if (!s && locality && st.mem_stats_valid)
            s = mark_shared(out, ks[i], sim_gpu_config(g)->gpu.n_sm, &st, err);
        sim_kernel_stats_free(&st);
    }
    for (int i = 0; ks && i < *nk; i++)
        sim_kernel_destroy(ks[i]);
    free(ks);
    sim_gpu_destroy(g);
    return s;
}

/* "-trapeze_l1_bypass_pcs 0x30,0x58\n" for pcs, else "". */
static void pcs_line(trapeze_cache_policy p, const unsigned *pcs, int n_pcs, char *out,
                     size_t room)
{
    out[0] = 0;
    if (p != TRAPEZE_CACHE_PCS || n_pcs <= 0)
        return;
    size_t n = (size_t)snprintf(out, room, "-trapeze_l1_bypass_pcs ");
    for (int i = 0; i < n_pcs && i < TRAPEZE_CACHE_MAX_PCS && n < room; i++)
        n += (size_t)snprintf(out + n, room - n, "%s0x%x", i ? "," : "", pcs[i]);
    if (n < room)
        snprintf(out + n, room - n, "\n");
}

trapeze_status trapeze_cache_sample(const char *gpu, const char *kernel, char *const *settings,
                                    int n_settings, trapeze_cache_policy p, const unsigned *pcs,
                                    int n_pcs, unsigned long long window, int threads,
                                    trapeze_cache_counts *out, trapeze_error *err)
{
    return trapeze_cache_sample_sized(NULL, gpu, kernel, settings, n_settings, p, pcs, n_pcs,
                                      window, threads, out, err);
}

trapeze_status trapeze_cache_sample_sized(const trapeze_cache_model *m, const char *gpu,
                                          const char *kernel, char *const *settings,
                                          int n_settings, trapeze_cache_policy p,
                                          const unsigned *pcs, int n_pcs,
                                          unsigned long long window, int threads,
                                          trapeze_cache_counts *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    const sim_builtin *b = sim_builtin_find(kernel);
    if (!b)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s' (see trapeze sim --list)",
                            kernel);
    if (p < 0 || p >= TRAPEZE_CACHE_POLICIES)
        return trapeze_fail(err, TRAPEZE_EINVAL, "cache sample: no policy %d", (int)p);
    if (p == TRAPEZE_CACHE_PCS && (n_pcs <= 0 || n_pcs > TRAPEZE_CACHE_MAX_PCS || !pcs))
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "cache sample: policy pcs needs 1 to %d PCs to bypass, got %d",
                            TRAPEZE_CACHE_MAX_PCS, n_pcs);
    char line[256];
    pcs_line(p, pcs, n_pcs, line, sizeof line);
    long prm[SIM_BUILTIN_MAX_PARAMS];
    trapeze_config *cfg = NULL, *whole = NULL;
    int nk = 1;
    trapeze_status s = sim_builtin_params(b, n_settings, (char **)settings, prm, err);
    if (!s)
        s = policy_config(gpu, p, line, window, &cfg, err);
    if (!s && window)
        s = policy_config(gpu, p, line, 0, &whole, err);
    policy_run r = {.m = m, .gpu = gpu, .line = line, .p = p, .window = window};
    r.opt.threads = threads;
    for (int i = 0; !s && i < nk; i += window ? 1 : nk)
        s = run_launches(&r, cfg, whole, b, prm, i, !window, p == TRAPEZE_CACHE_NONE, &nk, out,
                         err);
    out->taken = !s;
    trapeze_config_destroy(cfg);
    trapeze_config_destroy(whole);
    return s;
}

trapeze_status trapeze_cache_choose(const trapeze_cache_model *m, const char *gpu,
                                    const char *kernel, char *const *settings, int n_settings,
                                    unsigned long long window, int threads,
                                    trapeze_cache_decision *d, trapeze_error *err)
{
    memset(d, 0, sizeof *d);
    trapeze_status s = trapeze_cache_sample_sized(m, gpu, kernel, settings, n_settings,
                                                  TRAPEZE_CACHE_NONE, NULL, 0, window, threads,
                                                  &d->sample[TRAPEZE_CACHE_NONE], err);
    unsigned pcs[TRAPEZE_CACHE_MAX_PCS];
    int n_pcs = s ? 0 : trapeze_cache_bypass_pcs(&d->sample[TRAPEZE_CACHE_NONE], pcs);
    for (int p = 1; !s && p < TRAPEZE_CACHE_POLICIES; p++)
        if (trapeze_cache_sampled(m, &d->sample[TRAPEZE_CACHE_NONE], (trapeze_cache_policy)p))
            s = trapeze_cache_sample_sized(m, gpu, kernel, settings, n_settings,
                                           (trapeze_cache_policy)p, pcs, n_pcs, window, threads,
                                           &d->sample[p], err);
    return s ? s : trapeze_cache_decide(m, d, err);
}
