/*
 * sched_two_level.h - internal to sm.c: the two-level warp schedulers'
 * picks, inline so that the issue stage gets can_issue inlined in them.
 *
 * Two-level (GPGPU-Sim's two_level_active:N:INNER:1, after Narasiman
 * MICRO'11 and Gebhart ISCA'11): only the scheduler's active warps (at most
 * N) may issue. Before each pick, active warps that wait on a long-latency
 * event are demoted to the tail of the pending list, and pending warps that
 * no longer wait are promoted, oldest in the list first, while the active
 * set has room. A warp waits when it cannot become due without an event:
 * its retry cycle is SIM_NEVER (a load, a barrier, a fence, its stores draining)
 * and it is not merely parked on a busy LDST queue. GPGPU-Sim promotes the
 * pending head even if it waits (to be demoted again at the next pick);
 * promoting only warps that can run keeps the active set useful and lets
 * the SM skip idle cycles. Among the active: LRR (INNER 0) or GTO (2).
 *
 * Locality-aware two-level (Chen 2016 §3.5, the digest's §A.4.6): the
 * same active and pending sets; the warp issued last goes on while it can
 * (greedy), then the active warps in falling locality with it (ties:
 * oldest); a pending warp is promoted in order of its locality with the
 * whole active set (sum). The locality of two warps is the number of cache
 * lines both of their access ranges hold (sim_warp.loc_*: one 64-line
 * region and a line bitmap, Chen's region + sub-region vector). Starvation
 * guard: a warp dispatched more than 2 x (blocks per SM) blocks before the
 * newest is asked first, active or not.
 * Invariants: a slot of the scheduler is in exactly one of act[] and
 * pend[]; n_active <= max_active.
 */
#ifndef TRAPEZE_SIM_CORE_SCHED_TWO_LEVEL_H
#define TRAPEZE_SIM_CORE_SCHED_TWO_LEVEL_H

#include <assert.h>

#include "sim/core/sm.h"
#include "sim/mem/popcount.h"

static inline int tl_waiting(const sim_sm *sm, int slot)
{
    uint64_t bit = 1ull << (slot & 63);
    return !(sm->wfinite[slot >> 6] & bit) && !(sm->wldst[slot >> 6] & bit);
}

static inline int tl_active(const sim_sched *s, int slot)
{
    return s->act[slot >> 6] >> (slot & 63) & 1;
}

/* Lines two warps' access ranges share. */
static inline int64_t tl_locality(const sim_sm *sm, int a, int b)
{
    const sim_warp *x = &sm->warps[a], *y = &sm->warps[b];
    if (!x->loc_region || x->loc_region != y->loc_region)
        return 0;
    uint64_t both = x->loc_lines & y->loc_lines;
    return sim_popcount64(both);
}

static inline void tl_reorder(const sim_sm *sm, sim_sched *s, int locality)
{
    for (int wi = 0; wi < s->words; wi++)
        for (uint64_t b = s->act[wi]; b; b &= b - 1) {
            int slot = wi * 64 + __builtin_ctzll(b);
            if (tl_waiting(sm, slot)) {
                s->act[wi] &= ~(1ull << (slot & 63));
                s->n_active--;
                s->pend[s->n_pend++] = (uint8_t)slot;
            }
        }
    while (s->n_active < s->max_active) {
        int best = -1;
        int64_t best_score = -1;
        for (int i = 0; i < s->n_pend; i++) {
            int slot = s->pend[i];
            if (tl_waiting(sm, slot))
                continue;
            if (!locality) {
                best = i;
                break;
            }
            int64_t score = 0;
            for (int wi = 0; wi < s->words; wi++)
                for (uint64_t b = s->act[wi]; b; b &= b - 1)
                    score += tl_locality(sm, slot, wi * 64 + __builtin_ctzll(b));
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
        if (best < 0)
            break;
        int slot = s->pend[best];
        memmove(&s->pend[best], &s->pend[best + 1], (size_t)(s->n_pend - best - 1));
        s->n_pend--;
        s->act[slot >> 6] |= 1ull << (slot & 63);
        s->n_active++;
    }
    assert(s->n_active + s->n_pend == s->n && s->n_active <= s->max_active);
}

/* The due positions of active warps (and, with `also`, of slot `also`). */
static inline __attribute__((always_inline)) void
tl_due_active(const sim_sched *s, const uint64_t *retry, const uint64_t *finite,
              const uint64_t *ldst, uint64_t t, int skip, uint64_t *due)
{
    sim_sched_due_positions(s, retry, finite, ldst, t, skip, due);
    for (int wi = 0; wi < s->words; wi++)
        for (uint64_t b = due[wi]; b; b &= b - 1) {
            int pos = wi * 64 + __builtin_ctzll(b);
            if (!tl_active(s, s->slot[pos]))
                due[wi] &= ~(1ull << (pos & 63));
        }
}

static inline __attribute__((always_inline)) int
sim_sched_pick_two_level(const sim_sm *sm, sim_sched *s, const uint64_t *retry,
                         const uint64_t *finite, const uint64_t *ldst, uint64_t t,
                         sim_can_issue_fn can_issue, void *ctx)
{
    tl_reorder(sm, s, 0);
    uint64_t due[SM_MASK_WORDS];
    if (sm->cfg->inner_gto) {
        int last = s->last;
        if (last >= 0 && tl_active(s, last) && sim_sched_due(retry, ldst, last, t) &&
            can_issue(ctx, last))
            return last;
        tl_due_active(s, retry, finite, ldst, t, last, due);
        int pos = sim_sched_ask_from(s, due, 0, can_issue, ctx);
        if (pos < 0)
            return -1;
        return s->last = s->slot[pos];
    }
    tl_due_active(s, retry, finite, ldst, t, -1, due);
    int pos = sim_sched_ask_from(s, due, s->rr, can_issue, ctx);
    if (pos < 0 && s->rr > 0) {
        uint64_t before[SM_MASK_WORDS];
        for (int wi = 0; wi < s->words; wi++) {
            int n = s->rr - wi * 64;
            before[wi] = n <= 0 ? 0 : n >= 64 ? due[wi] : due[wi] & ((1ull << n) - 1);
        }
        pos = sim_sched_ask_from(s, before, 0, can_issue, ctx);
    }
    if (pos < 0)
        return -1;
    s->rr = (pos + 1) % s->n;
    return s->last = s->slot[pos];
}

static inline int sim_sched_pick_locality(const sim_sm *sm, sim_sched *s, const uint64_t *retry,
                                          const uint64_t *finite, const uint64_t *ldst,
                                          uint64_t t, sim_can_issue_fn can_issue, void *ctx)
{
    tl_reorder(sm, s, 1);
    uint64_t due[SM_MASK_WORDS];
    /* starvation guard: the oldest warps first when far behind the newest */
    int warps_per_block = (sim_kernel_block_threads(sm->k) + SIM_WARP_LANES - 1) / SIM_WARP_LANES;
    uint64_t span = 2ull * (uint64_t)sm->cfg->gpu.max_blocks_per_sm * (uint64_t)warps_per_block;
    if (s->n && sm->age_counter > span) {
        sim_sched_due_positions(s, retry, finite, ldst, t, -1, due);
        for (int wi = 0; wi < s->words; wi++)
            for (uint64_t b = due[wi]; b; b &= b - 1) {
                int slot = s->slot[wi * 64 + __builtin_ctzll(b)];
                if (sm->warps[slot].age + span >= sm->age_counter)
                    goto fresh;   /* list order is age order: no older one is due */
                if (can_issue(ctx, slot))
                    return s->last = slot;
            }
    }
fresh:;
    int last = s->last;
    if (last >= 0 && tl_active(s, last) && sim_sched_due(retry, ldst, last, t) &&
        can_issue(ctx, last))
        return last;
    tl_due_active(s, retry, finite, ldst, t, last, due);
    int cand[SM_MAX_WARPS], n = 0;
    int64_t score[SM_MAX_WARPS];
    for (int wi = 0; wi < s->words; wi++)
        for (uint64_t b = due[wi]; b; b &= b - 1) {
            int slot = s->slot[wi * 64 + __builtin_ctzll(b)];
            cand[n] = slot;
            score[n++] = last >= 0 ? tl_locality(sm, slot, last) : 0;
        }
    for (int k = 0; k < n; k++) {   /* in falling locality, oldest first among equals */
        int best = k;
        for (int j = k + 1; j < n; j++)
            if (score[j] > score[best])
                best = j;
        int slot = cand[best];
        int64_t sc = score[best];
        memmove(&cand[k + 1], &cand[k], (size_t)(best - k) * sizeof *cand);
        memmove(&score[k + 1], &score[k], (size_t)(best - k) * sizeof *score);
        cand[k] = slot;
        score[k] = sc;
        if (can_issue(ctx, slot))
            return s->last = slot;
    }
    return -1;
}

#endif
