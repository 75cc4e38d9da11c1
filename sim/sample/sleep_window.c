/*
 * sleep_window.c - the simulations the sleep model is calibrated and
 * validated on (sampler/sleep_sample.c parses the jobs and keeps the
 * statistics, through sim/sim.h). A job is a built-in kernel ("matmul n=128")
 * or a ghost-zone stencil ("hotspot size=256x256 sync=fence h=2 iters=8").
 * Four ways to run one:
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
 *   commands' default since 29 Nov);
 * - a whole run with sleep policies in the timing (sim_sleep_whole), the
 *   ground truth: per structure the unit-cycles in each mode and the
 *   wake-up stall the policy exposed.
 *
 * Every simulator status is checked: an error inside any window ends the
 * sample with that error. Owns the mechanics; no model, no format, no
 * plan.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/gpu_sim.h"
#include "sim/events.h"
#include "sim/power/energy.h"
#include "sim/power/sleep.h"
#include "sim/sample/idle_export.h"
#include "sim/sample/jump.h"
#include "sim/sample/spread.h"
#include "sim/sim.h"
#include "sim/stencil/stencil_run.h"

#define MAX_LAUNCHES 4096

static const struct {
    sim_unit_kind kind;
    const char *structure, *granularity;
} units[TRAPEZE_SLEEP_NUNITS] = {
    {SIM_UNIT_L1_LINE, "l1d", "line"}, {SIM_UNIT_L1_BANK, "l1d", "bank"},
    {SIM_UNIT_L2_LINE, "l2", "line"},  {SIM_UNIT_L2_BANK, "l2", "slice"},
    {SIM_UNIT_REG, "rf", "warp_reg"},  {SIM_UNIT_REG_BANK, "rf", "bank"}};

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
        /* an error stops the launch uncut: sim_gpu_launch_end returns it */
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
                sim_idle_export_add(&out->hist[u], h);
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

/* ------------------------------------------------------------ jump sample */

/* What a jump sample gathers per unit kind, by stratum: 0 the first window
 * (every period that ended in it, exact), 1 the later windows (weighted to
 * stand for the rest of the run), 2 the launch ends (weighted for the ends
 * not sampled). In the later windows and at the ends, a period of at most
 * SIM_JUMP_LONG cycles that ends in the recorded stretch is exact (it
 * began after the window's warm-up started) and counts in its bucket; a
 * longer one counts where it ends (count[]) but its length is unknown (it
 * may have begun before the window's simulation did), so the long periods'
 * cycles come from the idle unit-cycles inside the recorded stretches
 * (idle[]) less those of the exact periods (exact[]). */
typedef struct jump_acc {
    trapeze_idle_hist hist[3][TRAPEZE_SLEEP_NUNITS];
    double idle[3][TRAPEZE_SLEEP_NUNITS], exact[3][TRAPEZE_SLEEP_NUNITS];
    /* idle cycles in the recorded stretches of periods already long and
     * still open at its end (their kind not known there) */
    double pending[3][TRAPEZE_SLEEP_NUNITS][2];   /* [0] live, [1] dead */
    /* per unit: 1 if no launch end sampled used it while recording (its
     * long periods open elsewhere end dead), else 0; NULL: no end sampled */
    unsigned char *unused[TRAPEZE_SLEEP_NUNITS];
    /* the first window's open periods at its end */
    uint64_t *first_open[TRAPEZE_SLEEP_NUNITS];
    uint64_t first_start, first_end;
    long n_units[TRAPEZE_SLEEP_NUNITS];
    /* cache line frames no window used: the share of their time that is not
     * dead, by the footprint's turnovers (filled_share, at the first
     * window's end); 0 for the other kinds */
    double filled[TRAPEZE_SLEEP_NUNITS];
    /* the grid's last wave: L1 frame-cycles dead per cycle of the run, as
     * a share of the run's work (last_wave_dead); the windows start every
     * SM together and see none of it */
    double last_wave_frames;
    /* warp tails (a warp's registers dead from its exit to its block's
     * end), from the launch ends scaled to whole blocks (sim_jump_tail_scale):
     * periods and their register-cycles, per launch end */
    double tail_n, tail_mass;
    double count[3][TRAPEZE_SLEEP_NUNITS][TRAPEZE_NEXT_N];
    double insts[3];        /* warp instructions issued in the recorded stretches */
    double cycles[3];       /* cycles recorded */
    int windows[3];
} jump_acc;

/* The jump decision, made once the first window is over. */
typedef struct jump_ctx {
    const trapeze_config *cfg;
    const sim_gpu_options *opt;
    const trapeze_sleep_job *job;
    int decided, jumped;
    int cut_launch;          /* the launch running when the first window ended */
    double first_insts;      /* warp instructions issued in the first window */
    double first_cycles;
    sim_jump_launch launch[MAX_LAUNCHES];
    int n;
    double total_insts;
    jump_acc *acc;
} jump_ctx;

/* Warp instructions of a program kernel, counted by interpreting every
 * warp of every block (a spin loop taken once); 0 for another source. */
static double count_insts(const sim_kernel *k)
{
    if (k->source)
        return 0;
    sim_warp_cursor *cur = malloc(sizeof *cur);
    sim_warp_inst *in = malloc(sizeof *in);
    uint32_t regs[256];
    for (int r = 0; r < 256; r++)
        regs[r] = UINT32_MAX;   /* every spin loop's target reached: one trip */
    double n = 0;
    long blocks = sim_kernel_blocks(k);
    int warps = (sim_kernel_block_threads(k) + SIM_WARP_LANES - 1) / SIM_WARP_LANES;
    for (long b = 0; cur && in && b < blocks; b++) {
        int bx = (int)(b % k->grid.x), by = (int)((b / k->grid.x) % k->grid.y);
        int bz = (int)(b / ((long)k->grid.x * k->grid.y));
        for (int w = 0; w < warps; w++) {
            sim_program_source.warp_start(NULL, k, cur, bx, by, bz, w);
            while (sim_program_source.next(NULL, k, cur, regs, in))
                n++;
        }
    }
    free(cur);
    free(in);
    return n;
}

/* Trips of the kernel's first counted loop at depth 0 (block 0's), 1 when
 * it has none. */
static long outer_trips(const sim_kernel *k)
{
    if (k->source)
        return 1;
    int depth = 0;
    for (int i = 0; i < k->n_code; i++) {
        const sim_inst *in = &k->code[i];
        if (in->op == SIM_OP_LOOP) {
            if (depth == 0 && !(in->flags & SIM_INST_SPIN)) {
                sim_warp_cursor *cur = malloc(sizeof *cur);
                long t = 1;
                if (cur) {
                    sim_program_source.warp_start(NULL, k, cur, 0, 0, 0, 0);
                    int64_t v = sim_eval_uniform(k, cur, &in->trips);
                    t = v > 1 ? (long)v : 1;
                }
                free(cur);
                return t;
            }
            depth++;
        } else if (in->op == SIM_OP_ENDLOOP) {
            depth--;
        }
    }
    return 1;
}

/* Adds the periods a histogram gained between two readings: those of at
 * most max_len cycles (0: every length) to h with weight 1 (the stratum's
 * weight comes last), their cycles to *exact; the longer ones' number to
 * count[]. Returns the cycles of every period gained. */
static double gained(trapeze_idle_hist *h, const sim_idle_hist *now, const sim_idle_hist *before,
                     uint64_t max_len, double *exact, double count[TRAPEZE_NEXT_N])
{
    double all = 0;
    for (int b = 0; b < SIM_IDLE_BINS; b++)
        for (int x = 0; x < SIM_NEXT_COUNT; x++) {
            uint64_t n = now->bin[x][b].count - before->bin[x][b].count;
            if (!n)
                continue;
            double sum = (double)(now->bin[x][b].sum - before->bin[x][b].sum);
            uint64_t lo, hi;
            sim_idle_bin_range(b, &lo, &hi);
            all += sum;
            if (max_len && hi > max_len) {
                count[x] += (double)n;
                continue;
            }
            int k = trapeze_idle_bucket((double)lo);
            if (k >= 0)
                h->count[x][k] += (double)n;
            *exact += sum;
        }
    return all;
}

/* The idle unit-cycles of [a, b) for one unit kind: the cycles of the
 * periods that ended in it (ended), less the part before a of those that
 * were open at a (start_a: each unit's next_idle_start at a), plus the part
 * of those still open at b (start now). */
static double idle_between(const uint64_t *start_a, const uint64_t *start_b, int units,
                           uint64_t a, uint64_t b, double ended)
{
    double idle = ended;
    for (int u = 0; u < units; u++) {
        uint64_t x = start_a[u], y = start_b[u];
        if (x != SIM_EV_UNALLOCATED && y != x && a > x)
            idle -= (double)(a - x);
        if (y != SIM_EV_UNALLOCATED && b > y)
            idle += (double)(b - (y > a ? y : a));
    }
    return idle;
}

/* One later window (end = 0) or launch end (end = 1): launch i of the job
 * on a fresh GPU from (first_block, first_trip), SIM_JUMP_WARM cycles
 * not recorded, then SIM_JUMP_RECORD cycles recorded (end: recorded to
 * the launch's end, which closes every unit's period, dead). */
static trapeze_status jump_window(jump_ctx *jc, int i, long first_block, long first_trip, int end,
                                  trapeze_sleep_run *out, trapeze_error *err)
{
    int stratum = end ? 2 : 1;
    jump_acc *A = jc->acc;
    sim_gpu_options opt = *jc->opt;
    opt.first_block = first_block;
    sim_gpu *g = NULL;
    job_kernels k = {0};
    sim_idle_hist *snap = calloc(TRAPEZE_SLEEP_NUNITS, sizeof *snap);
    static const sim_idle_hist zero_hist;
    sim_idle_hist reg_marked = zero_hist, reg_now;
    uint64_t *starts[TRAPEZE_SLEEP_NUNITS] = {0};
    trapeze_status s = snap ? sim_gpu_create(jc->cfg, &opt, &g, err)
                            : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s && !(s = build(jc->job, g, &k, err)) && i >= k.n)
        s = trapeze_fail(err, TRAPEZE_EINVAL, "job %s: no launch %d", jc->job->spec, i);
    sim_kernel_stats st;
    sim_launch l;
    memset(&st, 0, sizeof st);
    if (!s) {
        k.ks[i]->first_trip = first_trip;
        s = sim_gpu_launch_begin(g, k.ks[i], &st, &l, err);
    }
    if (s) {
        free(snap);
        release(&k);
        sim_gpu_destroy(g);
        return s;
    }
    sim_events *ev = sim_gpu_events(g);
    /* at a launch end, the register periods that began before the
     * recording (a register named by no instruction, or last used in the
     * warm-up's replay of its warp's prologue: the open-period rule counts
     * those) are told from the warp tails by the marked histogram */
    if (end && sim_events_set_mark(ev, l.start + SIM_JUMP_WARM))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    uint64_t a = l.start + SIM_JUMP_WARM;
    if (!s)
        s = sim_launch_run_until(&l, a, err);
    a = l.t;
    double insts_a = (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS && !s; u++) {
        int n = sim_events_units(ev, units[u].kind);
        snap[u] = *sim_events_hist(ev, units[u].kind);
        if (units[u].kind == SIM_UNIT_REG)
            reg_marked = *sim_events_marked_hist(ev, SIM_UNIT_REG);
        if (!(starts[u] = malloc((size_t)(n > 0 ? n : 1) * sizeof **starts)))
            s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        else if (n > 0)
            memcpy(starts[u], ((const struct sim_events_hot *)ev)->next_idle_start[units[u].kind],
                   (size_t)n * sizeof **starts);
    }
    uint64_t b = a + SIM_JUMP_RECORD;
    if (!s)
        s = sim_launch_run_until(&l, end ? 0 : b, err);
    double insts = (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
    int ended = !s && end && !l.running;
    /* before the launch's end closes them: the periods long and still open
     * at the recording's end, dead where no window later in the run used
     * their unit after its first blocks were placed (windows run latest
     * first); then this window's uses. (Uses while recording only, which
     * leaves out the warm-up's replay of a warp's prologue: GTX 480 SYRK
     * RF 93.9% predicted against 87.7% simulated, 89.4% with this rule.) */
    uint64_t now = l.running ? l.t : l.end;
    for (int u = 0; !s && u < TRAPEZE_SLEEP_NUNITS; u++) {
        const uint64_t *st = ((const struct sim_events_hot *)ev)->next_idle_start[units[u].kind];
        int n = sim_events_units(ev, units[u].kind);
        for (int x = 0; A->unused[u] && x < n && x < A->n_units[u]; x++) {
            uint64_t y = starts[u][x];
            if (!end && y != SIM_EV_UNALLOCATED && st[x] == y && now > y &&
                now - y > SIM_JUMP_LONG)
                A->pending[stratum][u][A->unused[u][x]] += (double)(now - (y > a ? y : a));
        }
        for (int x = 0; A->unused[u] && x < n && x < A->n_units[u]; x++)
            if (st[x] != SIM_EV_UNALLOCATED && st[x] > l.start + 64)   /* used after placing */
                A->unused[u][x] = 0;
    }
    if (!s && ended) {
        s = sim_gpu_launch_end(&l, err);   /* closes every period, dead */
        b = sim_gpu_cycle(g);
    } else {
        b = l.running ? l.t : l.end;
        sim_gpu_launch_cut(&l);
    }
    if (ended && !s)
        sim_kernel_stats_free(&st);
    for (int u = 0; !s && u < TRAPEZE_SLEEP_NUNITS; u++) {
        int n = sim_events_units(ev, units[u].kind);
        double exact = 0;
        /* exact: began after the simulation did (a period from its start on
         * may have begun earlier in the run) */
        uint64_t exact_len = a - l.start > 1 ? a - l.start - 1 : 1;
        if (exact_len > SIM_JUMP_LONG)
            exact_len = SIM_JUMP_LONG;
        const sim_idle_hist *now = sim_events_hist(ev, units[u].kind);
        if (end && units[u].kind == SIM_UNIT_REG) {
            reg_now = *now;
            double blocks, stretch, n_tails, tails;
            sim_jump_tail_scale(&jc->launch[i], first_block, insts, &blocks, &stretch);
            sim_jump_tail_cut(&reg_now, &snap[u], sim_events_marked_hist(ev, SIM_UNIT_REG),
                                  &reg_marked, &n_tails, &tails);
            A->tail_n += n_tails * blocks;
            A->tail_mass += tails * blocks * stretch;
            now = &reg_now;
        }
        double all = gained(&A->hist[stratum][u], now, &snap[u], exact_len, &exact,
                            A->count[stratum][u]);
        A->exact[stratum][u] += exact;
        A->idle[stratum][u] += idle_between(
            starts[u], ((const struct sim_events_hot *)ev)->next_idle_start[units[u].kind], n, a,
            b, all);
    }
    if (!s) {
        A->insts[stratum] += insts - insts_a;
        A->cycles[stratum] += (double)(b - a);
        A->windows[stratum]++;
        out->warp_insts += insts;
        out->simulated += (double)(b - l.start);
    }
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        free(starts[u]);
    free(snap);
    release(&k);
    sim_gpu_destroy(g);
    return s;
}

/* Once the first window is over (at cycle t of launch l): whether a jump
 * sample is cheaper than simulating the run through, and if so the first
 * window's open periods (their idle cycles so far) and the launch cut. */
static int jump_here(jump_ctx *jc, sim_gpu *g, const job_kernels *k, int i, sim_launch *l,
                     double insts_before, double cycles_before)
{
    jc->decided = 1;
    sim_events *ev = sim_gpu_events(g);
    double issued = insts_before + (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
    const sim_core_config *c = sim_gpu_config(g);
    jc->n = k->n;
    jc->total_insts = 0;
    for (int x = 0; x < k->n; x++) {
        sim_jump_launch *L = &jc->launch[x];
        const char *why;
        int per_sm = sim_occupancy(c, k->ks[x], &why);
        L->blocks = sim_kernel_blocks(k->ks[x]);
        L->concurrent = (long)c->gpu.n_sm * (per_sm > 0 ? per_sm : 1);
        if (L->concurrent > L->blocks)
            L->concurrent = L->blocks;
        L->trips = outer_trips(k->ks[x]);
        L->insts = count_insts(k->ks[x]);
        jc->total_insts += L->insts;
    }
    jc->acc->last_wave_frames = 0;
    for (int x = 0; x < k->n && !k->persistent; x++) {
        long b = sim_kernel_blocks(k->ks[x]), used = b < c->gpu.n_sm ? b : c->gpu.n_sm;
        double d = last_wave_dead(k->ks[x], c->gpu.n_sm);
        double frames = (double)sim_events_units(ev, SIM_UNIT_L1_LINE) / c->gpu.n_sm * (double)used;
        if (jc->total_insts > 0 && d < 1)
            jc->acc->last_wave_frames += d / (1 - d) * frames * jc->launch[x].insts / jc->total_insts;
    }
    double t = (double)l->t;
    int ends = k->n - i, sampled = ends < SIM_JUMP_ENDS ? ends : SIM_JUMP_ENDS;
    /* the plan's cycles at the first window's rate: a launch end runs from
     * where its start can be placed (a persistent stencil's outer loop has
     * one trip per two stages: its end window may be half the run) */
    double ipc = issued / (t > 0 ? t : 1);
    double planned = t + SIM_JUMP_WINDOWS * (SIM_JUMP_WARM + SIM_JUMP_RECORD);
    for (int e = 0; e < sampled && ipc > 0; e++) {
        int x = k->n - 1 - (int)((double)e * ends / sampled);
        const sim_jump_launch *L = &jc->launch[x];
        double g = L->insts > 0 ? 1 - (SIM_JUMP_WARM + SIM_JUMP_END) * ipc / L->insts : 0;
        long fb, ft, conc = L->concurrent > 0 ? L->concurrent : 1, trips = L->trips > 1 ? L->trips : 1;
        sim_jump_start(L, g > 0 ? g : 0, &fb, &ft);
        double waves = (double)((L->blocks + conc - 1) / conc);
        double from = ((double)(fb / conc) * (double)trips + (double)ft) / (waves * (double)trips);
        planned += (1 - from) * L->insts / ipc;
    }
    double run = issued > 0 ? t * jc->total_insts / issued : 0;
    (void)cycles_before;
    /* a jump sample where it costs less than half the run (estimated at the
     * first window's rate); else the run simulated through */
    if (!(jc->total_insts > issued) || !(planned < 0.5 * run))
        return 0;
    /* the first window's periods still open: their idle cycles so far */
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        const uint64_t *start = ((const struct sim_events_hot *)ev)->next_idle_start[units[u].kind];
        for (int x = 0; x < sim_events_units(ev, units[u].kind); x++)
            if (start[x] != SIM_EV_UNALLOCATED && l->t > start[x])
                jc->acc->idle[0][u] += (double)(l->t - (start[x] > l->start ? start[x] : l->start));
        int n = sim_events_units(ev, units[u].kind);
        if ((jc->acc->first_open[u] = malloc((n > 0 ? (size_t)n : 1) * sizeof(uint64_t))) && n > 0)
            memcpy(jc->acc->first_open[u], start, (size_t)n * sizeof(uint64_t));
        jc->acc->n_units[u] = n;
        if (units[u].kind == SIM_UNIT_L2_LINE || units[u].kind == SIM_UNIT_L1_LINE)
            jc->acc->filled[u] = filled_share(ev, units[u].kind,
                                              units[u].kind == SIM_UNIT_L1_LINE ? c->gpu.n_sm : 1,
                                              l->start, footprint_lines(k));
        jc->acc->first_start = l->start;
        jc->acc->first_end = l->t;
    }
    jc->jumped = 1;
    jc->cut_launch = i;
    jc->first_insts = issued;
    jc->first_cycles = t;
    return 1;
}

/* The jump sample's later windows and launch ends, then the histograms:
 * the first window's periods, the later windows' weighted to stand for the
 * run's work after it less the ends', the ends' for every launch end after
 * the first window, and the long periods (count where they end, cycles
 * from the idle unit-cycles) split between the two buckets around their
 * mean length (sim_jump_add_long). */
static trapeze_status run_jumps(jump_ctx *jc, trapeze_idle_hist (*first)[TRAPEZE_SLEEP_NUNITS],
                                trapeze_sleep_run *out, trapeze_error *err)
{
    jump_acc *A = jc->acc;
    trapeze_status s = TRAPEZE_OK;
    double ipc = jc->first_insts / (jc->first_cycles > 0 ? jc->first_cycles : 1);
    /* launch ends: the last launch's always, the others evenly */
    int ends = jc->n - jc->cut_launch;
    int sampled = ends < SIM_JUMP_ENDS ? ends : SIM_JUMP_ENDS;
    double cum[MAX_LAUNCHES + 1];
    cum[0] = 0;
    for (int x = 0; x < jc->n; x++)
        cum[x + 1] = cum[x] + jc->launch[x].insts;
    /* every window, latest in the run first: the launch ends sampled (the
     * last launch's always, the others evenly), the later windows */
    struct { double at; int launch, end; } win[SIM_JUMP_ENDS + SIM_JUMP_WINDOWS];
    int nw = 0;
    for (int e = 0; e < sampled; e++) {
        int i = jc->n - 1 - (int)((double)e * ends / sampled);
        double left = (SIM_JUMP_WARM + SIM_JUMP_END) * ipc;
        double g = jc->launch[i].insts > 0 ? 1 - left / jc->launch[i].insts : 0;
        win[nw].at = cum[i] + (g > 0 ? g : 0) * jc->launch[i].insts;
        win[nw].launch = i;
        win[nw++].end = 1;
    }
    double from = jc->first_insts / jc->total_insts;
    for (int w = SIM_JUMP_WINDOWS - 1; w >= 0; w--) {
        double at = sim_jump_place(from, w, SIM_JUMP_WINDOWS) * jc->total_insts;
        int i = 0;
        while (i + 1 < jc->n && cum[i + 1] <= at)
            i++;
        win[nw].at = at;
        win[nw].launch = i;
        win[nw++].end = 0;
    }
    for (int a = 1; a < nw; a++)   /* latest first (stable) */
        for (int b = a; b > 0 && win[b].at > win[b - 1].at; b--) {
            __typeof__(win[0]) t = win[b];
            win[b] = win[b - 1];
            win[b - 1] = t;
        }
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        if (!A->unused[u] && (A->unused[u] = malloc(A->n_units[u] > 0 ? (size_t)A->n_units[u] : 1)))
            memset(A->unused[u], 1, A->n_units[u] > 0 ? (size_t)A->n_units[u] : 1);
    for (int w = 0; !s && w < nw; w++) {
        const sim_jump_launch *L = &jc->launch[win[w].launch];
        long fb, ft;
        double g = L->insts > 0 ? (win[w].at - cum[win[w].launch]) / L->insts : 0;
        sim_jump_start(L, g, &fb, &ft);
        s = jump_window(jc, win[w].launch, fb, ft, win[w].end, out, err);
    }
    if (s)
        return s;
    /* the first window's long open periods, now that the later uses are known */
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        for (int x = 0; A->first_open[u] && A->unused[u] && x < (int)A->n_units[u]; x++) {
            uint64_t y = A->first_open[u][x], t = A->first_end;
            y = y > A->first_start || y == SIM_EV_UNALLOCATED ? y : A->first_start;
            if (y != SIM_EV_UNALLOCATED && t > y && t - y > SIM_JUMP_LONG)
                A->pending[0][u][A->unused[u][x]] += (double)(t - y);
        }
    double w_end = A->windows[2] ? (double)ends / A->windows[2] : 0;
    double mid = jc->total_insts - jc->first_insts - w_end * A->insts[2];
    double w_mid = A->insts[1] > 0 && mid > 0 ? mid / A->insts[1] : 0;
    out->cycles = jc->first_cycles + w_mid * A->cycles[1] + w_end * A->cycles[2];
    out->recorded = jc->first_cycles + A->cycles[1] + A->cycles[2];
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        trapeze_idle_hist *h = &out->hist[u];
        /* the warp tails take their register-cycles from the later
         * windows, where every warp of a block ran (sim_jump_tail_cut) */
        double tails = units[u].kind == SIM_UNIT_REG ? w_end * A->tail_mass : 0;
        double live_share = 1;
        if (tails > 0 && w_mid * A->idle[1][u] > 0) {
            live_share = 1 - tails / (w_mid * A->idle[1][u]);
            live_share = live_share > 0 ? live_share : 0;
        }
        double weight[3] = {1, w_mid * live_share, w_end};
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
                h->count[x][b] += first[0][u].count[x][b] + first[2][u].count[x][b] +
                                  weight[1] * A->hist[1][u].count[x][b] +
                                  w_end * A->hist[2][u].count[x][b];
        if (tails > 0)
            sim_jump_add_dead(h, w_end * A->tail_n, tails);
        /* the long periods: counted where they end; their cycles split in
         * those of periods seen open and already long at a recording's end
         * (pending; dead in the share of such units a launch's end found
         * unused since its recording began, the rest live as the live long
         * periods that ended are) and the rest, split as the long periods
         * that ended in the recordings are, by number */
        double mass = 0, pend = 0, dead = 0, n = 0, live = 0, c[TRAPEZE_NEXT_N] = {0};
        for (int z = 0; z < 3; z++) {
            mass += weight[z] * (A->idle[z][u] - A->exact[z][u]);
            pend += weight[z] * (A->pending[z][u][0] + A->pending[z][u][1]);
            dead += weight[z] * A->pending[z][u][1] * (1 - A->filled[u]);
            for (int x = 0; x < TRAPEZE_NEXT_N; x++)
                c[x] += weight[z] * A->count[z][u][x];
        }
        if (mass < 0)
            mass = 0;
        double q = pend > 0 ? dead / pend : 0;
        if (pend > mass)
            pend = mass;
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            n += c[x];
        live = c[TRAPEZE_NEXT_READ] + c[TRAPEZE_NEXT_WRITE];
        double m[TRAPEZE_NEXT_N];
        for (int x = 0; x < TRAPEZE_NEXT_N; x++) {
            double share_live = live > 0 ? c[x] / live : x == TRAPEZE_NEXT_READ;
            m[x] = (n > 0 ? (mass - pend) * c[x] / n : 0) +
                   pend * (x == TRAPEZE_NEXT_DEAD ? q : (1 - q) * share_live);
            if (!(n > 0) && x == TRAPEZE_NEXT_DEAD)
                m[x] += mass - pend;
        }
        if (units[u].kind == SIM_UNIT_L1_LINE && A->last_wave_frames > 0) {
            /* one dead period of the run's length per frame-run of the last wave */
            int b = trapeze_idle_bucket(out->cycles);
            if (b >= 0)
                h->count[TRAPEZE_NEXT_DEAD][b] += A->last_wave_frames;
        }
        for (int x = 0; x < TRAPEZE_NEXT_N; x++) {
            double cx = c[x];
            if (m[x] > 0 && !(cx > 0))   /* cycles of a kind none of whose periods ended */
                cx = m[x] / (out->cycles > SIM_JUMP_LONG ? out->cycles : SIM_JUMP_LONG + 1);
            sim_jump_add_long(h, x, cx, m[x]);
        }
    }
    return TRAPEZE_OK;
}

/* A spread sample: every launch runs to its end. A live period after the
 * first window counts where it overlaps a later window (it ends in one or
 * began before one ended), weighted by the inverse of its chance to
 * (sim_spread_inclusion): a period longer than the gap between two
 * windows always overlaps one and counts once, as in the whole run. (Until
 * 28 Nov only the periods ending in a window counted, five times over: the
 * V100's Cell L1D frames have few long periods ending in a read, and the
 * windows caught too few of them, 91.01% saved predicted from the sample,
 * 93.35% from the whole run's histogram.) The periods that overlapped the
 * first window and end before the next one count once. Dead periods count
 * in full, wherever they end (acc[2]): they close each unit's life and
 * cluster at the end of warps, blocks and launches, a few instants a
 * window either catches whole or misses (GTX 480 GESUMMV 512, 16 warps
 * ending together: the RF saving 75.4% sampled, 84.3% in full, the whole
 * run's histogram 81.7%). */
static double inverse_inclusion(const void *ctx, double length)
{
    return 1 / sim_spread_inclusion(ctx, length);
}

enum { ALL = 7, DEAD = 1 << TRAPEZE_NEXT_DEAD, LIVE = ALL & ~DEAD };   /* next-access masks */

/* Adds the periods of region r (sim_spread_region) that ended since
 * the snapshots: acc[0] every period of the first window, acc[1] the live
 * periods that overlap a later window (the simulator's marked ones between
 * windows; before the first later window, `later` 0, those that overlapped
 * the first window, once), acc[2] the dead ones after the first window. */
static void spread_gather(const sim_spread *p, sim_events *ev, int r, int later,
                          trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS], sim_idle_hist *snap,
                          sim_idle_hist *snap_marked)
{
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        const sim_idle_hist *now = sim_events_hist(ev, units[u].kind);
        const sim_idle_hist *marked = sim_events_marked_hist(ev, units[u].kind);
        if (r == 0)
            sim_idle_export_add_diff(&acc[0][u], now, &snap[u], 1, ALL);
        if (r == 1)
            sim_idle_export_add_diff_by(&acc[1][u], now, &snap[u], inverse_inclusion, p, LIVE);
        if (r == 2 && later)   /* between windows: those that began before the last one ended */
            sim_idle_export_add_diff_by(&acc[1][u], marked, &snap_marked[u], inverse_inclusion,
                                          p, LIVE);
        if (r == 2 && !later)  /* ... the first window: once */
            sim_idle_export_add_diff(&acc[1][u], marked, &snap_marked[u], 1, LIVE);
        if (r != 0)
            sim_idle_export_add_diff(&acc[2][u], now, &snap[u], 1, DEAD);
        snap[u] = *now;
        snap_marked[u] = *marked;
    }
}

static trapeze_status run_spread(sim_gpu *g, const job_kernels *k, const sim_spread *p,
                                 trapeze_sleep_run *out,
                                 trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS], jump_ctx *jc,
                                 trapeze_error *err)
{
    sim_events *ev = sim_gpu_events(g);
    sim_idle_hist *snap = calloc(2 * TRAPEZE_SLEEP_NUNITS, sizeof *snap);
    if (!snap)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    sim_events_set_mark(ev, 0);   /* none until the first window ends (no allocation) */
    sim_idle_hist *snap_marked = snap + TRAPEZE_SLEEP_NUNITS;
    int later = 0;   /* a later window has begun */
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < k->n; i++) {
        sim_kernel_stats st;
        sim_launch l;
        memset(&st, 0, sizeof st);
        /* a launch starts empty */
        memset(snap, 0, 2 * TRAPEZE_SLEEP_NUNITS * sizeof *snap);
        if ((s = sim_gpu_launch_begin(g, k->ks[i], &st, &l, err)))
            break;
        /* l.t is the cycle the next step simulates: its periods end there */
        int r = sim_spread_region(p, (double)l.t);
        if (jc && !jc->decided && (double)l.t >= p->first &&
            jump_here(jc, g, k, i, &l, out->warp_insts, out->cycles)) {
            sim_gpu_launch_cut(&l);
            break;
        }
        for (;;) {
            int next = l.running ? sim_spread_region(p, (double)l.t) : -1;
            if (next == r) {   /* an error stops the launch: sim_gpu_launch_end returns it */
                sim_gpu_launch_step(&l, err);
                continue;
            }
            spread_gather(p, ev, r, later, acc, snap, snap_marked);
            later |= next == 1;
            /* from the gap's first cycle: the periods that began before it */
            if (next == 2 && sim_events_set_mark(ev, l.t)) {
                s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
                sim_gpu_launch_cut(&l);
                break;
            }
            if (jc && !jc->decided && r == 0 && next > 0 &&
                jump_here(jc, g, k, i, &l, out->warp_insts, out->cycles)) {
                sim_gpu_launch_cut(&l);
                break;
            }
            if ((r = next) < 0)
                break;
        }
        if (s || (jc && jc->jumped))
            break;
        if (!(s = sim_gpu_launch_end(&l, err))) {
            /* the launch's end closes every open period, dead */
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
                sim_idle_export_add_diff(&acc[2][u], sim_events_hist(ev, units[u].kind),
                                           &snap[u], 1, ALL);
            out->cycles = (double)sim_gpu_cycle(g);
            out->warp_insts += (double)st.total.warp_insts;
        }
        sim_kernel_stats_free(&st);
    }
    sim_events_set_mark(ev, 0);
    free(snap);
    if (s)
        return s;
    if (jc && jc->jumped) {
        out->warp_insts = jc->first_insts;
        out->simulated = jc->first_cycles;
        return run_jumps(jc, acc, out, err);
    }
    double rec = sim_spread_recorded(p, out->cycles);
    out->recorded = (out->cycles < p->first ? out->cycles : p->first) + rec;
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
                out->hist[u].count[x][b] +=
                    acc[0][u].count[x][b] + acc[1][u].count[x][b] + acc[2][u].count[x][b];
    return TRAPEZE_OK;
}

static trapeze_status run_job(const trapeze_config *cfg, const trapeze_sleep_job *j,
                              const sim_gpu_options *opt, double window,
                              const sim_spread *spread, int jump, trapeze_sleep_run *out,
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
            jump_ctx *jc = jump ? calloc(1, sizeof *jc) : NULL;
            if (jc && !(jc->acc = calloc(1, sizeof *jc->acc))) {
                free(jc);
                jc = NULL;
            }
            out->spread = 1;
            if (jc) {
                jc->cfg = cfg;
                jc->opt = opt;
                jc->job = j;
            }
            s = acc && (jc || !jump) ? run_spread(g, &k, spread, out, acc, jc, err)
                                     : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
            out->jumped = jc && jc->jumped;
            if (!out->jumped)
                out->simulated = out->cycles;
            for (int u = 0; jc && u < TRAPEZE_SLEEP_NUNITS; u++) {
                free(jc->acc->unused[u]);
                free(jc->acc->first_open[u]);
            }
            if (jc)
                free(jc->acc);
            free(jc);
            free(acc);
        } else
        s = ages ? run_launches(g, &k, window, out, ages, extra, each, ctx, err)
                 : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        /* the launches that ended whole: their kept histograms */
        for (int i = 0; !s && !out->spread && opt->keep_idle && i < sim_gpu_idle_count(g); i++) {
            const sim_idle_hist *kinds = sim_gpu_idle(g, i, NULL);
            for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
                sim_idle_export_add(&out->hist[u], &kinds[units[u].kind]);
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

trapeze_status sim_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                const trapeze_sleep_job *j, double window_cycles,
                                double spread_cycles, trapeze_sleep_run *out,
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
    return run_job(cfg, j, &opt, window_cycles, &sp, spread_cycles < 0, out, NULL, NULL, err);
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

trapeze_status sim_sleep_whole(const trapeze_config *cfg, const trapeze_power *pw,
                               const trapeze_sleep_job *j, const trapeze_sleep_setting *set,
                               trapeze_sleep_run *out, trapeze_error *err)
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
    return run_job(cfg, j, &opt, 0, NULL, 0, out, add_sleep, out, err);
}
