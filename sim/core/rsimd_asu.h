/*
 * rsimd_asu.h - internal to sim/core: Robust SIMD's adaptation state unit
 * (Meng, ch. 7), the search over (SIMD width W x depth D) that one SM runs
 * during a kernel's adaptation phase. Owns the search's state and which
 * configuration the next interval samples; it does not measure intervals
 * nor apply a configuration (rsimd.c does both).
 *
 * The search is the seed's DWrep with annealed strides: from the best
 * configuration so far, probe +stride and -stride of one dimension in the
 * next two intervals; when one beats the best, keep stepping that way
 * while it improves; then halve the stride, down to 1. Depth first, then
 * width, repeated until a whole pass changes nothing (three passes at
 * most). Strides start at half the range: lanes / 2 for W, Dmax(W) / 2 for
 * D, where Dmax(W) = ceil(lanes / W) x warps (narrower slices allow more).
 */
#ifndef TRAPEZE_SIM_CORE_RSIMD_ASU_H
#define TRAPEZE_SIM_CORE_RSIMD_ASU_H

enum { SIM_ASU_DEPTH, SIM_ASU_WIDTH };

typedef struct sim_asu {
    int lanes, warps, min_w;    /* the space: min_w <= W <= lanes, 1 <= D <= Dmax(W) */
    int w, d;                   /* the configuration the next interval samples */
    int best_w, best_d;
    double best;                /* its cycles per task */
    int dim, stride[2];
    int step;                   /* what the interval now sampled is (rsimd_asu.c) */
    int dir;                    /* the direction a move steps: +1 or -1 */
    double up;                  /* the +stride probe's cycles per task */
    int changed, passes;
    int done;                   /* converged: w, d are the best */
    int samples;                /* intervals measured */
} sim_asu;

/* Deepest configuration of width w. */
int sim_asu_dmax(const sim_asu *a, int w);
/* Starts a search at (w0, d0) (d0 0: every slice); a->w, a->d: its first sample. */
void sim_asu_start(sim_asu *a, int lanes, int warps, int min_w, int w0, int d0);
/* The interval at (a->w, a->d) took cpt cycles per task: a->w, a->d become
 * the next to sample, or the best with a->done set. */
void sim_asu_step(sim_asu *a, double cpt);

#endif
