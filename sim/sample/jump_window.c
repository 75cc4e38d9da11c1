/*
 * jump_window.c - one window of a jump sample (sim_sleep_jump_window): a
 * launch of the job on a fresh GPU from a later block and loop trip, a
 * warm-up not recorded, then a recording (to the launch's end for a launch
 * end), its periods added to the sample's strata. Owns one window; returns
 * the simulator's status when the window's simulation fails.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/sample/runs.h"
#include "sim/sim.h"

/* Adds the periods a histogram gained between two readings with weight 1
 * (the stratum's weight comes last; runs.h). */
double sim_jump_gained(trapeze_idle_hist *h, const sim_idle_hist *now, const sim_idle_hist *before,
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

/* One later window (stratum 1 or 3) or launch end (stratum 2): launch i of the job
 * on a fresh GPU from (first_block, first_trip), SIM_JUMP_WARM cycles
 * not recorded, then SIM_JUMP_RECORD cycles recorded, both times jc->scale (end: recorded to
 * the launch's end, which closes every unit's period, dead). */
trapeze_status sim_sleep_jump_window(sim_jump_ctx *jc, int i, long first_block, long first_trip,
                                     int stratum, trapeze_sleep_run *out, trapeze_error *err)
{
    int end = stratum == 2;
    sim_jump_acc *A = jc->acc;
    sim_gpu_options opt = *jc->opt;
    opt.first_block = first_block;
    sim_gpu *g = NULL;
    sim_sleep_kernels k = {0};
    sim_idle_hist *snap = calloc(TRAPEZE_SLEEP_NUNITS, sizeof *snap);
    static const sim_idle_hist zero_hist;
    sim_idle_hist reg_marked = zero_hist, reg_now;
    uint64_t *starts[TRAPEZE_SLEEP_NUNITS] = {0};
    trapeze_status s = snap ? sim_gpu_create(jc->cfg, &opt, &g, err)
                            : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s && !(s = sim_sleep_build(jc->job, g, &k, err)) && i >= k.n)
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
        sim_sleep_release(&k);
        sim_gpu_destroy(g);
        return s;
    }
    sim_events *ev = sim_gpu_events(g);
    /* at a launch end, the register periods that began before the
     * recording (a register named by no instruction, or last used in the
     * warm-up's replay of its warp's prologue: the open-period rule counts
     * those) are told from the warp tails by the marked histogram */
    uint64_t warm = (uint64_t)(SIM_JUMP_WARM * jc->scale);
    if (end && sim_events_set_mark(ev, l.start + warm))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    uint64_t a = l.start + warm;
    if (!s)
        s = sim_launch_run_until(&l, a, err);
    a = l.t;
    double insts_a = (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
    double fills_a = (double)sim_events_get(ev, SIM_EV_L2_FILL);
    double writes_a = (double)sim_events_get(ev, SIM_EV_L2_WRITE);
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS && !s; u++) {
        int n = sim_events_units(ev, sim_sleep_units[u].kind);
        snap[u] = *sim_events_hist(ev, sim_sleep_units[u].kind);
        if (sim_sleep_units[u].kind == SIM_UNIT_REG)
            reg_marked = *sim_events_marked_hist(ev, SIM_UNIT_REG);
        if (!(starts[u] = malloc((size_t)(n > 0 ? n : 1) * sizeof **starts)))
            s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        else if (n > 0)
            memcpy(starts[u], sim_events_idle_starts(ev, sim_sleep_units[u].kind),
                   (size_t)n * sizeof **starts);
    }
    uint64_t b = a + (uint64_t)(SIM_JUMP_RECORD * jc->scale);
    if (!s)
        s = sim_launch_run_until(&l, end ? 0 : b, err);
    double insts = (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
    double fills = (double)sim_events_get(ev, SIM_EV_L2_FILL) - fills_a;
    double writes = (double)sim_events_get(ev, SIM_EV_L2_WRITE) - writes_a;
    int ended = !s && end && !l.running;
    /* before the launch's end closes them: the periods long and still open
     * at the recording's end, dead where no window later in the run used
     * their unit after its first blocks were placed (windows run latest
     * first; long at the windows' scale, as in sim_sleep_run_jumps); then
     * this window's uses. (Uses while recording only, which
     * leaves out the warm-up's replay of a warp's prologue: GTX 480 SYRK
     * RF 93.9% predicted against 87.7% simulated, 89.4% with this rule.) */
    uint64_t now = l.running ? l.t : l.end;
    for (int u = 0; !s && u < TRAPEZE_SLEEP_NUNITS; u++) {
        const uint64_t *st = sim_events_idle_starts(ev, sim_sleep_units[u].kind);
        int n = sim_events_units(ev, sim_sleep_units[u].kind);
        for (int x = 0; A->unused[u] && x < n && x < A->n_units[u]; x++) {
            uint64_t y = starts[u][x];
            if (!end && y != SIM_EV_UNALLOCATED && st[x] == y && now > y &&
                now - y > SIM_JUMP_LONG * jc->scale) {
                A->pending[stratum][u][A->unused[u][x]] += (double)(now - (y > a ? y : a));
                A->pending_n[stratum][u][A->unused[u][x]]++;
            }
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
        int n = sim_events_units(ev, sim_sleep_units[u].kind);
        double exact = 0;
        /* exact: began after the simulation did (a period from its start on
         * may have begun earlier in the run) */
        uint64_t exact_len = a - l.start > 1 ? a - l.start - 1 : 1;
        if (exact_len > SIM_JUMP_LONG)
            exact_len = SIM_JUMP_LONG;
        const sim_idle_hist *now = sim_events_hist(ev, sim_sleep_units[u].kind);
        if (end && sim_sleep_units[u].kind == SIM_UNIT_REG) {
            reg_now = *now;
            double blocks, stretch, n_tails, tails;
            sim_jump_tail_scale(&jc->launch[i], first_block, insts, &blocks, &stretch);
            sim_jump_tail_cut(&reg_now, &snap[u], sim_events_marked_hist(ev, SIM_UNIT_REG),
                                  &reg_marked, &n_tails, &tails);
            A->tail_n += n_tails * blocks;
            A->tail_mass += tails * blocks * stretch;
            now = &reg_now;
        }
        double all = sim_jump_gained(&A->hist[stratum][u], now, &snap[u], exact_len, &exact,
                                     A->count[stratum][u]);
        A->exact[stratum][u] += exact;
        A->idle[stratum][u] += idle_between(
            starts[u], sim_events_idle_starts(ev, sim_sleep_units[u].kind), n, a,
            b, all);
    }
    if (!s) {
        A->insts[stratum] += insts - insts_a;
        A->l2_fills[stratum] += fills;
        A->l2_writes[stratum] += writes;
        A->cycles[stratum] += (double)(b - a);
        A->windows[stratum]++;
        out->warp_insts += insts;
        out->simulated += (double)(b - l.start);
    }
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        free(starts[u]);
    free(snap);
    sim_sleep_release(&k);
    sim_gpu_destroy(g);
    return s;
}
