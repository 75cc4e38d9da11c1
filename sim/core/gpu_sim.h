/*
 * gpu_sim.h - the whole-GPU simulator's API: read the SM side of a
 * gpgpusim.config, run kernels (one, or a sequence with a launch latency
 * between them), collect per-kernel and per-SM statistics.
 *
 * The SM side lives in sim/core/ (dispatch, schedulers, scoreboard,
 * functional units, LDST unit, barriers); the memory system behind each SM's
 * L1D port is sim/mem/ (sim/memsys.h), reached through a sim_mem_port so that
 * tests can substitute an ideal fixed-latency memory.
 */
#ifndef TRAPEZE_SIM_CORE_GPU_SIM_H
#define TRAPEZE_SIM_CORE_GPU_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "common/options.h"

#include "sim/events.h"
#include "sim/kernel.h"
#include "sim/mem/mem_stats.h"
#include "sim/memsys.h"
#include "sim/power/energy.h"
#include "trapeze.h"

/* ------------------------------------------------------------ SM config */

/* Warp schedulers (-gpgpu_scheduler), one row each: X(ID, name, arguments,
 * help), the arguments as the option writes them (":N..." integers, N the
 * active warps). The enum and the option's default, help, parsing and
 * error derive from the rows (core_config.c); the first row is the
 * default. Each picks in sim/core/sm.c (sched.c, sched_two_level.h). */
#define SIM_SCHED_DEFAULT(X) X(LRR, "lrr", "", "loose round-robin")
#define SIM_SCHED_OTHERS(X) \
    X(GTO, "gto", "", "greedy then oldest") \
    X(TWO_LEVEL, "two_level_active", ":N:0|2:1", \
      "N active warps fed from a pending FIFO (Narasiman, Gebhart); inner 0 LRR, 2 GTO") \
    X(LOCALITY, "locality_two_level", ":N", "Chen 2016's locality-aware two-level scheduler")
#define SIM_SCHED_TABLE(X) SIM_SCHED_DEFAULT(X) SIM_SCHED_OTHERS(X)
#define SIM_SCHED_ENUM_(id, name, args, help) SIM_SCHED_##id,
typedef enum { SIM_SCHED_TABLE(SIM_SCHED_ENUM_) SIM_SCHED_COUNT } sim_sched_kind;
#undef SIM_SCHED_ENUM_
/* "lrr, gto, two_level_active:N:0|2:1, ...": the rows as the option writes them */
#define SIM_SCHED_FIRST_(id, name, args, help) name args
#define SIM_SCHED_NEXT_(id, name, args, help) ", " name args
#define SIM_SCHED_NAMES SIM_SCHED_DEFAULT(SIM_SCHED_FIRST_) SIM_SCHED_OTHERS(SIM_SCHED_NEXT_)
/* TB dispatch policies (-trapeze_tb_dispatch): the rows of
 * TRAPEZE_TB_DISPATCH_TABLE (trapeze.h), in its order; sim/core/dispatch*.c */
#define SIM_TB_ENUM_(id, name, ops, kind, help) SIM_TB_##id,
typedef enum { TRAPEZE_TB_DISPATCH_TABLE(SIM_TB_ENUM_) SIM_TB_COUNT } sim_tb_dispatch;
#undef SIM_TB_ENUM_
/* "rr, bcs, ...": every name in table order, a string literal (the option's
 * help and errors); SIM_TB_DEFAULT_NAME the first row's */
#define SIM_TB_FIRST_(id, name, ops, kind, help) name
#define SIM_TB_NEXT_(id, name, ops, kind, help) ", " name
#define SIM_TB_DEFAULT_NAME TRAPEZE_TB_DISPATCH_DEFAULT(SIM_TB_FIRST_)
#define SIM_TB_NAMES SIM_TB_DEFAULT_NAME TRAPEZE_TB_DISPATCH_OTHERS(SIM_TB_NEXT_)
const char *sim_tb_dispatch_name(sim_tb_dispatch d);
/* Dynamic Warp Subdivision's memory-divergence policies (-trapeze_dws_mem;
 * sim/core/dws.c) and its re-convergence policies (-trapeze_dws_reconv) */
typedef enum {
    SIM_DWS_MEM_OFF,       /* off: no split on a partial hit */
    SIM_DWS_MEM_AGGRESS,   /* aggress: AggressSplit, at every memory divergence */
    SIM_DWS_MEM_LAZY,      /* lazy: LazySplit, only when every other warp waits on memory */
    SIM_DWS_MEM_REVIVE,    /* revive: LazySplit, and a stalled SM splits one waiting warp */
    SIM_DWS_MEM_COUNT
} sim_dws_mem;
typedef enum {
    SIM_DWS_LIMITED,       /* limited: BranchLimited, a memory split waits at the next branch */
    SIM_DWS_BYPASS,        /* bypass: BranchBypass, it runs on across branches */
    SIM_DWS_RECONV_COUNT
} sim_dws_reconv;
typedef struct sim_dws_config {
    int on;                /* any split enabled (branch or mem) */
    int branch;            /* -trapeze_dws_branch: split at selected divergent branches */
    sim_dws_mem mem;       /* -trapeze_dws_mem */
    sim_dws_reconv reconv; /* -trapeze_dws_reconv */
    int wst;               /* -trapeze_dws_wst: warp-split table entries per SM */
    int hit_cycles;        /* -trapeze_dws_hit_cycles: a load's data back this soon after
                            * its offer was an L1 hit (default: twice -gpgpu_l1_latency) */
    int post_block;        /* -trapeze_dws_post_block: a program branch is selected when the
                            * block after its post-dominator has at most this many
                            * instructions */
} sim_dws_config;
/* Robust SIMD (-trapeze_rsimd_*; sim/core/rsimd.c): warps cut into slices of
 * `width` neighbouring lanes, `depth` slices (or whole warps) active per SM */
typedef struct sim_rsimd_config {
    int on;                /* any option set: width < 32, depth, adapt or dws */
    int width;             /* -trapeze_rsimd_width: lanes per slice (32: whole warps) */
    int depth;             /* -trapeze_rsimd_depth: active slices per SM (0: all) */
    int adapt;             /* -trapeze_rsimd_adapt: search (W x D) over sampled intervals */
    int interval;          /* -trapeze_rsimd_interval: finished threads per interval
                            * (default: twice the threads an SM holds) */
    int min_intervals;     /* -trapeze_rsimd_min_intervals: a kernel with fewer per SM
                            * keeps (width x depth) without adapting */
    int dws;               /* -trapeze_rsimd_dws: RobustDWS, then try DWS at full width */
} sim_rsimd_config;
typedef enum { SIM_UNIT_SP, SIM_UNIT_SFU, SIM_UNIT_LDST, SIM_UNIT_NONE } sim_fu;
/* The LDST unit's global accesses (-trapeze_ldst_sched; sim/core/ldst_sched.c) */
typedef enum {
    SIM_LDST_FIFO,     /* fifo: one memory instruction at a time, its requests in order */
    SIM_LDST_FIXED,    /* per-warp queues (Choo ch. 6), the lowest slots first */
    SIM_LDST_RR,       /* per-warp queues, one head probed a cycle, slots in turn */
    SIM_LDST_GRR,      /* per-warp queues, k consecutive heads probed a cycle, groups in turn */
    SIM_LDST_COUNT
} sim_ldst_sched;
extern const char *const sim_ldst_sched_names[SIM_LDST_COUNT];

/* Pipeline kinds: which ID_OC / OC_EX registers and units serve an
 * instruction (INT, FP, DP and branches: SP; SFU; memory; branches on
 * specialized unit 1 when a config has it: SPEC; INT and DP on their own
 * units when a config has them: INT, DP; specialized units 2..8: SPEC2 + N - 2;
 * all but the first three through the generic collector units only). */
enum { SIM_OC_SP, SIM_OC_SFU, SIM_OC_MEM, SIM_OC_SPEC, SIM_OC_INT, SIM_OC_DP, SIM_OC_SPEC2,
       SIM_OC_KINDS = SIM_OC_SPEC2 + SIM_SPEC_UNITS - 1 };

/* The pipeline kind of specialized unit n (1..SIM_SPEC_UNITS). */
static inline int sim_oc_spec_kind(int n)
{
    return n == 1 ? SIM_OC_SPEC : SIM_OC_SPEC2 + n - 2;
}

/* The operand collector and sub-cores (sim/core/opndcoll.c), GPGPU-Sim's
 * options; on == 0 (no -gpgpu_operand_collector_* option and no
 * -gpgpu_sub_core_model 1): instructions go from issue straight to their
 * unit, as before. */
typedef struct sim_oc_config {
    int on;
    int sub_core;                  /* -gpgpu_sub_core_model */
    int specialized;               /* -gpgpu_enable_specialized_operand_collector */
    int units[6], in_ports[6], out_ports[6];   /* sp, sfu, mem, gen, dp, int:
                                    * -gpgpu_operand_collector_num_{units,in_ports,out_ports}_* */
    int port_throughput;           /* -gpgpu_reg_file_port_throughput */
    int idoc_w[SIM_OC_KINDS], ocex_w[SIM_OC_KINDS];
                                   /* per pipeline kind (SIM_OC_*): -gpgpu_pipeline_widths'
                                    * ID_OC_, OC_EX_ SP, SFU, MEM, INT and DP (their units'
                                    * option > 0); the specialized units' from their
                                    * -specialized_unit_N */
} sim_oc_config;

/* Instruction fetch through an I-cache (sim/core/fetch.c); on == 0 (no
 * -gpgpu_cache:il1): a warp's next instruction is always there, as before. */
typedef struct sim_ifetch_config {
    int on;
    int sets, line, assoc;         /* -gpgpu_cache:il1 N:sets:line:assoc,...,S:mshr:merge */
    int mshr;                      /* line fills outstanding at most */
    int throughput;                /* -gpgpu_inst_fetch_throughput: fetches per cycle */
    int perfect;                   /* -gpgpu_perfect_inst_const_cache: every fetch hits */
} sim_ifetch_config;

typedef struct sim_core_config {
    trapeze_gpu gpu;               /* n_sm, warp size, per-SM limits */
    int max_warps;                 /* threads per SM / warp size */
    int n_sched;                   /* -gpgpu_num_sched_per_core */
    int max_issue;                 /* -gpgpu_max_insn_issue_per_warp: 1 or 2 a warp per cycle */
    int dual_diff_units;           /* -gpgpu_dual_issue_diff_exec_units: the pair's units differ */
    sim_sched_kind sched;          /* -gpgpu_scheduler */
    int active_warps;              /* two-level: active set size per scheduler */
    int inner_gto;                 /* two-level: GTO (1) or LRR (0) among the active */
    int n_sp, n_sfu;               /* -gpgpu_num_sp_units, -gpgpu_num_sfu_units */
    int n_int, n_dp;               /* -gpgpu_num_int_units, -gpgpu_num_dp_units: 0, integer
                                    * and double instructions share the SP units */
    int dp_on_sfu;                 /* -gpgpu_num_dp_units set to 0 (SM2_GTX480): double
                                    * instructions run on the SFU units, as in GPGPU-Sim */
    int spec_n[SIM_SPEC_UNITS + 1];   /* -specialized_unit_N E,UNITS,...: units of
                                    * specialized unit N (1..8; 0: off, its instructions run
                                    * on their class's units). Unit 1 runs the branches, the
                                    * others the trace opcodes of sim_trace_opcode.unit N */
    int spec_lat[SIM_SPEC_UNITS + 1], spec_init[SIM_SPEC_UNITS + 1];
                                   /* -trace_opcode_latency_initiation_spec_op_N */
    int lat[4][SIM_ALU_COUNT];     /* [int, fp, dp, sfu][alu] -ptx_opcode_latency_* */
    int init[4][SIM_ALU_COUNT];    /* -ptx_opcode_initiation_*; a trace.config's
                                    * -trace_opcode_latency_initiation_{int,sp,dp,sfu}
                                    * L,I sets a whole row (Accel-Sim's trace mode) */
    int shfl_lat, shfl_init;       /* 6th value of the _int lists (SHFL); SHFL runs as INT ADD */
    int smem_latency;              /* -gpgpu_smem_latency */
    int shmem_banks;               /* -gpgpu_shmem_num_banks */
    int sector_accesses;           /* -gpgpu_coalesce_arch >= 40 (Maxwell on): a warp's global
                                      load or store is one request per 32-byte sector */
    int reg_banks;                 /* -gpgpu_num_reg_banks (default 16) */
    sim_oc_config oc;              /* operand collector, sub-cores */
    sim_ifetch_config ifetch;      /* instruction fetch, I-cache */
    uint64_t launch_latency;       /* -gpgpu_kernel_launch_latency (alias
                                    * -trapeze_kernel_launch_latency), core cycles */
    uint64_t max_cycles;           /* -trapeze_max_cycles: abort a kernel that runs longer */
    long window_groups;            /* -trapeze_window_groups: 0, or a group-list policy
                                    * (explicit, mst, kway, rbts) runs only its first N
                                    * groups, each on its SM (a sample's sub-grid) */
    long window_first_block;       /* -trapeze_window_first_block: 0, or round-robin
                                    * dispatch starts at this block of the grid and the
                                    * launch ends when blocks N.. are done (a sample's
                                    * later window, sim/sample/jump_window.c) */
    uint64_t window_warp_insts;    /* -trapeze_window_warp_insts: 0, or stop a launch at the
                                    * end of the cycle in which its SMs have issued this many
                                    * warp instructions (a short sample of it) */
    uint64_t hang_cycles;          /* -trapeze_hang_cycles: abort a kernel without progress
                                    * for longer (see sim_gpu_run) */
    sim_tb_dispatch tb_dispatch;   /* -trapeze_tb_dispatch */
    sim_ldst_sched ldst_sched;     /* -trapeze_ldst_sched */
    int ldst_depth, ldst_probes;   /* -trapeze_ldst_queue_depth, -trapeze_ldst_probes */
    sim_dws_config dws;            /* -trapeze_dws_*: Dynamic Warp Subdivision (sim/core/dws.c) */
    sim_rsimd_config rsimd;        /* -trapeze_rsimd_*: Robust SIMD (sim/core/rsimd.c) */
    char tb_grouping[512];         /* -trapeze_tb_grouping: the explicit policy's file */
    int tb_grouping_named_by_config; /* 1: the file came from the config (a config can name
                                      * any file: its errors never show its contents) */
} sim_core_config;

/* The SM-side options, one row each (name, type, default, range, help). */
extern const trapeze_opt sim_core_options[];
/* Options of cfg that no table of the simulator or the GPU summary lists:
 * what a run ignores (how many; at most max names written). */
size_t sim_config_unknown(const trapeze_config *cfg, const char **names, size_t max);
trapeze_status sim_core_config_read(const trapeze_config *cfg, sim_core_config *out,
                                    trapeze_error *err);

/* Resident blocks of k per SM and the resource that limits it
 * ("threads", "warps", "ctas", "registers", "shared memory"); 0 when one
 * block does not fit (why says which resource). */
int sim_occupancy(const sim_core_config *c, const sim_kernel *k, const char **why);

/* ------------------------------------------------------------ memory port */

/* The memory system as the SM sees it; sim_mem_port_real() wraps sim/mem. */
typedef struct sim_mem_port_ops {
    sim_mem_outcome (*access)(void *m, const sim_mem_request *req, uint64_t cycle,
                              sim_fail_cause *cause);
    /* pops one completion due at `cycle` of the first SM from `from` on that
     * has one and returns that SM, or the SM count when none has
     * (sim_memsys_pop_next): called again from the SM returned, it pops SM
     * by SM, one call a completion */
    int (*pop_next)(void *m, int from, uint64_t cycle, sim_mem_request *done);
    void (*cycle)(void *m, uint64_t cycle);
    uint64_t (*outstanding)(const void *m);
    uint64_t (*next_event)(const void *m, uint64_t cycle);
    void (*poke)(void *m, uint64_t addr, uint32_t value);
    uint32_t (*peek)(const void *m, uint64_t addr);
    void (*flush_l1)(void *m);
    void (*reset_stats)(void *m);
    const sim_mem_stats *(*stats)(void *m);   /* NULL when the port keeps none */
    void (*destroy)(void *m);
    /* the L1/shared carve-out for a kernel using `shmem` bytes per SM; NULL
     * when the port has no L1 to carve */
    void (*carve_l1)(void *m, long shmem);
    /* which of one warp load's requests bypass the L1 (sim_memsys_select);
     * NULL when the port has no L1 to choose for */
    void (*select)(void *m, sim_mem_request *const *reqs, int n);
    /* probe the L1 at once, paying its latency after, its latency queue's
     * stages held (sim_memsys_probe): the per-warp queues probe heads that
     * may be refused; NULL: access */
    sim_mem_outcome (*probe)(void *m, const sim_mem_request *req, uint64_t cycle,
                             sim_fail_cause *cause);
} sim_mem_port_ops;

typedef struct sim_mem_port {
    const sim_mem_port_ops *ops;
    void *self;
    int ports;     /* accesses the LDST unit may offer per cycle (-gpgpu_l1_banks); 0: 1 */
} sim_mem_port;

/* An ideal memory: every request completes `latency` core cycles after it is
 * accepted, nothing is ever refused. For tests and for isolating the SM. */
trapeze_status sim_mem_port_ideal(int n_sm, int latency, sim_mem_port *out, trapeze_error *err);
/* The real memory system (sim/mem) for cfg. */
trapeze_status sim_mem_port_real(const trapeze_config *cfg, int n_sm, sim_events *events,
                                 sim_mem_port *out, trapeze_error *err);

/* ------------------------------------------------------------ statistics */

/* Why a warp scheduler issued nothing in a cycle (one reason per scheduler
 * cycle; precedence memory > compute > fence > barrier > idle among its
 * warps). memory: a source register awaits a load, or the LDST unit is busy
 * or refused; compute: a source awaits an ALU result or every unit of the
 * class is inside its initiation interval; idle: no warp to run. */
typedef enum {
    SIM_STALL_MEMORY, SIM_STALL_COMPUTE, SIM_STALL_FENCE, SIM_STALL_BARRIER, SIM_STALL_IDLE,
    SIM_STALL_COUNT
} sim_stall;

/* The SM's counters, declared once. Each line generates a field of
 * sim_sm_stats, its CSV column(s) (sim/core/stats.c, in this order) and how
 * the SMs' values combine into a kernel's total (gpu_sim.c):
 *   SCALAR(field, "csv_name", SUM|MAX)   one counter;
 *   ARRAY(field, N, "csv_prefix", names, first, SUM)   N counters, columns
 *     csv_prefix + names[i] for i >= first (refused[0], "none", is no column).
 * A csv_name of "" marks a counter written elsewhere in the row (the lead
 * warp_instructions, the per-SM blocks columns). */
#define SIM_SM_COUNTERS(SCALAR, ARRAY)                                              \
    SCALAR(warp_insts, "", SUM)           /* issued warp instructions */            \
    SCALAR(thread_insts, "thread_instructions", SUM) /* sum of active lanes */      \
    SCALAR(issue_slots, "issue_slots", SUM)   /* scheduler cycles that issued */    \
    ARRAY(stall, SIM_STALL_COUNT, "stall_", sim_stall_names, 0, SUM) /* by reason */ \
    SCALAR(gld_insts, "global_loads", SUM)                                           \
    SCALAR(gst_insts, "global_stores", SUM)                                          \
    SCALAR(shld_insts, "shared_loads", SUM)                                          \
    SCALAR(shst_insts, "shared_stores", SUM)                                         \
    SCALAR(atomic_insts, "atomics", SUM)                                             \
    SCALAR(mem_requests, "mem_requests", SUM) /* accepted by the memory system */   \
    SCALAR(ldst_refused, "ldst_refused_cycles", SUM) /* head request refused */     \
    ARRAY(refused, SIM_FAIL_COUNT, "refused_", sim_fail_names, 1, SUM) /* by cause */ \
    SCALAR(shmem_passes, "shmem_passes", SUM) /* conflict degree summed */          \
    SCALAR(blocks, "", SUM)                   /* blocks completed */                \
    SCALAR(max_resident_blocks, "", MAX)                                             \
    SCALAR(active_cycles, "sm_active_cycles", SUM) /* at least one resident block */ \
    SCALAR(wake_stall_cycles, "rf_wake_stall_cycles", SUM) /* waits for sleeping registers */ \
    SCALAR(ldst_ready, "", SUM) /* warps parked on the LDST unit, summed over its refused \
                                 * cycles (a column with -trapeze_contention_counters) */ \
    SCALAR(dws_branch_splits, "", SUM)  /* DWS: splits at divergent branches */         \
    SCALAR(dws_mem_splits, "", SUM)     /* DWS: splits on a hit mask */                 \
    SCALAR(dws_merges, "", SUM)         /* DWS: splits re-converged into another */      \
    SCALAR(dws_wst_peak, "", MAX)       /* DWS: most warp-split table entries in use */ \
    SCALAR(rsimd_intervals, "", SUM)    /* Robust SIMD: sampled intervals (adaptation) */ \
    SCALAR(rsimd_adapt_cycles, "", SUM) /* Robust SIMD: cycles of the adaptation phase */ \
    SCALAR(rsimd_width, "", MAX)        /* Robust SIMD: chosen slice width (widest SM) */ \
    SCALAR(rsimd_depth, "", MAX)        /* Robust SIMD: chosen depth (deepest SM) */     \
    SCALAR(rsimd_dws_kept, "", SUM)     /* RobustDWS: SMs that kept DWS at full width */

extern const char *const sim_stall_names[SIM_STALL_COUNT]; /* memory, compute, ... */
extern const char *const sim_fail_names[SIM_FAIL_COUNT];   /* none, line_alloc, ... */

typedef struct sim_sm_stats {
#define SIM_SM_FIELD(f, name, how) uint64_t f;
#define SIM_SM_ARRAY(f, n, prefix, names, first, how) uint64_t f[n];
    SIM_SM_COUNTERS(SIM_SM_FIELD, SIM_SM_ARRAY)
#undef SIM_SM_FIELD
#undef SIM_SM_ARRAY
} sim_sm_stats;

typedef struct sim_kernel_stats {
    char name[64];
    char run[160];              /* the run it belongs to, as the caller described it */
    uint64_t launch;            /* index in the run's sequence */
    uint64_t start_cycle;       /* first cycle of the kernel (after its launch latency) */
    uint64_t cycles;            /* start to the cycle after its last warp finished */
    uint64_t launch_cycles;     /* launch latency paid before it */
    uint64_t blocks, resident_blocks_per_sm;
    uint64_t stolen_blocks;     /* TBs moved by the dispatch policy's task stealing */
    int windowed;               /* 1: stopped at -trapeze_window_warp_insts before its end;
                                 * cycles and counters are the window's */
    double ipc;                 /* warp instructions per cycle, whole GPU */
    sim_sm_stats total;         /* summed over SMs (max_resident_blocks: max) */
    uint64_t events[SIM_EV_COUNT];
    int mem_stats_valid;        /* 1 when the real memory system ran */
    sim_mem_stats mem;          /* the memory system's counters for this kernel */
    int n_sm;
    sim_sm_stats *sm;           /* per SM; owned, free with sim_kernel_stats_free */
    int energy_valid;           /* 1 when the simulator had a power description */
    sim_energy energy;          /* joules by component; sleep-mode cycles per structure */
    double event_j[TRAPEZE_PE_COUNT];  /* the description's energies (per-SM CSV columns) */
    double idle_sm_w, clock_hz;
} sim_kernel_stats;

void sim_kernel_stats_free(sim_kernel_stats *s);
/* CSV: header + one row per kernel, to a temporary file then renamed; with held
 * non-NULL, finished but not renamed: the caller commits or aborts *held
 * (all-or-nothing outputs, see common/csv_out.c). */
trapeze_status sim_stats_write_csv(const char *path, const sim_kernel_stats *s, int n,
                                   const trapeze_gpu *gpu, trapeze_csv_out **held,
                                   trapeze_error *err);
/* Per-SM CSV: header + one row per kernel and SM (kernel,launch,sm,cycles,
 * warp_instructions,ipc,blocks,...); the counters of a launch's rows sum to
 * its row in sim_stats_write_csv's file. Written like it. */
trapeze_status sim_stats_write_sm_csv(const char *path, const sim_kernel_stats *s, int n,
                                      trapeze_csv_out **held, trapeze_error *err);
/* Short text summary. */
void sim_stats_print(FILE *f, const sim_kernel_stats *s, int n, const sim_core_config *c);

/* ------------------------------------------------------------ the simulator */

typedef struct sim_gpu sim_gpu;

typedef struct sim_gpu_options {
    sim_mem_port mem;           /* ops NULL: the real memory system from the config */
    /* called now and then with the current cycle (progress display); may be NULL */
    trapeze_sim_progress progress;
    void *progress_ctx;
    /* energy: a power description (NULL: no energy accounting, no sleep
     * policy but always_on), the sleep policies (NULL: the config's
     * -trapeze_sleep_* options), and whether to keep idle-period histograms
     * per kernel name (sim_gpu_idle). The pointers must outlive the gpu. */
    const trapeze_power *power;
    const sim_sleep_config *sleep;
    int keep_idle;
    /* called for every block placed (tests, traces of the dispatch); may be NULL */
    void (*on_place)(void *ctx, int sm, long block, uint64_t cycle);
    void *on_place_ctx;
    /* not NULL: the explicit TB dispatch policy with this grouping file,
     * whatever the config says */
    const char *tb_grouping;
    /* > 0: -trapeze_window_first_block, whatever the config says */
    long first_block;
    /* > 1: one simulation's cycle split across this many threads (gpu_par.c),
     * with results identical to one thread; the real memory system only
     * (with opt->mem given, one thread runs). 0 or 1: one thread. The
     * cycles run in windows on the threads or on one thread, whichever was
     * faster when last timed (a machine busy with other work makes the
     * threads lose); threads_always: always on the threads (benchmarks). */
    int threads;
    int threads_always;
    /* threads > 1: measure each thread's CPU time in every phase
     * (sim_gpu_threads_profile; benchmarks) */
    int threads_profile;
} sim_gpu_options;

/* opt may be NULL. Takes ownership of opt->mem. */
trapeze_status sim_gpu_create(const trapeze_config *cfg, const sim_gpu_options *opt,
                              sim_gpu **out, trapeze_error *err);
void sim_gpu_destroy(sim_gpu *g);
const sim_core_config *sim_gpu_config(const sim_gpu *g);
/* The threads a cycle runs on (1 unless sim_gpu_options.threads > 1). */
int sim_gpu_threads(const sim_gpu *g);
/* With threads_profile, in CPU seconds so far: *critical the phases' longest
 * thread summed (their wall time given a core per thread), *caller the
 * calling thread's time inside the phases, work[i] thread i's work (up to
 * n of them); returns the thread count, 0 without profiling. */
int sim_gpu_threads_profile(const sim_gpu *g, double *critical, double *caller, double *work,
                            int n);
/* The counts, and the idle-period histograms where opt named a power
 * description, a sleep policy or keep_idle (else they stay empty). */
sim_events *sim_gpu_events(sim_gpu *g);
/* Launch one kernel and run it to completion. The first launch on g starts
 * at cycle 0; each later one waits the launch latency after the previous
 * kernel ended (relaunch). stats is filled (free with sim_kernel_stats_free).
 * Checks that no memory request is outstanding at the end (EFAIL if one is).
 * A hang is never silent: ERANGE at once when a global barrier of k waits
 * for more blocks than can be resident; EFAIL when for hang_cycles no warp
 * issues an instruction outside a spin loop and no block starts or
 * finishes (the message says what the warps wait on), or when the launch
 * passes max_cycles. */
trapeze_status sim_gpu_run(sim_gpu *g, const sim_kernel *k, sim_kernel_stats *stats,
                           trapeze_error *err);
/* A kernel sequence: n kernels, given up front (kernels) or produced one
 * at a time by open (kernels NULL; a trace opened per kernel) and released
 * by close after the launch (may be NULL; with ok set, an error it returns
 * fails that launch). ran, when not NULL, sees each launch's statistics. */
typedef struct sim_sequence {
    int n;
    sim_kernel *const *kernels;
    trapeze_status (*open)(void *ctx, int i, const sim_kernel **k, trapeze_error *err);
    trapeze_status (*close)(void *ctx, int i, int ok, trapeze_error *err);
    void (*ran)(void *ctx, int i, const sim_kernel_stats *st);
    void *ctx;
} sim_sequence;

/* Runs seq's kernels in order on g (sim_gpu_run each: the launch latency
 * between them), stopping at the first error. keep[0..n) (may be NULL:
 * statistics freed after ran) receives each launch's statistics, which the
 * caller frees; *ran (may be NULL) counts the launches that finished. */
trapeze_status sim_gpu_run_sequence(sim_gpu *g, const sim_sequence *seq, sim_kernel_stats *keep,
                                    int *ran, trapeze_error *err);
/* sim_gpu_run in three parts: begin (checks, dispatch policy, blocks
 * placed from the start cycle), step (one visited cycle; 0 once the launch
 * ended or failed), end (statistics into st, the request check; returns
 * the launch's status). Between steps the caller may read the GPU; it must
 * not start another launch on it. */
typedef struct sim_launch {
    sim_gpu *g;
    const sim_kernel *k;
    sim_kernel_stats *st;
    const struct sim_dispatch_ops *pol;
    void *ps;
    int per_sm;
    uint64_t start, t, end, total, done, progress;
    int dirty, running;
    int windowed;                  /* stopped at -trapeze_window_warp_insts */
    unsigned long iter;
    trapeze_status status;
} sim_launch;

/* The next launches are number `launch` (from 1) of `launches` of one
 * sequence, for the progress display; 0 launches: a launch on its own. */
void sim_gpu_sequence_at(sim_gpu *g, int launch, int launches);
trapeze_status sim_gpu_launch_begin(sim_gpu *g, const sim_kernel *k, sim_kernel_stats *st,
                                    sim_launch *l, trapeze_error *err);
int sim_gpu_launch_step(sim_launch *l, trapeze_error *err);
/* The warp instructions the launch's SMs have issued so far (counted once
 * per issue, sm.c; the launch's warp_insts when it ends). */
uint64_t sim_gpu_launch_warp_insts(const sim_launch *l);
trapeze_status sim_gpu_launch_end(sim_launch *l, trapeze_error *err);
/* Ends a launch before its blocks are done (a sampled window of a run,
 * sim/sample/jump_window.c): frees the dispatch state and l->st. What is in
 * flight stays, so g may afterwards only be read (sim_gpu_events) and
 * destroyed: no launch_end, no further launch. Changes no other run. */
void sim_gpu_launch_cut(sim_launch *l);
/* Within a running launch, blocks [from, to) are never placed: when the
 * dispatcher reaches `from` it goes on at `to` (from below its next block
 * counts from there). Blocks resident keep running; caches, queues and
 * memory keep their state; the launch ends when the other blocks are
 * done, and its stats count only those. Round-robin dispatch only, one
 * range pending at a time (EINVAL otherwise). For a sample's later window
 * started from the previous one's state. */
trapeze_status sim_gpu_launch_skip(sim_launch *l, long from, long to, trapeze_error *err);

/* The functional word at addr (atomic counters). */
uint32_t sim_gpu_peek(const sim_gpu *g, uint64_t addr);
uint64_t sim_gpu_cycle(const sim_gpu *g);
/* The sleep policies as bound to the power description. */
const sim_sleep_config *sim_gpu_sleep(const sim_gpu *g);
const sim_energy_geometry *sim_gpu_energy_geometry(const sim_gpu *g);
/* With keep_idle: the kernels (by name, in first-launch order) and their
 * idle-period histograms summed over launches, SIM_UNIT_KIND_COUNT each. */
int sim_gpu_idle_count(const sim_gpu *g);
const sim_idle_hist *sim_gpu_idle(const sim_gpu *g, int i, const char **kernel);
/* The idle-period CSV (docs/energy.md): gpu,kernel,structure,granularity,
 * length_min_cycles,length_max_cycles,next_access,count; written like the
 * other CSVs (each renamed into place on success). */
trapeze_status sim_gpu_write_idle_csv(const sim_gpu *g, const char *path, trapeze_error *err);

/* ------------------------------------------------------------ built-in kernels */

typedef struct sim_builtin_param {
    const char *name;
    long value;        /* default */
    const char *help;
} sim_builtin_param;

#define SIM_BUILTIN_MAX_PARAMS 8

typedef struct sim_builtin {
    const char *name;
    const char *help;
    sim_builtin_param params[SIM_BUILTIN_MAX_PARAMS];
    /* Builds the kernel sequence into ks (at most max); returns the count
     * through n. p: parameter values in the order of params. */
    trapeze_status (*build)(const sim_core_config *c, const long *p, sim_kernel **ks, int max,
                            int *n, trapeze_error *err);
} sim_builtin;

const sim_builtin *sim_builtins(int *n);
const sim_builtin *sim_builtin_find(const char *name);
/* Parses "name=value" settings over the defaults into p. */
trapeze_status sim_builtin_params(const sim_builtin *b, int argc, char **argv, long *p,
                                  trapeze_error *err);

#endif
