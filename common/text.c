/*
 * text.c - strict number parsing, whole-file reading and message-safe
 * quoting of untrusted text.
 *
 * Files are read by length: a NUL byte is data, never an end of text, so a
 * stray NUL or a binary file is reported (trapeze_read_file refuses it with
 * the line it is on, found as the bytes come in, so /dev/zero stops at once)
 * instead of silently ending the text there. A file read whole is at most
 * TRAPEZE_READ_MAX bytes, checked as it grows; a descriptor that cannot seek
 * (a pipe) is read as a stream.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "text.h"

char *trapeze_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int only_space(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return *p == '\0';
}

int trapeze_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || !only_space(end))
        return 0;
    *out = v;
    return 1;
}

int trapeze_parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno == ERANGE || !only_space(end))
        return 0;
    *out = v;
    return 1;
}

const char *trapeze_escape(const char *s, size_t len, char *out, size_t room)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (room == 0)
        return out;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t need = c >= 0x20 && c < 0x7f && c != '\\' ? 1 : c == '\\' ? 2 : 4;
        if (n + need + 4 > room) { /* room for "..." and the NUL */
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        if (need == 1) {
            out[n++] = (char)c;
        } else if (need == 2) {
            out[n++] = '\\';
            out[n++] = '\\';
        } else {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[c >> 4];
            out[n++] = hex[c & 15];
        }
    }
    out[n] = '\0';
    return out;
}

int trapeze_line_of(const char *text, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

/* One read at *n: pread from the start of a file (its offset is left as it
 * is), read() where the descriptor cannot seek (a pipe, a terminal). */
static ssize_t read_at(int fd, char *buf, size_t room, size_t n, int *stream)
{
    for (;;) {
        ssize_t got = *stream ? read(fd, buf, room) : pread(fd, buf, room, (off_t)n);
        if (got < 0 && errno == ESPIPE && !*stream && n == 0) {
            *stream = 1;
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        return got;
    }
}

/* Where a NUL byte lies in the part just read, said with its line (the
 * lines before the part were counted as it came). */
static trapeze_status nul_in(const char *part, size_t got, long *line, const char *path,
                             trapeze_error *err)
{
    const char *nul = memchr(part, '\0', got);
    const char *end = nul ? nul : part + got;
    for (const char *p = part; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        (*line)++;
    if (!nul)
        return TRAPEZE_OK;
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%ld: a NUL byte: not a text file", path, *line);
}

static trapeze_status read_fd_limited(int fd, const char *path, size_t max, int text,
                                      char **out, size_t *len, trapeze_error *err)
{
    *out = NULL;
    *len = 0;
    size_t cap = 4096, n = 0;
    int stream = 0;
    long line = 1;
    char *buf = malloc(cap);
    if (!buf)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    trapeze_status s = TRAPEZE_OK;
    for (;;) {
        if (n + 1 == cap) {
            if (n > max) {   /* one byte past the limit was asked for, and came */
                s = trapeze_fail(err, TRAPEZE_EPARSE, "%s: larger than %zu MiB, the most a "
                                 "file read whole may be", path, max >> 20);
                break;
            }
            size_t want = cap * 2 > max + 2 ? max + 2 : cap * 2;
            char *grown = realloc(buf, want);
            if (!grown) {
                s = trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory (%zu bytes read)",
                                 path, n);
                break;
            }
            buf = grown;
            cap = want;
        }
        ssize_t got = read_at(fd, buf + n, cap - n - 1, n, &stream);
        if (got < 0) {
            s = trapeze_fail(err, errno == EISDIR ? TRAPEZE_EINVAL : TRAPEZE_EIO,
                             errno == EISDIR ? "%s: is a folder, not a file%s"
                                             : "%s: cannot read: %s",
                             path, errno == EISDIR ? "" : strerror(errno));
            break;
        }
        if (got == 0)
            break;
        if (text && (s = nul_in(buf + n, (size_t)got, &line, path, err)))
            break;
        n += (size_t)got;
    }
    if (s) {
        free(buf);
        return s;
    }
    buf[n] = '\0'; /* for convenience only: n is the length */
    *out = buf;
    *len = n;
    return TRAPEZE_OK;
}

trapeze_status trapeze_read_fd(int fd, const char *path, char **out, size_t *len,
                               trapeze_error *err)
{
    return read_fd_limited(fd, path, TRAPEZE_READ_MAX, 0, out, len, err);
}

trapeze_status trapeze_read_fd_text(int fd, const char *path, char **out, size_t *len,
                                    trapeze_error *err)
{
    return read_fd_limited(fd, path, TRAPEZE_READ_MAX, 1, out, len, err);
}

static trapeze_status read_path(const char *path, int text, char **out, size_t *len,
                                trapeze_error *err)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", path, strerror(errno));
    trapeze_status s = read_fd_limited(fileno(f), path, TRAPEZE_READ_MAX, text, out, len, err);
    fclose(f);
    return s;
}

trapeze_status trapeze_read_file_len(const char *path, char **out, size_t *len,
                                     trapeze_error *err)
{
    return read_path(path, 0, out, len, err);
}

trapeze_status trapeze_read_file(const char *path, char **out, trapeze_error *err)
{
    size_t len;
    return read_path(path, 1, out, &len, err);
}

const char *trapeze_format_double(double value, char *out, size_t room)
{
    snprintf(out, room, "%.15g", value);
    if (strtod(out, NULL) != value)
        snprintf(out, room, "%.17g", value);
    return out;
}
