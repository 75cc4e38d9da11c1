/*
 * linememo.h - whole instruction lines the trace reader has already read,
 * and what reading them gave: their kept form (kept.h) and whether their
 * opcode is known. Reading a line is a pure function of its text once the
 * header is read, and a kernel repeats most of its lines: every warp of a
 * block runs the same ALU lines, every block the same shared-memory lines
 * (tz_matmul_tiled_128: 1,719 distinct lines in 231,424). Private to
 * sim/trace.
 */
#ifndef TRAPEZE_SIM_TRACE_LINEMEMO_H
#define TRAPEZE_SIM_TRACE_LINEMEMO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Direct-mapped on a hash of the text; a slot is replaced when another
 * line hashes to it. A line longer than a slot's text, or whose kept form
 * is longer than its bytes, is never remembered. */
#define SIM_TRACE_LINE_SLOTS 1024
#define SIM_TRACE_LINE_TEXT 120
#define SIM_TRACE_LINE_BYTES 72
#define SIM_TRACE_LINE_NO_POOL UINT32_MAX

typedef struct sim_trace_line_slot {
    uint8_t len;      /* the text's bytes; 0: empty */
    uint8_t n;        /* the kept form's bytes */
    uint8_t known;    /* the opcode is one Trapeze knows */
    uint8_t op;       /* its sim_op (the opening pass counts instructions by it) */
    uint32_t pool;    /* the reader's copy of bytes (its kept-form pool), or
                         SIM_TRACE_LINE_NO_POOL */
    char text[SIM_TRACE_LINE_TEXT];
    uint8_t bytes[SIM_TRACE_LINE_BYTES];
} sim_trace_line_slot;

typedef struct sim_trace_line_memo {
    sim_trace_line_slot slot[SIM_TRACE_LINE_SLOTS];
} sim_trace_line_memo;

/* The slot of line [p, e), or NULL without a memo or for a line too long. */
sim_trace_line_slot *sim_trace_line_slot_of(sim_trace_line_memo *m, const char *p,
                                            const char *e);

/* 1 when slot remembers line [p, e). */
static inline int sim_trace_line_hit(const sim_trace_line_slot *slot, const char *p,
                                     const char *e)
{
    return slot && slot->len == (size_t)(e - p) && !memcmp(slot->text, p, slot->len);
}

/* Remembers line [p, e) in its slot (from sim_trace_line_slot_of; NULL:
 * nothing), with no pool copy: its kept form bytes[0, n), whether its
 * opcode is known and its sim_op. 1 when remembered, 0 when the kept form
 * is too long. */
int sim_trace_line_store(sim_trace_line_slot *slot, const char *p, const char *e, int known,
                         int op, const uint8_t *bytes, size_t n);

#endif
