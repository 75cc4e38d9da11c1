/*
 * adj.c - the locality graph as adjacency lists (CSR) for the dispatch
 * policies, and Prim's maximum-spanning-tree order (PAVER's MST-TS and
 * the order inside k-way and RB-TS groups). Owns no policy.
 * Invariant: each TB's neighbours are in increasing id, each edge appears
 * in both TBs' lists with the same weights.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/locality/locality.h"

void sim_locality_adj_free(sim_locality_adj *a)
{
    if (!a)
        return;
    free(a->start);
    free(a->nbr);
    free(a->elements);
    free(a->lines);
    memset(a, 0, sizeof *a);
}

trapeze_status sim_locality_adj_build(const trapeze_locality_graph *g, sim_locality_adj *a,
                                      trapeze_error *err)
{
    memset(a, 0, sizeof *a);
    long n = g->n_tbs, m = 2 * g->n_edges;
    a->n = n;
    a->start = calloc((size_t)n + 1, sizeof *a->start);
    a->nbr = malloc((size_t)(m ? m : 1) * sizeof *a->nbr);
    a->elements = malloc((size_t)(m ? m : 1) * sizeof *a->elements);
    a->lines = malloc((size_t)(m ? m : 1) * sizeof *a->lines);
    long *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!a->start || !a->nbr || !a->elements || !a->lines || !fill) {
        free(fill);
        sim_locality_adj_free(a);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    }
    for (long e = 0; e < g->n_edges; e++) {
        a->start[g->edges[e].tb_i + 1]++;
        a->start[g->edges[e].tb_j + 1]++;
    }
    for (long t = 0; t < n; t++)
        a->start[t + 1] += a->start[t];
    memcpy(fill, a->start, (size_t)n * sizeof *fill);
    /* edges sorted by (i, j): j's list gets i in increasing i; i's list gets
     * j in increasing j, but after the smaller ids pushed to it as a j; both
     * come out sorted because every (k, i) with k < i precedes (i, j) */
    for (long e = 0; e < g->n_edges; e++) {
        const trapeze_locality_edge *x = &g->edges[e];
        long p = fill[x->tb_j]++;
        a->nbr[p] = (uint32_t)x->tb_i;
        a->elements[p] = x->shared_elements;
        a->lines[p] = x->shared_lines;
        p = fill[x->tb_i]++;
        a->nbr[p] = (uint32_t)x->tb_j;
        a->elements[p] = x->shared_elements;
        a->lines[p] = x->shared_lines;
    }
    free(fill);
    return TRAPEZE_OK;
}

/* ---- Prim's order ---- */

typedef struct { int64_t w; uint32_t tb; } heap_item;

/* max-heap on w, then the smaller tb */
static int above(heap_item a, heap_item b)
{
    return a.w > b.w || (a.w == b.w && a.tb < b.tb);
}

static void heap_push(heap_item *h, long *n, heap_item x)
{
    long i = (*n)++;
    while (i > 0 && above(x, h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static heap_item heap_pop(heap_item *h, long *n)
{
    heap_item top = h[0], x = h[--*n];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && above(h[c + 1], h[c]))
            c++;
        if (!above(h[c], x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
    return top;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

trapeze_status sim_locality_mst_order(const sim_locality_adj *a, const uint32_t *set, long n,
                                      uint32_t *order, trapeze_error *err)
{
    if (n == 0)
        return TRAPEZE_OK;
    /* state per TB of the set: 1 waiting, 2 in the tree; 0 outside the set */
    uint8_t *state = calloc((size_t)a->n, 1);
    uint32_t *sorted = malloc((size_t)n * sizeof *sorted);
    long cap = n + 16, hn = 0;
    heap_item *h = malloc((size_t)cap * sizeof *h);
    if (!state || !sorted || !h) {
        free(state);
        free(sorted);
        free(h);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    }
    memcpy(sorted, set, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_u32);
    for (long i = 0; i < n; i++)
        state[sorted[i]] = 1;
    long done = 0, next_root = 0;
    trapeze_status s = TRAPEZE_OK;
    while (done < n) {
        uint32_t v;
        if (hn == 0) {   /* a new tree at the smallest id left */
            while (state[sorted[next_root]] != 1)
                next_root++;
            v = sorted[next_root];
        } else {
            heap_item it = heap_pop(h, &hn);
            if (state[it.tb] != 1)
                continue;   /* a stale entry: already in the tree */
            v = it.tb;
        }
        state[v] = 2;
        order[done++] = v;
        for (long p = a->start[v]; p < a->start[v + 1]; p++) {
            uint32_t u = a->nbr[p];
            if (state[u] != 1 || a->elements[p] <= 0)
                continue;
            if (hn == cap) {
                cap *= 2;
                heap_item *nh = realloc(h, (size_t)cap * sizeof *nh);
                if (!nh) {
                    s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
                    goto out;
                }
                h = nh;
            }
            heap_push(h, &hn, (heap_item){a->elements[p], u});
        }
    }
out:
    free(state);
    free(sorted);
    free(h);
    return s;
}
