/*
 * rsimd.h - internal to sim/core: Robust SIMD (Meng, Sheaffer and Skadron;
 * seed 001, ch. 7) in the SM. Owns the SIMD width W and depth D in force,
 * which slices and warps are active, the sampled intervals and the
 * kernel's phases (adaptation, RobustDWS's trial, execution). It does not
 * form slices (dws.c's table holds them) nor pick the next configuration
 * (rsimd_asu.c does).
 *
 * Width: a warp is cut into slices of W neighbouring lanes, each with its
 * own instruction position (its own re-convergence stack: dws.c runs each
 * slice over the warp's fetched instructions with its own lanes, and slices
 * meet only at barriers, fences, atomics and EXIT). Depth: at most D slices
 * (whole warps at W = 32) of the SM are active, the oldest warps' first;
 * the rest are suspended. A slice or warp waiting at a barrier or for a
 * sibling holds no activity, so suspended ones can reach the barrier.
 *
 * Intervals end when -trapeze_rsimd_interval threads have finished (the
 * seed's tasks); cycles per finished thread is the measure. At an interval
 * end the next configuration takes effect: D at once, W for warps placed
 * from then on and for warps re-slicing after a barrier (the seed drains
 * every thread first; Trapeze's warps run whole thread blocks, so it does
 * not).
 */
#ifndef TRAPEZE_SIM_CORE_RSIMD_H
#define TRAPEZE_SIM_CORE_RSIMD_H

#include "sim/core/rsimd_asu.h"
#include "sim/core/sm.h"

typedef struct sim_rsimd {
    int width, depth;              /* in force (depth 0: every slice) */
    int phase;                     /* rsimd.c */
    sim_asu asu;
    uint64_t start;                /* the interval's first cycle */
    long tasks;                    /* threads finished in it */
    int n_order;
    uint8_t order[SM_MAX_WARPS];   /* resident warp slots, oldest first */
    uint8_t off[SM_MAX_WARPS];     /* a whole warp suspended (its slices: dws.c's off) */
} sim_rsimd;

/* The SM's state when its config enables Robust SIMD (sm->rsimd NULL otherwise). */
trapeze_status sim_rsimd_init(sim_sm *sm, trapeze_error *err);
void sim_rsimd_free(sim_sm *sm);
/* A kernel begins at cycle t: the configured (W x D), a new adaptation. */
void sim_rsimd_begin_kernel(sim_sm *sm, uint64_t t);
/* Warp `slot` was placed at t with its first instruction: sliced, gated. */
void sim_rsimd_placed(sim_sm *sm, int slot, uint64_t t);
/* Warp `slot` left the SM. */
void sim_rsimd_released(sim_sm *sm, int slot);
/* A block of `threads` threads finished at t (an interval may end). */
void sim_rsimd_finished(sim_sm *sm, int threads, uint64_t t);
/* Hands the D activities to the oldest eligible slices and warps; those
 * that gain one may issue from t + 1. */
void sim_rsimd_gate(sim_sm *sm, uint64_t t);

static inline int sim_rsimd_suspended(const sim_sm *sm, int slot)
{
    return sm->rsimd && sm->rsimd->off[slot];
}

#endif
