/*
 * ini.c - libinih with line numbers: the file is read whole, by length (a
 * NUL byte is an error naming its line, never a silent end of the text),
 * and a counting line reader feeds ini_parse_stream, so the handler knows
 * the line it is called for. Numbers go through common/number.h.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "ini.h"
#include "number.h"
#include "text.h"

typedef struct {
    const char *text, *end; /* what is left to read */
    trapeze_ini_ctx at;
    trapeze_ini_handler handler;
    void *user;
    trapeze_error *err;
    trapeze_status status;
} parse_state;

/* fgets over the buffer: one line (or num - 1 bytes of it) at a time. */
static char *counting_reader(char *str, int num, void *stream)
{
    parse_state *st = stream;
    if (st->text >= st->end || num < 2)
        return NULL;
    size_t room = (size_t)num - 1, n = 0;
    while (n < room && st->text + n < st->end && st->text[n] != '\n')
        n++;
    if (n < room && st->text + n < st->end)
        n++; /* the '\n' */
    memcpy(str, st->text, n);
    str[n] = '\0';
    if (str[n - 1] == '\n' || st->text + n == st->end)
        st->at.line++;
    st->text += n;
    return str;
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
    char *text;
    trapeze_status s = trapeze_read_file(path, &text, err); /* refuses NUL bytes */
    if (s)
        return s;
    st.text = text;
    st.end = text + strlen(text);
    int bad_line = ini_parse_stream(counting_reader, &st, on_key, &st);
    free(text);
    if (st.status)
        return st.status;
    if (bad_line < 0)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    if (bad_line > 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: malformed line (expected [section] or key = value)", path,
                            bad_line);
    return TRAPEZE_OK;
}

/* "[section] key", the label number.h puts in its messages. */
static trapeze_where where(const trapeze_ini_ctx *at, const char *section, const char *key,
                           char *buf, size_t room)
{
    snprintf(buf, room, "[%s] %s", section, key);
    trapeze_where w = {at->path, at->line, buf};
    return w;
}

trapeze_status trapeze_ini_double(const trapeze_ini_ctx *at, const char *section,
                                  const char *key, const char *value, double min, double max,
                                  double *out, trapeze_error *err)
{
    char label[160];
    trapeze_where w = where(at, section, key, label, sizeof label);
    return trapeze_num_double(value, min, max, &w, out, err);
}

trapeze_status trapeze_ini_int(const trapeze_ini_ctx *at, const char *section, const char *key,
                               const char *value, long min, long max, long *out,
                               trapeze_error *err)
{
    char label[160];
    trapeze_where w = where(at, section, key, label, sizeof label);
    return trapeze_num_long(value, min, max, &w, out, err);
}
