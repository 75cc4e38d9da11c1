/*
 * trapeze/workload.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * An iterative stencil loop's workload spec (trapeze_workload), its derived
 * instruction counts and shape, and the sync modes a stencil runs in.
 */
#ifndef TRAPEZE_WORKLOAD_H
#define TRAPEZE_WORKLOAD_H

#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An iterative stencil loop (workload spec, INI). Inputs of the model. */
#define TRAPEZE_MAX_DIMS 3
typedef struct trapeze_workload {
    char name[64];
    char path[256];
    int dims;                           /* D: 1, 2 or 3 */
    double data_len[TRAPEZE_MAX_DIMS];  /* DataLength_i */
    int halo[TRAPEZE_MAX_DIMS];         /* HaloWidth_i (both sides together) */
    int blk_len;                        /* thread-block edge, the same in every dimension */
    int regs_per_thread;                /* registers per thread (16, the generated kernels') */
    int star;                           /* "shape = star": neighbours along the axes only (a 3-D
                                           7-point star); 0: the whole (halo+1)^D box */
#define TRAPEZE_MAX_AUX_ARRAYS 8
    int aux_halo[TRAPEZE_MAX_AUX_ARRAYS]; /* per extra array (stencil_arrays - 1, in order): the
                                           neighbourhood it is read with, both sides together,
                                           in the stencil's shape (0: its own element), <= halo */
    int stencil_arrays;                 /* NumStencilArrays */
    double elem_per_op;                 /* NumElemPerOp */
    int element_bytes;                  /* x */
    int iterations;                     /* stencil loops to run (simulation) */
    int height;                         /* trapezoid height to run; 0 = unset */
    double profile_elements;            /* N of the profiling run */
    double insts_per_sm_mc;             /* InstsPerSM_MC */
    double insts_per_sm_ic;             /* InstsPerSM_IC */
    double bank_conflict_rate;
    double setup_insts;                 /* per-thread setup instructions of the generated kernel,
                                           from the spec's own [profile] (a calibration's profile
                                           does not change it); 0: derive from the counts */
    /* The stencil in its author's terms (docs/formats.md). */
    int shape_given;                    /* 0: "shape" unset, the (halo+1)^D box assumed */
#define TRAPEZE_MAX_OFFSETS 343         /* a radius-3 box in 3-D */
    int n_offsets;                      /* "shape = -1,0 1,0 ...": the points read; 0: box/star */
    short offsets[TRAPEZE_MAX_OFFSETS][TRAPEZE_MAX_DIMS];
    int element_type;                   /* trapeze_element_type: the arithmetic's unit */
    int flops_per_point;                /* arithmetic instructions per point and loop */
    int sfu_per_point;                  /* special-function instructions per point and loop */
    int counts_source;                  /* trapeze_counts_source of the instruction counts */
} trapeze_workload;

typedef enum { TRAPEZE_ELEM_FLOAT, TRAPEZE_ELEM_DOUBLE, TRAPEZE_ELEM_INT } trapeze_element_type;
/* Where a workload's instruction counts (profile_elements, insts_per_sm_*)
 * come from: derived from its spec (no [profile]), the spec's [profile], or
 * derived from the spec with the arithmetic a run of the stencil's own
 * kernel showed (trapeze_workload_load_facts). */
typedef enum { TRAPEZE_COUNTS_SPEC, TRAPEZE_COUNTS_PROFILE, TRAPEZE_COUNTS_RUN }
    trapeze_counts_source;

trapeze_status trapeze_workload_load(const char *path, trapeze_workload *w,
                                     trapeze_error *err);
/* What a run of the stencil's own kernel (one thread per point, one sweep
 * per launch: its Accel-Sim trace) shows, for what a spec leaves out. */
typedef struct trapeze_workload_facts {
    const char *source;                 /* "trace" ...: named in messages */
    int dims;                           /* 0: unknown */
    double size[TRAPEZE_MAX_DIMS];      /* threads per dimension: the grid's points */
    int block[TRAPEZE_MAX_DIMS];        /* threads per block and dimension */
    double loads_per_point;             /* global loads per thread and sweep; <= 0: unknown */
    double flops_per_point;             /* FP arithmetic per thread and sweep; < 0: unknown */
    double sfu_per_point;               /* special-function per thread and sweep; < 0: unknown */
} trapeze_workload_facts;

/* trapeze_workload_load, taking from f what the spec leaves out: dimensions,
 * size and block (the run's grid, in threads, and its block edge);
 * flops_per_point and sfu_per_point; and in 2-D or 3-D an unset shape, as
 * the star when the star's values read per point are the run's global loads
 * per thread, else the box. What the spec gives wins. The counts are then
 * TRAPEZE_COUNTS_RUN unless the spec has a [profile]. */
trapeze_status trapeze_workload_load_facts(const char *path, const trapeze_workload_facts *f,
                                           trapeze_workload *w, trapeze_error *err);
/* The keys a workload spec may hold, in the parser's own table: the i-th
 * key's name and its section in *section; NULL past the last. */
const char *trapeze_workload_key(int i, const char **section);
/* Instruction counts of one stencil op (one point, one loop, per warp) as
 * the generated kernel runs them, from the spec alone, and its setup. */
typedef struct trapeze_workload_counts {
    int points;          /* neighbours read from the iterated array */
    int shared_loads;    /* those plus each extra array's neighbourhood */
    int global_loads;    /* NumElemPerOp */
    int arith, sfu;      /* flops_per_point, sfu_per_point */
    int per_point;       /* loads + arith + sfu + the store */
    int setup;           /* per thread, once per launch: index arithmetic */
    int outside_loop;    /* setup + staging (a load and a store per array) + the commit */
} trapeze_workload_counts;
void trapeze_workload_derive_counts(const trapeze_workload *w, trapeze_workload_counts *c);
/* Calls fn(ctx, offset) for each point of w's shape within the box
 * [-left_d, right_d] (all of it for a box, the axes for a star, the listed
 * points inside it for a list), dimension 0 fastest; returns their number.
 * fn may be NULL (count only). */
int trapeze_workload_points(const trapeze_workload *w, const int *left, const int *right,
                            void (*fn)(void *ctx, const int *offset), void *ctx);
/* The neighbourhood of w's iterated array along dimension d: left[d]
 * elements before the point, right[d] after (halo/2 and the rest for a box
 * or a star; from the listed offsets for a list). */
void trapeze_workload_reach(const trapeze_workload *w, int *left, int *right);

typedef enum { TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE } trapeze_sync;
const char *trapeze_sync_name(trapeze_sync s);

#ifdef __cplusplus
}
#endif

#endif
