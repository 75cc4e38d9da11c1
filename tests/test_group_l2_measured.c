/*
 * The whole GPU's L2 time from the candidates' sub-grids
 * (sampler/group/l2_measured.c, group_decide.c's correction), by hand:
 *   - the time: a sub-grid of 64 TBs that made 6,820 L2 accesses (the GTX
 *     480 Jacobi 512^2 BCS sub-grid's) stands for 6820 / 64 x 1024 =
 *     109,120 accesses of the 1,024-TB launch, 9,093.33 cycles at 12 a
 *     cycle; a sub-grid or an L2 of unknown size: 0;
 *   - the correction: 1000 model cycles beside 600 of L2 time are 1000 at
 *     beta2 0 (1), 1600 at 1 (1.6), (1600 + sqrt(400^2 + 4 x 0.25 x
 *     600,000)) / 2 = 1235.8898944 at 1/4; beside 1500 at 0, 1500 (1.5);
 *     no term (beta2 < 0): 1;
 *   - the decision on a 32 x 32 matmul in 16 x 16 blocks on the GTX 480
 *     (4 TBs, 12 L2 accesses a cycle) at beta2 1 (cycles + L2 time): each
 *     candidate's sub-grid holds c + 1 TBs and made the accesses whose
 *     launch time brings its cycles to K_c = 2 B x (1, 0.8, 0.99, 0.995,
 *     1.2) for rr, bcs, mst, kway, rbts (B the largest model prediction):
 *     the factors over rr's are (K_c / e_c) / (K_rr / e_rr), each
 *     prediction K_c x e_rr / K_rr, and bcs (20% faster) replaces rr under
 *     an uncertainty of 5%. With bcs's and kway's sub-grids swapped, kway
 *     is chosen: a correction taken from another candidate's sub-grid
 *     fails one check or the other;
 *   - the memory time (--memory-measured): the same sub-grid's 5,904 DRAM
 *     reads stand for 94,464 of the launch, 2 transfers each at 7.92 a
 *     cycle: 23,854.5454... cycles, 32,947.8788... with the L2's; 1 transfer
 *     a read below 1; no DRAM rate: the L2's alone;
 *   - the decision with both counts, beta2 1, times in units of 10 B (the
 *     model's cycles negligible beside them): rr's sub-grid L2 time 2 and
 *     DRAM time 1, kway's 1 and 2.5, bcs, mst and rbts 2.2 and 1.5. By the
 *     L2 alone kway is about 50% faster than rr and replaces it; with the
 *     DRAM (3 against 3.5) nothing beats rr and rr is kept: a price that
 *     leaves out the DRAM side, or takes another candidate's reads, picks
 *     kway. Each correction is (e_c + T_c) / e_c over rr's, T_c the sum.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static void test_time(void)
{
    trapeze_group_measured sub;
    memset(&sub, 0, sizeof sub);
    sub.l2_accesses = 6820;
    sub.tbs = 64;
    CHECK_NEAR(trapeze_group_l2_measured_time(&sub, 1024, 12), 109120.0 / 12, 1e-9);
    CHECK_NEAR(trapeze_group_l2_measured_time(&sub, 1024, 0), 0, 0);
    sub.tbs = 0;
    CHECK_NEAR(trapeze_group_l2_measured_time(&sub, 1024, 12), 0, 0);
}

static void test_memory_time(void)
{
    trapeze_group_measured sub;
    memset(&sub, 0, sizeof sub);
    sub.l2_accesses = 6820;
    sub.dram_reads = 5904;
    sub.tbs = 64;
    trapeze_group_machine mc;
    memset(&mc, 0, sizeof mc);
    mc.l2_accesses_per_cycle = 12;
    mc.dram_reads_per_cycle = 7.92;
    mc.dram_read_transfers = 2;
    const double t2 = 109120.0 / 12, td = 94464.0 * 2 / 7.92;
    CHECK_NEAR(td, 23854.545454545, 1e-6);
    CHECK_NEAR(trapeze_group_memory_measured_time(&sub, 1024, &mc), t2 + td, 1e-9);
    mc.dram_read_transfers = 0.5;   /* a read moves at least one transfer */
    CHECK_NEAR(trapeze_group_memory_measured_time(&sub, 1024, &mc), t2 + td / 2, 1e-9);
    mc.dram_reads_per_cycle = 0;
    CHECK_NEAR(trapeze_group_memory_measured_time(&sub, 1024, &mc), t2, 1e-9);
    sub.tbs = 0;
    CHECK_NEAR(trapeze_group_memory_measured_time(&sub, 1024, &mc), 0, 0);
}

static void test_factor(void)
{
    CHECK_NEAR(trapeze_group_l2_measured_factor(1000, 600, 0), 1, 1e-15);
    CHECK_NEAR(trapeze_group_l2_measured_factor(1000, 600, 1), 1.6, 1e-15);
    CHECK_NEAR(trapeze_group_l2_measured_factor(1000, 600, 0.25), 1.2358898944, 1e-10);
    CHECK_NEAR(trapeze_group_l2_measured_factor(1000, 1500, 0), 1.5, 1e-15);
    CHECK_NEAR(trapeze_group_l2_measured_factor(1000, 600, -1), 1, 0);
}

#define NC 5

/* The model's cycles e[c] for each fixed policy's grouping; returns the
 * largest. */
static double model_cycles(trapeze_group_problem *pb, trapeze_group_model *m, double e[NC])
{
    trapeze_error err;
    double big = 0;
    for (int c = 0; c < NC; c++) {
        const char *pol = trapeze_tb_policies[trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c)].name;
        trapeze_grouping g;
        trapeze_group_eval ev_c;
        memset(&g, 0, sizeof g);
        CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, pol, &g, &err));
        CHECK_OK(trapeze_group_evaluate(m, &g, &ev_c, &err));
        e[c] = ev_c.cycles;
        big = e[c] > big ? e[c] : big;
        trapeze_grouping_free(&g);
    }
    return big;
}

/* The decision with sub-grids measured so that the corrected cycles are
 * K[c]; swap: bcs's and kway's sub-grids exchanged. Returns the choice. */
static const char *decide(trapeze_group_problem *pb, const double k[NC], int swap, char *name,
                          size_t size)
{
    trapeze_error err;
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.gain_uncertainty = 0.05;
    p.l2_measured_contention = 1;
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb),
                                  trapeze_group_problem_machine(pb), &p, &m, &err));
    const long n = trapeze_group_problem_graph(pb)->n_tbs;
    const double rate = trapeze_group_problem_machine(pb)->l2_accesses_per_cycle;
    CHECK(n == 4 && rate == 12);
    trapeze_group_window_evidence ev;
    memset(&ev, 0, sizeof ev);
    ev.fit.rms_rel_error = 0.9;   /* no tile beats a candidate by 90% */
    double e[NC];
    const double big = model_cycles(pb, m, e);
    double kc[NC];
    for (int c = 0; c < NC; c++) {
        kc[c] = 2 * big * k[c];
        /* beta2 1: corrected = e + t2m, t2m = l2 / tbs x n / rate */
        const int at = !swap ? c : c == 1 ? 3 : c == 3 ? 1 : c;
        ev.sub[at].tbs = at + 1;
        ev.sub[at].l2_accesses = (kc[c] - e[c]) * rate * (at + 1) / (double)n;
        ev.sub[at].cycles = 1000;
    }
    trapeze_group_outcome o;
    CHECK_OK(trapeze_group_decide(pb, &p, NULL, &ev, 0, 0.01, 0, &o, &err));
    CHECK(o.l2_measured == 1);
    for (int c = 0; !swap && c < NC; c++) {
        const int row = trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c);
        const double f = (kc[c] / e[c]) / (kc[0] / e[0]);
        CHECK_NEAR(o.gpu_factor[c], f, 1e-12 * f);
        CHECK_NEAR(o.pred[row].cycles, kc[c] * e[0] / kc[0], 1e-9 * kc[c]);
    }
    snprintf(name, size, "%s", o.choice.source);
    trapeze_group_outcome_free(&o);
    trapeze_group_destroy(m);
    return name;
}

/* The decision with both counts (memory 1) or the L2's alone (0), each
 * candidate's sub-grid times t2[c] and td[c] in units of 10 B. Returns the
 * choice. */
static const char *decide_memory(trapeze_group_problem *pb, const double t2[NC],
                                 const double td[NC], int memory, char *name, size_t size)
{
    trapeze_error err;
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.gain_uncertainty = 0.05;
    if (memory)
        p.memory_measured_contention = 1;
    else
        p.l2_measured_contention = 1;
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb),
                                  trapeze_group_problem_machine(pb), &p, &m, &err));
    const trapeze_group_machine *mc = trapeze_group_problem_machine(pb);
    const long n = trapeze_group_problem_graph(pb)->n_tbs;
    CHECK(mc->dram_reads_per_cycle > 7.9 && mc->dram_reads_per_cycle < 7.93 &&
          mc->dram_read_transfers == 2);
    trapeze_group_window_evidence ev;
    memset(&ev, 0, sizeof ev);
    ev.fit.rms_rel_error = 0.9;
    double e[NC];
    const double big = model_cycles(pb, m, e);
    for (int c = 0; c < NC; c++) {   /* counts whose launch times are t2 and td x 10 B */
        ev.sub[c].tbs = 1;
        ev.sub[c].cycles = 1000;
        ev.sub[c].l2_accesses = t2[c] * 10 * big * mc->l2_accesses_per_cycle / (double)n;
        ev.sub[c].dram_reads = td[c] * 10 * big * mc->dram_reads_per_cycle / (2.0 * n);
    }
    trapeze_group_outcome o;
    CHECK_OK(trapeze_group_decide(pb, &p, NULL, &ev, 0, 0.01, 0, &o, &err));
    CHECK(o.l2_measured == (memory ? 2 : 1));
    for (int c = 0; c < NC; c++) {
        const double t = 10 * big * (memory ? t2[c] + td[c] : t2[c]);
        const double t0 = 10 * big * (memory ? t2[0] + td[0] : t2[0]);
        const double f = ((e[c] + t) / e[c]) / ((e[0] + t0) / e[0]);
        CHECK_NEAR(o.gpu_factor[c], f, 1e-12 * f);
    }
    snprintf(name, size, "%s", o.choice.source);
    trapeze_group_outcome_free(&o);
    trapeze_group_destroy(m);
    return name;
}

int main(void)
{
    test_time();
    test_memory_time();
    test_factor();
    trapeze_error err;
    char *params[] = {"n=32", "block=16"};
    trapeze_group_problem *pb = NULL;
    CHECK_OK(trapeze_group_problem_builtin("data/gpus/gtx480.config", "matmul", params, 2, 0,
                                           &pb, &err));
    char name[64];
    const double gain[NC] = {1, 0.8, 0.99, 0.995, 1.2}, small[NC] = {1, 0.97, 0.99, 0.995, 1.2};
    CHECK(!strcmp(decide(pb, gain, 0, name, sizeof name), "bcs"));
    CHECK(!strcmp(decide(pb, gain, 1, name, sizeof name), "kway"));
    CHECK(!strcmp(decide(pb, small, 0, name, sizeof name), "rr"));
    /* rr, bcs, mst, kway, rbts: kway the fewest L2 accesses, the most DRAM reads */
    const double t2[NC] = {2, 2.2, 2.2, 1, 2.2}, td[NC] = {1, 1.5, 1.5, 2.5, 1.5};
    CHECK(!strcmp(decide_memory(pb, t2, td, 0, name, sizeof name), "kway"));
    CHECK(!strcmp(decide_memory(pb, t2, td, 1, name, sizeof name), "rr"));
    trapeze_group_problem_destroy(pb);
    return check_report("test_group_l2_measured");
}
