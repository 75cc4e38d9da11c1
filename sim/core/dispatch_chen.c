/*
 * dispatch_chen.c - Chen 2016's locality-aware TB dispatch (§3.3, the
 * digest's §A.4.4): when SM x has room, place the waiting block whose
 * footprint overlaps most with the blocks running on x, the overlap being
 * the cache lines both read (Chen's rectangles in line coordinates are the
 * footprints of affine kernels; the locality graph's shared_lines is their
 * overlap area, exact for any kernel), summed over x's residents. When no
 * waiting block overlaps x's residents, place the one that overlaps least
 * with the residents of the other SMs (taking a block that shares with
 * another SM would rob that SM of its reuse). Ties go to the smaller block
 * id, so a kernel without sharing is dispatched in id order. The candidate
 * window is the whole queue, as in the seed.
 * A sample's sub-grid (-trapeze_window_groups m): SMs 0..m-1 alone take
 * blocks, Chen's choice on them, until they have placed m / n_sm of the
 * grid's blocks (at least one): the TBs a round-robin sub-grid of m queues
 * runs, in the order Chen would run them.
 * Invariants: score[] and other[] are zero between calls; lowest is the
 * smallest unplaced id.
 */
#include <stdlib.h>

#include "common/error.h"
#include "sim/core/sm.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"

typedef struct chen_state {
    sim_locality_adj adj;
    const sim_sm *sms;
    int n_sm, first, max_blocks;
    int window_sms;      /* a sub-grid: only SMs 0..window_sms-1 (0: all) */
    long total, lowest;
    long quota, n_placed; /* a sub-grid: blocks it places in all (else total) */
    uint8_t *placed;
    int64_t *score;
    uint32_t *touched;
    long n_touched;
} chen_state;

static void chen_destroy(void *self)
{
    chen_state *s = self;
    if (!s)
        return;
    sim_locality_adj_free(&s->adj);
    free(s->placed);
    free(s->score);
    free(s->touched);
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
    s->total = sim_kernel_blocks(c->k);
    s->sms = c->sms;
    s->n_sm = c->n_sm;
    s->max_blocks = c->cfg->gpu.max_blocks_per_sm;
    s->quota = s->total;
    if (c->cfg->window_groups > 0 && c->cfg->window_groups < c->n_sm) {
        s->window_sms = (int)c->cfg->window_groups;
        s->quota = s->total * s->window_sms / c->n_sm;
        s->quota = s->quota < 1 ? 1 : s->quota;
    }
    s->placed = calloc((size_t)s->total, 1);
    s->score = calloc((size_t)s->total, sizeof *s->score);
    s->touched = malloc((size_t)s->total * sizeof *s->touched);
    if (!st && (!s->placed || !s->score || !s->touched))
        st = trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
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

/* Adds the lines each waiting block shares with SM x's residents. */
static void add_residents(chen_state *s, int x)
{
    const sim_sm *sm = &s->sms[x];
    for (int b = 0; b < s->max_blocks; b++) {
        if (!sm->blocks[b].live)
            continue;
        long r = sm->blocks[b].id;
        for (long p = s->adj.start[r]; p < s->adj.start[r + 1]; p++) {
            uint32_t c = s->adj.nbr[p];
            if (s->placed[c])
                continue;
            if (!s->score[c])
                s->touched[s->n_touched++] = c;
            s->score[c] += s->adj.lines[p];
        }
    }
}

/* The touched block with the highest (want_max) or lowest score, ties to
 * the smaller id; clears the scores. */
static long pick_clear(chen_state *s, int want_max)
{
    long best = -1;
    for (long i = 0; i < s->n_touched; i++) {
        long c = s->touched[i];
        if (best < 0 || (want_max ? s->score[c] > s->score[best] : s->score[c] < s->score[best]) ||
            (s->score[c] == s->score[best] && c < best))
            best = c;
    }
    return best;
}

static void clear(chen_state *s)
{
    for (long i = 0; i < s->n_touched; i++)
        s->score[s->touched[i]] = 0;
    s->n_touched = 0;
}

static long chen_next(void *self, int x, int room)
{
    (void)room;
    chen_state *s = self;
    if (s->lowest >= s->total || s->n_placed >= s->quota || (s->window_sms && x >= s->window_sms))
        return -1;
    add_residents(s, x);
    long best = pick_clear(s, 1);
    clear(s);
    if (best >= 0)
        return best;
    for (int y = 0; y < s->n_sm; y++)
        if (y != x)
            add_residents(s, y);
    /* the smallest waiting id that shares nothing with the others, else the
     * one sharing least */
    long c = s->lowest;
    while (c < s->total && (s->placed[c] || s->score[c]))
        c++;
    best = c < s->total ? c : pick_clear(s, 0);
    clear(s);
    return best;
}

static void chen_placed(void *self, int sm, long block)
{
    chen_state *s = self;
    s->placed[block] = 1;
    s->n_placed++;
    while (s->lowest < s->total && s->placed[s->lowest])
        s->lowest++;
    s->first = (sm + 1) % s->n_sm;
}

static long chen_blocks(const void *self)
{
    return ((const chen_state *)self)->quota;
}

const sim_dispatch_ops sim_dispatch_chen = {"chen", chen_create, chen_destroy, chen_first,
                                            chen_next, chen_placed, NULL, chen_blocks};
