/*
 * test_cache_slowest.c - a sample window's cycles at its slowest SM's pace
 * (sampler/cache/slowest.c) on launch statistics made by hand: a one-wave
 * window scaled by the mean progress per resident block over the slowest
 * SM's, and the cases left as they are (a whole launch, several waves, an
 * SM that issued nothing).
 */
#include <string.h>

#include "check.h"
#include "sampler/cache/slowest.h"

/* 3 SMs, 2 blocks each at most, 3 blocks in the grid, a window of 1000
 * cycles: SM 0 two blocks and 400 warp instructions (200 a block), SM 1
 * one block and 100 (100 a block), SM 2 none (left out). Mean 500 / 3
 * blocks = 166.67 a block against the slowest's 100: 1000 x 5/3. */
static void test_one_wave(void)
{
    sim_sm_stats sm[3];
    memset(sm, 0, sizeof sm);
    sm[0].max_resident_blocks = 2;
    sm[0].warp_insts = 400;
    sm[1].max_resident_blocks = 1;
    sm[1].warp_insts = 100;
    sim_kernel_stats st;
    memset(&st, 0, sizeof st);
    st.cycles = 1000;
    st.windowed = 1;
    st.blocks = 3;
    st.resident_blocks_per_sm = 2;
    st.n_sm = 3;
    st.sm = sm;
    CHECK_NEAR(trapeze_cache_slowest_cycles(&st), 1000.0 * 5.0 / 3.0, 1e-9);
    sm[1].warp_insts = 200;   /* every block at 200: no one behind */
    CHECK_NEAR(trapeze_cache_slowest_cycles(&st), 1000.0, 1e-9);
    sm[1].warp_insts = 100;
    st.blocks = 7;   /* more than 3 SMs x 2 hold: several waves */
    CHECK(trapeze_cache_slowest_cycles(&st) == 1000.0);
    st.blocks = 6;   /* exactly one wave */
    CHECK_NEAR(trapeze_cache_slowest_cycles(&st), 1000.0 * 5.0 / 3.0, 1e-9);
    st.windowed = 0;   /* the whole launch: it waited for its slowest */
    CHECK(trapeze_cache_slowest_cycles(&st) == 1000.0);
    st.windowed = 1;
    sm[1].warp_insts = 0;   /* SM 1 issued nothing yet */
    CHECK(trapeze_cache_slowest_cycles(&st) == 1000.0);
}

int main(void)
{
    test_one_wave();
    return check_report("test_cache_slowest");
}
