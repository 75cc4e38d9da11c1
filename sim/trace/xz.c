/*
 * xz.c - opening a trace file as people store them: plain text, or
 * compressed with xz (kernel-N.traceg.xz, as Accel-Sim's trace archives
 * hold them; several concatenated .xz streams read as one). An .xz trace
 * is a stdio stream (fopencookie) over liblzma: each read decodes as much
 * as it asks for, so nothing is written to disk and no decompressed copy is
 * held, whatever the trace's size. The last 4 stdio buffers decoded (1 MB)
 * are kept, for seeks a little back; a seek forward decodes and drops the
 * bytes in between; a seek further back starts decoding again from the
 * file's start (the reader seeks back once, after its opening pass, then
 * forward as blocks are placed in order). Any other compression is named in a
 * clear error. Owns file opening only; never parses a line.
 */
#define _GNU_SOURCE   /* fopencookie */
#include <errno.h>
#include <limits.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "sim/trace/trace.h"

#define CHUNK (1 << 16)
/* What a decoder may allocate: xz -9 needs 65 MiB; the format allows 1.5
 * GiB dictionaries, which a damaged or hostile header could ask for. */
#define XZ_MEMLIMIT ((uint64_t)256 << 20)
#define XZ_MEMLIMIT_TEXT "256 MiB"

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
    case LZMA_MEMLIMIT_ERROR: return "decoding needs more than " XZ_MEMLIMIT_TEXT " of "
                                     "memory (a dictionary larger than xz -9's 64 MiB; "
                                     "recompress with xz -9 or less)";
    case LZMA_FORMAT_ERROR: return "not in the .xz format";
    case LZMA_OPTIONS_ERROR: return "unsupported compression options";
    case LZMA_DATA_ERROR: return "corrupt compressed data";
    case LZMA_BUF_ERROR: return "truncated compressed data";
    default: return "decompression failed";
    }
}

/* One open .xz trace. The stream is at pos; the decoder has produced dec
 * bytes, of which the last hist_size are kept (byte o at hist[o %
 * hist_size]): stdio seeks a cookie stream to a multiple of its buffer's
 * size at or before the place asked for, so a reader going forward seeks
 * up to a buffer behind the decoder, and is served from there. */
typedef struct {
    FILE *in;
    lzma_stream z;
    lzma_action action;
    uint64_t pos, dec;
    int ended;                   /* the last stream's end was decoded */
    lzma_ret failed;             /* the decoder's error, told once what came before
                                    it is read (LZMA_OK: none) */
    trapeze_error *read_err;     /* the caller's: why a read failed */
    unsigned char *hist;
    size_t hist_size;
    unsigned char in_buf[CHUNK];
    unsigned char skip[CHUNK];   /* bytes a forward seek drops */
} xz_stream;

static int xz_fail(xz_stream *x, lzma_ret r)
{
    if (x->read_err && !x->read_err->code)
        trapeze_fail(x->read_err, r == LZMA_MEM_ERROR ? TRAPEZE_ENOMEM : TRAPEZE_EPARSE, "%s",
                     lzma_reason(r));
    errno = EIO;
    return -1;
}

/* (Re)starts decoding at the file's first byte. */
static lzma_ret xz_start(xz_stream *x)
{
    lzma_end(&x->z);
    x->z = (lzma_stream)LZMA_STREAM_INIT;
    x->action = LZMA_RUN;
    x->pos = x->dec = 0;
    x->ended = 0;
    x->failed = LZMA_OK;
    rewind(x->in);
    return lzma_stream_decoder(&x->z, XZ_MEMLIMIT, LZMA_CONCATENATED);
}

/* Copies n bytes between the history (at decoded offset o) and p. */
static void hist_copy(xz_stream *x, uint64_t o, unsigned char *p, size_t n, int into_hist)
{
    while (n > 0) {
        size_t at = (size_t)(o % x->hist_size), k = x->hist_size - at;
        k = k < n ? k : n;
        if (into_hist)
            memcpy(x->hist + at, p, k);
        else
            memcpy(p, x->hist + at, k);
        o += k;
        p += k;
        n -= k;
    }
}

/* Decodes up to n more bytes into out: the count, 0 at the end, -1 on
 * error (once the bytes decoded before it are delivered, so that the
 * reader names the line the damage cut). */
static ssize_t xz_decode(xz_stream *x, unsigned char *out, size_t n)
{
    if (x->failed)
        return xz_fail(x, x->failed);
    x->z.next_out = out;
    x->z.avail_out = n;
    while (x->z.avail_out > 0 && !x->ended) {
        if (x->z.avail_in == 0 && x->action == LZMA_RUN) {
            x->z.next_in = x->in_buf;
            x->z.avail_in = fread(x->in_buf, 1, CHUNK, x->in);
            if (ferror(x->in)) {
                if (x->read_err && !x->read_err->code)
                    trapeze_fail(x->read_err, TRAPEZE_EIO, "read error: %s", strerror(errno));
                errno = EIO;
                return -1;
            }
            if (feof(x->in))
                x->action = LZMA_FINISH;
        }
        lzma_ret r = lzma_code(&x->z, x->action);
        if (r == LZMA_STREAM_END)
            x->ended = 1;
        else if (r != LZMA_OK) {
            x->failed = r;
            break;
        }
    }
    size_t got = n - x->z.avail_out;
    if (x->failed && got == 0)
        return xz_fail(x, x->failed);
    size_t keep = got < x->hist_size ? got : x->hist_size;
    hist_copy(x, x->dec + got - keep, out + got - keep, keep, 1);
    x->dec += got;
    return (ssize_t)got;
}

static ssize_t xz_read(void *cookie, char *buf, size_t n)
{
    xz_stream *x = cookie;
    size_t done = 0;
    if (x->pos < x->dec) {   /* after a seek back into the history */
        done = x->dec - x->pos < n ? (size_t)(x->dec - x->pos) : n;
        hist_copy(x, x->pos, (unsigned char *)buf, done, 0);
    }
    if (done < n) {
        ssize_t got = xz_decode(x, (unsigned char *)buf + done, n - done);
        if (got < 0 && done == 0)
            return -1;
        /* an error after history bytes waits for the next read, which
         * meets it again: the reader gets every byte before the damage */
        done += got > 0 ? (size_t)got : 0;
    }
    x->pos += done;
    return (ssize_t)done;
}

static int xz_seek(void *cookie, off64_t *offset, int whence)
{
    xz_stream *x = cookie;
    if (whence == SEEK_CUR)
        *offset += (off64_t)x->pos;
    else if (whence != SEEK_SET || *offset < 0) {
        errno = EINVAL;   /* SEEK_END: the length is unknown until decoded */
        return -1;
    }
    uint64_t to = (uint64_t)*offset;
    if (to + x->hist_size < x->dec) {   /* before the history: decode again */
        lzma_ret r = xz_start(x);
        if (r != LZMA_OK)
            return xz_fail(x, r);
    }
    while (x->dec < to) {
        uint64_t left = to - x->dec;
        ssize_t got = xz_decode(x, x->skip, left < CHUNK ? (size_t)left : CHUNK);
        if (got < 0)
            return -1;
        if (got == 0) {
            errno = EINVAL;   /* past the end */
            return -1;
        }
    }
    x->pos = to;
    return 0;
}

static int xz_close(void *cookie)
{
    xz_stream *x = cookie;
    lzma_end(&x->z);
    int rc = fclose(x->in);
    free(x->hist);
    free(x);
    return rc;
}

/* The decoded size of the .xz file in, read from its streams' indexes at
 * the file's end (in is rewound after), or -1 where they cannot be read (a
 * truncated or damaged file, whose decoding then names the damage). Lets the
 * reader bound a grid by the text's length before it allocates per-block
 * tables, as it does for a plain file: a 700-byte .xz may claim 2^31 blocks. */
static long long xz_decoded_size(FILE *in, unsigned char *chunk)
{
    struct stat st;
    lzma_stream z = LZMA_STREAM_INIT;
    lzma_index *index = NULL;
    if (fstat(fileno(in), &st) != 0 || st.st_size <= 0 ||
        lzma_file_info_decoder(&z, &index, XZ_MEMLIMIT, (uint64_t)st.st_size) != LZMA_OK) {
        lzma_end(&z);
        return -1;
    }
    lzma_ret r = LZMA_OK;
    while (r == LZMA_OK || r == LZMA_SEEK_NEEDED) {
        if (r == LZMA_SEEK_NEEDED) {
            if (fseeko(in, (off_t)z.seek_pos, SEEK_SET) != 0)
                break;
            z.avail_in = 0;
        }
        if (z.avail_in == 0) {
            z.next_in = chunk;
            if ((z.avail_in = fread(chunk, 1, CHUNK, in)) == 0)
                break;
        }
        r = lzma_code(&z, LZMA_RUN);
    }
    long long size = -1;
    if (r == LZMA_STREAM_END) {   /* only then is index the caller's */
        lzma_vli u = lzma_index_uncompressed_size(index);
        size = u > (lzma_vli)LLONG_MAX ? LLONG_MAX : (long long)u;
        lzma_index_end(index, NULL);
    }
    lzma_end(&z);
    rewind(in);
    return size;
}

/* in (at its start, an .xz file) as a decompressed stream whose stdio
 * buffer is buf; in is closed with it, or here on failure. */
static FILE *xz_open(FILE *in, const char *path, char *buf, size_t size, trapeze_error *read_err,
                     long long *bytes, trapeze_error *err)
{
    xz_stream *x = calloc(1, sizeof *x);
    if (!x) {
        fclose(in);
        trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    x->in = in;
    x->read_err = read_err;
    *bytes = xz_decoded_size(in, x->in_buf);
    x->z = (lzma_stream)LZMA_STREAM_INIT;
    x->hist_size = 4 * size;   /* stdio's buffer and a section beyond it */
    lzma_ret r = (x->hist = malloc(x->hist_size)) ? xz_start(x) : LZMA_MEM_ERROR;
    cookie_io_functions_t io = {.read = xz_read, .seek = xz_seek, .close = xz_close};
    FILE *f = r == LZMA_OK ? fopencookie(x, "rb", io) : NULL;
    if (!f) {
        trapeze_fail(err, r == LZMA_OK || r == LZMA_MEM_ERROR ? TRAPEZE_ENOMEM : TRAPEZE_EPARSE,
                     "%s: %s", path, r == LZMA_OK ? "out of memory" : lzma_reason(r));
        xz_close(x);
        return NULL;
    }
    /* Buffered: stdio reads a cookie stream through its buffer (one byte
     * at a time, without one); its seeks land at most a buffer behind the
     * place asked for, within the history. */
    setvbuf(f, buf, _IOFBF, size);
    return f;
}

static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

/* Nonzero, with err set, where head starts like a compressed format this
 * reader does not decode: one message whether the bytes lie in the file or
 * inside its .xz. */
static int refuse_format(const unsigned char *head, size_t n, const char *path,
                         trapeze_error *err)
{
    if (n == sizeof xz_magic && memcmp(head, xz_magic, sizeof xz_magic) == 0) {
        trapeze_fail(err, TRAPEZE_EPARSE, "%s: compressed twice with xz; Trapeze reads plain "
                     "traces and .xz (decompress it once with unxz)", path);
        return 1;
    }
    for (size_t i = 0; i < sizeof other_formats / sizeof other_formats[0]; i++)
        if (n >= other_formats[i].len && memcmp(head, other_formats[i].magic,
                                                other_formats[i].len) == 0) {
            trapeze_fail(err, TRAPEZE_EPARSE, "%s: compressed with %s; Trapeze reads plain "
                         "traces and .xz (recompress it with xz)", path, other_formats[i].name);
            return 1;
        }
    return 0;
}

/* f, the decoded stream, rewound after its first bytes are sniffed (the
 * stream keeps its history, so the seek is free); NULL, f closed, where its
 * text is itself compressed. A decoding error is left for the reader, which
 * meets it again and names it. */
static FILE *refuse_inner_format(FILE *f, const char *path, trapeze_error *err)
{
    unsigned char head[sizeof xz_magic];
    size_t n = fread(head, 1, sizeof head, f);
    clearerr(f);
    int refused = refuse_format(head, n, path, err);
    if (!refused && fseeko(f, 0, SEEK_SET) != 0) {
        trapeze_fail(err, TRAPEZE_EIO, "%s: cannot rewind the decoded trace", path);
        refused = 1;
    }
    if (refused) {
        fclose(f);
        return NULL;
    }
    return f;
}

FILE *sim_trace_fopen(const char *path, char *buf, size_t size, trapeze_error *read_err,
                      int *xz, long long *bytes, trapeze_error *err)
{
    *xz = 0;
    *bytes = -1;
    if (read_err)
        trapeze_error_clear(read_err);
    FILE *f = fopen(path, "rb");
    if (!f) {
        trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open the trace: %s", path, strerror(errno));
        return NULL;
    }
    /* the magic bytes, read beneath stdio: setvbuf must come first */
    unsigned char head[6] = {0};
    ssize_t got = read(fileno(f), head, sizeof head);
    size_t n = got > 0 ? (size_t)got : 0;
    if (lseek(fileno(f), 0, SEEK_SET) != 0) {
        trapeze_fail(err, TRAPEZE_EIO, "%s: cannot read the trace: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (n == sizeof head && memcmp(head, xz_magic, sizeof head) == 0) {
        *xz = 1;   /* the compressed file keeps stdio's own buffer */
        f = xz_open(f, path, buf, size, read_err, bytes, err);
        return f ? refuse_inner_format(f, path, err) : NULL;
    }
    if (refuse_format(head, n, path, err)) {
        fclose(f);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
        *bytes = (long long)st.st_size;
    /* Traces run to gigabytes: stdio's own 4 KB buffer made a syscall per
     * 4 KB (a fifth of a short trace's CPU time went to the kernel) */
    setvbuf(f, buf, _IOFBF, size);
    return f;
}
