/*
 * ghostzone.c - Meng's cycles-per-loop model of ghost-zone (trapezoid)
 * tiling, Eqs. 5.1-5.30 of the dissertation, for D = 1, 2, 3, with global
 * sync by kernel relaunch (5.17) or memory fences (5.18), and the
 * fence-versus-relaunch coefficient delta (5.21-5.23).
 *
 * Owns the equations and their gradient. It must not read files, optimize,
 * or know about the simulator: inputs come in as structs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "model/dual.h"
#include "model/ghostzone.h"

struct trapeze_gz_model {
    trapeze_gpu gpu;
    trapeze_workload work;
    trapeze_gz_params params;
    int tau;
    double setup_insts;     /* per thread, from the spec's own [profile] (before a
                               calibration's replaces it): what the generated kernel runs
                               once per launch, i.e. once per tile only with relaunch */
    double issue_cycles;    /* the calibration's [profile.NAME] issue_cycles (0: none) */
    double profile_sms;     /* the SMs the per-SM counts were measured on: the GPU's own
                               for a calibration's [profile.NAME], Meng's 30 for a spec's
                               [profile] (5.14 multiplies them back by this, not by M) */
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

const char *trapeze_gz_component_name(trapeze_gz_component c)
{
    static const char *const names[TRAPEZE_GZ_NCOMPONENTS] = {
        "glbsync", "loadsten", "commit", "itermem", "misccomp", "itercomp"};
    return (unsigned)c < TRAPEZE_GZ_NCOMPONENTS ? names[c] : "?";
}

/* A calibration's measured [profile.NAME] replaces the spec's counts, once,
 * when the model is created: the workload (inputs) stays apart from the
 * fitted parameters, which trapeze_gz_set_params and every evaluation of
 * the generic interface change without touching it. */
static int apply_profile(trapeze_workload *w, const trapeze_gz_params *p, double *issue)
{
    int found = 0;
    for (int i = 0; i < p->n_profiles; i++) {
        const trapeze_gz_profile *pr = &p->profile[i];
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

trapeze_status trapeze_gz_create(const trapeze_gpu *gpu, const trapeze_workload *w,
                                 const trapeze_gz_params *p, trapeze_gz_model **out,
                                 trapeze_error *err)
{
    *out = NULL;
    if (w->dims < 1 || w->dims > TRAPEZE_MAX_DIMS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: dimensions must be 1, 2 or 3",
                            w->name);
    if (gpu->n_sm < 1 || gpu->core_clock_hz <= 0 || gpu->dram_bandwidth_bps <= 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: GPU needs SMs, a clock and bandwidth",
                            gpu->name);
    trapeze_gz_model *m = calloc(1, sizeof *m);
    if (!m)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    m->gpu = *gpu;
    m->work = *w;
    m->setup_insts = w->setup_insts > 0 ? w->setup_insts : spec_setup_insts(w);
    m->work.setup_insts = m->setup_insts; /* a model re-created from this workload keeps it */
    /* a spec's counts are Meng's GTX 280 per-SM values (what sim/stencil generates
     * from): on another GPU they are the same instructions per element, not per SM */
    m->profile_sms = apply_profile(&m->work, p, &m->issue_cycles) ? gpu->n_sm : SPEC_PROFILE_SMS;
    trapeze_gz_set_params(m, p);
    *out = m;
    return TRAPEZE_OK;
}

void trapeze_gz_destroy(trapeze_gz_model *m) { free(m); }
void trapeze_gz_set_tau(trapeze_gz_model *m, int enabled) { m->tau = enabled != 0; }
void trapeze_gz_set_params(trapeze_gz_model *m, const trapeze_gz_params *p)
{
    m->params = *p;
}
const trapeze_workload *trapeze_gz_workload(const trapeze_gz_model *m) { return &m->work; }
const trapeze_gpu *trapeze_gz_gpu(const trapeze_gz_model *m) { return &m->gpu; }
double trapeze_gz_profile_sms(const trapeze_gz_model *m) { return m->profile_sms; }
const double *gz_param_values(const trapeze_gz_model *m) { return m->params.value; }

int trapeze_gz_max_height(const trapeze_gz_model *m, int blk_len)
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

/* Everything one evaluation needs, as duals in (h, blk_len, parameters). */
typedef struct {
    gz_dual h, blk, p[TRAPEZE_GZ_NPARAMS];
} gz_vars;

static gz_vars make_vars(const double *params, double h, double blk)
{
    gz_vars v;
    v.h = dual_var(h, GZ_VAR_H);
    v.blk = dual_var(blk, GZ_VAR_BLK);
    for (int i = 0; i < TRAPEZE_GZ_NPARAMS; i++)
        v.p[i] = dual_var(params[i], GZ_VAR_PARAM0 + i);
    return v;
}

/* prod_i (blk - HaloWidth_i * k), the tile edge after k loops (5.3, 5.9, 5.10). */
static gz_dual tile_elements(const trapeze_workload *w, gz_dual blk, gz_dual k)
{
    gz_dual r = dual_const(1.0);
    for (int i = 0; i < w->dims; i++)
        r = dual_mul(r, dual_sub(blk, dual_scale(k, w->halo[i])));
    return r;
}

/* tau of 5.11, or 1 in paper mode (5.15/5.16 as printed). */
static gz_dual tau_factor(const trapeze_gz_model *m, const gz_vars *v)
{
    if (!m->tau)
        return dual_const(1.0);
    gz_dual one_minus_beta = dual_sub(dual_const(1.0), v->p[TRAPEZE_GZ_BETA]);
    return dual_scale(one_minus_beta, 1.0 + m->work.bank_conflict_rate);
}

typedef struct {
    gz_dual trapezoids, passes, participants;
    gz_dual stage[TRAPEZE_GZ_NCOMPONENTS];
    gz_dual per_loop[TRAPEZE_GZ_NCOMPONENTS];
    gz_dual cps, cpl;
} gz_terms;

/* The whole-tiles extension applies at whole heights only, so that the
 * continuous optimizer still sees Meng's smooth T between them. */
static int whole_tiles(const trapeze_gz_model *m, const gz_vars *v)
{
    return m->params.whole_tiles && v->h.v == floor(v->h.v) && v->blk.v == floor(v->blk.v);
}

/* Tiles a launch has: prod ceil(DataLength_i / (blk - HaloWidth_i h)). */
static double launched_tiles(const trapeze_workload *w, double blk, double h)
{
    double tiles = 1;
    for (int i = 0; i < w->dims; i++)
        tiles *= ceil(w->data_len[i] / (blk - w->halo[i] * h));
    return tiles;
}

int trapeze_gz_occupancy(const trapeze_gpu *g, const trapeze_workload *w, int blk_len)
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

/* Resident blocks per SM: as the occupancy rule gives it, or the parameter. */
static gz_dual resident_per_sm(const trapeze_gz_model *m, const gz_vars *v)
{
    if (!m->params.occupancy)
        return v->p[TRAPEZE_GZ_BLOCKS_PER_SM];
    int r = trapeze_gz_occupancy(&m->gpu, &m->work, (int)floor(v->blk.v));
    return dual_const(r < 1 ? 1 : r);
}

/* 5.7's MemCycles from its two parts: Meng's sum, or with mem_latency a
 * smooth maximum of the two, (L^q + B^q)^(1/q): a round of resident blocks
 * that waits on its loads costs a latency whether its bytes are few or
 * many (Little's law: more resident blocks, fewer rounds), and only past
 * the bandwidth's time do bytes set the pace. Smooth, not max(), so that
 * a fit starting on the bandwidth side still sees the latency's gradient
 * (with max() it stayed at its start). When either is 0 the norm is the
 * other, value and gradient (the norm's partial in a zero side is 0; pow
 * would make it 0 x log 0). */
#define MEM_LATENCY_NORM 4.0
static gz_dual mem_cycles(const trapeze_gz_model *m, gz_dual latency, gz_dual bandwidth)
{
    if (!m->params.mem_latency)
        return dual_add(latency, bandwidth);
    if (!(latency.v > 0))
        return bandwidth;
    if (!(bandwidth.v > 0))
        return latency;
    gz_dual q = dual_const(MEM_LATENCY_NORM);
    return dual_pow(dual_add(dual_pow(latency, q), dual_pow(bandwidth, q)),
                    dual_const(1.0 / MEM_LATENCY_NORM));
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

static gz_dual row_cost(const trapeze_gz_model *m, gz_dual row)
{
    double fetched = m->params.row_lines ? row_segment_elements(&m->gpu, &m->work, row.v) : 0;
    return fetched > 0 ? dual_div(dual_const(fetched), row) : dual_const(1.0);
}

static void memory_terms(const trapeze_gz_model *m, const gz_vars *v, gz_terms *t)
{
    const trapeze_workload *w = &m->work;
    const trapeze_gpu *g = &m->gpu;
    gz_dual one = dual_const(1.0);
    gz_dual volume = dual_const(1.0);
    for (int i = 0; i < w->dims; i++)
        volume = dual_scale(volume, w->data_len[i]);
    gz_dual out_tile = tile_elements(w, v->blk, v->h);             /* prod(blk - w_i h) */
    gz_dual loop_tile = tile_elements(w, v->blk, one);             /* prod(blk - w_i)   */
    gz_dual in_tile = dual_powi(v->blk, w->dims);                  /* blk^D             */
    gz_dual T = dual_div(volume, out_tile);                        /* 5.3 */
    if (whole_tiles(m, v))
        T = dual_const(launched_tiles(w, v->blk.v, v->h.v));
    gz_dual concurrent = dual_scale(resident_per_sm(m, v), g->n_sm); /* 5.5 */
    gz_dual passes = dual_div(T, concurrent);                       /* 5.6 */
    if (m->params.waves && whole_tiles(m, v))
        passes = dual_const(ceil(passes.v - 1e-9)); /* the partial last wave is a whole one */
    /* 5.7: MemCycles(n) = passes*UL + alpha*n*x*Clock/BW, alpha = sigma^(D-1).
     * With row_penalty, alpha = sigma once the rows are not contiguous (D >= 2):
     * a 3-D tile is more rows of the same length, not rows costlier per element,
     * and sigma^2 fitted on 2-D grids over-priced a memory-bound 3-D star by 50-68% */
    int penalty_dims = m->params.row_penalty && w->dims > 2 ? 1 : w->dims - 1;
    gz_dual alpha = dual_powi(v->p[TRAPEZE_GZ_SIGMA], penalty_dims);
    gz_dual per_elem = dual_div(dual_scale(alpha, w->element_bytes * g->core_clock_hz / g->dram_bandwidth_bps),
                                v->p[TRAPEZE_GZ_BW_FRACTION]); /* achieved, not peak, bandwidth */
    gz_dual latency = dual_mul(passes, v->p[TRAPEZE_GZ_UNCONTENDED_LAT]);
    /* with row_lines, each term's rows pay the segments they touch: the
     * staged tile's rows are blk long, the committed ones blk - w_0 h, a
     * loop's blk - w_0 */
    gz_dual load_rows = row_cost(m, v->blk);
    gz_dual commit_rows = row_cost(m, dual_sub(v->blk, dual_scale(v->h, w->halo[0])));
    gz_dual loop_rows = row_cost(m, dual_sub(v->blk, dual_const(w->halo[0])));
#define MEM_CYCLES(n, rows) mem_cycles(m, latency, dual_mul(dual_mul(per_elem, (rows)), (n)))
    /* 5.8; of the T blk^D staged elements, those beyond the grid's V are
     * ghost zones a neighbour loads too: rho of a DRAM read each */
    gz_dual staged = dual_mul(T, in_tile);
    if (staged.v > volume.v) /* written so that rho = 1 adds exactly 0 (Meng to the bit) */
        staged = dual_add(staged, dual_mul(dual_sub(v->p[TRAPEZE_GZ_HALO_REREAD], dual_const(1.0)),
                                           dual_sub(staged, volume)));
    t->stage[TRAPEZE_GZ_LOADSTEN] = dual_scale(MEM_CYCLES(staged, load_rows), w->stencil_arrays);
    t->stage[TRAPEZE_GZ_COMMIT] = MEM_CYCLES(dual_mul(T, out_tile), commit_rows);                   /* 5.9 */
    t->stage[TRAPEZE_GZ_ITERMEM] = dual_mul(dual_scale(v->h, w->elem_per_op),
                                            MEM_CYCLES(dual_mul(T, loop_tile), loop_rows));         /* 5.10 */
#undef MEM_CYCLES
    t->trapezoids = T;
    t->passes = passes;
    /* blocks meeting at a fence barrier: every trapezoid (5.18), or those of
     * the persistent kernel, which holds only what is resident at once */
    t->participants = T;
    if (m->params.persistent_fence && T.v > concurrent.v)
        t->participants = concurrent;
}

/* 5.18 with the fit's intercept, a participant's cost and the polling
 * contention among participants: mu (delta + F P + poll P^2), increasing in
 * P whenever the three are >= 0. With barrier_max, the larger of the two
 * parts, smoothly, mu sqrt(delta^2 + (F P + poll P^2)^2): a barrier waits
 * for its round trip, or for its P arrivals serialized at one counter in
 * the L2, whichever is longer. The V100's barrier alone (the fencebar
 * micro-benchmark) is 490, 570, 795, 1395, 2640 and 5200 cycles for 80 to
 * 2560 blocks: flat, then 2 cycles a block; a sum cannot be both. */
static gz_dual fence_barrier(const trapeze_gz_model *m, const gz_vars *v, gz_dual participants)
{
    gz_dual per_block = dual_add(v->p[TRAPEZE_GZ_FENCE_PER_BLOCK],
                                 dual_mul(v->p[TRAPEZE_GZ_FENCE_POLL], participants));
    gz_dual arrivals = dual_mul(per_block, participants), round_trip = v->p[TRAPEZE_GZ_FENCE_BARRIER];
    gz_dual cost = dual_add(arrivals, round_trip);
    if (m->params.barrier_max && cost.v > 0)
        cost = dual_pow(dual_add(dual_mul(round_trip, round_trip), dual_mul(arrivals, arrivals)),
                        dual_const(0.5));
    return dual_mul(v->p[TRAPEZE_GZ_MU], cost);
}

/* The workload's issue rate against the calibration's: its probe's SM-cycles
 * per warp instruction over the calibrated workloads' geometric mean. One
 * CPI cannot serve instruction mixes whose compute-bound issue rates differ
 * by 1.9x (the V100: PathFinder to Multi1D); 1 where either is unknown. */
static double issue_factor(const trapeze_gz_model *m)
{
    double ref = m->params.issue_cycles_ref;
    return m->issue_cycles > 0 && ref > 0 ? m->issue_cycles / ref : 1.0;
}

static void compute_terms(const trapeze_gz_model *m, const gz_vars *v, trapeze_sync sync,
                          gz_terms *t)
{
    const trapeze_workload *w = &m->work;
    double per_elem_mc = w->insts_per_sm_mc * m->profile_sms / w->profile_elements; /* 5.14 */
    double per_elem_ic = w->insts_per_sm_ic * m->profile_sms / w->profile_elements;
    gz_dual tau_cpi = dual_scale(dual_mul(tau_factor(m, v), v->p[TRAPEZE_GZ_CPI]), issue_factor(m));
    gz_dual in_tile = dual_powi(v->blk, w->dims);
    gz_dual loop_tile = tile_elements(w, v->blk, dual_const(1.0));
    gz_dual misc = dual_mul(dual_scale(in_tile, per_elem_mc), tau_cpi); /* 5.15 */
    /* with fences Meng drops MiscComp (5.4.5); the persistent kernel still
     * stages and commits every tile: that fraction stays. Relaunch pays
     * each block's dispatch and retire on top of its instructions. */
    if (sync == TRAPEZE_SYNC_FENCE && m->params.fence_staging) {
        /* the persistent kernel runs its setup once, but stages and commits
         * every tile: MiscComp less the setup's warp instructions, plus the
         * fitted fraction of the setup (0 when the split is right) */
        double warps = ceil(in_tile.v / (m->gpu.warp_size > 0 ? m->gpu.warp_size : 32));
        gz_dual setup = dual_scale(tau_cpi, m->setup_insts * warps);
        if (setup.v > misc.v)
            setup = misc;
        t->stage[TRAPEZE_GZ_MISCCOMP] =
            dual_add(dual_sub(misc, setup), dual_mul(setup, v->p[TRAPEZE_GZ_FENCE_MISC]));
    } else {
        t->stage[TRAPEZE_GZ_MISCCOMP] = sync == TRAPEZE_SYNC_FENCE
            ? dual_mul(misc, v->p[TRAPEZE_GZ_FENCE_MISC])
            : dual_add(misc, v->p[TRAPEZE_GZ_TILE_CYCLES]);
    }
    gz_dual per_iter = dual_mul(dual_scale(loop_tile, per_elem_ic), tau_cpi);
    t->stage[TRAPEZE_GZ_ITERCOMP] = dual_mul(v->h, per_iter); /* 5.16 */
    /* the persistent kernel's iterations after a tile's first run more
     * instructions than the relaunch profile (its tile coordinates are
     * derived, not block indices): psi (h - 1) iterations' worth more */
    if (sync == TRAPEZE_SYNC_FENCE && m->params.fence_iter)
        t->stage[TRAPEZE_GZ_ITERCOMP] = dual_add(
            t->stage[TRAPEZE_GZ_ITERCOMP],
            dual_mul(dual_mul(v->p[TRAPEZE_GZ_FENCE_ITER], dual_sub(v->h, dual_const(1.0))), per_iter));
    t->stage[TRAPEZE_GZ_GLBSYNC] = sync == TRAPEZE_SYNC_FENCE
        ? fence_barrier(m, v, t->participants)
        : v->p[TRAPEZE_GZ_RELAUNCH];                                                               /* 5.17 */
}

/* The overlap extension: memory and compute of a stage combined as
 * (M^p + C^p)^(1/p), p = 1/(1 - omega), returned as the factor that scales
 * both (so the six components still add up to CPL). Exactly 1 at omega = 0
 * (Meng's 5.2), with the derivative in omega kept for the fit. */
static gz_dual overlap_factor(const gz_vars *v, const gz_terms *t, gz_dual blocks_per_sm,
                              gz_dual omega)
{
    gz_dual mem = dual_add(dual_add(t->stage[TRAPEZE_GZ_LOADSTEN], t->stage[TRAPEZE_GZ_COMMIT]),
                           t->stage[TRAPEZE_GZ_ITERMEM]);
    gz_dual comp = dual_mul(dual_add(t->stage[TRAPEZE_GZ_MISCCOMP], t->stage[TRAPEZE_GZ_ITERCOMP]),
                            blocks_per_sm);
    gz_dual sum = dual_add(mem, comp);
    (void)v;
    if (!(mem.v > 0 && comp.v > 0))
        return dual_const(1.0); /* nothing to overlap */
    gz_dual p = dual_div(dual_const(1.0), dual_sub(dual_const(1.0), omega));
    gz_dual inv_p = dual_div(dual_const(1.0), p);
    gz_dual norm = dual_pow(dual_add(dual_pow(mem, p), dual_pow(comp, p)), inv_p);
    gz_dual r = dual_div(norm, sum);
    if (omega.v == 0)
        r.v = 1.0; /* Meng's model to the last bit */
    return r;
}

/* 5.2 and 5.24-5.30: per-stage sum and per-loop components. */
static void combine(const trapeze_gz_model *m, const gz_vars *v, trapeze_sync sync, gz_terms *t)
{
    gz_dual blocks_per_sm = dual_scale(t->trapezoids, 1.0 / m->gpu.n_sm); /* T / M */
    if (whole_tiles(m, v))
        blocks_per_sm = dual_const(ceil(blocks_per_sm.v)); /* the busiest SM */
    gz_dual omega = sync == TRAPEZE_SYNC_FENCE && m->params.fence_overlap
        ? v->p[TRAPEZE_GZ_OVERLAP_FENCE] : v->p[TRAPEZE_GZ_OVERLAP];
    gz_dual overlap = overlap_factor(v, t, blocks_per_sm, omega);
    for (int c = 0; c < TRAPEZE_GZ_NCOMPONENTS; c++) {
        gz_dual stage = t->stage[c];
        if (c == TRAPEZE_GZ_MISCCOMP || c == TRAPEZE_GZ_ITERCOMP)
            stage = dual_mul(stage, blocks_per_sm); /* CPT x T / M */
        if (c != TRAPEZE_GZ_GLBSYNC)
            stage = dual_mul(stage, overlap);
        t->per_loop[c] = dual_div(stage, v->h);
        t->cps = c == 0 ? stage : dual_add(t->cps, stage);
    }
    t->cpl = dual_div(t->cps, v->h); /* 5.1 */
}

static trapeze_status check_point(const trapeze_gz_model *m, double h, double blk,
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
                                trapeze_gz_max_height(m, (int)blk));
    return TRAPEZE_OK;
}

trapeze_status trapeze_gz_evaluate(const trapeze_gz_model *m, trapeze_sync sync, double h,
                                   double blk_len, trapeze_gz_eval *out, trapeze_error *err)
{
    return gz_evaluate_at(m, m->params.value, sync, h, blk_len, out, err);
}

/* The equations at an explicit parameter vector (the generic interface's
 * evaluate, model/ghostzone_model.c); the model's own values are not read. */
trapeze_status gz_evaluate_at(const trapeze_gz_model *m, const double *params, trapeze_sync sync,
                              double h, double blk_len, trapeze_gz_eval *out, trapeze_error *err)
{
    trapeze_status s = check_point(m, h, blk_len, err);
    if (s)
        return s;
    gz_vars v = make_vars(params, h, blk_len);
    gz_terms t;
    memory_terms(m, &v, &t);
    compute_terms(m, &v, sync, &t);
    combine(m, &v, sync, &t);
    out->trapezoids = t.trapezoids.v;
    out->passes = t.passes.v;
    for (int c = 0; c < TRAPEZE_GZ_NCOMPONENTS; c++) {
        out->stage[c] = t.stage[c].v;
        out->per_loop[c] = t.per_loop[c].v;
    }
    out->cps = t.cps.v;
    out->cpl = t.cpl.v;
    out->dcpl_dh = t.cpl.d[GZ_VAR_H];
    out->dcpl_dblk = t.cpl.d[GZ_VAR_BLK];
    for (int i = 0; i < TRAPEZE_GZ_NPARAMS; i++)
        out->dcpl_dparam[i] = t.cpl.d[GZ_VAR_PARAM0 + i];
    return TRAPEZE_OK;
}

/* 5.23: delta = mu * FencePerBlock - (InstsPerSM_MC / N) * blk^D * CPI
 * (times tau when enabled, as in 5.11); M cancels in 5.22. */
double trapeze_gz_delta(const trapeze_gz_model *m, double blk_len)
{
    const double *p = m->params.value;
    const trapeze_workload *w = &m->work;
    double tau = m->tau ? (1.0 - p[TRAPEZE_GZ_BETA]) * (1.0 + w->bank_conflict_rate) : 1.0;
    double misc = w->insts_per_sm_mc * m->profile_sms / m->gpu.n_sm / w->profile_elements *
                  pow(blk_len, w->dims) *
                  p[TRAPEZE_GZ_CPI] * tau * issue_factor(m);
    return p[TRAPEZE_GZ_MU] * p[TRAPEZE_GZ_FENCE_PER_BLOCK] - misc;
}
