/*
 * bench_workloads.c - speed of the simulator on a dissertation stencil
 * (printed, never asserted): HotSpot on its full 2000x2000 grid (Fig. 5.7,
 * 20x20 blocks) with h = 2 in both sync modes on the GTX 480 config, for
 * STAGES stages (2 x h = 4 of the spec's 100 iterations: a full run is 50
 * stages, about 25 times longer), printing simulated warp instructions and
 * cycles, CPL, wall time and simulated warp instructions per second.
 */
#include <stdio.h>
#include <time.h>

#include "sim/sim.h"
#include "bench/bench_common.h"

#define STAGES 2
#define HEIGHT 2

static int run(const trapeze_config *cfg, const trapeze_workload *w, trapeze_sync sync)
{
    trapeze_error err;
    sim_gpu *g = NULL;
    sim_stencil_result *r = NULL;
    sim_stencil_spec spec = {.workload = w, .h = HEIGHT, .sync = sync,
                             .iterations = STAGES * HEIGHT};
    if (sim_gpu_create(cfg, NULL, &g, &err)) {
        fprintf(stderr, "bench_workloads: %s\n", err.message);
        return 1;
    }
    double t0 = now();
    trapeze_status s = sim_stencil_run(g, &spec, &r, &err);
    double secs = now() - t0;
    if (s) {
        fprintf(stderr, "bench_workloads: %s\n", err.message);
    } else {
        printf("HotSpot 2000x2000 h=%d %-8s %d stages x %ld tiles", HEIGHT,
               trapeze_sync_name(sync), r->stencil->stages, r->stencil->tiles);
        if (sync == TRAPEZE_SYNC_FENCE)
            printf(" (%ld persistent blocks)", r->stencil->resident_blocks);
        printf(": %llu warp instructions, %llu cycles, CPL %.0f; %.1f s, %.2f million simulated "
               "warp instructions/s\n",
               (unsigned long long)r->warp_insts, (unsigned long long)r->cycles, r->cycles_per_loop, secs,
               (double)r->warp_insts / secs / 1e6);
    }
    sim_stencil_result_destroy(r);
    sim_gpu_destroy(g);
    return s != TRAPEZE_OK;
}

int main(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    trapeze_workload w;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err) ||
        trapeze_workload_load("data/workloads/hotspot.ini", &w, &err)) {
        fprintf(stderr, "bench_workloads: %s\n", err.message);
        trapeze_config_destroy(cfg);
        return 1;
    }
    int rc = run(cfg, &w, TRAPEZE_SYNC_RELAUNCH) || run(cfg, &w, TRAPEZE_SYNC_FENCE);
    trapeze_config_destroy(cfg);
    return rc;
}
