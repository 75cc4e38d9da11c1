/*
 * core_config.c - the SM-side options of a gpgpusim.config, read once into
 * sim_core_config, and the occupancy calculation. Owns parsing and
 * validation only ("file:line: option -x: ..." errors); no timing here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/options.h"
#include "sim/core/gpu_sim.h"
#include "sim/mem/mem_config.h"

/* Every SM-side option: one row each (common/options.h). */
const trapeze_opt sim_core_options[] = {
    {"gpgpu_num_sched_per_core", OPT_INT, "1", 1, 16, "warp schedulers per SM"},
    {"gpgpu_max_insn_issue_per_warp", OPT_INT, "1", 1, 2,
     "instructions a warp may issue in one cycle (GPGPU-Sim's default is 2; Trapeze keeps 1)"},
    {"gpgpu_dual_issue_diff_exec_units", OPT_INT, "1", 0, 1,
     "1: a warp's second instruction in a cycle must run on another kind of unit"},
    {"gpgpu_scheduler", OPT_TEXT, SIM_SCHED_DEFAULT(SIM_SCHED_FIRST_), 0, 0,
     "warp scheduler: " SIM_SCHED_NAMES},
    {"gpgpu_num_sp_units", OPT_INT, "1", 1, 64, "SP (ALU) pipelines per SM"},
    {"gpgpu_num_sfu_units", OPT_INT, "1", 1, 64, "SFU pipelines per SM"},
    {"gpgpu_num_int_units", OPT_INT, "0", 0, 64,
     "INT pipelines per SM (0: integer instructions run on the SP units)"},
    {"gpgpu_num_dp_units", OPT_INT, "", 0, 64,
     "DP pipelines per SM (set to 0: double-precision instructions run on the SFU units, as "
     "GPGPU-Sim's Fermi; unset: on the SP units)"},
    {"ptx_opcode_latency_int", OPT_LIST, "4,13,4,5,145", 1, 100000,
     "INT latencies: add,max,mul,mad,div[,shfl]"},
    {"ptx_opcode_latency_fp", OPT_LIST, "4,13,4,5,39", 1, 100000, "FP latencies"},
    {"ptx_opcode_latency_dp", OPT_LIST, "8,19,8,8,330", 1, 100000, "DP latencies"},
    {"ptx_opcode_latency_sfu", OPT_LIST, "20", 1, 100000, "SFU latency"},
    {"ptx_opcode_initiation_int", OPT_LIST, "1,2,2,1,8", 1, 100000, "INT initiation intervals"},
    {"ptx_opcode_initiation_fp", OPT_LIST, "1,2,1,1,4", 1, 100000, "FP initiation intervals"},
    {"ptx_opcode_initiation_dp", OPT_LIST, "8,16,8,8,130", 1, 100000,
     "DP initiation intervals"},
    {"ptx_opcode_initiation_sfu", OPT_LIST, "4", 1, 100000, "SFU initiation interval"},
    {"trace_opcode_latency_initiation_int", OPT_LIST, "unset", 1, 100000,
     "trace mode: INT latency,initiation"},
    {"trace_opcode_latency_initiation_sp", OPT_LIST, "unset", 1, 100000,
     "trace mode: SP latency,initiation"},
    {"trace_opcode_latency_initiation_dp", OPT_LIST, "unset", 1, 100000,
     "trace mode: DP latency,initiation"},
    {"trace_opcode_latency_initiation_sfu", OPT_LIST, "unset", 1, 100000,
     "trace mode: SFU latency,initiation"},
    {"gpgpu_smem_latency", OPT_INT, "3", 1, 100000, "shared-memory latency, cycles"},
    {"gpgpu_shmem_num_banks", OPT_INT, "16", 1, 64, "shared-memory banks"},
    {"gpgpu_num_reg_banks", OPT_INT, "16", 1, 64, "register-file banks"},
    {"gpgpu_sub_core_model", OPT_INT, "0", 0, 1,
     "V100 sub-cores: each scheduler its own units, banks, collector units"},
    {"gpgpu_enable_specialized_operand_collector", OPT_INT, "1", 0, 1,
     "collector units per unit type (1) or only the generic ones (0)"},
    {"gpgpu_operand_collector_num_units_sp", OPT_INT, "", 0, 64, "SP collector units (4)"},
    {"gpgpu_operand_collector_num_units_sfu", OPT_INT, "", 0, 64, "SFU collector units (4)"},
    {"gpgpu_operand_collector_num_units_mem", OPT_INT, "", 0, 64, "MEM collector units (2)"},
    {"gpgpu_operand_collector_num_units_gen", OPT_INT, "", 0, 64, "generic collector units (0)"},
    {"gpgpu_operand_collector_num_in_ports_sp", OPT_INT, "", 0, 16, "SP in ports (1)"},
    {"gpgpu_operand_collector_num_in_ports_sfu", OPT_INT, "", 0, 16, "SFU in ports (1)"},
    {"gpgpu_operand_collector_num_in_ports_mem", OPT_INT, "", 0, 16, "MEM in ports (1)"},
    {"gpgpu_operand_collector_num_in_ports_gen", OPT_INT, "", 0, 16, "generic in ports (0)"},
    {"gpgpu_operand_collector_num_out_ports_sp", OPT_INT, "", 0, 16, "SP dispatch units (1)"},
    {"gpgpu_operand_collector_num_out_ports_sfu", OPT_INT, "", 0, 16, "SFU dispatch units (1)"},
    {"gpgpu_operand_collector_num_out_ports_mem", OPT_INT, "", 0, 16, "MEM dispatch units (1)"},
    {"gpgpu_operand_collector_num_out_ports_gen", OPT_INT, "", 0, 16,
     "generic dispatch units (0)"},
    {"gpgpu_operand_collector_num_units_dp", OPT_INT, "", 0, 64, "DP collector units (0)"},
    {"gpgpu_operand_collector_num_in_ports_dp", OPT_INT, "", 0, 16, "DP in ports (0)"},
    {"gpgpu_operand_collector_num_out_ports_dp", OPT_INT, "", 0, 16, "DP dispatch units (0)"},
    {"gpgpu_operand_collector_num_units_int", OPT_INT, "", 0, 64, "INT collector units (0)"},
    {"gpgpu_operand_collector_num_in_ports_int", OPT_INT, "", 0, 16, "INT in ports (0)"},
    {"gpgpu_operand_collector_num_out_ports_int", OPT_INT, "", 0, 16,
     "INT dispatch units (0)"},
    {"gpgpu_reg_file_port_throughput", OPT_INT, "1", 1, 8, "collector steps per cycle"},
    {"gpgpu_reg_bank_use_warp_id", OPT_INT, "0", 0, 1,
     "read, unused (GPGPU-Sim 4 always adds the warp id to the bank)"},
    {"gpgpu_pipeline_widths", OPT_LIST, "1,1,1,1,1,1,1,1,1,1,1", 0, 64,
     "ID_OC sp,dp,int,sfu,mem, OC_EX sp,dp,int,sfu,mem, EX_WB[,tensor]"},
    {"specialized_unit_1", OPT_TEXT, "", 0, 0,
     "specialized unit 1 (branches): enabled,units,max_latency,ID_OC width,OC_EX width,name"},
    {"specialized_unit_2", OPT_TEXT, "", 0, 0, "specialized unit 2 (texture: TEX, TLD, ...)"},
    {"specialized_unit_3", OPT_TEXT, "", 0, 0, "specialized unit 3 (tensor: HMMA, IMMA, ...)"},
    {"specialized_unit_4", OPT_TEXT, "", 0, 0, "specialized unit 4 (uniform: UIADD3, ULDC, ...)"},
    {"specialized_unit_5", OPT_TEXT, "", 0, 0, "specialized unit 5 (no opcode maps to it)"},
    {"specialized_unit_6", OPT_TEXT, "", 0, 0, "specialized unit 6 (no opcode maps to it)"},
    {"specialized_unit_7", OPT_TEXT, "", 0, 0, "specialized unit 7 (no opcode maps to it)"},
    {"specialized_unit_8", OPT_TEXT, "", 0, 0, "specialized unit 8 (no opcode maps to it)"},
    {"trace_opcode_latency_initiation_spec_op_1", OPT_LIST, "4,4", 1, 100000,
     "trace mode: specialized unit 1's latency,initiation"},
    {"trace_opcode_latency_initiation_spec_op_2", OPT_LIST, "4,4", 1, 100000, "unit 2's"},
    {"trace_opcode_latency_initiation_spec_op_3", OPT_LIST, "4,4", 1, 100000, "unit 3's"},
    {"trace_opcode_latency_initiation_spec_op_4", OPT_LIST, "4,4", 1, 100000, "unit 4's"},
    {"trace_opcode_latency_initiation_spec_op_5", OPT_LIST, "4,4", 1, 100000, "unit 5's"},
    {"trace_opcode_latency_initiation_spec_op_6", OPT_LIST, "4,4", 1, 100000, "unit 6's"},
    {"trace_opcode_latency_initiation_spec_op_7", OPT_LIST, "4,4", 1, 100000, "unit 7's"},
    {"trace_opcode_latency_initiation_spec_op_8", OPT_LIST, "4,4", 1, 100000, "unit 8's"},
    {"trace_opcode_latency_initiation_tensor", OPT_LIST, "4,1", 1, 100000,
     "trace mode: TENSOR_CORE_OP's latency,initiation (read; no SASS opcode is one: the "
     "tensor opcodes run on specialized unit 3)"},
    {"gpgpu_coalesce_arch", OPT_INT, "13", 1, 1000,
     "coalescing rules (>= 40: every global access a 32-byte sector of its own)"},
    {"gpgpu_cache:il1", OPT_TEXT, "", 0, 0,
     "I-cache N:sets:line:assoc,L:R:f:N:L,S:mshr:merge,mq (unset: no fetch model)"},
    {"gpgpu_inst_fetch_throughput", OPT_INT, "1", 1, 16, "I-cache fetches per SM per cycle"},
    {"gpgpu_perfect_inst_const_cache", OPT_INT, "0", 0, 1,
     "every I-cache access hits (fetch and ibuffer still modelled)"},
    {"gpgpu_kernel_launch_latency", OPT_INT, "", 0, 1000000000L,
     "kernel launch latency, core cycles (default 5 us)"},
    {"trapeze_kernel_launch_latency", OPT_INT, "", 0, 1000000000L,
     "older name of -gpgpu_kernel_launch_latency"},
    {"trapeze_max_cycles", OPT_INT, "2000000000", 1, 4000000000000000000L,
     "stop a launch after this many cycles"},
    {"trapeze_window_warp_insts", OPT_INT, "0", 0, 4000000000000000000L,
     "stop a launch once it issued this many warp instructions (0: whole); a sample's window"},
    {"trapeze_window_groups", OPT_INT, "0", 0, 1000000000L,
     "group-list dispatch: run only the first N groups; chen: only SMs 0..N-1, N/SMs of the "
     "blocks (0: all); a sample's sub-grid"},
    {"trapeze_window_first_block", OPT_INT, "0", 0, 4000000000000000000L,
     "round-robin dispatch: start at block N of the grid (0: the first); a sample's later window"},
    {"trapeze_hang_cycles", OPT_INT, "1000000", 1, 4000000000000000000L,
     "a launch without progress this long is a hang"},
    {"trapeze_tb_dispatch", OPT_TEXT, SIM_TB_DEFAULT_NAME, 0, 0,
     "thread-block dispatch: " SIM_TB_NAMES},
    {"trapeze_tb_grouping", OPT_TEXT, "", 0, 0, "grouping file for -trapeze_tb_dispatch explicit"},
    {"trapeze_ldst_sched", OPT_TEXT, "fifo", 0, 0,
     "LDST unit: fifo (one memory instruction at a time, in order), or per-warp request "
     "queues probed by fixed, rr or grr (Choo's memory request scheduling)"},
    {"trapeze_ldst_queue_depth", OPT_INT, "32", 32, 1024,
     "per-warp queues: requests each holds (a warp issues a global access while 32 more fit)"},
    {"trapeze_ldst_probes", OPT_INT, "4", 1, 32,
     "per-warp queues: heads probed per cycle (fixed, grr; rr probes one)"},
    {"trapeze_dws_branch", OPT_INT, "0", 0, 1,
     "Dynamic Warp Subdivision: split a warp at a selected divergent branch (1)"},
    {"trapeze_dws_mem", OPT_TEXT, "off", 0, 0,
     "Dynamic Warp Subdivision on a partial hit: off, aggress, lazy, revive"},
    {"trapeze_dws_reconv", OPT_TEXT, "limited", 0, 0,
     "a memory split stops at the next branch (limited) or runs across branches (bypass)"},
    {"trapeze_dws_wst", OPT_INT, "16", 2, 64, "warp-split table entries per SM"},
    {"trapeze_dws_hit_cycles", OPT_INT, "", 1, 1000000,
     "Dynamic Warp Subdivision: a load's data back this soon after its offer was an L1 hit "
     "(unset: twice -gpgpu_l1_latency)"},
    {"trapeze_dws_post_block", OPT_INT, "50", 0, 1000000,
     "a program branch splits when the block after its post-dominator has at most this many "
     "instructions"},
    {"trapeze_rsimd_width", OPT_INT, "32", 2, 32,
     "Robust SIMD: lanes per warp-slice (neighbouring lanes, each slice its own stack)"},
    {"trapeze_rsimd_depth", OPT_INT, "0", 0, 4096,
     "Robust SIMD: slices (or whole warps) active per SM, the rest suspended (0: all)"},
    {"trapeze_rsimd_adapt", OPT_INT, "0", 0, 1,
     "Robust SIMD: search width x depth over sampled intervals, then keep the best (1)"},
    {"trapeze_rsimd_interval", OPT_INT, "", 1, 100000000,
     "Robust SIMD: threads finished per sampled interval (unset: twice the threads per SM)"},
    {"trapeze_rsimd_min_intervals", OPT_INT, "30", 1, 1000000,
     "Robust SIMD: a kernel with fewer intervals per SM keeps width x depth, unadapted"},
    {"trapeze_rsimd_dws", OPT_INT, "0", 0, 1,
     "RobustDWS: after adapting, sample DWS (-trapeze_dws_*) at full width, keep the better"},
    {NULL, OPT_INT, NULL, 0, 0, NULL}};

/* Latencies the config may leave out: GPGPU-Sim's own defaults. */
static const int default_lat[4][SIM_ALU_COUNT] = {
    {4, 13, 4, 5, 145}, {4, 13, 4, 5, 39}, {8, 19, 8, 8, 330}, {20, 20, 20, 20, 20}};
static const int default_init[4][SIM_ALU_COUNT] = {
    {1, 2, 2, 1, 8}, {1, 2, 1, 1, 4}, {8, 16, 8, 8, 130}, {4, 4, 4, 4, 4}};

/* One -ptx_opcode_* list: ADD,MAX,MUL,MAD,DIV (n_expected 5) or a single
 * value (n_expected 1). The _int lists of GPGPU-Sim 4 have a sixth value,
 * SHFL: with `extra` non-NULL it is accepted there (else the fallback). */
static trapeze_status read_list(const trapeze_config *cfg, const char *option, int row[],
                                const int fallback[], int n_expected, int *extra,
                                trapeze_error *err)
{
    double v[SIM_ALU_COUNT + 1];
    int n;
    trapeze_status s = trapeze_config_get_doubles(cfg, option, ",", v, SIM_ALU_COUNT + 1, &n,
                                                  err);
    if (s)
        return s;
    if (n == 0) {
        memcpy(row, fallback, SIM_ALU_COUNT * sizeof *row);
        return TRAPEZE_OK;
    }
    if (extra && n == SIM_ALU_COUNT + 1) {
        if (v[n - 1] < 1 || v[n - 1] > 100000 || v[n - 1] != floor(v[n - 1]))
            return trapeze_config_fail(cfg, option, err,
                                       "'%g' (SHFL) is not a whole number of cycles >= 1",
                                       v[n - 1]);
        *extra = (int)v[n - 1];
        n--;
    }
    if (n != n_expected && !(n_expected == 1 && n >= 1 && n <= SIM_ALU_COUNT))
        return trapeze_config_fail(cfg, option, err, "expected %d comma-separated values%s",
                                   n_expected, extra ? " (or 6, the sixth SHFL's)" : "");
    for (int i = 0; i < SIM_ALU_COUNT; i++) {
        double x = v[i < n ? i : n - 1];
        if (x < 1 || x > 100000 || x != floor(x))
            return trapeze_config_fail(cfg, option, err, "'%g' is not a whole number of cycles >= 1",
                                       x);
        row[i] = (int)x;
    }
    return TRAPEZE_OK;
}

static trapeze_status get_pos(const trapeze_config *cfg, const char *option, long *out,
                              trapeze_error *err);

/* One `latency,initiation` pair of Accel-Sim's trace.config into v[0], v[1];
 * *set 0 when the config does not name the option. */
static trapeze_status read_lat_init(const trapeze_config *cfg, const char *opt, int v[2],
                                    int *set, trapeze_error *err)
{
    double d[3];
    int n;
    trapeze_status s = trapeze_config_get_doubles(cfg, opt, ",", d, 3, &n, err);
    if (s)
        return s;
    *set = n != 0;
    if (n == 0)
        return TRAPEZE_OK;
    if (n != 2 || d[0] < 1 || d[1] < 1 || d[0] > 100000 || d[1] > 100000 ||
        d[0] != floor(d[0]) || d[1] != floor(d[1]))
        return trapeze_config_fail(cfg, opt, err,
                                   "expected latency,initiation: two whole numbers of cycles "
                                   ">= 1");
    v[0] = (int)d[0];
    v[1] = (int)d[1];
    return TRAPEZE_OK;
}

/* Accel-Sim's trace.config: -trace_opcode_latency_initiation_{int,sp,dp,sfu}
 * L,I give every instruction of the class latency L and initiation interval
 * I (trace mode has no per-operation latencies), replacing the PTX lists.
 * The _tensor pair is checked and unused (no SASS opcode is a TENSOR_CORE_OP
 * in Accel-Sim's maps: the tensor opcodes go to specialized unit 3). */
static trapeze_status read_trace_latencies(const trapeze_config *cfg, sim_core_config *c,
                                           trapeze_error *err)
{
    static const char *const opt[5] = {
        "trace_opcode_latency_initiation_int", "trace_opcode_latency_initiation_sp",
        "trace_opcode_latency_initiation_dp", "trace_opcode_latency_initiation_sfu",
        "trace_opcode_latency_initiation_tensor"};
    for (int i = 0; i < 5; i++) {
        int v[2], set;
        trapeze_status s = read_lat_init(cfg, opt[i], v, &set, err);
        if (s)
            return s;
        for (int a = 0; set && i < 4 && a < SIM_ALU_COUNT; a++) {
            c->lat[i][a] = v[0];
            c->init[i][a] = v[1];
        }
    }
    return TRAPEZE_OK;
}

/* The operand collector's options (sim_oc_config). It is on when a config
 * names any collector-unit count or the sub-core model; unset counts then
 * take GPGPU-Sim's defaults. */
static trapeze_status read_oc(const trapeze_config *cfg, sim_core_config *c, trapeze_error *err)
{
    /* in SIM_OC_SET_* order */
    static const char *const set[6] = {"sp", "sfu", "mem", "gen", "dp", "int"};
    static const int def_units[6] = {4, 4, 2, 0, 0, 0}, def_ports[6] = {1, 1, 1, 0, 0, 0};
    sim_oc_config *o = &c->oc;
    trapeze_status s;
    long v;
    if ((s = get_pos(cfg, "gpgpu_sub_core_model", &v, err)))
        return s;
    o->sub_core = (int)v;
    o->on = o->sub_core;
    for (int i = 0; i < 6; i++) {
        char name[64];
        long *dst[3] = {NULL, NULL, NULL};
        const char *what[3] = {"units", "in_ports", "out_ports"};
        long u, in, out;
        dst[0] = &u, dst[1] = &in, dst[2] = &out;
        for (int j = 0; j < 3; j++) {
            snprintf(name, sizeof name, "gpgpu_operand_collector_num_%s_%s", what[j], set[i]);
            if ((s = trapeze_opt_int_or(cfg, sim_core_options, name, -1, dst[j], err)))
                return s;
            if (j == 0 && u >= 0)
                o->on = 1;
        }
        o->units[i] = u >= 0 ? (int)u : def_units[i];
        o->in_ports[i] = in >= 0 ? (int)in : def_ports[i];
        o->out_ports[i] = out >= 0 ? (int)out : def_ports[i];
    }
    if ((s = get_pos(cfg, "gpgpu_enable_specialized_operand_collector", &v, err)))
        return s;
    o->specialized = (int)v;
    if ((s = get_pos(cfg, "gpgpu_reg_file_port_throughput", &v, err)) ||
        (s = get_pos(cfg, "gpgpu_reg_bank_use_warp_id", &v, err)))
        return s;
    o->port_throughput = (int)v;
    if (o->port_throughput < 1)
        o->port_throughput = 1;
    double w[16];
    int n;
    if ((s = trapeze_config_get_doubles(cfg, "gpgpu_pipeline_widths", ",", w, 16, &n, err)))
        return s;
    /* SP, SFU, MEM, specialized unit 1 (read_spec_units), INT, DP */
    static const int idoc[6] = {0, 3, 4, -1, 2, 1}, ocex[6] = {5, 8, 9, -1, 7, 6};
    if (n && n < 10)
        return trapeze_config_fail(cfg, "gpgpu_pipeline_widths", err,
                                   "expected at least 10 comma-separated widths (ID_OC and "
                                   "OC_EX of sp,dp,int,sfu,mem), got %d", n);
    for (int k = 0; k < 6; k++) {
        if (idoc[k] < 0)
            continue;
        double a = n ? w[idoc[k]] : 1, b = n ? w[ocex[k]] : 1;
        if (a < 0 || b < 0 || a > 64 || b > 64 || a != floor(a) || b != floor(b))
            return trapeze_config_fail(cfg, "gpgpu_pipeline_widths", err,
                                       "widths are whole numbers from 0 to 64");
        o->idoc_w[k] = (int)a;
        o->ocex_w[k] = (int)b;
    }
    if (!o->on)
        return TRAPEZE_OK;
    /* every kind needs a way into a collector unit and out of its ID_OC and
     * OC_EX registers (GPGPU-Sim would deadlock or assert) */
    int parts = o->sub_core ? c->n_sched : 1;
    static const char *const kind[3] = {"sp", "sfu", "mem"};
    for (int k = 0; k < 3; k++) {
        int own = o->specialized && o->units[k] >= parts && o->in_ports[k] > 0 &&
                  o->out_ports[k] > 0;
        int gen = o->units[3] >= parts && o->in_ports[3] > 0 && o->out_ports[3] > 0;
        if (!own && !gen)
            return trapeze_config_fail(cfg, "gpgpu_operand_collector_num_units_gen", err,
                                       "%s instructions have no collector unit, in port and "
                                       "out port (own or generic)%s", kind[k],
                                       o->sub_core ? " per scheduler" : "");
        if (o->idoc_w[k] < parts || o->ocex_w[k] < parts)
            return trapeze_config_fail(cfg, "gpgpu_pipeline_widths", err,
                                       "the %s ID_OC and OC_EX widths must be at least %d",
                                       kind[k], parts);
    }
    /* the specialized units' registers are served by the generic ports, the
     * INT and DP units' by their own too with the specialized collector */
    for (int k = SIM_OC_SPEC; k < SIM_OC_KINDS; k++) {
        int spec = k == SIM_OC_SPEC ? 1 : k >= SIM_OC_SPEC2 ? k - SIM_OC_SPEC2 + 2 : 0;
        int n = spec ? c->spec_n[spec] : k == SIM_OC_INT ? c->n_int : c->n_dp;
        char name[32];
        snprintf(name, sizeof name, "specialized_unit_%d", spec);
        const char *opt = spec ? name : k == SIM_OC_INT ? "gpgpu_num_int_units"
                                                        : "gpgpu_num_dp_units";
        if (!n)
            continue;
        int own_set = k == SIM_OC_INT ? 5 : k == SIM_OC_DP ? 4 : -1;
        int own = own_set >= 0 && o->specialized && o->units[own_set] >= parts &&
                  o->in_ports[own_set] > 0 && o->out_ports[own_set] > 0;
        if (!own && (o->units[3] < parts || o->in_ports[3] < 1 || o->out_ports[3] < 1))
            return trapeze_config_fail(cfg, opt, err,
                                       "with the operand collector this unit needs generic "
                                       "collector units, in and out ports%s",
                                       own_set >= 0 ? " (or, with the specialized collector, "
                                                      "its own)" : "");
        if (o->idoc_w[k] < parts || o->ocex_w[k] < parts || n % parts)
            return trapeze_config_fail(cfg, opt, err,
                                       "its units and widths must divide among the %d "
                                       "schedulers", parts);
    }
    if (o->sub_core) {
        if (c->reg_banks % c->n_sched || c->n_sp % c->n_sched || c->n_sfu % c->n_sched)
            return trapeze_config_fail(cfg, "gpgpu_sub_core_model", err,
                                       "register banks (%d), SP units (%d) and SFU units (%d) "
                                       "must divide among the %d schedulers", c->reg_banks,
                                       c->n_sp, c->n_sfu, c->n_sched);
        for (int i = 0; i < 6; i++)
            if ((i == 3 || o->specialized) && c->oc.units[i] % c->n_sched)
                return trapeze_config_fail(cfg, "gpgpu_sub_core_model", err,
                                           "%d %s collector units do not divide among %d "
                                           "schedulers", c->oc.units[i], set[i], c->n_sched);
    }
    return TRAPEZE_OK;
}

/* -specialized_unit_N E,UNITS,MAX_LAT,IDOC,OCEX,NAME (N = 1..8) and its
 * trace-mode -trace_opcode_latency_initiation_spec_op_N L,I (Accel-Sim's
 * default 4,4). Accel-Sim's opcode maps send branches to unit 1, texture
 * to 2, tensor to 3, the uniform datapath to 4 (SM7_QV100's trace.config
 * enables 1 to 3: 1,4,4,4,4,BRA; 1,4,200,4,4,TEX; 1,4,8,4,4,TENSOR). The
 * maximum latency sizes GPGPU-Sim's result pipeline; here latencies are
 * the L of the pair. */
static trapeze_status read_spec_units(const trapeze_config *cfg, sim_core_config *c,
                                      trapeze_error *err)
{
    for (int u = 1; u <= SIM_SPEC_UNITS; u++) {
        char unit_opt[32], lat_opt[64];
        snprintf(unit_opt, sizeof unit_opt, "specialized_unit_%d", u);
        snprintf(lat_opt, sizeof lat_opt, "trace_opcode_latency_initiation_spec_op_%d", u);
        int v[2] = {4, 4}, set;
        trapeze_status s = read_lat_init(cfg, lat_opt, v, &set, err);
        if (s)
            return s;
        c->spec_lat[u] = v[0];
        c->spec_init[u] = v[1];
        const char *spec;
        trapeze_config_get_string(cfg, unit_opt, "", &spec);
        if (!spec[0])
            continue;
        int en, units, lat, idoc, ocex, used = 0;
        if (sscanf(spec, "%d,%d,%d,%d,%d,%n", &en, &units, &lat, &idoc, &ocex, &used) != 5 ||
            !used || !spec[used] || en < 0 || en > 1 || units < 1 || units > 64 || lat < 1 ||
            idoc < 1 || idoc > 64 || ocex < 1 || ocex > 64)
            return trapeze_config_fail(cfg, unit_opt, err,
                                       "'%s': expected enabled (0/1),units,max latency,ID_OC "
                                       "width,OC_EX width,name (e.g. 1,4,4,4,4,BRA)", spec);
        if (!en)
            continue;
        c->spec_n[u] = units;
        c->oc.idoc_w[sim_oc_spec_kind(u)] = idoc;
        c->oc.ocex_w[sim_oc_spec_kind(u)] = ocex;
    }
    return TRAPEZE_OK;
}

/* -gpgpu_cache:il1 (GPGPU-Sim's cache spec; the I-cache reads its geometry
 * and MSHR entries) and -gpgpu_inst_fetch_throughput. */
static trapeze_status read_ifetch(const trapeze_config *cfg, sim_core_config *c,
                                  trapeze_error *err)
{
    const char *spec;
    long v;
    trapeze_status s = get_pos(cfg, "gpgpu_inst_fetch_throughput", &v, err);
    if (s)
        return s;
    c->ifetch.throughput = (int)v;
    long perfect;
    if ((s = get_pos(cfg, "gpgpu_perfect_inst_const_cache", &perfect, err)))
        return s;
    trapeze_config_get_string(cfg, "gpgpu_cache:il1", "", &spec);
    if (!spec[0])
        return TRAPEZE_OK;
    char kind, mshr_kind;
    int sets, line, assoc, used = 0, mshr = 0, merge = 0;
    if (sscanf(spec, "%c:%d:%d:%d%n", &kind, &sets, &line, &assoc, &used) != 4 ||
        (kind != 'N' && kind != 'S') || sets < 1 || sets > 4096 || assoc < 1 || assoc > 64 ||
        line < 16 || line > 4096 || (line & (line - 1)))
        return trapeze_config_fail(cfg, "gpgpu_cache:il1", err,
                                   "'%s': expected N:sets:line:assoc,... (line a power of 2 "
                                   "from 16 to 4096, at most 4096 sets and 64 ways)", spec);
    /* the MSHR field is the third comma-separated one: S:entries:merge */
    const char *f = strchr(spec, ',');
    f = f ? strchr(f + 1, ',') : NULL;
    if (!f || sscanf(f + 1, "%c:%d:%d", &mshr_kind, &mshr, &merge) != 3 || mshr < 1 ||
        mshr > 64)
        return trapeze_config_fail(cfg, "gpgpu_cache:il1", err,
                                   "'%s': expected an MSHR field (S:entries:merge, 1 to 64 "
                                   "entries) after the policy field", spec);
    c->ifetch = (sim_ifetch_config){1, sets, line, assoc, mshr, c->ifetch.throughput,
                                    (int)perfect};
    return TRAPEZE_OK;
}

/* An integer option of sim_core_options: its default and range from its row. */
static trapeze_status get_pos(const trapeze_config *cfg, const char *option, long *out,
                              trapeze_error *err)
{
    return trapeze_opt_int(cfg, sim_core_options, option, out, err);
}

/* ":6:0:1" into v[0..max): how many integers; -1 when not that shape. */
static int colon_ints(const char *s, int *v, int max)
{
    int n = 0, used = 0;
    while (*s && n < max && sscanf(s, ":%d%n", &v[n], &used) == 1) {
        s += used;
        n++;
    }
    return *s ? -1 : n;
}

/* The row of SIM_SCHED_TABLE that v names with its arguments (as many
 * integers as the row's ":" fields) into v[]; -1 when none. */
static int find_scheduler(const char *v, int args[3])
{
#define ROW_(id, name, a, help) {name, a},
    static const struct { const char *name, *args; } rows[SIM_SCHED_COUNT] = {
        SIM_SCHED_TABLE(ROW_)};
#undef ROW_
    for (int k = 0; k < SIM_SCHED_COUNT; k++) {
        size_t len = strlen(rows[k].name);
        int want = 0;
        for (const char *a = rows[k].args; *a; a++)
            want += *a == ':';
        if (!strncmp(v, rows[k].name, len) && colon_ints(v + len, args, 3) == want)
            return k;
    }
    return -1;
}

/* A row of SIM_SCHED_TABLE: lrr, gto, GPGPU-Sim's
 * two_level_active:N:INNER:OUTER (inner 0 LRR or 2 GTO, outer 1: the
 * pending warps in turn) and Chen's locality_two_level:N. */
static trapeze_status read_scheduler(const trapeze_config *cfg, const char *v,
                                     sim_core_config *c, trapeze_error *err)
{
    int a[3] = {0, 0, 1};
    int k = find_scheduler(v, a);
    if (k < 0)
        return trapeze_config_fail(cfg, "gpgpu_scheduler", err,
                                   "'%s' is not a scheduler this simulator has (" SIM_SCHED_NAMES
                                   ")", v);
    c->sched = (sim_sched_kind)k;
    int n = a[0], inner = a[1], outer = a[2];
    if (c->sched == SIM_SCHED_TWO_LEVEL) {
        if (inner != 0 && inner != 2)
            return trapeze_config_fail(cfg, "gpgpu_scheduler", err,
                                       "two_level_active inner policy %d: 0 (LRR) or 2 (GTO)",
                                       inner);
        if (outer != 1)
            return trapeze_config_fail(cfg, "gpgpu_scheduler", err,
                                       "two_level_active outer policy %d: only 1 (pending warps "
                                       "in turn)", outer);
        c->inner_gto = inner == 2;
    }
    if ((c->sched == SIM_SCHED_TWO_LEVEL || c->sched == SIM_SCHED_LOCALITY) &&
        (n < 1 || n > c->max_warps))
        return trapeze_config_fail(cfg, "gpgpu_scheduler", err,
                                   "%d active warps: between 1 and %d", n, c->max_warps);
    c->active_warps = n;
    return TRAPEZE_OK;
}

const char *const sim_ldst_sched_names[SIM_LDST_COUNT] = {"fifo", "fixed", "rr", "grr"};

/* -trapeze_ldst_sched and its queues, parsed into the enum once. */
static trapeze_status read_ldst_sched(const trapeze_config *cfg, sim_core_config *c,
                                      trapeze_error *err)
{
    const char *name;
    trapeze_config_get_string(cfg, "trapeze_ldst_sched", "fifo", &name);
    int found = -1;
    for (int i = 0; i < SIM_LDST_COUNT; i++)
        if (!strcmp(name, sim_ldst_sched_names[i]))
            found = i;
    if (found < 0)
        return trapeze_config_fail(cfg, "trapeze_ldst_sched", err,
                                   "unknown policy '%s' (fifo, fixed, rr, grr)", name);
    c->ldst_sched = (sim_ldst_sched)found;
    long v;
    trapeze_status s;
    if ((s = trapeze_opt_int(cfg, sim_core_options, "trapeze_ldst_queue_depth", &v, err)))
        return s;
    c->ldst_depth = (int)v;
    if ((s = trapeze_opt_int(cfg, sim_core_options, "trapeze_ldst_probes", &v, err)))
        return s;
    c->ldst_probes = (int)v;
    return TRAPEZE_OK;
}

/* -trapeze_tb_dispatch NAME (a row of TRAPEZE_TB_DISPATCH_TABLE) and, for
 * explicit, -trapeze_tb_grouping FILE (read when a kernel launches: its TB
 * count). */
static trapeze_status read_tb_dispatch(const trapeze_config *cfg, sim_core_config *c,
                                       trapeze_error *err)
{
    const char *d, *file;
    trapeze_config_get_string(cfg, "trapeze_tb_dispatch", SIM_TB_DEFAULT_NAME, &d);
    trapeze_config_get_string(cfg, "trapeze_tb_grouping", "", &file);
    int found = trapeze_tb_policy_find(d);
    if (found < 0)
        return trapeze_config_fail(cfg, "trapeze_tb_dispatch", err,
                                   "'%s' is not a TB dispatch policy (" SIM_TB_NAMES ")", d);
    c->tb_dispatch = (sim_tb_dispatch)found;
    if (strlen(file) >= sizeof c->tb_grouping)
        return trapeze_config_fail(cfg, "trapeze_tb_grouping", err, "path too long");
    strcpy(c->tb_grouping, file);
    c->tb_grouping_named_by_config = file[0] != '\0';
    if (trapeze_tb_policies[found].kind == TRAPEZE_TB_GIVEN && !file[0])
        return trapeze_config_fail(cfg, "trapeze_tb_dispatch", err,
                                   "%s needs -trapeze_tb_grouping FILE", d);
    return TRAPEZE_OK;
}

static const char *const dws_mem_names[SIM_DWS_MEM_COUNT] = {"off", "aggress", "lazy",
                                                             "revive"};
static const char *const dws_reconv_names[SIM_DWS_RECONV_COUNT] = {"limited", "bypass"};

/* The index of v in names[n], or -1. */
static int name_index(const char *const *names, int n, const char *v)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i]))
            return i;
    return -1;
}

/* -trapeze_dws_*: Dynamic Warp Subdivision, parsed once into c->dws. */
static trapeze_status read_dws(const trapeze_config *cfg, sim_core_config *c, trapeze_error *err)
{
    sim_dws_config *d = &c->dws;
    long v;
    trapeze_status s;
    if ((s = trapeze_opt_int(cfg, sim_core_options, "trapeze_dws_branch", &v, err)))
        return s;
    d->branch = (int)v;
    if ((s = trapeze_opt_int(cfg, sim_core_options, "trapeze_dws_wst", &v, err)))
        return s;
    d->wst = (int)v;
    if ((s = trapeze_opt_int(cfg, sim_core_options, "trapeze_dws_post_block", &v, err)))
        return s;
    d->post_block = (int)v;
    const char *mem, *reconv;
    trapeze_config_get_string(cfg, "trapeze_dws_mem", "off", &mem);
    trapeze_config_get_string(cfg, "trapeze_dws_reconv", "limited", &reconv);
    int m = name_index(dws_mem_names, SIM_DWS_MEM_COUNT, mem);
    if (m < 0)
        return trapeze_config_fail(cfg, "trapeze_dws_mem", err,
                                   "'%s' is not a subdivision policy (off, aggress, lazy, revive)",
                                   mem);
    int r = name_index(dws_reconv_names, SIM_DWS_RECONV_COUNT, reconv);
    if (r < 0)
        return trapeze_config_fail(cfg, "trapeze_dws_reconv", err,
                                   "'%s' is not a re-convergence policy (limited, bypass)", reconv);
    d->mem = (sim_dws_mem)m;
    d->reconv = (sim_dws_reconv)r;
    d->on = d->branch || d->mem != SIM_DWS_MEM_OFF;
    if ((s = trapeze_opt_int_or(cfg, sim_core_options, "trapeze_dws_hit_cycles", 0, &v, err)))
        return s;
    long l1 = 1;   /* the default reads the L1 latency only with DWS on: without it, that
                    * option's errors stay the memory reader's */
    if (!v && d->on && (s = trapeze_opt_int(cfg, sim_mem_options, "gpgpu_l1_latency", &l1, err)))
        return s;
    d->hit_cycles = v ? (int)v : 2 * (int)l1;
    return TRAPEZE_OK;
}

/* -trapeze_rsimd_*: Robust SIMD, parsed once into c->rsimd (after c->dws:
 * RobustDWS uses DWS's policies, which otherwise would split slices). */
static trapeze_status read_rsimd(const trapeze_config *cfg, sim_core_config *c,
                                 trapeze_error *err)
{
    static const char *const names[] = {"trapeze_rsimd_width", "trapeze_rsimd_depth",
                                        "trapeze_rsimd_adapt", "trapeze_rsimd_dws",
                                        "trapeze_rsimd_min_intervals"};
    sim_rsimd_config *r = &c->rsimd;
    int *dst[] = {&r->width, &r->depth, &r->adapt, &r->dws, &r->min_intervals};
    long v;
    trapeze_status s;
    for (int i = 0; i < 5; i++) {
        if ((s = trapeze_opt_int(cfg, sim_core_options, names[i], &v, err)))
            return s;
        *dst[i] = (int)v;
    }
    if ((s = trapeze_opt_int_or(cfg, sim_core_options, "trapeze_rsimd_interval", 0, &v, err)))
        return s;
    r->interval = v ? (int)v : 2 * c->gpu.max_threads_per_sm;
    r->on = r->width < 32 || r->depth || r->adapt || r->dws;
    if (r->dws && !c->dws.on)
        return trapeze_config_fail(cfg, "trapeze_rsimd_dws", err,
                                   "RobustDWS needs a DWS policy to try (-trapeze_dws_branch 1 or "
                                   "-trapeze_dws_mem)");
    if (r->on && c->dws.on && !r->dws)
        return trapeze_config_fail(cfg, "trapeze_dws_mem", err,
                                   "DWS with Robust SIMD splits only in RobustDWS's trial at full "
                                   "width: set -trapeze_rsimd_dws 1");
    return TRAPEZE_OK;
}

trapeze_status sim_core_config_read(const trapeze_config *cfg, sim_core_config *c,
                                    trapeze_error *err)
{
    memset(c, 0, sizeof *c);
    trapeze_status s = trapeze_gpu_from_config(cfg, &c->gpu, err);
    if (s)
        return s;
    if (c->gpu.warp_size != SIM_WARP_LANES)
        return trapeze_config_fail(cfg, "gpgpu_shader_core_pipeline", err,
                                   "the simulator models 32-thread warps, not %d",
                                   c->gpu.warp_size);
    c->max_warps = c->gpu.max_threads_per_sm / c->gpu.warp_size;
    if (c->max_warps < 1 || c->max_warps > 255)
        return trapeze_config_fail(cfg, "gpgpu_shader_core_pipeline", err,
                                   "between 1 and 255 warps per SM are supported");
    long v;
    if ((s = get_pos(cfg, "gpgpu_num_sched_per_core", &v, err)))
        return s;
    c->n_sched = (int)v;
    if ((s = get_pos(cfg, "gpgpu_max_insn_issue_per_warp", &v, err)))
        return s;
    c->max_issue = (int)v;
    if ((s = get_pos(cfg, "gpgpu_dual_issue_diff_exec_units", &v, err)))
        return s;
    c->dual_diff_units = (int)v;
    const char *sched;
    trapeze_config_get_string(cfg, "gpgpu_scheduler", SIM_SCHED_DEFAULT(SIM_SCHED_FIRST_),
                              &sched);
    if ((s = read_scheduler(cfg, sched, c, err)))
        return s;
    static const char *const unit_opt[4] = {"gpgpu_num_sp_units", "gpgpu_num_sfu_units",
                                            "gpgpu_num_int_units", "gpgpu_num_dp_units"};
    int *const units[4] = {&c->n_sp, &c->n_sfu, &c->n_int, &c->n_dp};
    for (int i = 0; i < 4; i++) {   /* the DP count unset (-1) is not 0, below */
        if ((s = i < 3 ? get_pos(cfg, unit_opt[i], &v, err)
                       : trapeze_opt_int_or(cfg, sim_core_options, unit_opt[i], -1, &v, err)))
            return s;
        *units[i] = v < 0 ? 0 : (int)v;
    }
    c->dp_on_sfu = c->n_dp == 0 && v == 0;   /* GPGPU-Sim's Fermi: DP on the SFUs */
    static const char *const lat_opt[4] = {"ptx_opcode_latency_int", "ptx_opcode_latency_fp",
                                           "ptx_opcode_latency_dp", "ptx_opcode_latency_sfu"};
    static const char *const init_opt[4] = {
        "ptx_opcode_initiation_int", "ptx_opcode_initiation_fp", "ptx_opcode_initiation_dp",
        "ptx_opcode_initiation_sfu"};
    c->shfl_lat = default_lat[0][SIM_ALU_ADD];
    c->shfl_init = default_init[0][SIM_ALU_ADD];
    for (int i = 0; i < 4; i++) {
        int n_expected = i == 3 ? 1 : SIM_ALU_COUNT;
        if ((s = read_list(cfg, lat_opt[i], c->lat[i], default_lat[i], n_expected,
                           i == 0 ? &c->shfl_lat : NULL, err)) ||
            (s = read_list(cfg, init_opt[i], c->init[i], default_init[i], n_expected,
                           i == 0 ? &c->shfl_init : NULL, err)))
            return s;
    }
    if ((s = read_trace_latencies(cfg, c, err)))
        return s;
    if ((s = get_pos(cfg, "gpgpu_smem_latency", &v, err)))
        return s;
    c->smem_latency = (int)v;
    if ((s = get_pos(cfg, "gpgpu_shmem_num_banks", &v, err)))
        return s;
    c->shmem_banks = (int)v;
    if ((s = get_pos(cfg, "gpgpu_num_reg_banks", &v, err)))
        return s;
    c->reg_banks = (int)v;
    if ((s = read_spec_units(cfg, c, err)) || (s = read_oc(cfg, c, err)))
        return s;
    if ((s = get_pos(cfg, "gpgpu_coalesce_arch", &v, err)))
        return s;
    c->sector_accesses = v >= 40;
    if ((s = read_ifetch(cfg, c, err)))
        return s;
    /* default: 5 microseconds of core clock, rounded; GPGPU-Sim's own
     * option, or Trapeze's older name for it */
    long launch_default = lround(5e-6 * c->gpu.core_clock_hz);
    if ((s = trapeze_opt_int_or(cfg, sim_core_options, "gpgpu_kernel_launch_latency",
                                launch_default, &launch_default, err)) ||
        (s = trapeze_opt_int_or(cfg, sim_core_options, "trapeze_kernel_launch_latency",
                                launch_default, &v, err)))
        return s;
    c->launch_latency = (uint64_t)v;
    if ((s = get_pos(cfg, "trapeze_max_cycles", &v, err)))
        return s;
    c->max_cycles = (uint64_t)v;
    if ((s = trapeze_opt_int_or(cfg, sim_core_options, "trapeze_window_warp_insts", 0, &v, err)))
        return s;
    c->window_warp_insts = (uint64_t)v;
    if ((s = trapeze_opt_int_or(cfg, sim_core_options, "trapeze_window_groups", 0, &v, err)))
        return s;
    c->window_groups = v;
    if ((s = trapeze_opt_int_or(cfg, sim_core_options, "trapeze_window_first_block", 0, &v, err)))
        return s;
    c->window_first_block = v;
    /* No progress for a million cycles is a hang: a warp that waits this
     * long for one load would need thousands of requests queued ahead of
     * it. The longest stretch without progress measured over the test
     * suite and a sweep of the four stencils on the GTX 280 is 1,525
     * cycles (gbarrier on the GTX 280), 650 times shorter. */
    if ((s = get_pos(cfg, "trapeze_hang_cycles", &v, err)))
        return s;
    c->hang_cycles = (uint64_t)v;
    if ((s = read_ldst_sched(cfg, c, err)))
        return s;
    if ((s = read_dws(cfg, c, err)) || (s = read_rsimd(cfg, c, err)))
        return s;
    return read_tb_dispatch(cfg, c, err);
}

size_t sim_config_unknown(const trapeze_config *cfg, const char **names, size_t max)
{
    const trapeze_opt *const tables[] = {trapeze_gpu_options, sim_core_options,
                                         sim_mem_options, sim_sleep_options};
    return trapeze_opt_unknown(cfg, tables, 4, names, max);
}

int sim_occupancy(const sim_core_config *c, const sim_kernel *k, const char **why)
{
    int ws = c->gpu.warp_size;
    int threads = sim_kernel_block_threads(k);
    int warps = (threads + ws - 1) / ws;
    int regs = ((k->regs_per_thread + 3) & ~3) * warps * ws;   /* GPGPU-Sim rounds to 4 */
    const char *limit = "ctas";
    int n = c->gpu.max_blocks_per_sm;
    int by_threads = c->gpu.max_threads_per_sm / threads;
    int by_warps = c->max_warps / warps;
    int by_regs = regs ? c->gpu.regs_per_sm / regs : n;
    int by_shmem = k->shmem_bytes ? c->gpu.shmem_per_sm / k->shmem_bytes : n;
    if (threads > c->gpu.max_threads_per_block)
        by_threads = 0;
    if (k->shmem_bytes > c->gpu.shmem_per_block)
        by_shmem = 0;
    if (by_threads < n) { n = by_threads; limit = "threads"; }
    if (by_warps < n) { n = by_warps; limit = "warps"; }
    if (by_regs < n) { n = by_regs; limit = "registers"; }
    if (by_shmem < n) { n = by_shmem; limit = "shared memory"; }
    if (why)
        *why = limit;
    return n < 0 ? 0 : n;
}
