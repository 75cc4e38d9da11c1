/*
 * text.c - strict number parsing and whole-file reading.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

trapeze_status trapeze_read_file(const char *path, char **out, trapeze_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (!buf)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    if (failed) {
        free(buf);
        return trapeze_fail(err, TRAPEZE_EIO, "%s: read error", path);
    }
    buf[len] = '\0';
    *out = buf;
    return TRAPEZE_OK;
}
