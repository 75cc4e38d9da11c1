/*
 * gz_group.c - ghost zones and TB groupings chosen together (`trapeze
 * ghostzone --group`): for each trapezoid height h the relaunched stage's
 * locality graph (neighbouring enlarged tiles share their halo lines), the
 * grouping of its TBs that the grouping model predicts keeps most halo
 * re-reads in L1, and the ghost-zone model's cycles per loop with the halo
 * re-reads that grouping leaves to L2. Owns the joining only: the
 * equations are model/'s (ghostzone.c, group.c), kernels and graphs sim/'s.
 *
 * The coupling. Meng's LoadSten (with the halo_reread extension) moves
 * V + rho (T blk^D - V) elements per array: the grid once, and each of the
 * R = T blk^D - V ghost-zone elements that a neighbouring tile also stages
 * at rho of a first read (it is re-read from L2). The calibration fitted
 * rho under the simulator's default dispatch (round-robin), where a
 * fraction phi(rr) of those re-reads already hit in L1. A grouping g that
 * keeps neighbours on one SM serves phi(g) of them from L1, which costs no
 * memory traffic, so the re-reads that still reach memory scale by
 * (1 - phi(g)) / (1 - phi(rr)):
 *
 *     rho_g = rho (1 - phi(g)) / (1 - phi(rr)),  phi(g) = (L1 hits(g) / mu) / R
 *
 * where L1 hits(g) are the grouping model's L1 hits on data another TB of
 * the same SM brought (elements, mu L2 accesses each). Only the grouping
 * model's L1 side (mu, eta1, theta and the L1 capacity) enters; its timing
 * constants do not, since the ghost-zone model times the stage. So the
 * grouping that minimizes the stage's predicted L2 accesses minimizes the
 * CPL at that h, and the search runs the grouping optimizer with the
 * timing reduced to the L2 term (cwave = tdram = 0, tl2 = 1).
 *
 * The search over h. CPL grows with rho (more elements moved), so CPL at
 * rho = 0 (every halo re-read free) bounds any grouping's CPL at that h
 * from below: relaunch heights are visited by increasing bound and one
 * whose bound is not below the best CPL found is skipped without building
 * its graph (exact: tests/test_gz_group.c checks it against visiting all).
 * A grouping replaces round-robin at a height only when its CPL is lower by
 * more than the margin plus two standard deviations of that gain: it runs
 * statically placed (the explicit policy), which costs a little of
 * round-robin's dynamic balance, and the gain is proportional to rho, so
 * it carries rho's relative standard error from the calibration; a
 * calibration that did not fit rho (no standard error: Meng's 1 assumed)
 * keeps round-robin everywhere. Simulated, the groupings the halo favours
 * were no faster or slower (docs/grouping.md), so only a measured rho may
 * move a decision.
 * Fence mode runs persistent blocks that loop over the tiles, so there is
 * no TB dispatch to group: its heights keep the ghost-zone model's CPL.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "sampler/sampler.h"
#include "sim/core/gpu_sim.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"
#include "sim/mem/mem_config.h"
#include "sim/stencil/stencil_run.h"

/* What the stage kernel at height h gives the grouping model. */
typedef struct stage_graph {
    trapeze_locality_graph graph;
    trapeze_group_machine machine;
    long tiles;
} stage_graph;

/* The relaunched stage's first kernel at h: its locality graph and the
 * machine (SMs, occupancy, L1 and L2 lines) the grouping model needs. */
static trapeze_status build_stage(const sim_core_config *core, const sim_mem_config *mem,
                                  const trapeze_workload *w, int h, stage_graph *out,
                                  trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sim_stencil_spec spec = {.workload = w, .h = h, .sync = TRAPEZE_SYNC_RELAUNCH, .iterations = h};
    sim_stencil *st = NULL;
    int per_sm = 0;
    const char *limit = "";
    trapeze_status s = sim_stencil_build_sized(core, &spec, &st, &per_sm, &limit, err);
    if (!s)
        s = sim_locality_build(st->kernels[0], SIM_LINE_BYTES, &out->graph, err);
    if (!s) {
        out->tiles = st->tiles;
        out->machine.n_sm = core->gpu.n_sm;
        out->machine.tbs_per_sm = per_sm;
        out->machine.by_elements = 1;
        double l1 = mem->skip_l1d ? 0 : (double)mem->l1.sets * mem->l1.assoc;
        out->machine.l1_lines = l1 > 0 ? l1 : 1e-3;   /* no L1: nothing survives */
        double l2 = (double)mem->l2.sets * mem->l2.assoc * mem->n_mem * mem->n_sub;
        out->machine.l2_lines = l2 > 0 ? l2 : 1e-3;
    }
    sim_stencil_destroy(st);
    return s;
}

/* Ghost-zone elements of all arrays at h: stencil_arrays (T blk^D - V),
 * T the launched tiles (the term rho multiplies in LoadSten). */
static double ghost_elements(const trapeze_workload *w, long tiles)
{
    double in = 1, v = 1;
    for (int i = 0; i < w->dims; i++) {
        in *= w->blk_len;
        v *= w->data_len[i];
    }
    double r = (double)tiles * in - v;
    return r > 0 ? r * w->stencil_arrays : 0;
}

double trapeze_ghostzone_group_rho(double rho, double phi_rr, double phi_g)
{
    if (!(phi_rr < 1))
        return rho;   /* nothing left to re-read under rr: nothing to scale */
    double f = (1 - phi_g) / (1 - phi_rr);
    return rho * (f > 0 ? f : 0);
}

/* CPL of the model with rho replaced (the model's own parameters left
 * as they were afterwards). */
static trapeze_status cpl_with_rho(trapeze_ghostzone_model *gz, const trapeze_ghostzone_params *p,
                                   trapeze_sync sync, int h, double rho, double *cpl,
                                   trapeze_error *err)
{
    trapeze_ghostzone_params q = *p;
    q.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = rho;
    trapeze_ghostzone_set_params(gz, &q);
    trapeze_ghostzone_eval e;
    trapeze_status s =
        trapeze_ghostzone_evaluate(gz, sync, h, trapeze_ghostzone_workload(gz)->blk_len, &e, err);
    trapeze_ghostzone_set_params(gz, p);
    *cpl = e.cpl;
    return s;
}

/* The grouping model's L1 hits under rr and under the best grouping at this
 * stage; the best grouping goes to *best (allocated). */
static trapeze_status group_stage(const stage_graph *sg, const trapeze_group_params *gp,
                                  double margin, trapeze_ghostzone_group_row *row,
                                  trapeze_grouping *best, trapeze_error *err)
{
    trapeze_group_params l2only = *gp;   /* timing reduced to L2 accesses (top of file) */
    l2only.value[TRAPEZE_GROUP_CWAVE] = 0;
    l2only.value[TRAPEZE_GROUP_TDRAM] = 0;
    l2only.value[TRAPEZE_GROUP_TSM] = 0;
    l2only.value[TRAPEZE_GROUP_TL2] = 1;
    trapeze_group_model *m = NULL;
    trapeze_grouping cand[2];
    memset(cand, 0, sizeof cand);
    const char *names[2] = {"rr", "bcs"};
    trapeze_group_choice ch;
    trapeze_group_eval rr;
    trapeze_status s = trapeze_group_create(&sg->graph, &sg->machine, &l2only, &m, err);
    if (!s)
        s = trapeze_group_rr(m, &cand[0], err);
    if (!s)
        s = trapeze_group_bcs(m, &cand[1], err);
    if (!s)
        s = trapeze_group_optimize(m, cand, names, NULL, 2, margin, best, &ch, err);
    if (!s)
        s = trapeze_group_evaluate(m, &cand[0], &rr, err);
    if (!s) {
        double mu = gp->value[TRAPEZE_GROUP_MU];
        row->l1_reread_rr = rr.l1_shared_hits / mu;
        row->l1_reread = ch.eval.l1_shared_hits / mu;
        row->l2_rr = rr.l2_accesses;
        row->l2 = ch.eval.l2_accesses;
        snprintf(row->source, sizeof row->source, "%s", ch.source);
        row->gx = ch.gx;
        row->gy = ch.gy;
        row->tile_order = ch.tile_order;
        row->model_evaluations = ch.model_evaluations;
    }
    trapeze_grouping_free(&cand[0]);
    trapeze_grouping_free(&cand[1]);
    trapeze_group_destroy(m);
    return s;
}

/* phi of a row: its L1-served re-reads over the ghost elements, in [0, 1]. */
static double phi(double l1_reread, double ghosts)
{
    if (!(ghosts > 0))
        return 0;
    double f = l1_reread / ghosts;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* The default dispatch's grouping of a stage (what --group-out writes when
 * no grouping beats it). */
static trapeze_status rr_grouping(const stage_graph *sg, trapeze_grouping *g, trapeze_error *err)
{
    trapeze_group_params gp;
    trapeze_group_params_default(&gp);
    trapeze_group_model *m = NULL;
    trapeze_status s = trapeze_group_create(&sg->graph, &sg->machine, &gp, &m, err);
    if (!s)
        s = trapeze_group_rr(m, g, err);
    trapeze_group_destroy(m);
    return s;
}

static int by_bound(const void *a, const void *b)
{
    const trapeze_ghostzone_group_row *x = *(trapeze_ghostzone_group_row *const *)a;
    const trapeze_ghostzone_group_row *y = *(trapeze_ghostzone_group_row *const *)b;
    if (x->cpl_bound != y->cpl_bound)
        return x->cpl_bound < y->cpl_bound ? -1 : 1;
    return x->h - y->h;
}

void trapeze_ghostzone_group_result_free(trapeze_ghostzone_group_result *r)
{
    if (!r)
        return;
    free(r->rows);
    trapeze_grouping_free(&r->grouping);
    memset(r, 0, sizeof *r);
}

/* Fills the rows: every (mode, h) with its model CPL and bound. */
static trapeze_status plan_rows(trapeze_ghostzone_model *gz, const trapeze_ghostzone_params *p,
                                trapeze_ghostzone_group_result *out, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(gz);
    int hmax = trapeze_ghostzone_max_height(gz, w->blk_len);
    if (hmax < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: no valid height at block edge %d",
                            w->name, w->blk_len);
    out->rows = calloc((size_t)hmax * 2, sizeof *out->rows);
    if (!out->rows)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = TRAPEZE_OK;
    for (int mode = 0; mode < 2 && !s; mode++)
        for (int h = 1; h <= hmax && !s; h++) {
            trapeze_ghostzone_group_row *r = &out->rows[out->n_rows++];
            r->sync = mode ? TRAPEZE_SYNC_FENCE : TRAPEZE_SYNC_RELAUNCH;
            r->h = h;
            snprintf(r->source, sizeof r->source, "%s", mode ? "none" : "rr");
            s = cpl_with_rho(gz, p, r->sync, h, p->value[TRAPEZE_GHOSTZONE_HALO_REREAD], &r->cpl_rr,
                             err);
            if (!s)
                s = cpl_with_rho(gz, p, r->sync, h, 0, &r->cpl_bound, err);
            r->cpl = r->cpl_rr;
        }
    return s;
}

trapeze_status trapeze_ghostzone_group_optimize(const char *gpu_config_path,
                                                const trapeze_workload *spec,
                                                const trapeze_ghostzone_params *p, int tau,
                                                const trapeze_group_params *gp, double margin,
                                                int exhaustive, trapeze_ghostzone_group_result *out,
                                                trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    out->best = out->best_relaunch = -1;
    trapeze_config *cfg = NULL;
    sim_core_config core;
    sim_mem_config mem;
    trapeze_gpu gpu;
    trapeze_ghostzone_model *gz = NULL;
    trapeze_ghostzone_group_row **order = NULL;
    trapeze_status s = trapeze_config_load(gpu_config_path, &cfg, err);
    if (!s)
        s = trapeze_gpu_from_config(cfg, &gpu, err);
    if (!s)
        s = sim_core_config_read(cfg, &core, err);
    if (!s)
        s = sim_mem_config_read(cfg, core.gpu.n_sm, &mem, err);
    trapeze_config_destroy(cfg);
    if (!s)
        s = trapeze_ghostzone_create(&gpu, spec, p, &gz, err);
    if (!s) {
        trapeze_ghostzone_set_tau(gz, tau);
        s = plan_rows(gz, p, out, err);
    }
    int n_relaunch = out->n_rows / 2;
    if (!s && !(order = malloc((size_t)(n_relaunch > 0 ? n_relaunch : 1) * sizeof *order)))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; !s && i < n_relaunch; i++)
        order[i] = &out->rows[i];
    if (!s)
        qsort(order, (size_t)n_relaunch, sizeof *order, by_bound);
    double best = INFINITY;
    for (int i = 0; !s && i < n_relaunch; i++) {
        trapeze_ghostzone_group_row *r = order[i];
        if (!exhaustive && r->cpl_bound >= best)
            continue;   /* not even free halo re-reads could beat the best */
        stage_graph sg;
        trapeze_grouping g;
        memset(&g, 0, sizeof g);
        s = build_stage(&core, &mem, spec, r->h, &sg, err);
        if (!s)
            s = group_stage(&sg, gp, margin, r, &g, err);
        if (!s) {
            r->evaluated = 1;
            r->tiles = sg.tiles;
            r->ghost_elements = ghost_elements(spec, sg.tiles);
            double rho = trapeze_ghostzone_group_rho(p->value[TRAPEZE_GHOSTZONE_HALO_REREAD],
                                                     phi(r->l1_reread_rr, r->ghost_elements),
                                                     phi(r->l1_reread, r->ghost_elements));
            s = cpl_with_rho(gz, p, r->sync, r->h, rho, &r->cpl_grouped, err);
            r->rho = rho;
        }
        /* a grouping runs statically placed; it must be predicted faster
         * than the default dispatch by more than the margin to replace it */
        r->cpl = r->cpl_rr;
        double rho_cal = p->value[TRAPEZE_GHOSTZONE_HALO_REREAD], gain = r->cpl_rr - r->cpl_grouped;
        r->gain_sd = rho_cal > 0 ? fabs(gain) * p->stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] / rho_cal : 0;
        /* rho not fitted (no standard error): the gain rests on an assumption */
        int measured = p->stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] > 0;
        if (!s && measured && gain > margin * r->cpl_rr + 2 * r->gain_sd)
            r->cpl = r->cpl_grouped;
        else if (!s) {
            r->kept_rr = 1;
            trapeze_grouping_free(&g);
            s = rr_grouping(&sg, &g, err);
        }
        if (!s && r->cpl < best) {
            best = r->cpl;
            trapeze_grouping_free(&out->grouping);
            out->grouping = g;
            out->best_relaunch = (int)(r - out->rows);
        } else {
            trapeze_grouping_free(&g);
        }
        out->model_evaluations += r->model_evaluations;
        trapeze_locality_graph_free(&sg.graph);
    }
    for (int i = 0; !s && i < out->n_rows; i++) {
        const trapeze_ghostzone_group_row *r = &out->rows[i];
        if (out->best < 0 || r->cpl < out->rows[out->best].cpl)
            out->best = i;
    }
    free(order);
    trapeze_ghostzone_destroy(gz);
    if (s)
        trapeze_ghostzone_group_result_free(out);
    return s;
}

trapeze_status trapeze_ghostzone_group_simulate(const char *gpu_config_path,
                                                const trapeze_workload *spec, int h, int iterations,
                                                const trapeze_grouping *grouping, double *cpl,
                                                trapeze_error *err)
{
    char path[64] = "";
    trapeze_status s = TRAPEZE_OK;
    *cpl = 0;
    if (grouping) {   /* the explicit policy reads a file: a private temporary one */
        if ((s = sampler_grouping_tempfile(grouping, path, err)))
            return s;
    }
    trapeze_config *cfg = NULL;
    trapeze_sim *sim = NULL;
    trapeze_sim_options opt;
    memset(&opt, 0, sizeof opt);
    opt.tb_grouping = grouping ? path : NULL;
    trapeze_sim_stencil_result r;
    if (!s)
        s = trapeze_config_load(gpu_config_path, &cfg, err);
    if (!s)
        s = trapeze_sim_create(cfg, &opt, &sim, err);
    if (!s)
        s = trapeze_sim_run_stencil(sim, spec, TRAPEZE_SYNC_RELAUNCH, h, iterations, &r, err);
    if (!s)
        *cpl = r.cycles_per_loop;
    trapeze_sim_destroy(sim);
    trapeze_config_destroy(cfg);
    if (path[0])
        remove(path);
    return s;
}
