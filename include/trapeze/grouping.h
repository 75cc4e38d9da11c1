/*
 * trapeze/grouping.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * TB groupings: which SM queue each thread block goes to and in what order
 * (the explicit dispatch policy's input), their file and checks; the table
 * of TB dispatch policies (name, kind, help) that the simulator, the grouping
 * model and the commands derive from.
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

/* The thread-block dispatch policies (-trapeze_tb_dispatch), one row each:
 * X(ID, name, ops, kind, help). ID gives TRAPEZE_TB_ID (and the
 * simulator's SIM_TB_ID), name the option's value, ops the simulator's
 * policy (sim_dispatch_OPS, sim/core/dispatch*.c), kind what the grouping
 * model does with it (trapeze_tb_kind), help one line. The first row is
 * the default; rows of kind TRAPEZE_TB_GIVEN come last. The option's
 * parsing, help and errors, the grouping model's candidates and policy rows
 * and the samples' policy column all derive from these rows. */
#define TRAPEZE_TB_DISPATCH_DEFAULT(X) \
    X(RR, "rr", round_robin, TRAPEZE_TB_FIXED, "GPGPU-Sim's round-robin, blocks in id order")
#define TRAPEZE_TB_DISPATCH_OTHERS(X) \
    X(BCS, "bcs", bcs, TRAPEZE_TB_FIXED, \
      "consecutive pairs to one SM, once two fit (Lee HPCA'14)") \
    X(CHEN, "chen", chen, TRAPEZE_TB_DYNAMIC, \
      "the waiting TB sharing most lines with the SM's residents (Chen 2016)") \
    X(MST, "mst", groups, TRAPEZE_TB_FIXED, "PAVER's MST-TS group queues") \
    X(KWAY, "kway", groups, TRAPEZE_TB_FIXED, "PAVER's k-way-TS group queues") \
    X(RBTS, "rbts", groups, TRAPEZE_TB_FIXED, "PAVER's RB-TS group queues (Algorithm 1)") \
    X(EXPLICIT, "explicit", groups, TRAPEZE_TB_GIVEN, \
      "the groups of a grouping file (-trapeze_tb_grouping)")
#define TRAPEZE_TB_DISPATCH_TABLE(X) TRAPEZE_TB_DISPATCH_DEFAULT(X) TRAPEZE_TB_DISPATCH_OTHERS(X)

/* FIXED: its grouping is known before launch (a candidate of the grouping
 * model, predicted and sampled); DYNAMIC: decided while the kernel runs
 * (simulated and compared, never predicted); GIVEN: a grouping from
 * elsewhere (neither). */
typedef enum { TRAPEZE_TB_FIXED, TRAPEZE_TB_DYNAMIC, TRAPEZE_TB_GIVEN } trapeze_tb_kind;

#define TRAPEZE_TB_ENUM_(id, name, ops, kind, help) TRAPEZE_TB_##id,
typedef enum { TRAPEZE_TB_DISPATCH_TABLE(TRAPEZE_TB_ENUM_) TRAPEZE_TB_COUNT } trapeze_tb_dispatch;
#define TRAPEZE_TB_IS_FIXED_(id, name, ops, kind, help) +((kind) == TRAPEZE_TB_FIXED)
#define TRAPEZE_TB_IS_COMPARED_(id, name, ops, kind, help) +((kind) != TRAPEZE_TB_GIVEN)
enum {
    /* the policies of kind FIXED: the grouping model's candidates */
    TRAPEZE_TB_NFIXED = 0 TRAPEZE_TB_DISPATCH_TABLE(TRAPEZE_TB_IS_FIXED_),
    /* the policies the grouping model compares: all rows before the GIVEN ones */
    TRAPEZE_TB_NCOMPARED = 0 TRAPEZE_TB_DISPATCH_TABLE(TRAPEZE_TB_IS_COMPARED_)
};
#undef TRAPEZE_TB_ENUM_
#undef TRAPEZE_TB_IS_FIXED_
#undef TRAPEZE_TB_IS_COMPARED_

typedef struct trapeze_tb_policy {
    const char *name;
    trapeze_tb_kind kind;
    const char *help;
} trapeze_tb_policy;
/* The rows above, indexed by trapeze_tb_dispatch (sim/core/dispatch_table.c). */
extern const trapeze_tb_policy trapeze_tb_policies[TRAPEZE_TB_COUNT];
/* The policy named name; -1 when none is. */
int trapeze_tb_policy_find(const char *name);
/* The policy of the c-th row (from 0) of the given kind, in the table's
 * order; -1 past the last. */
int trapeze_tb_policy_nth(trapeze_tb_kind kind, int c);
/* The names of the rows of kind `kind` (all rows when kind < 0) joined by
 * sep and, before the last, by last_sep ("rr, bcs, ... and rbts"), into
 * out; truncated to size. */
void trapeze_tb_policy_list(int kind, const char *sep, const char *last_sep, char *out,
                            size_t size);

#ifdef __cplusplus
}
#endif

#endif
