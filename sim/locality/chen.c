/*
 * chen.c - Chen 2016's locality-aware choice of the next TB for an SM
 * (§3.3, the digest's §A.4.4), shared by the simulator's dynamic dispatch
 * (sim/core/dispatch_chen.c, which asks it whenever an SM has room) and by
 * the same dispatch decided before launch (chen-static, below). Owns the
 * rule and the static plan; not the dispatcher's quota or sub-grid window.
 *
 * The rule: the waiting TB whose footprint overlaps most with the TBs
 * running on the SM, the overlap being the cache lines both read (Chen's
 * rectangles in line coordinates are the footprints of affine kernels; the
 * locality graph's shared_lines is their overlap area, exact for any
 * kernel), summed over the SM's residents. When no waiting TB overlaps
 * them, the smallest waiting id that shares nothing with the other SMs'
 * residents (taking one that does would rob that SM of its reuse), else
 * the one sharing least. Ties go to the smaller id, so a kernel without
 * sharing is dispatched in id order. The candidate window is the whole
 * queue, as in the seed.
 *
 * The static plan (trapeze_locality_chen_grouping): the choices the rule
 * makes if every TB takes the same time. Launch: x passes over SMs
 * 0..n_sm-1, each placing one TB per pass; then TBs end in the order they
 * were placed and the SM of each ending TB places the next. Written as a
 * grouping (queue g = SM g, in placement order) for the explicit policy.
 * Where TBs do take equal times it is the dynamic dispatch exactly (the
 * same cycles); where they do not, it keeps the launch order's wavefront
 * that the dynamic one lets drift (GTX 480 Jacobi 512 x 512: 14,025 cycles
 * against 14,766, docs/grouping.md).
 *
 * Invariants: score[] is zero between choices; lowest is the smallest
 * unplaced id; in the plan every TB is placed once and an SM never holds
 * more than x residents (checked in the sanitizer build).
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/error.h"
#include "sim/locality/locality.h"

trapeze_status sim_chen_chooser_init(sim_chen_chooser *c, const sim_locality_adj *adj,
                                     int max_residents, trapeze_error *err)
{
    memset(c, 0, sizeof *c);
    c->adj = adj;
    c->total = adj->n;
    c->max_residents = max_residents;
    c->placed = calloc((size_t)adj->n + 1, 1);
    c->score = calloc((size_t)adj->n + 1, sizeof *c->score);
    c->touched = malloc(((size_t)adj->n + 1) * sizeof *c->touched);
    c->ids = malloc(((size_t)max_residents + 1) * sizeof *c->ids);
    if (!c->placed || !c->score || !c->touched || !c->ids) {
        sim_chen_chooser_free(c);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    }
    return TRAPEZE_OK;
}

void sim_chen_chooser_free(sim_chen_chooser *c)
{
    if (!c)
        return;
    free(c->placed);
    free(c->score);
    free(c->touched);
    free(c->ids);
    memset(c, 0, sizeof *c);
}

/* Adds the lines each waiting TB shares with SM sm's residents. */
static void add_residents(sim_chen_chooser *c, int sm, sim_chen_residents_fn residents,
                          void *ctx)
{
    int n = residents(ctx, sm, c->ids);
    TRAPEZE_ASSERT(n >= 0 && n <= c->max_residents);
    const sim_locality_adj *a = c->adj;
    for (int i = 0; i < n; i++)
        for (long p = a->start[c->ids[i]]; p < a->start[c->ids[i] + 1]; p++) {
            uint32_t t = a->nbr[p];
            if (c->placed[t])
                continue;
            if (!c->score[t])
                c->touched[c->n_touched++] = t;
            c->score[t] += a->lines[p];
        }
}

/* The touched TB with the highest (want_max) or lowest score, ties to the
 * smaller id (-1: none); clears the scores. */
static long pick_clear(sim_chen_chooser *c, int want_max)
{
    long best = -1;
    for (long i = 0; i < c->n_touched; i++) {
        long t = c->touched[i];
        if (best < 0 || (want_max ? c->score[t] > c->score[best] : c->score[t] < c->score[best]) ||
            (c->score[t] == c->score[best] && t < best))
            best = t;
    }
    for (long i = 0; i < c->n_touched; i++)
        c->score[c->touched[i]] = 0;
    c->n_touched = 0;
    return best;
}

long sim_chen_choose(sim_chen_chooser *c, int sm, int n_sm, sim_chen_residents_fn residents,
                     void *ctx)
{
    if (c->lowest >= c->total)
        return -1;
    add_residents(c, sm, residents, ctx);
    long best = pick_clear(c, 1);
    if (best >= 0)
        return best;
    for (int y = 0; y < n_sm; y++)
        if (y != sm)
            add_residents(c, y, residents, ctx);
    long t = c->lowest;
    while (t < c->total && (c->placed[t] || c->score[t]))
        t++;
    best = pick_clear(c, 0);
    return t < c->total ? t : best;
}

void sim_chen_mark_placed(sim_chen_chooser *c, long tb)
{
    TRAPEZE_ASSERT(tb >= 0 && tb < c->total && !c->placed[tb]);
    c->placed[tb] = 1;
    while (c->lowest < c->total && c->placed[c->lowest])
        c->lowest++;
}

/* ------------------------------------------------------- the static plan */

typedef struct plan {
    sim_chen_chooser c;
    int n_sm, x;
    long *res;              /* n_sm * x residents */
    int *n_res;
    long *seq, n_placed;    /* the TBs in placement order: the order they end */
    long *count;            /* per SM: TBs placed (the next one's order) */
    trapeze_grouping *g;    /* group[t]: t's SM */
} plan;

static int plan_residents(void *ctx, int sm, long *ids)
{
    const plan *p = ctx;
    memcpy(ids, &p->res[(long)sm * p->x], (size_t)p->n_res[sm] * sizeof *ids);
    return p->n_res[sm];
}

/* The TB placed earliest of those running ends; its SM places the next. */
static int plan_end(plan *p, long head)
{
    long tb = p->seq[head];
    int sm = p->g->group[tb];
    long *r = &p->res[(long)sm * p->x];
    for (int i = 0; i < p->n_res[sm]; i++)
        if (r[i] == tb) {
            r[i] = r[--p->n_res[sm]];
            return sm;
        }
    TRAPEZE_ASSERT(!"an ending TB is a resident of its SM");
    return sm;
}

/* SM sm places the next TB: the rule's choice. */
static void plan_place(plan *p, int sm)
{
    TRAPEZE_ASSERT(p->n_res[sm] < p->x);
    long tb = sim_chen_choose(&p->c, sm, p->n_sm, plan_residents, p);
    sim_chen_mark_placed(&p->c, tb);
    p->g->group[tb] = sm;
    p->g->order[tb] = p->count[sm]++;
    p->res[(long)sm * p->x + p->n_res[sm]++] = tb;
    p->seq[p->n_placed++] = tb;
}

trapeze_status trapeze_locality_chen_grouping(const trapeze_locality_graph *graph, int n_sm,
                                              int tbs_per_sm, trapeze_grouping *out,
                                              trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (graph->n_tbs <= 0 || n_sm <= 0 || tbs_per_sm <= 0)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "locality: chen-static needs TBs, SMs and co-resident TBs (got %ld, "
                            "%d, %d)", graph->n_tbs, n_sm, tbs_per_sm);
    long n = graph->n_tbs;
    sim_locality_adj adj;
    plan p = {.n_sm = n_sm, .x = tbs_per_sm, .g = out};
    p.res = malloc((size_t)n_sm * (size_t)tbs_per_sm * sizeof *p.res);
    p.n_res = calloc((size_t)n_sm, sizeof *p.n_res);
    p.seq = malloc((size_t)n * sizeof *p.seq);
    p.count = calloc((size_t)n_sm, sizeof *p.count);
    trapeze_status s = sim_locality_adj_build(graph, &adj, err);
    if (!s)
        s = sim_chen_chooser_init(&p.c, &adj, tbs_per_sm, err);
    if (!s && (!p.res || !p.n_res || !p.seq || !p.count))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    if (!s)
        s = trapeze_grouping_alloc(out, n, n_sm, err);
    for (int pass = 0; !s && pass < tbs_per_sm; pass++)   /* launch */
        for (int sm = 0; sm < n_sm && p.n_placed < n; sm++)
            plan_place(&p, sm);
    for (long head = 0; !s && p.n_placed < n; head++)
        plan_place(&p, plan_end(&p, head));
    TRAPEZE_ASSERT(s || trapeze_grouping_check(out, NULL) == TRAPEZE_OK);
    sim_locality_adj_free(&adj);   /* built or zeroed by sim_locality_adj_build */
    sim_chen_chooser_free(&p.c);
    free(p.res);
    free(p.n_res);
    free(p.seq);
    free(p.count);
    if (s)
        trapeze_grouping_free(out);
    return s;
}
