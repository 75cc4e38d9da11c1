/*
 * trapeze/trace.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Accel-Sim traces: exporting a built-in or a stencil as a trace, checking
 * a kernelslist.g, the SASS opcode table.
 */
#ifndef TRAPEZE_TRACE_H
#define TRAPEZE_TRACE_H

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/workload.h"
#include "trapeze/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* For a progress display of an export: called after each kernel's trace
 * file is written, with the kernels written of all (may be NULL). */
typedef void (*trapeze_trace_written)(void *ctx, int done, int total);

/* Writes a workload's ghost-zone stencil at height h, relaunch mode (one
 * kernel per stage; the fence mode's barrier spins on loaded values and has
 * no fixed trace), as an Accel-Sim trace in dir; out gets its shape
 * (stages = kernels written, tiles, out_edge; nothing is simulated, so no
 * cycles). iterations 0: the workload's. */
trapeze_status trapeze_trace_export_stencil(const trapeze_config *cfg, const trapeze_workload *w,
                                            int h, int iterations, const char *dir,
                                            trapeze_sim_stencil_result *out,
                                            trapeze_trace_written written, void *ctx,
                                            trapeze_error *err);

/* What trapeze trace check reports of each kernel of a kernelslist.g. */
typedef struct trapeze_trace_kernel_info {
    const char *path;                   /* the kernel's trace file */
    char name[64];
    int grid[3], block[3];
    unsigned long long warp_instructions;
    unsigned long long unknown_opcodes; /* run as integer ops */
    /* for progress displays: the bytes of the list's trace files (as stored:
     * a .xz counts compressed) read so far, this kernel's included, of all */
    unsigned long long bytes_done, bytes_total;
    /* warp instructions by what the simulator runs them as */
    unsigned long long int_ops, fp_ops;  /* integer ALU; FP32 and FP64 arithmetic */
    unsigned long long sfu_ops, branch_ops;
    unsigned long long global_loads, global_stores, shared_loads, shared_stores;
    unsigned long long other_ops;        /* atomics, barriers, fences, exits */
} trapeze_trace_kernel_info;

/* Opens every kernel trace a kernelslist.g names (one at a time) and calls
 * each with what it holds; stops at the first unreadable one. */
trapeze_status trapeze_trace_check(const char *kernelslist,
                                   void (*each)(void *ctx, const trapeze_trace_kernel_info *k),
                                   void *ctx, trapeze_error *err);

/* The SASS opcode table: i from 0 while it returns 1. */
typedef struct trapeze_trace_opcode_info {
    const char *mnemonic, *modifier;    /* modifier NULL: any */
    const char *op_class;               /* what the simulator runs it as */
    const char *alu;                    /* ADD, MAX, MUL, MAD, DIV */
    int exported;                       /* the name the exporter writes */
    const char *note;
    int unit;                           /* Accel-Sim's specialized unit (2: texture, 3: tensor,
                                         * 4: uniform) it runs on when the config enables it
                                         * (-specialized_unit_N); 0: none (branches: unit 1) */
} trapeze_trace_opcode_info;
int trapeze_trace_opcode(int i, trapeze_trace_opcode_info *out);

/* Writes a built-in's kernels as an Accel-Sim trace: DIR/kernelslist.g and
 * DIR/kernel-N.traceg; *kernels gets how many. */
trapeze_status trapeze_trace_export_builtin(const trapeze_config *cfg, const char *name, int n,
                                            char *const *settings, const char *dir,
                                            int *kernels, trapeze_trace_written written,
                                            void *ctx, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
