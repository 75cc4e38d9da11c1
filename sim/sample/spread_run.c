/*
 * spread_run.c - a spread sample's run (sim_sleep_run_spread): every
 * launch to its end, its idle periods gathered where they overlap the
 * windows spread.c places, weighted by the inverse of their chance to; a
 * jump sample's first window runs here too, until jump_run.c decides to
 * jump. Owns the gathering; the placement is spread.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/sample/idle_export.h"
#include "sim/sample/runs.h"

/* A spread sample: every launch runs to its end. A live period after the
 * first window counts where it overlaps a later window (it ends in one or
 * began before one ended), weighted by the inverse of its chance to
 * (sim_spread_inclusion): a period longer than the gap between two
 * windows always overlaps one and counts once, as in the whole run (counting
 * only the periods ending in a window, five times over, misses the V100's
 * Cell L1D frames, which have few long periods ending in a read: 91.01%
 * saved predicted from the sample, 93.35% from the whole run's histogram).
 * The periods that overlapped the
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
        const sim_idle_hist *now = sim_events_hist(ev, sim_sleep_units[u].kind);
        const sim_idle_hist *marked = sim_events_marked_hist(ev, sim_sleep_units[u].kind);
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

trapeze_status sim_sleep_run_spread(sim_gpu *g, const sim_sleep_kernels *k, const sim_spread *p,
                                    trapeze_sleep_run *out,
                                    trapeze_idle_hist (*acc)[TRAPEZE_SLEEP_NUNITS],
                                    sim_jump_ctx *jc, trapeze_error *err)
{
    sim_events *ev = sim_gpu_events(g);
    sim_idle_hist *snap = calloc(2 * TRAPEZE_SLEEP_NUNITS, sizeof *snap);
    if (!snap)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    sim_events_set_mark(ev, 0);   /* none until the first window ends (no allocation) */
    sim_idle_hist *snap_marked = snap + TRAPEZE_SLEEP_NUNITS;
    if (jc && jc->cap > 0)   /* the run's work sizes a capped first window */
        sim_sleep_jump_count(jc, g, k);
    /* warm later windows: the first window runs to SIM_JUMP_FIRST of the
     * cap's work, long enough for blocks to end in it (a block's life) */
    sim_spread first_long;
    if (jc && jc->warm && !sim_sleep_jump_warm_fits(jc, k))
        jc->warm = 0;
    if (jc && jc->warm) {
        first_long = *p;
        first_long.first = 1e300;
        p = &first_long;
    }
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
            sim_sleep_jump_here(jc, g, k, i, &l, out->warp_insts, out->cycles)) {
            sim_gpu_launch_cut(&l);
            break;
        }
        for (;;) {
            int next = l.running ? sim_spread_region(p, (double)l.t) : -1;
            /* a capped jump sample's first window ends early where it has
             * issued SIM_JUMP_FIRST of the cap (a short run) */
            int early = next == 0 && r == 0 && jc && !jc->decided && jc->cap > 0 &&
                        jc->total_insts > 0 &&
                        out->warp_insts + (double)sim_events_get(ev, SIM_EV_INST_ISSUE) >=
                            SIM_JUMP_FIRST * jc->cap * jc->total_insts;
            if (next == r && !early) {   /* an error stops the launch: sim_gpu_launch_end returns it */
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
            if (jc && !jc->decided && r == 0 && (next > 0 || early) &&
                sim_sleep_jump_here(jc, g, k, i, &l, out->warp_insts, out->cycles)) {
                if (jc->warm_len > 0)
                    s = sim_sleep_jump_warm(jc, &l, err);
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
                sim_idle_export_add_diff(&acc[2][u], sim_events_hist(ev, sim_sleep_units[u].kind),
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
        out->warp_insts = jc->first_insts + jc->warm_insts;
        out->simulated = jc->first_cycles + jc->warm_simulated;
        return sim_sleep_run_jumps(jc, acc, out, err);
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
