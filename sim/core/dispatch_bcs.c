/*
 * dispatch_bcs.c - Block CTA Scheduling (Lee et al., HPCA'14, as Chen 2016
 * §3 and Tripathy 2021 §3.1 describe it): two consecutive blocks (2i,
 * 2i+1) go to the same SM, and a pair is dispatched only once the SM has
 * room for both ("delay scheduling": the throttling the seeds observe). The
 * second block of a pair follows its first on the next dispatch pass (the
 * top level places one block per SM per pass). A lone last block, or an SM
 * that can never hold two, takes blocks one at a time.
 * Invariant: partner[sm] is -1 or the block after the one last placed there.
 */
#include <stdlib.h>

#include "common/error.h"
#include "sim/core/sm.h"

typedef struct bcs_state {
    long next, total;   /* the next pair's first block */
    int n_sm, first, per_sm;
    long *partner;      /* per SM: the reserved second block, -1 none */
} bcs_state;

static void bcs_destroy(void *self)
{
    bcs_state *s = self;
    if (s)
        free(s->partner);
    free(s);
}

static trapeze_status bcs_create(const sim_dispatch_ctx *c, void **self, trapeze_error *err)
{
    bcs_state *s = calloc(1, sizeof *s);
    if (s)
        s->partner = malloc((size_t)c->n_sm * sizeof *s->partner);
    if (!s || !s->partner) {
        bcs_destroy(s);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    s->total = sim_kernel_blocks(c->k);
    s->n_sm = c->n_sm;
    s->per_sm = c->per_sm;
    for (int i = 0; i < c->n_sm; i++)
        s->partner[i] = -1;
    *self = s;
    return TRAPEZE_OK;
}

static int bcs_first(void *self)
{
    return ((bcs_state *)self)->first;
}

static long bcs_next(void *self, int sm, int room)
{
    bcs_state *s = self;
    if (s->partner[sm] >= 0)
        return s->partner[sm];
    if (s->next >= s->total)
        return -1;
    int pair = s->next + 1 < s->total && s->per_sm >= 2;
    return !pair || room >= 2 ? s->next : -1;
}

static void bcs_placed(void *self, int sm, long block)
{
    bcs_state *s = self;
    if (block == s->partner[sm]) {
        s->partner[sm] = -1;
    } else {
        int pair = s->next + 1 < s->total && s->per_sm >= 2;
        s->partner[sm] = pair ? block + 1 : -1;
        s->next += pair ? 2 : 1;
    }
    s->first = (sm + 1) % s->n_sm;
}

const sim_dispatch_ops sim_dispatch_bcs = {"bcs", bcs_create, bcs_destroy, bcs_first, bcs_next,
                                           bcs_placed, NULL, NULL, NULL};
