/*
 * dram_banks.c - the DRAM rows a grouping opens, from the hardware: the
 * launch's loads and stores walked TB by TB (sim_block_walk, as the locality
 * graph's analysis walks them, keeping the addresses it drops), each unit one miss
 * fetches decoded by the config's address map into channel, bank and row,
 * then per candidate the reads and row activations per channel its waves
 * cause (trapeze_group_dram_count) and the time the model gives them
 * (model/group_dram_banks.c). Why: k-way-TS and RB-TS open rows 6.5-12
 * times as often as rr with the same reads (docs/grouping.md), and a
 * streaming launch's channels are not evenly loaded; the model's DRAM
 * floor (the launch's reads at the peak rate) sees neither. Must not
 * simulate, and must not fit anything: the timing is the config's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/group/dram_banks.h"

typedef struct {
    uint64_t *p;
    size_t n, cap;
} u64vec;

static int push(u64vec *v, uint64_t x)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        uint64_t *p = realloc(v->p, cap * sizeof *p);
        if (!p)
            return -1;
        v->p = p;
        v->cap = cap;
    }
    v->p[v->n++] = x;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts v[from..) and keeps its distinct values. */
static void unique_tail(u64vec *v, size_t from)
{
    qsort(v->p + from, v->n - from, sizeof *v->p, cmp_u64);
    size_t m = from;
    for (size_t i = from; i < v->n; i++)
        if (m == from || v->p[i] != v->p[m - 1])
            v->p[m++] = v->p[i];
    v->n = m;
}

/* What block_units keeps of each instruction (its visit's context). */
typedef struct {
    int unit_bytes;
    u64vec *out;
} unit_visit;

static trapeze_status visit_units(void *ctx, const sim_warp_inst *in, trapeze_error *err)
{
    unit_visit *v = ctx;
    if ((in->op != SIM_OP_LD_GLOBAL && in->op != SIM_OP_ST_GLOBAL) || !in->active)
        return TRAPEZE_OK;
    uint64_t last = ~(uint64_t)0;
    for (int l = 0; l < SIM_WARP_LANES; l++) {
        const uint64_t u = in->addr[l] / (uint64_t)v->unit_bytes;
        if ((in->active >> l & 1) && u != last && push(v->out, last = u))
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    return TRAPEZE_OK;
}

/* Appends the distinct units (address / unit_bytes) block tb's global
 * loads and stores touch. */
static trapeze_status block_units(const sim_kernel *k, long tb, int unit_bytes, u64vec *out,
                                  trapeze_error *err)
{
    const size_t from = out->n;
    unit_visit v = {unit_bytes, out};
    trapeze_status s = sim_block_walk(k, tb, "DRAM rows", visit_units, &v, NULL, err);
    if (!s)
        unique_tail(out, from);
    return s;
}

/* A (channel, bank) and a row in one key, so one sort groups a wave's
 * rows by bank: the bank in the bits above ROW_BITS. */
#define ROW_BITS 40

/* Wave k's TBs in by_wave[first[k] .. first[k + 1]). */
static trapeze_status waves_of(const trapeze_grouping *g, int x, long **first, long **by_wave,
                               long *n_waves, trapeze_error *err)
{
    long w = 0;
    for (long t = 0; t < g->n_tbs; t++)
        w = g->order[t] / x + 1 > w ? g->order[t] / x + 1 : w;
    *first = calloc((size_t)w + 2, sizeof **first);
    *by_wave = malloc(((size_t)g->n_tbs + 1) * sizeof **by_wave);
    if (!*first || !*by_wave)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (long t = 0; t < g->n_tbs; t++)
        (*first)[g->order[t] / x + 1]++;
    for (long k = 0; k < w; k++)
        (*first)[k + 1] += (*first)[k];
    long *at = malloc(((size_t)w + 1) * sizeof *at);
    if (!at)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    memcpy(at, *first, (size_t)w * sizeof *at);
    for (long t = 0; t < g->n_tbs; t++)
        (*by_wave)[at[g->order[t] / x]++] = t;
    free(at);
    *n_waves = w;
    return TRAPEZE_OK;
}

/* Wave keys (sorted, distinct) to activations: each bank's rows, less the
 * one it holds open from the wave before; it keeps its highest. */
static void open_rows(const uint64_t *key, size_t n, int n_banks, uint64_t *open, double *acts)
{
    const uint64_t mask = ((uint64_t)1 << ROW_BITS) - 1;
    for (size_t i = 0; i < n;) {
        const uint64_t cb = key[i] >> ROW_BITS, was = open[cb];
        long rows = 0;
        int kept = 0;
        for (; i < n && key[i] >> ROW_BITS == cb; i++) {
            rows++;
            kept |= (key[i] & mask) == was;
            open[cb] = key[i] & mask;
        }
        acts[cb / (uint64_t)n_banks] += (double)(rows - kept);
    }
}

/* The longest unit list of wave k's TBs. */
static long longest(const trapeze_group_dram_units *u, const long *first, const long *by_wave,
                    long k)
{
    long most = 0;
    for (long j = first[k]; j < first[k + 1]; j++) {
        const long t = by_wave[j];
        const long n = u->tb_start[t + 1] - u->tb_start[t];
        most = n > most ? n : most;
    }
    return most;
}

typedef struct {
    const trapeze_group_dram_units *u;
    u64vec *buf;              /* per channel: the requests its scheduler holds */
    unsigned char *seen;
    uint64_t *open;
    double *reads, *acts;
} counter;

static void flush(counter *c, int ch)
{
    unique_tail(&c->buf[ch], 0);
    open_rows(c->buf[ch].p, c->buf[ch].n, c->u->n_banks, c->open, c->acts);
    c->buf[ch].n = 0;
}

/* Unit i of TB t, read once: into its channel's requests, a window full
 * served. */
static trapeze_status request(counter *c, long t, long i, trapeze_error *err)
{
    const trapeze_group_dram_units *u = c->u;
    const long id = u->unit[i];
    if (id < 0 || id >= u->n_units || u->channel[id] < 0 || u->channel[id] >= u->n_channels ||
        u->bank[id] < 0 || u->bank[id] >= u->n_banks)
        return trapeze_fail(err, TRAPEZE_EINVAL, "DRAM rows: TB %ld: unit %ld out of range", t,
                            id);
    if (c->seen[id])
        return TRAPEZE_OK;
    c->seen[id] = 1;
    const int ch = u->channel[id];
    c->reads[ch] += 1;
    const uint64_t cb = (uint64_t)ch * (uint64_t)u->n_banks + (uint64_t)u->bank[id];
    if (push(&c->buf[ch], cb << ROW_BITS | (u->row[id] & (((uint64_t)1 << ROW_BITS) - 1))))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (u->window > 0 && c->buf[ch].n >= (size_t)u->window)
        flush(c, ch);
    return TRAPEZE_OK;
}

/* Wave k's requests as its TBs issue them, their r-th units together. */
static trapeze_status run_wave(counter *c, const long *first, const long *by_wave, long k,
                               trapeze_error *err)
{
    const long n = longest(c->u, first, by_wave, k);
    trapeze_status s = TRAPEZE_OK;
    for (long r = 0; !s && r < n; r++)
        for (long j = first[k]; !s && j < first[k + 1]; j++) {
            const long t = by_wave[j];
            if (c->u->tb_start[t] + r < c->u->tb_start[t + 1])
                s = request(c, t, c->u->tb_start[t] + r, err);
        }
    for (int ch = 0; !s && c->u->window <= 0 && ch < c->u->n_channels; ch++)
        flush(c, ch);
    return s;
}

trapeze_status trapeze_group_dram_count(const trapeze_group_dram_units *u,
                                        const trapeze_grouping *g, int tbs_per_sm,
                                        double *reads, double *activations, trapeze_error *err)
{
    const int x = tbs_per_sm > 0 ? tbs_per_sm : 1;
    for (int c = 0; c < u->n_channels; c++)
        reads[c] = activations[c] = 0;
    if (g->n_tbs != u->n_tbs)
        return trapeze_fail(err, TRAPEZE_EINVAL, "DRAM rows: a grouping of %ld TBs for %ld",
                            g->n_tbs, u->n_tbs);
    long *first = NULL, *by_wave = NULL, n_waves = 0;
    const size_t n_cb = (size_t)u->n_channels * (size_t)u->n_banks;
    counter c = {u, calloc((size_t)u->n_channels + 1, sizeof *c.buf),
                 calloc((size_t)u->n_units + 1, 1), malloc((n_cb + 1) * sizeof *c.open), reads,
                 activations};
    trapeze_status s = c.buf && c.seen && c.open
                           ? waves_of(g, x, &first, &by_wave, &n_waves, err)
                           : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (size_t i = 0; c.open && i < n_cb; i++)
        c.open[i] = ~(uint64_t)0;   /* every bank closed */
    for (long k = 0; !s && k < n_waves; k++)
        s = run_wave(&c, first, by_wave, k, err);
    for (int ch = 0; !s && ch < u->n_channels; ch++)
        flush(&c, ch);
    for (int ch = 0; c.buf && ch < u->n_channels; ch++)
        free(c.buf[ch].p);
    free(c.buf);
    free(c.seen);
    free(c.open);
    free(first);
    free(by_wave);
    return s;
}

/* The launch's units and their channels, banks and rows. */
typedef struct {
    int unit_bytes;
    trapeze_group_dram_units u;
    long *tb_start, *unit;
    int *channel, *bank;
    unsigned long long *row;
    trapeze_group_dram_timing timing;
} launch_units;

static void units_free(launch_units *l)
{
    free(l->tb_start);
    free(l->unit);
    free(l->channel);
    free(l->bank);
    free(l->row);
}

static long find(const uint64_t *a, long n, uint64_t x)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        const long mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Dense ids for the TBs' units (all.p: each TB's in turn), decoded. */
static trapeze_status decode_units(launch_units *l, const u64vec *all, const sim_mem_config *mem,
                                   trapeze_error *err)
{
    uint64_t *d = malloc((all->n + 1) * sizeof *d);
    if (!d)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    memcpy(d, all->p, all->n * sizeof *d);
    u64vec distinct = {d, all->n, all->n + 1};
    unique_tail(&distinct, 0);
    const long n = (long)distinct.n;
    l->unit = malloc((all->n + 1) * sizeof *l->unit);
    l->channel = malloc((size_t)(n + 1) * sizeof *l->channel);
    l->bank = malloc((size_t)(n + 1) * sizeof *l->bank);
    l->row = malloc((size_t)(n + 1) * sizeof *l->row);
    if (!l->unit || !l->channel || !l->bank || !l->row) {
        free(d);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < all->n; i++)
        l->unit[i] = find(d, n, all->p[i]);
    for (long i = 0; i < n; i++) {
        const sim_dram_addr a = sim_addrmap_decode(&mem->map, d[i] * (uint64_t)l->unit_bytes);
        l->channel[i] = a.chip;
        l->bank[i] = a.bank;
        l->row[i] = a.row;
    }
    free(d);
    l->u.n_units = n;
    l->u.unit = l->unit;
    l->u.channel = l->channel;
    l->u.bank = l->bank;
    l->u.row = l->row;
    l->u.n_channels = mem->n_mem;
    l->u.n_banks = mem->t.nbk;
    l->u.window = mem->sched_queue;
    return TRAPEZE_OK;
}

/* The config's DRAM timing: a unit is ceil(unit / atom) column commands of
 * burst_cycles each; an activation of a closed bank is its precharge and
 * activate. */
static trapeze_group_dram_timing timing_of(const sim_mem_config *mem, int unit_bytes)
{
    const int atom = mem->atom_bytes > 0 ? mem->atom_bytes : unit_bytes;
    const double core = (double)mem->clock_khz[SIM_CLK_CORE];
    const double dram = (double)mem->clock_khz[SIM_CLK_DRAM];
    return (trapeze_group_dram_timing){
        .read_cycles = (double)((unit_bytes + atom - 1) / atom) * mem->burst_cycles,
        .row_cycles = mem->t.RP + mem->t.RCD,
        .core_per_dram = dram > 0 ? core / dram : 1,
        .n_banks = mem->t.nbk,
    };
}

static trapeze_status collect(void *ctx, const sim_kernel *k, const sim_mem_config *mem,
                              trapeze_error *err)
{
    launch_units *l = ctx;
    const long n_tbs = (long)k->grid.x * k->grid.y * k->grid.z;
    u64vec all = {0};
    trapeze_status s = (l->tb_start = malloc((size_t)(n_tbs + 1) * sizeof *l->tb_start))
                           ? TRAPEZE_OK
                           : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (long t = 0; !s && t < n_tbs; t++) {
        l->tb_start[t] = (long)all.n;
        s = block_units(k, t, l->unit_bytes, &all, err);
    }
    if (!s) {
        l->tb_start[n_tbs] = (long)all.n;
        l->u.n_tbs = n_tbs;
        l->u.tb_start = l->tb_start;
        s = decode_units(l, &all, mem, err);
        l->timing = timing_of(mem, l->unit_bytes);
    }
    free(all.p);
    return s;
}

trapeze_status trapeze_group_problem_dram_banks(const trapeze_group_problem *pb,
                                                const trapeze_grouping *cand, int n_cand,
                                                double *t_dram, double *activations,
                                                trapeze_error *err)
{
    const trapeze_group_machine *mc = trapeze_group_problem_machine(pb);
    launch_units l;
    memset(&l, 0, sizeof l);
    l.unit_bytes = mc->dram_fetch_bytes > 0 ? mc->dram_fetch_bytes : SIM_SECTOR_BYTES;
    trapeze_status s = trapeze_group_problem_with_launch(pb, collect, &l, err);
    const int nc = l.u.n_channels;
    double *reads = s ? NULL : calloc((size_t)nc + 1, sizeof *reads);
    double *acts = s ? NULL : calloc((size_t)nc + 1, sizeof *acts);
    if (!s && (!reads || !acts))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int c = 0; !s && c < n_cand; c++) {
        if (cand[c].n_tbs != l.u.n_tbs) {
            s = trapeze_fail(err, TRAPEZE_EINVAL, "DRAM rows: a grouping of %ld TBs for a "
                             "launch of %ld", cand[c].n_tbs, l.u.n_tbs);
            break;
        }
        if ((s = trapeze_group_dram_count(&l.u, &cand[c], mc->tbs_per_sm, reads, acts, err)))
            break;
        t_dram[c] = trapeze_group_dram_busiest_time(&l.timing, reads, acts, nc);
        if (activations) {
            activations[c] = 0;
            for (int i = 0; i < nc; i++)
                activations[c] += acts[i];
        }
    }
    free(reads);
    free(acts);
    units_free(&l);
    return s;
}
