/*
 * linememo.c - the memo of whole instruction lines (linememo.h). Owns the
 * slots only: when to consult it, and that a line it remembers was valid,
 * are the reader's.
 */
#include "sim/trace/linememo.h"
#include "sim/trace/parse.h"

sim_trace_line_slot *sim_trace_line_slot_of(sim_trace_line_memo *m, const char *p,
                                            const char *e)
{
    size_t n = (size_t)(e - p);
    if (!m || n == 0 || n > SIM_TRACE_LINE_TEXT)
        return NULL;
    return &m->slot[sim_trace_text_hash(p, n, 0) % SIM_TRACE_LINE_SLOTS];
}

int sim_trace_line_store(sim_trace_line_slot *slot, const char *p, const char *e, int known,
                         int op, const uint8_t *bytes, size_t n)
{
    if (!slot || n > SIM_TRACE_LINE_BYTES)
        return 0;
    slot->len = (uint8_t)(e - p);
    slot->n = (uint8_t)n;
    slot->known = (uint8_t)!!known;
    slot->op = (uint8_t)op;
    slot->pool = SIM_TRACE_LINE_NO_POOL;
    memcpy(slot->text, p, slot->len);
    memcpy(slot->bytes, bytes, n);
    return 1;
}
