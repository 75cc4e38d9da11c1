/*
 * stencil_run.c - builds, sizes and runs a ghost-zone stencil on a simulated
 * GPU and sums its launches (stencil_run.h). Owns the fence-mode sizing rule
 * and the CPL arithmetic; must not shape kernels (ghostzone_kernel.c) nor
 * print anything (the command line does).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/stencil/stencil_run.h"

trapeze_status sim_stencil_build_sized(const sim_core_config *c, const sim_stencil_spec *spec,
                                       sim_stencil **out, int *blocks_per_sm,
                                       const char **limit, trapeze_error *err)
{
    trapeze_status rc = sim_stencil_build(spec, out, err);
    if (rc)
        return rc;
    *blocks_per_sm = sim_occupancy(c, (*out)->kernels[0], limit);
    if (*blocks_per_sm < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: a block of %d threads does not fit on an "
                            "SM (%s)", spec->workload->name,
                            sim_kernel_block_threads((*out)->kernels[0]), *limit);
    if (spec->sync != TRAPEZE_SYNC_FENCE)
        return TRAPEZE_OK;
    long fit = (long)*blocks_per_sm * c->gpu.n_sm;
    if (spec->resident_blocks > fit)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "%s: %ld persistent blocks cannot all be resident (%d per SM x %d "
                            "SMs = %ld): the global barrier would never open",
                            spec->workload->name, spec->resident_blocks, *blocks_per_sm,
                            c->gpu.n_sm, fit);
    if (spec->resident_blocks > 0 || (*out)->tiles <= fit)
        return TRAPEZE_OK;
    sim_stencil_spec sized = *spec;
    sized.resident_blocks = fit;
    sim_stencil_destroy(*out);
    *out = NULL;
    return sim_stencil_build(&sized, out, err);
}

trapeze_status sim_stencil_run(sim_gpu *g, const sim_stencil_spec *spec,
                               sim_stencil_result **out, trapeze_error *err)
{
    *out = NULL;
    sim_stencil_result *r = calloc(1, sizeof *r);
    if (!r)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status rc = sim_stencil_build_sized(sim_gpu_config(g), spec, &r->stencil,
                                                &r->blocks_per_sm, &r->occupancy_limit, err);
    if (!rc && !(r->stats = calloc((size_t)r->stencil->n_kernels, sizeof *r->stats)))
        rc = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    sim_sequence seq = {.n = rc ? 0 : r->stencil->n_kernels,
                        .kernels = rc ? NULL : r->stencil->kernels};
    if (!rc)
        rc = sim_gpu_run_sequence(g, &seq, r->stats, &r->n_stats, err);
    for (int i = 0; !rc && i < r->n_stats; i++) {
        r->cycles += r->stats[i].launch_cycles + r->stats[i].cycles;
        r->warp_insts += r->stats[i].total.warp_insts;
    }
    if (rc) {
        sim_stencil_result_destroy(r);
        return rc;
    }
    r->iterations = spec->iterations > 0 ? spec->iterations : spec->workload->iterations;
    r->cycles_per_loop = (double)r->cycles / r->iterations;
    *out = r;
    return TRAPEZE_OK;
}

void sim_stencil_result_destroy(sim_stencil_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_stats; i++)
        sim_kernel_stats_free(&r->stats[i]);
    free(r->stats);
    sim_stencil_destroy(r->stencil);
    free(r);
}

uint64_t sim_stencil_barrier_counter(const sim_stencil *s, int stage)
{
    const sim_kernel *k = s->n_kernels == 1 ? s->kernels[0] : NULL;
    for (int a = 0; k && a < k->n_arrays; a++)
        if (!strcmp(k->arrays[a].name, "barrier_counters"))
            return k->arrays[a].base + 128 * (uint64_t)stage;
    return 0;
}
