/*
 * test_sim_core.c - the SM side of the simulator, with cycle counts worked
 * out by hand from the configs below (timing rules: sim/core/sm.c header).
 *
 * Most tests run one SM against the ideal memory port (every request
 * completes LAT cycles after it is accepted) so that counts are exact;
 * the end-to-end ones use the real memory system of sim/mem.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"
#include "sim_fixture.h"
#include "sim/sim.h"

#define LAT 100

/* One GTX 480 SM: 2 GTO schedulers, 2 SP units, FP MAD latency 5, FP ADD
 * latency 4, shared memory latency 26, 32 banks. */
static const char *const base_cfg =
    "-gpgpu_ptx_force_max_capability 20\n"
    "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_shmem_size 49152\n-gpgpu_shmem_num_banks 32\n-gpgpu_smem_latency 26\n"
    "-gpgpu_num_sp_units 2\n-gpgpu_num_sfu_units 1\n"
    "-ptx_opcode_latency_int 4,13,4,5,145\n-ptx_opcode_initiation_int 1,2,2,1,8\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n-ptx_opcode_initiation_fp 1,2,1,1,4\n"
    "-gpgpu_num_sched_per_core 2\n-gpgpu_scheduler gto\n"
    "-trapeze_kernel_launch_latency 1000\n";

static trapeze_config *make_cfg(int ctas, const char *extra)
{
    char text[4096];
    snprintf(text, sizeof text, "%s-gpgpu_shader_cta %d\n%s", base_cfg, ctas, extra ? extra : "");
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_parse(text, "test.config", &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return cfg;
}

/* A memory port that refuses the first `refuse` offers, then is ideal. */
typedef struct refusing {
    sim_mem_port inner;
    int refuse;
} refusing;

static sim_mem_outcome ref_access(void *m, const sim_mem_request *req, uint64_t c,
                                  sim_fail_cause *cause)
{
    refusing *r = m;
    if (r->refuse > 0) {
        r->refuse--;
        *cause = SIM_FAIL_MSHR_ENTRY;
        return SIM_MEM_RESERVATION_FAIL;
    }
    return r->inner.ops->access(r->inner.self, req, c, cause);
}
static int ref_pop_next(void *m, int from, uint64_t c, sim_mem_request *d)
{
    refusing *r = m;
    return r->inner.ops->pop_next(r->inner.self, from, c, d);
}
static void ref_cycle(void *m, uint64_t c) { (void)m; (void)c; }
static uint64_t ref_out(const void *m)
{
    const refusing *r = m;
    return r->inner.ops->outstanding(r->inner.self);
}
static uint64_t ref_next(const void *m, uint64_t c)
{
    const refusing *r = m;
    return r->inner.ops->next_event(r->inner.self, c);
}
static void ref_poke(void *m, uint64_t a, uint32_t v) { (void)m; (void)a; (void)v; }
static uint32_t ref_peek(const void *m, uint64_t a) { (void)m; (void)a; return 0; }
static void ref_nop(void *m) { (void)m; }
static void ref_destroy(void *m)
{
    refusing *r = m;
    r->inner.ops->destroy(r->inner.self);
    free(r);
}
static const sim_mem_port_ops refusing_ops = {ref_access, ref_pop_next, ref_cycle, ref_out, ref_next,
                                              ref_poke, ref_peek, ref_nop, ref_nop, NULL,
                                              ref_destroy, NULL, NULL, NULL};

/* Runs k alone on a fresh GPU; returns its cycles and fills st. refuse < 0: real memory. */
static uint64_t run_on(trapeze_config *cfg, sim_kernel *k, int refuse, sim_kernel_stats *st)
{
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    trapeze_error err;
    if (refuse >= 0) {
        refusing *r = calloc(1, sizeof *r);
        CHECK_OK(sim_mem_port_ideal(1, LAT, &r->inner, &err));
        r->refuse = refuse;
        opt.mem.ops = &refusing_ops;
        opt.mem.self = r;
    }
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    if (!g)
        return 0;
    trapeze_status s = sim_gpu_run(g, k, st, &err);
    CHECK(s == TRAPEZE_OK);
    if (s)
        fprintf(stderr, "%s\n", err.message);
    sim_gpu_destroy(g);
    return s ? 0 : st->cycles;
}

static uint64_t run1(trapeze_config *cfg, sim_kernel *k, int refuse)
{
    sim_kernel_stats st;
    uint64_t c = run_on(cfg, k, refuse, &st);
    sim_kernel_stats_free(&st);
    return c;
}

/* Cycles of k alone on one SM of base_cfg (8 blocks) plus `extra`. */
static uint64_t cycles_with(sim_kernel *k, const char *extra)
{
    trapeze_config *cfg = make_cfg(8, extra);
    uint64_t c = run1(cfg, k, 0);
    trapeze_config_destroy(cfg);
    return c;
}

/* Dual issue (-gpgpu_max_insn_issue_per_warp 2), one warp on base_cfg's
 * two SP units (FP MAD latency 5, initiation 1; INT ADD latency 4):
 *  - 10 independent FMAs, units may repeat (diff_exec_units 0): two issue
 *    each cycle, at 1,1,2,2,..,5,5 (both SP units taken, free again at the
 *    next cycle); EXIT alone at 6; the last result at 5 + 5 = 10, end 11
 *    (16 issuing one a cycle, test_fu_latency);
 *  - the same with diff_exec_units 1: both on SP, never paired: 16;
 *  - FMA, IADD alternating (5 each, independent) with two INT units and
 *    diff_exec_units 1: an FMA and an IADD each cycle 1..5, EXIT at 6, the
 *    last FMA's result at 10: end 11;
 *  - 10 dependent FMAs: the second of a pair waits for the first: 52 as
 *    with single issue. */
static void test_dual_issue(void)
{
    sim_kb *kb = sim_kb_begin("indep", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1 + i, 20, 21, 22);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(cycles_with(k, "-gpgpu_max_insn_issue_per_warp 2\n"
                         "-gpgpu_dual_issue_diff_exec_units 0\n") == 11);
    CHECK(cycles_with(k, "-gpgpu_max_insn_issue_per_warp 2\n") == 16);
    CHECK(cycles_with(k, "-gpgpu_max_insn_issue_per_warp 1\n"
                         "-gpgpu_dual_issue_diff_exec_units 0\n") == 16);
    sim_kernel_destroy(k);
    kb = sim_kb_begin("mixed", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, i % 2 ? SIM_OP_INT : SIM_OP_FP, i % 2 ? SIM_ALU_ADD : SIM_ALU_MAD, 1 + i,
                   20, 21, 22);
    k = fixture_kb_end(kb);
    CHECK(cycles_with(k, "-gpgpu_max_insn_issue_per_warp 2\n-gpgpu_num_int_units 2\n") == 11);
    sim_kernel_destroy(k);
    kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
    k = fixture_kb_end(kb);
    CHECK(cycles_with(k, "-gpgpu_max_insn_issue_per_warp 2\n"
                         "-gpgpu_dual_issue_diff_exec_units 0\n") == 52);
    sim_kernel_destroy(k);
}

static void test_fu_latency(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    /* 10 dependent FMAs (MAD latency 5): the block is placed at 0, FMA i
     * issues at 1 + 5(i-1), the 10th at 46 with its result at 51; EXIT
     * issues at 47; the warp finishes at 51; the kernel ends at 52. */
    sim_kb *kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == 52);
    sim_kernel_destroy(k);
    /* 10 independent FMAs: issue at 1..10 (initiation 1, two SP units),
     * EXIT at 11, the last result at 10 + 5 = 15, end 16. */
    kb = sim_kb_begin("indep", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1 + i, 20, 21, 22);
    k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == 16);
    sim_kernel_destroy(k);
    /* 4 dependent integer DIVs (latency 145): 1 + 3*145 = 436 issues the
     * last, result 581, end 582. */
    kb = sim_kb_begin("div", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 4; i++)
        sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_DIV, 1, 1, SIM_NO_REG, SIM_NO_REG);
    k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == 582);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

/* -trapeze_window_warp_insts N stops a launch at the end of the cycle in
 * which its N-th warp instruction issued, with the window's counters. The
 * chain of test_fu_latency issues FMA i at 1 + 5(i-1): N = 4 stops at the
 * end of cycle 16 (17 cycles), N = 10 at the end of 46 (47, the whole run
 * being 52); the EXIT (47) is the 11th instruction, so N = 11 stops at 48,
 * and N = 12 is never reached: the whole run, not marked windowed. A
 * windowed launch leaves warps in flight: the GPU runs nothing after it. */
static void test_window(void)
{
    sim_kb *kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
    sim_kernel *k = fixture_kb_end(kb);
    const long n[] = {4, 10, 11, 12};
    const uint64_t cycles[] = {17, 47, 48, 52}, insts[] = {4, 10, 11, 11};
    for (int i = 0; i < 4; i++) {
        char extra[64];
        snprintf(extra, sizeof extra, "-trapeze_window_warp_insts %ld\n", n[i]);
        trapeze_config *cfg = make_cfg(8, extra);
        sim_kernel_stats st;
        CHECK(run_on(cfg, k, 0, &st) == cycles[i]);
        CHECK(st.total.warp_insts == insts[i]);
        CHECK(st.windowed == (i < 3));
        sim_kernel_stats_free(&st);
        trapeze_config_destroy(cfg);
    }
    /* a second launch after a window is refused, after a whole run it runs */
    trapeze_config *cfg = make_cfg(8, "-trapeze_window_warp_insts 4\n");
    sim_gpu *g = NULL;
    trapeze_error err;
    sim_kernel_stats st;
    CHECK_OK(sim_gpu_create(cfg, NULL, &g, &err));
    CHECK_OK(sim_gpu_run(g, k, &st, &err));
    sim_kernel_stats_free(&st);
    CHECK(sim_gpu_run(g, k, &st, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "window") != NULL);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    sim_kernel_destroy(k);
}

/* The operand collector (sim/core/opndcoll.c), SM2_GTX480's options: 6 SP
 * collector units, 2 in and 2 out ports, 16 banks, pipeline widths 1. A
 * dependent FMA (MAD latency 5) issued at t is in a collector unit at t+1,
 * reads r1 (bank 1) at t+2, is dispatched at t+3, taken by an SP unit at
 * t+4, written back at t+4+5+2 = t+11, when the next issues: the 10th
 * issues at 1 + 9*11 = 100, its result at 111, the kernel ends at 112 (52
 * without the collector). */
static const char *const oc_gtx480 =
    "-gpgpu_operand_collector_num_units_sp 6\n-gpgpu_operand_collector_num_in_ports_sp 2\n"
    "-gpgpu_operand_collector_num_out_ports_sp 2\n-gpgpu_num_reg_banks 16\n";

static uint64_t one_inst(trapeze_config *cfg, sim_op op, sim_alu alu, int dst, int a, int b,
                         int c)
{
    sim_kb *kb = sim_kb_begin("one", SIM_DIM(1), SIM_DIM(32));
    sim_kb_alu(kb, op, alu, dst, a, b, c);
    sim_kernel *k = fixture_kb_end(kb);
    uint64_t cyc = run1(cfg, k, 0);
    sim_kernel_destroy(k);
    return cyc;
}

static void test_operand_collector(void)
{
    trapeze_config *cfg = make_cfg(8, oc_gtx480);
    sim_kb *kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == 112);
    sim_kernel_destroy(k);
    /* bank conflict: r2 and r18 share bank 2 (warp 0), read at steps 3 and
     * 4, r3 (bank 3) at 3; dispatched at 5, unit at 6, result at 6+5+2 =
     * 13, end 14. r2, r20, r3 (banks 2, 4, 3) are all read at 3: end 13. */
    CHECK(one_inst(cfg, SIM_OP_FP, SIM_ALU_MAD, 1, 2, 18, 3) == 14);
    CHECK(one_inst(cfg, SIM_OP_FP, SIM_ALU_MAD, 1, 2, 20, 3) == 13);
    /* a register read twice is read once (GPGPU-Sim drops duplicates) */
    CHECK(one_inst(cfg, SIM_OP_FP, SIM_ALU_MAD, 1, 2, 2, 2) == 13);
    trapeze_config_destroy(cfg);
    /* without the options the timing is the old one: one FMA issued at 1,
     * result at 6, end 7 */
    cfg = make_cfg(8, NULL);
    CHECK(one_inst(cfg, SIM_OP_FP, SIM_ALU_MAD, 1, 2, 18, 3) == 7);
    trapeze_config_destroy(cfg);
    /* sub-cores: two independent FP DIVs (latency 39, initiation 4) of warp
     * 0. Shared units: DIV1 issues at 1, unit 0 at 5, result 5+39+2 = 46;
     * DIV2 issues at 2 (ID_OC freed at 2), its unit (1) at 6, result 47,
     * end 48. Sub-core 0 owns one of the 2 SP units: DIV2 waits for it
     * until 5+4 = 9, result 50, end 51. */
    static const char *const two_divs =
        "-gpgpu_operand_collector_num_units_sp 6\n-gpgpu_operand_collector_num_in_ports_sp 2\n"
        "-gpgpu_operand_collector_num_out_ports_sp 2\n-gpgpu_num_reg_banks 16\n"
        "-gpgpu_operand_collector_num_units_sfu 8\n-gpgpu_operand_collector_num_units_mem 2\n"
        "-gpgpu_pipeline_widths 2,0,0,2,2,2,0,0,2,2,2\n-gpgpu_num_sfu_units 2\n";
    for (int sub = 0; sub < 2; sub++) {
        char extra[1024];
        snprintf(extra, sizeof extra, "%s-gpgpu_sub_core_model %d\n", two_divs, sub);
        cfg = make_cfg(8, extra);
        kb = sim_kb_begin("divs", SIM_DIM(1), SIM_DIM(32));
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_DIV, 1, 20, SIM_NO_REG, SIM_NO_REG);
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_DIV, 2, 21, SIM_NO_REG, SIM_NO_REG);
        k = fixture_kb_end(kb);
        CHECK(run1(cfg, k, 0) == (sub ? 51u : 48u));
        sim_kernel_destroy(k);
        trapeze_config_destroy(cfg);
    }
    /* refused: units that do not divide among the schedulers */
    trapeze_error err;
    sim_core_config c;
    cfg = make_cfg(8, "-gpgpu_sub_core_model 1\n-gpgpu_operand_collector_num_units_sp 5\n"
                      "-gpgpu_pipeline_widths 2,0,0,2,2,2,0,0,2,2,2\n");
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "gpgpu_sub_core_model") != NULL);
    trapeze_config_destroy(cfg);
}

/* Instruction fetch (sim/core/fetch.c), SM2_GTX480's I-cache: one warp, 4
 * independent FMAs and EXIT (PCs 0..64, one 128-byte line). Cycle 1: the
 * fetch misses, the fill leaves and completes at 1 + LAT (after the SM's
 * stages of that cycle), enters the fetch buffer at 102, is decoded at
 * 103; the first two issue at 104 and 105; the ibuffer is empty
 * after 105's issue, the fetch (a hit) then makes the next two issuable at
 * 107 (107, 108), and EXIT at 110. The 4th FMA's result is at 108 + 5 =
 * 113, the kernel ends at 114 (10 without a fetch model).
 * Two warps (one fetch a cycle, round robin): warp 0 misses at 1, warp 1
 * merges at 2 and fetches again at 102 (a hit); both issue at 104, 105;
 * warp 0 fetches at 105, warp 1 at 106: issuable at 107 and 108; warp 1's
 * third and fourth at 108, 109, its last result at 114, end 115. */
static void test_instruction_fetch(void)
{
    trapeze_config *cfg = make_cfg(8, "-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4\n");
    sim_kb *kb = sim_kb_begin("four", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 4; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1 + i, 20, 21, 22);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == LAT + 14);
    trapeze_config *off = make_cfg(8, NULL);
    CHECK(run1(off, k, 0) == 10);
    trapeze_config_destroy(off);
    /* SM7_QV100's perfect I-cache: every fetch hits. Fetch at 1, issue at
     * 3 and 4, fetch at 4, issue at 6 and 7, fetch at 7, EXIT at 9; the
     * last result at 7 + 5 = 12, end 13 */
    off = make_cfg(8, "-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4\n"
                      "-gpgpu_perfect_inst_const_cache 1\n");
    CHECK(run1(off, k, 0) == 13);
    trapeze_config_destroy(off);
    sim_kernel_destroy(k);
    kb = sim_kb_begin("four2", SIM_DIM(1), SIM_DIM(64));
    for (int i = 0; i < 4; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1 + i, 20, 21, 22);
    k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == LAT + 15);
    sim_kernel_destroy(k);
    /* nine instructions (8 FMAs, EXIT): PCs 0..128, two lines; the second
     * misses when the warp reaches the 9th (EXIT): FMAs 1-8 issue at 104,
     * 105, 107, 108, 110, 111, 113, 114; the fetch at 114 misses line 1
     * (PC 128), its fill completes at 114 + LAT, EXIT at 114 + LAT + 3 = 217;
     * the 8th result (114 + 5) is long written: the kernel ends at 218. */
    kb = sim_kb_begin("nine", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 8; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1 + i, 20, 21, 22);
    k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == 2 * LAT + 18);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
    trapeze_error err;
    sim_core_config c;
    cfg = make_cfg(8, "-gpgpu_cache:il1 N:4:100:4,L:R:f:N:L,S:2:32,4\n");
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "gpgpu_cache:il1") != NULL);
    trapeze_config_destroy(cfg);
}

/* The branch unit (-specialized_unit_1, SM7_QV100's trace.config runs
 * branches there): a loop of 4 FMAs, each followed by its loop branch.
 * On the SP units (INT ADD latency 4): FMA at 1, branch 2, ..., branch 8,
 * EXIT 9, the last results at 12, end 13. One branch unit, latency 4,
 * initiation 4: branches at 2, 6 (waits 2 cycles), 10, 14, FMAs at 1, 3, 7,
 * 11, EXIT 15, the last branch done at 18, end 19. */
static void test_branch_unit(void)
{
    sim_kb *kb = sim_kb_begin("loop", SIM_DIM(1), SIM_DIM(32));
    sim_kb_loop(kb, SIM_AFF(.c = 4));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, SIM_NO_REG, 20, 21, 22);   /* no WAW wait */
    sim_kb_endloop(kb);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(cycles_with(k, NULL) == 13);
    CHECK(cycles_with(k, "-specialized_unit_1 1,1,4,1,1,BRA\n"
                         "-trace_opcode_latency_initiation_spec_op_1 4,4\n") == 19);
    sim_kernel_destroy(k);
    trapeze_error err;
    sim_core_config c;
    trapeze_config *cfg = make_cfg(8, "-specialized_unit_1 1,4,4,4,BRA\n");
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "specialized_unit_1") != NULL);
    trapeze_config_destroy(cfg);
}

/* Specialized units 2 and 3 (SM7_QV100's trace.config: TEX and TENSOR;
 * Accel-Sim's maps send TEX, TLD, ... and HMMA, IMMA, ... there). TEX, TEX,
 * HMMA (independent). Off: the TEXs on the SFU (latency 20, initiation 4)
 * at 1 and 5, HMMA an FP MAD on SP at 6, EXIT 7; the last result 5 + 20 =
 * 25, end 26. Unit 2 (one unit, 30,2) and unit 3 (one, 8,4): TEX at 1 and
 * 3, HMMA at 4, EXIT 5; results 33 and 12, end 34. */
static void test_spec_units(void)
{
    sim_kb *kb = sim_kb_begin("tex", SIM_DIM(1), SIM_DIM(32));
    sim_kb_alu(kb, SIM_OP_SFU, SIM_ALU_ADD, 1, 20, SIM_NO_REG, SIM_NO_REG);
    sim_kb_unit(kb, 2);
    sim_kb_alu(kb, SIM_OP_SFU, SIM_ALU_ADD, 2, 21, SIM_NO_REG, SIM_NO_REG);
    sim_kb_unit(kb, 2);
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 3, 22, 23, 24);
    sim_kb_unit(kb, 3);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(cycles_with(k, NULL) == 26);
    CHECK(cycles_with(k, "-specialized_unit_2 1,1,200,1,1,TEX\n"
                         "-trace_opcode_latency_initiation_spec_op_2 30,2\n"
                         "-specialized_unit_3 1,1,8,1,1,TENSOR\n"
                         "-trace_opcode_latency_initiation_spec_op_3 8,4\n") == 34);
    /* a disabled unit (enabled 0) leaves its instructions where they were */
    CHECK(cycles_with(k, "-specialized_unit_2 0,1,200,1,1,TEX\n"
                         "-trace_opcode_latency_initiation_spec_op_2 30,2\n") == 26);
    sim_kernel_destroy(k);
    trapeze_error err;
    sim_core_config c;
    trapeze_config *cfg = make_cfg(8, "-trace_opcode_latency_initiation_spec_op_3 8\n");
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "spec_op_3") != NULL);
    trapeze_config_destroy(cfg);
    cfg = make_cfg(8, "-specialized_unit_8 1,4,TEX\n");
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "specialized_unit_8") != NULL);
    trapeze_config_destroy(cfg);
}

/* INT and DP units (-gpgpu_num_int_units, -gpgpu_num_dp_units: SM7_QV100
 * has four of each): independent INT MUL, FP MUL, INT MUL, FP MUL on one SP
 * unit (MUL latency 4; initiation INT 2, FP 1): issue at 1, 3 (the unit
 * busy to 3), 4, 6, EXIT 7, the last result 6 + 4 = 10, end 11. With one INT
 * unit beside it: 1 (INT), 2 (SP), 3 (INT, free at 3), 4 (SP), EXIT 5, the
 * last result 4 + 4 = 8, end 9. The same with DP MULs (latency 4,
 * initiation 2 here) and one DP unit. */
static void test_int_dp_units(void)
{
    static const int ops[2] = {SIM_OP_INT, SIM_OP_DP};
    static const char *const units[2] = {"-gpgpu_num_int_units 1\n",
                                         "-gpgpu_num_dp_units 1\n"};
    for (int i = 0; i < 2; i++) {
        sim_kb *kb = sim_kb_begin("intfp", SIM_DIM(1), SIM_DIM(32));
        for (int j = 0; j < 4; j++)
            sim_kb_alu(kb, j % 2 ? SIM_OP_FP : ops[i], SIM_ALU_MUL, 1 + j, 20, 21, 22);
        sim_kernel *k = fixture_kb_end(kb);
        char extra[256];
        const char *one_sp = "-gpgpu_num_sp_units 1\n-ptx_opcode_latency_dp 4,13,4,5,39\n"
                             "-ptx_opcode_initiation_dp 1,2,2,1,8\n";
        trapeze_config *cfg = make_cfg(8, one_sp);
        CHECK(run1(cfg, k, 0) == 11);
        trapeze_config_destroy(cfg);
        snprintf(extra, sizeof extra, "%s%s", one_sp, units[i]);
        cfg = make_cfg(8, extra);
        CHECK(run1(cfg, k, 0) == 9);
        trapeze_config_destroy(cfg);
        sim_kernel_destroy(k);
    }
    /* -gpgpu_num_dp_units 0 set (SM2_GTX480): DP on the SFU, as GPGPU-Sim's
     * Fermi (one SFU unit; DP MUL latency 4, initiation 2): DP at 1 (SFU), FP
     * 2 (SP), DP 3 (the SFU free at 3), FP 4, EXIT 5, the last result 8, end 9;
     * unset it stays on the SP unit, 11 as above */
    {
        sim_kb *kb = sim_kb_begin("dpsfu", SIM_DIM(1), SIM_DIM(32));
        for (int j = 0; j < 4; j++)
            sim_kb_alu(kb, j % 2 ? SIM_OP_FP : SIM_OP_DP, SIM_ALU_MUL, 1 + j, 20, 21, 22);
        sim_kernel *k = fixture_kb_end(kb);
        const char *one_sp = "-gpgpu_num_sp_units 1\n-ptx_opcode_latency_dp 4,13,4,5,39\n"
                             "-ptx_opcode_initiation_dp 1,2,2,1,8\n";
        char extra[256];
        snprintf(extra, sizeof extra, "%s-gpgpu_num_dp_units 0\n", one_sp);
        CHECK(cycles_with(k, extra) == 9);
        CHECK(cycles_with(k, one_sp) == 11);
        sim_kernel_destroy(k);
    }
    /* with sub-cores, the units divide among the schedulers */
    trapeze_error err;
    sim_core_config c;
    trapeze_config *cfg = make_cfg(8, "-gpgpu_sub_core_model 1\n-gpgpu_num_reg_banks 16\n"
                                      "-gpgpu_operand_collector_num_units_gen 8\n"
                                      "-gpgpu_operand_collector_num_in_ports_gen 8\n"
                                      "-gpgpu_operand_collector_num_out_ports_gen 8\n"
                                      "-gpgpu_pipeline_widths 2,2,2,2,2,2,2,2,2,2,2\n"
                                      "-gpgpu_num_sfu_units 2\n-gpgpu_num_int_units 3\n");
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "gpgpu_num_int_units") != NULL);
    trapeze_config_destroy(cfg);
}

/* Accel-Sim's config lines (copied from SM7_QV100's gpgpusim.config and
 * trace.config): the six-value _int lists (the sixth is SHFL), GPGPU-Sim's
 * launch latency option, and trace mode's per-class latency,initiation
 * pairs replacing the PTX lists. With sp 2,2 ten dependent FMAs issue at
 * 1, 3, ..., 19, the last result is at 21, the kernel ends at 22 (52 with
 * the PTX MAD latency 5). The six-value line was refused before. */
/* base_cfg without its int lists and launch latency (so that the lines
 * under test are the only ones), then `extra`. */
static trapeze_config *accelsim_cfg(const char *extra, trapeze_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s", base_cfg);
    const char *drop[] = {"-ptx_opcode_latency_int", "-ptx_opcode_initiation_int",
                          "-trapeze_kernel_launch_latency"};
    for (int i = 0; i < 3; i++) {
        char *at = strstr(text, drop[i]), *nl = at ? strchr(at, '\n') : NULL;
        if (at && nl)
            memmove(at, nl + 1, strlen(nl + 1) + 1);
    }
    strcat(text, "-gpgpu_shader_cta 8\n");
    strcat(text, extra);
    trapeze_config *cfg = NULL;
    return trapeze_config_parse(text, "qv100.config", &cfg, err) ? NULL : cfg;
}

static void test_accelsim_option_lines(void)
{
    trapeze_error err;
    sim_core_config c;
    trapeze_config *cfg = accelsim_cfg("-ptx_opcode_latency_int 4,13,4,5,145,21\n"
                                       "-ptx_opcode_initiation_int 2,2,2,2,8,4\n"
                                       "-gpgpu_kernel_launch_latency 5000\n"
                                       "-trace_opcode_latency_initiation_int 2,2\n"
                                       "-trace_opcode_latency_initiation_sp 2,2\n"
                                       "-trace_opcode_latency_initiation_dp 8,4\n"
                                       "-trace_opcode_latency_initiation_sfu 20,8\n", &err);
    CHECK(cfg != NULL);
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.shfl_lat == 21 && c.shfl_init == 4);
    CHECK(c.launch_latency == 5000);
    CHECK(c.lat[0][SIM_ALU_DIV] == 2 && c.init[0][SIM_ALU_DIV] == 2);
    CHECK(c.lat[1][SIM_ALU_MAD] == 2 && c.init[1][SIM_ALU_MAD] == 2);
    CHECK(c.lat[2][SIM_ALU_ADD] == 8 && c.init[2][SIM_ALU_ADD] == 4);
    CHECK(c.lat[3][0] == 20 && c.init[3][0] == 8);
    sim_kb *kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(run1(cfg, k, 0) == 22);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
    /* the old name is an alias, GPGPU-Sim's name its default */
    cfg = accelsim_cfg("-gpgpu_kernel_launch_latency 7\n-trapeze_kernel_launch_latency 9\n",
                       &err);
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.launch_latency == 9);
    trapeze_config_destroy(cfg);
    cfg = accelsim_cfg("-trace_opcode_latency_initiation_sp 2\n", &err);
    CHECK(sim_core_config_read(cfg, &c, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "qv100.config:") && strstr(err.message, "latency,initiation"));
    trapeze_config_destroy(cfg);
}

/* LD.shared r1 with word stride s, FADD r2 = r1, EXIT. Degree d: LD at 1,
 * r1 ready at 1 + 26 + d - 1 = 26 + d, FADD then, result at 30 + d, end 31 + d.
 * `twice`: a second, independent LD (into r3) waits d cycles for the LDST
 * unit, issues at 1 + d, r3 ready at 26 + 2d; the FADD reads r3: 31 + 2d. */
static uint64_t shmem_cycles(trapeze_config *cfg, int stride, int twice, sim_kernel_stats *st)
{
    sim_kb *kb = sim_kb_begin("shmem", SIM_DIM(1), SIM_DIM(32));
    int sh = sim_kb_shared(kb, "s", 4 * 32 * 32);
    sim_kb_ld(kb, 1, sim_at1(sh, 4, sim_ix(SIM_AFF(.k[SIM_TX] = stride))));
    if (twice)
        sim_kb_ld(kb, 3, sim_at1(sh, 4, sim_ix(SIM_AFF(.c = 1, .k[SIM_TX] = stride))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, twice ? 3 : 1, SIM_NO_REG, SIM_NO_REG);
    sim_kernel *k = fixture_kb_end(kb);
    uint64_t c = run_on(cfg, k, 0, st);
    sim_kernel_destroy(k);
    return c;
}

static void test_bank_conflicts(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    sim_kernel_stats st;
    static const int stride[] = {1, 2, 4, 32}, degree[] = {1, 2, 4, 32};
    for (int i = 0; i < 4; i++) {
        uint64_t d = (uint64_t)degree[i];
        CHECK(shmem_cycles(cfg, stride[i], 0, &st) == 31 + d);
        CHECK(st.total.shmem_passes == d);
        sim_kernel_stats_free(&st);
        CHECK(shmem_cycles(cfg, stride[i], 1, &st) == 31 + 2 * d);
        CHECK(st.total.shmem_passes == 2 * d);
        sim_kernel_stats_free(&st);
    }
    trapeze_config_destroy(cfg);
}

/* LD.global r1, FADD r2 = r1, EXIT: LD issues at 1, its request is offered
 * at 2 and (after `refuse` refusals) accepted at 2 + refuse; it completes
 * LAT later, the FADD issues the cycle after, +4, end +1:
 * cycles = 2 + refuse + LAT + 1 + 4 + 1 = LAT + 8 + refuse. */
static sim_kernel *one_load(void)
{
    sim_kb *kb = sim_kb_begin("load", SIM_DIM(1), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4096);
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, SIM_NO_REG, SIM_NO_REG);
    return fixture_kb_end(kb);
}

/* -gpgpu_coalesce_arch 70 (GPGPU-Sim from arch 40 on): a warp's load of 32
 * consecutive floats is four 32-byte requests, not one line. On the ideal
 * port (one request a cycle) they are offered at 2..5 and the last completes
 * at 5 + LAT: the kernel is 3 cycles longer than with one request. Lanes
 * reading floats 64 bytes apart touch sectors 0 and 2 of 16 lines: 32
 * requests, where Fermi's rules (arch 20) make 16 lines; with no dependent
 * instruction the kernel ends a cycle after its last request completes:
 * 2 + (n - 1) + LAT + 1, i.e. LAT + 3 + n - 1. */
static void test_sector_accesses(void)
{
    trapeze_config *cfg = make_cfg(8, "-gpgpu_coalesce_arch 70\n");
    sim_kernel *k = one_load();
    sim_kernel_stats st;
    CHECK(run_on(cfg, k, 0, &st) == LAT + 8 + 3);
    CHECK(st.total.mem_requests == 4);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    sim_kb *kb = sim_kb_begin("spread", SIM_DIM(1), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4096);
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 16))));
    k = fixture_kb_end(kb);
    CHECK(run_on(cfg, k, 0, &st) == LAT + 3 + 31);
    CHECK(st.total.mem_requests == 32);
    sim_kernel_stats_free(&st);
    trapeze_config_destroy(cfg);
    cfg = make_cfg(8, "-gpgpu_coalesce_arch 20\n");   /* Fermi: lines */
    CHECK(run_on(cfg, k, 0, &st) == LAT + 3 + 15);
    CHECK(st.total.mem_requests == 16);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

static void test_load_latency(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    sim_kernel *k = one_load();
    sim_kernel_stats st;
    CHECK(run_on(cfg, k, 0, &st) == LAT + 8);
    CHECK(st.total.mem_requests == 1);   /* 32 floats = one 128-byte line */
    sim_kernel_stats_free(&st);
    CHECK(run_on(cfg, k, 7, &st) == LAT + 8 + 7);
    CHECK(st.total.ldst_refused == 7);
    CHECK(st.total.refused[SIM_FAIL_MSHR_ENTRY] == 7);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);

    /* End to end on the GTX 480's memory system (one SM): the load misses
     * L1 and L2 and opens a closed row; sim/mem's probe measures that
     * latency P alone, offered at cycle 0, so the kernel, whose load is
     * offered at 2, takes P + 8 cycles, plus one of DRAM clock phase: its
     * sectors reach the controller at core 266..269, DRAM ticks 352, 353,
     * 354, 356 (ceil(c*33/25)), where the probe's at 264..267 meet ticks
     * 349, 350, 352, 353; the last READ issues at 373 instead of 370 and its
     * data end (CL 12 + 2) in core 293 instead of 290 (test_sim_mem's
     * test_l1_latency_queue derives P = 301). */
    cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    if (!cfg)
        return;
    char text[8192];
    snprintf(text, sizeof text, "-gpgpu_n_clusters 1\n");
    trapeze_config *one = NULL;
    /* the shipped file with 1 SM: parse it again with the cluster count replaced */
    char *file = NULL;
    FILE *f = fopen("data/gpus/gtx480.config", "r");
    if (f) {
        file = calloc(1, 65536);
        size_t n = fread(file, 1, 65535, f);
        file[n] = 0;
        fclose(f);
        char *p = strstr(file, "-gpgpu_n_clusters 15");
        if (p)
            memcpy(p, "-gpgpu_n_clusters  1", 20);
        CHECK_OK(trapeze_config_parse(file, "gtx480-1sm.config", &one, &err));
    }
    free(file);
    (void)text;
    if (one) {
        uint64_t probe = 0;
        CHECK_OK(sim_memsys_probe_latency(one, 1, &probe, &err));
        k = one_load();
        uint64_t c = run1(one, k, -1);
        printf("one load miss on gtx480: %llu cycles, probe %llu\n", (unsigned long long)c,
               (unsigned long long)probe);
        CHECK(probe == 301 && c == probe + 9);
        sim_kernel_destroy(k);
        trapeze_config_destroy(one);
    }
    trapeze_config_destroy(cfg);
}

/* ST then FENCE then FADD: ST at 1, offered at 2, acknowledged at 102; the
 * fence holds the warp until then; FADD at 103, result 107; end 108.
 * Without the fence: FADD at 2, EXIT at 3, the warp finishes when the
 * store is acknowledged at 102; end 103. */
static void test_fence(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    for (int fence = 0; fence < 2; fence++) {
        sim_kb *kb = sim_kb_begin("fence", SIM_DIM(1), SIM_DIM(32));
        int a = sim_kb_global(kb, "a", 4096);
        sim_kb_st(kb, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))), 1);
        if (fence)
            sim_kb_fence(kb);
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
        sim_kernel *k = fixture_kb_end(kb);
        sim_kernel_stats st;
        uint64_t c = run_on(cfg, k, 0, &st);
        CHECK(c == (fence ? LAT + 8u : LAT + 3u));
        if (fence)
            CHECK(st.total.stall[SIM_STALL_FENCE] >= LAT - 2);
        sim_kernel_stats_free(&st);
        sim_kernel_destroy(k);
    }
    trapeze_config_destroy(cfg);
}

/* Two warps (slots 0 and 1, one per scheduler). Warp 0 runs 20 dependent
 * FMAs, then both meet at a barrier, then warp 1 runs 10 dependent FMAs.
 * Warp 0: IF branch at 1, FMA i at 2 + 5(i-1) (the 20th at 97), BAR at 98.
 * Warp 1: branch at 1, BAR at 2, held until warp 0 arrives at 98; branch
 * at 99, FMA i at 100 + 5(i-1), the 10th at 145, result 150; end 151.
 * Without the barrier warp 1 is done by 53 and warp 0's chain ends the
 * kernel: its 20th FMA result at 102, end 103. */
static void test_barrier(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    for (int bar = 0; bar < 2; bar++) {
        sim_kb *kb = sim_kb_begin("barrier", SIM_DIM(1), SIM_DIM(64));
        sim_kb_if(kb, sim_pred1(SIM_AFF(.c = -32, .k[SIM_TX] = 1), SIM_LT));
        for (int i = 0; i < 20; i++)
            sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
        sim_kb_endif(kb);
        if (bar)
            sim_kb_bar(kb);
        sim_kb_if(kb, sim_pred1(SIM_AFF(.c = -32, .k[SIM_TX] = 1), SIM_GE));
        for (int i = 0; i < 10; i++)
            sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 2, 2, 2, 2);
        sim_kb_endif(kb);
        sim_kernel *k = fixture_kb_end(kb);
        sim_kernel_stats st;
        uint64_t c = run_on(cfg, k, 0, &st);
        CHECK(c == (bar ? 151u : 103u));
        if (bar)
            CHECK(st.total.stall[SIM_STALL_BARRIER] >= 90);
        else
            CHECK(st.total.stall[SIM_STALL_BARRIER] == 0);
        /* every scheduler cycle is an issue or one stall reason */
        uint64_t slots = st.total.issue_slots;
        for (int r = 0; r < SIM_STALL_COUNT; r++)
            slots += st.total.stall[r];
        CHECK(slots == 2 * c);
        sim_kernel_stats_free(&st);
        sim_kernel_destroy(k);
    }
    trapeze_config_destroy(cfg);
}

/* Runs k on the ideal memory; checks its cycles and total issue slots and
 * stall cycles by reason (memory, compute, fence, barrier, idle), summed
 * over the SM's two schedulers. */
static void check_stalls(trapeze_config *cfg, sim_kernel *k, uint64_t cycles, uint64_t issue,
                         const uint64_t stall[SIM_STALL_COUNT])
{
    sim_kernel_stats st;
    CHECK(run_on(cfg, k, 0, &st) == cycles);
    CHECK(st.total.issue_slots == issue);
    for (int r = 0; r < SIM_STALL_COUNT; r++)
        CHECK(st.total.stall[r] == stall[r]);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
}

/* Stall attribution: a scheduler cycle without issue is charged to the
 * reason that holds in that cycle, never to a reason left over from a
 * warp's earlier wait. Two warps: w0 on scheduler 0, w1 on scheduler 1.
 *
 * A, barrier after a load: both warps LD r1, FADD r2 = r1; w0 then runs 20
 * dependent FMAs; both meet at a barrier; EXIT.
 *  w0: LD at 1 (offered 2, done 102), FADD 103, IF 104, FMA i at
 *      105 + 5(i-1) (the 20th at 200, result 205), BAR 201 (releases w1),
 *      EXIT 202, done at 205; end 206.
 *      s0: issue 25, memory 2..102 = 101, compute 19x4 + 203..204 = 78,
 *      idle 0 and 205 = 2.
 *  w1: LD at 1 is parked on the LDST queue, LD at 2 (offered 3, done 103),
 *      FADD 104, IF 105, BAR 106, held until w0's BAR at 201, EXIT 202.
 *      s1: issue 5, memory 1 + 3..103 = 102, barrier 107..201 = 95,
 *      idle 0 and 203..205 = 4.
 *  Cycle 201 is w1's last at the barrier: w0 (scheduler 0, looked at first)
 *  releases it then, and scheduler 1 must still charge that cycle to the
 *  barrier, not to the load w1 waited for before it (memory 204, barrier 94
 *  before the fix).
 *
 * B, a warp finishes while the other waits for a load: w0 stores, exits and
 * waits for the acknowledgement; w1 runs 10 dependent FMAs, then LD r3 and
 * FADD r4 = r3.
 *  w0: IF 1, ST 2 (offered 3, acknowledged 103), IF 3, EXIT 4; done at 103.
 *      s0: issue 4, memory 5..103 = 99, idle 0 and 104..155 = 53.
 *  w1: IF 1, IF 2, FMA i at 3 + 5(i-1) (the 10th at 48), LD 49 (offered 50,
 *      done 150), FADD 151 (result 155), EXIT 152, done at 155; end 156.
 *      s1: issue 15, compute 9x4 + 153..154 = 38, memory 50..150 = 101,
 *      idle 0 and 155 = 2.
 *  Once w0 is done scheduler 0 has nothing to run: idle, not the memory
 *  wait w0 had (memory 247, idle 8 before the fix). */
static void test_stall_attribution(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    sim_affine lo = SIM_AFF(.c = -32, .k[SIM_TX] = 1);
    sim_kb *kb = sim_kb_begin("bar_after_load", SIM_DIM(1), SIM_DIM(64));
    int a = sim_kb_global(kb, "a", 4096);
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, SIM_NO_REG, SIM_NO_REG);
    sim_kb_if(kb, sim_pred1(lo, SIM_LT));
    for (int i = 0; i < 20; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 3, 3, 3, 3);
    sim_kb_endif(kb);
    sim_kb_bar(kb);
    const uint64_t stall_a[SIM_STALL_COUNT] = {101 + 102, 78, 0, 95, 2 + 4};
    check_stalls(cfg, fixture_kb_end(kb), 206, 30, stall_a);

    kb = sim_kb_begin("done_during_load", SIM_DIM(1), SIM_DIM(64));
    a = sim_kb_global(kb, "a", 4096);
    sim_kb_if(kb, sim_pred1(lo, SIM_LT));
    sim_kb_st(kb, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))), 1);
    sim_kb_endif(kb);
    sim_kb_if(kb, sim_pred1(lo, SIM_GE));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 2, 2, 2, 2);
    sim_kb_ld(kb, 3, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 4, 3, SIM_NO_REG, SIM_NO_REG);
    sim_kb_endif(kb);
    const uint64_t stall_b[SIM_STALL_COUNT] = {99 + 101, 38, 0, 0, 53 + 2};
    check_stalls(cfg, fixture_kb_end(kb), 156, 19, stall_b);
    trapeze_config_destroy(cfg);
}

/* A warp that waits on two loads (two lines: LD r1 at 1, offered 2, done
 * 102; LD r2 at 2, offered 3, done 103) is not woken by the completion that
 * leaves it waiting (r1's, while r2 is pending), and the cycles it waits are
 * charged as before. One warp on scheduler 0; scheduler 1 idles throughout.
 *  - LD, LD, EXIT: EXIT at 3, the warp done at 103 (its last request); end
 *    104. s0: idle 0, issue 3, memory 4..103 = 100. The SM holds its block
 *    until 103: active 104 cycles, although r1's completion at 102 wakes
 *    nothing and the block leaves in a completion, with no visit between.
 *  - LD, LD, FADD r3 = r1 + r2, EXIT: FADD at 104 (r2 ready at 103), EXIT
 *    105, the result at 108; end 109. s0: idle 0 and 108, issue 4, memory
 *    3..103 = 101, compute 106..107 = 2. Active 109. */
static void test_wait_two_loads(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    for (int use = 0; use < 2; use++) {
        sim_kb *kb = sim_kb_begin("two_loads", SIM_DIM(1), SIM_DIM(32));
        int a = sim_kb_global(kb, "a", 4096);
        sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.k[SIM_TX] = 1))));
        sim_kb_ld(kb, 2, sim_at1(a, 4, sim_ix(SIM_AFF(.c = 32, .k[SIM_TX] = 1))));
        if (use)
            sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 3, 1, 2, SIM_NO_REG);
        sim_kernel *k = fixture_kb_end(kb);
        sim_kernel_stats st;
        uint64_t cycles = use ? 109 : 104;
        CHECK(run_on(cfg, k, 0, &st) == cycles);
        CHECK(st.total.mem_requests == 2);
        CHECK(st.total.issue_slots == (use ? 4u : 3u));
        CHECK(st.total.stall[SIM_STALL_MEMORY] == (use ? 101u : 100u));
        CHECK(st.total.stall[SIM_STALL_COMPUTE] == (use ? 2u : 0u));
        CHECK(st.total.stall[SIM_STALL_IDLE] == (use ? 2u : 1u) + cycles);
        CHECK(st.total.active_cycles == cycles);
        sim_kernel_stats_free(&st);
        sim_kernel_destroy(k);
    }
    trapeze_config_destroy(cfg);
}

/* Resident blocks are capped by each resource (one SM, 64 blocks, one
 * instruction each): */
static void occupancy_case(int ctas, int threads, int regs, int shmem, int expect,
                           const char *why)
{
    trapeze_config *cfg = make_cfg(ctas, NULL);
    sim_kb *kb = sim_kb_begin("occ", SIM_DIM(64), SIM_DIM(threads));
    sim_kb_regs(kb, regs);
    sim_kb_shmem(kb, shmem);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_DIV, 1, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kernel *k = fixture_kb_end(kb);
    sim_core_config c;
    trapeze_error err;
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    const char *limit = NULL;
    CHECK(sim_occupancy(&c, k, &limit) == expect);
    CHECK(limit && !strcmp(limit, why));
    sim_kernel_stats st;
    run_on(cfg, k, 0, &st);
    CHECK(st.total.max_resident_blocks == (uint64_t)expect);
    CHECK(st.total.blocks == 64);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

static void test_occupancy(void)
{
    occupancy_case(8, 32, 1, 0, 8, "ctas");                 /* -gpgpu_shader_cta 8 */
    occupancy_case(32, 512, 1, 0, 3, "threads");            /* 1536 / 512 = 3 */
    occupancy_case(32, 33, 1, 0, 24, "warps");              /* 48 warps / 2 per block = 24 (threads: 46) */
    occupancy_case(32, 256, 21, 0, 5, "registers");         /* 32768 / (24 * 256) = 5 (threads: 6) */
    occupancy_case(32, 64, 1, 20000, 2, "shared memory");   /* 49152 / 20000 = 2 */
}

static int run_builtin(trapeze_config *cfg, const char *name, int argc, char **argv,
                       sim_kernel_stats *st, int max, uint32_t *sync_words)
{
    const sim_builtin *b = sim_builtin_find(name);
    CHECK(b != NULL);
    if (!b)
        return 0;
    long p[SIM_BUILTIN_MAX_PARAMS];
    trapeze_error err;
    CHECK_OK(sim_builtin_params(b, argc, argv, p, &err));
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, NULL, &g, &err));
    if (!g)
        return 0;
    sim_kernel *ks[16];
    int n = 0;
    CHECK_OK(b->build(sim_gpu_config(g), p, ks, max < 16 ? max : 16, &n, &err));
    int ran = 0;
    for (; ran < n; ran++) {
        trapeze_status s = sim_gpu_run(g, ks[ran], &st[ran], &err);
        CHECK(s == TRAPEZE_OK);   /* includes: no memory request outstanding at the end */
        if (s) {
            fprintf(stderr, "%s: %s\n", name, err.message);
            break;
        }
    }
    if (sync_words && n) {
        const sim_array *sync = &ks[0]->arrays[2];
        for (int s = 0; s < 4; s++)
            sync_words[s] = sim_gpu_peek(g, sync->base + 128u * (unsigned)s);
    }
    for (int i = 0; i < n; i++)
        sim_kernel_destroy(ks[i]);
    sim_gpu_destroy(g);
    return ran;
}

static void test_builtins_and_determinism(void)
{
    static const char *const gpus[] = {"data/gpus/gtx480.config", "data/gpus/gtx280.config",
                                       "data/gpus/v100.config"};
    char *small[][3] = {{"n=20000", NULL, NULL}, {"n=30000", NULL, NULL},
                        {"steps=20", NULL, NULL}, {"nx=100", "ny=60", "iters=2"},
                        {"n=10000", "stride=7", NULL}};
    static const char *const names[] = {"vecadd", "copy", "chase", "jacobi", "strided"};
    for (int g = 0; g < 3; g++) {
        trapeze_config *cfg = NULL;
        trapeze_error err;
        CHECK_OK(trapeze_config_load(gpus[g], &cfg, &err));
        if (!cfg)
            continue;
        for (int i = 0; i < 5; i++) {
            int argc = 0;
            while (argc < 3 && small[i][argc])
                argc++;
            sim_kernel_stats a[4], b[4];
            int na = run_builtin(cfg, names[i], argc, small[i], a, 4, NULL);
            int nb = run_builtin(cfg, names[i], argc, small[i], b, 4, NULL);
            CHECK(na == nb && na >= 1);
            for (int k = 0; k < na && k < nb; k++) {
                CHECK(a[k].cycles > 0 && a[k].total.warp_insts > 0);
                /* the same run twice gives the same statistics, byte for byte */
                CHECK(memcmp(&a[k].total, &b[k].total, sizeof a[k].total) == 0);
                CHECK(memcmp(&a[k].mem, &b[k].mem, sizeof a[k].mem) == 0);
                CHECK(memcmp(a[k].events, b[k].events, sizeof a[k].events) == 0);
                CHECK(memcmp(a[k].sm, b[k].sm, sizeof *a[k].sm * (size_t)a[k].n_sm) == 0);
                CHECK(a[k].cycles == b[k].cycles);
            }
            if (g == 0 && i == 3) {
                /* CSV files of both runs are identical too */
                trapeze_gpu gpu;
                CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
                CHECK_OK(sim_stats_write_csv("build/test_sim_a.csv", a, na, &gpu, NULL, &err));
                CHECK_OK(sim_stats_write_csv("build/test_sim_b.csv", b, nb, &gpu, NULL, &err));
                char *x = NULL, *y = NULL;
                FILE *fa = fopen("build/test_sim_a.csv", "r"), *fb = fopen("build/test_sim_b.csv", "r");
                CHECK(fa && fb);
                if (fa && fb) {
                    x = calloc(1, 1 << 16);
                    y = calloc(1, 1 << 16);
                    size_t lx = fread(x, 1, (1 << 16) - 1, fa), ly = fread(y, 1, (1 << 16) - 1, fb);
                    CHECK(lx == ly && lx > 0 && !memcmp(x, y, lx));
                    CHECK(!strncmp(x, "kernel,cycles,warp_instructions,ipc,", 36));
                    /* rows that combine across runs end with the GPU, the run and
                     * seconds: cycles / core clock (the GTX 480's 700 MHz) */
                    const char *nl = strchr(x, '\n');
                    CHECK(nl && nl - x > 15 && !strncmp(nl - 15, ",gpu,run,time_s", 15));
                    char want[96];
                    snprintf(want, sizeof want, ",%s,,%.17g\n", gpu.name,
                             (double)a[0].cycles / gpu.core_clock_hz);
                    CHECK(gpu.core_clock_hz == 700e6 && strstr(x, want) != NULL);
                    /* relaunch: the second sweep starts launch latency after the first ends */
                    CHECK(a[1].start_cycle == a[0].start_cycle + a[0].cycles + a[1].launch_cycles);
                    CHECK(a[1].launch_cycles == 3500);   /* default: 5 us at 700 MHz */
                }
                if (fa)
                    fclose(fa);
                if (fb)
                    fclose(fb);
                free(x);
                free(y);
                remove("build/test_sim_a.csv");
                remove("build/test_sim_b.csv");
            }
            for (int k = 0; k < na; k++)
                sim_kernel_stats_free(&a[k]);
            for (int k = 0; k < nb; k++)
                sim_kernel_stats_free(&b[k]);
        }
        trapeze_config_destroy(cfg);
    }
}

/* The persistent kernel's global barrier: 400 tiles over the 90 blocks
 * that fit at once on the GTX 480 (15 SMs x 6 blocks of 256 threads), 3
 * stages: every block loops over its tiles, so the barrier never waits for
 * a block that cannot be resident; each stage's counter ends at 90. */
static void test_global_barrier(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    if (!cfg)
        return;
    char *args[] = {"tiles=400", "stages=3", "block=256"};
    sim_kernel_stats st[1];
    uint32_t words[4] = {0};
    int n = run_builtin(cfg, "gbarrier", 3, args, st, 1, words);
    CHECK(n == 1);
    if (n == 1) {
        CHECK(st[0].blocks == 90);
        CHECK(st[0].total.atomic_insts == 90 * 3);
        CHECK(words[0] == 90 && words[1] == 90 && words[2] == 90 && words[3] == 0);
        CHECK(st[0].total.stall[SIM_STALL_BARRIER] > 0);
        sim_kernel_stats_free(&st[0]);
    }
    trapeze_config_destroy(cfg);
}

/* ---- the hang guard ---- */

/* Runs k on a fresh GPU (ideal memory when cfg has one SM, else the real
 * one); returns sim_gpu_run's status, the message and the cycle it ended. */
static trapeze_status run_status(trapeze_config *cfg, sim_kernel *k, int ideal,
                                 trapeze_error *err, uint64_t *cycle)
{
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    if (ideal)
        CHECK_OK(sim_mem_port_ideal(1, LAT, &opt.mem, err));
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, err));
    if (!g)
        return TRAPEZE_EFAIL;
    sim_kernel_stats st;
    trapeze_status s = sim_gpu_run(g, k, &st, err);
    if (!s)
        sim_kernel_stats_free(&st);
    *cycle = sim_gpu_cycle(g);
    sim_gpu_destroy(g);
    return s;
}

/* A global barrier over more blocks than can be resident: the built-in
 * gbarrier with blocks=200 on the GTX 480, where 6 blocks of 256 threads
 * fit per SM (1536 threads) x 15 SMs = 90. Refused before cycle 0 with a
 * message naming the kernel, what it waits for and the limit. A barrier
 * over more blocks than the grid has is refused too. */
static void test_hang_barrier_not_resident(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    if (!cfg)
        return;
    const sim_builtin *b = sim_builtin_find("gbarrier");
    char *args[] = {"blocks=200", "tiles=400", "stages=2"};
    long p[SIM_BUILTIN_MAX_PARAMS];
    CHECK_OK(sim_builtin_params(b, 3, args, p, &err));
    sim_core_config c;
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    sim_kernel *ks[1] = {NULL};
    int n = 0;
    CHECK_OK(b->build(&c, p, ks, 1, &n, &err));
    CHECK(n == 1 && ks[0]->barrier_blocks == 200);
    uint64_t cycle = 99;
    CHECK(run_status(cfg, ks[0], 0, &err, &cycle) == TRAPEZE_ERANGE);
    CHECK(cycle == 0);
    CHECK(strstr(err.message, "kernel gbarrier: its global barrier waits for 200 blocks but at "
                              "most 90 can be resident at once (6 per SM, limited by threads, "
                              "x 15 SMs)") != NULL);
    sim_kernel_destroy(ks[0]);
    /* blocks=90: all resident, it runs (test_global_barrier checks it) */
    sim_kb *kb = sim_kb_begin("short_grid", SIM_DIM(2), SIM_DIM(32));
    int sync = sim_kb_global(kb, "sync", 128);
    sim_kb_global_barrier(kb, sync, SIM_AFF(.c = 0), 4, 1);
    sim_kernel *k = fixture_kb_end(kb);
    CHECK(run_status(cfg, k, 0, &err, &cycle) == TRAPEZE_ERANGE);
    CHECK(strstr(err.message, "waits for 4 blocks but the grid has 2") != NULL);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

/* A warp that polls a word nobody writes: one block, one warp, a spin loop
 * around a volatile load of flag[0] (0x10000000, the first global array)
 * until it reads 1. Its only instructions are spin-loop ones, so the last
 * progress is the block's placement at cycle 0. With ideal memory a poll
 * whose load issues at t is offered at t+1, completes at t+101, its
 * closing branch issues at t+102 and the next load at t+103: loads at
 * 1 + 103n. The guard (-trapeze_hang_cycles 10000) stops at the first
 * visited cycle whose next event lies beyond 10000: the offer at 9993 of
 * the load issued at 1 + 103 x 97 = 9992 (completion 10093), so the
 * launch ends at cycle 9994. */
static void test_hang_spin(void)
{
    trapeze_config *cfg = make_cfg(8, "-trapeze_hang_cycles 10000\n");
    sim_kb *kb = sim_kb_begin("poll", SIM_DIM(1), SIM_DIM(32));
    int flag = sim_kb_global(kb, "flag", 128);
    sim_kb_spin(kb);
    sim_kb_ld_volatile(kb, 1, sim_at1(flag, 4, sim_ix(SIM_AFF(.c = 0))));
    sim_kb_endspin(kb, 1, SIM_AFF(.c = 1));
    sim_kernel *k = fixture_kb_end(kb);
    trapeze_error err;
    uint64_t cycle = 0;
    CHECK(run_status(cfg, k, 1, &err, &cycle) == TRAPEZE_EFAIL);
    CHECK(cycle == 9994);
    CHECK(strstr(err.message, "kernel poll: no progress for 10000 cycles") != NULL);
    CHECK(strstr(err.message, ": 1 warps spin until the word at 0x10000000 (now 0) reaches 1, "
                              "0 wait at __syncthreads, 0 at a fence, 0 on memory, 0 other; "
                              "0 of 1 blocks done, 1 resident") != NULL);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

/* Waiting on memory is not spinning, but it is no progress either: ten
 * dependent loads (each address from the last load's register) leave
 * gaps of LAT + 2 = 102 cycles between issues (offered the cycle after
 * issue, ready LAT later, the dependent issues the cycle after). A limit
 * of 150 lets the kernel finish (10 x 102 + the exit); 90 stops it in its
 * first wait, with the warp counted as waiting on memory: the first load
 * issues at cycle 1, is offered at 2, and the next event is its
 * completion at 102, so the guard sees the gap coming and the launch ends
 * at cycle 3 (idle skipping looks ahead; it never runs through a gap it
 * will refuse). */
static void test_hang_memory_wait(void)
{
    sim_kb *kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    int a = sim_kb_global(kb, "a", 4096);
    for (int i = 0; i < 10; i++) {
        sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(SIM_AFF(.c = 32 * i, .k[SIM_TX] = 1))));
        sim_kb_uses(kb, 1);
    }
    sim_kernel *k = fixture_kb_end(kb);
    trapeze_error err;
    uint64_t cycle = 0;
    trapeze_config *ok = make_cfg(8, "-trapeze_hang_cycles 150\n");
    CHECK(run_status(ok, k, 1, &err, &cycle) == TRAPEZE_OK);
    CHECK(cycle > 10 * 102);
    trapeze_config *tight = make_cfg(8, "-trapeze_hang_cycles 90\n");
    CHECK(run_status(tight, k, 1, &err, &cycle) == TRAPEZE_EFAIL);
    CHECK(cycle == 3);
    CHECK(strstr(err.message, ": 0 warps spin, 0 wait at __syncthreads, 0 at a fence, 1 on "
                              "memory, 0 other; 0 of 1 blocks done, 1 resident") != NULL);
    sim_kernel_destroy(k);
    trapeze_config_destroy(ok);
    trapeze_config_destroy(tight);
}

/* Divergence: IF over half the lanes runs with a 16-lane mask. */
static void test_simt_mask(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    sim_kb *kb = sim_kb_begin("diverge", SIM_DIM(1), SIM_DIM(32));
    sim_kb_if(kb, sim_pred1(SIM_AFF(.c = -16, .k[SIM_TX] = 1), SIM_LT));
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 1, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_else(kb);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 2, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 3, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_endif(kb);
    sim_kernel *k = fixture_kb_end(kb);
    sim_kernel_stats st;
    run_on(cfg, k, 0, &st);
    /* IF (32) + 1 add (16) + ELSE branch (16) + 2 adds (16) + EXIT (32) */
    CHECK(st.total.warp_insts == 6);
    CHECK(st.total.thread_insts == 32 + 16 + 16 + 32 + 32);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

/* Lanes of one 64-thread block (two warps) for which tx + c cmp 0 holds:
 * the count an IF body of one instruction adds to thread_insts. */
static uint64_t pred_lanes(trapeze_config *cfg, int64_t c, sim_cmp cmp)
{
    sim_kb *kb = sim_kb_begin("pred", SIM_DIM(1), SIM_DIM(64));
    sim_kb_if(kb, sim_pred1(SIM_AFF(.c = c, .k[SIM_TX] = 1), cmp));
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 1, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_endif(kb);
    sim_kernel *k = fixture_kb_end(kb);
    sim_kernel_stats st;
    run_on(cfg, k, 0, &st);
    uint64_t n = st.total.thread_insts - 64 - 64;   /* less the IF and the EXIT */
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    return n;
}

/* Every comparison, for offsets that make a warp's outcome uniform (all
 * lanes or none: decided from the warp's tx range) and mixed (lane by
 * lane), against a count over tx = 0..63. */
static void test_predicates(void)
{
    trapeze_config *cfg = make_cfg(8, NULL);
    const int64_t offsets[] = {-70, -63, -40, -32, -31, 0, 5};
    for (int cmp = SIM_LT; cmp <= SIM_NE; cmp++)
        for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
            uint64_t want = 0;
            for (int64_t tx = 0; tx < 64; tx++) {
                int64_t x = tx + offsets[i];
                int t[] = {x < 0, x <= 0, x > 0, x >= 0, x == 0, x != 0};
                want += (uint64_t)t[cmp];
            }
            uint64_t got = pred_lanes(cfg, offsets[i], (sim_cmp)cmp);
            CHECK(got == want);
            if (got != want)
                fprintf(stderr, "cmp %d c %lld: %llu lanes, want %llu\n", cmp,
                        (long long)offsets[i], (unsigned long long)got,
                        (unsigned long long)want);
        }
    trapeze_config_destroy(cfg);
}

static void test_builder_errors(void)
{
    trapeze_error err;
    sim_kernel *k;
    sim_kb *kb = sim_kb_begin("bad", SIM_DIM(1), SIM_DIM(32));
    sim_kb_if(kb, sim_pred1(SIM_AFF(.k[SIM_TX] = 1), SIM_LT));
    CHECK(sim_kb_end(kb, &k, &err) == TRAPEZE_EINVAL && k == NULL);
    CHECK(strstr(err.message, "never closed") != NULL);
    kb = sim_kb_begin("bad", SIM_DIM(1), SIM_DIM(32));
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 99, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    CHECK(sim_kb_end(kb, &k, &err) == TRAPEZE_EINVAL);
    kb = sim_kb_begin("bad", SIM_DIM(1), SIM_DIM(32));
    sim_kb_endloop(kb);
    CHECK(sim_kb_end(kb, &k, &err) == TRAPEZE_EINVAL);
}

/* sim_launch_run_until_insts (sim/sim.h) on the chain of test_window: FMA i
 * issues in cycle 1 + 5(i-1), the EXIT (the 11th) in 47, the run is 52
 * cycles. Run to cycle 16, 3 have issued and cycle 16 is the next visited;
 * run to 4 instructions, one step (cycle 16) gives exactly 4, and up to
 * cycle 21 (the 5th's) nothing more issues; a count already reached runs
 * nothing; 10 stops after cycle 46, 47 next; 12 is never reached: the launch
 * ends, with its stats' 11 instructions and 52 cycles. */
static void test_run_until_insts(void)
{
    sim_kb *kb = sim_kb_begin("chain", SIM_DIM(1), SIM_DIM(32));
    for (int i = 0; i < 10; i++)
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 1, 1, 1, 1);
    sim_kernel *k = fixture_kb_end(kb);
    trapeze_config *cfg = make_cfg(8, NULL);
    sim_gpu *g = NULL;
    trapeze_error err;
    sim_kernel_stats st;
    sim_launch l;
    CHECK_OK(sim_gpu_create(cfg, NULL, &g, &err));
    CHECK_OK(sim_gpu_launch_begin(g, k, &st, &l, &err));
    CHECK_OK(sim_launch_run_until(&l, 16, &err));
    CHECK(l.t == 16 && sim_gpu_launch_warp_insts(&l) == 3);
    CHECK_OK(sim_launch_run_until_insts(&l, 4, &err));
    CHECK(l.running && l.t > 16 && sim_gpu_launch_warp_insts(&l) == 4);
    CHECK_OK(sim_launch_run_until(&l, 21, &err));
    CHECK(sim_gpu_launch_warp_insts(&l) == 4);
    uint64_t t = l.t;
    CHECK_OK(sim_launch_run_until_insts(&l, 2, &err));
    CHECK(l.t == t && sim_gpu_launch_warp_insts(&l) == 4);
    CHECK_OK(sim_launch_run_until_insts(&l, 10, &err));
    CHECK(l.running && l.t == 47 && sim_gpu_launch_warp_insts(&l) == 10);
    CHECK_OK(sim_launch_run_until_insts(&l, 12, &err));
    CHECK(!l.running && sim_gpu_launch_warp_insts(&l) == 11);
    CHECK_OK(sim_gpu_launch_end(&l, &err));
    CHECK(st.total.warp_insts == 11 && st.cycles == 52 && !st.windowed);
    sim_kernel_stats_free(&st);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    sim_kernel_destroy(k);
}

int main(void)
{
    test_fu_latency();
    test_window();
    test_run_until_insts();
    test_accelsim_option_lines();
    test_dual_issue();
    test_operand_collector();
    test_instruction_fetch();
    test_branch_unit();
    test_spec_units();
    test_int_dp_units();
    test_bank_conflicts();
    test_load_latency();
    test_sector_accesses();
    test_fence();
    test_barrier();
    test_stall_attribution();
    test_wait_two_loads();
    test_occupancy();
    test_simt_mask();
    test_predicates();
    test_builder_errors();
    test_global_barrier();
    test_hang_barrier_not_resident();
    test_hang_spin();
    test_hang_memory_wait();
    test_builtins_and_determinism();
    return check_report("test_sim_core");
}
