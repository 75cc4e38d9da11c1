/*
 * ldst_sched.c - Choo's memory request scheduling (seed 003, chapter 6): a
 * queue per warp slot between issue and the L1D, so that a request refused
 * for want of a line, an MSHR entry or miss-queue room no longer blocks
 * the other warps' requests behind it. Owns the probe units' choice of
 * heads; the queues themselves are the SM's LDST ring (sm.c, sim_lq_index)
 * and it must not touch the warps' state (sm.c parks and wakes them).
 *
 * Each cycle up to k heads are probed in order (-trapeze_ldst_probes: the
 * seed's k probe units probing at once) and the first the L1D takes is
 * served, one a cycle (one data port); a warp's requests stay in order.
 * Policies (-trapeze_ldst_sched):
 *   fixed: the k lowest non-empty slots (queue i only when 1..i-1 are
 *          empty or refused);
 *   rr:    one head a cycle, the slots in turn;
 *   grr:   the k consecutive non-empty slots from the group pointer, which
 *          then moves past them, whatever was served (the seed's GroupedRR).
 * Probes reach the L1D at once (sim_memsys_probe), so that a refused head
 * is known in its cycle; a head the L1D takes still holds its bank's
 * latency-queue stages, and one whose entry stage is taken is refused, as
 * on the FIFO path, so that without contention both take the same cycles.
 */
#include "sim/core/sm.h"

void sim_ldst_sched_step(sim_sm *sm, uint64_t t)
{
    const sim_core_config *c = sm->cfg;
    int nw = c->max_warps, k = c->ldst_sched == SIM_LDST_RR ? 1 : c->ldst_probes;
    int from = c->ldst_sched == SIM_LDST_FIXED ? 0 : sm->wq_next;
    int cand[32], nc = 0;
    for (int i = 0; i < nw && nc < k; i++) {
        int s = (from + i) % nw;
        if (sm->wq_n[s] && sm->lq_at[sim_lq_index(sm, s, 0)] <= t)
            cand[nc++] = s;
    }
    if (!nc)
        return;
    if (c->ldst_sched != SIM_LDST_FIXED)
        sm->wq_next = (cand[nc - 1] + 1) % nw;
    const sim_mem_port_ops *ops = sm->mem->ops;
    sim_fail_cause first = SIM_FAIL_NONE;
    for (int j = 0; j < nc; j++) {
        int s = cand[j], i = sim_lq_index(sm, s, 0);
        sim_mem_request *r = &sm->lq[i];
        if (r->issue_cycle == SIM_NEVER)
            r->issue_cycle = t;
        sim_fail_cause cause = SIM_FAIL_NONE;
        sim_mem_outcome o = ops->probe ? ops->probe(sm->mem->self, r, t, &cause)
                                       : ops->access(sm->mem->self, r, t, &cause);
        if (o == SIM_MEM_RESERVATION_FAIL) {
            if (j == 0)
                first = cause < SIM_FAIL_COUNT ? cause : SIM_FAIL_NONE;
            continue;
        }
        sm->st.mem_requests++;
        sm->wq_head[s] = (sm->wq_head[s] + 1) % c->ldst_depth;
        sm->wq_n[s]--;
        sm->lq_n--;
        if (sm->lq_last[i])
            sm->lq_insts--;
        return;
    }
    sm->st.ldst_refused++;   /* every head probed was refused */
    sm->st.ldst_ready += (uint64_t)sm->ldst_waiters;
    sm->st.refused[first]++;
}
