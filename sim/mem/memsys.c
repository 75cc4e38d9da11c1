/*
 * memsys.c - the memory system as the SM sees it (sim/memsys.h): creation
 * from the config, the activity sets, the per-core-cycle driver of the
 * clock domains, the idle-skipping next-event time, accepting requests and
 * handing back completions, and the statistics' reset. Owns the order of
 * the parts within a cycle; the parts' behaviour is in their files (the
 * functional words in funcmem.c, the stand-alone probes in probe.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/error.h"
#include "sim/mem/memsys_impl.h"

static int bits_init(sim_bits *b, int n)
{
    b->n_words = (n + 63) / 64;
    b->w = calloc((size_t)b->n_words, sizeof *b->w);
    return b->w != NULL;
}

/* ---- creation ---- */

static int alloc_parts(sim_memsys *m)
{
    m->sm = calloc((size_t)m->n_sm, sizeof *m->sm);
    m->sub = calloc((size_t)m->n_subs, sizeof *m->sub);
    m->chan = calloc((size_t)m->cfg.n_mem, sizeof *m->chan);
    if (!m->sm || !m->sub || !m->chan || !sim_funcmem_init(&m->words) ||
        !bits_init(&m->sm_active, m->n_sm) || !bits_init(&m->sub_active, m->n_subs) ||
        !bits_init(&m->chan_active, m->cfg.n_mem))
        return 0;
    for (int s = 0; s < m->n_sm; s++)
        if (!sim_l1_init(m, &m->sm[s]))
            return 0;
    for (int s = 0; s < m->n_subs; s++) {
        sim_subpart *p = &m->sub[s];
        p->chan = s / m->cfg.n_sub;
        if ((m->cfg.l2.enabled && !sim_cache_init(&p->l2, &m->cfg.l2)) ||
            !sim_ring_init(&p->rop, 16) || !sim_ring_init(&p->l2q, (uint32_t)m->cfg.q_icnt_l2) ||
            !sim_ring_init(&p->fillq, (uint32_t)m->cfg.q_dram_l2) ||
            !sim_ring_init(&p->respq, (uint32_t)m->cfg.q_l2_icnt) ||
            !sim_ring_init(&p->to_dram, (uint32_t)m->cfg.q_l2_dram) ||
            !sim_ring_init(&p->missq, (uint32_t)m->cfg.l2.miss_queue))
            return 0;
        p->l2.part = &m->cfg.map;
        if (m->cfg.l2.enabled && m->cfg.l2.sectored) {
            /* every parent with a sector outstanding has a waiter in an MSHR
             * entry; one more for the request being split */
            int n = m->cfg.l2.mshr_entries * m->cfg.l2.mshr_merge + 1;
            p->par_left = calloc((size_t)n, sizeof *p->par_left);
            p->par_free = calloc((size_t)n, sizeof *p->par_free);
            if (!p->par_left || !p->par_free)
                return 0;
            for (int i = 0; i < n; i++)
                p->par_free[i] = n - 1 - i;
            p->n_par_free = n;
        }
    }
    for (int c = 0; c < m->cfg.n_mem; c++)
        if (!sim_dram_init(m, &m->chan[c]))
            return 0;
    if (m->cfg.use_xbar && !sim_xbar_init(m))
        return 0;
    return 1;
}

/* The most the memory system's structures may take (4 GiB): the largest
 * GPU's config (an 80-SM V100) needs a few MB; each option is range-checked
 * alone, but their product (slices x sets x ways) is not, and a config past
 * this would end in a bare "out of memory" or take the machine's memory. */
#define SIM_MEM_MAX_BYTES (4.0 * (1u << 30))

/* What one cache of cfg takes with `ways` ways: per frame its line state,
 * tag and tag-index slot; per MSHR entry and merge a waiter (cache.c). */
static double cache_bytes(const sim_cache_cfg *c, int ways)
{
    if (!c->enabled)
        return 0;
    double per_frame = sizeof(sim_line) + sizeof(uint64_t) + 2 * sizeof(uint32_t);
    return (double)c->sets * ways * per_frame +
           (double)c->mshr_entries * (c->mshr_merge + 4) * sizeof(uint64_t);
}

/* The memory the config asks for, computed before anything is allocated
 * (and before any int product of its sizes), and refused by the options
 * that drive it when past SIM_MEM_MAX_BYTES. */
static trapeze_status check_footprint(const sim_mem_config *c, int n_sm,
                                      const trapeze_config *cfg, trapeze_error *err)
{
    int n_subs = c->n_mem * c->n_sub;   /* at most 1024 x 64 */
    double queues = 16.0 + c->q_icnt_l2 + c->q_dram_l2 + c->q_l2_icnt + c->q_l2_dram;
    double l2 = (double)n_subs * (cache_bytes(&c->l2, c->l2.assoc) +
                                  queues * sizeof(sim_pkt) + sizeof(sim_subpart));
    double l1 = (double)n_sm * (cache_bytes(&c->l1, c->l1_max_assoc) +
                                sizeof(sim_sm_port));
    double dram = (double)c->n_mem * (sizeof(sim_channel) + (double)c->sched_queue * 64);
    double total = l2 + l1 + dram;
    if (total <= SIM_MEM_MAX_BYTES)
        return TRAPEZE_OK;
    const double gib = 1u << 30;
    if (l2 >= l1 && l2 >= dram)
        return trapeze_config_fail(cfg, "gpgpu_cache:dl2", err,
                                   "the memory system would take %.1f GiB, past the %.0f GiB "
                                   "limit: %.1f GiB for %d L2 slices (-gpgpu_n_mem %d x "
                                   "-gpgpu_n_sub_partition_per_mchannel %d) of %d sets x %d ways "
                                   "(-gpgpu_cache:dl2)", total / gib, SIM_MEM_MAX_BYTES / gib,
                                   l2 / gib, n_subs, c->n_mem, c->n_sub, c->l2.sets,
                                   c->l2.assoc);
    if (l1 >= dram)
        return trapeze_config_fail(cfg, "gpgpu_cache:dl1", err,
                                   "the memory system would take %.1f GiB, past the %.0f GiB "
                                   "limit: %.1f GiB for %d SMs' L1s (-gpgpu_n_clusters x "
                                   "-gpgpu_n_cores_per_cluster) of %d sets x %d ways "
                                   "(-gpgpu_cache:dl1%s)", total / gib, SIM_MEM_MAX_BYTES / gib,
                                   l1 / gib, n_sm, c->l1.sets, c->l1.assoc,
                                   c->adaptive_l1 ? ", grown by -gpgpu_adaptive_cache_config" : "");
    return trapeze_config_fail(cfg, "gpgpu_n_mem", err,
                               "the memory system would take %.1f GiB, past the %.0f GiB "
                               "limit: %.1f GiB for %d DRAM channels (-gpgpu_n_mem) with "
                               "queues of %d (-gpgpu_frfcfs_dram_sched_queue_size)",
                               total / gib, SIM_MEM_MAX_BYTES / gib, dram / gib, c->n_mem,
                               c->sched_queue);
}

trapeze_status sim_memsys_create(const trapeze_config *cfg, int n_sm, sim_events *events,
                                 sim_memsys **out, trapeze_error *err)
{
    *out = NULL;
    sim_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = sim_mem_config_read(cfg, n_sm, &m->cfg, err);
    if (s) {
        free(m);
        return s;
    }
    m->events = events;
    m->n_sm = n_sm;
    m->stats.contention_valid = (uint64_t)m->cfg.contention_counters;
    m->n_subs = m->cfg.n_mem * m->cfg.n_sub;
    m->sel_on = sim_sel_on(&m->cfg);
    for (int d = 0; d < SIM_CLK_COUNT; d++)
        sim_clock_init(&m->clk[d], m->cfg.clock_khz[d], m->cfg.clock_khz[SIM_CLK_CORE]);
    if ((s = check_footprint(&m->cfg, n_sm, cfg, err))) {
        free(m);
        return s;
    }
    if (!alloc_parts(m)) {
        sim_memsys_destroy(m);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    *out = m;
    return TRAPEZE_OK;
}

void sim_memsys_destroy(sim_memsys *m)
{
    if (!m)
        return;
    for (int s = 0; m->sm && s < m->n_sm; s++) {
        sim_cache_free(&m->sm[s].l1);
        free(m->sm[s].par);
        free(m->sm[s].par_left);
        free(m->sm[s].par_free);
        sim_ring_free(&m->sm[s].missq);
        sim_ring_free(&m->sm[s].replies);
        for (int b = 0; m->sm[s].l1q && b < m->cfg.l1_banks; b++)
            sim_ring_free(&m->sm[s].l1q[b]);
        free(m->sm[s].l1q);
        free(m->sm[s].l1q_at);
        free(m->sm[s].origin);
        free(m->sm[s].done.items);
    }
    for (int s = 0; m->sub && s < m->n_subs; s++) {
        sim_subpart *p = &m->sub[s];
        sim_cache_free(&p->l2);
        sim_ring_free(&p->rop);
        sim_ring_free(&p->l2q);
        sim_ring_free(&p->fillq);
        sim_ring_free(&p->respq);
        sim_ring_free(&p->to_dram);
        sim_ring_free(&p->missq);
        free(p->par);
        free(p->par_left);
        free(p->par_free);
    }
    for (int c = 0; m->chan && c < m->cfg.n_mem; c++)
        sim_dram_free(&m->chan[c]);
    free(m->sm);
    free(m->sub);
    free(m->chan);
    sim_xbar_free(m);
    free(m->sm_active.w);
    free(m->sub_active.w);
    free(m->chan_active.w);
    sim_funcmem_free(&m->words);
    free(m);
}

/* ---- the SM's calls ---- */

/* A request from an SM the GPU lacks is a caller bug: never accepted, with
 * no cause to count. */
static int unknown_sm(const sim_memsys *m, const sim_mem_request *req, sim_fail_cause *cause)
{
    if (req->sm < m->n_sm)
        return 0;
    if (cause)
        *cause = SIM_FAIL_NONE;
    return 1;
}

sim_mem_outcome sim_memsys_access(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                                  sim_fail_cause *cause)
{
    if (unknown_sm(m, req, cause))
        return SIM_MEM_RESERVATION_FAIL;
    return sim_l1_access(m, req, cycle, cause);
}

sim_mem_outcome sim_memsys_offer(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                                 sim_fail_cause *cause)
{
    if (unknown_sm(m, req, cause))
        return SIM_MEM_RESERVATION_FAIL;
    return sim_l1_offer(m, req, cycle, cause);
}

sim_mem_outcome sim_memsys_probe(sim_memsys *m, const sim_mem_request *req, uint64_t cycle,
                                 sim_fail_cause *cause)
{
    if (unknown_sm(m, req, cause))
        return SIM_MEM_RESERVATION_FAIL;
    return sim_l1_probe(m, req, cycle, cause);
}

void sim_memsys_select(sim_memsys *m, sim_mem_request *const *reqs, int n)
{
    if (n <= 0 || !m->sel_on || !m->cfg.l1.enabled || reqs[0]->sm >= m->n_sm)
        return;
    sim_sm_port *p = &m->sm[reqs[0]->sm];
    if (m->cfg.contention_counters) {
        int most = sim_sel_set_max(&p->l1, reqs, n);
        p->stats.load_set_max += (uint64_t)most;
        p->stats.load_set_overflows += most > p->l1.cfg.assoc;
    }
    sim_sel_plan(&m->cfg, &p->sel, &p->l1, reqs, n);
}

int sim_memsys_ports(const sim_memsys *m)
{
    return m->cfg.l1.enabled ? m->cfg.l1_banks : 1;
}

/* A completion of port p due at `cycle`, popped. */
static inline int pop_port(sim_sm_port *p, uint64_t cycle, sim_mem_request *done)
{
    if (!sim_done_pop(&p->done, cycle, done))
        return 0;
    /* request accounting: every completion answers one request its port accepted */
    TRAPEZE_ASSERT(p->outstanding > 0);
    p->outstanding--;
    return 1;
}

int sim_memsys_pop(sim_memsys *m, int sm, uint64_t cycle, sim_mem_request *done)
{
    if (sm < 0 || sm >= m->n_sm)
        return 0;
    return pop_port(&m->sm[sm], cycle, done);
}

int sim_memsys_pop_next(sim_memsys *m, int from, uint64_t cycle, sim_mem_request *done)
{
    for (int s = from < 0 ? 0 : from; s < m->n_sm; s++)
        if (pop_port(&m->sm[s], cycle, done))
            return s;
    return m->n_sm;
}

/* Runs every tick of domain d that falls in core cycles up to `cycle`.
 * An idle domain jumps its tick count in O(1). */
static void run_dram(sim_memsys *m, uint64_t cycle)
{
    sim_clock *ck = &m->clk[SIM_CLK_DRAM];
    uint64_t end = sim_clock_ticks_through(ck, cycle);
    for (; ck->next < end; ck->next++) {
        if (!sim_bits_any(&m->chan_active)) {
            ck->next = end;
            break;
        }
        uint64_t now = sim_clock_core_cycle(ck, ck->next);
        int c;
        SIM_BITS_FOREACH(&m->chan_active, c)
            sim_dram_tick(m, c, ck->next, now);
    }
}

static void run_l2(sim_memsys *m, uint64_t cycle)
{
    sim_clock *ck = &m->clk[SIM_CLK_L2];
    uint64_t end = sim_clock_ticks_through(ck, cycle);
    for (; ck->next < end; ck->next++) {
        if (!sim_bits_any(&m->sub_active)) {
            ck->next = end;
            break;
        }
        uint64_t now = sim_clock_core_cycle(ck, ck->next);
        int s;
        SIM_BITS_FOREACH(&m->sub_active, s)
            sim_l2_tick(m, s, now);
    }
}

static void run_icnt(sim_memsys *m, uint64_t cycle)
{
    sim_clock *ck = &m->clk[SIM_CLK_ICNT];
    uint64_t end = sim_clock_ticks_through(ck, cycle);
    for (; ck->next < end; ck->next++) {
        if (!sim_bits_any(&m->sm_active) && !sim_bits_any(&m->sub_active) && !m->xbar.n_pkts) {
            ck->next = end;
            break;
        }
        sim_icnt_tick(m, ck->next);
    }
}

void sim_memsys_cycle(sim_memsys *m, uint64_t cycle)
{
    run_dram(m, cycle);
    run_l2(m, cycle);
    run_icnt(m, cycle);
    int s;
    SIM_BITS_FOREACH(&m->sm_active, s)
        sim_l1_cycle(m, s, cycle);
    m->stats.dram_cycles = m->clk[SIM_CLK_DRAM].next - m->dram_tick_base;
}

/* sim_memsys_cycle in the parts a parallel simulation runs in its phases
 * (sim/core/gpu_par.c): DRAM and L2 touch nothing of the SM side and can
 * run beside the SMs' cycle; each port's fill and latency queues touch only
 * that port. The interconnect joins both sides: alone between them, or,
 * for the crossbar (xbar.c) in a cycle with exactly one icnt tick, split
 * (sim_memsys_icnt_split). In that order they do what sim_memsys_cycle
 * does. */
int sim_memsys_icnt_split(sim_memsys *m, uint64_t cycle)
{
    sim_clock *ck = &m->clk[SIM_CLK_ICNT];
    m->split = m->xbar.n_acc && sim_clock_ticks_through(ck, cycle) == ck->next + 1;
    m->split_now = sim_clock_core_cycle(ck, ck->next);
    return m->split;
}

void sim_memsys_cycle_behind(sim_memsys *m, uint64_t cycle)
{
    run_dram(m, cycle);
    run_l2(m, cycle);
}

void sim_memsys_icnt_sm(sim_memsys *m, int sm, int thread)
{
    sim_xbar_sm_side(m, sm, m->split_now, thread);
}

/* A tick with nothing to do changes nothing (the crossbar's steps each
 * look for work first), so the split tick needs run_icnt's skip neither. */
void sim_memsys_icnt_rest(sim_memsys *m)
{
    sim_xbar_rest(m, m->split_now);
    m->clk[SIM_CLK_ICNT].next++;
    m->stats.dram_cycles = m->clk[SIM_CLK_DRAM].next - m->dram_tick_base;
}

void sim_memsys_cycle_icnt(sim_memsys *m, uint64_t cycle)
{
    run_icnt(m, cycle);
    m->stats.dram_cycles = m->clk[SIM_CLK_DRAM].next - m->dram_tick_base;
}

void sim_memsys_cycle_port(sim_memsys *m, int sm, uint64_t cycle)
{
    /* other threads change other bits of the word at once (atomically) */
    if (__atomic_load_n(&m->sm_active.w[sm >> 6], __ATOMIC_RELAXED) >> (sm & 63) & 1)
        sim_l1_cycle(m, sm, cycle);
}

int sim_memsys_set_parallel(sim_memsys *m, int threads)
{
    m->sm_active.shared = threads > 1;
    m->split = 0;
    return !m->cfg.use_xbar || sim_xbar_set_threads(m, threads);
}

void sim_memsys_port_events(sim_memsys *m, int sm, sim_events *ev)
{
    m->sm[sm].ev = ev;
}

uint64_t sim_memsys_outstanding(const sim_memsys *m)
{
    uint64_t n = 0;
    for (int s = 0; s < m->n_sm; s++)
        n += m->sm[s].outstanding;
    return n;
}

static void earliest(uint64_t *best, uint64_t t) { if (t < *best) *best = t; }

/* Anything that must be looked at every cycle answers cycle + 1; queues
 * that only wait for a timestamp answer that timestamp. Early is safe,
 * late is not. */
uint64_t sim_memsys_next_event(const sim_memsys *m, uint64_t cycle)
{
    uint64_t best = UINT64_MAX, soon = cycle + 1;
    int i;
    if (m->xbar.n_pkts)
        return soon;
    SIM_BITS_FOREACH(&m->chan_active, i) {
        const sim_channel *ch = &m->chan[i];
        if (ch->n_queued || ch->returning.count)
            return soon;
        if (ch->latency.count)
            earliest(&best, ch->latency.items[ch->latency.head].ready);
        for (int s = 0; s < m->cfg.n_sub; s++) {
            sim_ring *q = &m->sub[i * m->cfg.n_sub + s].to_dram;
            if (q->count)
                earliest(&best, sim_ring_front(q)->ready);
        }
    }
    SIM_BITS_FOREACH(&m->sub_active, i) {
        sim_subpart *p = &m->sub[i];
        if (p->l2q.count || p->fillq.count || p->respq.count || p->missq.count)
            return soon;
        if (p->rop.count)
            earliest(&best, sim_ring_front(&p->rop)->ready);
    }
    SIM_BITS_FOREACH(&m->sm_active, i) {
        sim_sm_port *p = &m->sm[i];
        if (p->missq.count)
            return soon;
        if (p->replies.count)
            earliest(&best, sim_ring_front(&p->replies)->ready);
        for (int b = 0; p->l1q_count && b < m->cfg.l1_banks; b++)
            earliest(&best, p->l1q_at[b].front);   /* UINT64_MAX when empty */
    }
    for (int s = 0; s < m->n_sm; s++)
        if (m->sm[s].done.count)
            earliest(&best, m->sm[s].done.items[m->sm[s].done.head].ready);
    return best == UINT64_MAX ? best : best < soon ? soon : best;
}

/* ---- functional words, statistics ---- */

void sim_memsys_poke(sim_memsys *m, uint64_t addr, uint32_t value)
{
    sim_funcmem_set(&m->words, addr, value);
}

uint32_t sim_memsys_peek(const sim_memsys *m, uint64_t addr)
{
    return sim_funcmem_get(&m->words, addr);
}

/* Every field of sim_cache_stats is a uint64_t counter. */
static void cache_stats_add(sim_cache_stats *to, const sim_cache_stats *from)
{
    uint64_t *t = (uint64_t *)to;
    const uint64_t *f = (const uint64_t *)from;
    for (size_t i = 0; i < sizeof *to / sizeof *t; i++)
        t[i] += f[i];
}

const sim_mem_stats *sim_memsys_stats(sim_memsys *m)
{
    sim_cache_stats *l1 = &m->stats.l1;
    memset(l1, 0, sizeof *l1);
    for (int s = 0; s < m->n_sm; s++)
        cache_stats_add(l1, &m->sm[s].stats);
    sim_pc_stats_sum(m, &m->stats);
    return &m->stats;
}

const sim_cache_stats *sim_memsys_l1_stats(const sim_memsys *m, int sm)
{
    return &m->sm[sm].stats;
}

void sim_memsys_reset_stats(sim_memsys *m)
{
    memset(&m->stats, 0, sizeof m->stats);
    m->stats.contention_valid = (uint64_t)m->cfg.contention_counters;
    for (int s = 0; s < m->n_sm; s++) {
        memset(&m->sm[s].stats, 0, sizeof m->sm[s].stats);
        m->sm[s].n_pcs = 0;
    }
    m->dram_tick_base = m->clk[SIM_CLK_DRAM].next;
}

/* GPGPU-Sim's max_cta (shader.cc) with -gpgpu_unified_l1d_size: the least
 * -gpgpu_shmem_option that holds the kernel's shared memory (the largest
 * when none does: GPGPU-Sim asserts, and occupancy already keeps shmem
 * within -gpgpu_shmem_size) leaves the L1 1 - option / unified of the most
 * ways, rounded to nearest in single precision as GPGPU-Sim does. */
static int carve_unified(const sim_mem_config *c, long shmem)
{
    int opt = c->shmem_opt_kb[c->n_shmem_opt - 1];
    for (int i = 0; i < c->n_shmem_opt; i++)
        if (shmem <= (long)c->shmem_opt_kb[i] * 1024) {
            opt = c->shmem_opt_kb[i];
            break;
        }
    float l1_ratio = 1 - (float)(opt * 1024) / (float)(c->unified_kb * 1024);
    int ways = (int)((float)c->l1_max_assoc * l1_ratio + 0.5f);
    return ways > 0 ? ways : 1;   /* GPGPU-Sim would keep a 0-way L1; one way stays */
}

int sim_memsys_carve_l1(sim_memsys *m, long shmem)
{
    int base = m->cfg.l1.assoc, max = m->cfg.l1_max_assoc, ways = base;
    if (!m->cfg.l1.enabled || !m->cfg.adaptive_l1)
        return base;
    if (m->cfg.unified_kb > 0)
        ways = carve_unified(&m->cfg, shmem);
    else if (shmem < m->cfg.shmem_size)   /* GPGPU-Sim 4.0's fixed table */
        ways = shmem <= 0 ? max : shmem <= 8192 ? max * 15 / 16 : shmem <= 16384 ? max * 7 / 8
               : shmem <= 32768 ? max * 3 / 4 : shmem <= 65536 ? max / 2 : max / 4;
    for (int s = 0; s < m->n_sm; s++) {
        sim_cache *c = &m->sm[s].l1;
        /* lines are indexed set x ways: a new way count empties them all */
        sim_cache_reset(c, ways);
        m->sm[s].version++;
    }
    return ways;
}

void sim_memsys_flush_l1(sim_memsys *m)
{
    if (!m->cfg.l1.enabled)
        return;
    for (int s = 0; s < m->n_sm; s++) {
        sim_cache_invalidate_valid(&m->sm[s].l1);
        m->sm[s].version++;
    }
}

trapeze_status sim_memsys_unit_counts(const trapeze_config *cfg, int n_sm,
                                      int units[SIM_UNIT_KIND_COUNT], trapeze_error *err)
{
    sim_mem_config c;
    trapeze_status s = sim_mem_config_read(cfg, n_sm, &c, err);
    if (!s)
        s = check_footprint(&c, n_sm, cfg, err);   /* also bounds the products below */
    if (s)
        return s;
    units[SIM_UNIT_L1_BANK] = c.l1.enabled ? n_sm : 0;
    units[SIM_UNIT_L2_BANK] = c.l2.enabled ? c.n_mem * c.n_sub : 0;
    units[SIM_UNIT_L1_LINE] = c.l1.enabled ? n_sm * c.l1.sets * c.l1_max_assoc : 0;
    units[SIM_UNIT_L2_LINE] = c.l2.enabled ? c.n_mem * c.n_sub * c.l2.sets * c.l2.assoc : 0;
    return TRAPEZE_OK;
}

double sim_memsys_dram_peak(const sim_memsys *m)
{
    double per_dram_cycle = (double)m->cfg.n_mem * m->cfg.atom_bytes / m->cfg.burst_cycles;
    return per_dram_cycle * sim_clock_ratio(&m->clk[SIM_CLK_DRAM]);
}
