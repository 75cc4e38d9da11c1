/*
 * kernelslist.c - an Accel-Sim kernelslist.g: the ordered kernel traces of
 * one application run (memory copy commands are accepted and ignored, as
 * the simulator starts every kernel with its memory state as is), and
 * running them in order, one trace open at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

trapeze_status sim_trace_list_read(const char *path, sim_trace_list *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    char *text;
    trapeze_status st = trapeze_read_file(path, &text, err);
    if (st)
        return st;
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
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
        if (starts_with(s, "kernel") && !strchr(s, ' ') && !strchr(s, ','))
            st = add_kernel(out, path, dir_len, s, err);
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
