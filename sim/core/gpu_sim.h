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

/* Warp schedulers (-gpgpu_scheduler lrr | gto | two_level_active:N:I:O |
 * locality_two_level:N; sim/core/sm.h, sched_two_level.h) */
typedef enum {
    SIM_SCHED_LRR, SIM_SCHED_GTO,
    SIM_SCHED_TWO_LEVEL,   /* N active warps fed from a pending FIFO (Narasiman, Gebhart) */
    SIM_SCHED_LOCALITY,    /* Chen 2016's locality-aware two-level scheduler */
    SIM_SCHED_COUNT
} sim_sched_kind;
/* TB dispatch policies (-trapeze_tb_dispatch; sim/core/dispatch*.c) */
typedef enum {
    SIM_TB_RR,         /* rr: GPGPU-Sim's round-robin, blocks in id order */
    SIM_TB_BCS,        /* bcs: consecutive pairs to one SM, once two fit (Lee HPCA'14) */
    SIM_TB_CHEN,       /* chen: the waiting TB sharing most lines with the SM's residents */
    SIM_TB_MST,        /* mst: PAVER's MST-TS */
    SIM_TB_KWAY,       /* kway: PAVER's k-way-TS */
    SIM_TB_RBTS,       /* rbts: PAVER's RB-TS (Algorithm 1) */
    SIM_TB_EXPLICIT,   /* explicit: a grouping file (-trapeze_tb_grouping) */
    SIM_TB_COUNT
} sim_tb_dispatch;
const char *sim_tb_dispatch_name(sim_tb_dispatch d);
typedef enum { SIM_UNIT_SP, SIM_UNIT_SFU, SIM_UNIT_LDST, SIM_UNIT_NONE } sim_fu;

typedef struct sim_core_config {
    trapeze_gpu gpu;               /* n_sm, warp size, per-SM limits */
    int max_warps;                 /* threads per SM / warp size */
    int n_sched;                   /* -gpgpu_num_sched_per_core */
    sim_sched_kind sched;          /* -gpgpu_scheduler */
    int active_warps;              /* two-level: active set size per scheduler */
    int inner_gto;                 /* two-level: GTO (1) or LRR (0) among the active */
    int n_sp, n_sfu;               /* -gpgpu_num_sp_units, -gpgpu_num_sfu_units */
    int lat[4][SIM_ALU_COUNT];     /* [int, fp, dp, sfu][alu] -ptx_opcode_latency_* */
    int init[4][SIM_ALU_COUNT];    /* -ptx_opcode_initiation_*; a trace.config's
                                    * -trace_opcode_latency_initiation_{int,sp,dp,sfu}
                                    * L,I sets a whole row (Accel-Sim's trace mode) */
    int shfl_lat, shfl_init;       /* 6th value of the _int lists (SHFL); SHFL runs as INT ADD */
    int smem_latency;              /* -gpgpu_smem_latency */
    int shmem_banks;               /* -gpgpu_shmem_num_banks */
    int reg_banks;                 /* -gpgpu_num_reg_banks (default 16) */
    uint64_t launch_latency;       /* -gpgpu_kernel_launch_latency (alias
                                    * -trapeze_kernel_launch_latency), core cycles */
    uint64_t max_cycles;           /* -trapeze_max_cycles: abort a kernel that runs longer */
    uint64_t hang_cycles;          /* -trapeze_hang_cycles: abort a kernel without progress
                                    * for longer (see sim_gpu_run) */
    sim_tb_dispatch tb_dispatch;   /* -trapeze_tb_dispatch */
    char tb_grouping[512];         /* -trapeze_tb_grouping: the explicit policy's file */
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
    int (*pop)(void *m, int sm, uint64_t cycle, sim_mem_request *done);
    void (*cycle)(void *m, uint64_t cycle);
    uint64_t (*outstanding)(const void *m);
    uint64_t (*next_event)(const void *m, uint64_t cycle);
    void (*poke)(void *m, uint64_t addr, uint32_t value);
    uint32_t (*peek)(const void *m, uint64_t addr);
    void (*flush_l1)(void *m);
    void (*reset_stats)(void *m);
    const sim_mem_stats *(*stats)(const void *m);   /* NULL when the port keeps none */
    void (*destroy)(void *m);
    /* the L1/shared carve-out for a kernel using `shmem` bytes per SM; NULL
     * when the port has no L1 to carve */
    void (*carve_l1)(void *m, long shmem);
} sim_mem_port_ops;

typedef struct sim_mem_port {
    const sim_mem_port_ops *ops;
    void *self;
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

typedef struct sim_sm_stats {
    uint64_t warp_insts;        /* issued warp instructions */
    uint64_t thread_insts;      /* sum of active lanes */
    uint64_t issue_slots;       /* scheduler cycles that issued */
    uint64_t stall[SIM_STALL_COUNT];   /* scheduler cycles that did not, by reason */
    uint64_t gld_insts, gst_insts, shld_insts, shst_insts, atomic_insts;
    uint64_t mem_requests;      /* line requests / atomics accepted by the memory system */
    uint64_t ldst_refused;      /* cycles the LDST unit's head request was refused */
    uint64_t refused[SIM_FAIL_COUNT];  /* ... by cause */
    uint64_t shmem_passes;      /* shared-memory passes (conflict degree summed) */
    uint64_t blocks;            /* blocks completed */
    uint64_t max_resident_blocks;
    uint64_t active_cycles;     /* cycles with at least one resident block */
    uint64_t wake_stall_cycles; /* instruction delays waiting for sleeping registers */
} sim_sm_stats;

typedef struct sim_kernel_stats {
    char name[64];
    uint64_t launch;            /* index in the run's sequence */
    uint64_t start_cycle;       /* first cycle of the kernel (after its launch latency) */
    uint64_t cycles;            /* start to the cycle after its last warp finished */
    uint64_t launch_cycles;     /* launch latency paid before it */
    uint64_t blocks, resident_blocks_per_sm;
    uint64_t stolen_blocks;     /* TBs moved by the dispatch policy's task stealing */
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
/* CSV: header + one row per kernel, to path.tmp then renamed; with held
 * non-NULL, finished but not renamed: the caller commits or aborts *held
 * (all-or-nothing outputs, see common/csv_out.c). */
trapeze_status sim_stats_write_csv(const char *path, const sim_kernel_stats *s, int n,
                                   trapeze_csv_out **held, trapeze_error *err);
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
    void (*progress)(void *ctx, const char *kernel, uint64_t cycle, uint64_t blocks_done,
                     uint64_t blocks);
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
} sim_gpu_options;

/* opt may be NULL. Takes ownership of opt->mem. */
trapeze_status sim_gpu_create(const trapeze_config *cfg, const sim_gpu_options *opt,
                              sim_gpu **out, trapeze_error *err);
void sim_gpu_destroy(sim_gpu *g);
const sim_core_config *sim_gpu_config(const sim_gpu *g);
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
 * other CSVs (PATH.tmp renamed on success). */
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
