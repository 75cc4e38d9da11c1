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
#include <string.h>

#include "sim/kernel.h"
#include "sim/trace/trace.h"

/* What reading an instruction line depends on, from the header. */
typedef struct sim_trace_format {
    int version;            /* -accelsim tracer version (default 4) */
    int lineinfo;           /* -enable lineinfo: a line number precedes the PC */
    uint64_t shmem_base;    /* -shmem base_addr: start of the shared window */
    uint64_t local_base;    /* -local mem base_addr: its end */
} sim_trace_format;

/* What the parser remembers between lines, both direct-mapped on a hash of
 * a text, an entry replaced when another text hashes to it. Zeroed: empty.
 * op: the classifications of the opcodes a trace has used
 * (sim_trace_classify is a pure function of the opcode's text, and a kernel
 * uses a few dozen opcodes a million times). delta: mode 2's delta lists,
 * most of a trace's bytes, which a kernel repeats line after line: the
 * deltas read from the rest of a line under an active mask, and how many of
 * its bytes they took (reading them is a pure function of the two). */
#define SIM_TRACE_OPCACHE_SLOTS 64
#define SIM_TRACE_OPCACHE_TEXT 32
#define SIM_TRACE_DELTA_SLOTS 128
#define SIM_TRACE_DELTA_TEXT 184
typedef struct sim_trace_opcache_slot {
    uint8_t len;                           /* 0: empty */
    char text[SIM_TRACE_OPCACHE_TEXT];
    sim_trace_class cls;
} sim_trace_opcache_slot;
typedef struct sim_trace_delta_slot {
    uint16_t len;                          /* the text's bytes; 0: empty */
    uint16_t used;                         /* bytes the deltas took */
    uint32_t mask;
    char text[SIM_TRACE_DELTA_TEXT];
    int64_t delta[SIM_WARP_LANES - 1];     /* per further active lane, in order */
} sim_trace_delta_slot;
typedef struct sim_trace_memo {
    sim_trace_opcache_slot slot[SIM_TRACE_OPCACHE_SLOTS];
    sim_trace_delta_slot delta[SIM_TRACE_DELTA_SLOTS];
} sim_trace_memo;

/* FNV-1a over [p, p + n) eight bytes a step, from seed: the memos' hash. */
static inline uint64_t sim_trace_text_hash(const char *p, size_t n, uint64_t seed)
{
    uint64_t h = 0xcbf29ce484222325ull ^ seed, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < n; i++)
        h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
    return h ^ h >> 29;
}

/* Parses one instruction line into out (registers folded to the simulator's
 * 64, addresses decompressed, shared addresses made window offsets).
 * Returns NULL (*at NULL), or what was expected, with *at the offending
 * token (NULL at the end of the line). cls receives the opcode's classification, from
 * cache when it holds the opcode, and mode 2's deltas come from it when it
 * holds the line's (NULL: nothing remembered). */
const char *sim_trace_parse_inst(const sim_trace_format *f, sim_trace_memo *cache,
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
