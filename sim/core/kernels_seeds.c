/*
 * kernels_seeds.c - the seeds' kernels (kernels_seeds.h), written as their
 * CUDA sources are: PolyBench/GPU's one thread per row or column looping over
 * the other dimension, and the matrix multiply of Tripathy's locality
 * example. Owns these kernels' shapes only; the table entries live in
 * kernels.c through SIM_SEED_BUILTINS.
 *
 * How source becomes instructions here (what the tests count):
 *  - a thread computes its index with one integer MAD per dimension (one
 *    more for a 2-D flat index) and tests it against n with one IF;
 *  - an accumulator (tmp[i] += ...) lives in a register: loaded before the
 *    loop when the source reads its old value, stored once after it;
 *  - each iteration of a loop over k: one load per array reference, the FP
 *    ops, one integer ADD (k++) and the loop's branch;
 *  - row-major float matrices: A[i][k] is A + 4 (i n + k). Where i is the
 *    thread index, neighbouring lanes are n floats apart: the column-strided
 *    load (32 lines per warp for n >= 32); where it is k, a warp-uniform
 *    broadcast; A[k][i] is a coalesced row access.
 */
#include "common/error.h"
#include "sim/core/kernels_seeds.h"

#define AFF SIM_AFF
#define R_INDEX 0     /* the thread's index registers */
#define R_ACC 1       /* accumulators: r1, r2 */
#define R_LOAD 4      /* loaded operands: r4.. */

/* Loop counter k of the outermost loop. */
static const sim_affine K = {.k[SIM_L0] = 1};

/* i * n + k as a flat element index. */
static sim_affine at(sim_affine i, long n, sim_affine k)
{
    return sim_aff_add(sim_aff_scale(i, n), k);
}

static void load(sim_kb *kb, int reg, int array, sim_affine index)
{
    sim_kb_ld(kb, reg, sim_at1(array, 4, sim_ix(index)));
    sim_kb_uses(kb, R_INDEX);
}

static void store(sim_kb *kb, int array, sim_affine index, int reg)
{
    sim_kb_st(kb, sim_at1(array, 4, sim_ix(index)), reg);
    sim_kb_uses(kb, R_INDEX);
}

static void fp(sim_kb *kb, sim_alu op, int dst, int a, int b)
{
    sim_kb_alu(kb, SIM_OP_FP, op, dst, a, b, dst);
}

/* for (k = 0; k < trips; k++) { loads[0..n_loads) ; acc += l0 * l1 (+= l2 * l3) } */
typedef struct { int array; sim_affine index; } ref;

static void dot_loop(sim_kb *kb, long trips, const ref *loads, int n_loads, int scaled)
{
    sim_kb_loop(kb, AFF(.c = trips));
    for (int i = 0; i < n_loads; i++)
        load(kb, R_LOAD + i, loads[i].array, loads[i].index);
    for (int i = 0; i + 1 < n_loads; i += 2) {
        if (scaled) /* alpha * a: syrk and syr2k scale inside the loop */
            fp(kb, SIM_ALU_MUL, R_LOAD + i, R_LOAD + i, SIM_NO_REG);
        fp(kb, SIM_ALU_MAD, R_ACC, R_LOAD + i, R_LOAD + i + 1);
    }
    if (n_loads % 2) /* a third operand (gesummv's b row) with the shared x */
        fp(kb, SIM_ALU_MAD, R_ACC + 1, R_LOAD + n_loads - 1, R_LOAD + 1);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, R_INDEX, R_INDEX, SIM_NO_REG, SIM_NO_REG);
    sim_kb_endloop(kb);
}

/* One thread per element t = bx * block + tx of a length-n vector, t < n. */
static sim_kb *begin_vector(const char *name, long n, long block, sim_affine *t)
{
    sim_kb *kb = sim_kb_begin(name, SIM_DIM((int)((n + block - 1) / block)), SIM_DIM((int)block));
    *t = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = block);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, R_INDEX, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_if(kb, sim_pred1(sim_aff_add(*t, AFF(.c = -n)), SIM_LT));
    return kb;
}

/* One thread per element (i, j) of an n x n matrix: j = x, i = y. */
static sim_kb *begin_matrix(const char *name, long n, long bx, long by, sim_affine *i,
                            sim_affine *j)
{
    sim_kb *kb = sim_kb_begin(name, SIM_DIM((int)((n + bx - 1) / bx), (int)((n + by - 1) / by)),
                              SIM_DIM((int)bx, (int)by));
    *j = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = bx);
    *i = AFF(.k[SIM_TY] = 1, .k[SIM_BY] = by);
    for (int r = 0; r < 3; r++)   /* j, i, i * n + j */
        sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, R_INDEX, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_if(kb, sim_pred_and(sim_pred1(sim_aff_add(*j, AFF(.c = -n)), SIM_LT),
                               sim_aff_add(*i, AFF(.c = -n)), SIM_LT));
    return kb;
}

static trapeze_status finish_kernel(sim_kb *kb, sim_kernel **ks, int *n, trapeze_error *err)
{
    trapeze_status s = sim_kb_end(kb, &ks[*n], err);
    *n += s == TRAPEZE_OK;
    return s;
}

/* Closes the index test and hands the kernel over. */
static trapeze_status end_kernel(sim_kb *kb, sim_kernel **ks, int *n, trapeze_error *err)
{
    sim_kb_endif(kb);
    return finish_kernel(kb, ks, n, err);
}

/* A matrix-vector product over an n x n matrix: vec[out][t] (+)= sum_k M .
 * vec[in][k], one thread per t; `rows` picks M[t][k] (thread per row:
 * column-strided) or M[k][t] (thread per column: coalesced). The vectors
 * are laid out in the order of `vec` in every kernel of a benchmark, so a
 * vector one kernel writes is where the next reads it. */
typedef struct {
    const char *vec[3];
    int in, out, rows, reads_out;
} matvec_shape;

static trapeze_status matvec(const char *name, const long *p, const matvec_shape *m,
                             sim_kernel **ks, int *count, trapeze_error *err)
{
    long n = p[0];
    sim_affine t;
    sim_kb *kb = begin_vector(name, n, p[1], &t);
    int a = sim_kb_global(kb, "A", 4 * (uint64_t)n * (uint64_t)n), v[3];
    for (int i = 0; i < 3; i++)
        v[i] = sim_kb_global(kb, m->vec[i], 4 * (uint64_t)n);
    if (m->reads_out)
        load(kb, R_ACC, v[m->out], t);
    ref loads[2] = {{a, m->rows ? at(t, n, K) : at(K, n, t)}, {v[m->in], K}};
    dot_loop(kb, n, loads, 2, 0);
    store(kb, v[m->out], t, R_ACC);
    return end_kernel(kb, ks, count, err);
}

/* A benchmark of two matrix-vector kernels. */
static trapeze_status matvec_pair(const char *k1, const matvec_shape *m1, const char *k2,
                                  const matvec_shape *m2, const long *p, sim_kernel **ks,
                                  int max, int *count, trapeze_error *err)
{
    if (max < 2)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: 2 launches (at most %d)", k1, max);
    trapeze_status s = matvec(k1, p, m1, ks, count, err);
    return s ? s : matvec(k2, p, m2, ks, count, err);
}

/* ---- matmul: C[i][j] = sum_k A[i][k] B[k][j] (Tripathy's MM: n 200, 16 x 16) ---- */
SIM_SEED_BUILD(sim_seed_matmul)
{
    (void)c;
    (void)max;
    long n = p[0], b = p[1];
    sim_affine i, j;
    sim_kb *kb = begin_matrix("matmul", n, b, b, &i, &j);
    uint64_t bytes = 4 * (uint64_t)n * (uint64_t)n;
    int a = sim_kb_global(kb, "A", bytes), bm = sim_kb_global(kb, "B", bytes);
    int cm = sim_kb_global(kb, "C", bytes);
    ref loads[2] = {{a, at(i, n, K)}, {bm, at(K, n, j)}};
    dot_loop(kb, n, loads, 2, 0);
    store(kb, cm, at(i, n, j), R_ACC);
    return end_kernel(kb, ks, count, err);
}

/* ---- matmul_tiled: the CUDA SDK's shared-memory version; per tile p each
 * thread stages A[i][p t + tx] and B[p t + ty][j], __syncthreads, t unrolled
 * FMAs over As[ty][k] Bs[k][tx], __syncthreads ---- */
SIM_SEED_BUILD(sim_seed_matmul_tiled)
{
    (void)c;
    (void)max;
    long n = p[0], t = p[1];
    if (n % t)
        return trapeze_fail(err, TRAPEZE_ERANGE, "matmul_tiled: n=%ld is not a multiple of "
                            "tile=%ld", n, t);
    sim_kb *kb = sim_kb_begin("matmul_tiled", SIM_DIM((int)(n / t), (int)(n / t)),
                              SIM_DIM((int)t, (int)t));
    uint64_t bytes = 4 * (uint64_t)n * (uint64_t)n, tile = 4 * (uint64_t)t * (uint64_t)t;
    int a = sim_kb_global(kb, "A", bytes), bm = sim_kb_global(kb, "B", bytes);
    int cm = sim_kb_global(kb, "C", bytes);
    int as = sim_kb_shared(kb, "As", tile), bs = sim_kb_shared(kb, "Bs", tile);
    sim_affine tx = AFF(.k[SIM_TX] = 1), ty = AFF(.k[SIM_TY] = 1);
    sim_affine j = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = t), i = AFF(.k[SIM_TY] = 1, .k[SIM_BY] = t);
    sim_affine pt = AFF(.k[SIM_L0] = t);
    for (int r = 0; r < 2; r++)   /* i, j */
        sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_MAD, R_INDEX, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_loop(kb, AFF(.c = n / t));
    load(kb, R_LOAD, a, at(i, n, sim_aff_add(pt, tx)));
    store(kb, as, at(ty, t, tx), R_LOAD);
    load(kb, R_LOAD + 1, bm, at(sim_aff_add(pt, ty), n, j));
    store(kb, bs, at(ty, t, tx), R_LOAD + 1);
    sim_kb_bar(kb);
    for (long k = 0; k < t; k++) {
        load(kb, R_LOAD + 2, as, at(ty, t, AFF(.c = k)));
        load(kb, R_LOAD + 3, bs, at(AFF(.c = k), t, tx));
        fp(kb, SIM_ALU_MAD, R_ACC, R_LOAD + 2, R_LOAD + 3);
    }
    sim_kb_bar(kb);
    sim_kb_alu(kb, SIM_OP_INT, SIM_ALU_ADD, R_INDEX, R_INDEX, SIM_NO_REG, SIM_NO_REG);
    sim_kb_endloop(kb);
    store(kb, cm, at(i, n, j), R_ACC);
    return finish_kernel(kb, ks, count, err);
}

/* ---- atax: tmp[i] += A[i][j] x[j] per row i; y[j] += A[i][j] tmp[i] per column j ---- */
SIM_SEED_BUILD(sim_seed_atax)
{
    (void)c;
    static const matvec_shape k1 = {{"x", "tmp", "y"}, 0, 1, 1, 1}, k2 = {{"x", "tmp", "y"}, 1, 2, 0, 1};
    return matvec_pair("atax_kernel1", &k1, "atax_kernel2", &k2, p, ks, max, count, err);
}

/* ---- bicg: s[j] = sum_i A[i][j] r[i] per column j; q[i] = sum_j A[i][j] p[j] per row i ---- */
SIM_SEED_BUILD(sim_seed_bicg)
{
    (void)c;
    static const matvec_shape k1 = {{"r", "s", "p"}, 0, 1, 0, 0}, k2 = {{"p", "q", "r"}, 0, 1, 1, 0};
    return matvec_pair("bicg_kernel1", &k1, "bicg_kernel2", &k2, p, ks, max, count, err);
}

/* ---- mvt: x1[i] += a[i][j] y1[j] per row i; x2[i] += a[j][i] y2[j] per column i ---- */
SIM_SEED_BUILD(sim_seed_mvt)
{
    (void)c;
    static const matvec_shape k1 = {{"y1", "x1", "x2"}, 0, 1, 1, 1}, k2 = {{"y2", "x2", "x1"}, 0, 1, 0, 1};
    return matvec_pair("mvt_kernel1", &k1, "mvt_kernel2", &k2, p, ks, max, count, err);
}

/* ---- gesummv: tmp[i] += a[i][j] x[j]; y[i] += b[i][j] x[j]; then
 * y[i] = alpha tmp[i] + beta y[i], one thread per row i ---- */
SIM_SEED_BUILD(sim_seed_gesummv)
{
    (void)c;
    (void)max;
    long n = p[0];
    sim_affine t;
    sim_kb *kb = begin_vector("gesummv", n, p[1], &t);
    uint64_t bytes = 4 * (uint64_t)n * (uint64_t)n;
    int a = sim_kb_global(kb, "a", bytes), b = sim_kb_global(kb, "b", bytes);
    int x = sim_kb_global(kb, "x", 4 * (uint64_t)n), tmp = sim_kb_global(kb, "tmp", 4 * (uint64_t)n);
    int y = sim_kb_global(kb, "y", 4 * (uint64_t)n);
    load(kb, R_ACC, tmp, t);
    load(kb, R_ACC + 1, y, t);
    ref loads[3] = {{a, at(t, n, K)}, {x, K}, {b, at(t, n, K)}};
    dot_loop(kb, n, loads, 3, 0);
    fp(kb, SIM_ALU_MUL, R_ACC + 1, R_ACC + 1, SIM_NO_REG);   /* beta y */
    fp(kb, SIM_ALU_MAD, R_ACC + 1, R_ACC, SIM_NO_REG);       /* + alpha tmp */
    store(kb, tmp, t, R_ACC);
    store(kb, y, t, R_ACC + 1);
    return end_kernel(kb, ks, count, err);
}

/* syrk and syr2k: c[i][j] *= beta, then for k: c[i][j] += alpha a[i][k] b[j][k]
 * (+ alpha b[i][k] a[j][k] for syr2k); a[j][k] with j = x is column-strided. */
static trapeze_status syr(const char *name, const long *p, int two, sim_kernel **ks, int *count,
                          trapeze_error *err)
{
    long n = p[0];
    sim_affine i, j;
    sim_kb *kb = begin_matrix(name, n, p[1], p[2], &i, &j);
    uint64_t bytes = 4 * (uint64_t)n * (uint64_t)n;
    int a = sim_kb_global(kb, "a", bytes), b = two ? sim_kb_global(kb, "b", bytes) : a;
    int cm = sim_kb_global(kb, "c", bytes);
    load(kb, R_ACC, cm, at(i, n, j));
    fp(kb, SIM_ALU_MUL, R_ACC, R_ACC, SIM_NO_REG);   /* beta c */
    ref loads[4] = {{a, at(i, n, K)}, {b, at(j, n, K)}, {b, at(i, n, K)}, {a, at(j, n, K)}};
    dot_loop(kb, n, loads, two ? 4 : 2, 1);
    store(kb, cm, at(i, n, j), R_ACC);
    return end_kernel(kb, ks, count, err);
}

SIM_SEED_BUILD(sim_seed_syrk)
{
    (void)c;
    (void)max;
    return syr("syrk", p, 0, ks, count, err);
}

SIM_SEED_BUILD(sim_seed_syr2k)
{
    (void)c;
    (void)max;
    return syr("syr2k", p, 1, ks, count, err);
}
