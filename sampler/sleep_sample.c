/*
 * sleep_sample.c - the runs the sleep model is calibrated and validated
 * on. A job is a built-in kernel ("matmul n=128") or a ghost-zone stencil
 * ("hotspot size=256x256 sync=fence h=2 iters=8"). Two ways to run one:
 *
 * - a window (trapeze_sleep_window): the run's first N cycles, every
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
 * - a spread sample (trapeze_sleep_window with spread_cycles, the default
 *   of the commands): the run simulated always on to its end, its periods
 *   recorded where they end in the first window and in a window of a
 *   fifth of every `spread` cycles after it (sleep_spread.c), the later
 *   windows' weighted to stand for the rest of the run, and the dead
 *   periods counted wherever they end. Why: a window at the start sees
 *   the start only (GTX 480 SYRK 128: its registers' loads miss every 32
 *   iterations of a loop 400000 cycles long; the first 20000 cycles
 *   predicted 93.2% of the RF leakage saved, the simulation 87.7%). The
 *   simulation between the windows is the sample's cost: the whole run;
 * - a whole run with sleep policies in the timing (trapeze_sleep_simulate),
 *   the ground truth: per structure the unit-cycles in each mode and the
 *   wake-up stall the policy exposed.
 *
 * Joins sim/ and the model's neutral types; owns no model and no format.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "sampler/idle_hist.h"
#include "sampler/sleep_spread.h"
#include "sim/core/gpu_sim.h"
#include "sim/power/energy.h"
#include "sim/power/sleep.h"
#include "sim/stencil/stencil_run.h"

#define MAX_LAUNCHES 4096

static const struct {
    sim_unit_kind kind;
    const char *structure, *granularity;
} units[TRAPEZE_SLEEP_NUNITS] = {
    {SIM_UNIT_L1_LINE, "l1d", "line"}, {SIM_UNIT_L1_BANK, "l1d", "bank"},
    {SIM_UNIT_L2_LINE, "l2", "line"},  {SIM_UNIT_L2_BANK, "l2", "slice"},
    {SIM_UNIT_REG, "rf", "warp_reg"},  {SIM_UNIT_REG_BANK, "rf", "bank"}};

/* ------------------------------------------------------------------ jobs */

int trapeze_sleep_job_is_builtin(const char *name) { return sim_builtin_find(name) != NULL; }

static trapeze_status parse_stencil_setting(trapeze_sleep_job *j, const char *t,
                                            trapeze_error *err)
{
    const char *v = strchr(t, '=');
    long n;
    if (v && !strncmp(t, "sync=", 5)) {
        if (!strcmp(v + 1, "fence") || !strcmp(v + 1, "relaunch")) {
            j->sync = strcmp(v + 1, "fence") ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
            return TRAPEZE_OK;
        }
    } else if (v && !strncmp(t, "size=", 5)) {
        const char *p = v + 1;
        int d = 0;
        while (*p && d < TRAPEZE_MAX_DIMS) {
            char *end;
            double len = strtod(p, &end);
            if (end == p || len < 1 || (*end && *end != 'x'))
                break;
            j->workload.data_len[d++] = len;
            p = *end ? end + 1 : end;
        }
        if (!*p && d == j->workload.dims)
            return TRAPEZE_OK;
    } else if (v && (!strncmp(t, "h=", 2) || !strncmp(t, "iters=", 6)) &&
               trapeze_parse_long(v + 1, &n) && n >= 1 && n <= 1000000) {
        if (t[0] == 'h')
            j->h = (int)n;
        else
            j->iterations = (int)n;
        return TRAPEZE_OK;
    }
    return trapeze_fail(err, TRAPEZE_EINVAL,
                        "job '%s': '%s' is not size=AxB (one length per dimension), "
                        "sync=relaunch|fence, h=N or iters=N", j->spec, t);
}

trapeze_status trapeze_sleep_job_parse(const char *spec, const trapeze_workload *w,
                                       trapeze_sleep_job *j, trapeze_error *err)
{
    memset(j, 0, sizeof *j);
    if (strlen(spec) >= sizeof j->spec)
        return trapeze_fail(err, TRAPEZE_EINVAL, "job '%.40s...': longer than %d characters",
                            spec, (int)sizeof j->spec - 1);
    snprintf(j->spec, sizeof j->spec, "%s", spec);
    char buf[sizeof j->spec];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL, *t = strtok_r(buf, " ", &save);
    if (!t)
        return trapeze_fail(err, TRAPEZE_EINVAL, "an empty job");
    snprintf(j->name, sizeof j->name, "%s", t);
    j->stencil = w != NULL;
    if (w) {
        j->workload = *w;
        j->sync = TRAPEZE_SYNC_FENCE;
        j->h = 1;
        j->iterations = w->iterations;
    }
    for (t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        trapeze_status s;
        if (w && (s = parse_stencil_setting(j, t, err)))
            return s;
        if (!w) {
            if (j->argc == TRAPEZE_SLEEP_JOB_ARGS || !strchr(t, '='))
                return trapeze_fail(err, TRAPEZE_EINVAL, "job '%s': '%s' is not name=value "
                                    "(at most %d of them)", spec, t, TRAPEZE_SLEEP_JOB_ARGS);
            snprintf(j->args[j->argc++], sizeof j->args[0], "%s", t);
        }
    }
    if (!w && !sim_builtin_find(j->name))
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s' (trapeze sim --list)",
                            j->name);
    return TRAPEZE_OK;
}

/* The job's kernels, built for g: a built-in's launches or a stencil's. */
typedef struct {
    sim_kernel **ks;
    sim_stencil *stencil;
    int n;
    int persistent;         /* a fence-mode stencil: its blocks stay for the whole run */
} job_kernels;

static trapeze_status build(const trapeze_sleep_job *j, sim_gpu *g, job_kernels *out,
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
    if (!(out->ks = calloc(MAX_LAUNCHES, sizeof *out->ks)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    return b->build(sim_gpu_config(g), p, out->ks, MAX_LAUNCHES, &out->n, err);
}

static void release(job_kernels *k)
{
    if (k->stencil) {
        sim_stencil_destroy(k->stencil);
    } else if (k->ks) {
        for (int i = 0; i < k->n; i++)
            sim_kernel_destroy(k->ks[i]);
        free(k->ks);
    }
}

/* ------------------------------------------------------------- the runs */

/* The open periods of a cut launch: each unit idle since next_idle_start
 * has lasted cut - start so far; ages[bucket] counts them. */
static double add_censored(sim_events *ev, double *ages, sim_unit_kind kind, uint64_t cut)
{
    const uint64_t *start = ((const struct sim_events_hot *)ev)->next_idle_start[kind];
    double n = 0;
    for (int u = 0; u < sim_events_units(ev, kind); u++) {
        if (start[u] == SIM_EV_UNALLOCATED || start[u] >= cut)
            continue;
        int b = trapeze_idle_bucket((double)(cut - start[u]));
        if (b >= 0) {
            ages[b]++;
            n++;
        }
    }
    return n;
}

/* Lines of the job's global arrays (each array once, by its base). */
static double footprint_lines(const job_kernels *k)
{
    double lines = 0;
    for (int i = 0; i < k->n; i++)
        for (int a = 0; a < k->ks[i]->n_arrays; a++) {
            const sim_array *x = &k->ks[i]->arrays[a];
            int seen = x->space != SIM_SPACE_GLOBAL;
            for (int j = 0; j <= i && !seen; j++)
                for (int b = 0; b < (j < i ? k->ks[j]->n_arrays : a) && !seen; b++)
                    seen = k->ks[j]->arrays[b].space == SIM_SPACE_GLOBAL &&
                           k->ks[j]->arrays[b].base == x->base;
            if (!seen)
                lines += (double)((x->bytes + SIM_LINE_BYTES - 1) / SIM_LINE_BYTES);
        }
    return lines;
}

/* Of the cache line frames the cut launch has not touched (idle since it
 * began, older than every completed period), the share of their time that
 * is not dead: they take a line before the run ends (a fill, a write). A
 * footprint of F lines turns a cache of C frames over n = F / C times in
 * the run, and every frame's last contents die with it. With n >= 1 the
 * frames are refilled throughout and the last turnover leaves each a dead
 * tail of half a turnover on average, 1 / (2n) of the run: 1 - 1/(2n) is
 * not dead. With n < 1 a share n of the frames is ever filled, on average
 * halfway through the run: n / 2. Why: the window sees the first few
 * percent of a long run, where most frames are still cold; counted dead
 * they were gated for free (GESUMMV 512 on the GTX 480: n = 2.7, the whole
 * run's L2 idles dead 20% of the time, the window said 94%); counted filled
 * wherever the footprint could fill them, the V100's (n = 0.33) said 9%
 * where the run has 17%. A stencil's stages sweep the footprint again;
 * counting them (n k turnovers) moved Poisson's L2 further from the run
 * (docs/sleep.md), so the footprint counts once. The L1 is one cache per
 * SM: the footprint is split over the SMs that have touched any frame, and
 * an idle SM's frames stay dead. */
static double filled_share(sim_events *ev, sim_unit_kind kind, int caches,
                           uint64_t launch_start, double footprint)
{
    const uint64_t *start = ((const struct sim_events_hot *)ev)->next_idle_start[kind];
    int frames = sim_events_units(ev, kind), per = caches > 0 ? frames / caches : 0;
    double untouched = 0, untouched_in_use = 0, in_use = 0;
    for (int c = 0; per > 0 && c < caches; c++) {
        int t = 0;
        for (int u = c * per; u < (c + 1) * per; u++)
            t += start[u] != SIM_EV_UNALLOCATED && start[u] > launch_start;
        untouched += per - t;
        untouched_in_use += t > 0 ? per - t : 0;
        in_use += t > 0;
    }
    if (!(untouched > 0) || !(in_use > 0))
        return 0;
    double n = footprint / in_use / per;
    double q = n >= 1 ? 1 - 0.5 / n : 0.5 * n;
    return q * untouched_in_use / untouched;
}

/* The L1 frames' dead time after the window: an SM dies (its L1 with it)
 * when it runs out of blocks, and round-robin dispatch leaves some SMs a
 * block short of the others: of B blocks on n SMs, the busiest run
 * ceil(B / n) and the average SM B / n, so it idles dead for 1 - (B/n) /
 * ceil(B/n) of the launch (0 when every SM in use has one block; 0 for a
 * persistent fence-mode kernel, whose blocks all loop to the last stage and
 * whose SMs with fewer blocks wait at its barriers, their L1s alive). Why:
 * the whole runs of matmul and SYRK 128 on the GTX 480 (64 blocks on 15
 * SMs) sleep their L1s 4-6 points more than a window of their first third
 * saw. Returns that dead share. */
static double last_wave_dead(const sim_kernel *k, int n_sm)
{
    long b = sim_kernel_blocks(k), used = b < n_sm ? b : n_sm;
    if (used <= 0)
        return 0;
    double most = (double)((b + used - 1) / used);
    return 1 - ((double)b / (double)used) / most;
}

/* What a cut adds to a unit's histogram beyond its open periods. */
typedef struct {
    double filled;          /* share of the oldest open periods that end in a fill */
    double dead_periods;    /* dead periods of length dead_length (the last wave) */
    double dead_length;
} cut_extra;

/* The cut launch's estimates for the cache line units (0 for the others). */
static void cut_estimates(sim_gpu *g, const job_kernels *k, const sim_launch *l,
                          cut_extra extra[TRAPEZE_SLEEP_NUNITS])
{
    sim_events *ev = sim_gpu_events(g);
    int n_sm = sim_gpu_config(g)->gpu.n_sm;
    long blocks = sim_kernel_blocks(l->k), used = blocks < n_sm ? blocks : n_sm;
    double fp = footprint_lines(k);
    double dead = k->persistent ? 0 : last_wave_dead(l->k, n_sm);
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        cut_extra *x = &extra[u];
        memset(x, 0, sizeof *x);
        if (units[u].kind == SIM_UNIT_L2_LINE)
            x->filled = filled_share(ev, units[u].kind, 1, l->start, fp);
        if (units[u].kind != SIM_UNIT_L1_LINE)
            continue;
        x->filled = filled_share(ev, units[u].kind, n_sm, l->start, fp);
        /* d / (1 - d) of the L1 frame-cycles of the SMs in use, as dead
         * periods of the cut launch's length */
        double frames = (double)sim_events_units(ev, units[u].kind) / n_sm * (double)used;
        x->dead_periods = dead / (1 - dead) * frames;
        x->dead_length = (double)(l->t - l->start);
    }
}

/* Runs the job's launches on g in order, until `window` cycles (0: to the
 * end). Whole launches' statistics go to `each` (may be NULL). */
static trapeze_status run_launches(sim_gpu *g, const job_kernels *k, double window,
                                   trapeze_sleep_run *out, double (*ages)[TRAPEZE_IDLE_NBUCKETS],
                                   cut_extra *extra, void (*each)(void *, const sim_kernel_stats *),
                                   void *ctx, trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < k->n && !out->cut; i++) {
        sim_kernel_stats st;
        sim_launch l;
        memset(&st, 0, sizeof st);
        if ((s = sim_gpu_launch_begin(g, k->ks[i], &st, &l, err)))
            break;
        while (sim_gpu_launch_step(&l, err))
            if (window > 0 && (double)l.t >= window) {
                out->cut = 1;
                break;
            }
        if (out->cut && l.running) {
            sim_events *ev = sim_gpu_events(g);
            out->cycles = (double)l.t;
            out->warp_insts += (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
            sim_idle_hist *h = malloc(sizeof *h);
            if (!h) {
                sim_gpu_launch_cut(&l);
                return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
            }
            cut_estimates(g, k, &l, extra);
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
                *h = *sim_events_hist(ev, units[u].kind);
                out->censored += add_censored(ev, ages[u], units[u].kind, l.t);
                sampler_idle_hist_add(&out->hist[u], h);
            }
            free(h);
            sim_gpu_launch_cut(&l);
            break;
        }
        out->cut = 0;
        if (!(s = sim_gpu_launch_end(&l, err))) {
            out->cycles = (double)sim_gpu_cycle(g);
            out->warp_insts += (double)st.total.warp_insts;
            if (each)
                each(ctx, &st);
        }
        sim_kernel_stats_free(&st);
    }
    return s;
}

/* A spread sample: every launch runs to its end. A period counts where it
 * ends: in the first window once; in a later window for the whole stretch
 * after the first window (acc[1], weighted by that stretch's cycles over
 * the later windows' when the run is over); dead, wherever it ends, once
 * (acc[2]). Dead periods close each unit's life: they cluster at the end of
 * warps, blocks and launches, a few instants a window either catches whole
 * (counted five times over) or misses; counted in full (GTX 480 GESUMMV
 * 512, 16 warps ending together: the RF saving 75.4% sampled, 84.3% in
 * full, the whole run's histogram 81.7%). */
static trapeze_status run_spread(sim_gpu *g, const job_kernels *k, const sampler_spread *p,
                                 trapeze_sleep_run *out,
                                 trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS],
                                 trapeze_error *err)
{
    enum { ALL = 7, DEAD = 1 << TRAPEZE_NEXT_DEAD, LIVE = ALL & ~DEAD };
    sim_events *ev = sim_gpu_events(g);
    sim_idle_hist *snap = calloc(TRAPEZE_SLEEP_NUNITS, sizeof *snap);
    if (!snap)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < k->n; i++) {
        sim_kernel_stats st;
        sim_launch l;
        memset(&st, 0, sizeof st);
        memset(snap, 0, TRAPEZE_SLEEP_NUNITS * sizeof *snap);   /* a launch starts empty */
        if ((s = sim_gpu_launch_begin(g, k->ks[i], &st, &l, err)))
            break;
        /* l.t is the cycle the next step simulates: its periods end there */
        int r = sampler_spread_region(p, (double)l.t);
        for (;;) {
            int next = l.running ? sampler_spread_region(p, (double)l.t) : -1;
            if (next == r) {
                sim_gpu_launch_step(&l, err);
                continue;
            }
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
                const sim_idle_hist *now = sim_events_hist(ev, units[u].kind);
                if (r == 0)
                    sampler_idle_hist_add_diff(&acc[0][u], now, &snap[u], 1, ALL);
                if (r == 1)
                    sampler_idle_hist_add_diff(&acc[1][u], now, &snap[u], 1, LIVE);
                if (r != 0)
                    sampler_idle_hist_add_diff(&acc[2][u], now, &snap[u], 1, DEAD);
                snap[u] = *now;
            }
            if ((r = next) < 0)
                break;
        }
        if (!(s = sim_gpu_launch_end(&l, err))) {
            /* the launch's end closes every open period, dead */
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
                sampler_idle_hist_add_diff(&acc[2][u], sim_events_hist(ev, units[u].kind),
                                           &snap[u], 1, ALL);
            out->cycles = (double)sim_gpu_cycle(g);
            out->warp_insts += (double)st.total.warp_insts;
        }
        sim_kernel_stats_free(&st);
    }
    free(snap);
    if (s)
        return s;
    double rec = sampler_spread_recorded(p, out->cycles);
    double w = rec > 0 ? (out->cycles - p->first) / rec : 0;
    out->recorded = (out->cycles < p->first ? out->cycles : p->first) + rec;
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
                out->hist[u].count[x][b] +=
                    acc[0][u].count[x][b] + w * acc[1][u].count[x][b] + acc[2][u].count[x][b];
    return TRAPEZE_OK;
}

static trapeze_status run_job(const trapeze_config *cfg, const trapeze_sleep_job *j,
                              const sim_gpu_options *opt, double window,
                              const sampler_spread *spread, trapeze_sleep_run *out,
                              void (*each)(void *, const sim_kernel_stats *), void *ctx,
                              trapeze_error *err)
{
    sim_gpu *g = NULL;
    job_kernels k = {0};
    trapeze_status s = sim_gpu_create(cfg, opt, &g, err);
    if (!s && !(s = build(j, g, &k, err))) {
        const sim_core_config *c = sim_gpu_config(g);
        out->n_sm = c->gpu.n_sm;
        for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
            trapeze_idle_hist_init(&out->hist[u], c->gpu.name, j->name, units[u].structure,
                                   units[u].granularity);
        double (*ages)[TRAPEZE_IDLE_NBUCKETS] = calloc(TRAPEZE_SLEEP_NUNITS, sizeof *ages);
        cut_extra extra[TRAPEZE_SLEEP_NUNITS];
        memset(extra, 0, sizeof extra);
        if (spread && spread->every > 0 && window > 0 && !each) {
            trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS] = calloc(3, sizeof *acc);
            out->spread = 1;
            s = acc ? run_spread(g, &k, spread, out, acc, err)
                    : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
            free(acc);
        } else
        s = ages ? run_launches(g, &k, window, out, ages, extra, each, ctx, err)
                 : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        /* the launches that ended whole: their kept histograms */
        for (int i = 0; !s && !out->spread && opt->keep_idle && i < sim_gpu_idle_count(g); i++) {
            const sim_idle_hist *kinds = sim_gpu_idle(g, i, NULL);
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
                sampler_idle_hist_add(&out->hist[u], &kinds[units[u].kind]);
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
    release(&k);
    sim_gpu_destroy(g);
    return s;
}

trapeze_status trapeze_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                    const trapeze_sleep_job *j, double window_cycles,
                                    double spread_cycles, trapeze_sleep_run *out,
                                    trapeze_error *err)
{
    sampler_spread sp;
    sampler_spread_init(&sp, window_cycles, spread_cycles);
    memset(out, 0, sizeof *out);
    sim_sleep_config always_on;
    sim_gpu_options opt;
    sampler_idle_options(pw, &always_on, &opt);
    return run_job(cfg, j, &opt, window_cycles, &sp, out, NULL, NULL, err);
}

/* Sums each whole launch's sleep results (the policies' mode cycles and
 * stalls, from the simulator's energy accounting). */
static void add_sleep(void *ctx, const sim_kernel_stats *st)
{
    trapeze_sleep_run *r = ctx;
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE && st->energy_valid; s++) {
        const sim_sleep_result *x = &st->energy.sleep[s];
        for (int m = 0; m < TRAPEZE_POWER_MAX_MODES; m++)
            r->mode_cycles[s][m] += (double)x->mode_cycles[m];
        r->stall[s] += (double)x->stall_cycles;
    }
}

trapeze_status trapeze_sleep_simulate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *j,
                                      const trapeze_sleep_setting *set, trapeze_sleep_run *out,
                                      trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sim_sleep_config sc;
    trapeze_status s = sim_sleep_config_read(cfg, &sc, err);
    static const char *const policy[TRAPEZE_PS_SLEEPABLE] = {"snooze:line", "snooze:line",
                                                             "slumber"};
    for (int x = 0; !s && x < TRAPEZE_PS_SLEEPABLE; x++) {
        if (!set || !set->on[x]) {
            s = sim_sleep_config_set(&sc, (trapeze_power_structure)x, "always_on", err);
            continue;
        }
        if ((s = sim_sleep_config_set(&sc, (trapeze_power_structure)x, policy[x], err)))
            break;
        if (x == TRAPEZE_PS_RF)
            for (int m = 0; m < 3; m++)
                sc.s[x].p.slumber[m] = (int)set->theta[x][m];
        else
            sc.s[x].p.threshold = (int)set->theta[x][0];
    }
    if (s)
        return s;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.power = pw;
    opt.sleep = &sc;
    if ((s = run_job(cfg, j, &opt, 0, NULL, out, add_sleep, out, err)))
        return s;
    for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++) {
        double total = 0, leak = 0;
        for (int m = 0; m < pw->n_modes[x]; m++) {
            total += out->mode_cycles[x][m];
            leak += pw->mode[x][m].leak_fraction * out->mode_cycles[x][m];
        }
        out->saving[x] = total > 0 ? 1 - leak / total : 0;
        out->penalty[x] = out->cycles > 0 ? out->stall[x] / (out->cycles * out->n_sm) : 0;
    }
    return TRAPEZE_OK;
}

/* The whole run's idle periods (trapeze sleep --whole; the API of before
 * windows). */
trapeze_status trapeze_sleep_sample_builtin(const trapeze_config *cfg, const trapeze_power *pw,
                                            const char *kernel, int argc, char **argv,
                                            trapeze_idle_hist **out, int *n, double *cycles,
                                            trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    *cycles = 0;
    char spec[TRAPEZE_ROW_TEXT];
    size_t used = (size_t)snprintf(spec, sizeof spec, "%s", kernel);
    for (int i = 0; i < argc && used < sizeof spec; i++)
        used += (size_t)snprintf(spec + used, sizeof spec - used, " %s", argv[i]);
    if (used >= sizeof spec)
        return trapeze_fail(err, TRAPEZE_EINVAL, "kernel '%s': settings too long", kernel);
    trapeze_sleep_job *j = malloc(sizeof *j);
    trapeze_sleep_run *r = malloc(sizeof *r);
    trapeze_status s = j && r ? trapeze_sleep_job_parse(spec, NULL, j, err)
                              : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = trapeze_sleep_window(cfg, pw, j, 0, 0, r, err);
    if (!s && !(*out = malloc(sizeof r->hist)))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s) {
        memcpy(*out, r->hist, sizeof r->hist);
        *n = TRAPEZE_SLEEP_NUNITS;
        *cycles = r->cycles;
    }
    free(j);
    free(r);
    return s;
}
