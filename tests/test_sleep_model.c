/*
 * Tests of the idle-period break-even model (model/sleep.c): the seed's
 * crossovers (Tripathy §6: 14.04 and 20.14 cycles), a hand-computed
 * histogram under the Slumber thresholds and under the oracle, the
 * hazard-rate condition of the time-out policy on a Lomax distribution
 * whose optimum is known in closed form, exact gradients against finite
 * differences, and the histogram bucketing of the idle-period CSV.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static trapeze_sleep_structure rf, l1d;

static void test_break_even_algebra(void)
{
    trapeze_error err;
    CHECK_OK(trapeze_sleep_structure_default("rf", &rf, &err));
    CHECK_OK(trapeze_sleep_structure_default("l1d", &l1d, &err));
    CHECK(trapeze_sleep_structure_default("dram", &rf, &err) == TRAPEZE_EINVAL);
    CHECK_OK(trapeze_sleep_structure_default("rf", &rf, &err));
    /* (13*0.58 - 4*0.06)/(0.58 - 0.06) and (16 - 13*0.58)/(1 - 0.58) */
    CHECK_NEAR(trapeze_sleep_crossover(&rf.mode[0], &rf.mode[1]), 14.0385, 1e-4);
    CHECK_NEAR(trapeze_sleep_crossover(&rf.mode[1], &rf.mode[2]), 20.1429, 1e-4);
    CHECK_NEAR(trapeze_sleep_crossover(&rf.mode[0], &rf.mode[2]), 16.7660, 1e-4);
    /* The linear model with no switching energy: break-even = wake-up. */
    CHECK_NEAR(trapeze_sleep_break_even(&rf.mode[1]), 13, 1e-12);
    CHECK_NEAR(trapeze_sleep_break_even(&l1d.mode[0]), 2, 1e-12);
    trapeze_sleep_mode m = {.leak_fraction = 0.5, .lost_cycles = 2, .transition_cycles = 3};
    CHECK_NEAR(trapeze_sleep_break_even(&m), 8, 1e-12);              /* 2 + 3/0.5 */
    CHECK_NEAR(trapeze_sleep_period_saving(&m, 8), 0, 1e-12);
    CHECK_NEAR(trapeze_sleep_period_saving(&rf.mode[0], 6), 0.12, 1e-12); /* "6 - 4 = 2 cycles" */
}

/* The shipped seed profile gives the same tables (GTX 480: 700 MHz). */
static void test_from_power(void)
{
    trapeze_power p;
    trapeze_error err;
    CHECK_OK(trapeze_power_load("data/power/gtx480-seed.ini", &p, &err));
    trapeze_sleep_structure s;
    CHECK_OK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_RF, 700e6, &s, &err));
    CHECK(s.n_modes == 3 && !strcmp(s.name, "rf"));
    CHECK(s.mode[2].retains_state == 0 && s.mode[1].retains_state == 1);
    CHECK_NEAR(trapeze_sleep_crossover(&s.mode[0], &s.mode[1]), 14.0385, 1e-4);
    CHECK_NEAR(trapeze_sleep_crossover(&s.mode[1], &s.mode[2]), 20.1429, 1e-4);
    CHECK_OK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_L2, 700e6, &s, &err));
    CHECK(s.n_modes == 2 && s.mode[0].leak_fraction == 0.228 && s.mode[1].wake_cycles == 2);
    /* 1 pJ per round trip of a 0.61 W register file at 700 MHz:
     * 1e-12 * 7e8 / 0.61 = 1.1475 ON-cycles; deep: T_be = 13 + 1.1475/0.58. */
    p.mode[TRAPEZE_PS_RF][trapeze_power_mode_find(&p, TRAPEZE_PS_RF, "deep")].transition_j = 1e-12;
    CHECK_OK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_RF, 700e6, &s, &err));
    CHECK_NEAR(s.mode[1].transition_cycles, 1e-12 * 7e8 / 0.61, 1e-12);
    CHECK_NEAR(trapeze_sleep_break_even(&s.mode[1]), 13 + 1e-12 * 7e8 / 0.61 / 0.58, 1e-12);
    CHECK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_RF, 0, &s, &err) == TRAPEZE_ERANGE);
    CHECK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_SHMEM, 7e8, &s, &err) ==
          TRAPEZE_EINVAL);
}

/* The default profiles' circuit-model transitions (scripts/wake-costs.sh):
 * CACTI-P's printed wake energies, each at its rail's swing (array 0.35,
 * wordline 0.65, bitline 0.30 of CACTI's Vdd), give the capacitance C;
 * E_tr = C x Vdd x (Vdd - v_mode), and the energy break-even
 * E_tr / (P_on - P_off) in cycles. */
static void test_circuit_transitions(void)
{
    trapeze_power p;
    trapeze_error err;
    trapeze_sleep_structure s;
    /* GTX 480 L1D (CACTI at 40 nm, Vdd 0.9615 V): 30.19 pJ array, 1.735 WL,
     * 3.054 BL: (86.26 + 2.669 + 10.18) pF V^2 / 0.9245 V^2 = 107.2 pF;
     * drowsy at 0.3 V of 1.0 V: x 1.0 x 0.7 = 75.04 pJ; over 0.027 W x
     * (1 - 0.228) at 700 MHz (29.78 pJ a cycle): 2.520 cycles */
    double c = (30.19e-12 / 0.35 + 1.735e-12 / 0.65 + 3.054e-12 / 0.30) / (0.9615 * 0.9615);
    CHECK_NEAR(c, 107.2e-12, 0.05e-12);
    double e = c * 1.0 * 0.7;
    CHECK_NEAR(e, 75.04e-12, 0.01e-12);
    CHECK_OK(trapeze_power_load("data/power/gtx480.ini", &p, &err));
    CHECK_NEAR(p.mode[TRAPEZE_PS_L1D][trapeze_power_mode_find(&p, TRAPEZE_PS_L1D, "sleep")]
                   .transition_j, e, 0.01e-12);
    CHECK_OK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_L1D, 700e6, &s, &err));
    CHECK_NEAR(trapeze_sleep_energy_break_even(&s.mode[0]), 7.504e-11 / (0.027 * 0.772) * 700e6,
               1e-9);
    CHECK_NEAR(trapeze_sleep_energy_break_even(&s.mode[0]), 2.520, 1e-3);
    /* V100 L2 slice (CACTI at 22 nm, Vdd 0.8 V): 44.55 pJ array, 2.188 WL,
     * 4.619 BL: (127.3 + 3.366 + 15.40) / 0.64 = 228.2 pF; drowsy at 0.3 V
     * of 0.8: x 0.8 x 0.5 = 91.28 pJ; over 0.003804 W x 0.772 at 1132 MHz
     * (2.594 pJ a cycle saved): 35.19 cycles, far beyond Snooze's
     * 3-cycle warning */
    e = (44.55e-12 / 0.35 + 2.188e-12 / 0.65 + 4.619e-12 / 0.30) / 0.64 * 0.8 * 0.5;
    CHECK_NEAR(e, 91.28e-12, 0.01e-12);
    CHECK_OK(trapeze_power_load("data/power/v100.ini", &p, &err));
    CHECK_OK(trapeze_sleep_structure_from_power(&p, TRAPEZE_PS_L2, 1132e6, &s, &err));
    CHECK_NEAR(s.mode[0].transition_cycles * 0.003804 / 1132e6, e, 0.01e-12);
    CHECK_NEAR(trapeze_sleep_energy_break_even(&s.mode[0]), e / (0.003804 * 0.772) * 1132e6,
               5e-3);
    CHECK_NEAR(trapeze_sleep_energy_break_even(&s.mode[0]), 35.19, 0.01);
    /* T_be adds the cycles the wake loses: the seed's 2 */
    CHECK_NEAR(trapeze_sleep_break_even(&s.mode[0]),
               2 + trapeze_sleep_energy_break_even(&s.mode[0]), 1e-12);
    trapeze_sleep_mode on = {.leak_fraction = 1};
    CHECK(isinf(trapeze_sleep_energy_break_even(&on)));
}

static void test_buckets(void)
{
    double lo, hi;
    CHECK(trapeze_idle_bucket(0) == -1);
    CHECK(trapeze_idle_bucket(1) == 0);
    CHECK(trapeze_idle_bucket(1024) == 1023);
    CHECK(trapeze_idle_bucket(1025) == 1024);
    CHECK(trapeze_idle_bucket(2048) == 1024);
    CHECK(trapeze_idle_bucket(2049) == 1025);
    CHECK(trapeze_idle_bucket(4294967296.0) == TRAPEZE_IDLE_NBUCKETS - 1);
    CHECK(trapeze_idle_bucket(4294967297.0) == -1);
    trapeze_idle_bucket_range(1025, &lo, &hi);
    CHECK(lo == 2049 && hi == 4096);
    CHECK(trapeze_idle_bucket_length(1024) == 1536.5);
    CHECK(trapeze_idle_bucket_length(6) == 7);
}

static void put(trapeze_idle_hist *h, trapeze_next_access a, int length, double n)
{
    h->count[a][trapeze_idle_bucket(length)] += n;
}

/* 10 write periods of 20 cycles, 5 read periods of 20, 3 read periods of 10,
 * Slumber's thresholds 4/13/16, look-ahead 3. Every wake started by the
 * look-ahead (lost 3): writes gate (20-3 = 17 each), 20-cycle reads go deep
 * (0.58*17 = 9.86), 10-cycle reads shallow (0.06*7 = 0.42): 170 + 49.3 +
 * 1.26 = 220.56 ON-cycles of 330 idle + 18 access cycles; stalls 13*10 +
 * 10*5 + 1*3 = 183 cycles. Slumber's countdown wakes of deep and gated
 * (exact: lost = tau = wake, no stall): 10*4 + 5*0.58*7 + 1.26 = 61.56,
 * stalls 3 (shallow only). */
static void test_hand_histogram(void)
{
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "gtx480", "k", "rf", "warp_reg");
    put(&h, TRAPEZE_NEXT_WRITE, 20, 10);
    put(&h, TRAPEZE_NEXT_READ, 20, 5);
    put(&h, TRAPEZE_NEXT_READ, 10, 3);
    trapeze_sleep_options o;
    trapeze_sleep_options_init(&o);
    o.requester_cycles = 1000;
    trapeze_sleep_model *m;
    trapeze_error err;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    double theta[3] = {4, 13, 16};
    trapeze_sleep_eval e;
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 220.56, 1e-9);
    CHECK_NEAR(e.leak_on_cycles, 348, 1e-12);
    CHECK_NEAR(e.saving_fraction, 220.56 / 348, 1e-12);
    CHECK_NEAR(e.penalty_cycles, 183, 1e-12);
    CHECK_NEAR(e.penalty_fraction, 0.183, 1e-12);
    CHECK_NEAR(e.mode_cycles[0], 3 * 18, 1e-12);
    CHECK_NEAR(e.mode_cycles[1], 21, 1e-12);
    CHECK_NEAR(e.mode_cycles[2], 85, 1e-12);
    CHECK_NEAR(e.mode_cycles[3], 170, 1e-12);
    trapeze_sleep_destroy(m);

    o.exact_wake = 1u << 1 | 1u << 2;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 61.56, 1e-9);
    CHECK_NEAR(e.penalty_cycles, 3, 1e-12);
    CHECK_NEAR(e.mode_cycles[0], 10 * 16 + 5 * 13 + 3 * 3, 1e-12);
    /* The oracle keeps 20-cycle writes in deep sleep: 20 < 20.14. */
    trapeze_sleep_oracle(m, &e);
    CHECK_NEAR(e.saving_cycles, 40.6 + 20.3 + 1.08, 1e-9);
    CHECK_NEAR(e.mode_cycles[2], 15 * 7, 1e-12);         /* 20 - 13 each */
    CHECK_NEAR(e.mode_cycles[1], 3 * 6, 1e-12);
    CHECK_NEAR(e.mode_cycles[0], 15 * 13 + 3 * 4, 1e-12);
    CHECK_NEAR(e.penalty_cycles, 0, 0);
    trapeze_sleep_destroy(m);
    /* Without a requester count the penalty is spread over the estimated
     * instances: none dead here, so one instance of 348 cycles. */
    o.requester_cycles = 0;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.penalty_fraction, 3.0 / 348, 1e-12);
    trapeze_sleep_destroy(m);
    /* Snooze's rule for caches: gated only when dead, never before a write. */
    o.gate_writes = 0;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 15 * 0.58 * 7 + 1.26, 1e-9);
    trapeze_sleep_destroy(m);

    /* Time-out ladder, one 20-cycle write period, thresholds 4/13/16, no
     * warning (lead 0: nothing lost, the whole wake stalls): shallow 4..13
     * (0.06*9), deep 13..16 (0.58*3), gated 16..20 (1*4) = 6.28; stall 16.
     * With lead 3: the access is seen at 17, so gated 16..17 only:
     * 0.54 + 1.74 + 1 = 3.28, stall 13. And a dead period of 20 gates at
     * 16 whatever the lead: 0.54 + 1.74 + 4, no stall. */
    trapeze_idle_hist w;
    trapeze_idle_hist_init(&w, "gtx480", "k", "rf", "warp_reg");
    put(&w, TRAPEZE_NEXT_WRITE, 20, 1);
    o.policy = TRAPEZE_SLEEP_TIMEOUT;
    o.lead_cycles = 0;
    o.exact_wake = 0;
    o.gate_writes = 1;
    CHECK_OK(trapeze_sleep_create(&rf, &w, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 6.28, 1e-9);
    CHECK_NEAR(e.penalty_cycles, 16, 1e-12);
    CHECK_NEAR(e.mode_cycles[0], 4, 1e-12);
    CHECK_NEAR(e.mode_cycles[1], 9, 1e-12);
    CHECK_NEAR(e.mode_cycles[2], 3, 1e-12);
    CHECK_NEAR(e.mode_cycles[3], 4, 1e-12);
    trapeze_sleep_destroy(m);
    o.lead_cycles = 3;
    CHECK_OK(trapeze_sleep_create(&rf, &w, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 3.28, 1e-9);
    CHECK_NEAR(e.penalty_cycles, 13, 1e-12);
    trapeze_sleep_destroy(m);
    /* The simulator's rule: a period of exactly theta + lead never sleeps. */
    double at17[3] = {17, 100, 100};
    trapeze_idle_hist_init(&w, "gtx480", "k", "rf", "warp_reg");
    put(&w, TRAPEZE_NEXT_READ, 20, 1);
    CHECK_OK(trapeze_sleep_create(&rf, &w, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, at17, 0, &e, &err));
    CHECK(e.saving_cycles == 0 && e.penalty_cycles == 0);
    at17[0] = 16;
    CHECK_OK(trapeze_sleep_evaluate(m, at17, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 0.06, 1e-12);
    CHECK_NEAR(e.penalty_cycles, 1, 1e-12);
    trapeze_sleep_destroy(m);
    trapeze_idle_hist_init(&w, "gtx480", "k", "rf", "warp_reg");
    put(&w, TRAPEZE_NEXT_DEAD, 20, 1);
    CHECK_OK(trapeze_sleep_create(&rf, &w, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 6.28, 1e-9);
    CHECK_NEAR(e.penalty_cycles, 0, 0);
    trapeze_sleep_destroy(m);
}

/* Lomax (Pareto II) idle periods, S(x) = (1 + x/lambda)^-alpha, discretized
 * to the histogram's buckets. */
static void lomax(trapeze_idle_hist *h, trapeze_next_access a, double alpha, double lambda,
                  double total)
{
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        double lo, hi;
        trapeze_idle_bucket_range(b, &lo, &hi);
        double s0 = pow(1 + (lo - 0.5) / lambda, -alpha), s1 = pow(1 + (hi + 0.5) / lambda, -alpha);
        if (b == 0)
            s0 = 1;
        h->count[a][b] += total * (s0 - s1);
    }
}

typedef struct {
    trapeze_sleep_model *m;
    double theta[TRAPEZE_SLEEP_MAX_MODES];
    int var;
} probe;

static double slope(probe *p, double x)
{
    trapeze_sleep_eval e;
    p->theta[p->var] = x;
    trapeze_sleep_evaluate(p->m, p->theta, 1, &e, NULL);
    return e.dsaving[p->var];
}

/* The stationary point of the saving in theta[var] between lo and hi (the
 * saving rises, then falls): bisection on the exact derivative. */
static double stationary(probe *p, double lo, double hi)
{
    CHECK(slope(p, lo) > 0 && slope(p, hi) < 0);
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (slope(p, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* energy notes §2.2 (4): the best time-out meets f/(1-F) = 1/T_be. For a
 * Lomax the hazard is alpha/(theta + lambda), so theta* = alpha T_be - lambda:
 * alpha 2, lambda 200, T_be 300 (a gated mode with a 300 ON-cycle round
 * trip): theta* = 400. An exponential (constant hazard 1/mean) with a mean
 * above T_be has no interior optimum: sleep at once. */
static void test_hazard_rate(void)
{
    trapeze_sleep_structure one = {.name = "rf", .n_modes = 1};
    one.mode[0] = (trapeze_sleep_mode){.name = "gated", .leak_fraction = 0, .wake_cycles = 0,
                                       .lost_cycles = 0, .transition_cycles = 300,
                                       .retains_state = 1};
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "g", "k", "rf", "warp_reg");
    lomax(&h, TRAPEZE_NEXT_READ, 2, 200, 1e6);
    trapeze_sleep_options o;
    trapeze_sleep_options_init(&o);
    o.policy = TRAPEZE_SLEEP_TIMEOUT;
    o.lead_cycles = 0;
    trapeze_error err;
    probe p = {.var = 0};
    CHECK_OK(trapeze_sleep_create(&one, &h, &o, &p.m, &err));
    double theta = stationary(&p, 100, 900);
    CHECK_NEAR(theta, 400, 1.0);
    CHECK_NEAR(2 / (theta + 200), 1.0 / 300, 1e-5);   /* the hazard at theta */
    trapeze_sleep_destroy(p.m);

    trapeze_idle_hist_init(&h, "g", "k", "rf", "warp_reg");
    for (int L = 1; L <= TRAPEZE_IDLE_EXACT; L++)
        put(&h, TRAPEZE_NEXT_READ, L, 1e6 * exp(-L / 500.0));
    CHECK_OK(trapeze_sleep_create(&one, &h, &o, &p.m, &err));
    for (double t = 5; t < 600; t += 50)
        CHECK(slope(&p, t) < 0);
    trapeze_sleep_destroy(p.m);
}

/* Look-ahead with every wake hidden: the best thresholds are the crossovers,
 * whatever the distribution (here uniform over 1..300 write periods). */
static void test_lookahead_crossovers(void)
{
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "g", "k", "rf", "warp_reg");
    for (int L = 1; L <= 300; L++)
        put(&h, TRAPEZE_NEXT_WRITE, L, 100);
    trapeze_sleep_options o;
    trapeze_sleep_options_init(&o);
    o.exact_wake = 7;    /* countdown wakes: lost = tau = wake, no stall */
    o.smoothing = 0.5;   /* sigma' is then negligible at the grid's edge (L = 1) */
    trapeze_error err;
    probe p = {.theta = {4, 13, 30}, .var = 1};
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &p.m, &err));
    double deep = stationary(&p, 10, 18);
    CHECK_NEAR(deep, 14.04, 0.01);
    p.theta[1] = deep;
    p.var = 2;
    CHECK_NEAR(stationary(&p, 17, 25), 20.14, 0.01);
    p.theta[2] = 20.14;
    p.var = 0;
    CHECK_NEAR(stationary(&p, 1, 10), 4, 0.01);
    trapeze_sleep_destroy(p.m);
}

static void check_gradients(trapeze_sleep_policy policy)
{
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "g", "k", "rf", "warp_reg");
    lomax(&h, TRAPEZE_NEXT_READ, 1.5, 30, 1e4);
    lomax(&h, TRAPEZE_NEXT_WRITE, 1.2, 60, 5e3);
    put(&h, TRAPEZE_NEXT_DEAD, 5000, 10);
    trapeze_sleep_options o;
    trapeze_sleep_options_init(&o);
    o.policy = policy;
    o.smoothing = 2;
    trapeze_sleep_model *m;
    trapeze_error err;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    double theta[3] = {5.3, 17.2, 24.1};   /* away from the crossovers, where d = 0 */
    trapeze_sleep_eval e, ep, em;
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 1, &e, &err));
    for (int i = 0; i < 3; i++) {
        double step = 1e-5, keep = theta[i];
        theta[i] = keep + step;
        trapeze_sleep_evaluate(m, theta, 1, &ep, NULL);
        theta[i] = keep - step;
        trapeze_sleep_evaluate(m, theta, 1, &em, NULL);
        theta[i] = keep;
        double fd_s = (ep.saving_fraction - em.saving_fraction) / (2 * step);
        double fd_p = (ep.penalty_fraction - em.penalty_fraction) / (2 * step);
        CHECK(fabs(e.dsaving[i]) > 1e-6 && fabs(e.dpenalty[i]) > 1e-9);
        CHECK_NEAR(e.dsaving[i], fd_s, 1e-6 * fabs(fd_s) + 1e-10);
        CHECK_NEAR(e.dpenalty[i], fd_p, 1e-6 * fabs(fd_p) + 1e-12);
    }
    /* The smooth model approaches the hard one as s shrinks. */
    o.smoothing = 1e-3;
    trapeze_sleep_model *sharp;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &sharp, &err));
    double mid[3] = {5.5, 14.5, 22.5};
    CHECK_OK(trapeze_sleep_evaluate(sharp, mid, 1, &ep, &err));
    CHECK_OK(trapeze_sleep_evaluate(sharp, mid, 0, &em, &err));
    CHECK_NEAR(ep.saving_fraction, em.saving_fraction, 1e-9);
    CHECK_NEAR(ep.penalty_fraction, em.penalty_fraction, 1e-9);
    trapeze_sleep_destroy(sharp);
    trapeze_sleep_destroy(m);
}

static void test_bad_input(void)
{
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "g", "k", "rf", "warp_reg");
    trapeze_sleep_options o;
    trapeze_sleep_options_init(&o);
    trapeze_sleep_model *m;
    trapeze_error err;
    CHECK(trapeze_sleep_create(&rf, &h, &o, &m, &err) == TRAPEZE_EINVAL); /* empty */
    put(&h, TRAPEZE_NEXT_READ, 7, 1);
    trapeze_sleep_structure bad = rf;
    bad.mode[2].leak_fraction = 0.5;   /* shallower than deep */
    CHECK(trapeze_sleep_create(&bad, &h, &o, &m, &err) == TRAPEZE_EINVAL);
    o.smoothing = 0;
    CHECK(trapeze_sleep_create(&rf, &h, &o, &m, &err) == TRAPEZE_ERANGE);
    CHECK(m == NULL);
}

int main(void)
{
    test_break_even_algebra();
    test_from_power();
    test_circuit_transitions();
    test_buckets();
    test_hand_histogram();
    test_hazard_rate();
    test_lookahead_crossovers();
    check_gradients(TRAPEZE_SLEEP_LOOKAHEAD);
    check_gradients(TRAPEZE_SLEEP_TIMEOUT);
    test_bad_input();
    return check_report("test_sleep_model");
}
