/*
 * events.c - energy event counters and idle-period histograms.
 * Owns only counting; it must not model timing or energy (a wake-up hook
 * set by sim/power answers what an idle period costs in time).
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/events.h"

struct sim_events {
    struct sim_events_hot hot;   /* first member: the inline functions of events.h rely on it */
    int units[SIM_UNIT_KIND_COUNT];
    int64_t alloc_acc[SIM_UNIT_KIND_COUNT];   /* sum of (close - open) over allocations */
    sim_events_wake_fn wake[SIM_UNIT_KIND_COUNT];
    void *wake_ctx[SIM_UNIT_KIND_COUNT];
    sim_idle_hist hist[SIM_UNIT_KIND_COUNT];
    /* periods that began before `mark` (sim_events_set_mark); NULL until
     * a mark is first set */
    sim_idle_hist *marked;
    uint64_t mark;
    /* a parallel simulation's per-thread shards (sim_events_shard): their
     * own counts and histograms over the parent's units; NULL in a shard */
    struct sim_events **shards;
    int n_shards;
    int is_shard;
    int touched;   /* a shard's histograms have a period since the last gather */
};

/* Warp registers come and go with their warps; every other unit exists
 * for the whole kernel. */
static int fixed_kind(int k) { return k != SIM_UNIT_REG; }

sim_events *sim_events_create(const int units[SIM_UNIT_KIND_COUNT])
{
    sim_events *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++) {
        ev->units[k] = units[k] > 0 ? units[k] : 0;
        ev->hot.next_idle_start[k] = calloc(units[k] > 0 ? (size_t)units[k] : 1, sizeof(uint64_t));
        if (!ev->hot.next_idle_start[k]) {
            sim_events_destroy(ev);
            return NULL;
        }
    }
    ev->hot.idle_on = 1;
    sim_events_reset(ev, 0);
    return ev;
}

void sim_events_destroy(sim_events *ev)
{
    if (!ev)
        return;
    for (int i = 0; i < ev->n_shards; i++)
        sim_events_destroy(ev->shards[i]);
    free(ev->shards);
    for (int k = 0; k < SIM_UNIT_KIND_COUNT && !ev->is_shard; k++)
        free(ev->hot.next_idle_start[k]);
    free(ev->marked);
    free(ev);
}

/* A shard counts into its own arrays and records idle periods into its own
 * histograms, over the parent's units (one thread's SMs touch only their
 * own units, so the per-unit state can be shared); settings follow the
 * parent. Sums commute: gathering the shards in any order gives the bytes
 * one sim_events would have. */
sim_events *sim_events_shard(sim_events *ev)
{
    sim_events **n = realloc(ev->shards, (size_t)(ev->n_shards + 1) * sizeof *n);
    if (!n)
        return NULL;
    ev->shards = n;
    sim_events *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    memcpy(s->hot.next_idle_start, ev->hot.next_idle_start, sizeof s->hot.next_idle_start);
    s->hot.idle_on = ev->hot.idle_on;
    memcpy(s->units, ev->units, sizeof s->units);
    memcpy(s->wake, ev->wake, sizeof s->wake);
    memcpy(s->wake_ctx, ev->wake_ctx, sizeof s->wake_ctx);
    s->is_shard = 1;
    if (ev->marked && sim_events_set_mark(s, ev->mark)) {
        free(s);
        return NULL;
    }
    s->mark = ev->mark;
    ev->shards[ev->n_shards++] = s;
    return s;
}

static void hist_move(sim_idle_hist *to, sim_idle_hist *from)
{
    sim_idle_hist_add(to, from);
    memset(from, 0, sizeof *from);
}

void sim_events_gather(sim_events *ev)
{
    for (int i = 0; i < ev->n_shards; i++) {
        sim_events *s = ev->shards[i];
        for (int e = 0; e < SIM_EV_COUNT; e++)
            ev->hot.count[e] += s->hot.count[e];
        memset(s->hot.count, 0, sizeof s->hot.count);
        for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++) {
            ev->alloc_acc[k] += s->alloc_acc[k];
            s->alloc_acc[k] = 0;
            if (!s->touched)
                continue;
            hist_move(&ev->hist[k], &s->hist[k]);
            if (s->marked)
                hist_move(&ev->marked[k], &s->marked[k]);
        }
        s->touched = 0;
    }
}

void sim_events_set_wake(sim_events *ev, sim_unit_kind kind, sim_events_wake_fn fn, void *ctx)
{
    ev->wake[kind] = fn;
    ev->wake_ctx[kind] = ctx;
    for (int i = 0; i < ev->n_shards; i++)
        sim_events_set_wake(ev->shards[i], kind, fn, ctx);
}

void sim_events_set_idle(sim_events *ev, int on)
{
    ev->hot.idle_on = on != 0;
    for (int i = 0; i < ev->n_shards; i++)
        ev->shards[i]->hot.idle_on = on != 0;
    sim_events_reset(ev, 0);
}

void sim_events_reset(sim_events *ev, uint64_t cycle)
{
    memset(ev->hot.count, 0, sizeof ev->hot.count);
    memset(ev->hist, 0, sizeof ev->hist);
    if (ev->marked)
        memset(ev->marked, 0, SIM_UNIT_KIND_COUNT * sizeof *ev->marked);
    for (int i = 0; i < ev->n_shards; i++) {
        sim_events *s = ev->shards[i];
        memset(s->hot.count, 0, sizeof s->hot.count);
        memset(s->hist, 0, sizeof s->hist);
        if (s->marked)
            memset(s->marked, 0, SIM_UNIT_KIND_COUNT * sizeof *s->marked);
        memset(s->alloc_acc, 0, sizeof s->alloc_acc);
        s->touched = 0;
    }
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++) {
        /* off: no unit is ever allocated, so no access ends a period */
        uint64_t v = fixed_kind(k) && ev->hot.idle_on ? cycle : SIM_EV_UNALLOCATED;
        for (int u = 0; u < ev->units[k]; u++)
            ev->hot.next_idle_start[k][u] = v;
        ev->alloc_acc[k] = v != SIM_EV_UNALLOCATED ? -(int64_t)cycle * ev->units[k] : 0;
    }
}

void sim_idle_bin_range(int b, uint64_t *lo, uint64_t *hi)
{
    if (b < SIM_IDLE_EXACT) {
        *lo = *hi = (uint64_t)b + 1;
        return;
    }
    int k = b - SIM_IDLE_EXACT + 10;
    *lo = (1ull << k) + 1;
    *hi = k == 63 ? UINT64_MAX : 1ull << (k + 1);
}

void sim_idle_hist_add(sim_idle_hist *dst, const sim_idle_hist *src)
{
    for (int n = 0; n < SIM_NEXT_COUNT; n++)
        for (int b = 0; b < SIM_IDLE_BINS; b++) {
            dst->bin[n][b].count += src->bin[n][b].count;
            dst->bin[n][b].sum += src->bin[n][b].sum;
        }
    dst->tracked_cycles += src->tracked_cycles;
}

static void bin_add(sim_idle_hist *h, uint64_t length, sim_next_access what)
{
    int b = sim_idle_bin(length);
    h->bin[what][b].count++;
    h->bin[what][b].sum += length;
}

/* The period [start, start + length) of a unit of kind, ended by what. */
static void record_idle(sim_events *ev, int kind, uint64_t start, uint64_t length,
                        sim_next_access what)
{
    ev->touched = 1;
    bin_add(&ev->hist[kind], length, what);
    if (start < ev->mark)
        bin_add(&ev->marked[kind], length, what);
}

int sim_events_set_mark(sim_events *ev, uint64_t mark)
{
    if (!ev->marked && mark && !(ev->marked = calloc(SIM_UNIT_KIND_COUNT, sizeof *ev->marked)))
        return -1;
    ev->mark = mark;
    for (int i = 0; i < ev->n_shards; i++)
        if (sim_events_set_mark(ev->shards[i], mark))
            return -1;
    return 0;
}

const sim_idle_hist *sim_events_marked_hist(const sim_events *ev, sim_unit_kind kind)
{
    static const sim_idle_hist empty;
    return ev->marked ? &ev->marked[kind] : &empty;
}

uint32_t sim_events_idle_ended(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle,
                               sim_next_access what)
{
    uint64_t *start = &ev->hot.next_idle_start[kind][unit];
    uint64_t length = cycle - *start;
    TRAPEZE_ASSERT(*start != SIM_EV_UNALLOCATED && length >= 1);
    record_idle(ev, kind, *start, length, what);
    *start = cycle + 1;
    return ev->wake[kind] ? ev->wake[kind](ev->wake_ctx[kind], length, what) : 0;
}

void sim_events_open(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle)
{
    uint64_t *start = &ev->hot.next_idle_start[kind][unit];
    TRAPEZE_ASSERT(!fixed_kind(kind) && *start == SIM_EV_UNALLOCATED);
    if (!ev->hot.idle_on)
        return;
    *start = cycle;
    ev->alloc_acc[kind] -= (int64_t)cycle;
}

static void close_unit(sim_events *ev, int kind, int unit, uint64_t cycle)
{
    uint64_t *start = &ev->hot.next_idle_start[kind][unit];
    if (*start == SIM_EV_UNALLOCATED)
        return;
    if (cycle > *start)
        record_idle(ev, kind, *start, cycle - *start, SIM_NEXT_DEAD);
    ev->alloc_acc[kind] += (int64_t)cycle;
    *start = SIM_EV_UNALLOCATED;
}

void sim_events_close(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle)
{
    TRAPEZE_ASSERT(!fixed_kind(kind));
    close_unit(ev, kind, unit, cycle);
}

void sim_events_finish(sim_events *ev, uint64_t end_cycle)
{
    sim_events_gather(ev);
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++) {
        for (int u = 0; ev->hot.idle_on && u < ev->units[k]; u++)
            close_unit(ev, k, u, end_cycle);
        TRAPEZE_ASSERT(ev->alloc_acc[k] >= 0);
        ev->hist[k].tracked_cycles = (uint64_t)ev->alloc_acc[k];
        ev->alloc_acc[k] = 0;
    }
}

uint64_t sim_events_get(const sim_events *ev, sim_event e) { return ev->hot.count[e]; }

int sim_events_units(const sim_events *ev, sim_unit_kind kind) { return ev->units[kind]; }

const sim_idle_hist *sim_events_hist(const sim_events *ev, sim_unit_kind kind)
{
    return &ev->hist[kind];
}

const char *sim_event_name(sim_event e)
{
    static const char *const names[SIM_EV_COUNT] = {
        "inst_issue", "reg_read", "reg_write", "int_op", "fp_op", "sfu_op", "shmem_access",
        "l1_read", "l1_write", "l1_fill", "l2_read", "l2_write", "l2_fill", "icnt_flit",
        "dram_activate", "dram_precharge", "dram_read", "dram_write", "reg_read_lanes",
        "reg_write_lanes", "int_lanes", "fp_lanes", "sfu_lanes", "l1_read_hit",
        "l1_write_hit", "l2_read_hit", "l2_write_hit", "l1_tag_probe", "l2_tag_probe"};
    return (unsigned)e < SIM_EV_COUNT ? names[e] : "?";
}

const char *sim_unit_kind_name(sim_unit_kind k)
{
    static const char *const names[SIM_UNIT_KIND_COUNT] = {"reg_bank", "l1_bank", "l2_bank",
                                                           "warp_reg", "l1_line", "l2_line"};
    return (unsigned)k < SIM_UNIT_KIND_COUNT ? names[k] : "?";
}

const char *sim_next_access_name(sim_next_access n)
{
    static const char *const names[SIM_NEXT_COUNT] = {"read", "write", "dead"};
    return (unsigned)n < SIM_NEXT_COUNT ? names[n] : "?";
}
