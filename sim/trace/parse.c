/*
 * parse.c - reading single lines of kernel-N.traceg text: instruction lines
 * (PC, mask, registers, opcode, width and the three address compression
 * modes) and the small `key = number` structure lines. Pure functions over
 * a line's bytes; knows nothing of files, blocks or the simulator's timing.
 */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "sim/trace/parse.h"

#define RZ 255   /* SASS's zero register: no dependence */

typedef struct tokens {
    const char *p, *end;
} tokens;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* is_space as a table: one load a byte in the tokenizers below. */
static const uint8_t SEP[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 1};

static inline int is_sep(char c)
{
    return SEP[(unsigned char)c];
}

/* Skips to the next token: its first byte, or NULL at the end. */
static inline const char *token_start(tokens *s)
{
    const char *p = s->p, *end = s->end;
    while (p < end && is_sep(*p))
        p++;
    s->p = p;
    return p < end ? p : NULL;
}

static int next_token(tokens *s, const char **t, size_t *n)
{
    const char *p = token_start(s), *end = s->end;
    if (!p)
        return 0;
    *t = p;
    while (p < end && !is_sep(*p))
        p++;
    s->p = p;
    *n = (size_t)(p - *t);
    return 1;
}

/* A byte's hex value plus one (0: not a hex digit): one load a digit on
 * the parser's hottest path, the address lists. */
static const uint8_t HEX1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
    ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hex_digit(char c)
{
    return HEX1[(unsigned char)c] - 1;
}

/* Hex with an optional 0x, at most max_digits significant digits. */
static int parse_hex(const char *t, size_t n, int max_digits, uint64_t *v)
{
    if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        t += 2;
        n -= 2;
    }
    if (n == 0)
        return 0;
    uint64_t x = 0;
    int digits = 0;
    for (size_t i = 0; i < n; i++) {
        int d = hex_digit(t[i]);
        if (d < 0)
            return 0;
        if (x || d)
            digits++;
        if (digits > max_digits)
            return 0;
        x = x << 4 | (uint64_t)d;
    }
    *v = x;
    return 1;
}

static int parse_dec(const char *t, size_t n, long long lo, long long hi, long long *v)
{
    size_t i = 0;
    int neg = 0;
    if (n && (t[0] == '-' || t[0] == '+')) {
        neg = t[0] == '-';
        i = 1;
    }
    if (i >= n)
        return 0;
    long long x = 0;
    for (; i < n; i++) {
        if (t[i] < '0' || t[i] > '9' || x > (1LL << 56))
            return 0;
        x = x * 10 + (t[i] - '0');
    }
    x = neg ? -x : x;
    if (x < lo || x > hi)
        return 0;
    *v = x;
    return 1;
}

/* The next token read as parse_dec reads it, in one pass over its bytes
 * (most of a trace's tokens are numbers: the address lists' deltas):
 * 1 read, 0 no token left, -1 a token that is not a decimal in [lo, hi].
 * *t is the token's first byte. */
static inline int next_dec(tokens *s, const char **t, long long lo, long long hi, long long *v)
{
    const char *p = token_start(s), *end = s->end;
    if (!p)
        return 0;
    *t = p;
    int neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    const char *digits = p;
    long long x = 0;
    while (p < end && (unsigned)(*p - '0') < 10u && x <= (1LL << 56))
        x = x * 10 + (*p++ - '0');
    s->p = p;
    if (p == digits || (p < end && !is_sep(*p)))
        return -1;
    x = neg ? -x : x;
    if (x < lo || x > hi)
        return -1;
    *v = x;
    return 1;
}

/* The same for parse_hex (an optional 0x, at most max_digits significant
 * digits). */
static inline int next_hex(tokens *s, const char **t, int max_digits, uint64_t *v)
{
    const char *p = token_start(s), *end = s->end;
    if (!p)
        return 0;
    *t = p;
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && !is_sep(p[2]))
        p += 2;
    const char *first = p;
    while (p < end && *p == '0')   /* leading zeros are not significant */
        p++;
    const char *sig = p;
    uint64_t x = 0;
    int d;
    while (p < end && (d = HEX1[(unsigned char)*p]) != 0) {
        x = x << 4 | (uint64_t)(d - 1);   /* past 16 digits refused below */
        p++;
    }
    s->p = p;
    if (p == first || p - sig > max_digits || (p < end && !is_sep(*p)))
        return -1;
    *v = x;
    return 1;
}

/* Mode 2's deltas are most of a trace's bytes, nearly all one space and a
 * short unsigned number ("4", "452"): read here in one tight pass; 0 (the
 * tokens untouched) sends anything else, errors included, to next_dec. At
 * most 13 digits, so that the value stays inside mode 2's +-2^48 range. */
static inline int quick_delta(tokens *s, long long *v)
{
    const char *p = s->p, *end = s->end;
    if (end - p < 2 || p[0] != ' ' || (unsigned)(p[1] - '0') >= 10u)
        return 0;
    long long x = p[1] - '0';
    const char *stop = end - p > 14 ? p + 14 : end;
    for (p += 2; p < stop && (unsigned)(*p - '0') < 10u; p++)
        x = x * 10 + (*p - '0');
    if (p < end && !is_sep(*p))
        return 0;
    s->p = p;
    *v = x;
    return 1;
}

/* R<n>, n from 0 to 255; RZ (R255) is no register; the others fold onto
 * the simulator's SIM_MAX_REGS scoreboard entries (n mod 64). */
static int parse_reg(const char *t, size_t n, uint8_t *reg)
{
    long long r;
    if (n < 2 || t[0] != 'R' || !parse_dec(t + 1, n - 1, 0, 255, &r) || t[1] == '-' ||
        t[1] == '+')
        return 0;
    *reg = r == RZ ? SIM_NO_REG : (uint8_t)(r % SIM_MAX_REGS);
    return 1;
}

static int valid_opcode(const char *t, size_t n)
{
    if (!(t[0] >= 'A' && t[0] <= 'Z'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= '0' && t[i] <= '9') || t[i] == '.' ||
              t[i] == '_'))
            return 0;
    return 1;
}

int sim_trace_op_is_memory(int op)
{
    return op >= SIM_OP_LD_GLOBAL && op <= SIM_OP_ATOMIC;
}

#define NEXT(what)                           \
    do {                                     \
        if (!next_token(&s, &t, &n)) {       \
            *at = NULL;                      \
            return what;                     \
        }                                    \
        *at = t;                             \
    } while (0)

/* NEXT and parse_dec (parse_hex) in one: what names the number expected. */
#define NEXT_DEC(what, lo, hi, v)                   \
    do {                                            \
        int r_ = next_dec(&s, &t, lo, hi, v);       \
        *at = r_ ? t : NULL;                        \
        if (r_ <= 0)                                \
            return what;                            \
    } while (0)
#define NEXT_HEX(what, digits, v)                   \
    do {                                            \
        int r_ = next_hex(&s, &t, digits, v);       \
        *at = r_ ? t : NULL;                        \
        if (r_ <= 0)                                \
            return what;                            \
    } while (0)

/* The memo slot of mode 2's delta text [p, p + n) under mask (a hash of
 * both, eight bytes a step), or NULL without a memo or when the text is
 * longer than a slot holds. */
static sim_trace_delta_slot *delta_slot(sim_trace_memo *memo, const char *p, size_t n,
                                        uint32_t mask)
{
    if (!memo || n > SIM_TRACE_DELTA_TEXT)
        return NULL;
    return &memo->delta[sim_trace_text_hash(p, n, mask) % SIM_TRACE_DELTA_SLOTS];
}

/* 1 when slot holds the deltas of [p, p + n) under mask. */
static int delta_hit(const sim_trace_delta_slot *slot, const char *p, size_t n, uint32_t mask)
{
    return slot && slot->len == n && n && slot->mask == mask && !memcmp(slot->text, p, n);
}

/* The address list after the width: mode and addresses into out->addr. */
static const char *parse_addresses(tokens *sp, sim_trace_memo *memo, sim_warp_inst *out,
                                   const char **at)
{
    tokens s = *sp;
    const char *t;
    long long mode, x;
    uint64_t a;
    uint32_t mask = out->active;
    NEXT_DEC("an address mode (0, 1 or 2)", 0, 2, &mode);
    int first = mask ? __builtin_ctz(mask) : 32;
    if (mode == 0) {
        for (int l = 0; l < SIM_WARP_LANES; l++)
            if (mask >> l & 1) {
                NEXT_HEX("one hex address per active lane (mode 0)", 16, &out->addr[l]);
            }
    } else if (mode == 1) {
        NEXT_HEX("a hex base address (mode 1)", 16, &a);
        NEXT_DEC("a decimal stride (mode 1)", INT32_MIN, INT32_MAX, &x);
        /* base + stride describes one run of consecutive active lanes */
        uint32_t run = mask >> (first & 31);
        if (mask && (run & (run + 1)) != 0) {
            *at = NULL;
            return "mode 1 only with a contiguous run of active lanes";
        }
        for (int l = first, i = 0; l < SIM_WARP_LANES && (mask >> l & 1); l++, i++)
            out->addr[l] = a + (uint64_t)(x * i);
    } else {
        NEXT_HEX("a hex base address (mode 2)", 16, &a);
        size_t rest = (size_t)(s.end - s.p);
        sim_trace_delta_slot *slot = delta_slot(memo, s.p, rest, mask);
        const char *start = s.p;
        if (delta_hit(slot, s.p, rest, mask)) {
            if (mask == 0xffffffffu) {   /* the common case, without the lane search */
                out->addr[0] = a;
                for (int l = 1; l < SIM_WARP_LANES; l++)
                    out->addr[l] = a += (uint64_t)slot->delta[l - 1];
            } else {
                int k = 0;
                for (uint32_t m = mask; m; m &= m - 1) {
                    a += k ? (uint64_t)slot->delta[k - 1] : 0;
                    out->addr[__builtin_ctz(m)] = a;
                    k++;
                }
            }
            s.p += slot->used;
        } else {
            int64_t d[SIM_WARP_LANES - 1];
            int k = 0;
            for (uint32_t m = mask; m; m &= m - 1) {
                if (k) {
                    if (!quick_delta(&s, &x))
                        NEXT_DEC("a decimal delta for each further active lane (mode 2)",
                                 -(1LL << 48), 1LL << 48, &x);
                    a += (uint64_t)x;
                    d[k - 1] = x;
                }
                out->addr[__builtin_ctz(m)] = a;
                k++;
            }
            if (slot && rest) {   /* read whole: remembered */
                slot->len = (uint16_t)rest;
                slot->used = (uint16_t)(s.p - start);
                slot->mask = mask;
                memcpy(slot->text, start, rest);
                memcpy(slot->delta, d, (size_t)(k > 1 ? k - 1 : 0) * sizeof d[0]);
            }
        }
    }
    *sp = s;
    return NULL;
}

/* Shared accesses are offsets in the block's shared memory; generic ones
 * inside [shmem_base, local_base) are shared (Accel-Sim's rule). */
static void resolve_space(const sim_trace_format *f, const sim_trace_class *c,
                          sim_warp_inst *out)
{
    uint64_t lane0 = out->active ? out->addr[__builtin_ctz(out->active)] : 0;
    int in_window = f->shmem_base && lane0 >= f->shmem_base &&
                    (!f->local_base || f->local_base <= f->shmem_base || lane0 < f->local_base);
    if (c->generic && in_window)
        out->op = out->op == SIM_OP_LD_GLOBAL ? SIM_OP_LD_SHARED : SIM_OP_ST_SHARED;
    if ((out->op == SIM_OP_LD_SHARED || out->op == SIM_OP_ST_SHARED) && in_window)
        for (int l = 0; l < SIM_WARP_LANES; l++)
            if (out->active >> l & 1)
                out->addr[l] -= f->shmem_base;
}

static void add_source(sim_warp_inst *out, uint8_t r)
{
    if (r == SIM_NO_REG)
        return;
    for (int i = 0; i < 3; i++) {
        if (out->src[i] == r)
            return;
        if (out->src[i] == SIM_NO_REG) {
            out->src[i] = r;
            return;
        }
    }
}

/* sim_trace_classify through the cache (an opcode longer than an entry's
 * text is classified every time). */
static void classify(sim_trace_memo *cache, const char *t, size_t n, sim_trace_class *cls)
{
    if (!cache || n >= SIM_TRACE_OPCACHE_TEXT) {
        sim_trace_classify(t, n, cls);
        return;
    }
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)t[i]) * 16777619u;
    sim_trace_opcache_slot *e = &cache->slot[h % SIM_TRACE_OPCACHE_SLOTS];
    if (e->len == n && !memcmp(e->text, t, n)) {
        *cls = e->cls;
        return;
    }
    sim_trace_classify(t, n, cls);
    e->len = (uint8_t)n;
    memcpy(e->text, t, n);
    e->cls = *cls;
}

const char *sim_trace_parse_inst(const sim_trace_format *f, sim_trace_memo *cache,
                                 const char *p, const char *end, sim_warp_inst *out,
                                 sim_trace_class *cls, const char **at)
{
    tokens s = {p, end};
    const char *t;
    size_t n;
    uint64_t v;
    long long count, x;
    uint8_t reg;
    if (f->lineinfo) {
        NEXT_DEC("a source line number", 0, INT32_MAX, &x);
    }
    NEXT_HEX("a PC (hex)", 16, &v);
    out->pc = (uint32_t)v;
    NEXT_HEX("an active mask (hex, at most 8 digits)", 8, &v);
    out->active = (uint32_t)v;
    out->flags = 0;
    out->value = 1;
    out->dst = out->src[0] = out->src[1] = out->src[2] = SIM_NO_REG;
    NEXT_DEC("a destination count (0 to 4)", 0, 4, &count);
    for (long long i = 0; i < count; i++) {
        NEXT("a destination register R0..R255");
        if (!parse_reg(t, n, &reg))
            return "a destination register R0..R255";
        if (out->dst == SIM_NO_REG)
            out->dst = reg;
    }
    NEXT("an opcode");
    if (!valid_opcode(t, n))
        return "an opcode (capitals, digits and dots)";
    classify(cache, t, n, cls);
    out->op = cls->op;
    out->alu = cls->alu;
    out->unit = cls->unit;
    out->flags = cls->flags;
    NEXT_DEC("a source count (0 to 8)", 0, 8, &count);
    for (long long i = 0; i < count; i++) {
        NEXT("a source register R0..R255");
        if (!parse_reg(t, n, &reg))
            return "a source register R0..R255";
        add_source(out, reg);
    }
    NEXT_DEC("a memory width (0: not a memory access)", 0, 1024, &x);
    int mem = sim_trace_op_is_memory(out->op);
    if (mem && x == 0)
        return "a memory width > 0 for a memory opcode";
    if (x > 0) {
        memset(out->addr, 0, sizeof out->addr);
        const char *e = parse_addresses(&s, cache, out, at);
        if (e)
            return e;
    }
    out->size = mem ? cls->size : 0;
    if (mem && cls->size != 1 && cls->size != 2 && cls->size != 4 && cls->size != 8 &&
        cls->size != 16) {
        *at = NULL;
        return "an access of 1, 2, 4, 8 or 16 bytes per lane (from the opcode)";
    }
    if (mem)
        resolve_space(f, cls, out);
    if (f->version >= 5 && next_token(&s, &t, &n)) {
        *at = t;
        if (!parse_dec(t, n, INT64_MIN / 2, INT64_MAX / 2, &x) && !parse_hex(t, n, 16, &v))
            return "an immediate or the end of the line";
    }
    if (next_token(&s, &t, &n)) {
        *at = t;
        return "the end of the line";
    }
    *at = NULL;   /* nothing offends (and where reading stopped depends on the memo) */
    return NULL;
}

int sim_trace_key_number(const char *p, const char *end, const char *key, long long max,
                         long long *v)
{
    tokens s = {p, end};
    const char *t;
    size_t n;
    /* the key's words, then the number, then nothing */
    for (const char *k = key; *k;) {
        while (*k == ' ')
            k++;
        const char *ke = k;
        while (*ke && *ke != ' ')
            ke++;
        if (ke == k)
            break;
        if (!next_token(&s, &t, &n) || n != (size_t)(ke - k) || memcmp(t, k, n))
            return 0;
        k = ke;
    }
    if (!next_token(&s, &t, &n) || !parse_dec(t, n, 0, max, v))
        return 0;
    return !next_token(&s, &t, &n);
}

int sim_trace_line_is(const char *p, const char *end, const char *word)
{
    tokens s = {p, end};
    const char *t;
    size_t n;
    return next_token(&s, &t, &n) && n == strlen(word) && !memcmp(t, word, n) &&
           !next_token(&s, &t, &n);
}

int sim_trace_line_blank(const char *p, const char *end)
{
    tokens s = {p, end};
    const char *t;
    size_t n;
    return !next_token(&s, &t, &n);
}

trapeze_status sim_trace_fail_line(trapeze_error *err, const char *path, long long line,
                                   const char *what, const char *at, const char *end,
                                   int whole_line)
{
    if (!at)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: expected %s, got the end of the line",
                            path, line, what);
    size_t n = 0;
    while (at + n < end && n < 60 && at[n] != '\n' && at[n] != '\r' &&
           (whole_line || !is_space(at[n])))
        n++;
    char q[256]; /* raw bytes of a binary file are shown escaped */
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: expected %s, got '%s'", path, line,
                        what, trapeze_escape(at, n, q, sizeof q));
}
