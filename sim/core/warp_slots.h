/*
 * warp_slots.h - the SM's warp-slot bookkeeping: every write of a warp's
 * state, wait reason and retry cycle goes through these, so that the
 * derived sets the schedulers scan stay exact. Included by sm.c only
 * (static inline: the issue stage calls them every cycle); the checker is
 * warp_slots.c.
 *
 * Invariants (checked by sim_sm_check_slots after every SM cycle when built
 * with TRAPEZE_CHECKS, i.e. `make test SAN=1`), for every slot i:
 *  - wwhy[i] is the reason update_why derives from wstate[i] and wwait[i],
 *    and slot i's bit is set in why[i >> 6][wwhy[i]] (idle, the fallback
 *    reason, may lack it: a slot never used has no bit) and in no other
 *    reason's word; a slot whose reason is not idle is in its scheduler's
 *    own set;
 *  - slot i's bit is set in wfinite iff wretry[i] != SIM_NEVER;
 *  - ldst_waiters is the number of bits set in wldst;
 *  - no bit is set at or beyond max_warps in any of these sets;
 *  - sched_next[s] is at most the earliest wretry of scheduler s's slots
 *    (i % n_sched == s), and warp_next at most the earliest of all, or the
 *    cycle after the one just run (the issue stage's floor): a warp is never
 *    skipped past the cycle it could issue.
 */
#ifndef TRAPEZE_SIM_CORE_WARP_SLOTS_H
#define TRAPEZE_SIM_CORE_WARP_SLOTS_H

#include "common/assert.h"
#include "sim/core/sm.h"

/* The stall reason a warp gives its scheduler: its wait reason while it
 * runs (or has exited and drains), barrier or fence while held there,
 * none (idle) otherwise. Kept in sm->why[] bit sets so that a
 * scheduler's reason is a few mask tests. */
static inline void update_why(sim_sm *sm, int slot)
{
    int st = sm->wstate[slot];
    int r = st == W_RUN || st == W_EXITED ? sm->wwait[slot]
            : st == W_BAR ? SIM_STALL_BARRIER
            : st == W_FENCE ? SIM_STALL_FENCE : SIM_STALL_IDLE;
    int old = sm->wwhy[slot];
    if (r == old)
        return;
    uint64_t bit = 1ull << (slot & 63);
    sm->why[slot >> 6][old] &= ~bit;
    sm->why[slot >> 6][r] |= bit;
    sm->wwhy[slot] = (uint8_t)r;
}

/* Every write of a warp's state or wait reason goes through these. */
static inline void set_state(sim_sm *sm, int slot, int st)
{
    sm->wstate[slot] = (uint8_t)st;
    update_why(sm, slot);
}

static inline void set_wait(sim_sm *sm, int slot, int why)
{
    sm->wwait[slot] = (uint8_t)why;
    update_why(sm, slot);
}

/* Every write of a warp's retry cycle goes here: wfinite keeps the slots whose
 * retry is a cycle (not SIM_NEVER), the only ones retry_minima looks at. */
static inline void set_retry(sim_sm *sm, int slot, uint64_t v)
{
    uint64_t bit = 1ull << (slot & 63), *word = &sm->wfinite[slot >> 6];
    sm->wretry[slot] = v;
    *word = v == SIM_NEVER ? *word & ~bit : *word | bit;
}

/* Parks the warp until the LDST queue drains. */
static inline void ldst_park(sim_sm *sm, int slot)
{
    uint64_t bit = 1ull << (slot & 63), *word = &sm->wldst[slot >> 6];
    set_wait(sm, slot, SIM_STALL_MEMORY);
    set_retry(sm, slot, SIM_NEVER);
    if (!(*word & bit)) {
        *word |= bit;
        sm->ldst_waiters++;
    }
}

/* A warp asked while the LDST queue is empty is no longer parked on it. */
static inline void ldst_unpark(sim_sm *sm, int slot)
{
    uint64_t bit = 1ull << (slot & 63), *word = &sm->wldst[slot >> 6];
    if (*word & bit) {
        *word &= ~bit;
        sm->ldst_waiters--;
    }
}

/* A warp's retry cycle was lowered outside the issue stage: keep the SM's and its
 * scheduler's earliest retry lower bounds (a scheduler with nothing due_now is
 * not scanned). */
static inline void retry_lowered(sim_sm *sm, int slot)
{
    uint64_t u = sm->wretry[slot];
    uint64_t *sn = &sm->sched_next[slot % sm->cfg->n_sched];
    if (u < *sn)
        *sn = u;
    if (u < sm->warp_next)
        sm->warp_next = u;
}

/* Aborts (TRAPEZE_ASSERT) when an invariant above does not hold after the
 * SM's cycle t. */
void sim_sm_check_slots(const sim_sm *sm, uint64_t t);

#endif
