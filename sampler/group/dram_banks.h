/*
 * dram_banks.h - a launch's kernel and memory config lent to the DRAM
 * rows' count (sampler/group/dram_banks.c) by the problem that holds them
 * (group_problem.c), shared inside the library only.
 */
#ifndef TRAPEZE_SAMPLER_GROUP_DRAM_BANKS_H
#define TRAPEZE_SAMPLER_GROUP_DRAM_BANKS_H

#include "common/internal.h"
#include "sim/sim.h"

/* Opens the problem's launch and its config's memory side, calls fn with
 * them, closes them; fn's status. */
typedef trapeze_status (*trapeze_group_launch_fn)(void *ctx, const sim_kernel *k,
                                                  const sim_mem_config *mem, trapeze_error *err);
TRAPEZE_INTERNAL
trapeze_status trapeze_group_problem_with_launch(const trapeze_group_problem *pb,
                                                 trapeze_group_launch_fn fn, void *ctx,
                                                 trapeze_error *err);

#endif
