/*
 * json.c - JSON documents for the commands' --json summaries: nesting,
 * commas and indentation, text escaping and number formatting, the
 * document held in memory and written whole through common/outfile.c.
 * Knows no command's keys; never prints; holds no state outside the
 * writer. (The one JSON writer of the project: no JSON library is used.)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "outfile.h"
#include "text.h"

#define JSON_MAX_DEPTH 64

struct trapeze_json_out {
    char *path;
    char *buf;            /* the document so far (open_memstream's buffer) */
    size_t len;
    FILE *mem;
    int depth;
    char kind[JSON_MAX_DEPTH];   /* 'o' an object, 'a' an array, per open level */
    int count[JSON_MAX_DEPTH];   /* values written at that level, for the commas */
    int done;                    /* the document's one value is complete */
    char misuse[160];            /* the first misuse, reported by the commit */
};

static void misuse(trapeze_json_out *j, const char *what, const char *key)
{
    if (!j->misuse[0])
        snprintf(j->misuse, sizeof j->misuse, "%s%s%.80s%s", what, key ? " ('" : "",
                 key ? key : "", key ? "')" : "");
}

static void indent(trapeze_json_out *j, int depth)
{
    fputc('\n', j->mem);
    for (int i = 0; i < depth; i++)
        fputs("  ", j->mem);
}

/* Bytes [s, s+n) at s are one well-formed UTF-8 character (RFC 3629: no
 * overlong form, no surrogate, at most U+10FFFF): its length, else 0. */
static int utf8_char(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (c >= 0xF5 || !n)
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0) ||
        (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

static void put_string(FILE *f, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', f);
    while (*s) {
        unsigned c = *s;
        int n;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else if (c < 0x80) {
            fputc((int)c, f);
        } else if ((n = utf8_char(s)) > 0) {
            fwrite(s, 1, (size_t)n, f);
            s += n;
            continue;
        } else {
            fprintf(f, "\\u%04x", c);   /* not UTF-8: the byte read as Latin-1 */
        }
        s++;
    }
    fputc('"', f);
}

/* Where a value goes: the comma, the line, the member's name. 0 on misuse. */
static int begin_value(trapeze_json_out *j, const char *key)
{
    if (j->misuse[0])
        return 0;
    if (j->depth == 0) {
        if (j->done || key) {
            misuse(j, j->done ? "a second value after the document" : "a name outside an object",
                   key);
            return 0;
        }
        return 1;
    }
    int in_object = j->kind[j->depth - 1] == 'o';
    if (in_object != (key != NULL)) {
        misuse(j, in_object ? "a member without a name" : "a name inside an array", key);
        return 0;
    }
    if (j->count[j->depth - 1]++ > 0)
        fputc(',', j->mem);
    indent(j, j->depth);
    if (key) {
        put_string(j->mem, key);
        fputs(": ", j->mem);
    }
    return 1;
}

static void end_value(trapeze_json_out *j)
{
    if (j->depth == 0)
        j->done = 1;
}

trapeze_status trapeze_json_create(const char *path, trapeze_json_out **out,
                                   trapeze_error *err)
{
    *out = NULL;
    trapeze_status s = trapeze_outfile_check(path, err);
    if (s)
        return s;
    trapeze_json_out *j = calloc(1, sizeof *j);
    if (!j || !(j->path = trapeze_strdup(path)) || !(j->mem = open_memstream(&j->buf, &j->len))) {
        if (j)
            free(j->path);
        free(j);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    *out = j;
    return TRAPEZE_OK;
}

static void open_level(trapeze_json_out *j, const char *key, char kind)
{
    if (!j || !begin_value(j, key))
        return;
    if (j->depth == JSON_MAX_DEPTH) {
        misuse(j, "nested too deep", key);
        return;
    }
    fputc(kind == 'o' ? '{' : '[', j->mem);
    j->kind[j->depth] = kind;
    j->count[j->depth++] = 0;
}

void trapeze_json_object(trapeze_json_out *j, const char *key) { open_level(j, key, 'o'); }

void trapeze_json_array(trapeze_json_out *j, const char *key) { open_level(j, key, 'a'); }

void trapeze_json_end(trapeze_json_out *j)
{
    if (!j || j->misuse[0])
        return;
    if (j->depth == 0) {
        misuse(j, "an end without an open object or array", NULL);
        return;
    }
    j->depth--;
    if (j->count[j->depth] > 0)
        indent(j, j->depth);
    fputc(j->kind[j->depth] == 'o' ? '}' : ']', j->mem);
    end_value(j);
}

void trapeze_json_text(trapeze_json_out *j, const char *key, const char *value)
{
    if (!j || !begin_value(j, key))
        return;
    if (value)
        put_string(j->mem, value);
    else
        fputs("null", j->mem);
    end_value(j);
}

void trapeze_json_number(trapeze_json_out *j, const char *key, double value)
{
    if (!j || !begin_value(j, key))
        return;
    char buf[40];
    fputs(isfinite(value) ? trapeze_format_double(value, buf, sizeof buf) : "null", j->mem);
    end_value(j);
}

void trapeze_json_integer(trapeze_json_out *j, const char *key, long long value)
{
    if (!j || !begin_value(j, key))
        return;
    fprintf(j->mem, "%lld", value);
    end_value(j);
}

void trapeze_json_bool(trapeze_json_out *j, const char *key, int value)
{
    if (!j || !begin_value(j, key))
        return;
    fputs(value ? "true" : "false", j->mem);
    end_value(j);
}

void trapeze_json_abort(trapeze_json_out *j)
{
    if (!j)
        return;
    fclose(j->mem);
    free(j->buf);
    free(j->path);
    free(j);
}

trapeze_status trapeze_json_commit(trapeze_json_out *j, trapeze_error *err)
{
    if (!j->done)
        misuse(j, "an unfinished document (an object or array left open)", NULL);
    if (j->misuse[0]) {
        trapeze_status s = trapeze_fail(err, TRAPEZE_EINVAL, "%s: JSON document not written: %s",
                                        j->path, j->misuse);
        trapeze_json_abort(j);
        return s;
    }
    fputc('\n', j->mem);
    int mem_failed = fflush(j->mem) != 0;
    trapeze_outfile *o;
    FILE *f;
    trapeze_status s = mem_failed ? trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory")
                                  : trapeze_outfile_open_stream(j->path, &o, &f, err);
    if (!s) {
        int write_errno = fwrite(j->buf, 1, j->len, f) == j->len ? 0 : (errno ? errno : EIO);
        s = trapeze_outfile_finish(o, write_errno, err);
        if (!s)
            s = trapeze_outfile_commit(o, err);
    }
    trapeze_json_abort(j);
    return s;
}
