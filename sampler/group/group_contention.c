/*
 * group_contention.c - the grouping model's DRAM contention beta measured on
 * whole runs: the one value in [0, 1] whose cycles
 * (trapeze_group_contention_cycles) fit a set of runs best in log terms.
 * Owns that one-dimensional fit only: which runs it sees (held out over
 * launches) is the caller's (cli/calib_group.c); the equation is model/'s.
 */
#include <math.h>

#include "common/error.h"
#include "sampler/group/group_contention.h"
#include "trapeze.h"

/* Only runs whose whole-GPU DRAM time is at least this share of the queue's
 * time tell beta: where Tg is small beta moves the cycles by about beta Tg,
 * and a run's error there is the queue model's, which beta would absorb. */
#define CONTENDED 0.5

/* The sum of squared log errors at beta over the usable points. */
static double sse(const double *norm, const double *tg, const double *sim, long n, double beta)
{
    double s = 0;
    for (long i = 0; i < n; i++) {
        if (!(tg[i] >= CONTENDED * norm[i]) || !(tg[i] > 0) || !(sim[i] > 0) || !(norm[i] > 0))
            continue;
        double e = log(trapeze_group_contention_cycles(norm[i], tg[i], beta) / sim[i]);
        s += e * e;
    }
    return s;
}

#define GRID 200

double trapeze_group_minimize_unit(double (*f)(const void *ctx, double x), const void *ctx)
{
    int best = 0;
    double best_v = f(ctx, 0);
    for (int k = 1; k <= GRID; k++) {
        double v = f(ctx, (double)k / GRID);
        if (v < best_v) {
            best_v = v;
            best = k;
        }
    }
    double lo = best > 0 ? (double)(best - 1) / GRID : 0;
    double hi = best < GRID ? (double)(best + 1) / GRID : 1;
    const double g = (sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = f(ctx, a), fb = f(ctx, b);
    for (int it = 0; it < 60; it++) {
        if (fa <= fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(ctx, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(ctx, b);
        }
    }
    double mid = (lo + hi) / 2;
    return f(ctx, mid) < best_v ? mid : (double)best / GRID;
}

typedef struct {
    const double *norm, *tg, *sim;
    long n;
} runs;

static double runs_sse(const void *ctx, double beta)
{
    const runs *r = ctx;
    return sse(r->norm, r->tg, r->sim, r->n, beta);
}

trapeze_status trapeze_group_fit_contention(const double *norm, const double *tg,
                                            const double *sim, long n, double *beta,
                                            trapeze_error *err)
{
    *beta = 0;
    for (long i = 0; i < n; i++)
        if (!(norm[i] >= 0) || !(tg[i] >= 0) || !(sim[i] >= 0) || !isfinite(norm[i]) ||
            !isfinite(tg[i]) || !isfinite(sim[i]))
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "DRAM contention fit: point %ld (norm %g, DRAM time %g, run %g): "
                                "need finite values >= 0", i, norm[i], tg[i], sim[i]);
    const runs r = {norm, tg, sim, n};
    *beta = trapeze_group_minimize_unit(runs_sse, &r);
    return TRAPEZE_OK;
}
