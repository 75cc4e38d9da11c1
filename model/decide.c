/*
 * decide.c - the integer decision: every valid (sync mode, h) ranked by the
 * model's CPL, and the uncertainty of each candidate's CPL difference from
 * the best, propagated from the calibration's covariance (standard errors
 * and correlations of the fitted constants) through the model's analytic
 * gradient: var(CPL_b - CPL_a) = g' S g, g = dCPL_b/dtheta - dCPL_a/dtheta.
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
    const trapeze_gz_choice *x = a, *y = b;
    if (x->cpl_model != y->cpl_model)
        return x->cpl_model < y->cpl_model ? -1 : 1;
    if (x->sync != y->sync)
        return x->sync < y->sync ? -1 : 1; /* ties: relaunch, then the lower h */
    return x->h - y->h;
}

/* sqrt(g' S g) for the gradient difference g, S from stderr_ and corr. */
static double difference_sd(const trapeze_gz_params *p, const double *ga, const double *gb)
{
    double var = 0;
    for (int k = 0; k < TRAPEZE_GZ_NPARAMS; k++) {
        double gk = (gb[k] - ga[k]) * p->stderr_[k];
        if (gk == 0)
            continue;
        for (int l = 0; l < TRAPEZE_GZ_NPARAMS; l++) {
            double gl = (gb[l] - ga[l]) * p->stderr_[l];
            var += gk * gl * (k == l ? 1.0 : p->corr[k][l]);
        }
    }
    return var > 0 ? sqrt(var) : 0;
}

int trapeze_gz_verify_order(trapeze_gz_choice *c, int n, int k)
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
    trapeze_gz_choice moved = c[other];
    memmove(c + k + 1, c + k, (size_t)(other - k) * sizeof *c); /* k..other-1 down one */
    c[k] = moved;
    return k + 1;
}

trapeze_status trapeze_gz_rank(const trapeze_gz_model *m, const trapeze_gz_params *p, int blk_len,
                               trapeze_gz_choice **out, int *n, trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    int hmax = trapeze_gz_max_height(m, blk_len);
    if (hmax < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: block edge %d admits no height (5.20)",
                            trapeze_gz_workload(m)->name, blk_len);
    trapeze_gz_choice *c = calloc((size_t)(2 * hmax), sizeof *c);
    double (*grad)[TRAPEZE_GZ_NPARAMS] = calloc((size_t)(2 * hmax), sizeof *grad);
    if (!c || !grad) {
        free(c);
        free(grad);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; i < 2 * hmax && !s; i++) {
        trapeze_gz_eval e;
        c[i].sync = i < hmax ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
        c[i].h = 1 + i % hmax;
        s = trapeze_gz_evaluate(m, c[i].sync, c[i].h, blk_len, &e, err);
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
