/*
 * group_contention.h - the one-dimensional least squares behind the
 * grouping model's whole-run constants (sampler/group/group_contention.c),
 * shared inside the library: the DRAM contention's fit and the DRAM rows'
 * cost (dram_rows.c) search [0, 1] the same way.
 */
#ifndef TRAPEZE_SAMPLER_GROUP_CONTENTION_H
#define TRAPEZE_SAMPLER_GROUP_CONTENTION_H

#include "common/internal.h"

/* The x in [0, 1] with the least f(ctx, x): a grid of 1/200 steps first
 * (the error need not be unimodal over runs a model misses both ways), then
 * golden section within the best step's neighbours; the grid's best where
 * the section ends no lower. */
TRAPEZE_INTERNAL
double trapeze_group_minimize_unit(double (*f)(const void *ctx, double x), const void *ctx);

#endif
