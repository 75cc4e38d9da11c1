/*
 * window.c - the simulations the sleep model is calibrated and validated
 * on (sim_sleep_window, sim_sleep_whole; sampler/sleep/sleep_sample.c parses the
 * jobs and keeps the statistics, through sim/sim.h). A job is a built-in
 * kernel ("matmul n=128") or a ghost-zone stencil ("hotspot size=256x256
 * sync=fence h=2 iters=8"). Four ways to run one:
 *
 * - a window (sim_sleep_window): the run's first N cycles, every
 *   structure always on (so that no policy moves the periods), the
 *   simulator's idle-period histograms turned into the neutral
 *   trapeze_idle_hist, one per unit kind, the run's launches summed (one
 *   policy serves them all). A launch the window cuts stops there: its
 *   periods that ended count as they are; those still open (censored: the
 *   true period is longer and may end in a read or a write) are spread over
 *   the completed periods longer than their age, in their proportions
 *   (trapeze_idle_hist_add_censored); where none is longer, dead at their
 *   age, except the share of the L1 and L2 frames not touched yet that the
 *   footprint will fill before the run ends (a write at their age), and
 *   the L1s the grid's last wave leaves dead. Counted dead at the cut, the
 *   earlier rule, they overstated the saving where the window is a small
 *   part of a long run (GESUMMV's L2); counted as reads, 6-23 points too
 *   little (docs/sleep.md);
 * - a spread sample (sim_sleep_window with spread_cycles; the
 *   commands' --no-jump, and their default where a jump sample would cost
 *   half the run or more): the run simulated always on to its end, its periods
 *   recorded where they end in the first window or overlap a window of a
 *   fifth of every `spread` cycles after it (spread.c), those
 *   weighted by the inverse of their chance to, and the dead periods
 *   counted wherever they end. Why: a window at the start sees
 *   the start only (GTX 480 SYRK 128: its registers' loads miss every 32
 *   iterations of a loop 400000 cycles long; the first 20000 cycles
 *   predicted 93.2% of the RF leakage saved, the simulation 87.7%). The
 *   simulation between the windows is the sample's cost: the whole run;
 * - a jump sample (sim_sleep_window with a negative spread_cycles;
 *   run_jumps): the first window, then windows whose simulation starts at
 *   a later block, loop trip or launch without simulating up to it, and
 *   launch ends, weighted by warp instructions (the skipped run's cycles
 *   are not known); periods longer than SIM_JUMP_LONG counted where
 *   they end, their cycles from the idle unit-cycles inside the recordings;
 *   the launch ends' warp tails stretched to whole blocks (jump.c).
 *   Used where it costs under half the run, else the spread sample (the
 *   commands' default);
 *   with a cap (sim_sleep_window's cap > 0, `--cap`), fewer windows and
 *   ends and a shorter first window where the whole plan costs more than
 *   the cap (jump_run.c);
 * - a whole run with sleep policies in the timing (sim_sleep_whole), the
 *   ground truth: per structure the unit-cycles in each mode and the
 *   wake-up stall the policy exposed.
 *
 * This file builds a job's kernels and picks the run; the runs are
 * cut.c's, spread_run.c's, jump_run.c's and jump_window.c's (runs.h).
 * Every simulator status is checked: an error inside any window ends the
 * sample with that error. Owns the mechanics; no model, no format, no
 * plan.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/power/sleep.h"
#include "sim/sample/idle_export.h"
#include "sim/sample/runs.h"
#include "sim/sim.h"

/* The unit kinds a sample measures, in trapeze_sleep_run's hist[] order. */
const sim_sleep_sampled sim_sleep_units[TRAPEZE_SLEEP_NUNITS] = {
    {SIM_UNIT_L1_LINE, "l1d", "line"}, {SIM_UNIT_L1_BANK, "l1d", "bank"},
    {SIM_UNIT_L2_LINE, "l2", "line"},  {SIM_UNIT_L2_BANK, "l2", "slice"},
    {SIM_UNIT_REG, "rf", "warp_reg"},  {SIM_UNIT_REG_BANK, "rf", "bank"}};

/* Job j's kernels, built for g (free with sim_sleep_release). */
trapeze_status sim_sleep_build(const trapeze_sleep_job *j, sim_gpu *g, sim_sleep_kernels *out,
                               trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (j->stencil) {
        sim_stencil_spec spec = {.workload = &j->workload, .h = j->h, .sync = j->sync,
                                 .iterations = j->iterations};
        int bps;
        const char *limit;
        trapeze_status s = sim_stencil_build_sized(sim_gpu_config(g), &spec, &out->stencil, &bps,
                                                   &limit, err);
        if (!s) {
            out->ks = out->stencil->kernels;
            out->n = out->stencil->n_kernels;
            out->persistent = j->sync == TRAPEZE_SYNC_FENCE;
        }
        return s;
    }
    const sim_builtin *b = sim_builtin_find(j->name);
    char *argv[TRAPEZE_SLEEP_JOB_ARGS];
    for (int i = 0; i < j->argc; i++)
        argv[i] = (char *)j->args[i];
    long p[SIM_BUILTIN_MAX_PARAMS];
    trapeze_status s = b ? sim_builtin_params(b, j->argc, argv, p, err)
                         : trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s'", j->name);
    if (s)
        return s;
    if (!(out->ks = calloc(SIM_SLEEP_MAX_LAUNCHES, sizeof *out->ks)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    return b->build(sim_gpu_config(g), p, out->ks, SIM_SLEEP_MAX_LAUNCHES, &out->n, err);
}

void sim_sleep_release(sim_sleep_kernels *k)
{
    if (k->stencil) {
        sim_stencil_destroy(k->stencil);
    } else if (k->ks) {
        for (int i = 0; i < k->n; i++)
            sim_kernel_destroy(k->ks[i]);
        free(k->ks);
    }
}

static trapeze_status run_job(const trapeze_config *cfg, const trapeze_sleep_job *j,
                              const sim_gpu_options *opt, double window,
                              const sim_spread *spread, int jump, double cap,
                              trapeze_sleep_run *out,
                              void (*each)(void *, sim_gpu *, const sim_kernel_stats *),
                              void *ctx, trapeze_error *err)
{
    sim_gpu *g = NULL;
    sim_sleep_kernels k = {0};
    sim_gpu_options with_threads = *opt;   /* the job's own simulation threads */
    with_threads.threads = j->threads;
    opt = &with_threads;
    /* a warm plan's first window logs its placements (a block's life);
     * fresh windows, if the plan is not warm after all, do not */
    sim_jump_places places = {0};
    sim_gpu_options logged = with_threads;
    int warm = j->warm && jump && cap > 0 && !opt->on_place;
    if (warm) {
        logged.on_place = sim_jump_on_place;
        logged.on_place_ctx = &places;
    }
    trapeze_status s = sim_gpu_create(cfg, &logged, &g, err);
    if (!s && !(s = sim_sleep_build(j, g, &k, err))) {
        const sim_core_config *c = sim_gpu_config(g);
        out->n_sm = c->gpu.n_sm;
        for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
            trapeze_idle_hist_init(&out->hist[u], c->gpu.name, j->name,
                                   sim_sleep_units[u].structure, sim_sleep_units[u].granularity);
        double (*ages)[TRAPEZE_IDLE_NBUCKETS] = calloc(TRAPEZE_SLEEP_NUNITS, sizeof *ages);
        sim_sleep_cut_extra extra[TRAPEZE_SLEEP_NUNITS];
        memset(extra, 0, sizeof extra);
        if (spread && spread->every > 0 && window > 0 && !each) {
            trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS] = calloc(3, sizeof *acc);
            sim_jump_ctx *jc = jump ? calloc(1, sizeof *jc) : NULL;
            if (jc && !(jc->acc = calloc(1, sizeof *jc->acc))) {
                free(jc);
                jc = NULL;
            }
            out->spread = 1;
            if (jc) {
                jc->cfg = cfg;
                jc->opt = opt;
                jc->job = j;
                jc->cap = cap;
                jc->scale = 1;
                jc->warm = warm;
                jc->places = warm ? &places : NULL;
            }
            s = acc && (jc || !jump) ? sim_sleep_run_spread(g, &k, spread, out, acc, jc, err)
                                     : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
            out->jumped = jc && jc->jumped;
            if (!out->jumped)
                out->simulated = out->cycles;
            if (!out->jumped && jc && jc->smallest > 0) {   /* the least plan's windows */
                out->cap_smallest = jc->smallest;
                out->jump_warm = SIM_JUMP_WARM / (1 << SIM_JUMP_HALVINGS);
                out->jump_record = SIM_JUMP_RECORD / (1 << SIM_JUMP_HALVINGS);
            }
            if (out->jumped) {   /* the run's work, counted at the jump decision */
                out->run_insts = jc->total_insts;
                out->jump_warm = jc->warm_len > 0 ? jc->warm_len : SIM_JUMP_WARM * jc->scale;
                out->jump_record = jc->warm_len > 0 ? jc->warm_len : SIM_JUMP_RECORD * jc->scale;
                out->jump_windows = jc->windows;
                out->warm = jc->warm_len > 0;
            }
            for (int u = 0; jc && u < TRAPEZE_SLEEP_NUNITS; u++) {
                free(jc->acc->unused[u]);
                free(jc->acc->first_open[u]);
            }
            if (jc)
                free(jc->acc);
            free(jc);
            free(acc);
        } else
        s = ages ? sim_sleep_run_cut(g, &k, window, out, ages, extra, each, ctx, err)
                 : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        if (!s && !out->jumped && !out->cut)   /* simulated to its end */
            out->run_insts = out->warp_insts;
        /* the launches that ended whole: their kept histograms */
        for (int i = 0; !s && !out->spread && opt->keep_idle && i < sim_gpu_idle_count(g); i++) {
            const sim_idle_hist *kinds = sim_gpu_idle(g, i, NULL);
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
                sim_idle_export_add(&out->hist[u], &kinds[sim_sleep_units[u].kind]);
        }
        /* then the cut's open periods, spread over every completed one */
        for (int u = 0; !s && out->cut && u < TRAPEZE_SLEEP_NUNITS; u++) {
            trapeze_idle_hist_add_censored(&out->hist[u], ages[u], extra[u].filled);
            int b = trapeze_idle_bucket(extra[u].dead_length);
            if (extra[u].dead_periods > 0 && b >= 0)
                out->hist[u].count[TRAPEZE_NEXT_DEAD][b] += extra[u].dead_periods;
        }
        free(ages);
        for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
            out->hist[u].cycles = out->cycles;
            out->hist[u].requesters = out->n_sm;
        }
    }
    sim_sleep_release(&k);
    sim_gpu_destroy(g);
    free(places.sm);
    free(places.cycle);
    return s;
}

trapeze_status sim_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                const trapeze_sleep_job *j, double window_cycles,
                                double spread_cycles, double cap, trapeze_sleep_run *out,
                                trapeze_error *err)
{
    sim_spread sp;
    /* spread_cycles < 0: a jump sample, or where it would cost as much as
     * the run, the spread sample of stride -spread_cycles */
    sim_spread_init(&sp, window_cycles, fabs(spread_cycles));
    memset(out, 0, sizeof *out);
    sim_sleep_config always_on;
    sim_gpu_options opt;
    sim_idle_window_options(pw, &always_on, &opt);
    return run_job(cfg, j, &opt, window_cycles, &sp, spread_cycles < 0, cap, out, NULL, NULL,
                   err);
}

/* Adds one launch's sleep result of structure x to out. */
static void add_result(trapeze_sleep_run *out, int x, const sim_sleep_result *r)
{
    for (int m = 0; m < TRAPEZE_POWER_MAX_MODES; m++) {
        out->mode_cycles[x][m] += (double)r->mode_cycles[m];
        out->entries[x][m] += (double)r->entries[m];
    }
    out->stall[x] += (double)r->stall_cycles;
}

/* Sums each whole launch's sleep results (the policies' mode cycles and
 * stalls, from the simulator's energy accounting). */
static void add_sleep(void *ctx, sim_gpu *g, const sim_kernel_stats *st)
{
    (void)g;
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE && st->energy_valid; s++)
        add_result(ctx, s, &st->energy.sleep[s]);
}

/* Structure x sleeping at theta under sim_sleep_whole's policy for it:
 * Snooze at line level for the caches (one time-out), Slumber for the RF. */
static trapeze_status set_policy(sim_sleep_config *sc, int x, const double *theta,
                                 trapeze_error *err)
{
    static const char *const policy[TRAPEZE_PS_SLEEPABLE] = {"snooze:line", "snooze:line",
                                                             "slumber"};
    trapeze_status s = sim_sleep_config_set(sc, (trapeze_power_structure)x, policy[x], err);
    if (s)
        return s;
    if (x == TRAPEZE_PS_RF)
        for (int m = 0; m < 3; m++)
            sc->s[x].p.slumber[m] = (int)theta[m];
    else
        sc->s[x].p.threshold = (int)theta[0];
    return TRAPEZE_OK;
}

/* That policy bound to pw's modes for its decisions alone (which mode,
 * how long, what stall: no clock or unit leakage enters them). */
static trapeze_status bind_policy(const trapeze_config *cfg, const trapeze_power *pw, int x,
                                  const double *theta, sim_sleep_choice *out, trapeze_error *err)
{
    sim_sleep_config sc;
    trapeze_status s = sim_sleep_config_read(cfg, &sc, err);
    if (!s && !(s = set_policy(&sc, x, theta, err)))
        s = sim_sleep_bind(&sc.s[x], (trapeze_power_structure)x, pw, 1, 0, err);
    if (!s)
        *out = sc.s[x];
    return s;
}

trapeze_status sim_sleep_hides_wakes(const trapeze_config *cfg, const trapeze_power *pw, int x,
                                     const double *theta, int *hidden, trapeze_error *err)
{
    *hidden = 0;
    sim_sleep_choice c;
    trapeze_status s = bind_policy(cfg, pw, x, theta, &c, err);
    if (s)
        return s;
    /* A policy's decision changes only where a period's length crosses one
     * of its parameters (thresholds, look-ahead, wake-ups), so every length
     * up to past the largest, and one far beyond, covers every case. */
    uint64_t top = (uint64_t)c.p.lookahead + (uint64_t)c.p.threshold;
    for (int m = 0; m < 3; m++)
        if ((uint64_t)c.p.slumber[m] > top)
            top = (uint64_t)c.p.slumber[m];
    for (int m = 0; m < c.p.n_modes; m++)
        top += (uint64_t)c.p.mode[m].wake_cycles;
    const sim_sleep_ops *ops = sim_sleep_policy(c.kind);
    for (int n = SIM_NEXT_READ; n <= SIM_NEXT_WRITE; n++)
        for (uint64_t len = 1; len <= top + 3; len++) {
            sim_sleep_gap gap;
            ops->gap(&c.p, len <= top + 2 ? len : (uint64_t)1 << 40, (sim_next_access)n, &gap);
            if (gap.stall)
                return TRAPEZE_OK;
        }
    *hidden = 1;
    return TRAPEZE_OK;
}
/* sim_sleep_whole with each launch's statistics to `each`. */
static trapeze_status whole_run(const trapeze_config *cfg, const trapeze_power *pw,
                                const trapeze_sleep_job *j, const trapeze_sleep_setting *set,
                                trapeze_sleep_run *out,
                                void (*each)(void *, sim_gpu *, const sim_kernel_stats *),
                                void *ctx, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sim_sleep_config sc;
    trapeze_status s = sim_sleep_config_read(cfg, &sc, err);
    for (int x = 0; !s && x < TRAPEZE_PS_SLEEPABLE; x++)
        s = set && set->on[x]
                ? set_policy(&sc, x, set->theta[x], err)
                : sim_sleep_config_set(&sc, (trapeze_power_structure)x, "always_on", err);
    if (s)
        return s;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.power = pw;
    opt.sleep = &sc;
    return run_job(cfg, j, &opt, 0, NULL, 0, 0, out, each, ctx, err);
}

trapeze_status sim_sleep_whole(const trapeze_config *cfg, const trapeze_power *pw,
                               const trapeze_sleep_job *j, const trapeze_sleep_setting *set,
                               trapeze_sleep_run *out, trapeze_error *err)
{
    return whole_run(cfg, pw, j, set, out, add_sleep, out, err);
}

/* sim_sleep_whole_hidden's settings, bound, and where their sums go. */
typedef struct {
    int n;
    const int *x;
    const sim_sleep_choice *c;
    trapeze_sleep_run *const *out;
} hidden_ctx;

/* Each setting's policy on the launch's histograms of its unit kind: what
 * the energy accounting (sim/power/energy.c) computes for the policy in
 * the timing, which these would not have moved. */
static void add_hidden(void *ctx, sim_gpu *g, const sim_kernel_stats *st)
{
    const hidden_ctx *h = ctx;
    sim_events *ev = sim_gpu_events(g);
    for (int i = 0; i < h->n && st->energy_valid; i++) {
        sim_sleep_result r;
        sim_unit_kind k = sim_sleep_unit((trapeze_power_structure)h->x[i], h->c[i].line);
        sim_sleep_evaluate(sim_sleep_policy(h->c[i].kind), &h->c[i].p, sim_events_hist(ev, k),
                           &r);
        add_result(h->out[i], h->x[i], &r);
    }
}

trapeze_status sim_sleep_whole_hidden(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *j, int n, const int *x,
                                      const double (*theta)[TRAPEZE_SLEEP_MAX_MODES],
                                      trapeze_sleep_run *const *out, trapeze_error *err)
{
    sim_sleep_choice *c = calloc((size_t)(n > 0 ? n : 1), sizeof *c);
    trapeze_status s = c ? TRAPEZE_OK : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; !s && i < n; i++) {
        int hidden = 0;
        if (!(s = sim_sleep_hides_wakes(cfg, pw, x[i], theta[i], &hidden, err)) && !hidden)
            s = trapeze_fail(err, TRAPEZE_EINVAL,
                             "%s at %g/%g/%g exposes wake-ups: it needs a run of its own",
                             trapeze_power_structure_name((trapeze_power_structure)x[i]),
                             theta[i][0], theta[i][1], theta[i][2]);
        if (!s)
            s = bind_policy(cfg, pw, x[i], theta[i], &c[i], err);
        if (!s)
            memset(out[i], 0, sizeof *out[i]);
    }
    if (!s && n > 0) {
        hidden_ctx h = {n, x, c, out};
        s = whole_run(cfg, pw, j, NULL, out[0], add_hidden, &h, err);
    }
    /* the run's own figures, the same for every setting */
    for (int i = 1; !s && i < n; i++) {
        trapeze_sleep_run *o = out[i];
        o->cycles = out[0]->cycles;
        o->warp_insts = out[0]->warp_insts;
        o->run_insts = out[0]->run_insts;
        o->n_sm = out[0]->n_sm;
        memcpy(o->hist, out[0]->hist, sizeof o->hist);
    }
    free(c);
    return s;
}
