/*
 * test_group_opt.c - the grouping optimizer: the baselines' and tiles'
 * groupings (hand-checked placements), the tile shape it picks on
 * matrix-multiply-like graphs (row sharing -> row tiles, column sharing ->
 * column tiles), a baseline winning where tiles cannot see the sharing.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/locality/locality.h"
#include "trapeze.h"

typedef struct {
    trapeze_locality_graph g;
    long long *fe, *fl;
} graph;

/* gx x gy grid; TBs of one row share `row` lines (a panel of A), of one
 * column `col` lines (a panel of B); footprint row + col. */
static void matmul_like(graph *s, int gx, int gy, long long row, long long col)
{
    long n = (long)gx * gy;
    memset(s, 0, sizeof *s);
    s->g.n_tbs = n;
    s->g.grid[0] = gx;
    s->g.grid[1] = gy;
    s->g.grid[2] = 1;
    s->fe = calloc((size_t)n, sizeof *s->fe);
    s->fl = calloc((size_t)n, sizeof *s->fl);
    s->g.edges = calloc((size_t)n * (gx + gy), sizeof *s->g.edges);
    for (long t = 0; t < n; t++) {
        s->fl[t] = row + col;
        s->fe[t] = 32 * s->fl[t];
        for (long j = t + 1; j < n; j++) {
            long long sh = (t / gx == j / gx ? row : 0) + (t % gx == j % gx ? col : 0);
            if (sh)
                s->g.edges[s->g.n_edges++] = (trapeze_locality_edge){t, j, 32 * sh, sh, 0};
        }
    }
    s->g.elements = s->fe;
    s->g.lines = s->fl;
}

static void graph_free(graph *s)
{
    free(s->fe);
    free(s->fl);
    free(s->g.edges);
}

static trapeze_group_model *model_for(const graph *s, int n_sm, int x)
{
    trapeze_group_machine mach = {n_sm, x, 128, 6144, 0, 0, 1, 0, 0};
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_CWAVE] = 100;   /* memory-bound: the grouping matters */
    /* one cycle per L2 access and half per DRAM read for the whole GPU
     * (the memory times are per SM: tl2 l2 / n_sm) */
    p.value[TRAPEZE_GROUP_TL2] = n_sm;
    p.value[TRAPEZE_GROUP_TDRAM] = 0.5 * n_sm;
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(&s->g, &mach, &p, &m, NULL));
    return m;
}

static void test_placements(void)
{
    graph s;
    matmul_like(&s, 4, 3, 1, 1);
    trapeze_group_model *m = model_for(&s, 2, 4);
    trapeze_grouping g;
    CHECK_OK(trapeze_group_rr(m, &g, NULL));
    CHECK(g.group[5] == 1 && g.order[5] == 2);
    trapeze_grouping_free(&g);
    CHECK_OK(trapeze_group_bcs(m, &g, NULL));
    /* pairs (0,1) (2,3) (4,5) ...: pair 2 = TBs 4, 5 in queue 0 at 2, 3 */
    CHECK(g.group[4] == 0 && g.order[4] == 2 && g.group[5] == 0 && g.order[5] == 3);
    CHECK(g.group[3] == 1 && g.order[3] == 1);
    trapeze_grouping_free(&g);
    /* 2 x 2 tiles over 4 x 3, row-major: tiles (0,0) (1,0) (0,1) (1,1) of
     * sizes 4 4 2 2; queue loads 0/0 -> tile0 q0, tile1 q1, tile2 q0
     * (4 = 4, lowest), tile3 q1 */
    CHECK_OK(trapeze_group_tiles(m, 2, 2, 0, &g, NULL));
    CHECK(g.group[0] == 0 && g.order[0] == 0 && g.group[5] == 0 && g.order[5] == 3);
    CHECK(g.group[2] == 1 && g.order[2] == 0 && g.group[7] == 1 && g.order[7] == 3);
    CHECK(g.group[8] == 0 && g.order[8] == 4 && g.group[9] == 0 && g.order[9] == 5);
    CHECK(g.group[10] == 1 && g.order[11] == 5);
    CHECK_OK(trapeze_grouping_check(&g, NULL));
    trapeze_grouping_free(&g);
    /* column-major tile order: tile (0,1) comes second, to queue 1 */
    CHECK_OK(trapeze_group_tiles(m, 2, 2, 1, &g, NULL));
    CHECK(g.group[8] == 1 && g.order[8] == 0);
    trapeze_grouping_free(&g);
    trapeze_error err;
    CHECK(trapeze_group_tiles(m, 5, 1, 0, &g, &err) == TRAPEZE_ERANGE);
    trapeze_group_destroy(m);
    graph_free(&s);
}

/* Matrix-multiply-like sharing, row-dominant then column-dominant: the
 * relaxation, rounding and refinement land on the best resident tile of
 * every shape and order (checked exhaustively), balanced, never above
 * round-robin. */
static void test_tile_shape(void)
{
    const long long rows[2] = {30, 2}, cols[2] = {2, 30};
    for (int c = 0; c < 2; c++) {
        graph s;
        matmul_like(&s, 8, 8, rows[c], cols[c]);
        trapeze_group_model *m = model_for(&s, 4, 4);
        trapeze_grouping best, rr;
        trapeze_group_choice ch;
        CHECK_OK(trapeze_group_optimize(m, NULL, NULL, NULL, 0, 0, &best, &ch, NULL));
        CHECK(strcmp(ch.source, "tiles") == 0);
        CHECK(ch.gx * ch.gy <= 4);
        CHECK(ch.gx_continuous * ch.gy_continuous <= 4 + 1e-6);
        CHECK(ch.nlopt_evaluations > 0 && ch.model_evaluations > 0);
        double least = HUGE_VAL;
        for (int o = 0; o < 2; o++)
            for (int gx = 1; gx <= 4; gx++)
                for (int gy = 1; gx * gy <= 4; gy++) {
                    trapeze_grouping t;
                    trapeze_group_eval e;
                    CHECK_OK(trapeze_group_tiles(m, gx, gy, o, &t, NULL));
                    CHECK_OK(trapeze_group_evaluate(m, &t, &e, NULL));
                    least = e.cycles < least ? e.cycles : least;
                    trapeze_grouping_free(&t);
                }
        CHECK(ch.eval.cycles <= least * (1 + 1e-12));
        trapeze_group_eval eb, er;
        CHECK_OK(trapeze_group_evaluate(m, &best, &eb, NULL));
        CHECK_NEAR(eb.cycles, ch.eval.cycles, 1e-9 * eb.cycles);
        /* the search compares values only; the choice's eval keeps its gradients */
        CHECK(memcmp(&eb, &ch.eval, sizeof eb) == 0 && eb.dcycles_dparam[TRAPEZE_GROUP_MU] != 0);
        CHECK_OK(trapeze_group_rr(m, &rr, NULL));
        CHECK_OK(trapeze_group_evaluate(m, &rr, &er, NULL));
        /* row sharing: round-robin (stride 4 over rows of 8) never pairs a
         * row; column sharing: it pairs columns t, t + 8 already */
        CHECK(c == 0 ? eb.l2_accesses < 0.8 * er.l2_accesses : eb.l2_accesses <= er.l2_accesses);
        CHECK(eb.cycles <= er.cycles);
        CHECK(eb.max_queue == 16);   /* balanced: 64 TBs on 4 SMs */
        trapeze_grouping_free(&best);
        trapeze_grouping_free(&rr);
        trapeze_group_destroy(m);
        graph_free(&s);
    }
}

/* TBs t and 15 - t share (a mirror no tile shape sees): a hand-made
 * candidate that pairs them on one SM wins over every tile. */
static void test_candidate_wins(void)
{
    graph s;
    memset(&s, 0, sizeof s);
    s.g.n_tbs = 16;
    s.g.grid[0] = 16;
    s.g.grid[1] = s.g.grid[2] = 1;
    s.fe = calloc(16, sizeof *s.fe);
    s.fl = calloc(16, sizeof *s.fl);
    s.g.edges = calloc(16, sizeof *s.g.edges);
    for (long t = 0; t < 16; t++) {
        s.fl[t] = 10;
        if (t < 8)
            s.g.edges[s.g.n_edges++] = (trapeze_locality_edge){t, 15 - t, 320, 10, 0};
    }
    s.g.lines = s.fl;
    s.g.elements = s.fe;
    trapeze_group_model *m = model_for(&s, 4, 2);
    trapeze_grouping cand[2], best;
    CHECK_OK(trapeze_group_rr(m, &cand[0], NULL));
    CHECK_OK(trapeze_grouping_alloc(&cand[1], 16, 4, NULL));
    for (long k = 0; k < 8; k++) {
        cand[1].group[k] = cand[1].group[15 - k] = (int)(k % 4);
        cand[1].order[k] = (k / 4) * 2;
        cand[1].order[15 - k] = (k / 4) * 2 + 1;
    }
    const char *names[2] = {"rr", "mirror"};
    trapeze_group_choice ch;
    CHECK_OK(trapeze_group_optimize(m, cand, names, NULL, 2, 0, &best, &ch, NULL));
    CHECK(strcmp(ch.source, "mirror") == 0);
    trapeze_group_eval e_mirror;   /* a candidate's eval with its gradients too */
    CHECK_OK(trapeze_group_evaluate(m, &cand[1], &e_mirror, NULL));
    CHECK(memcmp(&e_mirror, &ch.eval, sizeof e_mirror) == 0 &&
          e_mirror.dl2_dparam[TRAPEZE_GROUP_ETA1] != 0);
    /* mirror beats rr by 64 vs 160 L2 accesses' worth of cycles; a margin
     * wider than that gain keeps the default, rr */
    trapeze_group_eval e_rr;
    CHECK_OK(trapeze_group_evaluate(m, &cand[0], &e_rr, NULL));
    double gain = 1 - ch.eval.cycles / e_rr.cycles;
    CHECK(gain > 0.05);
    trapeze_grouping kept;
    trapeze_group_choice ch2;
    CHECK_OK(trapeze_group_optimize(m, cand, names, NULL, 2, gain + 0.01, &kept, &ch2, NULL));
    CHECK(strcmp(ch2.source, "rr") == 0 && kept.group[5] == cand[0].group[5]);
    CHECK_NEAR(ch2.eval.cycles, e_rr.cycles, 1e-9);
    trapeze_grouping_free(&kept);
    /* measured cycles decide among candidates: rr measured faster than the
     * mirror wins whatever the model says */
    const double measured[2] = {1000, 1001};
    CHECK_OK(trapeze_group_optimize(m, cand, names, measured, 2, 0.5, &kept, &ch2, NULL));
    CHECK(strcmp(ch2.source, "rr") == 0);
    trapeze_grouping_free(&kept);
    /* a tile predicted faster than the winner's prediction but not than its
     * measurement is not taken: on the 8 x 8 row-sharing graph, rr measured
     * at 1 cycle keeps rr; measured at its prediction lets the tile in */
    graph r;
    matmul_like(&r, 8, 8, 30, 2);
    trapeze_group_model *mr = model_for(&r, 4, 4);
    trapeze_grouping rr_g;
    CHECK_OK(trapeze_group_rr(mr, &rr_g, NULL));
    trapeze_group_eval e_r;
    CHECK_OK(trapeze_group_evaluate(mr, &rr_g, &e_r, NULL));
    const double fast[1] = {1}, as_predicted[1] = {e_r.cycles};
    CHECK_OK(trapeze_group_optimize(mr, &rr_g, names, fast, 1, 0.01, &kept, &ch2, NULL));
    CHECK(strcmp(ch2.source, "rr") == 0);
    trapeze_grouping_free(&kept);
    CHECK_OK(trapeze_group_optimize(mr, &rr_g, names, as_predicted, 1, 0.01, &kept, &ch2, NULL));
    CHECK(strcmp(ch2.source, "tiles") == 0);
    trapeze_grouping_free(&kept);
    trapeze_grouping_free(&rr_g);
    trapeze_group_destroy(mr);
    graph_free(&r);
    for (long t = 0; t < 16; t++)
        CHECK(best.group[t] == cand[1].group[t] && best.order[t] == cand[1].order[t]);
    /* 8 shared pairs, each caught in L1 (eta1 0.8): 160 - 0.8 * 80 */
    CHECK_NEAR(ch.eval.l2_accesses, 160 - 0.8 * 80, 1e-9);
    trapeze_grouping_free(&best);
    trapeze_grouping_free(&cand[0]);
    trapeze_grouping_free(&cand[1]);
    trapeze_group_destroy(m);
    graph_free(&s);
}

/* Calibration: values the model predicts under known constants, for six
 * groupings of two graphs (64 and 32 TBs: two queue lengths), are fitted
 * back from the defaults: the fit recovers the constants and its residuals
 * vanish. With tsm in the mask, a truth without the SM-throughput term keeps
 * it at 0 (the tie goes to the fewer terms) and one with it recovers it. */
/* The defaults with the four times' constants set. */
static trapeze_group_params with_times(double cwave, double tsm, double tl2, double tdram)
{
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_CWAVE] = cwave;
    p.value[TRAPEZE_GROUP_TSM] = tsm;
    p.value[TRAPEZE_GROUP_TL2] = tl2;
    p.value[TRAPEZE_GROUP_TDRAM] = tdram;
    return p;
}

static void fit_recovers(double tsm, int fit_tsm)
{
    graph s[2];
    matmul_like(&s[0], 8, 8, 30, 2);
    matmul_like(&s[1], 8, 4, 6, 20);
    trapeze_group_params truth = with_times(200, tsm, 2, 1.1);
    truth.value[TRAPEZE_GROUP_MU] = 1.7;
    truth.value[TRAPEZE_GROUP_ETA1] = 0.55;
    truth.value[TRAPEZE_GROUP_NU] = 3.2;
    /* a small L2, so that DRAM reads depend on the order; with tsm, room
     * for every queue at once (x = 32 > Q = 16 and 8): Tc is then flat and
     * Ts follows Q, where with Q >= x both would follow Q and only their
     * norm could be fitted */
    trapeze_group_machine mach = {4, tsm > 0 ? 32 : 4, 128, 300, 0, 0, 1, 0, 0};
    trapeze_group_model *m[2];
    trapeze_grouping g[12];
    trapeze_group_observation obs[12];
    int n = 0;
    for (int k = 0; k < 2; k++) {
        CHECK_OK(trapeze_group_create(&s[k].g, &mach, &truth, &m[k], NULL));
        CHECK_OK(trapeze_group_rr(m[k], &g[n], NULL));
        CHECK_OK(trapeze_group_bcs(m[k], &g[n + 1], NULL));
        CHECK_OK(trapeze_group_tiles(m[k], 4, 1, 0, &g[n + 2], NULL));
        CHECK_OK(trapeze_group_tiles(m[k], 2, 2, 0, &g[n + 3], NULL));
        CHECK_OK(trapeze_group_tiles(m[k], 1, 4, 1, &g[n + 4], NULL));
        CHECK_OK(trapeze_group_tiles(m[k], 1, 1, 1, &g[n + 5], NULL));
        for (int i = n; i < n + 6; i++) {
            trapeze_group_eval e;
            CHECK_OK(trapeze_group_evaluate(m[k], &g[i], &e, NULL));
            obs[i] = (trapeze_group_observation){m[k], &g[i], e.cycles, e.l2_accesses, e.dram_reads};
        }
        n += 6;
    }
    trapeze_group_params fit;
    trapeze_group_params_default(&fit);
    unsigned long mask = TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_MU) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_ETA1) |
                         TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_NU) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_CWAVE) |
                         TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TL2) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TDRAM);
    if (fit_tsm)
        mask |= TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TSM);
    trapeze_fit_report rep;
    trapeze_error err;
    trapeze_status st = trapeze_group_fit(obs, n, mask, 4, &fit, &rep, &err);
    if (st)
        fprintf(stderr, "fit: %s\n", err.message);
    CHECK(st == TRAPEZE_OK);
    CHECK(rep.n_points == 36);
    CHECK(rep.rms_rel_error < 1e-6);
    /* with tsm a held-out fold's trust region can stop short of the exact
     * constants (0.37% here): the whole fit above is exact either way */
    CHECK(rep.cv_mape_pct < (tsm > 0 ? 1.0 : 1e-4));
    const int fitted[7] = {TRAPEZE_GROUP_MU, TRAPEZE_GROUP_ETA1, TRAPEZE_GROUP_NU, TRAPEZE_GROUP_CWAVE,
                           TRAPEZE_GROUP_TL2, TRAPEZE_GROUP_TDRAM, TRAPEZE_GROUP_TSM};
    for (int i = 0; i < 7; i++)
        CHECK_NEAR(fit.value[fitted[i]], truth.value[fitted[i]], 1e-4 * truth.value[fitted[i]]);
    /* what was not fitted kept its start */
    CHECK(fit.value[TRAPEZE_GROUP_THETA] == 0.5);
    /* nothing measured: a clear error */
    trapeze_group_observation none = {m[0], &g[0], 0, 0, 0};
    CHECK(trapeze_group_fit(&none, 1, mask, 0, &fit, NULL, &err) == TRAPEZE_EINVAL);
    for (int i = 0; i < n; i++)
        trapeze_grouping_free(&g[i]);
    for (int k = 0; k < 2; k++) {
        trapeze_group_destroy(m[k]);
        graph_free(&s[k]);
    }
}

/* Sub-grids that Ts and the per-queue L2 time explain equally (TBs that
 * share nothing: a queue's L2 accesses follow its length as Ts does) keep
 * Ts, which carries to a launch unchanged (sampler/group/group_fit.c). */
static void test_fit_tie_keeps_tsm(void)
{
    graph s;
    matmul_like(&s, 1, 8, 10, 0);   /* 8 TBs of 10 lines, no two sharing */
    trapeze_group_machine mach = {4, 8, 128, 1e6, 0, 0, 1, 0, 0};
    trapeze_group_params truth = with_times(100, 50, 0, 0);
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&s.g, &mach, &truth, &m, NULL));
    /* five groupings (four timing constants need more points than that) */
    static const int queues[5][8] = {{0, 1, 2, 3, 0, 1, 2, 3}, {0, 0, 0, 0, 0, 0, 0, 0},
                                     {0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 0, 1, 1, 1, 2, 2},
                                     {0, 0, 0, 0, 0, 1, 2, 3}};
    trapeze_grouping g[5];
    trapeze_group_observation obs[5];
    for (int i = 0; i < 5; i++) {
        CHECK_OK(trapeze_grouping_alloc(&g[i], 8, 4, NULL));
        long next[4] = {0, 0, 0, 0};
        for (int tb = 0; tb < 8; tb++) {
            g[i].group[tb] = queues[i][tb];
            g[i].order[tb] = next[queues[i][tb]]++;
        }
        trapeze_group_eval e;
        CHECK_OK(trapeze_group_evaluate(m, &g[i], &e, NULL));
        obs[i] = (trapeze_group_observation){m, &g[i], e.cycles, e.l2_accesses, e.dram_reads};
    }
    /* the truth by hand: sqrt(100^2 + (50 Q)^2), Q = 2, 8, 4, 3, 5 */
    CHECK_NEAR(obs[1].cycles, sqrt(100.0 * 100 + 400.0 * 400), 1e-6);
    trapeze_group_params fit;
    trapeze_group_params_default(&fit);
    fit.value[TRAPEZE_GROUP_TDRAM] = 0;
    /* (tdram held at 0: with it Td would follow Q too, and three collinear
     * times leave the trust region nothing to choose by) */
    unsigned long mask = TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_CWAVE) | TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TL2) |
                         TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TSM);
    CHECK_OK(trapeze_group_fit(obs, 5, mask, 0, &fit, NULL, NULL));
    CHECK_NEAR(fit.value[TRAPEZE_GROUP_TSM], 50, 1e-3);
    CHECK_NEAR(fit.value[TRAPEZE_GROUP_CWAVE], 100, 1e-3);
    CHECK(fit.value[TRAPEZE_GROUP_TL2] < 1e-6 && fit.value[TRAPEZE_GROUP_TDRAM] < 1e-6);
    /* without tsm in the mask the L2 time takes it, 5 cycles an access
     * (50 a TB of 10 lines), and the fit is exact too: the tie was real */
    trapeze_group_params_default(&fit);
    fit.value[TRAPEZE_GROUP_TDRAM] = 0;
    trapeze_fit_report rep;
    CHECK_OK(trapeze_group_fit(obs, 5, mask & ~TRAPEZE_GROUP_MASK(TRAPEZE_GROUP_TSM), 0, &fit, &rep,
                               NULL));
    CHECK(fit.value[TRAPEZE_GROUP_TSM] == 0);
    CHECK_NEAR(fit.value[TRAPEZE_GROUP_TL2] * fit.value[TRAPEZE_GROUP_MU], 5, 1e-3);
    for (int i = 0; i < 5; i++) {
        trapeze_group_eval e;
        trapeze_group_set_params(m, &fit);
        CHECK_OK(trapeze_group_evaluate(m, &g[i], &e, NULL));
        CHECK_NEAR(e.cycles, obs[i].cycles, 1e-3 * obs[i].cycles);
    }
    for (int i = 0; i < 5; i++)
        trapeze_grouping_free(&g[i]);
    trapeze_group_destroy(m);
    graph_free(&s);
}

static void test_fit_recovers(void)
{
    fit_recovers(0, 0);
    fit_recovers(0, 1);
    fit_recovers(150, 1);
}

/* A kernel of fewer TBs than SMs (atax: 4 TBs on 15 SMs): k-way-TS's
 * parts outnumber the TBs; every TB must still be placed exactly once (it
 * overran a buffer of one entry per TB, caught under SAN=1). */
static void test_kway_fewer_tbs_than_sms(void)
{
    graph s;
    matmul_like(&s, 4, 1, 5, 5);
    sim_locality_adj a;
    sim_tb_groups l;
    CHECK_OK(sim_locality_adj_build(&s.g, &a, NULL));
    CHECK_OK(sim_locality_kway_ts(&a, 15, &l, NULL));
    CHECK(l.n_groups == 15 && l.gstart[15] == 4);
    int seen[4] = {0};
    for (long i = 0; i < l.gstart[15]; i++)
        if (l.ids[i] < 4)
            seen[l.ids[i]]++;
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
    sim_tb_groups_free(&l);
    sim_locality_adj_free(&a);
    graph_free(&s);
}

/* k-way-TS and RB-TS partitions are the same whatever runs beside them:
 * METIS keeps its random state in globals, so two threads partitioning at
 * once (validate --model group --threads 2) drew from one generator and
 * gave other groupings, hence other simulated cycles, now and then. */
typedef struct {
    const sim_locality_adj *a;
    sim_tb_groups want[2];
    int mismatches;
} partition_job;

static int same_groups(const sim_tb_groups *x, const sim_tb_groups *y)
{
    if (x->n_groups != y->n_groups)
        return 0;
    long n = x->gstart[x->n_groups];
    return !memcmp(x->gstart, y->gstart, (size_t)(x->n_groups + 1) * sizeof *x->gstart) &&
           !memcmp(x->ids, y->ids, (size_t)n * sizeof *x->ids);
}

static void *partition_again(void *arg)
{
    partition_job *j = arg;
    for (int r = 0; r < 25; r++) {
        sim_tb_groups k, b;
        if (sim_locality_kway_ts(j->a, 15, &k, NULL) || sim_locality_rb_ts(j->a, 6, &b, NULL)) {
            j->mismatches++;
            continue;
        }
        j->mismatches += !same_groups(&k, &j->want[0]) + !same_groups(&b, &j->want[1]);
        sim_tb_groups_free(&k);
        sim_tb_groups_free(&b);
    }
    return NULL;
}

static void test_partitions_thread_independent(void)
{
    graph s;
    matmul_like(&s, 24, 24, 7, 5);
    sim_locality_adj a;
    CHECK_OK(sim_locality_adj_build(&s.g, &a, NULL));
    partition_job jobs[4];
    CHECK_OK(sim_locality_kway_ts(&a, 15, &jobs[0].want[0], NULL));
    CHECK_OK(sim_locality_rb_ts(&a, 6, &jobs[0].want[1], NULL));
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i].a = &a;
        jobs[i].want[0] = jobs[0].want[0];
        jobs[i].want[1] = jobs[0].want[1];
        jobs[i].mismatches = 0;
        CHECK(pthread_create(&th[i], NULL, partition_again, &jobs[i]) == 0);
    }
    int mismatches = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        mismatches += jobs[i].mismatches;
    }
    CHECK(mismatches == 0);
    sim_tb_groups_free(&jobs[0].want[0]);
    sim_tb_groups_free(&jobs[0].want[1]);
    sim_locality_adj_free(&a);
    graph_free(&s);
}

/* A chain 0-1-...-(n-1), each neighbour pair sharing 5 lines. */
static void chain(graph *s, long n)
{
    memset(s, 0, sizeof *s);
    s->g.n_tbs = n;
    s->g.grid[0] = (int)n;
    s->g.grid[1] = s->g.grid[2] = 1;
    s->fe = calloc((size_t)n, sizeof *s->fe);
    s->fl = calloc((size_t)n, sizeof *s->fl);
    s->g.edges = calloc((size_t)n, sizeof *s->g.edges);
    for (long t = 0; t < n; t++) {
        s->fl[t] = 10;
        s->fe[t] = 320;
        if (t + 1 < n)
            s->g.edges[s->g.n_edges++] = (trapeze_locality_edge){t, t + 1, 160, 5, 0};
    }
    s->g.elements = s->fe;
    s->g.lines = s->fl;
}

/* Chen's dispatch decided before launch, worked out by hand. Chain of 8,
 * 2 SMs x 2: launch SM0 takes 0 (nothing anywhere), SM1 2 (1 shares with
 * SM0's 0, 2 shares nothing), SM0 1 (shares with its 0), SM1 3 (with its
 * 2). 0 ends: SM0's 1 has no waiting neighbour, SM1's 3 holds 4, so 5.
 * 2 ends: SM1 takes 4 (its 3). 1 ends: SM0 takes 6 (its 5). 3 ends: SM1's
 * 4 has none; 7 is the only one left (it shares with SM0's 6, least). With
 * x = 1 an SM has no resident left when it chooses: chain of 6 on 2 SMs
 * gives 0, 2 (1 is SM0's neighbour), 4 (1 and 3 are SM1's), 1, 3, 5. */
static void test_static_chen(void)
{
    graph s;
    chain(&s, 8);
    trapeze_group_machine mach = {2, 2, 128, 6144, 0, 0, 1, 0, 0};
    trapeze_grouping g;
    CHECK_OK(trapeze_locality_chen_grouping(&s.g, mach.n_sm, mach.tbs_per_sm, &g, NULL));
    static const int want_group[8] = {0, 0, 1, 1, 1, 0, 0, 1};
    static const long want_order[8] = {0, 1, 0, 1, 2, 2, 3, 3};
    for (int t = 0; t < 8; t++) {
        CHECK(g.group[t] == want_group[t]);
        CHECK(g.order[t] == want_order[t]);
    }
    CHECK_OK(trapeze_grouping_check(&g, NULL));
    trapeze_grouping_free(&g);
    graph_free(&s);

    chain(&s, 6);
    mach.tbs_per_sm = 1;
    CHECK_OK(trapeze_locality_chen_grouping(&s.g, mach.n_sm, mach.tbs_per_sm, &g, NULL));
    static const int want1_group[6] = {0, 1, 1, 0, 0, 1};
    static const long want1_order[6] = {0, 1, 0, 2, 1, 2};
    for (int t = 0; t < 6; t++) {
        CHECK(g.group[t] == want1_group[t]);
        CHECK(g.order[t] == want1_order[t]);
    }
    trapeze_grouping_free(&g);

    /* more SMs than TBs: one TB each, 0, 2, 4 sharing nothing with the
     * placed ones, then the one sharing least: 5 (5 lines, with 4), then 1
     * and 3 (10 each: 1 the smaller id); no SMs: an error */
    mach = (trapeze_group_machine){10, 4, 128, 6144, 0, 0, 1, 0, 0};
    CHECK_OK(trapeze_locality_chen_grouping(&s.g, mach.n_sm, mach.tbs_per_sm, &g, NULL));
    for (int t = 0; t < 6; t++)
        CHECK(g.group[t] == (t == 0 ? 0 : t == 2 ? 1 : t == 4 ? 2 : t == 5 ? 3 : t == 1 ? 4 : 5) &&
              g.order[t] == 0);
    trapeze_grouping_free(&g);
    trapeze_error err;
    mach.n_sm = 0;
    CHECK(trapeze_locality_chen_grouping(&s.g, mach.n_sm, mach.tbs_per_sm, &g, &err) == TRAPEZE_EINVAL);
    graph_free(&s);
}

int main(void)
{
    test_partitions_thread_independent();
    test_placements();
    test_static_chen();
    test_tile_shape();
    test_candidate_wins();
    test_fit_recovers();
    test_fit_tie_keeps_tsm();
    test_kway_fewer_tbs_than_sms();
    return check_report("test_group_opt");
}
