/*
 * sched.c - warp schedulers behind one interface (sim_sched_ops): loose
 * round-robin (LRR) and greedy-then-oldest (GTO), as GPGPU-Sim's
 * -gpgpu_scheduler lrr|gto. Each SM has -gpgpu_num_sched_per_core of them;
 * warp slot w belongs to scheduler w % n. A scheduler only orders its
 * warps; whether a warp can issue is the SM's question (can_issue).
 */
#include <string.h>

#include "sim/core/sm.h"

void sim_sched_add(sim_sched *s, int slot)
{
    s->slot[s->n++] = (uint8_t)slot;
}

void sim_sched_remove(sim_sched *s, int slot)
{
    for (int i = 0; i < s->n; i++)
        if (s->slot[i] == slot) {
            memmove(&s->slot[i], &s->slot[i + 1], (size_t)(s->n - i - 1));
            s->n--;
            if (s->rr > i)
                s->rr--;
            if (s->rr >= s->n)
                s->rr = 0;
            break;
        }
    if (s->last == slot)
        s->last = -1;
}

static int lrr_pick(sim_sched *s, const uint64_t *wake, uint64_t t, sim_can_issue_fn can_issue,
                    void *ctx)
{
    return sim_sched_pick_lrr(s, wake, t, can_issue, ctx);
}

static int gto_pick(sim_sched *s, const uint64_t *wake, uint64_t t, sim_can_issue_fn can_issue,
                    void *ctx)
{
    return sim_sched_pick_gto(s, wake, t, can_issue, ctx);
}

static const sim_sched_ops lrr_ops = {"lrr", lrr_pick};
static const sim_sched_ops gto_ops = {"gto", gto_pick};

const sim_sched_ops *sim_sched_ops_for(sim_sched_kind kind)
{
    return kind == SIM_SCHED_GTO ? &gto_ops : &lrr_ops;
}
