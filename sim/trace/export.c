/*
 * export.c - writing program kernels as an Accel-Sim trace (kernelslist.g
 * and one kernel-N.traceg per launch, tracer version 4), by running the
 * program interpreter for every warp and printing each dynamic instruction
 * with the opcode table's exported name for its class and sub-op, so the
 * trace reads back to the same instructions. Addresses are compressed as
 * the Accel-Sim tracer does (base+stride, else base+deltas). Every file is
 * written through common/outfile.c: a temporary file renamed when complete,
 * removed on an error or a SIGINT/SIGTERM.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/outfile.h"
#include "sim/trace/trace.h"

#define SHMEM_BASE 0x00007f0000000000ull   /* the shared window the header declares */
#define LOCAL_BASE 0x00007f0001000000ull

/* The table row the exporter writes for (op, alu, unit), or NULL. Classes
 * other than the ALU ones have one row, with sub-op ADD and no unit. */
static const sim_trace_opcode *export_row(int op, int alu, int unit)
{
    int n;
    const sim_trace_opcode *t = sim_trace_opcodes(&n);
    if (op > SIM_OP_SFU)
        alu = unit = 0;
    for (int i = 0; i < n; i++)
        if (t[i].exported && t[i].op == op && t[i].alu == alu && t[i].unit == unit)
            return &t[i];
    return NULL;
}

/* The opcode with the modifiers that carry the access width (Accel-Sim
 * reads the width from them), volatility, or the MUFU function. */
static int opcode_text(const sim_warp_inst *in, char *buf, size_t size)
{
    const sim_trace_opcode *r = export_row(in->op, in->alu, in->unit);
    if (!r)
        return 0;
    static const char *const width[17] = {[1] = ".U8", [2] = ".U16", [8] = ".64", [16] = ".128"};
    const char *w = in->size <= 16 && width[in->size] ? width[in->size] : "";
    switch (in->op) {
    case SIM_OP_LD_GLOBAL:
        snprintf(buf, size, "LDG.E%s%s", w, in->flags & SIM_INST_VOLATILE ? ".STRONG.GPU" : "");
        break;
    case SIM_OP_ST_GLOBAL:
        snprintf(buf, size, "STG.E%s", w);
        break;
    case SIM_OP_LD_SHARED:
    case SIM_OP_ST_SHARED:
        snprintf(buf, size, "%s%s", r->mnemonic, w);
        break;
    case SIM_OP_ATOMIC:
        snprintf(buf, size, "%s.E.ADD.STRONG.GPU", in->dst == SIM_NO_REG ? "RED" : "ATOMG");
        break;
    case SIM_OP_BAR:
        snprintf(buf, size, "BAR.SYNC");
        break;
    case SIM_OP_FENCE:
        snprintf(buf, size, "MEMBAR.SC.GPU");
        break;
    default:
        snprintf(buf, size, "%s%s%s", r->mnemonic, r->modifier ? "." : "",
                 r->modifier ? r->modifier : "");
    }
    return 1;
}

/* The tracer's compression: one contiguous run of active lanes with a
 * constant stride (mode 1), else base and deltas (mode 2). */
static void write_addresses(FILE *f, const sim_warp_inst *in)
{
    uint32_t m = in->active;
    if (!m) {
        fprintf(f, " 1 0x0 0");
        return;
    }
    int first = __builtin_ctz(m), last = 31 - __builtin_clz(m);
    uint32_t run = m >> first;
    int contiguous = (run & (run + 1)) == 0 && last > first;
    int64_t stride = contiguous ? (int64_t)(in->addr[first + 1] - in->addr[first]) : 0;
    for (int l = first + 1; contiguous && l <= last; l++)
        contiguous = (int64_t)(in->addr[l] - in->addr[l - 1]) == stride;
    if (contiguous && stride >= INT32_MIN && stride <= INT32_MAX) {
        fprintf(f, " 1 0x%llx %lld", (unsigned long long)in->addr[first], (long long)stride);
        return;
    }
    fprintf(f, " 2 0x%llx", (unsigned long long)in->addr[first]);
    for (int l = first + 1, prev = first; l <= last; l++)
        if (m >> l & 1) {
            fprintf(f, " %lld", (long long)(in->addr[l] - in->addr[prev]));
            prev = l;
        }
}

static void write_inst(FILE *f, const sim_warp_inst *in, int32_t pc, const char *opcode)
{
    fprintf(f, "%04x %08x ", (unsigned)pc * 16, (unsigned)in->active);
    if (in->dst != SIM_NO_REG)
        fprintf(f, "1 R%d ", in->dst);
    else
        fprintf(f, "0 ");
    int ns = 0;
    for (int i = 0; i < 3; i++)
        ns += in->src[i] != SIM_NO_REG;
    fprintf(f, "%s %d", opcode, ns);
    for (int i = 0; i < 3; i++)
        if (in->src[i] != SIM_NO_REG)
            fprintf(f, " R%d", in->src[i]);
    int mem = in->op >= SIM_OP_LD_GLOBAL && in->op <= SIM_OP_ATOMIC;
    fprintf(f, " %d", mem ? in->size : 0);
    if (mem)
        write_addresses(f, in);
    fputc('\n', f);
}

/* The static instruction the interpreter's next() emits from cursor c: it
 * first resolves a pending loop-closing branch, then passes over ENDIF and
 * LOOP. Spin loops are refused before export, so only counters decide. */
static int32_t next_static_index(const sim_kernel *k, sim_warp_cursor c)
{
    if (c.pending_branch >= 0) {
        int l = c.loops - 1;
        if (++c.counter[l] < c.trips[l]) {
            c.pc = c.loop_pc[l] + 1;
        } else {
            c.loops--;
            c.pc++;
        }
    }
    while (c.pc < k->n_code) {
        const sim_inst *in = &k->code[c.pc];
        if (in->op == SIM_OP_ENDIF) {
            c.pc++;
        } else if (in->op == SIM_OP_LOOP) {
            int64_t trips = sim_eval_uniform(k, &c, &in->trips);
            if (trips <= 0) {
                c.pc = in->match + 1;
            } else {
                c.counter[c.loops] = 0;
                c.trips[c.loops] = trips;
                c.loop_pc[c.loops] = c.pc;
                c.loops++;
                c.pc++;
            }
        } else {
            return c.pc;
        }
    }
    return k->n_code - 1;
}

static int emitted_by(int static_op, int dyn_op)
{
    if (static_op == SIM_OP_IF || static_op == SIM_OP_ELSE || static_op == SIM_OP_ENDLOOP)
        return dyn_op == SIM_OP_BRANCH;
    return static_op == dyn_op;
}

/* Runs one warp through the interpreter; writes its lines when f is given,
 * else only counts them. */
static trapeze_status run_warp(const sim_kernel *k, int bx, int by, int bz, int w, FILE *f,
                               long long *count, trapeze_error *err)
{
    static const uint32_t no_values[SIM_MAX_REGS];
    sim_warp_cursor cur;
    sim_warp_inst in;
    char opcode[48];
    sim_program_source.warp_start(NULL, k, &cur, bx, by, bz, w);
    *count = 0;
    for (;;) {
        int32_t pc = f ? next_static_index(k, cur) : 0;
        if (!sim_program_source.next(NULL, k, &cur, no_values, &in))
            return TRAPEZE_OK;
        (*count)++;
        if (!f)
            continue;
        if (!emitted_by(k->code[pc].op, in.op) || !opcode_text(&in, opcode, sizeof opcode))
            return trapeze_fail(err, TRAPEZE_EFAIL, "kernel %s: cannot export instruction %d "
                                "(%s)", k->name, pc, sim_op_name((sim_op)in.op));
        write_inst(f, &in, pc, opcode);
    }
}

static void write_header(FILE *f, const sim_kernel *k, int id)
{
    fprintf(f, "-kernel name = %s\n-kernel id = %d\n", k->name, id);
    fprintf(f, "-grid dim = (%d,%d,%d)\n-block dim = (%d,%d,%d)\n", k->grid.x, k->grid.y,
            k->grid.z, k->block.x, k->block.y, k->block.z);
    fprintf(f, "-shmem = %d\n-nregs = %d\n-binary version = 70\n-cuda stream id = 0\n",
            k->shmem_bytes, k->regs_per_thread);
    fprintf(f, "-shmem base_addr = 0x%016llx\n-local mem base_addr = 0x%016llx\n",
            SHMEM_BASE, LOCAL_BASE);
    fprintf(f, "-nvbit version = none (written by trapeze trace export)\n"
               "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
               "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask "
               "dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] "
               "[mem_addresses]\n\n");
}

/* Stops at the first failed write (a full disk): the rest of the blocks
 * would only be simulated to be lost. */
static trapeze_status write_blocks(FILE *f, const sim_kernel *k, const char *path,
                                   trapeze_error *err)
{
    int warps = (sim_kernel_block_threads(k) + SIM_WARP_LANES - 1) / SIM_WARP_LANES;
    for (long id = 0; id < sim_kernel_blocks(k); id++) {
        int bx = (int)(id % k->grid.x), by = (int)(id / k->grid.x % k->grid.y);
        int bz = (int)(id / ((long)k->grid.x * k->grid.y));
        fprintf(f, "#BEGIN_TB\n\nthread block = %d,%d,%d\n\n", bx, by, bz);
        for (int w = 0; w < warps; w++) {
            long long n;
            trapeze_status s = run_warp(k, bx, by, bz, w, NULL, &n, err);
            if (!s) {
                fprintf(f, "warp = %d\ninsts = %lld\n", w, n);
                s = run_warp(k, bx, by, bz, w, f, &n, err);
            }
            if (s)
                return s;
            fputc('\n', f);
        }
        fprintf(f, "#END_TB\n\n");
        if (ferror(f))
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", path,
                                strerror(errno ? errno : EIO));
    }
    return TRAPEZE_OK;
}

/* What makes a kernel impossible to export, checked on its static program. */
static trapeze_status check_exportable(const sim_kernel *k, trapeze_error *err)
{
    if (k->source || !k->code)
        return trapeze_fail(err, TRAPEZE_EINVAL, "kernel %s: not a program kernel", k->name);
    for (int i = 0; i < k->n_code; i++) {
        const sim_inst *in = &k->code[i];
        if (in->flags & SIM_INST_SPIN)
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "kernel %s: instruction %d is a spin loop, whose trip count "
                                "depends on run-time values (other blocks' progress); a trace "
                                "would freeze one run's count, so export is refused", k->name, i);
        if (in->op <= SIM_OP_SFU && !export_row(in->op, in->alu, in->unit))
            return trapeze_fail(err, TRAPEZE_EINVAL, "kernel %s: instruction %d (%s, sub-op %d, "
                                "unit %d) has no SASS opcode (divisions are instruction "
                                "sequences in SASS; a specialized unit exports as TEX, HMMA or "
                                "UIADD3)", k->name, i, sim_op_name((sim_op)in->op), in->alu,
                                in->unit);
    }
    return TRAPEZE_OK;
}

/* DIR/NAME into path, or an error if it does not fit (never a cut name). */
static trapeze_status file_path(char *path, size_t size, const char *dir, const char *name,
                                trapeze_error *err)
{
    if ((size_t)snprintf(path, size, "%s/%s", dir, name) >= size)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: the folder's path is too long", dir);
    return TRAPEZE_OK;
}

/* Writes one file through common/outfile.c: committed when write() says so
 * and every byte reached the disk, else removed (also on SIGINT/SIGTERM). */
static trapeze_status write_file(const char *path, const sim_kernel *k, int id, int n,
                                 trapeze_error *err)
{
    trapeze_outfile *o;
    FILE *f;
    trapeze_status s = trapeze_outfile_open_stream(path, &o, &f, err);
    if (s)
        return s;
    if (k) {
        write_header(f, k, id);
        s = write_blocks(f, k, path, err);
    } else {
        for (int i = 0; i < n; i++)
            fprintf(f, "kernel-%d.traceg\n", i + 1);
    }
    if (s) {
        trapeze_outfile_abort(o);
        return s;
    }
    return trapeze_outfile_commit(o, err);
}

trapeze_status sim_trace_export(sim_kernel *const *ks, int n, const char *dir,
                                trapeze_error *err)
{
    return sim_trace_export_each(ks, n, dir, NULL, NULL, err);
}

trapeze_status sim_trace_export_each(sim_kernel *const *ks, int n, const char *dir,
                                     trapeze_trace_written written, void *ctx,
                                     trapeze_error *err)
{
    for (int i = 0; i < n; i++) {
        trapeze_status s = check_exportable(ks[i], err);
        if (s)
            return s;
    }
    /* "-" is standard output for an output file (common/outfile.c); a
     * trace is a folder of files, which a stream cannot hold */
    if (!strcmp(dir, "-"))
        return trapeze_fail(err, TRAPEZE_EINVAL, "-: a trace is a folder (kernelslist.g and a "
                            "file a kernel), not standard output; give a folder name");
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot create the directory: %s", dir,
                            strerror(errno));
    char path[4096], name[64];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "kernel-%d.traceg", i + 1);
        trapeze_status s = file_path(path, sizeof path, dir, name, err);
        if (!s)
            s = write_file(path, ks[i], i + 1, 0, err);
        if (s)
            return s;
        if (written)
            written(ctx, i + 1, n);
    }
    trapeze_status s = file_path(path, sizeof path, dir, "kernelslist.g", err);
    return s ? s : write_file(path, NULL, 0, n, err);
}
