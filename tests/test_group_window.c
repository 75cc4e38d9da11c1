/*
 * The grouping model's short samples (sampler/group/group_window.c) on a 32 x 32
 * matrix multiply in 16 x 16 blocks on the GTX 480: four TBs, TB (bx, by)
 * reading A's row panel by (16 x 32 = 512 elements) and B's column panel
 * bx (512): TB 0 shares 512 with TB 1 (row panel) and 512 with TB 2
 * (column panel), TB 3 likewise with 1 and 2, no element with 0 (lines
 * only: panels of 16 columns are half lines).
 *   - the sub-grid of a grouping is its first non-empty queues, at most m
 *     and at most m / 15 of the 4 TBs, at least one queue: m = 12 allows
 *     3.2 TBs, queues 0 and 3 (TB 3's queue 4 would make 4): TBs 0, 1, 2,
 *     renumbered in id order, queues renumbered 0, 1; m = 2 allows 0.53
 *     TBs: queue 0 alone, whole (2 TBs), as with a share 0.5 given (2 TBs);
 *   - with a share of the TBs given, a first queue over it alone is cut to
 *     its first max(floor(share x 4), min(2, x = 6, the queue)) TBs in
 *     dispatch order: m = 2 at share 2/15 (0.53 TBs), m = 12 at share 0.04
 *     (0.16): queue 0's two TBs, 2 then 0, whole (before 29 Nov TB 2 alone:
 *     no co-resident pair); its model: 1024 + (1024 - 512 of the column
 *     panel, in L1) = 1536 L2 accesses, its simulation 2/4 of the launch's
 *     warp instructions; one queue holding all 4 TBs in the order 3, 2, 1,
 *     0 at m = 12, share 0.5, and at m = 1, share 1/15 (0.27 TBs): TBs 3
 *     then 2 (renumbered 1, 0), L2 = 1024 + (1024 - 512 shared row panel,
 *     in L1) = 1536, 2/4 of the warp instructions (without a share: the
 *     whole queue, 4 TBs);
 *   - rr's and BCS's sub-grids on 1 SM of 15 at share 0.04: rr's queue 0 is
 *     TB 0, BCS's TBs 0 and 1, both kept: two sub-grids (before 29 Nov BCS's
 *     was cut to TB 0, rr's, and the fit had one observation);
 *   - the model of the sub-grid, by hand at mu = eta1 = 1: TB 2 then TB 0
 *     co-resident in one queue, TB 0 finds its 512 shared elements in L1:
 *     L2 = 1024 + (1024 - 512) + 1024 = 2560;
 *   - the simulated sub-grid runs those three TBs only: 3/4 of the whole
 *     launch's warp instructions (every TB runs the same loop), the count
 *     the locality graph holds for them; a window of half of them stops
 *     between half and all of them, in fewer cycles;
 *   - -trapeze_window_groups needs a group-list policy: rr is refused;
 *   - the model's view of a group-list policy places the lists as the
 *     simulator's PAVER runtime does at launch, stealing included: MST-TS
 *     puts the 4 TBs in one list, SM 0 takes it and places one, SM 1 finds
 *     no list left and steals the 3 waiting (3 - floor(3/15)), places one,
 *     SM 2 steals 2, SM 3 the last: four SMs, one TB each (the simulator's
 *     MST-TS run of the 1-D atax launches takes rr's cycles exactly).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "trapeze.h"

static long long shared(const trapeze_locality_graph *g, long a, long b)
{
    for (long e = 0; e < g->n_edges; e++)
        if (g->edges[e].tb_i == a && g->edges[e].tb_j == b)
            return g->edges[e].shared_elements;
    return -1;
}

/* The model's DRAM reads in what the GPU's L1 fetches a miss, as each
 * launch's machine sets it from the config: strided (4 TBs of 256 threads,
 * no sharing, nu = eta2 = 1, each TB on its own SM) reads per TB 256
 * sectors at stride 32 (one 32-byte sector in each of 256 lines) and 32 at
 * stride 1 on the V100 (sectored L1: 8x the sectors); the GTX 480's L1
 * fetches whole lines: 256 and 8 (32x). Counted in elements, as the V100's
 * were, both strides read 256 a TB, and one nu could not serve a coalesced
 * and a strided launch. */
static void test_dram_unit(void)
{
    /* l2: the whole GPU's peak L2 accesses a core cycle, the configs'
     * slices at the L2's clock over the core's: V100 32 channels x 2
     * sub-partitions at 1132 / 1132 MHz, GTX 480 6 x 2 at 700 / 700 */
    static const struct { const char *gpu; int fetch; double strided, coalesced, l2; } c[] = {
        {"data/gpus/v100.config", 32, 4 * 256, 4 * 32, 64},
        {"data/gpus/gtx480.config", 128, 4 * 256, 4 * 8, 12}};
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_NU] = p.value[TRAPEZE_GROUP_ETA2] = 1;
    for (int i = 0; i < 2; i++)
        for (int stride = 1; stride <= 32; stride += 31) {
            trapeze_error err;
            char st[32];
            snprintf(st, sizeof st, "stride=%d", stride);
            char *params[] = {"n=1024", st};
            trapeze_group_problem *pb = NULL;
            CHECK_OK(trapeze_group_problem_builtin(c[i].gpu, "strided", params, 2, 0, &pb, &err));
            if (!pb)
                continue;
            CHECK(trapeze_group_problem_machine(pb)->dram_fetch_bytes == c[i].fetch);
            CHECK_NEAR(trapeze_group_problem_machine(pb)->l2_accesses_per_cycle, c[i].l2, 1e-12);
            trapeze_group_model *m = NULL;
            CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb),
                                          trapeze_group_problem_machine(pb), &p, &m, &err));
            trapeze_grouping g;
            CHECK_OK(trapeze_grouping_alloc(&g, 4, 4, &err));
            for (int t = 0; t < 4; t++) {
                g.group[t] = t;
                g.order[t] = 0;
            }
            trapeze_group_eval e;
            CHECK_OK(trapeze_group_evaluate(m, &g, &e, &err));
            CHECK_NEAR(e.dram_reads, stride == 32 ? c[i].strided : c[i].coalesced, 1e-9);
            trapeze_grouping_free(&g);
            trapeze_group_destroy(m);
            trapeze_group_problem_destroy(pb);
        }
}

int main(void)
{
    test_dram_unit();
    trapeze_error err;
    char *params[] = {"n=32", "block=16"};
    trapeze_group_problem *pb = NULL;
    CHECK_OK(trapeze_group_problem_builtin("data/gpus/gtx480.config", "matmul", params, 2, 0,
                                           &pb, &err));
    const trapeze_locality_graph *full = trapeze_group_problem_graph(pb);
    CHECK(full->n_tbs == 4 && full->n_edges == 6);   /* 0-3 and 1-2 share lines only */
    CHECK(shared(full, 0, 1) == 512 && shared(full, 0, 2) == 512 && shared(full, 0, 3) == 0);

    /* queue 0: TB 2 then TB 0; queue 3: TB 1; queue 4: TB 3 */
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 4, 5, &err));
    fixture_set_grouping(&g, (int[]){0, 3, 0, 4}, (long[]){1, 0, 0, 0});
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_MU] = 1;
    p.value[TRAPEZE_GROUP_ETA1] = 1;
    trapeze_group_window *w = NULL;
    trapeze_group_measured whole, part;
    CHECK_OK(trapeze_group_problem_simulate(pb, "rr", NULL, &whole, &err));
    CHECK(whole.warp_instructions > 0);
    trapeze_group_eval e;
    /* queue 0 over the share: kept whole, the co-resident pair TB 2, TB 0 */
    for (int k = 0; k < 2; k++) {
        CHECK_OK(trapeze_group_window_create(pb, &g, k ? 12 : 2, k ? 0.04 : 2.0 / 15, &p, &w,
                                             &err));
        CHECK(trapeze_group_window_tbs(w) == 2 && trapeze_group_window_grouping(w)->n_groups == 1);
        CHECK(trapeze_group_window_grouping(w)->order[0] == 1 &&
              trapeze_group_window_grouping(w)->order[1] == 0);
        CHECK_OK(trapeze_group_evaluate(trapeze_group_window_model(w), trapeze_group_window_grouping(w),
                                        &e, &err));
        CHECK_NEAR(e.l2_accesses, 1536, 1e-9);
        CHECK_OK(trapeze_group_window_simulate(pb, w, 0, &part, &err));
        CHECK(part.warp_instructions * 2 == whole.warp_instructions);
        trapeze_group_window_destroy(w);
    }
    for (int k = 0; k < 2; k++) {   /* queue 0 whole: no share given, or 2 TBs allowed */
        CHECK_OK(trapeze_group_window_create(pb, &g, k ? 12 : 2, k ? 0.5 : 0, &p, &w, &err));
        CHECK(trapeze_group_window_tbs(w) == 2 && trapeze_group_window_grouping(w)->n_groups == 1 &&
              trapeze_group_window_grouping(w)->order[0] == 1);
        trapeze_group_window_destroy(w);
    }
    CHECK_OK(trapeze_group_window_create(pb, &g, 12, 0, &p, &w, &err));
    CHECK(trapeze_group_window_tbs(w) == 3);
    const trapeze_grouping *sg = trapeze_group_window_grouping(w);
    CHECK(sg->n_tbs == 3 && sg->n_groups == 2);
    CHECK(sg->group[0] == 0 && sg->order[0] == 1 && sg->group[1] == 1 && sg->order[1] == 0 &&
          sg->group[2] == 0 && sg->order[2] == 0);
    CHECK_OK(trapeze_group_evaluate(trapeze_group_window_model(w), sg, &e, &err));
    CHECK_NEAR(e.l2_accesses, 2560, 1e-9);
    CHECK_NEAR(e.max_queue, 2, 0);

    CHECK_OK(trapeze_group_window_simulate(pb, w, 0, &part, &err));
    CHECK(part.warp_instructions * 4 == whole.warp_instructions * 3);
    CHECK(part.cycles > 0 && part.l2_accesses > 0 && part.l2_accesses < whole.l2_accesses);
    /* the graph's warp instructions per TB are what the simulator issues
     * (the budget's windows are cut in them): 4 TBs of 8 warps of 166, 5312
     * in the launch (trapeze sim prints the same), 3984 in the sub-grid */
    double all = 0;
    for (long t = 0; t < full->n_tbs; t++)
        all += (double)full->warp_insts[t];
    CHECK_NEAR(all, 5312, 0);
    CHECK_NEAR(all, whole.warp_instructions, 0);
    CHECK_NEAR(trapeze_group_window_warp_insts(w), part.warp_instructions, 0);
    /* a window of half of them stops at the first cycle that reaches it */
    trapeze_group_measured half;
    CHECK_OK(trapeze_group_window_simulate(pb, w, part.warp_instructions / 2, &half, &err));
    CHECK(half.warp_instructions >= part.warp_instructions / 2 &&
          half.warp_instructions < part.warp_instructions && half.cycles < part.cycles);
    trapeze_group_window_destroy(w);

    /* out of range, and a policy without group lists */
    CHECK(trapeze_group_window_create(pb, &g, 16, 0, &p, &w, &err) == TRAPEZE_ERANGE);
    CHECK(trapeze_group_window_create(pb, &g, 2, 1.5, &p, &w, &err) == TRAPEZE_ERANGE);
    CHECK(trapeze_group_problem_simulate_window(pb, "rr", NULL, 2, 0, &part, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "group-list dispatch") != NULL);
    trapeze_grouping_free(&g);

    /* one queue of all four, dispatched 3, 2, 1, 0: cut to its prefix (the
     * rest goes to a second group the simulator never dispatches) */
    CHECK_OK(trapeze_grouping_alloc(&g, 4, 1, &err));
    for (int t = 0; t < 4; t++) {
        g.group[t] = 0;
        g.order[t] = 3 - t;
    }
    for (int k = 0; k < 2; k++) {   /* share 0.5 on 12 SMs; 1/15 on 1 SM, the floor of two */
        CHECK_OK(trapeze_group_window_create(pb, &g, k ? 1 : 12, k ? 1.0 / 15 : 0.5, &p, &w, &err));
        sg = trapeze_group_window_grouping(w);
        CHECK(trapeze_group_window_tbs(w) == 2 && sg->n_groups == 1 && sg->order[0] == 1 &&
              sg->order[1] == 0);
        CHECK_OK(trapeze_group_evaluate(trapeze_group_window_model(w), sg, &e, &err));
        CHECK_NEAR(e.l2_accesses, 1536, 1e-9);
        CHECK_OK(trapeze_group_window_simulate(pb, w, 0, &part, &err));
        CHECK(part.warp_instructions * 2 == whole.warp_instructions);
        trapeze_group_window_destroy(w);
    }
    CHECK_OK(trapeze_group_window_create(pb, &g, 1, 0, &p, &w, &err));   /* whole, no share */
    CHECK(trapeze_group_window_tbs(w) == 4);
    trapeze_group_window_destroy(w);
    trapeze_grouping_free(&g);

    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(full, trapeze_group_problem_machine(pb), &p, &m, &err));

    /* rr's and BCS's sub-grids on 1 SM: TB 0, and the pair TB 0, TB 1 */
    trapeze_group_window *wr = NULL, *wb = NULL;
    CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, "bcs", &g, &err));
    CHECK(g.group[0] == 0 && g.order[0] == 0 && g.group[1] == 0 && g.order[1] == 1);
    CHECK_OK(trapeze_group_window_create(pb, &g, 1, 0.04, &p, &wb, &err));
    trapeze_grouping_free(&g);
    CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, "rr", &g, &err));
    CHECK_OK(trapeze_group_window_create(pb, &g, 1, 0.04, &p, &wr, &err));
    trapeze_grouping_free(&g);
    CHECK(trapeze_group_window_tbs(wr) == 1 && trapeze_group_window_tbs(wb) == 2 &&
          !trapeze_group_window_same(wr, wb));
    trapeze_group_window_destroy(wr);
    trapeze_group_window_destroy(wb);
    CHECK_OK(trapeze_group_problem_policy_grouping(pb, m, "mst", &g, &err));
    int used[15] = {0};
    for (int t = 0; t < 4; t++) {
        CHECK(g.order[t] == 0 && g.group[t] >= 0 && g.group[t] < 4);
        used[g.group[t] >= 0 && g.group[t] < 15 ? g.group[t] : 0]++;
    }
    CHECK(used[0] == 1 && used[1] == 1 && used[2] == 1 && used[3] == 1);
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
    trapeze_group_problem_destroy(pb);
    return check_report("test_group_window");
}
