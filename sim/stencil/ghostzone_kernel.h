/*
 * ghostzone_kernel.h - ghost-zone (trapezoid) stencil kernels generated from
 * a workload spec, in Meng's "non-shrinking computation" form (dissertation
 * 5.3.3): each block loads its enlarged tile (blk_len^D threads, one element
 * each, boundaries clamped as in Listing 5.1) into shared memory, runs h
 * stencil loops with barriers between them, then commits the valid shrunk
 * tile of (blk_len - HaloWidth*h)^D elements.
 *
 * Two global-sync modes:
 *  - relaunch: one kernel per stage, ceil(iterations / h) kernels, the
 *    iterated array ping-ponging between grid_a and grid_b;
 *  - fence: one persistent kernel of `resident_blocks` blocks that loop over
 *    the tiles of each stage, then meet at an atomic-counter global barrier
 *    (one counter word per stage). Blocks never wait for a block that is not
 *    resident, so the barrier cannot deadlock when resident_blocks is at most
 *    what the GPU holds at once.
 */
#ifndef TRAPEZE_SIM_STENCIL_GHOSTZONE_KERNEL_H
#define TRAPEZE_SIM_STENCIL_GHOSTZONE_KERNEL_H

#include "sim/kernel.h"
#include "trapeze.h"

typedef struct sim_stencil_spec {
    const trapeze_workload *workload;
    int h;                  /* trapezoid height (Eq. 5.20 must hold) */
    trapeze_sync sync;
    int iterations;         /* stencil loops; 0: the workload's */
    int insts_per_op;       /* warp instructions per stencil op per loop; 0: from [profile] */
    int setup_insts;        /* per-thread setup instructions per launch; 0: from [profile] */
    long resident_blocks;   /* fence mode: blocks of the persistent kernel; 0: one per tile */
} sim_stencil_spec;

typedef struct sim_stencil {
    int n_kernels;          /* relaunch: stages; fence: 1 */
    sim_kernel **kernels;
    int stages;             /* ceil(iterations / h) */
    long tiles;             /* trapezoids per stage: prod ceil(DataLength_i / out_edge) */
    long resident_blocks;   /* fence: blocks of the persistent kernel; relaunch: tiles */
    int out_edge;           /* blk_len - HaloWidth * h */
    int insts_per_op, setup_insts;
} sim_stencil;

trapeze_status sim_stencil_build(const sim_stencil_spec *spec, sim_stencil **out,
                                 trapeze_error *err);
void sim_stencil_destroy(sim_stencil *s);

/* Instruction counts defaulted from Meng's profile (Table 5.2): warp
 * instructions per warp per loop = InstsPerSM * M / N * WarpSize, with the
 * profiling GPU's M = 30 SMs of the GTX 280. */
int sim_stencil_default_insts_per_op(const trapeze_workload *w);
int sim_stencil_default_setup_insts(const trapeze_workload *w);

#endif
