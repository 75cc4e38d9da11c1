/*
 * The two-level warp schedulers (sim/core/sched_two_level.h) on one SM
 * with one scheduler, ideal memory:
 *  - warps of dependent FMA chains never wait on a long-latency event, so
 *    an active set of N lets only N chains interleave: with 4 warps, N = 1
 *    runs the chains one after another (about 4 times one chain's time),
 *    N = 2 two at a time, N = 4 exactly as LRR;
 *  - warps that wait on a load are demoted and others promoted: with
 *    N = 1, 4 warps whose load is followed by its use overlap their loads
 *    (one load's latency, not four);
 *  - Chen's access ranges: a warp reading one line has one bit, warps of
 *    blocks reading the same line share it (locality 1), others 0;
 *  - with barriers (the tiled matmul: __syncthreads per tile) every
 *    scheduler finishes every block with the same instructions;
 *  - bad -gpgpu_scheduler values are refused with the option's line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/text.h"
#include "sim/core/sm.h"

#define AFF SIM_AFF
#define LAT 100

static trapeze_config *make_cfg(const char *sched)
{
    char text[2048];
    snprintf(text, sizeof text,
             "-gpgpu_ptx_force_max_capability 20\n"
             "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n"
             "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
             "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
             "-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n"
             "-gpgpu_shader_cta 8\n-gpgpu_num_sp_units 2\n"
             "-ptx_opcode_latency_fp 4,13,4,5,39\n-ptx_opcode_initiation_fp 1,2,1,1,4\n"
             "-gpgpu_num_sched_per_core 1\n-gpgpu_scheduler %s\n", sched);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_parse(text, "test.config", &cfg, &err))
        fprintf(stderr, "%s\n", err.message);
    return cfg;
}

/* One block of `warps` warps: [load a[tx]; use it;] then `chain`
 * dependent FMAs. */
static sim_kernel *chains(int warps, int chain, int load)
{
    sim_kb *kb = sim_kb_begin("chains", SIM_DIM(1), SIM_DIM(32 * warps));
    int a = sim_kb_global(kb, "a", 4 * 32 * (uint64_t)warps);
    if (load) {
        sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(AFF(.k[SIM_TX] = 1))));
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
    }
    for (int i = 0; i < chain; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 2, 2, 2, SIM_NO_REG);
    sim_kernel *k = NULL;
    trapeze_error err;
    if (sim_kb_end(kb, &k, &err))
        fprintf(stderr, "%s\n", err.message);
    return k;
}

static uint64_t cycles(const char *sched, const sim_kernel *k)
{
    trapeze_config *cfg = make_cfg(sched);
    trapeze_error err;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    CHECK_OK(sim_mem_port_ideal(1, LAT, &opt.mem, &err));
    sim_gpu *g = NULL;
    sim_kernel_stats st;
    uint64_t c = 0;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    if (g && sim_gpu_run(g, k, &st, &err) == TRAPEZE_OK) {
        c = st.cycles;
        CHECK(st.total.warp_insts == (uint64_t)k->block.x / 32 * (uint64_t)(k->n_code));
        sim_kernel_stats_free(&st);
    } else {
        fprintf(stderr, "%s: %s\n", sched, err.message);
        CHECK(0);
    }
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    return c;
}

static void test_active_set(void)
{
    sim_kernel *one = chains(1, 32, 0), *four = chains(4, 32, 0);
    uint64_t t1 = cycles("lrr", one);
    uint64_t lrr = cycles("lrr", four), n4 = cycles("two_level_active:4:0:1", four);
    uint64_t n2 = cycles("two_level_active:2:0:1", four), n1 = cycles("two_level_active:1:0:1", four);
    uint64_t gto1 = cycles("two_level_active:1:2:1", four);
    /* a chain of 32 MADs (latency 5) takes 32 x 5 cycles and change */
    CHECK(t1 >= 160 && t1 < 180);
    CHECK(n4 == lrr);                       /* all four active: LRR itself */
    CHECK(lrr < t1 + 8);                    /* four chains interleave */
    CHECK(n1 >= 4 * (t1 - 8) && n1 <= 4 * t1 + 16);   /* one at a time */
    CHECK(n2 >= 2 * (t1 - 8) && n2 <= 2 * t1 + 16);   /* two at a time */
    CHECK(gto1 == n1);                      /* one active warp: inner order moot */
    fprintf(stderr, "chains: one %llu, four: lrr %llu, N=4 %llu, N=2 %llu, N=1 %llu\n",
            (unsigned long long)t1, (unsigned long long)lrr, (unsigned long long)n4,
            (unsigned long long)n2, (unsigned long long)n1);
    sim_kernel_destroy(one);
    sim_kernel_destroy(four);
    /* loads: a warp waiting on its load is demoted, the next promoted, so
     * with N = 1 the four loads still overlap */
    sim_kernel *l1 = chains(1, 4, 1), *l4 = chains(4, 4, 1);
    uint64_t single = cycles("two_level_active:1:0:1", l1), four_l = cycles("two_level_active:1:0:1", l4);
    CHECK(single > LAT && four_l < single + 4 * 4 * 5 + 20);
    CHECK(four_l < 2 * single);
    sim_kernel_destroy(l1);
    sim_kernel_destroy(l4);
    /* Chen's scheduler runs the same instructions */
    sim_kernel *m = chains(4, 8, 1);
    CHECK(cycles("locality_two_level:2", m) > LAT);
    sim_kernel_destroy(m);
}

/* Block (bx, by) warp reads a[32 bx + tx]: one 128-byte line. */
static void test_ranges(void)
{
    sim_kb *kb = sim_kb_begin("cols", SIM_DIM(4, 2), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4 * 32 * 4);
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(AFF(.k[SIM_TX] = 1, .k[SIM_BX] = 32))));
    sim_kernel *k = NULL;
    trapeze_error err;
    CHECK_OK(sim_kb_end(kb, &k, &err));
    if (!k)
        return;
    sim_warp w[3];
    const int blocks[3][2] = {{1, 0}, {1, 1}, {2, 0}};
    for (int i = 0; i < 3; i++) {
        sim_warp_cursor cur;
        memset(&cur, 0, sizeof cur);
        sim_program_source.warp_start(NULL, k, &cur, blocks[i][0], blocks[i][1], 0, 0);
        sim_sched_warp_range(k, &cur, &w[i]);
    }
    uint64_t line1 = (k->arrays[a].base + 128) / 128;
    CHECK(w[0].loc_region == (line1 >> 6) + 1);
    CHECK(w[0].loc_lines == 1ull << (line1 & 63));
    CHECK(w[1].loc_region == w[0].loc_region && w[1].loc_lines == w[0].loc_lines);
    CHECK(w[2].loc_lines == 1ull << ((line1 + 1) & 63));
    sim_kernel_destroy(k);
}

static void test_config(void)
{
    static const struct { const char *v, *msg; } bad[] = {
        {"two_level_active:0:0:1", "0 active warps: between 1 and 48"},
        {"two_level_active:6:1:1", "inner policy 1"},
        {"two_level_active:6:0:0", "outer policy 0"},
        {"two_level_active:6", "not a scheduler"},
        {"locality_two_level:99", "99 active warps"},
        {"fifo", "'fifo' is not a scheduler"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        trapeze_config *cfg = make_cfg(bad[i].v);
        sim_core_config c;
        trapeze_error err;
        CHECK(cfg && sim_core_config_read(cfg, &c, &err) != TRAPEZE_OK);
        if (!strstr(err.message, bad[i].msg) || !strstr(err.message, "test.config:"))
            fprintf(stderr, "%s: %s\n", bad[i].v, err.message);
        CHECK(strstr(err.message, bad[i].msg) && strstr(err.message, "test.config:"));
        trapeze_config_destroy(cfg);
    }
    trapeze_config *cfg = make_cfg("two_level_active:6:2:1");
    sim_core_config c;
    trapeze_error err;
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.sched == SIM_SCHED_TWO_LEVEL && c.active_warps == 6 && c.inner_gto);
    trapeze_config_destroy(cfg);
}

/* Barriers: a warp waiting at __syncthreads is demoted, its block's other
 * warps must still be promoted to reach it. */
static void test_barriers(void)
{
    static const char *const scheds[] = {"gto", "two_level_active:1:0:1",
                                         "two_level_active:2:2:1", "locality_two_level:1",
                                         "locality_two_level:6"};
    trapeze_error err;
    char *text = NULL;
    CHECK_OK(trapeze_read_file("data/gpus/gtx480.config", &text, &err));
    uint64_t insts = 0;
    for (size_t i = 0; i < sizeof scheds / sizeof scheds[0] && text; i++) {
        char *full = malloc(strlen(text) + 128);
        sprintf(full, "%s\n-gpgpu_scheduler %s\n", text, scheds[i]);
        trapeze_config *cfg = NULL;
        CHECK_OK(trapeze_config_parse(full, "gtx480.config", &cfg, &err));
        free(full);
        sim_core_config core;
        CHECK_OK(sim_core_config_read(cfg, &core, &err));
        const sim_builtin *b = sim_builtin_find("matmul_tiled");
        char *params[] = {"n=64", "tile=16"};
        long p[SIM_BUILTIN_MAX_PARAMS];
        sim_kernel *ks[1];
        int nk = 0;
        sim_gpu *g = NULL;
        sim_kernel_stats st;
        CHECK_OK(sim_builtin_params(b, 2, params, p, &err));
        CHECK_OK(b->build(&core, p, ks, 1, &nk, &err));
        CHECK_OK(sim_gpu_create(cfg, NULL, &g, &err));
        trapeze_status s = g ? sim_gpu_run(g, ks[0], &st, &err) : TRAPEZE_EFAIL;
        if (s)
            fprintf(stderr, "%s: %s\n", scheds[i], err.message);
        CHECK(s == TRAPEZE_OK);
        if (!s) {
            CHECK(st.total.blocks == 16);
            if (!insts)
                insts = st.total.warp_insts;
            CHECK(st.total.warp_insts == insts);
            sim_kernel_stats_free(&st);
        }
        sim_gpu_destroy(g);
        sim_kernel_destroy(ks[0]);
        trapeze_config_destroy(cfg);
    }
    free(text);
}

/* A warp's thread-index bounds (tid_min, tid_max: the uniform-branch and
 * affine-address shortcuts read them) are those of its existing lanes, on
 * blocks whose warps wrap x and y in every way, and short last warps;
 * e.g. 16x16, warp 3 (threads 96-127): x 0-15, y 6-7, z 0. */
static void test_tid_bounds(void)
{
    const sim_dim3 shapes[] = {{32, 1, 1}, {16, 16, 1}, {5, 3, 4}, {7, 1, 9}, {3, 5, 7},
                               {100, 1, 1}, {1, 1, 64}, {33, 2, 1}, {1, 40, 2}, {6, 6, 6}};
    int bad = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        sim_kernel k;
        memset(&k, 0, sizeof k);
        k.grid = (sim_dim3){1, 1, 1};
        k.block = shapes[i];
        int threads = k.block.x * k.block.y * k.block.z;
        for (int w = 0; w * 32 < threads; w++) {
            sim_warp_cursor cur;
            sim_program_source.warp_start(NULL, &k, &cur, 0, 0, 0, w);
            int n = threads - 32 * w < 32 ? threads - 32 * w : 32;
            for (int d = 0; d < 3; d++) {
                int lo = INT16_MAX, hi = INT16_MIN;
                for (int l = 0; l < n; l++) {
                    lo = cur.tid[d][l] < lo ? cur.tid[d][l] : lo;
                    hi = cur.tid[d][l] > hi ? cur.tid[d][l] : hi;
                }
                bad += cur.tid_min[d] != lo || cur.tid_max[d] != hi;
            }
        }
    }
    CHECK(bad == 0);
    sim_kernel k;
    memset(&k, 0, sizeof k);
    k.block = (sim_dim3){16, 16, 1};
    sim_warp_cursor cur;
    sim_program_source.warp_start(NULL, &k, &cur, 0, 0, 0, 3);
    CHECK(cur.tid_min[0] == 0 && cur.tid_max[0] == 15 && cur.tid_min[1] == 6 &&
          cur.tid_max[1] == 7 && cur.tid_min[2] == 0 && cur.tid_max[2] == 0);
}

int main(void)
{
    test_tid_bounds();
    test_active_set();
    test_ranges();
    test_barriers();
    test_config();
    return check_report("test_warp_sched");
}
