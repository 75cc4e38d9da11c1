/*
 * idle_fit.c - a smooth idle-period distribution for the sleep model: the
 * observed counts of short periods (point masses, where short windows see
 * plenty) and, beyond, a two-component log-normal mixture fitted by binned
 * maximum likelihood, so that a sample's sparse tail is extrapolated rather
 * than taken as zero. Owns the fit and its goodness-of-fit figures (the
 * Kolmogorov-Smirnov distance); must not know power modes or policies.
 *
 * The tail's likelihood is multinomial over the CSV's buckets: bucket
 * [lo, hi] of the mixture has probability F(hi + 0.5) - F(lo - 0.5) (the
 * continuous lengths that round into it), divided by 1 - F(short_max + 0.5).
 * Parameters are unconstrained (logit weight, mu, log sigma), so
 * Nelder-Mead needs no bounds.
 */
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define NPAR 5
#define MAX_STEPS 4000

typedef struct {
    const double *count;   /* one kind's buckets */
    int short_max;
    /* ln of each bucket's lower edge (lo - 0.5) and, last, of the top edge:
     * bucket b spans log_edge[b] to log_edge[b + 1], since lo of b + 1 is
     * hi of b plus one. Taken once a fit, not in each of Nelder-Mead's
     * thousands of evaluations, which then compute each edge's CDF once. */
    double log_edge[TRAPEZE_IDLE_NBUCKETS + 1];
} tail_data;

/* The log-normal CDF at x from ln x (x > 0), so that a fixed x's log is taken once. */
static double lognormal_cdf_log(double log_x, double mu, double sigma)
{
    return 0.5 * erfc(-(log_x - mu) / (sigma * M_SQRT2));
}

static double lognormal_cdf(double x, double mu, double sigma)
{
    if (x <= 0)
        return 0;
    return lognormal_cdf_log(log(x), mu, sigma);
}

static void unpack(const double *x, double *w, double mu[2], double sg[2])
{
    *w = 1.0 / (1.0 + exp(-x[0]));
    mu[0] = x[1];
    sg[0] = exp(x[2]);
    mu[1] = x[3];
    sg[1] = exp(x[4]);
}

static double mixture_cdf(double x, double w, const double mu[2], const double sg[2])
{
    return w * lognormal_cdf(x, mu[0], sg[0]) + (1 - w) * lognormal_cdf(x, mu[1], sg[1]);
}

static double mixture_cdf_log(double log_x, double w, const double mu[2], const double sg[2])
{
    return w * lognormal_cdf_log(log_x, mu[0], sg[0]) +
           (1 - w) * lognormal_cdf_log(log_x, mu[1], sg[1]);
}

static void set_log_edges(tail_data *d)
{
    double lo, hi;
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        trapeze_idle_bucket_range(b, &lo, &hi);
        d->log_edge[b] = log(lo - 0.5);
    }
    d->log_edge[TRAPEZE_IDLE_NBUCKETS] = log(hi + 0.5);
}

/* Probability of bucket b given a period longer than short_max. */
static double bucket_prob(int b, int short_max, double w, const double mu[2], const double sg[2])
{
    double lo, hi;
    trapeze_idle_bucket_range(b, &lo, &hi);
    double rest = 1 - mixture_cdf(short_max + 0.5, w, mu, sg);
    double p = mixture_cdf(hi + 0.5, w, mu, sg) - mixture_cdf(lo - 0.5, w, mu, sg);
    return rest > 0 ? p / rest : 0;
}

/* bucket_prob's arithmetic, to the bit, with each edge's CDF computed once:
 * the tail's normaliser once a call, and a bucket's lower edge taken from
 * the bucket below when that one was counted too. */
static double neg_log_likelihood(const gsl_vector *v, void *ctx)
{
    const tail_data *d = ctx;
    double w, mu[2], sg[2];
    unpack(v->data, &w, mu, sg);
    double rest = 1 - mixture_cdf_log(d->log_edge[d->short_max], w, mu, sg);
    double nll = 0, below = 0;
    int below_b = -2;
    for (int b = d->short_max; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        if (!(d->count[b] > 0))
            continue;
        double lo = below_b == b - 1 ? below : mixture_cdf_log(d->log_edge[b], w, mu, sg);
        double hi = mixture_cdf_log(d->log_edge[b + 1], w, mu, sg);
        double p = rest > 0 ? (hi - lo) / rest : 0;
        nll -= d->count[b] * log(fmax(p, 1e-300));
        below = hi;
        below_b = b;
    }
    return nll;
}

/* Moments of ln(length) over the tail: the starting point. */
static void start_point(const tail_data *d, double *x)
{
    double n = 0, s = 0, s2 = 0;
    for (int b = d->short_max; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        double l = log(trapeze_idle_bucket_length(b));
        n += d->count[b];
        s += d->count[b] * l;
        s2 += d->count[b] * l * l;
    }
    double mean = s / n, sd = sqrt(fmax(s2 / n - mean * mean, 0.01));
    x[0] = 0;
    x[1] = mean - 0.5 * sd;
    x[2] = log(fmax(0.7 * sd, 0.1));
    x[3] = mean + 0.5 * sd;
    x[4] = log(fmax(0.7 * sd, 0.1));
}

static trapeze_status fit_kind(const tail_data *d, double *x, int *steps, trapeze_error *err)
{
    gsl_multimin_function f = {.n = NPAR, .f = neg_log_likelihood, .params = (void *)d};
    gsl_vector *v = gsl_vector_alloc(NPAR), *step = gsl_vector_alloc(NPAR);
    gsl_multimin_fminimizer *mm =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, NPAR);
    if (!v || !step || !mm) {
        gsl_vector_free(v);
        gsl_vector_free(step);
        gsl_multimin_fminimizer_free(mm);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "idle-period fit: out of memory");
    }
    start_point(d, x);
    for (int i = 0; i < NPAR; i++) {
        gsl_vector_set(v, i, x[i]);
        gsl_vector_set(step, i, 0.5);
    }
    gsl_multimin_fminimizer_set(mm, &f, v, step);
    int status = GSL_CONTINUE, it = 0;
    while (status == GSL_CONTINUE && it < MAX_STEPS) {
        it++;
        if (gsl_multimin_fminimizer_iterate(mm))
            break;
        status = gsl_multimin_test_size(gsl_multimin_fminimizer_size(mm), 1e-7);
    }
    for (int i = 0; i < NPAR; i++)
        x[i] = gsl_vector_get(mm->x, i);
    *steps += it;
    double fval = mm->fval;
    gsl_vector_free(v);
    gsl_vector_free(step);
    gsl_multimin_fminimizer_free(mm);
    if (!isfinite(fval))
        return trapeze_fail(err, TRAPEZE_EFAIL, "idle-period fit: the likelihood is not finite");
    return TRAPEZE_OK;
}

/* Largest distance between the cumulative counts of a and b, as fractions. */
static double ks_distance(const trapeze_idle_hist *a, const trapeze_idle_hist *b, int kind)
{
    double na = trapeze_idle_hist_periods(a, kind), nb = trapeze_idle_hist_periods(b, kind);
    if (na <= 0 || nb <= 0)
        return 0;
    double ca = 0, cb = 0, worst = 0;
    for (int bk = 0; bk < TRAPEZE_IDLE_NBUCKETS; bk++) {
        for (int k = 0; k < TRAPEZE_NEXT_N; k++)
            if (kind < 0 || k == kind) {
                ca += a->count[k][bk];
                cb += b->count[k][bk];
            }
        worst = fmax(worst, fabs(ca / na - cb / nb));
    }
    return worst;
}

trapeze_status trapeze_idle_hist_fit(const trapeze_idle_hist *h, int short_max, double min_tail,
                                     trapeze_idle_fit *fit, trapeze_idle_hist *smoothed,
                                     trapeze_error *err)
{
    memset(fit, 0, sizeof *fit);
    if (short_max < 0 || short_max >= TRAPEZE_IDLE_EXACT)
        return trapeze_fail(err, TRAPEZE_ERANGE, "idle-period fit: short_max %d not in 0..%d",
                            short_max, TRAPEZE_IDLE_EXACT - 1);
    fit->short_max = short_max;
    trapeze_idle_hist *out = smoothed ? smoothed : malloc(sizeof *out);
    if (!out)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "idle-period fit: out of memory");
    *out = *h;
    trapeze_status s = TRAPEZE_OK;
    tail_data d = {.short_max = short_max};
    set_log_edges(&d);
    for (int k = 0; k < TRAPEZE_NEXT_N; k++) {
        d.count = h->count[k];
        for (int b = short_max; b < TRAPEZE_IDLE_NBUCKETS; b++)
            fit->tail_periods[k] += h->count[k][b];
        if (fit->tail_periods[k] < min_tail || fit->tail_periods[k] <= 0)
            continue;
        double x[NPAR];
        if ((s = fit_kind(&d, x, &fit->iterations, err)))
            break;
        double w, mu[2], sg[2];
        unpack(x, &w, mu, sg);
        /* The narrower component first, so that reports read the same. */
        int swap = mu[0] > mu[1];
        fit->weight[k] = swap ? 1 - w : w;
        for (int c = 0; c < 2; c++) {
            fit->mu[k][c] = mu[c ^ swap];
            fit->sigma[k][c] = sg[c ^ swap];
        }
        fit->fitted[k] = 1;
        for (int b = short_max; b < TRAPEZE_IDLE_NBUCKETS; b++)
            out->count[k][b] = fit->tail_periods[k] * bucket_prob(b, short_max, w, mu, sg);
    }
    for (int k = 0; k < TRAPEZE_NEXT_N; k++)
        fit->ks[k] = ks_distance(h, out, k);
    fit->ks_all = ks_distance(h, out, -1);
    if (out != smoothed)
        free(out);
    return s;
}
