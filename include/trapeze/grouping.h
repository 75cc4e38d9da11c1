/*
 * trapeze/grouping.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * TB groupings: which SM queue each thread block goes to and in what order
 * (the explicit dispatch policy's input), their file and checks.
 */
#ifndef TRAPEZE_GROUPING_H
#define TRAPEZE_GROUPING_H

#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A TB grouping: which SM group queue each TB is placed in and in what
 * order, run by the simulator's explicit dispatch policy
 * (-trapeze_tb_dispatch explicit -trapeze_tb_grouping FILE). File: CSV
 * `tb,group,order`, every TB exactly once, groups 0..n_groups-1, orders of a
 * group 0..size-1 (any row order). */
typedef struct trapeze_grouping {
    long n_tbs;
    int n_groups;                   /* 1 + the largest group */
    int *group;                     /* per TB */
    long *order;                    /* per TB: position in its group */
} trapeze_grouping;

void trapeze_grouping_free(trapeze_grouping *g);
/* n_tbs > 0: the file must hold exactly those TBs; max_groups > 0: groups
 * must lie below it (the SMs). Errors name file, line and field. */
trapeze_status trapeze_grouping_load(const char *path, long n_tbs, int max_groups,
                                     trapeze_grouping *out, trapeze_error *err);
trapeze_status trapeze_grouping_save(const char *path, const trapeze_grouping *g,
                                     trapeze_error *err);
/* Allocates n_tbs TBs in n_groups groups (all in group 0, order 0). */
trapeze_status trapeze_grouping_alloc(trapeze_grouping *g, long n_tbs, int n_groups,
                                      trapeze_error *err);
/* Every TB once, groups in range, each group's orders exactly 0..size-1. */
trapeze_status trapeze_grouping_check(const trapeze_grouping *g, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
