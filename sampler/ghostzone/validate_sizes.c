/*
 * validate_sizes.c - a calibration against simulations at the sizes users
 * run: each workload's reference grid scaled by area factors (1x up to 100x
 * and beyond), a few stages per point, the plausible heights of both sync
 * modes. Owns the choice of grids and heights and the per-size figures (MAPE,
 * bias per mode, the (mode, h) picked against the simulator's best, the sync
 * mode's correctness); must not fit, and writes no file but the sweep log.
 *
 * Plausible heights do not depend on the calibration (so one sweep log serves
 * every model variant): the h whose output tile keeps at least a quarter of
 * the block's elements, thinned to at most MAX_HEIGHTS; the model's own pick
 * is added when it lies outside, so the pick ratio is always measured.
 *
 * With logged_only (`validate --sizes --logged-only`), nothing is simulated:
 * the rows the sweep log lacks are left out, and the model's pick is its
 * better mode's pick, or when that was not run its best among the logged
 * runs (never the other mode's pick, which the model ranks below it). That compares a refitted calibration, or another
 * model structure, with a finished sweep in a second (docs/calibration.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

#define MAX_HEIGHTS 10
#define MIN_TILE_EFFICIENCY 0.25

static const trapeze_sync modes[2] = {TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE};

void trapeze_ghostzone_size_validation_free(trapeze_ghostzone_size_validation *v)
{
    free(v->rows);
    free(v->points);
    memset(v, 0, sizeof *v);
}

/* Output elements over input elements of one tile at height h. */
static double tile_efficiency(const trapeze_workload *w, int h)
{
    double e = 1;
    for (int d = 0; d < w->dims; d++)
        e *= (double)(w->blk_len - w->halo[d] * h) / w->blk_len;
    return e;
}

int sampler_plausible_heights(const trapeze_workload *w, int max_h, int *hs)
{
    int n = 0, last = 0;
    while (last < max_h && tile_efficiency(w, last + 1) >= MIN_TILE_EFFICIENCY)
        last++;
    if (last < 1)
        last = 1;
    if (last <= MAX_HEIGHTS) {
        for (int h = 1; h <= last; h++)
            hs[n++] = h;
        return n;
    }
    /* 1..4, then geometric steps up to `last` */
    for (int h = 1; h <= 4; h++)
        hs[n++] = h;
    double ratio = pow(last / 4.0, 1.0 / (MAX_HEIGHTS - 4));
    for (int k = 1; k <= MAX_HEIGHTS - 4; k++) {
        int h = (int)floor(4 * pow(ratio, k) + 0.5);
        if (h > hs[n - 1])
            hs[n++] = h;
    }
    return n;
}

/* The reference grid of workload wi scaled to `factor` times its area. */
static void grid_at(const trapeze_ghostzone_plan *plan, int wi, double factor, trapeze_workload *out,
                    int *max_h)
{
    trapeze_workload ref;
    trapeze_ghostzone_reference(plan, wi, &ref, max_h, NULL);
    *out = ref;
    double s = pow(factor, 1.0 / ref.dims);
    for (int d = 0; d < ref.dims; d++)
        out->data_len[d] = fmax(1.0, floor(ref.data_len[d] * s + 0.5));
}

/* The model's best integer h per mode, and its VERIFY_TOP best (mode, h)
 * overall, with the other mode's best when those are one mode (what
 * `trapeze ghostzone --verify 3` would simulate): pick[0..1],
 * then top[2 * i] = mode, top[2 * i + 1] = h. */
#define VERIFY_TOP 3
#define VERIFY_SLOTS (VERIFY_TOP + 1) /* and the other mode's best when the 3 are one mode */
static trapeze_status model_picks(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p,
                                  const trapeze_workload *w, int *pick, int *top,
                                  trapeze_error *err)
{
    trapeze_ghostzone_model *m;
    trapeze_status s = trapeze_ghostzone_create(&plan->gpu, w, p, &m, err);
    if (s)
        return s;
    trapeze_ghostzone_choice *c;
    int n;
    if ((s = trapeze_ghostzone_rank(m, p, w->blk_len, &c, &n, err))) {
        trapeze_ghostzone_destroy(m);
        return s;
    }
    int got = trapeze_ghostzone_verify_order(c, n, VERIFY_TOP);
    for (int i = 0; i < VERIFY_SLOTS; i++) {
        top[2 * i] = i < got ? (int)c[i].sync : -1;
        top[2 * i + 1] = i < got ? c[i].h : 0;
    }
    free(c);
    int hmax = trapeze_ghostzone_max_height(m, w->blk_len);
    for (int k = 0; k < 2; k++) {
        double best = INFINITY;
        pick[k] = 1;
        for (int h = 1; h <= hmax; h++) {
            trapeze_ghostzone_eval e;
            if (trapeze_ghostzone_evaluate(m, modes[k], h, w->blk_len, &e, NULL) == TRAPEZE_OK &&
                e.cpl < best) {
                best = e.cpl;
                pick[k] = h;
            }
        }
    }
    trapeze_ghostzone_destroy(m);
    return TRAPEZE_OK;
}

static void fill_row(const trapeze_ghostzone_plan *plan, const trapeze_workload *w, trapeze_sync sync,
                     int h, int stages, trapeze_sample *r)
{
    double volume = 1;
    memset(r, 0, sizeof *r);
    for (int d = 0; d < w->dims; d++)
        volume *= w->data_len[d];
    snprintf(r->id, sizeof r->id, "%.20s/sweep/%.30s/%s:h%d:%.0f:s%d", plan->gpu.name, w->name,
             trapeze_sync_name(sync), h, volume, stages);
    snprintf(r->kind, sizeof r->kind, "%s", SAMPLER_KIND_SIM);
    snprintf(r->workload, sizeof r->workload, "%s", w->name);
    snprintf(r->gpu, sizeof r->gpu, "%s", plan->gpu.name);
    r->sync = sync;
    r->h = h;
    r->blk_len = w->blk_len;
    r->stages = stages;
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        r->data_len[d] = d < w->dims ? w->data_len[d] : 1;
}

/* Adds h to the ascending hs[0..n) unless there; returns the new count. */
static int add_height(int *hs, int n, int h)
{
    for (int i = 0; i < n; i++)
        if (hs[i] == h)
            return n;
    int i = n++;
    while (i > 0 && hs[i - 1] > h) {
        hs[i] = hs[i - 1];
        i--;
    }
    hs[i] = h;
    return n;
}

/* Heights of one (workload, size, mode k): the plausible ones, the pick and
 * the top candidates of that mode. */
static int heights_for(const trapeze_workload *w, int max_h, int k, int pick, const int *top,
                       int *hs)
{
    int n = add_height(hs, sampler_plausible_heights(w, max_h, hs), pick);
    for (int i = 0; i < VERIFY_SLOTS; i++)
        if (top[2 * i] == (int)modes[k])
            n = add_height(hs, n, top[2 * i + 1]);
    return n;
}

typedef struct {
    trapeze_sample *rows;
    int n, cap;
} row_list;

static trapeze_status push(row_list *l, const trapeze_sample *r, trapeze_error *err)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        trapeze_sample *rows = realloc(l->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        l->rows = rows;
        l->cap = cap;
    }
    l->rows[l->n++] = *r;
    return TRAPEZE_OK;
}

static trapeze_status verify_on_sweep(const trapeze_ghostzone_validation_point *pts, int n, const int *top,
                                      int best_sim, trapeze_ghostzone_size_validation_row *vr,
                                      trapeze_error *err);

/* Summarizes the points of one (workload, size): rows[0..n), relaunch first. */
static trapeze_status summarize(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p,
                                const trapeze_workload *w, double factor, const int *pick,
                                const int *top, const trapeze_sample *rows, int n,
                                trapeze_ghostzone_size_validation_row *vr, trapeze_ghostzone_validation_point *pts,
                                trapeze_error *err)
{
    trapeze_ghostzone_model *m;
    trapeze_status s = trapeze_ghostzone_create(&plan->gpu, w, p, &m, err);
    if (s)
        return s;
    memset(vr, 0, sizeof *vr);
    snprintf(vr->workload, sizeof vr->workload, "%s", w->name);
    vr->area_factor = factor;
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        vr->data_len[d] = d < w->dims ? w->data_len[d] : 1;
    int count[2] = {0, 0}, best_sim = 0, picked = -1;
    /* the model's pick is the better of its two modes' picks, whether or not
     * the other mode's was logged: a logged fence pick is not the model's
     * when its relaunch pick, cheaper, was not run */
    trapeze_ghostzone_eval mode_best[2];
    for (int k = 0; k < 2 && !s; k++)
        s = trapeze_ghostzone_evaluate(m, modes[k], pick[k], w->blk_len, &mode_best[k], err);
    int best_mode = !s && mode_best[1].cpl < mode_best[0].cpl;
    for (int i = 0; i < n && !s; i++) {
        trapeze_ghostzone_eval e;
        s = trapeze_ghostzone_evaluate(m, rows[i].sync, rows[i].h, w->blk_len, &e, err);
        trapeze_ghostzone_validation_point *pt = &pts[i];
        snprintf(pt->workload, sizeof pt->workload, "%s", w->name);
        pt->sync = rows[i].sync;
        pt->h = rows[i].h;
        pt->cpl_sim = rows[i].cpl_cycles;
        pt->cpl_model = e.cpl;
        pt->warp_instructions = rows[i].warp_instructions;
        pt->area_factor = factor;
        int k = pt->sync == TRAPEZE_SYNC_FENCE;
        double rel = (e.cpl - pt->cpl_sim) / pt->cpl_sim;
        vr->mape_pct += 100 * fabs(rel);
        vr->bias_pct[k] += 100 * rel;
        count[k]++;
        vr->sweep_warp_instructions += pt->warp_instructions;
        if (pt->cpl_sim < pts[best_sim].cpl_sim)
            best_sim = i;
        if (k == best_mode && pt->h == pick[k])
            picked = i;
    }
    trapeze_ghostzone_destroy(m);
    if (s)
        return s;
    if (picked < 0) /* logged_only, the model's pick not run: its best among those that were */
        for (int i = 0; i < n; i++)
            if (picked < 0 || pts[i].cpl_model < pts[picked].cpl_model)
                picked = i;
    vr->n_points = n;
    vr->mape_pct /= n;
    for (int k = 0; k < 2; k++)
        vr->bias_pct[k] = count[k] ? vr->bias_pct[k] / count[k] : NAN;
    vr->h_model = pts[picked].h;
    vr->sync_model = pts[picked].sync;
    vr->h_sim_best = pts[best_sim].h;
    vr->sync_sim_best = pts[best_sim].sync;
    vr->pick_ratio = pts[best_sim].cpl_sim / pts[picked].cpl_sim;
    vr->sync_right = vr->sync_model == vr->sync_sim_best;
    return verify_on_sweep(pts, n, top, best_sim, vr, err);
}

/* --verify 3 replayed on the sweep's runs: the model's top three (and the
 * other mode's best), then the search along h (trapeze_ghostzone_verify_next) over
 * the heights swept; what it simulates is what it costs. */
static trapeze_status verify_on_sweep(const trapeze_ghostzone_validation_point *pts, int n, const int *top,
                                      int best_sim, trapeze_ghostzone_size_validation_row *vr,
                                      trapeze_error *err)
{
    trapeze_ghostzone_choice *c = calloc((size_t)n, sizeof *c);
    if (!c)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        c[i] = (trapeze_ghostzone_choice){.sync = pts[i].sync, .h = pts[i].h,
                                   .cpl_model = pts[i].cpl_model, .index = i};
    vr->verify_warp_instructions = 0;
    for (int t = 0; t < VERIFY_SLOTS; t++)
        for (int i = 0; i < n; i++)
            if ((int)pts[i].sync == top[2 * t] && pts[i].h == top[2 * t + 1] && !c[i].cpl_sim) {
                c[i].cpl_sim = pts[i].cpl_sim;
                vr->verify_warp_instructions += pts[i].warp_instructions;
            }
    for (int k = 0; k < TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH; k++) {
        int i = trapeze_ghostzone_verify_next(c, n);
        if (i < 0)
            break;
        c[i].cpl_sim = pts[i].cpl_sim;
        vr->verify_warp_instructions += pts[i].warp_instructions;
    }
    int verified = -1;
    for (int i = 0; i < n; i++)
        if (c[i].cpl_sim > 0 && (verified < 0 || c[i].cpl_sim < c[verified].cpl_sim))
            verified = i;
    free(c);
    if (verified < 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: none of the model's best was swept",
                            vr->workload);
    vr->verify_pick_ratio = pts[best_sim].cpl_sim / pts[verified].cpl_sim;
    vr->verify_sync_right = pts[verified].sync == vr->sync_sim_best;
    return TRAPEZE_OK;
}

/* The rows of one (workload, size), relaunch then fence, h ascending. */
static trapeze_status plan_size(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p, int wi,
                                double factor, int stages, trapeze_workload *w, int *pick,
                                int *top, row_list *l, trapeze_error *err)
{
    int max_h;
    grid_at(plan, wi, factor, w, &max_h);
    trapeze_status s = model_picks(plan, p, w, pick, top, err);
    for (int k = 0; !s && k < 2; k++) {
        int hs[MAX_HEIGHTS + 2 + VERIFY_SLOTS], nh = heights_for(w, max_h, k, pick[k], top, hs);
        for (int i = 0; !s && i < nh; i++) {
            trapeze_sample r;
            fill_row(plan, w, modes[k], hs[i], stages, &r);
            s = push(l, &r, err);
        }
    }
    return s;
}

/* logged_only: leaves out the rows no run measured (cpl 0), group by group
 * (start[0..groups] are the groups' first rows, moved with them). */
static trapeze_status drop_unlogged(const trapeze_ghostzone_plan *plan, row_list *l, int *start,
                                    int groups, int n_factors, const double *factors,
                                    trapeze_error *err)
{
    int kept = 0;
    for (int g = 0; g < groups; g++) {
        int first = kept;
        for (int i = start[g]; i < start[g + 1]; i++)
            if (l->rows[i].cpl_cycles > 0)
                l->rows[kept++] = l->rows[i];
        if (kept == first)
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "validate --logged-only: the sweep log has no run of %s at %gx",
                                plan->workloads[g / n_factors].name, factors[g % n_factors]);
        start[g] = first;
    }
    start[groups] = l->n = kept;
    return TRAPEZE_OK;
}

trapeze_status trapeze_ghostzone_validate_sizes(const trapeze_ghostzone_plan *plan,
                                                const trapeze_ghostzone_params *p, const double *factors,
                                                int n_factors, int stages, trapeze_sample_log *sweep_log,
                                                int threads, trapeze_ghostzone_progress progress,
                                                void *ctx, trapeze_ghostzone_size_validation *out,
                                                trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    int groups = plan->n_workloads * n_factors;
    trapeze_ghostzone_params profiled = *p;
    trapeze_status ps = sampler_profile_unseen(plan, &profiled, sweep_log, threads, NULL, err);
    if (ps)
        return ps;
    p = &profiled;
    int *start = calloc((size_t)groups + 1, sizeof *start), *picks = calloc((size_t)groups * 2, sizeof *picks);
    int *tops = calloc((size_t)groups * 2 * VERIFY_SLOTS, sizeof *tops);
    trapeze_workload *grids = calloc((size_t)groups, sizeof *grids);
    row_list l = {0};
    trapeze_status s = start && picks && grids && tops ? TRAPEZE_OK
                                               : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s && plan->opt.logged_only && !sweep_log)
        s = trapeze_fail(err, TRAPEZE_EINVAL, "validate --logged-only: a --sweep-log to read is required");
    if (!s && (stages < 1 || stages > 32))
        s = trapeze_fail(err, TRAPEZE_ERANGE, "validate --sizes: %d stages (1 to 32)", stages);
    for (int g = 0; !s && g < groups; g++) {
        if (!(factors[g % n_factors] > 0))
            s = trapeze_fail(err, TRAPEZE_ERANGE, "validate --sizes: area factor %g is not positive",
                             factors[g % n_factors]);
        start[g] = l.n;
        if (!s)
            s = plan_size(plan, p, g / n_factors, factors[g % n_factors], stages, &grids[g],
                          &picks[2 * g], &tops[2 * VERIFY_SLOTS * g], &l, err);
    }
    if (!s) {
        start[groups] = l.n;
        s = sampler_sweep_run(plan, l.rows, l.n, sweep_log, threads, progress, ctx, err);
    }
    if (!s && plan->opt.logged_only)
        s = drop_unlogged(plan, &l, start, groups, n_factors, factors, err);
    if (!s && (!(out->rows = calloc((size_t)groups, sizeof *out->rows)) ||
               !(out->points = calloc((size_t)(l.n ? l.n : 1), sizeof *out->points))))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int g = 0; !s && g < groups; g++) {
        s = summarize(plan, p, &grids[g], factors[g % n_factors], &picks[2 * g],
                      &tops[2 * VERIFY_SLOTS * g], l.rows + start[g], start[g + 1] - start[g],
                      &out->rows[g], out->points + start[g], err);
        out->n_rows += !s;
    }
    out->n_points = s ? 0 : l.n;
    if (s)
        trapeze_ghostzone_size_validation_free(out);
    free(l.rows);
    free(start);
    free(picks);
    free(tops);
    free(grids);
    return s;
}
