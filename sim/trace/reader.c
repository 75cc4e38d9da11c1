/*
 * reader.c - one kernel-N.traceg as a simulator kernel. Opening reads the
 * file once: the header, then every block section, every line checked (so
 * a malformed or truncated trace fails here, naming file, line and what was
 * expected), keeping only each block's byte range. While the simulator
 * runs, a block's section is read into memory when its first warp starts
 * and freed when its last warp ends; each warp parses its own lines as it
 * issues them. Memory: O(blocks) for the index plus the resident blocks'
 * sections, whatever the file's length.
 *
 * Kept blocks: while the decoded form of the blocks read so far fits in the
 * open's keep budget (sim_trace_kernel_open_keep), the opening pass keeps
 * each block's instructions decoded (kept.c), and the simulation reads
 * those instead of parsing the lines a second time. The first block that
 * would pass the budget is dropped and no later block is kept; a block is
 * either kept whole or read from the file. Kept blocks stay until close (a
 * kernel may be simulated more than once on one open).
 *
 * Invariants: kept_bytes <= keep_bytes, and kept_bytes is the kept blocks'
 * heads and lengths and the pool's length; a kept block holds 4-byte pool
 * offsets, each the start of an instruction's kept form; kept[id] != NULL
 * only for a block whose #END_TB the opening pass reached (or, during the
 * pass, the block being read), with every warp's n instructions
 * in [off, next warp's off); a section made from a kept block has no text.
 * Owns no timing.
 */
#define _FILE_OFFSET_BITS 64
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/error.h"
#include "common/text.h"
#include "sim/trace/kept.h"
#include "sim/trace/linememo.h"
#include "sim/trace/parse.h"

#define MAX_BLOCK_THREADS 2048
#define MAX_INSTS (1LL << 40)
/* The shortest thread-block section: "#BEGIN_TB\nthread block=0,0,0\n#END_TB" is 36 bytes. */
#define MIN_TB_BYTES 32

typedef struct tb_section tb_section;

/* One warp's position in its block's section (the cursor's ext). */
typedef struct warp_stream {
    tb_section *sec;
    const char *pos, *end;
    long long left;          /* instruction lines still to read */
    long long line;          /* file line number of pos */
} warp_stream;

struct tb_section {
    long id;
    int refs;                /* warps started and not yet ended */
    int kept;                /* warps read from t->kept[id], not from text */
    char *text;
    size_t len;
    warp_stream warp[];      /* warps_per_block */
};

/* A trace's read buffer: 256 KB reads; a block reloaded by seeking reads
 * at most this much beyond its text. */
#define TRACE_IOBUF (256 * 1024)
struct sim_trace_kernel {
    char *path;
    FILE *file;
    char *iobuf;             /* file's stdio buffer (TRACE_IOBUF bytes) */
    sim_trace_format fmt;
    sim_kernel kernel;
    int warps_per_block;
    long blocks;
    long long *tb_off, *tb_line;   /* per block id: #BEGIN_TB's byte offset and line */
    long long *tb_len;             /* bytes through its #END_TB line */
    tb_section **loaded;           /* per block id while resident */
    uint64_t warp_insts, unknown;
    uint64_t by_op[SIM_OP_COUNT];  /* warp instructions per sim_op (opening pass) */
    size_t section_bytes, peak_section_bytes;
    trapeze_error stream_err;
    trapeze_error file_err;        /* why a read of file failed (sim_trace_fopen) */
    int xz;                        /* 1: file is an .xz decoded as it is read */
    long long bytes;               /* the text's length; -1: unknown (sim_trace_fopen) */
    sim_trace_memo opcodes;     /* both passes' classifications */
    sim_trace_line_memo *lines; /* both passes' lines read (NULL: none) */
    sim_trace_kept_block **kept;   /* per block id: its decoded form, or NULL */
    size_t keep_bytes, kept_bytes; /* the budget, and what the kept blocks hold */
    int keeping;                   /* 0 once a block did not fit */
    sim_trace_kept_block *pool;    /* the kept forms, each once a memo slot holds it
                                      (its bytes; no warps) */
    /* a simulation whose SMs run in threads (set_threads): the line and
     * opcode memos, the section accounting and the stream error are shared
     * by the warps of every SM, so reading a line's text and ending a warp
     * take the lock (a kept block's warps read only their own cursor) */
    pthread_mutex_t lock;
    int locking;
};

/* ------------------------------------------------------------ header */

static void trim(const char **p, const char **e)
{
    while (*p < *e && (**p == ' ' || **p == '\t'))
        (*p)++;
    while (*e > *p && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r' || (*e)[-1] == '\n'))
        (*e)--;
}

/* "x,y,z" (in parentheses when parens), each a decimal in [lo, INT_MAX],
 * checked before it is stored (sscanf's %d would wrap 4294967297 to 1). */
static int read_triple(const char *v, int parens, long lo, sim_dim3 *d)
{
    int *out[3] = {&d->x, &d->y, &d->z};
    while (*v == ' ' || *v == '\t')
        v++;
    if (parens && *v++ != '(')
        return 0;
    for (int i = 0; i < 3; i++) {
        while (*v == ' ')
            v++;
        if (!isdigit((unsigned char)*v))
            return 0;
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (errno == ERANGE || x < lo || x > INT_MAX)
            return 0;
        *out[i] = (int)x;
        v = end;
        while (*v == ' ')
            v++;
        if (i < 2 && *v++ != ',')
            return 0;
    }
    if (parens && *v++ != ')')
        return 0;
    while (*v == ' ' || *v == '\t' || *v == '\r')
        v++;
    return *v == '\0';
}

static int value_dim3(const char *v, sim_dim3 *d)
{
    return read_triple(v, 1, 1, d);
}

static int value_long(const char *v, long lo, long hi, long *x)
{
    return trapeze_parse_long(v, x) && *x >= lo && *x <= hi;
}

static int value_hex(const char *v, uint64_t *x)
{
    char *end;
    while (*v == ' ')
        v++;
    if (!*v)
        return 0;
    *x = strtoull(v, &end, 16);
    while (*end == ' ')
        end++;
    return *end == '\0';
}

/* `-key = value`: the keys the reader uses; others are accepted unread. */
static trapeze_status header_line(sim_trace_kernel *t, const char *p, const char *e,
                                  long long line, int *seen_grid, int *seen_block,
                                  trapeze_error *err)
{
    const char *eq = memchr(p, '=', (size_t)(e - p));
    if (!eq)
        return sim_trace_fail_line(err, t->path, line, "'-key = value'", p, e, 1);
    const char *ks = p + 1, *ke = eq, *vs = eq + 1, *ve = e;
    trim(&ks, &ke);
    trim(&vs, &ve);
    char key[64], val[256];
    snprintf(key, sizeof key, "%.*s", (int)(ke - ks), ks);
    snprintf(val, sizeof val, "%.*s", (int)(ve - vs), vs);
    long x;
    const char *want = NULL;
    if (!strcmp(key, "kernel name")) {
        sim_trace_demangle(val, t->kernel.name, sizeof t->kernel.name);
    } else if (!strcmp(key, "grid dim")) {
        *seen_grid = value_dim3(val, &t->kernel.grid);
        want = *seen_grid ? NULL : "-grid dim = (x,y,z) with x, y, z >= 1";
    } else if (!strcmp(key, "block dim")) {
        *seen_block = value_dim3(val, &t->kernel.block) &&
                      sim_kernel_block_threads(&t->kernel) <= MAX_BLOCK_THREADS;
        want = *seen_block ? NULL : "-block dim = (x,y,z), at most 2048 threads";
    } else if (!strcmp(key, "shmem")) {
        if (value_long(val, 0, 1 << 30, &x))
            t->kernel.shmem_bytes = (int)x;
        else
            want = "-shmem = bytes (0 to 2^30)";
    } else if (!strcmp(key, "nregs")) {
        if (value_long(val, 0, 255, &x))
            t->kernel.regs_per_thread = x < 1 ? 1 : (int)x;
        else
            want = "-nregs = registers per thread (0 to 255)";
    } else if (!strcmp(key, "accelsim tracer version")) {
        if (value_long(val, 3, 5, &x))
            t->fmt.version = (int)x;
        else
            want = "-accelsim tracer version = 3, 4 or 5";
    } else if (!strcmp(key, "enable lineinfo")) {
        if (value_long(val, 0, 1, &x))
            t->fmt.lineinfo = (int)x;
        else
            want = "-enable lineinfo = 0 or 1";
    } else if (!strcmp(key, "shmem base_addr")) {
        want = value_hex(val, &t->fmt.shmem_base) ? NULL : "-shmem base_addr = 0xHEX";
    } else if (!strcmp(key, "local mem base_addr")) {
        want = value_hex(val, &t->fmt.local_base) ? NULL : "-local mem base_addr = 0xHEX";
    }
    if (want)
        return sim_trace_fail_line(err, t->path, line, want, vs, ve, 1);
    return TRAPEZE_OK;
}

static trapeze_status header_done(sim_trace_kernel *t, long long line, int seen_grid,
                                  int seen_block, trapeze_error *err)
{
    if (!seen_grid || !seen_block)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: expected '-%s = (x,y,z)' before the "
                            "first #BEGIN_TB", t->path, line, seen_grid ? "block dim" : "grid dim");
    long long blocks = sim_dim3_volume(t->kernel.grid);
    if (blocks > (1LL << 31))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: grid of %lld blocks (at most 2^31)",
                            t->path, blocks);
    /* Every block has a section in the file, of MIN_TB_BYTES at least: a grid
     * the file cannot hold is refused before its per-block tables exist. */
    if (t->bytes >= 0 && blocks > t->bytes / MIN_TB_BYTES)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s: a grid of %lld blocks, but a %s of %lld bytes holds at most "
                            "%lld thread blocks (%d bytes each at least)", t->path, blocks,
                            t->xz ? "decoded text" : "file", t->bytes, t->bytes / MIN_TB_BYTES,
                            MIN_TB_BYTES);
    t->blocks = (long)blocks;
    t->warps_per_block = (sim_kernel_block_threads(&t->kernel) + SIM_WARP_LANES - 1) /
                         SIM_WARP_LANES;
    size_t nb = (size_t)blocks;
    t->tb_off = malloc(nb * sizeof *t->tb_off);
    t->tb_line = calloc(nb, sizeof *t->tb_line);   /* 0: not seen yet */
    t->tb_len = malloc(nb * sizeof *t->tb_len);
    t->loaded = calloc(nb, sizeof *t->loaded);
    t->kept = calloc(nb, sizeof *t->kept);
    if (!t->tb_off || !t->tb_line || !t->tb_len || !t->loaded || !t->kept)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory for %lld blocks", t->path,
                            blocks);
    return TRAPEZE_OK;
}

/* ------------------------------------------------------------ kept blocks */

static size_t kept_head(const sim_trace_kernel *t)
{
    return sizeof(sim_trace_kept_block) +
           (size_t)t->warps_per_block * sizeof(sim_trace_kept_warp);
}

static void keep_drop(sim_trace_kernel *t, long id)
{
    sim_trace_kept_block *b = t->kept[id];
    if (!b)
        return;
    t->kept_bytes -= kept_head(t) + b->len;
    free(b->bytes);
    free(b);
    t->kept[id] = NULL;
}

/* Block id begins: kept while the budget allows (and memory: a failed
 * allocation only means the block is read from the file). */
static void keep_begin(sim_trace_kernel *t, long id)
{
    size_t head = kept_head(t);
    if (!t->keeping || t->kept_bytes + head > t->keep_bytes ||
        !(t->kept[id] = calloc(1, head))) {
        t->keeping = 0;
        return;
    }
    t->kept_bytes += head;
}

static void keep_warp(sim_trace_kernel *t, long id, long long warp, long long insts)
{
    sim_trace_kept_block *b = t->kept[id];
    if (b)
        b->warp[warp] = (sim_trace_kept_warp){b->len, insts};
}

/* Copies a kept form into the pool: 1 with *off its offset, 0 when out of
 * memory or beyond 32-bit offsets. */
static int pool_add(sim_trace_kernel *t, const uint8_t *bytes, size_t n, uint32_t *off)
{
    size_t at = t->pool ? t->pool->len : 0;
    if (at + n > UINT32_MAX || (!t->pool && !(t->pool = calloc(1, sizeof *t->pool))) ||
        !sim_trace_kept_append(t->pool, bytes, n))
        return 0;
    *off = (uint32_t)at;
    t->kept_bytes += n;
    return 1;
}

/* Appends an instruction to block id: the pool offset of its kept form,
 * the copy its memo slot (remembered: the slot holds this line) points to,
 * else a new copy of bytes[0, n). A block holds 4 bytes an instruction and
 * the pool each distinct line about once (tz_matmul_tiled_128 kept 8.6 MB
 * of whole forms; page faults were a fifth of its time). */
static void keep_inst(sim_trace_kernel *t, long id, sim_trace_line_slot *slot, int remembered,
                      const uint8_t *bytes, size_t n)
{
    sim_trace_kept_block *b = t->kept[id];
    if (!b)
        return;
    uint32_t off = remembered ? slot->pool : SIM_TRACE_LINE_NO_POOL;
    size_t need = sizeof off + (off == SIM_TRACE_LINE_NO_POOL ? n : 0);
    int ok = t->kept_bytes + need <= t->keep_bytes &&
             (off != SIM_TRACE_LINE_NO_POOL || pool_add(t, bytes, n, &off)) &&
             sim_trace_kept_append(b, (const uint8_t *)&off, sizeof off);
    if (ok) {
        t->kept_bytes += sizeof off;
        if (remembered)
            slot->pool = off;
    } else {
        keep_drop(t, id);
        t->keeping = 0;
    }
    TRAPEZE_ASSERT(t->kept_bytes <= t->keep_bytes);
}

/* Block id's #END_TB: its bytes shrink to what they hold. */
static void keep_end(sim_trace_kernel *t, long id)
{
    sim_trace_kept_block *b = t->kept[id];
    if (!b || b->len == b->cap || !b->len)
        return;
    uint8_t *p = realloc(b->bytes, b->len);
    if (p) {
        b->bytes = p;
        b->cap = b->len;
    }
}

/* ------------------------------------------------------------ the opening pass */

typedef enum { S_HEADER, S_BETWEEN, S_TB_START, S_WARPS, S_INSTS_COUNT, S_INSTS } scan_state;

typedef struct scan {
    scan_state state;
    long block;              /* current block id */
    long long block_line;    /* its #BEGIN_TB line */
    long long begin_off;     /* and byte offset */
    long long warp, insts, left;
    unsigned char *warp_seen;
    int seen_grid, seen_block;
} scan;

static trapeze_status begin_block_line(sim_trace_kernel *t, scan *s, const char *p,
                                       const char *e, long long line, trapeze_error *err)
{
    sim_dim3 b;
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)(e - p), p);
    const sim_dim3 *g = &t->kernel.grid;
    const char *v = buf;
    while (*v == ' ' || *v == '\t')
        v++;
    if (strncmp(v, "thread block", 12) != 0 || !(v = strchr(v, '=')) ||
        !read_triple(v + 1, 0, 0, &b))
        return sim_trace_fail_line(err, t->path, line, "'thread block = x,y,z'", p, e, 1);
    if (b.x < 0 || b.y < 0 || b.z < 0 || b.x >= g->x || b.y >= g->y || b.z >= g->z)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: thread block %d,%d,%d is outside "
                            "the grid (%d,%d,%d)", t->path, line, b.x, b.y, b.z, g->x, g->y, g->z);
    long id = b.x + (long)g->x * (b.y + (long)g->y * b.z);
    if (t->tb_line[id])
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: thread block %d,%d,%d appears twice "
                            "(first at line %lld)", t->path, line, b.x, b.y, b.z, t->tb_line[id]);
    t->tb_line[id] = s->block_line;
    t->tb_off[id] = s->begin_off;
    s->block = id;
    keep_begin(t, id);
    memset(s->warp_seen, 0, (size_t)t->warps_per_block);
    return TRAPEZE_OK;
}

static trapeze_status warp_line(sim_trace_kernel *t, scan *s, const char *p, const char *e,
                                long long line, long long off, long long len,
                                trapeze_error *err)
{
    if (sim_trace_line_is(p, e, "#END_TB")) {
        t->tb_len[s->block] = off + len - t->tb_off[s->block];
        keep_end(t, s->block);
        s->state = S_BETWEEN;
        return TRAPEZE_OK;
    }
    long long w;
    if (!sim_trace_key_number(p, e, "warp =", 1 << 20, &w)) {
        if (s->insts > 0)
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: expected 'warp = N' or #END_TB: "
                                "warp %lld has more instruction lines than its insts = %lld",
                                t->path, line, s->warp, s->insts);
        return sim_trace_fail_line(err, t->path, line, "'warp = N' or #END_TB", p, e, 1);
    }
    if (w >= t->warps_per_block)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: warp %lld: a block of %d threads "
                            "has warps 0 to %d", t->path, line, w,
                            sim_kernel_block_threads(&t->kernel), t->warps_per_block - 1);
    if (s->warp_seen[w])
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: warp %lld appears twice in thread "
                            "block at line %lld", t->path, line, w, s->block_line);
    s->warp_seen[w] = 1;
    s->warp = w;
    s->insts = 0;
    s->state = S_INSTS_COUNT;
    return TRAPEZE_OK;
}

static trapeze_status inst_line(sim_trace_kernel *t, scan *s, const char *p, const char *e,
                                long long line, trapeze_error *err)
{
    sim_warp_inst in;
    sim_trace_class cls;
    const char *at;
    const char *c = p;
    while (c < e && (*c == ' ' || *c == '\t'))
        c++;
    /* a warp's or block's end where an instruction was due (only a line
     * beginning with 'w' or '#' can be one: instructions begin with a hex PC) */
    if (c < e && (*c == 'w' || *c == '#') &&
        (sim_trace_key_number(p, e, "warp =", 1 << 20, &s->warp) ||
         sim_trace_line_is(p, e, "#END_TB")))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: expected instruction %lld of the "
                            "%lld that insts = announced, got '%.*s'", t->path, line,
                            s->insts - s->left + 1, s->insts, (int)(e - p), p);
    sim_trace_line_slot *slot = sim_trace_line_slot_of(t->lines, p, e);
    if (sim_trace_line_hit(slot, p, e)) {   /* read before, and valid then */
        t->warp_insts++;
        t->unknown += !slot->known;
        t->by_op[slot->op]++;
        keep_inst(t, s->block, slot, 1, slot->bytes, slot->n);
    } else {
        const char *what = sim_trace_parse_inst(&t->fmt, &t->opcodes, p, e, &in, &cls, &at);
        if (what)
            return sim_trace_fail_line(err, t->path, line, what, at, e, 0);
        t->warp_insts++;
        t->unknown += !cls.known;
        t->by_op[in.op]++; /* the parsed op: a generic LD/ST resolved by its address */
        uint8_t kept[SIM_TRACE_KEPT_MAX_INST];
        size_t n = sim_trace_kept_encode(&in, kept);
        int remembered = sim_trace_line_store(slot, p, e, cls.known, in.op, kept, n);
        keep_inst(t, s->block, slot, remembered, kept, n);
    }
    if (--s->left == 0)
        s->state = S_WARPS;
    return TRAPEZE_OK;
}

/* One line [p, e) at byte offset off (len bytes with its newline). */
static trapeze_status scan_line(sim_trace_kernel *t, scan *s, const char *p, const char *e,
                                long long line, long long off, long long len,
                                trapeze_error *err)
{
    if (sim_trace_line_blank(p, e))
        return TRAPEZE_OK;
    switch (s->state) {
    case S_HEADER:
        if (sim_trace_line_is(p, e, "#BEGIN_TB")) {
            trapeze_status st = header_done(t, line, s->seen_grid, s->seen_block, err);
            if (st)
                return st;
            s->warp_seen = calloc((size_t)t->warps_per_block, 1);
            if (!s->warp_seen)
                return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
            break;   /* begins a block, below */
        }
        if (*p == '-')
            return header_line(t, p, e, line, &s->seen_grid, &s->seen_block, err);
        if (*p == '#')
            return TRAPEZE_OK;
        return sim_trace_fail_line(err, t->path, line,
                                   "a '-key = value' header line or #BEGIN_TB", p, e, 1);
    case S_BETWEEN:
        if (!sim_trace_line_is(p, e, "#BEGIN_TB"))
            return sim_trace_fail_line(err, t->path, line, "#BEGIN_TB or the end of the file",
                                       p, e, 1);
        break;
    case S_TB_START:
        s->state = S_WARPS;
        return begin_block_line(t, s, p, e, line, err);
    case S_WARPS:
        return warp_line(t, s, p, e, line, off, len, err);
    case S_INSTS_COUNT:
        if (!sim_trace_key_number(p, e, "insts =", MAX_INSTS, &s->insts))
            return sim_trace_fail_line(err, t->path, line, "'insts = M'", p, e, 1);
        s->left = s->insts;
        keep_warp(t, s->block, s->warp, s->insts);
        s->state = s->insts ? S_INSTS : S_WARPS;
        return TRAPEZE_OK;
    case S_INSTS:
        return inst_line(t, s, p, e, line, err);
    }
    /* #BEGIN_TB */
    s->block_line = line;
    s->state = S_TB_START;
    s->begin_off = off;
    return TRAPEZE_OK;
}

static trapeze_status scan_end(sim_trace_kernel *t, const scan *s, long long line,
                               trapeze_error *err)
{
    switch (s->state) {
    case S_HEADER:
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: expected #BEGIN_TB: the trace has "
                            "no thread block", t->path, line);
    case S_BETWEEN:
        break;
    case S_INSTS:
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: truncated: expected %lld more "
                            "instruction lines of warp %lld (insts = %lld) in the thread block "
                            "begun at line %lld", t->path, line, s->left, s->warp, s->insts,
                            s->block_line);
    default:
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: truncated: expected #END_TB of the "
                            "thread block begun at line %lld", t->path, line, s->block_line);
    }
    const sim_dim3 *g = &t->kernel.grid;
    for (long id = 0; id < t->blocks; id++)
        if (!t->tb_line[id])
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: truncated: expected thread block "
                                "%ld,%ld,%ld of the (%d,%d,%d) grid", t->path, line,
                                id % g->x, id / g->x % g->y, id / ((long)g->x * g->y), g->x,
                                g->y, g->z);
    return TRAPEZE_OK;
}

/* A line of an .xz trace did not parse: an .xz stream checks its data
 * only at the end of each of its blocks, after handing it out, so damaged
 * data reads first as a bad line. Decoding on to the end tells which: a
 * decoding error replaces the parse error in err. */
static trapeze_status xz_damaged(sim_trace_kernel *t, char *buf, size_t cap, long long line,
                                 trapeze_error *err)
{
    while (fread(buf, 1, cap, t->file) > 0)
        ;
    if (!ferror(t->file) || !t->file_err.code)
        return TRAPEZE_EPARSE;
    return trapeze_fail(err, t->file_err.code, "%s:%lld: %s (the text read at this line was "
                        "damaged)", t->path, line, t->file_err.message);
}

/* Reads past the rest of a line whose first cap bytes fill buf; leaves in
 * buf[0..*have) what follows its newline. Returns the line's length with
 * its newline. */
static size_t skip_line(FILE *f, char *buf, size_t cap, size_t *have, int *eof)
{
    size_t skipped = cap;
    *have = 0;
    for (;;) {
        size_t got = fread(buf, 1, cap, f);
        if (got == 0) {
            *eof = 1;
            return skipped;
        }
        char *nl = memchr(buf, '\n', got);
        if (nl) {
            size_t used = (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, got - used);
            *have = got - used;
            return skipped + used;
        }
        skipped += got;
    }
}

/* The lines of t->file, read in chunks: each line is scanned where it lies
 * in the chunk (getline copied every line, a quarter of a short trace's
 * opening); a line that runs past the chunk is moved to its start. A line
 * longer than the chunk (1 MiB) is passed over as it streams when it is a
 * header comment, else refused: memory stays bounded whatever the file (an
 * .xz that decodes to gigabytes of one byte included). Four times the
 * stdio buffer, so that fread fills it from the file without a copy
 * through that buffer. */
static trapeze_status scan_file(sim_trace_kernel *t, trapeze_error *err)
{
    scan s = {.state = S_HEADER};
    size_t cap = 4 * TRACE_IOBUF, have = 0, pos = 0;
    char *buf = malloc(cap);
    long long off = 0, line = 0;
    int eof = 0;
    trapeze_status st = buf ? TRAPEZE_OK : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    while (!st) {
        char *nl = memchr(buf + pos, '\n', have - pos);
        if (!nl && !eof) {   /* the rest of the chunk, then more */
            memmove(buf, buf + pos, have - pos);
            have -= pos;
            pos = 0;
            if (have == cap && s.state == S_HEADER && buf[0] == '#') {
                /* a header comment longer than the chunk: passed over as it
                 * streams, never held */
                long long skipped = (long long)skip_line(t->file, buf, cap, &have, &eof);
                line++;
                off += skipped;
                continue;
            }
            if (have == cap) {   /* any other line longer than the chunk: not a trace */
                st = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%lld: a line longer than %zu bytes "
                                  "(a trace's longest, an instruction with 32 addresses, is "
                                  "under 1 KB): not a trace", t->path, line + 1, cap);
                break;
            }
            size_t got = fread(buf + have, 1, cap - have, t->file);
            if (got == 0 && ferror(t->file))
                break;   /* before the part line left reads as a bad one */
            eof = got == 0;
            have += got;
            continue;
        }
        if (!nl && pos == have)
            break;
        const char *e = nl ? nl : buf + have;   /* a last line without a newline */
        size_t n = (size_t)(e - (buf + pos)) + (nl != NULL);
        line++;
        st = scan_line(t, &s, buf + pos, e, line, off, (long long)n, err);
        off += (long long)n;
        pos += n;
    }
    if (st == TRAPEZE_EPARSE && t->xz)
        st = xz_damaged(t, buf, cap, line, err);
    if (!st && ferror(t->file))
        st = t->file_err.code ? trapeze_fail(err, t->file_err.code, "%s:%lld: %s", t->path,
                                             line + 1, t->file_err.message)
                              : trapeze_fail(err, TRAPEZE_EIO, "%s: read error after line %lld",
                                             t->path, line);
    if (!st)
        st = scan_end(t, &s, line + 1, err);
    free(buf);
    free(s.warp_seen);
    return st;
}

/* ------------------------------------------------------------ streaming */

static void stream_fail(sim_trace_kernel *t, trapeze_status code, const char *what,
                        long long line)
{
    if (!t->stream_err.code)
        trapeze_fail(&t->stream_err, code, "%s:%lld: %s", t->path, line, what);
}

/* The next line of [*p, end): its end in *e (without the newline). */
static const char *take_line(const char **p, const char *end, const char **e)
{
    const char *s = *p;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    *e = nl ? nl : end;
    *p = nl ? nl + 1 : end;
    return s;
}

/* Where each warp's instruction lines begin in a block's section. */
static void index_warps(sim_trace_kernel *t, tb_section *sec)
{
    const char *p = sec->text, *end = sec->text + sec->len, *e;
    long long line = t->tb_line[sec->id] - 1, v, w = -1;
    while (p < end) {
        const char *s = take_line(&p, end, &e);
        line++;
        if (sim_trace_key_number(s, e, "warp =", t->warps_per_block - 1, &v)) {
            w = v;
        } else if (w >= 0 && sim_trace_key_number(s, e, "insts =", MAX_INSTS, &v)) {
            warp_stream *ws = &sec->warp[w];
            ws->pos = p;
            ws->line = line + 1;
            ws->left = v;
            for (long long i = 0; i < v && p < end; line++) {
                s = take_line(&p, end, &e);
                i += !sim_trace_line_blank(s, e);
            }
            w = -1;
        }
    }
}

/* A kept block's section: each warp's cursor in the decoded bytes. */
static void kept_warps(const sim_trace_kernel *t, const sim_trace_kept_block *b,
                       tb_section *sec)
{
    sec->kept = 1;
    for (int w = 0; w < t->warps_per_block; w++) {
        warp_stream *ws = &sec->warp[w];
        ws->sec = sec;
        ws->left = b->warp[w].n;
        if (ws->left) {
            ws->pos = (const char *)b->bytes + b->warp[w].off;
            ws->end = (const char *)b->bytes + b->len;
        }
    }
}

static tb_section *load_section(sim_trace_kernel *t, long id)
{
    size_t head = sizeof(tb_section) + (size_t)t->warps_per_block * sizeof(warp_stream);
    tb_section *sec = calloc(1, head);
    if (sec && t->kept[id]) {
        sec->id = id;
        kept_warps(t, t->kept[id], sec);
        t->section_bytes += head;
        if (t->section_bytes > t->peak_section_bytes)
            t->peak_section_bytes = t->section_bytes;
        return sec;
    }
    size_t len = (size_t)t->tb_len[id];
    char *text = malloc(len + 1);
    if (!sec || !text) {
        free(sec);
        free(text);
        stream_fail(t, TRAPEZE_ENOMEM, "out of memory for a thread block", t->tb_line[id]);
        return NULL;
    }
    if (fseeko(t->file, (off_t)t->tb_off[id], SEEK_SET) || fread(text, 1, len, t->file) != len) {
        free(sec);
        free(text);
        stream_fail(t, TRAPEZE_EIO, t->file_err.code ? t->file_err.message
                    : "cannot read this thread block again (file changed?)", t->tb_line[id]);
        return NULL;
    }
    text[len] = '\0';
    sec->id = id;
    sec->text = text;
    sec->len = len;
    for (int w = 0; w < t->warps_per_block; w++) {
        sec->warp[w].sec = sec;
        sec->warp[w].end = text + len;
    }
    index_warps(t, sec);
    t->section_bytes += head + len;
    if (t->section_bytes > t->peak_section_bytes)
        t->peak_section_bytes = t->section_bytes;
    return sec;
}

static void trace_warp_start(void *self, const sim_kernel *k, sim_warp_cursor *cur, int bx,
                             int by, int bz, int warp)
{
    sim_trace_kernel *t = self;
    long id = bx + (long)k->grid.x * (by + (long)k->grid.y * bz);
    cur->bid[0] = bx;
    cur->bid[1] = by;
    cur->bid[2] = bz;
    cur->ext = NULL;
    if (!t->loaded[id])
        t->loaded[id] = load_section(t, id);
    tb_section *sec = t->loaded[id];
    if (!sec)
        return;
    sec->refs++;
    cur->ext = &sec->warp[warp];
}

static int next_from_text(sim_trace_kernel *t, warp_stream *ws, sim_warp_inst *out);

static int trace_next(void *self, const sim_kernel *k, sim_warp_cursor *cur,
                      const uint32_t *reg_value, sim_warp_inst *out)
{
    (void)k;
    (void)reg_value;
    sim_trace_kernel *t = self;
    warp_stream *ws = cur->ext;
    if (!ws || ws->left <= 0)
        return 0;
    if (!ws->sec->kept) {
        if (!t->locking)
            return next_from_text(t, ws, out);
        pthread_mutex_lock(&t->lock);
        int r = next_from_text(t, ws, out);
        pthread_mutex_unlock(&t->lock);
        return r;
    }
    {   /* the block holds pool offsets */
        uint32_t off;
        memcpy(&off, ws->pos, sizeof off);
        ws->pos += sizeof off;
        const uint8_t *p = t->pool->bytes + off;
        sim_trace_kept_get(&p, out);
        if (--ws->left > 0) {   /* the warp's next form: a miss now, not at its issue */
            memcpy(&off, ws->pos, sizeof off);
            __builtin_prefetch(t->pool->bytes + off);
        }
        return 1;
    }
}

/* The warp's next instruction from its block's text (the line memo, else
 * parsing the line). */
static int next_from_text(sim_trace_kernel *t, warp_stream *ws, sim_warp_inst *out)
{
    const char *s, *e;
    do {
        if (ws->pos >= ws->end) {
            stream_fail(t, TRAPEZE_EPARSE, "truncated warp (file changed?)", ws->line);
            ws->left = 0;
            return 0;
        }
        s = take_line(&ws->pos, ws->end, &e);
        ws->line++;
    } while (sim_trace_line_blank(s, e));
    ws->left--;
    sim_trace_line_slot *slot = sim_trace_line_slot_of(t->lines, s, e);
    if (sim_trace_line_hit(slot, s, e)) {
        const uint8_t *q = slot->bytes;
        sim_trace_kept_get(&q, out);
        return 1;
    }
    sim_trace_class cls;
    const char *at;
    const char *what = sim_trace_parse_inst(&t->fmt, &t->opcodes, s, e, out, &cls, &at);
    if (what) {
        trapeze_error err;
        sim_trace_fail_line(&err, t->path, ws->line - 1, what, at, e, 0);
        if (!t->stream_err.code)
            t->stream_err = err;
        ws->left = 0;
        return 0;
    }
    uint8_t kept[SIM_TRACE_KEPT_MAX_INST];
    size_t n = slot ? sim_trace_kept_encode(out, kept) : 0;
    sim_trace_line_store(slot, s, e, cls.known, out->op, kept, n);
    return 1;
}

static void free_section(sim_trace_kernel *t, tb_section *sec)
{
    t->loaded[sec->id] = NULL;
    t->section_bytes -= sizeof(tb_section) + (size_t)t->warps_per_block * sizeof(warp_stream) +
                        sec->len;
    free(sec->text);
    free(sec);
}

static void trace_warp_end(void *self, sim_warp_cursor *cur)
{
    sim_trace_kernel *t = self;
    warp_stream *ws = cur->ext;
    cur->ext = NULL;
    if (!ws || --ws->sec->refs)   /* a block's warps are on one SM: refs is its own */
        return;
    if (t->locking)
        pthread_mutex_lock(&t->lock);
    free_section(t, ws->sec);
    if (t->locking)
        pthread_mutex_unlock(&t->lock);
}

static void trace_set_threads(void *self, int threads)
{
    ((sim_trace_kernel *)self)->locking = threads > 1;
}

static const sim_source_ops trace_source = {"accel-sim trace", trace_warp_start, trace_next,
                                            trace_warp_end, trace_set_threads};

/* ------------------------------------------------------------ the handle */

trapeze_status sim_trace_kernel_open(const char *path, sim_trace_kernel **out,
                                     trapeze_error *err)
{
    return sim_trace_kernel_open_keep(path, SIM_TRACE_KEEP_DEFAULT, out, err);
}

trapeze_status sim_trace_kernel_open_keep(const char *path, size_t keep_bytes,
                                          sim_trace_kernel **out, trapeze_error *err)
{
    *out = NULL;
    sim_trace_kernel *t = calloc(1, sizeof *t);
    if (t)
        pthread_mutex_init(&t->lock, NULL);
    if (!t || !(t->path = trapeze_strdup(path))) {
        if (t)
            pthread_mutex_destroy(&t->lock);
        free(t);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    t->keep_bytes = keep_bytes;
    t->keeping = keep_bytes > 0;
    t->fmt.version = 4;
    snprintf(t->kernel.name, sizeof t->kernel.name, "trace");
    t->kernel.regs_per_thread = 1;
    /* kernelslist.g names kernel-N.traceg; archives hold kernel-N.traceg.xz */
    char xz[4096];
    snprintf(xz, sizeof xz, "%s.xz", path);
    int use_xz = access(path, F_OK) != 0 && access(xz, R_OK) == 0;
    if (use_xz) {
        free(t->path);
        if (!(t->path = trapeze_strdup(xz))) {
            free(t);
            return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", xz);
        }
    }
    /* a trace is read twice (scanned, then streamed): a file, not a pipe */
    struct stat st_path;
    if (stat(t->path, &st_path) == 0 && !S_ISREG(st_path.st_mode)) {
        trapeze_status s = trapeze_fail(err, TRAPEZE_EINVAL, S_ISDIR(st_path.st_mode)
                                        ? "%s: is a folder, not a trace file"
                                        : "%s: not a regular file (a trace is read twice, so "
                                          "it cannot be a pipe or a device)", t->path);
        free(t->path);
        free(t);
        return s;
    }
    t->lines = calloc(1, sizeof *t->lines);   /* none: every line parsed */
    if (!(t->iobuf = malloc(TRACE_IOBUF))) {
        sim_trace_kernel_close(t);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    t->file = sim_trace_fopen(t->path, t->iobuf, TRACE_IOBUF, &t->file_err, &t->xz, &t->bytes,
                              err);
    trapeze_status st = t->file ? scan_file(t, err) : err ? err->code : TRAPEZE_EIO;
    if (st) {
        sim_trace_kernel_close(t);
        return st;
    }
    t->kernel.source = &trace_source;
    t->kernel.source_self = t;
    *out = t;
    return TRAPEZE_OK;
}

const sim_kernel *sim_trace_kernel_sim(const sim_trace_kernel *t)
{
    return &t->kernel;
}

uint64_t sim_trace_kernel_warp_insts(const sim_trace_kernel *t)
{
    return t->warp_insts;
}

uint64_t sim_trace_kernel_op_count(const sim_trace_kernel *t, int op)
{
    return op >= 0 && op < SIM_OP_COUNT ? t->by_op[op] : 0;
}

uint64_t sim_trace_kernel_unknown_opcodes(const sim_trace_kernel *t)
{
    return t->unknown;
}

size_t sim_trace_kernel_peak_section_bytes(const sim_trace_kernel *t)
{
    return t->peak_section_bytes;
}

size_t sim_trace_kernel_kept_bytes(const sim_trace_kernel *t)
{
    return t->kept_bytes;
}

trapeze_status sim_trace_kernel_status(const sim_trace_kernel *t, trapeze_error *err)
{
    if (!t->stream_err.code)
        return TRAPEZE_OK;
    if (err)
        *err = t->stream_err;
    return t->stream_err.code;
}

void sim_trace_kernel_close(sim_trace_kernel *t)
{
    if (!t)
        return;
    if (t->loaded)
        for (long id = 0; id < t->blocks; id++)
            if (t->loaded[id])
                free_section(t, t->loaded[id]);
    if (t->kept)
        for (long id = 0; id < t->blocks; id++)
            keep_drop(t, id);
    if (t->file)
        fclose(t->file);
    free(t->iobuf);
    if (t->pool)
        free(t->pool->bytes);
    free(t->pool);
    free(t->lines);
    free(t->kept);
    free(t->loaded);
    free(t->tb_off);
    free(t->tb_line);
    free(t->tb_len);
    free(t->path);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
