/*
 * launch.c - a launch run for a stretch (sim_launch_run_until to a cycle,
 * sim_launch_run_until_insts to a count of warp instructions; sim/sim.h):
 * the one loop over sim_gpu_launch_step for callers that stop part way
 * (sampled windows), so that a step's error is never dropped. Owns that
 * loop only; the cycle itself is sim/core/gpu_sim.c's.
 */
#include "sim/sim.h"

trapeze_status sim_launch_run_until(sim_launch *l, uint64_t cycle, trapeze_error *err)
{
    while (l->running && (!cycle || l->t < cycle))
        sim_gpu_launch_step(l, err);
    return l->status;
}

trapeze_status sim_launch_run_until_insts(sim_launch *l, uint64_t warp_insts,
                                          trapeze_error *err)
{
    while (l->running && sim_gpu_launch_warp_insts(l) < warp_insts)
        sim_gpu_launch_step(l, err);
    return l->status;
}
