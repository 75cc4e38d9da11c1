/*
 * trace.h - Accel-Sim SASS traces (tracer versions 3 to 5): reading a
 * kernelslist.g and its kernel-N.traceg files as simulator kernels whose
 * instructions stream from the file, and writing any program kernel as such
 * a trace (so the same kernel can be run in Accel-Sim and compared).
 *
 * Format (what the Accel-Sim tracer writes, post-processed per block):
 *
 *   kernelslist.g   one command a line: `MemcpyHtoD,0xADDR,BYTES` (accepted,
 *                   ignored) or `kernel-N.traceg` (relative to the list's
 *                   directory); blank lines are skipped.
 *   kernel-N.traceg header lines `-key = value` (kernel name, grid dim,
 *                   block dim, shmem, nregs, shmem base_addr, local mem
 *                   base_addr, accelsim tracer version, enable lineinfo,
 *                   ...), `#` comment lines, then per thread block:
 *                   `#BEGIN_TB`, `thread block = x,y,z`, per warp
 *                   `warp = N`, `insts = M` and M instruction lines,
 *                   `#END_TB`.
 *   instruction     [line] PC mask ndst [Rd..] OPCODE nsrc [Rs..] width
 *                   [mode addresses] [imm]: PC and mask in hex, width 0 for a
 *                   non-memory instruction; mode 0 lists one hex address per
 *                   active lane, mode 1 is `0xBASE STRIDE` (a contiguous run
 *                   of active lanes at BASE + i*STRIDE), mode 2 is `0xBASE`
 *                   and one decimal delta from the previous active lane's
 *                   address for each further active lane. A leading line
 *                   number when `-enable lineinfo = 1`; a trailing immediate
 *                   from tracer version 5.
 *
 * Streaming: opening a trace reads it once, checking every line and keeping
 * only each block's byte range (O(blocks) memory). A block's section is
 * read when the simulator places the block and freed when its last warp
 * ends, so memory is bounded by the resident blocks, not the file's length.
 */
#ifndef TRAPEZE_SIM_TRACE_TRACE_H
#define TRAPEZE_SIM_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/core/gpu_sim.h"
#include "sim/kernel.h"
#include "trapeze.h"

/* ------------------------------------------------------------ opcode table */

/* One row of the SASS opcode table (sim/trace/opcodes.c). A trace opcode
 * such as LDG.E.64.SYS matches the first row whose mnemonic equals the text
 * before the first '.', and whose modifier, when given, is one of the
 * '.'-separated tokens after it. */
typedef struct sim_trace_opcode {
    const char *mnemonic;
    const char *modifier;   /* NULL: any */
    uint8_t op;             /* sim_op */
    uint8_t alu;            /* sim_alu */
    uint8_t exported;       /* 1: the name written by the exporter for (op, alu, unit) */
    const char *note;
    uint8_t unit;           /* Accel-Sim's specialized unit (2..SIM_SPEC_UNITS), 0: none */
} sim_trace_opcode;

const sim_trace_opcode *sim_trace_opcodes(int *n);

/* What an opcode means to the simulator. */
typedef struct sim_trace_class {
    uint8_t op, alu, unit;
    uint8_t flags;          /* SIM_INST_VOLATILE for .STRONG.GPU / .STRONG.SYS loads */
    uint8_t size;           /* bytes per lane: a number token / 8 (.64, .128) or U<bits>
                               / 8 (.U8, .U16), else 4 (Accel-Sim's rule) */
    uint8_t generic;        /* LD/ST/ATOM: space from the address (shared window or not) */
    uint8_t known;          /* 0: not in the table, the INT fallback */
} sim_trace_class;

void sim_trace_classify(const char *opcode, size_t len, sim_trace_class *out);

/* ------------------------------------------------------------ reading */

/* One kernel-N.traceg, checked and indexed, with a kernel (sim) whose
 * instructions stream from the file. */
typedef struct sim_trace_kernel sim_trace_kernel;

/* name, demangled when it is a mangled C++ name, into out (size bytes); a
 * name too long keeps its function name and elides the arguments. */
void sim_trace_demangle(const char *name, char *out, size_t size);
/* A trace file for reading: plain, or .xz (one or more concatenated
 * streams, decoded as they are read: no temporary file, no decompressed
 * copy; fseeko works, backward by decoding again from the start); another
 * compression (gzip, bzip2, zstd, ...) is an error naming the file. NULL
 * with err filled on failure. buf (size bytes) is the file's stdio buffer:
 * the caller frees it after fclose. When a later read fails (ferror), the
 * reason without file or line (e.g. "truncated compressed data") is in
 * *read_err, which must outlive the stream. *xz: 1 for an .xz file, whose
 * data is checked only as it is decoded. *bytes: the text's length (a plain
 * file's size, an .xz's decoded size from its indexes), -1 where unknown
 * (a pipe, a damaged .xz). xz.c. */
FILE *sim_trace_fopen(const char *path, char *buf, size_t size, trapeze_error *read_err,
                      int *xz, long long *bytes, trapeze_error *err);
/* Opens PATH, or PATH.xz when PATH does not exist, keeping up to
 * SIM_TRACE_KEEP_DEFAULT bytes of decoded blocks (below). */
trapeze_status sim_trace_kernel_open(const char *path, sim_trace_kernel **out,
                                     trapeze_error *err);
/* The same, keeping the decoded instructions of the blocks the opening pass
 * reads while they fit in keep_bytes (0: none), so that simulating them
 * does not parse their lines again; the other blocks are read from the file
 * as they run. Only speed and memory depend on keep_bytes. */
#define SIM_TRACE_KEEP_DEFAULT ((size_t)64 << 20)
trapeze_status sim_trace_kernel_open_keep(const char *path, size_t keep_bytes,
                                          sim_trace_kernel **out, trapeze_error *err);
const sim_kernel *sim_trace_kernel_sim(const sim_trace_kernel *t);
/* Warp instructions the file holds (counted by the opening pass). */
uint64_t sim_trace_kernel_warp_insts(const sim_trace_kernel *t);
/* Warp instructions of sim_op op (SIM_OP_*), counted by the opening pass. */
uint64_t sim_trace_kernel_op_count(const sim_trace_kernel *t, int op);
/* Opcodes not in the table (run as INT), counted by the opening pass. */
uint64_t sim_trace_kernel_unknown_opcodes(const sim_trace_kernel *t);
/* Largest number of bytes of block sections held at once so far. */
size_t sim_trace_kernel_peak_section_bytes(const sim_trace_kernel *t);
/* Bytes the kept blocks hold (at most the open's keep_bytes). */
size_t sim_trace_kernel_kept_bytes(const sim_trace_kernel *t);
/* An error met while streaming (the file changed or could not be read
 * after opening); TRAPEZE_OK when none. */
trapeze_status sim_trace_kernel_status(const sim_trace_kernel *t, trapeze_error *err);
void sim_trace_kernel_close(sim_trace_kernel *t);

/* The kernel traces a kernelslist.g names, in order, as paths. */
typedef struct sim_trace_list {
    int n;
    char **kernels;
} sim_trace_list;

trapeze_status sim_trace_list_read(const char *path, sim_trace_list *out, trapeze_error *err);
void sim_trace_list_free(sim_trace_list *l);

/* Runs every kernel of a kernelslist.g on g in order, one trace open at a
 * time; fills st[0..*n-1] (free each with sim_kernel_stats_free). */
trapeze_status sim_trace_run(sim_gpu *g, const char *kernelslist, sim_kernel_stats *st,
                             int max, int *n, trapeze_error *err);

/* ------------------------------------------------------------ writing */

/* Writes ks[0..n-1] (program kernels) as DIR/kernelslist.g and
 * DIR/kernel-1.traceg ...; each file goes to a temporary file renamed when
 * complete. Refuses kernels whose instruction stream depends on run-time
 * values (spin loops) and ALU divisions (no SASS opcode). */
trapeze_status sim_trace_export(sim_kernel *const *ks, int n, const char *dir,
                                trapeze_error *err);
/* The same, calling written(ctx, k, n) after each kernel file (written may
 * be NULL). */
trapeze_status sim_trace_export_each(sim_kernel *const *ks, int n, const char *dir,
                                     trapeze_trace_written written, void *ctx,
                                     trapeze_error *err);

#endif
