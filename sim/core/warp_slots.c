/*
 * warp_slots.c - the checker of the SM's warp-slot invariants
 * (warp_slots.h), run after every SM cycle in TRAPEZE_CHECKS builds. Reads
 * only; must not change the SM.
 */
#include "common/assert.h"
#include "sim/core/warp_slots.h"

static inline int bit(const uint64_t *set, int slot)
{
    return (int)(set[slot >> 6] >> (slot & 63) & 1);
}

static int why_bit(const sim_sm *sm, int r, int slot)
{
    return (int)(sm->why[slot >> 6][r] >> (slot & 63) & 1);
}

/* The reason update_why gives a slot in this state. */
static inline int derived_reason(const sim_sm *sm, int slot)
{
    int st = sm->wstate[slot];
    return st == W_RUN || st == W_EXITED ? sm->wwait[slot]
           : st == W_BAR ? SIM_STALL_BARRIER
           : st == W_FENCE ? SIM_STALL_FENCE : SIM_STALL_IDLE;
}

void sim_sm_check_slots(const sim_sm *sm, uint64_t t)
{
    int n = sm->cfg->max_warps, ns = sm->cfg->n_sched, parked = 0;
    uint64_t earliest[16], all = SIM_NEVER;
    for (int s = 0; s < ns; s++)
        earliest[s] = SIM_NEVER;
    for (int i = 0; i < SM_MASK_WORDS * 64; i++) {
        if (i >= n) {
            for (int r = 0; r < SIM_STALL_COUNT; r++)
                TRAPEZE_ASSERT(!why_bit(sm, r, i));
            TRAPEZE_ASSERT(!bit(sm->wfinite, i) && !bit(sm->wldst, i));
            continue;
        }
        TRAPEZE_ASSERT(sm->wwhy[i] == derived_reason(sm, i));
        /* a slot giving a reason other than idle is its scheduler's
         * (sched_reason tests the slots' bit pattern in place of own) */
        TRAPEZE_ASSERT(sm->wwhy[i] == SIM_STALL_IDLE || bit(sm->sched[i % ns].own, i));
        /* idle is the fallback reason: a slot never used has no bit at all */
        for (int r = 0; r < SIM_STALL_COUNT; r++)
            TRAPEZE_ASSERT(r == sm->wwhy[i] ? why_bit(sm, r, i) || r == SIM_STALL_IDLE
                                            : !why_bit(sm, r, i));
        TRAPEZE_ASSERT(bit(sm->wfinite, i) == (sm->wretry[i] != SIM_NEVER));
        parked += bit(sm->wldst, i);
        if (sm->wretry[i] < earliest[i % ns])
            earliest[i % ns] = sm->wretry[i];
    }
    TRAPEZE_ASSERT(parked == sm->ldst_waiters);
    for (int s = 0; s < ns; s++) {
        TRAPEZE_ASSERT(sm->sched_next[s] <= earliest[s]);
        all = earliest[s] < all ? earliest[s] : all;
    }
    TRAPEZE_ASSERT(sm->warp_next <= all || sm->warp_next == t + 1);
}
