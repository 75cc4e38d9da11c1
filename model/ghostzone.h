/*
 * ghostzone.h - the ghost-zone model inside the library: its equations at
 * an explicit parameter vector, its parameter table, and the model
 * instance the generic interface (model/model.h) works on. Not installed.
 */
#ifndef TRAPEZE_MODEL_GHOSTZONE_H
#define TRAPEZE_MODEL_GHOSTZONE_H

#include "model/model.h"
#include "trapeze.h"

/* params.c: names and physical ranges, in trapeze_ghostzone_param order. */
extern const char *const gz_param_names[TRAPEZE_GHOSTZONE_NPARAMS];
extern const double gz_param_min[TRAPEZE_GHOSTZONE_NPARAMS], gz_param_max[TRAPEZE_GHOSTZONE_NPARAMS];

/* Which partials an evaluation computes: every one (h, blk_len and each
 * parameter: the fit's Jacobian; a parameter the equations do not read in
 * that mode has a partial of exactly 0 and costs nothing), or d/dh and
 * d/dblk_len only (dcpl_dparam is then NaN), for a fifth of the host
 * instructions. GZ_GRAD_ALL computes every parameter's lane, read or not:
 * the reference the tests hold GZ_GRAD_PARAMS to, bit for bit. Value, d/dh
 * and d/dblk_len are the same bits every way. */
typedef enum { GZ_GRAD_HB, GZ_GRAD_PARAMS, GZ_GRAD_ALL } gz_gradient;

/* ghostzone.c: Eqs. 5.1-5.30 at params[TRAPEZE_GHOSTZONE_NPARAMS] instead of the
 * model's own values (trapeze_ghostzone_evaluate: those, with every partial). */
trapeze_status gz_evaluate_at(const trapeze_ghostzone_model *m, const double *params, trapeze_sync sync,
                              double h, double blk_len, gz_gradient grad, trapeze_ghostzone_eval *out,
                              trapeze_error *err);

/* The row_lines factor: the coalesced segments a tile row of `row` elements
 * touches (its start averaged over a segment's element offsets), in
 * elements, over `row`; 1 in 1-D. */
double gz_row_lines(const trapeze_gpu *g, const trapeze_workload *w, double row);

/* The model's own parameter values (what trapeze_ghostzone_set_params set). */
const double *gz_param_values(const trapeze_ghostzone_model *m);

/* ghostzone_model.c: the model as a generic instance. Decision variables
 * (GZ_DECISION_*): the trapezoid height h and the block edge blk_len;
 * constraints: Eq. 5.20 per dimension, kept GZ_EDGE_MARGIN inside. The
 * instance holds pointers only: it lives as long as the model. */
enum { GZ_DECISION_H, GZ_DECISION_BLK, GZ_NDECISIONS };

/* 5.20 is strict; the continuous search keeps this far inside it, relative
 * to blk_len, so the model stays finite (T grows without bound at the edge). */
#define GZ_EDGE_MARGIN 1e-9

typedef struct gz_instance {
    const trapeze_ghostzone_model *gz;
    trapeze_sync sync;
} gz_instance;

extern const trapeze_model_ops gz_model_ops;
trapeze_model gz_as_model(const gz_instance *inst);
/* The largest block edge the GPU allows (threads and shared memory per
 * block) and the widest halo: the box of the decision variables. */
int gz_largest_block(const trapeze_ghostzone_model *m);
int gz_widest_halo(const trapeze_workload *w);

#endif
