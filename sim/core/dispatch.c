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
    long skip_from, skip_to;       /* a pending skip (rr_skip); from == to: none */
    int n_sm, first;
} rr_state;

/* The dispatcher at a pending skip's first block goes on past it. */
static void rr_jump(rr_state *s)
{
    if (s->skip_from < s->skip_to && s->next == s->skip_from) {
        s->next = s->skip_to;
        s->skip_from = s->skip_to = 0;
    }
}

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
    rr_jump(s);
}

/* A warm later window of a sample: the blocks between two windows are
 * never placed, while those resident run on (sim_gpu_launch_skip). */
static long rr_skip(void *self, long from, long to)
{
    rr_state *s = self;
    if (s->skip_from < s->skip_to)
        return -1;
    if (from < s->next)
        from = s->next;
    if (to > s->total)
        to = s->total;
    if (to <= from)
        return 0;
    s->skip_from = from;
    s->skip_to = to;
    rr_jump(s);
    return to - from;
}

const sim_dispatch_ops sim_dispatch_round_robin = {"rr", rr_create, rr_destroy, rr_first,
                                                   rr_next, rr_placed, NULL, NULL, rr_skip};
