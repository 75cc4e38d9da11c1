/*
 * config.c - the gpgpusim.config option file: "-option value" pairs, '#'
 * comments, double-quoted values, several options per line allowed, the
 * last definition of an option wins (GPGPU-Sim's own rules).
 *
 * Owns tokenizing and typed access. A parsed config never changes when it
 * is read (getters are pure lookups), so one parsed config may be shared by
 * every thread of a run; which options Trapeze reads is known from the
 * option tables (common/options.h), not recorded here. It must not know
 * what any option means: the model (gpu.c) and the simulator each interpret
 * the options they honour.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "number.h"
#include "config_paths.h"
#include "config_extend.h"
#include "text.h"

typedef struct {
    char *name;   /* without the leading '-' */
    char *value;
    int line;
    int file;     /* index into files: the file that defined it */
} option;

struct trapeze_config {
    char *name;   /* the first file's path */
    option *options;
    size_t count, capacity;
    char **files; /* a chain's files, in load order (common/config_paths.c) */
    int n_files;
};

static option *find(const trapeze_config *cfg, const char *name)
{
    if (name[0] == '-')
        name++;
    for (size_t i = cfg->count; i-- > 0;)
        if (strcmp(cfg->options[i].name, name) == 0)
            return &cfg->options[i];
    return NULL;
}

static trapeze_status add_option(trapeze_config *cfg, const char *name, const char *value,
                                 int line, trapeze_error *err)
{
    option *old = find(cfg, name);
    if (old) { /* last definition wins, as in GPGPU-Sim */
        char *copy = trapeze_strdup(value);
        if (!copy)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        free(old->value);
        old->value = copy;
        old->line = line;
        old->file = cfg->n_files - 1;
        return TRAPEZE_OK;
    }
    if (cfg->count == cfg->capacity) {
        size_t cap = cfg->capacity ? 2 * cfg->capacity : 64;
        option *grown = realloc(cfg->options, cap * sizeof *grown);
        if (!grown)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        cfg->options = grown;
        cfg->capacity = cap;
    }
    option *o = &cfg->options[cfg->count];
    o->name = trapeze_strdup(name);
    o->value = trapeze_strdup(value);
    o->line = line;
    o->file = cfg->n_files - 1;
    if (!o->name || !o->value) {
        free(o->name);
        free(o->value);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    cfg->count++;
    return TRAPEZE_OK;
}

/* A token that starts a new option: '-' then a letter (so "-1" is a value). */
static int is_option_token(const char *tok)
{
    return tok[0] == '-' && isalpha((unsigned char)tok[1]);
}

typedef struct {
    const char *p;
    int line;
} scanner;

/* Next whitespace-separated token into buf; a double-quoted token may span
 * lines (GPGPU-Sim's DRAM timing strings do); '#' starts a comment outside
 * quotes. Returns 0 at end of text, -1 on an unterminated quote. */
static int next_token(scanner *sc, char *buf, size_t size, int *line)
{
    for (;;) {
        while (isspace((unsigned char)*sc->p))
            if (*sc->p++ == '\n')
                sc->line++;
        if (*sc->p != '#')
            break;
        while (*sc->p && *sc->p != '\n')
            sc->p++;
    }
    if (!*sc->p)
        return 0;
    *line = sc->line;
    size_t n = 0;
    if (*sc->p == '"') {
        sc->p++;
        while (*sc->p && *sc->p != '"') {
            char c = *sc->p++;
            if (c == '\n')
                sc->line++;
            if (isspace((unsigned char)c))
                continue; /* a quoted value is one token: drop its layout */
            if (n + 1 < size)
                buf[n++] = c;
        }
        if (!*sc->p)
            return -1;
        sc->p++;
    } else {
        while (*sc->p && !isspace((unsigned char)*sc->p) && *sc->p != '#')
            if (n + 1 < size)
                buf[n++] = *sc->p++;
            else
                sc->p++;
    }
    buf[n] = '\0';
    return 1;
}

/* Adds `name` to cfg's files: the options parsed next belong to it. */
static trapeze_status add_file(trapeze_config *cfg, const char *name, trapeze_error *err)
{
    char **grown = realloc(cfg->files, (size_t)(cfg->n_files + 1) * sizeof *grown);
    if (!grown)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    cfg->files = grown;
    if (!(cfg->files[cfg->n_files] = trapeze_strdup(name)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    cfg->n_files++;
    return TRAPEZE_OK;
}

/* Parses text, the file `name`, into cfg: its options override earlier ones. */
static trapeze_status parse_into(trapeze_config *cfg, const char *text, const char *name,
                                 trapeze_error *err)
{
    trapeze_status s0 = add_file(cfg, name, err);
    if (s0)
        return s0;
    scanner sc = {text, 1};
    char tok[1024], opt[1024] = "", value[1024] = "";
    int line = 0, opt_line = 0, got;
    trapeze_status s = TRAPEZE_OK;
    while (!s && (got = next_token(&sc, tok, sizeof tok, &line)) != 0) {
        if (got < 0) {
            s = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: unterminated '\"' in the value of -%s",
                             name, line, opt[0] ? opt : "?");
        } else if (is_option_token(tok)) {
            if (opt[0] && !value[0])
                break;
            if (opt[0])
                s = add_option(cfg, opt, value, opt_line, err);
            snprintf(opt, sizeof opt, "%s", tok + 1);
            value[0] = '\0';
            opt_line = line;
        } else if (!opt[0]) {
            s = trapeze_fail(err, TRAPEZE_EPARSE,
                             "%s:%d: expected an option such as -gpgpu_n_clusters, got '%s'",
                             name, line, tok);
        } else {
            if (value[0])
                strncat(value, " ", sizeof value - strlen(value) - 1);
            strncat(value, tok, sizeof value - strlen(value) - 1);
        }
    }
    if (!s && opt[0] && !value[0])
        s = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: option -%s: missing value", name,
                         opt_line, opt);
    else if (!s && opt[0])
        s = add_option(cfg, opt, value, opt_line, err);
    return s;
}

trapeze_status trapeze_config_extend(trapeze_config *cfg, const char *text, const char *name,
                                     trapeze_error *err)
{
    return parse_into(cfg, text, name, err);
}

static trapeze_config *config_new(const char *name)
{
    trapeze_config *cfg = calloc(1, sizeof *cfg);
    if (cfg && !(cfg->name = trapeze_strdup(name))) {
        free(cfg);
        cfg = NULL;
    }
    return cfg;
}

trapeze_status trapeze_config_parse(const char *text, const char *name,
                                    trapeze_config **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_config *cfg = config_new(name);
    if (!cfg)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = parse_into(cfg, text, name, err);
    if (s) {
        trapeze_config_destroy(cfg);
        return s;
    }
    *out = cfg;
    return TRAPEZE_OK;
}

trapeze_status trapeze_config_load_files(const char *const *paths, int n,
                                         trapeze_config **out, trapeze_error *err)
{
    *out = NULL;
    if (n < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no GPU config file given");
    trapeze_config *cfg = config_new(paths[0]);
    if (!cfg)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < n; i++) {
        char *text = NULL;
        s = trapeze_read_file(paths[i], &text, err);
        if (!s)
            s = parse_into(cfg, text, paths[i], err);
        free(text);
    }
    if (s) {
        trapeze_config_destroy(cfg);
        return s;
    }
    *out = cfg;
    return TRAPEZE_OK;
}

trapeze_status trapeze_config_load(const char *path, trapeze_config **out,
                                   trapeze_error *err)
{
    char **paths = NULL;
    int n = 0;
    *out = NULL;
    trapeze_status s = trapeze_config_paths(path, &paths, &n, err);
    if (!s)
        s = trapeze_config_load_files((const char *const *)paths, n, out, err);
    trapeze_config_paths_free(paths, n);
    return s;
}

const char *trapeze_config_file(const trapeze_config *cfg, const char *name)
{
    const option *o = find(cfg, name);
    return o ? cfg->files[o->file] : NULL;
}

void trapeze_config_destroy(trapeze_config *cfg)
{
    if (!cfg)
        return;
    for (size_t i = 0; i < cfg->count; i++) {
        free(cfg->options[i].name);
        free(cfg->options[i].value);
    }
    for (int i = 0; i < cfg->n_files; i++)
        free(cfg->files[i]);
    free(cfg->files);
    free(cfg->options);
    free(cfg->name);
    free(cfg);
}

const char *trapeze_config_name(const trapeze_config *cfg) { return cfg->name; }

int trapeze_config_has(const trapeze_config *cfg, const char *option)
{
    return find(cfg, option) != NULL;
}

static const option *use(const trapeze_config *cfg, const char *name)
{
    return find(cfg, name);
}

trapeze_status trapeze_config_fail(const trapeze_config *cfg, const char *name,
                                   trapeze_error *err, const char *fmt, ...)
{
    const option *o = find(cfg, name);
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (name[0] == '-')
        name++;
    if (o)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: option -%s: %s", cfg->files[o->file], o->line,
                            name, why);
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s: option -%s: %s", cfg->name, name, why);
}

trapeze_status trapeze_config_get_int(const trapeze_config *cfg, const char *name,
                                      long fallback, long *out, trapeze_error *err)
{
    const option *o = use(cfg, name);
    *out = fallback;
    if (!o)
        return TRAPEZE_OK;
    if (!trapeze_parse_long(o->value, out))
        return trapeze_config_fail(cfg, name, err, "expected an integer, got '%s'", o->value);
    return TRAPEZE_OK;
}

trapeze_status trapeze_config_get_double(const trapeze_config *cfg, const char *name,
                                         double fallback, double *out, trapeze_error *err)
{
    const option *o = use(cfg, name);
    *out = fallback;
    if (!o)
        return TRAPEZE_OK;
    if (!trapeze_parse_double(o->value, out))
        return trapeze_config_fail(cfg, name, err, "expected a number, got '%s'", o->value);
    return TRAPEZE_OK;
}

trapeze_status trapeze_config_get_string(const trapeze_config *cfg, const char *name,
                                         const char *fallback, const char **out)
{
    const option *o = use(cfg, name);
    *out = o ? o->value : fallback;
    return TRAPEZE_OK;
}

trapeze_status trapeze_config_get_doubles(const trapeze_config *cfg, const char *name,
                                          const char *seps, double *values, int max_values,
                                          int *count, trapeze_error *err)
{
    const option *o = use(cfg, name);
    *count = 0;
    if (!o)
        return TRAPEZE_OK;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", o->value);
    char *save = NULL;
    for (char *tok = strtok_r(buf, seps, &save); tok; tok = strtok_r(NULL, seps, &save)) {
        if (*count == max_values)
            return trapeze_config_fail(cfg, name, err, "more than %d values in '%s'",
                                       max_values, o->value);
        if (!trapeze_parse_double(tok, &values[*count]))
            return trapeze_config_fail(cfg, name, err, "'%s' is not a number (in '%s')", tok,
                                       o->value);
        (*count)++;
    }
    return TRAPEZE_OK;
}

/* Where option o is, for common/number.h's messages. */
static trapeze_where where_of(const trapeze_config *cfg, const option *o, char *label,
                              size_t room)
{
    snprintf(label, room, "option -%s", o->name);
    trapeze_where w = {cfg->files[o->file], o->line, label};
    return w;
}

trapeze_status trapeze_config_get_int_in(const trapeze_config *cfg, const char *name,
                                         long fallback, long lo, long hi, long *out,
                                         trapeze_error *err)
{
    const option *o = use(cfg, name);
    char label[1100];
    *out = fallback;
    if (!o)
        return TRAPEZE_OK;
    trapeze_where w = where_of(cfg, o, label, sizeof label);
    return trapeze_num_long(o->value, lo, hi, &w, out, err);
}

trapeze_status trapeze_config_get_double_in(const trapeze_config *cfg, const char *name,
                                            double fallback, double lo, double hi, double *out,
                                            trapeze_error *err)
{
    const option *o = use(cfg, name);
    char label[1100];
    *out = fallback;
    if (!o)
        return TRAPEZE_OK;
    trapeze_where w = where_of(cfg, o, label, sizeof label);
    return trapeze_num_double(o->value, lo, hi, &w, out, err);
}

trapeze_status trapeze_config_get_ints(const trapeze_config *cfg, const char *name,
                                       const char *seps, long lo, long hi, long *values,
                                       int max_values, int *count, trapeze_error *err)
{
    const option *o = use(cfg, name);
    char label[1100];
    double v[64];
    *count = 0;
    if (!o)
        return TRAPEZE_OK;
    if (max_values > 64)
        max_values = 64;
    trapeze_where w = where_of(cfg, o, label, sizeof label);
    trapeze_status s = trapeze_num_list(o->value, seps, (double)lo, (double)hi, 1, &w, v,
                                        max_values, count, err);
    for (int i = 0; !s && i < *count; i++)
        s = trapeze_num_whole(v[i], lo, hi, &w, &values[i], err);
    return s;
}

size_t trapeze_config_count(const trapeze_config *cfg) { return cfg->count; }

const char *trapeze_config_option(const trapeze_config *cfg, size_t i)
{
    return i < cfg->count ? cfg->options[i].name : NULL;
}
