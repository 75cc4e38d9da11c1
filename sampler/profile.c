/*
 * profile.c - Meng's profiling (5.14) with the simulator's counts: a
 * workload's profiling pair (one stage at h = 1 and one at h = 2 on a grid of
 * a few tiles per SM, planned by plan.c) turned into the instruction counts
 * the model reads ([profile.NAME]), from a log (calibrate, validate) or run
 * here for one workload (`ghostzone` on a stencil its calibration never
 * saw). Owns that arithmetic and that run; must not fit constants or print.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "sampler/sampler.h"

static double tiles_of(const trapeze_workload *w, const trapeze_sample *r)
{
    int widest = 1;
    for (int d = 0; d < w->dims; d++)
        widest = w->halo[d] > widest ? w->halo[d] : widest;
    double tiles = 1, out = w->blk_len - widest * r->h;
    for (int d = 0; d < w->dims; d++)
        tiles *= ceil(r->data_len[d] / out);
    return tiles;
}

/* One stage at h = 2 minus one at h = 1, per tile, is one loop of IterComp;
 * the rest of the h = 1 tile is MiscComp (setup, staging, commit). Expressed
 * per SM of this GPU for an input of N elements, so that 5.15/5.16 give back
 * the counts per tile. */
static trapeze_status profile_from(const trapeze_calib_plan *plan, const trapeze_workload *w,
                                   const trapeze_sample *r1, const trapeze_sample *r2,
                                   trapeze_gz_profile *pr, trapeze_error *err)
{
    double per_tile1 = r1->warp_instructions / tiles_of(w, r1);
    double ic_tile = r2->warp_instructions / tiles_of(w, r2) - per_tile1;
    double mc_tile = per_tile1 - ic_tile;
    if (!(ic_tile > 0 && mc_tile > 0))
        return trapeze_fail(err, TRAPEZE_EFAIL, "%s: profiling gave no per-loop instructions",
                            w->name);
    double n = 1, in_tile = 1, loop_tile = 1;
    for (int d = 0; d < w->dims; d++) {
        n *= r1->data_len[d];
        in_tile *= w->blk_len;
        loop_tile *= w->blk_len - w->halo[d];
    }
    memset(pr, 0, sizeof *pr);
    snprintf(pr->workload, sizeof pr->workload, "%s", w->name);
    pr->input_elements = n;
    pr->insts_per_sm_mc = mc_tile / in_tile * n / plan->gpu.n_sm;
    pr->insts_per_sm_ic = ic_tile / loop_tile * n / plan->gpu.n_sm;
    pr->bank_conflict_rate = r1->bank_conflicts / r1->warp_instructions;
    return TRAPEZE_OK;
}

trapeze_status sampler_profile_of(const trapeze_calib_plan *plan, const trapeze_sample_log *log,
                                  const trapeze_workload *w, int first_row,
                                  trapeze_gz_profile *pr, trapeze_error *err)
{
    const trapeze_sample *r[2];
    for (int k = 0; k < 2; k++) {
        r[k] = trapeze_sample_log_find(log, plan->rows[first_row + k].id);
        if (!r[k])
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "%s has no row %s: run the calibration's samples first",
                                trapeze_sample_log_path(log), plan->rows[first_row + k].id);
    }
    return profile_from(plan, w, r[0], r[1], pr, err);
}

int sampler_has_profile(const trapeze_gz_params *p, const char *name)
{
    for (int i = 0; i < p->n_profiles; i++)
        if (strcasecmp(p->profile[i].workload, name) == 0)
            return 1;
    return 0;
}

/* The profiling pair as `calibrate` plans it for w, run here. */
static trapeze_status run_pair(const char *gpu_config_path, const trapeze_workload *w,
                               int threads, trapeze_gz_profile *out, double *work,
                               trapeze_error *err)
{
    trapeze_calib_options o;
    trapeze_calib_options_default(&o);
    o.budget = 1;
    trapeze_calib_plan *plan;
    trapeze_status s = trapeze_calib_plan_create(gpu_config_path, w, 1, &o, &plan, err);
    if (s)
        return s;
    int first = -1;
    for (int i = 0; first < 0 && i + 1 < plan->count; i++)
        if (strcmp(plan->rows[i].kind, SAMPLER_KIND_PROFILE) == 0 && plan->rows[i].h == 1 &&
            plan->rows[i + 1].h == 2)
            first = i;
    if (first < 0)
        s = trapeze_fail(err, TRAPEZE_EINVAL, "%s: no profiling pair (its block allows no h = 2)",
                         w->name);
    trapeze_sample pair[2];
    if (!s) {
        pair[0] = plan->rows[first];
        pair[1] = plan->rows[first + 1];
        s = sampler_run_rows(plan, pair, 2, threads, NULL, NULL, err);
    }
    if (!s)
        s = profile_from(plan, sampler_workload(plan, w->name), &pair[0], &pair[1], out, err);
    if (!s)
        *work = pair[0].warp_instructions + pair[1].warp_instructions;
    trapeze_calib_plan_destroy(plan);
    return s;
}

trapeze_status trapeze_calib_profile(const char *gpu_config_path, const trapeze_workload *w,
                                     int threads, trapeze_gz_params *p,
                                     double *warp_instructions, trapeze_error *err)
{
    *warp_instructions = 0;
    if (sampler_has_profile(p, w->name))
        return TRAPEZE_OK;
    if (p->n_profiles == TRAPEZE_GZ_MAX_PROFILES)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: the calibration already holds %d "
                            "[profile.NAME] sections, the most a model takes", w->name,
                            TRAPEZE_GZ_MAX_PROFILES);
    trapeze_status s = run_pair(gpu_config_path, w, threads < 1 ? 1 : threads,
                                &p->profile[p->n_profiles], warp_instructions, err);
    p->n_profiles += !s;
    return s;
}
