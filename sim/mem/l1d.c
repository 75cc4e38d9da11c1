/*
 * l1d.c - the SM's port into the memory system: the L1D (allocate-on-miss
 * reservation, MSHR entry and merge limits, miss queue, write-evict and
 * no-write-allocate stores), the bypass path (volatile loads, atomics,
 * -gpgpu_gmem_skip_L1D, no L1), L1 fills and the completion queue the SM
 * pops. Refusals are counted here by cause; the LDST stall itself is the
 * SM's. Must not model anything beyond the miss queue (icnt.c takes it).
 *
 * Check order on a load miss follows GPGPU-Sim 3.x: line allocation, then
 * miss queue (read misses keep one slot free, GPGPU-Sim's "+1"), then MSHR.
 *
 * L1 latency (GPGPU-Sim 4's l1_latency_queue, shader.cc): an access the L1
 * serves (loads, stores) offered by the LDST unit (sim_l1_offer) enters the
 * latency queue of its bank, -gpgpu_l1_latency stages, if its entry stage is
 * free, i.e. if the queue holds fewer than that many (stages compact behind
 * a stalled head); it reaches the last stage that many cycles later and is
 * probed then, in order, one per bank per cycle. A refused probe holds its
 * queue: the accesses behind it, hits too, wait. A hit completes at its
 * probe, a miss when its fill arrives. Invariant: l1q_count is the sum of
 * the banks' queue lengths, each at most l1_latency; queued accesses count
 * in `outstanding`. sim_l1_access (the unit tests' direct port) probes at
 * once and pays the latency after the hit or the fill instead.
 *
 * Selective caching (selcache.h) marks loads SIM_MEM_BYPASS_L1 before they
 * are offered: they take the bypass path at once, as volatile loads do. A
 * cached request of a divergent load may still bypass here under `loc`,
 * when its victim is worth more than it (sim_sel_victim), and any load that
 * would be refused for a line or an MSHR entry does under
 * -trapeze_l1d_bypass_on_stall (MRPB's bypass; a full miss queue still
 * refuses it: the bypass path needs it too). A request LASC bypasses
 * whose line is in the L1D takes the L1 path after all (a hit, or a merge
 * into the pending fill) unless -trapeze_l1d_lasc_serve_hits is 0.
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/mem/memsys_impl.h"
#include "sim/mem/popcount.h"

/* Per-SM L1 counters (the sum is sim_memsys_stats'). m is unused: the
 * port's state alone changes, so that SMs may run in parallel threads. */
#define L1_INC(m, p, f) ((void)(m), (p)->stats.f++)

/* The load PC's counter f (pc_stats.c), when the contention counters keep
 * them (the port's per-frame origins): tested here so that the default path
 * makes no call per access. */
#define PC_INC(p, pc, f)                                            \
    do {                                                            \
        sim_pc_stats *pc_e_ = (p)->origin ? sim_pc_stats_of(p, pc) : NULL; \
        if (pc_e_)                                                  \
            pc_e_->f++;                                             \
    } while (0)

int sim_l1_init(sim_memsys *m, sim_sm_port *p)
{
    memset(p, 0, sizeof *p);
    p->decoded.line = SIM_DECODE_NONE;
    p->ev = m->events;
    /* the adaptive carve-out: room for its most ways (mem_config.c), the
     * spec's until a kernel sets it */
    sim_cache_cfg l1 = m->cfg.l1;
    l1.assoc = m->cfg.l1_max_assoc;
    if (m->cfg.l1.enabled && !sim_cache_init(&p->l1, &l1))
        return 0;
    p->l1.cfg.assoc = m->cfg.l1.assoc;
    if (m->cfg.l1.enabled && m->cfg.l1.sectored) {
        /* a parent has a waiter in some MSHR entry, at most entries x merge */
        int n = m->cfg.l1.mshr_entries * m->cfg.l1.mshr_merge;
        p->par_left = calloc((size_t)n, sizeof *p->par_left);
        p->par_free = calloc((size_t)n, sizeof *p->par_free);
        if (!p->par_left || !p->par_free)
            return 0;
        for (int i = 0; i < n; i++)
            p->par_free[i] = n - 1 - i;
        p->n_par_free = n;
    }
    if (m->cfg.l1.enabled && m->cfg.contention_counters && !m->cfg.l1.sectored) {
        p->origin = calloc((size_t)l1.sets * (size_t)l1.assoc, sizeof *p->origin);
        if (!p->origin)
            return 0;
    }
    if (m->cfg.l1.enabled) {
        p->l1q = calloc((size_t)m->cfg.l1_banks, sizeof *p->l1q);
        p->l1q_at = malloc((size_t)m->cfg.l1_banks * sizeof *p->l1q_at);
        if (!p->l1q || !p->l1q_at)
            return 0;
        for (int b = 0; b < m->cfg.l1_banks; b++)
            p->l1q_at[b] = (struct sim_l1q_times){UINT64_MAX, 0};
        for (int b = 0; b < m->cfg.l1_banks; b++)
            if (!sim_ring_init(&p->l1q[b], (uint32_t)m->cfg.l1_latency))
                return 0;
    }
    p->done.capacity = 64;
    p->done.items = malloc(p->done.capacity * sizeof *p->done.items);
    return p->done.items && sim_ring_init(&p->missq, 16) && sim_ring_init(&p->replies, 16);
}

/* ---- completion queue, ordered by (ready, push order) ---- */

/* Doubles a full ring, its entries kept in order from head. */
static void done_grow(sim_done_queue *q)
{
    sim_done *items = realloc(q->items, 2 * (size_t)q->capacity * sizeof *items);
    if (!items) {
        fputs("trapeze: out of memory in the memory-system simulator\n", stderr);
        abort();
    }
    memcpy(items + q->capacity, items, q->head * sizeof *items);   /* the wrapped part */
    q->items = items;
    q->capacity *= 2;
}

void sim_done_push(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req, uint64_t ready)
{
    sim_done_queue *q = &p->done;
    if (q->count == q->capacity)
        done_grow(q);
    uint32_t mask = q->capacity - 1, i = q->count++;
    (void)m;
    /* after every entry not later than it (those pushed before it), written
     * once, there */
    while (i > 0 && ready < q->items[(q->head + i - 1) & mask].ready) {
        q->items[(q->head + i) & mask] = q->items[(q->head + i - 1) & mask];
        i--;
    }
    sim_done *d = &q->items[(q->head + i) & mask];
    d->ready = ready;
    d->req = *req;
}

/* ---- access ---- */

/* Cycles from probe (hit) or fill (miss) to completion: none for an access
 * that waited in the latency queue before its probe. */
static uint64_t lat_after(const sim_memsys *m, const sim_mem_request *req)
{
    return (req->flags & SIM_MEM_QUEUED) ? 0 : (uint64_t)m->cfg.l1_latency;
}

/* The tags looked up and no data read: a refused probe (each retry) or a
 * request bypassed after its lookup. Costs the tag array's read energy
 * (TRAPEZE_PE_L1_TAG_PROBE); an accepted read's lookup is in its read. */
static void tag_probe(sim_memsys *m, sim_sm_port *p)
{
    L1_INC(m, p, tag_probes);
    sim_ev(p->ev, SIM_EV_L1_TAG_PROBE, 1);
}

static sim_mem_outcome refuse(sim_memsys *m, sim_sm_port *p, sim_fail_cause why,
                              sim_fail_cause *cause)
{
    L1_INC(m, p, reservation_fails);
    L1_INC(m, p, fails[why]);
    if (cause)
        *cause = why;
    return SIM_MEM_RESERVATION_FAIL;
}

/* A load that bypasses L1 moves the smallest aligned segment (32, 64 or
 * 128 bytes) covering its sectors, as GT200-style coalescing shrinks it. */
static uint32_t segment_bytes(uint32_t sectors)
{
    sectors &= 0xf;
    if (sectors == 0 || (sectors & (sectors - 1)) == 0)
        return 32;
    if ((sectors & 0xc) == 0 || (sectors & 0x3) == 0)
        return 64;
    return SIM_LINE_BYTES;
}

static void send_down(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req, int kind,
                      int fill_l1, uint64_t cycle)
{
    sim_pkt pk;
    memset(&pk, 0, sizeof pk);
    pk.req = *req;
    pk.line = req->addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
    pk.ready = cycle;
    pk.kind = (uint8_t)kind;
    pk.fill_l1 = (uint8_t)fill_l1;
    if (kind == SIM_PKT_READ && fill_l1)   /* a line, or a sectored L1's one sector */
        pk.bytes = m->cfg.l1.sectored ? SIM_SECTOR_BYTES : SIM_LINE_BYTES;
    else if (kind == SIM_PKT_READ)
        pk.bytes = segment_bytes(req->sector_mask);
    else   /* a store's bytes, an atomic's segment */
        pk.bytes = req->bytes;
    pk.sub = sim_addrmap_decode_memo(&m->cfg.map, &p->decoded, pk.line).sub;
    sim_ring_push(&p->missq, &pk);
    sim_sm_update_active(m, req->sm);
}

static sim_mem_outcome bypass_load(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req,
                                   uint64_t cycle, sim_fail_cause *cause);

/* A valid line left the L1D (with its selective-caching metadata kept). */
static void evicted(sim_memsys *m, sim_sm_port *p, const sim_line *old)
{
    sim_sel_evict(&m->cfg, &p->sel, old);
    if (!old->reuse)
        L1_INC(m, p, evicted_unused);
    p->stats.evicted_reuse += old->reuse;
    sim_pc_stats *e = p->origin ? sim_pc_stats_of_line(p, old) : NULL;
    if (e) {
        e->evictions++;
        e->evicted_unused += !old->reuse;
        e->evicted_reuse += old->reuse;
    }
}

/* A load miss of `req` takes frame `l` (its old line, if valid, evicted):
 * the seed's miss class by who brought the old line (same origin: the same
 * warp; same block id: another warp of its block; else another block),
 * and the frame's origin is now req's. */
static void classify_miss(sim_memsys *m, sim_sm_port *p, const sim_line *l, int evicted_valid,
                          const sim_mem_request *req)
{
    if (!p->origin)
        return;
    uint32_t *o = &p->origin[l - p->l1.lines];
    if (evicted_valid && *o == req->origin)
        L1_INC(m, p, miss_iw);
    else if (evicted_valid && *o >> 8 == req->origin >> 8)
        L1_INC(m, p, miss_xw);
    else if (evicted_valid)
        L1_INC(m, p, miss_xb);
    *o = req->origin;
}

/* A load served by the valid line at `way` of its set. */
static sim_mem_outcome l1_hit(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req,
                              uint64_t line, int way, uint64_t cycle)
{
    sim_cache *c = &p->l1;
    uint32_t wake = sim_max_u32(sim_busy(p->ev, SIM_UNIT_L1_BANK, req->sm, cycle),
                                sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, req->sm, c, line, way,
                                               SIM_NEXT_READ, cycle));
    sim_cache_touch(c, sim_cache_line(c, line, way));
    if (m->sel_on)
        sim_sel_hit(sim_cache_line(c, line, way));
    L1_INC(m, p, accesses);
    L1_INC(m, p, reads);
    L1_INC(m, p, hits);
    PC_INC(p, req->pc, accesses);
    sim_ev(p->ev, SIM_EV_L1_READ, 1);
    sim_ev(p->ev, SIM_EV_L1_READ_HIT, 1);
    p->outstanding++;
    sim_done_push(m, p, req, cycle + lat_after(m, req) + wake);
    return SIM_MEM_HIT;
}

static sim_mem_outcome l1_load(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req,
                               uint64_t cycle, sim_fail_cause *cause)
{
    int sel = m->sel_on;
    sim_cache *c = &p->l1;
    uint64_t line = req->addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
    int way;
    sim_probe probe = sim_cache_probe(c, line, &way);
    p->tags_read = 1;
    /* Only accepted accesses use the L1D (its bank-level idle periods): a
     * request refused for a reservation failure waits without waking it,
     * as Snooze's reservation queue arranges (seed 004 section 3.3). */
    uint32_t wake;
    if (probe == SIM_PROBE_HIT)
        return l1_hit(m, p, req, line, way, cycle);
    int on_miss = c->cfg.alloc == SIM_ALLOC_ON_MISS;
    if (probe == SIM_PROBE_FAIL && on_miss)
        return m->cfg.bypass_on_stall ? bypass_load(m, p, req, cycle, cause)
                                      : refuse(m, p, SIM_FAIL_LINE_ALLOC, cause);
    if (p->missq.count + 1 >= (uint32_t)c->cfg.miss_queue)
        return refuse(m, p, SIM_FAIL_MISS_QUEUE, cause);
    int id;
    sim_fail_cause why = sim_cache_miss_entry(c, line, probe, way, &id);
    if (why != SIM_FAIL_NONE)   /* MRPB: past the L1 rather than stall on it */
        return m->cfg.bypass_on_stall ? bypass_load(m, p, req, cycle, cause)
                                      : refuse(m, p, why, cause);
    sim_pkt waiter;
    memset(&waiter, 0, sizeof waiter);
    waiter.req = *req;
    wake = sim_busy(p->ev, SIM_UNIT_L1_BANK, req->sm, cycle);
    if (id >= 0) {
        if (probe == SIM_PROBE_HIT_RESERVED)
            sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, req->sm, c, line, way, SIM_NEXT_READ, cycle);
        sim_line *pending = sim_cache_miss_merge(c, id, &waiter, line, probe, way);
        if (sel && pending)   /* the line's data serves one more request */
            sim_sel_hit(pending);
        L1_INC(m, p, accesses);
        L1_INC(m, p, reads);
        L1_INC(m, p, merges);
        PC_INC(p, req->pc, accesses);
        sim_ev(p->ev, SIM_EV_L1_READ, 1);
        p->outstanding++;
        return SIM_MEM_MERGED;
    }
    if (m->cfg.l1_select == SIM_SEL_LOC && (req->flags & SIM_MEM_SEL_CACHE) && on_miss &&
        (way = sim_sel_victim(&p->sel, c, line, req->pc, way)) < 0)
        return bypass_load(m, p, req, cycle, cause);   /* its victim is worth more */
    sim_line *reserved;
    /* the frame is taken for the new line: its old contents end dead-on-write */
    if (on_miss)
        wake = sim_max_u32(wake, sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, req->sm, c, line, way,
                                                SIM_NEXT_WRITE, cycle));
    sim_line old = sim_cache_miss_alloc(c, &waiter, line, way, &reserved);
    if (old.state == SIM_LINE_VALID) {
        L1_INC(m, p, evictions);
        if (sel)
            evicted(m, p, &old);
    }
    if (sel && reserved)
        sim_sel_insert(reserved, req->pc);
    if (reserved)
        classify_miss(m, p, reserved, old.state == SIM_LINE_VALID, req);
    L1_INC(m, p, accesses);
    L1_INC(m, p, reads);
    L1_INC(m, p, misses);
    PC_INC(p, req->pc, accesses);
    PC_INC(p, req->pc, misses);
    sim_ev(p->ev, SIM_EV_L1_READ, 1);
    sim_mem_request fetch = *req;
    fetch.bytes = SIM_LINE_BYTES;
    send_down(m, p, &fetch, SIM_PKT_READ, 1, cycle + wake);
    p->outstanding++;
    return SIM_MEM_MISS;
}

/* ---- sectored L1 ('S' spec, GPGPU-Sim's sector cache; V100): a load is
 * looked up sector by sector (the four sectors of a line sit in different
 * L1 banks and are served in the same cycle); a missing sector gets its own
 * MSHR entry and a 32-byte read to L2; the request completes once all its
 * sectors are there. Counted per sector, as GPGPU-Sim counts. Allocation
 * on fill (GPGPU-Sim's streaming L1 allocates on fill too). ---- */

static sim_mem_outcome l1_load_sectored(sim_memsys *m, sim_sm_port *p,
                                        const sim_mem_request *req, uint64_t cycle,
                                        sim_fail_cause *cause)
{
    sim_cache *c = &p->l1;
    uint64_t line = req->addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
    uint8_t want = (uint8_t)(req->sector_mask & 0xf);
    if (!want)
        want = 0xf;
    sim_probe probe[4];
    int way[4], id[4], n_miss = 0, n_wait = 0;
    /* check everything first: a request is taken whole or refused */
    /* one tag lookup for the line; the sectors' states from its bits */
    int lw = sim_cache_find(c, line);   /* allocation on fill: no victim now */
    p->tags_read = 1;
    sim_probe p0 = SIM_PROBE_MISS;
    const sim_line *l = lw < 0 ? NULL : sim_cache_line(c, line, lw);
    for (int s = 0; s < 4; s++) {
        if (!(want >> s & 1))
            continue;
        way[s] = lw;
        probe[s] = !l ? p0 : (l->sect_valid >> s & 1) ? SIM_PROBE_HIT
                   : (l->sect_pend >> s & 1) ? SIM_PROBE_HIT_RESERVED : SIM_PROBE_SECTOR_MISS;
        id[s] = -1;
        if (probe[s] == SIM_PROBE_HIT)
            continue;
        id[s] = sim_cache_mshr_lookup(c, sim_sector_key(line, s));
        if (id[s] >= 0 && !sim_cache_mshr_can_merge(c, id[s]))
            return refuse(m, p, SIM_FAIL_MSHR_MERGE, cause);
        n_miss += id[s] < 0;
        n_wait++;
    }
    if (n_miss && p->missq.count + (uint32_t)n_miss >= (uint32_t)c->cfg.miss_queue)
        return refuse(m, p, SIM_FAIL_MISS_QUEUE, cause);
    if (n_miss > c->n_free)
        return refuse(m, p, SIM_FAIL_MSHR_ENTRY, cause);
    if (n_wait > 1 && !p->n_par_free)
        return refuse(m, p, SIM_FAIL_MSHR_ENTRY, cause);
    /* accepted: it uses the L1D (a refused request does not wake it) */
    uint32_t wake = sim_busy(p->ev, SIM_UNIT_L1_BANK, req->sm, cycle);
    sim_pkt waiter;
    memset(&waiter, 0, sizeof waiter);
    waiter.req = *req;
    if (n_wait > 1) {
        int pid = p->par_free[--p->n_par_free];
        p->par = sim_grow_for(p->par, &p->par_cap, pid, sizeof *p->par);
        p->par[pid] = *req;
        p->par_left[pid] = n_wait;
        waiter.parent = pid + 1;
    }
    for (int s = 0; s < 4; s++) {
        if (!(want >> s & 1))
            continue;
        L1_INC(m, p, accesses);
        L1_INC(m, p, reads);
        sim_ev(p->ev, SIM_EV_L1_READ, 1);
        if (probe[s] == SIM_PROBE_HIT) {
            wake = sim_max_u32(wake, sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, req->sm, c, line,
                                                    way[s], SIM_NEXT_READ, cycle));
            sim_cache_touch(c, sim_cache_line(c, line, way[s]));
            L1_INC(m, p, hits);
            sim_ev(p->ev, SIM_EV_L1_READ_HIT, 1);
        } else if (id[s] >= 0) {
            sim_cache_mshr_add(c, id[s], &waiter);
            L1_INC(m, p, merges);
        } else {
            int e = sim_cache_mshr_alloc(c, sim_sector_key(line, s));
            sim_cache_mshr_add(c, e, &waiter);
            L1_INC(m, p, misses);
            sim_mem_request fetch = *req;
            fetch.addr = line;
            fetch.sector_mask = 1u << s;
            fetch.bytes = SIM_SECTOR_BYTES;
            send_down(m, p, &fetch, SIM_PKT_READ, 1, cycle + wake);
        }
    }
    p->outstanding++;
    if (!n_wait) {
        sim_done_push(m, p, req, cycle + lat_after(m, req) + wake);
        return SIM_MEM_HIT;
    }
    return n_miss ? SIM_MEM_MISS : SIM_MEM_MERGED;
}

/* A sector arrives: it becomes valid (the line allocated now if it is not
 * there: allocation on fill) and the requests waiting on it move on. */
static void l1_fill_sector(sim_memsys *m, sim_sm_port *p, const sim_pkt *pk, uint64_t cycle)
{
    sim_cache *c = &p->l1;
    int s = __builtin_ctz((pk->req.sector_mask & 0xf) | 0x10u);
    int id = s < 4 ? sim_cache_mshr_lookup(c, sim_sector_key(pk->line, s)) : -1;
    if (id < 0)
        return; /* cannot happen: every fill has its entry */
    int way;
    sim_probe pr = sim_cache_probe_sector(c, pk->line, s, &way);
    if (pr == SIM_PROBE_MISS) {
        sim_line old = sim_cache_install(c, pk->line, way, SIM_LINE_VALID);
        if (old.state == SIM_LINE_VALID)
            L1_INC(m, p, evictions);
        pr = SIM_PROBE_SECTOR_MISS;
    }
    uint32_t wake = sim_busy_as(p->ev, SIM_UNIT_L1_BANK, pk->req.sm, cycle, SIM_NEXT_WRITE);
    if (pr != SIM_PROBE_FAIL) {
        wake = sim_max_u32(wake, sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, pk->req.sm, c, pk->line,
                                                way, SIM_NEXT_WRITE, cycle));
        sim_cache_line(c, pk->line, way)->sect_valid |= (uint8_t)(1u << s);
    }
    L1_INC(m, p, fills);
    sim_ev(p->ev, SIM_EV_L1_FILL, 1);
    int n = c->mshr[id].n, k = 0;
    for (int i = 0; i < n; i++) {
        const sim_pkt *w = sim_cache_mshr_waiter(c, id, i);
        const sim_mem_request *done = &w->req;
        if (w->parent) {
            int pid = w->parent - 1;
            if (--p->par_left[pid] > 0)
                continue;
            done = &p->par[pid];
            p->par_free[p->n_par_free++] = pid;
        }
        sim_done_push(m, p, done, cycle + lat_after(m, done) + wake + (uint64_t)k++);
    }
    sim_cache_mshr_release(c, id);
}

/* The queue towards the interconnect has no room (its size: the L1's miss
 * queue, or -trapeze_sm_queue without an L1). */
static int missq_full(const sim_memsys *m, const sim_sm_port *p)
{
    return p->missq.count >=
           (uint32_t)(m->cfg.l1.enabled ? m->cfg.l1.miss_queue : m->cfg.sm_queue);
}

/* Stores: write-evict the L1 copy, send down; no allocation. */
static sim_mem_outcome l1_write(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req,
                                uint64_t cycle, sim_fail_cause *cause)
{
    if (missq_full(m, p))
        return refuse(m, p, SIM_FAIL_MISS_QUEUE, cause);
    uint32_t wake = 0;
    if (m->cfg.l1.enabled) {
        uint64_t line = req->addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
        /* a tag lookup, not a probe: a miss needs no victim (a probe's search
         * of the least recently used line read every way of a full set: 256
         * on the V100) */
        int way = sim_cache_find(&p->l1, line);
        if (way >= 0 && sim_cache_line(&p->l1, line, way)->state == SIM_LINE_VALID) {
            wake = sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, req->sm, &p->l1, line, way,
                                  SIM_NEXT_WRITE, cycle);
            sim_cache_invalidate(&p->l1, line, way);
            L1_INC(m, p, evictions);
            sim_ev(p->ev, SIM_EV_L1_WRITE_HIT, 1);
        }
        wake = sim_max_u32(wake, sim_busy_as(p->ev, SIM_UNIT_L1_BANK, req->sm, cycle, SIM_NEXT_WRITE));
        sim_ev(p->ev, SIM_EV_L1_WRITE, 1);
    }
    /* a sectored L1 counts an access per sector, as GPGPU-Sim's does */
    int n = m->cfg.l1.enabled && m->cfg.l1.sectored ? sim_popcount32(req->sector_mask & 0xf) : 1;
    for (int i = 0; i < (n ? n : 1); i++) {
        L1_INC(m, p, accesses);
        L1_INC(m, p, writes);
    }
    send_down(m, p, req, SIM_PKT_WRITE, 0, cycle + wake);
    p->outstanding++;
    return SIM_MEM_SENT;
}

/* Atomics pass the L1 untouched (no probe, bank or access) to the L2 that
 * performs them: Accel-Sim marks ATOMG, ATOM and RED CACHE_GLOBAL. */
static sim_mem_outcome bypass_atomic(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req,
                                     uint64_t cycle, sim_fail_cause *cause)
{
    if (missq_full(m, p))
        return refuse(m, p, SIM_FAIL_MISS_QUEUE, cause);
    L1_INC(m, p, atomics);
    send_down(m, p, req, SIM_PKT_ATOMIC, 0, cycle);
    p->outstanding++;
    return SIM_MEM_SENT;
}

static sim_mem_outcome bypass_load(sim_memsys *m, sim_sm_port *p, const sim_mem_request *req,
                                   uint64_t cycle, sim_fail_cause *cause)
{
    if (missq_full(m, p))
        return refuse(m, p, SIM_FAIL_MISS_QUEUE, cause);
    if (m->cfg.lasc && m->cfg.l1.enabled && !m->cfg.l1.sectored &&
        (req->flags & SIM_MEM_BYPASS_L1)) {
        /* LASC probes the tags on the way: a line still there was reused,
         * which can turn its PC back to caching (the data still comes from
         * below, as the seed describes) */
        uint64_t line = req->addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
        int way = sim_cache_find(&p->l1, line);
        p->tags_read = 1;
        if (way >= 0 && m->cfg.lasc_serve_hits)   /* a hit, or a merge into its fill */
            return l1_load(m, p, req, cycle, cause);
        if (way >= 0 && sim_cache_line(&p->l1, line, way)->state == SIM_LINE_VALID)
            sim_sel_hit(sim_cache_line(&p->l1, line, way));
    }
    L1_INC(m, p, bypasses);
    PC_INC(p, req->pc, bypasses);
    send_down(m, p, req, SIM_PKT_READ, 0, cycle);
    p->outstanding++;
    return SIM_MEM_SENT;
}

/* Is req the request refused last, offered again to an unchanged port? */
static int refused_again(const sim_sm_port *p, const sim_mem_request *req)
{
    const sim_refusal *r = &p->refused;
    return r->valid && r->version == p->version && r->addr == req->addr &&
           r->sector_mask == req->sector_mask && r->bytes == req->bytes && r->op == req->op &&
           r->flags == req->flags;
}

static void remember_refusal(sim_sm_port *p, const sim_mem_request *req, int tags,
                             sim_fail_cause why)
{
    sim_refusal *r = &p->refused;
    r->valid = 1;
    r->version = p->version;
    r->addr = req->addr;
    r->sector_mask = req->sector_mask;
    r->bytes = req->bytes;
    r->op = req->op;
    r->flags = req->flags;
    r->tags = (uint8_t)tags;
    r->why = why;
}

sim_mem_outcome sim_l1_access(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                              sim_fail_cause *cause)
{
    sim_sm_port *p = &m->sm[req->sm];
    sim_fail_cause why = SIM_FAIL_NONE;
    if (refused_again(p, req)) {
        /* the same counts as a full probe would make */
        if (p->refused.tags)
            tag_probe(m, p);
        return refuse(m, p, p->refused.why, cause);
    }
    sim_mem_outcome o;
    p->tags_read = 0;
    if (req->op == SIM_MEM_ATOMIC) {
        o = bypass_atomic(m, p, req, cycle, &why);
    } else if (req->op == SIM_MEM_STORE) {
        o = l1_write(m, p, req, cycle, &why);
    } else if (!m->cfg.l1.enabled || m->cfg.skip_l1d ||
               (req->flags & (SIM_MEM_VOLATILE | SIM_MEM_BYPASS_L1))) {
        o = bypass_load(m, p, req, cycle, &why);
    } else {
        o = m->cfg.l1.sectored ? l1_load_sectored(m, p, req, cycle, &why)
                               : l1_load(m, p, req, cycle, &why);
    }
    /* looked up and no data read: refused, or sent past the L1 after all */
    if (p->tags_read && (o == SIM_MEM_RESERVATION_FAIL || o == SIM_MEM_SENT))
        tag_probe(m, p);
    if (o == SIM_MEM_RESERVATION_FAIL) {
        remember_refusal(p, req, p->tags_read, why);
    } else {
        p->refused.valid = 0;
        p->version++;
    }
    if (cause)
        *cause = why;
    return o;
}

/* ---- the latency queue ---- */

/* Does the access go through the L1 (and so its latency queue)? */
static int through_l1(const sim_memsys *m, const sim_mem_request *req)
{
    if (!m->cfg.l1.enabled || req->op == SIM_MEM_ATOMIC)
        return 0;
    return req->op != SIM_MEM_LOAD ||
           !(m->cfg.skip_l1d || (req->flags & (SIM_MEM_VOLATILE | SIM_MEM_BYPASS_L1)));
}

/* GPGPU-Sim's set_bank (linear) of the access's address, which the
 * coalescer shrinks as memory_coalescing_arch_reduce_and_send does: the
 * line for an access using both 64-byte halves, else the half, else the
 * one sector used in it. */
static int l1_bank(const sim_memsys *m, const sim_mem_request *req)
{
    uint64_t a = req->addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
    uint32_t q = req->sector_mask & 0xf;
    if (q && (q & 0x3) && (q & 0xc))
        q = 0;                           /* both halves: 128 bytes at the line */
    else if (q & 0xc) {
        a += 64;                         /* the upper half only */
        q >>= 2;
    }
    if (q == 0x2)
        a += 32;                         /* the upper sector of the half only */
    return (int)((a / (uint64_t)m->cfg.l1_bank_bytes) & (uint64_t)(m->cfg.l1_banks - 1));
}

/* The queue of req's bank if its entry stage is free at `cycle`: unless
 * every stage is taken or an access entered it this cycle. NULL: refused,
 * with SIM_FAIL_L1_BANK. The stages are freed after the SM's offers of a
 * cycle (sim_l1_cycle), so a full queue takes L accesses in L + 1 cycles
 * where GPGPU-Sim 4 (probing first) takes them in L: kept, as every shipped
 * figure was made with it (docs/simulator.md, "L1 latency"). */
static sim_ring *entry_stage(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                             sim_fail_cause *cause)
{
    int b = l1_bank(m, req);
    sim_ring *q = &m->sm[req->sm].l1q[b];
    uint64_t ready = cycle + (uint64_t)m->cfg.l1_latency;
    TRAPEZE_ASSERT(!q->count || m->sm[req->sm].l1q_at[b].last ==
                                    q->items[(q->head + q->count - 1) & q->mask].ready);
    if (q->count >= (uint32_t)m->cfg.l1_latency ||
        (q->count && m->sm[req->sm].l1q_at[b].last == ready)) {
        if (cause)
            *cause = SIM_FAIL_L1_BANK;
        return NULL;
    }
    return q;
}

/* Puts req in its bank's queue q, to be probed at its end (SIM_MEM_QUEUED)
 * or, made already, only to hold its stages until then. */
static void enter_queue(sim_memsys *m, sim_ring *q, const sim_mem_request *req, uint64_t cycle,
                        uint32_t flags)
{
    sim_sm_port *p = &m->sm[req->sm];
    sim_pkt pk;
    memset(&pk, 0, sizeof pk);
    pk.req = *req;
    pk.req.flags = (uint8_t)((pk.req.flags & ~(uint32_t)SIM_MEM_QUEUED) | flags);
    pk.ready = cycle + (uint64_t)m->cfg.l1_latency;
    struct sim_l1q_times *at = &p->l1q_at[q - p->l1q];
    if (!q->count)
        at->front = pk.ready;
    at->last = pk.ready;
    sim_ring_push(q, &pk);
    p->l1q_count++;
    p->outstanding++;
    sim_sm_update_active(m, req->sm);
}

/* req through its bank's latency queue: offered (probed at the queue's end,
 * SIM_MEM_SENT) or, for the per-warp queues' probe, looked up at once (a
 * refusal is known in its cycle, so another warp's head can be probed
 * instead; a hit completes L cycles later, as sim_l1_access) and queued only
 * to hold its bank's stages, so that without contention the per-warp queues
 * move no faster than the FIFO path. */
static sim_mem_outcome l1_enter(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                                sim_fail_cause *cause, int probe)
{
    if (!through_l1(m, req))
        return sim_l1_access(m, req, cycle, cause);
    sim_ring *q = entry_stage(m, req, cycle, cause);
    if (!q)
        return SIM_MEM_RESERVATION_FAIL;
    sim_mem_outcome o = SIM_MEM_SENT;
    if (probe)
        o = sim_l1_access(m, req, cycle, cause);
    else if (cause)
        *cause = SIM_FAIL_NONE;
    if (o != SIM_MEM_RESERVATION_FAIL)
        enter_queue(m, q, req, cycle, probe ? 0 : SIM_MEM_QUEUED);
    return o;
}

sim_mem_outcome sim_l1_offer(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                             sim_fail_cause *cause)
{
    return l1_enter(m, req, cycle, cause, 0);
}

sim_mem_outcome sim_l1_probe(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                             sim_fail_cause *cause)
{
    return l1_enter(m, req, cycle, cause, 1);
}

/* Each bank probes the access at the end of its queue, if it has got there;
 * a refused one stays and is probed again next cycle. One made already
 * (sim_l1_probe: no SIM_MEM_QUEUED) only leaves. */
static void l1_queues_cycle(sim_memsys *m, sim_sm_port *p, uint64_t cycle)
{
    if (TRAPEZE_CHECKS_ON) {   /* the invariant of the file comment */
        int sum = 0;
        for (int b = 0; b < m->cfg.l1_banks; b++) {
            TRAPEZE_ASSERT(p->l1q[b].count <= (uint32_t)m->cfg.l1_latency);
            sum += (int)p->l1q[b].count;
        }
        TRAPEZE_ASSERT(sum == p->l1q_count && (uint64_t)sum <= p->outstanding);
    }
    for (int b = 0; p->l1q_count && b < m->cfg.l1_banks; b++) {
        sim_ring *q = &p->l1q[b];
        TRAPEZE_ASSERT(p->l1q_at[b].front == (q->count ? sim_ring_front(q)->ready : UINT64_MAX));
        if (p->l1q_at[b].front > cycle)   /* empty, or its front not there yet */
            continue;
        sim_mem_request r = sim_ring_front(q)->req;
        if ((r.flags & SIM_MEM_QUEUED) &&
            sim_l1_access(m, &r, cycle, NULL) == SIM_MEM_RESERVATION_FAIL)
            continue;
        sim_ring_pop(q);
        p->l1q_at[b].front = q->count ? sim_ring_front(q)->ready : UINT64_MAX;
        p->l1q_count--;
        TRAPEZE_ASSERT(p->outstanding > 0);
        p->outstanding--;   /* counted when it was queued, and again by the probe */
    }
}

/* A line arrives: it becomes valid and its MSHR entry's requests complete
 * one per cycle after the L1 latency. */
static void l1_fill(sim_memsys *m, sim_sm_port *p, const sim_pkt *pk, uint64_t cycle)
{
    sim_cache *c = &p->l1;
    int id = sim_cache_mshr_find(c, pk->line);
    if (id < 0)
        return; /* cannot happen: every fill has its entry */
    int way = sim_cache_fill_way(c, pk->line);
    uint32_t wake = 0;
    if (way >= 0) {
        wake = sim_busy_frame(p->ev, SIM_UNIT_L1_LINE, pk->req.sm, c, pk->line, way, SIM_NEXT_WRITE,
                              cycle);
        sim_line old = sim_cache_install(c, pk->line, way, SIM_LINE_VALID);
        int gone = sim_cache_evicted(&old, pk->line);
        if (gone) {
            L1_INC(m, p, evictions);
            if (m->sel_on)
                evicted(m, p, &old);
        }
        if (old.addr != pk->line || old.state != SIM_LINE_VALID)   /* not a refill */
            classify_miss(m, p, sim_cache_line(c, pk->line, way), gone, &pk->req);
        if (m->sel_on)   /* allocated on fill: for its first request's PC */
            sim_sel_insert(sim_cache_line(c, pk->line, way), pk->req.pc);
    }
    L1_INC(m, p, fills);
    sim_ev(p->ev, SIM_EV_L1_FILL, 1);
    wake = sim_max_u32(wake, sim_busy_as(p->ev, SIM_UNIT_L1_BANK, pk->req.sm, cycle,
                                         SIM_NEXT_WRITE));
    int n = c->mshr[id].n;
    for (int i = 0; i < n; i++) {
        const sim_mem_request *done = &sim_cache_mshr_waiter(c, id, i)->req;
        sim_done_push(m, p, done, cycle + lat_after(m, done) + wake + (uint64_t)i);
    }
    sim_cache_mshr_release(c, id);
}

/* The SM side of one core cycle: one reply through the fill port, then the
 * latency queues' probes (GPGPU-Sim's ldst_unit::cycle order: fill, then
 * L1_latency_queue_cycle). */
void sim_l1_cycle(sim_memsys *m, int sm, uint64_t cycle)
{
    sim_sm_port *p = &m->sm[sm];
    if (p->replies.count && sim_ring_front(&p->replies)->ready <= cycle) {
        sim_pkt pk = *sim_ring_front(&p->replies);
        sim_ring_pop(&p->replies);
        if (pk.fill_l1 && m->cfg.l1.sectored)
            l1_fill_sector(m, p, &pk, cycle);
        else if (pk.fill_l1)
            l1_fill(m, p, &pk, cycle);
        else
            sim_done_push(m, p, &pk.req, cycle);
        p->version++;
    }
    if (p->l1q_count)
        l1_queues_cycle(m, p, cycle);
    sim_sm_update_active(m, sm);
}
