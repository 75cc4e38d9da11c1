/*
 * xz.c - opening a trace file as people store them: plain text, or
 * compressed with xz (kernel-N.traceg.xz, as Accel-Sim's trace archives
 * hold them). An .xz trace is decompressed once, streaming through liblzma
 * in fixed-size chunks, into an anonymous temporary file that the reader
 * then seeks in like a plain trace (it re-reads a block's section when the
 * block is placed), so memory stays bounded whatever the trace's size.
 * Any other compression is named in a clear error. Owns file opening only;
 * never parses a line.
 */
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "sim/trace/trace.h"

#define CHUNK (1 << 16)

static const struct {
    const char *name;
    unsigned char magic[4];
    size_t len;
} other_formats[] = {
    {"gzip", {0x1f, 0x8b}, 2},
    {"bzip2", {'B', 'Z', 'h'}, 3},
    {"zstd", {0x28, 0xb5, 0x2f, 0xfd}, 4},
    {"lz4", {0x04, 0x22, 0x4d, 0x18}, 4},
    {"zip", {'P', 'K', 0x03, 0x04}, 4},
};

static const char *lzma_reason(lzma_ret r)
{
    switch (r) {
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_FORMAT_ERROR: return "not in the .xz format";
    case LZMA_OPTIONS_ERROR: return "unsupported compression options";
    case LZMA_DATA_ERROR: return "corrupt compressed data";
    case LZMA_BUF_ERROR: return "truncated compressed data";
    default: return "decompression failed";
    }
}

/* Decompresses in (positioned after nothing: at its start) into out. */
static trapeze_status unxz(FILE *in, FILE *out, const char *path, trapeze_error *err)
{
    lzma_stream z = LZMA_STREAM_INIT;
    lzma_ret r = lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED);
    if (r != LZMA_OK)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: %s", path, lzma_reason(r));
    static _Thread_local unsigned char ibuf[CHUNK], obuf[CHUNK];
    lzma_action action = LZMA_RUN;
    trapeze_status st = TRAPEZE_OK;
    z.next_out = obuf;
    z.avail_out = CHUNK;
    while (!st) {
        if (z.avail_in == 0 && action == LZMA_RUN) {
            z.next_in = ibuf;
            z.avail_in = fread(ibuf, 1, CHUNK, in);
            if (ferror(in))
                st = trapeze_fail(err, TRAPEZE_EIO, "%s: read error: %s", path, strerror(errno));
            else if (feof(in))
                action = LZMA_FINISH;
        }
        r = lzma_code(&z, action);
        if (z.avail_out == 0 || r == LZMA_STREAM_END) {
            size_t n = CHUNK - z.avail_out;
            if (fwrite(obuf, 1, n, out) != n)
                st = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot decompress to a temporary file: "
                                  "%s", path, strerror(errno));
            z.next_out = obuf;
            z.avail_out = CHUNK;
        }
        if (r == LZMA_STREAM_END)
            break;
        if (r != LZMA_OK && !st)
            st = trapeze_fail(err, r == LZMA_MEM_ERROR ? TRAPEZE_ENOMEM : TRAPEZE_EPARSE,
                              "%s: %s", path, lzma_reason(r));
    }
    lzma_end(&z);
    if (!st && (fflush(out) != 0 || fseek(out, 0, SEEK_SET) != 0))
        st = trapeze_fail(err, TRAPEZE_EIO, "%s: temporary file: %s", path, strerror(errno));
    return st;
}

FILE *sim_trace_fopen(const char *path, char *buf, size_t size, trapeze_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open the trace: %s", path, strerror(errno));
        return NULL;
    }
    /* Traces run to gigabytes: stdio's own 4 KB buffer made a syscall per
     * 4 KB (a fifth of a short trace's CPU time went to the kernel) */
    setvbuf(f, buf, _IOFBF, size);
    unsigned char head[6] = {0};
    size_t n = fread(head, 1, sizeof head, f);
    static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
    if (n == sizeof head && memcmp(head, xz_magic, sizeof head) == 0) {
        FILE *plain = tmpfile();
        if (plain)
            setvbuf(plain, buf, _IOFBF, size);
        trapeze_status st = plain ? (rewind(f), unxz(f, plain, path, err))
                                  : trapeze_fail(err, TRAPEZE_EIO, "%s: no temporary file to "
                                                 "decompress into: %s", path, strerror(errno));
        fclose(f);
        if (st && plain)
            fclose(plain);
        return st ? NULL : plain;
    }
    for (size_t i = 0; i < sizeof other_formats / sizeof other_formats[0]; i++)
        if (n >= other_formats[i].len && memcmp(head, other_formats[i].magic,
                                                other_formats[i].len) == 0) {
            fclose(f);
            trapeze_fail(err, TRAPEZE_EPARSE, "%s: compressed with %s; Trapeze reads plain "
                         "traces and .xz (recompress it with xz)", path, other_formats[i].name);
            return NULL;
        }
    rewind(f);
    return f;
}
