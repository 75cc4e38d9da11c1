/*
 * selcache.c - Choo's selective caching (selcache.h): the per-load plan
 * (ind's per-set choice, bypass_all, LASC's verdict, the listed PCs), a line's metadata and
 * the per-set contention count; the locality degree's table and victim are
 * sel_loc.c's, LASC's reuse frequency table sel_lasc.c's.
 */
#include "sim/mem/selcache.h"

static void bypass_all(sim_mem_request *const *reqs, int n)
{
    for (int i = 0; i < n; i++)
        reqs[i]->flags |= SIM_MEM_BYPASS_L1;
}

/* -trapeze_l1_bypass_pcs: is pc one of the loads told to skip the L1? */
static int listed(const sim_mem_config *cfg, uint32_t pc)
{
    for (int i = 0; i < cfg->n_bypass_pcs; i++)
        if (cfg->bypass_pcs[i] == pc)
            return 1;
    return 0;
}

void sim_sel_plan(const sim_mem_config *cfg, const sim_sel_state *st, const sim_cache *c,
                  sim_mem_request *const *reqs, int n)
{
    if (n <= 0)
        return;
    if ((cfg->lasc && sim_sel_lasc_bypass(cfg, st, reqs[0]->pc)) ||
        cfg->l1_select == SIM_SEL_BYPASS_ALL || listed(cfg, reqs[0]->pc)) {
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
    if (cfg->lasc)
        sim_sel_lasc_evict(cfg, st, victim);
    if (cfg->l1_select == SIM_SEL_LOC)
        sim_sel_loc_evict(st, victim);
}
