/*
 * dram_rows.c - the DRAM rows a grouping scatters: which TBs run together
 * (each queue's x-wide waves), how many runs of consecutive TBs they form,
 * the time those rows cost beside the whole launch's DRAM time, its
 * correction of a candidate's cycles, and that cost fitted to whole runs'
 * gains over rr, with the launches that identify it. The volume of a launch's traffic does not tell k-way-TS and
 * RB-TS from rr (priced at the runs' own L2 accesses and DRAM reads they
 * rank first where they lose); their runs open DRAM rows 7-12 times as
 * often (docs/grouping.md, "What the whole runs' counters say"). Must not
 * simulate: the stripe is group_problem.c's, the decision group_decide.c's.
 */
#include <math.h>

#include "common/error.h"
#include "sampler/group/group_contention.h"
#include "trapeze.h"

/* The most cycles a grouping pays per cycle of its rows' time: the search
 * runs over [0, 1], scaled to it. */
#define KAPPA_MAX 4.0

double trapeze_group_row_spread(const trapeze_grouping *g, int grid_x, int tbs_per_sm)
{
    if (!g || g->n_tbs <= 0)
        return 0;
    const long x = tbs_per_sm > 0 ? tbs_per_sm : 1;
    const long gx = grid_x > 0 ? grid_x : g->n_tbs;
    long starts = 0;
    for (long p = 0; p < g->n_tbs; p++)
        starts += p % gx == 0 || g->order[p - 1] / x != g->order[p] / x;
    return (double)starts / (double)g->n_tbs;
}

double trapeze_group_row_time(double spread, double dram_reads, double stripe_bytes,
                              double t_gpu_dram)
{
    const double bytes = 32 * dram_reads;
    if (!(stripe_bytes > 0) || !(bytes > stripe_bytes) || !(spread > 0) || !(t_gpu_dram > 0))
        return 0;
    return spread * (1 - stripe_bytes / bytes) * t_gpu_dram;
}

double trapeze_group_row_factor(double cycles, double t_row, double kappa)
{
    if (kappa < 0 || !(cycles > 0))
        return 1;
    return (cycles + kappa * t_row) / cycles;
}

typedef struct {
    const double *pred, *t_row, *sim;
    long n;
    int n_cand;
} gains;

static int usable(const gains *g, long j)
{
    for (int c = 0; c < g->n_cand; c++) {
        const long k = j * g->n_cand + c;
        if (!(g->pred[k] > 0) || !(g->sim[k] > 0) || g->t_row[k] < 0)
            return 0;
    }
    return 1;
}

/* How far launch j's gains move with kappa, at kappa 1: the largest
 * |ln((1 + a_c) / (1 + a_rr))|, a = t_row / pred; 0 (no kappa moves them)
 * only where every a_c = a_rr, or the launch is skipped. */
static double kappa_moves(const gains *g, long j)
{
    if (!usable(g, j))
        return 0;
    const long r = j * g->n_cand;
    const double rr = trapeze_group_row_factor(g->pred[r], g->t_row[r], 1);
    double most = 0;
    for (int c = 1; c < g->n_cand; c++) {
        const double m =
            fabs(log(trapeze_group_row_factor(g->pred[r + c], g->t_row[r + c], 1) / rr));
        most = m > most ? m : most;
    }
    return most;
}

/* The sum of squared log gain errors at kappa = KAPPA_MAX x. */
static double gains_sse(const void *ctx, double x)
{
    const gains *g = ctx;
    const double kappa = KAPPA_MAX * x;
    double s = 0;
    for (long j = 0; j < g->n; j++) {
        if (!usable(g, j))
            continue;
        const long r = j * g->n_cand;
        const double rr = g->pred[r] * trapeze_group_row_factor(g->pred[r], g->t_row[r], kappa);
        for (int c = 1; c < g->n_cand; c++) {
            const double p = g->pred[r + c] *
                             trapeze_group_row_factor(g->pred[r + c], g->t_row[r + c], kappa);
            const double e = log((p / rr) / (g->sim[r + c] / g->sim[r]));
            s += e * e;
        }
    }
    return s;
}

trapeze_status trapeze_group_fit_row_cost(const double *pred, const double *t_row,
                                          const double *sim, long n, int n_cand, double *kappa,
                                          trapeze_error *err)
{
    *kappa = 0;
    for (long k = 0; k < n * n_cand; k++)
        if (!isfinite(pred[k]) || !isfinite(t_row[k]) || !isfinite(sim[k]))
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "DRAM rows' cost fit: launch %ld candidate %ld (predicted %g, "
                                "rows' time %g, run %g): need finite values", k / n_cand,
                                k % n_cand, pred[k], t_row[k], sim[k]);
    const gains g = {pred, t_row, sim, n, n_cand};
    *kappa = KAPPA_MAX * trapeze_group_minimize_unit(gains_sse, &g);
    return TRAPEZE_OK;
}

long trapeze_group_row_cost_launches(const double *pred, const double *t_row, const double *sim,
                                     long n, int n_cand, double *moves)
{
    const gains g = {pred, t_row, sim, n, n_cand};
    long count = 0;
    for (long j = 0; j < n; j++) {
        const double m = kappa_moves(&g, j);
        count += m > 0;
        if (moves)
            moves[j] = m;
    }
    return count;
}
