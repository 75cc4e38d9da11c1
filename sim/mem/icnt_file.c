/*
 * icnt_file.c - reads a booksim interconnect file ("key = value;" lines,
 * "//" comments, as GPGPU-Sim's intersim2 reads it) into the parameters of
 * xbar.c's flit-level crossbar. Owns booksim's defaults for absent keys
 * (booksim_config.cpp) and GPGPU-Sim's buffer rules
 * (interconnect_interface.cpp); refuses networks that crossbar cannot be.
 * It must not model timing, nor know gpgpusim.config options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/number.h"
#include "common/text.h"
#include "sim/mem/icnt_file.h"

/* One "key = value" statement and where it was. */
typedef struct {
    char key[64];
    char value[256];
    int line;
} stmt;

/* The statements of the file; a key given twice keeps its last value. */
typedef struct {
    stmt s[128];
    int n;
    const char *name;
} stmts;

static const stmt *get(const stmts *st, const char *key)
{
    for (int i = st->n; i-- > 0;)
        if (strcmp(st->s[i].key, key) == 0)
            return &st->s[i];
    return NULL;
}

static void trim(char *s)
{
    size_t n = strlen(s), i = 0;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')
        i++;
    memmove(s, s + i, n - i + 1);
}

/* Splits text into statements ending in ';' (a '{...}' value may hold none). */
static trapeze_status split_stmts(const char *text, stmts *st, trapeze_error *err)
{
    char buf[512];
    size_t len = 0;
    int line = 1, start = 0;
    for (const char *p = text; *p; p++) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            if (!*p)
                break;
        }
        if (*p == '\n')
            line++;
        if (*p != ';') {
            if (!start && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
                start = line;
            if (len + 1 < sizeof buf)
                buf[len++] = *p;
            continue;
        }
        buf[len] = '\0';
        char *eq = strchr(buf, '=');
        trapeze_where at = {st->name, start ? start : line, "booksim statement"};
        if (!eq)
            return trapeze_num_fail(&at, TRAPEZE_EPARSE, err, "expected key = value;");
        if (st->n == (int)(sizeof st->s / sizeof st->s[0]))
            return trapeze_num_fail(&at, TRAPEZE_EPARSE, err, "more than %d statements",
                                    st->n);
        stmt *s = &st->s[st->n++];
        *eq = '\0';
        snprintf(s->key, sizeof s->key, "%.63s", buf);
        snprintf(s->value, sizeof s->value, "%.255s", eq + 1);
        trim(s->key);
        trim(s->value);
        s->line = at.line;
        len = 0;
        start = 0;
    }
    buf[len] = '\0';
    trim(buf);
    if (buf[0]) {
        trapeze_where at = {st->name, start, "booksim statement"};
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err, "missing ';' after '%s'", buf);
    }
    return TRAPEZE_OK;
}

/* An integer key in [lo, hi], booksim's default when absent. */
static trapeze_status int_key(const stmts *st, const char *key, int fallback, int lo, int hi,
                              int *out, trapeze_error *err)
{
    const stmt *s = get(st, key);
    *out = fallback;
    if (!s)
        return TRAPEZE_OK;
    trapeze_where at = {st->name, s->line, key};
    return trapeze_num_int(s->value, lo, hi, &at, out, err);
}

/* A key that must equal `want` (what xbar.c models); absent: booksim's default. */
static trapeze_status must_be(const stmts *st, const char *key, const char *fallback,
                              const char *want, trapeze_error *err)
{
    const stmt *s = get(st, key);
    const char *v = s ? s->value : fallback;
    if (strcmp(v, want) == 0)
        return TRAPEZE_OK;
    trapeze_where at = {st->name, s ? s->line : 0, key};
    return trapeze_num_fail(&at, TRAPEZE_EPARSE, err,
                            "%s%s is not modelled: Trapeze's flit-level crossbar is %s = %s",
                            v, s ? "" : " (booksim's default)", key, want);
}

static trapeze_status read_stmts(const stmts *st, int n_nodes, sim_icnt_file *o,
                                 trapeze_error *err)
{
    trapeze_status s;
    int n, k, vcs, vc_buf, routing, vc_alloc, sw_alloc, st_final, in, ej, in_sp, out_sp;
    if ((s = must_be(st, "topology", "torus", "fly", err)) ||
        (s = int_key(st, "n", 2, 1, 64, &n, err)) ||
        (s = int_key(st, "k", 8, 1, 1000000, &k, err)) ||
        (s = int_key(st, "num_vcs", 16, 1, 1024, &vcs, err)) ||
        (s = int_key(st, "vc_buf_size", 8, 1, 1000000, &vc_buf, err)) ||
        (s = int_key(st, "routing_delay", 1, 0, 1000, &routing, err)) ||
        (s = int_key(st, "vc_alloc_delay", 1, 0, 1000, &vc_alloc, err)) ||
        (s = int_key(st, "sw_alloc_delay", 1, 0, 1000, &sw_alloc, err)) ||
        (s = int_key(st, "st_final_delay", 1, 0, 1000, &st_final, err)) ||
        (s = int_key(st, "input_buffer_size", 0, 0, 1000000, &in, err)) ||
        (s = int_key(st, "ejection_buffer_size", 0, 0, 1000000, &ej, err)) ||
        (s = int_key(st, "input_speedup", 1, 1, 1, &in_sp, err)) ||
        (s = int_key(st, "output_speedup", 1, 1, 1, &out_sp, err)) ||
        (s = int_key(st, "flit_size", 0, 1, 4096, &o->flit_size, err)) ||
        (s = int_key(st, "subnets", 1, 1, 2, &o->subnets, err)))
        return s;
    const stmt *at_n = get(st, "n"), *at_k = get(st, "k"), *at_v = get(st, "num_vcs");
    if (n != 1) {
        trapeze_where at = {st->name, at_n ? at_n->line : 0, "n"};
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err,
                                "a fly of %d stages is not modelled: only one router (n = 1)", n);
    }
    if (k < n_nodes) {
        trapeze_where at = {st->name, at_k ? at_k->line : 0, "k"};
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err,
                                "%d ports, but the GPU has %d nodes (SMs + L2 sub-partitions)",
                                k, n_nodes);
    }
    if (vcs != 1) {
        trapeze_where at = {st->name, at_v ? at_v->line : 0, "num_vcs"};
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err,
                                "%d virtual channels are not modelled: only 1", vcs);
    }
    const stmt *alloc = get(st, "sw_allocator");
    const char *a = alloc ? alloc->value : "islip";
    if (strcmp(a, "islip") && strcmp(a, "round_robin")) {
        trapeze_where at = {st->name, alloc->line, "sw_allocator"};
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err,
                                "%s is not modelled: islip or round_robin", a);
    }
    o->islip = strcmp(a, "islip") == 0;
    o->latency = 1 + routing + vc_alloc + sw_alloc + st_final + 1;
    /* GPGPU-Sim: an unset input buffer is 9 flits, an unset ejection
     * buffer vc_buf_size flits (interconnect_interface.cpp) */
    o->in_buffer = (in ? in : 9) + vc_buf;
    o->out_buffer = ej ? ej : vc_buf;
    return TRAPEZE_OK;
}

trapeze_status sim_icnt_file_parse(const char *text, const char *name, int n_nodes,
                                   sim_icnt_file *out, trapeze_error *err)
{
    stmts *st = calloc(1, sizeof *st);
    if (!st)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    st->name = name;
    memset(out, 0, sizeof *out);
    trapeze_status s = split_stmts(text, st, err);
    if (!s)
        s = read_stmts(st, n_nodes, out, err);
    free(st);
    return s;
}

trapeze_status sim_icnt_file_read(const char *path, int n_nodes, sim_icnt_file *out,
                                  trapeze_error *err)
{
    char *text = NULL;
    trapeze_status s = trapeze_read_file(path, &text, err);
    if (!s)
        s = sim_icnt_file_parse(text, path, n_nodes, out, err);
    free(text);
    return s;
}
