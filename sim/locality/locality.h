/*
 * locality.h - thread-block locality analysis inside the simulator library:
 * the locality graph of a kernel (trapeze_locality_graph, trapeze.h) built by
 * running each block's warps through the kernel's instruction source (the
 * program interpreter, or a trace reader), an adjacency view of it for the
 * dispatch policies, and PAVER's orderings and partitions (MST order, k-way
 * and recursive bisection with METIS).
 */
#ifndef TRAPEZE_SIM_LOCALITY_H
#define TRAPEZE_SIM_LOCALITY_H

#include <stdint.h>

#include "sim/kernel.h"
#include "trapeze.h"

/* visit(ctx, in, err) for each warp instruction of block tb of k, warp by
 * warp as its instruction source yields them, every spin loop's word taken
 * as arrived (walk.c); *insts (NULL: not kept) gains the warps' instruction
 * counts. A non-zero status from visit ends the walk and is returned; a
 * warp that never ends is an error naming `who`, the kernel, warp and block. */
typedef trapeze_status (*sim_block_visit)(void *ctx, const sim_warp_inst *in,
                                          trapeze_error *err);
trapeze_status sim_block_walk(const sim_kernel *k, long tb, const char *who,
                              sim_block_visit visit, void *ctx, long long *insts,
                              trapeze_error *err);

/* The graph of k with lines of line_bytes (a power of two). Global loads
 * only (read-after-read sharing); volatile loads and atomics are left out.
 * Spin loops are taken as satisfied at once. */
trapeze_status sim_locality_build(const sim_kernel *k, int line_bytes,
                                  trapeze_locality_graph *out, trapeze_error *err);
/* The same graph of the global loads at pc alone (which data of one load
 * the blocks share); pc < 0: every load, as sim_locality_build. */
trapeze_status sim_locality_build_pc(const sim_kernel *k, int line_bytes, int64_t pc,
                                     trapeze_locality_graph *out, trapeze_error *err);

/* The graph as adjacency lists (CSR): neighbours of tb are
 * nbr[start[tb] .. start[tb+1]) in increasing id, with the edge's weights. */
typedef struct sim_locality_adj {
    long n;
    long *start;
    uint32_t *nbr;
    int64_t *elements, *lines;
} sim_locality_adj;

trapeze_status sim_locality_adj_build(const trapeze_locality_graph *g, sim_locality_adj *out,
                                      trapeze_error *err);
void sim_locality_adj_free(sim_locality_adj *a);

/* The order in which Prim's algorithm adds the TBs of `set` (n of them, any
 * order) to a maximum spanning tree of the graph restricted to the set,
 * weights = shared elements, starting at the set's smallest id; a TB with
 * no edge to the tree so far starts a new tree at the smallest id left.
 * Ties go to the smaller id. Writes n ids to order. */
trapeze_status sim_locality_mst_order(const sim_locality_adj *a, const uint32_t *set, long n,
                                      uint32_t *order, trapeze_error *err);

/* PAVER's groupings as group lists (TB ids in dispatch order):
 * groups[g] = ids[gstart[g] .. gstart[g+1]). */
typedef struct sim_tb_groups {
    int n_groups;
    long *gstart;
    uint32_t *ids;
} sim_tb_groups;

void sim_tb_groups_free(sim_tb_groups *g);
/* MST-TS: the MST order of all TBs cut into n_sm groups of `per_sm` TBs,
 * then groups of one. */
trapeze_status sim_locality_mst_ts(const sim_locality_adj *a, int n_sm, int per_sm,
                                   sim_tb_groups *out, trapeze_error *err);
/* k-way-TS: n_sm balanced parts (METIS k-way, minimum edge cut), each in
 * its MST order; part p is SM p's group. */
trapeze_status sim_locality_kway_ts(const sim_locality_adj *a, int n_sm, sim_tb_groups *out,
                                    trapeze_error *err);
/* RB-TS (Algorithm 1): recursive METIS bisection until a part holds at
 * most per_sm TBs; leaves left to right, each in its MST order. */
trapeze_status sim_locality_rb_ts(const sim_locality_adj *a, int per_sm, sim_tb_groups *out,
                                  trapeze_error *err);

/* Chen's choice of the next TB for an SM (sim/locality/chen.c), shared by
 * the dynamic dispatch and its static plan. residents(ctx, sm, ids) writes
 * SM sm's running TB ids (at most max_residents) and returns how many. */
typedef int (*sim_chen_residents_fn)(void *ctx, int sm, long *ids);
typedef struct sim_chen_chooser {
    const sim_locality_adj *adj;
    long total, lowest;       /* lowest: the smallest unplaced id */
    int max_residents;
    uint8_t *placed;
    int64_t *score;           /* zero between choices */
    uint32_t *touched;
    long n_touched;
    long *ids;                /* scratch: one SM's residents */
} sim_chen_chooser;

trapeze_status sim_chen_chooser_init(sim_chen_chooser *c, const sim_locality_adj *adj,
                                     int max_residents, trapeze_error *err);
void sim_chen_chooser_free(sim_chen_chooser *c);
/* The waiting TB SM sm takes (-1: none waits); does not place it. */
long sim_chen_choose(sim_chen_chooser *c, int sm, int n_sm, sim_chen_residents_fn residents,
                     void *ctx);
void sim_chen_mark_placed(sim_chen_chooser *c, long tb);

#endif
