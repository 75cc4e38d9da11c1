/*
 * The DRAM rows a grouping scatters (sampler/group/dram_rows.c,
 * group_decide.c's correction), by hand:
 *   - the spread: 8 TBs in a 4 x 2 grid on 2 SMs of 2 TBs (x = 2). rr
 *     (TB p in queue p mod 2 at p / 2) runs TBs 0-3, then 4-7: a run per
 *     grid row, 2 starts, 0.25. Queue 0 = 0, 4, 1, 5 and queue 1 = 2, 6, 3,
 *     7 (each a 2 x 2 block, column first) run {0, 2, 4, 6}, then {1, 3, 5,
 *     7}: no TB runs beside its left neighbour, 8 starts, 1. One queue of
 *     all 8 in id order, x = 8: one wave, 2 starts (a grid row each), 0.25;
 *     grid_x 0 (one row): 1 start, 0.125;
 *   - the time: spread 1, 4,096 reads of 32 bytes (128 KiB), a 32 KiB
 *     stripe, Tg 1,000: 1,000 x (1 - 1/4) = 750; spread 0.25: 187.5; a
 *     stripe of 128 KiB or more, or none: 0;
 *   - the factor: 2,000 cycles beside 750 at kappa 0.5: 2,375 / 2,000 =
 *     1.1875; kappa < 0: 1;
 *   - the fit: runs made at kappa 0.8 (each candidate's cycles pred x (1 +
 *     0.8 t_row / pred), rr's the same) give back 0.8 to 1e-6, beside a
 *     launch with a run of 0 (skipped); at 4 (the bound) 4; runs with no
 *     rows' time: 0; a NaN: EINVAL naming the launch;
 *   - the launches that identify the cost: of those three the first and
 *     the third (a candidate's rows' time over its cycles is not rr's:
 *     10 / 900 against 10 / 1,000), each moving a gain at kappa 1 at most
 *     by rbts's 1.4 / 1.01 and kway's 1.5 / 1.02 (rr's factor 1 + 10 /
 *     1,000 and 1 + 40 / 2,000); the second is skipped; with no rows'
 *     time none. A launch whose every candidate has rr's 1% (cycles 1,000,
 *     2,000, 500, 1,000, 4,000 beside 10, 20, 5, 10, 40: each reads past
 *     its stripe) identifies nothing either: its runs made at kappa 0.8
 *     give gains that no kappa moves, and the fit's 0 is not 0.8;
 *   - the decision on the GTX 480's Jacobi 512^2 (1 MiB read, a 384 KiB
 *     stripe; nu 4, a line's four sectors, as the runs count reads), its
 *     times but the whole GPU's DRAM time at their floor (so the cycles are
 *     Tg: 13,351.5 for rr, kway's rows' time 2,187.8, rr's 371.8), the
 *     sub-grids' L2 time at beta2 1 making the
 *     candidates' cycles 1, 0.9, 1, 0.8 and 1 x rr's (rr, bcs, mst, kway,
 *     rbts): kway, the fewest L2 accesses, is chosen without the rows'
 *     time; at kappa 2 its spread (its queues' blocks in flight apart: 0.247
 *     against rr's 0.042) costs it 26% against rr's 6% and bcs is chosen. Each
 *     correction is the L2's times (1 + kappa T_row / e) over rr's.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "grouping_fixture.h"
#include "trapeze.h"

static void test_spread(void)
{
    const int rr_g[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    const long rr_o[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    trapeze_grouping g = test_grouping(8, rr_g, rr_o);
    CHECK_NEAR(trapeze_group_row_spread(&g, 4, 2), 0.25, 0);
    trapeze_grouping_free(&g);
    const int blk_g[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    const long blk_o[8] = {0, 2, 0, 2, 1, 3, 1, 3};
    g = test_grouping(8, blk_g, blk_o);
    CHECK_NEAR(trapeze_group_row_spread(&g, 4, 2), 1, 0);
    trapeze_grouping_free(&g);
    const int one_g[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const long one_o[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    g = test_grouping(8, one_g, one_o);
    CHECK_NEAR(trapeze_group_row_spread(&g, 4, 8), 0.25, 0);
    CHECK_NEAR(trapeze_group_row_spread(&g, 0, 8), 0.125, 0);
    trapeze_grouping_free(&g);
}

static void test_time_and_factor(void)
{
    CHECK_NEAR(trapeze_group_row_time(1, 4096, 32768, 1000), 750, 1e-12);
    CHECK_NEAR(trapeze_group_row_time(0.25, 4096, 32768, 1000), 187.5, 1e-12);
    CHECK_NEAR(trapeze_group_row_time(1, 4096, 131072, 1000), 0, 0);
    CHECK_NEAR(trapeze_group_row_time(1, 4096, 0, 1000), 0, 0);
    CHECK_NEAR(trapeze_group_row_factor(2000, 750, 0.5), 1.1875, 1e-15);
    CHECK_NEAR(trapeze_group_row_factor(2000, 750, -1), 1, 0);
}

#define NC 5

static void test_fit(void)
{
    /* three launches of five candidates; the second has a run of 0 */
    const double pred[3 * NC] = {1000, 900, 1100, 950, 1000, 500, 510, 490, 505, 500,
                                 2000, 2100, 1900, 1800, 2200};
    const double trow[3 * NC] = {10, 10, 20, 300, 400, 0, 0, 0, 0, 0, 40, 40, 40, 900, 700};
    double sim[3 * NC], kappa;
    trapeze_error err;
    for (double truth = 0.8; truth <= 4; truth += 3.2) {
        for (int k = 0; k < 3 * NC; k++)
            sim[k] = 7 * (pred[k] + truth * trow[k]);   /* any scale: gains only */
        sim[NC] = 0;
        CHECK_OK(trapeze_group_fit_row_cost(pred, trow, sim, 3, NC, &kappa, &err));
        CHECK_NEAR(kappa, truth, 1e-6);
    }
    double moves[3] = {-1, -1, -1};
    CHECK(trapeze_group_row_cost_launches(pred, trow, sim, 3, NC, moves) == 2);
    CHECK_NEAR(moves[0], log(1.4 / 1.01), 1e-12);
    CHECK_NEAR(moves[1], 0, 0);
    CHECK_NEAR(moves[2], log(1.5 / 1.02), 1e-12);
    const double none[3 * NC] = {0};
    for (int k = 0; k < 3 * NC; k++)
        sim[k] = pred[k];
    CHECK_OK(trapeze_group_fit_row_cost(pred, none, sim, 3, NC, &kappa, &err));
    CHECK_NEAR(kappa, 0, 0);
    CHECK(trapeze_group_row_cost_launches(pred, none, sim, 3, NC, NULL) == 0);
    const double same_p[NC] = {1000, 2000, 500, 1000, 4000}, same_t[NC] = {10, 20, 5, 10, 40};
    double same_s[NC];
    for (int c = 0; c < NC; c++)
        same_s[c] = same_p[c] + 0.8 * same_t[c];
    CHECK(trapeze_group_row_cost_launches(same_p, same_t, same_s, 1, NC, moves) == 0);
    CHECK_NEAR(moves[0], 0, 0);
    CHECK_OK(trapeze_group_fit_row_cost(same_p, same_t, same_s, 1, NC, &kappa, &err));
    CHECK_NEAR(kappa, 0, 0);
    sim[2 * NC + 1] = NAN;
    CHECK(trapeze_group_fit_row_cost(pred, trow, sim, 3, NC, &kappa, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "launch 2 candidate 1") != NULL);
}

/* The decision as in the comment at the top; kappa < 0: no rows' term. */
static const char *decide(trapeze_group_problem *pb, double kappa, char *name, size_t size)
{
    trapeze_error err;
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    const trapeze_group_param fast[] = {TRAPEZE_GROUP_CWAVE, TRAPEZE_GROUP_TL2,
                                        TRAPEZE_GROUP_TDRAM, TRAPEZE_GROUP_TSM};
    for (int k = 0; k < 4; k++) {   /* the SM queue's time at its floor: cycles are Tg */
        double lo, hi;
        trapeze_group_param_range(fast[k], &lo, &hi);
        p.value[fast[k]] = lo;
    }
    p.value[TRAPEZE_GROUP_NU] = 4;   /* a line missed reads its four sectors (the runs' count) */
    p.gain_uncertainty = 0.05;
    p.l2_measured_contention = 1;
    p.dram_rows_cost = kappa;
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb),
                                  trapeze_group_problem_machine(pb), &p, &m, &err));
    const trapeze_group_machine *mc = trapeze_group_problem_machine(pb);
    const trapeze_locality_graph *gr = trapeze_group_problem_graph(pb);
    const double stripe = trapeze_group_problem_dram_stripe_bytes(pb);
    CHECK_NEAR(stripe, 6 * 65536, 0);   /* the GTX 480's 64 KiB below its row bits x 6 */
    const double k[NC] = {1, 0.9, 1, 0.8, 1};
    double e[NC], trow[NC], spread[NC], big = 0;
    for (int c = 0; c < NC; c++) {
        trapeze_grouping g;
        trapeze_group_eval ev;
        memset(&g, 0, sizeof g);
        CHECK_OK(trapeze_group_problem_policy_grouping(
            pb, m, trapeze_tb_policies[trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c)].name, &g,
            &err));
        CHECK_OK(trapeze_group_evaluate(m, &g, &ev, &err));
        CHECK_NEAR(ev.cycles, ev.t_gpu_dram, 1e-9 * ev.cycles);
        e[c] = ev.cycles;
        spread[c] = trapeze_group_row_spread(&g, gr->grid[0], mc->tbs_per_sm);
        trow[c] = trapeze_group_row_time(spread[c], ev.dram_reads, stripe, ev.t_gpu_dram);
        big = e[c] > big ? e[c] : big;
        trapeze_grouping_free(&g);
    }
    CHECK(spread[3] > 5 * spread[0]);   /* kway's blocks in flight apart */
    trapeze_group_window_evidence ev;
    memset(&ev, 0, sizeof ev);
    ev.fit.rms_rel_error = 0.9;   /* no tile beats a candidate by 90% */
    const long n = gr->n_tbs;
    for (int c = 0; c < NC; c++) {   /* beta2 1: corrected = e + t2m = 2 big k */
        ev.sub[c].tbs = 1;
        ev.sub[c].cycles = 1000;
        ev.sub[c].l2_accesses = (2 * big * k[c] - e[c]) * mc->l2_accesses_per_cycle / (double)n;
    }
    trapeze_group_outcome o;
    CHECK_OK(trapeze_group_decide(pb, &p, NULL, &ev, 0, 0.01, 0, &o, &err));
    CHECK(o.dram_rows == (kappa >= 0) && o.l2_measured == 1);
    for (int c = 0; c < NC; c++) {
        const double r = trapeze_group_row_factor(e[c], trow[c], kappa) /
                         trapeze_group_row_factor(e[0], trow[0], kappa);
        const double f = (k[c] / e[c]) / (k[0] / e[0]) * r;
        CHECK_NEAR(o.gpu_factor[c], f, 1e-9 * f);
    }
    snprintf(name, size, "%s", o.choice.source);
    trapeze_group_outcome_free(&o);
    trapeze_group_destroy(m);
    return name;
}

int main(void)
{
    test_spread();
    test_time_and_factor();
    test_fit();
    trapeze_error err;
    char *params[] = {"nx=512", "ny=512"};
    trapeze_group_problem *pb = NULL;
    CHECK_OK(trapeze_group_problem_builtin("data/gpus/gtx480.config", "jacobi", params, 2, 0,
                                           &pb, &err));
    char name[64];
    CHECK(!strcmp(decide(pb, -1, name, sizeof name), "kway"));
    CHECK(!strcmp(decide(pb, 2, name, sizeof name), "bcs"));
    trapeze_group_problem_destroy(pb);
    return check_report("test_group_dram_rows");
}
