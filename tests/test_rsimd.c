/*
 * test_rsimd.c - Robust SIMD (sim/core/rsimd.c, rsimd_asu.c): the
 * adaptation state unit's search on a tiny space traced by hand, warp-slices
 * of width W each running its own path of a divergent branch, depth
 * suspending warps, a reconfiguration at an interval end, and the invariants
 * on built-in kernels. Cycle counts follow the timing rules of
 * sim/core/sm.c on the ideal port (every request back after MISS cycles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"
#include "sim_fixture.h"
#include "sim/core/rsimd_asu.h"

#define MISS 100

static const char *const base_cfg =
    "-gpgpu_ptx_force_max_capability 20\n"
    "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_shmem_size 49152\n-gpgpu_shmem_num_banks 32\n-gpgpu_smem_latency 26\n"
    "-gpgpu_num_sp_units 2\n-gpgpu_num_sfu_units 1\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n-ptx_opcode_initiation_fp 1,2,1,1,4\n"
    "-gpgpu_num_sched_per_core 2\n-gpgpu_scheduler gto\n-gpgpu_shader_cta 8\n"
    "-gpgpu_l1_latency 5\n-trapeze_kernel_launch_latency 1000\n";

/* Runs k alone on one SM of base_cfg + extra against the ideal port; fills st. */
static uint64_t run(sim_kernel *k, const char *extra, sim_kernel_stats *st)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", base_cfg, extra ? extra : "");
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse(text, "test.config", &cfg, &err));
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    CHECK_OK(sim_mem_port_ideal(1, MISS, &opt.mem, &err));
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    trapeze_status s = g ? sim_gpu_run(g, k, st, &err) : TRAPEZE_EINVAL;
    if (s)
        fprintf(stderr, "%s\n", err.message);
    CHECK(s == TRAPEZE_OK);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    return s ? 0 : st->cycles;
}

/* ---- the adaptation state unit ---- */

/* Cycles per task of (w, d) on the tiny space: 8 lanes, one warp, so
 * Dmax(8) = 1, Dmax(4) = 2, Dmax(2) = 4. Width 4 is best at each depth and
 * a second slice saves 20 cycles per task. */
static double tiny_cpt(int w, int d)
{
    static const double base[9] = {0, 0, 85, 81, 80, 82, 90, 95, 100};
    return base[w] - 20.0 * (d - 1);
}

/* From (8, 1): depth's stride is Dmax(8) / 2 = 0, so width first, stride 4:
 * (12, 1) is outside, (4, 1) = 80 beats 100 and (0, 1) is outside; stride
 * 2: (6, 1) 90, (2, 1) 85; stride 1: (5, 1) 82, (3, 1) 81 — no gain. The
 * pass changed (4, 1), so a second: depth stride Dmax(4) / 2 = 1 gives
 * (4, 2) = 60, (4, 3) is outside; width stride 4: (8, 2) clamped to (8, 1)
 * 100; stride 2: (6, 2) 70, (2, 2) 65; stride 1: (5, 2) 62, (3, 2) 61. A
 * third pass changes nothing: (4, 1) 80 down; (8, 1), (6, 2), (2, 2),
 * (5, 2), (3, 2) again. 1 + 5 + 6 + 6 = 18 intervals, at (4, 2). */
static void test_asu_tiny(void)
{
    static const int expect[][2] = {{8, 1}, {4, 1}, {6, 1}, {2, 1}, {5, 1}, {3, 1},
                                    {4, 2}, {8, 1}, {6, 2}, {2, 2}, {5, 2}, {3, 2},
                                    {4, 1}, {8, 1}, {6, 2}, {2, 2}, {5, 2}, {3, 2}};
    sim_asu a;
    sim_asu_start(&a, 8, 1, 2, 8, 0);
    int n = 0;
    while (!a.done && n < 40) {
        if (n < 18)
            CHECK(a.w == expect[n][0] && a.d == expect[n][1]);
        sim_asu_step(&a, tiny_cpt(a.w, a.d));
        n++;
    }
    CHECK(n == 18 && a.samples == 18);
    CHECK(a.done && a.w == 4 && a.d == 2 && a.best == 60.0);
}

/* The space's bounds: Dmax(W) = ceil(lanes / W) x warps (a remainder
 * slice counts), so 32 lanes and 8 warps give 8 at W = 32, 24 at W = 12. */
static void test_asu_bounds(void)
{
    sim_asu a;
    sim_asu_start(&a, 32, 8, 2, 32, 0);
    CHECK(sim_asu_dmax(&a, 32) == 8 && sim_asu_dmax(&a, 12) == 24 &&
          sim_asu_dmax(&a, 2) == 128);
    CHECK(a.w == 32 && a.d == 8);   /* depth 0: every slice */
}

/* ---- warp-slices ---- */

/* IF (tx < 16) { r1 = a[tx]; r2 = r1 + r1 } ELSE { r1 = b[tx]; r2 = r1 + r1 } */
static sim_kernel *if_else(void)
{
    sim_kb *kb = sim_kb_begin("ifelse", SIM_DIM(1), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4096), b = sim_kb_global(kb, "b", 4096);
    sim_kb_if(kb, sim_pred1(SIM_AFF(.c = -16, .k[SIM_TX] = 1), SIM_LT));
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
    sim_kb_else(kb);
    sim_kb_ld(kb, 1, sim_at1(b, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
    sim_kb_endif(kb);
    return fixture_kb_end(kb);
}

/* Whole warp, on the stack: the THEN load issues at 2 (done 103), its add
 * at 104, the ELSE branch at 105, the ELSE load at 106 (done 207), its add
 * at 208. Two slices of 16 lanes, each its own path: slice 0 (lanes 0-15)
 * issues the IF's branch at 1 and its load at 2 (offered 3, done 103);
 * slice 1 issues the branch with its lanes at 3, skips the THEN part (none
 * of its lanes) and loads at 4 (done 105); THEN add 104 (r2 at 108), ELSE
 * add at 108 (one scoreboard per warp), result 112: 100 cycles sooner, one
 * warp instruction more (the IF's branch twice, 16 lanes each). Slices of
 * 8: four slices, the IF's branch four times; the THEN slices load one
 * after the other (2, 4 after slice 1's branch at 3), as do the ELSE ones
 * after their branches: the IF's branch 4 times, each path's load and add
 * twice, the THEN slices' jump over the ELSE twice, EXIT once (15, not 7). */
static void test_slices_own_paths(void)
{
    sim_kernel_stats st;
    sim_kernel *k = if_else();
    uint64_t base = run(k, NULL, &st);
    uint64_t insts = st.total.warp_insts, threads = st.total.thread_insts;
    sim_kernel_stats_free(&st);
    uint64_t w16 = run(k, "-trapeze_rsimd_width 16\n", &st);
    CHECK(base - w16 == 100);
    CHECK(st.total.warp_insts == insts + 1 && st.total.thread_insts == threads);
    CHECK(st.total.rsimd_width == 16 && st.total.rsimd_intervals == 0);
    sim_kernel_stats_free(&st);
    run(k, "-trapeze_rsimd_width 8\n", &st);
    /* every lane runs each of its instructions once: the branch 4 x 8 lanes,
     * each path's load and add 2 x 8 lanes */
    CHECK(st.total.thread_insts == threads);
    CHECK(st.total.warp_insts == insts + 8);   /* 4 + 2 x 2 + 2 + 2 x 2 + 1 = 7 + 8 */
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
}

/* ---- depth ---- */

/* `warps` warps of one block: r1 = a[tx] (one line per warp), r2 = r1 + r1. */
static sim_kernel *load_add(int warps, int blocks)
{
    sim_kb *kb = sim_kb_begin("loadadd", SIM_DIM(blocks), SIM_DIM(32 * warps));
    int a = sim_kb_global(kb, "a", 1 << 16);
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1, .k[SIM_BX] = 32 * warps))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
    return fixture_kb_end(kb);
}

/* Two warps, depth 1: the second is suspended until the first exits.
 * Whole warps, all active: loads at 1 and 2 (one LDST queue entry), done
 * 102 and 103, adds at 103 and 104; the second's result is in at 108, and
 * the kernel ends at 109. Depth 1: warp 0 alone loads at 1, adds at 103
 * and issues EXIT at 104 (it finishes once r2 is written, but holds no
 * activity after EXIT); the activity passes on at the end of cycle 104,
 * warp 1 loads at 105 (done 206), adds at 207, r2 at 211: the kernel ends
 * at 212, MISS + 3 cycles later. */
static void test_depth_suspends(void)
{
    sim_kernel_stats st;
    sim_kernel *k = load_add(2, 1);
    uint64_t all = run(k, NULL, &st);
    sim_kernel_stats_free(&st);
    uint64_t one = run(k, "-trapeze_rsimd_depth 1\n", &st);
    CHECK(st.total.rsimd_depth == 1 && st.total.rsimd_width == 32);
    sim_kernel_stats_free(&st);
    CHECK(all == 9 + MISS && one - all == MISS + 3);
    sim_kernel_destroy(k);
}

/* IF (bx >= 1) { r1 = a[tx + 32 bx]; r2 = r1 + r1 }: block 0 only branches
 * and exits, the others load. */
static sim_kernel *late_blocks(int blocks)
{
    sim_kb *kb = sim_kb_begin("late", SIM_DIM(blocks), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 1 << 16);
    sim_kb_if(kb, sim_pred1(SIM_AFF(.c = -1, .k[SIM_BX] = 1), SIM_GE));
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1, .k[SIM_BX] = 32))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
    sim_kb_endif(kb);
    return fixture_kb_end(kb);
}

/* An SM of two warp slots, one-warp blocks, an interval per finished
 * block, adaptation from (32 x 2). Block 0 branches at 1, exits at 2 and
 * is done at 4: the first interval ends there, and the unit's first probe
 * is depth 1 (depth's stride is Dmax / 2 = 1; depth 3 is outside). Block 1
 * (placed at 1) branches at 2, loads at 3 and issues EXIT at 106. Block 2
 * is placed at 5 in block 0's slot. Fixed (32 x 2): it branches at 6, loads
 * at 7 (offered 8, done 108), adds at 109, r2 at 113: the kernel ends at
 * 114. Adapted: block 1 is older and holds the one activity until its
 * EXIT at 106; block 2 branches at 107, loads at 108 (done 209), adds at
 * 210, r2 at 214: the kernel ends at 215. */
static void test_reconfigure_at_interval_end(void)
{
    static const char *const slots = "-gpgpu_shader_core_pipeline 64:32\n";
    char adapt[256];
    snprintf(adapt, sizeof adapt, "%s-trapeze_rsimd_adapt 1\n-trapeze_rsimd_interval 32\n"
             "-trapeze_rsimd_min_intervals 1\n", slots);
    sim_kernel_stats st;
    sim_kernel *k = late_blocks(3);
    uint64_t fixed = run(k, slots, &st);
    sim_kernel_stats_free(&st);
    uint64_t adapted = run(k, adapt, &st);
    CHECK(fixed == 14 + MISS && adapted == 15 + 2 * MISS);
    CHECK(st.total.rsimd_intervals == 3);   /* a block each */
    sim_kernel_stats_free(&st);
    /* the seed's rule: fewer than 30 intervals per SM (3 here), no adaptation */
    snprintf(adapt, sizeof adapt, "%s-trapeze_rsimd_adapt 1\n-trapeze_rsimd_interval 32\n",
             slots);
    CHECK(run(k, adapt, &st) == fixed && st.total.rsimd_intervals == 0);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
}

/* Runs built-in `name` with one name=value parameter on the GTX 480 preset
 * plus `extra`; fills st. */
static void run_builtin(const char *name, const char *arg, const char *extra,
                        sim_kernel_stats *st)
{
    char a[64];
    snprintf(a, sizeof a, "%s", arg);
    char *argv[] = {a};
    fixture_run_builtin(name, 1, argv, extra, st);
}

/* On kernels with branches, barriers and many warps: every configuration
 * runs exactly the baseline's thread instructions and blocks (slices
 * partition the lanes, suspended slices all run in the end), and the
 * adaptation samples intervals (a TRAPEZE_CHECKS build also checks the
 * slices' table every cycle). */
static void test_invariants(void)
{
    static const char *const kern[][2] = {{"filter", "w=128"}, {"kmeans", "points=1920"},
                                          {"matmul", "n=64"}};
    static const char *const cfg[] = {
        "-trapeze_rsimd_width 8\n-trapeze_rsimd_depth 6\n",
        "-trapeze_rsimd_width 12\n",
        "-trapeze_rsimd_adapt 1\n-trapeze_rsimd_interval 128\n-trapeze_rsimd_min_intervals 1\n",
        "-trapeze_rsimd_dws 1\n-trapeze_rsimd_interval 128\n-trapeze_rsimd_min_intervals 1\n-trapeze_dws_mem revive\n"
        "-trapeze_dws_branch 1\n-trapeze_dws_reconv bypass\n"};
    for (int k = 0; k < 3; k++) {
        sim_kernel_stats base, st;
        run_builtin(kern[k][0], kern[k][1], "", &base);
        for (int i = 0; i < 4; i++) {
            run_builtin(kern[k][0], kern[k][1], cfg[i], &st);
            CHECK(st.total.thread_insts == base.total.thread_insts);
            CHECK(st.total.blocks == base.total.blocks);
            CHECK(st.total.warp_insts >= base.total.warp_insts);
            CHECK(i < 2 ? st.total.rsimd_intervals == 0 : st.total.rsimd_intervals > 0);
            sim_kernel_stats_free(&st);
        }
        sim_kernel_stats_free(&base);
    }
}

/* Options that cannot work together: one message naming the option. */
static void test_bad_options(void)
{
    static const char *const bad[][2] = {
        {"-trapeze_rsimd_width 1\n", "-trapeze_rsimd_width"},
        {"-trapeze_rsimd_dws 1\n", "RobustDWS needs a DWS policy"},
        {"-trapeze_rsimd_adapt 1\n-trapeze_dws_mem revive\n", "set -trapeze_rsimd_dws 1"}};
    for (int i = 0; i < 3; i++) {
        char text[4096];
        snprintf(text, sizeof text, "%s%s", base_cfg, bad[i][0]);
        trapeze_config *cfg = NULL;
        trapeze_error err;
        memset(&err, 0, sizeof err);
        CHECK_OK(trapeze_config_parse(text, "test.config", &cfg, &err));
        fixture_expect_refused(cfg, bad[i][1]);
    }
}

int main(void)
{
    test_asu_tiny();
    test_asu_bounds();
    test_slices_own_paths();
    test_depth_suspends();
    test_reconfigure_at_interval_end();
    test_invariants();
    test_bad_options();
    return check_report("test_rsimd");
}
