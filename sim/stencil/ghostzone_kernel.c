/*
 * ghostzone_kernel.c - builds the ghost-zone stencil kernels described in
 * ghostzone_kernel.h with the kernel builder. Owns the kernels' shape
 * (arrays, tiles, predicates, instruction mix); must not simulate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/stencil/ghostzone_kernel.h"

#define PROFILE_SMS 30  /* Meng profiled on the GTX 280 */
#define FIRST_TEMP 8    /* registers 0..7: accumulator and loaded values */

/* Everything the emitters need about one build. */
typedef struct {
    const trapeze_workload *w;
    int dims, h, blk, out_edge, stages, iterations;
    int left[TRAPEZE_MAX_DIMS], right[TRAPEZE_MAX_DIMS];
    long len[TRAPEZE_MAX_DIMS], tiles_per_dim[TRAPEZE_MAX_DIMS], tiles;
    int insts_per_op, setup_insts;
    long resident;
    /* arrays of the kernel being built */
    int grid[2], aux[8], n_aux, extra, counters, shared[9];
    sim_var tile_var[TRAPEZE_MAX_DIMS];
} gz_build;

int sim_stencil_default_insts_per_op(const trapeze_workload *w)
{
    double n = w->insts_per_sm_ic * PROFILE_SMS / w->profile_elements * 32;
    return n < 1 ? 1 : (int)(n + 0.5);
}

/* The spec's own setup when its counts are derived from it (the index
 * arithmetic alone: the MC count also holds staging and the commit, which
 * the kernel runs as loads and stores); else Meng's MC count. */
int sim_stencil_default_setup_insts(const trapeze_workload *w)
{
    if (w->counts_source == TRAPEZE_COUNTS_SPEC && w->setup_insts >= 1)
        return (int)w->setup_insts;
    double n = w->insts_per_sm_mc * PROFILE_SMS / w->profile_elements * 32;
    return n < 1 ? 1 : (int)(n + 0.5);
}

/* ---- expressions ---- */

static sim_affine thread_at(int d, int64_t offset)
{
    sim_affine e = SIM_AFF(.c = offset);
    e.k[SIM_TX + d] = 1;
    return e;
}

/* Global index along d of this thread's element of the enlarged tile. */
static sim_affine global_index(const gz_build *b, int d)
{
    sim_affine e = thread_at(d, -(int64_t)b->left[d] * b->h);
    e.k[b->tile_var[d]] = b->out_edge;
    return e;
}

/* An element of a D-dimensional array, dimension 0 fastest (C order). */
static sim_addr element(const gz_build *b, int array, const sim_index *ix, const long *extent)
{
    switch (b->dims) {
    case 1:
        return sim_at1(array, b->w->element_bytes, ix[0]);
    case 2:
        return sim_at2(array, b->w->element_bytes, ix[1], ix[0], extent[0]);
    default:
        return sim_at3(array, b->w->element_bytes, ix[2], ix[1], ix[0], extent[1], extent[0]);
    }
}

static sim_addr global_clamped(const gz_build *b, int array)
{
    sim_index ix[TRAPEZE_MAX_DIMS];
    for (int d = 0; d < b->dims; d++)
        ix[d] = sim_ixc(global_index(b, d), 0, b->len[d] - 1);
    return element(b, array, ix, b->len);
}

static sim_addr shared_at(const gz_build *b, int array, const int *offset)
{
    sim_index ix[TRAPEZE_MAX_DIMS];
    long extent[TRAPEZE_MAX_DIMS];
    for (int d = 0; d < b->dims; d++) {
        ix[d] = sim_ix(thread_at(d, offset ? offset[d] : 0));
        extent[d] = b->blk;
    }
    return element(b, array, ix, extent);
}

/* ---- emitters ---- */

static void emit_alu_chain(sim_kb *kb, sim_op op, int count)
{
    for (int i = 0; i < count; i++)
        sim_kb_alu(kb, op, op == SIM_OP_FP || op == SIM_OP_DP ? SIM_ALU_MAD : SIM_ALU_ADD, 0, 0,
                   FIRST_TEMP - 1 - i % 4, SIM_NO_REG);
}

/* IF per dimension on [lo_d, hi_d) of the thread index; returns the count
 * of IFs opened (one per dimension keeps each under SIM_MAX_CONDS). */
static int open_thread_range(const gz_build *b, sim_kb *kb, const int *lo, const int *hi,
                             int clip_to_array)
{
    for (int d = 0; d < b->dims; d++) {
        sim_pred p = sim_pred1(thread_at(d, -lo[d]), SIM_GE);
        p = sim_pred_and(p, thread_at(d, -hi[d]), SIM_LT);
        if (clip_to_array) /* the last tile of a dimension may overhang the array */
            p = sim_pred_and(p, sim_aff_add(global_index(b, d), SIM_AFF(.c = -b->len[d])), SIM_LT);
        sim_kb_if(kb, p);
    }
    return b->dims;
}

static void close_ifs(sim_kb *kb, int n)
{
    while (n-- > 0)
        sim_kb_endif(kb);
}

/* LoadSten: every thread stages its (clamped) element of each array. */
static void emit_load_tile(const gz_build *b, sim_kb *kb, int in)
{
    sim_kb_ld(kb, 1, global_clamped(b, in));
    sim_kb_st(kb, shared_at(b, b->shared[0], NULL), 1);
    for (int a = 0; a < b->n_aux; a++) {
        sim_kb_ld(kb, 2, global_clamped(b, b->aux[a]));
        sim_kb_st(kb, shared_at(b, b->shared[1 + a], NULL), 2);
    }
    sim_kb_bar(kb);
}

/* extra[row][g]: the thread's element in the row of extra data of this
 * loop. Below 3-D the row is an outermost dimension of a grid's volume;
 * addresses have at most 3 dimensions, so in 3-D the row shifts the outer
 * index instead (z + row * len_z, clamped to the whole array): a ghost-zone
 * thread beyond the grid then reads a plane of the neighbouring row rather
 * than its own clamped edge, which changes no count and stays in bounds. */
static sim_addr extra_element(const gz_build *b, sim_affine row)
{
    sim_addr a = global_clamped(b, b->extra);
    if (a.n_dims < SIM_MAX_ADDR_DIMS) {
        long volume = 1;
        for (int d = 0; d < b->dims; d++)
            volume *= b->len[d];
        a.index[a.n_dims] = sim_ix(row);
        a.stride[a.n_dims] = volume;
        a.n_dims++;
        return a;
    }
    long rows = (long)b->stages * b->h;
    a.index[0].e = sim_aff_add(a.index[0].e, sim_aff_scale(row, b->len[2]));
    a.index[0].hi = rows * b->len[2] - 1;
    return a;
}

typedef struct {
    const gz_build *b;
    sim_kb *kb;
    int shared, loads;
} load_emitter;

static void emit_point_load(void *ctx, const int *offset)
{
    load_emitter *e = ctx;
    sim_kb_ld(e->kb, 1 + e->loads % 6, shared_at(e->b, e->shared, offset));
    e->loads++;
}

/* Loads of array `shared` at every point of the stencil's shape (box, star
 * or listed offsets: trapeze_workload_points, which also counts them for
 * the spec-derived counts) within [-left_d, right_d]. Returns the loads. */
static int emit_neighbourhood(const gz_build *b, sim_kb *kb, int shared, const int *left,
                              const int *right, int loads)
{
    load_emitter e = {b, kb, shared, loads};
    return trapeze_workload_points(b->w, left, right, emit_point_load, &e);
}

/* The op's arithmetic in the element's type (FP32, FP64 or integer). */
static sim_op arith_op(const trapeze_workload *w)
{
    return w->element_type == TRAPEZE_ELEM_DOUBLE ? SIM_OP_DP
         : w->element_type == TRAPEZE_ELEM_INT    ? SIM_OP_INT
                                                  : SIM_OP_FP;
}

/* One stencil op of an interior thread: the neighbourhood of the iterated
 * array (its shape), each extra array's own neighbourhood (aux_halo; its
 * own element by default), the extra global loads (IterMem), the spec's
 * special-function instructions, then arithmetic up to insts_per_op. */
static void emit_stencil_op(const gz_build *b, sim_kb *kb, sim_affine extra_row)
{
    int loads = emit_neighbourhood(b, kb, b->shared[0], b->left, b->right, 0);
    for (int a = 0; a < b->n_aux; a++) {
        int halo = a < TRAPEZE_MAX_AUX_ARRAYS ? b->w->aux_halo[a] : 0;
        int left[TRAPEZE_MAX_DIMS], right[TRAPEZE_MAX_DIMS];
        for (int d = 0; d < b->dims; d++) {
            left[d] = halo / 2;
            right[d] = halo - halo / 2;
        }
        loads += emit_neighbourhood(b, kb, b->shared[1 + a], left, right, loads);
    }
    for (int e = 0; e < (int)b->w->elem_per_op; e++, loads++)
        sim_kb_ld(kb, 1 + loads % 6, extra_element(b, extra_row));
    int rest = b->insts_per_op - loads - 1; /* the store below is one instruction */
    int sfu = b->w->sfu_per_point < rest ? b->w->sfu_per_point : rest;
    if (sfu > 0)
        emit_alu_chain(kb, SIM_OP_SFU, sfu);
    emit_alu_chain(kb, arith_op(b->w), rest - sfu < 1 ? 1 : rest - sfu);
}

/* h loops of non-shrinking computation; `loop_var` is the loop's counter. */
static void emit_trapezoid(const gz_build *b, sim_kb *kb, sim_affine stage, sim_var loop_var)
{
    int lo[TRAPEZE_MAX_DIMS], hi[TRAPEZE_MAX_DIMS];
    for (int d = 0; d < b->dims; d++) {
        lo[d] = b->left[d];
        hi[d] = b->blk - b->right[d];
    }
    sim_affine row = sim_aff_scale(stage, b->h);
    row.k[loop_var] += 1;
    sim_kb_loop(kb, SIM_AFF(.c = b->h));
    int n = open_thread_range(b, kb, lo, hi, 0);
    emit_stencil_op(b, kb, row);
    close_ifs(kb, n);
    sim_kb_bar(kb); /* everyone has read the old values */
    n = open_thread_range(b, kb, lo, hi, 0);
    sim_kb_st(kb, shared_at(b, b->shared[0], NULL), 0);
    close_ifs(kb, n);
    sim_kb_bar(kb);
    sim_kb_endloop(kb);
}

/* Commit: the valid shrunk tile, clipped to the array. */
static void emit_commit(const gz_build *b, sim_kb *kb, int out)
{
    int lo[TRAPEZE_MAX_DIMS], hi[TRAPEZE_MAX_DIMS];
    for (int d = 0; d < b->dims; d++) {
        lo[d] = b->left[d] * b->h;
        hi[d] = b->blk - b->right[d] * b->h;
    }
    int n = open_thread_range(b, kb, lo, hi, 1);
    sim_kb_st(kb, global_clamped(b, out), 0);
    close_ifs(kb, n);
}

static void emit_stage(const gz_build *b, sim_kb *kb, int parity, sim_affine stage,
                       sim_var loop_var)
{
    emit_load_tile(b, kb, b->grid[parity]);
    emit_trapezoid(b, kb, stage, loop_var);
    emit_commit(b, kb, b->grid[1 - parity]);
}

/* ---- kernels ---- */

static sim_kb *begin_kernel(gz_build *b, const char *name, sim_dim3 grid)
{
    sim_dim3 block = {b->blk, b->dims > 1 ? b->blk : 1, b->dims > 2 ? b->blk : 1};
    sim_kb *kb = sim_kb_begin(name, grid, block);
    long volume = 1;
    for (int d = 0; d < b->dims; d++)
        volume *= b->len[d];
    uint64_t bytes = (uint64_t)volume * b->w->element_bytes;
    b->grid[0] = sim_kb_global(kb, "grid_a", bytes);
    b->grid[1] = sim_kb_global(kb, "grid_b", bytes);
    b->n_aux = b->w->stencil_arrays - 1;
    for (int a = 0; a < b->n_aux; a++)
        b->aux[a] = sim_kb_global(kb, "aux", bytes);
    b->extra = b->w->elem_per_op > 0
        ? sim_kb_global(kb, "extra", bytes * (uint64_t)(b->stages * b->h)) : -1;
    uint64_t tile = 1;
    for (int d = 0; d < b->dims; d++)
        tile *= (uint64_t)b->blk;
    for (int a = 0; a <= b->n_aux; a++)
        b->shared[a] = sim_kb_shared(kb, "tile", tile * b->w->element_bytes);
    sim_kb_regs(kb, b->w->regs_per_thread > FIRST_TEMP + 8 ? b->w->regs_per_thread : FIRST_TEMP + 8);
    emit_alu_chain(kb, SIM_OP_INT, b->setup_insts); /* MiscComp */
    return kb;
}

static trapeze_status build_relaunch(gz_build *b, sim_stencil *s, trapeze_error *err)
{
    sim_dim3 grid = {(int)b->tiles_per_dim[0], b->dims > 1 ? (int)b->tiles_per_dim[1] : 1,
                     b->dims > 2 ? (int)b->tiles_per_dim[2] : 1};
    for (int d = 0; d < b->dims; d++)
        b->tile_var[d] = (sim_var)(SIM_BX + d);
    for (int st = 0; st < b->stages; st++) {
        char name[64];
        snprintf(name, sizeof name, "%.40s_stage%d", b->w->name, st);
        sim_kb *kb = begin_kernel(b, name, grid);
        emit_stage(b, kb, st % 2, SIM_AFF(.c = st), SIM_L0);
        trapeze_status rc = sim_kb_end(kb, &s->kernels[st], err);
        if (rc)
            return rc;
        s->n_kernels++;
    }
    return TRAPEZE_OK;
}

/* Tiles of one stage, looped over by the persistent blocks: tile j =
 * bx + G * L1, its coordinates derived by division and modulo. */
static void emit_persistent_stage(gz_build *b, sim_kb *kb, int parity, sim_affine stage,
                                  sim_var trips)
{
    sim_affine count = SIM_AFF(.c = 1);
    count.k[trips] = 1;
    sim_kb_loop(kb, count);
    emit_stage(b, kb, parity, stage, SIM_L2);
    sim_kb_endloop(kb);
    sim_kb_global_barrier(kb, b->counters, stage, b->resident, FIRST_TEMP);
}

static trapeze_status build_fence(gz_build *b, sim_stencil *s, trapeze_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%.40s_persistent", b->w->name);
    sim_kb *kb = begin_kernel(b, name, (sim_dim3){(int)b->resident, 1, 1});
    b->counters = sim_kb_global(kb, "barrier_counters", (uint64_t)b->stages * 128);
    /* D0 = tiles this block owns - 1; D1.. = the current tile's coordinates */
    sim_var trips = sim_kb_derived(kb, SIM_AFF(.c = b->tiles - 1, .k[SIM_BX] = -1), b->resident, 0);
    sim_affine tile = SIM_AFF(.k[SIM_BX] = 1, .k[SIM_L1] = b->resident);
    long below = 1;
    for (int d = 0; d < b->dims; d++) {
        b->tile_var[d] = sim_kb_derived(kb, tile, below, b->tiles_per_dim[d]);
        below *= b->tiles_per_dim[d];
    }
    /* stage pairs ping-pong grid_a -> grid_b -> grid_a; an odd last stage follows */
    if (b->stages / 2 > 0) {
        sim_kb_loop(kb, SIM_AFF(.c = b->stages / 2));
        emit_persistent_stage(b, kb, 0, SIM_AFF(.k[SIM_L0] = 2), trips);
        emit_persistent_stage(b, kb, 1, SIM_AFF(.c = 1, .k[SIM_L0] = 2), trips);
        sim_kb_endloop(kb);
    }
    if (b->stages % 2) {
        sim_kb_loop(kb, SIM_AFF(.c = 1)); /* keeps the tile loop at depth L1 */
        emit_persistent_stage(b, kb, 0, SIM_AFF(.c = b->stages - 1), trips);
        sim_kb_endloop(kb);
    }
    trapeze_status rc = sim_kb_end(kb, &s->kernels[0], err);
    if (!rc)
        s->n_kernels = 1;
    return rc;
}

static trapeze_status plan(const sim_stencil_spec *spec, gz_build *b, trapeze_error *err)
{
    const trapeze_workload *w = spec->workload;
    memset(b, 0, sizeof *b);
    b->w = w;
    b->dims = w->dims;
    b->h = spec->h;
    b->blk = w->blk_len;
    b->iterations = spec->iterations > 0 ? spec->iterations : w->iterations;
    int widest = 0;
    trapeze_workload_reach(w, b->left, b->right);
    for (int d = 0; d < b->dims; d++)
        widest = w->halo[d] > widest ? w->halo[d] : widest;
    b->out_edge = b->blk - widest * b->h;
    if (b->h < 1 || b->out_edge < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "%s: h = %d violates Eq. 5.20 (block %d, halo %d): largest valid h is %d",
                            w->name, b->h, b->blk, widest, widest ? (b->blk - 1) / widest : b->blk);
    b->stages = (b->iterations + b->h - 1) / b->h;
    b->tiles = 1;
    for (int d = 0; d < b->dims; d++) {
        if (w->data_len[d] < 1 || w->data_len[d] != (double)(long)w->data_len[d])
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s: size %g in dimension %d is not a whole number of elements",
                                w->name, w->data_len[d], d + 1);
        b->len[d] = (long)w->data_len[d];
        b->tiles_per_dim[d] = (b->len[d] + b->out_edge - 1) / b->out_edge;
        b->tiles *= b->tiles_per_dim[d];
    }
    b->insts_per_op = spec->insts_per_op > 0 ? spec->insts_per_op : sim_stencil_default_insts_per_op(w);
    b->setup_insts = spec->setup_insts > 0 ? spec->setup_insts : sim_stencil_default_setup_insts(w);
    b->resident = spec->resident_blocks > 0 && spec->resident_blocks < b->tiles
        ? spec->resident_blocks : b->tiles;
    return TRAPEZE_OK;
}

trapeze_status sim_stencil_build(const sim_stencil_spec *spec, sim_stencil **out,
                                 trapeze_error *err)
{
    gz_build b;
    *out = NULL;
    trapeze_status rc = plan(spec, &b, err);
    if (rc)
        return rc;
    sim_stencil *s = calloc(1, sizeof *s);
    int slots = spec->sync == TRAPEZE_SYNC_FENCE ? 1 : b.stages;
    if (!s || !(s->kernels = calloc((size_t)slots, sizeof *s->kernels))) {
        free(s);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    s->stages = b.stages;
    s->tiles = b.tiles;
    s->resident_blocks = b.resident;
    s->out_edge = b.out_edge;
    s->insts_per_op = b.insts_per_op;
    s->setup_insts = b.setup_insts;
    rc = spec->sync == TRAPEZE_SYNC_FENCE ? build_fence(&b, s, err) : build_relaunch(&b, s, err);
    if (rc) {
        sim_stencil_destroy(s);
        return rc;
    }
    *out = s;
    return TRAPEZE_OK;
}

void sim_stencil_destroy(sim_stencil *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_kernels; i++)
        sim_kernel_destroy(s->kernels[i]);
    free(s->kernels);
    free(s);
}
