/*
 * selcache.c - Choo's selective caching (selcache.h): the per-load plan,
 * the locality degree's victim choice and the tables' updates.
 */
#include "sim/mem/selcache.h"

static void bypass_all(sim_mem_request *const *reqs, int n)
{
    for (int i = 0; i < n; i++)
        reqs[i]->flags |= SIM_MEM_BYPASS_L1;
}

/* LASC: the PC has an entry and none of its evicted lines was reused. */
static int lasc_no_reuse(const sim_mem_config *cfg, const sim_sel_state *st, uint32_t pc)
{
    uint32_t e = sim_sel_hash(pc) & (uint32_t)(cfg->lasc_entries - 1);
    return st->rft_seen[e] && !st->rft_reuse[e];
}

void sim_sel_plan(const sim_mem_config *cfg, const sim_sel_state *st, const sim_cache *c,
                  sim_mem_request *const *reqs, int n)
{
    if (n <= 0)
        return;
    if ((cfg->lasc && lasc_no_reuse(cfg, st, reqs[0]->pc)) ||
        cfg->l1_select == SIM_SEL_BYPASS_ALL) {
        bypass_all(reqs, n);
        return;
    }
    int assoc = c->cfg.assoc;
    if (cfg->l1_select == SIM_SEL_NONE || n <= assoc)
        return;   /* a convergent load (D <= assoc) cannot stall on its own set */
    int set[64];
    n = n < 64 ? n : 64;   /* a warp load makes at most 32 requests (one per sector) */
    for (int i = 0; i < n; i++)
        set[i] = sim_cache_set(c, reqs[i]->addr & ~(uint64_t)(SIM_LINE_BYTES - 1));
    /* per set, the last assoc requests are cached: request i bypasses when
     * at least assoc requests to its set come after it */
    for (int i = 0; i < n; i++) {
        int later = 0;
        for (int j = i + 1; j < n; j++)
            later += set[j] == set[i];
        reqs[i]->flags |= later >= assoc ? SIM_MEM_BYPASS_L1 : SIM_MEM_SEL_CACHE;
    }
}

int sim_sel_set_max(const sim_cache *c, sim_mem_request *const *reqs, int n)
{
    int set[64], most = 0;
    n = n < 64 ? n : 64;
    for (int i = 0; i < n; i++) {   /* n <= 32: the pairs cost less than a table of sets */
        set[i] = sim_cache_set(c, reqs[i]->addr & ~(uint64_t)(SIM_LINE_BYTES - 1));
        int same = 1;
        for (int j = 0; j < i; j++)
            same += set[j] == set[i];
        most = same > most ? same : most;
    }
    return most;
}

void sim_sel_insert(sim_line *l, uint32_t pc)
{
    l->pc_hash = (uint16_t)sim_sel_hash(pc);
    l->reuse = 0;
}

void sim_sel_hit(sim_line *l)
{
    if (l->reuse < SIM_REREF_MAX)
        l->reuse++;
}

void sim_sel_evict(const sim_mem_config *cfg, sim_sel_state *st, const sim_line *victim)
{
    if (cfg->lasc) {
        uint32_t e = victim->pc_hash & (uint32_t)(cfg->lasc_entries - 1);
        st->rft_seen[e] = 1;
        st->rft_reuse[e] |= victim->reuse > 0;
    }
    if (cfg->l1_select == SIM_SEL_LOC) {
        uint32_t e = victim->pc_hash % SIM_REREF_ENTRIES;
        st->reref_sum[e] += victim->reuse;
        st->reref_n[e]++;
    }
}

int sim_sel_victim(const sim_sel_state *st, const sim_cache *c, uint64_t line, uint32_t pc,
                   int way)
{
    size_t base = (size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc;
    const sim_line *set = &c->lines[base];
    if (set[way].state == SIM_LINE_INVALID)
        return way;
    int best = -1;
    for (int w = 0; w < c->cfg.assoc; w++)   /* the least re-referenced, LRU among ties */
        if (set[w].state == SIM_LINE_VALID &&
            (best < 0 || set[w].reuse < set[best].reuse ||
             (set[w].reuse == set[best].reuse && set[w].stamp < set[best].stamp)))
            best = w;
    if (best < 0)
        return way;
    uint32_t e = sim_sel_hash(pc) % SIM_REREF_ENTRIES;
    if (!st->reref_n[e])
        return best;   /* nothing known of the PC yet: cache, as the baseline would */
    /* average > counter, without dividing: sum > counter x evictions */
    return (uint64_t)st->reref_sum[e] > (uint64_t)set[best].reuse * st->reref_n[e] ? best : -1;
}
