/*
 * sleep.c - the idle-period break-even model: for one structure (L1D, L2,
 * register file) at one granularity, its low-leakage modes, a policy with
 * one threshold per mode and an idle-period histogram, the expected leakage
 * saved and the expected exposed wake-up penalty, smooth in the thresholds
 * with exact gradients (dual numbers). Owns the break-even algebra
 * (Tripathy's seed §6, the linear model) and the policy accounting; must
 * not know where histograms come from (sampler/) nor search (sleep_opt.c).
 *
 * Accounting, in ON-cycles (the leakage of the structure ON for a cycle):
 * a period of length T spent in mode m saves S_m(T) = (1 - p_m)(T - tau_m)
 * - E_tr,m. Both policies are written as a ladder over the modes a period
 * may use (state-losing modes only when the period ends in a write or is
 * dead), each rung switched on by an indicator 1[T >= theta_m] relaxed to
 * sigma((T - theta_m)/s):
 *   LOOKAHEAD  saving = sum_k 1[T >= theta_k] (S_k(T) - S_{k-1}(T)), which
 *              with ordered thresholds is S of the deepest rung reached;
 *   TIMEOUT    saving = sum_k 1[T >= theta_k] ((p_{k-1} - p_k)(T - theta_k)
 *              - (C_k - C_{k-1})), C_k = (1 - p_k) tau_k + E_tr,k: ON until
 *              theta_1, then each mode in turn, paying the round trip of the
 *              deepest mode reached.
 * The exposed penalty telescopes the same way over max(0, wake_k - lead).
 * For TIMEOUT with one mode, d saving/d theta = 0 is the hazard-rate
 * condition f(theta)/(1 - F(theta)) = 1/T_be.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/dual.h"

TRAPEZE_DUAL_DEFINE(sl_dual, sl, TRAPEZE_SLEEP_MAX_MODES)

struct trapeze_sleep_model {
    trapeze_sleep_structure s;
    trapeze_sleep_options o;
    trapeze_idle_hist h;
    double leak_on;            /* idle cycles + access cycles */
    double requester_cycles;   /* what the penalty is a fraction of */
    int allowed[TRAPEZE_NEXT_N][TRAPEZE_SLEEP_MAX_MODES];  /* mode indices per class */
    int n_allowed[TRAPEZE_NEXT_N];
};

/* ------------------------------------------------------- break-even algebra */

double trapeze_sleep_break_even(const trapeze_sleep_mode *m)
{
    return m->lost_cycles + m->transition_cycles / (1.0 - m->leak_fraction);
}

double trapeze_sleep_period_saving(const trapeze_sleep_mode *m, double T)
{
    return (1.0 - m->leak_fraction) * (T - m->lost_cycles) - m->transition_cycles;
}

double trapeze_sleep_crossover(const trapeze_sleep_mode *a, const trapeze_sleep_mode *b)
{
    double ca = (1.0 - a->leak_fraction) * a->lost_cycles + a->transition_cycles;
    double cb = (1.0 - b->leak_fraction) * b->lost_cycles + b->transition_cycles;
    return (ca - cb) / (b->leak_fraction - a->leak_fraction);
}

static trapeze_sleep_mode mode(const char *name, double p, double wake, int keeps)
{
    trapeze_sleep_mode m = {.leak_fraction = p, .wake_cycles = wake, .lost_cycles = wake,
                            .transition_cycles = 0, .retains_state = keeps};
    snprintf(m.name, sizeof m.name, "%s", name);
    return m;
}

trapeze_status trapeze_sleep_structure_default(const char *name, trapeze_sleep_structure *s,
                                               trapeze_error *err)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    if (!strcmp(name, "l1d") || !strcmp(name, "l2")) {
        /* Snooze, Table 5.2 (Wang et al.): drowsy and gated-Vdd 32-B lines. */
        s->n_modes = 2;
        s->mode[0] = mode("sleep", 0.228, 2, 1);
        s->mode[1] = mode("off", 0.015, 2, 0);
        return TRAPEZE_OK;
    }
    if (!strcmp(name, "rf")) {
        /* Slumber, Table 6.1. */
        s->n_modes = 3;
        s->mode[0] = mode("shallow", 0.94, 4, 1);
        s->mode[1] = mode("deep", 0.42, 13, 1);
        s->mode[2] = mode("gated", 0.0, 16, 0);
        return TRAPEZE_OK;
    }
    return trapeze_fail(err, TRAPEZE_EINVAL, "unknown structure '%s' (l1d, l2 or rf)", name);
}

const char *trapeze_sleep_policy_name(trapeze_sleep_policy p)
{
    return p == TRAPEZE_SLEEP_TIMEOUT ? "timeout" : "lookahead";
}

void trapeze_sleep_options_default(trapeze_sleep_options *o)
{
    memset(o, 0, sizeof *o);
    o->policy = TRAPEZE_SLEEP_LOOKAHEAD;
    o->lead_cycles = 3;      /* Snooze: the request queue leads the access by 3-5 cycles */
    o->smoothing = 1;
    o->penalty_scale = 1;
}

/* ---------------------------------------------------------------- create */

static trapeze_status check_structure(const trapeze_sleep_structure *s, trapeze_error *err)
{
    if (s->n_modes < 1 || s->n_modes > TRAPEZE_SLEEP_MAX_MODES)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %d sleep modes (1..%d)", s->name,
                            s->n_modes, TRAPEZE_SLEEP_MAX_MODES);
    for (int i = 0; i < s->n_modes; i++) {
        const trapeze_sleep_mode *m = &s->mode[i];
        if (!(m->leak_fraction >= 0 && m->leak_fraction < 1))
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s mode %s: leak_fraction %g not in [0, 1)",
                                s->name, m->name, m->leak_fraction);
        if (!(m->wake_cycles >= 0 && m->lost_cycles >= 0 && m->transition_cycles >= 0))
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s mode %s: negative cycles or energy",
                                s->name, m->name);
        if (i > 0 && !(m->leak_fraction < s->mode[i - 1].leak_fraction))
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "%s mode %s: modes must go deeper (leak_fraction decreasing)",
                                s->name, m->name);
    }
    return TRAPEZE_OK;
}

static double requester_cycles(const trapeze_sleep_model *m)
{
    double req = m->h.requesters > 0 ? m->h.requesters : 1.0;
    if (m->o.requester_cycles > 0)
        return m->o.requester_cycles;
    if (m->h.cycles > 0)
        return m->h.cycles * req;
    /* Every instance's last period is dead; evictions add more, so this
     * counts too many instances and errs toward a larger penalty. */
    double instances = trapeze_idle_hist_periods(&m->h, TRAPEZE_NEXT_DEAD);
    return m->leak_on / (instances >= 1 ? instances : 1.0) * req;
}

trapeze_status trapeze_sleep_create(const trapeze_sleep_structure *s, const trapeze_idle_hist *h,
                                    const trapeze_sleep_options *o, trapeze_sleep_model **out,
                                    trapeze_error *err)
{
    *out = NULL;
    trapeze_status st = check_structure(s, err);
    if (st)
        return st;
    if (!(o->smoothing > 0) || !(o->lead_cycles >= 0) || !(o->penalty_scale >= 0) ||
        !(o->requester_cycles >= 0))
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "sleep options: smoothing must be > 0, lead, penalty scale and "
                            "requester cycles >= 0");
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
            if (!(h->count[a][b] >= 0) || !isfinite(h->count[a][b]))
                return trapeze_fail(err, TRAPEZE_ERANGE, "%s %s: bad idle-period count",
                                    h->kernel, h->structure);
    trapeze_sleep_model *m = calloc(1, sizeof *m);
    if (!m)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    m->s = *s;
    m->o = *o;
    m->h = *h;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        for (int i = 0; i < s->n_modes; i++)
            if (s->mode[i].retains_state || a != TRAPEZE_NEXT_READ)
                m->allowed[a][m->n_allowed[a]++] = i;
    double accesses = trapeze_idle_hist_periods(h, TRAPEZE_NEXT_READ) +
                      trapeze_idle_hist_periods(h, TRAPEZE_NEXT_WRITE);
    m->leak_on = trapeze_idle_hist_idle_cycles(h, -1) + accesses;
    if (!(m->leak_on > 0)) {
        free(m);
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s %s %s: empty idle-period histogram",
                            h->kernel, h->structure, h->granularity);
    }
    m->requester_cycles = requester_cycles(m);
    *out = m;
    return TRAPEZE_OK;
}

void trapeze_sleep_destroy(trapeze_sleep_model *m)
{
    free(m);
}

const trapeze_sleep_structure *trapeze_sleep_structure_of(const trapeze_sleep_model *m)
{
    return &m->s;
}

const trapeze_sleep_options *trapeze_sleep_options_of(const trapeze_sleep_model *m)
{
    return &m->o;
}

/* -------------------------------------------------------------- evaluate */

static double round_trip(const trapeze_sleep_mode *m)
{
    return (1.0 - m->leak_fraction) * m->lost_cycles + m->transition_cycles;
}

static double exposed(const trapeze_sleep_model *m, const trapeze_sleep_mode *md)
{
    return fmax(0.0, md->wake_cycles - m->o.lead_cycles);
}

/* The relaxed (or hard) indicator 1[T >= theta]. */
static sl_dual indicator(double T, sl_dual theta, double s, int smooth)
{
    if (!smooth)
        return sl_const(T >= theta.v ? 1.0 : 0.0);
    return sl_sigmoid(sl_scale(sl_sub(sl_const(T), theta), 1.0 / s));
}

/* One bucket of one class: adds n periods of length T to the sums. */
static void add_bucket(const trapeze_sleep_model *m, const int *allowed, int na, double T,
                       double n, const sl_dual *theta, int smooth, sl_dual *saving,
                       sl_dual *penalty, double *mode_cycles)
{
    const trapeze_sleep_mode *md = m->s.mode;
    double prev_p = 1.0, prev_c = 0.0, prev_s = 0.0, prev_x = 0.0;
    double time_left = T;     /* idle cycles not yet given to a deeper rung */
    for (int k = 0; k < na; k++) {
        int i = allowed[k];
        sl_dual on = indicator(T, theta[i], m->o.smoothing, smooth);
        sl_dual gain;
        if (m->o.policy == TRAPEZE_SLEEP_LOOKAHEAD) {
            double s_i = trapeze_sleep_period_saving(&md[i], T);
            gain = sl_const(s_i - prev_s);
            prev_s = s_i;
        } else {
            /* (p_{k-1} - p_k)(T - theta_k) - (C_k - C_{k-1}) */
            double c_i = round_trip(&md[i]);
            gain = sl_sub(sl_scale(sl_sub(sl_const(T), theta[i]), prev_p - md[i].leak_fraction),
                          sl_const(c_i - prev_c));
            prev_c = c_i;
        }
        prev_p = md[i].leak_fraction;
        double x_i = exposed(m, &md[i]);
        *saving = sl_add(*saving, sl_scale(sl_mul(on, gain), n));
        *penalty = sl_add(*penalty, sl_scale(on, n * (x_i - prev_x)));
        prev_x = x_i;
        /* Occupancy (reported, not differentiated): the share of the period
         * from this rung on; the previous rung keeps what this one does not. */
        double from = m->o.policy == TRAPEZE_SLEEP_TIMEOUT ? fmax(0.0, T - theta[i].v) : T;
        double here = on.v * fmin(from, time_left);
        int prev_slot = k == 0 ? 0 : allowed[k - 1] + 1;
        mode_cycles[prev_slot] += n * (time_left - here);
        time_left = here;
    }
    mode_cycles[na ? allowed[na - 1] + 1 : 0] += n * time_left;
}

trapeze_status trapeze_sleep_evaluate(const trapeze_sleep_model *m, const double *theta,
                                      int smooth, trapeze_sleep_eval *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sl_dual th[TRAPEZE_SLEEP_MAX_MODES];
    for (int i = 0; i < m->s.n_modes; i++) {
        if (!isfinite(theta[i]))
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s: threshold %d is not finite",
                                m->s.name, i + 1);
        th[i] = sl_var(theta[i], i);
    }
    sl_dual saving = sl_const(0), penalty = sl_const(0);
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            double n = m->h.count[a][b];
            if (n == 0)
                continue;
            add_bucket(m, m->allowed[a], m->n_allowed[a], trapeze_idle_bucket_length(b), n, th,
                       smooth, &saving, &penalty, out->mode_cycles);
        }
    out->periods = trapeze_idle_hist_periods(&m->h, -1);
    out->idle_cycles = trapeze_idle_hist_idle_cycles(&m->h, -1);
    out->leak_on_cycles = m->leak_on;
    out->saving_cycles = saving.v;
    out->saving_fraction = saving.v / m->leak_on;
    out->penalty_cycles = penalty.v;
    double kp = m->o.penalty_scale / m->requester_cycles;
    out->penalty_fraction = penalty.v * kp;
    for (int i = 0; i < m->s.n_modes; i++) {
        out->dsaving[i] = saving.d[i] / m->leak_on;
        out->dpenalty[i] = penalty.d[i] * kp;
    }
    return TRAPEZE_OK;
}

void trapeze_sleep_oracle(const trapeze_sleep_model *m, trapeze_sleep_eval *out)
{
    memset(out, 0, sizeof *out);
    double saving = 0;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            double n = m->h.count[a][b], T = trapeze_idle_bucket_length(b);
            if (n == 0)
                continue;
            double best = 0;
            int slot = 0;
            for (int k = 0; k < m->n_allowed[a]; k++) {
                int i = m->allowed[a][k];
                double s = trapeze_sleep_period_saving(&m->s.mode[i], T);
                if (s > best) {
                    best = s;
                    slot = i + 1;
                }
            }
            saving += n * best;
            out->mode_cycles[slot] += n * T;
        }
    out->periods = trapeze_idle_hist_periods(&m->h, -1);
    out->idle_cycles = trapeze_idle_hist_idle_cycles(&m->h, -1);
    out->leak_on_cycles = m->leak_on;
    out->saving_cycles = saving;
    out->saving_fraction = saving / m->leak_on;
}
