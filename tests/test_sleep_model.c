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
 * Slumber's thresholds 4/13/16, lead 3. By hand: writes gate (20-16 = 4
 * each), 20-cycle reads go deep (0.58*7 = 4.06), 10-cycle reads shallow
 * (0.06*6 = 0.36): 40 + 20.3 + 1.08 = 61.38 ON-cycles of 330 idle + 18
 * access cycles. Exposed wakes: 13*10 + 10*5 + 1*3 = 183 cycles. */
static void test_hand_histogram(void)
{
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "gtx480", "k", "rf", "warp_reg");
    put(&h, TRAPEZE_NEXT_WRITE, 20, 10);
    put(&h, TRAPEZE_NEXT_READ, 20, 5);
    put(&h, TRAPEZE_NEXT_READ, 10, 3);
    trapeze_sleep_options o;
    trapeze_sleep_options_default(&o);
    o.requester_cycles = 1000;
    trapeze_sleep_model *m;
    trapeze_error err;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    double theta[3] = {4, 13, 16};
    trapeze_sleep_eval e;
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 61.38, 1e-9);
    CHECK_NEAR(e.leak_on_cycles, 348, 1e-12);
    CHECK_NEAR(e.saving_fraction, 61.38 / 348, 1e-12);
    CHECK_NEAR(e.penalty_cycles, 183, 1e-12);
    CHECK_NEAR(e.penalty_fraction, 0.183, 1e-12);
    CHECK_NEAR(e.mode_cycles[0], 0, 1e-12);
    CHECK_NEAR(e.mode_cycles[1], 30, 1e-12);
    CHECK_NEAR(e.mode_cycles[2], 100, 1e-12);
    CHECK_NEAR(e.mode_cycles[3], 200, 1e-12);
    /* The oracle keeps 20-cycle writes in deep sleep: 20 < 20.14. */
    trapeze_sleep_oracle(m, &e);
    CHECK_NEAR(e.saving_cycles, 40.6 + 20.3 + 1.08, 1e-9);
    CHECK_NEAR(e.mode_cycles[2], 300, 1e-12);
    CHECK_NEAR(e.penalty_cycles, 0, 0);
    /* Without a requester count the penalty is spread over the estimated
     * instances: none dead here, so one instance of 348 cycles. */
    trapeze_sleep_destroy(m);
    o.requester_cycles = 0;
    CHECK_OK(trapeze_sleep_create(&rf, &h, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.penalty_fraction, 183.0 / 348, 1e-12);
    trapeze_sleep_destroy(m);

    /* Time-out ladder, one 20-cycle write period, thresholds 4/13/16, no
     * lead: shallow 4..13 (0.06*9), deep 13..16 (0.58*3), gated 16..20 (1*4),
     * minus the gated round trip 16: 0.54 + 1.74 + 4 - 16 = -9.72. */
    trapeze_idle_hist w;
    trapeze_idle_hist_init(&w, "gtx480", "k", "rf", "warp_reg");
    put(&w, TRAPEZE_NEXT_WRITE, 20, 1);
    o.policy = TRAPEZE_SLEEP_TIMEOUT;
    o.lead_cycles = 0;
    CHECK_OK(trapeze_sleep_create(&rf, &w, &o, &m, &err));
    CHECK_OK(trapeze_sleep_evaluate(m, theta, 0, &e, &err));
    CHECK_NEAR(e.saving_cycles, 0.54 + 1.74 + 4 - 16, 1e-9);
    CHECK_NEAR(e.penalty_cycles, 16, 1e-12);
    CHECK_NEAR(e.mode_cycles[0], 4, 1e-12);
    CHECK_NEAR(e.mode_cycles[1], 9, 1e-12);
    CHECK_NEAR(e.mode_cycles[2], 3, 1e-12);
    CHECK_NEAR(e.mode_cycles[3], 4, 1e-12);
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
    trapeze_sleep_options_default(&o);
    o.policy = TRAPEZE_SLEEP_TIMEOUT;
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
    trapeze_sleep_options_default(&o);
    o.lead_cycles = 16;
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
    trapeze_sleep_options_default(&o);
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
    trapeze_sleep_options_default(&o);
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
    test_buckets();
    test_hand_histogram();
    test_hazard_rate();
    test_lookahead_crossovers();
    check_gradients(TRAPEZE_SLEEP_LOOKAHEAD);
    check_gradients(TRAPEZE_SLEEP_TIMEOUT);
    test_bad_input();
    return check_report("test_sleep_model");
}
