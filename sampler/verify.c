/*
 * verify.c - the sampled half of a decision: the model's best few (mode, h)
 * simulated at the user's own grid for a few stages, so that a choice the
 * model cannot make within its uncertainty is made by simulation, at a small
 * fraction of a sweep's cost, and the search along h that follows them when
 * the model's curve is off. Owns building and running those rows; must not
 * rank candidates or choose the next one (model/decide.c) or print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

trapeze_status trapeze_ghostzone_verify(const char *gpu_config_path, const trapeze_workload *w,
                                        trapeze_ghostzone_choice *c, int n, int stages, int threads,
                                        trapeze_error *err)
{
    if (n < 1 || stages < 1 || stages > 32)
        return trapeze_fail(err, TRAPEZE_ERANGE, "verify: %d candidates, %d stages", n, stages);
    trapeze_ghostzone_calib_options o;
    trapeze_ghostzone_calib_options_init(&o);
    o.budget = 1;
    o.stages = stages;
    trapeze_ghostzone_plan *plan;
    trapeze_status s = trapeze_ghostzone_plan_create(gpu_config_path, w, 1, &o, &plan, err);
    if (s)
        return s;
    trapeze_sample *rows = calloc((size_t)n, sizeof *rows);
    if (!rows) {
        trapeze_ghostzone_plan_destroy(plan);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        trapeze_sample *r = &rows[i];
        snprintf(r->id, sizeof r->id, "verify/%.40s/%s:h%d", w->name, trapeze_sync_name(c[i].sync),
                 c[i].h);
        snprintf(r->kind, sizeof r->kind, "%s", SAMPLER_KIND_SIM);
        snprintf(r->workload, sizeof r->workload, "%s", w->name);
        snprintf(r->gpu, sizeof r->gpu, "%s", plan->gpu.name);
        r->sync = c[i].sync;
        r->h = c[i].h;
        r->blk_len = w->blk_len;
        r->stages = stages;
        for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
            r->data_len[d] = d < w->dims ? w->data_len[d] : 1;
    }
    s = sampler_run_rows(plan, rows, n, threads, NULL, NULL, err);
    for (int i = 0; !s && i < n; i++) {
        c[i].cpl_sim = rows[i].cpl_cycles;
        c[i].warp_instructions = rows[i].warp_instructions;
    }
    free(rows);
    trapeze_ghostzone_plan_destroy(plan);
    return s;
}

trapeze_status trapeze_ghostzone_verify_search(const char *gpu_config_path, const trapeze_workload *w,
                                               trapeze_ghostzone_choice *c, int n, int k, int stages,
                                               int threads, int *searched, trapeze_error *err)
{
    *searched = 0;
    trapeze_status s = trapeze_ghostzone_verify(gpu_config_path, w, c, k, stages, threads, err);
    while (!s && *searched < TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH) {
        int i = trapeze_ghostzone_verify_next(c, n);
        if (i < 0)
            break;
        s = trapeze_ghostzone_verify(gpu_config_path, w, &c[i], 1, stages, threads, err);
        ++*searched;
    }
    return s;
}

double trapeze_ghostzone_verify_cost(const trapeze_workload *w, trapeze_sync sync, int h,
                                     int stages)
{
    /* sample_run.c: relaunch times `stages` after one warm-up stage; fence
     * runs warm-up + stages and the warm-up alone, on fresh simulators */
    return sampler_stage_cost(w, h) * (stages + (sync == TRAPEZE_SYNC_FENCE ? 2 : 1));
}
