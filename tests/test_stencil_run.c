/*
 * The four dissertation stencils (PathFinder, HotSpot, Poisson, Cell)
 * simulated end to end on the GTX 480 config at EVERY valid trapezoid height
 * (Eq. 5.20) in both sync modes, on grids shrunk to two tiles along x so the
 * whole sweep stays fast. Each run must finish with no memory request
 * outstanding (sim_gpu_run fails otherwise) and match what the generated
 * program implies, counted here lane by lane from the block geometry alone:
 *   - relaunch: ceil(iterations / h) launches of `tiles` blocks; warp,
 *     global load/store and shared load/store instructions per launch;
 *     launch latency 3500 cycles (5 us at 700 MHz) before every launch but
 *     the first;
 *   - fence: one launch of min(occupancy x 15 SMs, tiles) blocks; the same
 *     counts plus the barrier's, where every extra spin of a block's thread 0
 *     adds exactly one volatile load and 3 warp instructions; one atomic per
 *     block per stage and every stage's counter ends equal to the block
 *     count (sim_gpu_peek).
 * Properties: more h never means more stages (and h = 2 halves h = 1's), and
 * at h = 1 on these small grids fences beat relaunch (a 3500-cycle launch
 * per stage against a barrier over at most 45 blocks). One extra HotSpot run
 * has more tiles (49) than resident blocks (45), so persistent blocks loop.
 * The profiled instruction defaults (InstsPerSM x 30 / N x 32) are checked
 * against hand values.
 */
#include <string.h>
#include <time.h>

#include "check.h"
#include "sim/stencil/stencil_run.h"

#define LAUNCH_LATENCY 3500   /* -trapeze_kernel_launch_latency of gtx480.config */
#define SMS 15

typedef struct {
    const trapeze_workload *w;
    int h, out_edge, iterations, stages, ops_insts, setup;
    long len[3], tiles_per_dim[3], tiles;
    int lo[3], hi[3];     /* interior thread range [left, blk - right) */
} geometry;

typedef struct {
    long insts, gld, gst, shld, shst;
} counts;

/* Thread coordinates of lane `lane` of warp `warp`; 0 when it does not exist. */
static int thread_of(const geometry *g, int warp, int lane, int t[3])
{
    int blk = g->w->blk_len, dims = g->w->dims;
    long threads = blk * (dims > 1 ? blk : 1) * (dims > 2 ? blk : 1);
    long id = (long)warp * 32 + lane;
    if (id >= threads)
        return 0;
    t[0] = (int)(id % blk);
    t[1] = dims > 1 ? (int)(id / blk % blk) : 0;
    t[2] = dims > 2 ? (int)(id / ((long)blk * blk)) : 0;
    return 1;
}

/* An IF per dimension over [lo, hi) (and, when tile != NULL, inside the
 * array): the IFs a warp executes (the next one runs only if some lane
 * passed the ones before) and whether any lane runs the body. */
static int if_chain(const geometry *g, int warp, const int *lo, const int *hi,
                    const long *tile, int *body)
{
    int dims = g->w->dims, best = 0, t[3];
    for (int lane = 0; lane < 32; lane++) {
        if (!thread_of(g, warp, lane, t))
            continue;
        int pass = 0;
        while (pass < dims && t[pass] >= lo[pass] && t[pass] < hi[pass] &&
               (!tile || tile[pass] * g->out_edge + t[pass] - lo[pass] < g->len[pass]))
            pass++;
        best = pass > best ? pass : best;
    }
    *body = best == dims;
    return (best < dims - 1 ? best : dims - 1) + 1;
}

/* One stage of one tile, one warp: load the tile, h loops, commit. */
static void stage_counts(const geometry *g, int warp, const long *tile, counts *c)
{
    const trapeze_workload *w = g->w;
    int box = 1;
    for (int d = 0; d < w->dims; d++)
        box *= w->halo[d] + 1;
    int aux = w->stencil_arrays - 1, extra = (int)w->elem_per_op;
    int loads = box + aux + extra, fmas = g->ops_insts - loads - 1;
    int interior, commit, clo[3], chi[3];
    int ifs = if_chain(g, warp, g->lo, g->hi, NULL, &interior);
    for (int d = 0; d < w->dims; d++) {
        clo[d] = g->lo[d] * g->h;
        chi[d] = w->blk_len - (w->halo[d] - g->lo[d]) * g->h;
    }
    int cifs = if_chain(g, warp, clo, chi, tile, &commit);
    c->insts += 2 * w->stencil_arrays + 1;   /* ld + st shared per array, bar */
    c->gld += w->stencil_arrays;
    c->shst += w->stencil_arrays;
    /* per loop: IFs, the op, bar, IFs, st shared, bar, loop branch */
    c->insts += (long)g->h * (2 * ifs + 3 + (interior ? loads + (fmas < 1 ? 1 : fmas) + 1 : 0));
    c->gld += interior ? (long)g->h * extra : 0;
    c->shld += interior ? (long)g->h * (box + aux) : 0;
    c->shst += interior ? g->h : 0;
    c->insts += cifs + commit;
    c->gst += commit;
}

static int warps_per_block(const geometry *g)
{
    long threads = 1;
    for (int d = 0; d < g->w->dims; d++)
        threads *= g->w->blk_len;
    return (int)((threads + 31) / 32);
}

static void tile_coords(const geometry *g, long j, long *tile)
{
    for (int d = 0; d < g->w->dims; d++) {
        tile[d] = j % g->tiles_per_dim[d];
        j /= g->tiles_per_dim[d];
    }
}

/* One relaunched stage: every tile, every warp, with setup and EXIT. */
static counts expect_launch(const geometry *g)
{
    counts c = {0};
    long tile[3] = {0, 0, 0};
    for (long j = 0; j < g->tiles; j++) {
        tile_coords(g, j, tile);
        for (int wp = 0; wp < warps_per_block(g); wp++) {
            c.insts += g->setup + 1;
            stage_counts(g, wp, tile, &c);
        }
    }
    return c;
}

/* The persistent kernel with one spin per barrier: block b takes tiles
 * b, b + R, ...; the stage-pair loop closes once per pair (and once for an
 * odd last stage); a barrier is fence, bar, IF, bar, plus atomic, volatile
 * load, compare and loop branch in warp 0. */
static counts expect_persistent(const geometry *g, long resident)
{
    counts c = {0};
    long tile[3] = {0, 0, 0};
    int loop_branches = g->stages / 2 + g->stages % 2;
    for (long b = 0; b < resident; b++)
        for (int wp = 0; wp < warps_per_block(g); wp++) {
            c.insts += g->setup + 1 + loop_branches;
            for (int s = 0; s < g->stages; s++) {
                for (long j = b; j < g->tiles; j += resident) {
                    tile_coords(g, j, tile);
                    stage_counts(g, wp, tile, &c);
                    c.insts += 1;                  /* the tile loop's branch */
                }
                c.insts += 4 + (wp == 0 ? 4 : 0);
                c.gld += wp == 0;
            }
        }
    return c;
}

static void plan(const trapeze_workload *w, int h, int iterations, geometry *g)
{
    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    g->iterations = iterations;
    g->stages = (iterations + h - 1) / h;
    g->out_edge = w->blk_len - w->halo[0] * h;
    g->tiles = 1;
    for (int d = 0; d < w->dims; d++) {
        g->len[d] = (long)w->data_len[d];
        g->tiles_per_dim[d] = (g->len[d] + g->out_edge - 1) / g->out_edge;
        g->tiles *= g->tiles_per_dim[d];
        g->lo[d] = w->halo[d] / 2;
        g->hi[d] = w->blk_len - (w->halo[d] - g->lo[d]);
    }
}

static long total(const sim_stencil_result *r, size_t offset)
{
    long s = 0;
    for (int i = 0; i < r->n_stats; i++)
        s += (long)*(const uint64_t *)((const char *)&r->stats[i].total + offset);
    return s;
}
#define TOTAL(r, field) total(r, offsetof(sim_sm_stats, field))

/* Runs one (workload, h, sync) on a fresh GPU and checks it; returns CPL. */
static double run_case(const trapeze_config *cfg, const trapeze_workload *w, int h,
                       trapeze_sync sync, int iterations, int *stages_out)
{
    geometry g;
    plan(w, h, iterations, &g);
    g.ops_insts = sim_stencil_default_insts_per_op(w);
    g.setup = sim_stencil_default_setup_insts(w);
    sim_gpu *gpu = NULL;
    trapeze_error err;
    sim_stencil_result *r = NULL;
    sim_stencil_spec spec = {.workload = w, .h = h, .sync = sync, .iterations = iterations};
    CHECK_OK(sim_gpu_create(cfg, NULL, &gpu, &err));
    if (!gpu || sim_stencil_run(gpu, &spec, &r, &err)) {
        fprintf(stderr, "%s h=%d %s: %s\n", w->name, h, trapeze_sync_name(sync), err.message);
        CHECK(0);
        sim_gpu_destroy(gpu);
        return 0;
    }
    int fail_before = check_failures;
    CHECK(r->stencil->tiles == g.tiles);
    CHECK(r->stencil->stages == g.stages);
    *stages_out = r->stencil->stages;
    if (sync == TRAPEZE_SYNC_RELAUNCH) {
        CHECK(r->n_stats == g.stages);
        counts one = expect_launch(&g);
        uint64_t launch = 0;
        for (int i = 0; i < r->n_stats; i++) {
            const sim_kernel_stats *k = &r->stats[i];
            CHECK(k->blocks == (uint64_t)g.tiles);
            CHECK(k->total.warp_insts == (uint64_t)one.insts);
            CHECK(k->total.gld_insts == (uint64_t)one.gld);
            CHECK(k->total.gst_insts == (uint64_t)one.gst);
            CHECK(k->total.shld_insts == (uint64_t)one.shld);
            CHECK(k->total.shst_insts == (uint64_t)one.shst);
            CHECK(k->total.atomic_insts == 0);
            launch += k->launch_cycles;
        }
        CHECK(launch == (uint64_t)(g.stages - 1) * LAUNCH_LATENCY);
    } else {
        long fit = (long)r->blocks_per_sm * SMS, resident = g.tiles < fit ? g.tiles : fit;
        CHECK(r->n_stats == 1);
        CHECK(r->stats[0].blocks == (uint64_t)resident);
        counts c = expect_persistent(&g, resident);
        long extra_spins = TOTAL(r, gld_insts) - c.gld;
        CHECK(extra_spins >= 0);
        CHECK(TOTAL(r, warp_insts) == c.insts + 3 * extra_spins);
        CHECK(TOTAL(r, gst_insts) == c.gst);
        CHECK(TOTAL(r, shld_insts) == c.shld);
        CHECK(TOTAL(r, shst_insts) == c.shst);
        CHECK(TOTAL(r, atomic_insts) == resident * g.stages);
        for (int s = 0; s < g.stages; s++)
            CHECK(sim_gpu_peek(gpu, sim_stencil_barrier_counter(r->stencil, s)) ==
                  (uint32_t)resident);
        CHECK(sim_stencil_barrier_counter(r->stencil, g.stages) != 0);
    }
    CHECK(r->cycles_per_loop * iterations == (double)r->cycles);
    if (check_failures != fail_before)
        fprintf(stderr, "  in %s h=%d %s\n", w->name, h, trapeze_sync_name(sync));
    double cpl = r->cycles_per_loop;
    sim_stencil_result_destroy(r);
    sim_gpu_destroy(gpu);
    return cpl;
}

/* Every valid h of one stencil, both modes, on a grid of two tiles along x
 * (the second clipped by one element) and one along the others. */
static void sweep(const trapeze_config *cfg, const char *name, int iterations)
{
    char path[128];
    snprintf(path, sizeof path, "data/workloads/%s.ini", name);
    trapeze_workload w;
    trapeze_error err;
    CHECK_OK(trapeze_workload_load(path, &w, &err));
    int max_h = (w.blk_len - 1) / w.halo[0];
    int prev_stages = iterations + 1;
    double cpl1[2] = {0, 0};
    for (int h = 1; h <= max_h; h++) {
        int edge = w.blk_len - w.halo[0] * h, stages[2] = {0, 0};
        w.data_len[0] = 2 * edge - 1;
        for (int d = 1; d < w.dims; d++)
            w.data_len[d] = edge;
        for (int m = 0; m < 2; m++) {
            double cpl = run_case(cfg, &w, h, m ? TRAPEZE_SYNC_FENCE : TRAPEZE_SYNC_RELAUNCH,
                                  iterations, &stages[m]);
            if (h == 1)
                cpl1[m] = cpl;
        }
        CHECK(stages[0] == stages[1] && stages[0] <= prev_stages);
        CHECK(h != 2 || stages[0] == (iterations + 1) / 2);
        prev_stages = stages[0];
    }
    CHECK(cpl1[1] > 0 && cpl1[1] < cpl1[0]);   /* fences win at h = 1 on a small grid */
    printf("%s: h = 1..%d, CPL(h=1) relaunch %.0f, fence %.0f\n", w.name, max_h, cpl1[0],
           cpl1[1]);
}

int main(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    if (!cfg)
        return check_report("test_stencil_run");

    /* Meng's profiled counts as per-warp instructions: InstsPerSM x M / N x 32 (M = 30) */
    static const struct { const char *name; int op, setup; } profiled[] = {
        {"pathfinder", 18, 19},  /* 1859 x 30 / 100000 x 32 = 17.8; 1998 -> 19.2 */
        {"hotspot", 64, 52},     /* 16645 x 30 / 250000 x 32 = 63.9; 13488 -> 51.8 */
        {"poisson", 48, 49},     /* 12474 -> 47.9; 12825 -> 49.2 */
        {"cell", 980, 318},      /* 220521 x 30 / 216000 x 32 = 980.1; 71603 -> 318.2 */
    };
    for (int i = 0; i < 4; i++) {
        char path[128];
        trapeze_workload w;
        snprintf(path, sizeof path, "data/workloads/%s.ini", profiled[i].name);
        CHECK_OK(trapeze_workload_load(path, &w, &err));
        CHECK(sim_stencil_default_insts_per_op(&w) == profiled[i].op);
        CHECK(sim_stencil_default_setup_insts(&w) == profiled[i].setup);
    }

    clock_t t0 = clock();
    sweep(cfg, "pathfinder", 4);
    sweep(cfg, "hotspot", 4);
    sweep(cfg, "poisson", 4);
    sweep(cfg, "cell", 3);

    /* more tiles (7 x 7 = 49) than resident blocks (3 per SM x 15 = 45) */
    trapeze_workload w;
    CHECK_OK(trapeze_workload_load("data/workloads/hotspot.ini", &w, &err));
    w.data_len[0] = w.data_len[1] = 100;
    int stages;
    run_case(cfg, &w, 2, TRAPEZE_SYNC_RELAUNCH, 3, &stages);
    run_case(cfg, &w, 2, TRAPEZE_SYNC_FENCE, 3, &stages);
    /* asking for more persistent blocks than fit is refused, not deadlocked */
    sim_gpu *gpu = NULL;
    sim_stencil_result *r = NULL;
    sim_stencil_spec spec = {.workload = &w, .h = 2, .sync = TRAPEZE_SYNC_FENCE,
                             .iterations = 2, .resident_blocks = 46};
    CHECK_OK(sim_gpu_create(cfg, NULL, &gpu, &err));
    CHECK(sim_stencil_run(gpu, &spec, &r, &err) == TRAPEZE_ERANGE && r == NULL);
    CHECK(strstr(err.message, "46 persistent blocks cannot all be resident (3 per SM x 15 SMs = 45)") != NULL);
    sim_gpu_destroy(gpu);
    printf("sweep time: %.1f s of CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    trapeze_config_destroy(cfg);
    return check_report("test_stencil_run");
}
