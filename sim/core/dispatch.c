/*
 * dispatch.c - thread-block dispatch policies (sim_dispatch_ops). The top
 * level asks a policy, once per cycle, which block goes to which SM; the SM
 * decides whether one more block fits (occupancy). Round-robin is
 * GPGPU-Sim's: blocks in launch order, SMs visited in turn starting after
 * the one that got the last block, at most one block per SM per cycle.
 * Locality-aware policies plug in here with their own next_block.
 */
#include <stdlib.h>

#include "sim/core/sm.h"

typedef struct rr_state {
    long next, total;
    int n_sm, first;
} rr_state;

static void *rr_create(const sim_kernel *k, int n_sm)
{
    rr_state *s = calloc(1, sizeof *s);
    if (s) {
        s->total = sim_kernel_blocks(k);
        s->n_sm = n_sm;
    }
    return s;
}

static void rr_destroy(void *self)
{
    free(self);
}

static int rr_first(void *self)
{
    return ((rr_state *)self)->first;
}

static long rr_next(void *self, int sm)
{
    (void)sm;
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

const sim_dispatch_ops sim_dispatch_round_robin = {"round-robin", rr_create, rr_destroy,
                                                   rr_first, rr_next, rr_placed};
