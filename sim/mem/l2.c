/*
 * l2.c - one L2 sub-partition (slice) and, when there is no L2, the memory
 * partition front that passes requests straight to DRAM. Owns the ROP
 * delay, the icnt->L2, L2->DRAM, DRAM->L2 and L2->icnt queues (with
 * -trapeze_l2_miss_queue 1 also GPGPU-Sim's L2 miss queue before the
 * L2->DRAM one), the L2 tag array and MSHRs, write-back and allocation
 * policies, and the functional side of atomics and volatile loads
 * (performed when L2 accepts them, so they take effect in arrival order).
 * Must not model DRAM timing.
 *
 * One request is served per L2 cycle, in order: a request that cannot be
 * served (no line, MSHR, or queue space) blocks the slice, as GPGPU-Sim's
 * in-order icnt->L2 queue does. Lines are fetched whole (sectors are not
 * modelled); a write miss under a write-allocate policy installs the line
 * dirty without fetching it (GPGPU-Sim's lazy fetch, simplified).
 */
#include <string.h>

#include "sim/mem/memsys_impl.h"
#include "sim/mem/popcount.h"

/* Room for n more replies besides those held for a waiting fill. */
static int respq_room(const sim_memsys *m, const sim_subpart *p, uint32_t n)
{
    return p->respq.count + p->fill_held + n <= (uint32_t)m->cfg.q_l2_icnt;
}

static int dram_room(const sim_memsys *m, const sim_subpart *p, uint32_t n)
{
    return p->to_dram.count + n <= (uint32_t)m->cfg.q_l2_dram;
}

/* Room for a request that sends n packets towards DRAM (a fetch or a write,
 * and a write-back). With GPGPU-Sim's L2 miss queue (-trapeze_l2_miss_queue
 * 1) the answer is data_cache's, which goes by the kind of request, not by
 * what it sends: a read that misses or merges needs two free entries
 * (rd_miss_base's miss_queue_full(1): a fetch and a write-back), a write one
 * (miss_queue_full(0)); a write-back is then pushed even past the size. */
static int down_room(const sim_memsys *m, const sim_subpart *p, int read, uint32_t n)
{
    if (!m->cfg.l2_miss_queue)
        return dram_room(m, p, n);
    return p->missq.count + (read ? 2u : 1u) <= (uint32_t)m->cfg.l2.miss_queue;
}

static void reply(sim_subpart *p, const sim_pkt *pk, uint64_t now)
{
    sim_pkt r = *pk;
    r.ready = now;
    sim_ring_push(&p->respq, &r);
}

static void push_dram(sim_memsys *m, sim_subpart *p, sim_pkt *d, uint64_t now)
{
    /* with GPGPU-Sim's latency queue the wait starts when DRAM takes it */
    d->ready = now + (uint64_t)(m->cfg.latency_queue ? 0 : m->cfg.dram_latency);
    sim_ring_push(&p->to_dram, d);
    sim_chan_update_active(m, p->chan);
}

/* A request for DRAM, sent at `now`: into the L2->DRAM queue, or with
 * GPGPU-Sim's L2 miss queue into that (move_missq passes it on). */
static void to_dram(sim_memsys *m, sim_subpart *p, const sim_pkt *pk, int kind,
                    uint64_t line, uint32_t bytes, int done, uint64_t now)
{
    sim_pkt d = *pk;
    d.kind = (uint8_t)kind;
    d.line = line;
    d.bytes = bytes;
    d.dram_done = (uint8_t)done;
    if (m->cfg.l2_miss_queue) {
        d.ready = now;
        sim_ring_push(&p->missq, &d);
        return;
    }
    push_dram(m, p, &d, now);
}

/* GPGPU-Sim's baseline_cache::cycle: the miss queue's head goes on to the
 * L2->DRAM queue if it has room, one a cycle, before the cycle's access. */
static void move_missq(sim_memsys *m, sim_subpart *p, uint64_t now)
{
    if (!p->missq.count || !dram_room(m, p, 1))
        return;
    sim_pkt d = *sim_ring_front(&p->missq);
    sim_ring_pop(&p->missq);
    push_dram(m, p, &d, d.ready > now ? d.ready : now);
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
        /* each word of the request once (lanes on one word are split into
         * requests of their own); it returns the old value of addr's */
        uint64_t seg = a & ~(uint64_t)(SIM_SECTOR_BYTES - 1);
        uint32_t words = pk->req.words ? pk->req.words : 1u << ((a - seg) / 4);
        uint32_t add = pk->req.value;
        for (; words; words &= words - 1) {
            uint64_t w = seg + 4u * (unsigned)__builtin_ctz(words);
            uint32_t old = sim_funcmem_get(&m->words, w);
            sim_funcmem_set(&m->words, w, old + add);
            if (w == (a & ~3ull))
                pk->req.value = old;
            m->stats.atomics_performed++;
        }
    } else if (pk->kind == SIM_PKT_READ && (pk->req.flags & SIM_MEM_VOLATILE)) {
        pk->req.value = sim_funcmem_get(&m->words, a);
    } else if (pk->kind == SIM_PKT_WRITE && (pk->req.flags & SIM_MEM_STORE_VALUE)) {
        sim_funcmem_set(&m->words, a, pk->req.value);
    }
}

/* Counts one access and returns its bank's wake-up stall. */
static uint32_t count_access(sim_memsys *m, int sub, const sim_pkt *pk, uint64_t now)
{
    sim_cache_stats *s = &m->stats.l2;
    s->accesses++;
    if (pk->kind == SIM_PKT_WRITE) {
        s->writes++;
        sim_ev(m->events, SIM_EV_L2_WRITE, 1);
    } else {
        if (pk->kind == SIM_PKT_ATOMIC) {
            s->atomics++;
            sim_ev(m->events, SIM_EV_L2_WRITE, 1);
        } else {
            s->reads++;
        }
        sim_ev(m->events, SIM_EV_L2_READ, 1);
    }
    return sim_busy_as(m->events, SIM_UNIT_L2_BANK, sub, now,
                       pk->kind == SIM_PKT_READ ? SIM_NEXT_READ : SIM_NEXT_WRITE);
}

/* No L2: reads, atomics and writes go to DRAM, which replies. */
static int serve_uncached(sim_memsys *m, sim_subpart *p, sim_pkt *pk, uint64_t now)
{
    if (!dram_room(m, p, 1))
        return 0;
    perform(m, pk);
    if (pk->kind == SIM_PKT_ATOMIC)
        m->stats.l2.atomics++;
    int kind = pk->kind == SIM_PKT_WRITE ? SIM_PKT_WRITE : SIM_PKT_READ;
    to_dram(m, p, pk, kind, pk->line, pk->bytes, SIM_DRAM_DONE_REPLY, now);
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
        sim_next_access what = pk->kind == SIM_PKT_ATOMIC ? SIM_NEXT_WRITE : SIM_NEXT_READ;
        uint32_t wake = sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, pk->line, way, what, now);
        sim_cache_touch(c, l);
        l->dirty |= pk->kind == SIM_PKT_ATOMIC;
        perform(m, pk);
        wake = sim_max_u32(wake, count_access(m, sub, pk, now));
        m->stats.l2.hits++;
        if (pk->kind != SIM_PKT_ATOMIC)
            sim_ev(m->events, SIM_EV_L2_READ_HIT, 1);
        reply(p, pk, now + wake);
        return SIM_FAIL_NONE;
    }
    if (probe == SIM_PROBE_FAIL && on_miss)
        return SIM_FAIL_LINE_ALLOC;
    if (m->cfg.l2_miss_queue && !down_room(m, p, 1, 0))
        return SIM_FAIL_MISS_QUEUE;   /* rd_miss_base asks before the MSHRs: merges too */
    int id;
    sim_fail_cause why = sim_cache_miss_entry(c, pk->line, probe, way, &id);
    if (why != SIM_FAIL_NONE)
        return why;
    if (id >= 0) {
        perform(m, pk);
        if (probe == SIM_PROBE_HIT_RESERVED)
            sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, pk->line, way,
                           pk->kind == SIM_PKT_ATOMIC ? SIM_NEXT_WRITE : SIM_NEXT_READ, now);
        sim_line *l = sim_cache_miss_merge(c, id, pk, pk->line, probe, way);
        if (l)
            l->dirty |= pk->kind == SIM_PKT_ATOMIC;
        count_access(m, sub, pk, now);
        m->stats.l2.merges++;
        return SIM_FAIL_NONE;
    }
    sim_line *victim = on_miss ? sim_cache_line(c, pk->line, way) : NULL;
    int dirty_victim = victim && victim->state == SIM_LINE_VALID && victim->dirty;
    if (!down_room(m, p, 1, 1 + (uint32_t)dirty_victim))
        return SIM_FAIL_MISS_QUEUE;
    perform(m, pk);
    sim_line *reserved;
    uint32_t wake = on_miss ? sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, pk->line, way,
                                             SIM_NEXT_WRITE, now)
                            : 0;
    sim_line old = sim_cache_miss_alloc(c, pk, pk->line, way, &reserved);
    if (reserved) {
        reserved->dirty = pk->kind == SIM_PKT_ATOMIC;
        if (old.state == SIM_LINE_VALID)
            m->stats.l2.evictions++;
        if (dirty_victim)
            writeback(m, p, old.addr, now);
    }
    wake = sim_max_u32(wake, count_access(m, sub, pk, now));
    m->stats.l2.misses++;
    to_dram(m, p, pk, SIM_PKT_FETCH, pk->line, SIM_LINE_BYTES, SIM_DRAM_DONE_FILL_L2,
            now + wake);
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
    /* a write-back hit sends nothing and GPGPU-Sim does not ask its miss queue */
    if ((probe != SIM_PROBE_HIT || forward) &&
        !down_room(m, p, 0, (uint32_t)forward + (uint32_t)dirty_victim))
        return SIM_FAIL_MISS_QUEUE;
    perform(m, pk);
    uint32_t wake = count_access(m, sub, pk, now);
    if (probe == SIM_PROBE_HIT || probe == SIM_PROBE_HIT_RESERVED) {
        wake = sim_max_u32(wake, sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, pk->line, way,
                                                SIM_NEXT_WRITE, now));
        m->stats.l2.hits += probe == SIM_PROBE_HIT;
        if (probe == SIM_PROBE_HIT)
            sim_ev(m->events, SIM_EV_L2_WRITE_HIT, 1);
        m->stats.l2.merges += probe == SIM_PROBE_HIT_RESERVED;
        sim_cache_touch(c, l);
        l->dirty |= !through;
    } else {
        m->stats.l2.misses++;
        if (allocate) {
            wake = sim_max_u32(wake, sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, pk->line, way,
                                                    SIM_NEXT_WRITE, now));
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
    reply(p, pk, now + wake);
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
    int dirty = 0;
    for (uint32_t i = 0; i < n; i++)
        dirty |= sim_cache_mshr_waiter(c, id, (int)i)->kind == SIM_PKT_ATOMIC;
    int way = sim_cache_fill_way(c, pk->line);
    int wb = way >= 0 && sim_cache_line(c, pk->line, way)->dirty &&
             sim_cache_evicted(sim_cache_line(c, pk->line, way), pk->line);
    if (wb && !down_room(m, p, 0, 1))
        return 0;   /* allocate-on-fill changed nothing yet: the fill is retried */
    /* a sleeping slice or frame delays the replies by its wake-up */
    uint32_t wake = sim_busy_as(m->events, SIM_UNIT_L2_BANK, (int)(p - m->sub), now, SIM_NEXT_WRITE);
    if (way >= 0) {
        wake = sim_max_u32(wake, sim_busy_frame(m->events, SIM_UNIT_L2_LINE, (int)(p - m->sub), c,
                                                pk->line, way, SIM_NEXT_WRITE, now));
        sim_line old = sim_cache_install(c, pk->line, way, SIM_LINE_VALID);
        sim_cache_line(c, pk->line, way)->dirty = (uint8_t)dirty;
        if (sim_cache_evicted(&old, pk->line))
            m->stats.l2.evictions++;
        if (wb)
            writeback(m, p, old.addr, now);
    }
    for (uint32_t i = 0; i < n; i++)
        reply(p, sim_cache_mshr_waiter(c, id, (int)i), now + wake);
    sim_cache_mshr_release(c, id);
    m->stats.l2.fills++;
    sim_ev(m->events, SIM_EV_L2_FILL, 1);
    return 1;
}

/* ---- sectored L2 ('S' spec): GPGPU-Sim's sector cache. A request is
 * broken into 32-byte sector requests (memory_sub_partition's
 * breakdown_request_to_sector_requests: a 128-byte request is four, a 64-byte
 * one its half), served one per L2 cycle; each misses, merges and fills on
 * its own, DRAM moves sectors, a dirty line writes back its dirty sectors.
 * The request's reply leaves when its last sector is served. ---- */

/* serve_sectored's answer when a sector was served and more remain */
#define SECTOR_SERVED ((sim_fail_cause)(SIM_FAIL_COUNT + 1))

/* The sectors a request covers, as GPGPU-Sim splits it. */
static uint8_t request_sectors(const sim_pkt *pk)
{
    uint8_t m = (uint8_t)(pk->req.sector_mask & 0xf);
    if (pk->kind == SIM_PKT_ATOMIC || pk->bytes <= 4)   /* one word */
        return (uint8_t)(1u << ((pk->req.addr % SIM_LINE_BYTES) / SIM_SECTOR_BYTES));
    if (pk->bytes >= SIM_LINE_BYTES || !m)
        return 0xf;
    if (pk->bytes > SIM_SECTOR_BYTES)   /* a 64-byte segment: its aligned half */
        return (uint8_t)(((m & 0x3) ? 0x3 : 0) | ((m & 0xc) ? 0xc : 0));
    return m;
}

/* Sector request w is served (hit, write, or its fill came back). */
static void sector_done(sim_subpart *p, const sim_pkt *w, uint64_t now)
{
    if (!w->parent) {
        reply(p, w, now);
        return;
    }
    int id = w->parent - 1;
    if (--p->par_left[id] == 0) {
        reply(p, &p->par[id], now);
        p->par_free[p->n_par_free++] = id;
    }
}

static void writeback_sectors(sim_memsys *m, sim_subpart *p, const sim_line *old, uint64_t now)
{
    sim_pkt wb;
    memset(&wb, 0, sizeof wb);
    wb.sub = (int32_t)(p - m->sub);
    wb.sectors = old->sect_dirty;
    m->stats.l2.writebacks++;
    to_dram(m, p, &wb, SIM_PKT_WRITEBACK, old->addr,
            (uint32_t)sim_popcount32(old->sect_dirty) * SIM_SECTOR_BYTES,
            SIM_DRAM_DONE_NONE, now);
}

/* Allocates `line` in way (a MISS's victim), writing back its dirty
 * sectors; the caller checked DRAM queue room for that write-back. */
static sim_line *sector_allocate(sim_memsys *m, sim_subpart *p, uint64_t line, int way,
                                 uint64_t now)
{
    sim_line *l = sim_cache_line(&p->l2, line, way);
    if (l->state == SIM_LINE_VALID) {
        m->stats.l2.evictions++;
        if (l->sect_dirty)
            writeback_sectors(m, p, l, now);
    }
    sim_cache_install(&p->l2, line, way, SIM_LINE_VALID);
    return l;
}

static int victim_dirty(const sim_cache *c, uint64_t line, int way, sim_probe probe)
{
    return probe == SIM_PROBE_MISS && c->lines[(size_t)sim_cache_set(c, line) *
                                                   (size_t)c->cfg.assoc + (size_t)way]
                                              .state == SIM_LINE_VALID &&
           c->lines[(size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc + (size_t)way]
               .sect_dirty;
}

static sim_fail_cause sector_read(sim_memsys *m, sim_subpart *p, sim_pkt *w, int sector,
                                  uint64_t now)
{
    sim_cache *c = &p->l2;
    int way, sub = (int)(p - m->sub);
    uint8_t bit = (uint8_t)(1u << sector);
    uint64_t key = sim_sector_key(w->line, sector);
    sim_probe probe = sim_cache_probe_sector(c, w->line, sector, &way);
    sim_next_access what = w->kind == SIM_PKT_ATOMIC ? SIM_NEXT_WRITE : SIM_NEXT_READ;
    if (probe == SIM_PROBE_HIT) {
        if (!respq_room(m, p, 1))
            return SIM_FAIL_COUNT; /* blocked on the reply queue: no cause of its own */
        sim_line *l = sim_cache_line(c, w->line, way);
        uint32_t wake = sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, w->line, way, what, now);
        sim_cache_touch(c, l);
        if (w->kind == SIM_PKT_ATOMIC)
            l->sect_dirty |= bit;
        wake = sim_max_u32(wake, count_access(m, sub, w, now));
        m->stats.l2.hits++;
        if (w->kind != SIM_PKT_ATOMIC)
            sim_ev(m->events, SIM_EV_L2_READ_HIT, 1);
        sector_done(p, w, now + wake);
        return SIM_FAIL_NONE;
    }
    if (probe == SIM_PROBE_FAIL)
        return SIM_FAIL_LINE_ALLOC;
    if (m->cfg.l2_miss_queue && !down_room(m, p, 1, 0))
        return SIM_FAIL_MISS_QUEUE;   /* rd_miss_base asks before the MSHRs: merges too */
    if (probe == SIM_PROBE_HIT_RESERVED) {
        int id = sim_cache_mshr_lookup(c, key);
        if (id < 0 || !sim_cache_mshr_can_merge(c, id))
            return SIM_FAIL_MSHR_MERGE;
        sim_cache_mshr_add(c, id, w);
        sim_line *l = sim_cache_line(c, w->line, way);
        sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, w->line, way, what, now);
        sim_cache_touch(c, l);
        if (w->kind == SIM_PKT_ATOMIC)
            l->sect_dirty |= bit;
        count_access(m, sub, w, now);
        m->stats.l2.merges++;
        return SIM_FAIL_NONE;
    }
    if (sim_cache_mshr_full(c))
        return SIM_FAIL_MSHR_ENTRY;
    int dirty = victim_dirty(c, w->line, way, probe);
    if (!down_room(m, p, 1, 1 + (uint32_t)dirty))
        return SIM_FAIL_MISS_QUEUE;
    /* a new line takes the frame (write); a missing sector of a present line
     * is written into it by the fill */
    uint32_t wake = sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, w->line, way,
                                   probe == SIM_PROBE_MISS ? SIM_NEXT_WRITE : what, now);
    sim_line *l = probe == SIM_PROBE_MISS ? sector_allocate(m, p, w->line, way, now)
                                          : sim_cache_line(c, w->line, way);
    sim_cache_touch(c, l);
    l->sect_pend |= bit;
    if (w->kind == SIM_PKT_ATOMIC)
        l->sect_dirty |= bit;
    int id = sim_cache_mshr_alloc(c, key);
    sim_cache_mshr_add(c, id, w);
    wake = sim_max_u32(wake, count_access(m, sub, w, now));
    m->stats.l2.misses++;
    to_dram(m, p, w, SIM_PKT_FETCH, w->line, SIM_SECTOR_BYTES, SIM_DRAM_DONE_FILL_L2,
            now + wake);
    return SIM_FAIL_NONE;
}

/* A sector write: write-back policies mark it valid and dirty (a write miss
 * allocates the line without fetching: GPGPU-Sim's lazy fetch, whole-sector
 * writes); write-through and no-write-allocate misses go on to DRAM. */
static sim_fail_cause sector_write(sim_memsys *m, sim_subpart *p, sim_pkt *w, int sector,
                                   uint64_t now)
{
    sim_cache *c = &p->l2;
    int way, sub = (int)(p - m->sub);
    uint8_t bit = (uint8_t)(1u << sector);
    sim_probe probe = sim_cache_probe_sector(c, w->line, sector, &way);
    int through = c->cfg.wr == SIM_WR_THROUGH;
    int present = probe == SIM_PROBE_HIT || probe == SIM_PROBE_HIT_RESERVED ||
                  probe == SIM_PROBE_SECTOR_MISS;
    int allocate = probe == SIM_PROBE_MISS && c->cfg.wr_alloc != SIM_WALLOC_NONE;
    int forward = through || (!present && !allocate);
    int dirty = allocate && victim_dirty(c, w->line, way, probe);
    if (!respq_room(m, p, 1))
        return SIM_FAIL_COUNT;
    if (probe == SIM_PROBE_FAIL && c->cfg.wr_alloc != SIM_WALLOC_NONE && !through)
        return SIM_FAIL_LINE_ALLOC;
    /* a write-back hit sends nothing and GPGPU-Sim does not ask its miss queue */
    if ((probe != SIM_PROBE_HIT || forward) &&
        !down_room(m, p, 0, (uint32_t)forward + (uint32_t)dirty))
        return SIM_FAIL_MISS_QUEUE;
    uint32_t wake = count_access(m, sub, w, now);
    if (present || allocate)
        wake = sim_max_u32(wake, sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, w->line, way,
                                                SIM_NEXT_WRITE, now));
    if (probe == SIM_PROBE_HIT)
        sim_ev(m->events, SIM_EV_L2_WRITE_HIT, 1);
    if (probe == SIM_PROBE_HIT)
        m->stats.l2.hits++;
    else if (probe == SIM_PROBE_HIT_RESERVED)
        m->stats.l2.merges++;
    else
        m->stats.l2.misses++;
    sim_line *l = present ? sim_cache_line(c, w->line, way)
                  : allocate ? sector_allocate(m, p, w->line, way, now) : NULL;
    if (l) {
        sim_cache_touch(c, l);
        if (!(l->sect_pend & bit))
            l->sect_valid |= bit;
        if (!through)
            l->sect_dirty |= bit;
    }
    if (forward)
        to_dram(m, p, w, SIM_PKT_WRITEBACK, w->line, SIM_SECTOR_BYTES, SIM_DRAM_DONE_NONE, now);
    sector_done(p, w, now + wake);
    return SIM_FAIL_NONE;
}

/* GPGPU-Sim 4's breakdown_request_to_sector_requests (l2cache.cc) gives the
 * sector requests of a 64-byte request that is neither line-aligned nor
 * all-sector the address mf + 32 i for each sector i of its mask: for the
 * upper half of a line (sectors 2 and 3, at line + 64) that is line + 128 and
 * line + 160, sectors 2 and 3 of the next line. Reproduced on request, for
 * writes only (a read's reply must reach the line its L1 waits on), so that
 * Accel-Sim's written bytes can be compared: on the GTX 480 its write-back
 * L2 then holds dirty sectors the program never wrote. */
static int upper_half_write(const sim_pkt *pk)
{
    return pk->kind == SIM_PKT_WRITE && pk->bytes == 64 && request_sectors(pk) == 0xc;
}

/* Serves the next sector of the request at the head of the L2 queue;
 * SIM_FAIL_NONE once its last sector is served (the caller pops it). */
static sim_fail_cause serve_sectored(sim_memsys *m, sim_subpart *p, sim_pkt *pk, uint64_t now)
{
    if (!pk->split) {
        uint8_t sectors = request_sectors(pk);
        if (sim_popcount32(sectors) > 1 && !p->n_par_free)
            return SIM_FAIL_MSHR_ENTRY;   /* cannot happen: sized for every waiter */
        /* the functional effect once per request, when it reaches the head
         * of the in-order queue (no later request is served before it) */
        perform(m, pk);
        pk->sectors = sectors;
        pk->split = 1;
        pk->parent = 0;
        if (sim_popcount32(sectors) > 1) {
            int id = p->par_free[--p->n_par_free];
            p->par = sim_grow_for(p->par, &p->par_cap, id, sizeof *p->par);
            p->par[id] = *pk;
            p->par_left[id] = sim_popcount32(pk->sectors);
            pk->parent = id + 1;
        }
    }
    int sector = __builtin_ctz(pk->sectors);
    sim_pkt w = *pk;
    w.sectors = (uint8_t)(1u << sector);
    w.bytes = SIM_SECTOR_BYTES;
    if (m->cfg.gs_upper_half_quirk && upper_half_write(pk))
        w.line += SIM_LINE_BYTES;
    sim_fail_cause why = w.kind == SIM_PKT_WRITE ? sector_write(m, p, &w, sector, now)
                                                 : sector_read(m, p, &w, sector, now);
    if (why != SIM_FAIL_NONE)
        return why;
    pk->sectors &= (uint8_t)~w.sectors;
    return pk->sectors ? SECTOR_SERVED : SIM_FAIL_NONE;
}

/* A sector from DRAM: it becomes valid and its waiting requests are served. */
static int fill_sector(sim_memsys *m, sim_subpart *p, const sim_pkt *pk, uint64_t now)
{
    sim_cache *c = &p->l2;
    int sector = __builtin_ctz(pk->sectors | 0x10u);
    int id = sim_cache_mshr_lookup(c, sim_sector_key(pk->line, sector & 3));
    if (id < 0 || sector > 3)
        return 1; /* cannot happen: every fetch has its entry */
    uint32_t n = (uint32_t)c->mshr[id].n;
    p->fill_held = 0;
    if (!respq_room(m, p, n)) {
        p->fill_held = n;
        return 0;
    }
    int way, sub = (int)(p - m->sub);
    /* a sleeping slice or frame delays the replies by its wake-up */
    uint32_t wake = sim_busy_as(m->events, SIM_UNIT_L2_BANK, sub, now, SIM_NEXT_WRITE);
    if (sim_cache_probe_sector(c, pk->line, sector, &way) == SIM_PROBE_HIT_RESERVED) {
        sim_line *l = sim_cache_line(c, pk->line, way);
        wake = sim_max_u32(wake, sim_busy_frame(m->events, SIM_UNIT_L2_LINE, sub, c, pk->line, way,
                                                SIM_NEXT_WRITE, now));
        l->sect_pend &= (uint8_t)~(1u << sector);
        l->sect_valid |= (uint8_t)(1u << sector);
    }
    for (uint32_t i = 0; i < n; i++)
        sector_done(p, sim_cache_mshr_waiter(c, id, (int)i), now + wake);
    sim_cache_mshr_release(c, id);
    m->stats.l2.fills++;
    sim_ev(m->events, SIM_EV_L2_FILL, 1);
    return 1;
}

/* The head could not be served this cycle; with an L2 its tags were looked
 * up (a tag probe, TRAPEZE_PE_L2_TAG_PROBE), as they are each cycle it waits. */
static void stall(sim_memsys *m, sim_fail_cause why)
{
    m->stats.l2.stall_cycles++;
    if (m->cfg.l2.enabled) {
        m->stats.l2.tag_probes++;
        sim_ev(m->events, SIM_EV_L2_TAG_PROBE, 1);
    }
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
    int sectored = m->cfg.l2.enabled && m->cfg.l2.sectored;
    if (p->fillq.count && sim_ring_front(&p->fillq)->ready <= now &&
        (sectored ? fill_sector(m, p, sim_ring_front(&p->fillq), now)
                  : fill(m, p, sim_ring_front(&p->fillq), now)))
        sim_ring_pop(&p->fillq);
    move_missq(m, p, now);
    if (p->l2q.count && m->cfg.latency_queue && m->cfg.l2.enabled && !dram_room(m, p, 1)) {
        /* with GPGPU-Sim's latency queue, its cache_cycle too: a full
         * L2->DRAM queue stops the slice before the tag probe (no
         * reservation failure, hits wait as well) */
        m->stats.l2.stall_cycles++;
    } else if (p->l2q.count) {
        sim_pkt *pk = sim_ring_front(&p->l2q);
        sim_fail_cause why;
        if (!m->cfg.l2.enabled)
            why = serve_uncached(m, p, pk, now) ? SIM_FAIL_NONE : SIM_FAIL_MISS_QUEUE;
        else if (sectored)
            why = serve_sectored(m, p, pk, now);
        else if (pk->kind == SIM_PKT_WRITE)
            why = serve_write(m, p, pk, now);
        else
            why = serve_read(m, p, pk, now);
        if (why == SIM_FAIL_NONE)
            sim_ring_pop(&p->l2q);
        else if (why != SECTOR_SERVED)
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
