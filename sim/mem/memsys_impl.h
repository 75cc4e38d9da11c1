/*
 * memsys_impl.h - the inside of struct sim_memsys, shared by the files of
 * sim/mem/ (one per part: l1d.c, icnt.c, l2.c, dram.c, memsys.c). Owns the
 * layout and the small helpers every part uses (active sets, events); the
 * behaviour lives in the parts.
 *
 * Time: every timestamp in a queue is a core cycle, except inside a DRAM
 * channel, which counts its own command clock. In one core cycle the
 * domains run in the order DRAM, L2, interconnect, SM side, so a reply
 * flows from DRAM to the SM's fill port without waiting for a next cycle.
 */
#ifndef TRAPEZE_SIM_MEM_MEMSYS_IMPL_H
#define TRAPEZE_SIM_MEM_MEMSYS_IMPL_H

#include <stdint.h>

#include "sim/mem/cache.h"
#include "sim/mem/clock.h"
#include "sim/mem/funcmem.h"
#include "sim/mem/mem_config.h"
#include "sim/mem/mem_stats.h"
#include "sim/mem/ring.h"
#include "sim/mem/selcache.h"
#include "sim/memsys.h"

/* Completed requests of one SM, ordered by ready cycle and, within one,
 * by push: a sorted ring. Requests complete nearly in order (ready is the
 * current cycle plus a short latency), so a push moves few entries and a
 * pop takes the front. */
typedef struct sim_done {
    uint64_t ready;
    sim_mem_request req;
} sim_done;

typedef struct sim_done_queue {
    sim_done *items;
    uint32_t head, count, capacity;   /* capacity: a power of two */
} sim_done_queue;

/* The last refused request of a port. A refused request is offered again
 * every cycle; while the port is unchanged (same version) the answer is the
 * same, so the retry is answered from here without probing again. */
typedef struct sim_refusal {
    int valid;
    uint64_t version;      /* the port's version when it was refused */
    uint64_t addr;
    uint32_t sector_mask, bytes;
    uint8_t op, flags;
    uint8_t tags;          /* the refusal came after a tag lookup (a tag probe) */
    sim_fail_cause why;
} sim_refusal;

typedef struct sim_sm_port {
    sim_cache l1;          /* used when cfg.l1.enabled */
    uint64_t version;      /* bumped whenever l1 or missq may have changed */
    sim_refusal refused;
    uint8_t tags_read;     /* the access sim_l1_access is serving looked its tags up */
    sim_ring missq;        /* towards the icnt: misses, stores, atomics, bypassing loads */
    sim_ring replies;      /* from the icnt; ready = arrival */
    sim_ring *l1q;         /* per L1 bank: accesses in its latency queue, oldest first;
                            * ready = the cycle they reach its last stage (l1d.c) */
    int l1q_count;         /* accesses in all of them */
    /* per L1 bank, the ready cycles of its queue's front (UINT64_MAX when
     * empty) and of its last access, side by side: a cycle's look at every
     * bank reads this line, not each queue's front packet, a cold line of
     * its own that is seldom due (l1d.c) */
    struct sim_l1q_times { uint64_t front, last; } *l1q_at;
    sim_done_queue done;
    uint64_t inj_free;     /* first icnt tick the injection port is free */
    uint64_t ej_free;      /* first icnt tick the ejection port is free */
    sim_cache_stats stats;
    /* sectored L1: a request whose sectors wait in several MSHR entries
     * completes when the last arrives: par[i] is it, par_left[i] its
     * sectors outstanding, par_free the free ids (l1d.c) */
    sim_mem_request *par;   /* par_cap of them, grown by sim_grow_for */
    int32_t *par_left, *par_free, n_par_free, par_cap;
    sim_decode_memo decoded;   /* send_down's last line */
    sim_sel_state sel;     /* selective caching's tables (selcache.h) */
    uint32_t *origin;      /* -trapeze_contention_counters, unsectored L1D: per frame,
                            * the origin of the load that allocated its line */
    sim_pc_stats pcs[SIM_PC_STATS_MAX];   /* with origin: per load PC (pc_stats.c) */
    int n_pcs;
    /* what the SM side changes is the port's own, so that SMs may run in
     * parallel threads: its events (m->events, or its thread's shard) and
     * requests accepted and not completed (sim_memsys_outstanding sums them) */
    sim_events *ev;
    uint64_t outstanding;
} sim_sm_port;

typedef struct sim_subpart {
    sim_cache l2;          /* used when cfg.l2.enabled */
    sim_ring rop;          /* arrived from the icnt; ready = arrival + ROP latency */
    sim_ring l2q;          /* icnt->L2 queue (bounded) */
    sim_ring fillq;        /* DRAM->L2 (bounded) */
    sim_ring respq;        /* L2->icnt (bounded) */
    sim_ring to_dram;      /* L2->DRAM; ready = sent + dram_latency (bounded) */
    sim_ring missq;        /* -trapeze_l2_miss_queue 1: the L2's miss queue before to_dram;
                            * ready = sent (l2.c) */
    uint32_t fill_held;    /* respq slots held for the fill at fillq's head (l2.c) */
    /* sectored L2: a request of several sectors is served a sector per L2
     * cycle (GPGPU-Sim breaks it into sector requests); its reply leaves
     * when its last sector is served. par[i] holds such a request, left[i]
     * its sectors not yet served; free ids in par_free. */
    sim_pkt *par;           /* par_cap of them, grown by sim_grow_for */
    int32_t *par_left, *par_free, n_par_free, par_cap;
    uint64_t inj_free, ej_free;
    int chan;
} sim_subpart;

typedef struct sim_dreq {
    sim_pkt pkt;
    uint64_t seq;          /* arrival order: FR-FCFS age */
    uint64_t row;
    int32_t next;          /* next in its bank's list, -1 at the end */
    int16_t bank;
    int16_t atoms_left;
    uint8_t activated;     /* an ACT was issued for it: a row miss */
    uint8_t started;       /* its first column command has issued */
} sim_dreq;

typedef struct sim_bank {
    int64_t row;           /* open row, -1 when precharged */
    uint64_t t_act, t_col, t_pre;  /* earliest ACT, column command, PRE (DRAM ticks) */
    int32_t head, tail;    /* its requests, oldest first */
    /* the oldest request hitting the open row (-1 none) while known, else
     * SIM_BANK_HIT_UNKNOWN: FR-FCFS asks every tick, the answer changes only
     * when a request joins or leaves or the row changes (dram.c) */
    int32_t hit;
    int16_t grp;           /* bank group (-dram_bnkgrp_indexing_policy) */
} sim_bank;

enum { SIM_BANK_HIT_UNKNOWN = -2 };

typedef struct sim_channel {
    sim_bank *banks;
    uint64_t pending_banks; /* bit b: bank b has requests (nbk <= 64) */
    uint64_t *t_col_grp;   /* per bank group: CCDL */
    uint64_t t_act_any, t_col_any, t_rd_ok, bus_free;
    sim_dreq *pool;        /* sched_queue slots */
    sim_decode_memo decoded;   /* intake's last line */
    int32_t *free_ids, n_free;
    int n_queued;
    sim_ring returning;    /* served, ready = DRAM tick its data is done */
    uint64_t seq;
    int rr_sub;
    /* -trapeze_dram_latency_queue 1 (dram.c): requests left the L2->DRAM
     * queues, oldest first, ready = core cycle their -dram_latency has passed;
     * the credits they hold (per sub-partition of the channel: 0 or 1 private;
     * the rest shared) and the sub-partition that last took one */
    sim_ring latency;
    int8_t *credit_private;
    int credit_shared, last_borrower;
} sim_channel;

/* A set of component indices, iterated in index order (deterministic). */
typedef struct sim_bits {
    uint64_t *w;
    int n_words;
    int shared;            /* threads set bits of one word at once: sim_bits_set_shared */
} sim_bits;

/* One crossbar of xbar.c (GPGPU-Sim's local interconnect): requests (reply 0:
 * inputs SMs, outputs sub-partitions) or replies (1: the other way). */
typedef struct sim_xbar_net {
    int reply, n_in, n_out;
    int in_base, total;    /* device id of input 0; SMs + sub-partitions */
    sim_ring *in, *out;    /* per input, per output */
    int *next_node;        /* iSLIP grant pointer per output (a device id) */
    uint64_t *want;        /* per output, a bit per input whose head goes there */
    int *want_n;           /* per output, those bits set */
    uint8_t *issued;       /* round robin: the output took a packet this cycle */
    int *in_units, *out_units;      /* packets (flit mode: flits) buffered */
    uint64_t *in_busy, *out_busy;   /* flit mode: first cycle free of a packet's flits */
    uint8_t *fresh;        /* a split tick (sim_xbar_sm_side): the input became non-empty,
                            * its want bit is set by sim_xbar_rest */
    sim_bits held;         /* outputs whose buffer may hold a packet: set when one
                            * arrives, cleared by eject_held when found empty */
    int in_words, rr_next;
} sim_xbar_net;

/* What one side of a split icnt tick changed in counters that both sides
 * change, added in by sim_xbar_rest; a cache line each, since each belongs
 * to one thread. */
typedef struct sim_xbar_acc {
    int64_t pkts;          /* packets into the buffers less packets out */
    uint64_t flits, up, down;
    char pad[32];
} sim_xbar_acc;

typedef struct sim_xbar {
    sim_xbar_net net[2];
    uint64_t n_pkts;       /* packets in all buffers */
    int *reply_parts;      /* flit mode, per sub-partition: sector replies of its head
                            * reply already injected */
    int grant_count;
    sim_xbar_acc *acc;     /* a split tick (memsys.c's parallel parts): per thread */
    int n_acc;
} sim_xbar;

struct sim_memsys {
    sim_mem_config cfg;
    sim_events *events;
    int n_sm, n_subs;
    sim_sm_port *sm;
    sim_subpart *sub;
    sim_channel *chan;
    sim_clock clk[SIM_CLK_COUNT];
    sim_bits sm_active, sub_active, chan_active;
    sim_funcmem words;
    sim_mem_stats stats;         /* l1: summed from the ports' when read (sim_memsys_stats) */
    uint64_t dram_tick_base;     /* DRAM ticks at the last stats reset */
    int rr_sm, rr_sub;           /* icnt arbitration */
    int reply_flits_line;        /* flits of a reply carrying a line */
    sim_xbar xbar;               /* -network_mode 2 (xbar.c) */
    int sel_on;                  /* sim_sel_on(&cfg), asked per L1 access: fixed at creation */
    int split;                   /* this cycle's icnt tick runs split (sim_memsys_icnt_split) */
    uint64_t split_now;          /* its core cycle */
};

static inline void sim_bits_set(sim_bits *b, int i, int on)
{
    uint64_t bit = 1ull << (i & 63);
    if (on)
        b->w[i >> 6] |= bit;
    else
        b->w[i >> 6] &= ~bit;
}

/* sim_bits_set for a set whose words threads update at once (b->shared):
 * atomic; a set is a set, so the order of the threads' updates cannot
 * matter. Most updates leave the bit as it was: only a change writes, so
 * that the word's cache line stays shared between the cores (a write
 * takes it from every other core). */
static inline void sim_bits_set_shared(sim_bits *b, int i, int on)
{
    uint64_t bit = 1ull << (i & 63);
    if (!(__atomic_load_n(&b->w[i >> 6], __ATOMIC_RELAXED) & bit) == !on)
        return;
    if (on)
        __atomic_fetch_or(&b->w[i >> 6], bit, __ATOMIC_RELAXED);
    else
        __atomic_fetch_and(&b->w[i >> 6], ~bit, __ATOMIC_RELAXED);
}

#define SIM_BITS_FOREACH(b, i)                                                     \
    for (int w_ = 0; w_ < (b)->n_words; w_++)                                      \
        for (uint64_t m_ = (b)->w[w_]; m_ && ((i) = w_ * 64 + __builtin_ctzll(m_), 1); \
             m_ &= m_ - 1)

static inline int sim_bits_any(const sim_bits *b)
{
    for (int w = 0; w < b->n_words; w++)
        if (b->w[w])
            return 1;
    return 0;
}

/* The helpers take the events of the part that reports: an SM's port has
 * its own (its thread's shard in a parallel simulation, sim_memsys_port_events),
 * the parts behind the interconnect report to m->events. NULL: no events. */
static inline void sim_ev(sim_events *ev, sim_event e, uint64_t n)
{
    if (ev)
        sim_events_count(ev, e, n);
}

/* Bank-level use by a read; returns the wake-up stall (sim_events_access). */
static inline uint32_t sim_busy(sim_events *ev, sim_unit_kind k, int unit, uint64_t cycle)
{
    return ev ? sim_events_busy(ev, k, unit, cycle) : 0;
}

static inline uint32_t sim_busy_as(sim_events *ev, sim_unit_kind k, int unit, uint64_t cycle,
                                   sim_next_access what)
{
    return ev ? sim_events_access(ev, k, unit, cycle, what) : 0;
}

static inline uint32_t sim_max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* Use of line frame `way` of line's set in cache c, the idx-th cache of
 * its kind (SM or slice); returns the wake-up stall. */
static inline uint32_t sim_busy_frame(sim_events *ev, sim_unit_kind k, int idx, const sim_cache *c,
                                      uint64_t line, int way, sim_next_access what,
                                      uint64_t cycle)
{
    if (!ev || way < 0 || !sim_events_idle_on(ev))   /* off: no frame index to compute */
        return 0;
    int frames = c->cfg.sets * c->alloc_assoc;   /* a unit index per allocated frame */
    int frame = sim_cache_set(c, line) * c->cfg.assoc + way;
    return sim_events_access(ev, k, idx * frames + frame, cycle, what);
}

static inline int sim_flits(const sim_memsys *m, uint32_t bytes)
{
    return (int)((bytes + (uint32_t)m->cfg.flit_size - 1) / (uint32_t)m->cfg.flit_size);
}

#define SIM_PKT_HEADER_BYTES 8   /* GPGPU-Sim's control bytes per packet */

/* Bytes a request carries up, or a reply carries down, besides the header. */
static inline uint32_t sim_pkt_payload_up(const sim_pkt *p)
{
    switch (p->kind) {
    case SIM_PKT_WRITE: return p->req.bytes;
    case SIM_PKT_ATOMIC: return p->bytes;   /* its segment's data (GPGPU-Sim: mf->size()) */
    default: return 0;
    }
}

static inline uint32_t sim_pkt_payload_down(const sim_pkt *p)
{
    switch (p->kind) {
    case SIM_PKT_READ: return p->bytes;   /* a line, a sector (sectored L1) or a segment */
    case SIM_PKT_ATOMIC: return p->bytes;
    default: return 0; /* write acknowledgement */
    }
}

/* Activity bookkeeping: a part with queued work is in its active set.
 * Inline: each queue push and pop of the L1, L2, DRAM and crossbar files
 * calls one (a call each was 1-2% of a run's host instructions). */
static inline void sim_sm_update_active(sim_memsys *m, int sm)
{
    const sim_sm_port *p = &m->sm[sm];
    int on = p->missq.count || p->replies.count || p->l1q_count;
    if (m->sm_active.shared)   /* SMs in parallel threads (sim_memsys_set_parallel) */
        sim_bits_set_shared(&m->sm_active, sm, on);
    else
        sim_bits_set(&m->sm_active, sm, on);
}

static inline void sim_sub_update_active(sim_memsys *m, int sub)
{
    const sim_subpart *p = &m->sub[sub];
    sim_bits_set(&m->sub_active, sub,
                 p->rop.count || p->l2q.count || p->fillq.count || p->respq.count ||
                     p->missq.count);
}

static inline void sim_chan_update_active(sim_memsys *m, int chan)
{
    const sim_channel *ch = &m->chan[chan];
    int busy = ch->n_queued || ch->returning.count || ch->latency.count;
    for (int s = 0; s < m->cfg.n_sub && !busy; s++)
        busy = m->sub[chan * m->cfg.n_sub + s].to_dram.count != 0;
    sim_bits_set(&m->chan_active, chan, busy);
}

/* l1d.c */
int sim_l1_init(sim_memsys *m, sim_sm_port *p);
sim_mem_outcome sim_l1_access(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                              sim_fail_cause *cause);
sim_mem_outcome sim_l1_offer(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                             sim_fail_cause *cause);
sim_mem_outcome sim_l1_probe(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                             sim_fail_cause *cause);
void sim_l1_cycle(sim_memsys *m, int sm, uint64_t cycle);
void sim_done_push(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req, uint64_t ready);
/* Inline: the top level asks every SM's queue every visited cycle. */
static inline int sim_done_pop(sim_done_queue *q, uint64_t cycle, sim_mem_request *out)
{
    if (q->count == 0 || q->items[q->head].ready > cycle)
        return 0;
    *out = q->items[q->head].req;
    q->head = --q->count ? (q->head + 1) & (q->capacity - 1) : 0;   /* as sim_ring_pop */
    return 1;
}

/* pc_stats.c: the port's entry for a load's PC (added while there is
 * room) or for the PC that filled line l; NULL without the counters (or
 * no room, or no such PC). The sum over the ports into st, ascending PC. */
sim_pc_stats *sim_pc_stats_of(sim_sm_port *p, uint32_t pc);
sim_pc_stats *sim_pc_stats_of_line(sim_sm_port *p, const sim_line *l);
void sim_pc_stats_sum(const sim_memsys *m, sim_mem_stats *st);

/* icnt.c */
void sim_icnt_tick(sim_memsys *m, uint64_t tick);

/* xbar.c (-network_mode 2; -trapeze_icnt_booksim 1) */
int sim_xbar_init(sim_memsys *m);
void sim_xbar_free(sim_memsys *m);
void sim_xbar_tick(sim_memsys *m, uint64_t tick);
int sim_xbar_has_room(const sim_memsys *m, int reply, int in, const sim_pkt *p);
void sim_xbar_push(sim_memsys *m, int reply, int in, const sim_pkt *p);
/* One tick split for threads (sim_memsys_icnt_*): each SM's side (its
 * ejection and injection) on the thread that runs the SM, counting into
 * that thread's accumulator; then, on one thread, the sub-partitions' side
 * and both crossbars' arbitration. The same as sim_xbar_tick. */
int sim_xbar_set_threads(sim_memsys *m, int threads);
void sim_xbar_sm_side(sim_memsys *m, int sm, uint64_t now, int thread);
void sim_xbar_rest(sim_memsys *m, uint64_t now);
void sim_xbar_check(const sim_memsys *m);

/* l2.c */
void sim_l2_tick(sim_memsys *m, int sub, uint64_t now);
void sim_l2_from_dram(sim_memsys *m, const sim_pkt *p, uint64_t now);
int sim_l2_dram_room(const sim_memsys *m, const sim_pkt *p);

/* dram.c */
int sim_dram_init(sim_memsys *m, sim_channel *ch);
void sim_dram_free(sim_channel *ch);
void sim_dram_tick(sim_memsys *m, int chan, uint64_t tick, uint64_t now);

#endif
