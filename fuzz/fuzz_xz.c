/*
 * fuzz_xz.c - traces read through .xz (sim/trace/xz.c). An input that
 * starts with the .xz magic is the compressed file itself (damaged
 * streams, odd headers, concatenations): if it decodes (here, to at most 4
 * MB) it must read as its text does, else be refused with a printable
 * message naming it. Any other input is a trace's text, made large: its thread
 * blocks repeated (renumbered, the grid widened) until the text passes
 * 300 KB, beyond the reader's 256 KB buffer, then compressed as two
 * concatenated streams cut where the input says (seeks back past the 1
 * MiB the stream keeps are tests/test_trace_xz.c's: a text that long
 * makes too few inputs a second). Invariants: the plain and the .xz trace open alike
 * (same status, same message but for the file name, except where the plain
 * file's size alone refuses its grid) and, with no block
 * kept, every block read again from the file gives the same instructions.
 * Seeds: data's traces, and generated .xz files (fuzz_make_seeds).
 */
#include <lzma.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "sim/core/gpu_sim.h"
#include "sim/trace/trace.h"

const char *const fuzz_seeds[] = {"data/traces/*/*.traceg", "tests/fuzz/xz/*", NULL};

#define BIG (300 << 10)
#define MAX_TEXT (4 << 20)

typedef struct {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = 2 * (b->n + n + 1);
        b->p = realloc(b->p, b->cap);
        FUZZ_CHECK(b->p != NULL);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* The blocks of text (from its first #BEGIN_TB) repeated until the whole
 * passes BIG, copy r's block x moved by r * (grid x); the grid line's x
 * widened to match. Text without both stays as it is. */
static buf enlarge(const char *text, size_t n)
{
    buf out = {0};
    const char *body = strstr(text, "#BEGIN_TB"), *g = strstr(text, "-grid dim = (");
    long gx = g ? strtol(g + 13, NULL, 10) : 0;
    if (!body || !g || g > body || gx < 1 || gx > 100000) {
        put(&out, text, n);
        return out;
    }
    size_t body_n = n - (size_t)(body - text);
    long reps = (long)(BIG / (n + 1)) + 2;
    if (reps * (long)body_n > MAX_TEXT || reps * gx > 1000000)
        reps = 1;
    const char *gx_end = g + 13;
    while (*gx_end >= '0' && *gx_end <= '9')
        gx_end++;
    put(&out, text, (size_t)(g + 13 - text));
    char num[32];
    int len = snprintf(num, sizeof num, "%ld", gx * reps);
    put(&out, num, (size_t)len);
    put(&out, gx_end, (size_t)(body - gx_end));
    for (long r = 0; r < reps; r++) {
        const char *s = body, *e = text + n, *tb;
        while ((tb = strstr(s, "thread block = ")) && tb < e) {
            put(&out, s, (size_t)(tb + 15 - s));
            char *after;
            long x = strtol(tb + 15, &after, 10);
            len = snprintf(num, sizeof num, "%ld", x + r * gx);
            put(&out, num, (size_t)len);
            s = after;
        }
        put(&out, s, (size_t)(e - s));
    }
    return out;
}

/* b as two .xz streams, the first ending at byte cut. */
static buf compress(const buf *b, size_t cut)
{
    buf out = {0};
    size_t from[2] = {0, cut}, len[2] = {cut, b->n - cut};
    for (int i = 0; i < 2; i++) {
        size_t cap = lzma_stream_buffer_bound(len[i]), pos = 0;
        uint8_t *z = malloc(cap);
        FUZZ_CHECK(z && lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL,
                                                (const uint8_t *)b->p + from[i], len[i], z,
                                                &pos, cap) == LZMA_OK);
        put(&out, z, pos);
        free(z);
    }
    return out;
}

/* msg with the file's own name, "kernel-2.traceg.xz", made "kernel-2.traceg":
 * the plain file's message. Only that one: a message may quote the input's
 * text, which may hold the same letters. */
static void drop_xz(char *msg)
{
    char *x = strstr(msg, "kernel-2.traceg.xz");
    if (x)
        memmove(x + 15, x + 18, strlen(x + 18) + 1);
}

/* The plain text and its .xz z open alike and read alike. */
static void same_as_plain(const buf *text, const buf *z)
{
    char plain[600], xz[600];
    snprintf(plain, sizeof plain, "%s", fuzz_file("kernel-1.traceg", (uint8_t *)text->p,
                                                  text->n));
    snprintf(xz, sizeof xz, "%s", fuzz_file("kernel-2.traceg.xz", (uint8_t *)z->p, z->n));
    sim_trace_kernel *a = NULL, *b = NULL;
    trapeze_error ea = {0}, eb = {0};
    trapeze_status sa = sim_trace_kernel_open_keep(plain, 0, &a, &ea);
    trapeze_status sb = sim_trace_kernel_open_keep(xz, 0, &b, &eb);
    if (sa != sb)
        fprintf(stderr, "plain: %s\nxz: %s\n", sa ? ea.message : "read",
                sb ? eb.message : "read");
    FUZZ_CHECK(sa == sb);
    /* The plain file's size bounds its grid before any block is read; an
     * .xz's decoded size is unknown until decoded, so its refusal names the
     * first line that contradicts the grid instead. */
    if (sa && strstr(ea.message, "thread blocks (") && strstr(ea.message, "bytes each at least)")) {
        FUZZ_CHECK(fuzz_printable(eb.message) && strstr(eb.message, "kernel-2.traceg.xz"));
        return;
    }
    if (sa) {
        drop_xz(eb.message);
        char *p = strstr(ea.message, "kernel-1.traceg"), *q = strstr(eb.message, "kernel-2.traceg");
        if (!p || !q || strcmp(p + 8, q + 8))
            fprintf(stderr, "plain: %s\nxz: %s\n", ea.message, eb.message);
        FUZZ_CHECK(fuzz_printable(ea.message) && p && q && !strcmp(p + 8, q + 8));
        return;
    }
    FUZZ_CHECK(sim_trace_kernel_warp_insts(a) == sim_trace_kernel_warp_insts(b));
    FUZZ_CHECK(sim_trace_kernel_unknown_opcodes(a) == sim_trace_kernel_unknown_opcodes(b));
    fuzz_same_streams(a, b);
    sim_trace_kernel_close(a);
    sim_trace_kernel_close(b);
}

/* An .xz file as given: decoded here (at most MAX_TEXT bytes) it must read
 * as its text does; one that does not decode is refused by name. */
static void given_xz(const uint8_t *data, size_t size)
{
    buf text = {0}, z = {0};
    lzma_stream d = LZMA_STREAM_INIT;
    lzma_ret r = lzma_stream_decoder(&d, 64 << 20, LZMA_CONCATENATED);
    uint8_t out[1 << 16];
    d.next_in = data;
    d.avail_in = size;
    while (r == LZMA_OK && text.n <= MAX_TEXT) {
        d.next_out = out;
        d.avail_out = sizeof out;
        r = lzma_code(&d, LZMA_FINISH);
        put(&text, out, sizeof out - d.avail_out);
    }
    lzma_end(&d);
    if (r == LZMA_STREAM_END && text.n <= MAX_TEXT) {
        put(&z, data, size);
        same_as_plain(&text, &z);
    } else {
        const char *path = fuzz_file("kernel-1.traceg.xz", data, size);
        sim_trace_kernel *t = NULL;
        trapeze_error err = {0};
        if (sim_trace_kernel_open_keep(path, 0, &t, &err))
            FUZZ_CHECK(fuzz_printable(err.message) && strstr(err.message, "kernel-1.traceg.xz"));
        sim_trace_kernel_close(t);
    }
    free(text.p);
    free(z.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
    if (size >= 6 && memcmp(data, magic, 6) == 0) {
        given_xz(data, size);
        return 0;
    }
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    buf big = enlarge(text, size);
    free(text);
    buf z = compress(&big, size ? data[0] * big.n / 256 : 0);
    same_as_plain(&big, &z);
    free(big.p);
    free(z.p);
    return 0;
}

/* data/traces/vecadd made large, as .xz: in one stream, and cut in the
 * middle of a line into two. */
void fuzz_make_seeds(const char *dir)
{
    FILE *f = fopen("data/traces/vecadd/kernel-1.traceg", "rb");
    if (!f)
        return;
    buf text = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        put(&text, chunk, n);
    fclose(f);
    buf big = enlarge(text.p, text.n);
    for (int i = 0; i < 2; i++) {
        buf z = compress(&big, i ? big.n / 2 + 17 : big.n);
        char path[600];
        snprintf(path, sizeof path, "%s/vecadd-%d.xz", dir, i + 1);
        FILE *out = fopen(path, "wb");
        if (out) {
            fwrite(z.p, 1, z.n, out);
            fclose(out);
        }
        free(z.p);
    }
    free(big.p);
    free(text.p);
}
