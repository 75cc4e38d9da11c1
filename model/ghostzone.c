/*
 * ghostzone.c - Meng's cycles-per-loop model of ghost-zone (trapezoid)
 * tiling, Eqs. 5.1-5.30 of the dissertation, for D = 1, 2, 3, with global
 * sync by kernel relaunch (5.17) or memory fences (5.18), and the
 * fence-versus-relaunch coefficient delta (5.21-5.23).
 *
 * Owns the model's state and its entry points; the equations and their
 * gradient are model/ghostzone_eqs.h's, compiled here once per dual width.
 * It must not read files, optimize, or know about the simulator: inputs come
 * in as structs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "model/dual.h"
#include "model/ghostzone.h"

/* What every evaluation would otherwise recompute from the workload, the GPU
 * and the calibration's switches alone (set at create and set_params), each
 * with the expression the equations had inline, so the bits are the same. */
typedef struct {
    double volume;          /* prod DataLength_i, the V of 5.3 */
    double bytes_cycles;    /* x Clock / Bandwidth of 5.7 */
    double per_elem_mc;     /* 5.14's instructions per element: setup and staging */
    double per_elem_ic;     /* ... and per loop iteration */
    double issue;           /* issue_factor */
    int occupancy_blk;      /* the workload's block edge, and its occupancy */
    int occupancy;
    /* per sync mode: each parameter's lane on the fit's path (-1: not read,
     * live_lanes) and how many are read (set at set_params and set_tau) */
    signed char lane[2][TRAPEZE_GHOSTZONE_NPARAMS];
    int n_live[2];
} gz_fixed_terms;

struct trapeze_ghostzone_model {
    trapeze_gpu gpu;
    trapeze_workload work;
    trapeze_ghostzone_params params;
    int tau;
    double setup_insts;     /* per thread, from the spec's own [profile] (before a
                               calibration's replaces it): what the generated kernel runs
                               once per launch, i.e. once per tile only with relaunch */
    double issue_cycles;    /* the calibration's [profile.NAME] issue_cycles (0: none) */
    double profile_sms;     /* the SMs the per-SM counts were measured on: the GPU's own
                               for a calibration's [profile.NAME], Meng's 30 for a spec's
                               [profile] (5.14 multiplies them back by this, not by M) */
    gz_fixed_terms fixed;
};

/* The generated kernels' setup per thread: the spec's InstsPerSM_MC read as
 * Meng's (a 30-SM GTX 280) per warp, as sim/stencil derives it. The model
 * does not call the simulator; it restates the convention. */
#define SPEC_PROFILE_SMS 30
static double spec_setup_insts(const trapeze_workload *w)
{
    if (!(w->profile_elements > 0))
        return 0;
    double n = w->insts_per_sm_mc * SPEC_PROFILE_SMS / w->profile_elements * 32;
    return n < 1 ? 1 : floor(n + 0.5);
}

const char *trapeze_sync_name(trapeze_sync s)
{
    return s == TRAPEZE_SYNC_FENCE ? "fence" : "relaunch";
}

const char *trapeze_ghostzone_component_name(trapeze_ghostzone_component c)
{
    static const char *const names[TRAPEZE_GHOSTZONE_NCOMPONENTS] = {
        "glbsync", "loadsten", "commit", "itermem", "misccomp", "itercomp"};
    return (unsigned)c < TRAPEZE_GHOSTZONE_NCOMPONENTS ? names[c] : "?";
}

/* A calibration's measured [profile.NAME] replaces the spec's counts, once,
 * when the model is created: the workload (inputs) stays apart from the
 * fitted parameters, which trapeze_ghostzone_set_params and every evaluation of
 * the generic interface change without touching it. */
static int apply_profile(trapeze_workload *w, const trapeze_ghostzone_params *p, double *issue)
{
    int found = 0;
    for (int i = 0; i < p->n_profiles; i++) {
        const trapeze_ghostzone_profile *pr = &p->profile[i];
        if (strcasecmp(pr->workload, w->name) != 0)
            continue;
        w->profile_elements = pr->input_elements;
        w->insts_per_sm_mc = pr->insts_per_sm_mc;
        w->insts_per_sm_ic = pr->insts_per_sm_ic;
        w->bank_conflict_rate = pr->bank_conflict_rate;
        *issue = pr->issue_cycles;
        found = 1;
    }
    return found;
}

trapeze_status trapeze_ghostzone_create(const trapeze_gpu *gpu, const trapeze_workload *w,
                                        const trapeze_ghostzone_params *p, trapeze_ghostzone_model **out,
                                        trapeze_error *err)
{
    *out = NULL;
    if (w->dims < 1 || w->dims > TRAPEZE_MAX_DIMS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: dimensions must be 1, 2 or 3",
                            w->name);
    if (gpu->n_sm < 1 || gpu->core_clock_hz <= 0 || gpu->dram_bandwidth_bps <= 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: GPU needs SMs, a clock and bandwidth",
                            gpu->name);
    trapeze_ghostzone_model *m = calloc(1, sizeof *m);
    if (!m)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    m->gpu = *gpu;
    m->work = *w;
    m->setup_insts = w->setup_insts > 0 ? w->setup_insts : spec_setup_insts(w);
    m->work.setup_insts = m->setup_insts; /* a model re-created from this workload keeps it */
    /* a spec's counts are Meng's GTX 280 per-SM values (what sim/stencil generates
     * from): on another GPU they are the same instructions per element, not per SM */
    m->profile_sms = apply_profile(&m->work, p, &m->issue_cycles) ? gpu->n_sm : SPEC_PROFILE_SMS;
    trapeze_ghostzone_set_params(m, p);
    *out = m;
    return TRAPEZE_OK;
}

void trapeze_ghostzone_destroy(trapeze_ghostzone_model *m) { free(m); }
static double issue_factor(const trapeze_ghostzone_model *m);
static void fix_terms(trapeze_ghostzone_model *m);
static void fix_lanes(trapeze_ghostzone_model *m);
void trapeze_ghostzone_set_tau(trapeze_ghostzone_model *m, int enabled)
{
    m->tau = enabled != 0;
    fix_lanes(m);
}
void trapeze_ghostzone_set_params(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p)
{
    m->params = *p;
    fix_terms(m);
}
const trapeze_workload *trapeze_ghostzone_workload(const trapeze_ghostzone_model *m) { return &m->work; }
const trapeze_gpu *trapeze_ghostzone_gpu(const trapeze_ghostzone_model *m) { return &m->gpu; }
double trapeze_ghostzone_profile_sms(const trapeze_ghostzone_model *m) { return m->profile_sms; }
const double *gz_param_values(const trapeze_ghostzone_model *m) { return m->params.value; }

int trapeze_ghostzone_max_height(const trapeze_ghostzone_model *m, int blk_len)
{
    int best = -1;
    for (int i = 0; i < m->work.dims; i++) {
        int w = m->work.halo[i];
        if (w <= 0)
            continue;
        int h = (blk_len - 1) / w; /* largest h with blk_len - w*h >= 1 */
        if (best < 0 || h < best)
            best = h;
    }
    return best < 0 ? blk_len : best; /* no halo: any h keeps the tile */
}

/* Tiles a launch has: prod ceil(DataLength_i / (blk - HaloWidth_i h)). */
static double launched_tiles(const trapeze_workload *w, double blk, double h)
{
    double tiles = 1;
    for (int i = 0; i < w->dims; i++)
        tiles *= ceil(w->data_len[i] / (blk - w->halo[i] * h));
    return tiles;
}

int trapeze_ghostzone_occupancy(const trapeze_gpu *g, const trapeze_workload *w, int blk_len)
{
    int ws = g->warp_size > 0 ? g->warp_size : 32;
    long threads = 1;
    for (int d = 0; d < w->dims; d++)
        threads *= blk_len;
    long warps = (threads + ws - 1) / ws;
    int regs_thread = w->regs_per_thread > 16 ? w->regs_per_thread : 16;
    long regs = (long)((regs_thread + 3) & ~3) * warps * ws; /* GPGPU-Sim rounds to 4 */
    long shmem = threads * w->stencil_arrays * w->element_bytes;
    long n = g->max_blocks_per_sm;
    long limits[] = {threads > g->max_threads_per_block ? 0 : g->max_threads_per_sm / threads,
                     (g->max_threads_per_sm / ws) / warps,
                     g->regs_per_sm > 0 ? g->regs_per_sm / regs : n,
                     shmem > g->shmem_per_block ? 0 : g->shmem_per_sm / shmem};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i] < n)
            n = limits[i];
    return n < 0 ? 0 : (int)n;
}

/* The row_lines factor of a tile row `row` elements long: the coalesced
 * segments (S = coalesce_degree words, 128 bytes from Fermi on) it touches,
 * averaged over the S/x element offsets its start may take in a segment,
 * times S over the row's bytes. A 16-element row of 4 bytes touches 1
 * segment from 17 of the 32 offsets and 2 from the other 15: 47/32
 * segments, 47 elements' worth fetched for 16, a factor 2.94; 8 elements
 * 4.875, 20 elements 2.55. The segment count is piecewise constant in the
 * row, so the gradient is that of 1/row. 1 (Meng) without the switch, in
 * 1-D (the rows of neighbouring tiles are one contiguous stream), or when
 * the GPU does not say its segment. */
static double row_segment_elements(const trapeze_gpu *g, const trapeze_workload *w, double row)
{
    int x = w->element_bytes > 0 ? w->element_bytes : 4;
    int seg = g->coalesce_degree * 4;
    if (w->dims < 2 || seg < x || !(row > 0))
        return 0;
    int offsets = seg / x;
    double segments = 0;
    for (int o = 0; o < offsets; o++)
        segments += ceil(((double)o * x + row * x) / seg - 1e-9);
    return segments / offsets * seg / x; /* elements' worth of segments fetched */
}

double gz_row_lines(const trapeze_gpu *g, const trapeze_workload *w, double row)
{
    double fetched = row_segment_elements(g, w, row);
    return fetched > 0 ? fetched / row : 1.0;
}

/* The workload's issue rate against the calibration's: its probe's SM-cycles
 * per warp instruction over the calibrated workloads' geometric mean. One
 * CPI cannot serve instruction mixes whose compute-bound issue rates differ
 * by 1.9x (the V100: PathFinder to Multi1D); 1 where either is unknown. */
static double issue_factor(const trapeze_ghostzone_model *m)
{
    double ref = m->params.issue_cycles_ref;
    return m->issue_cycles > 0 && ref > 0 ? m->issue_cycles / ref : 1.0;
}

static void fix_terms(trapeze_ghostzone_model *m)
{
    const trapeze_workload *w = &m->work;
    const trapeze_gpu *g = &m->gpu;
    gz_fixed_terms *f = &m->fixed;
    f->volume = 1.0;
    for (int i = 0; i < w->dims; i++)
        f->volume *= w->data_len[i];
    f->bytes_cycles = w->element_bytes * g->core_clock_hz / g->dram_bandwidth_bps;
    f->per_elem_mc = w->insts_per_sm_mc * m->profile_sms / w->profile_elements; /* 5.14 */
    f->per_elem_ic = w->insts_per_sm_ic * m->profile_sms / w->profile_elements;
    f->issue = issue_factor(m);
    f->occupancy_blk = w->blk_len;
    f->occupancy = trapeze_ghostzone_occupancy(g, w, w->blk_len);
    fix_lanes(m);
}

/* Whether mode `sync` reads the fence-mode omega rather than omega: with
 * fence_overlap, in fence mode; with fence_overlap_loads as well, only for
 * a loop that loads from device memory every iteration (ghostzone_eqs.h,
 * combine). */
static int fence_omega_read(const trapeze_ghostzone_model *m, trapeze_sync sync)
{
    return sync == TRAPEZE_SYNC_FENCE && m->params.fence_overlap &&
           !(m->params.fence_overlap_loads && !(m->work.elem_per_op > 0));
}

/* The equations, once per width (model/dual.h): every variable (the
 * reference the tests compare with), the parameters that an evaluation
 * reads (up to 10, 12 or 14: relaunch reads at most 10, fences 14; the
 * calibration fit's Jacobian and trapeze_ghostzone_evaluate), and d/dh and
 * d/dblk_len only
 * (the optimizer, the fit's residuals, every caller that needs no parameter
 * partial). */
#define GZ_DUAL gz_dual
#define GZ_DUAL_OP(op) dual_##op
#define GZ_EQ(name) name##_all
#define GZ_EQ_PARAMS 1
#include "model/ghostzone_eqs.h"
#undef GZ_DUAL
#undef GZ_DUAL_OP
#undef GZ_EQ
#define GZ_DUAL gz_dual_p14
#define GZ_DUAL_OP(op) dual_p14_##op
#define GZ_EQ(name) name##_p14
#include "model/ghostzone_eqs.h"
#undef GZ_DUAL
#undef GZ_DUAL_OP
#undef GZ_EQ
#define GZ_DUAL gz_dual_p12
#define GZ_DUAL_OP(op) dual_p12_##op
#define GZ_EQ(name) name##_p12
#include "model/ghostzone_eqs.h"
#undef GZ_DUAL
#undef GZ_DUAL_OP
#undef GZ_EQ
#define GZ_DUAL gz_dual_p10
#define GZ_DUAL_OP(op) dual_p10_##op
#define GZ_EQ(name) name##_p10
#include "model/ghostzone_eqs.h"
#undef GZ_DUAL
#undef GZ_DUAL_OP
#undef GZ_EQ
#undef GZ_EQ_PARAMS
#define GZ_DUAL gz_dual_hb
#define GZ_DUAL_OP(op) dual_hb_##op
#define GZ_EQ(name) name##_hb
#define GZ_EQ_PARAMS 0
#include "model/ghostzone_eqs.h"
#undef GZ_DUAL
#undef GZ_DUAL_OP
#undef GZ_EQ
#undef GZ_EQ_PARAMS

/* Whether the equations read parameter k in mode `sync` with this model's
 * switches (ghostzone_eqs.h: the fence-only and relaunch-only terms, beta
 * only with tau, BlksPerSM only without the occupancy rule, psi only with
 * fence_iter (not in a loop with device loads with fence_iter_hidden), eta
 * only with fence_issue, one of the two omegas (the fence one, with
 * fence_overlap_loads, only for a loop with device loads), lambda and rho_L
 * only with their switches). A parameter they do not read has a
 * partial of exactly 0: it gets no lane. */
static int param_read(const trapeze_ghostzone_model *m, trapeze_sync sync, int k)
{
    int fence = sync == TRAPEZE_SYNC_FENCE, fence_omega = fence_omega_read(m, sync);
    switch (k) {
    case TRAPEZE_GHOSTZONE_BETA: return m->tau;
    case TRAPEZE_GHOSTZONE_BLOCKS_PER_SM: return !m->params.occupancy;
    case TRAPEZE_GHOSTZONE_MU:
    case TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK:
    case TRAPEZE_GHOSTZONE_FENCE_BARRIER:
    case TRAPEZE_GHOSTZONE_FENCE_MISC:
    case TRAPEZE_GHOSTZONE_FENCE_POLL: return fence;
    case TRAPEZE_GHOSTZONE_FENCE_ITER:
        return fence && m->params.fence_iter && !(m->params.fence_iter_hidden && m->work.elem_per_op > 0);
    case TRAPEZE_GHOSTZONE_FENCE_ISSUE: return fence && m->params.fence_issue;
    case TRAPEZE_GHOSTZONE_RELAUNCH:
    case TRAPEZE_GHOSTZONE_TILE_CYCLES: return !fence;
    case TRAPEZE_GHOSTZONE_OVERLAP: return !fence_omega;
    case TRAPEZE_GHOSTZONE_OVERLAP_FENCE: return fence_omega;
    case TRAPEZE_GHOSTZONE_PARTIAL_ROUND: return m->params.partial_round;
    case TRAPEZE_GHOSTZONE_LOOP_REREAD: return m->params.loop_reread && !m->params.loop_once;
    default: return 1;
    }
}

/* Lanes from GZ_VAR_PARAM0 on for the parameters read, in order; the
 * number of them. */
static int live_lanes(const trapeze_ghostzone_model *m, trapeze_sync sync, signed char *lane)
{
    int n = 0;
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++)
        lane[k] = param_read(m, sync, k) ? (signed char)(GZ_VAR_PARAM0 + n++) : -1;
    return n;
}

static void fix_lanes(trapeze_ghostzone_model *m)
{
    for (int s = 0; s < 2; s++)
        m->fixed.n_live[s] = live_lanes(m, (trapeze_sync)s, m->fixed.lane[s]);
}

static trapeze_status check_point(const trapeze_ghostzone_model *m, double h, double blk,
                                  trapeze_error *err)
{
    if (!(h >= 1.0) || !isfinite(h))
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: h = %g: the trapezoid height must be >= 1",
                            m->work.name, h);
    for (int i = 0; i < m->work.dims; i++)
        if (!(blk - m->work.halo[i] * h > 0))
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s: h = %g violates Eq. 5.20: blk_len - HaloWidth_%d * h = "
                                "%g - %d * %g must be > 0 (largest valid h: %d)",
                                m->work.name, h, i, blk, m->work.halo[i], h,
                                trapeze_ghostzone_max_height(m, (int)blk));
    return TRAPEZE_OK;
}

trapeze_status trapeze_ghostzone_evaluate(const trapeze_ghostzone_model *m, trapeze_sync sync, double h,
                                          double blk_len, trapeze_ghostzone_eval *out, trapeze_error *err)
{
    return gz_evaluate_at(m, m->params.value, sync, h, blk_len, GZ_GRAD_PARAMS, out, err);
}

/* Every parameter on its own lane: the fit's Jacobian, and the optimizer's
 * path when more parameters are live than the widest narrow dual holds. */
static void all_lanes(const trapeze_ghostzone_model *m, const double *params, trapeze_sync sync,
                      double h, double blk_len, trapeze_ghostzone_eval *out)
{
    signed char lane[TRAPEZE_GHOSTZONE_NPARAMS];
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++)
        lane[k] = (signed char)(GZ_VAR_PARAM0 + k);
    gz_equations_all(m, params, lane, sync, h, blk_len, out);
}

/* The equations at an explicit parameter vector (the generic interface's
 * evaluate, model/ghostzone_model.c); the model's own values are not read. */
trapeze_status gz_evaluate_at(const trapeze_ghostzone_model *m, const double *params, trapeze_sync sync,
                              double h, double blk_len, gz_gradient grad, trapeze_ghostzone_eval *out,
                              trapeze_error *err)
{
    trapeze_status s = check_point(m, h, blk_len, err);
    if (s)
        return s;
    int f = sync == TRAPEZE_SYNC_FENCE;
    if (grad == GZ_GRAD_HB) {
        gz_equations_hb(m, params, NULL, sync, h, blk_len, out);
    } else if (grad == GZ_GRAD_ALL) {
        all_lanes(m, params, sync, h, blk_len, out);
    } else if (m->fixed.n_live[f] <= 10) {
        gz_equations_p10(m, params, m->fixed.lane[f], sync, h, blk_len, out);
    } else if (m->fixed.n_live[f] <= 12) {
        gz_equations_p12(m, params, m->fixed.lane[f], sync, h, blk_len, out);
    } else if (m->fixed.n_live[f] <= 14) {
        gz_equations_p14(m, params, m->fixed.lane[f], sync, h, blk_len, out);
    } else { /* both opt-in switches with fences: more live lanes than 14 */
        all_lanes(m, params, sync, h, blk_len, out);
    }
    return TRAPEZE_OK;
}

/* 5.23: delta = mu * FencePerBlock - (InstsPerSM_MC / N) * blk^D * CPI
 * (times tau when enabled, as in 5.11); M cancels in 5.22. */
double trapeze_ghostzone_delta(const trapeze_ghostzone_model *m, double blk_len)
{
    const double *p = m->params.value;
    const trapeze_workload *w = &m->work;
    double tau = m->tau ? (1.0 - p[TRAPEZE_GHOSTZONE_BETA]) * (1.0 + w->bank_conflict_rate) : 1.0;
    double misc = w->insts_per_sm_mc * m->profile_sms / m->gpu.n_sm / w->profile_elements *
                  pow(blk_len, w->dims) *
                  p[TRAPEZE_GHOSTZONE_CPI] * tau * m->fixed.issue;
    return p[TRAPEZE_GHOSTZONE_MU] * p[TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK] - misc;
}
