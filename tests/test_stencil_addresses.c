/*
 * Address-level correctness of the ghost-zone stencil kernels (the simulator
 * models timing, not values, so correctness is about addresses): every
 * warp's dynamic instruction stream is walked with the program interpreter;
 * in every stage each output element is written exactly once, every load
 * stays inside its array, and the elements loaded and stored per stage are
 * the counts Meng's LoadSten, Commit and IterMem terms assume
 * (T x blk^D per staged array, prod DataLength, NumElemPerOp x h x T x
 * prod(blk - HaloWidth)).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/stencil/ghostzone_kernel.h"

typedef struct {
    long staged_loads;      /* global loads from the iterated or aux arrays */
    long extra_loads;       /* from "extra" */
    long stores;
    long out_of_bounds;
    long shared_loads[9];   /* per shared array, in allocation order (0: the iterated one) */
    long *writes;           /* per element of grid_a and grid_b */
} tally;

static int array_of(const sim_kernel *k, uint64_t addr, int space)
{
    for (int a = 0; a < k->n_arrays; a++)
        if (k->arrays[a].space == space && addr >= k->arrays[a].base &&
            addr < k->arrays[a].base + k->arrays[a].bytes)
            return a;
    return -1;
}

static void count_inst(const sim_kernel *k, const sim_warp_inst *in, long volume, tally *t)
{
    int global = in->op == SIM_OP_LD_GLOBAL || in->op == SIM_OP_ST_GLOBAL;
    int shared = in->op == SIM_OP_LD_SHARED || in->op == SIM_OP_ST_SHARED;
    if (!global && !shared)
        return;
    for (int lane = 0; lane < 32; lane++) {
        if (!(in->active >> lane & 1))
            continue;
        int a = array_of(k, in->addr[lane], global ? SIM_SPACE_GLOBAL : SIM_SPACE_SHARED);
        if (a < 0) {
            t->out_of_bounds++;
            continue;
        }
        if (shared) {
            int ordinal = 0;
            for (int b = 0; b < a; b++)
                ordinal += k->arrays[b].space == SIM_SPACE_SHARED;
            if (in->op == SIM_OP_LD_SHARED && ordinal < 9)
                t->shared_loads[ordinal]++;
            continue;
        }
        const char *name = k->arrays[a].name;
        long elem = (long)((in->addr[lane] - k->arrays[a].base) / 4);
        if (in->op == SIM_OP_ST_GLOBAL) {
            t->stores++;
            if (strcmp(name, "grid_a") == 0 || strcmp(name, "grid_b") == 0)
                t->writes[elem + (name[5] == 'b' ? volume : 0)]++;
        } else if (strcmp(name, "extra") == 0) {
            t->extra_loads++;
        } else if (strcmp(name, "barrier_counters") != 0) {
            t->staged_loads++;
        }
    }
}

static void walk_kernel(const sim_kernel *k, long volume, tally *t)
{
    uint32_t reg_value[SIM_MAX_REGS];
    memset(reg_value, 0xff, sizeof reg_value); /* spin loops end at once */
    int warps = (sim_kernel_block_threads(k) + 31) / 32;
    const sim_source_ops *src = k->source ? k->source : &sim_program_source;
    for (int bz = 0; bz < k->grid.z; bz++)
        for (int by = 0; by < k->grid.y; by++)
            for (int bx = 0; bx < k->grid.x; bx++)
                for (int w = 0; w < warps; w++) {
                    sim_warp_cursor cur;
                    sim_warp_inst in;
                    memset(&cur, 0, sizeof cur);
                    src->warp_start(k->source_self, k, &cur, bx, by, bz, w);
                    while (src->next(k->source_self, k, &cur, reg_value, &in) && in.op != SIM_OP_EXIT)
                        count_inst(k, &in, volume, t);
                    if (src->warp_end)
                        src->warp_end(k->source_self, &cur);
                }
}

typedef struct {
    int dims, halo, blk, h, arrays, elem_per_op, iterations;
    long len[3];
} stencil_case;

static void check_case(const stencil_case *c, trapeze_sync sync)
{
    trapeze_workload w;
    memset(&w, 0, sizeof w);
    snprintf(w.name, sizeof w.name, "case%dd", c->dims);
    w.dims = c->dims;
    w.blk_len = c->blk;
    w.stencil_arrays = c->arrays;
    w.elem_per_op = c->elem_per_op;
    w.element_bytes = 4;
    w.iterations = c->iterations;
    w.profile_elements = 1000;
    w.insts_per_sm_ic = w.insts_per_sm_mc = 100;
    long volume = 1, interior = 1, block = 1;
    for (int d = 0; d < c->dims; d++) {
        w.halo[d] = c->halo;
        w.data_len[d] = (double)c->len[d];
        volume *= c->len[d];
        interior *= c->blk - c->halo;
        block *= c->blk;
    }
    sim_stencil_spec spec = {.workload = &w, .h = c->h, .sync = sync,
                             .resident_blocks = sync == TRAPEZE_SYNC_FENCE ? 5 : 0};
    sim_stencil *s;
    trapeze_error err;
    CHECK_OK(sim_stencil_build(&spec, &s, &err));
    if (!s) {
        fprintf(stderr, "%s\n", err.message);
        return;
    }
    int stages = (c->iterations + c->h - 1) / c->h;
    CHECK(s->stages == stages);
    CHECK(s->n_kernels == (sync == TRAPEZE_SYNC_FENCE ? 1 : stages));
    /* the sizes are multiples of the output edge: T = prod(len / (blk - halo h)) */
    double T = (double)volume;
    for (int d = 0; d < c->dims; d++)
        T /= c->blk - c->halo * c->h;
    CHECK(s->tiles == (long)T);
    tally t = {0};
    t.writes = calloc((size_t)(2 * volume), sizeof *t.writes);
    for (int i = 0; i < s->n_kernels; i++) {
        tally stage = {.writes = t.writes};
        walk_kernel(s->kernels[i], volume, &stage);
        if (sync == TRAPEZE_SYNC_RELAUNCH) { /* per stage: every output element once */
            long *out = t.writes + (i % 2 == 0 ? volume : 0);
            long once = 0;
            for (long e = 0; e < volume; e++)
                once += out[e] == 1;
            CHECK(once == volume);
            memset(t.writes, 0, (size_t)(2 * volume) * sizeof *t.writes);
        }
        t.staged_loads += stage.staged_loads;
        t.extra_loads += stage.extra_loads;
        t.stores += stage.stores;
        t.out_of_bounds += stage.out_of_bounds;
    }
    CHECK(t.out_of_bounds == 0);
    CHECK(t.stores == (long)stages * volume);                               /* Commit */
    CHECK(t.staged_loads == (long)stages * c->arrays * (long)T * block);     /* LoadSten */
    CHECK(t.extra_loads == (long)stages * c->elem_per_op * c->h * (long)T * interior); /* IterMem */
    if (sync == TRAPEZE_SYNC_FENCE) { /* stages alternate a->b, b->a: each element once per stage */
        long b_ok = 0, a_ok = 0;
        for (long e = 0; e < volume; e++) {
            b_ok += t.writes[volume + e] == (stages + 1) / 2;
            a_ok += t.writes[e] == stages / 2;
        }
        CHECK(a_ok == volume && b_ok == volume);
    }
    free(t.writes);
    sim_stencil_destroy(s);
}

/* The neighbourhood one stencil op reads: per interior thread, a (halo+1)^D
 * box or an axis star of the iterated array, and each extra array's own
 * aux_halo neighbourhood (its own element by default). One relaunch stage at
 * h = 1: every tile's interior threads run one op. */
static void check_shape(int dims, int halo, int star, int arrays, int aux_halo, long points,
                        long aux_points)
{
    trapeze_workload w;
    memset(&w, 0, sizeof w);
    snprintf(w.name, sizeof w.name, "shape%dd", dims);
    w.dims = dims;
    w.blk_len = 8;
    w.stencil_arrays = arrays;
    w.element_bytes = 4;
    w.iterations = 1;
    w.star = star;
    w.aux_halo[0] = aux_halo;
    w.profile_elements = 1000;
    w.insts_per_sm_ic = w.insts_per_sm_mc = 100;
    long T = 1, interior = 1;
    for (int d = 0; d < dims; d++) {
        w.halo[d] = halo;
        w.data_len[d] = 2.0 * (8 - halo);
        T *= 2;
        interior *= 8 - halo;
    }
    sim_stencil_spec spec = {.workload = &w, .h = 1, .sync = TRAPEZE_SYNC_RELAUNCH, .insts_per_op = 80};
    sim_stencil *s;
    trapeze_error err;
    CHECK_OK(sim_stencil_build(&spec, &s, &err));
    tally t = {0};
    long volume = (long)(w.data_len[0] * (dims > 1 ? w.data_len[1] : 1) * (dims > 2 ? w.data_len[2] : 1));
    t.writes = calloc((size_t)(2 * volume), sizeof *t.writes);
    walk_kernel(s->kernels[0], volume, &t);
    CHECK(t.out_of_bounds == 0);
    CHECK(t.shared_loads[0] == T * interior * points);
    if (arrays > 1)
        CHECK(t.shared_loads[1] == T * interior * aux_points);
    free(t.writes);
    sim_stencil_destroy(s);
}

int main(void)
{
    check_shape(3, 2, 1, 1, 0, 7, 0);   /* 3-D 7-point star */
    check_shape(3, 2, 0, 1, 0, 27, 0);  /* 3-D 27-point box (Cell) */
    check_shape(2, 2, 0, 1, 0, 9, 0);   /* 2-D 9-point box */
    check_shape(2, 2, 1, 2, 0, 5, 1);   /* 2-D 5-point star, a second array at its own element */
    check_shape(1, 4, 0, 2, 2, 5, 3);   /* 1-D radius 2 on two arrays, the second radius 1 */
    check_shape(2, 4, 1, 2, 2, 9, 5);   /* 2-D radius-2 star, the second array a radius-1 star */
    const stencil_case cases[] = {
        /* D halo blk h arrays extra iters  sizes (multiples of blk - halo h) */
        {1, 2, 64, 3, 1, 1, 7, {58 * 5, 1, 1}},      /* PathFinder-like, one extra load per op */
        {1, 2, 40, 1, 1, 0, 2, {38 * 3, 1, 1}},
        {2, 2, 16, 2, 2, 0, 5, {12 * 2, 12 * 3, 1}}, /* HotSpot-like, two staged arrays */
        {2, 4, 16, 2, 1, 1, 4, {8 * 2, 8 * 3, 1}},   /* a wider halo */
        {3, 2, 8, 1, 1, 0, 3, {6 * 2, 6, 6 * 3}},    /* Cell-like */
        {3, 2, 8, 3, 1, 0, 3, {2 * 3, 2 * 2, 2}},
        {1, 2, 256, 127, 1, 1, 3, {2 * 5, 1, 1}},    /* PathFinder's largest h: output edge 2 */
        {1, 2, 256, 100, 1, 1, 5, {56 * 3, 1, 1}},
        {2, 2, 20, 9, 2, 0, 10, {2 * 3, 2 * 2, 1}},  /* HotSpot's largest h */
        {3, 2, 10, 2, 2, 1, 4, {6 * 2, 6, 6}},       /* 3-D, two staged arrays, an extra load */
        {3, 4, 12, 2, 1, 0, 3, {4 * 2, 4, 4 * 3}},   /* 3-D, a wider halo */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_case(&cases[i], TRAPEZE_SYNC_RELAUNCH);
        check_case(&cases[i], TRAPEZE_SYNC_FENCE);
    }
    /* Eq. 5.20 is enforced when building */
    trapeze_workload w = {.dims = 1, .blk_len = 16, .halo = {2}, .data_len = {100},
                          .stencil_arrays = 1, .element_bytes = 4, .iterations = 4,
                          .profile_elements = 10, .insts_per_sm_ic = 1, .insts_per_sm_mc = 1};
    sim_stencil_spec spec = {.workload = &w, .h = 8, .sync = TRAPEZE_SYNC_RELAUNCH};
    sim_stencil *s;
    trapeze_error err;
    CHECK(sim_stencil_build(&spec, &s, &err) == TRAPEZE_ERANGE);
    CHECK(strstr(err.message, "largest valid h is 7") != NULL);
    return check_report("test_stencil_addresses");
}
