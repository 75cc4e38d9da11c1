/*
 * The seeds' kernels (sim/core/kernels_seeds.c) on the GTX 480 config at
 * small sizes, against counts worked out by hand from their sources:
 * warp instructions, global loads and stores (warp instructions) and line
 * requests to the memory system (coalescing). A column-strided load (a
 * thread per row of a row-major matrix) is 32 requests per warp; a row load
 * (a thread per column) is one per 128-byte line; a warp-uniform load is 1.
 * Each kernel also gives the same statistics twice.
 *
 * Conventions of the hand counts (see kernels_seeds.c): per warp, one
 * integer MAD per index (3 for 2-D kernels: j, i, i n + j), one IF, the
 * accumulator's load where the source reads it, per iteration the loads,
 * FP ops, k++ and the loop branch, the stores, EXIT.
 */
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"

typedef struct {
    const char *kernel;
    const char *args[3];
    int launch;                 /* which launch of the benchmark */
    uint64_t insts, gld, gst, requests;
} expected;

/* n = 64, block = 32: 2 warps, 64 iterations. Per warp, matvec kernels:
 *   row (column-strided A): 1 + 64 x (32 + 1) + 1 requests with the old
 *   value read (atax 1, mvt 1), 64 x 33 + 1 without (bicg 2);
 *   column (coalesced A):   1 + 64 x (1 + 1) + 1 (atax 2, mvt 2), 64 x 2 + 1 (bicg 1);
 *   instructions: index, IF, [load], 64 x (2 loads, FMA, k++, branch), store, EXIT
 *   = 325 with the load, 324 without. */
static const expected cases[] = {
    {"atax", {"n=64", "block=32"}, 0, 2 * 325, 2 * 129, 2, 2 * 2114},
    {"atax", {"n=64", "block=32"}, 1, 2 * 325, 2 * 129, 2, 2 * 130},
    {"bicg", {"n=64", "block=32"}, 0, 2 * 324, 2 * 128, 2, 2 * 129},
    {"bicg", {"n=64", "block=32"}, 1, 2 * 324, 2 * 128, 2, 2 * 2113},
    {"mvt", {"n=64", "block=32"}, 0, 2 * 325, 2 * 129, 2, 2 * 2114},
    {"mvt", {"n=64", "block=32"}, 1, 2 * 325, 2 * 129, 2, 2 * 130},
    /* gesummv: 2 old values, 64 x (a strided, x uniform, b strided, 2 FMA,
     * k++, branch), MUL, MAD, 2 stores, EXIT = 2 + 2 + 448 + 2 + 2 + 1;
     * requests 2 + 64 x (32 + 1 + 32) + 2 */
    {"gesummv", {"n=64", "block=32"}, 0, 2 * 457, 2 * 194, 4, 2 * 4164},
    /* syrk n = 32 in 32 x 8 blocks: 4 blocks x 8 warps, a warp = one row i,
     * j = 0..31. 3 + IF + load c + MUL + 32 x (a[i][k] uniform, a[j][k]
     * strided, MUL, FMA, k++, branch) + store + EXIT = 200; requests
     * 1 + 32 x (1 + 32) + 1 = 1058 */
    {"syrk", {"n=32", "bx=32", "by=8"}, 0, 32 * 200, 32 * 65, 32, 32 * 1058},
    /* syr2k: 4 loads (2 uniform, 2 strided), 2 MUL, 2 FMA per iteration:
     * 3 + 1 + 1 + 1 + 32 x 10 + 1 + 1 = 328; 1 + 32 x 66 + 1 = 2114 requests */
    {"syr2k", {"n=32", "bx=32", "by=8"}, 0, 32 * 328, 32 * 129, 32, 32 * 2114},
    /* matmul n = 32, 16 x 16 blocks: 4 blocks x 8 warps, a warp = 2 rows x 16
     * columns. 3 + IF + 32 x 5 + store + EXIT = 166; per iteration A[i][k]
     * 2 lines (2 rows), B[k][j] 1 (64 bytes); store 2 lines: 32 x 3 + 2 */
    {"matmul", {"n=32", "block=16"}, 0, 32 * 166, 32 * 64, 32, 32 * 98},
    /* matmul_tiled n = 32, tile 16: 2 tiles x (ld A, st As, ld B, st Bs, bar,
     * 16 x (2 shared loads, FMA), bar, k++, branch) = 2 x 56, + 2 index
     * + store + EXIT = 116; global lines per tile: A 2 rows, B 2 rows */
    {"matmul_tiled", {"n=32", "tile=16"}, 0, 32 * 116, 32 * 4, 32, 32 * (2 * 4 + 2)},
};

static int run(const trapeze_config *cfg, const expected *e, sim_kernel_stats *st, int max)
{
    trapeze_error err;
    const sim_builtin *b = sim_builtin_find(e->kernel);
    long p[SIM_BUILTIN_MAX_PARAMS];
    int argc = 0, n = 0;
    while (argc < 3 && e->args[argc])
        argc++;
    sim_gpu *g = NULL;
    sim_kernel *ks[4] = {0};
    CHECK(b != NULL);
    if (!b || sim_builtin_params(b, argc, (char **)e->args, p, &err) ||
        sim_gpu_create(cfg, NULL, &g, &err) || b->build(sim_gpu_config(g), p, ks, 4, &n, &err)) {
        fprintf(stderr, "%s: %s\n", e->kernel, err.message);
        CHECK(0);
        sim_gpu_destroy(g);
        return 0;
    }
    int ran = 0;
    for (; ran < n && ran < max; ran++)
        CHECK_OK(sim_gpu_run(g, ks[ran], &st[ran], &err));
    for (int i = 0; i < n; i++)
        sim_kernel_destroy(ks[i]);
    sim_gpu_destroy(g);
    return ran;
}

int main(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    if (!cfg)
        return check_report("test_seeds");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const expected *e = &cases[c];
        sim_kernel_stats a[2], b[2];
        int na = run(cfg, e, a, 2), nb = run(cfg, e, b, 2);
        CHECK(na == nb && na > e->launch);
        if (na <= e->launch || nb != na)
            continue;
        const sim_sm_stats *t = &a[e->launch].total;
        int before = check_failures;
        CHECK(t->warp_insts == e->insts);
        CHECK(t->gld_insts == e->gld);
        CHECK(t->gst_insts == e->gst);
        CHECK(t->mem_requests == e->requests);
        CHECK(t->atomic_insts == 0);
        /* the same statistics twice */
        CHECK(a[e->launch].cycles == b[e->launch].cycles);
        CHECK(memcmp(&a[e->launch].total, &b[e->launch].total, sizeof a[0].total) == 0);
        CHECK(memcmp(&a[e->launch].mem, &b[e->launch].mem, sizeof a[0].mem) == 0);
        if (check_failures != before)
            fprintf(stderr, "  %s launch %d: insts %llu gld %llu gst %llu requests %llu\n",
                    e->kernel, e->launch, (unsigned long long)t->warp_insts,
                    (unsigned long long)t->gld_insts, (unsigned long long)t->gst_insts,
                    (unsigned long long)t->mem_requests);
        if (!strcmp(e->kernel, "matmul_tiled")) {
            /* 2 tiles x 32 shared loads, 2 x 2 shared stores per warp, every one
             * conflict-free: As[ty][k] is 2 words 16 banks apart, Bs[k][tx] 16
             * words broadcast to both half-warps */
            CHECK(t->shld_insts == 32 * 64 && t->shst_insts == 32 * 4);
            CHECK(t->shmem_passes == t->shld_insts + t->shst_insts);
        }
        for (int i = 0; i < na; i++) {
            sim_kernel_stats_free(&a[i]);
            sim_kernel_stats_free(&b[i]);
        }
    }
    /* the column-strided kernel costs 31 more requests per warp load of A
     * than its coalesced twin: 2 warps x 64 iterations x 31 */
    CHECK(cases[0].requests - cases[1].requests == 2 * 64 * 31);
    trapeze_config_destroy(cfg);
    return check_report("test_seeds");
}
