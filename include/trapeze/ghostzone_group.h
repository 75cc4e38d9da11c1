/*
 * trapeze/ghostzone_group.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Ghost zones and TB groupings together (sampler/group/gz_group.c): each height's
 * best grouping and the ghost-zone model's CPL with its halo re-reads.
 */
#ifndef TRAPEZE_GHOSTZONE_GROUP_H
#define TRAPEZE_GHOSTZONE_GROUP_H

#include "trapeze/error.h"
#include "trapeze/workload.h"
#include "trapeze/ghostzone.h"
#include "trapeze/grouping.h"
#include "trapeze/group.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ghost zones and groupings together (sampler/group/gz_group.c) ----
 * For each trapezoid height: the relaunched stage's locality graph, the
 * grouping of its TBs the grouping model predicts keeps most halo re-reads
 * in L1, and the ghost-zone model's cycles per loop with the re-reads that
 * grouping leaves to memory: halo_reread rho scaled to
 * trapeze_ghostzone_group_rho(rho, phi(rr), phi(g)), phi = re-reads served by L1 /
 * ghost-zone elements (docs/grouping.md). Fence mode has no TB dispatch to
 * group (persistent blocks loop over the tiles): its rows keep the model's
 * CPL. */
typedef struct trapeze_ghostzone_group_row {
    trapeze_sync sync;
    int h;
    int evaluated;             /* relaunch: 0 when skipped (cpl_bound >= the best found) */
    long tiles;                /* TBs of a stage (evaluated rows) */
    double ghost_elements;     /* stencil_arrays (T blk^D - V): the halo re-reads */
    double l1_reread_rr, l1_reread;  /* of them, served by L1 under rr / the grouping */
    double l2_rr, l2;          /* the grouping model's L2 accesses of one stage */
    double rho;                /* the halo_reread the grouping leaves */
    double cpl_rr;             /* the ghost-zone model as calibrated (default dispatch) */
    double cpl_bound;          /* CPL with free halo re-reads (rho = 0): no grouping beats it */
    double cpl_grouped;        /* with the model's best grouping (evaluated rows) */
    double cpl;                /* the row's CPL: cpl_grouped when lower than cpl_rr by more
                                  than the margin, else cpl_rr (kept_rr) */
    double gain_sd;            /* standard deviation of cpl_rr - cpl_grouped from the
                                  calibration's stderr of halo_reread (the gain is ~ rho) */
    int kept_rr;               /* evaluated, and the grouping's gain was not above
                                  margin x cpl_rr + 2 gain_sd, or the calibration did not
                                  fit halo_reread (its stderr is 0) */
    char source[32];           /* "tiles", "rr", "bcs" (relaunch), "none" (fence) */
    int gx, gy, tile_order;
    int model_evaluations;
} trapeze_ghostzone_group_row;

typedef struct trapeze_ghostzone_group_result {
    int n_rows;                /* relaunch h = 1..hmax, then fence h = 1..hmax */
    trapeze_ghostzone_group_row *rows;
    int best;                  /* row of the lowest CPL */
    int best_relaunch;         /* row of the lowest relaunch CPL: grouping's */
    trapeze_grouping grouping; /* the grouping of best_relaunch (its stage's TBs) */
    int model_evaluations;
} trapeze_ghostzone_group_result;

/* rho (1 - phi_g) / (1 - phi_rr), at least 0; rho when phi_rr >= 1. */
double trapeze_ghostzone_group_rho(double rho, double phi_rr, double phi_g);
/* spec: the workload as its file gives it (p's [profile.NAME] applies as in
 * trapeze_ghostzone_create); gp: the grouping model's constants (its L1 side
 * used); margin: a grouping replaces rr only when predicted to lower the
 * CPL by more than this fraction plus two gain_sd (and, among tiles, the
 * L2 accesses by more than this fraction); exhaustive: visit every relaunch
 * height (else heights whose bound cannot beat the best are skipped). */
trapeze_status trapeze_ghostzone_group_optimize(const char *gpu_config_path,
                                                const trapeze_workload *spec,
                                                const trapeze_ghostzone_params *p, int tau,
                                                const trapeze_group_params *gp, double margin,
                                                int exhaustive, trapeze_ghostzone_group_result *out,
                                                trapeze_error *err);
void trapeze_ghostzone_group_result_free(trapeze_ghostzone_group_result *r);
/* Simulated cycles per loop of the relaunched stencil at h (iterations 0:
 * the workload's), TBs dispatched by grouping (NULL: the GPU's policy). */
trapeze_status trapeze_ghostzone_group_simulate(const char *gpu_config_path,
                                                const trapeze_workload *spec, int h, int iterations,
                                                const trapeze_grouping *grouping, double *cpl,
                                                trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
