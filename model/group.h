/*
 * group.h - internal to model/: the TB grouping model's dual type and the
 * pieces group.c (the equations) shares with group_opt.c (the search).
 */
#ifndef TRAPEZE_MODEL_GROUP_H
#define TRAPEZE_MODEL_GROUP_H

#include "model/dual.h"
#include "trapeze.h"

/* Variables of the grouping model's duals: the parameter vector. (The tile
 * relaxation's decisions are differentiated in group_opt.c, on the
 * interpolant of the model over tile shapes.) */
enum { GRP_VAR_PARAM0 = 0, GRP_NVARS = TRAPEZE_GRP_NPARAMS };

TRAPEZE_DUAL_DEFINE(grp_dual, gd, GRP_NVARS)

struct trapeze_grp_model {
    long n;                   /* TBs */
    int grid[3];
    double *f;                /* footprint lines per TB */
    double fbar;              /* mean footprint */
    long *adj_start;          /* CSR adjacency, both directions: n + 1 */
    long *adj_tb;
    double *adj_s;            /* shared lines */
    trapeze_grp_machine m;
    trapeze_grp_params p;
};

/* The model's outputs as duals (value and d/dparams). */
typedef struct grp_duals {
    grp_dual l1_hits, l2, dram, tc, t2, td, cycles;
    double max_queue;
} grp_duals;

trapeze_status grp_evaluate_duals(const trapeze_grp_model *m, const trapeze_grouping *g,
                                  grp_duals *out, trapeze_error *err);

#endif
