/*
 * group.h - internal to model/: the TB grouping model's dual type and the
 * pieces group.c (the equations) shares with group_opt.c (the search).
 */
#ifndef TRAPEZE_MODEL_GROUP_H
#define TRAPEZE_MODEL_GROUP_H

#include "model/dual.h"
#include "model/model.h"
#include "trapeze.h"

/* Variables of the grouping model's duals: the parameter vector. (The tile
 * relaxation's decisions are differentiated in group_opt.c, on the
 * interpolant of the model over tile shapes.) */
enum { GRP_VAR_PARAM0 = 0, GRP_NVARS = TRAPEZE_GROUP_NPARAMS };

TRAPEZE_DUAL_DEFINE(grp_dual, gd, GRP_NVARS)

struct trapeze_group_model {
    long n;                   /* TBs */
    int grid[3];
    double *f;                /* footprint per TB (lines, or elements): L1, L2 accesses */
    double *fd;               /* footprint per TB in the DRAM reads' unit */
    double fbar;              /* mean footprint (f) */
    double fresh;             /* mean lines a TB adds to L2 (see group.c) */
    int by_elements;          /* f and adj_s in elements, m's L1 capacity converted */
    long *adj_start;          /* CSR adjacency, both directions: n + 1 */
    long *adj_tb;
    double *adj_s;            /* shared data, f's unit */
    double *adj_d;            /* shared lines: DRAM reads */
    trapeze_group_machine m;
    trapeze_group_params p;
    double writes;            /* the launch's store sectors (graph->store_sectors) */
};

/* The values alone, for the tile search, which needs no d/dparams
 * (model/group_values.c): the narrowest width TRAPEZE_DUAL_DEFINE allows
 * (ISO C has no empty array), its one lane always 0. */
TRAPEZE_DUAL_DEFINE(grp_val, gv, 1)

/* The model's outputs over a dual type T (value and d/dparams). */
#define GRP_OUTPUTS(T)                                                       \
    {                                                                        \
        T l1_hits, l2, dram, tc, tsm, t2, td, tg, t2g, norm, cycles;         \
        T l2_max, dram_max; /* the busiest queue's (what T2 and Td count) */ \
        double max_queue;                                                    \
        double waves; /* max(1, max_queue / x) */                            \
    }
typedef struct grp_duals GRP_OUTPUTS(grp_dual) grp_duals;
typedef struct grp_vals GRP_OUTPUTS(grp_val) grp_vals;

/* The model at params (not the model's own: the fit moves them). */
trapeze_status grp_evaluate_duals(const trapeze_group_model *m, const double *params,
                                  const trapeze_grouping *g, grp_duals *out, trapeze_error *err);
/* The same equations at values only: every value bit for bit
 * grp_evaluate_duals's (a lane is computed alone; tests/test_group_model.c) */
trapeze_status grp_evaluate_values(const trapeze_group_model *m, const double *params,
                                   const trapeze_grouping *g, grp_vals *out, trapeze_error *err);
/* trapeze_group_evaluate at values only: its gradients left 0 */
trapeze_status grp_group_evaluate_values(const trapeze_group_model *m, const trapeze_grouping *g,
                                         trapeze_group_eval *out, trapeze_error *err);

extern const char *const grp_param_names[TRAPEZE_GROUP_NPARAMS];
extern const double grp_param_min[TRAPEZE_GROUP_NPARAMS], grp_param_max[TRAPEZE_GROUP_NPARAMS];

/* ---- behind the generic interface (group_model.c) ---- */

typedef enum { GRP_OUT_CYCLES, GRP_OUT_L2, GRP_OUT_DRAM, GRP_NOUTPUTS } grp_output;

/* The model's duals at the last params one grouping was evaluated at: a
 * fit asks for the residual and then the Jacobian at the same params, and
 * for each output of the grouping, and every one of them is the same
 * evaluation (the whole graph walked once). */
typedef struct grp_memo {
    int valid;
    double params[TRAPEZE_GROUP_NPARAMS];
    grp_duals d;
} grp_memo;

/* One observable of one grouping: the instance a fit point holds. */
typedef struct grp_instance {
    const trapeze_group_model *model;
    const trapeze_grouping *grouping;
    grp_output output;
    grp_memo *memo;   /* shared by the grouping's instances, one thread's (NULL: none) */
} grp_instance;

extern const trapeze_model_ops grp_model_ops;
trapeze_model grp_as_model(const grp_instance *inst);

#endif
