/*
 * sleep_model.c - the sleep-threshold model behind the generic interface
 * (model/model.h), so that the generic optimizer (NLopt MMA, multi-start)
 * searches it: the decision variables are the thresholds, the value is the
 * leakage *not* saved (1 - saving fraction, minimized), the constraints
 * are the penalty budget and the mode order. No fitted parameters: the
 * power modes and the wake rules are inputs of the instance.
 *
 * The decisions are u = ln(1 + theta), not theta: thresholds matter on a
 * relative scale (a cycle at 10, a hundred at 10,000) and period lengths
 * span 1 to 2^32, so MMA's steps in theta would leap over every period
 * from any start (measured: from the seed's thresholds to 1e8 in one
 * step); in u they do not.
 *
 * Owns the mapping only; the equations are sleep.c's, the search around it
 * (starts, whole cycles, settling) sleep_opt.c's.
 */
#include <math.h>

#include "model/sleep_priv.h"

static const char *const decision_names[TRAPEZE_SLEEP_MAX_MODES] = {"ln1p_theta1", "ln1p_theta2",
                                                                   "ln1p_theta3", "ln1p_theta4"};

void sleep_to_theta(int n, const double *u, double *theta, double *dtheta_du)
{
    for (int i = 0; i < n; i++) {
        double e = exp(u[i]);
        theta[i] = e - 1.0;
        if (dtheta_du)
            dtheta_du[i] = e;
    }
}

static void decision_bounds(const void *self, double *lo, double *hi)
{
    const sleep_instance *in = self;
    int n = trapeze_sleep_structure_of(in->m)->n_modes;
    double top = sleep_longest_period(in->m) + 10 * trapeze_sleep_options_of(in->m)->smoothing + 1;
    for (int i = 0; i < n; i++) {
        lo[i] = 0;
        hi[i] = log1p(top);
    }
}

/* 0: penalty - budget <= 0; k >= 1: theta_k - theta_{k+1} <= 0. */
static int nconstraints(const void *self)
{
    const sleep_instance *in = self;
    return trapeze_sleep_structure_of(in->m)->n_modes;
}

static double constraint(const void *self, int k, const double *x, double *grad)
{
    const sleep_instance *in = self;
    int n = trapeze_sleep_structure_of(in->m)->n_modes;
    if (k == 0) {
        double theta[TRAPEZE_SLEEP_MAX_MODES], dt[TRAPEZE_SLEEP_MAX_MODES];
        sleep_to_theta(n, x, theta, dt);
        trapeze_sleep_eval e;
        trapeze_sleep_evaluate(in->m, theta, 1, &e, NULL);
        for (int i = 0; grad && i < n; i++)
            grad[i] = e.dpenalty[i] * dt[i];
        return e.penalty_fraction - in->budget;
    }
    /* theta is increasing in u: the order holds in u as in theta */
    for (int i = 0; grad && i < n; i++)
        grad[i] = i == k - 1 ? 1.0 : i == k ? -1.0 : 0.0;
    return x[k - 1] - x[k];
}

static trapeze_status evaluate(const void *self, const double *params, const double *x,
                               double *value, double *dparams, double *dx, trapeze_error *err)
{
    (void)params;
    (void)dparams;
    const sleep_instance *in = self;
    int n = trapeze_sleep_structure_of(in->m)->n_modes;
    double theta[TRAPEZE_SLEEP_MAX_MODES], dt[TRAPEZE_SLEEP_MAX_MODES];
    sleep_to_theta(n, x, theta, dt);
    trapeze_sleep_eval e;
    trapeze_status s = trapeze_sleep_evaluate(in->m, theta, 1, &e, err);
    if (s)
        return s;
    *value = 1.0 - e.saving_fraction;
    for (int i = 0; dx && i < n; i++)
        dx[i] = -e.dsaving[i] * dt[i];
    return TRAPEZE_OK;
}

/* One table per mode count: ndecisions is a field of the table. */
#define SLEEP_OPS(N)                                                                        \
    {.name = "sleep", .nparams = 0, .ndecisions = N, .decision_names = decision_names,      \
     .decision_bounds = decision_bounds, .nconstraints = nconstraints,                     \
     .constraint = constraint, .evaluate = evaluate}
static const trapeze_model_ops sleep_ops[TRAPEZE_SLEEP_MAX_MODES] = {
    SLEEP_OPS(1), SLEEP_OPS(2), SLEEP_OPS(3), SLEEP_OPS(4)};

trapeze_model sleep_as_model(const sleep_instance *in)
{
    trapeze_model m = {&sleep_ops[trapeze_sleep_structure_of(in->m)->n_modes - 1], in};
    return m;
}
