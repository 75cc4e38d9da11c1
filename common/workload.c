/*
 * workload.c - workload specs (INI) for iterative stencil loops:
 *
 *   [workload]  name, dimensions, size (e.g. 2000x2000), halo, block (e.g.
 *               20x20, the same edge in every dimension), stencil_arrays,
 *               elem_per_op, element_bytes, iterations, height (optional:
 *               the trapezoid height to run; must satisfy Eq. 5.20)
 *   [profile]   input_elements, insts_per_sm_mc, insts_per_sm_ic,
 *               bank_conflict_rate  (Meng's profiled counts, Table 5.2)
 *
 * A shared input: the model reads it to predict, the simulator to generate
 * stencil kernels. Owns parsing and validation; every error names file, line
 * and key. Must not evaluate or simulate anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/ini.h"
#include "common/number.h"
#include "common/text.h"

/* Halo widths and block edges: counts of elements, far below int's range. */
#define MAX_EDGE 1000000

typedef struct {
    trapeze_workload *w;
    int have_dims, have_size, have_block;
    int size_count, halo_count, block_count, aux_count;
    trapeze_ini_ctx size_at, block_at, height_at, aux_at;
} load_state;

/* "2000x2000", "2000,2000" or "2000": 1 to 3 numbers in [lo, hi], whole
 * numbers when `whole` (halo and block are counts: "0.5x0.5" is refused,
 * not read as 0). Checked by common/number.h before any conversion. */
static trapeze_status parse_extent(const trapeze_ini_ctx *at, const char *section,
                                   const char *key, const char *value, double lo, double hi,
                                   int whole, double *out, int *count, trapeze_error *err)
{
    char label[96];
    snprintf(label, sizeof label, "[%s] %s", section, key);
    trapeze_where w = {at->path, at->line, label};
    return trapeze_num_list(value, "x,* ", lo, hi, whole, &w, out, TRAPEZE_MAX_DIMS, count,
                            err);
}

/* "2" or "2,0": one halo per extra array (a single value: all of them). */
static trapeze_status parse_aux_halo(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                     const char *key, const char *value, trapeze_error *err)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", value);
    int n = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long v;
        if (!trapeze_parse_long(tok, &v) || v < 0 || v > MAX_EDGE || n == TRAPEZE_MAX_AUX_ARRAYS)
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "%s:%d: [%s] %s: expected up to %d halo widths >= 0 like 2,0, "
                                "got '%s'", at->path, at->line, sec, key, TRAPEZE_MAX_AUX_ARRAYS,
                                value);
        st->w->aux_halo[n++] = (int)v;
    }
    if (n == 0)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: empty value", at->path,
                            at->line, sec, key);
    st->aux_count = n;
    st->aux_at = *at;
    return TRAPEZE_OK;
}

static trapeze_status on_workload_key(load_state *st, const trapeze_ini_ctx *at,
                                      const char *sec, const char *key, const char *value,
                                      trapeze_error *err)
{
    trapeze_workload *w = st->w;
    double ext[TRAPEZE_MAX_DIMS];
    long v;
    trapeze_status s;
    if (strcmp(key, "name") == 0) {
        snprintf(w->name, sizeof w->name, "%s", value);
    } else if (strcmp(key, "dimensions") == 0) {
        if ((s = trapeze_ini_int(at, sec, key, value, 1, TRAPEZE_MAX_DIMS, &v, err)))
            return s;
        w->dims = (int)v;
        st->have_dims = 1;
    } else if (strcmp(key, "size") == 0) {
        if ((s = parse_extent(at, sec, key, value, 1, 1e15, 0, w->data_len, &st->size_count,
                              err)))
            return s;
        st->have_size = 1;
        st->size_at = *at;
    } else if (strcmp(key, "halo") == 0) {
        if ((s = parse_extent(at, sec, key, value, 1, MAX_EDGE, 1, ext, &st->halo_count, err)))
            return s;
        for (int i = 0; i < st->halo_count; i++)
            w->halo[i] = (int)ext[i]; /* whole, in [1, MAX_EDGE] */
    } else if (strcmp(key, "block") == 0) {
        if ((s = parse_extent(at, sec, key, value, 1, MAX_EDGE, 1, ext, &st->block_count, err)))
            return s;
        for (int i = 1; i < st->block_count; i++)
            if (ext[i] != ext[0])
                return trapeze_fail(err, TRAPEZE_ERANGE,
                                    "%s:%d: [%s] %s: the model needs the same block edge in "
                                    "every dimension, got '%s'",
                                    at->path, at->line, sec, key, value);
        w->blk_len = (int)ext[0]; /* whole, in [1, MAX_EDGE] */
        st->have_block = 1;
        st->block_at = *at;
    } else if (strcmp(key, "stencil_arrays") == 0) {
        if ((s = trapeze_ini_int(at, sec, key, value, 1, 64, &v, err)))
            return s;
        w->stencil_arrays = (int)v;
    } else if (strcmp(key, "shape") == 0) {
        if (strcmp(value, "box") != 0 && strcmp(value, "star") != 0)
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "%s:%d: [%s] %s: expected box or star, got '%s'", at->path,
                                at->line, sec, key, value);
        w->star = strcmp(value, "star") == 0;
    } else if (strcmp(key, "aux_halo") == 0) {
        return parse_aux_halo(st, at, sec, key, value, err);
    } else if (strcmp(key, "registers") == 0) {
        if ((s = trapeze_ini_int(at, sec, key, value, 16, 255, &v, err)))
            return s;
        w->regs_per_thread = (int)v;
    } else if (strcmp(key, "elem_per_op") == 0) {
        return trapeze_ini_double(at, sec, key, value, 0, 1e6, &w->elem_per_op, err);
    } else if (strcmp(key, "element_bytes") == 0) {
        if ((s = trapeze_ini_int(at, sec, key, value, 1, 64, &v, err)))
            return s;
        w->element_bytes = (int)v;
    } else if (strcmp(key, "iterations") == 0) {
        if ((s = trapeze_ini_int(at, sec, key, value, 1, 1000000000L, &v, err)))
            return s;
        w->iterations = (int)v;
    } else if (strcmp(key, "height") == 0) {
        if ((s = trapeze_ini_int(at, sec, key, value, 1, 1000000, &v, err)))
            return s;
        w->height = (int)v;
        st->height_at = *at;
    } else {
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: unknown key", at->path,
                            at->line, sec, key);
    }
    return TRAPEZE_OK;
}

static trapeze_status on_profile_key(trapeze_workload *w, const trapeze_ini_ctx *at,
                                     const char *sec, const char *key, const char *value,
                                     trapeze_error *err)
{
    if (strcmp(key, "input_elements") == 0)
        return trapeze_ini_double(at, sec, key, value, 1, 1e15, &w->profile_elements, err);
    if (strcmp(key, "insts_per_sm_mc") == 0)
        return trapeze_ini_double(at, sec, key, value, 0, 1e15, &w->insts_per_sm_mc, err);
    if (strcmp(key, "insts_per_sm_ic") == 0)
        return trapeze_ini_double(at, sec, key, value, 0, 1e15, &w->insts_per_sm_ic, err);
    if (strcmp(key, "bank_conflict_rate") == 0)
        return trapeze_ini_double(at, sec, key, value, 0, 1e6, &w->bank_conflict_rate, err);
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: unknown key", at->path, at->line,
                        sec, key);
}

static trapeze_status on_key(void *user, const trapeze_ini_ctx *at, const char *section,
                             const char *key, const char *value, trapeze_error *err)
{
    load_state *st = user;
    if (strcmp(section, "workload") == 0)
        return on_workload_key(st, at, section, key, value, err);
    if (strcmp(section, "profile") == 0)
        return on_profile_key(st->w, at, section, key, value, err);
    return trapeze_fail(err, TRAPEZE_EPARSE,
                        "%s:%d: [%s] %s: unknown section (expected [workload] or [profile])",
                        at->path, at->line, section, key);
}

static void set_defaults(trapeze_workload *w, const char *path)
{
    memset(w, 0, sizeof *w);
    snprintf(w->path, sizeof w->path, "%s", path);
    const char *base = strrchr(path, '/');
    snprintf(w->name, sizeof w->name, "%s", base ? base + 1 : path);
    char *dot = strrchr(w->name, '.');
    if (dot && dot != w->name)
        *dot = '\0';
    for (int i = 0; i < TRAPEZE_MAX_DIMS; i++)
        w->halo[i] = 2; /* a 3-point stencil per dimension */
    w->stencil_arrays = 1;
    w->regs_per_thread = 16; /* what the generated kernels use */
    w->element_bytes = 4;
    w->iterations = 100;
}

/* Cross-key checks, reported at the line of the key that disagrees. */
static trapeze_status validate(load_state *st, const char *path, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    if (!st->have_dims || !st->have_size || !st->have_block)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: [workload] %s is required", path,
                            !st->have_dims ? "dimensions" : !st->have_size ? "size" : "block");
    if (st->size_count != w->dims)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [workload] size: %d sizes given for %d dimensions", path,
                            st->size_at.line, st->size_count, w->dims);
    if (st->block_count != 1 && st->block_count != w->dims)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [workload] block: %d edges given for %d dimensions", path,
                            st->block_at.line, st->block_count, w->dims);
    if (st->halo_count == 1)
        for (int i = 1; i < TRAPEZE_MAX_DIMS; i++)
            w->halo[i] = w->halo[0];
    for (int i = 0; i < w->dims; i++)
        if (w->blk_len - w->halo[i] < 1)
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s:%d: [workload] block: edge %d leaves no output for halo %d "
                                "(Eq. 5.20 fails even at h = 1)",
                                path, st->block_at.line, w->blk_len, w->halo[i]);
    for (int i = 0; i < w->dims && w->height; i++)
        if (w->blk_len - w->halo[i] * w->height < 1)
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s:%d: [workload] height: %d violates Eq. 5.20: block %d - "
                                "halo %d x %d must be > 0",
                                path, st->height_at.line, w->height, w->blk_len, w->halo[i],
                                w->height);
    if (st->aux_count > 1 && st->aux_count != w->stencil_arrays - 1)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [workload] aux_halo: %d widths given for %d extra arrays "
                            "(stencil_arrays - 1)", path, st->aux_at.line, st->aux_count,
                            w->stencil_arrays - 1);
    if (st->aux_count && w->stencil_arrays < 2)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [workload] aux_halo: the stencil has no extra array "
                            "(stencil_arrays = 1)", path, st->aux_at.line);
    for (int a = 1; a < w->stencil_arrays - 1 && st->aux_count == 1 && a < TRAPEZE_MAX_AUX_ARRAYS; a++)
        w->aux_halo[a] = w->aux_halo[0];
    for (int a = 0; a < TRAPEZE_MAX_AUX_ARRAYS; a++)
        for (int i = 0; i < w->dims; i++)
            if (w->aux_halo[a] > w->halo[i])
                return trapeze_fail(err, TRAPEZE_ERANGE,
                                    "%s:%d: [workload] aux_halo: %d is wider than the halo %d "
                                    "(the staged tile would not hold it)",
                                    path, st->aux_at.line, w->aux_halo[a], w->halo[i]);
    if (w->profile_elements <= 0)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: [profile] input_elements is required",
                            path);
    return TRAPEZE_OK;
}

trapeze_status trapeze_workload_load(const char *path, trapeze_workload *w,
                                     trapeze_error *err)
{
    set_defaults(w, path);
    load_state st = {.w = w};
    trapeze_status s = trapeze_ini_parse(path, on_key, &st, err);
    return s ? s : validate(&st, path, err);
}
