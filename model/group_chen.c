/*
 * group_chen.c - Chen 2016's locality-aware dispatch decided before launch:
 * the choices the simulator's dynamic dispatcher (sim/core/dispatch_chen.c,
 * the same rule) would make if every TB took the same time, written as a
 * grouping (queue g = SM g, in placement order) that the explicit policy
 * runs. Owns this emulation only; the model judges its result like any
 * candidate's, and it reads the locality graph, never the simulator.
 *
 * Why a static copy of a dynamic policy: the explicit policy runs it without
 * Chen's per-dispatch search, and it is a fixed grouping the sub-grids and
 * the model can sample and predict. Where the TBs do take equal times the
 * two coincide (the GTX 480's syrk and syr2k: the same cycles to the
 * cycle); where they do not, the static plan keeps the launch order's
 * wavefront where the dynamic one lets it drift (GTX 480 Jacobi 512 x 512:
 * 14,025 cycles against dynamic Chen's 14,766, docs/grouping.md).
 *
 * The emulation. Launch: x passes over SMs 0..n_sm-1, each SM placing one
 * TB per pass (x: the TBs an SM runs at once). Then the TBs end in the
 * order they were placed (equal durations) and the SM of each ending TB
 * places the next. An SM's choice: the waiting TB sharing the most cache
 * lines with its residents (ties to the smaller id); when none shares, the
 * smallest waiting id that shares nothing with the other SMs' residents
 * (taking one that does would rob that SM of its reuse), else the one
 * sharing least.
 *
 * Invariants (checked in the sanitizer build): every TB placed exactly
 * once; an SM never holds more than x residents; the scores are zero
 * between choices; lowest is the smallest unplaced id.
 */
#include <stdint.h>
#include <stdlib.h>

#include "common/assert.h"
#include "common/error.h"
#include "trapeze.h"

typedef struct chen_emu {
    long n;
    int n_sm, x;
    long *start, *nbr;        /* CSR over the edges, both directions */
    long long *lines;         /* shared lines per CSR entry */
    long *res;                /* n_sm * x residents */
    int *n_res;
    uint8_t *placed;
    long long *score;
    long *touched, n_touched;
    long lowest;
} chen_emu;

static void emu_free(chen_emu *e)
{
    free(e->start);
    free(e->nbr);
    free(e->lines);
    free(e->res);
    free(e->n_res);
    free(e->placed);
    free(e->score);
    free(e->touched);
}

static trapeze_status emu_init(chen_emu *e, const trapeze_locality_graph *g, int n_sm, int x,
                               trapeze_error *err)
{
    e->n = g->n_tbs;
    e->n_sm = n_sm;
    e->x = x;
    long n = e->n, m = 2 * g->n_edges;
    e->start = calloc((size_t)n + 1, sizeof *e->start);
    e->nbr = malloc((size_t)(m ? m : 1) * sizeof *e->nbr);
    e->lines = malloc((size_t)(m ? m : 1) * sizeof *e->lines);
    e->res = malloc((size_t)n_sm * (size_t)x * sizeof *e->res);
    e->n_res = calloc((size_t)n_sm, sizeof *e->n_res);
    e->placed = calloc((size_t)n, 1);
    e->score = calloc((size_t)n, sizeof *e->score);
    e->touched = malloc((size_t)n * sizeof *e->touched);
    if (!e->start || !e->nbr || !e->lines || !e->res || !e->n_res || !e->placed || !e->score ||
        !e->touched)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "group: out of memory");
    for (long k = 0; k < g->n_edges; k++) {
        e->start[g->edges[k].tb_i + 1]++;
        e->start[g->edges[k].tb_j + 1]++;
    }
    for (long p = 0; p < n; p++)
        e->start[p + 1] += e->start[p];
    long *fill = calloc((size_t)n, sizeof *fill);
    if (!fill)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "group: out of memory");
    for (long k = 0; k < g->n_edges; k++) {
        const trapeze_locality_edge *ed = &g->edges[k];
        long a = e->start[ed->tb_i] + fill[ed->tb_i]++;
        long b = e->start[ed->tb_j] + fill[ed->tb_j]++;
        e->nbr[a] = ed->tb_j;
        e->nbr[b] = ed->tb_i;
        e->lines[a] = e->lines[b] = ed->shared_lines;
    }
    free(fill);
    return TRAPEZE_OK;
}

/* Adds the lines each waiting TB shares with SM s's residents. */
static void add_residents(chen_emu *e, int s)
{
    for (int r = 0; r < e->n_res[s]; r++) {
        long t = e->res[(long)s * e->x + r];
        for (long k = e->start[t]; k < e->start[t + 1]; k++) {
            long c = e->nbr[k];
            if (e->placed[c] || e->lines[k] <= 0)
                continue;
            if (!e->score[c])
                e->touched[e->n_touched++] = c;
            e->score[c] += e->lines[k];
        }
    }
}

/* The touched TB with the highest (want_max) or lowest score, ties to the
 * smaller id (-1: none); clears the scores. */
static long pick_clear(chen_emu *e, int want_max)
{
    long best = -1;
    for (long i = 0; i < e->n_touched; i++) {
        long c = e->touched[i];
        if (best < 0 || (want_max ? e->score[c] > e->score[best] : e->score[c] < e->score[best]) ||
            (e->score[c] == e->score[best] && c < best))
            best = c;
    }
    for (long i = 0; i < e->n_touched; i++)
        e->score[e->touched[i]] = 0;
    e->n_touched = 0;
    return best;
}

static long choose(chen_emu *e, int s)
{
    add_residents(e, s);
    long best = pick_clear(e, 1);
    if (best >= 0)
        return best;
    for (int y = 0; y < e->n_sm; y++)
        if (y != s)
            add_residents(e, y);
    long c = e->lowest;
    while (c < e->n && (e->placed[c] || e->score[c]))
        c++;
    best = pick_clear(e, 0);
    return c < e->n ? c : best;
}

static void place(chen_emu *e, int s, long t, trapeze_grouping *g, long *count)
{
    TRAPEZE_ASSERT(t >= 0 && t < e->n && !e->placed[t] && e->n_res[s] < e->x);
    e->placed[t] = 1;
    g->group[t] = s;
    g->order[t] = count[s]++;
    e->res[(long)s * e->x + e->n_res[s]++] = t;
    while (e->lowest < e->n && e->placed[e->lowest])
        e->lowest++;
}

static void unplace_resident(chen_emu *e, int s, long t)
{
    long *r = &e->res[(long)s * e->x];
    for (int i = 0; i < e->n_res[s]; i++)
        if (r[i] == t) {
            r[i] = r[--e->n_res[s]];
            return;
        }
    TRAPEZE_ASSERT(!"an ending TB is a resident of its SM");
}

trapeze_status trapeze_grp_grouping_chen(const trapeze_locality_graph *graph,
                                         const trapeze_grp_machine *mach, trapeze_grouping *out,
                                         trapeze_error *err)
{
    if (graph->n_tbs <= 0 || mach->n_sm <= 0 || mach->tbs_per_sm <= 0)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "group: static Chen needs TBs, SMs and co-resident TBs (got %ld, %d, %d)",
                            graph->n_tbs, mach->n_sm, mach->tbs_per_sm);
    chen_emu e = {0};
    long n = graph->n_tbs;
    long *seq = malloc((size_t)n * sizeof *seq);        /* placement order: the end order */
    int *seq_sm = malloc((size_t)n * sizeof *seq_sm);
    long *count = calloc((size_t)mach->n_sm, sizeof *count);
    trapeze_status s = (!seq || !seq_sm || !count)
                           ? trapeze_fail(err, TRAPEZE_ENOMEM, "group: out of memory")
                           : emu_init(&e, graph, mach->n_sm, mach->tbs_per_sm, err);
    if (!s)
        s = trapeze_grouping_alloc(out, n, mach->n_sm, err);
    long k = 0;
    for (int pass = 0; !s && pass < e.x; pass++)
        for (int sm = 0; sm < e.n_sm && k < n; sm++, k++) {
            seq[k] = choose(&e, sm);
            seq_sm[k] = sm;
            place(&e, sm, seq[k], out, count);
        }
    for (long head = 0; !s && k < n; head++, k++) {
        int sm = seq_sm[head];
        unplace_resident(&e, sm, seq[head]);
        seq[k] = choose(&e, sm);
        seq_sm[k] = sm;
        place(&e, sm, seq[k], out, count);
    }
    TRAPEZE_ASSERT(s || trapeze_grouping_check(out, NULL) == TRAPEZE_OK);
    emu_free(&e);
    free(seq);
    free(seq_sm);
    free(count);
    if (s)
        trapeze_grouping_free(out);
    return s;
}
