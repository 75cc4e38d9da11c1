/*
 * workload.c - workload specs (INI) for iterative stencil loops, in their
 * author's terms (docs/formats.md lists every key of the table below):
 *
 *   [workload]  the grid and block (dimensions, size, block), the stencil
 *               (shape: box, star or a list of offsets; radius or halo; the
 *               arrays it reads, stencil_arrays and aux_halo; elem_per_op),
 *               its element type and arithmetic per point (flops_per_point,
 *               sfu_per_point), and the run (iterations, height, registers)
 *   [profile]   input_elements, insts_per_sm_mc, insts_per_sm_ic,
 *               bank_conflict_rate: Meng's profiled counts (Table 5.2), an
 *               override of the counts derived from the stencil itself
 *
 * A shared input: the model reads it to predict, the simulator to generate
 * stencil kernels. Owns parsing, validation and the instruction counts the
 * spec implies; every error names file, line and key. Must not evaluate or
 * simulate anything.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/ini.h"
#include "common/number.h"
#include "common/text.h"

/* Halo widths and block edges: counts of elements, far below int's range. */
#define MAX_EDGE 1000000
/* Meng's counts are per SM of the GTX 280's 30, per warp of 32: a spec's
 * derived counts are written in that convention (InstsPerSM for N = 30 x 32
 * elements is the count per warp), the one the model and generator read. */
#define MENG_SMS 30
#define WARP 32
/* Warp instructions per point and loop beyond any stencil's: a radius-10
 * 3-D box reads 9,261 points. Above it a spec is a typo (a [profile] with
 * input_elements = 1), and a simulation would run for hours. */
#define MAX_POINT_INSTS 10000
/* An explicit offset's coordinates (they are stored as shorts). */
#define MAX_OFFSET 1000

typedef struct {
    trapeze_workload *w;
    int have_dims, have_size, have_block, have_halo, have_radius, have_bytes, have_type;
    int have_profile, have_flops, have_sfu;
    const trapeze_workload_facts *facts; /* a run of the stencil's own kernel, or NULL */
    int size_count, halo_count, block_count, aux_count, offset_dims;
    trapeze_ini_ctx size_at, block_at, height_at, aux_at, halo_at, shape_at, type_at, profile_at;
    trapeze_ini_ctx flops_at;
} load_state;

typedef trapeze_status (*key_parser)(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                     const char *key, const char *value, trapeze_error *err);

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

static trapeze_status int_key(const trapeze_ini_ctx *at, const char *sec, const char *key,
                              const char *value, long lo, long hi, int *out, trapeze_error *err)
{
    long v;
    trapeze_status s = trapeze_ini_int(at, sec, key, value, lo, hi, &v, err);
    if (!s)
        *out = (int)v; /* in [lo, hi], within int's range */
    return s;
}

static trapeze_status k_name(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                             const char *key, const char *value, trapeze_error *err)
{
    (void)at, (void)sec, (void)key, (void)err;
    snprintf(st->w->name, sizeof st->w->name, "%s", value);
    return TRAPEZE_OK;
}

static trapeze_status k_dimensions(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                   const char *key, const char *value, trapeze_error *err)
{
    st->have_dims = 1;
    return int_key(at, sec, key, value, 1, TRAPEZE_MAX_DIMS, &st->w->dims, err);
}

static trapeze_status k_size(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                             const char *key, const char *value, trapeze_error *err)
{
    st->have_size = 1;
    st->size_at = *at;
    return parse_extent(at, sec, key, value, 1, 1e15, 0, st->w->data_len, &st->size_count, err);
}

/* halo (both sides together) or radius (one side): one value per dimension
 * or one for all; the other key must not be given too. */
static trapeze_status k_halo(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                             const char *key, const char *value, trapeze_error *err)
{
    int radius = strcmp(key, "radius") == 0;
    if (radius ? st->have_halo : st->have_radius)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: give halo or radius, not both "
                            "(halo = 2 x radius)", at->path, at->line, sec, key);
    double ext[TRAPEZE_MAX_DIMS];
    trapeze_status s = parse_extent(at, sec, key, value, 1, radius ? MAX_EDGE / 2 : MAX_EDGE, 1,
                                    ext, &st->halo_count, err);
    for (int i = 0; !s && i < st->halo_count; i++)
        st->w->halo[i] = (int)ext[i] * (radius ? 2 : 1); /* whole, in range */
    *(radius ? &st->have_radius : &st->have_halo) = 1;
    st->halo_at = *at;
    return s;
}

static trapeze_status k_block(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                              const char *key, const char *value, trapeze_error *err)
{
    double ext[TRAPEZE_MAX_DIMS];
    trapeze_status s = parse_extent(at, sec, key, value, 1, MAX_EDGE, 1, ext, &st->block_count,
                                    err);
    if (s)
        return s;
    for (int i = 1; i < st->block_count; i++)
        if (ext[i] != ext[0])
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s:%d: [%s] %s: the model needs the same block edge in "
                                "every dimension, got '%s'",
                                at->path, at->line, sec, key, value);
    st->w->blk_len = (int)ext[0]; /* whole, in [1, MAX_EDGE] */
    st->have_block = 1;
    st->block_at = *at;
    return TRAPEZE_OK;
}

/* "-1,0 1,0 0,-1 0,1 0,0": points separated by spaces or ';', coordinates
 * by ',', parentheses allowed. A continuation line (indented, right after
 * the key's line) adds points to the list. */
static trapeze_status parse_offsets(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                    const char *key, const char *value, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", value);
    for (char *c = buf; *c; c++)
        if (*c == '(' || *c == ')')
            *c = ' ';
    for (char *save, *pt = strtok_r(buf, " \t;", &save); pt; pt = strtok_r(NULL, " \t;", &save)) {
        double v[TRAPEZE_MAX_DIMS];
        int n;
        char label[96];
        snprintf(label, sizeof label, "[%s] %s: offset '%.20s'", sec, key, pt);
        trapeze_where where = {at->path, at->line, label};
        trapeze_status s = trapeze_num_list(pt, ",", -MAX_OFFSET, MAX_OFFSET, 1, &where, v,
                                            TRAPEZE_MAX_DIMS, &n, err);
        if (s)
            return s;
        if (st->offset_dims && n != st->offset_dims)
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: offset '%s' has %d "
                                "coordinates, the first had %d", at->path, at->line, sec, key,
                                pt, n, st->offset_dims);
        if (w->n_offsets == TRAPEZE_MAX_OFFSETS)
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [%s] %s: more than %d offsets",
                                at->path, at->line, sec, key, TRAPEZE_MAX_OFFSETS);
        st->offset_dims = n;
        for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
            w->offsets[w->n_offsets][d] = (short)(d < n ? v[d] : 0); /* whole, in range */
        w->n_offsets++;
    }
    return TRAPEZE_OK;
}

static trapeze_status k_shape(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                              const char *key, const char *value, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    int continued = st->shape_at.line == at->line - 1 && w->n_offsets > 0;
    st->shape_at = *at;
    w->shape_given = 1;
    if (!continued) {
        w->n_offsets = 0;
        st->offset_dims = 0;
    }
    if (!continued && (strcmp(value, "box") == 0 || strcmp(value, "star") == 0)) {
        w->star = strcmp(value, "star") == 0;
        return TRAPEZE_OK;
    }
    w->star = 0;
    if (!strpbrk(value, "0123456789"))
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [%s] %s: expected box, star or a list of offsets like "
                            "'-1,0 1,0 0,-1 0,1 0,0', got '%s'", at->path, at->line, sec, key,
                            value);
    return parse_offsets(st, at, sec, key, value, err);
}

static trapeze_status k_arrays(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                               const char *key, const char *value, trapeze_error *err)
{
    return int_key(at, sec, key, value, 1, 1 + TRAPEZE_MAX_AUX_ARRAYS, &st->w->stencil_arrays,
                   err);
}

/* "2" or "2,0": one halo per extra array (a single value: all of them). */
static trapeze_status k_aux_halo(load_state *st, const trapeze_ini_ctx *at, const char *sec,
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

static trapeze_status k_registers(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                  const char *key, const char *value, trapeze_error *err)
{
    return int_key(at, sec, key, value, 16, 255, &st->w->regs_per_thread, err);
}

static trapeze_status k_elem_per_op(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                    const char *key, const char *value, trapeze_error *err)
{
    return trapeze_ini_double(at, sec, key, value, 0, 1e6, &st->w->elem_per_op, err);
}

static trapeze_status k_element_bytes(load_state *st, const trapeze_ini_ctx *at,
                                      const char *sec, const char *key, const char *value,
                                      trapeze_error *err)
{
    st->have_bytes = 1;
    return int_key(at, sec, key, value, 1, 64, &st->w->element_bytes, err);
}

static const char *const element_types[] = {"float", "double", "int"};
static const int element_type_bytes[] = {4, 8, 4};

static trapeze_status k_element_type(load_state *st, const trapeze_ini_ctx *at,
                                     const char *sec, const char *key, const char *value,
                                     trapeze_error *err)
{
    for (int t = 0; t < 3; t++)
        if (strcmp(value, element_types[t]) == 0) {
            st->w->element_type = t;
            st->have_type = 1;
            st->type_at = *at;
            return TRAPEZE_OK;
        }
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: expected float, double or int, "
                        "got '%s'", at->path, at->line, sec, key, value);
}

static trapeze_status k_flops(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                              const char *key, const char *value, trapeze_error *err)
{
    st->have_flops = 1;
    st->flops_at = *at;
    return int_key(at, sec, key, value, 0, MAX_POINT_INSTS, &st->w->flops_per_point, err);
}

static trapeze_status k_sfu(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                            const char *key, const char *value, trapeze_error *err)
{
    st->have_sfu = 1;
    return int_key(at, sec, key, value, 0, MAX_POINT_INSTS, &st->w->sfu_per_point, err);
}

static trapeze_status k_iterations(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                   const char *key, const char *value, trapeze_error *err)
{
    return int_key(at, sec, key, value, 1, 1000000000L, &st->w->iterations, err);
}

static trapeze_status k_height(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                               const char *key, const char *value, trapeze_error *err)
{
    st->height_at = *at;
    return int_key(at, sec, key, value, 1, 1000000, &st->w->height, err);
}

/* [profile]: Meng's counts, all four read through one parser. */
static trapeze_status k_profile(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                const char *key, const char *value, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    st->have_profile = 1;
    if (strcmp(key, "input_elements") == 0) {
        st->profile_at = *at;
        return trapeze_ini_double(at, sec, key, value, 1, 1e15, &w->profile_elements, err);
    }
    double *slot = strcmp(key, "insts_per_sm_mc") == 0   ? &w->insts_per_sm_mc
                   : strcmp(key, "insts_per_sm_ic") == 0 ? &w->insts_per_sm_ic
                                                         : &w->bank_conflict_rate;
    return trapeze_ini_double(at, sec, key, value, 0, slot == &w->bank_conflict_rate ? 1e6 : 1e15,
                              slot, err);
}

/* Every key a spec may hold: the parser dispatches through this table and
 * `trapeze ghostzone --list-keys` prints it, so docs/formats.md is checked
 * against what is read (tests/cli_workload_keys.sh). */
static const struct {
    const char *section, *key;
    key_parser parse;
} keys[] = {
    {"workload", "name", k_name},
    {"workload", "dimensions", k_dimensions},
    {"workload", "size", k_size},
    {"workload", "block", k_block},
    {"workload", "shape", k_shape},
    {"workload", "radius", k_halo},
    {"workload", "halo", k_halo},
    {"workload", "stencil_arrays", k_arrays},
    {"workload", "aux_halo", k_aux_halo},
    {"workload", "elem_per_op", k_elem_per_op},
    {"workload", "element_type", k_element_type},
    {"workload", "element_bytes", k_element_bytes},
    {"workload", "flops_per_point", k_flops},
    {"workload", "sfu_per_point", k_sfu},
    {"workload", "registers", k_registers},
    {"workload", "iterations", k_iterations},
    {"workload", "height", k_height},
    {"profile", "input_elements", k_profile},
    {"profile", "insts_per_sm_mc", k_profile},
    {"profile", "insts_per_sm_ic", k_profile},
    {"profile", "bank_conflict_rate", k_profile},
};
#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

const char *trapeze_workload_key(int i, const char **section)
{
    if (i < 0 || i >= N_KEYS)
        return NULL;
    if (section)
        *section = keys[i].section;
    return keys[i].key;
}

static trapeze_status on_key(void *user, const trapeze_ini_ctx *at, const char *section,
                             const char *key, const char *value, trapeze_error *err)
{
    int known_section = 0;
    for (int i = 0; i < N_KEYS; i++) {
        if (strcmp(section, keys[i].section) != 0)
            continue;
        known_section = 1;
        if (strcmp(key, keys[i].key) == 0)
            return keys[i].parse(user, at, section, key, value, err);
    }
    if (known_section)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: unknown key (the keys: "
                            "trapeze ghostzone --list-keys)", at->path, at->line, section, key);
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
    w->element_type = TRAPEZE_ELEM_FLOAT;
    w->iterations = 100;
}

/* ---- the stencil's shape and the instruction counts it implies ---- */

void trapeze_workload_reach(const trapeze_workload *w, int *left, int *right)
{
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++) {
        left[d] = w->halo[d] / 2;
        right[d] = w->halo[d] - left[d];
    }
    if (w->n_offsets == 0)
        return;
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++) {
        left[d] = right[d] = 0;
        for (int i = 0; i < w->n_offsets; i++) {
            left[d] = -w->offsets[i][d] > left[d] ? -w->offsets[i][d] : left[d];
            right[d] = w->offsets[i][d] > right[d] ? w->offsets[i][d] : right[d];
        }
    }
}

static int in_shape(const trapeze_workload *w, const int *off, const int *left,
                    const int *right)
{
    int off_axis = 0;
    for (int d = 0; d < w->dims; d++) {
        if (off[d] < -left[d] || off[d] > right[d])
            return 0;
        off_axis += off[d] != 0;
    }
    return !w->star || off_axis <= 1;
}

int trapeze_workload_points(const trapeze_workload *w, const int *left, const int *right,
                            void (*fn)(void *ctx, const int *offset), void *ctx)
{
    int n = 0;
    if (w->n_offsets > 0) {
        for (int i = 0; i < w->n_offsets; i++) {
            int off[TRAPEZE_MAX_DIMS];
            for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
                off[d] = w->offsets[i][d];
            if (in_shape(w, off, left, right) && ++n && fn)
                fn(ctx, off);
        }
        return n;
    }
    int off[TRAPEZE_MAX_DIMS] = {0};
    for (int d = 0; d < w->dims; d++)
        off[d] = -left[d];
    for (;;) { /* odometer over the box, dimension 0 fastest */
        if (in_shape(w, off, left, right) && ++n && fn)
            fn(ctx, off);
        int d = 0;
        while (d < w->dims && ++off[d] > right[d])
            off[d] = -left[d], d++;
        if (d == w->dims)
            return n;
    }
}

/* Points of the shape when each dimension's count would exceed the limit:
 * the box's volume, computed without walking it (a halo of 1000 in 3-D). */
static double shape_volume(const trapeze_workload *w, const int *left, const int *right)
{
    double box = 1, axes = 1;
    for (int d = 0; d < w->dims; d++) {
        box *= left[d] + right[d] + 1.0;
        axes += left[d] + right[d];
    }
    return w->n_offsets ? w->n_offsets : w->star ? axes : box;
}

void trapeze_workload_derive_counts(const trapeze_workload *w, trapeze_workload_counts *c)
{
    int left[TRAPEZE_MAX_DIMS], right[TRAPEZE_MAX_DIMS];
    memset(c, 0, sizeof *c);
    trapeze_workload_reach(w, left, right);
    c->points = trapeze_workload_points(w, left, right, NULL, NULL);
    c->shared_loads = c->points;
    for (int a = 0; a < w->stencil_arrays - 1 && a < TRAPEZE_MAX_AUX_ARRAYS; a++) {
        for (int d = 0; d < TRAPEZE_MAX_DIMS; d++) {
            left[d] = w->aux_halo[a] / 2;
            right[d] = w->aux_halo[a] - left[d];
        }
        c->shared_loads += trapeze_workload_points(w, left, right, NULL, NULL);
    }
    c->global_loads = (int)w->elem_per_op;
    /* by default a weighted sum: one multiply-add per value read */
    c->arith = w->flops_per_point >= 0 ? w->flops_per_point : c->shared_loads + c->global_loads;
    c->sfu = w->sfu_per_point;
    c->per_point = c->shared_loads + c->global_loads + c->arith + c->sfu + 1;
    /* per dimension: the global index (a multiply-add), its clamp to the
     * grid (min, max) and the row-major address (a multiply-add); then the
     * shared and global bases */
    c->setup = 4 * w->dims + 2;
    c->outside_loop = c->setup + 2 * w->stencil_arrays + 1;
}

/* ---- cross-key checks, reported at the line of the key that disagrees ---- */

/* An explicit list of offsets: one coordinate per dimension, each within a
 * short; the halo follows from it (and must agree with one given). */
static trapeze_status check_offsets(load_state *st, const char *path, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    if (w->n_offsets == 0)
        return TRAPEZE_OK;
    if (st->offset_dims != w->dims)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [workload] shape: offsets of %d "
                            "coordinates for %d dimensions", path, st->shape_at.line,
                            st->offset_dims, w->dims);
    int left[TRAPEZE_MAX_DIMS], right[TRAPEZE_MAX_DIMS];
    trapeze_workload_reach(w, left, right);
    for (int d = 0; d < w->dims; d++) {
        int halo = left[d] + right[d];
        if (halo == 0)
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [workload] shape: the offsets "
                                "span nothing in dimension %d (the model needs a neighbour "
                                "in every dimension: halo >= 1)", path, st->shape_at.line,
                                d + 1);
        if ((st->have_halo || st->have_radius) && w->halo[d] != halo)
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [workload] %s: %d in dimension "
                                "%d, but the offsets of line %d span %d (leave it out: the "
                                "offsets give it)", path, st->halo_at.line,
                                st->have_halo ? "halo" : "radius",
                                st->have_halo ? w->halo[d] : w->halo[d] / 2, d + 1,
                                st->shape_at.line, halo);
        w->halo[d] = halo;
    }
    st->halo_count = w->dims;
    return TRAPEZE_OK;
}

static trapeze_status check_element(load_state *st, const char *path, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    int bytes = element_type_bytes[w->element_type];
    if (st->have_type && st->have_bytes && w->element_bytes != bytes)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [workload] element_type: %s is %d "
                            "bytes, but element_bytes = %d", path, st->type_at.line,
                            element_types[w->element_type], bytes, w->element_bytes);
    if (st->have_type)
        w->element_bytes = bytes;
    if (!st->have_flops)
        w->flops_per_point = -1; /* derived: one per value read */
    return TRAPEZE_OK;
}

/* The counts the model and the generator read: the spec's [profile]
 * (Meng's per-SM counts, checked for what they imply per point), else the
 * spec's own, written in Meng's convention for N = 30 x 32 elements. */
static trapeze_status set_counts(load_state *st, const char *path, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    trapeze_workload_counts c;
    int left[TRAPEZE_MAX_DIMS], right[TRAPEZE_MAX_DIMS];
    trapeze_workload_reach(w, left, right);
    double points = shape_volume(w, left, right);
    if (points > MAX_POINT_INSTS)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [workload] %s: a %s of halo %d reads "
                            "%.0f points per op, more than %d", path,
                            w->n_offsets ? st->shape_at.line : st->halo_at.line,
                            w->n_offsets ? "shape" : "halo", w->star ? "star" : "box", w->halo[0],
                            points, MAX_POINT_INSTS);
    trapeze_workload_derive_counts(w, &c);
    if (w->flops_per_point < 0)
        w->flops_per_point = c.arith;
    if (c.per_point > MAX_POINT_INSTS)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [workload] flops_per_point: %d "
                            "instructions per point (%d loads, %d arithmetic, %d special-function, "
                            "the store), more than %d", path, st->flops_at.line, c.per_point,
                            c.shared_loads + c.global_loads, c.arith, c.sfu, MAX_POINT_INSTS);
    if (!st->have_profile) {
        w->counts_source = TRAPEZE_COUNTS_SPEC;
        w->profile_elements = MENG_SMS * WARP;
        w->insts_per_sm_ic = c.per_point;
        w->insts_per_sm_mc = c.outside_loop;
        w->setup_insts = c.setup;
        return TRAPEZE_OK;
    }
    w->counts_source = TRAPEZE_COUNTS_PROFILE;
    if (w->profile_elements <= 0)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: [profile] input_elements is required "
                            "with the other [profile] counts (or leave [profile] out: the "
                            "counts then follow from the stencil)", path);
    /* what the generated kernel would run per point and loop, per warp */
    double per_point = w->insts_per_sm_ic * MENG_SMS / w->profile_elements * WARP;
    double setup = w->insts_per_sm_mc * MENG_SMS / w->profile_elements * WARP;
    if (per_point > MAX_POINT_INSTS || setup > MAX_POINT_INSTS)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "%s:%d: [profile] input_elements: %g with insts_per_sm_ic = %g and "
                            "insts_per_sm_mc = %g (Meng's GTX 280 counts, per SM of 30) "
                            "implies %.0f warp instructions per point and loop and %.0f outside "
                            "it, more than %d (the stencil itself implies %d and %d: leave "
                            "[profile] out to use them)", path, st->profile_at.line, w->profile_elements,
                            w->insts_per_sm_ic, w->insts_per_sm_mc, per_point, setup,
                            MAX_POINT_INSTS, c.per_point, c.outside_loop);
    return TRAPEZE_OK;
}

/* ---- what a run of the stencil's own kernel shows (a trace) ---- */

/* The run's grid and block where the spec gives none: one thread per
 * point, so the size is the grid in threads; the block edge is the run's
 * when it is square in the stencil's dimensions. */
static trapeze_status facts_extent(load_state *st, const char *path, trapeze_error *err)
{
    const trapeze_workload_facts *f = st->facts;
    trapeze_workload *w = st->w;
    if (!st->have_dims && f->dims > 0) {
        w->dims = f->dims;
        st->have_dims = 1;
    }
    if (!st->have_size && st->have_dims && f->dims == w->dims) {
        for (int d = 0; d < w->dims; d++)
            w->data_len[d] = f->size[d];
        st->size_count = w->dims;
        st->have_size = 1;
    }
    if (!st->have_block && st->have_dims && f->dims == w->dims) {
        for (int d = 1; d < w->dims; d++)
            if (f->block[d] != f->block[0])
                return trapeze_fail(err, TRAPEZE_EPARSE, "%s: [workload] block: the %s's "
                                    "blocks are %dx%d threads, not square: give the ghost-zone "
                                    "tile's edge as block", path, f->source, f->block[0],
                                    f->block[d]);
        w->blk_len = f->block[0];
        st->block_count = 1;
        st->have_block = 1;
    }
    return TRAPEZE_OK;
}

/* Values read per point by the generated kernel for w's shape: the
 * neighbourhoods of every array, and the extra global elements. */
static int values_read(const trapeze_workload *w)
{
    trapeze_workload_counts c;
    trapeze_workload_derive_counts(w, &c);
    return c.shared_loads + c.global_loads;
}

/* The arithmetic per point where the spec gives none, and in 2-D or 3-D
 * an unset shape: the star or the box whose values read per point are the
 * run's global loads per thread (unset, the box, when neither is). */
static void facts_counts(load_state *st)
{
    const trapeze_workload_facts *f = st->facts;
    trapeze_workload *w = st->w;
    if (!st->have_flops && f->flops_per_point >= 0) {
        w->flops_per_point = (int)lround(f->flops_per_point);
        st->have_flops = 1;
    }
    if (!st->have_sfu && f->sfu_per_point >= 0)
        w->sfu_per_point = (int)lround(f->sfu_per_point);
    if (w->shape_given || w->dims < 2 || f->loads_per_point <= 0)
        return;
    long loads = lround(f->loads_per_point);
    for (w->star = 1; w->star >= 0; w->star--)
        if (values_read(w) == loads) {
            w->shape_given = 1; /* the run's, as if the spec had said it */
            return;
        }
    w->star = 0;
}

static trapeze_status validate(load_state *st, const char *path, trapeze_error *err)
{
    trapeze_workload *w = st->w;
    trapeze_status fs = st->facts ? facts_extent(st, path, err) : TRAPEZE_OK;
    if (fs)
        return fs;
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
    trapeze_status s = check_offsets(st, path, err);
    if (s)
        return s;
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
    if (st->facts)
        facts_counts(st);
    if ((s = check_element(st, path, err)))
        return s;
    if ((s = set_counts(st, path, err)))
        return s;
    if (st->facts && !st->have_profile && st->facts->flops_per_point >= 0)
        w->counts_source = TRAPEZE_COUNTS_RUN;
    return TRAPEZE_OK;
}

trapeze_status trapeze_workload_load_facts(const char *path, const trapeze_workload_facts *f,
                                           trapeze_workload *w, trapeze_error *err)
{
    set_defaults(w, path);
    load_state st = {.w = w, .facts = f};
    trapeze_status s = trapeze_ini_parse(path, on_key, &st, err);
    return s ? s : validate(&st, path, err);
}

trapeze_status trapeze_workload_load(const char *path, trapeze_workload *w,
                                     trapeze_error *err)
{
    return trapeze_workload_load_facts(path, NULL, w, err);
}
