/*
 * xbar.c - GPGPU-Sim 4's local crossbar (-network_mode 2, local_interconnect.cc),
 * the interconnect of SM7_QV100 and the other Volta-and-later shipped configs.
 * Two crossbars: requests (inputs: SMs, outputs: sub-partitions) and replies
 * (inputs: sub-partitions, outputs: SMs). A packet is one unit whatever its
 * size (GPGPU-Sim: "assume all the packets are one flit"). Each input has a
 * FIFO of -icnt_in_buffer_limit packets, each output one of
 * -icnt_out_buffer_limit. Every icnt cycle, with iSLIP (-icnt_arbiter_algo 1)
 * each output in index order that has room takes the head packet of the first
 * input, from its grant pointer on, whose head goes to it; the pointer then
 * moves past that input. An input whose head waits blocks the packets behind
 * it (head-of-line); one whose new head goes to a later output may send again
 * in the same cycle. Round robin (0): inputs from a rotating start, each sends
 * its head if the output has room and has taken nothing this cycle.
 *
 * One icnt cycle, in GPGPU-Sim's gpgpu_sim::cycle order: SMs pop one reply
 * each into their ejection buffer (-gpgpu_n_cluster_ejection_buffer_size),
 * which hands it to the L1 the next cycle; sub-partitions inject one reply
 * each (produced in an earlier cycle); sub-partitions pop one request each
 * when their icnt->L2 queue has room for a whole line's four sectors (it then
 * waits the ROP latency); SMs inject one request each; both crossbars advance.
 * A packet injected in cycle t is popped at t + 1 at the earliest.
 *
 * Flit mode (-trapeze_icnt_booksim 1 with -network_mode 1, for configs whose
 * GPGPU-Sim network is booksim's single-router "fly" with k = all nodes and
 * n = 1, one VC, as SM2_GTX480's config_fermi_islip.icnt): the same two
 * crossbars and arbitration, but a packet is its flits (8-byte header plus
 * data over -icnt_flit_size): a granted packet holds its input and its output
 * for one cycle per flit (wormhole, one VC: nothing else passes either), its
 * tail reaches the output -trapeze_icnt_latency cycles after its last flit
 * left (booksim's channel and router pipeline), and buffers count flits.
 * With a sectored L2, a reply of several sectors travels as one 1-flit packet
 * per sector (GPGPU-Sim breaks requests into sector requests at the L2 and
 * answers each), injected one a cycle; the SM pops each and hands the reply
 * to the L1 with its last.
 *
 * Owns the crossbar buffers and their arbitration; must not look inside
 * caches. Invariants (checked in the sanitizer build): an input buffer never
 * holds more than its limit (packets, or flits in flit mode), nor an output
 * buffer; want[o] has bit i set
 * exactly when input i's head packet goes to output o; n_pkts is the number of
 * packets in all buffers; an output whose buffer holds a packet is in held.
 */
#include <stdlib.h>

#include "common/assert.h"
#include "sim/mem/memsys_impl.h"

/* Destination output (local index) of a packet in net `reply`. */
static int dest_of(int reply, const sim_pkt *p) { return reply ? (int)p->req.sm : p->sub; }

/* Flits of packet p in net `reply` (1 outside flit mode). */
static int flits_of(const sim_memsys *m, int reply, const sim_pkt *p)
{
    if (!m->cfg.xbar_flits)
        return 1;
    if (p->icnt_part)
        return sim_flits(m, 32 + SIM_PKT_HEADER_BYTES);
    return sim_flits(m, (reply ? sim_pkt_payload_down(p) : sim_pkt_payload_up(p)) +
                            SIM_PKT_HEADER_BYTES);
}

static uint64_t *want_row(sim_xbar_net *n, int out) { return n->want + (size_t)out * n->in_words; }

static void want_set(sim_xbar_net *n, int in, int on)
{
    if (!n->in[in].count)
        return;
    int o = dest_of(n->reply, sim_ring_front(&n->in[in]));
    uint64_t *w = want_row(n, o) + (in >> 6), bit = 1ull << (in & 63);
    TRAPEZE_ASSERT(!!(*w & bit) != on);
    if (on) {
        *w |= bit;
        n->want_n[o]++;
    } else {
        *w &= ~bit;
        n->want_n[o]--;
    }
}

static int net_init(sim_xbar_net *n, int reply, int n_in, int n_out, int in_base, int total)
{
    n->reply = reply;
    n->n_in = n_in;
    n->n_out = n_out;
    n->in_base = in_base;
    n->total = total;
    n->in_words = (n_in + 63) / 64;
    n->in = calloc((size_t)n_in, sizeof *n->in);
    n->out = calloc((size_t)n_out, sizeof *n->out);
    n->next_node = calloc((size_t)n_out, sizeof *n->next_node);
    n->want = calloc((size_t)n_out * (size_t)n->in_words, sizeof *n->want);
    n->want_n = calloc((size_t)n_out, sizeof *n->want_n);
    n->issued = calloc((size_t)n_out, sizeof *n->issued);
    n->in_units = calloc((size_t)n_in, sizeof *n->in_units);
    n->out_units = calloc((size_t)n_out, sizeof *n->out_units);
    n->in_busy = calloc((size_t)n_in, sizeof *n->in_busy);
    n->out_busy = calloc((size_t)n_out, sizeof *n->out_busy);
    n->fresh = calloc((size_t)n_in, sizeof *n->fresh);
    n->held.n_words = (n_out + 63) / 64;
    n->held.w = calloc((size_t)n->held.n_words, sizeof *n->held.w);
    if (!n->in || !n->out || !n->next_node || !n->want || !n->want_n || !n->issued ||
        !n->in_units || !n->out_units || !n->in_busy || !n->out_busy || !n->fresh ||
        !n->held.w)
        return 0;
    for (int i = 0; i < n_in; i++)
        if (!sim_ring_init(&n->in[i], 8))
            return 0;
    for (int i = 0; i < n_out; i++)
        if (!sim_ring_init(&n->out[i], 8))
            return 0;
    return 1;
}

int sim_xbar_init(sim_memsys *m)
{
    sim_xbar *x = &m->xbar;
    int total = m->n_sm + m->n_subs;   /* GPGPU-Sim's device ids: SMs, then memory */
    x->grant_count = m->cfg.xbar_grant_cycles;
    x->reply_parts = calloc((size_t)m->n_subs, sizeof *x->reply_parts);
    return x->reply_parts && net_init(&x->net[0], 0, m->n_sm, m->n_subs, 0, total) &&
           net_init(&x->net[1], 1, m->n_subs, m->n_sm, m->n_sm, total);
}

static void net_free(sim_xbar_net *n)
{
    for (int i = 0; n->in && i < n->n_in; i++)
        sim_ring_free(&n->in[i]);
    for (int i = 0; n->out && i < n->n_out; i++)
        sim_ring_free(&n->out[i]);
    free(n->in);
    free(n->out);
    free(n->next_node);
    free(n->want);
    free(n->want_n);
    free(n->issued);
    free(n->in_units);
    free(n->out_units);
    free(n->in_busy);
    free(n->out_busy);
    free(n->fresh);
    free(n->held.w);
}

void sim_xbar_free(sim_memsys *m)
{
    free(m->xbar.acc);
    free(m->xbar.reply_parts);
    net_free(&m->xbar.net[0]);
    net_free(&m->xbar.net[1]);
}

int sim_xbar_has_room(const sim_memsys *m, int reply, int in, const sim_pkt *p)
{
    return m->xbar.net[reply].in_units[in] + flits_of(m, reply, p) <= m->cfg.xbar_in_limit;
}

/* Into input `in`'s buffer. `defer`: an SM's side of a split tick, where
 * other threads push into the same want rows: the bit is set by
 * sim_xbar_rest (any time before the arbitration: a set is a set). */
static void push(sim_memsys *m, int reply, int in, const sim_pkt *p, int defer,
                 sim_xbar_acc *a)
{
    sim_xbar_net *n = &m->xbar.net[reply];
    TRAPEZE_ASSERT(sim_xbar_has_room(m, reply, in, p));
    int was_empty = !n->in[in].count;
    sim_ring_push(&n->in[in], p);
    n->in_units[in] += flits_of(m, reply, p);
    if (was_empty && defer)
        n->fresh[in] = 1;
    else if (was_empty)
        want_set(n, in, 1);
    a->pkts++;
}

void sim_xbar_push(sim_memsys *m, int reply, int in, const sim_pkt *p)
{
    sim_xbar_acc a = {0};
    push(m, reply, in, p, 0, &a);
    m->xbar.n_pkts += (uint64_t)a.pkts;
}

/* Moves input `in`'s head to its output in cycle `now`: poppable from the
 * next cycle (flit mode: from the cycle after its tail arrives). */
static void move(sim_memsys *m, sim_xbar_net *n, int in, uint64_t now)
{
    want_set(n, in, 0);
    const sim_pkt *head = sim_ring_front(&n->in[in]);
    int o = dest_of(n->reply, head), f = flits_of(m, n->reply, head);
    sim_pkt *p = sim_ring_push_slot(&n->out[o]);   /* another ring's slot */
    *p = *head;
    sim_ring_pop(&n->in[in]);
    n->in_units[in] -= f;
    n->out_units[o] += f;
    p->ready = now + 1;
    if (m->cfg.xbar_flits) {
        n->in_busy[in] = n->out_busy[o] = now + (uint64_t)f;
        p->ready = now + (uint64_t)f + (uint64_t)m->cfg.icnt_latency;
    }
    sim_bits_set(&n->held, o, 1);   /* advance runs on one thread */
    want_set(n, in, 1);
}

/* Room in output o for input in's head. */
static int out_room(const sim_memsys *m, const sim_xbar_net *n, int o, int in)
{
    return n->out_units[o] + flits_of(m, n->reply, sim_ring_front(&n->in[in])) <=
           m->cfg.xbar_out_limit;
}

/* The first input, in circular order from local index `start` (0 <= start
 * < n_in), whose bit is set in row w; -1 if none. A row has no bit past
 * n_in, so that is the first set bit from start on, else the first of all. */
static int first_from(const sim_xbar_net *n, const uint64_t *w, int start)
{
    int wd0 = start >> 6;
    uint64_t bits = w[wd0] & (~0ull << (start & 63));
    if (bits)
        return wd0 * 64 + __builtin_ctzll(bits);
    for (int wd = wd0 + 1; wd < n->in_words; wd++)
        if (w[wd])
            return wd * 64 + __builtin_ctzll(w[wd]);
    for (int wd = 0; wd <= wd0; wd++)
        if (w[wd])
            return wd * 64 + __builtin_ctzll(w[wd]);
    return -1;
}

/* iSLIP: an output with room takes the first input from its pointer whose
 * head goes to it (GPGPU-Sim checks the room before looking at the head, in
 * packets; flit mode checks the head's flits). Flit mode: a busy output
 * grants nothing, a busy input is passed over. */
static void islip(sim_memsys *m, sim_xbar_net *n, int update_pointers, uint64_t now)
{
    for (int o = 0; o < n->n_out; o++) {
        if (!n->want_n[o] || n->out_busy[o] > now)
            continue;
        /* the pointer ranges over all device ids; inputs of this net are
         * in_base .. in_base + n_in - 1, so a pointer outside wraps to 0 */
        int start = n->next_node[o] - n->in_base;
        if (start < 0 || start >= n->n_in)
            start = 0;
        const uint64_t *w = want_row(n, o);
        int in = first_from(n, w, start), tried = 0;
        TRAPEZE_ASSERT(in >= 0);
        while (n->in_busy[in] > now) {   /* flit mode only */
            if (++tried == n->want_n[o]) {
                in = -1;
                break;
            }
            in = first_from(n, w, (in + 1) % n->n_in);
        }
        if (in < 0 || !out_room(m, n, o, in))
            continue;
        move(m, n, in, now);
        if (update_pointers)
            n->next_node[o] = (n->in_base + in + 1) % n->total;
    }
}

static void round_robin(sim_memsys *m, sim_xbar_net *n, uint64_t now)
{
    for (int o = 0; o < n->n_out; o++)
        n->issued[o] = 0;
    for (int k = 0; k < n->total; k++) {
        int in = (k + n->rr_next) % n->total - n->in_base;
        if (in < 0 || in >= n->n_in || !n->in[in].count || n->in_busy[in] > now)
            continue;
        int o = dest_of(n->reply, sim_ring_front(&n->in[in]));
        if (out_room(m, n, o, in) && !n->issued[o] && n->out_busy[o] <= now) {
            move(m, n, in, now);
            n->issued[o] = 1;
        }
    }
    n->rr_next = (n->rr_next + 1) % n->total;
}

static int net_busy_in(const sim_xbar_net *n)
{
    for (int o = 0; o < n->n_out; o++)
        if (n->want_n[o])
            return 1;
    return 0;
}

/* GPGPU-Sim advances the two subnets in turn, each with its own grant
 * counter; one counter here, ticked when either is active, is the same for
 * the default -icnt_grant_cycles 1. */
static void advance(sim_memsys *m, uint64_t now)
{
    sim_xbar *x = &m->xbar;
    int active = net_busy_in(&x->net[0]) || net_busy_in(&x->net[1]);
    for (int r = 0; r < 2; r++) {
        if (m->cfg.xbar_islip)
            islip(m, &x->net[r], x->grant_count == 1, now);
        else
            round_robin(m, &x->net[r], now);
    }
    if (active && x->grant_count == 1)
        x->grant_count = m->cfg.xbar_grant_cycles;
    else if (active)
        x->grant_count--;
}

/* Sector replies a reply travels as: flit mode with a sectored L2, a read of
 * more than one sector; else 1. */
static int sector_parts(const sim_memsys *m, const sim_pkt *p)
{
    if (!m->cfg.xbar_flits || !m->cfg.l2.enabled || !m->cfg.l2.sectored ||
        p->kind != SIM_PKT_READ || p->bytes <= 32)
        return 1;
    return (int)((p->bytes + 31) / 32);
}

/* SM s pops one reply into its ejection buffer (the replies ring); the L1
 * takes it a cycle later (GPGPU-Sim: the cluster's response FIFO, then the
 * LDST unit's). */
static void sm_eject(sim_memsys *m, int s, uint64_t now, sim_xbar_acc *a)
{
    sim_ring *o = &m->xbar.net[1].out[s];
    sim_sm_port *p = &m->sm[s];
    if (!o->count || sim_ring_front(o)->ready > now ||
        p->replies.count >= (uint32_t)m->cfg.xbar_ejection)
        return;
    const sim_pkt *pk = sim_ring_front(o);
    m->xbar.net[1].out_units[s] -= flits_of(m, 1, pk);
    a->pkts--;
    if (pk->icnt_part && pk->icnt_part < sector_parts(m, pk)) {
        sim_ring_pop(o);
        return;   /* the L1 waits for the last sector (GPGPU-Sim's sector MSHR) */
    }
    sim_pkt *d = sim_ring_push_slot(&p->replies);
    *d = *pk;
    sim_ring_pop(o);
    d->icnt_part = 0;
    d->ready = now + 1;
    sim_sm_update_active(m, s);
}

/* Sub-partition d pops one request when its icnt->L2 queue has room for a
 * line's four sectors (GPGPU-Sim: full(SECTOR_CHUNCK_SIZE)). */
static void sub_eject(sim_memsys *m, int d, uint64_t now, sim_xbar_acc *a)
{
    sim_ring *o = &m->xbar.net[0].out[d];
    sim_subpart *p = &m->sub[d];
    if (!o->count || sim_ring_front(o)->ready > now ||
        p->l2q.count + 4 > (uint32_t)m->cfg.q_icnt_l2)
        return;
    sim_pkt *r = sim_ring_push_slot(&p->rop);
    *r = *sim_ring_front(o);
    sim_ring_pop(o);
    m->xbar.net[0].out_units[d] -= flits_of(m, 0, r);
    a->pkts--;
    r->ready = now + (uint64_t)m->cfg.rop_latency;
    sim_sub_update_active(m, d);
}

/* The outputs of net `reply` that hold a packet eject (sm_eject, sub_eject)
 * in index order, as a pass over every output does: an empty buffer ejects
 * nothing, and an output's ejection touches no other output's buffer. Most
 * outputs are empty in most ticks (80 SMs and 64 sub-partitions on the
 * V100). A bit found empty is cleared here, on one thread; a split tick's
 * SM side (sim_xbar_sm_side) pops without clearing: the set may hold more
 * outputs than have packets, never fewer (sim_xbar_check). */
static void eject_held(sim_memsys *m, int reply, uint64_t now, sim_xbar_acc *a)
{
    sim_xbar_net *n = &m->xbar.net[reply];
    int o;
    SIM_BITS_FOREACH(&n->held, o) {
        if (reply)
            sm_eject(m, o, now, a);
        else
            sub_eject(m, o, now, a);
        if (!n->out[o].count)
            sim_bits_set(&n->held, o, 0);
    }
}

static void count_flits(sim_memsys *m, uint32_t payload, sim_xbar_acc *a)
{
    a->flits += (uint64_t)sim_flits(m, payload + SIM_PKT_HEADER_BYTES);
}

/* The counters an accumulator holds, added in (and it cleared). */
static void add_acc(sim_memsys *m, sim_xbar_acc *a)
{
    m->xbar.n_pkts += (uint64_t)a->pkts;
    m->stats.icnt_flits += a->flits;
    m->stats.icnt_packets_up += a->up;
    m->stats.icnt_packets_down += a->down;
    sim_ev(m->events, SIM_EV_ICNT_FLIT, a->flits);
    *a = (sim_xbar_acc){0};
}

static void sub_inject(sim_memsys *m, int d, uint64_t now, sim_xbar_acc *a)
{
    sim_subpart *p = &m->sub[d];
    /* a reply the L2 produced this cycle waits for the next: GPGPU-Sim
     * pushes replies to the icnt before its L2 cycle */
    if (!p->respq.count || sim_ring_front(&p->respq)->ready >= now)
        return;
    sim_pkt pk = *sim_ring_front(&p->respq);
    int parts = sector_parts(m, &pk);
    if (parts > 1)
        pk.icnt_part = (uint8_t)(m->xbar.reply_parts[d] + 1);
    if (!sim_xbar_has_room(m, 1, d, &pk))
        return;
    count_flits(m, parts > 1 ? 32 : sim_pkt_payload_down(&pk), a);
    push(m, 1, d, &pk, 0, a);
    if (parts > 1 && ++m->xbar.reply_parts[d] < parts)
        return;
    m->xbar.reply_parts[d] = 0;
    sim_ring_pop(&p->respq);
    a->down++;
    sim_sub_update_active(m, d);
}

static void sm_inject(sim_memsys *m, int s, uint64_t now, int defer, sim_xbar_acc *a)
{
    sim_sm_port *p = &m->sm[s];
    if (!p->missq.count || sim_ring_front(&p->missq)->ready > now || !sim_xbar_has_room(m, 0, s, sim_ring_front(&p->missq)))
        return;
    sim_pkt pk = *sim_ring_front(&p->missq);
    sim_ring_pop(&p->missq);
    p->version++;
    count_flits(m, sim_pkt_payload_up(&pk), a);
    push(m, 0, s, &pk, defer, a);
    a->up++;
    sim_sm_update_active(m, s);
}

/* The packet count is added in after each step, so that each sees the
 * count the step before left, as GPGPU-Sim's order gives. */
void sim_xbar_tick(sim_memsys *m, uint64_t tick)
{
    uint64_t now = sim_clock_core_cycle(&m->clk[SIM_CLK_ICNT], tick);
    sim_xbar *x = &m->xbar;
    sim_xbar_acc a = {0};
    int i;
    if (x->n_pkts)
        eject_held(m, 1, now, &a);
    add_acc(m, &a);
    SIM_BITS_FOREACH(&m->sub_active, i)
        sub_inject(m, i, now, &a);
    add_acc(m, &a);
    if (x->n_pkts)
        eject_held(m, 0, now, &a);
    SIM_BITS_FOREACH(&m->sm_active, i)
        sm_inject(m, i, now, 0, &a);
    add_acc(m, &a);
    if (x->n_pkts)
        advance(m, now);
    sim_xbar_check(m);
}

/* ---- one tick split across threads ---- */

int sim_xbar_set_threads(sim_memsys *m, int threads)
{
    sim_xbar *x = &m->xbar;
    free(x->acc);
    x->acc = NULL;
    x->n_acc = 0;
    if (threads <= 1)
        return 1;
    /* a line each: the threads add into them all through a cycle */
    x->acc = aligned_alloc(64, (size_t)threads * sizeof *x->acc);
    if (!x->acc)
        return 0;
    for (int i = 0; i < threads; i++)
        x->acc[i] = (sim_xbar_acc){0};
    x->n_acc = threads;
    return 1;
}

/* SM s's side, on the thread that ran its cycle: its port ejects a reply
 * and injects a request. It touches its port, its input of the request
 * net and its output of the reply net only; the packet count it reads is
 * the tick's start (unchanged until sim_xbar_rest), enough to skip an
 * empty crossbar. */
void sim_xbar_sm_side(sim_memsys *m, int s, uint64_t now, int thread)
{
    sim_xbar_acc *a = &m->xbar.acc[thread];
    if (m->xbar.n_pkts)
        sm_eject(m, s, now, a);
    if (m->sm[s].missq.count)
        sm_inject(m, s, now, 1, a);
}

/* The rest of the tick, on one thread after every SM's side (beside the
 * ports' queues, which touch neither crossbar): the sub-partitions inject
 * their replies and eject requests into their ROP queues; the counts are
 * added in and the request net's want bits of inputs that became non-empty
 * set; then both nets' arbitration, as sim_xbar_tick's advance. */
void sim_xbar_rest(sim_memsys *m, uint64_t now)
{
    sim_xbar *x = &m->xbar;
    sim_xbar_acc a = {0};
    int i;
    SIM_BITS_FOREACH(&m->sub_active, i)
        sub_inject(m, i, now, &a);
    if (x->n_pkts || a.pkts)
        eject_held(m, 0, now, &a);
    add_acc(m, &a);
    for (i = 0; i < x->n_acc; i++)
        add_acc(m, &x->acc[i]);
    sim_xbar_net *n = &x->net[0];
    for (int in = 0; in < n->n_in; in++)
        if (n->fresh[in]) {
            n->fresh[in] = 0;
            want_set(n, in, 1);
        }
    sim_xbar_check(m);
    if (x->n_pkts)
        advance(m, now);
}

/* The buffers' invariants (the file comment), in the sanitizer build. */
void sim_xbar_check(const sim_memsys *m)
{
#ifdef TRAPEZE_CHECKS
    const sim_xbar *x = &m->xbar;
    int i;
    uint64_t n = 0;
    for (int r = 0; r < 2; r++) {
        for (i = 0; i < x->net[r].n_in; i++) {
            TRAPEZE_ASSERT(x->net[r].in_units[i] <= m->cfg.xbar_in_limit);
            n += x->net[r].in[i].count;
        }
        for (i = 0; i < x->net[r].n_out; i++) {
            TRAPEZE_ASSERT(x->net[r].out_units[i] <= m->cfg.xbar_out_limit);
            n += x->net[r].out[i].count;
            TRAPEZE_ASSERT(!x->net[r].out[i].count ||
                           (x->net[r].held.w[i >> 6] >> (i & 63) & 1));
            const sim_xbar_net *nt = &x->net[r];   /* no want bit past n_in (first_from) */
            TRAPEZE_ASSERT(!(nt->n_in & 63) ||
                           !(nt->want[(size_t)(i + 1) * nt->in_words - 1] >> (nt->n_in & 63)));
        }
    }
    TRAPEZE_ASSERT(n == x->n_pkts);
#else
    (void)m;
#endif
}
