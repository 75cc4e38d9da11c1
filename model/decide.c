/*
 * decide.c - the integer decision: every valid (sync mode, h) ranked by the
 * model's CPL, and the uncertainty of each candidate's CPL difference from
 * the best, propagated from the calibration's covariance (standard errors
 * and correlations of the fitted constants) through the model's analytic
 * gradient: var(CPL_b - CPL_a) = g' S g, g = dCPL_b/dtheta - dCPL_a/dtheta.
 *
 * The order of verification is here too: which candidates to simulate, and
 * the search along h that follows them (trapeze_ghostzone_verify_next).
 *
 * Owns ranking and uncertainty only; the equations are ghostzone.c's, and it
 * must not simulate (verifying candidates by simulation is the sampler's).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static int by_cpl(const void *a, const void *b)
{
    const trapeze_ghostzone_choice *x = a, *y = b;
    if (x->cpl_model != y->cpl_model)
        return x->cpl_model < y->cpl_model ? -1 : 1;
    if (x->sync != y->sync)
        return x->sync < y->sync ? -1 : 1; /* ties: relaunch, then the lower h */
    return x->h - y->h;
}

/* sqrt(g' S g) for the gradient difference g, S from stderr_ and corr. */
static double difference_sd(const trapeze_ghostzone_params *p, const double *ga, const double *gb)
{
    double var = 0;
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
        double gk = (gb[k] - ga[k]) * p->stderr_[k];
        if (gk == 0)
            continue;
        for (int l = 0; l < TRAPEZE_GHOSTZONE_NPARAMS; l++) {
            double gl = (gb[l] - ga[l]) * p->stderr_[l];
            var += gk * gl * (k == l ? 1.0 : p->corr[k][l]);
        }
    }
    return var > 0 ? sqrt(var) : 0;
}

int trapeze_ghostzone_verify_order(trapeze_ghostzone_choice *c, int n, int k)
{
    if (k > n)
        k = n;
    if (k < 2)
        return k < 0 ? 0 : k;
    for (int i = 1; i < k; i++)
        if (c[i].sync != c[0].sync)
            return k; /* both modes are among the k best already */
    int other = k;
    while (other < n && c[other].sync == c[0].sync)
        other++;
    if (other == n)
        return k; /* one mode only */
    trapeze_ghostzone_choice moved = c[other];
    memmove(c + k + 1, c + k, (size_t)(other - k) * sizeof *c); /* k..other-1 down one */
    c[k] = moved;
    return k + 1;
}

/* Index distance from position p to the nearest simulated candidate of
 * idx[0..m-1] in direction d (0 when none). */
static int nearest_simulated(const trapeze_ghostzone_choice *c, const int *idx, int m, int p, int d)
{
    for (int j = p + d; j >= 0 && j < m; j += d)
        if (c[idx[j]].cpl_sim > 0)
            return j > p ? j - p : p - j;
    return 0;
}

/* The position beyond p in direction d whose h is nearest target (at least
 * one step away from p). */
static int toward(const trapeze_ghostzone_choice *c, const int *idx, int m, int p, int d, int target)
{
    int best = p + d;
    for (int j = p + d; j >= 0 && j < m; j += d)
        if (abs(c[idx[j]].h - target) < abs(c[idx[best]].h - target))
            best = j;
    return best;
}

/* The next probe from position p in direction d, or -1 when that side is done.
 * Unexplored sides are searched in h (costs and curves scale with it): while
 * the model's ranking holds, half as far again (h 15 -> 23, the V100's
 * PathFinder, whose simulated curve dips at 15 and is lowest at 31); once it
 * has not, twice the distance just travelled. */
static int probe(const trapeze_ghostzone_choice *c, const int *idx, int m, int p, int d, int agrees)
{
    int room = d > 0 ? m - 1 - p : p;
    int r = nearest_simulated(c, idx, m, p, d);
    if (room == 0 || r == 1)
        return -1; /* an end, or a slower neighbour: p is a local optimum that way */
    if (r > 1) {
        if (c[idx[p + d * r]].cpl_sim <= c[idx[p]].cpl_sim * (1 + TRAPEZE_GHOSTZONE_VERIFY_FLAT))
            return -1; /* flat between: little to gain */
        return idx[p + d * (r / 2)];
    }
    int h = c[idx[p]].h, back = nearest_simulated(c, idx, m, p, -d);
    int travelled = back ? abs(h - c[idx[p - d * back]].h) : 1;
    int step = agrees ? (h + 1) / 2 : 2 * travelled;
    return idx[toward(c, idx, m, p, d, h + d * (step > 0 ? step : 1))];
}

/* The fastest simulated candidate (of one sync mode; sync < 0: of any), or -1. */
static int fastest(const trapeze_ghostzone_choice *c, int n, int sync)
{
    int b = -1;
    for (int i = 0; i < n; i++)
        if (c[i].cpl_sim > 0 && (sync < 0 || (int)c[i].sync == sync) &&
            (b < 0 || c[i].cpl_sim < c[b].cpl_sim))
            b = i;
    return b;
}

/* The next probe in one sync mode, from that mode's fastest simulated run,
 * or -1 when that mode is done (or has no simulated run). idx: scratch of n. */
static int search_mode(const trapeze_ghostzone_choice *c, int n, trapeze_sync sync, int *idx)
{
    int b = fastest(c, n, (int)sync), a = -1, m = 0; /* a: the model's best simulated of the mode */
    if (b < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (c[i].sync != sync)
            continue;
        if (c[i].cpl_sim > 0 && (a < 0 || c[i].cpl_model < c[a].cpl_model))
            a = i;
        int j = m++; /* the mode by h (insertion: qsort has no context in C11) */
        for (; j > 0 && c[idx[j - 1]].h > c[i].h; j--)
            idx[j] = idx[j - 1];
        idx[j] = i;
    }
    int p = 0;
    while (idx[p] != b)
        p++;
    int agrees = b == a; /* the simulation has not contradicted the model's ranking in this mode */
    int next = probe(c, idx, m, p, +1, agrees);
    return next >= 0 ? next : probe(c, idx, m, p, -1, agrees);
}

int trapeze_ghostzone_verify_next(const trapeze_ghostzone_choice *c, int n)
{
    int b = fastest(c, n, -1); /* its mode is searched first */
    int *idx = b < 0 ? NULL : malloc((size_t)n * sizeof *idx);
    if (!idx)
        return -1;
    /* Then the other mode from its own fastest run: the sync mode is the
     * decision the model misses most, and a mode whose best simulated height
     * is off the optimum can lose to the other by less than its own curve's
     * error (the V100's Multi1D at 100x: fence 7 within 0.07% of relaunch 6,
     * fence 5 4% faster than both). */
    trapeze_sync other = c[b].sync == TRAPEZE_SYNC_FENCE ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
    int next = search_mode(c, n, c[b].sync, idx), o = fastest(c, n, (int)other);
    if (next < 0 && o >= 0 && c[o].cpl_sim <= c[b].cpl_sim * (1 + TRAPEZE_GHOSTZONE_VERIFY_OTHER))
        next = search_mode(c, n, other, idx);
    free(idx);
    return next;
}

trapeze_status trapeze_ghostzone_rank(const trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p, int blk_len,
                                      trapeze_ghostzone_choice **out, int *n, trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    int hmax = trapeze_ghostzone_max_height(m, blk_len);
    if (hmax < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: block edge %d admits no height (5.20)",
                            trapeze_ghostzone_workload(m)->name, blk_len);
    trapeze_ghostzone_choice *c = calloc((size_t)(2 * hmax), sizeof *c);
    double (*grad)[TRAPEZE_GHOSTZONE_NPARAMS] = calloc((size_t)(2 * hmax), sizeof *grad);
    if (!c || !grad) {
        free(c);
        free(grad);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; i < 2 * hmax && !s; i++) {
        trapeze_ghostzone_eval e;
        c[i].sync = i < hmax ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
        c[i].h = 1 + i % hmax;
        s = trapeze_ghostzone_evaluate(m, c[i].sync, c[i].h, blk_len, &e, err);
        c[i].cpl_model = e.cpl;
        c[i].index = i;
        memcpy(grad[i], e.dcpl_dparam, sizeof grad[i]);
    }
    if (!s) {
        qsort(c, (size_t)(2 * hmax), sizeof *c, by_cpl);
        for (int i = 0; i < 2 * hmax; i++)
            c[i].diff_sd = i ? difference_sd(p, grad[c[0].index], grad[c[i].index]) : 0;
        *out = c;
        *n = 2 * hmax;
    } else {
        free(c);
    }
    free(grad);
    return s;
}
