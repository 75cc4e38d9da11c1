/*
 * trapeze/simd.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * The width-and-depth model (model/simd.c): Robust SIMD's choice of an SM's
 * organization, W lanes per warp-slice x D active slices, made in closed
 * form from two short samples of a kernel at full width
 * (sampler/simd/simd_sample.c), and the simulations that check it.
 */
#ifndef TRAPEZE_SIMD_H
#define TRAPEZE_SIMD_H

#include <stdint.h>

#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the model reads of one sample: its counters per SM. */
typedef struct trapeze_simd_sample {
    int threads;             /* active threads per SM (W x D) it ran with, W = 32 */
    int depth;               /* its D: active warps per SM (threads / 32) */
    double cycles;           /* per SM */
    double thread_insts, warp_insts, l1_accesses, l1_misses;   /* per SM */
    double mem_share;        /* scheduler cycles stalled on memory / all */
} trapeze_simd_sample;

/* One kernel launch on one GPU (opaque): the first launch of a built-in
 * kernel, or the first kernel of an Accel-Sim trace. */
typedef struct trapeze_simd_kernel trapeze_simd_kernel;

/* gpu: a config path or comma-separated list (trapeze_config_load); name
 * and "name=value" params: a built-in kernel (`trapeze sim --list`). */
trapeze_status trapeze_simd_kernel_builtin(const char *gpu, const char *name,
                                           char *const *params, int n_params,
                                           trapeze_simd_kernel **out, trapeze_error *err);
/* kernelslist: an Accel-Sim trace's kernelslist.g (or its folder). */
trapeze_status trapeze_simd_kernel_trace(const char *gpu, const char *kernelslist,
                                         trapeze_simd_kernel **out, trapeze_error *err);
void trapeze_simd_kernel_destroy(trapeze_simd_kernel *k);

/* One simulation of k at width w (lanes per slice: 32, 16, 8, 4, 2) and
 * depth d (active slices per SM; 0: all), stopped after `window` warp
 * instructions (0: whole). */
typedef struct trapeze_simd_run {
    uint64_t cycles, warp_insts, thread_insts;
} trapeze_simd_run;
trapeze_status trapeze_simd_simulate(const trapeze_simd_kernel *k, int w, int d, long window,
                                     trapeze_simd_run *out, trapeze_error *err);

/* The model's grid: widths 32, 16, 8, 4, each at T/4, T/2 and T active
 * threads per SM (T: the SM's warp slots x 32), in that order
 * (org i: width 32 >> (i / 3), threads T >> (2 - i % 3)). */
#define TRAPEZE_SIMD_ORGS 12
typedef struct trapeze_simd_decision {
    int n_sm, n_sched, max_warps;          /* the GPU as the simulator reads it */
    long window;                           /* warp instructions of each sample */
    trapeze_simd_sample a, b;              /* all warps; a quarter of them */
    int width[TRAPEZE_SIMD_ORGS], depth[TRAPEZE_SIMD_ORGS];
    double per_thread_inst[TRAPEZE_SIMD_ORGS];   /* predicted cycles per thread instruction */
    int pick;                              /* the predicted fastest (first of equals) */
} trapeze_simd_decision;
/* Samples k twice for `window` warp instructions at full width (all warps
 * per SM, then a quarter), fits the model and picks on the grid. */
trapeze_status trapeze_simd_decide(const trapeze_simd_kernel *k, long window,
                                   trapeze_simd_decision *out, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
