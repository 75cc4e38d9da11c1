/*
 * rsimd.c - Robust SIMD in the SM: width and depth in force, the activity
 * gate, intervals and phases (rsimd.h says what each is). Changes a warp's
 * retry cycle only to wake one that gained an activity; never issues.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/dws.h"
#include "sim/core/rsimd.h"
#include "sim/core/warp_slots.h"

enum { ADAPT, TRIAL, EXEC };   /* a kernel's phases */
#define MIN_WIDTH 2            /* a warp holds SIM_DWS_MAX_SPLITS slices at most */

trapeze_status sim_rsimd_init(sim_sm *sm, trapeze_error *err)
{
    if (!sm->cfg->rsimd.on)
        return TRAPEZE_OK;
    sm->rsimd = calloc(1, sizeof *sm->rsimd);
    if (!sm->rsimd)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for Robust SIMD "
                                                 "on SM %d", sm->id);
    return TRAPEZE_OK;
}

void sim_rsimd_free(sim_sm *sm)
{
    free(sm->rsimd);
    sm->rsimd = NULL;
}

/* (w, d) takes effect; d at or past the deepest is every slice (0). */
static void apply(sim_sm *sm, int w, int d)
{
    sim_rsimd *r = sm->rsimd;
    r->width = w;
    r->depth = d >= sim_asu_dmax(&r->asu, w) ? 0 : d;
    sm->dws->slice_w = w;
    sm->st.rsimd_width = (uint64_t)w;
    sm->st.rsimd_depth = (uint64_t)(r->depth ? r->depth : sim_asu_dmax(&r->asu, w));
}

void sim_rsimd_begin_kernel(sim_sm *sm, uint64_t t)
{
    sim_rsimd *r = sm->rsimd;
    if (!r)
        return;
    const sim_rsimd_config *c = &sm->cfg->rsimd;
    sim_asu_start(&r->asu, SIM_WARP_LANES, sm->cfg->max_warps, MIN_WIDTH, c->width, c->depth);
    /* a kernel too short for the search keeps the configured (W x D) */
    const sim_kernel *k = sm->k;
    double per_sm = (double)sim_kernel_blocks(k) * sim_kernel_block_threads(k) / sm->cfg->gpu.n_sm;
    int room = per_sm >= (double)c->min_intervals * c->interval;
    r->phase = (c->adapt || c->dws) && room ? ADAPT : EXEC;
    r->start = t;
    r->tasks = 0;
    r->n_order = 0;
    memset(r->off, 0, sizeof r->off);
    apply(sm, r->asu.w, r->asu.d);
}

void sim_rsimd_placed(sim_sm *sm, int slot, uint64_t t)
{
    sim_rsimd *r = sm->rsimd;
    r->order[r->n_order++] = (uint8_t)slot;
    r->off[slot] = 0;
    if (r->width < SIM_WARP_LANES)
        sim_dws_slice(sm, slot, r->width);
    sim_rsimd_gate(sm, t);
}

void sim_rsimd_released(sim_sm *sm, int slot)
{
    sim_rsimd *r = sm->rsimd;
    int k = 0;
    while (k < r->n_order && r->order[k] != slot)
        k++;
    if (k < r->n_order)
        memmove(&r->order[k], &r->order[k + 1], (size_t)(r->n_order - k - 1));
    r->n_order -= k < r->n_order;
    r->off[slot] = 0;
}

/* The adaptation and RobustDWS's trial measured cycles per task cpt for
 * the interval that ended at t: the next configuration. */
static void interval_end(sim_sm *sm, double cpt, uint64_t t)
{
    sim_rsimd *r = sm->rsimd;
    sm->st.rsimd_intervals++;
    if (r->phase == TRIAL) {
        int keep = cpt < r->asu.best;   /* DWS at full width beat the adapted (W x D) */
        sm->st.rsimd_dws_kept = (uint64_t)keep;
        if (!keep) {
            sm->dws->split_on = 0;
            apply(sm, r->asu.w, r->asu.d);
        }
        r->phase = EXEC;
        sm->st.rsimd_adapt_cycles = t - sm->kernel_start;
        return;
    }
    sim_asu_step(&r->asu, cpt);
    if (!r->asu.done) {
        apply(sm, r->asu.w, r->asu.d);
        return;
    }
    sm->st.rsimd_adapt_cycles = t - sm->kernel_start;
    if (sm->cfg->rsimd.dws) {
        r->phase = TRIAL;
        sm->dws->split_on = 1;
        apply(sm, SIM_WARP_LANES, 0);
        return;
    }
    apply(sm, r->asu.w, r->asu.d);
    r->phase = EXEC;
}

void sim_rsimd_finished(sim_sm *sm, int threads, uint64_t t)
{
    sim_rsimd *r = sm->rsimd;
    if (r->phase == EXEC)
        return;
    r->tasks += threads;
    if (r->tasks < sm->cfg->rsimd.interval)
        return;
    double cpt = (double)(t + 1 - r->start) / (double)r->tasks;
    r->start = t + 1;
    r->tasks = 0;
    interval_end(sm, cpt, t);
}

/* A slice or warp that gained an activity may issue from t + 1. */
static void wake(sim_sm *sm, int slot, uint64_t t)
{
    if (sm->wretry[slot] > t + 1) {
        set_retry(sm, slot, t + 1);
        retry_lowered(sm, slot);
    }
}

void sim_rsimd_gate(sim_sm *sm, uint64_t t)
{
    sim_rsimd *r = sm->rsimd;
    int left = r->depth ? r->depth : SM_MAX_WARPS * SIM_WARP_LANES;
    for (int k = 0; k < r->n_order; k++) {
        int slot = r->order[k], st = sm->wstate[slot];
        int runs = st == W_RUN || st == W_FENCE;   /* (a barrier or EXIT holds none) */
        sim_dws_group *g = sim_dws_group_of(sm, slot);
        if (!g || !g->sliced) {
            int grant = runs && left > 0;
            left -= grant;
            if (r->off[slot] && grant)
                wake(sm, slot, t);
            r->off[slot] = (uint8_t)(runs && !grant);
            continue;
        }
        int any = 0, woke = 0, wants = 0;   /* wants: a slice that could issue */
        for (int i = 0; i < g->n; i++) {
            sim_dws_split *s = &g->s[i];
            int grant = runs && !s->wait && left > 0;
            wants |= runs && !s->wait;
            left -= grant;
            woke |= s->off && grant;
            any |= grant;
            s->off = (uint8_t)(runs && !s->wait && !grant);
        }
        if (woke)
            wake(sm, slot, t);
        r->off[slot] = (uint8_t)(wants && !any);
    }
}
