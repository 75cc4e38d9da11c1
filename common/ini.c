/*
 * ini.c - libinih with line numbers: a counting line reader feeds
 * ini_parse_stream, so the handler knows the line it is called for.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "ini.h"
#include "text.h"

typedef struct {
    FILE *file;
    trapeze_ini_ctx at;
    trapeze_ini_handler handler;
    void *user;
    trapeze_error *err;
    trapeze_status status;
} parse_state;

static char *counting_reader(char *str, int num, void *stream)
{
    parse_state *st = stream;
    char *got = fgets(str, num, st->file);
    if (got)
        st->at.line++;
    return got;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_state *st = user;
    if (st->status)
        return 0;
    st->status = st->handler(st->user, &st->at, section, key, value, st->err);
    return st->status == TRAPEZE_OK;
}

trapeze_status trapeze_ini_parse(const char *path, trapeze_ini_handler handler, void *user,
                                 trapeze_error *err)
{
    parse_state st = {.at = {path, 0}, .handler = handler, .user = user, .err = err};
    st.file = fopen(path, "r");
    if (!st.file)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", path, strerror(errno));
    int bad_line = ini_parse_stream(counting_reader, &st, on_key, &st);
    fclose(st.file);
    if (st.status)
        return st.status;
    if (bad_line < 0)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: read error", path);
    if (bad_line > 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: malformed line (expected [section] or key = value)", path,
                            bad_line);
    return TRAPEZE_OK;
}

trapeze_status trapeze_ini_double(const trapeze_ini_ctx *at, const char *section,
                                  const char *key, const char *value, double min, double max,
                                  double *out, trapeze_error *err)
{
    if (!trapeze_parse_double(value, out))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: expected a number, got '%s'",
                            at->path, at->line, section, key, value);
    if (*out < min || *out > max)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [%s] %s: %g is outside [%g, %g]",
                            at->path, at->line, section, key, *out, min, max);
    return TRAPEZE_OK;
}

trapeze_status trapeze_ini_int(const trapeze_ini_ctx *at, const char *section, const char *key,
                               const char *value, long min, long max, long *out,
                               trapeze_error *err)
{
    if (!trapeze_parse_long(value, out))
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [%s] %s: expected an integer, got '%s'", at->path, at->line,
                            section, key, value);
    if (*out < min || *out > max)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [%s] %s: %ld is outside [%ld, %ld]",
                            at->path, at->line, section, key, *out, min, max);
    return TRAPEZE_OK;
}
