/*
 * kernelslist.c - an Accel-Sim kernelslist.g: the ordered kernel traces of
 * one application run (memory copy commands are accepted and ignored, as
 * the simulator starts every kernel with its memory state as is), and
 * running them in order, one trace open at a time. Accel-Sim's conventions
 * for naming one: the folder holding kernelslist.g stands for it, and the
 * NVBit tracer's unprocessed output (kernelslist, kernel-N.trace) is named as
 * such, with the step that makes a trace of it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/text.h"
#include "sim/trace/trace.h"

void sim_trace_list_free(sim_trace_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->kernels[i]);
    free(l->kernels);
    l->kernels = NULL;
    l->n = 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* A memcpy command: NAME,0xADDRESS,BYTES. */
static int memcpy_line(const char *s)
{
    if (!starts_with(s, "MemcpyHtoD,") && !starts_with(s, "MemcpyDtoH,"))
        return 0;
    char *end;
    const char *a = strchr(s, ',') + 1;
    strtoull(a, &end, 16);
    if (end == a || *end != ',')
        return 0;
    long bytes;
    return trapeze_parse_long(end + 1, &bytes) && bytes >= 0;
}

static trapeze_status add_kernel(sim_trace_list *l, const char *dir, size_t dir_len,
                                 const char *name, trapeze_error *err)
{
    char **k = realloc(l->kernels, (size_t)(l->n + 1) * sizeof *k);
    if (!k)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    l->kernels = k;
    size_t n = dir_len + strlen(name) + 1;
    if (!(k[l->n] = malloc(n)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    snprintf(k[l->n], n, "%.*s%s", (int)dir_len, dir, name);
    l->n++;
    return TRAPEZE_OK;
}

/* What to do with the tracer's output in folder dir[0..len) ("." if len is 0). */
static const char *unprocessed(const char *dir, size_t len, char *buf, size_t room)
{
    while (len > 1 && dir[len - 1] == '/')
        len--;
    snprintf(buf, room, "the NVBit tracer's unprocessed output: run Accel-Sim's post-processing "
             "first (util/tracer_nvbit/tracer_tool/traces-processing/post-traces-processing "
             "%.*s), which writes kernelslist.g and kernel-N.traceg",
             len ? (int)len : 1, len ? dir : ".");
    return buf;
}

/* The length of path's folder part, its last '/' included (0: none). */
static size_t dir_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path + 1) : 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Whether folder dir holds a file named kernelslist or ending in .trace. */
static int has_unprocessed(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)))
        found = !strcmp(e->d_name, "kernelslist") || ends_with(e->d_name, ".trace");
    if (d)
        closedir(d);
    return found;
}

/* The kernelslist.g that path names (a malloc'd path): path itself, or
 * DIR/kernelslist.g when path is a folder, as Accel-Sim users give it. */
static trapeze_status list_file(const char *path, char **out, trapeze_error *err)
{
    struct stat sb;
    char hint[512];
    int dir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
    size_t n = strlen(path) + sizeof "/kernelslist.g";
    if (!(*out = malloc(n)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!dir) {
        memcpy(*out, path, strlen(path) + 1);
        if (ends_with(path, ".trace"))
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s: a kernel trace, not a kernelslist.g, "
                                "and %s", path,
                                unprocessed(path, dir_part(path), hint, sizeof hint));
        if (ends_with(path, ".traceg") || ends_with(path, ".traceg.xz"))
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s: a kernel trace, not a kernelslist.g: "
                                "give the folder holding kernelslist.g, or the list itself",
                                path);
        return TRAPEZE_OK;
    }
    snprintf(*out, n, "%s%skernelslist.g", path, ends_with(path, "/") ? "" : "/");
    if (access(*out, F_OK) == 0)
        return TRAPEZE_OK;
    if (has_unprocessed(path))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: no kernelslist.g; the folder holds %s",
                            path, unprocessed(path, strlen(path), hint, sizeof hint));
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s: a folder without kernelslist.g (an Accel-Sim "
                        "trace is a folder of kernelslist.g and kernel-N.traceg)", path);
}

trapeze_status sim_trace_list_read(const char *given, sim_trace_list *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    char *path, *text;
    trapeze_status st = list_file(given, &path, err);
    if (!st)
        st = trapeze_read_file(path, &text, err);
    if (st) {
        free(path);
        return st;
    }
    size_t dir_len = dir_part(path);
    char hint[512];
    int line = 0;
    for (char *s = text, *next; !st && s && *s; s = next) {
        next = strchr(s, '\n');
        if (next)
            *next++ = '\0';
        line++;
        size_t n = strlen(s);
        while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
            s[--n] = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || memcpy_line(s))
            continue;
        if (ends_with(s, ".trace"))
            st = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: %.60s is %s", path, line, s,
                              unprocessed(path, dir_len, hint, sizeof hint));
        else if (starts_with(s, "kernel") && !strchr(s, ' ') && !strchr(s, ','))
            st = add_kernel(out, path, dir_len, s, err);
        else if (line == 1 && *s == '-')
            st = trapeze_fail(err, TRAPEZE_EPARSE, "%s: a kernel trace, not a kernelslist.g: "
                              "give the folder holding kernelslist.g, or the list itself", path);
        else
            st = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: expected a kernel trace file name "
                              "(kernel-N.traceg) or MemcpyHtoD,0xADDRESS,BYTES, got '%.60s'",
                              path, line, s);
    }
    free(text);
    if (!st && out->n == 0)
        st = trapeze_fail(err, TRAPEZE_EPARSE, "%s: expected at least one kernel trace "
                          "(kernel-N.traceg)", path);
    if (st)
        sim_trace_list_free(out);
    free(path);
    return st;
}

typedef struct {
    const sim_trace_list *list;
    sim_trace_kernel *open;     /* the one trace open at a time */
} replay;

static trapeze_status open_kernel(void *ctx, int i, const sim_kernel **k, trapeze_error *err)
{
    replay *r = ctx;
    trapeze_status s = sim_trace_kernel_open(r->list->kernels[i], &r->open, err);
    *k = s ? NULL : sim_trace_kernel_sim(r->open);
    return s;
}

/* An error met while streaming the trace fails its launch. */
static trapeze_status close_kernel(void *ctx, int i, int ok, trapeze_error *err)
{
    (void)i;
    replay *r = ctx;
    trapeze_status s = ok ? sim_trace_kernel_status(r->open, err) : TRAPEZE_OK;
    sim_trace_kernel_close(r->open);
    r->open = NULL;
    return s;
}

trapeze_status sim_trace_run(sim_gpu *g, const char *kernelslist, sim_kernel_stats *st,
                             int max, int *n, trapeze_error *err)
{
    *n = 0;
    sim_trace_list l;
    trapeze_status s = sim_trace_list_read(kernelslist, &l, err);
    if (s)
        return s;
    if (l.n > max)
        s = trapeze_fail(err, TRAPEZE_ERANGE, "%s: %d kernels (at most %d)", kernelslist, l.n,
                         max);
    replay r = {&l, NULL};
    sim_sequence seq = {.n = l.n, .open = open_kernel, .close = close_kernel, .ctx = &r};
    if (!s)
        s = sim_gpu_run_sequence(g, &seq, st, n, err);
    sim_trace_list_free(&l);
    return s;
}
