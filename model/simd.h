/*
 * simd.h - the width-and-depth model (Robust SIMD's choice in closed form):
 * the cycles per thread instruction of each (SIMD width W x depth D)
 * organization of an SM, predicted from two short simulated samples at
 * full width, and the organization it picks. Knows nothing of the
 * simulator: a sample is the counters sampler/simd/simd_sample.c reads from
 * one. Internal to the library (TRAPEZE_INTERNAL): trapeze_simd_decide uses it.
 *
 * Per thread instruction, with T = W x D active threads per SM:
 *   issue(W) = 1 / (W u(W) n_sched), u(W) = u32^(log2 W / 5): the active
 *     share of a slice's lanes, u32 at W = 32, 1 for a single lane (lanes
 *     diverge more often in a wider slice);
 *   ldst(W)  = a32 (32 / W)^c: L1 line accesses at one a cycle, c = 1 when
 *     a 32-wide instruction touches one line (narrower slices split it),
 *     0 when each lane touches its own;
 *   mem(T,W) = m(T) L / (T / 32 (32 / W)^(1 - c)): misses, linear in the
 *     threads resident from the two samples, each L cycles over the streams
 *     that wait apart: a warp's worth of threads each, and narrower slices
 *     more only where lanes touch lines of their own (they then wait for
 *     their own misses alone; coalesced slices share their lines);
 *   cpt      = max of the three + v (their sum - the max), v and L fitted so
 *     that the first sample is reproduced exactly.
 */
#ifndef TRAPEZE_MODEL_SIMD_H
#define TRAPEZE_MODEL_SIMD_H

#include "common/internal.h"
#include "trapeze.h"

/* trapeze_simd_sample: include/trapeze/simd.h. */
typedef struct trapeze_simd_model {
    int n_sched;
    double u32, a32, c;      /* lane share, line accesses per thread inst, coalescing */
    double m_a, m_slope, t_a;   /* misses per thread inst at t_a threads, per thread more */
    double lat, v;           /* cycles per miss and stream; overlap */
} trapeze_simd_model;

/* Fits the model to samples a (all warps) and b (fewer threads, same W = 32). */
TRAPEZE_INTERNAL trapeze_status trapeze_simd_fit(const trapeze_simd_sample *a,
                                                 const trapeze_simd_sample *b, int n_sched,
                                                 trapeze_simd_model *m, trapeze_error *err);
/* Predicted cycles per thread instruction of width w and depth d. */
TRAPEZE_INTERNAL double trapeze_simd_predict(const trapeze_simd_model *m, int w, int d);
/* The organization of n (widths w[i], depths d[i]) predicted fastest: its index. */
TRAPEZE_INTERNAL int trapeze_simd_pick(const trapeze_simd_model *m, const int *w, const int *d,
                                       int n);

#endif
