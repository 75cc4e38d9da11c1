/*
 * dispatch.c - the round-robin thread-block dispatch policy
 * (sim_dispatch_ops; the policies by name: dispatch_table.c). The top
 * level asks a policy, once per cycle, which block goes to which SM; the
 * SM decides whether one more block fits (occupancy). Round-robin is
 * GPGPU-Sim's: blocks in launch order, SMs visited in turn starting after
 * the one that got the last block, at most one block per SM per cycle.
 * The locality-aware policies are dispatch_bcs.c (BCS), dispatch_chen.c
 * (Chen's) and dispatch_groups.c (PAVER's group queues: MST-TS, k-way-TS,
 * RB-TS, and explicit groupings).
 */
#include <stdlib.h>

#include "common/error.h"
#include "sim/core/sm.h"

typedef struct rr_state {
    long next, total;
    int n_sm, first;
} rr_state;

static trapeze_status rr_create(const sim_dispatch_ctx *c, void **self, trapeze_error *err)
{
    rr_state *s = calloc(1, sizeof *s);
    if (!s)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    s->total = sim_kernel_blocks(c->k);
    /* a sample's later window: blocks from -trapeze_window_first_block on */
    s->next = c->cfg->window_first_block < s->total ? c->cfg->window_first_block : s->total;
    s->n_sm = c->n_sm;
    *self = s;
    return TRAPEZE_OK;
}

static void rr_destroy(void *self)
{
    free(self);
}

static int rr_first(void *self)
{
    return ((rr_state *)self)->first;
}

static long rr_next(void *self, int sm, int room)
{
    (void)sm;
    (void)room;
    rr_state *s = self;
    return s->next < s->total ? s->next : -1;
}

static void rr_placed(void *self, int sm, long block)
{
    rr_state *s = self;
    (void)block;
    s->next++;
    s->first = (sm + 1) % s->n_sm;
}

const sim_dispatch_ops sim_dispatch_round_robin = {"rr", rr_create, rr_destroy, rr_first,
                                                   rr_next, rr_placed, NULL, NULL};
