/*
 * The whole-GPU windows (sampler/group/gpu_window.c, group_window.c's
 * trapeze_group_window_create_gpu, group_decide.c's correction,
 * group_samples.c's budget split), by hand:
 *   - the TBs a queue under a part of the warp instructions: queues of 4
 *     and 3 TBs, 10 instructions each but TB 6 (40): by position 20, 20,
 *     50, 10; part 45 -> 2 (40), part 15 -> 1 (20: at least one), part
 *     1000 -> 4 (100), no count -> 1 (0);
 *   - the correction: window measured 1500 against N 1000, Tg 600: beta 0
 *     predicts 1000 (1.5), beta 1 1600 (0.9375), beta 1/4
 *     (1600 + sqrt(400^2 + 4 x 0.25 x 600,000)) / 2 = 1235.8898944 (1.2137004);
 *     no window (0 measured): 1;
 *   - the window of a 32 x 32 matmul in 16 x 16 blocks (4 TBs) on the GTX
 *     480 grouped in two queues, 2 then 0 and 1 then 3: k = 1 is TBs 1 and
 *     2 on all 15 SMs, renumbered 0 and 1, queues 1 and 0; its model at
 *     mu = eta1 = 1 reads 1024 + 1024 elements from L2 (no queue shares
 *     with itself); its simulation runs exactly half the launch's warp
 *     instructions (2,656 of 5,312; the simulator refused a grouping
 *     file with a group at the SM count before windows of all SMs);
 *   - the decision: with window measurements set so that the model's
 *     whole-launch cycles times the windows' factors are rr 1000, bcs 800,
 *     mst 990, kway 995, rbts 1200 (K), each prediction is corrected
 *     relative to rr's, to K_c x pred_rr / K_rr (rr's stays the model's),
 *     the factors over rr's are reported, and bcs (20% faster) replaces rr
 *     under an uncertainty of 5%; with bcs at 970 (3%) rr stays;
 *   - the budget split on the GTX 480 (5% budget, half to the windows,
 *     each candidate's window 0.5 x 6 x 0.05 / 0.95 / 5 = 3.158% of the
 *     launch): Jacobi 2048^2 (16,384 TBs of equal work, rr's queues of
 *     1,092 or 1,093) gets windows of 34 TBs a queue (510 TBs, 3.11%; 35
 *     would be 3.20%), at least the 6 an SM holds at once, and sub-grids
 *     of 3.158% of the TBs (ids ...w1b5g50); Jacobi 512^2 (1,024 TBs)
 *     would get 2 TBs a queue, under a wave of 6, and matmul (169 TBs)
 *     not one TB a queue (15 TBs, 8.9%): no windows, their sub-grids the
 *     whole budget's 6.3158% (ids ...w1b5, as without windows).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "sampler/group/gpu_window.h"
#include "trapeze.h"

static void test_tbs(void)
{
    trapeze_locality_graph graph;
    memset(&graph, 0, sizeof graph);
    long long insts[7] = {10, 10, 10, 10, 10, 10, 40};
    graph.n_tbs = 7;
    graph.warp_insts = insts;
    trapeze_grouping g;
    trapeze_error err;
    CHECK_OK(trapeze_grouping_alloc(&g, 7, 2, &err));
    const int group[7] = {0, 0, 0, 0, 1, 1, 1};
    const long order[7] = {0, 1, 2, 3, 0, 1, 2};
    for (int t = 0; t < 7; t++) {
        g.group[t] = group[t];
        g.order[t] = order[t];
    }
    double got;
    CHECK(trapeze_group_gpu_window_tbs(&graph, &g, 45, &got) == 2);
    CHECK_NEAR(got, 40, 0);
    CHECK(trapeze_group_gpu_window_tbs(&graph, &g, 15, &got) == 1);
    CHECK_NEAR(got, 20, 0);
    CHECK(trapeze_group_gpu_window_tbs(&graph, &g, 1000, &got) == 4);
    CHECK_NEAR(got, 100, 0);
    graph.warp_insts = NULL;
    CHECK(trapeze_group_gpu_window_tbs(&graph, &g, 1000, &got) == 1);
    CHECK_NEAR(got, 0, 0);
    trapeze_grouping_free(&g);
}

static void test_factor(void)
{
    CHECK_NEAR(trapeze_group_gpu_window_factor(1500, 1000, 600, 0), 1.5, 1e-15);
    CHECK_NEAR(trapeze_group_gpu_window_factor(1500, 1000, 600, 1), 0.9375, 1e-15);
    CHECK_NEAR(trapeze_group_gpu_window_factor(1500, 1000, 600, 0.25), 1.2137004, 1e-7);
    CHECK_NEAR(trapeze_group_gpu_window_factor(0, 1000, 600, 0.25), 1, 0);
}

static void test_window(trapeze_group_problem *pb)
{
    trapeze_error err;
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 4, 2, &err));
    fixture_set_grouping(&g, (int[]){0, 1, 0, 1}, (long[]){1, 0, 0, 1});
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_MU] = 1;
    p.value[TRAPEZE_GROUP_ETA1] = 1;
    trapeze_group_window *w = NULL;
    CHECK_OK(trapeze_group_window_create_gpu(pb, &g, 1, &p, &w, &err));
    const trapeze_grouping *wg = trapeze_group_window_grouping(w);
    CHECK(trapeze_group_window_tbs(w) == 2 && wg->n_groups == 15);
    CHECK(wg->group[0] == 1 && wg->order[0] == 0 && wg->group[1] == 0 && wg->order[1] == 0);
    trapeze_group_eval e;
    CHECK_OK(trapeze_group_evaluate(trapeze_group_window_model(w), wg, &e, &err));
    CHECK_NEAR(e.l2_accesses, 2048, 1e-9);
    trapeze_group_measured m;
    CHECK_OK(trapeze_group_window_simulate(pb, w, 0, &m, &err));
    CHECK_NEAR(m.warp_instructions, 2656, 0);
    CHECK_NEAR(trapeze_group_window_warp_insts(w), 2656, 0);
    trapeze_group_window_destroy(w);
    CHECK(trapeze_group_window_create_gpu(pb, &g, 0, &p, &w, &err) == TRAPEZE_ERANGE);
    trapeze_grouping_free(&g);
}

/* The decision with windows measured so that the corrected cycles are K[c]. */
static const char *decide(trapeze_group_problem *pb, const double K[5], char *name, size_t n)
{
    trapeze_error err;
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.gain_uncertainty = 0.05;
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb),
                                  trapeze_group_problem_machine(pb), &p, &m, &err));
    trapeze_group_window_evidence ev;
    memset(&ev, 0, sizeof ev);
    ev.fit.rms_rel_error = 0.9;   /* no tile beats a candidate by 90% */
    double whole[5], factor[5];
    for (int c = 0; c < 5; c++) {
        const char *pol = trapeze_tb_policies[trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c)].name;
        trapeze_grouping g;
        trapeze_group_eval e, ew;
        trapeze_group_window *w = NULL;
        memset(&g, 0, sizeof g);
        CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, pol, &g, &err));
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, &err));
        CHECK_OK(trapeze_group_window_create_gpu(pb, &g, 1, &p, &w, &err));
        CHECK_OK(trapeze_group_evaluate(trapeze_group_window_model(w),
                                        trapeze_group_window_grouping(w), &ew, &err));
        whole[c] = e.cycles;
        factor[c] = K[c] / e.cycles;
        ev.gpu_k[c] = 1;
        ev.sub[c].cycles = 1000;
        ev.gpu[c].cycles = ew.cycles * factor[c];
        trapeze_group_window_destroy(w);
        trapeze_grouping_free(&g);
    }
    trapeze_group_outcome o;
    CHECK_OK(trapeze_group_decide(pb, &p, NULL, &ev, 0, 0.01, 0, &o, &err));
    for (int c = 0; c < 5; c++) {
        const int row = trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c);
        CHECK_NEAR(o.gpu_factor[c], factor[c] / factor[0], 1e-12 * factor[c] / factor[0]);
        CHECK_NEAR(o.pred[row].cycles, K[c] * whole[0] / K[0], 1e-9 * K[c]);
    }
    snprintf(name, n, "%s", o.choice.source);
    const int opt = TRAPEZE_GROUP_NPOLICIES - 1;
    CHECK_NEAR(o.pred[opt].cycles, (strcmp(name, "bcs") ? K[0] : K[1]) * whole[0] / K[0],
               1e-9 * K[0]);
    trapeze_group_outcome_free(&o);
    trapeze_group_destroy(m);
    return name;
}

/* The row of the plan whose id is `id`, NULL when none. */
static const trapeze_sample_row *row_of(const trapeze_sample_set *set, const char *id)
{
    for (int i = 0; i < set->count; i++)
        if (!strcmp(set->rows[i].id, id))
            return &set->rows[i];
    return NULL;
}

static void test_budget_split(void)
{
    trapeze_error err;
    const trapeze_group_launch l[3] = {
        {"jacobi", "nx=2048 ny=2048", 0}, {"jacobi", "nx=512 ny=512", 0}, {"matmul", "", 0}};
    trapeze_group_plan *plan = NULL;
    CHECK_OK(trapeze_group_plan_create("data/gpus/gtx480.config", "gtx480", l, 3, 1, 1, 0.04, 0,
                                       0.05, 0.5, &plan, &err));
    const trapeze_sample_set *set = trapeze_group_plan_set(plan);
    const trapeze_sample_row *r = row_of(set, "jacobi.nx=2048.ny=2048.l0.rr.g34");
    CHECK(r != NULL && trapeze_row_number(r, "window_sms") == 15);
    CHECK(row_of(set, "jacobi.nx=2048.ny=2048.l0.bcs.g34") != NULL);
    r = row_of(set, "jacobi.nx=2048.ny=2048.l0.rr.w1b5g50");
    CHECK(r != NULL);
    CHECK_NEAR(trapeze_row_number(r, "window_pct"), 100 * 0.5 * 6 * 0.05 / 0.95 / 5, 1e-9);
    for (int i = 0; i < 2; i++) {
        r = row_of(set, i ? "matmul.l0.rr.w1b5" : "jacobi.nx=512.ny=512.l0.rr.w1b5");
        CHECK(r != NULL);
        CHECK_NEAR(trapeze_row_number(r, "window_pct"), 100 * 6 * 0.05 / 0.95 / 5, 1e-9);
    }
    int windows = 0;   /* only Jacobi 2048^2's five */
    for (int i = 0; i < set->count; i++)
        windows += trapeze_row_number(&set->rows[i], "window_sms") == 15;
    CHECK(windows == 5);
    /* each launch's problem, kept for the fit: its graph is the launch's
     * (Jacobi 2048^2 in 16 x 16 blocks: 128 x 128 TBs; 512^2: 32 x 32) */
    CHECK(trapeze_group_problem_graph(trapeze_group_plan_problem(plan, 0))->n_tbs == 128 * 128);
    CHECK(trapeze_group_problem_graph(trapeze_group_plan_problem(plan, 1))->n_tbs == 32 * 32);
    CHECK(trapeze_group_plan_problem(plan, 3) == NULL && trapeze_group_plan_problem(plan, -1) == NULL);
    trapeze_group_plan_destroy(plan);
    CHECK(trapeze_group_plan_create("data/gpus/gtx480.config", "gtx480", l, 2, 1, 1, 0.04, 0,
                                    0.05, 1, &plan, &err) == TRAPEZE_ERANGE);
    CHECK(trapeze_group_plan_create("data/gpus/gtx480.config", "gtx480", l, 2, 1, 1, 0.04, 0, 0,
                                    0.5, &plan, &err) == TRAPEZE_ERANGE);
}

int main(void)
{
    test_tbs();
    test_factor();
    trapeze_error err;
    char *params[] = {"n=32", "block=16"};
    trapeze_group_problem *pb = NULL;
    CHECK_OK(trapeze_group_problem_builtin("data/gpus/gtx480.config", "matmul", params, 2, 0,
                                           &pb, &err));
    test_window(pb);
    char name[64];
    const double gain[5] = {1000, 800, 990, 995, 1200}, small[5] = {1000, 970, 990, 995, 1200};
    CHECK(!strcmp(decide(pb, gain, name, sizeof name), "bcs"));
    CHECK(!strcmp(decide(pb, small, name, sizeof name), "rr"));
    trapeze_group_problem_destroy(pb);
    test_budget_split();
    return check_report("test_gpu_window");
}
