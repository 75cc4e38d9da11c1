/*
 * Tests the validation's shared run (sim/sample/window.c,
 * sampler/sleep/sleep_sample.c): which settings hide every wake-up
 * (sim_sleep_hides_wakes: Snooze's 2-cycle wake within its 3-cycle warning
 * at any time-out; Slumber only where shallow sits at deep's threshold;
 * Snooze with a 1-cycle warning exposes one cycle), and that settings
 * evaluated on one run always on give what each one's own whole run with
 * its policy in the timing gives, to the bit (mode cycles, periods,
 * stalls, saving, penalty, cycles, work), while differing from each other.
 * GTX 480, default power profile, vecadd n=16384.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sampler/sleep/sleep_calib.h"
#include "sim/sim.h"
#include "sim_fixture.h"

/* The GTX 480's config with `extra` appended. */
static trapeze_config *gtx480(const char *extra)
{
    return fixture_gtx480_with(extra, "gtx480-test.config");
}

static int hides(const trapeze_config *cfg, const trapeze_power *pw, int x, double a, double b,
                 double c)
{
    double theta[TRAPEZE_SLEEP_MAX_MODES] = {a, b, c, 0};
    int hidden = -1;
    trapeze_error err;
    CHECK_OK(sim_sleep_hides_wakes(cfg, pw, x, theta, &hidden, &err));
    return hidden;
}

static void test_hides(const trapeze_power *pw)
{
    trapeze_config *cfg = gtx480("");
    CHECK(hides(cfg, pw, TRAPEZE_PS_L1D, 0, 0, 0) == 1);
    CHECK(hides(cfg, pw, TRAPEZE_PS_L2, 64, 64, 0) == 1);
    CHECK(hides(cfg, pw, TRAPEZE_PS_RF, 4, 13, 16) == 0);   /* shallow wakes in 4 > 3 */
    CHECK(hides(cfg, pw, TRAPEZE_PS_RF, 12, 13, 21) == 0);  /* one cycle of shallow still */
    CHECK(hides(cfg, pw, TRAPEZE_PS_RF, 13, 13, 21) == 1);  /* deep and gated: countdowns */
    trapeze_config_destroy(cfg);
    cfg = gtx480("-trapeze_sleep_lookahead_l1d 1");
    CHECK(hides(cfg, pw, TRAPEZE_PS_L1D, 0, 0, 0) == 0);    /* a 2-cycle wake, 1 ahead */
    CHECK(hides(cfg, pw, TRAPEZE_PS_L2, 0, 0, 0) == 1);
    trapeze_config_destroy(cfg);
}

static void test_shared_run(const trapeze_power *pw)
{
    trapeze_config *cfg = gtx480("");
    trapeze_error err;
    trapeze_sleep_job *j = malloc(sizeof *j);
    CHECK(j != NULL);
    CHECK_OK(trapeze_sleep_job_parse("vecadd n=16384", NULL, j, &err));
    enum { N = 4 };
    const int x[N] = {TRAPEZE_PS_L1D, TRAPEZE_PS_L1D, TRAPEZE_PS_L2, TRAPEZE_PS_RF};
    const double theta[N][TRAPEZE_SLEEP_MAX_MODES] = {
        {0, 0, 0, 0}, {8, 8, 0, 0}, {2, 2, 0, 0}, {13, 13, 21, 0}};
    trapeze_sleep_run *shared[N], *own = malloc(sizeof *own);
    for (int i = 0; i < N; i++)
        CHECK((shared[i] = malloc(sizeof *shared[i])) != NULL);
    CHECK(own != NULL);
    CHECK_OK(sampler_sleep_simulate_hidden(cfg, pw, j, N, x, theta, shared, &err));
    for (int i = 0; i < N; i++) {
        trapeze_sleep_setting set;
        memset(&set, 0, sizeof set);
        set.on[x[i]] = 1;
        memcpy(set.theta[x[i]], theta[i], sizeof set.theta[x[i]]);
        CHECK_OK(trapeze_sleep_simulate(cfg, pw, j, &set, own, &err));
        int s = x[i];
        CHECK(own->cycles > 0 && own->cycles == shared[i]->cycles);
        CHECK(own->warp_insts == shared[i]->warp_insts && own->n_sm == shared[i]->n_sm);
        CHECK(!memcmp(own->mode_cycles[s], shared[i]->mode_cycles[s], sizeof own->mode_cycles[s]));
        CHECK(!memcmp(own->entries[s], shared[i]->entries[s], sizeof own->entries[s]));
        CHECK(own->stall[s] == 0 && shared[i]->stall[s] == 0);
        CHECK(own->saving[s] == shared[i]->saving[s] && own->penalty[s] == shared[i]->penalty[s]);
        CHECK(own->saving[s] > 0);
    }
    /* the settings were evaluated each at its own thresholds */
    CHECK(shared[0]->saving[TRAPEZE_PS_L1D] != shared[1]->saving[TRAPEZE_PS_L1D]);
    /* a setting that exposes wake-ups is refused, naming it */
    const double slumber[1][TRAPEZE_SLEEP_MAX_MODES] = {{4, 13, 16, 0}};
    const int rf = TRAPEZE_PS_RF;
    CHECK(sampler_sleep_simulate_hidden(cfg, pw, j, 1, &rf, slumber, shared, &err) ==
          TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "rf at 4/13/16 exposes wake-ups") != NULL);
    for (int i = 0; i < N; i++)
        free(shared[i]);
    free(own);
    free(j);
    trapeze_config_destroy(cfg);
}

int main(void)
{
    trapeze_power pw;
    trapeze_error err;
    CHECK_OK(trapeze_power_load("data/power/gtx480.ini", &pw, &err));
    test_hides(&pw);
    test_shared_run(&pw);
    return check_report("test_sleep_hidden");
}
