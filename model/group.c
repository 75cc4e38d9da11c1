/*
 * group.c - the TB grouping model: for a grouping (which TBs share an SM's
 * group queue, in what order, x of them co-resident by occupancy) predict
 * inter-TB L1 hits, L2 accesses, DRAM reads and cycles from the locality
 * graph, the footprints, the cache capacities and the occupancy, with exact
 * gradients in the parameters (dual numbers). Owns the equations only: no
 * search (group_opt.c), no simulation, no file formats. group_values.c
 * compiles the evaluation again at values only (GRP_VALUES_ONLY).
 *
 * The equations (docs/grouping.md derives them). TB p sits at position k_p
 * of queue g_p and at rank r_p of the launch order (queues interleaved:
 * position 0 of every queue, then position 1, ...). With s_pj the lines p
 * and j share and f_p p's footprint:
 *
 *   L1 (same queue, earlier, Dk = k_p - k_j >= 1):
 *     w1 = 1 while co-resident (Dk <= x - 1), then exp(-(Dk - x + 1) fbar / C1)
 *   L2 (any queue, earlier in launch order, Dr = r_p - r_j >= 1):
 *     w2 = exp(-Dr fresh / (retain2 C2)), fresh: the lines a TB adds to L2
 *     (its footprint less its largest overlap with a TB of smaller id,
 *     mean; both and C2 in the DRAM reads' unit)
 *   overlap with earlier TBs under weights w:
 *     O(w) = theta max_j w s_pj + (1 - theta) min(f_p, sum_j w s_pj)
 *     (the largest overlap is exact when TBs share one panel, the clipped
 *      sum when they share disjoint ones; theta is fitted)
 *     (params.l1_by_fetch: O_p(w1) on the shares and footprint in the
 *      DRAM reads' unit below, times f_p / F_p: the L1 holds lines or
 *      sectors, and a neighbour's serves all of p's reads of it)
 *   l1_hits   = mu sum_p eta1 O_p(w1)
 *   l2        = mu sum_p (f_p - eta1 O_p(w1))
 *   (mu: L2 accesses per footprint line; a line found in L1 saves them all)
 *   dram      = sum_p nu (F_p - eta2 O^D_p(w2)), F and O^D in the unit
 *        the L1 misses in (machine.dram_fetch_bytes): the graph's lines
 *        where it fetches whole lines (an L1 that is not sectored, GTX
 *        480), its 32-byte sectors where it is sectored (V100). What two
 *        TBs then share in DRAM is every unit both touch, not the elements
 *        both read: a 16 x 16 Jacobi tile reads one element per row of a
 *        line its left neighbour reads whole, and needs none of it from
 *        DRAM once the neighbour fetched it; counted in elements, a one-SM
 *        sub-grid's nu over-predicted the GTX 480's whole Jacobi 512^2
 *        reads twice. A strided load touching one element per line reads
 *        its sector: 4 bytes counted, 32 fetched.
 *   Tc = cwave max(1, Q / x) (Q: longest queue; fewer than x TBs run at
 *        once and take one TB's time, not a share of a wave's: latency),
 *   Ts = tsm Q (the same TBs through one SM's own pipelines, its
 *        schedulers, L1 and load/store unit: throughput, where Tc is
 *        latency; V100 syrk, L1-bound at 0.9 accesses a cycle: one TB on
 *        its SM 36.6 K cycles, two sharing one 69.0 K, which a flat Tc with
 *        x >= 2 cannot tell apart),
 *   T2 = tl2 max_g l2_g, Td = tdram max_g dram_g (l2_g, dram_g: the terms
 *        of queue g's TBs; each SM's memory pipeline serves its own
 *        queue, the busiest one bounds the launch; so a sub-grid of m
 *        queues, the short samples of sampler/group/group_window.c, and the
 *        whole launch share the constants)
 *   N         = (Tc^q + Ts^q + T2^q + Td^q)^(1/q), q = 1 / (1 - omega)
 *   cycles    = ((N + Tg) + sqrt((N - Tg)^2 + 4 beta N Tg)) / 2: the larger
 *        root of (C - N)(C - Tg) = beta N Tg. An SM's queue takes N alone;
 *        beside a DRAM busy Tg of C cycles its TBs wait on a queue whose
 *        delay grows as rho / (1 - rho), rho = Tg / C: C - N = beta N Tg /
 *        (C - Tg). beta 0: max(N, Tg), the floor alone; 1: N + Tg. beta
 *        (dram_contention) is the GPU's, measured on whole launches: a
 *        sub-grid's Tg is negligible and says nothing of it.
 *   Tg = (a dram + W) / R: the whole launch's DRAM reads, each a
 *        transfers of 32 bytes (machine.dram_read_transfers: a sector read
 *        moves the DRAM's whole access atom, 64 bytes on the GTX 480), and
 *        its stores' W sectors (written back in whole lines, no atom wasted)
 *        at the GPU's peak DRAM rate R (machine.dram_reads_per_cycle, the
 *        config's, not fitted): no launch moves its data faster.
 *        Td is one queue's memory pipeline; Tg is all queues sharing the
 *        DRAM channels, which a sub-grid of a few SMs never reaches. Not
 *        in the norm: q is fitted to sub-grids, where Tg is negligible, so
 *        it says nothing of how Tg overlaps the rest (in the norm at the
 *        V100's fitted q, Jacobi 512^2, near the floor, was predicted
 *        47% slow); beta says how it adds. R = 0: no Tg.
 *   T2g = (l2 + W) / R2, only where params.l2_contention (beta2) >= 0: the
 *        whole launch's L2 accesses and store sectors through every L2
 *        slice at once (R2: slices at the L2's clock over the core's, one
 *        access a cycle each; machine.l2_accesses_per_cycle), then
 *        cycles = C(C(N, Tg; beta), T2g; beta2): the same queueing form.
 *        A sub-grid's L2 load is negligible, as its Tg, so beta2 is
 *        measured on whole runs (sampler/group/group_contention.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/group.h"

#ifndef GRP_VALUES_ONLY   /* model/group_values.c compiles the evaluation alone */
const char *const grp_param_names[TRAPEZE_GROUP_NPARAMS] = {
    "mu", "eta1", "eta2", "retain2", "theta", "nu", "cwave_cycles", "tl2_cycles",
    "tdram_cycles", "overlap", "tsm_cycles", "dram_contention"};
const double grp_param_min[TRAPEZE_GROUP_NPARAMS] = {0.1, 0, 0, 0.01, 0, 0.01, 0, 0, 0, 0, 0, 0};
const double grp_param_max[TRAPEZE_GROUP_NPARAMS] = {100, 1, 1, 100, 1, 100, 1e9, 1e5, 1e5,
                                                      0.95, 1e9, 1};

const char *trapeze_group_param_name(trapeze_group_param p)
{
    return (unsigned)p < TRAPEZE_GROUP_NPARAMS ? grp_param_names[p] : "?";
}

void trapeze_group_param_range(trapeze_group_param p, double *lo, double *hi)
{
    int i = (unsigned)p < TRAPEZE_GROUP_NPARAMS ? (int)p : 0;
    *lo = grp_param_min[i];
    *hi = grp_param_max[i];
}

/* Uncalibrated starting values: every footprint line fetched once, shared
 * lines mostly caught, throughputs of a Fermi-class GPU (12 L2 slices, a
 * 128-byte line per DRAM read at ~250 bytes per core cycle), per SM of 15. */
void trapeze_group_params_default(trapeze_group_params *p)
{
    static const double v[TRAPEZE_GROUP_NPARAMS] = {1.0, 0.8, 1.0, 1.0, 0.5,
                                                  1.0, 1000.0, 15.0 / 12, 7.5, 0.5,
                                                  0.0 /* no SM-throughput term until fitted */,
                                                  0.0 /* no DRAM contention until measured */};
    memset(p, 0, sizeof *p);
    memcpy(p->value, v, sizeof v);
    p->gain_uncertainty = -1;   /* not measured */
    p->subgrid_gain_uncertainty = -1;
    p->subgrid_contention = -1;
    p->gpu_window_gain_uncertainty = -1;
    p->l2_contention = -1;   /* no whole-GPU L2 term */
    p->l2_measured_contention = -1;   /* nor one from the sub-grids' L2 counts */
    p->memory_measured_contention = -1;   /* nor from their L2 and DRAM counts */
    p->dram_rows_cost = -1;   /* nor the DRAM rows a grouping scatters */
    p->dram_banks = 1;   /* the DRAM rows each grouping opens: the config's, nothing fitted */
    snprintf(p->source, sizeof p->source, "uncalibrated defaults (built-in)");
}

const char *trapeze_group_eval_bound(const trapeze_group_eval *e)
{
    if (e->t_gpu_l2 > 0 && e->t_gpu_l2 >= e->t_norm && e->t_gpu_l2 >= e->t_gpu_dram)
        return "gpu-l2";     /* the whole GPU's L2 time is the largest */
    if (e->t_gpu_dram > 0 && e->t_gpu_dram >= e->t_norm)
        return "gpu-dram";   /* the whole GPU's DRAM time is the larger */
    const double t[4] = {e->t_compute, e->t_sm, e->t_l2, e->t_dram};
    static const char *const names[4] = {"latency", "sm", "l2", "dram"};
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (t[i] > t[best])
            best = i;
    return names[best];
}

/* ------------------------------------------------------------ the graph */

void trapeze_group_destroy(trapeze_group_model *m)
{
    if (!m)
        return;
    free(m->f);
    free(m->fd);
    free(m->adj_start);
    free(m->adj_tb);
    free(m->adj_s);
    free(m->adj_d);
    free(m);
}

/* The unit DRAM reads are counted in: f's (elements or lines), or what
 * one L1 miss fetches. */
enum { DRAM_AS_F, DRAM_LINES, DRAM_SECTORS };

static trapeze_status dram_unit_of(const trapeze_locality_graph *g, int fetch_bytes, int *unit,
                                   trapeze_error *err)
{
    *unit = DRAM_AS_F;
    if (fetch_bytes <= 0)
        return TRAPEZE_OK;
    if (fetch_bytes == g->line_bytes)
        *unit = DRAM_LINES;
    else if (g->sectors && fetch_bytes == g->sector_bytes)
        *unit = DRAM_SECTORS;
    else
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "grouping model: the GPU's L1 fetches %d bytes a miss; the locality "
                            "graph of %s counts %d-byte lines and %s",
                            fetch_bytes, g->kernel, g->line_bytes,
                            g->sectors ? "32-byte sectors" : "no sectors (read from a CSV)");
    return TRAPEZE_OK;
}

/* Both directions of every edge, grouped by TB (counting sort). */
static trapeze_status build_adjacency(trapeze_group_model *m, const trapeze_locality_graph *g,
                                      int by_elements, int dram_unit, trapeze_error *err)
{
    long n = m->n, ne = g->n_edges;
    m->adj_start = calloc((size_t)n + 1, sizeof *m->adj_start);
    m->adj_tb = malloc(((size_t)ne * 2 + 1) * sizeof *m->adj_tb);
    m->adj_s = malloc(((size_t)ne * 2 + 1) * sizeof *m->adj_s);
    m->adj_d = malloc(((size_t)ne * 2 + 1) * sizeof *m->adj_d);
    long *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!m->adj_start || !m->adj_tb || !m->adj_s || !m->adj_d || !fill) {
        free(fill);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping model: out of memory (%ld edges)", ne);
    }
    for (long e = 0; e < ne; e++) {
        const trapeze_locality_edge *ed = &g->edges[e];
        if (ed->tb_i < 0 || ed->tb_j >= n || ed->tb_i >= ed->tb_j || ed->shared_lines < 0) {
            free(fill);
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "locality graph: edge %ld (%ld, %ld, %lld lines): need 0 <= i < j < %ld and lines >= 0",
                                e, ed->tb_i, ed->tb_j, ed->shared_lines, n);
        }
        m->adj_start[ed->tb_i + 1]++;
        m->adj_start[ed->tb_j + 1]++;
    }
    for (long t = 0; t < n; t++)
        m->adj_start[t + 1] += m->adj_start[t];
    for (long e = 0; e < ne; e++) {
        const trapeze_locality_edge *ed = &g->edges[e];
        long a = m->adj_start[ed->tb_i] + fill[ed->tb_i]++;
        long b = m->adj_start[ed->tb_j] + fill[ed->tb_j]++;
        double sh = (double)(by_elements ? ed->shared_elements : ed->shared_lines);
        m->adj_tb[a] = ed->tb_j;
        m->adj_s[a] = sh;
        double shd = dram_unit == DRAM_LINES     ? (double)ed->shared_lines
                     : dram_unit == DRAM_SECTORS ? (double)ed->shared_sectors
                                                 : sh;
        m->adj_d[a] = shd;
        m->adj_tb[b] = ed->tb_i;
        m->adj_s[b] = sh;
        m->adj_d[b] = shd;
    }
    free(fill);
    return TRAPEZE_OK;
}

trapeze_status trapeze_group_create(const trapeze_locality_graph *graph,
                                    const trapeze_group_machine *mach, const trapeze_group_params *p,
                                    trapeze_group_model **out, trapeze_error *err)
{
    *out = NULL;
    if (!graph || graph->n_tbs < 1 || !graph->lines || (graph->n_edges && !graph->edges))
        return trapeze_fail(err, TRAPEZE_EINVAL, "grouping model: empty locality graph");
    if (mach->n_sm < 1 || mach->tbs_per_sm < 1 || !(mach->l1_lines > 0) ||
        !(mach->l2_lines > 0))
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "grouping model: machine needs n_sm, TBs per SM and L1/L2 lines > 0 (got %d, %d, %g, %g)",
                            mach->n_sm, mach->tbs_per_sm, mach->l1_lines, mach->l2_lines);
    int dram_unit;
    trapeze_status s = dram_unit_of(graph, mach->dram_fetch_bytes, &dram_unit, err);
    if (s)
        return s;
    trapeze_group_model *m = calloc(1, sizeof *m);
    if (!m)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping model: out of memory");
    m->n = graph->n_tbs;
    memcpy(m->grid, graph->grid, sizeof m->grid);
    m->m = *mach;
    m->p = *p;
    m->writes = (double)graph->store_sectors;
    m->f = malloc((size_t)m->n * sizeof *m->f);
    m->fd = malloc((size_t)m->n * sizeof *m->fd);
    if (!m->f || !m->fd) {
        trapeze_group_destroy(m);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping model: out of memory");
    }
    /* the unit: lines, or elements with capacities converted at the
     * graph's mean elements per line */
    int el = mach->by_elements && graph->elements;
    double sum = 0, fd_sum = 0, ln_sum = 0;
    for (long t = 0; t < m->n; t++) {
        m->f[t] = (double)(el ? graph->elements[t] : graph->lines[t]);
        m->fd[t] = dram_unit == DRAM_LINES     ? (double)graph->lines[t]
                   : dram_unit == DRAM_SECTORS ? (double)graph->sectors[t]
                                               : m->f[t];
        sum += m->f[t];
        fd_sum += m->fd[t];
        ln_sum += (double)graph->lines[t];
    }
    /* capacities at the graph's mean units per line: the L1's in f's, the
     * L2's retention in the DRAM's (fresh) */
    if (sum > 0 && ln_sum > 0)
        m->m.l1_lines *= sum / ln_sum;
    if (fd_sum > 0 && ln_sum > 0)
        m->m.l2_lines *= fd_sum / ln_sum;
    m->by_elements = el;
    for (long t = 0; t < m->n; t++) {
        if (!(m->f[t] >= 0) || !(m->fd[t] >= 0)) {
            trapeze_group_destroy(m);
            return trapeze_fail(err, TRAPEZE_EINVAL, "locality graph: TB %ld: footprint %lld lines",
                                t, graph->lines[t]);
        }
    }
    m->fbar = sum / (double)m->n;
    s = build_adjacency(m, graph, el, dram_unit, err);
    if (s != TRAPEZE_OK) {
        trapeze_group_destroy(m);
        return s;
    }
    /* What a TB adds to L2, about: its lines less its largest overlap with
     * a TB of smaller id (the kernel's union, spread over its TBs). */
    double fresh = 0;
    for (long t = 0; t < m->n; t++) {
        double most = 0;
        for (long a = m->adj_start[t]; a < m->adj_start[t + 1]; a++)
            if (m->adj_tb[a] < t && m->adj_d[a] > most)
                most = m->adj_d[a];
        fresh += m->fd[t] > most ? m->fd[t] - most : 0;
    }
    m->fresh = fresh / (double)m->n;
    *out = m;
    return TRAPEZE_OK;
}

void trapeze_group_set_params(trapeze_group_model *m, const trapeze_group_params *p)
{
    m->p = *p;
}
#endif   /* GRP_VALUES_ONLY */

/* ------------------------------------------------------------ evaluation */

typedef struct {
    long tb;
    long order;
    int group;
} slot;

static int by_launch(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (x->group > y->group) - (x->group < y->group);
}

/* min(a, b) of duals: the branch whose value is smaller carries the gradient. */
static grp_dual gd_min(grp_dual a, grp_dual b)
{
    return a.v <= b.v ? a : b;
}

/* theta * largest + (1 - theta) * min(f, sum): the union of overlaps. */
static grp_dual overlap(grp_dual theta, grp_dual max, grp_dual sum, double f)
{
    grp_dual clipped = gd_min(sum, gd_const(f));
    return gd_add(gd_mul(theta, max), gd_mul(gd_sub(gd_const(1), theta), clipped));
}

/* What TB p and its a-th neighbour share in L1: in f's unit, or where
 * the L1 is counted in what it holds (params.l1_by_fetch) in the fetch
 * unit, whose share of p's units l1_overlap turns back into f's. */
static double l1_share(const trapeze_group_model *m, long a)
{
    return m->p.l1_by_fetch ? m->adj_d[a] : m->adj_s[a];
}

/* p's data found in L1, in f's unit. By the fetch unit: the union of the
 * shared lines (or sectors) over p's, times p's footprint: a neighbour's
 * line serves every read p makes of it, so a 16 x 16 Jacobi tile finds
 * 18 of its 36 lines (half its reads) in L1 beside its left neighbour,
 * where its elements count 16 of 320 shared. */
static grp_dual l1_overlap(const trapeze_group_model *m, long p, grp_dual theta, double max1,
                           double sum1)
{
    if (!m->p.l1_by_fetch)
        return overlap(theta, gd_const(max1), gd_const(sum1), m->f[p]);
    if (!(m->fd[p] > 0))
        return gd_const(0);
    grp_dual o = overlap(theta, gd_const(max1), gd_const(sum1), m->fd[p]);
    return gd_scale(o, m->f[p] / m->fd[p]);
}

/* (t_0^q + ... + t_3^q)^(1/q) computed as a log-sum-exp, so large q neither
 * overflows nor loses the gradient. */
#define GRP_NTIMES 4
static grp_dual pnorm(const grp_dual *times, grp_dual q)
{
    grp_dual t[GRP_NTIMES], l[GRP_NTIMES];
    double lmax = -HUGE_VAL;
    for (int i = 0; i < GRP_NTIMES; i++) {
        t[i] = times[i];
        if (t[i].v < 1e-300)
            t[i] = gd_const(1e-300);
        l[i] = gd_mul(q, gd_log(t[i]));
        if (l[i].v > lmax)
            lmax = l[i].v;
    }
    grp_dual s = gd_const(0);
    for (int i = 0; i < GRP_NTIMES; i++)
        s = gd_add(s, gd_exp(gd_sub(l[i], gd_const(lmax))));
    return gd_exp(gd_div(gd_add(gd_const(lmax), gd_log(s)), q));
}

/* The larger root of (C - N)(C - Tg) = beta N Tg (trapeze_group_contention_cycles).
 * At beta 0 exactly max(N, Tg), as before the term, so that a model without
 * a measured contention predicts the same bytes (its d/dbeta is then 0: one
 * side only). */
static grp_dual contention(grp_dual n, grp_dual tg, grp_dual beta)
{
    if (!(beta.v > 0) || !(tg.v > 0) || !(n.v > 0))
        return tg.v > n.v ? tg : n;
    grp_dual d = gd_sub(n, tg);
    grp_dual r2 = gd_add(gd_mul(d, d), gd_scale(gd_mul(beta, gd_mul(n, tg)), 4));
    grp_dual r = gd_exp(gd_scale(gd_log(r2), 0.5));
    return gd_scale(gd_add(gd_add(n, tg), r), 0.5);
}

#ifndef GRP_VALUES_ONLY
double trapeze_group_contention_cycles(double norm, double t_gpu_dram, double beta)
{
    return contention(gd_const(norm), gd_const(t_gpu_dram), gd_const(beta)).v;
}
#endif

/* Beyond this many e-foldings a weight is dropped (below 1e-9). */
#define MAX_EFOLD 20.7

trapeze_status grp_evaluate_duals(const trapeze_group_model *m, const double *params,
                                  const trapeze_grouping *g, grp_duals *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (g->n_tbs != m->n || g->n_groups > m->m.n_sm)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "grouping of %ld TBs in %d groups for a model of %ld TBs on %d SMs",
                            g->n_tbs, g->n_groups, m->n, m->m.n_sm);
    trapeze_status s = trapeze_grouping_check(g, err);
    if (s != TRAPEZE_OK)
        return s;
    long n = m->n;
    slot *launch = malloc((size_t)n * sizeof *launch);
    long *rank = malloc((size_t)n * sizeof *rank);
    long *qlen = calloc((size_t)g->n_groups, sizeof *qlen);
    if (!launch || !rank || !qlen) {
        free(launch);
        free(rank);
        free(qlen);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping model: out of memory");
    }
    for (long t = 0; t < n; t++) {
        launch[t] = (slot){t, g->order[t], g->group[t]};
        qlen[g->group[t]]++;
    }
    qsort(launch, (size_t)n, sizeof *launch, by_launch);
    for (long r = 0; r < n; r++)
        rank[launch[r].tb] = r;

    grp_dual P[TRAPEZE_GROUP_NPARAMS];
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++) {
        /* a fit may step outside a range (its change of variable bounds
         * only one side): held at the edge, the model stays finite */
        double v = params[k];
        if (v >= grp_param_min[k] && v <= grp_param_max[k])
            P[k] = gd_var(v, GRP_VAR_PARAM0 + k);
        else
            P[k] = gd_const(v > grp_param_max[k] ? grp_param_max[k] : grp_param_min[k]);
    }
    int x = m->m.tbs_per_sm;
    double e1 = m->fbar / m->m.l1_lines;                        /* e-foldings per TB, L1 */
    grp_dual e2 = gd_div(gd_const(m->fresh / m->m.l2_lines), P[TRAPEZE_GROUP_RETAIN2]);

    grp_dual o1_total = gd_const(0), o2_total = gd_const(0);
    double f_total = 0, fd_total = 0;
    /* per queue: footprints and overlaps, for its memory terms */
    grp_dual *o1_q = calloc((size_t)g->n_groups, sizeof *o1_q);
    grp_dual *o2_q = calloc((size_t)g->n_groups, sizeof *o2_q);
    double *f_q = calloc((size_t)g->n_groups, sizeof *f_q);
    double *fd_q = calloc((size_t)g->n_groups, sizeof *fd_q);
    if (!o1_q || !o2_q || !f_q || !fd_q) {
        free(launch);
        free(rank);
        free(qlen);
        free(o1_q);
        free(o2_q);
        free(f_q);
        free(fd_q);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping model: out of memory");
    }
    for (long p = 0; p < n; p++) {
        double sum1 = 0, max1 = 0;
        grp_dual sum2 = gd_const(0), max2 = gd_const(0);
        for (long a = m->adj_start[p]; a < m->adj_start[p + 1]; a++) {
            long j = m->adj_tb[a];
            double sh = l1_share(m, a), shd = m->adj_d[a];
            long dk = g->order[p] - g->order[j];
            if (g->group[j] == g->group[p] && dk > 0) {
                double w = dk <= x - 1 ? 1.0 : exp(-(double)(dk - x + 1) * e1);
                sum1 += w * sh;
                if (w * sh > max1)
                    max1 = w * sh;
            }
            long dr = rank[p] - rank[j];
            if (dr > 0 && (double)dr * e2.v < MAX_EFOLD) {
                grp_dual w = gd_scale(gd_exp(gd_scale(e2, -(double)dr)), shd);
                sum2 = gd_add(sum2, w);
                if (w.v > max2.v)
                    max2 = w;
            }
        }
        grp_dual o1 = l1_overlap(m, p, P[TRAPEZE_GROUP_THETA], max1, sum1);
        grp_dual o2 = overlap(P[TRAPEZE_GROUP_THETA], max2, sum2, m->fd[p]);
        int q = g->group[p];
        o1_total = gd_add(o1_total, o1);
        o2_total = gd_add(o2_total, o2);
        o1_q[q] = gd_add(o1_q[q], o1);
        o2_q[q] = gd_add(o2_q[q], o2);
        f_total += m->f[p];
        f_q[q] += m->f[p];
        fd_total += m->fd[p];
        fd_q[q] += m->fd[p];
    }
    /* the busiest queue's L2 accesses and DRAM reads (first of equals) */
    grp_dual l2_max = gd_const(0), dram_max = gd_const(0);
    for (int q = 0; q < g->n_groups; q++) {
        grp_dual l2 = gd_mul(P[TRAPEZE_GROUP_MU],
                             gd_sub(gd_const(f_q[q]), gd_mul(P[TRAPEZE_GROUP_ETA1], o1_q[q])));
        grp_dual dr = gd_mul(P[TRAPEZE_GROUP_NU],
                             gd_sub(gd_const(fd_q[q]), gd_mul(P[TRAPEZE_GROUP_ETA2], o2_q[q])));
        if (l2.v > l2_max.v)
            l2_max = l2;
        if (dr.v > dram_max.v)
            dram_max = dr;
    }
    free(o1_q);
    free(o2_q);
    free(f_q);
    free(fd_q);
    long qmax = 0;
    for (int k = 0; k < g->n_groups; k++)
        if (qlen[k] > qmax)
            qmax = qlen[k];
    free(launch);
    free(rank);
    free(qlen);

    out->l1_hits = gd_mul(P[TRAPEZE_GROUP_ETA1], o1_total);
    /* a line a TB need not fetch itself saves every access to it (mu) */
    out->l2 = gd_mul(P[TRAPEZE_GROUP_MU], gd_sub(gd_const(f_total), out->l1_hits));
    out->l1_hits = gd_mul(P[TRAPEZE_GROUP_MU], out->l1_hits);
    /* every datum comes from DRAM once: no grouping reads less than the
     * launch's distinct data, about n fresh (the union of pairwise overlaps
     * credits a TB each earlier share, and under-counted round-robin's
     * Jacobi 2048^2 reads by 39% where every policy's run reads the same) */
    out->dram = gd_mul(P[TRAPEZE_GROUP_NU],
                       gd_sub(gd_const(fd_total), gd_mul(P[TRAPEZE_GROUP_ETA2], o2_total)));
    grp_dual compulsory = gd_scale(P[TRAPEZE_GROUP_NU], (double)n * m->fresh);
    if (compulsory.v > out->dram.v)
        out->dram = compulsory;
    out->max_queue = (double)qmax;
    out->waves = qmax > x ? (double)qmax / x : 1.0;
    out->l2_max = l2_max;
    out->dram_max = dram_max;
    out->tc = gd_scale(P[TRAPEZE_GROUP_CWAVE], out->waves);
    out->tsm = gd_scale(P[TRAPEZE_GROUP_TSM], out->max_queue);
    out->t2 = gd_mul(P[TRAPEZE_GROUP_TL2], l2_max);
    out->td = gd_mul(P[TRAPEZE_GROUP_TDRAM], dram_max);
    const double rate = m->m.dram_reads_per_cycle;
    const double atom = m->m.dram_read_transfers > 1 ? m->m.dram_read_transfers : 1;
    out->tg = rate > 0 ? gd_scale(gd_add(gd_scale(out->dram, atom), gd_const(m->writes)), 1 / rate)
                       : gd_const(0);
    grp_dual q = gd_div(gd_const(1), gd_sub(gd_const(1), P[TRAPEZE_GROUP_OVERLAP]));
    const grp_dual times[GRP_NTIMES] = {out->tc, out->tsm, out->t2, out->td};
    out->norm = pnorm(times, q);
    out->cycles = contention(out->norm, out->tg, P[TRAPEZE_GROUP_CONTENTION]);
    /* the whole GPU's L2: every queue's accesses through all slices at once,
     * which a sub-grid of one or three SMs never loads (off unless measured) */
    const double rate2 = m->m.l2_accesses_per_cycle;
    out->t2g = gd_const(0);
    if (m->p.l2_contention >= 0 && rate2 > 0) {
        out->t2g = gd_scale(gd_add(out->l2, gd_const(m->writes)), 1 / rate2);
        out->cycles = contention(out->cycles, out->t2g, gd_const(m->p.l2_contention));
    }
    return TRAPEZE_OK;
}

#ifndef GRP_VALUES_ONLY
static void copy_grad(double *dst, const grp_dual *d)
{
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++)
        dst[k] = d->d[GRP_VAR_PARAM0 + k];
}
#endif

trapeze_status trapeze_group_evaluate(const trapeze_group_model *m, const trapeze_grouping *g,
                                      trapeze_group_eval *out, trapeze_error *err)
{
    grp_duals d;
    memset(out, 0, sizeof *out);
    trapeze_status s = grp_evaluate_duals(m, m->p.value, g, &d, err);
    if (s != TRAPEZE_OK)
        return s;
    out->l1_shared_hits = d.l1_hits.v;
    out->l2_accesses = d.l2.v;
    out->dram_reads = d.dram.v;
    out->max_queue = d.max_queue;
    out->t_compute = d.tc.v;
    out->t_sm = d.tsm.v;
    out->t_l2 = d.t2.v;
    out->t_dram = d.td.v;
    out->t_gpu_dram = d.tg.v;
    out->t_gpu_l2 = d.t2g.v;
    out->t_norm = d.norm.v;
    out->cycles = d.cycles.v;
#ifndef GRP_VALUES_ONLY   /* model/group_values.c: no lanes to copy */
    copy_grad(out->dl2_dparam, &d.l2);
    copy_grad(out->ddram_dparam, &d.dram);
    copy_grad(out->dcycles_dparam, &d.cycles);
#endif
    return TRAPEZE_OK;
}
