/*
 * TB dispatch policies (sim/core/dispatch*.c) with hand-checkable
 * placements: which block goes to which SM in which order. The kernel's
 * blocks are one warp each and all take the same time on the ideal memory,
 * so a wave of blocks ends together (a block placed a cycle later ends a
 * cycle later). Block (bx, by) reads a[32 bx + tx]: the blocks of one grid
 * column (t and t + 4 in a 4 x 2 grid) read the same 32 elements.
 *  - rr: blocks in id order, SMs in turn;
 *  - bcs: pairs (0,1), (2,3), ... to one SM, a pair only when both fit;
 *  - chen: a column's blocks on one SM (worked out in test_chen); its
 *    sub-grid (-trapeze_window_groups m): SMs 0..m-1, m / n_sm of the blocks;
 *  - MST-TS: the seed's example grouping (0,4),(1,5),(2),(3),(7),(6);
 *  - k-way-TS and RB-TS: no column split across groups;
 *  - group queues: tail stealing moves max - floor(mean) blocks (F8);
 *  - every policy runs every block exactly once, deterministically;
 *  - a sample's later window (-trapeze_window_first_block N, rr): blocks
 *    N.. in rr's order, the launch done when they are; a kernel's
 *    first_trip t: every warp skips t trips of its outer loop (two warp
 *    instructions each here: the FMA and the loop's branch);
 *  - a skip within a running launch (sim_gpu_launch_skip, rr): blocks
 *    [a, b) never placed, the others' warp instructions exactly, whether
 *    asked before the dispatcher gets there or after (from its next block).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/text.h"
#include "sim/core/gpu_sim.h"
#include "sim/locality/locality.h"

#define AFF SIM_AFF
#define MAXP 4096

static const char *const base_cfg =
    "-gpgpu_ptx_force_max_capability 20\n"
    "-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_num_sched_per_core 2\n-gpgpu_scheduler gto\n";

typedef struct {
    int n;
    int sm[MAXP];
    long block[MAXP];
    uint64_t cycle[MAXP];
} placements;

static void on_place(void *ctx, int sm, long block, uint64_t cycle)
{
    placements *p = ctx;
    if (p->n < MAXP) {
        p->sm[p->n] = sm;
        p->block[p->n] = block;
        p->cycle[p->n] = cycle;
    }
    p->n++;
}

static trapeze_config *make_cfg(int sms, int ctas, const char *policy, const char *extra)
{
    char text[4096];
    snprintf(text, sizeof text, "%s-gpgpu_n_clusters %d\n-gpgpu_shader_cta %d\n"
             "-trapeze_tb_dispatch %s\n%s", base_cfg, sms, ctas, policy, extra ? extra : "");
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_parse(text, "test.config", &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return cfg;
}

/* gx x gy blocks of one warp: a[32 bx + tx], then 16 dependent FMAs. */
static sim_kernel *column_kernel(int gx, int gy)
{
    sim_kb *kb = sim_kb_begin("columns", SIM_DIM(gx, gy), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4 * 32 * (uint64_t)gx);
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(AFF(.k[SIM_TX] = 1, .k[SIM_BX] = 32))));
    sim_kb_loop(kb, AFF(.c = 16));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, SIM_NO_REG);
    sim_kb_endloop(kb);
    sim_kernel *k = NULL;
    trapeze_error err;
    if (sim_kb_end(kb, &k, &err))
        fprintf(stderr, "%s\n", err.message);
    return k;
}

/* Options for a run on cfg's SMs with ideal memory (100 cycles) that
 * records each block's placement into p (emptied). */
static void placing_options(trapeze_config *cfg, placements *p, sim_gpu_options *opt,
                            trapeze_error *err)
{
    trapeze_gpu gpu;
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, err));
    memset(opt, 0, sizeof *opt);
    CHECK_OK(sim_mem_port_ideal(gpu.n_sm, 100, &opt->mem, err));
    opt->on_place = on_place;
    opt->on_place_ctx = p;
    memset(p, 0, sizeof *p);
}

/* Runs k on n_sm SMs with ideal memory; placements into p. */
static trapeze_status run(trapeze_config *cfg, const sim_kernel *k, placements *p,
                          sim_kernel_stats *st, const char *grouping, trapeze_error *err)
{
    sim_gpu_options opt;
    placing_options(cfg, p, &opt, err);
    opt.tb_grouping = grouping;
    sim_gpu *g = NULL;
    trapeze_status s = sim_gpu_create(cfg, &opt, &g, err);
    if (!s)
        s = sim_gpu_run(g, k, st, err);
    sim_gpu_destroy(g);
    return s;
}

/* The blocks SM `sm` got, in order, as "0,2,4". */
static const char *sm_blocks(const placements *p, int sm, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < p->n && i < MAXP; i++)
        if (p->sm[i] == sm)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%ld", buf[0] ? "," : "",
                     p->block[i]);
    return buf;
}

static int check_sm(const placements *p, int sm, const char *want, const char *policy)
{
    char buf[512];
    sm_blocks(p, sm, buf, sizeof buf);
    if (strcmp(buf, want))
        fprintf(stderr, "%s: SM %d got %s, expected %s\n", policy, sm, buf, want);
    return !strcmp(buf, want);
}

static long cycle_of(const placements *p, long block)
{
    for (int i = 0; i < p->n && i < MAXP; i++)
        if (p->block[i] == block)
            return (long)p->cycle[i];
    return -1;
}

static void test_rr_bcs(void)
{
    sim_kernel *k = column_kernel(4, 2);
    placements p;
    sim_kernel_stats st;
    trapeze_error err;
    trapeze_config *cfg = make_cfg(2, 2, "rr", NULL);
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    CHECK(check_sm(&p, 0, "0,2,4,6", "rr") && check_sm(&p, 1, "1,3,5,7", "rr"));
    /* SM 0 runs 0 (placed at c) and 2 (c + 1); 4 and 6 take their slots
     * when they leave, 2 a little later than 0 */
    long first_left = cycle_of(&p, 4), second_left = cycle_of(&p, 6);
    CHECK(first_left > 16 * 4 && cycle_of(&p, 2) == cycle_of(&p, 0) + 1);
    CHECK(second_left > first_left);
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);

    cfg = make_cfg(2, 2, "bcs", NULL);
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    CHECK(check_sm(&p, 0, "0,1,4,5", "bcs") && check_sm(&p, 1, "2,3,6,7", "bcs"));
    /* SM 0 runs 0 and 1 as rr's SM 0 ran 0 and 2; block 4 waits for the
     * pair's second block to leave (delay scheduling), where rr went on
     * when the first left */
    CHECK(cycle_of(&p, 4) == second_left);
    CHECK(cycle_of(&p, 5) == cycle_of(&p, 4) + 1);
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    /* 3 blocks fit per SM: a pair, then a lone slot stays empty (throttle) */
    cfg = make_cfg(1, 3, "bcs", NULL);
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    CHECK(check_sm(&p, 0, "0,1,2,3,4,5,6,7", "bcs 1 SM"));
    CHECK(st.total.max_resident_blocks == 3);   /* 0,1 then 2,3 once 0 left: 1,2,3 */
    CHECK(cycle_of(&p, 2) > cycle_of(&p, 1));
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    sim_kernel_destroy(k);
}

/* Chen: cycle 0, SM 0 empty and nothing resident anywhere: block 0; SM 1:
 * block 4 shares with SM 0's block 0, so the smallest that shares with no
 * other SM: 1. Cycle 1: each SM takes its residents' column partner (4, 5).
 * When 0 and 1 leave, SM 0 holds 4 (partner placed): the smallest sharing
 * nothing with SM 1's {1, 5}... 2; SM 1 holds 5, SM 0 {4, 2}: 6 shares
 * with 2, so 3. Then the partners 6 and 7. */
static void test_chen(void)
{
    sim_kernel *k = column_kernel(4, 2);
    placements p;
    sim_kernel_stats st;
    trapeze_error err;
    trapeze_config *cfg = make_cfg(2, 2, "chen", NULL);
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    CHECK(check_sm(&p, 0, "0,4,2,6", "chen") && check_sm(&p, 1, "1,5,3,7", "chen"));
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    /* a sub-grid (-trapeze_window_groups 1 of 2 SMs): SM 0 alone, 8 / 2 = 4
     * blocks: 0, its partner 4; when 0 leaves, nothing waiting shares with
     * 4 and no other SM holds a block: the smallest, 1; then its partner 5 */
    cfg = make_cfg(2, 2, "chen", "-trapeze_window_groups 1\n");
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    CHECK(check_sm(&p, 0, "0,4,1,5", "chen sub-grid"));
    CHECK(p.n == 4 && st.blocks == 4 && st.total.blocks == 4);
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    sim_kernel_destroy(k);
}

/* The seed's MST-TS example (§3.3.1): N = 2 SMs, x = 2, MST order
 * 0,4,1,5,2,3,7,6 gives groups (0,4), (1,5), (2), (3), (7), (6). The graph
 * is a path of falling weights in that order plus a weak 0-1 edge. */
static void test_mst_example(void)
{
    static const int path[8] = {0, 4, 1, 5, 2, 3, 7, 6};
    trapeze_locality_edge e[8];
    int ne = 0;
    for (int i = 0; i + 1 < 8; i++) {
        int a = path[i], b = path[i + 1];
        e[ne++] = (trapeze_locality_edge){a < b ? a : b, a < b ? b : a, 10 - i, 1, 0};
    }
    e[ne++] = (trapeze_locality_edge){0, 1, 1, 1, 0};
    /* sorted by (i, j) as the graph's invariant requires */
    for (int i = 0; i < ne; i++)
        for (int j = i + 1; j < ne; j++)
            if (e[j].tb_i < e[i].tb_i || (e[j].tb_i == e[i].tb_i && e[j].tb_j < e[i].tb_j)) {
                trapeze_locality_edge t = e[i];
                e[i] = e[j];
                e[j] = t;
            }
    long long fp[8] = {20, 20, 20, 20, 20, 20, 20, 20};
    trapeze_locality_graph g = {.grid = {8, 1, 1}, .n_tbs = 8, .line_bytes = 128,
                                .elements = fp, .lines = fp, .n_edges = ne, .edges = e};
    sim_locality_adj a;
    sim_tb_groups gr;
    trapeze_error err;
    CHECK_OK(sim_locality_adj_build(&g, &a, &err));
    CHECK_OK(sim_locality_mst_ts(&a, 2, 2, &gr, &err));
    static const long want_start[7] = {0, 2, 4, 5, 6, 7, 8};
    CHECK(gr.n_groups == 6);
    for (int i = 0; i < 7 && gr.n_groups == 6; i++)
        CHECK(gr.gstart[i] == want_start[i]);
    for (int i = 0; i < 8; i++)
        CHECK(gr.ids[i] == (uint32_t)path[i]);
    sim_tb_groups_free(&gr);
    sim_locality_adj_free(&a);
}

/* k-way and RB-TS on the column graph: a group never splits a column. */
static int columns_whole(const sim_tb_groups *gr, int n_tbs)
{
    int *group_of = calloc((size_t)n_tbs, sizeof *group_of), ok = 1;
    for (int gi = 0; gi < gr->n_groups; gi++)
        for (long i = gr->gstart[gi]; i < gr->gstart[gi + 1]; i++)
            group_of[gr->ids[i]] = gi;
    for (int t = 0; t < n_tbs / 2; t++)
        ok &= group_of[t] == group_of[t + n_tbs / 2];
    free(group_of);
    return ok;
}

static void test_partitions(void)
{
    sim_kernel *k = column_kernel(8, 2);
    trapeze_locality_graph g;
    sim_locality_adj a;
    sim_tb_groups gr;
    trapeze_error err;
    CHECK_OK(sim_locality_build(k, 128, &g, &err));
    CHECK(g.n_edges == 8);
    CHECK_OK(sim_locality_adj_build(&g, &a, &err));
    CHECK_OK(sim_locality_kway_ts(&a, 4, &gr, &err));
    CHECK(gr.n_groups == 4 && gr.gstart[4] == 16);
    for (int i = 0; i < 4; i++)
        CHECK(gr.gstart[i + 1] - gr.gstart[i] == 4);   /* balanced */
    CHECK(columns_whole(&gr, 16));
    /* inside a group, MST order: a column's blocks one after the other */
    for (int i = 0; i < 16; i += 2)
        CHECK(gr.ids[i + 1] == gr.ids[i] + 8);
    sim_tb_groups_free(&gr);
    /* more SMs than TBs (a V100's 80 SMs): a TB per part, the rest empty */
    CHECK_OK(sim_locality_kway_ts(&a, 20, &gr, &err));
    CHECK(gr.n_groups == 20 && gr.gstart[20] == 16);
    for (int i = 0; i < 20; i++)
        CHECK(gr.gstart[i + 1] - gr.gstart[i] == (i < 16));
    sim_tb_groups_free(&gr);
    CHECK_OK(sim_locality_rb_ts(&a, 2, &gr, &err));
    CHECK(gr.n_groups == 8 && columns_whole(&gr, 16));
    for (int i = 0; i < gr.n_groups; i++)
        CHECK(gr.gstart[i + 1] - gr.gstart[i] == 2);
    sim_tb_groups_free(&gr);
    /* per_sm 3: parts of 16 -> 8 -> 4 -> 2, never above 3 */
    CHECK_OK(sim_locality_rb_ts(&a, 3, &gr, &err));
    for (int i = 0; i < gr.n_groups; i++)
        CHECK(gr.gstart[i + 1] - gr.gstart[i] <= 3);
    CHECK(gr.gstart[gr.n_groups] == 16);
    sim_tb_groups_free(&gr);
    sim_locality_adj_free(&a);
    trapeze_locality_graph_free(&g);
    sim_kernel_destroy(k);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Explicit groups of 6 and 2 blocks, one block per SM at a time. At the
 * end of the second wave SM 0 has issued 0,1,2 and waits with 3,4,5; SM 1's
 * queue is empty: it steals 3 - floor(3 / 2) = 2 from the tail: 4, 5. */
static void test_stealing(void)
{
    char path[64];   /* per process: test runs may overlap */
    snprintf(path, sizeof path, "/tmp/trapeze-dispatch-%d.csv", (int)getpid());
    write_text(path, "tb,group,order\n6,1,0\n7,1,1\n0,0,0\n1,0,1\n2,0,2\n3,0,3\n4,0,4\n5,0,5\n");
    sim_kernel *k = column_kernel(4, 2);
    placements p;
    sim_kernel_stats st;
    trapeze_error err;
    trapeze_config *cfg = make_cfg(2, 1, "rr", NULL);
    CHECK_OK(run(cfg, k, &p, &st, path, &err));
    CHECK(check_sm(&p, 0, "0,1,2,3", "explicit") && check_sm(&p, 1, "6,7,4,5", "explicit"));
    CHECK(st.stolen_blocks == 2);
    sim_kernel_stats_free(&st);
    /* a grouping for another grid, or more groups than SMs: refused */
    write_text(path, "tb,group,order\n0,0,0\n1,0,1\n");
    CHECK(run(cfg, k, &p, &st, path, &err) != TRAPEZE_OK);
    CHECK(strstr(err.message, "TB 2 missing") != NULL);
    write_text(path, "tb,group,order\n0,2,0\n1,0,0\n2,0,1\n3,0,2\n4,0,3\n5,0,4\n6,0,5\n7,0,6\n");
    CHECK(run(cfg, k, &p, &st, path, &err) != TRAPEZE_OK);
    CHECK(strstr(err.message, ":2: field group: 2 outside 0..1") != NULL);
    trapeze_config_destroy(cfg);
    remove(path);
    sim_kernel_destroy(k);
}

/* Every policy places every block exactly once, and twice the same way. */
static void test_every_block_once(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/trapeze-dispatch-all-%d.csv", (int)getpid());
    trapeze_error err;
    trapeze_config *base = NULL;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &base, &err));
    sim_core_config core;
    CHECK_OK(sim_core_config_read(base, &core, &err));
    const sim_builtin *b = sim_builtin_find("matmul");
    char *params[] = {"n=96", "block=8"};   /* 12 x 12 = 144 blocks on 15 SMs */
    long pv[SIM_BUILTIN_MAX_PARAMS];
    sim_kernel *ks[1];
    int nk = 0;
    CHECK_OK(sim_builtin_params(b, 2, params, pv, &err));
    CHECK_OK(b->build(&core, pv, ks, 1, &nk, &err));
    /* an explicit grouping: block t to SM t % 7, in falling id order */
    FILE *f = fopen(path, "w");
    fprintf(f, "tb,group,order\n");
    int seen[7] = {0};
    for (int t = 143; t >= 0; t--)
        fprintf(f, "%d,%d,%d\n", t, t % 7, seen[t % 7]++);
    fclose(f);
    static const char *const policies[] = {"rr", "bcs", "chen", "mst", "kway", "rbts", "explicit"};
    char *text = NULL;
    CHECK_OK(trapeze_read_file("data/gpus/gtx480.config", &text, &err));
    for (int i = 0; i < 7 && text; i++) {
        char *cfg_text = malloc(strlen(text) + 256);
        sprintf(cfg_text, "%s\n-trapeze_tb_dispatch %s\n-trapeze_tb_grouping %s\n", text,
                policies[i], path);
        trapeze_config *cfg = NULL;
        CHECK_OK(trapeze_config_parse(cfg_text, "gtx480.config", &cfg, &err));
        uint64_t cycles[2] = {0, 0};
        for (int rep = 0; rep < 2 && cfg; rep++) {
            sim_gpu_options opt;
            memset(&opt, 0, sizeof opt);
            placements *p = calloc(1, sizeof *p);
            opt.on_place = on_place;
            opt.on_place_ctx = p;
            sim_gpu *g = NULL;
            sim_kernel_stats st;
            CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
            CHECK(g && sim_gpu_run(g, ks[0], &st, &err) == TRAPEZE_OK);
            int count[144] = {0}, bad = p->n != 144;
            for (int j = 0; j < p->n && j < MAXP; j++)
                bad |= p->block[j] < 0 || p->block[j] >= 144 || count[p->block[j]]++;
            if (bad)
                fprintf(stderr, "%s: %d placements, not every block once\n", policies[i], p->n);
            CHECK(!bad && st.blocks == 144 && st.total.blocks == 144);
            cycles[rep] = st.cycles;
            sim_kernel_stats_free(&st);
            sim_gpu_destroy(g);
            free(p);
        }
        CHECK(cycles[0] == cycles[1] && cycles[0] > 0);
        trapeze_config_destroy(cfg);
        free(cfg_text);
    }
    free(text);
    sim_kernel_destroy(ks[0]);
    trapeze_config_destroy(base);
    remove(path);
}

static void test_config_errors(void)
{
    trapeze_config *cfg = make_cfg(2, 2, "lifo", NULL);
    sim_core_config c;
    trapeze_error err;
    CHECK(sim_core_config_read(cfg, &c, &err) != TRAPEZE_OK);
    CHECK(strstr(err.message, "test.config:") && strstr(err.message, "'lifo' is not a TB dispatch"));
    trapeze_config_destroy(cfg);
    cfg = make_cfg(2, 2, "explicit", NULL);
    CHECK(sim_core_config_read(cfg, &c, &err) != TRAPEZE_OK);
    CHECK(strstr(err.message, "explicit needs -trapeze_tb_grouping FILE") != NULL);
    trapeze_config_destroy(cfg);
    cfg = make_cfg(2, 2, "kway", NULL);
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.tb_dispatch == SIM_TB_KWAY && !strcmp(sim_tb_dispatch_name(c.tb_dispatch), "kway"));
    trapeze_config_destroy(cfg);
}

static void test_first_block_and_trip(void)
{
    sim_kernel *k = column_kernel(4, 2);
    placements p;
    sim_kernel_stats st;
    trapeze_error err;
    trapeze_config *cfg = make_cfg(2, 2, "rr", "-trapeze_window_first_block 3\n");
    sim_core_config c;
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.window_first_block == 3);
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    /* the 8-block run's rr order, from block 3: SM 0 then SM 1 in turn */
    CHECK(check_sm(&p, 0, "3,5,7", "rr from 3") && check_sm(&p, 1, "4,6", "rr from 3"));
    CHECK(p.n == 5 && st.blocks == 5 && st.total.blocks == 5);
    uint64_t whole_block_insts = 0;
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    /* past the grid: nothing to run */
    cfg = make_cfg(2, 2, "rr", "-trapeze_window_first_block 8\n");
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    CHECK(p.n == 0 && st.blocks == 0 && st.total.warp_insts == 0);
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    /* only round-robin knows where to start */
    cfg = make_cfg(2, 2, "bcs", "-trapeze_window_first_block 3\n");
    CHECK(run(cfg, k, &p, &st, NULL, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "needs round-robin") != NULL);
    trapeze_config_destroy(cfg);
    /* first_trip: 8 blocks of one warp, 16 trips of (FMA, branch) each */
    cfg = make_cfg(2, 2, "rr", NULL);
    CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
    whole_block_insts = st.total.warp_insts / 8;
    CHECK(st.total.warp_insts == 8 * whole_block_insts);
    sim_kernel_stats_free(&st);
    const long trips[] = {10, 15, 16, 40};
    for (int i = 0; i < 4; i++) {
        k->first_trip = trips[i];
        long skipped = trips[i] < 16 ? trips[i] : 16;
        CHECK_OK(run(cfg, k, &p, &st, NULL, &err));
        CHECK(st.total.warp_insts == 8 * (whole_block_insts - 2 * (uint64_t)skipped));
        CHECK(st.total.blocks == 8);
        sim_kernel_stats_free(&st);
    }
    k->first_trip = 0;
    trapeze_config_destroy(cfg);
    sim_kernel_destroy(k);
}

/* Runs 16 one-warp blocks on 2 SMs of 2 blocks each, asking the skip
 * [from, to) once `after` blocks are placed; placements into p. */
static trapeze_status run_skip(const char *policy, long after, long from, long to,
                               placements *p, sim_kernel_stats *st, trapeze_error *err)
{
    trapeze_config *cfg = make_cfg(2, 2, policy, NULL);
    sim_kernel *k = column_kernel(16, 1);
    sim_gpu_options opt;
    placing_options(cfg, p, &opt, err);
    sim_gpu *g = NULL;
    sim_launch l;
    trapeze_status s = sim_gpu_create(cfg, &opt, &g, err);
    if (!s)
        s = sim_gpu_launch_begin(g, k, st, &l, err);
    if (!s) {
        while (p->n < after && sim_gpu_launch_step(&l, err))
            ;
        s = sim_gpu_launch_skip(&l, from, to, err);
        if (!s && from == 12 && to == 14)   /* a second range while one is pending */
            CHECK(sim_gpu_launch_skip(&l, 14, 15, err) == TRAPEZE_EINVAL);
        if (!s) {
            while (sim_gpu_launch_step(&l, err))
                ;
            s = sim_gpu_launch_end(&l, err);
        } else {
            sim_gpu_launch_cut(&l);
        }
    }
    sim_gpu_destroy(g);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
    return s;
}

/* The blocks placed, in order, as "0,1,2". */
static const char *placed_blocks(const placements *p, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < p->n && i < MAXP; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%ld", buf[0] ? "," : "",
                 p->block[i]);
    return buf;
}

static void test_skip(void)
{
    placements p;
    sim_kernel_stats st;
    trapeze_error err;
    char buf[512];
    CHECK_OK(run_skip("rr", 0, 0, 0, &p, &st, &err));   /* nothing skipped: the whole run */
    uint64_t block_insts = st.total.warp_insts / 16;
    CHECK(st.total.warp_insts == 16 * block_insts && st.blocks == 16 && p.n == 16);
    sim_kernel_stats_free(&st);
    /* {after, from, to, the blocks placed, how many} */
    static const struct {
        long after, from, to;
        const char *want;
        int n;
    } cases[] = {
        {0, 5, 11, "0,1,2,3,4,11,12,13,14,15", 10},       /* asked ahead of the dispatcher */
        {4, 0, 10, "0,1,2,3,10,11,12,13,14,15", 10},      /* 0-3 placed: from 4 on */
        {6, 12, 40, "0,1,2,3,4,5,6,7,8,9,10,11", 12},     /* past the end: to the end */
        {6, 12, 14, "0,1,2,3,4,5,6,7,8,9,10,11,14,15", 14},
        {16, 3, 9, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", 16},   /* all placed: none */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_OK(run_skip("rr", cases[i].after, cases[i].from, cases[i].to, &p, &st, &err));
        placed_blocks(&p, buf, sizeof buf);
        if (strcmp(buf, cases[i].want))
            fprintf(stderr, "skip [%ld, %ld) after %ld: placed %s, expected %s\n",
                    cases[i].from, cases[i].to, cases[i].after, buf, cases[i].want);
        CHECK(!strcmp(buf, cases[i].want));
        /* the skipped blocks never issue: the others' instructions exactly */
        CHECK(st.total.warp_insts == (uint64_t)cases[i].n * block_insts);
        CHECK(st.blocks == (uint64_t)cases[i].n && st.total.blocks == (uint64_t)cases[i].n);
        sim_kernel_stats_free(&st);
    }
    /* only round-robin has an order to skip in */
    CHECK(run_skip("bcs", 0, 5, 11, &p, &st, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "round-robin") != NULL);
}

int main(void)
{
    test_rr_bcs();
    test_chen();
    test_mst_example();
    test_partitions();
    test_stealing();
    test_every_block_once();
    test_config_errors();
    test_first_block_and_trip();
    test_skip();
    return check_report("test_dispatch");
}
