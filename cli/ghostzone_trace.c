/*
 * ghostzone_trace.c - `ghostzone --trace DIR` and `--ncu FILE`: a spec read
 * with what a run of the stencil's own kernel shows (one thread per point,
 * one sweep per launch: the kernel as its author wrote it, h = 1), from its
 * Accel-Sim trace or its Nsight Compute export: the grid and block, the
 * arithmetic per point and the values each point reads, and the lines on
 * stderr that say which of the spec's values came from it. Reads both
 * through the public API; the spec's meaning is common/workload.c's. Must
 * not simulate: the trace's opening pass counts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

static trapeze_status fail(trapeze_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return err->code = TRAPEZE_EPARSE;
}

/* The trace's launches, summed: they must all be the same sweep. */
typedef struct {
    int kernels, mismatch;
    int grid[3], block[3];
    double warps, fp, sfu, int_ops, loads, shared;
} trace_sum;

static void add_kernel(void *ctx, const trapeze_trace_kernel_info *k)
{
    trace_sum *t = ctx;
    if (t->kernels == 0) {
        memcpy(t->grid, k->grid, sizeof t->grid);
        memcpy(t->block, k->block, sizeof t->block);
    } else if (memcmp(t->grid, k->grid, sizeof t->grid) ||
               memcmp(t->block, k->block, sizeof t->block)) {
        t->mismatch = t->kernels + 1;
    }
    int threads = k->block[0] * k->block[1] * k->block[2];
    t->warps += (double)k->grid[0] * k->grid[1] * k->grid[2] * ((threads + 31) / 32);
    t->fp += (double)k->fp_ops;
    t->sfu += (double)k->sfu_ops;
    t->int_ops += (double)k->int_ops;
    t->loads += (double)k->global_loads;
    t->shared += (double)k->shared_loads;
    t->kernels++;
}

/* The stencil's dimensions: those the launch spans (threads > 1). */
static int launch_dims(const trace_sum *t)
{
    int dims = 0;
    for (int d = 0; d < 3; d++)
        if ((long)t->grid[d] * t->block[d] > 1)
            dims = d + 1;
    return dims ? dims : 1;
}

static trapeze_status read_facts(const char *dir, trace_sum *t, trapeze_workload_facts *f,
                                 trapeze_error *err)
{
    memset(t, 0, sizeof *t);
    trapeze_status s = trapeze_trace_check(dir, add_kernel, t, err);
    if (s)
        return s;
    if (t->mismatch)
        return fail(err, "%s: launch %d has another grid or block than "
                            "launch 1: --trace takes sweeps of one stencil", dir, t->mismatch);
    if (t->shared > 0)
        return fail(err, "%s: the kernel reads shared memory (%.0f warp "
                            "instructions): --trace takes the stencil as its author wrote it, one "
                            "thread per point reading global memory, not a tiled kernel", dir,
                            t->shared);
    *f = (trapeze_workload_facts){.source = "trace", .dims = launch_dims(t)};
    for (int d = 0; d < f->dims; d++) {
        f->size[d] = (double)t->grid[d] * t->block[d];
        f->block[d] = t->block[d];
    }
    /* per thread: every lane of a warp runs the point's instructions once */
    f->loads_per_point = t->loads / t->warps;
    f->flops_per_point = t->fp / t->warps;
    f->sfu_per_point = t->sfu / t->warps;
    return TRAPEZE_OK;
}

/* What was taken from the run, and what the spec overrode, on stderr.
 * what: "trace" or "Nsight Compute export"; ints: integer instructions per
 * point (< 0: not known). */
static void note(const trapeze_workload *w, const char *what, const char *path, int launches,
                 const trapeze_workload_facts *f, double ints)
{
    trapeze_workload_counts c;
    trapeze_workload_derive_counts(w, &c);
    char grid[64] = "", block[64] = "";
    for (int d = 0; d < f->dims; d++) {
        snprintf(grid + strlen(grid), sizeof grid - strlen(grid), "%s%.0f", d ? "x" : "",
                 f->size[d] / f->block[d]);
        snprintf(block + strlen(block), sizeof block - strlen(block), "%s%d", d ? "x" : "",
                 f->block[d]);
    }
    fprintf(stderr, "%s: from the %s %s: %d launch%s of %s blocks of %s threads; per point and "
            "sweep %.3g global loads, %.3g FP and %.3g special-function instructions", w->name,
            what, path, launches, launches == 1 ? "" : "es", grid, block, f->loads_per_point,
            f->flops_per_point, f->sfu_per_point < 0 ? 0 : f->sfu_per_point);
    if (ints >= 0)
        fprintf(stderr, " (%.3g integer, not counted: index arithmetic)", ints);
    fputc('\n', stderr);
    fprintf(stderr, "%s: instruction counts: %s arithmetic (%d FP, %d special-function per "
            "point), shape %s reading %d values per point%s\n", w->name,
            w->counts_source == TRAPEZE_COUNTS_RUN ? "the run's" : "the spec's",
            w->flops_per_point, w->sfu_per_point,
            w->n_offsets ? "offsets" : w->star ? "star" : "box", c.shared_loads + c.global_loads,
            (long)(f->loads_per_point + 0.5) == c.shared_loads + c.global_loads
                ? " as the run does"
                : ": NOT the run's count; check shape and radius");
    for (int d = 0; d < w->dims && d < f->dims; d++)
        if (w->data_len[d] != f->size[d]) {
            fprintf(stderr, "%s: size: the spec's, not the run's (%.0f threads in dimension "
                    "%d)\n", w->name, f->size[d], d + 1);
            break;
        }
}

trapeze_status cli_gz_trace_load(const char *spec, const char *dir, trapeze_workload *w,
                                 trapeze_error *err)
{
    trace_sum t;
    trapeze_workload_facts f;
    trapeze_status s = read_facts(dir, &t, &f, err);
    if (!s)
        s = trapeze_workload_load_facts(spec, &f, w, err);
    if (!s)
        note(w, "trace", dir, t.kernels, &f, t.int_ops / t.warps);
    return s;
}

trapeze_status cli_gz_ncu_load(const char *spec, const char *export_path, const char *kernel,
                               trapeze_workload *w, trapeze_error *err)
{
    trapeze_workload_facts f;
    int launches;
    trapeze_status s = trapeze_ncu_stencil_facts(export_path, kernel, &f, &launches, err);
    if (!s)
        s = trapeze_workload_load_facts(spec, &f, w, err);
    if (!s)
        note(w, "Nsight Compute export", export_path, launches, &f, -1);
    return s;
}
