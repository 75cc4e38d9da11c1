/*
 * ini.c - libinih with line numbers: the file is read whole, by length (a
 * NUL byte is an error naming its line, never a silent end of the text),
 * and a counting line reader feeds ini_parse_stream, so the handler knows
 * the line it is called for. Section names are kept as written, whatever
 * their length; a key given twice in a section is an error naming both
 * lines (never last-wins), for every INI reader. Numbers go through
 * common/number.h.
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

/* The keys seen, by "section\x1fkey": open addressing, doubled at half
 * full, so a file of many keys is checked in linear time. */
typedef struct {
    char **name;     /* NULL where free */
    int *line;
    size_t cap, used;
} key_set;

typedef struct {
    const char *text, *end; /* what is left to read */
    trapeze_ini_ctx at;
    char *section;          /* the current section as written (inih keeps 49 bytes) */
    key_set seen;
    trapeze_ini_handler handler;
    void *user;
    trapeze_error *err;
    trapeze_status status;
    int indented;           /* the line just read starts with a blank: inih takes it as
                               the previous key's continuation (a multi-line value) */
} parse_state;

static size_t hash(const char *s)
{
    size_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static size_t find_slot(const key_set *k, const char *name)
{
    size_t i = hash(name) & (k->cap - 1);
    while (k->name[i] && strcmp(k->name[i], name) != 0)
        i = (i + 1) & (k->cap - 1);
    return i;
}

static int grow(key_set *k)
{
    key_set g = {calloc(k->cap ? k->cap * 2 : 64, sizeof *g.name),
                 calloc(k->cap ? k->cap * 2 : 64, sizeof *g.line), k->cap ? k->cap * 2 : 64,
                 k->used};
    if (!g.name || !g.line) {
        free(g.name);
        free(g.line);
        return 0;
    }
    for (size_t i = 0; i < k->cap; i++)
        if (k->name[i]) {
            size_t j = find_slot(&g, k->name[i]);
            g.name[j] = k->name[i];
            g.line[j] = k->line[i];
        }
    free(k->name);
    free(k->line);
    *k = g;
    return 1;
}

static void free_keys(key_set *k)
{
    for (size_t i = 0; i < k->cap; i++)
        free(k->name[i]);
    free(k->name);
    free(k->line);
}

/* Records [section] key at line; the line it was first given on when it was
 * given before, 0 when new, -1 when out of memory. */
static int seen_before(key_set *k, const char *section, const char *key, int line)
{
    if ((k->used + 1) * 2 > k->cap && !grow(k))
        return -1;
    size_t n = strlen(section) + strlen(key) + 2;
    char *name = malloc(n);
    if (!name)
        return -1;
    snprintf(name, n, "%s\x1f%s", section, key);
    size_t i = find_slot(k, name);
    if (k->name[i]) {
        free(name);
        return k->line[i];
    }
    k->name[i] = name;
    k->line[i] = line;
    k->used++;
    return 0;
}

/* The name of the section a "[name]" line opens, kept whole; inih is given
 * a short stand-in, since it cuts names at 49 bytes (two long names with one
 * beginning would be one section). NULL when out of memory. */
static char *section_name(const char *open, const char *eol)
{
    const char *close = memchr(open, ']', (size_t)(eol - open));
    const char *e = close ? close : eol;
    char *name = malloc((size_t)(e - open));
    if (name) {
        memcpy(name, open + 1, (size_t)(e - open - 1));
        name[e - open - 1] = '\0';
    }
    return name;
}

static char *refuse(parse_state *st, trapeze_status s)
{
    st->status = s;
    return NULL;   /* the end of the text for inih */
}

/* fgets over the buffer, one physical line at a time: a section line is
 * recorded whole (and handed on as "[s]"), a comment line as an empty one,
 * and any other line longer than inih's buffer (num - 1 bytes) is refused
 * by line: inih would cut it into two lines. */
static char *counting_reader(char *str, int num, void *stream)
{
    parse_state *st = stream;
    if (st->status || st->text >= st->end || num < 8)
        return NULL;
    const char *nl = memchr(st->text, '\n', (size_t)(st->end - st->text));
    const char *eol = nl ? nl : st->end, *start = st->text, *p = start;
    size_t n = (size_t)(eol - st->text);
    st->text = nl ? nl + 1 : st->end;
    st->at.line++;
    while (p < eol && (*p == ' ' || *p == '\t'))
        p++;
    st->indented = p > start;
    if (p < eol && *p == '[' && memchr(p, ']', (size_t)(eol - p))) {
        char *name = section_name(p, eol);
        if (!name)
            return refuse(st, trapeze_fail(st->err, TRAPEZE_ENOMEM, "%s: out of memory",
                                           st->at.path));
        free(st->section);
        st->section = name;
        memcpy(str, "[s]\n", 5);
        return str;
    }
    if (p < eol && (*p == ';' || *p == '#')) {
        memcpy(str, "\n", 2);
        return str;
    }
    if (n + 1 > (size_t)num - 1)
        return refuse(st, trapeze_fail(st->err, TRAPEZE_EPARSE, "%s:%d: a line of %zu "
                                       "characters, longer than the %d a key line may be",
                                       st->at.path, st->at.line, n, num - 2));
    memcpy(str, start, n + (nl != NULL));
    str[n + (nl != NULL)] = '\0';
    return str;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_state *st = user;
    (void)section;   /* inih's stand-in: the name as written is st->section */
    if (st->status)
        return 0;
    const char *sec = st->section ? st->section : "";
    /* a continuation line hands its key again: the same key, not a repeat */
    int first = st->indented ? 0 : seen_before(&st->seen, sec, key, st->at.line);
    if (first < 0)
        st->status = trapeze_fail(st->err, TRAPEZE_ENOMEM, "%s: out of memory", st->at.path);
    else if (first > 0)
        st->status = trapeze_fail(st->err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: given twice "
                                  "(first on line %d); each key is given once", st->at.path,
                                  st->at.line, sec, key, first);
    else
        st->status = st->handler(st->user, &st->at, sec, key, value, st->err);
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
    free(st.section);
    free_keys(&st.seen);
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
