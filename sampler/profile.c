/*
 * profile.c - Meng's profiling (5.14) with the simulator's counts: a
 * workload's profiling pair (one stage at h = 1 and one at h = 2 on a grid of
 * a few tiles per SM, planned by plan.c) turned into the instruction counts
 * the model reads ([profile.NAME]), and its issue probe (a tall h and half
 * of it on a few waves of tiles) into its issue rate; from a log (calibrate,
 * validate) or run here for one workload (`ghostzone` on a stencil its
 * calibration never saw). Owns that arithmetic and that run; must not fit
 * constants or print.
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

/* The issue rate from the two probes: the tall h's extra cycles over its
 * extra warp instructions, per SM; 0 (not measured) when that is faster than
 * the GPU's schedulers could issue. */
static double issue_cycles(const trapeze_ghostzone_plan *plan, const trapeze_sample *tall,
                           const trapeze_sample *half)
{
    double cycles = tall->cycles - half->cycles;
    double insts = tall->warp_instructions - half->warp_instructions;
    long sched = 1;
    trapeze_config_get_int_in(plan->cfg, "-gpgpu_num_sched_per_core", 1, 1, 64, &sched, NULL);
    double rate = cycles > 0 && insts > 0 ? cycles * plan->gpu.n_sm / insts : 0;
    /* faster than the schedulers can issue: the two runs differ in more than
     * their iterations (a memory-bound stencil's smaller output at the tall
     * h), so the difference does not measure issue: none */
    return rate >= 1.0 / (double)sched ? rate : 0;
}

/* One stage at h = 2 minus one at h = 1, per tile, is one loop of IterComp;
 * the rest of the h = 1 tile is MiscComp (setup, staging, commit). Expressed
 * per SM of this GPU for an input of N elements, so that 5.15/5.16 give back
 * the counts per tile. */
static trapeze_status profile_from(const trapeze_ghostzone_plan *plan, const trapeze_workload *w,
                                   const trapeze_sample *const rows[SAMPLER_PROFILE_ROWS],
                                   trapeze_ghostzone_profile *pr, trapeze_error *err)
{
    const trapeze_sample *r1 = rows[0], *r2 = rows[1];
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
    pr->issue_cycles = issue_cycles(plan, rows[2], rows[3]);
    return TRAPEZE_OK;
}

int sampler_profile_start(const trapeze_ghostzone_plan *plan, int i)
{
    const trapeze_sample *r = plan->rows;
    size_t n = strlen(SAMPLER_PROFILE_ISSUE), len;
    return i >= 0 && i + SAMPLER_PROFILE_ROWS <= plan->count &&
           strcmp(r[i].kind, SAMPLER_KIND_PROFILE) == 0 && r[i].h == 1 &&
           strcmp(r[i + 1].kind, SAMPLER_KIND_PROFILE) == 0 && r[i + 1].h == 2 &&
           (len = strlen(r[i + 2].id)) >= n && strcmp(r[i + 2].id + len - n, SAMPLER_PROFILE_ISSUE) == 0;
}

trapeze_status sampler_profile_of(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log,
                                  const trapeze_workload *w, int first_row,
                                  trapeze_ghostzone_profile *pr, trapeze_error *err)
{
    const trapeze_sample *r[SAMPLER_PROFILE_ROWS];
    for (int k = 0; k < SAMPLER_PROFILE_ROWS; k++) {
        r[k] = trapeze_sample_log_find(log, plan->rows[first_row + k].id);
        if (!r[k])
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "%s has no row %s: run the calibration's samples first",
                                trapeze_sample_log_path(log), plan->rows[first_row + k].id);
    }
    return profile_from(plan, w, r, pr, err);
}

int sampler_has_profile(const trapeze_ghostzone_params *p, const char *name)
{
    for (int i = 0; i < p->n_profiles; i++)
        if (strcasecmp(p->profile[i].workload, name) == 0)
            return 1;
    return 0;
}

/* A workload the calibration never saw has no [profile.NAME]: its spec's
 * counts are another GPU's. Meng profiles every new stencil once (5.14), so
 * its profiling pair runs here (found in, else appended to, the sweep log
 * when there is one) and its counts join a copy of the parameters; the
 * fitted constants stay as calibrated. */
trapeze_status sampler_profile_unseen(const trapeze_ghostzone_plan *plan, trapeze_ghostzone_params *p,
                                      trapeze_sample_log *sweep_log, int threads, double *work,
                                      trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < plan->count; i++) {
        const trapeze_sample *r = &plan->rows[i];
        if (!sampler_profile_start(plan, i) || sampler_has_profile(p, r->workload))
            continue;
        if (p->n_profiles == TRAPEZE_GHOSTZONE_MAX_PROFILES)
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s: the calibration already holds %d "
                                "[profile.NAME] sections, the most a model takes", r->workload,
                                TRAPEZE_GHOSTZONE_MAX_PROFILES);
        trapeze_sample pair[SAMPLER_PROFILE_ROWS];
        const trapeze_sample *rows[SAMPLER_PROFILE_ROWS];
        memcpy(pair, &plan->rows[i], sizeof pair);
        for (int k = 0; !s && k < SAMPLER_PROFILE_ROWS; k++) {
            const trapeze_sample *found = sweep_log ? trapeze_sample_log_find(sweep_log, pair[k].id)
                                                    : NULL;
            rows[k] = &pair[k]; /* a copy: appending may move the log's rows */
            if (found) {
                pair[k] = *found;
                continue;
            }
            s = sampler_run_rows(plan, &pair[k], 1, threads, NULL, NULL, err);
            if (!s && work)
                *work += pair[k].warp_instructions;
            if (!s && sweep_log)
                s = trapeze_sample_log_append(sweep_log, &pair[k], err);
        }
        if (!s)
            s = profile_from(plan, sampler_workload(plan, r->workload), rows,
                             &p->profile[p->n_profiles], err);
        p->n_profiles += !s;
    }
    return s;
}

trapeze_status trapeze_ghostzone_profile_run(const char *gpu_config_path, const trapeze_workload *w,
                                             int threads, trapeze_ghostzone_params *p,
                                             double *warp_instructions, trapeze_error *err)
{
    *warp_instructions = 0;
    trapeze_ghostzone_calib_options o;
    trapeze_ghostzone_calib_options_init(&o);
    o.budget = 1;
    trapeze_ghostzone_plan *plan;
    trapeze_status s = trapeze_ghostzone_plan_create(gpu_config_path, w, 1, &o, &plan, err);
    if (s)
        return s;
    s = sampler_profile_unseen(plan, p, NULL, threads < 1 ? 1 : threads, warp_instructions, err);
    trapeze_ghostzone_plan_destroy(plan);
    return s;
}
