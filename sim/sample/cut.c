/*
 * cut.c - a sleep sample's run cut at its window (sim_sleep_run_cut) and
 * what a cut launch's open periods stand for: the ages of the periods
 * still open, the share of the cache frames not touched yet that the
 * footprint fills before the run ends, the L1s the grid's last wave leaves
 * dead (window.c's comment says why). Owns those estimates; reads the
 * simulator's state, never changes a run.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/sample/idle_export.h"
#include "sim/sample/runs.h"

/* The open periods of a cut launch: each unit idle since next_idle_start
 * has lasted cut - start so far; ages[bucket] counts them. */
static double add_censored(sim_events *ev, double *ages, sim_unit_kind kind, uint64_t cut)
{
    const uint64_t *start = sim_events_idle_starts(ev, kind);
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
double sim_sleep_footprint_lines(const sim_sleep_kernels *k)
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
 * an idle SM's frames stay dead. usable: the frames of a cache that can
 * take a line (sim_sleep_frames_usable; 0: all), the others staying dead. */
double sim_sleep_filled_share(sim_events *ev, sim_unit_kind kind, int caches,
                              uint64_t launch_start, double footprint, int usable)
{
    sim_sleep_frames f;
    sim_sleep_frames_count(ev, kind, caches, launch_start, usable, &f);
    return sim_sleep_frames_filled(&f, footprint);
}

double sim_sleep_frames_filled(const sim_sleep_frames *f, double lines)
{
    if (!(f->untouched > 0) || !(f->in_use > 0))
        return 0;
    return sim_jump_refilled(lines, f->in_use * f->usable) * f->untouched_in_use / f->untouched;
}

void sim_sleep_frames_count(sim_events *ev, sim_unit_kind kind, int caches,
                            uint64_t launch_start, int usable, sim_sleep_frames *f)
{
    const uint64_t *start = sim_events_idle_starts(ev, kind);
    int frames = sim_events_units(ev, kind), per = caches > 0 ? frames / caches : 0;
    memset(f, 0, sizeof *f);
    f->usable = usable > 0 && usable < per ? usable : per;
    for (int c = 0; per > 0 && c < caches; c++) {
        int t = 0;
        for (int u = c * per; u < (c + 1) * per; u++)
            t += start[u] != SIM_EV_UNALLOCATED && start[u] > launch_start;
        f->touched += t;
        f->untouched += per - t;
        f->untouched_in_use += t > 0 && f->usable > t ? f->usable - t : 0;
        f->in_use += t > 0;
    }
}

int sim_sleep_frames_usable(sim_events *ev, sim_unit_kind kind, int caches,
                            uint64_t launch_start)
{
    const uint64_t *start = sim_events_idle_starts(ev, kind);
    int frames = sim_events_units(ev, kind), per = caches > 0 ? frames / caches : 0, top = 0;
    for (int c = 0; per > 0 && c < caches; c++)
        for (int u = c * per + top; u < (c + 1) * per; u++)
            if (start[u] != SIM_EV_UNALLOCATED && start[u] > launch_start)
                top = u - c * per + 1;
    return top;
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
double sim_sleep_last_wave_dead(const sim_kernel *k, int n_sm)
{
    long b = sim_kernel_blocks(k), used = b < n_sm ? b : n_sm;
    if (used <= 0)
        return 0;
    double most = (double)((b + used - 1) / used);
    return 1 - ((double)b / (double)used) / most;
}

/* The cut launch's estimates for the cache line units (0 for the others). */
static void cut_estimates(sim_gpu *g, const sim_sleep_kernels *k, const sim_launch *l,
                          sim_sleep_cut_extra extra[TRAPEZE_SLEEP_NUNITS])
{
    sim_events *ev = sim_gpu_events(g);
    int n_sm = sim_gpu_config(g)->gpu.n_sm;
    long blocks = sim_kernel_blocks(l->k), used = blocks < n_sm ? blocks : n_sm;
    double fp = sim_sleep_footprint_lines(k);
    double dead = k->persistent ? 0 : sim_sleep_last_wave_dead(l->k, n_sm);
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        sim_sleep_cut_extra *x = &extra[u];
        memset(x, 0, sizeof *x);
        if (sim_sleep_units[u].kind == SIM_UNIT_L2_LINE)
            x->filled = sim_sleep_filled_share(ev, sim_sleep_units[u].kind, 1, l->start, fp, 0);
        if (sim_sleep_units[u].kind != SIM_UNIT_L1_LINE)
            continue;
        x->filled = sim_sleep_filled_share(ev, sim_sleep_units[u].kind, n_sm, l->start, fp, 0);
        /* d / (1 - d) of the L1 frame-cycles of the SMs in use, as dead
         * periods of the cut launch's length */
        double frames = (double)sim_events_units(ev, sim_sleep_units[u].kind) / n_sm * (double)used;
        x->dead_periods = dead / (1 - dead) * frames;
        x->dead_length = (double)(l->t - l->start);
    }
}

/* Runs the job's launches on g in order, until `window` cycles (0: to the
 * end). Whole launches' statistics go to `each` (may be NULL), while g's
 * events still hold the launch's idle periods. */
trapeze_status sim_sleep_run_cut(sim_gpu *g, const sim_sleep_kernels *k, double window,
                                 trapeze_sleep_run *out, double (*ages)[TRAPEZE_IDLE_NBUCKETS],
                                 sim_sleep_cut_extra *extra,
                                 void (*each)(void *, sim_gpu *, const sim_kernel_stats *),
                                 void *ctx,
                                 trapeze_error *err)
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
                *h = *sim_events_hist(ev, sim_sleep_units[u].kind);
                out->censored += add_censored(ev, ages[u], sim_sleep_units[u].kind, l.t);
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
                each(ctx, g, &st);
        }
        sim_kernel_stats_free(&st);
    }
    return s;
}
