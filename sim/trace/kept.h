/*
 * kept.h - the decoded form of a thread block's instructions that the
 * trace reader's opening pass keeps, so that the simulation does not parse
 * the same lines a second time. Private to sim/trace.
 */
#ifndef TRAPEZE_SIM_TRACE_KEPT_H
#define TRAPEZE_SIM_TRACE_KEPT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/kernel.h"

/* One block: its warps' instructions, one after another, each warp a run
 * of bytes from off holding n instructions (the reader stores 4-byte
 * offsets into its pool of kept forms, one an instruction). */
typedef struct sim_trace_kept_warp {
    size_t off;
    long long n;
} sim_trace_kept_warp;

typedef struct sim_trace_kept_block {
    uint8_t *bytes;
    size_t len, cap;
    sim_trace_kept_warp warp[];   /* warps_per_block */
} sim_trace_kept_block;

/* The most bytes one instruction takes (fields, kind, 32 addresses). */
#define SIM_TRACE_KEPT_MAX_INST (24 + 1 + 8 * SIM_WARP_LANES)

/* Writes in's kept form (a memory instruction with its active lanes'
 * addresses) to out (SIM_TRACE_KEPT_MAX_INST bytes); its length. */
size_t sim_trace_kept_encode(const sim_warp_inst *in, uint8_t *out);

/* Appends n bytes of kept form to b. 0 when out of memory. */
int sim_trace_kept_append(sim_trace_kept_block *b, const uint8_t *bytes, size_t n);

/* Reads the instruction at *p into out and advances *p: out then holds what
 * the parser wrote for the line (a memory instruction's inactive lanes 0;
 * a non-memory instruction's addresses left as they were). */
void sim_trace_kept_get(const uint8_t **p, sim_warp_inst *out);

#endif
