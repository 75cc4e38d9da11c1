/*
 * dws.h - internal to sim/core: Dynamic Warp Subdivision (Meng, Tarjan and
 * Skadron, ISCA 2010), the SM's warp-split table. Owns which lanes of a warp
 * run as which split, where each split is in the warp's instruction stream,
 * the per-lane arrival of loaded data, and when splits are made and merged.
 * It does not decide which warp issues (the schedulers do) nor time anything
 * (sm.c issues the instruction a split puts in its warp's `inst`).
 *
 * A split warp keeps one instruction source cursor: the instructions it has
 * fetched stay in a ring, numbered in stream order (seq), and each split
 * executes the ring's entries with its own lanes (a fall-behind split
 * replays what a run-ahead one already ran; an entry with none of a split's
 * lanes active costs it nothing). The splits of a warp partition its 32
 * lanes. Re-convergence is by position: ready splits at the same seq merge
 * (their masks ORed), which is the seed's PC-based re-convergence with the
 * loop counters a structured program keeps per warp; a branch split waits at
 * its branch's post-dominator (the first entry that lanes of the other path
 * also execute) while those lanes are behind: the stack's fallback. Barriers,
 * fences, atomics, volatile loads, spin loops and EXIT wait until every split
 * is there, then run on the whole warp again.
 *
 * Robust SIMD's warp-slices (rsimd.c) are groups of this table too: splits
 * of fixed neighbouring lanes that never merge before such a join (each its
 * own stack), hold no warp-split table entry, and are cut again after it.
 */
#ifndef TRAPEZE_SIM_CORE_DWS_H
#define TRAPEZE_SIM_CORE_DWS_H

#include "sim/core/sm.h"

#define SIM_DWS_RING 64         /* entries a split may run ahead of its warp's last */
#define SIM_DWS_MAX_SPLITS 16   /* splits of one warp at most */

typedef struct sim_dws_split {
    uint32_t lanes;   /* its lanes */
    uint32_t sib;     /* branch split: the other path's lanes (waited for at the post-dominator) */
    uint32_t seq;     /* its next entry in the warp's stream */
    uint8_t mem;      /* made by a memory divergence (BranchLimited stops it at a branch) */
    uint8_t wait;     /* waiting for another split (not a candidate to issue) */
    uint8_t off;      /* Robust SIMD: a suspended slice (rsimd.c's depth) */
} sim_dws_split;

typedef struct sim_dws_group {
    int slot;                  /* the warp slot, -1: a free group */
    int n, loaded;             /* splits; the one whose instruction the warp holds */
    int sliced;                /* Robust SIMD's warp-slices: no merge before a join, no
                                * DWS split, outside the warp-split table's count */
    uint32_t base, nseq;       /* the ring holds entries base .. nseq-1 */
    sim_dws_split s[SIM_DWS_MAX_SPLITS];
    sim_warp_inst ring[SIM_DWS_RING];
} sim_dws_group;

typedef struct sim_dws {
    const sim_dws_config *cfg;
    int used;                  /* warp-split table entries in use (a split warp: one a split) */
    int n_groups;              /* wst / 2: every split warp holds two entries at least */
    int live;                  /* groups in use (split warps) */
    sim_dws_group *g;
    int16_t grp[SM_MAX_WARPS]; /* per slot: its group, -1 none */
    uint32_t (*pend)[SIM_MAX_REGS];   /* per slot and register: lanes whose load data is due */
    uint32_t (*hit)[SIM_MAX_REGS];    /* ... lanes whose data came within the hit window */
    uint64_t (*sent)[SIM_MAX_REGS];   /* ... the cycle its last request was accepted */
    int revive_next;           /* ReviveSplit: the slot its search starts at */
    int split_on;              /* DWS splits now (RobustDWS: only in its full-width trial) */
    int slice_w;               /* Robust SIMD: lanes per slice of a warp not split (32: none) */
} sim_dws;

/* The SM's table when its config enables a split or Robust SIMD (sm->dws
 * stays NULL otherwise). */
trapeze_status sim_dws_init(sim_sm *sm, trapeze_error *err);
void sim_dws_free(sim_sm *sm);
/* A kernel begins (or a window cut one short): no splits, no lanes due. */
void sim_dws_reset(sim_sm *sm);

static inline sim_dws_group *sim_dws_group_of(const sim_sm *sm, int slot)
{
    return sm->dws && sm->dws->grp[slot] >= 0 ? &sm->dws->g[sm->dws->grp[slot]] : NULL;
}

/* ---- lanes of loaded data (every warp, split or not) ---- */

/* A load or atomic of warp `slot` pushed requests lq[before ..]: each gets
 * the lanes whose first byte it carries (tag bits 32..63). */
void sim_dws_tag_requests(sim_sm *sm, int slot, const sim_warp_inst *in, int before);
/* The memory system took load request r at t: returns the warp's slot
 * (once the hit window has passed, its lanes still due are misses), or -1
 * for a request that loads no register. The port answers a queued access
 * before it knows hit or miss (SIM_MEM_SENT), so the SM tells them by time:
 * data back within -trapeze_dws_hit_cycles of the offer is a hit. */
int sim_dws_accepted(sim_sm *sm, const sim_mem_request *r, uint64_t t);
/* Request `done` of warp slot for register reg completed at t. */
void sim_dws_arrived(sim_sm *sm, int slot, int reg, const sim_mem_request *done, uint64_t t);
/* Register r has requests due: does the instruction the warp holds wait on
 * them (1), or are they only other splits' lanes (0)? */
int sim_dws_reg_waits(const sim_sm *sm, int slot, int r);

/* ---- splits ---- */

/* At t the held instruction waits on loaded data, some of its lanes hit and
 * some missed: *ready gets the lanes that may run ahead. Lanes that hit
 * while the others' hit window is still open lower *later (when not NULL)
 * to the cycle the others are known to have missed. */
int sim_dws_mem_divergent(const sim_sm *sm, int slot, uint64_t t, uint32_t *ready,
                          uint64_t *later);
/* Splits the held split (or the whole warp) into `ready` (run-ahead, then
 * held) and the rest; 0 when the table is full. */
int sim_dws_split_mem(sim_sm *sm, int slot, uint32_t ready);
/* Loads the k-th split of a split warp, from the one that issued last, into
 * its `inst`: 1 loaded, -1 that split waits for another, 0 no k-th split. */
int sim_dws_load_nth(sim_sm *sm, int slot, int k);
/* Warp `slot` issued an instruction (op, active mask, pc): its next one,
 * from the source or the ring, a branch split, merges. */
void sim_dws_next(sim_sm *sm, int slot, int op, uint32_t active, uint32_t pc);
/* Robust SIMD: cuts warp `slot` (not split) into slices of `width`
 * neighbouring lanes (slices with no live lane join the one before) and
 * loads the first that may run. */
void sim_dws_slice(sim_sm *sm, int slot, int width);
/* The memory-divergence policy in force now (off outside RobustDWS's trial). */
static inline sim_dws_mem sim_dws_mem_now(const sim_sm *sm)
{
    return sm->dws && sm->dws->split_on ? sm->cfg->dws.mem : SIM_DWS_MEM_OFF;
}
/* A warp slot is released: its splits (a launch cut by a window) go. */
void sim_dws_release(sim_sm *sm, int slot);

/* Aborts (TRAPEZE_ASSERT) unless: the table holds at most -trapeze_dws_wst
 * entries, each split warp's splits partition its lanes, their positions lie
 * in its ring, and warps plus extra splits fit twice the warp slots. */
void sim_dws_check(const sim_sm *sm);

#endif
