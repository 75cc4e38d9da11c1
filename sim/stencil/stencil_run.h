/*
 * stencil_run.h - running a ghost-zone stencil (ghostzone_kernel.h) on the
 * simulated GPU: build its kernels, size the persistent kernel of fence mode
 * to what the GPU holds at once, run every launch and collect per-launch
 * statistics and the run's cycles per loop (cycles / iterations, warm-up
 * and the launch latency between relaunched stages included).
 */
#ifndef TRAPEZE_SIM_STENCIL_STENCIL_RUN_H
#define TRAPEZE_SIM_STENCIL_STENCIL_RUN_H

#include "sim/core/gpu_sim.h"
#include "sim/stencil/ghostzone_kernel.h"

typedef struct sim_stencil_result {
    sim_stencil *stencil;       /* the kernels that ran (owned) */
    int n_stats;                /* launches: stencil->n_kernels */
    sim_kernel_stats *stats;    /* one per launch (owned) */
    int iterations;             /* stencil loops asked for */
    int blocks_per_sm;          /* occupancy of the stencil's block */
    const char *occupancy_limit;  /* the resource that caps it ("threads", ...) */
    uint64_t cycles;            /* every launch plus the launch latency before each */
    uint64_t warp_insts;
    double cycles_per_loop;     /* cycles / iterations (the whole run: not the samples
                                   log's CPL, which excludes a warm-up stage) */
} sim_stencil_result;

/* Builds spec's stencil for the GPU c describes. In fence mode a zero
 * spec->resident_blocks means "as many as are resident at once":
 * occupancy x SMs, capped by the tiles, so the global barrier cannot
 * deadlock; a larger explicit count is refused for the same reason.
 * blocks_per_sm and limit: the block's occupancy and the resource that caps
 * it. On error *out may hold a stencil to destroy. */
trapeze_status sim_stencil_build_sized(const sim_core_config *c, const sim_stencil_spec *spec,
                                       sim_stencil **out, int *blocks_per_sm,
                                       const char **limit, trapeze_error *err);

/* Builds spec's stencil (sim_stencil_build_sized) and runs it on g. */
trapeze_status sim_stencil_run(sim_gpu *g, const sim_stencil_spec *spec,
                               sim_stencil_result **out, trapeze_error *err);
void sim_stencil_result_destroy(sim_stencil_result *r);

/* Address of the fence-mode barrier counter of stage `stage` (one 128-byte
 * line each); 0 when the stencil has no counters (relaunch). */
uint64_t sim_stencil_barrier_counter(const sim_stencil *s, int stage);

#endif
