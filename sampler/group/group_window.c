/*
 * group_window.c - the grouping model's short samples: a sub-grid of a
 * launch, the TBs of the first non-empty SM queues of a grouping, at most
 * m of them and at most the share m / n_sm of the launch's TBs (at least
 * one queue), run alone on those SMs (-trapeze_window_groups: the other
 * SMs idle) and predicted by the model on the locality graph those TBs
 * induce, on the same machine with that many SMs. With a share of the TBs
 * given (share > 0, `--window-tbs`), at most min(m / n_sm, share) of them,
 * and a first queue over it alone is cut to a prefix: its first k =
 * max(floor(share' x TBs), min(2, x, the queue)) TBs in dispatch order, x
 * the TBs an SM runs at once. Two, because with one TB a prefix cannot show
 * what co-resident TBs cost each other, and a launch of 4 TBs on 15 SMs
 * would sample TB 0 alone for every policy (with at least one, the fit
 * loses its co-residency observation, docs/grouping.md). The
 * simulator still runs
 * whole groups: the cut queue's other TBs join a group it never
 * dispatches. Off by default: measured, the prefixes make the fitted model
 * worse (docs/grouping.md). What a queue's TBs
 * share with each other (L1, co-residency, waves) is the whole launch's;
 * what they would share with other queues' TBs through L2 is left out, and
 * the L2 and DRAM serve m SMs instead of all (docs/grouping.md: what that
 * costs in accuracy).
 * A whole-GPU window (trapeze_group_window_create_gpu) is the other kind of
 * short sample: the first k TBs of every queue, all SMs at once, so that
 * it sees the L2 and DRAM contention of the whole GPU a sub-grid leaves
 * out; its measured cycles over the model's correct the model's whole-
 * launch prediction (group_decide.c).
 * Owns the sub-grid (which TBs, their graph and grouping) and the fit to
 * sub-grids; the equations are model/'s, the simulation group_problem.c's.
 * Invariants: the sub-grid's TBs are renumbered 0..n-1 in increasing id;
 * its grouping is the full one's restricted to them, queues renumbered
 * 0..w->m-1 in increasing queue number, orders unchanged (each queue
 * whole, or a single queue cut to its orders 0..k-1); in w->full the
 * sub-grid's queues are exactly groups 0..w->m-1 (what
 * -trapeze_window_groups w->m dispatches), every other TB in a later group.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "trapeze.h"

struct trapeze_group_window {
    int m;
    long n;                          /* TBs of the sub-grid */
    trapeze_grouping full;           /* the launch's grouping, its m queues first */
    trapeze_locality_graph graph;    /* induced by the sub-grid's TBs */
    trapeze_grouping grouping;       /* of the sub-grid's TBs */
    trapeze_group_model *model;
};

void trapeze_group_window_destroy(trapeze_group_window *w)
{
    if (!w)
        return;
    trapeze_grouping_free(&w->full);
    trapeze_grouping_free(&w->grouping);
    trapeze_locality_graph_free(&w->graph);
    trapeze_group_destroy(w->model);
    free(w);
}

long trapeze_group_window_tbs(const trapeze_group_window *w) { return w->n; }

double trapeze_group_window_warp_insts(const trapeze_group_window *w)
{
    double n = 0;
    for (long t = 0; w->graph.warp_insts && t < w->n; t++)
        n += (double)w->graph.warp_insts[t];
    return n;
}

int trapeze_group_window_same(const trapeze_group_window *a, const trapeze_group_window *b)
{
    if (a->n != b->n || a->m != b->m || a->full.n_tbs != b->full.n_tbs)
        return 0;
    for (long t = 0; t < a->full.n_tbs; t++) {
        int in_a = a->full.group[t] < a->m, in_b = b->full.group[t] < b->m;
        if (in_a != in_b || (in_a && (a->full.group[t] != b->full.group[t] ||
                                      a->full.order[t] != b->full.order[t])))
            return 0;
    }
    return 1;
}

const trapeze_group_model *trapeze_group_window_model(const trapeze_group_window *w) { return w->model; }
const trapeze_grouping *trapeze_group_window_grouping(const trapeze_group_window *w)
{
    return &w->grouping;
}

/* The graph of the TBs with new[t] >= 0, renumbered new[t]. */
static trapeze_status induced(const trapeze_locality_graph *g, const long *new_id, long n,
                              trapeze_locality_graph *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    memcpy(out->kernel, g->kernel, sizeof out->kernel);
    out->grid[0] = (int)n;   /* no grid structure is claimed for a sub-grid */
    out->grid[1] = out->grid[2] = 1;
    out->n_tbs = n;
    out->line_bytes = g->line_bytes;
    /* the stores are counted per launch: the sub-grid's share of its TBs */
    out->store_sectors = g->n_tbs > 0 ? g->store_sectors * n / g->n_tbs : 0;
    out->elements = calloc((size_t)n, sizeof *out->elements);
    out->lines = calloc((size_t)n, sizeof *out->lines);
    out->sector_bytes = g->sector_bytes;
    if (g->sectors)
        out->sectors = calloc((size_t)n, sizeof *out->sectors);
    if (g->warp_insts)
        out->warp_insts = calloc((size_t)n, sizeof *out->warp_insts);
    out->edges = malloc((size_t)(g->n_edges > 0 ? g->n_edges : 1) * sizeof *out->edges);
    if (!out->elements || !out->lines || !out->edges || (g->warp_insts && !out->warp_insts) ||
        (g->sectors && !out->sectors)) {
        trapeze_locality_graph_free(out);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    for (long t = 0; t < g->n_tbs; t++)
        if (new_id[t] >= 0) {
            out->elements[new_id[t]] = g->elements[t];
            out->lines[new_id[t]] = g->lines[t];
            if (g->sectors)
                out->sectors[new_id[t]] = g->sectors[t];
            if (g->warp_insts)
                out->warp_insts[new_id[t]] = g->warp_insts[t];
        }
    /* renumbering keeps the id order, so edges stay sorted by (i, j) */
    for (long e = 0; e < g->n_edges; e++) {
        trapeze_locality_edge x = g->edges[e];
        if (new_id[x.tb_i] < 0 || new_id[x.tb_j] < 0)
            continue;
        x.tb_i = new_id[x.tb_i];
        x.tb_j = new_id[x.tb_j];
        out->edges[out->n_edges++] = x;
    }
    return TRAPEZE_OK;
}

/* The window's graph (the TBs with new_id[t] >= 0), grouping (w->full's
 * groups 0..w->m-1 restricted to them) and model on a machine of w->m SMs. */
static trapeze_status window_model(const trapeze_locality_graph *graph,
                                   const trapeze_group_machine *mc0,
                                   const trapeze_group_params *p, const long *new_id,
                                   trapeze_group_window *w, trapeze_error *err)
{
    trapeze_status s = induced(graph, new_id, w->n, &w->graph, err);
    if (!s)
        s = trapeze_grouping_alloc(&w->grouping, w->n, w->m, err);
    if (s)
        return s;
    for (long t = 0; t < w->full.n_tbs; t++)
        if (new_id[t] >= 0) {
            w->grouping.group[new_id[t]] = w->full.group[t];
            w->grouping.order[new_id[t]] = w->full.order[t];
        }
    trapeze_error e2;
    assert(trapeze_grouping_check(&w->grouping, &e2) == TRAPEZE_OK);
    (void)e2;
    trapeze_group_machine mc = *mc0;
    mc.n_sm = w->m;
    return trapeze_group_create(&w->graph, &mc, p, &w->model, err);
}

/* The sub-grid's cap, a share of the launch's TBs: its m SMs' share, or
 * `share` when given and lower. */
static double cap_share(int m, int n_sm, double share)
{
    const double of_sms = (double)m / n_sm;
    return share > 0 && share < of_sms ? share : of_sms;
}

/* The end of both window constructors: the window's model from its TBs'
 * new ids, then *out = w, or w destroyed on any failure so far. */
static trapeze_status window_finish(trapeze_status s, const trapeze_locality_graph *graph,
                                    const trapeze_group_machine *mc,
                                    const trapeze_group_params *p, const long *new_id,
                                    trapeze_group_window *w, trapeze_group_window **out,
                                    trapeze_error *err)
{
    if (!s)
        s = window_model(graph, mc, p, new_id, w, err);
    if (s) {
        trapeze_group_window_destroy(w);
        return s;
    }
    *out = w;
    return TRAPEZE_OK;
}

trapeze_status trapeze_group_window_create(const trapeze_group_problem *pb,
                                           const trapeze_grouping *g, int m, double share,
                                           const trapeze_group_params *p, trapeze_group_window **out,
                                           trapeze_error *err)
{
    *out = NULL;
    const trapeze_locality_graph *graph = trapeze_group_problem_graph(pb);
    trapeze_group_machine mc = *trapeze_group_problem_machine(pb);
    if (m < 1 || m > mc.n_sm)
        return trapeze_fail(err, TRAPEZE_ERANGE, "a sub-grid of %d SMs on a GPU of %d", m,
                            mc.n_sm);
    if (!(share >= 0 && share <= 1))
        return trapeze_fail(err, TRAPEZE_ERANGE, "a sub-grid's share of the TBs %g: expected "
                            "0 (m / SMs) to 1", share);
    if (g->n_tbs != graph->n_tbs)
        return trapeze_fail(err, TRAPEZE_EINVAL, "grouping of %ld TBs for a launch of %ld",
                            g->n_tbs, graph->n_tbs);
    trapeze_group_window *w = calloc(1, sizeof *w);
    int *slot = calloc((size_t)g->n_groups + 1, sizeof *slot);   /* new queue number + 1 */
    long *size = calloc((size_t)g->n_groups + 1, sizeof *size);
    long *new_id = malloc((size_t)g->n_tbs * sizeof *new_id);
    trapeze_status s = !w || !slot || !size || !new_id
                           ? trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory")
                           : TRAPEZE_OK;
    int cut = -1;   /* the queue cut to its first `keep` TBs, if any */
    long keep = 0;
    if (!s) {
        for (long t = 0; t < g->n_tbs; t++)
            size[g->group[t]]++;
        /* the first non-empty queues become 0..taken-1, the others follow:
         * at most m queues and the share of the TBs, at least one queue;
         * with a share given, a first queue over it is cut to its prefix */
        int taken = 0;
        long tbs = 0;
        const double most = (double)g->n_tbs * cap_share(m, mc.n_sm, share);
        for (int q = 0; q < g->n_groups && taken < m; q++) {
            if (!size[q])
                continue;
            if ((double)(tbs + size[q]) > most) {
                if (taken > 0)
                    break;
                if (share > 0) {   /* the first queue's prefix */
                    cut = q;
                    keep = (long)floor(most);
                    long least = size[q] < 2 ? size[q] : 2;   /* co-residency (above) */
                    least = least < mc.tbs_per_sm ? least : mc.tbs_per_sm;
                    keep = keep < least ? least : keep;
                    slot[q] = ++taken;
                    break;
                }
            }
            slot[q] = ++taken;   /* whole (at least one queue) */
            tbs += size[q];
        }
        if (cut >= 0 && keep == size[cut])   /* the prefix is the whole queue */
            cut = -1;
        /* the cut queue's rest goes after the last queue (a new one when
         * the grouping has a single queue) */
        const int n_full = g->n_groups + (cut >= 0 && g->n_groups == 1);
        s = trapeze_grouping_alloc(&w->full, g->n_tbs, n_full, err);
        int next = taken;
        for (int q = 0; q < n_full; q++)
            if (!slot[q])
                slot[q] = ++next;
        long rest_at = 0;   /* the rest's first order in the last group */
        for (int q = 0; q < n_full && cut >= 0; q++)
            if (slot[q] == n_full && q < g->n_groups)
                rest_at = size[q];
        w->m = taken;
        for (long t = 0; !s && t < g->n_tbs; t++) {
            if (g->group[t] == cut && g->order[t] >= keep) {
                w->full.group[t] = n_full - 1;
                w->full.order[t] = rest_at + g->order[t] - keep;
            } else {
                w->full.group[t] = slot[g->group[t]] - 1;
                w->full.order[t] = g->order[t];
            }
            new_id[t] = w->full.group[t] < taken ? w->n++ : -1;
        }
        if (!s)
            s = trapeze_grouping_check(&w->full, err);
    }
    s = window_finish(s, graph, &mc, p, new_id, w, out, err);
    free(slot);
    free(size);
    free(new_id);
    return s;
}

trapeze_status trapeze_group_window_create_gpu(const trapeze_group_problem *pb,
                                               const trapeze_grouping *g, long k,
                                               const trapeze_group_params *p,
                                               trapeze_group_window **out, trapeze_error *err)
{
    *out = NULL;
    const trapeze_locality_graph *graph = trapeze_group_problem_graph(pb);
    trapeze_group_machine mc = *trapeze_group_problem_machine(pb);
    if (k < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "a whole-GPU window of %ld TBs a queue", k);
    if (g->n_tbs != graph->n_tbs || g->n_groups > mc.n_sm)
        return trapeze_fail(err, TRAPEZE_EINVAL, "grouping of %ld TBs in %d queues for a "
                            "launch of %ld on %d SMs", g->n_tbs, g->n_groups, graph->n_tbs,
                            mc.n_sm);
    trapeze_group_window *w = calloc(1, sizeof *w);
    long *new_id = malloc((size_t)g->n_tbs * sizeof *new_id);
    trapeze_status s = !w || !new_id ? trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory")
                                     : TRAPEZE_OK;
    /* queue q keeps its place on SM q; the TBs past the prefixes form
     * group n_sm, which -trapeze_window_groups n_sm never dispatches */
    if (!s)
        s = trapeze_grouping_alloc(&w->full, g->n_tbs, mc.n_sm + 1, err);
    long rest = 0;
    for (long t = 0; !s && t < g->n_tbs; t++) {
        const int in = g->order[t] < k;
        w->full.group[t] = in ? g->group[t] : mc.n_sm;
        w->full.order[t] = in ? g->order[t] : rest++;
        new_id[t] = in ? w->n++ : -1;
    }
    if (!s) {
        w->m = mc.n_sm;
        s = trapeze_grouping_check(&w->full, err);
    }
    s = window_finish(s, graph, &mc, p, new_id, w, out, err);
    free(new_id);
    return s;
}

trapeze_status trapeze_group_window_simulate(const trapeze_group_problem *pb,
                                             const trapeze_group_window *w, double warp_insts,
                                             trapeze_group_measured *out, trapeze_error *err)
{
    return trapeze_group_problem_simulate_window(pb, NULL, &w->full, w->m, warp_insts, out, err);
}

trapeze_status trapeze_group_window_fit_many(const trapeze_group_problem *const *pb, int n,
                                             const int *m, const double *share,
                                             const trapeze_group_measured (*meas)[TRAPEZE_TB_NFIXED],
                                             int folds, trapeze_group_params *p,
                                             trapeze_fit_report *rep, trapeze_error *err)
{
    enum { NC = TRAPEZE_TB_NFIXED };   /* the candidates: the policies of fixed grouping */
    trapeze_group_window **w = calloc((size_t)(NC * n), sizeof *w);
    trapeze_group_observation *obs = calloc((size_t)(NC * n), sizeof *obs);
    trapeze_status s = w && obs ? TRAPEZE_OK
                                : trapeze_fail(err, TRAPEZE_ENOMEM, "grouping fit: out of memory");
    for (int l = 0; !s && l < n; l++) {
        trapeze_group_model *full = NULL;
        s = trapeze_group_create(trapeze_group_problem_graph(pb[l]),
                                 trapeze_group_problem_machine(pb[l]), p, &full, err);
        for (int c = 0; !s && c < NC; c++) {
            trapeze_grouping g;
            memset(&g, 0, sizeof g);
            trapeze_group_window **wc = &w[NC * l + c];
            const int pol = trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c);
            s = trapeze_group_problem_policy_grouping(pb[l], full, trapeze_tb_policies[pol].name,
                                                      &g, err);
            if (!s)
                s = trapeze_group_window_create(pb[l], &g, m[l], share[l], p, wc, err);
            trapeze_grouping_free(&g);
            if (!s)
                obs[NC * l + c] = (trapeze_group_observation){(*wc)->model, &(*wc)->grouping,
                                                           meas[l][c].cycles,
                                                           meas[l][c].l2_accesses,
                                                           meas[l][c].dram_reads};
        }
        trapeze_group_destroy(full);
    }
    if (!s)
        s = trapeze_group_fit(obs, NC * n, trapeze_group_fit_mask_default, folds, p, rep, err);
    for (int k = 0; w && k < NC * n; k++)
        trapeze_group_window_destroy(w[k]);
    free(w);
    free(obs);
    return s;
}

trapeze_status trapeze_group_window_fit(const trapeze_group_problem *pb, int m, double share,
                                        const trapeze_group_measured meas[TRAPEZE_TB_NFIXED],
                                        trapeze_group_params *p, trapeze_fit_report *rep,
                                        trapeze_error *err)
{
    const trapeze_group_measured(*one)[TRAPEZE_TB_NFIXED] =
        (const trapeze_group_measured(*)[TRAPEZE_TB_NFIXED])meas;
    /* folds: leave one out, as trapeze_group_decide's fit to the whole runs */
    return trapeze_group_window_fit_many(&pb, 1, &m, &share, one, TRAPEZE_TB_NFIXED, p, rep, err);
}
