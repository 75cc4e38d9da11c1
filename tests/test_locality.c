/*
 * The locality graph (sim/locality) against the seeds' numbers and hand
 * counts:
 *  - PAVER's matrix multiply (Tripathy 2021 Fig. 3.6, Table 3.2): N = 200,
 *    16 x 16 blocks, 13 x 13 grid: TBs of one grid row share the 16 rows of
 *    A they read (16 x 200 = 3200 elements), of one column the 16 columns
 *    of B (3200); 8 x 200 = 1600 where the partial last row or column is
 *    involved; nothing otherwise; SpScore 1 - 4056/169^2 = 0.858;
 *  - LocalityGuru's counts (F10): 2MM (N 256, grid 8 x 32, block 32 x 8)
 *    row-wise 2048 and column-wise 8192 (C read transposed shares
 *    nothing); GEMM (N 64, grid 2 x 8) row-wise 512, column-wise 2048;
 *  - a 5-point stencil: side neighbours share both halos (16 + 16), corner
 *    neighbours the two elements each reads of the other's halo, TBs two
 *    apart nothing; footprint 16 x 16 + 4 x 16;
 *  - the same graph from the kernel's Accel-Sim trace;
 *  - the CSV files round trip, and bad ones are refused with file and line;
 *  - the explicit grouping file (CONTRACTS.md; common/grouping.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim/core/gpu_sim.h"
#include "sim/locality/locality.h"
#include "sim/trace/trace.h"

#define AFF SIM_AFF

static trapeze_config *gtx480(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err))
        fprintf(stderr, "%s\n", err.message);
    return cfg;
}

static const trapeze_locality_edge *find_edge(const trapeze_locality_graph *g, long i, long j)
{
    for (long e = 0; e < g->n_edges; e++)
        if (g->edges[e].tb_i == i && g->edges[e].tb_j == j)
            return &g->edges[e];
    return NULL;
}

static long long shared(const trapeze_locality_graph *g, long i, long j)
{
    const trapeze_locality_edge *e = i < j ? find_edge(g, i, j) : find_edge(g, j, i);
    return e ? e->shared_elements : 0;
}

static void test_matmul(trapeze_config *cfg)
{
    trapeze_locality_graph g;
    trapeze_error err;
    char *params[] = {"n=200", "block=16"};
    CHECK_OK(trapeze_locality_builtin(cfg, "matmul", params, 2, 0, &g, &err));
    CHECK(g.n_tbs == 169 && g.grid[0] == 13 && g.grid[1] == 13);
    long wrong = 0, n3200 = 0, n1600 = 0;
    for (long i = 0; i < 169; i++)
        for (long j = i + 1; j < 169; j++) {
            long bxi = i % 13, byi = i / 13, bxj = j % 13, byj = j / 13;
            long long want = 0;
            if (byi == byj)
                want = (byi == 12 ? 8 : 16) * 200;
            else if (bxi == bxj)
                want = (bxi == 12 ? 8 : 16) * 200;
            wrong += shared(&g, i, j) != want;
            n3200 += want == 3200;
            n1600 += want == 1600;
        }
    CHECK(wrong == 0);
    CHECK(n3200 == 3744 / 2 && n1600 == 312 / 2);   /* the digest's ordered-pair counts */
    CHECK_NEAR(trapeze_locality_spscore(&g), 1.0 - 4056.0 / (169.0 * 169.0), 1e-12);
    CHECK(trapeze_locality_spscore(&g) >= 0.857 && trapeze_locality_spscore(&g) < 0.859);
    /* footprint: 16 rows of A and 16 columns of B, 200 each; the corner TB 8 + 8 */
    CHECK(g.elements[0] == 6400 && g.elements[168] == 3200);
    trapeze_locality_graph_free(&g);
}

/* tmp[i][j] = sum_k A[i][k] B[k][j] (+ C[j][i] read once: 2MM's transposed
 * read), i = y, j = x, one thread per element. */
static sim_kernel *polybench_mm(long n, int gx, int gy, int bx, int by, int transposed)
{
    sim_kb *kb = sim_kb_begin("mm", SIM_DIM(gx, gy), SIM_DIM(bx, by));
    uint64_t bytes = 4 * (uint64_t)n * (uint64_t)n;
    int a = sim_kb_global(kb, "A", bytes), b = sim_kb_global(kb, "B", bytes);
    int c = sim_kb_global(kb, "C", bytes);
    sim_affine i = AFF(.k[SIM_TY] = 1, .k[SIM_BY] = by), j = AFF(.k[SIM_TX] = 1, .k[SIM_BX] = bx);
    sim_affine k = AFF(.k[SIM_L0] = 1);
    if (transposed)
        sim_kb_ld(kb, 3, sim_at2(c, 4, sim_ix(j), sim_ix(i), n));
    sim_kb_loop(kb, AFF(.c = n));
    sim_kb_ld(kb, 1, sim_at2(a, 4, sim_ix(i), sim_ix(k), n));
    sim_kb_ld(kb, 2, sim_at2(b, 4, sim_ix(k), sim_ix(j), n));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 3, 1, 2, 3);
    sim_kb_endloop(kb);
    sim_kernel *out = NULL;
    trapeze_error err;
    if (sim_kb_end(kb, &out, &err))
        fprintf(stderr, "%s\n", err.message);
    return out;
}

static void check_rows_cols(const char *name, long n, int gx, int gy, int bx, int by,
                            long long row, long long col)
{
    sim_kernel *k = polybench_mm(n, gx, gy, bx, by, !strcmp(name, "2mm"));
    trapeze_locality_graph g;
    trapeze_error err;
    CHECK(k && sim_locality_build(k, 128, &g, &err) == TRAPEZE_OK);
    if (!k)
        return;
    long wrong = 0, edges = 0;
    for (long t = 0; t < g.n_tbs; t++)
        for (long u = t + 1; u < g.n_tbs; u++) {
            long long want = t / gx == u / gx ? row : t % gx == u % gx ? col : 0;
            wrong += shared(&g, t, u) != want;
            edges += want > 0;
        }
    if (wrong)
        fprintf(stderr, "%s: %ld pairs differ\n", name, wrong);
    CHECK(wrong == 0 && edges > 0);
    trapeze_locality_graph_free(&g);
    sim_kernel_destroy(k);
}

/* What a strided load moves (out[i] = a[i * stride], 4-byte floats, 256
 * threads a TB, no two TBs reading one line): per TB 256 elements; stride
 * 32 (128 B) puts each in its own line, one sector of it: 256 sectors,
 * 256 lines, 8,192 bytes fetched sectored against 32,768 in whole lines;
 * stride 8 (32 B) one element a sector, four sectors a line: 256 sectors,
 * 64 lines; stride 1: 32 sectors, 8 lines, every byte used. */
static void test_strided_sectors(trapeze_config *cfg)
{
    static const struct { const char *stride; long long sectors, lines; } c[] = {
        {"stride=32", 256, 256}, {"stride=8", 256, 64}, {"stride=1", 32, 8}};
    for (int i = 0; i < 3; i++) {
        trapeze_error err;
        char *params[] = {"n=1024", (char *)c[i].stride};
        trapeze_locality_graph g;
        CHECK_OK(trapeze_locality_builtin(cfg, "strided", params, 2, 0, &g, &err));
        CHECK(g.n_tbs == 4 && g.n_edges == 0);
        for (long t = 0; t < g.n_tbs; t++)
            CHECK(g.elements[t] == 256 && g.sectors[t] == c[i].sectors &&
                  g.lines[t] == c[i].lines);
        CHECK(g.sectors[0] * g.sector_bytes == (i == 0 ? 8192 : i == 1 ? 8192 : 1024));
        trapeze_locality_graph_free(&g);
    }
}

/* The 5-point Jacobi on a 64 x 64 grid of 16 x 16 blocks (4 x 4 TBs). */
static void test_stencil(trapeze_config *cfg, trapeze_locality_graph *g)
{
    trapeze_error err;
    char *params[] = {"nx=64", "ny=64"};
    CHECK_OK(trapeze_locality_builtin(cfg, "jacobi", params, 2, 0, g, &err));
    CHECK(g->n_tbs == 16);
    long wrong = 0;
    for (long t = 0; t < 16; t++)
        for (long u = t + 1; u < 16; u++) {
            long dx = labs(t % 4 - u % 4), dy = labs(t / 4 - u / 4);
            long long want = dx + dy == 1 ? 32 : (dx == 1 && dy == 1) ? 2 : 0;
            wrong += shared(g, t, u) != want;
        }
    CHECK(wrong == 0);
    /* interior TB 5: its tile and 4 halo strips; corner TB 0: two strips
     * (the clamped ones fall in its own tile) */
    CHECK(g->elements[5] == 256 + 4 * 16 && g->elements[0] == 256 + 2 * 16);
    /* lines: a row of a tile is 64 B, half a line: TBs 0 and 1 read the same
     * 17 lines of rows 0..16, TBs 0 and 4 the lines of rows 15 and 16 */
    CHECK(find_edge(g, 0, 1) && find_edge(g, 0, 1)->shared_lines == 17);
    CHECK(find_edge(g, 0, 4) && find_edge(g, 0, 4)->shared_lines == 2);
    /* sectors (32 B, 8 floats): TB 0 reads its tile's 16 rows of 2 sectors,
     * the right halo column (a sector per row) and the row below (2): 50;
     * TB 5 its tile's 32, two halo columns 32 and two halo rows 4: 68. TBs
     * 0 and 1 share, per row 0..15, the sectors of columns 8-15 and 16-23
     * (32), TBs 0 and 4 the two sectors of row 15 and of row 16 (4) */
    CHECK(g->sector_bytes == 32 && g->sectors[0] == 50 && g->sectors[5] == 68);
    CHECK(find_edge(g, 0, 1) && find_edge(g, 0, 1)->shared_sectors == 32);
    CHECK(find_edge(g, 0, 4) && find_edge(g, 0, 4)->shared_sectors == 4);
    /* the stores: 64 x 64 floats written once, a warp's two 16-float rows
     * four 32-byte sectors: 4096 * 4 / 32 */
    CHECK(g->store_sectors == 512);
}

/* The same TBs, footprints and edges; the sectors too when asked (a CSV
 * holds none). */
static int same_graph(const trapeze_locality_graph *a, const trapeze_locality_graph *b,
                      int sectors)
{
    if (a->n_tbs != b->n_tbs || a->n_edges != b->n_edges || memcmp(a->grid, b->grid, sizeof a->grid))
        return 0;
    for (long t = 0; t < a->n_tbs; t++)
        if (a->elements[t] != b->elements[t] || a->lines[t] != b->lines[t] ||
            (sectors && a->sectors[t] != b->sectors[t]))
            return 0;
    for (long e = 0; e < a->n_edges; e++) {
        const trapeze_locality_edge *x = &a->edges[e], *y = &b->edges[e];
        if (x->tb_i != y->tb_i || x->tb_j != y->tb_j || x->shared_elements != y->shared_elements ||
            x->shared_lines != y->shared_lines || (sectors && x->shared_sectors != y->shared_sectors))
            return 0;
    }
    return 1;
}

static void test_trace(trapeze_config *cfg, const trapeze_locality_graph *program)
{
    char dir[] = "/tmp/trapeze-locality-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    sim_core_config core;
    trapeze_error err;
    sim_kernel *ks[1];
    int nk = 0;
    long p[SIM_BUILTIN_MAX_PARAMS];
    char *params[] = {"nx=64", "ny=64"};
    const sim_builtin *b = sim_builtin_find("jacobi");
    CHECK_OK(sim_core_config_read(cfg, &core, &err));
    CHECK_OK(sim_builtin_params(b, 2, params, p, &err));
    CHECK_OK(b->build(&core, p, ks, 1, &nk, &err));
    CHECK_OK(sim_trace_export(ks, 1, dir, &err));
    char list[256];
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    trapeze_locality_graph g;
    CHECK_OK(trapeze_locality_trace(list, 0, &g, &err));
    CHECK(same_graph(&g, program, 1));
    CHECK(g.store_sectors == program->store_sectors);   /* the trace's stores too */
    int insts_same = 1;   /* and its TBs' warp instructions (the grouping budget's) */
    for (long t = 0; t < g.n_tbs; t++)
        insts_same &= g.warp_insts[t] == program->warp_insts[t] && g.warp_insts[t] > 0;
    CHECK(insts_same);
    trapeze_locality_graph_free(&g);
    CHECK(trapeze_locality_trace(list, 1, &g, &err) == TRAPEZE_ERANGE);
    sim_kernel_destroy(ks[0]);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_csv(const trapeze_locality_graph *g)
{
    trapeze_error err;
    char e[64], f[64];   /* per process: test runs may overlap */
    snprintf(e, sizeof e, "/tmp/trapeze-loc-%d-edges.csv", (int)getpid());
    snprintf(f, sizeof f, "/tmp/trapeze-loc-%d-fp.csv", (int)getpid());
    CHECK_OK(trapeze_locality_write_csv(g, e, f, &err));
    trapeze_locality_graph back;
    CHECK_OK(trapeze_locality_read_csv(e, f, &back, &err));
    CHECK(same_graph(&back, g, 0) && !back.sectors && back.sector_bytes == 0);
    trapeze_locality_graph_free(&back);
    /* an edge out of order */
    write_text(e, "tb_i,tb_j,shared_elements,shared_lines\n0,4,32,2\n0,1,32,17\n");
    CHECK(trapeze_locality_read_csv(e, f, &back, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "edges.csv:3: field tb_i") != NULL);
    /* a wrong header, a non-number */
    write_text(e, "tb_i,tb_k,shared_elements,shared_lines\n");
    CHECK(trapeze_locality_read_csv(e, f, &back, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":1: header field 2") != NULL);
    write_text(e, "tb_i,tb_j,shared_elements,shared_lines\n0,1,x,17\n");
    CHECK(trapeze_locality_read_csv(e, f, &back, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":2: field shared_elements") != NULL);
    /* more shared than either footprint */
    write_text(e, "tb_i,tb_j,shared_elements,shared_lines\n0,1,9999,17\n");
    CHECK(trapeze_locality_read_csv(e, f, &back, &err) == TRAPEZE_EPARSE);
    remove(e);
    remove(f);
}

static void test_grouping(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/trapeze-grouping-%d.csv", (int)getpid());
    trapeze_grouping g;
    trapeze_error err;
    write_text(path, "tb,group,order\n0,1,1\n1,0,0\n2,1,0\n3,0,1\n");
    CHECK_OK(trapeze_grouping_load(path, 4, 2, &g, &err));
    CHECK(g.n_tbs == 4 && g.n_groups == 2);
    CHECK(g.group[0] == 1 && g.order[0] == 1 && g.group[2] == 1 && g.order[2] == 0);
    CHECK_OK(trapeze_grouping_save(path, &g, &err));
    trapeze_grouping h;
    CHECK_OK(trapeze_grouping_load(path, 4, 0, &h, &err));
    CHECK(h.n_tbs == 4 && !memcmp(h.group, g.group, 4 * sizeof *g.group));
    trapeze_grouping_free(&h);
    trapeze_grouping_free(&g);
    struct { const char *text; long n; int groups; const char *msg; } bad[] = {
        {"tb,group,order\n0,0,0\n1,0,1\n2,0,2\n", 4, 2, "TB 3 missing"},
        {"tb,group,order\n0,0,0\n1,0,1\n1,1,0\n3,1,1\n", 4, 2, ":4: field tb: TB 1 listed twice"},
        {"tb,group,order\n0,0,0\n1,0,2\n2,1,0\n3,1,1\n", 4, 2, "TB 1: order 2 outside 0..1 of group 0"},
        {"tb,group,order\n0,0,0\n1,0,0\n2,1,0\n3,1,1\n", 4, 2, "group 0 order 0 taken twice"},
        {"tb,group,order\n0,0,0\n1,2,0\n2,1,0\n3,1,1\n", 4, 2, ":3: field group: 2 outside 0..1"},
        {"tb,group,order\n0,0,0\n4,0,1\n", 4, 2, ":3: field tb: 4 outside 0..3"},
        {"tb,order,group\n", 4, 2, ":1: header field 2"},
        {"tb,group,order\n0,0,-1\n", 4, 2, ":2: field order: -1 outside"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i].text);
        CHECK(trapeze_grouping_load(path, bad[i].n, bad[i].groups, &g, &err) != TRAPEZE_OK);
        if (!strstr(err.message, bad[i].msg))
            fprintf(stderr, "grouping case %zu: %s\n", i, err.message);
        CHECK(strstr(err.message, bad[i].msg) != NULL);
    }
    remove(path);
}

int main(void)
{
    trapeze_config *cfg = gtx480();
    CHECK(cfg != NULL);
    if (!cfg)
        return check_report("test_locality");
    test_matmul(cfg);
    test_strided_sectors(cfg);
    check_rows_cols("2mm", 256, 8, 32, 32, 8, 8 * 256, 32 * 256);
    check_rows_cols("gemm", 64, 2, 8, 32, 8, 512, 2048);
    trapeze_locality_graph stencil;
    test_stencil(cfg, &stencil);
    test_trace(cfg, &stencil);
    test_csv(&stencil);
    trapeze_locality_graph_free(&stencil);
    test_grouping();
    trapeze_config_destroy(cfg);
    return check_report("test_locality");
}
