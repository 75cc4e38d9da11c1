/*
 * sel_loc.c - the locality degree of Choo's contention-aware selective
 * caching (-trapeze_l1d_select loc; selcache.h): the per-SM table of each
 * PC's re-references at eviction and the victim a request chosen to be
 * cached takes, or its bypass. Must not decide which requests of a load are
 * cached (selcache.c's plan) nor count statistics.
 */
#include "sim/mem/selcache.h"

void sim_sel_loc_evict(sim_sel_state *st, const sim_line *victim)
{
    uint32_t e = victim->pc_hash % SIM_REREF_ENTRIES;
    st->reref_sum[e] += victim->reuse;
    st->reref_n[e]++;
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
