/*
 * kept.c - the compact decoded form of trace instructions (kept.h). Owns
 * the encoding only: which blocks are kept, and the memory budget, are the
 * reader's. An instruction is its fixed fields, a kind byte and, for a
 * memory instruction, its active lanes' addresses in one of four forms:
 * base + k * stride (the common coalesced case: 16 bytes whatever the
 * lanes), base + runs of equal steps (a 16x16 block's warp: two rows, three
 * runs, 24 bytes), base + 32-bit deltas, or every address in full.
 * Decoding gives back exactly what sim_trace_parse_inst wrote, so a kept block simulates
 * bit for bit as its text does.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/trace/kept.h"
#include "sim/trace/parse.h"
#include "sim/mem/popcount.h"

enum { KIND_NONE, KIND_STRIDE, KIND_DELTA32, KIND_FULL, KIND_RUNS };

/* A run: `count` lanes, each `step` past the one before (steps within int32) */
#define RUN_BYTES 5

/* op .. unit: the fields before addr (padding excluded) */
#define FIELDS (offsetof(sim_warp_inst, unit) + sizeof(uint8_t))

static int reserve(sim_trace_kept_block *b, size_t more)
{
    if (b->len + more <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *p = realloc(b->bytes, cap);
    if (!p)
        return 0;
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
 * the fewest bytes; d[1..n-1] receives the steps between lanes, *runs
 * their runs and ends[] the lane after each but the last (for KIND_RUNS).
 * Loops without early exits: they vectorize. */
static int address_kind(const uint64_t *a, int n, uint64_t *d, uint8_t *ends, int *runs)
{
    uint64_t off_stride = 0, far = 0, far_step = 0;
    int changes = 0;
    for (int k = 1; k < n; k++)
        d[k] = a[k] - a[k - 1];
    for (int k = 1; k < n; k++) {
        off_stride |= d[k] ^ d[1];
        far |= (a[k] - a[0] + 0x80000000u) >> 32;   /* outside int32 */
        far_step |= (d[k] + 0x80000000u) >> 32;
    }
    if (!off_stride)
        return KIND_STRIDE;
    for (int k = 2; k < n; k++) {
        ends[changes] = (uint8_t)k;
        changes += d[k] != d[k - 1];
    }
    ends[changes] = (uint8_t)n;
    *runs = changes + 1;
    size_t run_bytes = !far_step ? 1 + RUN_BYTES * (size_t)*runs : SIZE_MAX;
    size_t delta_bytes = !far ? 4 * (size_t)(n - 1) : SIZE_MAX;
    if (run_bytes < delta_bytes && run_bytes < 8 * (size_t)(n - 1))
        return KIND_RUNS;
    return !far ? KIND_DELTA32 : KIND_FULL;
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

int sim_trace_kept_append(sim_trace_kept_block *b, const uint8_t *bytes, size_t n)
{
    if (!reserve(b, n))
        return 0;
    memcpy(b->bytes + b->len, bytes, n);
    b->len += n;
    return 1;
}

size_t sim_trace_kept_encode(const sim_warp_inst *in, uint8_t *out)
{
    int is_memory = sim_trace_op_is_memory(in->op);
    uint8_t *p = out;
    memcpy(p, in, FIELDS);
    p += FIELDS;
    uint64_t a[SIM_WARP_LANES];
    int n = is_memory ? gather(in, a) : 0;
    uint64_t d[SIM_WARP_LANES];
    uint8_t ends[SIM_WARP_LANES];
    int runs = 0;
    int kind = !is_memory ? KIND_NONE : n > 1 ? address_kind(a, n, d, ends, &runs)
                                              : KIND_STRIDE;
    *p++ = (uint8_t)kind;
    if (kind == KIND_RUNS) {
        put64(&p, a[0]);
        *p++ = (uint8_t)runs;
        for (int r = 0, k = 1; r < runs; k = ends[r++]) {
            int32_t step = (int32_t)(int64_t)d[k];
            *p++ = (uint8_t)(ends[r] - k);
            memcpy(p, &step, 4);
            p += 4;
        }
    } else if (kind == KIND_STRIDE) {
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
    return (size_t)(p - out);
}

/* Scatters the n addresses of a[] to the active lanes of out (n < 32). */
static void scatter(sim_warp_inst *out, const uint64_t *a)
{
    memset(out->addr, 0, sizeof out->addr);
    int k = 0;
    for (uint32_t m = out->active; m; m &= m - 1)
        out->addr[__builtin_ctz(m)] = a[k++];
}

/* A run from x to y by steps of sign `step` that passes 2^64 (a shared
 * offset below the window): its ends do not bound it. */
static int wraps(uint64_t x, uint64_t y, int64_t step)
{
    return step > 0 ? y < x : y > x;
}

/* The bounds of the runs' ends (a run that does not wrap is monotone
 * between them). */
static void span(sim_warp_inst *out, uint64_t x, uint64_t y)
{
    out->flags |= SIM_INST_SPAN;
    out->addr_bound[0] = x < y ? x : y;
    out->addr_bound[1] = x < y ? y : x;
}

void sim_trace_kept_get(const uint8_t **pp, sim_warp_inst *out)
{
    const uint8_t *p = *pp;
    memcpy(out, p, FIELDS);
    p += FIELDS;
    int kind = *p++;
    if (kind != KIND_NONE) {
        /* A whole warp's addresses are decoded in place: the copy through
         * a[] was a tenth of a shared-memory-heavy trace's time. */
        uint64_t tmp[SIM_WARP_LANES];
        int n = sim_popcount32(out->active);
        uint64_t *a = n == SIM_WARP_LANES ? out->addr : tmp;
        /* the runs' ends bound their addresses (SIM_INST_SPAN: the shared
         * memory's conflict check then needs no pass over the lanes) */
        if (kind == KIND_STRIDE) {
            uint64_t a0 = get64(&p), d = get64(&p);
            for (int k = 0; k < n; k++)
                a[k] = a0 + d * (uint64_t)k;
            uint64_t end = a0 + d * (uint64_t)(n > 0 ? n - 1 : 0);
            if (!wraps(a0, end, (int64_t)d))
                span(out, a0, end);
        } else if (kind == KIND_RUNS) {
            a[0] = get64(&p);
            uint64_t lo = a[0], hi = a[0];
            int k = 1, wrapped = 0;
            for (int r = *p++; r > 0; r--, p += RUN_BYTES) {
                int32_t step;
                memcpy(&step, p + 1, 4);
                uint64_t from = a[k - 1], dk = (uint64_t)(int64_t)step;
                int count = p[0];
                for (int j = 1; j <= count; j++)   /* not a[k - 1] + step: vectorizes */
                    a[k + j - 1] = from + dk * (uint64_t)j;
                k += count;
                wrapped |= wraps(from, a[k - 1], step);
                lo = a[k - 1] < lo ? a[k - 1] : lo;
                hi = a[k - 1] > hi ? a[k - 1] : hi;
            }
            if (!wrapped)
                span(out, lo, hi);
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
        if (a == tmp)
            scatter(out, a);
    }
    *pp = p;
}
