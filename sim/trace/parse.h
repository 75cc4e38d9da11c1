/*
 * parse.h - sim/trace's own line-level parsing of kernel-N.traceg text:
 * header lines, the per-block structure lines and instruction lines, each
 * from a [begin, end) span of one line. Shared by the opening pass and the
 * streaming reader; not part of the library's interface.
 */
#ifndef TRAPEZE_SIM_TRACE_PARSE_H
#define TRAPEZE_SIM_TRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/kernel.h"
#include "sim/trace/trace.h"

/* What reading an instruction line depends on, from the header. */
typedef struct sim_trace_format {
    int version;            /* -accelsim tracer version (default 4) */
    int lineinfo;           /* -enable lineinfo: a line number precedes the PC */
    uint64_t shmem_base;    /* -shmem base_addr: start of the shared window */
    uint64_t local_base;    /* -local mem base_addr: its end */
} sim_trace_format;

/* The classifications of the opcodes a trace has used (sim_trace_classify
 * is a pure function of the opcode's text, and a kernel uses a few dozen
 * opcodes a million times): direct-mapped on a hash of the text, an entry
 * replaced when another opcode hashes to it. Zeroed: empty. */
#define SIM_TRACE_OPCACHE_SLOTS 64
#define SIM_TRACE_OPCACHE_TEXT 32
typedef struct sim_trace_opcache_slot {
    uint8_t len;                           /* 0: empty */
    char text[SIM_TRACE_OPCACHE_TEXT];
    sim_trace_class cls;
} sim_trace_opcache_slot;
typedef struct sim_trace_opcache {
    sim_trace_opcache_slot slot[SIM_TRACE_OPCACHE_SLOTS];
} sim_trace_opcache;

/* Parses one instruction line into out (registers folded to the simulator's
 * 64, addresses decompressed, shared addresses made window offsets).
 * Returns NULL, or what was expected, with *at the offending token (NULL at
 * the end of the line). cls receives the opcode's classification, from
 * cache when it holds the opcode (NULL: classified every time). */
const char *sim_trace_parse_inst(const sim_trace_format *f, sim_trace_opcache *cache,
                                 const char *p, const char *end, sim_warp_inst *out,
                                 sim_trace_class *cls, const char **at);

/* 1 for the ops that access memory (loads, stores, atomics): the ones
 * whose addresses a line carries. */
int sim_trace_op_is_memory(int op);

/* `KEY N` (e.g. "warp = 3", "insts = 120"): 1 and *v when the line is
 * exactly the key followed by a whole number from 0 to max. */
int sim_trace_key_number(const char *p, const char *end, const char *key, long long max,
                         long long *v);

/* 1 when the line, spaces trimmed, is exactly word. */
int sim_trace_line_is(const char *p, const char *end, const char *word);

/* 1 when the line holds nothing but spaces. */
int sim_trace_line_blank(const char *p, const char *end);

/* Fills err with "path:line: expected WHAT, got 'TOKEN'" (the rest of the
 * line instead of one token when whole_line; "got the end of the line"
 * when at is NULL) and returns TRAPEZE_EPARSE. */
trapeze_status sim_trace_fail_line(trapeze_error *err, const char *path, long long line,
                                   const char *what, const char *at, const char *end,
                                   int whole_line);

#endif
