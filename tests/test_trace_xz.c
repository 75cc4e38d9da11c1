/*
 * test_trace_xz.c - .xz traces read as they are decoded: a trace of several
 * megabytes (data/traces/vecadd's blocks repeated, their addresses moved:
 * 9.3 MB, 145 KB compressed), compressed as three
 * concatenated streams cut mid-line, simulates to the plain trace's
 * counters whether its blocks are kept or all read again from the
 * compressed file (seeks forward); a trace whose blocks lie in reverse
 * order (every block placed seeks backward) does too; a truncated or
 * corrupt file over 64 KiB, seven streams of 16 MiB of NUL bytes, and a
 * header asking for a 1 GiB dictionary, are refused with file, line and
 * reason.
 */
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim/trace/trace.h"

static char dir[64];
static trapeze_config *cfg;

typedef struct {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        t->cap = (t->n + n + 1) * 2;
        t->p = realloc(t->p, t->cap);
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = '\0';
}

/* [s, e) with each address (0x...) moved by off: each repeat of the
 * blocks reads and writes its own scattered pages, so that the file does
 * not compress to almost nothing. */
static void put_moved(text *out, const char *s, const char *e, unsigned long long off)
{
    const char *x;
    while ((x = strstr(s, "0x")) && x < e) {
        put(out, s, (size_t)(x - s));
        char *end;
        unsigned long long a = strtoull(x, &end, 16);
        char num[32];
        int len = snprintf(num, sizeof num, "0x%llx", a + off);
        put(out, num, (size_t)len);
        s = end;
    }
    put(out, s, (size_t)(e - s));
}

/* data/traces/vecadd's trace (8 blocks) with its blocks repeated r times
 * as a grid of 8r, in id order or reversed. */
static text scaled_vecadd(int r, int reversed)
{
    text out = {0}, in = {0};
    FILE *f = fopen("data/traces/vecadd/kernel-1.traceg", "rb");
    char buf[4096];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        put(&in, buf, n);
    if (f)
        fclose(f);
    CHECK(in.n > 9000);
    if (in.n < 9000)
        return out;
    const char *sec[8];
    const char *p = in.p;
    for (int b = 0; b < 8; b++)
        p = sec[b] = strstr(p + 1, "#BEGIN_TB");
    const char *grid = strstr(in.p, "(8,1,1)");
    put(&out, in.p, (size_t)(grid - in.p));
    int len = snprintf(buf, sizeof buf, "(%d,1,1)", 8 * r);
    put(&out, buf, (size_t)len);
    put(&out, grid + 7, (size_t)(sec[0] - grid - 7));
    for (int i = 0; i < 8 * r; i++) {
        int id = reversed ? 8 * r - 1 - i : i;
        const char *s = sec[id % 8], *e = id % 8 < 7 ? sec[id % 8 + 1] : in.p + in.n;
        const char *tb = strstr(s, "thread block = "), *after = strchr(tb, ',');
        put(&out, s, (size_t)(tb - s));
        len = snprintf(buf, sizeof buf, "thread block = %d", id);
        put(&out, buf, (size_t)len);
        put_moved(&out, after, e, ((unsigned long long)(id / 8) * 2654435761u & 0xfffff) << 12);
    }
    free(in.p);
    return out;
}

/* t as `streams` .xz streams concatenated, cut at arbitrary bytes. */
static text compress(const text *t, int streams)
{
    text out = {0};
    size_t at = 0;
    for (int i = 0; i < streams; i++) {
        size_t n = i == streams - 1 ? t->n - at : t->n / (size_t)streams + 37;
        size_t cap = lzma_stream_buffer_bound(n), pos = 0;
        uint8_t *buf = malloc(cap);
        CHECK(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, (const uint8_t *)t->p + at, n,
                                      buf, &pos, cap) == LZMA_OK);
        put(&out, (const char *)buf, pos);
        free(buf);
        at += n;
    }
    return out;
}

static void write_file(const char *path, const text *t)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(t->p, 1, t->n, f) == t->n);
    if (f)
        fclose(f);
}

/* Simulates path keeping keep bytes of decoded blocks; 0 when it fails. */
static int simulate(const char *path, size_t keep, sim_kernel_stats *st)
{
    sim_trace_kernel *t = NULL;
    sim_gpu *g = NULL;
    trapeze_error err;
    int ok = !sim_trace_kernel_open_keep(path, keep, &t, &err) &&
             !sim_gpu_create(cfg, NULL, &g, &err) &&
             !sim_gpu_run(g, sim_trace_kernel_sim(t), st, &err) &&
             !sim_trace_kernel_status(t, &err);
    if (!ok)
        fprintf(stderr, "%s: %s\n", path, err.message);
    sim_gpu_destroy(g);
    sim_trace_kernel_close(t);
    return ok;
}

static void same_counters(const sim_kernel_stats *a, const sim_kernel_stats *b)
{
    CHECK(a->cycles == b->cycles);
    CHECK(a->blocks == b->blocks);
    CHECK(a->total.warp_insts == b->total.warp_insts);
    CHECK(a->total.thread_insts == b->total.thread_insts);
    CHECK(a->total.gld_insts == b->total.gld_insts);
    CHECK(a->total.gst_insts == b->total.gst_insts);
    CHECK(a->total.mem_requests == b->total.mem_requests);
    CHECK(a->mem.dram_bytes_read == b->mem.dram_bytes_read);
    CHECK(!memcmp(a->total.stall, b->total.stall, sizeof a->total.stall));
    CHECK(!memcmp(a->events, b->events, sizeof a->events));
}

/* The plain trace against its .xz, blocks kept (default budget) and none
 * kept (every block decoded again when placed). */
static void plain_and_xz(const char *name, int r, int reversed, int streams)
{
    char plain[128], xz[128];
    snprintf(plain, sizeof plain, "%s/%s.traceg", dir, name);
    snprintf(xz, sizeof xz, "%s/%s.traceg.xz", dir, name);
    text t = scaled_vecadd(r, reversed), z = compress(&t, streams);
    write_file(plain, &t);
    write_file(xz, &z);
    sim_kernel_stats a, b, c;
    CHECK(simulate(plain, 0, &a));
    CHECK(a.blocks == (uint64_t)(8 * r) && a.total.warp_insts > (uint64_t)(100 * r));
    CHECK(simulate(xz, 0, &b));
    same_counters(&a, &b);
    CHECK(simulate(xz, SIM_TRACE_KEEP_DEFAULT, &c));
    same_counters(&a, &c);
    sim_kernel_stats_free(&a);
    sim_kernel_stats_free(&b);
    sim_kernel_stats_free(&c);
    free(t.p);
    free(z.p);
    remove(plain);
    remove(xz);
}

static const char *open_error(const char *path, const text *bytes, trapeze_error *err)
{
    write_file(path, bytes);
    sim_trace_kernel *t = NULL;
    trapeze_status s = sim_trace_kernel_open(path, &t, err);
    CHECK(s != TRAPEZE_OK && t == NULL);
    sim_trace_kernel_close(t);
    remove(path);
    return err->message;
}

/* A .xz whose first block header asks for an LZMA2 dictionary of 1 GiB
 * (property byte 36), its header checksum made right again. */
static void big_dictionary(text *z)
{
    uint8_t *b = (uint8_t *)z->p;
    size_t hsize = ((size_t)b[12] + 1) * 4, at = 14;
    for (int field = 0x40; field <= 0x80; field <<= 1)   /* sizes, when present */
        if (b[13] & field)
            while (b[at++] & 0x80)
                ;
    CHECK(b[at] == 0x21 && b[at + 1] == 1);   /* LZMA2, one property byte */
    b[at + 2] = 36;
    uint32_t crc = lzma_crc32(b + 12, hsize - 4, 0);
    for (int i = 0; i < 4; i++)
        b[12 + hsize - 4 + i] = (uint8_t)(crc >> (8 * i));
}

static void refused(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/bad.traceg.xz", dir);
    text t = scaled_vecadd(40, 0), z = compress(&t, 1);   /* 380 KB */
    CHECK(t.n > 300000);
    trapeze_error err;
    text cut = {0};
    put(&cut, z.p, z.n - 100);
    const char *m = open_error(path, &cut, &err);
    CHECK(strstr(m, "bad.traceg.xz:") && strstr(m, ": truncated compressed data"));
    /* the lines before the cut were read: the message names a line past them */
    long line = strtol(strstr(m, ".xz:") + 4, NULL, 10);
    CHECK(line > 1000);
    text bad = {0};
    put(&bad, z.p, z.n);
    bad.p[bad.n / 2] ^= 0x55;
    m = open_error(path, &bad, &err);
    if (!strstr(m, ": corrupt compressed data"))
        fprintf(stderr, "%s\n", m);
    CHECK(strstr(m, "bad.traceg.xz:") && strstr(m, ": corrupt compressed data"));
    /* seven streams of 16 MiB of NUL bytes (a decompression bomb): read
     * to the chunk's 1 MiB, the longest line allowed, not to its 112 MiB */
    uint8_t *zeros = calloc(16u << 20, 1);
    size_t cap = 1 << 20, pos = 0;
    uint8_t *one = malloc(cap);
    CHECK(zeros && one && lzma_easy_buffer_encode(9, LZMA_CHECK_CRC64, NULL, zeros, 16u << 20,
                                                  one, &pos, cap) == LZMA_OK);
    text bomb = {0};
    for (int i = 0; i < 7 && one; i++)
        put(&bomb, (const char *)one, pos);
    free(zeros);
    free(one);
    m = open_error(path, &bomb, &err);
    CHECK(strstr(m, "bad.traceg.xz:1: a line longer than 1048576 bytes"));
    free(bomb.p);
    big_dictionary(&z);
    m = open_error(path, &z, &err);
    CHECK(strstr(m, "bad.traceg.xz:1: decoding needs more than 256 MiB"));
    free(t.p);
    free(z.p);
    free(cut.p);
    free(bad.p);
}

int main(void)
{
    trapeze_error err;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    snprintf(dir, sizeof dir, "/tmp/trapeze-xz-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    plain_and_xz("big", 1024, 0, 3);   /* 8192 blocks, 9.3 MB */
    /* 960 blocks, 1.09 MB: past the 1 MiB of history kept, seeks back decode again */
    plain_and_xz("reversed", 120, 1, 2);
    refused();
    rmdir(dir);
    trapeze_config_destroy(cfg);
    return check_report("test_trace_xz");
}
