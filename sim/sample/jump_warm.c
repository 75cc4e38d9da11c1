/*
 * jump_warm.c - a capped jump sample's warm later windows
 * (sim_sleep_jump_warm): the first window's launch continued, its
 * dispatcher moved forward to each window's block (sim_gpu_launch_skip),
 * a warm-up and a recording of one block's life each, the periods that end
 * in each recording added to the later windows' stratum at their whole
 * length, and the first window's block placements logged for that life
 * (sim_jump_on_place). Owns the warm windows' simulation; the plan is
 * jump_run.c's, the life and the windows' number jump.c's. Must not start
 * a GPU of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/sample/runs.h"
#include "sim/sim.h"

void sim_jump_on_place(void *ctx, int sm, long block, uint64_t cycle)
{
    sim_jump_places *p = ctx;
    if (block + 1 > p->next)
        p->next = block + 1;
    if (p->off)
        return;
    if (p->n == p->size) {
        long size = p->size ? 2 * p->size : 1024;
        int *s = realloc(p->sm, (size_t)size * sizeof *s);
        if (s)
            p->sm = s;
        uint64_t *c = s ? realloc(p->cycle, (size_t)size * sizeof *c) : NULL;
        if (c)
            p->cycle = c;
        if (!s || !c) {   /* out of memory: the life from what was logged */
            p->off = 1;
            return;
        }
        p->size = size;
    }
    p->sm[p->n] = sm;
    p->cycle[p->n++] = cycle;
}

/* One warm window: from the current cycle, the dispatcher moved to
 * first_block where it is ahead, len cycles of warm-up, len recorded. */
static trapeze_status warm_window(sim_jump_ctx *jc, sim_launch *l, long first_block,
                                  trapeze_error *err)
{
    sim_jump_acc *A = jc->acc;
    sim_events *ev = sim_gpu_events(l->g);
    uint64_t from = l->t, len = (uint64_t)(jc->warm_len + 0.5);
    double insts_from = (double)sim_gpu_launch_warp_insts(l);
    trapeze_status s = TRAPEZE_OK;
    if (first_block > jc->places->next)
        s = sim_gpu_launch_skip(l, 0, first_block, err);
    if (!s)
        s = sim_launch_run_until(l, from + len, err);
    if (s || !l->running)
        return s;
    uint64_t a = l->t;
    double insts_a = (double)sim_gpu_launch_warp_insts(l);
    double fills_a = (double)sim_events_get(ev, SIM_EV_L2_FILL);
    double writes_a = (double)sim_events_get(ev, SIM_EV_L2_WRITE);
    sim_idle_hist *snap = malloc(TRAPEZE_SLEEP_NUNITS * sizeof *snap);
    if (!snap)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        snap[u] = *sim_events_hist(ev, sim_sleep_units[u].kind);
    s = sim_launch_run_until(l, a + len, err);
    uint64_t b = l->running ? l->t : l->end;
    /* every period that ended in the recording, at its whole length: it
     * began on this GPU, the run's continued; counted where it ends, as
     * many as the run ends in as much work (no idle cycles left over for
     * the long-period rule: idle = exact) */
    for (int u = 0; !s && u < TRAPEZE_SLEEP_NUNITS; u++) {
        double exact = 0;
        sim_jump_gained(&A->hist[1][u], sim_events_hist(ev, sim_sleep_units[u].kind), &snap[u],
                        0, &exact, A->count[1][u]);
        A->exact[1][u] += exact;
        A->idle[1][u] += exact;
    }
    free(snap);
    if (!s) {
        double insts = (double)sim_gpu_launch_warp_insts(l);
        A->insts[1] += insts - insts_a;
        A->l2_fills[1] += (double)sim_events_get(ev, SIM_EV_L2_FILL) - fills_a;
        A->l2_writes[1] += (double)sim_events_get(ev, SIM_EV_L2_WRITE) - writes_a;
        A->cycles[1] += (double)(b - a);
        A->windows[1]++;
        jc->warm_insts += insts - insts_from;
        jc->warm_simulated += (double)(b - from);
    }
    return s;
}

trapeze_status sim_sleep_jump_warm(sim_jump_ctx *jc, sim_launch *l, trapeze_error *err)
{
    sim_jump_acc *A = jc->acc;
    const sim_jump_launch *L = &jc->launch[jc->cut_launch];
    trapeze_status s = TRAPEZE_OK;
    double from = jc->first_insts / jc->total_insts;
    /* the first window's open periods are the warm windows' to count
     * where they end: none of their cycles so far stands apart */
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        A->idle[0][u] = 0;
    /* in the run's order: the dispatcher only moves forward */
    for (int w = 0; !s && w < jc->windows && l->running; w++) {
        long fb, ft;
        sim_jump_start(L, sim_jump_place(from, w, jc->windows), &fb, &ft);
        s = warm_window(jc, l, fb, err);
    }
    return s;
}

int sim_sleep_jump_warm_fits(const sim_jump_ctx *jc, const sim_sleep_kernels *k)
{
    if (k->n != 1 || k->persistent || !jc->places)
        return 0;
    const sim_jump_launch *L = &jc->launch[0];
    return L->concurrent > 0 && L->blocks >= SIM_JUMP_WARM_WAVES * L->concurrent;
}
