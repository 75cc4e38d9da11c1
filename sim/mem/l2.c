/*
 * l2.c - one L2 sub-partition (slice) and, when there is no L2, the memory
 * partition front that passes requests straight to DRAM. Owns the ROP
 * delay, the icnt->L2, L2->DRAM, DRAM->L2 and L2->icnt queues, the L2 tag
 * array and MSHRs, write-back and allocation policies, and the functional
 * side of atomics and volatile loads (performed when L2 accepts them, so
 * they take effect in arrival order). Must not model DRAM timing.
 *
 * One request is served per L2 cycle, in order: a request that cannot be
 * served (no line, MSHR, or queue space) blocks the slice, as GPGPU-Sim's
 * in-order icnt->L2 queue does. Lines are fetched whole (sectors are not
 * modelled); a write miss under a write-allocate policy installs the line
 * dirty without fetching it (GPGPU-Sim's lazy fetch, simplified).
 */
#include <string.h>

#include "sim/mem/memsys_impl.h"

/* Room for n more replies besides those held for a waiting fill. */
static int respq_room(const sim_memsys *m, const sim_subpart *p, uint32_t n)
{
    return p->respq.count + p->fill_held + n <= (uint32_t)m->cfg.q_l2_icnt;
}

static int dram_room(const sim_memsys *m, const sim_subpart *p, uint32_t n)
{
    return p->to_dram.count + n <= (uint32_t)m->cfg.q_l2_dram;
}

static void reply(sim_subpart *p, const sim_pkt *pk, uint64_t now)
{
    sim_pkt r = *pk;
    r.ready = now;
    sim_ring_push(&p->respq, &r);
}

static void to_dram(sim_memsys *m, sim_subpart *p, const sim_pkt *pk, int kind,
                    uint64_t line, uint32_t bytes, int done, uint64_t now)
{
    sim_pkt d = *pk;
    d.kind = (uint8_t)kind;
    d.line = line;
    d.bytes = bytes;
    d.dram_done = (uint8_t)done;
    d.ready = now + (uint64_t)m->cfg.dram_latency;
    sim_ring_push(&p->to_dram, &d);
    sim_chan_update_active(m, p->chan);
}

static void writeback(sim_memsys *m, sim_subpart *p, uint64_t line, uint64_t now)
{
    sim_pkt wb;
    memset(&wb, 0, sizeof wb);
    wb.sub = (int32_t)(p - m->sub);
    m->stats.l2.writebacks++;
    to_dram(m, p, &wb, SIM_PKT_WRITEBACK, line, SIM_LINE_BYTES, SIM_DRAM_DONE_NONE, now);
}

/* The functional effect, at the moment L2 accepts the request. */
static void perform(sim_memsys *m, sim_pkt *pk)
{
    uint64_t a = pk->req.addr;
    if (pk->kind == SIM_PKT_ATOMIC) {
        uint32_t old = sim_funcmem_get(&m->words, a);
        sim_funcmem_set(&m->words, a, old + pk->req.value);
        pk->req.value = old;
        m->stats.atomics_performed++;
    } else if (pk->kind == SIM_PKT_READ && (pk->req.flags & SIM_MEM_VOLATILE)) {
        pk->req.value = sim_funcmem_get(&m->words, a);
    } else if (pk->kind == SIM_PKT_WRITE && (pk->req.flags & SIM_MEM_STORE_VALUE)) {
        sim_funcmem_set(&m->words, a, pk->req.value);
    }
}

static void count_access(sim_memsys *m, int sub, const sim_pkt *pk, uint64_t now)
{
    sim_cache_stats *s = &m->stats.l2;
    s->accesses++;
    if (pk->kind == SIM_PKT_WRITE) {
        s->writes++;
        sim_ev(m, SIM_EV_L2_WRITE, 1);
    } else {
        if (pk->kind == SIM_PKT_ATOMIC) {
            s->atomics++;
            sim_ev(m, SIM_EV_L2_WRITE, 1);
        } else {
            s->reads++;
        }
        sim_ev(m, SIM_EV_L2_READ, 1);
    }
    sim_busy(m, SIM_UNIT_L2_BANK, sub, now);
}

/* No L2: reads, atomics and writes go to DRAM, which replies. */
static int serve_uncached(sim_memsys *m, sim_subpart *p, sim_pkt *pk, uint64_t now)
{
    if (!dram_room(m, p, 1))
        return 0;
    perform(m, pk);
    if (pk->kind == SIM_PKT_ATOMIC)
        m->stats.l2.atomics++;
    uint32_t bytes = pk->kind == SIM_PKT_ATOMIC ? 4 : pk->bytes;
    int kind = pk->kind == SIM_PKT_WRITE ? SIM_PKT_WRITE : SIM_PKT_READ;
    to_dram(m, p, pk, kind, pk->line, bytes, SIM_DRAM_DONE_REPLY, now);
    return 1;
}

static sim_fail_cause serve_read(sim_memsys *m, sim_subpart *p, sim_pkt *pk, uint64_t now)
{
    sim_cache *c = &p->l2;
    int way, sub = (int)(p - m->sub);
    sim_probe probe = sim_cache_probe(c, pk->line, &way);
    int on_miss = c->cfg.alloc == SIM_ALLOC_ON_MISS;
    if (probe == SIM_PROBE_HIT) {
        if (!respq_room(m, p, 1))
            return SIM_FAIL_COUNT; /* blocked on the reply queue: no cause of its own */
        sim_line *l = sim_cache_line(c, pk->line, way);
        sim_cache_touch(c, l);
        l->dirty |= pk->kind == SIM_PKT_ATOMIC;
        perform(m, pk);
        count_access(m, sub, pk, now);
        m->stats.l2.hits++;
        reply(p, pk, now);
        return SIM_FAIL_NONE;
    }
    if (probe == SIM_PROBE_FAIL && on_miss)
        return SIM_FAIL_LINE_ALLOC;
    int id;
    sim_fail_cause why = sim_cache_miss_entry(c, pk->line, probe, way, &id);
    if (why != SIM_FAIL_NONE)
        return why;
    if (id >= 0) {
        perform(m, pk);
        sim_line *l = sim_cache_miss_merge(c, id, pk, pk->line, probe, way);
        if (l)
            l->dirty |= pk->kind == SIM_PKT_ATOMIC;
        count_access(m, sub, pk, now);
        m->stats.l2.merges++;
        return SIM_FAIL_NONE;
    }
    sim_line *victim = on_miss ? sim_cache_line(c, pk->line, way) : NULL;
    int dirty_victim = victim && victim->state == SIM_LINE_VALID && victim->dirty;
    if (!dram_room(m, p, 1 + (uint32_t)dirty_victim))
        return SIM_FAIL_MISS_QUEUE;
    perform(m, pk);
    sim_line *reserved;
    sim_line old = sim_cache_miss_alloc(c, pk, pk->line, way, &reserved);
    if (reserved) {
        reserved->dirty = pk->kind == SIM_PKT_ATOMIC;
        if (old.state == SIM_LINE_VALID)
            m->stats.l2.evictions++;
        if (dirty_victim)
            writeback(m, p, old.addr, now);
    }
    count_access(m, sub, pk, now);
    m->stats.l2.misses++;
    to_dram(m, p, pk, SIM_PKT_FETCH, pk->line, SIM_LINE_BYTES, SIM_DRAM_DONE_FILL_L2, now);
    return SIM_FAIL_NONE;
}

static sim_fail_cause serve_write(sim_memsys *m, sim_subpart *p, sim_pkt *pk, uint64_t now)
{
    sim_cache *c = &p->l2;
    int way, sub = (int)(p - m->sub);
    sim_probe probe = sim_cache_probe(c, pk->line, &way);
    int through = c->cfg.wr == SIM_WR_THROUGH;
    int forward = through || ((probe == SIM_PROBE_MISS || probe == SIM_PROBE_FAIL) &&
                              c->cfg.wr_alloc == SIM_WALLOC_NONE);
    sim_line *l = probe == SIM_PROBE_FAIL ? NULL : sim_cache_line(c, pk->line, way);
    int allocate = probe == SIM_PROBE_MISS && c->cfg.wr_alloc != SIM_WALLOC_NONE;
    int dirty_victim = allocate && l->state == SIM_LINE_VALID && l->dirty;
    if (probe == SIM_PROBE_FAIL && !forward)
        return SIM_FAIL_LINE_ALLOC;
    if (!respq_room(m, p, 1))
        return SIM_FAIL_COUNT;
    if (!dram_room(m, p, (uint32_t)forward + (uint32_t)dirty_victim))
        return SIM_FAIL_MISS_QUEUE;
    perform(m, pk);
    count_access(m, sub, pk, now);
    if (probe == SIM_PROBE_HIT || probe == SIM_PROBE_HIT_RESERVED) {
        m->stats.l2.hits += probe == SIM_PROBE_HIT;
        m->stats.l2.merges += probe == SIM_PROBE_HIT_RESERVED;
        sim_cache_touch(c, l);
        l->dirty |= !through;
    } else {
        m->stats.l2.misses++;
        if (allocate) {
            sim_line old = sim_cache_install(c, pk->line, way, SIM_LINE_VALID);
            sim_cache_line(c, pk->line, way)->dirty = !through;
            if (old.state == SIM_LINE_VALID)
                m->stats.l2.evictions++;
            if (dirty_victim)
                writeback(m, p, old.addr, now);
        }
    }
    if (forward)
        to_dram(m, p, pk, SIM_PKT_WRITEBACK, pk->line, pk->bytes, SIM_DRAM_DONE_NONE, now);
    reply(p, pk, now);
    return SIM_FAIL_NONE;
}

/* A line from DRAM: install it and answer every request waiting on it.
 * It needs a reply slot per waiting request at once. While it waits for
 * them, the slots the icnt frees are held for it (fill_held): a stream of
 * hits that takes each slot as it frees (warps spinning on a barrier
 * counter in this slice) would otherwise starve the fill for ever. */
static int fill(sim_memsys *m, sim_subpart *p, const sim_pkt *pk, uint64_t now)
{
    sim_cache *c = &p->l2;
    int id = sim_cache_mshr_find(c, pk->line);
    if (id < 0)
        return 1; /* cannot happen: every fetch has its entry */
    uint32_t n = (uint32_t)c->mshr[id].n;
    p->fill_held = 0;
    if (!respq_room(m, p, n)) {
        p->fill_held = n;
        return 0;
    }
    sim_pkt *w = sim_cache_mshr_waiting(c, id);
    int dirty = 0;
    for (uint32_t i = 0; i < n; i++)
        dirty |= w[i].kind == SIM_PKT_ATOMIC;
    int way = sim_cache_fill_way(c, pk->line);
    int wb = way >= 0 && sim_cache_line(c, pk->line, way)->dirty &&
             sim_cache_evicted(sim_cache_line(c, pk->line, way), pk->line);
    if (wb && !dram_room(m, p, 1))
        return 0;   /* allocate-on-fill changed nothing yet: the fill is retried */
    if (way >= 0) {
        sim_line old = sim_cache_install(c, pk->line, way, SIM_LINE_VALID);
        sim_cache_line(c, pk->line, way)->dirty = (uint8_t)dirty;
        if (sim_cache_evicted(&old, pk->line))
            m->stats.l2.evictions++;
        if (wb)
            writeback(m, p, old.addr, now);
    }
    for (uint32_t i = 0; i < n; i++)
        reply(p, &w[i], now);
    sim_cache_mshr_release(c, id);
    m->stats.l2.fills++;
    sim_ev(m, SIM_EV_L2_FILL, 1);
    sim_busy(m, SIM_UNIT_L2_BANK, (int)(p - m->sub), now);
    return 1;
}

static void stall(sim_memsys *m, sim_fail_cause why)
{
    m->stats.l2.stall_cycles++;
    if (why < SIM_FAIL_COUNT) {
        m->stats.l2.reservation_fails++;
        m->stats.l2.fails[why]++;
    }
}

void sim_l2_tick(sim_memsys *m, int sub, uint64_t now)
{
    sim_subpart *p = &m->sub[sub];
    while (p->rop.count && sim_ring_front(&p->rop)->ready <= now &&
           p->l2q.count < (uint32_t)m->cfg.q_icnt_l2) {
        sim_ring_push(&p->l2q, sim_ring_front(&p->rop));
        sim_ring_pop(&p->rop);
    }
    if (p->fillq.count && sim_ring_front(&p->fillq)->ready <= now &&
        fill(m, p, sim_ring_front(&p->fillq), now))
        sim_ring_pop(&p->fillq);
    if (p->l2q.count) {
        sim_pkt *pk = sim_ring_front(&p->l2q);
        sim_fail_cause why;
        if (!m->cfg.l2.enabled)
            why = serve_uncached(m, p, pk, now) ? SIM_FAIL_NONE : SIM_FAIL_MISS_QUEUE;
        else if (pk->kind == SIM_PKT_WRITE)
            why = serve_write(m, p, pk, now);
        else
            why = serve_read(m, p, pk, now);
        if (why == SIM_FAIL_NONE)
            sim_ring_pop(&p->l2q);
        else
            stall(m, why);
    }
    sim_sub_update_active(m, sub);
}

int sim_l2_dram_room(const sim_memsys *m, const sim_pkt *p)
{
    const sim_subpart *s = &m->sub[p->sub];
    if (p->dram_done == SIM_DRAM_DONE_FILL_L2)
        return s->fillq.count < (uint32_t)m->cfg.q_dram_l2;
    if (p->dram_done == SIM_DRAM_DONE_REPLY)
        return respq_room(m, s, 1);
    return 1;
}

void sim_l2_from_dram(sim_memsys *m, const sim_pkt *p, uint64_t now)
{
    sim_subpart *s = &m->sub[p->sub];
    if (p->dram_done == SIM_DRAM_DONE_FILL_L2) {
        sim_pkt f = *p;
        f.ready = now;
        sim_ring_push(&s->fillq, &f);
    } else if (p->dram_done == SIM_DRAM_DONE_REPLY) {
        sim_pkt r = *p;
        r.kind = p->req.op == SIM_MEM_STORE ? SIM_PKT_WRITE
               : p->req.op == SIM_MEM_ATOMIC ? SIM_PKT_ATOMIC : SIM_PKT_READ;
        reply(s, &r, now);
    }
    sim_sub_update_active(m, p->sub);
}
