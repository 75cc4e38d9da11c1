/*
 * The grouping decision from sub-grid samples alone (sampler/group/group_decide.c,
 * what `trapeze validate --model group` runs), on syrk n=64 (16 TBs) on the
 * GTX 480 at the default constants (its DRAM reads in lines), where the
 * model predicts (cycles) rr 5874.057, bcs 6019.279, mst 6005.639, kway
 * 5874.057 (rr's), rbts 5873.970 (0.0015% faster than rr): kway equal to
 * round-robin, rbts barely faster,
 * bcs and mst slower. A candidate replaces round-robin only when its
 * sub-grid beat rr's by the margin and the model predicts it faster than
 * rr by more than the margin and the measured uncertainty of a gain:
 *   - the sub-grids measured (cycles) rr 1000 and kway 900, the rest 1000:
 *     round-robin (kway's prediction equals rr's: the vecadd case, where a
 *     one-SM sub-grid's lead did not hold on the whole GPU);
 *   - kway 900 and rbts 850: rbts when its 0.0015% predicted gain exceeds
 *     the margin (0.001%) and the uncertainty (not measured, or 0.001%);
 *     round-robin when the uncertainty is 0.002% or the margin 1%;
 *   - mst 800, the rest 1000: round-robin (mst predicted 2.2% slower),
 *     whatever the margin;
 *   - kway 995: round-robin (0.5% is inside the 1% margin);
 *   - the outcome carries the sub-grids' fit and the uncertainty given, and
 *     the fit's rms error (here 0.9) raises the margin the tiles must beat
 *     (none does by 90%), so the choice is always one of the five above;
 *   - the uncertainty measured paired per launch (sampler/group/gain_error.c)
 *     lets rbts through where the same launches' unpaired error keeps rr
 *     (test_gain_uncertainty).
 */
#include <string.h>

#include "check.h"
#include "trapeze.h"

static const char *decide(trapeze_group_problem *pb, const double sub[5], double margin,
                          double uncertainty, char *out, size_t n)
{
    trapeze_error err;
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.gain_uncertainty = uncertainty;
    trapeze_group_window_evidence ev;
    memset(&ev, 0, sizeof ev);
    for (int c = 0; c < 5; c++)
        ev.sub[c].cycles = sub[c];
    ev.fit.rms_rel_error = 0.9;
    trapeze_group_outcome o;
    CHECK_OK(trapeze_group_decide(pb, &p, NULL, &ev, 0, margin, 0, &o, &err));
    CHECK(o.fitted == 1 && o.fit.rms_rel_error == 0.9 && o.margin == 0.9);
    CHECK(o.uncertainty == uncertainty);
    CHECK(o.predicted[6] && !o.simulated[6]);
    snprintf(out, n, "%s", o.choice.source);
    trapeze_group_outcome_free(&o);
    return out;
}

/* The DRAM contention fitted to whole runs (sampler/group/group_contention.c):
 * runs made at beta 0.3 give back 0.3; a run whose DRAM time is under half
 * its queue's (a queue model's miss, 2x here) is not taken; none usable: 0. */
static void test_fit_contention(void)
{
    double norm[4] = {100, 50, 200, 1000}, tg[4] = {80, 120, 150, 10}, sim[4];
    for (int i = 0; i < 3; i++)
        sim[i] = trapeze_group_contention_cycles(norm[i], tg[i], 0.3);
    sim[3] = 2000;
    double beta = -1;
    trapeze_error err;
    CHECK_OK(trapeze_group_fit_contention(norm, tg, sim, 4, &beta, &err));
    CHECK_NEAR(beta, 0.3, 1e-7);
    CHECK_OK(trapeze_group_fit_contention(norm + 3, tg + 3, sim + 3, 1, &beta, &err));
    CHECK(beta == 0);
    sim[1] = -5;
    CHECK(trapeze_group_fit_contention(norm, tg, sim, 4, &beta, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "point 1") != NULL);
}

/* The uncertainty of a gain (sampler/group/gain_error.c) on three tiny
 * launches of rr and one candidate, (pred rr, pred c, sim rr, sim c):
 *   A (110, 99, 100, 90): both 10% slow, the same gain, 10%;
 *   B (100, 100, 200, 200): both 50% fast, no gain;
 *   C (100, 80, 100, 90): a gain of 20% predicted, 10% run.
 * Candidate errors, by hand: difference (sim_c/sim_rr - pred_c/pred_rr)
 * 0, 0, 0.1: u = sqrt(0.01 / 3) = 0.0577350; ratio 0, 0, 0.8/0.9 - 1 =
 * -0.1111: u = 0.0641500; unpaired (pred_c/sim_c - 1) 0.1, -0.5, -0.1111:
 * u = sqrt(0.2723457 / 3) = 0.3013003; B held out, difference 0.0707107.
 * Then launches whose only gain error is 1e-5 (A': pred 1000, 1000, sim
 * 1100, 1100; B': pred 1000, 999.99, sim 1000, 1000; C' exact): paired u
 * sqrt(1e-10 / 3) = 5.7735e-6, under the syrk fixture's rbts gain
 * (0.0015%), so rbts replaces rr; unpaired u sqrt((1/121 + 1e-10) / 3) =
 * 0.0524864, over it, so rr stays. */
static void test_gain_uncertainty(trapeze_group_problem *pb)
{
    const double l[3][4] = {{110, 99, 100, 90}, {100, 100, 200, 200}, {100, 80, 100, 90}};
    const double want[3] = {0.0577350, 0.0641500, 0.3013003};
    const trapeze_group_gain_form forms[3] = {TRAPEZE_GROUP_GAIN_DIFFERENCE,
                                              TRAPEZE_GROUP_GAIN_RATIO,
                                              TRAPEZE_GROUP_GAIN_ABSOLUTE};
    double e[3][3];
    for (int f = 0; f < 3; f++) {
        for (int i = 0; i < 3; i++)
            e[f][i] = trapeze_group_gain_error(forms[f], l[i][1], l[i][0], l[i][3], l[i][2]);
        CHECK_NEAR(trapeze_group_gain_uncertainty(e[f], 3, 1, -1), want[f], 1e-7);
    }
    CHECK_NEAR(e[0][2], 0.1, 1e-12);
    CHECK_NEAR(trapeze_group_gain_uncertainty(e[0], 3, 1, 1), 0.0707107, 1e-7);
    CHECK(trapeze_group_gain_uncertainty(e[0], 1, 1, 0) == -1);

    const double t[3][4] = {{1000, 1000, 1100, 1100}, {1000, 999.99, 1000, 1000},
                            {1000, 1000, 1000, 1000}};
    double paired[3], unpaired[3];
    for (int i = 0; i < 3; i++) {
        paired[i] = trapeze_group_gain_error(TRAPEZE_GROUP_GAIN_DIFFERENCE, t[i][1], t[i][0],
                                             t[i][3], t[i][2]);
        unpaired[i] = trapeze_group_gain_error(TRAPEZE_GROUP_GAIN_ABSOLUTE, t[i][1], t[i][0],
                                               t[i][3], t[i][2]);
    }
    const double up = trapeze_group_gain_uncertainty(paired, 3, 1, -1),
                 uu = trapeze_group_gain_uncertainty(unpaired, 3, 1, -1);
    CHECK_NEAR(up, 5.7735e-6, 1e-9);
    CHECK_NEAR(uu, 0.0524864, 1e-7);
    const double rbts_faster[5] = {1000, 1000, 1000, 900, 850};
    char got[32];
    CHECK(!strcmp(decide(pb, rbts_faster, 1e-5, up, got, sizeof got), "rbts"));
    CHECK(!strcmp(decide(pb, rbts_faster, 1e-5, uu, got, sizeof got), "rr"));
}

int main(void)
{
    test_fit_contention();
    trapeze_error err;
    char *params[] = {"n=64"};
    trapeze_group_problem *pb = NULL;
    CHECK_OK(trapeze_group_problem_builtin("data/gpus/gtx480.config", "syrk", params, 1, 0, &pb,
                                           &err));
    /* the model's view, as the header says */
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb), trapeze_group_problem_machine(pb),
                                  &p, &m, &err));
    const char *names[5] = {"rr", "bcs", "mst", "kway", "rbts"};
    const double want[5] = {5874.057, 6019.279, 6005.639, 5874.057, 5873.970};
    for (int c = 0; c < 5; c++) {
        trapeze_grouping g;
        trapeze_group_eval e;
        memset(&g, 0, sizeof g);
        CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, names[c], &g, &err));
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, &err));
        CHECK_NEAR(e.cycles, want[c], 0.001);
        trapeze_grouping_free(&g);
    }
    trapeze_group_destroy(m);

    char got[32];
    const double kway_fast[5] = {1000, 1000, 1000, 900, 1000};
    const double rbts_faster[5] = {1000, 1000, 1000, 900, 850};
    const double mst_fast[5] = {1000, 1000, 800, 1000, 1000};
    const double kway_close[5] = {1000, 1000, 1000, 995, 1000};
    /* equal predictions: round-robin stays, however fast the sub-grid */
    CHECK(!strcmp(decide(pb, kway_fast, 0.01, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, kway_fast, 0, -1, got, sizeof got), "rr"));
    /* a predicted gain (0.0015%) below the margin or the uncertainty: rr */
    CHECK(!strcmp(decide(pb, rbts_faster, 0.01, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, rbts_faster, 1e-5, 2e-5, got, sizeof got), "rr"));
    /* above both: the grouping */
    CHECK(!strcmp(decide(pb, rbts_faster, 1e-5, -1, got, sizeof got), "rbts"));
    CHECK(!strcmp(decide(pb, rbts_faster, 1e-5, 1e-5, got, sizeof got), "rbts"));
    /* predicted slower than rr: never, whatever the sub-grid or the margin */
    CHECK(!strcmp(decide(pb, mst_fast, 0.01, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, mst_fast, 0.10, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, kway_close, 0.01, -1, got, sizeof got), "rr"));
    test_gain_uncertainty(pb);
    trapeze_group_problem_destroy(pb);
    return check_report("test_group_decide");
}
