/*
 * validate.c - a calibration against full simulations: every h up to the
 * plan's max_h in both sync modes on each workload's reference grid, run as
 * samples (same timing, see sample_run.c), compared with the calibrated
 * model. Owns the error, pick and cost figures; must not fit, and writes no
 * file but the sweep log it is given.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

static const trapeze_sync modes[2] = {TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE};

void trapeze_ghostzone_validation_free(trapeze_ghostzone_validation *v)
{
    free(v->rows);
    free(v->points);
    memset(v, 0, sizeof *v);
}

/* The sweep's rows: workload by workload, relaunch then fence, h ascending. */
static trapeze_status sweep_rows(const trapeze_ghostzone_plan *plan, trapeze_sample **out, int *n,
                                 trapeze_error *err)
{
    int total = 0, max_h;
    trapeze_workload ref;
    for (int w = 0; w < plan->n_workloads; w++) {
        trapeze_ghostzone_reference(plan, w, &ref, &max_h, err);
        total += 2 * max_h;
    }
    trapeze_sample *rows = calloc((size_t)total, sizeof *rows);
    if (!rows)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    *n = 0;
    for (int w = 0; w < plan->n_workloads; w++) {
        trapeze_ghostzone_reference(plan, w, &ref, &max_h, err);
        for (int m = 0; m < 2; m++)
            for (int h = 1; h <= max_h; h++) {
                trapeze_sample *r = &rows[(*n)++];
                double volume = 1;
                for (int d = 0; d < ref.dims; d++)
                    volume *= ref.data_len[d];
                snprintf(r->id, sizeof r->id, "%.20s/sweep/%.30s/%s:h%d:%.0f:s%d", plan->gpu.name,
                         ref.name, trapeze_sync_name(modes[m]), h, volume, plan->opt.stages);
                snprintf(r->kind, sizeof r->kind, "%s", SAMPLER_KIND_SIM);
                snprintf(r->workload, sizeof r->workload, "%s", ref.name);
                snprintf(r->gpu, sizeof r->gpu, "%s", plan->gpu.name);
                r->sync = modes[m];
                r->h = h;
                r->blk_len = ref.blk_len;
                r->stages = plan->opt.stages;
                for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
                    r->data_len[d] = d < ref.dims ? ref.data_len[d] : 1;
            }
    }
    *out = rows;
    return TRAPEZE_OK;
}

/* Warp instructions the calibration spent for (workload, sync): its stencil
 * samples in that mode, half its profiling pair, and an equal share of the
 * GPU's micro-benchmarks over every (workload, mode). */
static double sample_cost(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log,
                          const char *workload, trapeze_sync sync)
{
    double cost = 0;
    for (int i = 0; log && i < trapeze_sample_log_count(log); i++) {
        const trapeze_sample *r = trapeze_sample_log_get(log, i);
        if (strcmp(r->gpu, plan->gpu.name) != 0)
            continue;
        if (strcmp(r->kind, SAMPLER_KIND_MICRO) == 0)
            cost += r->warp_instructions / (2.0 * plan->n_workloads);
        else if (strcmp(r->workload, workload) == 0 && strcmp(r->kind, SAMPLER_KIND_PROFILE) == 0)
            cost += r->warp_instructions / 2;
        else if (strcmp(r->workload, workload) == 0 && strcmp(r->kind, SAMPLER_KIND_SIM) == 0 &&
                 r->sync == sync)
            cost += r->warp_instructions;
    }
    return cost;
}

/* One (workload, sync) block of the sweep, rows[0..n) with h = 1..n. */
static trapeze_status summarize(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p,
                                const trapeze_sample *rows, int n, trapeze_ghostzone_validation_row *vr,
                                trapeze_ghostzone_validation_point *pts, trapeze_error *err)
{
    trapeze_workload w;
    trapeze_ghostzone_model *m;
    sampler_resize(sampler_workload(plan, rows[0].workload), rows[0].data_len, &w);
    trapeze_status s = trapeze_ghostzone_create(&plan->gpu, &w, p, &m, err);
    if (s)
        return s;
    memset(vr, 0, sizeof *vr);
    snprintf(vr->workload, sizeof vr->workload, "%s", w.name);
    vr->sync = rows[0].sync;
    int best_model = 0, best_sim = 0;
    for (int i = 0; i < n && !s; i++) {
        trapeze_ghostzone_eval e;
        s = trapeze_ghostzone_evaluate(m, rows[i].sync, rows[i].h, w.blk_len, &e, err);
        trapeze_ghostzone_validation_point *pt = &pts[i];
        snprintf(pt->workload, sizeof pt->workload, "%s", w.name);
        pt->sync = rows[i].sync;
        pt->h = rows[i].h;
        pt->cpl_sim = rows[i].cpl_cycles;
        pt->cpl_model = e.cpl;
        pt->warp_instructions = rows[i].warp_instructions;
        pt->area_factor = 1;
        double ape = 100 * fabs(e.cpl - pt->cpl_sim) / pt->cpl_sim;
        vr->mape_pct += ape / n;
        vr->max_ape_pct = fmax(vr->max_ape_pct, ape);
        vr->sweep_warp_instructions += pt->warp_instructions;
        if (pt->cpl_model < pts[best_model].cpl_model)
            best_model = i;
        if (pt->cpl_sim < pts[best_sim].cpl_sim)
            best_sim = i;
    }
    trapeze_ghostzone_destroy(m);
    vr->h_model = pts[best_model].h;
    vr->h_sim_best = pts[best_sim].h;
    vr->pick_ratio = pts[best_sim].cpl_sim / pts[best_model].cpl_sim;
    return s;
}

trapeze_status trapeze_ghostzone_validate(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p,
                                          const trapeze_sample_log *log,
                                          trapeze_sample_log *sweep_log, int threads,
                                          trapeze_ghostzone_progress progress, void *ctx,
                                          trapeze_ghostzone_validation *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (plan->opt.logged_only)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "validate: logged_only reads a size sweep back (--sizes); the "
                            "reference sweep always runs what its log lacks");
    trapeze_sample *rows = NULL;
    int n = 0;
    trapeze_ghostzone_params profiled = *p;
    trapeze_status s = sampler_profile_unseen(plan, &profiled, sweep_log, threads, NULL, err);
    if (s || (s = sweep_rows(plan, &rows, &n, err)))
        return s;
    p = &profiled;
    s = sampler_sweep_run(plan, rows, n, sweep_log, threads, progress, ctx, err);
    out->rows = calloc((size_t)plan->n_workloads * 2, sizeof *out->rows);
    out->points = calloc((size_t)n, sizeof *out->points);
    if (!s && (!out->rows || !out->points))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int start = 0; !s && start < n;) {
        int len = 1;
        while (start + len < n && rows[start + len].h > 1)
            len++;
        trapeze_ghostzone_validation_row *vr = &out->rows[out->n_rows];
        s = summarize(plan, p, rows + start, len, vr, out->points + start, err);
        if (!s) {
            vr->sample_warp_instructions = sample_cost(plan, log, vr->workload, vr->sync);
            out->n_rows++;
        }
        start += len;
    }
    out->n_points = s ? 0 : n;
    free(rows);
    if (s)
        trapeze_ghostzone_validation_free(out);
    return s;
}
