/*
 * Tests of the capped sleep sample's warm later windows (sim/sample/
 * jump_warm.c, jump.h): a block's life from a placement log (worked out by
 * hand: each SM's (k + per_sm)-th placement takes the slot its k-th block
 * left), how many windows of a life of warm-up and a life recorded fit a
 * cap beside the first window and their share of the run (GTX 480 strided
 * stride=32's figures: the fresh plan's 4000 + 2000 cycles are a sixth
 * and a twelfth of its block's life), and a warm sample of GTX 480 vecadd
 * 2^20 (4096 blocks, 45.5 waves of 90): windows a block's life long,
 * within the cap, standing for the run's length (83,907 cycles, `trapeze
 * sim --gpu data/gpus/gtx480.config vecadd n=1048576`); a launch of under
 * 8 waves keeps the fresh windows; a warm sample's dead register periods
 * held to the run's warp registers (copy 2^21: 32,768).
 */
#include <stdlib.h>

#include "check.h"
#include "sim/sample/jump.h"
#include "sim/sample/runs.h"
#include "sim/sim.h"
#include "sim_fixture.h"

static void test_block_life(void)
{
    /* 2 SMs of 2 blocks: SM 0 places at 0, 0, 100, 160 and SM 1 at 0, 2,
     * 130, 200 (interleaved as a dispatcher logs them): the blocks placed
     * at 0 and 0 on SM 0 end at 100 and 160, those at 0 and 2 on SM 1 at
     * 130 and 200: lives 100, 160, 130, 198, mean 147 */
    const int sm[] = {0, 0, 1, 1, 0, 1, 0, 1};
    const uint64_t at[] = {0, 0, 0, 2, 100, 130, 160, 200};
    CHECK_NEAR(sim_jump_block_life(sm, at, 8, 2, 2), 147, 0);
    /* one block an SM: each placement after the first ends the one before */
    const int one[] = {0, 0, 0};
    const uint64_t t1[] = {10, 40, 100};
    CHECK_NEAR(sim_jump_block_life(one, t1, 3, 1, 1), 45, 0);   /* (30 + 60) / 2 */
    /* the first wave only: no block ended, no life */
    CHECK_NEAR(sim_jump_block_life(sm, at, 4, 2, 2), 0, 0);
    CHECK_NEAR(sim_jump_block_life(sm, at, 0, 2, 2), 0, 0);
}

static void test_plan(void)
{
    /* strided stride=32 on the GTX 480: a run of 1,110,000 cycles, cap
     * 0.25 planned at 0.8 of it (222,000 cycles), the first window at a
     * tenth (111,000), a block's life 24,929: (222,000 - 111,000) /
     * (2 x 24,929) = 2.23, so 2 windows */
    double run = 1110000, budget = TRAPEZE_SLEEP_CAP_PLAN * 0.25 * run, life = 24929;
    int n = sim_jump_warm_windows(budget, 111000, life, SIM_JUMP_WINDOWS);
    CHECK(n == 2);
    /* the plan: 111,000 + 2 x (24,929 + 24,929) = 210,716 cycles, 18.98%
     * of the run; each later window's warm-up and recording a life, where
     * the fresh plan's 4000 and 2000 are 0.16 and 0.08 of one */
    double cycles = 111000 + n * 2 * life;
    CHECK_NEAR(cycles / run, 0.18983, 1e-5);
    CHECK(cycles <= budget);
    CHECK(TRAPEZE_SLEEP_JUMP_WARM < life && TRAPEZE_SLEEP_JUMP_RECORD < life);
    /* at most max windows; none where not one fits or no life was seen */
    CHECK(sim_jump_warm_windows(budget, 111000, 1000, SIM_JUMP_WINDOWS) == SIM_JUMP_WINDOWS);
    CHECK(sim_jump_warm_windows(budget, 200000, life, SIM_JUMP_WINDOWS) == 0);
    CHECK(sim_jump_warm_windows(budget, 111000, 0, SIM_JUMP_WINDOWS) == 0);
    CHECK(sim_jump_warm_windows(budget, 230000, life, SIM_JUMP_WINDOWS) == 0);
}

/* A warm capped sample (--cap 0.25 --warm) of job on the GTX 480 into r. */
static void warm_sample(const char *job, trapeze_sleep_run *r)
{
    trapeze_config *cfg = fixture_gtx480_with("", "gtx480.config");
    trapeze_power pw;
    trapeze_error err;
    CHECK_OK(trapeze_power_load("data/power/gtx480.ini", &pw, &err));
    trapeze_sleep_job *j = malloc(sizeof *j);
    CHECK(j);
    CHECK_OK(trapeze_sleep_job_parse(job, NULL, j, &err));
    j->warm = 1;
    CHECK_OK(trapeze_sleep_window_capped(cfg, &pw, j, 20000, -TRAPEZE_SLEEP_SPREAD_DEFAULT, 0.25,
                                         r, &err));
    free(j);
    trapeze_config_destroy(cfg);
}

/* A warm capped sample of vecadd 2^20 on the GTX 480: its windows a life
 * of warm-up and a life recorded, standing for the run within the cap;
 * asked of matmul_tiled 256 (256 blocks, 2.8 waves of 90), the fresh
 * windows (4000 + 2000 cycles). */
static void test_sample(void)
{
    trapeze_sleep_run *r = malloc(sizeof *r);
    CHECK(r);
    warm_sample("vecadd n=1048576", r);
    CHECK(r->jumped && r->warm);
    CHECK(r->jump_windows >= 1 && r->jump_windows <= SIM_JUMP_WINDOWS);
    CHECK(r->jump_warm == r->jump_record && r->jump_warm > 0);
    /* each window simulated its warm-up and recording, and the whole
     * sample, planned within 0.8 of the cap, costs under the cap */
    CHECK(r->simulated >= r->recorded + r->jump_windows * r->jump_warm - 1);
    CHECK(r->warp_insts <= 0.25 * r->run_insts);
    CHECK(r->simulated <= 0.25 * r->cycles);
    /* the run stood for within 2% of its length (83,235 cycles) */
    CHECK(r->cycles > 0.98 * 83907 && r->cycles < 1.02 * 83907);
    warm_sample("matmul_tiled n=256", r);
    CHECK(r->jumped && !r->warm);
    CHECK(r->jump_warm == TRAPEZE_SLEEP_JUMP_WARM && r->jump_record == TRAPEZE_SLEEP_JUMP_RECORD);
    free(r);
}

/* Dead register periods of a sample's register histogram (each warp
 * register of the run ends dead once, at its block's release). */
static double reg_dead(const trapeze_sleep_run *r)
{
    double n = 0;
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        for (int b = 0; sim_sleep_units[u].kind == SIM_UNIT_REG && b < TRAPEZE_IDLE_NBUCKETS; b++)
            n += r->hist[u].count[TRAPEZE_NEXT_DEAD][b];
    return n;
}

/* A warm sample of copy 2^21 on the GTX 480 (2048 blocks of 8 warps, 2
 * registers a thread: 32,768 warp registers, 22.8 waves of 90): one warm
 * window of a block's life. Its recording caught the share of a wave's
 * burst of releases its phase gave it (24,614.7 dead periods in all where
 * the run has 32,768, before sim_jump_exit_hold): held to the run's. */
static void test_exit_hold(void)
{
    trapeze_sleep_run *r = malloc(sizeof *r);
    CHECK(r);
    warm_sample("copy n=2097152", r);
    CHECK(r->jumped && r->warm && r->jump_windows == 1);
    CHECK_NEAR(reg_dead(r), 2048.0 * 8 * 2, 1e-6 * 32768);
    /* the hold itself: the copy run's 65,536 less the first window's
     * 5,760 over the two windows' 51,539 as weighted; either way */
    CHECK_NEAR(sim_jump_exit_hold(65536, 5760, 51539), 59776.0 / 51539, 1e-12);
    CHECK_NEAR(sim_jump_exit_hold(19200, 3600, 61440), 15600.0 / 61440, 1e-12);
    CHECK(sim_jump_exit_hold(100, 120, 50) == 0);
    CHECK(sim_jump_exit_hold(100, 20, 0) == 1);
    free(r);
}

int main(void)
{
    test_block_life();
    test_plan();
    test_sample();
    test_exit_hold();
    return check_report("test_sleep_warm");
}
