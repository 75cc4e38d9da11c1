/*
 * Ghost zones and groupings together (sampler/gz_group.c), on the Box9
 * stencil (one array, 3x3 neighbours, 16 x 16 blocks) on a 96 x 96 grid,
 * GTX 480 config and calibration:
 *   - the relaunched stage's locality graph at h = 2, by hand: output tiles
 *     of 16 - 2h = 12, so 8 x 8 tiles; an interior tile stages 16 x 16 = 256
 *     elements, shares 4 columns x 16 rows = 64 with its left and right
 *     neighbours, 16 rows x 4 = 64 with those above and below, 4 x 4 = 16
 *     diagonally, nothing two tiles away;
 *   - the ghost-zone elements rho multiplies: 64 x 256 - 96 x 96 = 7168;
 *   - the rho scaling by hand, and each evaluated row's CPL equal to the
 *     ghost-zone model evaluated here at that scaled rho;
 *   - no grouping beats the bound (free halo re-reads), none is kept unless
 *     it beats rr by the margin, and with rho = 0 grouping changes nothing;
 *   - skipping heights by the bound gives the same answer as visiting all;
 *   - the grouping returned is a valid grouping file of the best relaunch
 *     height's TBs on the 15 SMs.
 */
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"
#include "sim/stencil/stencil_run.h"

static long long shared(const trapeze_locality_graph *g, long a, long b)
{
    long i = a < b ? a : b, j = a < b ? b : a;
    for (long e = 0; e < g->n_edges; e++)
        if (g->edges[e].tb_i == i && g->edges[e].tb_j == j)
            return g->edges[e].shared_elements;
    return 0;
}

static void check_stage_graph(const trapeze_workload *w)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    sim_core_config core;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    CHECK_OK(sim_core_config_read(cfg, &core, &err));
    trapeze_config_destroy(cfg);
    sim_stencil_spec spec = {.workload = w, .h = 2, .sync = TRAPEZE_SYNC_RELAUNCH, .iterations = 2};
    sim_stencil *st = NULL;
    int per_sm = 0;
    const char *limit = "";
    trapeze_locality_graph g;
    memset(&g, 0, sizeof g);
    CHECK_OK(sim_stencil_build_sized(&core, &spec, &st, &per_sm, &limit, &err));
    CHECK_OK(sim_locality_build(st->kernels[0], SIM_LINE_BYTES, &g, &err));
    CHECK(st->tiles == 64 && g.n_tbs == 64 && g.grid[0] == 8 && g.grid[1] == 8);
    long t = 3 + 3 * 8;   /* an interior tile */
    CHECK(g.n_tbs == 64 && g.elements[t] == 256);
    CHECK(shared(&g, t, t + 1) == 64 && shared(&g, t, t - 1) == 64);
    CHECK(shared(&g, t, t + 8) == 64 && shared(&g, t, t - 8) == 64);
    CHECK(shared(&g, t, t + 9) == 16 && shared(&g, t, t - 7) == 16);
    CHECK(shared(&g, t, t + 2) == 0 && shared(&g, t, t + 16) == 0);
    trapeze_locality_graph_free(&g);
    sim_stencil_destroy(st);
}

/* The rows' invariants and their CPL recomputed from the ghost-zone model. */
static void check_rows(const trapeze_ghostzone_group_result *r, const trapeze_workload *w,
                       const trapeze_ghostzone_params *p)
{
    trapeze_error err;
    trapeze_gpu gpu;
    trapeze_config *cfg = NULL;
    trapeze_ghostzone_model *gz = NULL;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    trapeze_config_destroy(cfg);
    CHECK_OK(trapeze_ghostzone_create(&gpu, w, p, &gz, &err));
    for (int i = 0; gz && i < r->n_rows; i++) {
        const trapeze_ghostzone_group_row *row = &r->rows[i];
        CHECK(row->cpl_bound <= row->cpl_rr * (1 + 1e-12));
        CHECK(row->cpl <= row->cpl_rr);
        if (!row->evaluated)
            continue;
        CHECK(row->sync == TRAPEZE_SYNC_RELAUNCH);
        CHECK(row->cpl_grouped >= row->cpl_bound * (1 - 1e-12));
        double gain = row->cpl_rr - row->cpl_grouped;
        CHECK_NEAR(row->gain_sd, fabs(gain) * p->stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] /
                                     p->value[TRAPEZE_GHOSTZONE_HALO_REREAD], 1e-9 * row->cpl_rr);
        int wins = p->stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] > 0 &&
                   gain > 0.01 * row->cpl_rr + 2 * row->gain_sd;
        CHECK(row->kept_rr ? row->cpl == row->cpl_rr && !wins
                           : wins && row->cpl == row->cpl_grouped);
        double rho = trapeze_ghostzone_group_rho(p->value[TRAPEZE_GHOSTZONE_HALO_REREAD],
                                                 row->l1_reread_rr / row->ghost_elements,
                                                 row->l1_reread / row->ghost_elements);
        CHECK_NEAR(row->rho, rho, 1e-12);
        trapeze_ghostzone_params q = *p;
        q.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = rho;
        trapeze_ghostzone_set_params(gz, &q);
        trapeze_ghostzone_eval e;
        CHECK_OK(trapeze_ghostzone_evaluate(gz, TRAPEZE_SYNC_RELAUNCH, row->h, w->blk_len, &e, &err));
        CHECK_NEAR(row->cpl_grouped, e.cpl, 1e-9 * e.cpl);
        if (row->h == 2)
            CHECK_NEAR(row->ghost_elements, 64 * 256 - 96 * 96, 1e-9);
    }
    trapeze_ghostzone_destroy(gz);
}

int main(void)
{
    trapeze_error err;
    trapeze_workload w;
    trapeze_ghostzone_params p;
    trapeze_group_params gp;
    CHECK_OK(trapeze_workload_load("data/workloads/box9.ini", &w, &err));
    w.data_len[0] = w.data_len[1] = 96;
    /* a frozen calibration: its rho is 1 +- 4.65 whatever the shipped one becomes */
    CHECK_OK(trapeze_ghostzone_params_load("tests/data/gtx480-rho-unidentified.ini", &p, &err));
    trapeze_group_params_default(&gp);
    check_stage_graph(&w);

    /* the rho scaling by hand: 0.9 (1 - 0.55) / (1 - 0.1) = 0.45 */
    CHECK_NEAR(trapeze_ghostzone_group_rho(0.9, 0.1, 0.55), 0.45, 1e-15);
    CHECK_NEAR(trapeze_ghostzone_group_rho(0.9, 0.1, 1.0), 0.0, 1e-15);
    CHECK_NEAR(trapeze_ghostzone_group_rho(0.9, 0.1, 0.1), 0.9, 1e-15);
    CHECK_NEAR(trapeze_ghostzone_group_rho(0.9, 1.0, 0.5), 0.9, 1e-15);

    /* a calibration where halo re-reads cost as much as first reads, so a
     * grouping can matter; all heights, then the pruned search */
    double rho_sd = p.stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD];
    p.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = 1;
    p.stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] = 1e-9;   /* fitted, and precisely */
    trapeze_ghostzone_group_result all, pruned;
    CHECK_OK(trapeze_ghostzone_group_optimize("data/gpus/gtx480.config", &w, &p, 0, &gp, 0.01, 1, &all,
                                              &err));
    CHECK_OK(trapeze_ghostzone_group_optimize("data/gpus/gtx480.config", &w, &p, 0, &gp, 0.01, 0,
                                              &pruned, &err));
    int hmax = all.n_rows / 2, evaluated = 0, h2 = 0, grouped = 0;
    CHECK(hmax == 7);   /* 16 - 2h > 0 */
    for (int i = 0; i < all.n_rows; i++) {
        evaluated += all.rows[i].evaluated;
        h2 |= all.rows[i].evaluated && all.rows[i].h == 2;
        grouped += all.rows[i].evaluated && !all.rows[i].kept_rr;
    }
    CHECK(grouped > 0);   /* with rho known exactly, some height takes a grouping */
    CHECK(evaluated == hmax && h2);
    check_rows(&all, &w, &p);
    check_rows(&pruned, &w, &p);
    CHECK(pruned.best == all.best && pruned.best_relaunch == all.best_relaunch);
    if (pruned.best == all.best && pruned.best >= 0)
        CHECK(pruned.rows[pruned.best].cpl == all.rows[all.best].cpl);
    for (int i = 0; i < pruned.n_rows && all.best_relaunch >= 0; i++)
        if (pruned.rows[i].sync == TRAPEZE_SYNC_RELAUNCH && !pruned.rows[i].evaluated)
            CHECK(pruned.rows[i].cpl_bound >= all.rows[all.best_relaunch].cpl);
    const trapeze_ghostzone_group_row *br = &all.rows[all.best_relaunch];
    CHECK(all.grouping.n_tbs == br->tiles && all.grouping.n_groups == 15);
    CHECK_OK(trapeze_grouping_check(&all.grouping, &err));

    /* the GTX 480's own uncertainty (rho 1 +- 4.7): no gain is above two
     * standard deviations (each is 9.4 times the gain), so rr everywhere */
    CHECK(rho_sd > 1);
    p.stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] = rho_sd;
    trapeze_ghostzone_group_result unsure;
    CHECK_OK(trapeze_ghostzone_group_optimize("data/gpus/gtx480.config", &w, &p, 0, &gp, 0.01, 1,
                                              &unsure, &err));
    check_rows(&unsure, &w, &p);
    for (int i = 0; i < unsure.n_rows; i++)
        CHECK(!unsure.rows[i].evaluated || unsure.rows[i].kept_rr);
    trapeze_ghostzone_group_result_free(&unsure);

    /* rho not fitted (no standard error): round-robin everywhere */
    p.stderr_[TRAPEZE_GHOSTZONE_HALO_REREAD] = 0;
    trapeze_ghostzone_group_result unfitted;
    CHECK_OK(trapeze_ghostzone_group_optimize("data/gpus/gtx480.config", &w, &p, 0, &gp, 0.01, 1,
                                              &unfitted, &err));
    check_rows(&unfitted, &w, &p);
    for (int i = 0; i < unfitted.n_rows; i++)
        CHECK(!unfitted.rows[i].evaluated || unfitted.rows[i].kept_rr);
    trapeze_ghostzone_group_result_free(&unfitted);

    /* halo re-reads free: every grouping predicts the same CPL as rr */
    p.value[TRAPEZE_GHOSTZONE_HALO_REREAD] = 0;
    trapeze_ghostzone_group_result free_rr;
    CHECK_OK(trapeze_ghostzone_group_optimize("data/gpus/gtx480.config", &w, &p, 0, &gp, 0.01, 1,
                                              &free_rr, &err));
    for (int i = 0; i < free_rr.n_rows; i++) {
        CHECK_NEAR(free_rr.rows[i].cpl, free_rr.rows[i].cpl_rr, 0);
        CHECK(!free_rr.rows[i].evaluated || free_rr.rows[i].kept_rr);
    }
    trapeze_ghostzone_group_result_free(&all);
    trapeze_ghostzone_group_result_free(&pruned);
    trapeze_ghostzone_group_result_free(&free_rr);
    return check_report("test_gz_group");
}
