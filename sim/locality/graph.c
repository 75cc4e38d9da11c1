/*
 * graph.c - the public face of the locality graph (trapeze.h): building it
 * for a built-in kernel or a trace launch, SpScore, CSV out and back in.
 * Owns the file formats (CONTRACTS.md: edges `tb_i,tb_j,shared_elements,
 * shared_lines`, footprints `tb,bx,by,bz,elements,lines`); the analysis is
 * build.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv_in.h"
#include "common/error.h"
#include "sim/core/gpu_sim.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"
#include "sim/trace/trace.h"

#define MAX_LAUNCHES 4096

void trapeze_locality_graph_free(trapeze_locality_graph *g)
{
    if (!g)
        return;
    free(g->elements);
    free(g->lines);
    free(g->sectors);
    free(g->warp_insts);
    free(g->edges);
    g->elements = g->lines = g->sectors = g->warp_insts = NULL;
    g->edges = NULL;
    g->n_edges = 0;
}

double trapeze_locality_spscore(const trapeze_locality_graph *g)
{
    if (g->n_tbs < 1)
        return 1.0;
    long nz = 0;
    for (long e = 0; e < g->n_edges; e++)
        nz += g->edges[e].shared_elements > 0;
    double n = (double)g->n_tbs;
    return 1.0 - 2.0 * (double)nz / (n * n);
}

trapeze_status trapeze_locality_builtin(const trapeze_config *cfg, const char *kernel,
                                        char *const *params, int n_params, int launch,
                                        trapeze_locality_graph *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    const sim_builtin *b = sim_builtin_find(kernel);
    if (!b)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "no built-in kernel '%s' (trapeze sim --list names them)",
                            kernel);
    sim_core_config core;
    long p[SIM_BUILTIN_MAX_PARAMS];
    trapeze_status s = sim_core_config_read(cfg, &core, err);
    if (s || (s = sim_builtin_params(b, n_params, (char **)params, p, err)))
        return s;
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    if (!ks)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "locality: out of memory");
    int nk = 0;
    s = b->build(&core, p, ks, MAX_LAUNCHES, &nk, err);
    if (!s && (launch < 0 || launch >= nk))
        s = trapeze_fail(err, TRAPEZE_ERANGE, "%s has %d launch%s, no launch %d",
                         kernel, nk, nk == 1 ? "" : "es", launch);
    if (!s)
        s = sim_locality_build(ks[launch], SIM_LINE_BYTES, out, err);
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    free(ks);
    return s;
}

trapeze_status trapeze_locality_trace(const char *kernelslist, int launch,
                                      trapeze_locality_graph *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sim_trace_list l;
    trapeze_status s = sim_trace_list_read(kernelslist, &l, err);
    if (s)
        return s;
    if (launch < 0 || launch >= l.n) {
        s = trapeze_fail(err, TRAPEZE_ERANGE, "%s: %d kernel%s, no launch %d", kernelslist, l.n,
                         l.n == 1 ? "" : "s", launch);
    } else {
        sim_trace_kernel *t;
        if (!(s = sim_trace_kernel_open(l.kernels[launch], &t, err))) {
            s = sim_locality_build(sim_trace_kernel_sim(t), SIM_LINE_BYTES, out, err);
            if (!s && (s = sim_trace_kernel_status(t, err)))
                trapeze_locality_graph_free(out);
            sim_trace_kernel_close(t);
        }
    }
    sim_trace_list_free(&l);
    return s;
}

/* ---- CSV ---- */

static const char *const edge_cols[] = {"tb_i", "tb_j", "shared_elements", "shared_lines"};
static const char *const fp_cols[] = {"tb", "bx", "by", "bz", "elements", "lines"};

static trapeze_status write_row(trapeze_csv_out *csv, const double *v, int n,
                                trapeze_error *err)
{
    for (int i = 0; i < n; i++)
        trapeze_csv_number(csv, v[i]);
    return trapeze_csv_end_row(csv, err);
}

trapeze_status trapeze_locality_write_csv(const trapeze_locality_graph *g, const char *edges_path,
                                          const char *footprint_path, trapeze_error *err)
{
    trapeze_csv_out *fp = NULL, *ed = NULL;
    trapeze_status s = TRAPEZE_OK;
    if (footprint_path && (s = trapeze_csv_create(footprint_path, fp_cols, 6, &fp, err)))
        return s;
    if (edges_path && (s = trapeze_csv_create(edges_path, edge_cols, 4, &ed, err))) {
        trapeze_csv_abort(fp);
        return s;
    }
    long gx = g->grid[0], gy = g->grid[1];
    for (long tb = 0; fp && !s && tb < g->n_tbs; tb++) {
        double v[6] = {(double)tb, (double)(tb % gx), (double)(tb / gx % gy),
                       (double)(tb / (gx * gy)), (double)g->elements[tb], (double)g->lines[tb]};
        s = write_row(fp, v, 6, err);
    }
    for (long e = 0; ed && !s && e < g->n_edges; e++) {
        const trapeze_locality_edge *x = &g->edges[e];
        double v[4] = {(double)x->tb_i, (double)x->tb_j, (double)x->shared_elements,
                       (double)x->shared_lines};
        s = write_row(ed, v, 4, err);
    }
    if (s) {   /* neither file appears */
        trapeze_csv_abort(fp);
        trapeze_csv_abort(ed);
        return s;
    }
    s = fp ? trapeze_csv_commit(fp, err) : TRAPEZE_OK;
    if (s) {
        trapeze_csv_abort(ed);
        return s;
    }
    return ed ? trapeze_csv_commit(ed, err) : TRAPEZE_OK;
}

typedef struct {
    const char *path;
    trapeze_locality_graph *g;
    long cap;
    int max[3];
    int *coord;   /* footprints: bx, by, bz per row, checked once the grid is known */
} read_ctx;

static trapeze_status fp_row(void *vctx, const long long *v, int line, trapeze_error *err)
{
    read_ctx *c = vctx;
    trapeze_locality_graph *g = c->g;
    if (v[0] != g->n_tbs)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field tb: %lld, expected %ld (rows in "
                            "TB order from 0)", c->path, line, v[0], g->n_tbs);
    for (int f = 1; f < 6; f++)
        if (v[f] < 0 || (f < 4 && v[f] > 1 << 30))
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field %s: %lld is out of range",
                                c->path, line, fp_cols[f], v[f]);
    if (g->n_tbs == c->cap) {
        long cap = c->cap ? 2 * c->cap : 1024;
        long long *el = realloc(g->elements, (size_t)cap * sizeof *el);
        if (el)
            g->elements = el;
        long long *ln = realloc(g->lines, (size_t)cap * sizeof *ln);
        if (ln)
            g->lines = ln;
        int *co = realloc(c->coord, (size_t)cap * 3 * sizeof *co);
        if (co)
            c->coord = co;
        if (!el || !ln || !co)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", c->path);
        c->cap = cap;
    }
    for (int d = 0; d < 3; d++) {
        if (v[1 + d] + 1 > c->max[d])
            c->max[d] = (int)v[1 + d] + 1;
        c->coord[3 * g->n_tbs + d] = (int)v[1 + d];
    }
    g->elements[g->n_tbs] = v[4];
    g->lines[g->n_tbs] = v[5];
    g->n_tbs++;
    return TRAPEZE_OK;
}

static trapeze_status edge_row(void *vctx, const long long *v, int line, trapeze_error *err)
{
    read_ctx *c = vctx;
    trapeze_locality_graph *g = c->g;
    if (v[0] < 0 || v[0] >= v[1] || v[1] >= g->n_tbs)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field tb_j: TBs %lld and %lld: expected "
                            "0 <= tb_i < tb_j < %ld", c->path, line, v[0], v[1], g->n_tbs);
    if (v[2] < 0 || v[3] < 1 || v[2] > g->elements[v[0]] || v[2] > g->elements[v[1]])
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field shared_elements: %lld (lines "
                            "%lld) does not fit the footprints", c->path, line, v[2], v[3]);
    if (g->n_edges) {
        const trapeze_locality_edge *p = &g->edges[g->n_edges - 1];
        if (v[0] < p->tb_i || (v[0] == p->tb_i && v[1] <= p->tb_j))
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field tb_i: edges must be sorted "
                                "by (tb_i, tb_j) without repeats", c->path, line);
    }
    if (g->n_edges == c->cap) {
        long cap = c->cap ? 2 * c->cap : 1024;
        trapeze_locality_edge *e = realloc(g->edges, (size_t)cap * sizeof *e);
        if (!e)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", c->path);
        g->edges = e;
        c->cap = cap;
    }
    g->edges[g->n_edges++] = (trapeze_locality_edge){(long)v[0], (long)v[1], v[2], v[3], 0};
    return TRAPEZE_OK;
}

trapeze_status trapeze_locality_read_csv(const char *edges_path, const char *footprint_path,
                                         trapeze_locality_graph *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    read_ctx c = {.path = footprint_path, .g = out};
    trapeze_status s = trapeze_csv_read_integers(footprint_path, fp_cols, 6, fp_row, &c, err);
    if (!s && out->n_tbs == 0)
        s = trapeze_fail(err, TRAPEZE_EPARSE, "%s: no TBs", footprint_path);
    if (!s && (long)c.max[0] * c.max[1] * c.max[2] != out->n_tbs)
        s = trapeze_fail(err, TRAPEZE_EPARSE, "%s: %ld TBs do not fill a %d x %d x %d grid",
                         footprint_path, out->n_tbs, c.max[0], c.max[1], c.max[2]);
    for (long tb = 0; !s && tb < out->n_tbs; tb++) {
        const int *x = &c.coord[3 * tb];
        if (x[0] + (long)c.max[0] * (x[1] + (long)c.max[1] * x[2]) != tb)
            s = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%ld: field bx: TB %ld at (%d,%d,%d) is "
                             "not bx + by*gx + bz*gx*gy in a %d x %d x %d grid", footprint_path,
                             tb + 2, tb, x[0], x[1], x[2], c.max[0], c.max[1], c.max[2]);
    }
    free(c.coord);
    if (!s) {
        memcpy(out->grid, c.max, sizeof c.max);
        out->line_bytes = SIM_LINE_BYTES;
        snprintf(out->kernel, sizeof out->kernel, "%s", "csv");
        read_ctx e = {.path = edges_path, .g = out};
        s = trapeze_csv_read_integers(edges_path, edge_cols, 4, edge_row, &e, err);
    }
    if (s)
        trapeze_locality_graph_free(out);
    return s;
}
