/*
 * text.c - strict number parsing, whole-file reading and message-safe
 * quoting of untrusted text.
 *
 * Files are read by length: a NUL byte is data, never an end of text, so a
 * stray NUL or a binary file is reported (trapeze_read_file refuses it with
 * the line it is on) instead of silently ending the text there.
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

trapeze_status trapeze_read_fd(int fd, const char *path, char **out, size_t *len,
                               trapeze_error *err)
{
    *out = NULL;
    *len = 0;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    for (;;) {
        if (n + 1 == cap) {
            char *grown = cap < ((size_t)1 << 40) ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                free(buf);
                return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
            }
            buf = grown;
            cap *= 2;
        }
        ssize_t got = pread(fd, buf + n, cap - n - 1, (off_t)n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot read: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0'; /* for convenience only: n is the length */
    *out = buf;
    *len = n;
    return TRAPEZE_OK;
}

trapeze_status trapeze_read_file_len(const char *path, char **out, size_t *len,
                                     trapeze_error *err)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", path, strerror(errno));
    trapeze_status s = trapeze_read_fd(fileno(f), path, out, len, err);
    fclose(f);
    return s;
}

trapeze_status trapeze_read_file(const char *path, char **out, trapeze_error *err)
{
    size_t len;
    trapeze_status s = trapeze_read_file_len(path, out, &len, err);
    if (s)
        return s;
    const char *nul = memchr(*out, '\0', len);
    if (nul) {
        int line = trapeze_line_of(*out, (size_t)(nul - *out));
        free(*out);
        *out = NULL;
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: a NUL byte: not a text file", path,
                            line);
    }
    return TRAPEZE_OK;
}
