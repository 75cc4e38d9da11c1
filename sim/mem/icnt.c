/*
 * icnt.c - the interconnect between SMs and L2 sub-partitions, both ways.
 * A packet of n flits leaves its source port at F flits per icnt cycle,
 * reaches its destination after a fixed latency, and is received through
 * the destination's port at the same rate; ports are reservation timelines
 * (first free tick), so the cost is per packet, not per flit or per cycle.
 * Owns arbitration (rotating priority), port bandwidth and flit counts;
 * must not look inside caches. GPGPU-Sim's booksim topology (.icnt file) is
 * not modelled: -trapeze_icnt_latency and -trapeze_icnt_flits_per_cycle
 * replace it. -network_mode 2 (GPGPU-Sim's local crossbar) is xbar.c's.
 */
#include "sim/mem/memsys_impl.h"

/* Reserves source and destination ports for a packet injected at `tick`;
 * returns the icnt tick in which its last flit has been received. */
static uint64_t transfer(sim_memsys *m, uint64_t *src_free, uint64_t *dst_free, uint64_t tick,
                         uint32_t payload)
{
    int flits = sim_flits(m, payload + SIM_PKT_HEADER_BYTES);
    uint64_t ser = (uint64_t)((flits + m->cfg.icnt_flits_per_cycle - 1) /
                              m->cfg.icnt_flits_per_cycle);
    *src_free = tick + ser;
    uint64_t start = tick + (uint64_t)m->cfg.icnt_latency;
    if (start < *dst_free)
        start = *dst_free;
    *dst_free = start + ser;
    m->stats.icnt_flits += (uint64_t)flits;
    sim_ev(m->events, SIM_EV_ICNT_FLIT, (uint64_t)flits);
    return start + ser - 1;
}

static void inject_up(sim_memsys *m, int s, uint64_t tick, uint64_t now)
{
    sim_sm_port *p = &m->sm[s];
    if (!p->missq.count || p->inj_free > tick)
        return;
    sim_pkt *pk = sim_ring_front(&p->missq);
    sim_subpart *d = &m->sub[pk->sub];
    if (pk->ready > now || d->l2q.count >= (uint32_t)m->cfg.q_icnt_l2)
        return;
    uint64_t done = transfer(m, &p->inj_free, &d->ej_free, tick, sim_pkt_payload_up(pk));
    sim_pkt moved = *pk;
    moved.ready = sim_clock_core_cycle(&m->clk[SIM_CLK_ICNT], done) +
                  (uint64_t)m->cfg.rop_latency;
    sim_ring_pop(&p->missq);
    p->version++;
    sim_ring_push(&d->rop, &moved);
    m->stats.icnt_packets_up++;
    sim_sm_update_active(m, s);
    sim_sub_update_active(m, moved.sub);
}

static void inject_down(sim_memsys *m, int s, uint64_t tick, uint64_t now)
{
    sim_subpart *p = &m->sub[s];
    if (!p->respq.count || p->inj_free > tick)
        return;
    sim_pkt *pk = sim_ring_front(&p->respq);
    if (pk->ready > now)
        return;
    sim_sm_port *d = &m->sm[pk->req.sm];
    uint64_t done = transfer(m, &p->inj_free, &d->ej_free, tick, sim_pkt_payload_down(pk));
    sim_pkt moved = *pk;
    moved.ready = sim_clock_core_cycle(&m->clk[SIM_CLK_ICNT], done);
    sim_ring_pop(&p->respq);
    sim_ring_push(&d->replies, &moved);
    m->stats.icnt_packets_down++;
    sim_sub_update_active(m, s);
    sim_sm_update_active(m, moved.req.sm);
}

/* One icnt cycle. Sources are served in index order starting from a
 * position that rotates every cycle, so no port is favoured for long. */
void sim_icnt_tick(sim_memsys *m, uint64_t tick)
{
    if (m->cfg.use_xbar) {
        sim_xbar_tick(m, tick);
        return;
    }
    uint64_t now = sim_clock_core_cycle(&m->clk[SIM_CLK_ICNT], tick);
    int i;
    SIM_BITS_FOREACH(&m->sm_active, i)
        if (i >= m->rr_sm)
            inject_up(m, i, tick, now);
    SIM_BITS_FOREACH(&m->sm_active, i)
        if (i < m->rr_sm)
            inject_up(m, i, tick, now);
    SIM_BITS_FOREACH(&m->sub_active, i)
        if (i >= m->rr_sub)
            inject_down(m, i, tick, now);
    SIM_BITS_FOREACH(&m->sub_active, i)
        if (i < m->rr_sub)
            inject_down(m, i, tick, now);
    m->rr_sm = (m->rr_sm + 1) % m->n_sm;
    m->rr_sub = (m->rr_sub + 1) % m->n_subs;
}
