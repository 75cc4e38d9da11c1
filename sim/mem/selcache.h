/*
 * selcache.h - Choo's selective caching at the L1D (seed 003, chapters 4
 * and 5): which requests of a warp load skip the L1, and the per-SM tables
 * behind that choice (one file a policy: selcache.c the plan, ind and
 * bypass_all; sel_loc.c the locality degree; sel_lasc.c LASC's table).
 * Owns the decision and the meaning of a line's pc_hash and reuse fields;
 * it must not move requests (l1d.c sends them) and counts no statistics.
 *
 *  - contention-aware selective caching (-trapeze_l1d_select ind): a load
 *    whose coalesced requests outnumber the ways (divergence D > assoc)
 *    caches, in each set it sends more than assoc requests to, only the
 *    last assoc of them and bypasses the rest (the seed's scheme c, per
 *    set: the lines it leaves are the baseline's);
 *  - loc adds the locality degree: a request chosen to be cached that
 *    would evict a valid line replaces the set's least re-referenced line
 *    only if its PC's average re-reference count at eviction is higher,
 *    and bypasses otherwise (a PC never evicted yet caches);
 *  - bypass_all: every global load skips the L1;
 *  - LASC (-trapeze_l1d_lasc 1): the 1-bit design at threshold 1.0. A
 *    line's reuse bit is set by any hit; an evicted line ORs its bit into
 *    its PC's reuse frequency table entry; a load whose PC has an entry
 *    that is still 0 bypasses the L1 (its requests probe the tags on the
 *    way and set the bit of a line they find, so a PC can turn to reuse).
 *
 * The tables are per SM (the seed's RFT is one for the GPU): SMs share
 * nothing but the memory system, so that they can run in parallel.
 */
#ifndef TRAPEZE_SIM_MEM_SELCACHE_H
#define TRAPEZE_SIM_MEM_SELCACHE_H

#include <stdint.h>

#include "sim/mem/cache.h"
#include "sim/mem/mem_config.h"
#include "sim/memsys.h"

enum {
    SIM_SEL_HASH_BITS = 10,       /* a line's pc_hash: 10 bits of the load's PC */
    SIM_RFT_MAX = 1 << SIM_SEL_HASH_BITS,
    SIM_REREF_ENTRIES = 128,      /* the seed's 7-bit hashed PC */
    SIM_REREF_MAX = 15            /* its 4-bit re-reference counter */
};

typedef struct sim_sel_state {
    uint8_t rft_seen[SIM_RFT_MAX];    /* LASC: an eviction of this PC was recorded */
    uint8_t rft_reuse[SIM_RFT_MAX];   /* LASC: OR of the evicted lines' reuse bits */
    uint32_t reref_sum[SIM_REREF_ENTRIES], reref_n[SIM_REREF_ENTRIES];  /* loc: per PC */
} sim_sel_state;

/* Is the per-line metadata kept (any selective caching, or the counters
 * that report unused evictions)? */
static inline int sim_sel_on(const sim_mem_config *cfg)
{
    return cfg->l1_select != SIM_SEL_NONE || cfg->lasc || cfg->contention_counters ||
           cfg->n_bypass_pcs > 0;
}

/* The PC's hash, SIM_SEL_HASH_BITS bits (Fibonacci hashing). */
static inline uint32_t sim_sel_hash(uint32_t pc)
{
    return (pc * 0x9E3779B1u) >> (32 - SIM_SEL_HASH_BITS);
}

/* One warp load's n requests (all its pc): sets SIM_MEM_BYPASS_L1 on those
 * that skip the L1 and SIM_MEM_SEL_CACHE on a divergent load's requests
 * chosen to be cached (the locality degree decides their victim). */
void sim_sel_plan(const sim_mem_config *cfg, const sim_sel_state *st, const sim_cache *c,
                  sim_mem_request *const *reqs, int n);
/* The most of one warp load's n requests that fall in one set of c (the
 * seed's per-set contention: above the ways, the load overflows its set
 * on its own). */
int sim_sel_set_max(const sim_cache *c, sim_mem_request *const *reqs, int n);
/* A line is allocated for a load of pc / read again / evicted. */
void sim_sel_insert(sim_line *l, uint32_t pc);
void sim_sel_hit(sim_line *l);
void sim_sel_evict(const sim_mem_config *cfg, sim_sel_state *st, const sim_line *victim);
/* loc: the way a request chosen to be cached takes on a miss whose victim
 * is `way` (an invalid way is taken as it is; else the least re-referenced
 * valid line of the set), or -1 when its PC's average re-reference count is
 * not higher than that line's: the request bypasses. */
int sim_sel_victim(const sim_sel_state *st, const sim_cache *c, uint64_t line, uint32_t pc,
                   int way);
/* loc (sel_loc.c): an evicted line's re-references added to its PC's. */
void sim_sel_loc_evict(sim_sel_state *st, const sim_line *victim);
/* LASC (sel_lasc.c): whether a load of pc bypasses (its PC has an entry and
 * none of its evicted lines was reused), and an evicted line's reuse bit
 * ORed into its PC's entry. */
int sim_sel_lasc_bypass(const sim_mem_config *cfg, const sim_sel_state *st, uint32_t pc);
void sim_sel_lasc_evict(const sim_mem_config *cfg, sim_sel_state *st, const sim_line *victim);

#endif
