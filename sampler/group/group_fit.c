/*
 * group_fit.c - calibrating the grouping model: every measured observable
 * of every observed grouping becomes one point of the generic fit
 * (sampler/fit.c) through the model's ops table (model/group_model.c).
 * Owns the mapping from observations to fit points only.
 */
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/group.h"
#include "sampler/fit.h"

/* The fit points of the outputs in `outputs` (bit per grp_output). */
static int make_points(const trapeze_group_observation *obs, int n, unsigned outputs,
                       grp_memo *memo, grp_instance *inst, trapeze_fit_point *pts)
{
    int np = 0;
    for (int i = 0; i < n; i++) {
        const double measured[GRP_NOUTPUTS] = {obs[i].cycles, obs[i].l2_accesses,
                                               obs[i].dram_reads};
        for (int o = 0; o < GRP_NOUTPUTS; o++) {
            if (!(outputs >> o & 1) || !(measured[o] > 0))
                continue;
            inst[np] = (grp_instance){obs[i].model, obs[i].grouping, (grp_output)o, &memo[i]};
            pts[np].model = grp_as_model(&inst[np]);
            pts[np].measured = measured[o];
            np++;
        }
    }
    return np;
}

/* Starting values of the timing constants: cycles ~ cwave max(1, Q/x) +
 * tsm Q + tl2 l2_max + tdram dram_max (omega = 0, the sum; the busiest
 * queue's) by non-negative linear least squares on relative residuals, at
 * the current cache constants: every subset of the four terms is solved and the best
 * with positive coefficients kept, the terms left out set to 0 (a latency-
 * bound launch whose time does not follow its accesses gets tl2 = tdram =
 * 0 rather than a negative value refused and a default kept, from where
 * the trust region stalled at cwave = 0: atax on one SM). Without it the
 * trust region starts where one time dominates the others and can step
 * into overflow. Only the times whose constant is in `mask` take part;
 * with `only`, that subset alone. Returns whether a start was found. */
#define NT 4 /* the times: waves, queue, L2, DRAM */
static const int time_param[NT] = {TRAPEZE_GROUP_CWAVE, TRAPEZE_GROUP_TSM, TRAPEZE_GROUP_TL2,
                                   TRAPEZE_GROUP_TDRAM};

/* The constants of the times in subset `set` (bit c: time c). */
static unsigned long time_subset(int set)
{
    unsigned long in = 0;
    for (int c = 0; c < NT; c++)
        if (set >> c & 1)
            in |= TRAPEZE_GROUP_MASK(time_param[c]);
    return in;
}

static int timing_start(const trapeze_group_observation *obs, int n, unsigned long mask,
                        unsigned long only, trapeze_group_params *p)
{
    double (*x)[NT] = calloc((size_t)(n > 0 ? n : 1), sizeof *x);
    int used = 0;
    for (int i = 0; x && i < n; i++) {
        grp_duals d;
        if (!(obs[i].cycles > 0) ||
            grp_evaluate_duals(obs[i].model, p->value, obs[i].grouping, &d, NULL))
            continue;
        x[used][0] = d.waves / obs[i].cycles;
        x[used][1] = d.max_queue / obs[i].cycles;
        x[used][2] = d.l2_max.v / obs[i].cycles;
        x[used][3] = d.dram_max.v / obs[i].cycles;
        used++;
    }
    const int *k = time_param;
    double best = HUGE_VAL, best_c[NT] = {0};
    for (int set = 1; set < 1 << NT && used >= 1; set++) {
        int cols[NT], nc = 0;
        for (int c = 0; c < NT; c++)
            if (set >> c & 1)
                cols[nc++] = c;
        unsigned long in = time_subset(set);
        if (nc > used || (in & ~mask) || (only && in != only))
            continue;
        double A[NT * NT] = {0}, b[NT] = {0}, c[NT] = {0};
        for (int i = 0; i < used; i++)
            for (int r = 0; r < nc; r++) {
                b[r] += x[i][cols[r]];
                for (int q = 0; q < nc; q++)
                    A[r * nc + q] += x[i][cols[r]] * x[i][cols[q]];
            }
        gsl_matrix_view Am = gsl_matrix_view_array(A, (size_t)nc, (size_t)nc);
        gsl_vector_view bv = gsl_vector_view_array(b, (size_t)nc);
        gsl_vector *sol = gsl_vector_alloc((size_t)nc);
        gsl_permutation *perm = gsl_permutation_alloc((size_t)nc);
        int sign, ok = sol && perm && gsl_linalg_LU_decomp(&Am.matrix, perm, &sign) == GSL_SUCCESS &&
                       gsl_linalg_LU_solve(&Am.matrix, perm, &bv.vector, sol) == GSL_SUCCESS;
        for (int r = 0; ok && r < nc; r++) {
            c[cols[r]] = gsl_vector_get(sol, r);
            ok = isfinite(c[cols[r]]) && c[cols[r]] > 0 && c[cols[r]] < grp_param_max[k[cols[r]]];
        }
        gsl_vector_free(sol);
        gsl_permutation_free(perm);
        if (!ok)
            continue;
        double res = 0;   /* sum of squared relative residuals: (pred - m) / m */
        for (int i = 0; i < used; i++) {
            double r = -1;
            for (int q = 0; q < NT; q++)
                r += c[q] * x[i][q];
            res += r * r;
        }
        if (res < best) {
            best = res;
            memcpy(best_c, c, sizeof c);
        }
    }
    if (best < HUGE_VAL)
        for (int r = 0; r < NT; r++)
            if (mask & TRAPEZE_GROUP_MASK(k[r]))
                p->value[k[r]] = best_c[r];
    free(x);
    return best < HUGE_VAL;
}

/* One stage: the parameters of `mask` on the values of `outputs`; their
 * standard errors go to p->stderr_, the others' stay. */
static trapeze_status fit_stage(const trapeze_group_observation *obs, int n, unsigned outputs,
                                unsigned long mask, unsigned long primary, grp_memo *memo,
                                grp_instance *inst,
                                trapeze_fit_point *pts,
                                trapeze_group_params *p, trapeze_fit_report *rep,
                                trapeze_error *err)
{
    int np = make_points(obs, n, outputs, memo, inst, pts);
    int nfit = 0;
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++)
        nfit += (int)(mask >> k & 1);
    if (nfit == 0 || np <= nfit)
        return TRAPEZE_OK;   /* nothing to learn here, or too little: the starts stay */
    double se[TRAPEZE_GROUP_NPARAMS];
    /* the scale alone first: with groupings that differ little the others
     * are nearly degenerate and the solver stalls from the defaults */
    trapeze_status s = TRAPEZE_OK;
    if ((mask & primary) && nfit > 1 && np > 1)
        s = trapeze_model_fit(pts, np, mask & primary, p->value, se, NULL, err);
    if (!s)
        s = trapeze_model_fit(pts, np, mask, p->value, se, rep, err);
    for (int k = 0; !s && k < TRAPEZE_GROUP_NPARAMS; k++)
        if (mask >> k & 1)
            p->stderr_[k] = se[k];
    return s;
}

static trapeze_status report(const trapeze_fit_point *pts, int np, unsigned long mask,
                             const double *params, trapeze_fit_report *rep, trapeze_error *err);

/* Two fits of the same sub-grids closer than this in rms on cycles are
 * told apart by noise: sub-grids of the same shape repeat to about 0.15%
 * (V100 syr2k: rr's and MST-TS's, one TB on each SM, 71,143 and 71,039
 * cycles). */
#define TIMING_RMS_TIE 0.001

/* Whether the observations tell Ts (tsm Q) from Tc (cwave max(1, Q/x)):
 * not where every queue holds x or more, as then both follow Q. */
static int tsm_identifiable(const trapeze_group_observation *obs, int n, const double *params)
{
    double ratio = -1;
    for (int i = 0; i < n; i++) {
        grp_duals d;
        if (!(obs[i].cycles > 0) ||
            grp_evaluate_duals(obs[i].model, params, obs[i].grouping, &d, NULL) ||
            !(d.max_queue > 0))
            continue;
        double r = d.waves / d.max_queue;
        if (ratio < 0)
            ratio = r;
        else if (fabs(r - ratio) > 1e-9 * ratio)
            return 1;
    }
    return 0;
}

/* The timing constants of `mask` on cycles: from the linear start without
 * the SM-throughput term (tsm 0), then, when tsm is in `mask`, from each
 * subset of the terms that holds it. The fit with Ts is kept when its rms
 * on cycles is lower or within TIMING_RMS_TIE: Ts is the SM's own, so it
 * carries from a sub-grid to the launch unchanged, where the per-queue L2
 * and DRAM terms shrink as the launch's queues share data through L2 (V100
 * syr2k: both fit its sub-grids to 0.41-0.42%; BCS's launch predicted 31%
 * fast through the DRAM term, 0.6% through Ts). One start is not enough: a
 * term the start leaves at 0 stays at 0, since in the norm (q > 1) its
 * gradient at 0 is 0, and a start with one more term can settle worse than
 * without it (GTX 480 bicg launch 1: 1.96% rms without, 15.8% with). The
 * try without Ts is the fit as it was before Ts. */
static trapeze_status timing_stage(const trapeze_group_observation *obs, int n, unsigned long mask,
                                   grp_memo *memo, grp_instance *inst, trapeze_fit_point *pts,
                                   trapeze_group_params *p, trapeze_error *err)
{
    const unsigned long sm = TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TSM);
    trapeze_group_params best[2] = {*p, *p};   /* [0] without Ts, [1] with */
    double rms[2] = {HUGE_VAL, HUGE_VAL};
    if (make_points(obs, n, 1u << GRP_OUT_CYCLES, memo, inst, pts) == 0)
        return TRAPEZE_OK;   /* no cycles measured: the starts stay */
    int try_sm = (mask & sm) && tsm_identifiable(obs, n, p->value);   /* else Ts is Tc again */
    for (int set = 0; set < (try_sm ? 1 << NT : 1); set++) {   /* 0: without Ts; then a start each */
        unsigned long only = time_subset(set);
        if (set > 0 && (!(only & sm) || (only & ~mask)))
            continue;   /* a start with Ts, of the constants fitted */
        int with = set > 0;
        /* with Ts, the subset's constants alone: the others start at 0 and
         * would stay there, and their zero columns stall the trust region
         * (from cwave 121, tsm 44, tl2 0 it stopped at 6% rms where cwave
         * and tsm alone reach 0: tests/test_group_opt.c) */
        unsigned long fit_mask = with ? only : mask & ~sm;
        trapeze_group_params q = *p;
        for (int c = 0; c < TRAPEZE_GROUP_NPARAMS; c++)   /* the times left out: 0 */
            if ((mask & TRAPEZE_GROUP_MASK(c)) && !(fit_mask & TRAPEZE_GROUP_MASK(c)) &&
                (with || c == TRAPEZE_GROUP_TSM))
                q.value[c] = 0;
        trapeze_group_params lin = q;
        if (!timing_start(obs, n, fit_mask, only, &lin) && with)
            continue;
        for (int c = 0; c < TRAPEZE_GROUP_NPARAMS; c++)
            if (fit_mask & TRAPEZE_GROUP_MASK(c))
                q.value[c] = lin.value[c];
        trapeze_fit_report r;
        trapeze_status s = fit_stage(obs, n, 1u << GRP_OUT_CYCLES, fit_mask,
                                     TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_CWAVE), memo, inst, pts, &q, NULL,
                                     err);
        if (!s) {
            int np = make_points(obs, n, 1u << GRP_OUT_CYCLES, memo, inst, pts);
            s = report(pts, np, fit_mask, q.value, &r, err);
        }
        if (s)
            return s;
        if (r.rms_rel_error < rms[with]) {
            rms[with] = r.rms_rel_error;
            best[with] = q;
        }
    }
    *p = rms[1] < rms[0] + TIMING_RMS_TIE ? best[1] : best[0];
    return TRAPEZE_OK;
}

/* The report over every value at the fitted constants. */
static trapeze_status report(const trapeze_fit_point *pts, int np, unsigned long mask,
                             const double *params, trapeze_fit_report *rep, trapeze_error *err)
{
    double sum = 0;
    for (int i = 0; i < np; i++) {
        double v;
        trapeze_status s = trapeze_model_evaluate(&pts[i].model, params, pts[i].decisions, &v,
                                                  NULL, NULL, err);
        if (s)
            return s;
        double r = (v - pts[i].measured) / pts[i].measured;
        sum += r * r;
    }
    rep->n_points = np;
    rep->n_fitted = 0;
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++)
        rep->n_fitted += (int)(mask >> k & 1);
    rep->rms_rel_error = sqrt(sum / np);
    return TRAPEZE_OK;
}

static trapeze_status cross_validate(const trapeze_group_observation *obs, int n,
                                     unsigned long mask, int folds, const double *start,
                                     trapeze_fit_report *rep, trapeze_error *err);

trapeze_status trapeze_group_fit(const trapeze_group_observation *obs, int n, unsigned long mask,
                                 int folds, trapeze_group_params *p, trapeze_fit_report *rep,
                                 trapeze_error *err)
{
    if (n < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "grouping fit: no observations");
    if (mask == 0)
        mask = (1ul << TRAPEZE_GROUP_NPARAMS) - 1;
    grp_instance *inst = calloc((size_t)n * GRP_NOUTPUTS, sizeof *inst);
    trapeze_fit_point *pts = calloc((size_t)n * GRP_NOUTPUTS, sizeof *pts);
    grp_memo *memo = calloc((size_t)n, sizeof *memo);   /* one per observation */
    if (!inst || !pts || !memo) {
        free(inst);
        free(pts);
        free(memo);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping fit: out of memory");
    }
    trapeze_fit_report local;
    if (!rep)
        rep = &local;
    memset(rep, 0, sizeof *rep);
    double start[TRAPEZE_GROUP_NPARAMS];
    memcpy(start, p->value, sizeof start);
    /* Staged, each stage from the last one's values: the L1 constants on
     * L2 accesses, the L2 constants on DRAM reads, the timing constants on
     * cycles (from a linear start). */
    const unsigned long l1 = TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_MU) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_ETA1) |
                             TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_THETA);
    const unsigned long l2 = TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_NU) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_ETA2) |
                             TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_RETAIN2);
    const unsigned long timing = TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_CWAVE) |
                                 TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TSM) |
                                 TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TL2) |
                                 TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TDRAM) |
                                 TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_OVERLAP);
    trapeze_status s = fit_stage(obs, n, 1u << GRP_OUT_L2, mask & l1,
                                   TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_MU), memo, inst, pts, p, NULL, err);
    if (!s)
        s = fit_stage(obs, n, 1u << GRP_OUT_DRAM, mask & l2, TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_NU),
                      memo, inst, pts, p, NULL, err);
    if (!s && (mask & timing))
        s = timing_stage(obs, n, mask & timing, memo, inst, pts, p, err);
    /* each constant from its own observable: no joint stage, which traded
     * L2 accuracy for cycles where fewer L2 accesses did not mean fewer
     * cycles (matmul); the report covers every value */
    int np = make_points(obs, n, (1u << GRP_NOUTPUTS) - 1, memo, inst, pts);
    if (!s && !np)
        s = trapeze_fail(err, TRAPEZE_EINVAL, "grouping fit: nothing measured");
    if (!s)
        s = report(pts, np, mask, p->value, rep, err);
    free(inst);
    free(pts);
    free(memo);
    if (!s && folds >= 2 && n >= folds)
        s = cross_validate(obs, n, mask, folds, start, rep, err);
    if (!s)
        snprintf(p->source, sizeof p->source, "fitted to %d observations (%d values)", n, np);
    return s;
}

/* k-fold cross-validation by whole observations (observation i is in fold
 * i mod k): each fold is fitted, staged, from `start` on the others, and
 * every measured value of its held-out groupings is predicted. */
static trapeze_status cross_validate(const trapeze_group_observation *obs, int n,
                                     unsigned long mask, int folds, const double *start,
                                     trapeze_fit_report *rep, trapeze_error *err)
{
    trapeze_group_observation *train = malloc((size_t)n * sizeof *train);
    if (!train)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "grouping fit: out of memory");
    double sum = 0, worst = 0;
    int count = 0;
    trapeze_status s = TRAPEZE_OK;
    for (int f = 0; f < folds && !s; f++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (i % folds != f)
                train[m++] = obs[i];
        trapeze_group_params p;
        memset(&p, 0, sizeof p);
        memcpy(p.value, start, sizeof p.value);
        s = trapeze_group_fit(train, m, mask, 0, &p, NULL, err);
        for (int i = f; !s && i < n; i += folds) {
            grp_duals d;
            if ((s = grp_evaluate_duals(obs[i].model, p.value, obs[i].grouping, &d, err)))
                break;
            const double pred[GRP_NOUTPUTS] = {d.cycles.v, d.l2.v, d.dram.v};
            const double meas[GRP_NOUTPUTS] = {obs[i].cycles, obs[i].l2_accesses,
                                               obs[i].dram_reads};
            for (int o = 0; o < GRP_NOUTPUTS; o++) {
                if (!(meas[o] > 0))
                    continue;
                double e = 100.0 * fabs(pred[o] - meas[o]) / meas[o];
                sum += e;
                worst = e > worst ? e : worst;
                count++;
            }
        }
    }
    free(train);
    if (!s) {
        rep->cv_mape_pct = count ? sum / count : 0;
        rep->cv_max_ape_pct = worst;
    }
    return s;
}
