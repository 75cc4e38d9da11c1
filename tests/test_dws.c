/*
 * test_dws.c - Dynamic Warp Subdivision (sim/core/dws.c): cycle counts of
 * one-warp kernels worked out by hand from the timing rules of sim/core/sm.c,
 * on a memory port whose latency depends on the address (one "hot" line hits
 * after HIT cycles, every other line misses after MISS), and the
 * invariants on larger kernels under every policy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"
#include "sim_fixture.h"

#define HIT 10
#define MISS 100
#define HOT 0x10000000ull   /* the first global array: sim_kb_global lays arrays out from here */

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
    "-gpgpu_l1_latency 5\n"   /* the hit window: 2 x 5 = HIT cycles */
    "-trapeze_kernel_launch_latency 1000\n";

static trapeze_config *make_cfg(const char *extra)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", base_cfg, extra ? extra : "");
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_parse(text, "test.config", &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return cfg;
}

/* ---- a memory port with two latencies ---- */

#define MAXQ 4096
typedef struct two_lat {
    sim_mem_request r[MAXQ];
    uint64_t due[MAXQ];
    int n;
    uint64_t store_at[8];   /* accept cycle of the store request to line i of the store array */
    uint64_t store_base;
} two_lat;

/* the first line of the first array hits, every other line misses */
static int hot(uint64_t a) { return a >= HOT && a < HOT + 128; }

static sim_mem_outcome tl_access(void *m, const sim_mem_request *req, uint64_t c,
                                 sim_fail_cause *cause)
{
    two_lat *p = m;
    *cause = SIM_FAIL_NONE;
    if (p->n == MAXQ) {
        *cause = SIM_FAIL_MISS_QUEUE;
        return SIM_MEM_RESERVATION_FAIL;
    }
    p->r[p->n] = *req;
    p->due[p->n++] = c + (hot(req->addr) ? HIT : MISS);
    if (req->op == SIM_MEM_STORE && req->addr >= p->store_base &&
        req->addr < p->store_base + 8 * 128)
        p->store_at[(req->addr - p->store_base) / 128] = c;
    return req->op != SIM_MEM_LOAD ? SIM_MEM_SENT : hot(req->addr) ? SIM_MEM_HIT : SIM_MEM_MISS;
}

/* The earliest due request first (ties: in acceptance order), of the one
 * SM (0); 1, the SM count, when none is due. */
static int tl_pop_next(void *m, int from, uint64_t c, sim_mem_request *d)
{
    two_lat *p = m;
    int best = -1;
    for (int i = 0; i < p->n && from <= 0; i++)
        if (p->due[i] <= c && (best < 0 || p->due[i] < p->due[best]))
            best = i;
    if (best < 0)
        return 1;
    *d = p->r[best];
    memmove(&p->r[best], &p->r[best + 1], (size_t)(p->n - best - 1) * sizeof p->r[0]);
    memmove(&p->due[best], &p->due[best + 1], (size_t)(p->n - best - 1) * sizeof p->due[0]);
    p->n--;
    return 0;
}
static void tl_cycle(void *m, uint64_t c) { (void)m; (void)c; }
static uint64_t tl_out(const void *m) { return (uint64_t)((const two_lat *)m)->n; }
static uint64_t tl_next(const void *m, uint64_t c)
{
    const two_lat *p = m;
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < p->n; i++)
        if (p->due[i] < best)
            best = p->due[i];
    (void)c;
    return best;
}
static void tl_poke(void *m, uint64_t a, uint32_t v) { (void)m; (void)a; (void)v; }
static uint32_t tl_peek(const void *m, uint64_t a) { (void)m; (void)a; return 0; }
static void tl_nop(void *m) { (void)m; }
static void tl_destroy(void *m) { (void)m; }
static const sim_mem_port_ops two_lat_ops = {tl_access, tl_pop_next, tl_cycle, tl_out, tl_next,
                                             tl_poke, tl_peek, tl_nop, tl_nop, NULL,
                                             tl_destroy, NULL, NULL, NULL};

/* Runs k alone on one SM of base_cfg + extra against port p (NULL: the
 * ideal port, every request after MISS cycles); fills st. */
static uint64_t run(sim_kernel *k, const char *extra, two_lat *p, sim_kernel_stats *st)
{
    trapeze_config *cfg = make_cfg(extra);
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    trapeze_error err;
    if (p) {
        opt.mem.ops = &two_lat_ops;
        opt.mem.self = p;
    } else {
        CHECK_OK(sim_mem_port_ideal(1, MISS, &opt.mem, &err));
    }
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

/* One warp: r1 = a[2 tx] (lanes 0-15 read the hot line, lanes 16-31 the
 * next, cold, line), r2 = r1 + r1, c[2 tx] = r2 (two cold lines). */
static sim_kernel *divergent_load(two_lat *p)
{
    sim_kb *kb = sim_kb_begin("divload", SIM_DIM(1), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4096);   /* at HOT */
    int c = sim_kb_global(kb, "c", 4096);   /* at HOT + 4096 */
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 2))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
    sim_kb_st(kb, sim_at1(c, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 2))), 2);
    memset(p, 0, sizeof *p);
    p->store_base = HOT + 4096;
    return fixture_kb_end(kb);
}

/* The load issues at 1 and offers its two line requests at 2 (hot, lanes
 * 0-15) and 3 (cold, lanes 16-31); they complete at 2 + HIT and 3 + MISS,
 * and a dependent issues the cycle after (the SMs run before completions
 * are handed over). Without subdivision the add waits for both: it issues
 * at 4 + MISS, its result is ready 4 cycles later, the store issues at
 * 8 + MISS and offers its lines at 9 + MISS (lanes 0-15) and 10 + MISS.
 * With a memory split the hit half runs ahead once the SM knows the other
 * half missed: its data is not back within the hit window (HIT cycles, the
 * config's 2 x -gpgpu_l1_latency) after its offer at 3, so at 4 + HIT. The
 * hit half's add issues then, its store at 8 + HIT, its line offered at
 * 9 + HIT, MISS - HIT = 90 cycles earlier; the miss half's add at 4 + MISS,
 * its store at 8 + MISS, its line offered at 9 + MISS (alone now, a cycle
 * earlier). Every policy splits here: no other warp could run. */
static void test_hit_half_runs_ahead(void)
{
    static two_lat p;
    sim_kernel_stats st;
    sim_kernel *k = divergent_load(&p);
    run(k, NULL, &p, &st);
    CHECK(p.store_at[0] == 9 + MISS && p.store_at[1] == 10 + MISS);
    CHECK(st.total.dws_mem_splits == 0 && st.total.warp_insts == 4);
    sim_kernel_stats_free(&st);
    static const char *const pol[] = {"aggress", "lazy", "revive"};
    for (int i = 0; i < 3; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, "-trapeze_dws_mem %s\n", pol[i]);
        sim_kernel_destroy(k);
        k = divergent_load(&p);
        run(k, extra, &p, &st);
        CHECK(p.store_at[0] == 9 + HIT);
        CHECK(p.store_at[1] == 9 + MISS);
        /* one split, merged again at EXIT; add and store run twice, half wide */
        CHECK(st.total.dws_mem_splits == 1 && st.total.dws_merges == 1);
        CHECK(st.total.dws_wst_peak == 2);
        CHECK(st.total.warp_insts == 6 && st.total.thread_insts == 4 * 32);
        sim_kernel_stats_free(&st);
    }
    sim_kernel_destroy(k);
}

/* IF (tx < 16) { r1 = a[tx]; r2 = r1 + r1 } ELSE { r1 = b[tx]; r2 = r1 + r1 }
 * then `after` adds, on the ideal port (every request MISS cycles). */
static sim_kernel *if_else(int after)
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
    for (int i = 0; i < after; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 3, 3, 3, SIM_NO_REG);
    return fixture_kb_end(kb);
}

/* The IF's branch at 1; on the stack the THEN load issues at 2 (offered 3,
 * done 103), its add at 104 (result 108), the ELSE branch at 105, the ELSE
 * load at 106 (done 207), its add at 208: the last result at 212. Split at
 * the branch, the ELSE lanes skip the THEN part and issue their load at 3,
 * when the THEN one's request has left the LDST queue (done 104): THEN add
 * at 104 (result 108), ELSE branch (THEN lanes, issued last) at 105, ELSE
 * add at 108, when the THEN add has written r2 (one scoreboard a warp),
 * result 112, 100 cycles earlier; both wait at EXIT and merge there. A
 * post-dominator block longer than -trapeze_dws_post_block is no split. */
static void test_branch_split(void)
{
    sim_kernel_stats st;
    sim_kernel *k = if_else(0);
    uint64_t base = run(k, NULL, NULL, &st);
    uint64_t base_threads = st.total.thread_insts;
    sim_kernel_stats_free(&st);
    uint64_t dws = run(k, "-trapeze_dws_branch 1\n", NULL, &st);
    CHECK(base - dws == 100);
    CHECK(st.total.dws_branch_splits == 1 && st.total.dws_merges == 1);
    CHECK(st.total.dws_mem_splits == 0 && st.total.thread_insts == base_threads);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    k = if_else(1);   /* one instruction after the ENDIF */
    base = run(k, NULL, NULL, &st);
    sim_kernel_stats_free(&st);
    CHECK(run(k, "-trapeze_dws_branch 1\n-trapeze_dws_post_block 0\n", NULL, &st) == base);
    CHECK(st.total.dws_branch_splits == 0);
    sim_kernel_stats_free(&st);
    CHECK(run(k, "-trapeze_dws_branch 1\n-trapeze_dws_post_block 1\n", NULL, &st) == base - 100);
    CHECK(st.total.dws_branch_splits == 1);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
}

/* divergent_load with a uniform IF (every lane takes it) between the add
 * and a second add r3 = r2 + r2 that the store writes. BranchLimited holds
 * the hit half at the IF's branch until the miss half arrives (add at
 * 4 + MISS, merged there): branch at 5 + MISS, second add when r2 is ready
 * at 8 + MISS, store at 12 + MISS, offered at 13 + MISS. BranchBypass lets
 * it cross: add 4 + HIT, branch 5 + HIT, second add 8 + HIT, store
 * 12 + HIT, offered 13 + HIT. */
static void test_reconvergence_policy(void)
{
    static two_lat p;
    static const char *const reconv[] = {"limited", "bypass"};
    const uint64_t expect[] = {13 + MISS, 13 + HIT};
    for (int i = 0; i < 2; i++) {
        sim_kb *kb = sim_kb_begin("divload_if", SIM_DIM(1), SIM_DIM(32));
        int a = sim_kb_global(kb, "a", 4096), c = sim_kb_global(kb, "c", 4096);
        sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 2))));
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
        sim_kb_if(kb, sim_pred1(SIM_AFF(.k[SIM_TX] = 1), SIM_GE));
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 3, 2, 2, SIM_NO_REG);
        sim_kb_endif(kb);
        sim_kb_st(kb, sim_at1(c, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 2))), 3);
        sim_kernel *k = fixture_kb_end(kb);
        memset(&p, 0, sizeof p);
        p.store_base = HOT + 4096;
        char extra[128];
        snprintf(extra, sizeof extra, "-trapeze_dws_mem aggress\n-trapeze_dws_reconv %s\n",
                 reconv[i]);
        sim_kernel_stats st;
        run(k, extra, &p, &st);
        CHECK(p.store_at[0] == expect[i]);
        CHECK(st.total.dws_mem_splits == 1 && st.total.dws_merges == 1);
        sim_kernel_stats_free(&st);
        sim_kernel_destroy(k);
    }
}

/* Two warps: the second (tx >= 32) first runs a chain of 40 dependent adds
 * (a result every 4 cycles), then both load as in divergent_load (the second
 * warp's lines are both cold). When warp 0's hit line arrives the second
 * warp is between two adds: AggressSplit splits warp 0 then; LazySplit does
 * not (a warp still computes) and never does (warp 0 is whole again when
 * its miss returns); ReviveSplit splits it at the first cycle the pipeline
 * stalls, the cycle after the second warp's add. */
static void test_split_policies(void)
{
    static two_lat p;
    static const char *const pol[] = {"aggress", "lazy", "revive"};
    const uint64_t splits[] = {1, 0, 1};
    uint64_t hit_store[3];
    for (int i = 0; i < 3; i++) {
        sim_kb *kb = sim_kb_begin("busy", SIM_DIM(1), SIM_DIM(64));
        int a = sim_kb_global(kb, "a", 4096), c = sim_kb_global(kb, "c", 4096);
        sim_kb_if(kb, sim_pred1(SIM_AFF(.c = -32, .k[SIM_TX] = 1), SIM_GE));
        for (int j = 0; j < 40; j++)
            sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 4, 4, 4, SIM_NO_REG);
        sim_kb_endif(kb);
        sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 2))));
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
        sim_kb_st(kb, sim_at1(c, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 2))), 2);
        sim_kernel *k = fixture_kb_end(kb);
        memset(&p, 0, sizeof p);
        p.store_base = HOT + 4096;
        char extra[128];
        snprintf(extra, sizeof extra, "-trapeze_dws_mem %s\n", pol[i]);
        sim_kernel_stats st;
        run(k, extra, &p, &st);
        CHECK(st.total.dws_mem_splits == splits[i]);
        hit_store[i] = p.store_at[0];
        sim_kernel_stats_free(&st);
        sim_kernel_destroy(k);
    }
    /* the split hit half stores long before the whole warp can */
    CHECK(hit_store[0] < 20 + HIT && hit_store[1] > MISS && hit_store[2] < 20 + HIT);
    CHECK(hit_store[2] >= hit_store[0]);
}

/* The invariants on kernels with many warps, branches and loads, on the
 * GTX 480's memory system: every policy executes exactly the baseline's
 * thread instructions (the splits partition the lanes: each lane runs each
 * instruction once), every split is merged again by the end (merges restore
 * the full mask), and the table never holds more than -trapeze_dws_wst
 * entries (a TRAPEZE_CHECKS build also runs sim_dws_check every cycle). */
static void test_invariants(void)
{
    static const char *const kern[][2] = {{"filter", "w=128"}, {"kmeans", "points=3840"},
                                          {"jacobi", "nx=256"}};
    static const char *const pol[] = {
        "-trapeze_dws_branch 1\n",
        "-trapeze_dws_mem aggress\n-trapeze_dws_branch 1\n-trapeze_dws_reconv bypass\n",
        "-trapeze_dws_mem lazy\n-trapeze_dws_branch 1\n",
        "-trapeze_dws_mem revive\n-trapeze_dws_branch 1\n-trapeze_dws_reconv bypass\n",
        "-trapeze_dws_mem aggress\n-trapeze_dws_branch 1\n-trapeze_dws_wst 4\n"};
    for (int k = 0; k < 3; k++) {
        char arg[32];
        snprintf(arg, sizeof arg, "%s", kern[k][1]);
        char *argv[] = {arg};
        sim_kernel_stats base, st;
        fixture_run_builtin(kern[k][0], 1, argv, "", &base);
        uint64_t splits_seen = 0;
        for (int i = 0; i < 5; i++) {
            fixture_run_builtin(kern[k][0], 1, argv, pol[i], &st);
            uint64_t splits = st.total.dws_branch_splits + st.total.dws_mem_splits;
            splits_seen += splits;
            CHECK(st.total.thread_insts == base.total.thread_insts);
            CHECK(splits == st.total.dws_merges);
            CHECK(st.total.dws_wst_peak <= (i == 4 ? 4u : 16u));
            CHECK(st.total.blocks == base.total.blocks);
            sim_kernel_stats_free(&st);
        }
        CHECK(splits_seen > 0);   /* the checks above saw splits */
        sim_kernel_stats_free(&base);
    }
}

/* Appends file `path` to buf[at..size); returns the new length. */
static size_t slurp(const char *path, char *buf, size_t at, size_t size)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    size_t n = f ? fread(buf + at, 1, size - 1 - at, f) : 0;
    if (f)
        fclose(f);
    buf[at + n] = 0;
    return at + n;
}

/* The seed's directions that Trapeze reproduces, on the smallest filter
 * that shows them (256 x 256; at 128 x 128 the splits cost more than they
 * hide) on the seed-like WPU: BranchOnly, ReviveSplit.MemOnly and the full
 * ReviveSplit are faster than the same WPU without subdivision (seed: 1.13,
 * 1.20, 1.71), and ReviveSplit lowers the memory-stall share (seed: 76% to
 * 36%) and the active lanes per instruction (seed: 14 to 4 of 16).
 * bench_dws prints the whole table. */
static void test_seed_directions(void)
{
    static const char *const pol[] = {"", "data/dws/branch-only.config",
                                      "data/dws/revive-memonly.config",
                                      "data/dws/revive.config"};
    char w[] = "w=256", h[] = "h=256";
    char *argv[] = {w, h};
    uint64_t cycles[4];
    double share[4], lanes[4];
    for (int i = 0; i < 4; i++) {
        char text[2048];   /* the seed-like WPU, then the policy */
        size_t n = slurp("data/dws/meng-wpu.config", text, 0, sizeof text);
        n = pol[i][0] ? slurp(pol[i], text, n, sizeof text) : n;
        sim_kernel_stats st;
        fixture_run_builtin("filter", 2, argv, text, &st);
        cycles[i] = st.cycles;
        uint64_t slots = st.total.issue_slots;
        for (int r = 0; r < SIM_STALL_COUNT; r++)
            slots += st.total.stall[r];
        share[i] = (double)st.total.stall[SIM_STALL_MEMORY] / (double)slots;
        lanes[i] = (double)st.total.thread_insts / (double)st.total.warp_insts;
        sim_kernel_stats_free(&st);
    }
    CHECK(cycles[1] < cycles[0] && cycles[2] < cycles[0] && cycles[3] < cycles[0]);
    CHECK(share[3] < share[0] && lanes[3] < lanes[0]);
}

/* A policy name the simulator does not have: one message naming the
 * config file, line and option; nothing runs. */
static void test_bad_options(void)
{
    static const char *const bad[][2] = {
        {"-trapeze_dws_mem sometimes\n", "test.config:21: option -trapeze_dws_mem: 'sometimes' is not a subdivision policy"},
        {"-trapeze_dws_reconv stack\n", "test.config:21: option -trapeze_dws_reconv: 'stack' is not a re-convergence policy"},
        {"-trapeze_dws_wst 1\n", "-trapeze_dws_wst"},
        /* checked with DWS off too */
        {"-trapeze_dws_hit_cycles 0\n", "-trapeze_dws_hit_cycles"}};
    for (int i = 0; i < 4; i++)
        fixture_expect_refused(make_cfg(bad[i][0]), bad[i][1]);
}

int main(void)
{
    test_hit_half_runs_ahead();
    test_branch_split();
    test_reconvergence_policy();
    test_split_policies();
    test_invariants();
    test_seed_directions();
    test_bad_options();
    return check_report("test_dws");
}
