/*
 * order.c - PAVER's TB groupings from the locality graph (Tripathy 2021
 * §3.3): MST-TS, k-way-TS and RB-TS (Algorithm 1), as group lists the
 * simulator's group-queue dispatch runs. Partitions come from METIS
 * (minimum edge cut, balanced), with a fixed seed so that a grouping is
 * the same on every run. Owns the groupings, not their dispatch.
 *
 * Choices the seed leaves open (docs/locality.md):
 *  - RB-TS stops when a part holds at most per_sm TBs (the seed's `<`
 *    would split a part that exactly fills an SM once more);
 *  - leaves are listed depth first, left (METIS part 0) before right, the
 *    "left to right" order of the seed's tree (its FIFO queue would list
 *    them breadth first);
 *  - inside a k-way part or an RB-TS leaf the TBs are in MST order.
 */
#include <metis.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/locality/locality.h"

#define MAX_METIS_WEIGHT (1 << 24)   /* edge weights scaled below this (idx_t sums) */

/* METIS keeps its random generator in process-wide state and reseeds it on
 * every call: two threads partitioning at once (samples run in workers)
 * interleave their draws and get other partitions. One call at a time keeps
 * a grouping independent of what runs beside it (tests/test_group_opt.c). */
static pthread_mutex_t metis_lock = PTHREAD_MUTEX_INITIALIZER;

void sim_tb_groups_free(sim_tb_groups *g)
{
    if (!g)
        return;
    free(g->gstart);
    free(g->ids);
    memset(g, 0, sizeof *g);
}

static trapeze_status groups_alloc(sim_tb_groups *g, int n_groups, long n, trapeze_error *err)
{
    g->n_groups = n_groups;
    g->gstart = calloc((size_t)n_groups + 1, sizeof *g->gstart);
    g->ids = malloc((size_t)(n ? n : 1) * sizeof *g->ids);
    if (!g->gstart || !g->ids) {
        sim_tb_groups_free(g);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    }
    return TRAPEZE_OK;
}

trapeze_status sim_locality_mst_ts(const sim_locality_adj *a, int n_sm, int per_sm,
                                   sim_tb_groups *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    long n = a->n, big = (long)n_sm * per_sm;
    long full = n < big ? (n + per_sm - 1) / per_sm : n_sm;
    long singles = n > big ? n - big : 0;
    trapeze_status s = groups_alloc(out, (int)(full + singles), n, err);
    uint32_t *all = malloc((size_t)n * sizeof *all);
    if (!s && !all)
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    if (s) {
        free(all);
        sim_tb_groups_free(out);
        return s;
    }
    for (long t = 0; t < n; t++)
        all[t] = (uint32_t)t;
    s = sim_locality_mst_order(a, all, n, out->ids, err);
    free(all);
    if (s) {
        sim_tb_groups_free(out);
        return s;
    }
    for (long g = 0; g < full + singles; g++) {
        long end = g < full ? (g + 1) * per_sm : big + (g - full) + 1;
        out->gstart[g + 1] = end < n ? end : n;
    }
    return TRAPEZE_OK;
}

/* METIS on the graph induced by set[0..n): part[i] in 0..nparts-1 for set[i].
 * local: scratch of a->n entries, all -1 on entry and on return. */
static trapeze_status metis_parts(const sim_locality_adj *a, const uint32_t *set, long n,
                                  int nparts, long *local, idx_t *part, trapeze_error *err)
{
    if (nparts <= 1 || n <= nparts) {
        for (long i = 0; i < n; i++)
            part[i] = nparts <= 1 ? 0 : (idx_t)i;
        return TRAPEZE_OK;
    }
    for (long i = 0; i < n; i++)
        local[set[i]] = i;
    long m = 0;
    int64_t wmax = 1;
    for (long i = 0; i < n; i++)
        for (long p = a->start[set[i]]; p < a->start[set[i] + 1]; p++)
            if (local[a->nbr[p]] >= 0 && a->elements[p] > 0) {
                m++;
                if (a->elements[p] > wmax)
                    wmax = a->elements[p];
            }
    int64_t scale = wmax / MAX_METIS_WEIGHT + 1;
    idx_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
    idx_t *adjncy = malloc((size_t)(m ? m : 1) * sizeof *adjncy);
    idx_t *adjwgt = malloc((size_t)(m ? m : 1) * sizeof *adjwgt);
    trapeze_status s = TRAPEZE_OK;
    if (!xadj || !adjncy || !adjwgt) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
        goto out;
    }
    m = 0;
    for (long i = 0; i < n; i++) {
        xadj[i] = (idx_t)m;
        for (long p = a->start[set[i]]; p < a->start[set[i] + 1]; p++)
            if (local[a->nbr[p]] >= 0 && a->elements[p] > 0) {
                adjncy[m] = (idx_t)local[a->nbr[p]];
                int64_t w = a->elements[p] / scale;
                adjwgt[m++] = (idx_t)(w > 0 ? w : 1);
            }
    }
    xadj[n] = (idx_t)m;
    idx_t nv = (idx_t)n, ncon = 1, np = nparts, cut = 0;
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_NUMBERING] = 0;
    opt[METIS_OPTION_SEED] = 1;
    pthread_mutex_lock(&metis_lock);
    int r = nparts == 2 ? METIS_PartGraphRecursive(&nv, &ncon, xadj, adjncy, NULL, NULL, adjwgt,
                                                   &np, NULL, NULL, opt, &cut, part)
                        : METIS_PartGraphKway(&nv, &ncon, xadj, adjncy, NULL, NULL, adjwgt, &np,
                                              NULL, NULL, opt, &cut, part);
    pthread_mutex_unlock(&metis_lock);
    if (r != METIS_OK)
        s = trapeze_fail(err, TRAPEZE_EFAIL, "locality: METIS failed to partition %ld TBs into "
                         "%d parts (status %d)", n, nparts, r);
out:
    for (long i = 0; i < n; i++)
        local[set[i]] = -1;
    free(xadj);
    free(adjncy);
    free(adjwgt);
    return s;
}

trapeze_status sim_locality_kway_ts(const sim_locality_adj *a, int n_sm, sim_tb_groups *out,
                                    trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    long n = a->n;
    trapeze_status s = groups_alloc(out, n_sm, n, err);
    if (s)
        return s;
    uint32_t *all = malloc((size_t)n * sizeof *all), *tmp = malloc((size_t)n * sizeof *tmp);
    long *local = malloc((size_t)n * sizeof *local);
    idx_t *part = malloc((size_t)n * sizeof *part);
    if (!all || !tmp || !local || !part) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
        goto out;
    }
    for (long t = 0; t < n; t++) {
        all[t] = (uint32_t)t;
        local[t] = -1;
    }
    if ((s = metis_parts(a, all, n, n_sm, local, part, err)))
        goto out;
    for (long t = 0; t < n; t++)
        out->gstart[part[t] + 1]++;
    for (int g = 0; g < n_sm; g++)
        out->gstart[g + 1] += out->gstart[g];
    /* positions per part: n_sm of them, which may be more than the TBs */
    long *fill = malloc((size_t)n_sm * sizeof *fill);
    if (!fill) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
        goto out;
    }
    for (int g = 0; g < n_sm; g++)
        fill[g] = out->gstart[g];
    for (long t = 0; t < n; t++)
        tmp[fill[part[t]]++] = (uint32_t)t;
    free(fill);
    for (int g = 0; g < n_sm && !s; g++)
        s = sim_locality_mst_order(a, tmp + out->gstart[g], out->gstart[g + 1] - out->gstart[g],
                                   out->ids + out->gstart[g], err);
out:
    free(all);
    free(tmp);
    free(local);
    free(part);
    if (s)
        sim_tb_groups_free(out);
    return s;
}

/* ---- RB-TS ---- */

typedef struct rb_state {
    const sim_locality_adj *a;
    int per_sm;
    long *local;
    idx_t *part;
    sim_tb_groups *out;
    long n_ids;
} rb_state;

static trapeze_status rb_leaf(rb_state *r, const uint32_t *set, long n, trapeze_error *err)
{
    trapeze_status s = sim_locality_mst_order(r->a, set, n, r->out->ids + r->n_ids, err);
    r->n_ids += n;
    r->out->gstart[++r->out->n_groups] = r->n_ids;
    return s;
}

/* set is scratch the recursion may reorder. */
static trapeze_status rb(rb_state *r, uint32_t *set, long n, trapeze_error *err)
{
    if (n <= r->per_sm)
        return rb_leaf(r, set, n, err);
    trapeze_status s = metis_parts(r->a, set, n, 2, r->local, r->part, err);
    if (s)
        return s;
    /* stable split: part 0 first */
    uint32_t *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    long left = 0;
    for (long i = 0; i < n; i++)
        if (r->part[i] == 0)
            tmp[left++] = set[i];
    long k = left;
    for (long i = 0; i < n; i++)
        if (r->part[i] != 0)
            tmp[k++] = set[i];
    if (left == 0 || left == n)   /* METIS gave no split: halves in id order */
        left = n / 2;
    memcpy(set, tmp, (size_t)n * sizeof *set);
    free(tmp);
    if ((s = rb(r, set, left, err)))
        return s;
    return rb(r, set + left, n - left, err);
}

trapeze_status sim_locality_rb_ts(const sim_locality_adj *a, int per_sm, sim_tb_groups *out,
                                  trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    long n = a->n;
    /* at most n leaves; n_groups counts them as they come */
    trapeze_status s = groups_alloc(out, (int)n, n, err);
    if (s)
        return s;
    out->n_groups = 0;
    uint32_t *set = malloc((size_t)n * sizeof *set);
    long *local = malloc((size_t)n * sizeof *local);
    idx_t *part = malloc((size_t)n * sizeof *part);
    if (!set || !local || !part) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    } else {
        for (long t = 0; t < n; t++) {
            set[t] = (uint32_t)t;
            local[t] = -1;
        }
        rb_state r = {a, per_sm < 1 ? 1 : per_sm, local, part, out, 0};
        s = rb(&r, set, n, err);
    }
    free(set);
    free(local);
    free(part);
    if (s)
        sim_tb_groups_free(out);
    return s;
}
