/*
 * calibrate.c - from the rows of a finished calibration run to the model's
 * parameters: the micro-benchmarks' values, each workload's profiled
 * instruction counts, then the least-squares fit (fit.c) over every stencil
 * observation and its cross-validated error. Owns how samples become
 * parameters; must not run samples or write files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

/* Fitted unless the caller picks: the constants the micro-benchmarks cannot
 * isolate in the stencil kernels (overlap, contention, latency hiding).
 * The bandwidth fraction stays as the copy measured it, blocks_per_sm as the
 * occupancy gives it: fitting either did not lower the cross-validated error
 * (README, "Calibration"). */
#define DEFAULT_FIT_MASK                                                                   \
    (TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_UNCONTENDED_LAT) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_SIGMA) |     \
     TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_MU) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_RELAUNCH) |               \
     TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_CPI) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_OVERLAP))

/* With the at-size structure, the per-tile and fence constants are fitted
 * too: the micro-benchmarks run no stencil, so they cannot see the tile
 * loop's dispatch, the persistent kernel's staging or the barrier under load
 * (on the GTX 480 the fencebar slope is 0, the stencils' is not). */
#define AT_SIZE_FIT_MASK                                                                   \
    (TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_TILE_CYCLES) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_MISC) |     \
     TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_BARRIER) |   \
     TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_HALO_REREAD))

/* Whether the GPU's global loads can hit a data cache (an L2, or an L1D
 * they do not skip). Without one every load is a DRAM read, so a ghost zone
 * a neighbour also loads costs a full read: rho and rho_L are 1, not fitted
 * (the GTX 280's fit put rho_L at 0, pricing its loop's loads as free where
 * each one goes to DRAM, and moved PathFinder's relaunch pick 0.948 -> 0.917). */
static int has_data_cache(const trapeze_config *cfg)
{
    const char *l1, *l2;
    long skip = 0;
    trapeze_error ignored;
    trapeze_config_get_string(cfg, "gpgpu_cache:dl1", "none", &l1);
    trapeze_config_get_string(cfg, "gpgpu_cache:dl2", "none", &l2);
    if (trapeze_config_get_int(cfg, "gpgpu_gmem_skip_L1D", 0, &skip, &ignored))
        skip = 0; /* a malformed value: the simulator refuses the config before any sample */
    return strcmp(l2, "none") != 0 || (strcmp(l1, "none") != 0 && !skip);
}

static unsigned fit_mask(const trapeze_ghostzone_plan *plan)
{
    if (plan->opt.fit_mask)
        return plan->opt.fit_mask;
    unsigned m = DEFAULT_FIT_MASK;
    if (plan->opt.structure) /* mu would only rescale the fitted barrier: held at 1 */
        m = (m & ~TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_MU)) | AT_SIZE_FIT_MASK;
    if (plan->cfg && !has_data_cache(plan->cfg))
        m &= ~TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_HALO_REREAD);
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP)
        m |= TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_OVERLAP_FENCE);
    /* barrier_max's barrier is the micro-benchmark's, measured over the
     * block counts the persistent kernel can have: the stencils, whose
     * stages are mostly tiles, identified it worse (V100: 0.17 cycles a
     * block where the barrier alone costs 2) */
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX)
        m &= ~(TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK) | TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_BARRIER));
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER)
        m |= TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_ITER);
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_FENCE_ISSUE)
        m |= TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_FENCE_ISSUE);
    /* round_staging's wait and the halo re-reads both price a fence stage's
     * staging, which the samples do not separate: fitted together, the
     * GTX 480's rho went from 1 to its bound 0 and priced a 3-D star's
     * staging 70% low. rho is held at Meng's 1 */
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_ROUND_STAGING)
        m &= ~TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_HALO_REREAD);
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_PARTIAL_ROUND)
        m |= TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_PARTIAL_ROUND);
    if ((plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_LOOP_REREAD) &&
        !(plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_LOOP_ONCE)) /* loop_once prices them at 0 */
        m |= TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_LOOP_REREAD);
    return m;
}

static void clamp_param(trapeze_ghostzone_params *p, trapeze_ghostzone_param k, double v);

/* The structure switches of the plan's options, as model flags. */
static void set_structure(const trapeze_ghostzone_plan *plan, trapeze_ghostzone_params *p)
{
    unsigned st = plan->opt.structure;
    p->whole_tiles = !plan->opt.real_tiles; /* the model predicts launches of whole tiles */
    p->occupancy = (st & TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY) != 0;
    p->waves = (st & TRAPEZE_GHOSTZONE_STRUCT_WAVES) != 0;
    p->persistent_fence = (st & TRAPEZE_GHOSTZONE_STRUCT_PERSISTENT_FENCE) != 0;
    p->fence_overlap = (st & TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP) != 0;
    p->fence_staging = (st & TRAPEZE_GHOSTZONE_STRUCT_FENCE_STAGING) != 0;
    p->row_penalty = (st & TRAPEZE_GHOSTZONE_STRUCT_ROW_PENALTY) != 0;
    p->fence_iter = (st & TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER) != 0;
    p->fence_issue = (st & TRAPEZE_GHOSTZONE_STRUCT_FENCE_ISSUE) != 0;
    p->fence_iter_hidden = (st & TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER_HIDDEN) != 0;
    p->fence_overlap_loads = (st & TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP_LOADS) != 0;
    p->round_spin = (st & TRAPEZE_GHOSTZONE_STRUCT_ROUND_SPIN) != 0;
    p->spin_staging = (st & TRAPEZE_GHOSTZONE_STRUCT_SPIN_STAGING) != 0;
    p->round_tiles = (st & TRAPEZE_GHOSTZONE_STRUCT_ROUND_TILES) != 0;
    p->round_setup = (st & TRAPEZE_GHOSTZONE_STRUCT_ROUND_SETUP) != 0;
    p->mem_latency = (st & TRAPEZE_GHOSTZONE_STRUCT_MEM_LATENCY) != 0;
    p->row_lines = (st & TRAPEZE_GHOSTZONE_STRUCT_ROW_LINES) != 0;
    p->barrier_max = (st & TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX) != 0;
    p->partial_round = (st & TRAPEZE_GHOSTZONE_STRUCT_PARTIAL_ROUND) != 0;
    p->loop_reread = (st & TRAPEZE_GHOSTZONE_STRUCT_LOOP_REREAD) != 0;
    p->loop_once = (st & TRAPEZE_GHOSTZONE_STRUCT_LOOP_ONCE) != 0;
    p->round_latency = (st & TRAPEZE_GHOSTZONE_STRUCT_ROUND_LATENCY) != 0;
    p->round_compute = (st & TRAPEZE_GHOSTZONE_STRUCT_ROUND_COMPUTE) != 0;
    p->round_staging = (st & TRAPEZE_GHOSTZONE_STRUCT_ROUND_STAGING) != 0;
    p->lone_round = (st & TRAPEZE_GHOSTZONE_STRUCT_LONE_ROUND) != 0;
}

/* A fitted parameter cannot leave a range edge (the transform's slope
 * vanishes there): one starting at Meng's 0 starts inside instead. */
static void start_inside(const trapeze_ghostzone_plan *plan, trapeze_ghostzone_params *p)
{
    static const struct { trapeze_ghostzone_param k; double v; } starts[] = {
        {TRAPEZE_GHOSTZONE_OVERLAP, 0.5}, {TRAPEZE_GHOSTZONE_OVERLAP_FENCE, 0.5}, {TRAPEZE_GHOSTZONE_TILE_CYCLES, 100},
        {TRAPEZE_GHOSTZONE_FENCE_MISC, 0.5}, {TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, 10},
        {TRAPEZE_GHOSTZONE_FENCE_POLL, 0.1}, {TRAPEZE_GHOSTZONE_FENCE_BARRIER, 100}, {TRAPEZE_GHOSTZONE_HALO_REREAD, 0.5},
        {TRAPEZE_GHOSTZONE_FENCE_ITER, 0.3}, {TRAPEZE_GHOSTZONE_PARTIAL_ROUND, 0.3},
        {TRAPEZE_GHOSTZONE_LOOP_REREAD, 0.5}, {TRAPEZE_GHOSTZONE_FENCE_ISSUE, 0.1}};
    unsigned mask = fit_mask(plan);
    if (plan->opt.structure && !(mask & TRAPEZE_GHOSTZONE_MASK(TRAPEZE_GHOSTZONE_MU)))
        p->value[TRAPEZE_GHOSTZONE_MU] = 1; /* the fitted barrier constants are its exposed cost */
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if ((mask & TRAPEZE_GHOSTZONE_MASK(starts[i].k)) &&
            (p->value[starts[i].k] < 1e-6 * starts[i].v ||
             ((starts[i].k == TRAPEZE_GHOSTZONE_HALO_REREAD || starts[i].k == TRAPEZE_GHOSTZONE_LOOP_REREAD) &&
              p->value[starts[i].k] >= 1)))
            clamp_param(p, starts[i].k, starts[i].v);
}

static trapeze_status logged(const trapeze_sample_log *log, const trapeze_sample *planned,
                             const trapeze_sample **out, trapeze_error *err)
{
    *out = trapeze_sample_log_find(log, planned->id);
    if (!*out)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "%s has no row %s: run the calibration's samples first",
                            trapeze_sample_log_path(log), planned->id);
    return TRAPEZE_OK;
}

/* Fence barrier cost: least-squares line over the block counts, as Meng
 * fitted 210.3 x T + delta (a negative slope is read as none). */
static void fence_line(const double *blocks, const double *cycles, int n, double *slope,
                       double *intercept)
{
    double mb = 0, mc = 0, sbb = 0, sbc = 0;
    for (int i = 0; i < n; i++) {
        mb += blocks[i] / n;
        mc += cycles[i] / n;
    }
    for (int i = 0; i < n; i++) {
        sbb += (blocks[i] - mb) * (blocks[i] - mb);
        sbc += (blocks[i] - mb) * (cycles[i] - mc);
    }
    *slope = sbb > 0 && sbc > 0 ? sbc / sbb : 0;
    *intercept = mc - *slope * mb;
}

/* The same measurements in barrier_max's form, y = sqrt(B^2 + (F P)^2):
 * y^2 is linear in P^2, fitted by least squares relative to y^2 (weights
 * 1 / y^4, so that 80 blocks count as much as 2560). A negative part is
 * read as none (the GTX 480's barrier is flat: F = 0, B its mean). */
void sampler_fence_norm(const double *blocks, const double *cycles, int n, double *slope,
                        double *intercept)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        if (!(cycles[i] > 0))
            continue; /* no barrier measured (a config whose fence costs nothing): no weight */
        double y = cycles[i] * cycles[i], w = 1.0 / (y * y), x = blocks[i] * blocks[i];
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
    }
    double det = sw * sxx - sx * sx, b = det > 0 ? (sw * sxy - sx * sy) / det : 0;
    if (!(b > 0))
        b = 0;
    double a = sw > 0 ? (sy - b * sx) / sw : 0;
    *slope = sqrt(b);
    *intercept = a > 0 ? sqrt(a) : 0;
}

static void clamp_param(trapeze_ghostzone_params *p, trapeze_ghostzone_param k, double v)
{
    double lo, hi;
    trapeze_ghostzone_param_range(k, &lo, &hi);
    p->value[k] = v < lo ? lo : v > hi ? hi : v;
}

static trapeze_status micro_values(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log,
                                   trapeze_ghostzone_params *p, trapeze_error *err)
{
    double blocks[16], cycles[16];
    int nf = 0;
    for (int i = 0; i < plan->count; i++) {
        const trapeze_sample *r, *planned = &plan->rows[i];
        if (strcmp(planned->kind, SAMPLER_KIND_MICRO) != 0)
            continue;
        trapeze_status s = logged(log, planned, &r, err);
        if (s)
            return s;
        const char *m = r->workload;
        if (strcmp(m, "fma") == 0) {
            clamp_param(p, TRAPEZE_GHOSTZONE_CPI, r->cpl_cycles);
            clamp_param(p, TRAPEZE_GHOSTZONE_BLOCKS_PER_SM, r->data_len[0] / plan->gpu.n_sm);
        } else if (strcmp(m, "empty") == 0) {
            clamp_param(p, TRAPEZE_GHOSTZONE_RELAUNCH, r->cpl_cycles);
        } else if (strcmp(m, "copy") == 0) {
            clamp_param(p, TRAPEZE_GHOSTZONE_BW_FRACTION, r->cpl_cycles);
        } else if (strcmp(m, "chase") == 0) {
            clamp_param(p, TRAPEZE_GHOSTZONE_UNCONTENDED_LAT, r->cpl_cycles);
            /* held, not fitted: every calibrated workload hides it (3 or more
             * resident blocks), so no sample could tell its value */
            if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY)
                p->turnaround_cycles = r->cpl_cycles;
        } else if (strcmp(m, "fencebar") == 0 && nf < 16) {
            blocks[nf] = r->data_len[0];
            cycles[nf++] = r->cpl_cycles;
        }
    }
    double slope, intercept;
    if (plan->opt.structure & TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX)
        sampler_fence_norm(blocks, cycles, nf, &slope, &intercept);
    else
        fence_line(blocks, cycles, nf, &slope, &intercept);
    clamp_param(p, TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK, slope);
    clamp_param(p, TRAPEZE_GHOSTZONE_FENCE_BARRIER, intercept);
    clamp_param(p, TRAPEZE_GHOSTZONE_MU, 0.5);   /* Meng's assumption as the fit's start */
    clamp_param(p, TRAPEZE_GHOSTZONE_SIGMA, 1.0); /* no dimension penalty to start with */
    start_inside(plan, p);
    return TRAPEZE_OK;
}

static trapeze_status profiles(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log,
                               trapeze_ghostzone_params *p, trapeze_error *err)
{
    p->n_profiles = 0;
    for (int i = 0; i + 1 < plan->count; i++) {
        if (!sampler_profile_start(plan, i))
            continue;
        if (p->n_profiles == TRAPEZE_GHOSTZONE_MAX_PROFILES)
            return trapeze_fail(err, TRAPEZE_ERANGE, "calibration: at most %d workloads",
                                TRAPEZE_GHOSTZONE_MAX_PROFILES);
        const trapeze_workload *w = sampler_workload(plan, plan->rows[i].workload);
        trapeze_status s = sampler_profile_of(plan, log, w, i, &p->profile[p->n_profiles], err);
        if (s)
            return s;
        p->n_profiles++;
    }
    /* the CPI is fitted for the calibrated workloads' mean issue rate; each
     * workload's own scales it (model/ghostzone.c, issue_factor) */
    double product = 1;
    int measured = 0;
    for (int i = 0; i < p->n_profiles; i++)
        if (p->profile[i].issue_cycles > 0) {
            product *= p->profile[i].issue_cycles;
            measured++;
        }
    p->issue_cycles_ref = measured ? pow(product, 1.0 / measured) : 0;
    return TRAPEZE_OK;
}

/* The fit's observations: every stencil row of the plan's GPU and workloads,
 * simulated or measured. */
static int is_observation(const trapeze_ghostzone_plan *plan, const trapeze_sample *r)
{
    return (strcmp(r->kind, SAMPLER_KIND_SIM) == 0 || strcmp(r->kind, SAMPLER_KIND_MEASURED) == 0) &&
           strcmp(r->gpu, plan->gpu.name) == 0 && sampler_workload(plan, r->workload) != NULL;
}

static void free_points(trapeze_ghostzone_fit_point *pts, int n)
{
    for (int i = 0; i < n; i++)
        trapeze_ghostzone_destroy(pts[i].model);
    free(pts);
}

static trapeze_status make_points(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log,
                                  const trapeze_ghostzone_params *p, trapeze_ghostzone_fit_point **out, int *n,
                                  trapeze_error *err)
{
    int total = trapeze_sample_log_count(log);
    trapeze_ghostzone_fit_point *pts = calloc((size_t)(total ? total : 1), sizeof *pts);
    if (!pts)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    *n = 0;
    for (int i = 0; i < total; i++) {
        const trapeze_sample *r = trapeze_sample_log_get(log, i);
        if (!is_observation(plan, r))
            continue;
        trapeze_workload w;
        sampler_resize(sampler_workload(plan, r->workload), r->data_len, &w);
        w.blk_len = r->blk_len;
        trapeze_ghostzone_fit_point *pt = &pts[*n];
        trapeze_status s = trapeze_ghostzone_create(&plan->gpu, &w, p, &pt->model, err);
        if (s) {
            free_points(pts, *n);
            return s;
        }
        pt->sync = r->sync;
        pt->h = r->h;
        pt->blk_len = r->blk_len;
        pt->cpl_measured = r->cpl_cycles;
        (*n)++;
    }
    *out = pts;
    return TRAPEZE_OK;
}

/* The parameters of mask that move some observation's CPL: sigma needs a 2-
 * or 3-D workload, mu a fence sample, ...; the others would make the fit
 * singular. */
static unsigned identifiable(const trapeze_ghostzone_fit_point *pts, int n, unsigned mask)
{
    unsigned moved = 0;
    for (int i = 0; i < n; i++) {
        trapeze_ghostzone_eval e;
        if (trapeze_ghostzone_evaluate(pts[i].model, pts[i].sync, pts[i].h, pts[i].blk_len, &e, NULL))
            continue;
        for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++)
            if (fabs(e.dcpl_dparam[k]) > 1e-12 * e.cpl)
                moved |= TRAPEZE_GHOSTZONE_MASK(k);
    }
    return mask & moved;
}

static int bits_set(unsigned mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

static double volume_of(const trapeze_ghostzone_fit_point *pt)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(pt->model);
    double v = 1;
    for (int d = 0; d < w->dims; d++)
        v *= w->data_len[d];
    return v;
}

/* Is point i among the largest `fraction` of its workload's points (by grid
 * volume; ties broken by index, so the choice is deterministic)? */
static int held_out(const trapeze_ghostzone_fit_point *pts, int n, int i, double fraction)
{
    const char *name = trapeze_ghostzone_workload(pts[i].model)->name;
    int total = 0, larger = 0;
    for (int j = 0; j < n; j++) {
        if (strcmp(trapeze_ghostzone_workload(pts[j].model)->name, name) != 0)
            continue;
        total++;
        double vj = volume_of(&pts[j]), vi = volume_of(&pts[i]);
        larger += vj > vi || (vj == vi && j > i);
    }
    return larger < (int)floor(fraction * total);
}

/* Fits on all but each workload's largest samples and reports the error on
 * those: how the calibration extrapolates to grids larger than it saw. */
static trapeze_status extrapolation(const trapeze_ghostzone_plan *plan, trapeze_ghostzone_fit_point *pts, int n,
                                    unsigned mask, const trapeze_ghostzone_params *start,
                                    trapeze_fit_report *rep, trapeze_error *err)
{
    rep->n_holdout = 0;
    if (!(plan->opt.holdout > 0))
        return TRAPEZE_OK;
    trapeze_ghostzone_fit_point *train = malloc((size_t)n * sizeof *train);
    int *out = malloc((size_t)n * sizeof *out), m = 0, k = 0;
    if (!train || !out) {
        free(train);
        free(out);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        if (held_out(pts, n, i, plan->opt.holdout))
            out[k++] = i;
        else
            train[m++] = pts[i];
    }
    trapeze_status s = TRAPEZE_OK;
    /* Fewer than two training points per fitted constant leaves some of them
     * free to run wild outside the training grids (seen: a 5.8e10% error and
     * NaN with 20 points for 11 constants): no extrapolation figure then,
     * rather than a meaningless one. */
    if (k > 0 && m >= 2 * rep->n_fitted) {
        trapeze_ghostzone_params p = *start;
        trapeze_error quiet;
        if (trapeze_ghostzone_fit(train, m, identifiable(train, m, mask), &p, NULL, &quiet) == TRAPEZE_OK) {
            double sum = 0, bias = 0, worst = 0;
            for (int j = 0; j < k; j++) {
                trapeze_ghostzone_fit_point *pt = &pts[out[j]];
                trapeze_ghostzone_eval e;
                trapeze_ghostzone_set_params(pt->model, &p);
                if ((s = trapeze_ghostzone_evaluate(pt->model, pt->sync, pt->h, pt->blk_len, &e, err)))
                    break;
                if (!isfinite(e.cpl)) { /* the training fit does not extrapolate at all */
                    sum = bias = worst = NAN;
                    break;
                }
                double rel = 100 * (e.cpl - pt->cpl_measured) / pt->cpl_measured;
                sum += fabs(rel);
                bias += rel;
                worst = fmax(worst, fabs(rel));
            }
            rep->n_holdout = isfinite(sum) ? k : 0;
            rep->holdout_mape_pct = sum / k;
            rep->holdout_bias_pct = bias / k;
            rep->holdout_max_ape_pct = worst;
        }
        for (int i = 0; i < n; i++)
            trapeze_ghostzone_set_params(pts[i].model, start);
    }
    free(train);
    free(out);
    return s;
}

/* Observations the fit will have (make_points' count, without models). */
static int count_observations(const trapeze_ghostzone_plan *plan, const trapeze_sample_log *log)
{
    int n = 0;
    for (int i = 0; i < trapeze_sample_log_count(log); i++)
        n += is_observation(plan, trapeze_sample_log_get(log, i));
    return n;
}

trapeze_status trapeze_ghostzone_from_log(const trapeze_ghostzone_plan *given,
                                          const trapeze_sample_log *log, trapeze_ghostzone_params *p,
                                          trapeze_fit_report *rep, trapeze_error *err)
{
    /* too few observations for the at-size constants (a small --budget, one
     * workload): Meng's structure and fit set, which such a plan determines */
    trapeze_ghostzone_plan local = *given;
    const trapeze_ghostzone_plan *plan = &local;
    if (!local.opt.fit_mask && local.opt.structure &&
        count_observations(given, log) <= 2 * bits_set(fit_mask(given)))
        local.opt.structure = 0;
    if (local.cfg && !has_data_cache(local.cfg)) /* nothing to re-read from: Meng's IterMem */
        local.opt.structure &= ~(TRAPEZE_GHOSTZONE_STRUCT_LOOP_REREAD | TRAPEZE_GHOSTZONE_STRUCT_LOOP_ONCE);
    trapeze_ghostzone_params_default(p);
    set_structure(plan, p);
    trapeze_status s = micro_values(plan, log, p, err);
    if (!s)
        s = profiles(plan, log, p, err);
    trapeze_ghostzone_fit_point *pts = NULL;
    int n = 0;
    if (!s)
        s = make_points(plan, log, p, &pts, &n, err);
    if (s)
        return s;
    unsigned mask = identifiable(pts, n, fit_mask(plan));
    trapeze_ghostzone_params start = *p;
    memset(rep, 0, sizeof *rep);
    s = trapeze_ghostzone_fit(pts, n, mask, p, rep, err);
    /* more folds when each training set would otherwise be too small to fit */
    int folds = plan->opt.folds < n ? plan->opt.folds : n;
    while (folds < n && n - (n + folds - 1) / folds <= rep->n_fitted)
        folds++;
    rep->cv_mape_pct = rep->cv_max_ape_pct = NAN;
    if (!s && n - 1 > rep->n_fitted)
        s = trapeze_ghostzone_cross_validate(pts, n, mask, &start, folds, plan->opt.seed, rep, err);
    rep->holdout_mape_pct = rep->holdout_max_ape_pct = rep->holdout_bias_pct = NAN;
    if (!s)
        s = extrapolation(plan, pts, n, mask, &start, rep, err);
    free_points(pts, n);
    for (int k = 0; !s && k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
        double lo, hi;
        trapeze_ghostzone_param_range((trapeze_ghostzone_param)k, &lo, &hi);
        if (!(p->value[k] >= lo && p->value[k] <= hi))
            s = trapeze_fail(err, TRAPEZE_ERANGE,
                             "calibration: %s = %g left [%g, %g]: the samples do not determine "
                             "it; leave it out of the fit",
                             trapeze_ghostzone_param_name((trapeze_ghostzone_param)k), p->value[k], lo, hi);
    }
    if (!s) {
        snprintf(p->source, sizeof p->source,
                 "trapeze calibrate on %.40s: %d observations, %d-fold CV MAPE %.2f%%",
                 plan->gpu.name, n, folds, fmin(rep->cv_mape_pct, 1e6));
        snprintf(p->gpu, sizeof p->gpu, "%.*s", (int)sizeof p->gpu - 1, plan->gpu.name);
        trapeze_gpu_fingerprint(&plan->gpu, p->gpu_fingerprint);
    }
    return s;
}
