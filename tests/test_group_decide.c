/*
 * The grouping decision from sub-grid samples alone (sampler/group/group_decide.c,
 * what `trapeze validate --model group` runs), on syrk n=64 (16 TBs) on the
 * GTX 480 at the default constants, where the model predicts (cycles) rr
 * 19208.5, bcs 24745.9, mst 21081.0, kway 19208.5 (rr's), rbts 19181.3
 * (0.14% faster than rr): kway equal to round-robin, rbts barely faster,
 * bcs and mst slower. A candidate replaces round-robin only when its
 * sub-grid beat rr's by the margin and the model predicts it faster than
 * rr by more than the margin and the measured uncertainty of a gain:
 *   - the sub-grids measured (cycles) rr 1000 and kway 900, the rest 1000:
 *     round-robin (kway's prediction equals rr's: the vecadd case, where a
 *     one-SM sub-grid's lead did not hold on the whole GPU);
 *   - kway 900 and rbts 850: rbts when its 0.14% predicted gain exceeds
 *     the margin (0.1%) and the uncertainty (not measured, or 0.1%);
 *     round-robin when the uncertainty is 0.2% or the margin 1%;
 *   - mst 800, the rest 1000: round-robin (mst predicted 9.75% slower),
 *     whatever the margin;
 *   - kway 995: round-robin (0.5% is inside the 1% margin);
 *   - the outcome carries the sub-grids' fit and the uncertainty given, and
 *     the fit's rms error (here 0.9) raises the margin the tiles must beat
 *     (none does by 90%), so the choice is always one of the five above.
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

int main(void)
{
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
    const double want[5] = {19208.5, 24745.9, 21081.0, 19208.5, 19181.3};
    for (int c = 0; c < 5; c++) {
        trapeze_grouping g;
        trapeze_group_eval e;
        memset(&g, 0, sizeof g);
        CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, names[c], &g, &err));
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, &err));
        CHECK_NEAR(e.cycles, want[c], 0.05);
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
    /* a predicted gain (0.14%) below the margin or the uncertainty: rr */
    CHECK(!strcmp(decide(pb, rbts_faster, 0.01, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, rbts_faster, 0.001, 0.002, got, sizeof got), "rr"));
    /* above both: the grouping */
    CHECK(!strcmp(decide(pb, rbts_faster, 0.001, -1, got, sizeof got), "rbts"));
    CHECK(!strcmp(decide(pb, rbts_faster, 0.001, 0.001, got, sizeof got), "rbts"));
    /* predicted slower than rr: never, whatever the sub-grid or the margin */
    CHECK(!strcmp(decide(pb, mst_fast, 0.01, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, mst_fast, 0.10, -1, got, sizeof got), "rr"));
    CHECK(!strcmp(decide(pb, kway_close, 0.01, -1, got, sizeof got), "rr"));
    trapeze_group_problem_destroy(pb);
    return check_report("test_group_decide");
}
