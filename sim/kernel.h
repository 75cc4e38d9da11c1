/*
 * kernel.h - the simulator's kernel representation.
 *
 * A kernel is a grid of thread blocks (TBs) running one *program*: a short
 * list of warp-level instructions in structured form. Everything the timing
 * of a GPU kernel depends on is explicit, and nothing else is:
 *
 *   - instruction classes (integer, FP32, FP64, SFU, global/shared loads and
 *     stores, atomics, __syncthreads barriers, memory fences, exit) and the
 *     registers they read and write (the scoreboard's dependences);
 *   - per-thread addresses: affine expressions of the thread index
 *     (tx,ty,tz), the block index (bx,by,bz), the counters of the enclosing
 *     counted loops (l0..l3) and a few block-uniform derived variables
 *     (d0..d3 = (affine / div) % mod, e.g. a tile's x and y when a persistent
 *     block loops over a linear tile number), one per array dimension, each
 *     clamped to [lo, hi] (stencil boundaries);
 *   - predicates: a conjunction of comparisons of such expressions with 0,
 *     evaluated per thread (IF/ELSE/ENDIF divergence with SIMT active masks
 *     and reconvergence at ENDIF);
 *   - counted loops (trip count: an expression of block-uniform variables)
 *     and spin loops that repeat until a word loaded by a volatile load
 *     reaches a target (a persistent kernel's global barrier);
 *   - grid and block dimensions, registers per thread and shared memory per
 *     block (occupancy).
 *
 * Values are not modelled: the simulator is about timing. The only values it
 * tracks are 32-bit words read by atomics and volatile loads (the global
 * barrier's counters), which the memory system keeps functionally.
 *
 * Three readers share this representation: the simulator (sim/core), a
 * locality analysis (reads the static program and the address expressions),
 * and trace readers. A trace does not have a static program: it supplies an
 * *instruction source* (sim_source_ops) that yields each warp's dynamic
 * instructions (sim_warp_inst: class, registers, active mask, 32 explicit
 * addresses). The program interpreter is itself such a source; the pipeline
 * only ever sees sim_warp_inst.
 *
 * Writing a kernel (see sim/core/kernels.c for complete examples):
 *
 *   sim_kb *kb = sim_kb_begin("vecadd", SIM_DIM(n / 256), SIM_DIM(256));
 *   int a = sim_kb_global(kb, "a", 4 * n), c = sim_kb_global(kb, "c", 4 * n);
 *   sim_affine i = SIM_AFF(.k[SIM_TX] = 1, .k[SIM_BX] = 256);
 *   sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(i)));
 *   sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 2, 1, 1, SIM_NO_REG);
 *   sim_kb_st(kb, sim_at1(c, 4, sim_ix(i)), 2);
 *   sim_kernel *k;
 *   if (sim_kb_end(kb, &k, &err)) ...;      // validates, frees kb
 *   ...
 *   sim_kernel_destroy(k);
 *
 * Builder calls never fail individually: the first misuse is remembered and
 * reported by sim_kb_end() with the instruction index.
 */
#ifndef TRAPEZE_SIM_KERNEL_H
#define TRAPEZE_SIM_KERNEL_H

#include <limits.h>
#include <stdint.h>

#include "trapeze.h"

#define SIM_MAX_REGS 64        /* architectural registers per thread named by a program */
#define SIM_NO_REG 0xff
#define SIM_MAX_LOOP_DEPTH 4
#define SIM_MAX_DERIVED 4
#define SIM_MAX_ADDR_DIMS 3
#define SIM_MAX_CONDS 4
#define SIM_MAX_ARRAYS 16
#define SIM_MAX_SIMT_DEPTH 16  /* IF nesting */
#define SIM_WARP_LANES 32

/* ------------------------------------------------------------ expressions */

/* Variables of affine expressions. Thread indices vary per lane; all the
 * others are the same for every thread of a warp (block-uniform). */
typedef enum {
    SIM_TX, SIM_TY, SIM_TZ,          /* threadIdx */
    SIM_BX, SIM_BY, SIM_BZ,          /* blockIdx */
    SIM_L0, SIM_L1, SIM_L2, SIM_L3,  /* counters of enclosing loops, outermost first (0..trips-1) */
    SIM_D0, SIM_D1, SIM_D2, SIM_D3,  /* derived variables, see sim_kb_derived() */
    SIM_VAR_COUNT
} sim_var;

/* c + sum_v k[v] * var_v. Write with designated initializers:
 * SIM_AFF(.c = -1, .k[SIM_TX] = 1, .k[SIM_BX] = 16) is 16*bx + tx - 1. */
typedef struct sim_affine {
    int64_t c;
    int64_t k[SIM_VAR_COUNT];
} sim_affine;
#define SIM_AFF(...) ((sim_affine){__VA_ARGS__})

/* One index of an array access: clamp(e, lo, hi). */
typedef struct sim_index {
    sim_affine e;
    int64_t lo, hi;   /* INT64_MIN / INT64_MAX when unclamped */
} sim_index;

/* address = base(array) + elem_bytes * sum_d stride[d] * index[d]
 * (stride of the last dimension is 1: row-major, C order). */
typedef struct sim_addr {
    int array;        /* from sim_kb_global / sim_kb_shared */
    int elem_bytes;   /* bytes each thread accesses: 1, 2, 4, 8 or 16 */
    int n_dims;
    sim_index index[SIM_MAX_ADDR_DIMS];
    int64_t stride[SIM_MAX_ADDR_DIMS];   /* in elements */
} sim_addr;

typedef enum { SIM_LT, SIM_LE, SIM_GT, SIM_GE, SIM_EQ, SIM_NE } sim_cmp;

/* A predicate: AND over i of (e_i cmp_i 0). n == 0 is "true". */
typedef struct sim_pred {
    int n;
    struct { sim_affine e; sim_cmp cmp; } c[SIM_MAX_CONDS];
} sim_pred;

/* Expression helpers (all by value; no allocation). */
sim_index sim_ix(sim_affine e);                            /* unclamped */
sim_index sim_ixc(sim_affine e, int64_t lo, int64_t hi);   /* clamped to [lo, hi] */
sim_addr sim_at1(int array, int elem_bytes, sim_index i);
/* a[i][j] with rows of `cols` elements */
sim_addr sim_at2(int array, int elem_bytes, sim_index i, sim_index j, int64_t cols);
/* a[i][j][k] with dims [..][rows][cols] */
sim_addr sim_at3(int array, int elem_bytes, sim_index i, sim_index j, sim_index k,
                 int64_t rows, int64_t cols);
sim_pred sim_pred1(sim_affine e, sim_cmp cmp);
/* p AND (e cmp 0); silently keeps p if it is full (reported by sim_kb_end). */
sim_pred sim_pred_and(sim_pred p, sim_affine e, sim_cmp cmp);
sim_affine sim_aff_add(sim_affine a, sim_affine b);
sim_affine sim_aff_scale(sim_affine a, int64_t s);

/* ------------------------------------------------------------ instructions */

typedef enum {
    /* executed ops (what the pipeline sees) */
    SIM_OP_INT,        /* integer ALU (SP units), sub-op sim_alu */
    SIM_OP_FP,         /* FP32 (SP units): SIM_ALU_MAD is the FMA */
    SIM_OP_DP,         /* FP64 (SP units, DP latencies) */
    SIM_OP_SFU,        /* transcendental (SFU units) */
    SIM_OP_BRANCH,     /* control transfer (SP units, integer ADD timing); made by IF/ELSE/ENDLOOP */
    SIM_OP_LD_GLOBAL,
    SIM_OP_ST_GLOBAL,
    SIM_OP_LD_SHARED,
    SIM_OP_ST_SHARED,
    SIM_OP_ATOMIC,     /* atomicAdd(value) on a 32-bit global word per active lane, at L2 */
    SIM_OP_BAR,        /* __syncthreads */
    SIM_OP_FENCE,      /* __threadfence: wait until the warp's stores and atomics are acknowledged */
    SIM_OP_EXIT,
    /* structure (static programs only; interpreted, never issued) */
    SIM_OP_IF,         /* pred: lanes where it holds run the THEN part */
    SIM_OP_ELSE,
    SIM_OP_ENDIF,      /* reconvergence */
    SIM_OP_LOOP,       /* counted loop (trips) or spin loop (SIM_INST_SPIN) */
    SIM_OP_ENDLOOP,
    SIM_OP_COUNT
} sim_op;

/* GPGPU-Sim's specialized units (-specialized_unit_1 .. _8, SPECIALIZED_UNIT_NUM);
 * unit 1 runs the branches (SIM_OP_BRANCH) */
#define SIM_SPEC_UNITS 8

typedef enum { SIM_ALU_ADD, SIM_ALU_MAX, SIM_ALU_MUL, SIM_ALU_MAD, SIM_ALU_DIV, SIM_ALU_COUNT } sim_alu;

enum {
    SIM_INST_VOLATILE = 1u << 0,   /* global load served at L2 (never L1) with its word's value */
    SIM_INST_SPIN = 1u << 1,       /* LOOP/ENDLOOP: repeat until value(reg) >= target; on a
                                    * dynamic instruction: issued inside a spin loop (it
                                    * waits, it does not advance: the simulator's hang guard) */
    SIM_INST_WARP_END = 1u << 2,   /* dynamic EXIT the SM makes when a warp's stream ends:
                                    * it retires every lane still live */
    SIM_INST_SPAN = 1u << 3,       /* dynamic memory instruction: addr_bound holds the
                                    * least and greatest active lane's address (a source
                                    * that knows them cheaply sets it; optional) */
    SIM_INST_RUNS = 1u << 4        /* dynamic memory instruction of a whole warp: runs
                                    * holds sim_coalesce_starts of addr and size (a source
                                    * that knows it cheaply sets it; optional) */
};

/* One static instruction. Unused register fields are SIM_NO_REG. */
typedef struct sim_inst {
    uint8_t op;            /* sim_op */
    uint8_t alu;           /* sim_alu for INT/FP/DP */
    uint8_t flags;         /* SIM_INST_* */
    uint8_t dst;           /* destination register or SIM_NO_REG */
    uint8_t src[3];        /* source registers */
    uint8_t unit;          /* INT/FP/DP/SFU: Accel-Sim's specialized unit (2..SIM_SPEC_UNITS)
                            * it runs on when the config enables that unit; 0: its class's */
    uint32_t value;        /* ATOMIC: the operand added */
    sim_addr addr;         /* memory ops */
    sim_pred pred;         /* IF */
    sim_affine trips;      /* LOOP: trip count (block-uniform); ENDLOOP with SPIN: target */
    uint8_t spin_reg;      /* ENDLOOP with SPIN: the register whose loaded value is compared */
    int32_t match;         /* IF -> its ELSE or ENDIF; ELSE -> ENDIF; LOOP <-> ENDLOOP */
} sim_inst;

/* ------------------------------------------------------------ the kernel */

typedef struct sim_dim3 { int x, y, z; } sim_dim3;
#define SIM_DIM(...) sim_dim3_make(__VA_ARGS__, 1, 1, 0)
#define sim_dim3_make(x_, y_, z_, ...) ((sim_dim3){(x_), (y_), (z_)})

typedef enum { SIM_SPACE_GLOBAL, SIM_SPACE_SHARED } sim_space;

typedef struct sim_array {
    char name[32];
    int space;             /* sim_space */
    uint64_t bytes;
    uint64_t base;         /* global: virtual address; shared: offset in the block's shared memory */
} sim_array;

/* d = (e / div) % mod with floor division; mod 0 means no modulo. e may use
 * block indices, loop counters and earlier derived variables, never thread
 * indices. Evaluated whenever it is read. */
typedef struct sim_derived {
    sim_affine e;
    int64_t div, mod;
} sim_derived;

typedef struct sim_warp_inst sim_warp_inst;
typedef struct sim_warp_cursor sim_warp_cursor;
struct sim_kernel;

/* An instruction source: where a warp's dynamic instructions come from.
 * NULL in a kernel means "interpret kernel->code" (sim_program_source). */
typedef struct sim_source_ops {
    const char *name;
    /* Position `cur` at the start of warp `warp` (0-based, within the block)
     * of block (bx, by, bz). */
    void (*warp_start)(void *self, const struct sim_kernel *k, sim_warp_cursor *cur,
                       int bx, int by, int bz, int warp);
    /* Writes the warp's next dynamic instruction; returns 0 when the warp has
     * no more (an implicit EXIT). reg_value: the warp's values of registers
     * loaded by atomics / volatile loads (for spin loops). */
    int (*next)(void *self, const struct sim_kernel *k, sim_warp_cursor *cur,
                const uint32_t *reg_value, sim_warp_inst *out);
    /* Optional: release what warp_start acquired in cur->ext. */
    void (*warp_end)(void *self, sim_warp_cursor *cur);
    /* Optional: the launch's SMs run in `threads` threads (sim/core/gpu_par.c):
     * next and warp_end are then called from several threads at once, each
     * warp from one at a time; a source with state shared by warps must
     * guard it (or need none: the program interpreter). */
    void (*set_threads)(void *self, int threads);
} sim_source_ops;

typedef struct sim_kernel {
    char name[64];
    sim_dim3 grid, block;
    int regs_per_thread;       /* occupancy; at least the registers the program names */
    int shmem_bytes;           /* per block; the sum of its shared arrays unless raised */
    int n_arrays;
    sim_array arrays[SIM_MAX_ARRAYS];
    int n_derived;
    sim_derived derived[SIM_MAX_DERIVED];
    int n_code;
    sim_inst *code;            /* ends with SIM_OP_EXIT */
    const sim_source_ops *source;   /* NULL: interpret code */
    void *source_self;
    /* the most blocks a global barrier of the program waits for
     * (sim_kb_global_barrier); 0: none. They must all be resident at once. */
    int64_t barrier_blocks;
    /* the counted loops at depth 0 start at this trip (0: the first; a
     * loop with no more trips is skipped): a sample's later window starts
     * a long loop part way (sim/sample/jump_window.c); spin loops as ever */
    int64_t first_trip;
} sim_kernel;

void sim_kernel_destroy(sim_kernel *k);
/* x*y*z of non-negative dimensions, saturating at LLONG_MAX: a trace
 * header or a builder may hold dimensions whose product overflows before
 * the caller's bound check rejects them. x*y < 2^62 cannot overflow. */
static inline long long sim_dim3_volume(sim_dim3 d)
{
    long long xy = (long long)d.x * d.y;
    if (d.z > 0 && xy > LLONG_MAX / d.z)
        return LLONG_MAX;
    return xy * d.z;
}
static inline long sim_kernel_blocks(const sim_kernel *k)
{
    long long n = sim_dim3_volume(k->grid);
    return n > LONG_MAX ? LONG_MAX : (long)n;
}
/* Saturates at INT_MAX, so a bound check after it rejects huge blocks. */
static inline int sim_kernel_block_threads(const sim_kernel *k)
{
    long long n = sim_dim3_volume(k->block);
    return n > INT_MAX ? INT_MAX : (int)n;
}
const char *sim_op_name(sim_op op);

/* ------------------------------------------------------------ builder */

typedef struct sim_kb sim_kb;

sim_kb *sim_kb_begin(const char *name, sim_dim3 grid, sim_dim3 block);
/* Arrays: global ones are laid out from 0x10000000, each 4 KB aligned;
 * shared ones from offset 0 of the block's shared memory, 16 B aligned. */
int sim_kb_global(sim_kb *kb, const char *name, uint64_t bytes);
int sim_kb_shared(sim_kb *kb, const char *name, uint64_t bytes);
void sim_kb_regs(sim_kb *kb, int regs_per_thread);   /* raise the occupancy count */
void sim_kb_shmem(sim_kb *kb, int bytes);            /* raise the shared memory per block */
/* Returns the variable (SIM_D0 + i) that reads (e / div) % mod. */
sim_var sim_kb_derived(sim_kb *kb, sim_affine e, int64_t div, int64_t mod);

void sim_kb_alu(sim_kb *kb, sim_op op, sim_alu alu, int dst, int s0, int s1, int s2);
void sim_kb_ld(sim_kb *kb, int dst, sim_addr a);     /* global or shared, from the array's space */
void sim_kb_ld_volatile(sim_kb *kb, int dst, sim_addr a);
void sim_kb_st(sim_kb *kb, sim_addr a, int src);
void sim_kb_atomic(sim_kb *kb, int dst, sim_addr a, uint32_t value);
/* Adds register r as a source of the last instruction (e.g. the register a
 * load's address comes from: a pointer chase). */
void sim_kb_uses(sim_kb *kb, int r);
/* The last instruction (an ALU class) runs on Accel-Sim's specialized unit
 * `unit` (2..SIM_SPEC_UNITS: 2 texture, 3 tensor, 4 uniform datapath) when the
 * config enables it (-specialized_unit_N), else on its class's units. */
void sim_kb_unit(sim_kb *kb, int unit);
void sim_kb_bar(sim_kb *kb);
void sim_kb_fence(sim_kb *kb);
void sim_kb_if(sim_kb *kb, sim_pred p);
void sim_kb_else(sim_kb *kb);
void sim_kb_endif(sim_kb *kb);
void sim_kb_loop(sim_kb *kb, sim_affine trips);
void sim_kb_endloop(sim_kb *kb);
/* A loop whose body runs until value(reg) >= target (block-uniform). The
 * body must load reg with sim_kb_ld_volatile or sim_kb_atomic. */
void sim_kb_spin(sim_kb *kb);
void sim_kb_endspin(sim_kb *kb, int reg, sim_affine target);
/* The persistent kernel's global barrier (Meng's fence mode, one counter
 * word per stage): every warp fences its stores, __syncthreads, thread 0
 * atomically increments counter[stage] and spins on volatile loads until it
 * reads `blocks`, __syncthreads. `counter` is a global array whose words are
 * 128 B apart (one line each); `stage` is a block-uniform expression; `reg`
 * is a scratch register. */
void sim_kb_global_barrier(sim_kb *kb, int counter, sim_affine stage, int64_t blocks, int reg);
/* Validates (nesting, registers, arrays, derived variables), appends EXIT,
 * and frees kb. On error *out is NULL and err names the instruction. */
trapeze_status sim_kb_end(sim_kb *kb, sim_kernel **out, trapeze_error *err);

/* ------------------------------------------------------------ execution */

/* A dynamic warp instruction: what the SM pipeline executes. */
struct sim_warp_inst {
    uint8_t op;            /* sim_op, SIM_OP_INT .. SIM_OP_EXIT */
    uint8_t alu;
    uint8_t flags;         /* SIM_INST_VOLATILE */
    uint8_t dst;
    uint8_t src[3];
    uint8_t size;          /* bytes per lane for memory ops */
    uint32_t active;       /* SIMT active mask */
    uint32_t value;        /* atomic operand */
    uint32_t pc;           /* byte offset in the kernel's code (trace PC; the
                            * interpreter's: static index x 16), for the I-cache */
    uint8_t unit;          /* sim_inst.unit (a trace opcode's: sim_trace_opcode.unit) */
    uint32_t runs;         /* with SIM_INST_RUNS: the lanes that start a contiguous run */
    uint64_t addr[SIM_WARP_LANES];  /* per-lane address (global: virtual; shared: offset) */
    uint64_t addr_bound[2];         /* with SIM_INST_SPAN: least, greatest of addr's active lanes */
};

/* A warp's position in its instruction stream. The program interpreter uses
 * the fixed fields; other sources may keep their own state in ext. */
struct sim_warp_cursor {
    int32_t pc;
    uint32_t active;          /* current SIMT mask */
    uint32_t exist;           /* lanes that exist (partial last warp) */
    int32_t depth;            /* SIMT stack depth */
    uint32_t saved[SIM_MAX_SIMT_DEPTH], pending[SIM_MAX_SIMT_DEPTH];
    int32_t loops;            /* loop nesting depth */
    int64_t counter[SIM_MAX_LOOP_DEPTH], trips[SIM_MAX_LOOP_DEPTH];
    int32_t loop_pc[SIM_MAX_LOOP_DEPTH];
    int64_t bid[3];
    int16_t tid[3][SIM_WARP_LANES];
    int16_t tid_min[3], tid_max[3];   /* bounds of tid over the lanes that exist */
    int32_t pending_branch;   /* a branch instruction still to be reported */
    int32_t spin_depth;       /* enclosing spin loops */
    /* the lanes' address offsets cx*tx + cy*ty + cz*tz for the last
     * (cx, cy, cz) the interpreter used (all 0 when zeroed: still right) */
    uint64_t lane_off_key[3];
    uint64_t lane_off[SIM_WARP_LANES];
    int32_t lane_off_size;     /* the access size lane_off_starts is for; 0: none yet */
    uint32_t lane_off_starts;  /* sim_coalesce_starts of lane_off (program.c) */
    void *ext;
};

/* The program interpreter (the default source). */
extern const sim_source_ops sim_program_source;

/* Evaluate helpers (also for analyses): the block-uniform part of e for a
 * cursor, and a full address for one lane. */
int64_t sim_eval_uniform(const sim_kernel *k, const sim_warp_cursor *cur, const sim_affine *e);
uint64_t sim_eval_addr(const sim_kernel *k, const sim_warp_cursor *cur, const sim_addr *a,
                       int lane);
/* For a program warp inside a spin loop: the word its innermost spin loop
 * polls (the loop's volatile load or atomic into the tested register, at
 * the first active lane) and the value it waits for; 0 when the warp is in
 * no spin loop (or the kernel is not a program). */
int sim_program_spin_wait(const sim_kernel *k, const sim_warp_cursor *cur, uint64_t *addr,
                          int64_t *target);

#endif
