/*
 * Tests that a simulator error inside a sampled stretch of a run comes back
 * as the sample's error (sim/sim.h): a launch run part way
 * (sim_launch_run_until) returns its step's status, and the sleep model's
 * window, spread and jump samples (trapeze_sleep_window) fail with the
 * simulator's message where one of their windows passes -trapeze_max_cycles,
 * and succeed where none does. GESUMMV 512 on the GTX 480: each launch runs
 * well past 4500 cycles; a jump sample's later windows simulate 6000 cycles
 * each (4000 warm-up, 2000 recorded), its launch ends more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/sim.h"
#include "sim_fixture.h"

#define LIMIT_MESSAGE "kernel gesummv: still running after 4500 cycles (-trapeze_max_cycles"

/* The GTX 480's config with -trapeze_max_cycles set to `limit`. */
static trapeze_config *gtx480_limited(long limit)
{
    char line[64];
    snprintf(line, sizeof line, "-trapeze_max_cycles %ld", limit);
    return fixture_gtx480_with(line, "gtx480-limited.config");
}

/* A launch run to a cycle before the limit stops there, running; run on,
 * it stops at the limit with the limit's error, which the call returns. */
static void test_run_until(void)
{
    trapeze_config *cfg = gtx480_limited(4500);
    trapeze_error err;
    sim_gpu *g;
    CHECK_OK(sim_gpu_create(cfg, NULL, &g, &err));
    const sim_builtin *b = sim_builtin_find("gesummv");
    long p[SIM_BUILTIN_MAX_PARAMS];
    char *set[] = {"n=512"};
    sim_kernel *ks[4];
    int n = 0;
    CHECK_OK(sim_builtin_params(b, 1, set, p, &err));
    CHECK_OK(b->build(sim_gpu_config(g), p, ks, 4, &n, &err));
    sim_kernel_stats st;
    memset(&st, 0, sizeof st);
    sim_launch l;
    CHECK_OK(sim_gpu_launch_begin(g, ks[0], &st, &l, &err));
    CHECK(sim_launch_run_until(&l, 1000, &err) == TRAPEZE_OK);
    CHECK(l.running && l.t >= 1000 && l.t < 4500);
    CHECK(sim_launch_run_until(&l, 0, &err) == TRAPEZE_EFAIL);
    CHECK(!l.running && strstr(err.message, LIMIT_MESSAGE) != NULL);
    /* a stopped launch stays stopped, its status kept */
    CHECK(sim_launch_run_until(&l, 0, &err) == TRAPEZE_EFAIL);
    sim_gpu_launch_cut(&l);
    for (int i = 0; i < n; i++)
        sim_kernel_destroy(ks[i]);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

/* trapeze_sleep_window of GESUMMV 512 under the limit: its status and, on
 * failure, whether the message is the limit's. */
static trapeze_status sample(long limit, double window, double spread, int *limit_message)
{
    trapeze_config *cfg = gtx480_limited(limit);
    trapeze_power pw;
    trapeze_error err;
    CHECK_OK(trapeze_power_load("data/power/gtx480.ini", &pw, &err));
    trapeze_sleep_job *j = malloc(sizeof *j);
    trapeze_sleep_run *r = malloc(sizeof *r);
    CHECK(j && r);
    CHECK_OK(trapeze_sleep_job_parse("gesummv n=512", NULL, j, &err));
    err.message[0] = 0;
    trapeze_status s = trapeze_sleep_window(cfg, &pw, j, window, spread, r, &err);
    *limit_message = strstr(err.message, LIMIT_MESSAGE) != NULL;
    if (!s && spread < 0)
        CHECK(r->jumped);   /* the control below ran the jump sample itself */
    free(j);
    free(r);
    trapeze_config_destroy(cfg);
    return s;
}

static void test_samples(void)
{
    int msg;
    /* a window cut at 2000 cycles never reaches the limit */
    CHECK(sample(4500, 2000, 0, &msg) == TRAPEZE_OK);
    /* one of 6000 cycles does */
    CHECK(sample(4500, 6000, 0, &msg) == TRAPEZE_EFAIL && msg);
    /* a spread sample runs the launches through */
    CHECK(sample(4500, 2000, 20000, &msg) == TRAPEZE_EFAIL && msg);
    /* a jump sample: the first window ends at 2000 cycles, its later
     * windows and launch ends pass the limit */
    CHECK(sample(4500, 2000, -20000, &msg) == TRAPEZE_EFAIL && msg);
    /* the same jump sample with room for every window succeeds */
    CHECK(sample(400000, 2000, -20000, &msg) == TRAPEZE_OK);
}

int main(void)
{
    test_run_until();
    test_samples();
    return check_report("test_sleep_window");
}
