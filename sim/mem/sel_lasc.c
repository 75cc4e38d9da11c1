/*
 * sel_lasc.c - LASC, Choo's locality-aware selective caching, the 1-bit
 * design at threshold 1.0 (-trapeze_l1d_lasc 1; selcache.h): the per-SM
 * reuse frequency table, 64 entries by default, indexed by the load PC's
 * hash. Must not move requests (l1d.c sends a bypassed one past the L1D)
 * nor count statistics.
 */
#include "sim/mem/selcache.h"

int sim_sel_lasc_bypass(const sim_mem_config *cfg, const sim_sel_state *st, uint32_t pc)
{
    uint32_t e = sim_sel_hash(pc) & (uint32_t)(cfg->lasc_entries - 1);
    return st->rft_seen[e] && !st->rft_reuse[e];
}

void sim_sel_lasc_evict(const sim_mem_config *cfg, sim_sel_state *st, const sim_line *victim)
{
    uint32_t e = victim->pc_hash & (uint32_t)(cfg->lasc_entries - 1);
    st->rft_seen[e] = 1;
    st->rft_reuse[e] |= victim->reuse > 0;
}
