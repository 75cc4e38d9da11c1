/*
 * Tests of the public simulator API (trapeze_sim_* in trapeze.h), the one
 * `trapeze sim` uses: runs continue on one GPU (a later launch starts the
 * launch latency after the previous one ended), statistics come back per
 * launch, a stencil workload's cycles per loop is its cycles over its
 * iterations, CSV files have a row per launch, traces run, and bad input is
 * a clear error.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    while (f && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

int main(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    trapeze_sim *sim;
    CHECK_OK(trapeze_sim_create(cfg, NULL, &sim, &err));
    CHECK(trapeze_sim_launches(sim) == 0 && trapeze_sim_cycle(sim) == 0);

    /* two launches of jacobi, then a vecadd: one sequence of three */
    char *jacobi[] = {"nx=64", "ny=64", "iters=2"};
    CHECK_OK(trapeze_sim_run_builtin(sim, "jacobi", 3, jacobi, &err));
    char *vec[] = {"n=4096"};
    CHECK_OK(trapeze_sim_run_builtin(sim, "vecadd", 1, vec, &err));
    CHECK(trapeze_sim_launches(sim) == 3);
    trapeze_sim_launch l[3];
    for (int i = 0; i < 3; i++)
        CHECK_OK(trapeze_sim_launch_stats(sim, i, &l[i], &err));
    CHECK(strcmp(l[2].name, "vecadd") == 0 && l[2].launch == 2);
    CHECK(l[0].start_cycle == 0 && l[0].launch_cycles == 0);
    for (int i = 1; i < 3; i++) {
        CHECK(l[i].launch_cycles == l[1].launch_cycles && l[i].launch_cycles > 0);
        CHECK(l[i].start_cycle == l[i - 1].start_cycle + l[i - 1].cycles + l[i].launch_cycles);
    }
    CHECK(trapeze_sim_cycle(sim) == l[2].start_cycle + l[2].cycles);
    CHECK(l[2].blocks == 16 && l[2].thread_instructions >= 4096);
    CHECK(l[2].ipc == (double)l[2].warp_instructions / l[2].cycles);
    CHECK(trapeze_sim_launch_stats(sim, 3, &l[0], &err) == TRAPEZE_EINVAL);

    const char *csv = "build/test_sim_api.csv", *sm_csv = "build/test_sim_api_sm.csv";
    CHECK_OK(trapeze_sim_write_csv(sim, csv, sm_csv, &err));
    CHECK(count_lines(csv) == 1 + 3);
    long n_sm;
    CHECK_OK(trapeze_config_get_int(cfg, "gpgpu_n_clusters", 0, &n_sm, &err));
    CHECK(count_lines(sm_csv) == 1 + 3 * (int)n_sm); /* the GTX 480: one core per cluster */
    remove(csv);
    remove(sm_csv);
    trapeze_sim_destroy(sim);

    /* a stencil workload: cycles per loop of the whole run */
    trapeze_workload w;
    CHECK_OK(trapeze_workload_load("data/workloads/hotspot.ini", &w, &err));
    w.data_len[0] = w.data_len[1] = 64;
    CHECK_OK(trapeze_sim_create(cfg, NULL, &sim, &err));
    trapeze_sim_stencil_result r;
    CHECK_OK(trapeze_sim_run_stencil(sim, &w, TRAPEZE_SYNC_RELAUNCH, 2, 4, &r, &err));
    CHECK(r.iterations == 4 && r.stages == 2 && trapeze_sim_launches(sim) == 2);
    CHECK(r.cycles_per_loop == (double)r.cycles / 4);
    CHECK(r.cycles == trapeze_sim_cycle(sim)); /* from cycle 0: both launches, one latency */
    CHECK(r.out_edge == w.blk_len - 2 * 2);
    trapeze_sim_destroy(sim);

    /* a trace, and bad input */
    CHECK_OK(trapeze_sim_create(cfg, NULL, &sim, &err));
    CHECK_OK(trapeze_sim_run_trace(sim, "data/traces/vecadd/kernelslist.g", &err));
    CHECK(trapeze_sim_launches(sim) == 1);
    CHECK(trapeze_sim_run_builtin(sim, "nosuch", 0, NULL, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "no built-in kernel 'nosuch'") != NULL);
    char *bad[] = {"bogus=3"};
    CHECK(trapeze_sim_builtin_check("jacobi", 1, bad, &err) != TRAPEZE_OK);
    CHECK(strstr(err.message, "no parameter 'bogus'") != NULL);
    CHECK(trapeze_sim_run_trace(sim, "data/traces/none/kernelslist.g", &err) == TRAPEZE_EIO);
    CHECK(trapeze_sim_launches(sim) == 1);
    trapeze_sim_destroy(sim);

    /* the built-in table */
    const char *help;
    long value;
    CHECK(strcmp(trapeze_sim_builtin(0, &help), "vecadd") == 0);
    CHECK(strcmp(trapeze_sim_builtin_param(0, 0, &value, &help), "n") == 0 && value == 1048576);
    CHECK(trapeze_sim_builtin(1000, &help) == NULL);
    trapeze_config_destroy(cfg);
    return check_report("test_sim_api");
}
