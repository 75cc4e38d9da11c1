/*
 * group_values.c - the grouping model's equations (group.c's evaluation,
 * compiled again here) over grp_val, a dual whose one lane stays 0: the
 * tile search (group_opt.c) compares predicted cycles and needs no
 * d/dparams, which the full evaluation carries through every edge of the
 * locality graph (12 lanes each). Each lane of a dual is computed alone, so
 * every value here is the full evaluation's to the bit
 * (tests/test_group_model.c checks it). Owns the renaming only: the
 * equations stay written once, in group.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/group.h"

/* After the headers (guarded, so group.c's includes are no-ops): only
 * group.c's own text is renamed. */
#define GRP_VALUES_ONLY
#define grp_dual grp_val
#define grp_duals grp_vals
#define gd_const gv_const
#define gd_var(v, var) gv_const(v)   /* every parameter a constant */
#define gd_add gv_add
#define gd_sub gv_sub
#define gd_mul gv_mul
#define gd_div gv_div
#define gd_scale gv_scale
#define gd_powi gv_powi
#define gd_pow gv_pow
#define gd_apply gv_apply
#define gd_exp gv_exp
#define gd_log gv_log
#define gd_sigmoid gv_sigmoid
#define grp_evaluate_duals grp_evaluate_values
#define trapeze_group_evaluate grp_group_evaluate_values
#include "model/group.c"
