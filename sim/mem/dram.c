/*
 * dram.c - one DRAM channel: banks with row buffers, an FR-FCFS scheduler
 * over a bounded request queue, and the GDDR timing constraints CL, WL,
 * RCD, RP, RAS, RC, RRD, CCD, CCDL (bank groups), CDLR, WR and RTPL, all in
 * DRAM command cycles. A request moves ceil(bytes / atom) atoms, one column
 * command each; an atom occupies the data bus for BL / data_command_freq
 * command cycles. One command per cycle (a single command bus), or with
 * -dram_dual_bus_interface 1 one row (ACT/PRE) and one column (READ/WRITE)
 * command per cycle, as GPGPU-Sim's dram_t::cycle issues them. Rows stay
 * open until another row of the bank is needed (open-page policy).
 * Owns DRAM timing only; what a finished request does next is l2.c's.
 *
 * FR-FCFS: the oldest request that hits an open row and can issue its
 * column command now goes first; otherwise the oldest request whose bank
 * is free of pending row hits gets its PRE or ACT when timing allows.
 *
 * Between the L2 and the scheduler a request waits -dram_latency core
 * cycles: by default at the head of its bounded L2->DRAM queue; with
 * -trapeze_dram_latency_queue 1 as GPGPU-Sim's memory_partition_unit::
 * dram_cycle has it, in an unbounded latency queue per channel that takes
 * one request a DRAM cycle from the sub-partitions' L2->DRAM queues (round
 * robin after the last taker) while the scheduler's queue has room, the
 * sub-partition's DRAM->L2 queue is not full and it holds a credit (one
 * private, the rest shared: FR-FCFS queue plus return queue), given back
 * when its data leaves the channel. The L2->DRAM queue then stays short,
 * and a channel keeps up to about that many requests in flight where the
 * bounded queue allows its size per sub-partition.
 *
 * -gpgpu_simple_dram_model 1 (GPGPU-Sim's simple_dram_model_cycle) leaves
 * banks, rows and timing out: a channel serves one request per DRAM cycle,
 * whatever its size, once its -dram_latency has passed.
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/mem/memsys_impl.h"

/* GPGPU-Sim's -dram_bnkgrp_indexing_policy: 1 takes the bank's low bits. */
static inline int bank_group(const sim_memsys *m, int bank)
{
    const sim_dram_timing *t = &m->cfg.t;
    return m->cfg.bnkgrp_lower ? bank % t->nbkgrp : bank / (t->nbk / t->nbkgrp);
}

int sim_dram_init(sim_memsys *m, sim_channel *ch)
{
    const sim_mem_config *c = &m->cfg;
    memset(ch, 0, sizeof *ch);
    ch->decoded.line = SIM_DECODE_NONE;
    ch->banks = calloc((size_t)c->t.nbk, sizeof *ch->banks);
    ch->t_col_grp = calloc((size_t)c->t.nbkgrp, sizeof *ch->t_col_grp);
    ch->pool = calloc((size_t)c->sched_queue, sizeof *ch->pool);
    ch->free_ids = calloc((size_t)c->sched_queue, sizeof *ch->free_ids);
    ch->credit_private = calloc((size_t)c->n_sub, sizeof *ch->credit_private);
    ch->last_borrower = c->n_sub - 1;
    if (!ch->banks || !ch->t_col_grp || !ch->pool || !ch->free_ids ||
        !ch->credit_private || !sim_ring_init(&ch->returning, 16) ||
        !sim_ring_init(&ch->latency, 16))
        return 0;
    for (int b = 0; b < c->t.nbk; b++) {
        ch->banks[b].row = -1;
        ch->banks[b].head = ch->banks[b].tail = -1;
        ch->banks[b].hit = -1;
        ch->banks[b].grp = (int16_t)bank_group(m, b);
    }
    for (int i = 0; i < c->sched_queue; i++)
        ch->free_ids[i] = c->sched_queue - 1 - i;
    ch->n_free = c->sched_queue;
    return 1;
}

void sim_dram_free(sim_channel *ch)
{
    free(ch->banks);
    free(ch->t_col_grp);
    free(ch->pool);
    free(ch->free_ids);
    free(ch->credit_private);
    sim_ring_free(&ch->returning);
    sim_ring_free(&ch->latency);
}

static int is_write(const sim_dreq *r)
{
    return r->pkt.kind == SIM_PKT_WRITE || r->pkt.kind == SIM_PKT_WRITEBACK;
}

/* The sub-partition whose request the channel takes next: rotating
 * between them, the first whose head has waited its -dram_latency; -1 if
 * none has. */
static int next_sub(const sim_memsys *m, int c, sim_channel *ch, uint64_t now)
{
    int n_sub = m->cfg.n_sub;
    for (int i = 0; i < n_sub; i++) {
        int s = c * n_sub + (ch->rr_sub + i) % n_sub;
        const sim_ring *q = &m->sub[s].to_dram;
        if (q->count && q->items[q->head].ready <= now) {
            ch->rr_sub = (ch->rr_sub + i + 1) % n_sub;
            return s;
        }
    }
    return -1;
}

/* The latency queue's head if it has waited its -dram_latency, else NULL. */
static sim_ring *latency_ready(sim_channel *ch, uint64_t now)
{
    return ch->latency.count && sim_ring_front(&ch->latency)->ready <= now ? &ch->latency
                                                                             : NULL;
}

/* The queue whose head the scheduler takes next, NULL if none is ready. */
static sim_ring *next_queue(sim_memsys *m, int c, sim_channel *ch, uint64_t now)
{
    if (m->cfg.latency_queue)
        return latency_ready(ch, now);
    int s = next_sub(m, c, ch, now);
    return s < 0 ? NULL : &m->sub[s].to_dram;
}

/* Takes one request per DRAM cycle into the scheduler's queue. */
static void intake(sim_memsys *m, int c, sim_channel *ch, uint64_t now)
{
    sim_ring *q;
    if (ch->n_free == 0 || (q = next_queue(m, c, ch, now)) == NULL)
        return;
    {
        int id = ch->free_ids[--ch->n_free];
        sim_dreq *r = &ch->pool[id];
        memset(r, 0, sizeof *r);
        r->pkt = *sim_ring_front(q);
        sim_ring_pop(q);
        sim_dram_addr da = sim_addrmap_decode_memo(&m->cfg.map, &ch->decoded, r->pkt.line);
        r->seq = ch->seq++;
        r->row = da.row;
        r->bank = (int16_t)da.bank;
        uint32_t atom = (uint32_t)m->cfg.atom_bytes;
        r->atoms_left = (int16_t)(r->pkt.bytes ? (r->pkt.bytes + atom - 1) / atom : 1);
        r->next = -1;
        sim_bank *b = &ch->banks[da.bank];
        if (b->tail >= 0)
            ch->pool[b->tail].next = id;
        else
            b->head = id;
        b->tail = id;
        if (b->hit == -1 && (int64_t)r->row == b->row)
            b->hit = id;   /* the only hit, so the oldest (an older one would be b->hit) */
        ch->pending_banks |= 1ull << da.bank;
        ch->n_queued++;
        if (!m->cfg.latency_queue)
            sim_sub_update_active(m, (int)r->pkt.sub);
    }
}

/* GPGPU-Sim's arbitration_metadata::has_credits, for the channel's local
 * sub-partition i. */
static int has_credit(const sim_memsys *m, const sim_channel *ch, int i)
{
    return ch->credit_private[i] < 1 || m->cfg.dram_credits == 0 ||
           ch->credit_shared < m->cfg.dram_credits;
}

/* One request a DRAM cycle from the first sub-partition after the last
 * taker whose L2->DRAM queue has one, whose DRAM->L2 queue is not full and
 * that holds a credit, into the latency queue, while the scheduler's queue
 * has room (GPGPU-Sim's dram_cycle asks m_dram->full(), not the latency
 * queue's length). */
static void take_to_latency(sim_memsys *m, int c, sim_channel *ch, uint64_t now)
{
    int n_sub = m->cfg.n_sub;
    if (ch->n_free == 0)   /* the scheduler's queue is full */
        return;
    for (int k = 1; k <= n_sub; k++) {
        int i = (ch->last_borrower + k) % n_sub, s = c * n_sub + i;
        sim_subpart *p = &m->sub[s];
        if (!p->to_dram.count || p->fillq.count >= (uint32_t)m->cfg.q_dram_l2 ||
            !has_credit(m, ch, i))
            continue;
        sim_pkt d = *sim_ring_front(&p->to_dram);
        sim_ring_pop(&p->to_dram);
        d.ready = now + (uint64_t)m->cfg.dram_latency;
        sim_ring_push(&ch->latency, &d);
        if (ch->credit_private[i] < 1)
            ch->credit_private[i]++;
        else
            ch->credit_shared++;
        ch->last_borrower = i;
        return;
    }
}

/* The credit of a request whose data has left the channel. */
static void return_credit(const sim_memsys *m, sim_channel *ch, const sim_pkt *p)
{
    int i = p->sub % m->cfg.n_sub;
    if (ch->credit_private[i] > 0)
        ch->credit_private[i]--;
    else
        ch->credit_shared--;
    TRAPEZE_ASSERT(ch->credit_shared >= 0);
}

/* The bytes a request moves, in whole atoms, and their counters. */
static void count_data(sim_memsys *m, int wr, uint32_t bytes)
{
    uint32_t atom = (uint32_t)m->cfg.atom_bytes, atoms = bytes ? (bytes + atom - 1) / atom : 1;
    if (wr) {
        m->stats.dram_writes++;
        m->stats.dram_bytes_written += (uint64_t)atoms * atom;
    } else {
        m->stats.dram_reads++;
        m->stats.dram_bytes_read += (uint64_t)atoms * atom;
    }
    sim_ev(m->events, wr ? SIM_EV_DRAM_WRITE : SIM_EV_DRAM_READ, atoms);
}

/* -gpgpu_simple_dram_model: one request per DRAM cycle is served at once
 * (no bank, row or bus; its latency was -dram_latency's). */
static void simple_serve(sim_memsys *m, int c, sim_channel *ch, uint64_t tick, uint64_t now)
{
    int s = next_sub(m, c, ch, now);
    if (s < 0)
        return;
    sim_ring *q = &m->sub[s].to_dram;
    sim_pkt done = *sim_ring_front(q);
    sim_ring_pop(q);
    count_data(m, done.kind == SIM_PKT_WRITE || done.kind == SIM_PKT_WRITEBACK, done.bytes);
    done.ready = tick;
    sim_ring_push(&ch->returning, &done);
    sim_sub_update_active(m, s);
}

static int col_ready(const sim_memsys *m, const sim_channel *ch, const sim_bank *b,
                     const sim_dreq *r, uint64_t k)
{
    const sim_dram_timing *t = &m->cfg.t;
    int grp = b->grp;
    if (k < b->t_col || k < ch->t_col_any || k < ch->t_col_grp[grp])
        return 0;
    if (is_write(r))
        return k + (uint64_t)t->WL >= ch->bus_free;
    return k >= ch->t_rd_ok && k + (uint64_t)t->CL >= ch->bus_free &&
           ch->returning.count < (uint32_t)m->cfg.return_queue;
}

static void unlink(sim_channel *ch, sim_bank *b, int id)
{
    if (b->head == id && b->tail == id)   /* its last request */
        ch->pending_banks &= ~(1ull << (b - ch->banks));
    if (b->hit == id)
        b->hit = SIM_BANK_HIT_UNKNOWN;
    int prev = -1;
    for (int i = b->head; i != id; i = ch->pool[i].next)
        prev = i;
    if (prev < 0)
        b->head = ch->pool[id].next;
    else
        ch->pool[prev].next = ch->pool[id].next;
    if (b->tail == id)
        b->tail = prev;
}

static void issue_col(sim_memsys *m, sim_channel *ch, int id, uint64_t k)
{
    const sim_dram_timing *t = &m->cfg.t;
    sim_dreq *r = &ch->pool[id];
    sim_bank *b = &ch->banks[r->bank];
    int grp = b->grp, wr = is_write(r);
    uint64_t burst = (uint64_t)m->cfg.burst_cycles;
    uint64_t data = k + (uint64_t)(wr ? t->WL : t->CL);
    ch->bus_free = data + burst;
    ch->t_col_any = k + (uint64_t)t->CCD;
    ch->t_col_grp[grp] = k + (uint64_t)t->CCDL;
    if (wr) {
        uint64_t recovery = data + burst + (uint64_t)t->WR;
        if (b->t_pre < recovery)
            b->t_pre = recovery;
        ch->t_rd_ok = data + burst + (uint64_t)t->CDLR;
    } else {
        uint64_t rtp = k + (uint64_t)(t->RTPL > 0 ? t->RTPL : m->cfg.burst_cycles);
        if (b->t_pre < rtp)
            b->t_pre = rtp;
    }
    if (!r->started) {
        r->started = 1;
        if (r->activated)
            m->stats.dram_row_misses++;
        else
            m->stats.dram_row_hits++;
    }
    m->stats.dram_busy_cycles += burst;
    if (wr) {
        m->stats.dram_bytes_written += (uint64_t)m->cfg.atom_bytes;
        sim_ev(m->events, SIM_EV_DRAM_WRITE, 1);
    } else {
        m->stats.dram_bytes_read += (uint64_t)m->cfg.atom_bytes;
        sim_ev(m->events, SIM_EV_DRAM_READ, 1);
    }
    if (--r->atoms_left > 0)
        return;
    /* Served: the data bus orders completions, so `returning` stays sorted. */
    if (wr)
        m->stats.dram_writes++;
    else
        m->stats.dram_reads++;
    sim_pkt done = r->pkt;
    done.ready = ch->bus_free;
    sim_ring_push(&ch->returning, &done);
    unlink(ch, b, id);
    ch->free_ids[ch->n_free++] = id;
    ch->n_queued--;
}

/* The oldest request of bank b that hits its open row, or -1; remembered
 * in b->hit until a request leaves or the row changes. */
static int oldest_hit(const sim_channel *ch, sim_bank *b)
{
    if (b->hit != SIM_BANK_HIT_UNKNOWN) {
        TRAPEZE_ASSERT(b->hit < 0 || (int64_t)ch->pool[b->hit].row == b->row);
        return b->hit;
    }
    b->hit = -1;
    for (int i = b->head; i >= 0; i = ch->pool[i].next)
        if ((int64_t)ch->pool[i].row == b->row) {
            b->hit = i;
            break;
        }
    return b->hit;
}

static int try_column(sim_memsys *m, sim_channel *ch, uint64_t k)
{
    const sim_dram_timing *t = &m->cfg.t;
    int latest = t->CL > t->WL ? t->CL : t->WL;
    /* Most cycles no column command can issue at all: skip the search. */
    if (k < ch->t_col_any || k + (uint64_t)latest < ch->bus_free)
        return 0;
    int best = -1;
    for (uint64_t pend = ch->pending_banks; pend; pend &= pend - 1) {
        sim_bank *b = &ch->banks[__builtin_ctzll(pend)];
        if (b->row < 0)
            continue;
        int id = oldest_hit(ch, b);
        if (id >= 0 && col_ready(m, ch, b, &ch->pool[id], k) &&
            (best < 0 || ch->pool[id].seq < ch->pool[best].seq))
            best = id;
    }
    if (best < 0)
        return 0;
    issue_col(m, ch, best, k);
    return 1;
}

static void try_row(sim_memsys *m, sim_channel *ch, uint64_t k)
{
    const sim_dram_timing *t = &m->cfg.t;
    int best = -1;
    for (uint64_t pend = ch->pending_banks; pend; pend &= pend - 1) {
        sim_bank *b = &ch->banks[__builtin_ctzll(pend)];
        sim_dreq *r = &ch->pool[b->head];
        int ok;
        if (b->row < 0)
            ok = k >= b->t_act && k >= ch->t_act_any;
        else
            ok = oldest_hit(ch, b) < 0 && k >= b->t_pre;
        if (ok && (best < 0 || r->seq < ch->pool[best].seq))
            best = b->head;
    }
    if (best < 0)
        return;
    sim_dreq *r = &ch->pool[best];
    sim_bank *b = &ch->banks[r->bank];
    b->hit = SIM_BANK_HIT_UNKNOWN;   /* the row changes */
    if (b->row < 0) {
        b->row = (int64_t)r->row;
        b->t_col = k + (uint64_t)t->RCD;
        b->t_pre = k + (uint64_t)t->RAS;
        b->t_act = k + (uint64_t)t->RC;
        ch->t_act_any = k + (uint64_t)t->RRD;
        r->activated = 1;
        m->stats.dram_activates++;
        sim_ev(m->events, SIM_EV_DRAM_ACTIVATE, 1);
    } else {
        b->row = -1;
        if (b->t_act < k + (uint64_t)t->RP)
            b->t_act = k + (uint64_t)t->RP;
        m->stats.dram_precharges++;
        sim_ev(m->events, SIM_EV_DRAM_PRECHARGE, 1);
    }
}

/* Served requests go on to their sub-partition in order while it has room. */
static void deliver(sim_memsys *m, sim_channel *ch, uint64_t tick, uint64_t now)
{
    while (ch->returning.count && sim_ring_front(&ch->returning)->ready <= tick &&
           sim_l2_dram_room(m, sim_ring_front(&ch->returning))) {
        if (m->cfg.latency_queue)
            return_credit(m, ch, sim_ring_front(&ch->returning));
        sim_l2_from_dram(m, sim_ring_front(&ch->returning), now);
        sim_ring_pop(&ch->returning);
    }
}

/* One DRAM command cycle `tick`, which falls in core cycle `now`. */
void sim_dram_tick(sim_memsys *m, int c, uint64_t tick, uint64_t now)
{
    sim_channel *ch = &m->chan[c];
    deliver(m, ch, tick, now);
    if (m->cfg.simple_dram) {   /* served now, delivered in this cycle when there is room */
        simple_serve(m, c, ch, tick, now);
        deliver(m, ch, tick, now);
        sim_chan_update_active(m, c);
        return;
    }
    if (!m->cfg.latency_queue)
        intake(m, c, ch, now);
    /* The column command goes first: a PRE in the same cycle then sees the
     * bank's t_pre that this READ or WRITE just moved (no PRE under it). */
    if (ch->n_queued && (!try_column(m, ch, tick) || m->cfg.dual_bus) && ch->n_queued)
        try_row(m, ch, tick);
    if (m->cfg.latency_queue) {   /* after the commands, as dram_cycle orders them */
        take_to_latency(m, c, ch, now);
        intake(m, c, ch, now);
    }
    sim_chan_update_active(m, c);
}
