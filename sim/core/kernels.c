/*
 * kernels.c - built-in kernels, by name with integer parameters: the small
 * programs `trapeze sim KERNEL` runs and the tests and benchmarks use. Each
 * is written with the builder of sim/kernel.h, as any kernel would be.
 */
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "sim/core/gpu_sim.h"
#include "sim/core/kernels_divergent.h"
#include "sim/core/kernels_seeds.h"

#define AFF SIM_AFF

static trapeze_status finish(sim_kb *kb, sim_kernel **ks, int *n, trapeze_error *err)
{
    trapeze_status s = sim_kb_end(kb, &ks[*n], err);
    if (!s)
        (*n)++;
    return s;
}

static long ceil_div(long a, long b)
{
    return (a + b - 1) / b;
}

/* i = blockIdx.x * block + threadIdx.x */
static sim_affine global_x(long block)
{
    return AFF(.k[SIM_TX] = 1, .k[SIM_BX] = block);
}

/* ---- vecadd: c[i] = a[i] + b[i] ---- */
static trapeze_status build_vecadd(const sim_core_config *c, const long *p, sim_kernel **ks,
                                   int max, int *n, trapeze_error *err)
{
    (void)c;
    (void)max;
    long len = p[0], bs = p[1];
    sim_kb *kb = sim_kb_begin("vecadd", SIM_DIM((int)ceil_div(len, bs)), SIM_DIM((int)bs));
    int a = sim_kb_global(kb, "a", 4 * (uint64_t)len);
    int b = sim_kb_global(kb, "b", 4 * (uint64_t)len);
    int cc = sim_kb_global(kb, "c", 4 * (uint64_t)len);
    sim_affine i = global_x(bs);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, 0, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);  /* i */
    sim_kb_if(kb, sim_pred1(sim_aff_add(i, AFF(.c = -len)), SIM_LT));
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(i)));
    sim_kb_uses(kb, 0);
    sim_kb_ld(kb, 2, sim_at1(b, 4, sim_ix(i)));
    sim_kb_uses(kb, 0);
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 3, 1, 2, SIM_NO_REG);
    sim_kb_st(kb, sim_at1(cc, 4, sim_ix(i)), 3);
    sim_kb_uses(kb, 0);
    sim_kb_endif(kb);
    return finish(kb, ks, n, err);
}

/* ---- copy: b[i] = a[i], each thread `per_thread` elements, grid-strided ---- */
static trapeze_status build_copy(const sim_core_config *c, const long *p, sim_kernel **ks,
                                 int max, int *n, trapeze_error *err)
{
    (void)c;
    (void)max;
    long len = p[0], bs = p[1], per = p[2];
    long blocks = ceil_div(len, bs * per);
    sim_kb *kb = sim_kb_begin("copy", SIM_DIM((int)blocks), SIM_DIM((int)bs));
    int a = sim_kb_global(kb, "src", 4 * (uint64_t)len);
    int b = sim_kb_global(kb, "dst", 4 * (uint64_t)len);
    /* i = bx*bs + tx + l0 * (blocks*bs) */
    sim_affine i = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = bs, .k[SIM_L0] = blocks * bs);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, 0, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_loop(kb, AFF(.c = per));
    sim_kb_if(kb, sim_pred1(sim_aff_add(i, AFF(.c = -len)), SIM_LT));
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(i)));
    sim_kb_uses(kb, 0);
    sim_kb_st(kb, sim_at1(b, 4, sim_ix(i)), 1);
    sim_kb_uses(kb, 0);
    sim_kb_endif(kb);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, 0, 0, SIM_NO_REG, SIM_NO_REG);
    sim_kb_endloop(kb);
    return finish(kb, ks, n, err);
}

/* ---- chase: one thread, `steps` dependent loads `stride` bytes apart ---- */
static trapeze_status build_chase(const sim_core_config *c, const long *p, sim_kernel **ks,
                                  int max, int *n, trapeze_error *err)
{
    (void)c;
    (void)max;
    long steps = p[0], stride = p[1];
    if (stride % 4)
        return trapeze_fail(err, TRAPEZE_ERANGE, "chase: stride=%ld is not a multiple of 4",
                            stride);
    sim_kb *kb = sim_kb_begin("chase", SIM_DIM(1), SIM_DIM(1));
    int a = sim_kb_global(kb, "chain", (uint64_t)(stride * steps + 4));
    sim_kb_loop(kb, AFF(.c = steps));
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(AFF(.k[SIM_L0] = stride / 4))));
    sim_kb_uses(kb, 1);   /* p = *p: the address comes from the previous load */
    sim_kb_endloop(kb);
    return finish(kb, ks, n, err);
}

/* ---- jacobi: 2D 5-point, clamped boundaries, one launch per sweep ---- */
static trapeze_status build_jacobi(const sim_core_config *c, const long *p, sim_kernel **ks,
                                   int max, int *n, trapeze_error *err)
{
    (void)c;
    long nx = p[0], ny = p[1], bx = p[2], by = p[3], iters = p[4];
    if (iters > max)
        return trapeze_fail(err, TRAPEZE_ERANGE, "jacobi: iters=%ld (at most %d)", iters, max);
    for (long it = 0; it < iters; it++) {
        sim_kb *kb = sim_kb_begin("jacobi2d", SIM_DIM((int)ceil_div(nx, bx), (int)ceil_div(ny, by)),
                                  SIM_DIM((int)bx, (int)by));
        int g0 = sim_kb_global(kb, "A", 4 * (uint64_t)nx * (uint64_t)ny);
        int g1 = sim_kb_global(kb, "B", 4 * (uint64_t)nx * (uint64_t)ny);
        int in = it % 2 ? g1 : g0, out = it % 2 ? g0 : g1;
        sim_affine x = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = bx);
        sim_affine y = AFF(.k[SIM_TY] = 1, .k[SIM_BY] = by);
        sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, 0, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);  /* x */
        sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, 1, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);  /* y */
        sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, 2, 0, 1, SIM_NO_REG);   /* y*nx + x */
        sim_pred inside = sim_pred_and(sim_pred1(sim_aff_add(x, AFF(.c = -nx)), SIM_LT),
                                       sim_aff_add(y, AFF(.c = -ny)), SIM_LT);
        sim_kb_if(kb, inside);
        static const int d[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int k = 0; k < 5; k++) {
            sim_index iy = sim_ixc(sim_aff_add(y, AFF(.c = d[k][0])), 0, ny - 1);
            sim_index ix = sim_ixc(sim_aff_add(x, AFF(.c = d[k][1])), 0, nx - 1);
            sim_kb_ld(kb, 3 + k, sim_at2(in, 4, iy, ix, nx));
            sim_kb_uses(kb, 2);
        }
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 8, 4, 5, SIM_NO_REG);
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 9, 6, 7, SIM_NO_REG);
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 8, 8, 9, SIM_NO_REG);
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 8, 8, 3, SIM_NO_REG);
        sim_kb_st(kb, sim_at2(out, 4, sim_ix(y), sim_ix(x), nx), 8);
        sim_kb_uses(kb, 2);
        sim_kb_endif(kb);
        trapeze_status s = finish(kb, ks, n, err);
        if (s)
            return s;
    }
    return TRAPEZE_OK;
}

/* ---- strided: a[i * stride] loads, one per thread ---- */
static trapeze_status build_strided(const sim_core_config *c, const long *p, sim_kernel **ks,
                                    int max, int *n, trapeze_error *err)
{
    (void)c;
    (void)max;
    long len = p[0], stride = p[1], bs = p[2];
    sim_kb *kb = sim_kb_begin("strided", SIM_DIM((int)ceil_div(len, bs)), SIM_DIM((int)bs));
    int a = sim_kb_global(kb, "a", 4 * (uint64_t)len * (uint64_t)stride);
    int o = sim_kb_global(kb, "out", 4 * (uint64_t)len);
    sim_affine i = global_x(bs);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, 0, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_if(kb, sim_pred1(sim_aff_add(i, AFF(.c = -len)), SIM_LT));
    sim_kb_ld(kb, 1, sim_at1(a, 4, sim_ix(sim_aff_scale(i, stride))));
    sim_kb_uses(kb, 0);
    sim_kb_st(kb, sim_at1(o, 4, sim_ix(i)), 1);
    sim_kb_uses(kb, 0);
    sim_kb_endif(kb);
    return finish(kb, ks, n, err);
}

/* A tile's work for gbarrier/relaunch: tile t of `bs` elements: out[t] = f(in[t]). */
static void tile_body(sim_kb *kb, int in, int out, sim_affine tile, long bs)
{
    sim_affine i = sim_aff_add(sim_aff_scale(tile, bs), AFF(.k[SIM_TX] = 1));
    sim_kb_ld(kb, 1, sim_at1(in, 4, sim_ix(i)));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 2, 1, 1, SIM_NO_REG);
    sim_kb_st(kb, sim_at1(out, 4, sim_ix(i)), 2);
}

/* Persistent blocks that fit at once for a `bs`-thread block (0 asked: all). */
static long resident_or(const sim_core_config *c, long blocks, long bs)
{
    sim_kernel probe = {.block = {(int)bs, 1, 1}, .regs_per_thread = 8};
    long fit = (long)sim_occupancy(c, &probe, NULL) * c->gpu.n_sm;
    return blocks ? blocks : (fit > 0 ? fit : 1);
}

/* ---- gbarrier: a persistent kernel; `stages` stages separated by global
 * barriers; each of `blocks` resident blocks loops over the `tiles` tiles ---- */
static trapeze_status build_gbarrier(const sim_core_config *c, const long *p, sim_kernel **ks,
                                     int max, int *n, trapeze_error *err)
{
    long tiles = p[0], blocks = p[1], stages = p[2], bs = p[3];
    if (blocks == 0) {
        /* as many as can be resident at once: the barrier cannot deadlock */
        blocks = resident_or(c, 0, bs);
        if (blocks > tiles)
            blocks = tiles;
    }
    sim_kb *kb = sim_kb_begin("gbarrier", SIM_DIM((int)blocks), SIM_DIM((int)bs));
    sim_kb_regs(kb, 8);
    int a = sim_kb_global(kb, "a", 4 * (uint64_t)tiles * (uint64_t)bs);
    int b = sim_kb_global(kb, "b", 4 * (uint64_t)tiles * (uint64_t)bs);
    int sync = sim_kb_global(kb, "sync", 128 * (uint64_t)stages);
    /* trips of the tile loop for block bx: ceil((tiles - bx) / blocks) */
    sim_var trips = sim_kb_derived(kb, AFF(.c = tiles - 1 + blocks, .k[SIM_BX] = -1), blocks, 0);
    sim_kb_loop(kb, AFF(.c = stages));              /* l0: stage */
    sim_affine tile_trips = AFF(.c = 0);
    tile_trips.k[trips] = 1;
    sim_kb_loop(kb, tile_trips);                    /* l1: this block's tiles */
    tile_body(kb, a, b, AFF(.k[SIM_BX] = 1, .k[SIM_L1] = blocks), bs);
    sim_kb_endloop(kb);
    sim_kb_global_barrier(kb, sync, AFF(.k[SIM_L0] = 1), blocks, 5);
    sim_kb_endloop(kb);
    (void)max;
    return finish(kb, ks, n, err);
}

/* ---- relaunch: the same stages as gbarrier, one kernel launch per stage ---- */
static trapeze_status build_relaunch(const sim_core_config *c, const long *p, sim_kernel **ks,
                                     int max, int *n, trapeze_error *err)
{
    (void)c;
    long tiles = p[0], stages = p[1], bs = p[2];
    if (stages > max)
        return trapeze_fail(err, TRAPEZE_ERANGE, "relaunch: stages=%ld (at most %d)", stages,
                            max);
    for (long st = 0; st < stages; st++) {
        sim_kb *kb = sim_kb_begin("relaunch", SIM_DIM((int)tiles), SIM_DIM((int)bs));
        int a = sim_kb_global(kb, "a", 4 * (uint64_t)tiles * (uint64_t)bs);
        int b = sim_kb_global(kb, "b", 4 * (uint64_t)tiles * (uint64_t)bs);
        tile_body(kb, st % 2 ? b : a, st % 2 ? a : b, AFF(.k[SIM_BX] = 1), bs);
        trapeze_status s = finish(kb, ks, n, err);
        if (s)
            return s;
    }
    return TRAPEZE_OK;
}

/* ---- calibration micro-benchmarks: CPI, empty relaunch, fence barrier ---- */
static trapeze_status build_fma(const sim_core_config *c, const long *p, sim_kernel **ks,
                                int max, int *n, trapeze_error *err)
{
    (void)max;
    long iters = p[0], bs = p[2], blocks = resident_or(c, p[1], bs);
    sim_kb *kb = sim_kb_begin("fma", SIM_DIM((int)blocks), SIM_DIM((int)bs));
    sim_kb_regs(kb, 8);
    sim_kb_loop(kb, AFF(.c = iters));
    for (int r = 1; r <= 4; r++) /* four independent chains keep the pipeline full */
        sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, r, r, r, SIM_NO_REG);
    sim_kb_endloop(kb);
    return finish(kb, ks, n, err);
}

static trapeze_status build_empty(const sim_core_config *c, const long *p, sim_kernel **ks,
                                  int max, int *n, trapeze_error *err)
{
    long launches = p[1], bs = p[2], blocks = resident_or(c, p[0], bs);
    if (launches > max)
        return trapeze_fail(err, TRAPEZE_ERANGE, "empty: launches=%ld (at most %d)", launches, max);
    trapeze_status s = TRAPEZE_OK;
    for (long l = 0; l < launches && !s; l++)
        s = finish(sim_kb_begin("empty", SIM_DIM((int)blocks), SIM_DIM((int)bs)), ks, n, err);
    return s;
}

static trapeze_status build_fencebar(const sim_core_config *c, const long *p, sim_kernel **ks,
                                     int max, int *n, trapeze_error *err)
{
    (void)max;
    long stages = p[1], bs = p[2], blocks = resident_or(c, p[0], bs);
    sim_kb *kb = sim_kb_begin("fencebar", SIM_DIM((int)blocks), SIM_DIM((int)bs));
    sim_kb_regs(kb, 8);
    int sync = sim_kb_global(kb, "sync", 128 * (uint64_t)stages);
    sim_kb_loop(kb, AFF(.c = stages));
    sim_kb_global_barrier(kb, sync, AFF(.k[SIM_L0] = 1), blocks, 5);
    sim_kb_endloop(kb);
    return finish(kb, ks, n, err);
}

static const sim_builtin builtins[] = {
    {"vecadd", "c[i] = a[i] + b[i] on floats",
     {{"n", 1 << 20, "elements"}, {"block", 256, "threads per block"}},
     build_vecadd},
    {"copy", "streaming copy dst[i] = src[i] (DRAM bandwidth)",
     {{"n", 1 << 22, "floats"}, {"block", 256, "threads per block"},
      {"per_thread", 4, "elements per thread (grid-strided loop)"}},
     build_copy},
    {"chase", "pointer chase: one thread, dependent loads (unloaded latency)",
     {{"steps", 256, "dependent loads"}, {"stride", 4096, "bytes between successive loads"}},
     build_chase},
    {"jacobi", "2D 5-point Jacobi on a float grid, clamped boundaries, one launch per sweep",
     {{"nx", 2048, "columns"}, {"ny", 2048, "rows"}, {"bx", 16, "block columns"},
      {"by", 16, "block rows"}, {"iters", 1, "sweeps (kernel launches)"}},
     build_jacobi},
    {"strided", "out[i] = a[i * stride]: one load per thread with a stride",
     {{"n", 1 << 20, "threads"}, {"stride", 1, "elements between neighbouring threads"},
      {"block", 256, "threads per block"}},
     build_strided},
    {"gbarrier", "persistent kernel: stages separated by atomic/fence/spin global barriers",
     {{"tiles", 240, "tiles of work per stage"},
      {"blocks", 0, "persistent blocks (0: all that fit at once)"},
      {"stages", 4, "stages (one barrier each)"}, {"block", 256, "threads per block"}},
     build_gbarrier},
    {"relaunch", "the gbarrier stages as one kernel launch per stage",
     {{"tiles", 240, "blocks per launch"}, {"stages", 4, "launches"},
      {"block", 256, "threads per block"}},
     build_relaunch},
    SIM_SEED_BUILTINS,
    SIM_DIVERGENT_BUILTINS,
    {"fma", "independent FMA chains on all resident blocks (cycles per warp instruction)",
     {{"iters", 256, "loop trips of 4 FMAs"}, {"blocks", 0, "blocks (0: all that fit at once)"},
      {"block", 256, "threads per block"}},
     build_fma},
    {"empty", "launches of blocks that do nothing (kernel relaunch cost)",
     {{"blocks", 0, "blocks (0: all that fit at once)"}, {"launches", 4, "launches"},
      {"block", 256, "threads per block"}},
     build_empty},
    {"fencebar", "persistent blocks doing nothing but global fence barriers",
     {{"blocks", 0, "blocks (0: all that fit at once)"}, {"stages", 4, "barriers"},
      {"block", 256, "threads per block"}},
     build_fencebar},
};

const sim_builtin *sim_builtins(int *n)
{
    *n = (int)(sizeof builtins / sizeof builtins[0]);
    return builtins;
}

const sim_builtin *sim_builtin_find(const char *name)
{
    int n;
    const sim_builtin *b = sim_builtins(&n);
    for (int i = 0; i < n; i++)
        if (!strcmp(b[i].name, name))
            return &b[i];
    return NULL;
}

static int n_params(const sim_builtin *b)
{
    int n = 0;
    while (n < SIM_BUILTIN_MAX_PARAMS && b->params[n].name)
        n++;
    return n;
}

trapeze_status sim_builtin_params(const sim_builtin *b, int argc, char **argv, long *p,
                                  trapeze_error *err)
{
    int np = n_params(b);
    for (int i = 0; i < np; i++)
        p[i] = b->params[i].value;
    for (int a = 0; a < argc; a++) {
        const char *eq = strchr(argv[a], '=');
        if (!eq)
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "%s: expected name=value, got '%s'", b->name, argv[a]);
        size_t len = (size_t)(eq - argv[a]);
        int found = -1;
        for (int i = 0; i < np; i++)
            if (strlen(b->params[i].name) == len && !strncmp(b->params[i].name, argv[a], len))
                found = i;
        if (found < 0)
            return trapeze_fail(err, TRAPEZE_EINVAL, "%s: no parameter '%.*s' (see --list)",
                                b->name, (int)len, argv[a]);
        long v;
        int zero_ok = !strcmp(b->params[found].name, "blocks") && b->params[found].value == 0;
        if (!trapeze_parse_long(eq + 1, &v) || v < (zero_ok ? 0 : 1) || v > (1L << 31) - 1)
            return trapeze_fail(err, TRAPEZE_ERANGE,
                                "%s: parameter %s=%s: expected a whole number from %d to 2^31-1",
                                b->name, b->params[found].name, eq + 1, zero_ok ? 0 : 1);
        p[found] = v;
    }
    return TRAPEZE_OK;
}
