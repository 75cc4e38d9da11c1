/*
 * kernel.c - building and validating kernels (sim/kernel.h). Owns the
 * builder and the static checks; interpretation is program.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/kernel.h"

#define GLOBAL_BASE 0x10000000ull

struct sim_kb {
    sim_kernel *k;
    int cap;
    uint64_t next_global, next_shared;
    int open[64];            /* stack of open IF/ELSE/LOOP instruction indices */
    int n_open;
    int loops_open, max_reg;
    char error[256];
};

static const char *const op_names[SIM_OP_COUNT] = {
    "int", "fp", "dp", "sfu", "branch", "ld.global", "st.global", "ld.shared", "st.shared",
    "atomic", "bar", "fence", "exit", "if", "else", "endif", "loop", "endloop"};

const char *sim_op_name(sim_op op)
{
    return op < SIM_OP_COUNT ? op_names[op] : "?";
}

sim_index sim_ix(sim_affine e)
{
    return (sim_index){e, INT64_MIN, INT64_MAX};
}

sim_index sim_ixc(sim_affine e, int64_t lo, int64_t hi)
{
    return (sim_index){e, lo, hi};
}

sim_addr sim_at1(int array, int elem_bytes, sim_index i)
{
    sim_addr a;
    memset(&a, 0, sizeof a);
    a.array = array;
    a.elem_bytes = elem_bytes;
    a.n_dims = 1;
    a.index[0] = i;
    a.stride[0] = 1;
    return a;
}

sim_addr sim_at2(int array, int elem_bytes, sim_index i, sim_index j, int64_t cols)
{
    sim_addr a = sim_at1(array, elem_bytes, i);
    a.n_dims = 2;
    a.stride[0] = cols;
    a.index[1] = j;
    a.stride[1] = 1;
    return a;
}

sim_addr sim_at3(int array, int elem_bytes, sim_index i, sim_index j, sim_index k,
                 int64_t rows, int64_t cols)
{
    sim_addr a = sim_at2(array, elem_bytes, j, k, cols);
    a.n_dims = 3;
    a.index[2] = a.index[1];
    a.stride[2] = 1;
    a.index[1] = a.index[0];
    a.stride[1] = cols;
    a.index[0] = i;
    a.stride[0] = rows * cols;
    return a;
}

sim_pred sim_pred1(sim_affine e, sim_cmp cmp)
{
    sim_pred p;
    memset(&p, 0, sizeof p);
    return sim_pred_and(p, e, cmp);
}

sim_pred sim_pred_and(sim_pred p, sim_affine e, sim_cmp cmp)
{
    if (p.n < SIM_MAX_CONDS) {
        p.c[p.n].e = e;
        p.c[p.n].cmp = cmp;
        p.n++;
    } else {
        p.n = SIM_MAX_CONDS + 1;   /* flagged; sim_kb_end reports it */
    }
    return p;
}

sim_affine sim_aff_add(sim_affine a, sim_affine b)
{
    a.c += b.c;
    for (int v = 0; v < SIM_VAR_COUNT; v++)
        a.k[v] += b.k[v];
    return a;
}

sim_affine sim_aff_scale(sim_affine a, int64_t s)
{
    a.c *= s;
    for (int v = 0; v < SIM_VAR_COUNT; v++)
        a.k[v] *= s;
    return a;
}

void sim_kernel_destroy(sim_kernel *k)
{
    if (!k)
        return;
    free(k->code);
    free(k);
}

/* ---------------------------------------------------------------- builder */

static void kb_error(sim_kb *kb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kb_error(sim_kb *kb, const char *fmt, ...)
{
    if (!kb || kb->error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(kb->error, sizeof kb->error, fmt, ap);
    va_end(ap);
}

sim_kb *sim_kb_begin(const char *name, sim_dim3 grid, sim_dim3 block)
{
    sim_kb *kb = calloc(1, sizeof *kb);
    if (!kb)
        return NULL;
    kb->k = calloc(1, sizeof *kb->k);
    if (!kb->k) {
        free(kb);
        return NULL;
    }
    snprintf(kb->k->name, sizeof kb->k->name, "%s", name ? name : "kernel");
    kb->k->grid = grid;
    kb->k->block = block;
    kb->next_global = GLOBAL_BASE;
    kb->max_reg = -1;
    return kb;
}

static sim_inst *kb_push(sim_kb *kb, sim_op op)
{
    if (!kb)
        return NULL;
    sim_kernel *k = kb->k;
    if (k->n_code == kb->cap) {
        int cap = kb->cap ? 2 * kb->cap : 32;
        sim_inst *code = realloc(k->code, (size_t)cap * sizeof *code);
        if (!code) {
            kb_error(kb, "out of memory");
            return NULL;
        }
        k->code = code;
        kb->cap = cap;
    }
    sim_inst *in = &k->code[k->n_code++];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->dst = SIM_NO_REG;
    in->src[0] = in->src[1] = in->src[2] = SIM_NO_REG;
    in->spin_reg = SIM_NO_REG;
    in->match = -1;
    return in;
}

static int kb_reg(sim_kb *kb, int r)
{
    if (r == SIM_NO_REG || r < 0)
        return SIM_NO_REG;
    if (r >= SIM_MAX_REGS) {
        kb_error(kb, "instruction %d: register r%d (at most %d registers)",
                 kb->k->n_code - 1, r, SIM_MAX_REGS);
        return SIM_NO_REG;
    }
    if (r > kb->max_reg)
        kb->max_reg = r;
    return r;
}

static int kb_array(sim_kb *kb, const char *name, uint64_t bytes, sim_space space)
{
    if (!kb)
        return -1;
    sim_kernel *k = kb->k;
    if (k->n_arrays == SIM_MAX_ARRAYS) {
        kb_error(kb, "more than %d arrays", SIM_MAX_ARRAYS);
        return -1;
    }
    sim_array *a = &k->arrays[k->n_arrays];
    snprintf(a->name, sizeof a->name, "%s", name);
    a->space = space;
    a->bytes = bytes;
    if (space == SIM_SPACE_GLOBAL) {
        a->base = kb->next_global;
        kb->next_global += (bytes + 4095) & ~4095ull;
    } else {
        a->base = kb->next_shared;
        kb->next_shared += (bytes + 15) & ~15ull;
        if ((int)kb->next_shared > k->shmem_bytes)
            k->shmem_bytes = (int)kb->next_shared;
    }
    return k->n_arrays++;
}

int sim_kb_global(sim_kb *kb, const char *name, uint64_t bytes)
{
    return kb_array(kb, name, bytes, SIM_SPACE_GLOBAL);
}

int sim_kb_shared(sim_kb *kb, const char *name, uint64_t bytes)
{
    return kb_array(kb, name, bytes, SIM_SPACE_SHARED);
}

void sim_kb_regs(sim_kb *kb, int regs)
{
    if (kb && regs > kb->k->regs_per_thread)
        kb->k->regs_per_thread = regs;
}

void sim_kb_shmem(sim_kb *kb, int bytes)
{
    if (kb && bytes > kb->k->shmem_bytes)
        kb->k->shmem_bytes = bytes;
}

sim_var sim_kb_derived(sim_kb *kb, sim_affine e, int64_t div, int64_t mod)
{
    if (!kb)
        return SIM_D0;
    sim_kernel *k = kb->k;
    if (k->n_derived == SIM_MAX_DERIVED) {
        kb_error(kb, "more than %d derived variables", SIM_MAX_DERIVED);
        return SIM_D0;
    }
    if (div < 1 || mod < 0)
        kb_error(kb, "derived variable d%d: div must be >= 1 and mod >= 0", k->n_derived);
    for (int v = SIM_TX; v <= SIM_TZ; v++)
        if (e.k[v])
            kb_error(kb, "derived variable d%d uses a thread index", k->n_derived);
    for (int v = SIM_D0 + k->n_derived; v < SIM_VAR_COUNT; v++)
        if (e.k[v])
            kb_error(kb, "derived variable d%d uses a later derived variable", k->n_derived);
    k->derived[k->n_derived] = (sim_derived){e, div < 1 ? 1 : div, mod < 0 ? 0 : mod};
    return (sim_var)(SIM_D0 + k->n_derived++);
}

void sim_kb_alu(sim_kb *kb, sim_op op, sim_alu alu, int dst, int s0, int s1, int s2)
{
    if (op != SIM_OP_INT && op != SIM_OP_FP && op != SIM_OP_DP && op != SIM_OP_SFU) {
        kb_error(kb, "sim_kb_alu: %s is not an ALU class", sim_op_name(op));
        return;
    }
    sim_inst *in = kb_push(kb, op);
    if (!in)
        return;
    in->alu = (uint8_t)(alu < SIM_ALU_COUNT ? alu : SIM_ALU_ADD);
    in->dst = (uint8_t)kb_reg(kb, dst);
    in->src[0] = (uint8_t)kb_reg(kb, s0);
    in->src[1] = (uint8_t)kb_reg(kb, s1);
    in->src[2] = (uint8_t)kb_reg(kb, s2);
}

static int addr_space(sim_kb *kb, const sim_addr *a)
{
    if (a->array < 0 || a->array >= kb->k->n_arrays) {
        kb_error(kb, "instruction %d: no array %d", kb->k->n_code - 1, a->array);
        return -1;
    }
    int e = a->elem_bytes;
    if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16)
        kb_error(kb, "instruction %d: element size %d is not 1, 2, 4, 8 or 16",
                 kb->k->n_code - 1, e);
    if (a->n_dims < 1 || a->n_dims > SIM_MAX_ADDR_DIMS)
        kb_error(kb, "instruction %d: %d address dimensions", kb->k->n_code - 1, a->n_dims);
    return kb->k->arrays[a->array].space;
}

static void kb_mem(sim_kb *kb, int load, int dst_or_src, sim_addr a, unsigned flags)
{
    if (!kb)
        return;
    sim_inst *in = kb_push(kb, SIM_OP_EXIT);
    if (!in)
        return;
    int space = addr_space(kb, &a);
    if (space == SIM_SPACE_SHARED)
        in->op = load ? SIM_OP_LD_SHARED : SIM_OP_ST_SHARED;
    else
        in->op = load ? SIM_OP_LD_GLOBAL : SIM_OP_ST_GLOBAL;
    if ((flags & SIM_INST_VOLATILE) && space != SIM_SPACE_GLOBAL)
        kb_error(kb, "instruction %d: volatile loads are global", kb->k->n_code - 1);
    in->flags = (uint8_t)flags;
    in->addr = a;
    if (load)
        in->dst = (uint8_t)kb_reg(kb, dst_or_src);
    else
        in->src[0] = (uint8_t)kb_reg(kb, dst_or_src);
}

void sim_kb_ld(sim_kb *kb, int dst, sim_addr a)
{
    kb_mem(kb, 1, dst, a, 0);
}

void sim_kb_ld_volatile(sim_kb *kb, int dst, sim_addr a)
{
    kb_mem(kb, 1, dst, a, SIM_INST_VOLATILE);
}

void sim_kb_st(sim_kb *kb, sim_addr a, int src)
{
    kb_mem(kb, 0, src, a, 0);
}

void sim_kb_atomic(sim_kb *kb, int dst, sim_addr a, uint32_t value)
{
    if (!kb)
        return;
    sim_inst *in = kb_push(kb, SIM_OP_ATOMIC);
    if (!in)
        return;
    if (addr_space(kb, &a) != SIM_SPACE_GLOBAL)
        kb_error(kb, "instruction %d: atomics are global", kb->k->n_code - 1);
    if (a.elem_bytes != 4)
        kb_error(kb, "instruction %d: atomics are on 32-bit words", kb->k->n_code - 1);
    in->addr = a;
    in->value = value;
    in->dst = (uint8_t)kb_reg(kb, dst);
}

void sim_kb_uses(sim_kb *kb, int r)
{
    if (!kb)
        return;
    if (!kb->k->n_code) {
        kb_error(kb, "sim_kb_uses before any instruction");
        return;
    }
    sim_inst *in = &kb->k->code[kb->k->n_code - 1];
    for (int i = 0; i < 3; i++)
        if (in->src[i] == SIM_NO_REG) {
            in->src[i] = (uint8_t)kb_reg(kb, r);
            return;
        }
    kb_error(kb, "instruction %d: more than 3 source registers", kb->k->n_code - 1);
}

void sim_kb_unit(sim_kb *kb, int unit)
{
    if (!kb)
        return;
    int n = kb->k->n_code;
    int op = n ? kb->k->code[n - 1].op : -1;
    if (op != SIM_OP_INT && op != SIM_OP_FP && op != SIM_OP_DP && op != SIM_OP_SFU)
        kb_error(kb, "sim_kb_unit: the last instruction is not an ALU class");
    else if (unit < 2 || unit > SIM_SPEC_UNITS)
        kb_error(kb, "sim_kb_unit: unit %d is not 2..%d", unit, SIM_SPEC_UNITS);
    else
        kb->k->code[n - 1].unit = (uint8_t)unit;
}

void sim_kb_bar(sim_kb *kb)
{
    kb_push(kb, SIM_OP_BAR);
}

void sim_kb_fence(sim_kb *kb)
{
    kb_push(kb, SIM_OP_FENCE);
}

static void kb_open(sim_kb *kb)
{
    if (kb->n_open == (int)(sizeof kb->open / sizeof kb->open[0]))
        kb_error(kb, "nesting deeper than 64");
    else
        kb->open[kb->n_open++] = kb->k->n_code - 1;
}

void sim_kb_if(sim_kb *kb, sim_pred p)
{
    sim_inst *in = kb_push(kb, SIM_OP_IF);
    if (!in)
        return;
    if (p.n > SIM_MAX_CONDS)
        kb_error(kb, "instruction %d: more than %d conditions", kb->k->n_code - 1,
                 SIM_MAX_CONDS);
    in->pred = p;
    kb_open(kb);
}

void sim_kb_else(sim_kb *kb)
{
    if (!kb)
        return;
    if (!kb->n_open || kb->k->code[kb->open[kb->n_open - 1]].op != SIM_OP_IF) {
        kb_push(kb, SIM_OP_ELSE);
        kb_error(kb, "instruction %d: ELSE without IF", kb->k->n_code - 1);
        return;
    }
    int at = kb->open[--kb->n_open];
    if (!kb_push(kb, SIM_OP_ELSE))
        return;
    kb->k->code[at].match = kb->k->n_code - 1;
    kb_open(kb);
}

void sim_kb_endif(sim_kb *kb)
{
    if (!kb)
        return;
    int ok = kb->n_open && (kb->k->code[kb->open[kb->n_open - 1]].op == SIM_OP_IF ||
                            kb->k->code[kb->open[kb->n_open - 1]].op == SIM_OP_ELSE);
    if (!kb_push(kb, SIM_OP_ENDIF))
        return;
    if (!ok) {
        kb_error(kb, "instruction %d: ENDIF without IF", kb->k->n_code - 1);
        return;
    }
    int at = kb->open[--kb->n_open];
    kb->k->code[at].match = kb->k->n_code - 1;
}

static void loop_open(sim_kb *kb, sim_affine trips, unsigned flags)
{
    sim_inst *in = kb_push(kb, SIM_OP_LOOP);
    if (!in)
        return;
    in->trips = trips;
    in->flags = (uint8_t)flags;
    for (int v = SIM_TX; v <= SIM_TZ; v++)
        if (trips.k[v])
            kb_error(kb, "instruction %d: a loop's trip count may not use thread indices",
                     kb->k->n_code - 1);
    if (++kb->loops_open > SIM_MAX_LOOP_DEPTH)
        kb_error(kb, "instruction %d: loops nested deeper than %d", kb->k->n_code - 1,
                 SIM_MAX_LOOP_DEPTH);
    kb_open(kb);
}

static void loop_close(sim_kb *kb, unsigned flags, int reg, sim_affine target)
{
    if (!kb)
        return;
    int ok = kb->n_open && kb->k->code[kb->open[kb->n_open - 1]].op == SIM_OP_LOOP &&
             (kb->k->code[kb->open[kb->n_open - 1]].flags & SIM_INST_SPIN) == flags;
    sim_inst *in = kb_push(kb, SIM_OP_ENDLOOP);
    if (!in)
        return;
    if (!ok) {
        kb_error(kb, "instruction %d: %s without a matching %s", kb->k->n_code - 1,
                 flags ? "ENDSPIN" : "ENDLOOP", flags ? "SPIN" : "LOOP");
        return;
    }
    in->flags = (uint8_t)flags;
    in->spin_reg = (uint8_t)kb_reg(kb, reg);
    in->trips = target;
    int at = kb->open[--kb->n_open];
    kb->loops_open--;
    kb->k->code[at].match = kb->k->n_code - 1;
    in->match = at;
}

void sim_kb_loop(sim_kb *kb, sim_affine trips)
{
    if (kb)
        loop_open(kb, trips, 0);
}

void sim_kb_endloop(sim_kb *kb)
{
    loop_close(kb, 0, SIM_NO_REG, SIM_AFF(.c = 0));
}

void sim_kb_spin(sim_kb *kb)
{
    if (kb)
        loop_open(kb, SIM_AFF(.c = 0), SIM_INST_SPIN);
}

void sim_kb_endspin(sim_kb *kb, int reg, sim_affine target)
{
    if (kb && (reg < 0 || reg >= SIM_MAX_REGS))
        kb_error(kb, "ENDSPIN needs a register");
    loop_close(kb, SIM_INST_SPIN, reg, target);
}

void sim_kb_global_barrier(sim_kb *kb, int counter, sim_affine stage, int64_t blocks, int reg)
{
    if (!kb)
        return;
    sim_kernel *k = kb->k;
    if (blocks > k->barrier_blocks)
        k->barrier_blocks = blocks;
    /* counter[stage * 32] (one 128-byte line per stage) */
    sim_addr word = sim_at1(counter, 4, sim_ix(sim_aff_scale(stage, 32)));
    sim_affine linear_tid = SIM_AFF(.k[SIM_TX] = 1, .k[SIM_TY] = k->block.x,
                                    .k[SIM_TZ] = (int64_t)k->block.x * k->block.y);
    sim_kb_fence(kb);
    sim_kb_bar(kb);
    sim_kb_if(kb, sim_pred1(linear_tid, SIM_EQ));
    sim_kb_atomic(kb, reg, word, 1);
    sim_kb_spin(kb);
    sim_kb_ld_volatile(kb, reg, word);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, reg, reg, SIM_NO_REG, SIM_NO_REG);  /* the compare */
    sim_kb_endspin(kb, reg, SIM_AFF(.c = blocks));
    sim_kb_endif(kb);
    sim_kb_bar(kb);
}

static int uses_loop_var(const sim_affine *e, int depth)
{
    for (int v = SIM_L0 + depth; v <= SIM_L3; v++)
        if (e->k[v])
            return 1;
    return 0;
}

static void check_addr_loops(sim_kb *kb, const sim_addr *a, int depth, int i)
{
    for (int d = 0; d < a->n_dims && d < SIM_MAX_ADDR_DIMS; d++)
        if (uses_loop_var(&a->index[d].e, depth))
            kb_error(kb, "instruction %d: uses a loop counter outside its loop", i);
}

trapeze_status sim_kb_end(sim_kb *kb, sim_kernel **out, trapeze_error *err)
{
    *out = NULL;
    if (!kb)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "kernel builder: out of memory");
    sim_kernel *k = kb->k;
    if (kb->n_open)
        kb_error(kb, "instruction %d (%s) is never closed", kb->open[kb->n_open - 1],
                 sim_op_name((sim_op)k->code[kb->open[kb->n_open - 1]].op));
    if (k->grid.x < 1 || k->grid.y < 1 || k->grid.z < 1)
        kb_error(kb, "grid %dx%dx%d is empty", k->grid.x, k->grid.y, k->grid.z);
    if (k->block.x < 1 || k->block.y < 1 || k->block.z < 1 || sim_kernel_block_threads(k) > 4096)
        kb_error(kb, "block %dx%dx%d is not 1..4096 threads", k->block.x, k->block.y,
                 k->block.z);
    if (!kb->error[0]) {
        /* loop counters used only inside their loops; derived vars defined */
        int depth = 0;
        for (int i = 0; i < k->n_code; i++) {
            const sim_inst *in = &k->code[i];
            if (in->op == SIM_OP_LOOP) {
                if (uses_loop_var(&in->trips, depth))
                    kb_error(kb, "instruction %d: trip count uses its own loop counter", i);
                depth++;
            } else if (in->op == SIM_OP_ENDLOOP) {
                depth--;
            } else if (in->op >= SIM_OP_LD_GLOBAL && in->op <= SIM_OP_ATOMIC) {
                check_addr_loops(kb, &in->addr, depth, i);
            } else if (in->op == SIM_OP_IF) {
                for (int c = 0; c < in->pred.n; c++)
                    if (uses_loop_var(&in->pred.c[c].e, depth))
                        kb_error(kb, "instruction %d: uses a loop counter outside its loop", i);
            }
            const sim_affine *es[SIM_MAX_ADDR_DIMS + SIM_MAX_CONDS + 1];
            int n = 0;
            if (in->op >= SIM_OP_LD_GLOBAL && in->op <= SIM_OP_ATOMIC)
                for (int d = 0; d < in->addr.n_dims; d++)
                    es[n++] = &in->addr.index[d].e;
            if (in->op == SIM_OP_IF)
                for (int c = 0; c < in->pred.n; c++)
                    es[n++] = &in->pred.c[c].e;
            if (in->op == SIM_OP_LOOP || in->op == SIM_OP_ENDLOOP)
                es[n++] = &in->trips;
            for (int j = 0; j < n; j++)
                for (int v = SIM_D0 + k->n_derived; v < SIM_VAR_COUNT; v++)
                    if (es[j]->k[v])
                        kb_error(kb, "instruction %d: derived variable d%d is not defined", i,
                                 v - SIM_D0);
        }
    }
    if (kb->error[0]) {
        trapeze_status s = trapeze_fail(err, TRAPEZE_EINVAL, "kernel %s: %s", k->name,
                                        kb->error);
        sim_kernel_destroy(k);
        free(kb);
        return s;
    }
    kb_push(kb, SIM_OP_EXIT);
    if (kb->error[0]) {
        sim_kernel_destroy(k);
        free(kb);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "kernel builder: out of memory");
    }
    if (k->regs_per_thread < kb->max_reg + 1)
        k->regs_per_thread = kb->max_reg + 1;
    if (k->regs_per_thread < 1)
        k->regs_per_thread = 1;
    *out = k;
    free(kb);
    return TRAPEZE_OK;
}
