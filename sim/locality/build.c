/*
 * build.c - the locality graph of a kernel (sim_locality_build). Owns the
 * footprints and the pair counts; knows nothing of dispatch or CSV.
 *
 * How (LocalityGuru's "address map" without its syntax trees: the kernel
 * representation already holds the address expressions, so the analysis
 * runs every warp of every block through the kernel's own instruction
 * source and keeps the addresses of its global loads):
 *  1. per TB: the sorted distinct element addresses, 32-byte sectors and
 *     lines it reads (footprints), appended as (key, tb) pairs, TBs in
 *     increasing id;
 *  2. the pairs sorted by key (stable LSD radix sort): each key's TBs are
 *     one run, already in increasing id;
 *  3. runs of two or more TBs are counted per distinct TB set (a broadcast
 *     array read by every TB is one set with a large weight, not
 *     n^2/2 pair updates per element);
 *  4. each set adds its weight to every pair of its TBs, TB by TB (the
 *     sets holding TB i summed into its row of partners j > i), lines,
 *     sectors and elements apart; edges in (i, j) order.
 * Invariants: keys of one TB are distinct; a run's TBs strictly increase;
 * an edge's shared_lines >= 1 (two TBs may share a line but no sector),
 * shared_elements and shared_sectors <= its TBs' footprints.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"

#define MAX_EDGES 100000000L

typedef struct { uint64_t key; uint32_t tb; uint32_t pad; } pair;

/* ---- sorting ---- */

/* LSD radix sort of a[0..n) by value, skipping bytes where all keys agree. */
static void radix_u64(uint64_t *a, uint64_t *tmp, size_t n)
{
    if (n < 2)
        return;
    uint64_t diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= a[i] ^ a[0];
    for (int shift = 0; shift < 64; shift += 8) {
        if (!(diff >> shift & 0xff))
            continue;
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(a[i] >> shift & 0xff) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            tmp[count[a[i] >> shift & 0xff]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* Stable LSD radix sort of pairs by key (equal keys keep their TB order). */
static void radix_pairs(pair *a, pair *tmp, size_t n)
{
    if (n < 2)
        return;
    uint64_t diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= a[i].key ^ a[0].key;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!(diff >> shift & 0xff))
            continue;
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(a[i].key >> shift & 0xff) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            tmp[count[a[i].key >> shift & 0xff]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* ---- growable arrays ---- */

typedef struct { void *p; size_t n, cap, size; } vec;

static int vec_reserve(vec *v, size_t more)
{
    if (v->n + more <= v->cap)
        return 0;
    size_t cap = v->cap ? v->cap : 1024;
    while (cap < v->n + more)
        cap *= 2;
    void *p = realloc(v->p, cap * v->size);
    if (!p)
        return -1;
    v->p = p;
    v->cap = cap;
    return 0;
}

/* ---- 1. footprints ---- */

/* The distinct sectors of a store's active lanes (a warp's store is
 * coalesced into sectors before it reaches L2 and DRAM). */
static long long store_sectors(const sim_warp_inst *in)
{
    uint64_t seen[SIM_WARP_LANES];
    int n = 0;
    for (int l = 0; l < SIM_WARP_LANES; l++) {
        if (!(in->active >> l & 1))
            continue;
        uint64_t s = in->addr[l] / SIM_SECTOR_BYTES;
        int i = 0;
        while (i < n && seen[i] != s)
            i++;
        if (i == n)
            seen[n++] = s;
    }
    return n;
}

/* What block_addresses keeps of each instruction (its visit's context). */
typedef struct {
    int64_t pc;
    vec *addr;
    long long *stores;
} addr_visit;

static trapeze_status visit_addresses(void *ctx, const sim_warp_inst *in, trapeze_error *err)
{
    addr_visit *v = ctx;
    if (in->op == SIM_OP_ST_GLOBAL && in->active)
        *v->stores += store_sectors(in);
    if (in->op != SIM_OP_LD_GLOBAL || (in->flags & SIM_INST_VOLATILE) || !in->active ||
        (v->pc >= 0 && in->pc != (uint32_t)v->pc))
        return TRAPEZE_OK;
    if (vec_reserve(v->addr, SIM_WARP_LANES))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    /* a lane's address equal to the one kept just before is left out (a
     * broadcast read is one address, not 32): the sort that follows keeps
     * distinct values only, so its result is the same for a fraction of
     * the work */
    uint64_t *first = (uint64_t *)v->addr->p, *a = first + v->addr->n;
    for (int l = 0; l < SIM_WARP_LANES; l++)
        if ((in->active >> l & 1) && (a == first || a[-1] != in->addr[l]))
            *a++ = in->addr[l];
    v->addr->n = (size_t)(a - (uint64_t *)v->addr->p);
    return TRAPEZE_OK;
}

/* Appends the addresses of the global loads (at pc; every one for pc < 0)
 * of every warp of block tb;
 * adds its global stores' sectors to *stores and its warp instructions to
 * *insts. */
static trapeze_status block_addresses(const sim_kernel *k, long tb, int64_t pc, vec *addr,
                                      long long *stores, long long *insts, trapeze_error *err)
{
    addr_visit v = {pc, addr, stores};
    return sim_block_walk(k, tb, "locality", visit_addresses, &v, insts, err);
}

/* Sorted distinct values of a[0..n) in place; returns how many. */
static size_t unique_sorted(uint64_t *a, uint64_t *tmp, size_t n)
{
    radix_u64(a, tmp, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || a[i] != a[m - 1])
            a[m++] = a[i];
    return m;
}

static int push_pairs(vec *pairs, const uint64_t *keys, size_t n, long tb)
{
    if (vec_reserve(pairs, n))
        return -1;
    pair *p = (pair *)pairs->p + pairs->n;
    for (size_t i = 0; i < n; i++)
        p[i] = (pair){keys[i], (uint32_t)tb, 0};
    pairs->n += n;
    return 0;
}

/* ---- 3. distinct TB sets ---- */

typedef struct set_entry { size_t off; uint32_t len; uint32_t hash; int64_t weight; } set_entry;

typedef struct set_table {
    set_entry *e;        /* open addressing; len 0 = empty */
    size_t cap, n;
    vec members;         /* uint32 arena */
} set_table;

static uint32_t hash_tbs(const uint32_t *t, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= t[i];
        h *= 16777619u;
        h ^= h >> 15;
    }
    return h ? h : 1;
}

static int set_grow(set_table *st)
{
    size_t cap = st->cap ? st->cap * 2 : 4096;
    set_entry *e = calloc(cap, sizeof *e);
    if (!e)
        return -1;
    for (size_t i = 0; i < st->cap; i++)
        if (st->e[i].len) {
            size_t j = st->e[i].hash & (cap - 1);
            while (e[j].len)
                j = (j + 1) & (cap - 1);
            e[j] = st->e[i];
        }
    free(st->e);
    st->e = e;
    st->cap = cap;
    return 0;
}

static int set_add(set_table *st, const uint32_t *t, uint32_t n, int64_t weight)
{
    if ((st->n + 1) * 2 > st->cap && set_grow(st))
        return -1;
    uint32_t h = hash_tbs(t, n);
    size_t j = h & (st->cap - 1);
    const uint32_t *arena = st->members.p;
    for (; st->e[j].len; j = (j + 1) & (st->cap - 1))
        if (st->e[j].hash == h && st->e[j].len == n &&
            !memcmp(arena + st->e[j].off, t, n * sizeof *t)) {
            st->e[j].weight += weight;
            return 0;
        }
    if (vec_reserve(&st->members, n))
        return -1;
    memcpy((uint32_t *)st->members.p + st->members.n, t, n * sizeof *t);
    st->e[j] = (set_entry){st->members.n, n, h, weight};
    st->members.n += n;
    st->n++;
    return 0;
}

/* The sets of TBs sharing each key of the sorted pairs. */
static int collect_sets(const pair *p, size_t n, set_table *st)
{
    uint32_t *run = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && p[j].key == p[i].key)
            j++;
        if (j - i >= 2) {
            if (j - i > cap) {
                cap = j - i;
                uint32_t *r = realloc(run, cap * sizeof *r);
                if (!r) {
                    free(run);
                    return -1;
                }
                run = r;
            }
            for (size_t q = i; q < j; q++) {
                run[q - i] = p[q].tb;
                assert(q == i || p[q].tb > p[q - 1].tb);
            }
            if (set_add(st, run, (uint32_t)(j - i), 1)) {
                free(run);
                return -1;
            }
        }
        i = j;
    }
    free(run);
    return 0;
}

/* ---- 4. pairs ---- */

enum unit { UNIT_EL, UNIT_LN, UNIT_SC, N_UNITS };

/* One unit's sets by TB: for TB t, each set holding it and t's place in
 * that set (a set lists its TBs increasing, so the TBs after t's place are
 * its partners of higher id). */
typedef struct { size_t set; uint32_t pos; } member;
typedef struct member_index {
    size_t *start;       /* n + 1 */
    member *at;
} member_index;

static int index_members(const set_table *st, long n, member_index *x)
{
    const uint32_t *arena = st->members.p;
    x->start = calloc((size_t)n + 1, sizeof *x->start);
    x->at = malloc((st->members.n ? st->members.n : 1) * sizeof *x->at);
    if (!x->start || !x->at)
        return -1;
    for (size_t e = 0; e < st->cap; e++)
        for (uint32_t q = 0; q < st->e[e].len; q++)
            x->start[arena[st->e[e].off + q] + 1]++;
    for (long t = 0; t < n; t++)
        x->start[t + 1] += x->start[t];
    size_t *fill = calloc((size_t)n, sizeof *fill);
    if (!fill)
        return -1;
    for (size_t e = 0; e < st->cap; e++)
        for (uint32_t q = 0; q < st->e[e].len; q++) {
            uint32_t t = arena[st->e[e].off + q];
            x->at[x->start[t] + fill[t]++] = (member){e, q};
        }
    free(fill);
    return 0;
}

static int by_tb(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Each set's weight added to every pair of its TBs, row by row: TB i's
 * partners j > i gathered from the sets holding i into dense per-TB sums
 * (a hash map of pairs probed once a pair and set cost most of the build
 * on stencils, whose sets are many and wide), then written as edges in
 * (i, j) order. Every sum is of whole numbers, so any order gives the same
 * counts. */
static trapeze_status pair_sets(const set_table *sets, long n, trapeze_locality_graph *g,
                                trapeze_error *err)
{
    member_index x[N_UNITS] = {{0}};
    int64_t *acc[N_UNITS] = {0};
    uint32_t *mark = calloc((size_t)n, sizeof *mark);   /* i + 1 once j is in row i */
    uint32_t *row = malloc((size_t)n * sizeof *row);
    vec edges = {.size = sizeof(trapeze_locality_edge)};
    int ok = mark && row;
    for (int u = 0; u < N_UNITS; u++)
        ok &= !index_members(&sets[u], n, &x[u]) &&
              (acc[u] = calloc((size_t)n, sizeof *acc[u])) != NULL;
    trapeze_status s = ok ? TRAPEZE_OK : trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    for (long i = 0; i < n && !s; i++) {
        size_t m = 0;
        for (int u = 0; u < N_UNITS; u++)
            for (size_t k = x[u].start[i]; k < x[u].start[i + 1]; k++) {
                const set_entry *e = &sets[u].e[x[u].at[k].set];
                const uint32_t *t = (const uint32_t *)sets[u].members.p + e->off;
                for (uint32_t q = x[u].at[k].pos + 1; q < e->len; q++) {
                    if (mark[t[q]] != (uint32_t)i + 1) {
                        mark[t[q]] = (uint32_t)i + 1;
                        row[m++] = t[q];
                    }
                    acc[u][t[q]] += e->weight;
                }
            }
        if ((long)(edges.n + m) > MAX_EDGES) {
            s = trapeze_fail(err, TRAPEZE_ERANGE,
                             "locality: more than %ld TB pairs share data (graph too dense)",
                             MAX_EDGES);
            break;
        }
        if (vec_reserve(&edges, m ? m : 1)) {
            s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
            break;
        }
        qsort(row, m, sizeof *row, by_tb);
        trapeze_locality_edge *ed = (trapeze_locality_edge *)edges.p + edges.n;
        for (size_t r = 0; r < m; r++, ed++) {
            uint32_t j = row[r];
            *ed = (trapeze_locality_edge){i, j, acc[UNIT_EL][j], acc[UNIT_LN][j], acc[UNIT_SC][j]};
            acc[UNIT_EL][j] = acc[UNIT_LN][j] = acc[UNIT_SC][j] = 0;
            assert(ed->shared_lines >= 1 && ed->shared_elements >= 0);
            assert(ed->shared_elements <= g->elements[i]);
            assert(ed->shared_sectors <= g->sectors[i]);
        }
        edges.n += m;
    }
    for (int u = 0; u < N_UNITS; u++) {
        free(x[u].start);
        free(x[u].at);
        free(acc[u]);
    }
    free(mark);
    free(row);
    if (s) {
        free(edges.p);
        return s;
    }
    if (!edges.p && !(edges.p = calloc(1, edges.size)))   /* no pairs: an empty list */
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    g->edges = edges.p;
    g->n_edges = (long)edges.n;
    return TRAPEZE_OK;
}

/* ---- the whole build ---- */

/* The distinct a[i] >> shift of sorted a[0..m), in place (sorted too);
 * returns how many. */
static size_t coarsen(uint64_t *a, size_t m, int shift)
{
    size_t n = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t l = a[i] >> shift;
        if (n == 0 || a[n - 1] != l)
            a[n++] = l;
    }
    return n;
}

trapeze_status sim_locality_build(const sim_kernel *k, int line_bytes,
                                  trapeze_locality_graph *g, trapeze_error *err)
{
    return sim_locality_build_pc(k, line_bytes, -1, g, err);
}

trapeze_status sim_locality_build_pc(const sim_kernel *k, int line_bytes, int64_t pc,
                                     trapeze_locality_graph *g, trapeze_error *err)
{
    memset(g, 0, sizeof *g);
    if (line_bytes < SIM_SECTOR_BYTES || (line_bytes & (line_bytes - 1)))
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "locality: line size %d is not a power of two of at least %d bytes",
                            line_bytes, SIM_SECTOR_BYTES);
    long n = sim_kernel_blocks(k);
    if (n < 1 || n > (long)UINT32_MAX)
        return trapeze_fail(err, TRAPEZE_ERANGE, "locality: kernel %s has %ld blocks", k->name, n);
    snprintf(g->kernel, sizeof g->kernel, "%s", k->name);
    g->grid[0] = k->grid.x;
    g->grid[1] = k->grid.y;
    g->grid[2] = k->grid.z;
    g->n_tbs = n;
    g->line_bytes = line_bytes;
    g->sector_bytes = SIM_SECTOR_BYTES;
    /* sectors from addresses, lines from sectors: both stay sorted */
    const int sector_shift = __builtin_ctz(SIM_SECTOR_BYTES);
    const int line_shift = __builtin_ctz((unsigned)line_bytes) - sector_shift;
    g->elements = calloc((size_t)n, sizeof *g->elements);
    g->lines = calloc((size_t)n, sizeof *g->lines);
    g->sectors = calloc((size_t)n, sizeof *g->sectors);
    g->warp_insts = calloc((size_t)n, sizeof *g->warp_insts);
    long long *count[N_UNITS] = {g->elements, g->lines, g->sectors};
    vec addr = {.size = sizeof(uint64_t)}, tmp = {.size = sizeof(uint64_t)};
    vec pairs[N_UNITS];
    set_table sets[N_UNITS];
    for (int u = 0; u < N_UNITS; u++) {
        pairs[u] = (vec){.size = sizeof(pair)};
        sets[u] = (set_table){.members = {.size = sizeof(uint32_t)}};
    }
    pair *ptmp = NULL;
    trapeze_status s = TRAPEZE_OK;
    if (!g->elements || !g->lines || !g->sectors || !g->warp_insts) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
        goto out;
    }
    for (long tb = 0; tb < n && !s; tb++) {
        addr.n = 0;
        if ((s = block_addresses(k, tb, pc, &addr, &g->store_sectors, &g->warp_insts[tb], err)))
            break;
        if (vec_reserve(&tmp, addr.n > tmp.n ? addr.n - tmp.n : 0)) {
            s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
            break;
        }
        uint64_t *a = addr.p;
        size_t m = unique_sorted(a, tmp.p, addr.n);
        for (int u = 0; u < N_UNITS && !s; u++) {   /* elements, then coarser in place */
            enum unit v = u == 0 ? UNIT_EL : u == 1 ? UNIT_SC : UNIT_LN;
            if (v != UNIT_EL)
                m = coarsen(a, m, v == UNIT_SC ? sector_shift : line_shift);
            count[v][tb] = (long long)m;
            if (push_pairs(&pairs[v], a, m, tb))
                s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
        }
    }
    if (s)
        goto out;
    ptmp = malloc((pairs[UNIT_EL].n ? pairs[UNIT_EL].n : 1) * sizeof *ptmp);   /* the most */
    if (!ptmp) {
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
        goto out;
    }
    for (int u = 0; u < N_UNITS && !s; u++) {
        radix_pairs(pairs[u].p, ptmp, pairs[u].n);
        if (collect_sets(pairs[u].p, pairs[u].n, &sets[u]))
            s = trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    }
    if (!s)
        s = pair_sets(sets, n, g, err);
out:
    free(addr.p);
    free(tmp.p);
    free(ptmp);
    for (int u = 0; u < N_UNITS; u++) {
        free(pairs[u].p);
        free(sets[u].e);
        free(sets[u].members.p);
    }
    if (s)
        trapeze_locality_graph_free(g);
    return s;
}
