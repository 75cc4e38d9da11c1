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
 * a period of length T spent in mode m saves (1 - p_m)(T_asleep) - E_tr,m,
 * where T_asleep is the period less the wake-up inside it ("lost": tau_m
 * for a countdown wake timed exactly, the warning lead for a wake started
 * when the access becomes visible, 0 for a dead period) and, for a
 * time-out, less the wait theta_m. With exact wakes this is the seed's
 * linear model S_m(T) = (1 - p_m)(T - tau_m) - E_tr,m (§6). Both policies
 * are written as a ladder over the modes a period may use (state-losing
 * modes only when the period is dead, or ends in a write if gate_writes),
 * each rung switched on by an indicator relaxed to a sigmoid of width s:
 *   LOOKAHEAD  saving = sum_k 1[T >= theta_k] (S_k(T) - S_{k-1}(T)), which
 *              with ordered thresholds is S of the deepest rung reached;
 *   TIMEOUT    saving = sum_k 1[T > theta_k + lost_k] ((p_{k-1} - p_k)
 *              (T - theta_k - lost_k) - (E_k - E_{k-1})): ON until theta_1,
 *              then each mode in turn (exact for one mode; with several,
 *              each rung's own lost cycles are an approximation).
 * The stall max(0, wake_k - lead) telescopes the same way. For TIMEOUT
 * with one mode, d saving/d theta = 0 is the hazard-rate condition
 * f(theta + lost)/(1 - F(theta + lost)) = (1 - p)/E_tr (= 1/T_be for tau_m = 0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/dual.h"
#include "model/sleep_priv.h"

TRAPEZE_DUAL_DEFINE(sl_dual, sl, TRAPEZE_SLEEP_MAX_MODES)

#define SATURATE 60.0

struct trapeze_sleep_model {
    trapeze_sleep_structure s;
    trapeze_sleep_options o;
    trapeze_idle_hist h;
    double leak_on;            /* idle cycles + access cycles */
    /* h's periods and idle cycles, summed once: every evaluation reports them */
    double periods, idle_cycles;
    double requester_cycles;   /* what the penalty is a fraction of */
    int allowed[TRAPEZE_NEXT_N][TRAPEZE_SLEEP_MAX_MODES];  /* mode indices per class */
    int n_allowed[TRAPEZE_NEXT_N];
    /* Per class, the non-empty buckets in increasing length: length T[j],
     * count n[j], and prefix sums cn[j] = sum_{i<j} n[i], cnt[j] = sum_{i<j}
     * n[i] T[i] (j = 0..len), so that a sum over every bucket past a point
     * costs one subtraction. */
    int len[TRAPEZE_NEXT_N];
    double T[TRAPEZE_NEXT_N][TRAPEZE_IDLE_NBUCKETS], n[TRAPEZE_NEXT_N][TRAPEZE_IDLE_NBUCKETS];
    double cn[TRAPEZE_NEXT_N][TRAPEZE_IDLE_NBUCKETS + 1];
    double cnt[TRAPEZE_NEXT_N][TRAPEZE_IDLE_NBUCKETS + 1];
};

/* ------------------------------------------------------- break-even algebra */

double trapeze_sleep_break_even(const trapeze_sleep_mode *m)
{
    return m->lost_cycles + m->transition_cycles / (1.0 - m->leak_fraction);
}

double trapeze_sleep_energy_break_even(const trapeze_sleep_mode *m)
{
    return m->leak_fraction < 1 ? m->transition_cycles / (1.0 - m->leak_fraction) : INFINITY;
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

static trapeze_status check_structure(const trapeze_sleep_structure *s, trapeze_error *err);

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

trapeze_status trapeze_sleep_structure_from_power(const trapeze_power *p,
                                                  trapeze_power_structure s, double clock_hz,
                                                  trapeze_sleep_structure *out,
                                                  trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if ((int)s < 0 || s >= TRAPEZE_PS_SLEEPABLE)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: structure %d cannot sleep", p->path, (int)s);
    snprintf(out->name, sizeof out->name, "%s", trapeze_power_structure_name(s));
    double leak = p->leak_w[s];
    for (int i = 0; i < p->n_modes[s]; i++) {
        const trapeze_power_mode *pm = &p->mode[s][i];
        if (!strcmp(pm->name, "on"))
            continue;
        if (out->n_modes == TRAPEZE_SLEEP_MAX_MODES)
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s: %s has more than %d sleep modes",
                                p->path, out->name, TRAPEZE_SLEEP_MAX_MODES);
        if (pm->transition_j > 0 && !(leak > 0 && clock_hz > 0))
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s: mode %s.%s: a transition energy needs the structure's "
                                "leakage and the clock", p->path, out->name, pm->name);
        trapeze_sleep_mode *m = &out->mode[out->n_modes++];
        *m = mode(pm->name, pm->leak_fraction, pm->wake_cycles, pm->retains_state);
        m->transition_cycles = pm->transition_j > 0 ? pm->transition_j * clock_hz / leak : 0;
    }
    if (out->n_modes == 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: %s has no sleep mode", p->path, out->name);
    return check_structure(out, err);
}

const char *trapeze_sleep_policy_name(trapeze_sleep_policy p)
{
    return p == TRAPEZE_SLEEP_TIMEOUT ? "timeout" : "lookahead";
}

void trapeze_sleep_options_init(trapeze_sleep_options *o)
{
    memset(o, 0, sizeof *o);
    o->policy = TRAPEZE_SLEEP_LOOKAHEAD;
    o->lead_cycles = 3;      /* Snooze: the request queue leads the access by 3-5 cycles */
    o->gate_writes = 1;
    o->smoothing = 1;
    o->penalty_scale = 1;
}

const char *trapeze_sleep_options_preset(trapeze_power_structure s,
                                         const trapeze_sleep_structure *st,
                                         trapeze_sleep_options *o)
{
    trapeze_sleep_options_init(o);
    o->eager_margin = 2;
    o->penalty_z = 2;
    if (s != TRAPEZE_PS_RF) {
        o->policy = TRAPEZE_SLEEP_TIMEOUT;
        o->gate_writes = 0;
        return "snooze";
    }
    o->policy = TRAPEZE_SLEEP_LOOKAHEAD;
    o->gate_writes = 1;
    for (int i = 0; i < st->n_modes; i++)   /* countdown wakes for deep and gated */
        if (!strcmp(st->mode[i].name, "deep") || !strcmp(st->mode[i].name, "gated"))
            o->exact_wake |= 1u << i;
    return "slumber";
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
        !(o->requester_cycles >= 0) || !(o->eager_margin >= 0) || !(o->penalty_z >= 0))
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "sleep options: smoothing must be > 0, lead, penalty scale, "
                            "requester cycles, eager margin and penalty z >= 0");
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
            if (s->mode[i].retains_state || a == TRAPEZE_NEXT_DEAD ||
                (a == TRAPEZE_NEXT_WRITE && o->gate_writes))
                m->allowed[a][m->n_allowed[a]++] = i;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            if (h->count[a][b] == 0)
                continue;
            int j = m->len[a]++;
            m->T[a][j] = trapeze_idle_bucket_length(b);
            m->n[a][j] = h->count[a][b];
            m->cn[a][j + 1] = m->cn[a][j] + m->n[a][j];
            m->cnt[a][j + 1] = m->cnt[a][j] + m->n[a][j] * m->T[a][j];
        }
    double accesses = trapeze_idle_hist_periods(h, TRAPEZE_NEXT_READ) +
                      trapeze_idle_hist_periods(h, TRAPEZE_NEXT_WRITE);
    m->periods = trapeze_idle_hist_periods(h, -1);
    m->idle_cycles = trapeze_idle_hist_idle_cycles(h, -1);
    m->leak_on = m->idle_cycles + accesses;
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

/* Cycles of a period in mode i that save nothing (the wake-up inside the
 * period) and the wake-up cycles the ending access waits for. */
static void wake_cost(const trapeze_sleep_model *m, int i, int dead, double *lost, double *stall)
{
    const trapeze_sleep_mode *md = &m->s.mode[i];
    if (dead) {
        *lost = *stall = 0;
    } else if (m->o.exact_wake >> i & 1) {
        *lost = md->lost_cycles;
        *stall = 0;
    } else {
        *lost = m->o.lead_cycles;
        *stall = fmax(0.0, md->wake_cycles - m->o.lead_cycles);
    }
}

/* First index j of class a with T[j] > x (strict) or T[j] >= x. */
static int first_past(const trapeze_sleep_model *m, int a, double x, int strict)
{
    int lo = 0, hi = m->len[a];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (strict ? m->T[a][mid] > x : m->T[a][mid] >= x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* S0 = sum_j n_j on_j and S1 = sum_j n_j on_j T_j over the periods of class
 * a longer than `floor`, where on_j is the rung's indicator at T_j - center
 * (hard: >= 0, or > 0 when strict; smooth: the sigmoid of width s). Beyond
 * SATURATE widths the sigmoid is 1 to double precision (its derivative
 * rounds to 0) or below 1e-26, so only the band around the center is summed
 * bucket by bucket; the buckets past it come from the prefix sums. */
static void rung_sums(const trapeze_sleep_model *m, int a, sl_dual center, double floor,
                      int strict, int smooth, sl_dual *S0, sl_dual *S1)
{
    int start = first_past(m, a, floor, 1), end = m->len[a];
    double w = smooth ? SATURATE * m->o.smoothing : 0;
    int band = first_past(m, a, center.v - w, strict && !smooth);
    int past = smooth ? first_past(m, a, center.v + w, 1) : band;
    if (band < start)
        band = start;
    if (past < band)
        past = band;
    *S0 = sl_const(m->cn[a][end] - m->cn[a][past]);
    *S1 = sl_const(m->cnt[a][end] - m->cnt[a][past]);
    for (int j = band; j < past; j++) {
        sl_dual x = sl_scale(sl_sub(sl_const(m->T[a][j]), center), 1.0 / m->o.smoothing);
        sl_dual on = sl_sigmoid(x);
        *S0 = sl_add(*S0, sl_scale(on, m->n[a][j]));
        *S1 = sl_add(*S1, sl_scale(on, m->n[a][j] * m->T[a][j]));
    }
}

/* One class of periods: adds its expected saving and stall (duals) and its
 * idle cycles per mode. Every rung's gain is linear in T, gain = A + B T,
 * so the class's share is A S0 + B S1:
 *   LOOKAHEAD  S_k(T) - S_{k-1}(T), S_k = (1 - p_k)(T - lost_k) - E_k,
 *              rung on when T >= theta_k (a period shorter than its wake-up
 *              then saves a negative amount, where the simulator leaves it
 *              ON: the two differ only for thresholds below lost_k, which
 *              the search never keeps; at T = lost_k both save -E_k);
 *   TIMEOUT    (p_{k-1} - p_k)(T - theta_k - lost_k) - (E_k - E_{k-1}),
 *              rung on when T > theta_k + lost_k.
 * Occupancy: rung k holds from_k = T - lost_k (look-ahead) or T - theta_k -
 * lost_k (time-out) cycles when reached; under look-ahead a deeper rung
 * takes the whole period, under a time-out it takes over from its entry;
 * the rest is ON (exact for thresholds in mode order). */
static void add_class(const trapeze_sleep_model *m, int a, const sl_dual *theta, int smooth,
                      sl_dual *saving, sl_dual *penalty, double *stall_sq, double *mode_cycles)
{
    const trapeze_sleep_mode *md = m->s.mode;
    const int *allowed = m->allowed[a];
    int na = m->n_allowed[a], dead = a == TRAPEZE_NEXT_DEAD;
    int timeout = m->o.policy == TRAPEZE_SLEEP_TIMEOUT;
    double prev_p = 1.0, prev_e = 0.0, prev_lost = 0.0, prev_x = 0.0;
    double s0[TRAPEZE_SLEEP_MAX_MODES], s1[TRAPEZE_SLEEP_MAX_MODES];
    double from_a[TRAPEZE_SLEEP_MAX_MODES];
    for (int k = 0; k < na; k++) {
        int i = allowed[k];
        double lost, stall, p = md[i].leak_fraction, e = md[i].transition_cycles;
        wake_cost(m, i, dead, &lost, &stall);
        sl_dual S0, S1, A;
        double B = prev_p - p;
        if (!timeout) {
            rung_sums(m, a, theta[i], 0, 0, smooth, &S0, &S1);
            A = sl_const(-(1.0 - p) * lost - e + (1.0 - prev_p) * prev_lost + prev_e);
            from_a[k] = -lost;
        } else {
            sl_dual center = sl_add(theta[i], sl_const(lost));
            rung_sums(m, a, center, 0, 1, smooth, &S0, &S1);
            A = sl_sub(sl_scale(center, -B), sl_const(e - prev_e));
            from_a[k] = -center.v;
        }
        *saving = sl_add(*saving, sl_add(sl_mul(A, S0), sl_scale(S1, B)));
        *penalty = sl_add(*penalty, sl_scale(S0, stall - prev_x));
        /* a period's stall is its deepest rung's, so its square telescopes too */
        *stall_sq += S0.v * (stall * stall - prev_x * prev_x);
        s0[k] = S0.v;
        s1[k] = S1.v;
        prev_p = p;
        prev_e = e;
        prev_lost = lost;
        prev_x = stall;
    }
    double asleep = 0;
    for (int k = 0; k < na; k++) {
        double mine = from_a[k] * s0[k] + s1[k];
        if (k + 1 < na)
            mine -= (timeout ? from_a[k + 1] : from_a[k]) * s0[k + 1] + s1[k + 1];
        mode_cycles[allowed[k] + 1] += mine;
        asleep += mine;
    }
    mode_cycles[0] += m->cnt[a][m->len[a]] - asleep;
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
    double stall_sq = 0;
    for (int a = 0; a < TRAPEZE_NEXT_N; a++)
        add_class(m, a, th, smooth, &saving, &penalty, &stall_sq, out->mode_cycles);
    out->periods = m->periods;
    out->idle_cycles = m->idle_cycles;
    out->leak_on_cycles = m->leak_on;
    out->saving_cycles = saving.v;
    out->saving_fraction = saving.v / m->leak_on;
    out->penalty_cycles = penalty.v;
    double kp = m->o.penalty_scale / m->requester_cycles;
    out->penalty_fraction = penalty.v * kp;
    out->penalty_sigma = sqrt(fmax(stall_sq, 0)) * kp;
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
            double best = 0, lost = 0;
            int slot = 0;
            for (int k = 0; k < m->n_allowed[a]; k++) {
                int i = m->allowed[a][k];
                const trapeze_sleep_mode *md = &m->s.mode[i];
                double s = a == TRAPEZE_NEXT_DEAD
                               ? (1.0 - md->leak_fraction) * T - md->transition_cycles
                               : trapeze_sleep_period_saving(md, T);
                if (s > best) {
                    best = s;
                    slot = i + 1;
                    lost = a == TRAPEZE_NEXT_DEAD ? 0 : md->lost_cycles;
                }
            }
            saving += n * best;
            out->mode_cycles[slot] += n * (T - lost);   /* the wake-up is ON time */
            out->mode_cycles[0] += n * lost;
        }
    out->periods = m->periods;
    out->idle_cycles = m->idle_cycles;
    out->leak_on_cycles = m->leak_on;
    out->saving_cycles = saving;
    out->saving_fraction = saving / m->leak_on;
}

/* ------------------------------------------------- for the search (priv) */

int sleep_period_lengths(const trapeze_sleep_model *m, double *lengths)
{
    int n = 0;
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        int used = 0;
        for (int a = 0; a < TRAPEZE_NEXT_N; a++)
            used |= m->h.count[a][b] > 0;
        if (used)
            lengths[n++] = trapeze_idle_bucket_length(b);
    }
    return n;
}

double sleep_longest_period(const trapeze_sleep_model *m)
{
    for (int b = TRAPEZE_IDLE_NBUCKETS - 1; b >= 0; b--)
        for (int a = 0; a < TRAPEZE_NEXT_N; a++)
            if (m->h.count[a][b] > 0)
                return trapeze_idle_bucket_length(b);
    return 1;
}

void trapeze_sleep_seed_thresholds(const trapeze_sleep_structure *s, double *theta)
{
    for (int i = 0; i < s->n_modes; i++)
        theta[i] = s->mode[i].wake_cycles;
}
