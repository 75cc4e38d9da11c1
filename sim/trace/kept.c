/*
 * kept.c - the compact decoded form of trace instructions (kept.h). Owns
 * the encoding only: which blocks are kept, and the memory budget, are the
 * reader's. An instruction is its fixed fields, a kind byte and, for a
 * memory instruction, its active lanes' addresses in one of three forms:
 * base + k * stride (the common coalesced case: 16 bytes whatever the
 * lanes), base + 32-bit deltas, or every address in full. Decoding gives
 * back exactly what sim_trace_parse_inst wrote, so a kept block simulates
 * bit for bit as its text does.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/trace/kept.h"
#include "sim/trace/parse.h"
#include "sim/mem/popcount.h"

enum { KIND_NONE, KIND_STRIDE, KIND_DELTA32, KIND_FULL };

/* op .. unit: the fields before addr (padding excluded) */
#define FIELDS (offsetof(sim_warp_inst, unit) + sizeof(uint8_t))

static int reserve(sim_trace_kept_block *b, size_t more, size_t *grown)
{
    if (b->len + more <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *p = realloc(b->bytes, cap);
    if (!p)
        return 0;
    *grown += cap - b->cap;
    b->bytes = p;
    b->cap = cap;
    return 1;
}

static void put64(uint8_t **p, uint64_t v)
{
    memcpy(*p, &v, 8);
    *p += 8;
}

static uint64_t get64(const uint8_t **p)
{
    uint64_t v;
    memcpy(&v, *p, 8);
    *p += 8;
    return v;
}

/* The kind that holds the n >= 2 addresses a[] (active lanes in order) in
 * the fewest bytes. OR-ing loops without early exits: they vectorize. */
static int address_kind(const uint64_t *a, int n)
{
    uint64_t d = a[1] - a[0], off_stride = 0, far = 0;
    for (int k = 1; k < n; k++) {
        off_stride |= (a[k] - a[k - 1]) ^ d;
        far |= (a[k] - a[0] + 0x80000000u) >> 32;   /* outside int32 */
    }
    return !off_stride ? KIND_STRIDE : !far ? KIND_DELTA32 : KIND_FULL;
}

/* The active lanes' addresses, in lane order, into a; their number. */
static int gather(const sim_warp_inst *in, uint64_t *a)
{
    if (in->active == 0xffffffffu) {
        memcpy(a, in->addr, sizeof in->addr);
        return SIM_WARP_LANES;
    }
    int n = 0;
    for (uint32_t m = in->active; m; m &= m - 1)
        a[n++] = in->addr[__builtin_ctz(m)];
    return n;
}

int sim_trace_kept_put(sim_trace_kept_block *b, const sim_warp_inst *in, size_t *grown)
{
    int is_memory = sim_trace_op_is_memory(in->op);
    if (!reserve(b, SIM_TRACE_KEPT_MAX_INST, grown))
        return 0;
    uint8_t *p = b->bytes + b->len;
    memcpy(p, in, FIELDS);
    p += FIELDS;
    uint64_t a[SIM_WARP_LANES];
    int n = is_memory ? gather(in, a) : 0;
    int kind = !is_memory ? KIND_NONE : n > 1 ? address_kind(a, n) : KIND_STRIDE;
    *p++ = (uint8_t)kind;
    if (kind == KIND_STRIDE) {
        put64(&p, n ? a[0] : 0);
        put64(&p, n > 1 ? a[1] - a[0] : 0);
    } else if (kind == KIND_DELTA32) {
        put64(&p, a[0]);
        for (int k = 1; k < n; k++) {
            int32_t x = (int32_t)(int64_t)(a[k] - a[0]);
            memcpy(p, &x, 4);
            p += 4;
        }
    } else if (kind == KIND_FULL) {
        for (int k = 0; k < n; k++)
            put64(&p, a[k]);
    }
    b->len = (size_t)(p - b->bytes);
    return 1;
}

/* Scatters the n addresses of a[] to the active lanes of out. */
static void scatter(sim_warp_inst *out, const uint64_t *a, int n)
{
    if (n == SIM_WARP_LANES) {
        memcpy(out->addr, a, sizeof out->addr);
        return;
    }
    memset(out->addr, 0, sizeof out->addr);
    int k = 0;
    for (uint32_t m = out->active; m; m &= m - 1)
        out->addr[__builtin_ctz(m)] = a[k++];
}

void sim_trace_kept_get(const uint8_t **pp, sim_warp_inst *out)
{
    const uint8_t *p = *pp;
    memcpy(out, p, FIELDS);
    p += FIELDS;
    int kind = *p++;
    if (kind != KIND_NONE) {
        uint64_t a[SIM_WARP_LANES];
        int n = sim_popcount32(out->active);
        if (kind == KIND_STRIDE) {
            uint64_t a0 = get64(&p), d = get64(&p);
            for (int k = 0; k < n; k++)
                a[k] = a0 + d * (uint64_t)k;
        } else if (kind == KIND_DELTA32) {
            uint64_t a0 = get64(&p);
            int32_t x[SIM_WARP_LANES];
            memcpy(x + 1, p, 4 * (size_t)(n - 1));
            p += 4 * (n - 1);
            a[0] = a0;
            for (int k = 1; k < n; k++)
                a[k] = a0 + (uint64_t)(int64_t)x[k];
        } else {
            memcpy(a, p, 8 * (size_t)n);
            p += 8 * n;
        }
        scatter(out, a, n);
    }
    *pp = p;
}
