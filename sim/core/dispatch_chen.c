/*
 * dispatch_chen.c - Chen 2016's locality-aware TB dispatch (§3.3, the
 * digest's §A.4.4) as a dispatch policy: when SM x has room, it places the
 * TB that Chen's rule (sim/locality/chen.c, shared with the static plan)
 * chooses from x's running blocks and the other SMs'.
 * A sample's sub-grid (-trapeze_window_groups m): SMs 0..m-1 alone take
 * blocks, Chen's choice on them, until they have placed m / n_sm of the
 * grid's blocks (at least one): the TBs a round-robin sub-grid of m queues
 * runs, in the order Chen would run them.
 * Invariants: the chooser's; n_placed <= quota.
 */
#include <stdlib.h>

#include "common/error.h"
#include "sim/core/sm.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"

typedef struct chen_state {
    sim_locality_adj adj;
    sim_chen_chooser ch;
    const sim_sm *sms;
    int n_sm, first, max_blocks;
    int window_sms;      /* a sub-grid: only SMs 0..window_sms-1 (0: all) */
    long quota, n_placed; /* a sub-grid: blocks it places in all (else total) */
} chen_state;

static void chen_destroy(void *self)
{
    chen_state *s = self;
    if (!s)
        return;
    sim_chen_chooser_free(&s->ch);
    sim_locality_adj_free(&s->adj);
    free(s);
}

static trapeze_status chen_create(const sim_dispatch_ctx *c, void **self, trapeze_error *err)
{
    chen_state *s = calloc(1, sizeof *s);
    if (!s)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    trapeze_locality_graph g;
    trapeze_status st = sim_locality_build(c->k, SIM_LINE_BYTES, &g, err);
    if (st) {
        free(s);
        return st;
    }
    st = sim_locality_adj_build(&g, &s->adj, err);
    trapeze_locality_graph_free(&g);
    s->sms = c->sms;
    s->n_sm = c->n_sm;
    s->max_blocks = c->cfg->gpu.max_blocks_per_sm;
    s->quota = sim_kernel_blocks(c->k);
    if (c->cfg->window_groups > 0 && c->cfg->window_groups < c->n_sm) {
        s->window_sms = (int)c->cfg->window_groups;
        s->quota = s->quota * s->window_sms / c->n_sm;
        s->quota = s->quota < 1 ? 1 : s->quota;
    }
    if (!st)
        st = sim_chen_chooser_init(&s->ch, &s->adj, s->max_blocks, err);
    if (st) {
        chen_destroy(s);
        return st;
    }
    *self = s;
    return TRAPEZE_OK;
}

static int chen_first(void *self)
{
    return ((chen_state *)self)->first;
}

/* SM x's running blocks. */
static int live_residents(void *ctx, int x, long *ids)
{
    const chen_state *s = ctx;
    const sim_sm *sm = &s->sms[x];
    int n = 0;
    for (int b = 0; b < s->max_blocks; b++)
        if (sm->blocks[b].live)
            ids[n++] = sm->blocks[b].id;
    return n;
}

static long chen_next(void *self, int x, int room)
{
    (void)room;
    chen_state *s = self;
    if (s->n_placed >= s->quota || (s->window_sms && x >= s->window_sms))
        return -1;
    return sim_chen_choose(&s->ch, x, s->n_sm, live_residents, s);
}

static void chen_placed(void *self, int sm, long block)
{
    chen_state *s = self;
    sim_chen_mark_placed(&s->ch, block);
    s->n_placed++;
    s->first = (sm + 1) % s->n_sm;
}

static long chen_blocks(const void *self)
{
    return ((const chen_state *)self)->quota;
}

const sim_dispatch_ops sim_dispatch_chen = {"chen", chen_create, chen_destroy, chen_first,
                                            chen_next, chen_placed, NULL, chen_blocks, NULL};
