/*
 * plan.c - the calibration plan: which samples, in which order. Owns the
 * reference grid (sized by the cost of a validation sweep), the Sobol
 * placement of stencil samples over (h, grid size, sync mode) and the
 * sample ids; must not run samples or fit.
 *
 * Order: micro-benchmarks of the GPU, every workload's profiling pair, then
 * every workload's `budget` stencil samples, then (with `identify`) the
 * samples that identify the fence-mode constants (with `tall` alone, only
 * their tall rows), last so that a log made without them keeps its rows and
 * order. Ids spell out what a sample is
 * (gpu/workload/index:sync:h:volume:stages), so a changed option plans new ids
 * instead of reusing rows that measured something else.
 */
#include <gsl/gsl_qrng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "sampler/sampler.h"
#include "sim/sim.h"

void trapeze_ghostzone_calib_options_init(trapeze_ghostzone_calib_options *o)
{
    memset(o, 0, sizeof *o);
    o->budget = 12;
    o->stages = 2;
    o->sweep_budget = 5e8;
    /* from a quarter of the reference grid (under one wave) to 4 times it
     * (up to 16 waves): per-launch and per-tile costs, and the fence
     * barrier's participants, are then told apart (docs/calibration.md) */
    o->min_fraction = 1.0 / 4;
    o->max_fraction = 4.0;
    o->structure = TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE;
    o->folds = 5;
    o->seed = 1;
    o->holdout = 0.25;
}

const trapeze_workload *sampler_workload(const trapeze_ghostzone_plan *plan, const char *name)
{
    for (int i = 0; i < plan->n_workloads; i++)
        if (strcmp(plan->workloads[i].name, name) == 0)
            return &plan->workloads[i];
    return NULL;
}

void sampler_resize(const trapeze_workload *w, const double *data_len, trapeze_workload *out)
{
    *out = *w;
    for (int d = 0; d < w->dims; d++)
        out->data_len[d] = data_len[d];
}

static int widest_halo(const trapeze_workload *w)
{
    int widest = 1;
    for (int d = 0; d < w->dims; d++)
        widest = w->halo[d] > widest ? w->halo[d] : widest;
    return widest;
}

static int valid_max_h(const trapeze_workload *w, int cap)
{
    int h = (w->blk_len - 1) / widest_halo(w);
    return cap > 0 && cap < h ? cap : h;
}

/* Warp instructions of one stage at height h, estimated from the kernel's
 * shape: per tile, the setup, the staging loads, h loops of the stencil op
 * and the commit, over the tile's warps (a planning estimate only). */
double sampler_stage_cost(const trapeze_workload *w, int h)
{
    int out = w->blk_len - widest_halo(w) * h;
    double tiles = 1, threads = 1;
    for (int d = 0; d < w->dims; d++) {
        tiles *= ceil(w->data_len[d] / out);
        threads *= w->blk_len;
    }
    double per_warp = sim_stencil_default_setup_insts(w) + 2.0 * w->stencil_arrays + 3 +
                      h * (sim_stencil_default_insts_per_op(w) + 4.0);
    return tiles * ceil(threads / 32) * per_warp;
}

/* A sweep over h = 1..max_h in both modes, each warm-up + stages (fence
 * runs its warm-up twice: see sample_run.c). */
static double sweep_cost(const trapeze_workload *w, int max_h, int stages)
{
    double total = 0;
    for (int h = 1; h <= max_h; h++)
        total += sampler_stage_cost(w, h) * (2.0 * stages + 3);
    return total;
}

static void scale_edges(const trapeze_workload *w, double s, trapeze_workload *out)
{
    *out = *w;
    for (int d = 0; d < w->dims; d++)
        out->data_len[d] = fmax(1.0, floor(w->data_len[d] * s + 0.5));
}

/* Blocks of w resident on the whole GPU by threads and CTA slots (shared
 * memory and registers rarely bind for these kernels; a planning figure). */
static double resident_tiles(const trapeze_ghostzone_plan *plan, const trapeze_workload *w)
{
    double threads = pow(w->blk_len, w->dims);
    double per_sm = floor(plan->gpu.max_threads_per_sm / threads);
    if (per_sm > plan->gpu.max_blocks_per_sm)
        per_sm = plan->gpu.max_blocks_per_sm;
    return (per_sm < 1 ? 1 : per_sm) * plan->gpu.n_sm;
}

/* The edge scale giving `tiles` tiles at h = 1 (never above the spec's size). */
static double scale_for_tiles(const trapeze_workload *w, double tiles)
{
    double volume = 1, out = 1;
    for (int d = 0; d < w->dims; d++) {
        volume *= w->data_len[d];
        out *= w->blk_len - w->halo[d];
    }
    double s = pow(tiles * out / volume, 1.0 / w->dims);
    return s < 1 ? s : 1;
}

/* The reference grid holds REFERENCE_WAVES waves of resident tiles at h = 1,
 * fewer (down to one) when the sweep over every valid h would exceed the
 * sweep budget, and when even one wave would, the sweep's h is capped. */
#define REFERENCE_WAVES 4

trapeze_status trapeze_ghostzone_reference(const trapeze_ghostzone_plan *plan, int workload,
                                           trapeze_workload *out, int *max_h, trapeze_error *err)
{
    if (workload < 0 || workload >= plan->n_workloads)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no workload %d in the plan", workload);
    const trapeze_workload *w = &plan->workloads[workload];
    const trapeze_ghostzone_calib_options *o = &plan->opt;
    double wave = resident_tiles(plan, w);
    *max_h = valid_max_h(w, o->max_h);
    for (double waves = REFERENCE_WAVES; waves >= 1; waves -= 0.25) {
        scale_edges(w, scale_for_tiles(w, waves * wave), out);
        if (sweep_cost(out, *max_h, o->stages) <= o->sweep_budget)
            return TRAPEZE_OK;
    }
    while (*max_h > 1 && sweep_cost(out, *max_h, o->stages) > o->sweep_budget)
        (*max_h)--;
    return TRAPEZE_OK;
}

static trapeze_sample *add_row(trapeze_ghostzone_plan *plan, const char *kind, const char *workload)
{
    trapeze_sample *r = &plan->rows[plan->count++];
    memset(r, 0, sizeof *r);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->workload, sizeof r->workload, "%s", workload);
    snprintf(r->gpu, sizeof r->gpu, "%s", plan->gpu.name);
    r->h = 1;
    r->blk_len = 256;
    r->stages = 1;
    r->data_len[0] = r->data_len[1] = r->data_len[2] = 1;
    return r;
}

static void plan_micro(trapeze_ghostzone_plan *plan)
{
    int sm = plan->gpu.n_sm, full = plan->resident_256 * sm;
    struct { const char *name; long size; int stages; } micro[] = {
        {"fma", full, 1}, {"empty", full, 4}, {"copy", 1L << 20, 1}, {"chase", 128, 1},
        {"fencebar", sm, 4}, {"fencebar", 2L * sm, 4}, {"fencebar", full / 2 > 2 * sm ? full / 2 : 3L * sm, 4},
        {"fencebar", full > 3 * sm ? full : 4L * sm, 4}};
    for (size_t i = 0; i < sizeof micro / sizeof micro[0]; i++) {
        trapeze_sample *r = add_row(plan, SAMPLER_KIND_MICRO, micro[i].name);
        r->data_len[0] = (double)micro[i].size;
        r->stages = micro[i].stages;
        snprintf(r->id, sizeof r->id, "%s/micro/%s:%ld", plan->gpu.name, micro[i].name,
                 micro[i].size);
    }
    /* the most blocks a persistent kernel can have (as many as an SM takes,
     * small enough to fit): a 128-thread stencil on the V100 has 1280, twice
     * what 256-thread blocks reach, and the barrier's slope is measured there */
    const trapeze_gpu *g = &plan->gpu;
    int ws = g->warp_size > 0 ? g->warp_size : 32;
    long most = (long)g->max_blocks_per_sm * sm;
    int threads = g->max_blocks_per_sm > 0 ? g->max_threads_per_sm / g->max_blocks_per_sm / ws * ws : 0;
    if (most > full && threads >= ws) {
        trapeze_sample *r = add_row(plan, SAMPLER_KIND_MICRO, "fencebar");
        r->data_len[0] = (double)most;
        r->blk_len = threads;
        r->stages = 4;
        snprintf(r->id, sizeof r->id, "%.40s/micro/fencebar:%ld:b%d", g->name, most, threads);
    }
}

/* Profiling pair: one stage at h = 1 and at h = 2 on a grid of a few tiles
 * per SM; their difference separates IterComp from the rest (MiscComp).
 * Then the issue probe: one stage on ISSUE_PROBE_WAVES waves of resident
 * tiles at the tallest plausible h (at least 2) and at half of it: the
 * same tiles load the same inputs, so the extra iterations' cycles over
 * their warp instructions are the workload's issue rate with the loads and
 * launch taken out (profile.c). One wave was too short: the difference of
 * two short runs' cycles was mostly noise (docs/calibration.md). */
#define ISSUE_PROBE_WAVES 4

/* The profiling pair's grid, about 4 tiles per SM at h = 1 (never above the
 * spec's size); returns its volume. */
static double profile_grid(const trapeze_ghostzone_plan *plan, const trapeze_workload *w, double *len)
{
    double target = 4.0 * plan->gpu.n_sm, volume = 1; /* tiles at h = 1 */
    double per_dim = ceil(pow(target, 1.0 / w->dims));
    for (int d = 0; d < w->dims; d++)
        volume *= len[d] = fmin(w->data_len[d], per_dim * (w->blk_len - w->halo[d]));
    return volume;
}

static void plan_profile(trapeze_ghostzone_plan *plan, const trapeze_workload *w)
{
    double len[3];
    profile_grid(plan, w, len);
    for (int h = 1; h <= 2 && h <= valid_max_h(w, 0); h++) {
        trapeze_sample *r = add_row(plan, SAMPLER_KIND_PROFILE, w->name);
        r->h = h;
        r->blk_len = w->blk_len;
        for (int d = 0; d < w->dims; d++)
            r->data_len[d] = len[d];
        snprintf(r->id, sizeof r->id, "%.30s/%.40s/profile:h%d", plan->gpu.name, w->name, h);
    }
    int hs[16], max_h = valid_max_h(w, 0);
    int tall = hs[sampler_plausible_heights(w, max_h, hs) - 1];
    tall = tall < 2 && max_h >= 2 ? 2 : tall;
    double wave_edge = ceil(pow(ISSUE_PROBE_WAVES * resident_tiles(plan, w), 1.0 / w->dims));
    for (int k = 0; k < 2; k++) {
        int h = k == 0 ? tall : (tall + 1) / 2;
        trapeze_sample *r = add_row(plan, SAMPLER_KIND_PROFILE, w->name);
        r->h = h;
        r->blk_len = w->blk_len;
        for (int d = 0; d < w->dims; d++)
            r->data_len[d] = wave_edge * fmax(1, w->blk_len - w->halo[d] * h);
        snprintf(r->id, sizeof r->id, "%.30s/%.40s/%s", plan->gpu.name, w->name,
                 k == 0 ? SAMPLER_PROFILE_ISSUE : SAMPLER_PROFILE_ISSUE_LOW);
    }
}

static trapeze_status plan_stencil(trapeze_ghostzone_plan *plan, int wi, trapeze_error *err)
{
    const trapeze_workload *w = &plan->workloads[wi];
    trapeze_workload ref;
    int max_h;
    trapeze_ghostzone_reference(plan, wi, &ref, &max_h, NULL);
    const trapeze_ghostzone_calib_options *o = &plan->opt;
    gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, 3);
    if (!q)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; i < o->budget; i++) {
        double u[3];
        gsl_qrng_get(q, u);
        /* h log-spaced: small heights, where the optima lie, get more samples */
        int h = (int)floor(exp(u[0] * log(max_h + 1.0)));
        h = h < 1 ? 1 : h > max_h ? max_h : h;
        double f = o->min_fraction * pow(o->max_fraction / o->min_fraction, u[1]);
        trapeze_sample *r = add_row(plan, SAMPLER_KIND_SIM, w->name);
        r->sync = u[2] < 0.5 ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
        r->h = h;
        r->blk_len = w->blk_len;
        r->stages = o->stages;
        double volume = 1;
        for (int d = 0; d < w->dims; d++) {
            r->data_len[d] = fmax(1.0, floor(ref.data_len[d] * pow(f, 1.0 / w->dims) + 0.5));
            volume *= r->data_len[d];
        }
        snprintf(r->id, sizeof r->id, "%.20s/%.30s/%02d:%s:h%d:%.0f:s%d", plan->gpu.name, w->name,
                 i, trapeze_sync_name(r->sync), h, volume, o->stages);
    }
    gsl_qrng_free(q);
    return TRAPEZE_OK;
}

static void identify_row(trapeze_ghostzone_plan *plan, const trapeze_workload *w, trapeze_sync sync,
                         int h, const double *len, double volume, const char *what)
{
    trapeze_sample *r = add_row(plan, SAMPLER_KIND_SIM, w->name);
    r->sync = sync;
    r->h = h;
    r->blk_len = w->blk_len;
    r->stages = plan->opt.stages;
    for (int d = 0; d < w->dims; d++)
        r->data_len[d] = len[d];
    snprintf(r->id, sizeof r->id, "%.20s/%.30s/%s:%s:h%d:%.0f:s%d", plan->gpu.name, w->name, what,
             trapeze_sync_name(sync), h, volume, plan->opt.stages);
}

/* Samples that identify what the Sobol samples leave to the fit
 * (docs/calibration.md, "Samples that identify the fence constants"):
 *  - a fence profiling pair: the fence kernel at h = 1 and h = 2 on the
 *    relaunch profiling pair's grid, timed like a stencil sample, so the
 *    fence stage's fixed cost and its later iterations (psi) are observed
 *    where the relaunch pair observes the relaunch kernel's;
 *  - for a loop that loads every iteration (elem_per_op > 0, the only
 *    workloads whose loop re-reads rho_L move the model), both modes at a
 *    tall h and at three quarters of it, on the grid that gives the busiest
 *    SM k + 2 tiles at the tall h (k resident blocks: a partial second
 *    round), the regime the reference curves turn on. The tall h is the
 *    issue probe's lower height, (tallest plausible + 1) / 2, capped at the
 *    reference sweep's largest h. */
#define IDENTIFY_ROWS 6 /* per workload: the fence pair, then 2 modes x 2 heights */
static void plan_identify(trapeze_ghostzone_plan *plan, int wi)
{
    const trapeze_workload *w = &plan->workloads[wi];
    double len[3], volume = profile_grid(plan, w, len);
    for (int h = 1; h <= 2 && h <= valid_max_h(w, 0) && plan->opt.identify; h++)
        identify_row(plan, w, TRAPEZE_SYNC_FENCE, h, len, volume, "pair");
    trapeze_workload ref;
    int hs[16], max_h, tallest;
    trapeze_ghostzone_reference(plan, wi, &ref, &max_h, NULL);
    tallest = hs[sampler_plausible_heights(w, valid_max_h(w, 0), hs) - 1];
    int high = (tallest + 1) / 2 < max_h ? (tallest + 1) / 2 : max_h, low = (3 * high + 2) / 4;
    if (!(w->elem_per_op > 0) || low < 2 || low == high)
        return;
    double k = resident_tiles(plan, w) / plan->gpu.n_sm;
    double edge_tiles = ceil(pow(plan->gpu.n_sm * (k + 2), 1.0 / w->dims));
    volume = 1;
    for (int d = 0; d < w->dims; d++)
        volume *= len[d] = edge_tiles * (w->blk_len - w->halo[d] * high);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 2; i++)
            identify_row(plan, w, (trapeze_sync)s, i ? high : low, len, volume, "tall");
}

static trapeze_status check_options(const trapeze_ghostzone_calib_options *o, trapeze_error *err)
{
    if (o->budget < 1 || o->budget > 4096 || o->stages < 1 || o->stages > 32 || o->max_h < 0 ||
        !(o->sweep_budget > 0) || !(o->min_fraction > 0) || !(o->max_fraction >= o->min_fraction) ||
        o->max_fraction > 64 || o->folds < 2 || !(o->holdout >= 0 && o->holdout < 1))
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "calibration options: budget 1..4096, stages 1..32, max_h >= 0, "
                            "0 < min_fraction <= max_fraction <= 64, folds >= 2, "
                            "0 <= holdout < 1");
    return TRAPEZE_OK;
}

static trapeze_status read_gpu(trapeze_ghostzone_plan *plan, trapeze_error *err)
{
    sim_core_config core;
    trapeze_status s = trapeze_config_load(plan->config_path, &plan->cfg, err);
    if (s)
        return s;
    if (!(s = trapeze_gpu_from_config(plan->cfg, &plan->gpu, err)) &&
        !(s = sim_core_config_read(plan->cfg, &core, err))) {
        sim_kernel probe = {.block = {256, 1, 1}, .regs_per_thread = 8};
        plan->resident_256 = sim_occupancy(&core, &probe, NULL);
    }
    return s;
}

trapeze_status trapeze_ghostzone_plan_create(const char *gpu_config_path,
                                             const trapeze_workload *workloads, int n,
                                             const trapeze_ghostzone_calib_options *o,
                                             trapeze_ghostzone_plan **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_status s = check_options(o, err);
    if (s)
        return s;
    if (n < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "calibration: no workload");
    trapeze_ghostzone_plan *plan = calloc(1, sizeof *plan);
    int capacity = 16 + n * (SAMPLER_PROFILE_ROWS + o->budget + (o->identify || o->tall ? IDENTIFY_ROWS : 0));
    if (!plan || !(plan->config_path = trapeze_strdup(gpu_config_path)) ||
        !(plan->workloads = malloc((size_t)n * sizeof *workloads)) ||
        !(plan->rows = calloc((size_t)capacity, sizeof *plan->rows)) ||
        !(plan->sim_threads = malloc(sizeof *plan->sim_threads))) {
        trapeze_ghostzone_plan_destroy(plan);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    memcpy(plan->workloads, workloads, (size_t)n * sizeof *workloads);
    *plan->sim_threads = 1;
    plan->n_workloads = n;
    plan->opt = *o;
    for (int i = 0; i < n && !s; i++)
        for (int j = 0; j < i && !s; j++)
            if (strcmp(workloads[i].name, workloads[j].name) == 0)
                s = trapeze_fail(err, TRAPEZE_EINVAL, "%s: workload %s given twice",
                                 workloads[i].path, workloads[i].name);
    if (!s)
        s = read_gpu(plan, err);
    if (s) {
        trapeze_ghostzone_plan_destroy(plan);
        return s;
    }
    plan_micro(plan);
    for (int i = 0; i < n; i++)
        plan_profile(plan, &plan->workloads[i]);
    for (int i = 0; i < n && !s; i++)
        s = plan_stencil(plan, i, err);
    for (int i = 0; i < n && !s && (o->identify || o->tall); i++)
        plan_identify(plan, i);
    if (s || (s = sampler_plan_set(plan, err))) {
        trapeze_ghostzone_plan_destroy(plan);
        return s;
    }
    *out = plan;
    return TRAPEZE_OK;
}

void trapeze_ghostzone_plan_destroy(trapeze_ghostzone_plan *plan)
{
    if (!plan)
        return;
    trapeze_config_destroy(plan->cfg);
    free(plan->config_path);
    free(plan->workloads);
    free(plan->rows);
    free(plan->set_rows);
    free(plan->sim_threads);
    free(plan);
}

int trapeze_ghostzone_plan_count(const trapeze_ghostzone_plan *plan) { return plan->count; }

const trapeze_sample *trapeze_ghostzone_plan_sample(const trapeze_ghostzone_plan *plan, int i)
{
    return i >= 0 && i < plan->count ? &plan->rows[i] : NULL;
}

const trapeze_gpu *trapeze_ghostzone_plan_gpu(const trapeze_ghostzone_plan *plan) { return &plan->gpu; }
