/*
 * kernels_divergent.c - built-in kernels with branch and memory divergence,
 * the closest analogues of the Dynamic Warp Subdivision benchmarks (Meng's
 * KMeans and Filter): a K-means assignment step and a branchy filter. Only
 * builds programs; SIM_DIVERGENT_BUILTINS (kernels_divergent.h) lists them
 * in kernels.c's table.
 */
#include "sim/core/kernels_divergent.h"

#define AFF SIM_AFF

static long ceil_div(long a, long b)
{
    return (a + b - 1) / b;
}

static trapeze_status finish(sim_kb *kb, sim_kernel **ks, int *n, trapeze_error *err)
{
    trapeze_status s = sim_kb_end(kb, &ks[*n], err);
    if (!s)
        (*n)++;
    return s;
}

/* kmeans: thread i assigns point i (dims floats, row-major) to the nearest
 * of k centroids. Per centroid: the point's features (lanes dims*4 bytes
 * apart: a warp's point rows span several lines, re-read every centroid, so
 * L1 pressure makes some lanes hit and others miss) and the centroid's
 * (uniform); then "closer than the best so far", which the predicate gives
 * a band of 8 lanes moving with the centroid (the data-dependent outcome a
 * structured program cannot compute): a divergent branch per centroid. */
SIM_DIVERGENT_BUILD(sim_div_kmeans)
{
    (void)c;
    (void)max;
    long pts = p[0], dims = p[1], k = p[2], warps = p[3], bs = 32 * warps;
    /* 32 x warps blocks: tx is the lane, the predicate's band a lane band */
    sim_kb *kb = sim_kb_begin("kmeans", SIM_DIM((int)ceil_div(pts, bs)),
                              SIM_DIM(32, (int)warps));
    int pt = sim_kb_global(kb, "points", 4 * (uint64_t)pts * (uint64_t)dims);
    int cen = sim_kb_global(kb, "centroids", 4 * (uint64_t)k * (uint64_t)dims);
    int out = sim_kb_global(kb, "assign", 4 * (uint64_t)pts);
    sim_affine i = AFF(.k[SIM_TX] = 1, .k[SIM_TY] = 32, .k[SIM_BX] = bs);
    sim_kb_if(kb, sim_pred1(sim_aff_add(i, AFF(.c = -pts)), SIM_LT));
    sim_kb_loop(kb, AFF(.c = k));                          /* centroid l0 */
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 1, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);  /* dist */
    sim_kb_loop(kb, AFF(.c = dims));                       /* feature l1 */
    sim_kb_ld(kb, 2, sim_at2(pt, 4, sim_ix(i), sim_ix(AFF(.k[SIM_L1] = 1)), dims));
    sim_kb_ld(kb, 3, sim_at2(cen, 4, sim_ix(AFF(.k[SIM_L0] = 1)), sim_ix(AFF(.k[SIM_L1] = 1)),
                             dims));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 4, 2, 3, SIM_NO_REG);
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 4, 4, 1);
    sim_kb_endloop(kb);
    /* closer: lanes 3 l0 mod 32 .. +7 of the warp (a band; 2 and 3 keep it) */
    sim_affine lane = AFF(.k[SIM_TX] = 1, .k[SIM_L0] = -3);
    sim_pred closer = sim_pred_and(sim_pred1(lane, SIM_GE), sim_aff_add(lane, AFF(.c = -8)),
                                   SIM_LT);
    sim_kb_if(kb, closer);
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAX, 5, 1, 5, SIM_NO_REG);    /* best = dist */
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 6, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);  /* idx */
    sim_kb_endif(kb);
    sim_kb_endloop(kb);
    sim_kb_st(kb, sim_at1(out, 4, sim_ix(i)), 6);
    sim_kb_endif(kb);
    return finish(kb, ks, count, err);
}

/* filter: a 3x3 gather filter on a w x h image in 16 x 16 blocks (a warp
 * is two image rows), whose pixels take one of two paths: the middle half
 * of each row (an edge band) gathers its 8 neighbours, at addresses that
 * depend on its own pixel (a data-dependent filter), and multiply-adds
 * them; the others scale their pixel. A neighbour load of a warp reads
 * two rows: one its own centre load brought into L1 (a hit), one not yet
 * (a miss): memory divergence. */
SIM_DIVERGENT_BUILD(sim_div_filter)
{
    (void)c;
    (void)max;
    long w = p[0], h = p[1], bs = 16;
    sim_kb *kb = sim_kb_begin("filter", SIM_DIM((int)ceil_div(w, bs), (int)ceil_div(h, bs)),
                              SIM_DIM((int)bs, (int)bs));
    int in = sim_kb_global(kb, "in", 4 * (uint64_t)w * (uint64_t)h);
    int out = sim_kb_global(kb, "out", 4 * (uint64_t)w * (uint64_t)h);
    sim_affine x = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = bs);
    sim_affine y = AFF(.k[SIM_TY] = 1, .k[SIM_BY] = bs);
    sim_pred inside = sim_pred_and(sim_pred1(sim_aff_add(x, AFF(.c = -w)), SIM_LT),
                                   sim_aff_add(y, AFF(.c = -h)), SIM_LT);
    sim_kb_if(kb, inside);
    sim_kb_ld(kb, 1, sim_at2(in, 4, sim_ix(y), sim_ix(x), w));
    sim_pred edge = sim_pred_and(sim_pred1(AFF(.c = -4, .k[SIM_TX] = 1), SIM_GE),
                                 AFF(.c = -12, .k[SIM_TX] = 1), SIM_LT);
    sim_kb_if(kb, edge);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dy && !dx)
                continue;
            sim_kb_ld(kb, 2, sim_at2(in, 4, sim_ixc(sim_aff_add(y, AFF(.c = dy)), 0, h - 1),
                                     sim_ixc(sim_aff_add(x, AFF(.c = dx)), 0, w - 1), w));
            sim_kb_uses(kb, 1);
            sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 3, 2, 2, 3);
        }
    sim_kb_else(kb);
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MUL, 3, 1, 1, SIM_NO_REG);
    sim_kb_endif(kb);
    sim_kb_st(kb, sim_at2(out, 4, sim_ix(y), sim_ix(x), w), 3);
    sim_kb_endif(kb);
    return finish(kb, ks, count, err);
}
