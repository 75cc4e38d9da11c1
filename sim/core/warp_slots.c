/*
 * warp_slots.c - the checker of the SM's warp-slot invariants
 * (warp_slots.h), run after every SM cycle in TRAPEZE_CHECKS builds. Reads
 * only; must not change the SM.
 */
#include "common/assert.h"
#include "sim/core/warp_slots.h"

TRAPEZE_CHECKER static inline int bit(const uint64_t *set, int slot)
{
    return (int)(set[slot >> 6] >> (slot & 63) & 1);
}

/* The reason update_why gives a slot in this state. */
TRAPEZE_CHECKER static inline int derived_reason(const sim_sm *sm, int slot)
{
    int st = sm->wstate[slot];
    return st == W_RUN || st == W_EXITED ? sm->wwait[slot]
           : st == W_BAR ? SIM_STALL_BARRIER
           : st == W_FENCE ? SIM_STALL_FENCE : SIM_STALL_IDLE;
}

/* The bits of word w that are slots below n (max_warps). */
TRAPEZE_CHECKER static inline uint64_t slots_below(int n, int w)
{
    int k = n - 64 * w;
    return k <= 0 ? 0 : k >= 64 ? ~0ull : (1ull << k) - 1;
}

/* Word-wise: the slots' reasons and finite retries are gathered into the
 * sets they should give, then each set is compared a word at a time (a
 * slot-by-slot test of every reason's bit cost more than the cycle it
 * checks, and it runs after every SM cycle). */
TRAPEZE_CHECKER void sim_sm_check_slots(const sim_sm *sm, uint64_t t)
{
    int n = sm->cfg->max_warps, ns = sm->cfg->n_sched, parked = 0;
    uint64_t earliest[16], all = SIM_NEVER;
    uint64_t want[SIM_STALL_COUNT][SM_MASK_WORDS] = {{0}}, finite[SM_MASK_WORDS] = {0};
    for (int s = 0; s < ns; s++)
        earliest[s] = SIM_NEVER;
    for (int i = 0, s = 0; i < n; i++, s = s + 1 == ns ? 0 : s + 1) {   /* s = i % ns */
        int r = derived_reason(sm, i);
        TRAPEZE_ASSERT(sm->wwhy[i] == r);
        uint64_t retry = sm->wretry[i];
        /* a slot giving a reason other than idle is its scheduler's
         * (sched_reason tests the slots' bit pattern in place of own) */
        TRAPEZE_ASSERT(r == SIM_STALL_IDLE || bit(sm->sched[s].own, i));
        want[r][i >> 6] |= 1ull << (i & 63);
        finite[i >> 6] |= (uint64_t)(retry != SIM_NEVER) << (i & 63);
        earliest[s] = retry < earliest[s] ? retry : earliest[s];
    }
    for (int w = 0; w < SM_MASK_WORDS; w++) {
        /* each slot's bit in its reason's set and in no other; idle, the
         * fallback reason, may lack it (a slot never used has no bit); no
         * bit at or beyond max_warps (want and finite have none there) */
        for (int r = 0; r < SIM_STALL_COUNT; r++)
            TRAPEZE_ASSERT(r == SIM_STALL_IDLE ? !(sm->why[w][r] & ~want[r][w])
                                               : sm->why[w][r] == want[r][w]);
        TRAPEZE_ASSERT(sm->wfinite[w] == finite[w]);
        TRAPEZE_ASSERT(!(sm->wldst[w] & ~slots_below(n, w)));
        parked += __builtin_popcountll(sm->wldst[w]);
    }
    TRAPEZE_ASSERT(parked == sm->ldst_waiters);
    for (int s = 0; s < ns; s++) {
        TRAPEZE_ASSERT(sm->sched_next[s] <= earliest[s]);
        all = earliest[s] < all ? earliest[s] : all;
    }
    TRAPEZE_ASSERT(sm->warp_next <= all || sm->warp_next == t + 1);
}
