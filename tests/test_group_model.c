/*
 * test_group_model.c - the TB grouping model on hand-computed cases, its
 * gradients against finite differences, and the grouping file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture.h"
#include "model/group.h"
#include "trapeze.h"

/* A graph of n TBs on a 1D grid, every footprint f lines. */
typedef struct {
    trapeze_locality_graph g;
    long long fe[64], fl[64];
    trapeze_locality_edge e[256];
} small_graph;

static void graph_init(small_graph *s, long n, long long f)
{
    memset(s, 0, sizeof *s);
    s->g.n_tbs = n;
    s->g.line_bytes = 128;
    s->g.grid[0] = (int)n;
    s->g.grid[1] = s->g.grid[2] = 1;
    for (long t = 0; t < n; t++)
        s->fe[t] = 32 * (s->fl[t] = f);
    s->g.elements = s->fe;
    s->g.lines = s->fl;
    s->g.edges = s->e;
}

static void edge(small_graph *s, long i, long j, long long lines)
{
    s->e[s->g.n_edges++] = (trapeze_locality_edge){i, j, 32 * lines, lines, 0};
}

/* queue[t] and position[t] given as arrays. */
static trapeze_group_params exact_params(void)
{
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_MU] = 1;
    p.value[TRAPEZE_GROUP_ETA1] = 1;
    p.value[TRAPEZE_GROUP_ETA2] = 1;
    p.value[TRAPEZE_GROUP_NU] = 1;
    p.value[TRAPEZE_GROUP_CWAVE] = 100;
    p.value[TRAPEZE_GROUP_TL2] = 1;
    p.value[TRAPEZE_GROUP_TDRAM] = 0;
    p.value[TRAPEZE_GROUP_OVERLAP] = 0;   /* q = 1: the three times add up */
    return p;
}

/* Two TBs reading the same 10 lines: on one SM the second finds them in L1
 * and L2 accesses halve (20 -> 10); split over two SMs both miss. */
static void test_shared_pair_halves_l2(void)
{
    small_graph s;
    graph_init(&s, 2, 10);
    edge(&s, 0, 1, 10);
    trapeze_group_machine mach = {2, 2, 128, 1e6, 0, 0, 1, 0, 0};
    trapeze_group_params p = exact_params();
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&s.g, &mach, &p, &m, NULL));
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 2, NULL));
    trapeze_group_eval same, split;
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    CHECK_OK(trapeze_group_evaluate(m, &g, &split, NULL));
    CHECK_NEAR(same.l2_accesses, 10, 1e-12);
    CHECK_NEAR(split.l2_accesses, 20, 1e-12);
    CHECK_NEAR(same.l1_shared_hits, 10, 1e-12);
    CHECK_NEAR(split.l1_shared_hits, 0, 1e-12);
    /* DRAM: the second TB's lines are in L2 either way; retention
     * exp(-fresh / C2), fresh = (10 + 0) / 2 lines a TB adds */
    CHECK_NEAR(same.dram_reads, 20 - 10 * exp(-5e-6), 1e-9);
    CHECK_NEAR(split.dram_reads, same.dram_reads, 1e-12);
    /* cycles = cwave max(1, Q/x) + tl2 (the busiest queue's L2 accesses):
     * same 100 * 1 + 10; split: both run at once either way (x = 2), each
     * queue reads 10: 100 * 1 + 10. Keeping the pair in one L1 saves L2
     * accesses, not time, here. */
    CHECK_NEAR(same.cycles, 110, 1e-6);
    CHECK_NEAR(split.cycles, 110, 1e-6);
    CHECK_NEAR(same.max_queue, 2, 0);
    trapeze_group_destroy(m);
    /* without the sharing, the busiest queue bounds: both TBs on one SM
     * read 20 there (100 + 20), split each reads 10 (100 + 10); with x = 1
     * the shared queue also takes two waves (200 + 20) */
    small_graph u;
    graph_init(&u, 2, 10);
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    CHECK_OK(trapeze_group_evaluate(m, &g, &split, NULL));
    CHECK_NEAR(same.cycles, 120, 1e-6);
    CHECK_NEAR(split.cycles, 110, 1e-6);
    trapeze_group_destroy(m);
    trapeze_group_machine one = mach;
    one.tbs_per_sm = 1;
    CHECK_OK(trapeze_group_create(&u.g, &one, &p, &m, NULL));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    CHECK_NEAR(same.cycles, 220, 1e-6);
    trapeze_group_destroy(m);
    /* the SM's own throughput (tsm per TB of the queue): co-resident TBs
     * share it, so with x = 2 the pair on one SM takes 100 + 2 * 50 + 20
     * where split each SM takes 100 + 50 + 10 (the flat Tc alone said the
     * pair costs only its extra L2 accesses) */
    trapeze_group_params ps = p;
    ps.value[TRAPEZE_GROUP_TSM] = 50;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &ps, &m, NULL));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    CHECK_OK(trapeze_group_evaluate(m, &g, &split, NULL));
    CHECK_NEAR(same.cycles, 220, 1e-6);
    CHECK_NEAR(split.cycles, 160, 1e-6);
    CHECK_NEAR(same.t_sm, 100, 1e-9);
    CHECK_NEAR(split.t_sm, 50, 1e-9);
    CHECK_NEAR(same.dcycles_dparam[TRAPEZE_GROUP_TSM], 2, 1e-9);
    /* what bounds each: split, Tc 100 over Ts 50 and T2 10; the pair, Tc
     * and Ts 100 each (the first of equals) over T2 20 */
    CHECK(!strcmp(trapeze_group_eval_bound(&split), "latency"));
    CHECK(!strcmp(trapeze_group_eval_bound(&same), "latency"));
    same.t_sm = 101;
    CHECK(!strcmp(trapeze_group_eval_bound(&same), "sm"));
    same.t_dram = 102;
    CHECK(!strcmp(trapeze_group_eval_bound(&same), "dram"));
    trapeze_group_destroy(m);
    /* counted in elements (32 a line here): 32 times the accesses, the same
     * decay (capacities converted at 32 elements a line) */
    mach.by_elements = 1;
    CHECK_OK(trapeze_group_create(&s.g, &mach, &p, &m, NULL));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    CHECK_NEAR(same.l2_accesses, 320, 1e-9);
    CHECK_NEAR(same.dram_reads, 640 - 320 * exp(-5e-6), 1e-6);
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

/* Three TBs of one row reading one panel of 4 lines (a clique): the third
 * overlaps 4 lines with each earlier TB. Largest overlap: 4 (the truth);
 * clipped sum: 8; theta blends them. */
static void test_clique_theta(void)
{
    small_graph s;
    graph_init(&s, 3, 10);
    edge(&s, 0, 1, 4);
    edge(&s, 0, 2, 4);
    edge(&s, 1, 2, 4);
    trapeze_group_machine mach = {1, 3, 128, 1e6, 0, 0, 1, 0, 0};
    trapeze_group_params p = exact_params();
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 3, 1, NULL));
    fixture_set_grouping(&g, (int[]){0, 0, 0}, (long[]){0, 1, 2});
    const double theta[3] = {0, 0.5, 1}, l2[3] = {30 - 12, 30 - 10, 30 - 8};
    for (int i = 0; i < 3; i++) {
        p.value[TRAPEZE_GROUP_THETA] = theta[i];
        trapeze_group_model *m;
        trapeze_group_eval e;
        CHECK_OK(trapeze_group_create(&s.g, &mach, &p, &m, NULL));
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
        CHECK_NEAR(e.l2_accesses, l2[i], 1e-12);
        /* d l2 / d theta = -(max - clipped sum) summed: TB1 0, TB2 -(4 - 8) */
        CHECK_NEAR(e.dl2_dparam[TRAPEZE_GROUP_THETA], 4, 1e-12);
        trapeze_group_destroy(m);
    }
    trapeze_grouping_free(&g);
}

/* One TB per SM at a time (x = 1): the second TB of the queue finds the
 * first's lines only as far as L1 kept them, exp(-fbar / C1). */
static void test_l1_decay_after_residency(void)
{
    small_graph s;
    graph_init(&s, 2, 10);
    edge(&s, 0, 1, 10);
    trapeze_group_machine mach = {1, 1, 10, 1e6, 0, 0, 1, 0, 0};
    trapeze_group_params p = exact_params();
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&s.g, &mach, &p, &m, NULL));
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 1, NULL));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    trapeze_group_eval e;
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
    CHECK_NEAR(e.l2_accesses, 20 - 10 * exp(-1.0), 1e-12);
    /* a bad grouping for this model is refused */
    trapeze_grouping g2;
    CHECK_OK(trapeze_grouping_alloc(&g2, 2, 2, NULL));
    trapeze_error err;
    CHECK(trapeze_group_evaluate(m, &g2, &e, &err) == TRAPEZE_EINVAL);
    trapeze_grouping_free(&g2);
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

/* The value-only evaluation (model/group_values.c, the tile search's)
 * against the full one at the model's params and at params beyond a
 * range (held at its edge): every output the same bits, no gradient. */
static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_values_only(const trapeze_group_model *m, const trapeze_group_params *p,
                              const trapeze_grouping *g, const trapeze_group_eval *e)
{
    trapeze_group_eval v;
    CHECK_OK(grp_group_evaluate_values(m, g, &v, NULL));
    CHECK(same_bits(v.l1_shared_hits, e->l1_shared_hits) && same_bits(v.l2_accesses, e->l2_accesses));
    CHECK(same_bits(v.dram_reads, e->dram_reads) && same_bits(v.max_queue, e->max_queue));
    CHECK(same_bits(v.t_compute, e->t_compute) && same_bits(v.t_sm, e->t_sm));
    CHECK(same_bits(v.t_l2, e->t_l2) && same_bits(v.t_dram, e->t_dram));
    CHECK(same_bits(v.t_norm, e->t_norm) && same_bits(v.t_gpu_dram, e->t_gpu_dram));
    CHECK(same_bits(v.t_gpu_l2, e->t_gpu_l2) && same_bits(v.cycles, e->cycles));
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++)
        CHECK(v.dl2_dparam[k] == 0 && v.ddram_dparam[k] == 0 && v.dcycles_dparam[k] == 0);
    double out_of_range[TRAPEZE_GROUP_NPARAMS];
    memcpy(out_of_range, p->value, sizeof out_of_range);
    out_of_range[TRAPEZE_GROUP_THETA] = 1.5;     /* held at 1 */
    out_of_range[TRAPEZE_GROUP_RETAIN2] = 1e-3;  /* held at 0.01 */
    for (int at = 0; at < 2; at++) {
        const double *params = at ? out_of_range : p->value;
        grp_duals d;
        grp_vals w;
        CHECK_OK(grp_evaluate_duals(m, params, g, &d, NULL));
        CHECK_OK(grp_evaluate_values(m, params, g, &w, NULL));
        const grp_dual *dd[] = {&d.l1_hits, &d.l2, &d.dram, &d.tc, &d.tsm, &d.t2, &d.td,
                                &d.tg, &d.t2g, &d.norm, &d.cycles, &d.l2_max, &d.dram_max};
        const grp_val *ww[] = {&w.l1_hits, &w.l2, &w.dram, &w.tc, &w.tsm, &w.t2, &w.td,
                               &w.tg, &w.t2g, &w.norm, &w.cycles, &w.l2_max, &w.dram_max};
        for (int i = 0; i < (int)(sizeof dd / sizeof *dd); i++)
            CHECK(same_bits(dd[i]->v, ww[i]->v) && ww[i]->d[0] == 0);
        CHECK(d.max_queue == w.max_queue && d.waves == w.waves);
        CHECK(at == 0 || d.cycles.v != e->cycles);   /* the edges moved the prediction */
    }
}

/* Exact gradients: every parameter, three outputs, a random graph and
 * grouping, against central differences. */
/* rate: the whole GPU's DRAM reads per cycle (0: no whole-GPU term);
 * beta2: the whole GPU's L2 contention (< 0: no L2 term). */
static void gradients_at(double rate, double beta, int by_lines, double beta2, int l1_fetch)
{
    small_graph s;
    graph_init(&s, 40, 0);
    unsigned long r = 12345;
#define RND() ((r = r * 6364136223846793005UL + 1442695040888963407UL) >> 33)
    for (int t = 0; t < 40; t++)
        s.fl[t] = 20 + (long long)(RND() % 30);
    for (int i = 0; i < 40; i++)
        for (int j = i + 1; j < 40 && s.g.n_edges < 250; j++)
            if (RND() % 5 == 0)
                edge(&s, i, j, 1 + (long long)(RND() % 15));
    trapeze_group_machine mach = {3, 4, 64, 2000, by_lines, rate, 1, by_lines ? 128 : 0, 0};
    for (int t = 0; l1_fetch && t < 40; t++)   /* partly used lines: 20 elements a line */
        s.fe[t] = 20 * s.fl[t] + t;
    s.g.store_sectors = 300;   /* Tg about 65,000 cycles at 0.02 a cycle: the floor */
    mach.l2_accesses_per_cycle = 0.05;   /* T2g about 40,000 cycles: under the floor */
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    p.value[TRAPEZE_GROUP_MU] = 1.3;
    p.value[TRAPEZE_GROUP_ETA2] = 0.7;
    p.value[TRAPEZE_GROUP_RETAIN2] = 0.3;
    p.value[TRAPEZE_GROUP_THETA] = 0.4;
    p.value[TRAPEZE_GROUP_NU] = 1.2;
    p.value[TRAPEZE_GROUP_CWAVE] = 3000;
    p.value[TRAPEZE_GROUP_TL2] = 2;
    p.value[TRAPEZE_GROUP_TDRAM] = 3;
    p.value[TRAPEZE_GROUP_OVERLAP] = 0.6;
    p.value[TRAPEZE_GROUP_TSM] = 700;
    p.value[TRAPEZE_GROUP_CONTENTION] = beta;
    p.l2_contention = beta2;
    p.l1_by_fetch = l1_fetch;
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 40, 3, NULL));
    long next[3] = {0, 0, 0};
    for (int t = 0; t < 40; t++) {
        g.group[t] = (int)(RND() % 3);
        g.order[t] = next[g.group[t]]++;
    }
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&s.g, &mach, &p, &m, NULL));
    trapeze_group_eval e;
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
    CHECK(e.l1_shared_hits > 0 && e.dram_reads > 0);
    check_values_only(m, &p, &g, &e);
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++) {
        if (k == TRAPEZE_GROUP_CONTENTION && beta == 0)
            continue;   /* at its lower edge: max(N, Tg), one-sided (group.c) */
        trapeze_group_params q = p;
        double h = 1e-6 * (fabs(p.value[k]) + 1e-3);
        trapeze_group_eval hi, lo;
        q.value[k] = p.value[k] + h;
        trapeze_group_set_params(m, &q);
        CHECK_OK(trapeze_group_evaluate(m, &g, &hi, NULL));
        q.value[k] = p.value[k] - h;
        trapeze_group_set_params(m, &q);
        CHECK_OK(trapeze_group_evaluate(m, &g, &lo, NULL));
        double fd_c = (hi.cycles - lo.cycles) / (2 * h);
        double fd_l2 = (hi.l2_accesses - lo.l2_accesses) / (2 * h);
        double fd_d = (hi.dram_reads - lo.dram_reads) / (2 * h);
        CHECK_NEAR(e.dcycles_dparam[k], fd_c, 1e-5 * (fabs(fd_c) + 1));
        CHECK_NEAR(e.dl2_dparam[k], fd_l2, 1e-5 * (fabs(fd_l2) + 1));
        CHECK_NEAR(e.ddram_dparam[k], fd_d, 1e-5 * (fabs(fd_d) + 1));
    }
    /* the gradients that must not vanish here */
    CHECK(fabs(e.ddram_dparam[TRAPEZE_GROUP_RETAIN2]) > 1e-6);
    if (beta2 < 0)
        CHECK(e.t_gpu_l2 == 0);
    else   /* the L2 term moves the cycles, through mu too */
        CHECK(e.t_gpu_l2 > 0 && e.cycles > e.t_gpu_l2 && e.cycles > e.t_gpu_dram);
    if (rate == 0) {
        CHECK(fabs(e.dcycles_dparam[TRAPEZE_GROUP_OVERLAP]) > 1e-6);
        CHECK(fabs(e.dcycles_dparam[TRAPEZE_GROUP_TSM]) > 1e-6);
        CHECK(e.t_gpu_dram == 0);
    } else if (beta > 0) {   /* Tg and the norm together: through both */
        CHECK(e.cycles > e.t_gpu_dram && e.cycles > e.t_norm);
        CHECK(fabs(e.dcycles_dparam[TRAPEZE_GROUP_CONTENTION]) > 1e-6);
        CHECK(fabs(e.dcycles_dparam[TRAPEZE_GROUP_CWAVE]) > 1e-9);
    } else {   /* the floor sets the cycles: through the DRAM constants only */
        CHECK(e.t_gpu_dram == e.cycles);
        CHECK(fabs(e.dcycles_dparam[TRAPEZE_GROUP_RETAIN2]) > 1e-6);
        CHECK(e.dcycles_dparam[TRAPEZE_GROUP_CWAVE] == 0);
    }
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

static void test_gradients(void)
{
    gradients_at(0, 0, 0, -1, 0);
    gradients_at(0.02, 0, 0, -1, 0);
    gradients_at(0.02, 0.3, 1, -1, 0);   /* contention, and DRAM reads in lines beside elements */
    gradients_at(0.02, 0.3, 0, 0.4, 0);  /* and the whole GPU's L2 beside them */
    gradients_at(0.02, 0.3, 1, -1, 1);   /* the L1's sharing in lines, its accesses in elements */
}

/* The whole GPU's DRAM: the launch's reads and its stores' sectors at the
 * GPU's sustained rate, Tg = (dram + W) / R, a floor under the cycles, the
 * same for every grouping that reads the same data. */
static void test_whole_gpu_dram(void)
{
    small_graph u;
    graph_init(&u, 2, 10);   /* no sharing: dram = nu (10 + 10) = 20 */
    u.g.store_sectors = 6;
    trapeze_group_machine mach = {2, 2, 128, 1e6, 0, 0.5, 1, 0, 0};
    trapeze_group_params p = exact_params();
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 2, NULL));
    trapeze_group_eval same, split;
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    CHECK_OK(trapeze_group_evaluate(m, &g, &split, NULL));
    /* Tg = (20 + 6) / 0.5 = 52, under 120 (one SM) and 110 (split) */
    CHECK_NEAR(same.t_gpu_dram, 52, 1e-9);
    CHECK_NEAR(split.t_gpu_dram, 52, 1e-9);
    CHECK_NEAR(same.cycles, 120, 1e-6);
    CHECK_NEAR(split.cycles, 110, 1e-6);
    CHECK_NEAR(split.dcycles_dparam[TRAPEZE_GROUP_NU], 0, 1e-12);
    CHECK(!strcmp(trapeze_group_eval_bound(&split), "latency"));
    trapeze_group_destroy(m);
    /* at 0.1 a cycle Tg = 260 is the launch's time, whatever the grouping;
     * d cycles / d nu = 20 / 0.1 */
    mach.dram_reads_per_cycle = 0.1;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    CHECK_OK(trapeze_group_evaluate(m, &g, &split, NULL));
    CHECK_NEAR(split.cycles, 260, 1e-6);
    CHECK_NEAR(split.dcycles_dparam[TRAPEZE_GROUP_NU], 200, 1e-9);
    CHECK(!strcmp(trapeze_group_eval_bound(&split), "gpu-dram"));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    CHECK_NEAR(same.cycles, 260, 1e-6);
    trapeze_group_destroy(m);
    /* DRAM atoms of 64 bytes (the GTX 480's): each 32-byte read moves two
     * transfers, the stores' whole lines none wasted: Tg = (2 x 20 + 6) /
     * 0.1 = 460, d cycles / d nu = 2 x 20 / 0.1 = 400 */
    mach.dram_read_transfers = 2;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    CHECK_OK(trapeze_group_evaluate(m, &g, &same, NULL));
    CHECK_NEAR(same.t_gpu_dram, 460, 1e-6);
    CHECK_NEAR(same.cycles, 460, 1e-6);
    CHECK_NEAR(same.dcycles_dparam[TRAPEZE_GROUP_NU], 400, 1e-9);
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

/* DRAM contention: cycles = ((N + Tg) + sqrt((N - Tg)^2 + 4 beta N Tg)) / 2,
 * max(N, Tg) at beta 0, N + Tg at 1. */
static void test_contention(void)
{
    CHECK(trapeze_group_contention_cycles(100, 60, 0) == 100);
    CHECK(trapeze_group_contention_cycles(40, 60, 0) == 60);
    CHECK_NEAR(trapeze_group_contention_cycles(100, 60, 1), 160, 1e-9);
    /* (160 + sqrt(40^2 + 4 x 0.25 x 6000)) / 2 */
    CHECK_NEAR(trapeze_group_contention_cycles(100, 60, 0.25), 123.58898943540675, 1e-9);
    /* the two TBs of test_whole_gpu_dram split over two SMs at 0.1 a cycle:
     * N = 110, Tg = 260, beta 0.5: (370 + sqrt(150^2 + 2 x 110 x 260)) / 2 */
    small_graph u;
    graph_init(&u, 2, 10);
    u.g.store_sectors = 6;
    trapeze_group_machine mach = {2, 2, 128, 1e6, 0, 0.1, 1, 0, 0};
    trapeze_group_params p = exact_params();
    p.value[TRAPEZE_GROUP_CONTENTION] = 0.5;
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 2, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    trapeze_group_eval e;
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
    CHECK_NEAR(e.t_norm, 110, 1e-6);
    CHECK_NEAR(e.t_gpu_dram, 260, 1e-6);
    CHECK_NEAR(e.cycles, 326.155942134931, 1e-6);
    CHECK(!strcmp(trapeze_group_eval_bound(&e), "gpu-dram"));
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

/* The whole GPU's L2: the launch's L2 accesses and store sectors at the
 * slices' peak rate, T2g = (l2 + W) / R2, beside C(N, Tg; beta) at L2
 * contention beta2; off (the default, beta2 < 0) the cycles are the DRAM's
 * alone. Two TBs of 10 lines, no sharing, split over two SMs: N = 100 + 10
 * = 110, l2 = 20, W = 6, R2 = 0.2: T2g = 130. */
static void test_whole_gpu_l2(void)
{
    small_graph u;
    graph_init(&u, 2, 10);
    u.g.store_sectors = 6;
    trapeze_group_machine mach = {2, 2, 128, 1e6, 0, 0, 1, 0, 0};
    mach.l2_accesses_per_cycle = 0.2;
    trapeze_group_params p = exact_params();
    trapeze_group_model *m;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 2, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    trapeze_group_eval e;
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));   /* off: as before the term */
    CHECK_NEAR(e.cycles, 110, 1e-9);
    CHECK(e.t_gpu_l2 == 0);
    CHECK(!strcmp(trapeze_group_eval_bound(&e), "latency"));
    p.l2_contention = 0;   /* the floor alone: max(110, 130) */
    trapeze_group_set_params(m, &p);
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
    CHECK_NEAR(e.t_gpu_l2, 130, 1e-9);
    CHECK_NEAR(e.cycles, 130, 1e-9);
    CHECK_NEAR(e.dcycles_dparam[TRAPEZE_GROUP_MU], 20 / 0.2, 1e-9);
    CHECK(!strcmp(trapeze_group_eval_bound(&e), "gpu-l2"));
    /* beta2 1/2: (240 + sqrt(20^2 + 2 x 110 x 130)) / 2; d/dmu through both
     * T2 = 10 mu in N and T2g = (20 mu + 6) / 0.2, by central differences */
    p.l2_contention = 0.5;
    trapeze_group_set_params(m, &p);
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
    CHECK_NEAR(e.cycles, 205.14693182963202, 1e-9);
    CHECK_NEAR(e.dcycles_dparam[TRAPEZE_GROUP_MU], 96.39902546609846, 1e-6);
    trapeze_group_destroy(m);
    /* with the DRAM's Tg = 260 at beta 1/2 first (test_contention's 326.156):
     * (456.156 + sqrt(196.156^2 + 2 x 326.156 x 130)) / 2 */
    mach.dram_reads_per_cycle = 0.1;
    p.value[TRAPEZE_GROUP_CONTENTION] = 0.5;
    CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
    CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
    CHECK_NEAR(e.t_gpu_dram, 260, 1e-9);
    CHECK_NEAR(e.cycles, 403.632591193172, 1e-6);
    CHECK(!strcmp(trapeze_group_eval_bound(&e), "gpu-dram"));
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

/* DRAM reads in lines (an L1 of whole lines) or in elements: two TBs of 10
 * lines (320 elements) on two SMs sharing 5 lines but 32 elements (a halo:
 * one element of each shared line); nu = eta2 = 1, theta 0.5, C2 1e6 lines.
 * In lines fresh = (10 + 5) / 2 = 7.5, w2 = exp(-7.5 / 1e6), dram = 20 -
 * 5 w2; in elements C2 is 3.2e7 (32 a line), fresh = (320 + 288) / 2 = 304,
 * dram = 640 - 32 exp(-304 / 3.2e7). L2 accesses stay in elements. */
static void test_dram_by_lines(void)
{
    small_graph u;
    graph_init(&u, 2, 10);
    u.e[u.g.n_edges++] = (trapeze_locality_edge){0, 1, 32, 5, 0};
    trapeze_group_params p = exact_params();
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 2, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    for (int lines = 0; lines <= 1; lines++) {
        trapeze_group_machine mach = {2, 2, 128, 1e6, 1, 0, 1, lines ? 128 : 0, 0};
        trapeze_group_model *m;
        CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
        trapeze_group_eval e;
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
        CHECK_NEAR(e.dram_reads, lines ? 15.000037499859376 : 608.000303998556, 1e-9);
        CHECK_NEAR(e.l2_accesses, 640, 1e-9);   /* apart: no L1 sharing */
        trapeze_group_destroy(m);
    }
    trapeze_grouping_free(&g);
}

/* DRAM reads in what the L1 fetches a miss: 32-byte sectors (a sectored
 * L1) or 128-byte lines. TB 0 reads 10 whole lines (320 elements, 40
 * sectors); TB 1 reads 5 whole lines of its own and one element of each of
 * 5 of TB 0's lines (a halo): 165 elements, 25 sectors, 10 lines; they
 * share 5 elements, 5 sectors, 5 lines. On two SMs (w2 = exp(-fresh / C2),
 * C2 1e6 lines at the graph's mean units per line, nu = eta2 = 1, theta
 * 0.5, so dram = F0 + F1 - 5 w2):
 *   lines:    fresh (10 + 5) / 2 = 7.5, C2 1e6: 15 reads, 1,920 bytes;
 *   sectors:  fresh (40 + 20) / 2 = 30, C2 1e6 x 65 / 20 = 3.25e6:
 *             60 reads, 1,920 bytes: TB 1's halo moves 5 sectors, not 5
 *             lines, and TB 0's lines come whole either way;
 *   elements: fresh (320 + 160) / 2 = 240, C2 2.425e7: 480.
 * A fetch size the graph does not count, or sectors asked of a graph read
 * from a CSV (none counted), is refused. */
static void test_dram_by_fetch(void)
{
    long long fe[2] = {320, 165}, fs[2] = {40, 25}, fl[2] = {10, 10};
    trapeze_locality_edge ed = {0, 1, 5, 5, 5};
    trapeze_locality_graph gr = {.grid = {2, 1, 1}, .n_tbs = 2, .line_bytes = 128,
                                 .elements = fe, .lines = fl, .sector_bytes = 32,
                                 .sectors = fs, .n_edges = 1, .edges = &ed};
    trapeze_group_params p = exact_params();
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 2, NULL));
    fixture_set_grouping(&g, (int[]){0, 1}, (long[]){0, 0});
    const int fetch[3] = {128, 32, 0};
    const double want[3] = {15.000037499859376, 60.000046153633136, 480.0000494842912};
    for (int i = 0; i < 3; i++) {
        trapeze_group_machine mach = {2, 2, 128, 1e6, 1, 0, 1, fetch[i], 0};
        trapeze_group_model *m;
        CHECK_OK(trapeze_group_create(&gr, &mach, &p, &m, NULL));
        trapeze_group_eval e;
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
        CHECK_NEAR(e.dram_reads, want[i], 1e-9);
        CHECK_NEAR(e.l2_accesses, 485, 1e-9);   /* L2 accesses stay in elements */
        trapeze_group_destroy(m);
    }
    trapeze_group_machine odd = {2, 2, 128, 1e6, 1, 0, 1, 64, 0};
    trapeze_group_model *m = NULL;
    trapeze_error err;
    CHECK(trapeze_group_create(&gr, &odd, &p, &m, &err) == TRAPEZE_EINVAL && !m);
    CHECK(strstr(err.message, "fetches 64 bytes") != NULL);
    gr.sectors = NULL;
    gr.sector_bytes = 0;
    odd.dram_fetch_bytes = 32;
    CHECK(trapeze_group_create(&gr, &odd, &p, &m, &err) == TRAPEZE_EINVAL && !m);
    CHECK(strstr(err.message, "no sectors") != NULL);
    trapeze_grouping_free(&g);
}

/* What a TB finds in L1 in what the L1 fetches (params.l1_by_fetch): the
 * two TBs of test_dram_by_fetch (TB 0: 320 elements, 40 sectors, 10 lines;
 * TB 1: 165, 25, 10; sharing 5 of each) co-resident on one SM, mu = eta1
 * = 1. TB 1 finds TB 0's 5 shared units in L1 either way (theta: max and
 * sum are both 5); in elements they save 5 of its reads, l2 = 485 - 5 =
 * 480; as 5 of its 10 lines they save half its 165 elements, 82.5: l2 =
 * 402.5 (the 16 x 16 Jacobi tile beside its left neighbour); as 5 of its
 * 25 sectors, 165 / 5 = 33: l2 = 452. In the footprint's own unit (fetch
 * 0) the flag changes nothing: 480. */
static void test_l1_by_fetch(void)
{
    long long fe[2] = {320, 165}, fs[2] = {40, 25}, fl[2] = {10, 10};
    trapeze_locality_edge ed = {0, 1, 5, 5, 5};
    trapeze_locality_graph gr = {.grid = {2, 1, 1}, .n_tbs = 2, .line_bytes = 128,
                                 .elements = fe, .lines = fl, .sector_bytes = 32,
                                 .sectors = fs, .n_edges = 1, .edges = &ed};
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 2, 1, NULL));
    fixture_set_grouping(&g, (int[]){0, 0}, (long[]){0, 1});
    const int fetch[3] = {128, 32, 0};
    const double want[3] = {402.5, 452, 480};
    for (int on = 0; on <= 1; on++)
        for (int i = 0; i < 3; i++) {
            trapeze_group_params p = exact_params();
            p.l1_by_fetch = on;
            trapeze_group_machine mach = {1, 2, 128, 1e6, 1, 0, 1, fetch[i], 0};
            trapeze_group_model *m;
            CHECK_OK(trapeze_group_create(&gr, &mach, &p, &m, NULL));
            trapeze_group_eval e;
            CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
            const double l2 = on ? want[i] : 480;
            CHECK_NEAR(e.l2_accesses, l2, 1e-9);
            CHECK_NEAR(e.l1_shared_hits, 485 - l2, 1e-9);
            CHECK_NEAR(e.dl2_dparam[TRAPEZE_GROUP_MU], l2, 1e-9);
            CHECK_NEAR(e.dl2_dparam[TRAPEZE_GROUP_ETA1], l2 - 485, 1e-9);
            trapeze_group_destroy(m);
        }
    trapeze_grouping_free(&g);
}

/* The launch's distinct data bound its DRAM reads from below: three TBs of
 * 10 lines sharing one 6-line panel, on three SMs. The clipped sum (theta 0)
 * credits the third TB 6 + 6 = 12 clipped to 10 shared lines, dram = 30 - 6 w
 * - 10 = 14; the distinct lines are 6 + 3 x 4 = 18 = n fresh (fresh: 10, 4,
 * 4 over 3), so dram = nu 18, d dram / d nu = 18. At theta 1 (the largest
 * overlap) 30 - 12 w, just above 18, stands. */
static void test_dram_compulsory(void)
{
    small_graph u;
    graph_init(&u, 3, 10);
    edge(&u, 0, 1, 6);
    edge(&u, 0, 2, 6);
    edge(&u, 1, 2, 6);
    trapeze_group_machine mach = {3, 2, 128, 1e6, 0, 0, 1, 0, 0};
    trapeze_group_params p = exact_params();
    trapeze_grouping g;
    CHECK_OK(trapeze_grouping_alloc(&g, 3, 3, NULL));
    fixture_set_grouping(&g, (int[]){0, 1, 2}, (long[]){0, 0, 0});
    for (int t = 0; t <= 1; t++) {
        p.value[TRAPEZE_GROUP_THETA] = t;
        trapeze_group_model *m;
        CHECK_OK(trapeze_group_create(&u.g, &mach, &p, &m, NULL));
        trapeze_group_eval e;
        CHECK_OK(trapeze_group_evaluate(m, &g, &e, NULL));
        if (t == 0) {
            CHECK_NEAR(e.dram_reads, 18, 1e-12);
            CHECK_NEAR(e.ddram_dparam[TRAPEZE_GROUP_NU], 18, 1e-12);
        } else {
            CHECK(e.dram_reads > 18 && e.dram_reads < 18.001);
        }
        trapeze_group_destroy(m);
    }
    trapeze_grouping_free(&g);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void expect_load_error(const char *path, const char *text, const char *fragment)
{
    trapeze_grouping g;
    trapeze_error err;
    write_text(path, text);
    CHECK(trapeze_grouping_load(path, 3, 2, &g, &err) != TRAPEZE_OK);
    if (!strstr(err.message, fragment))
        fprintf(stderr, "message '%s' lacks '%s'\n", err.message, fragment);
    CHECK(strstr(err.message, fragment) != NULL);
    CHECK(g.group == NULL);
}

static void test_grouping_file(void)
{
    char dir[] = "/tmp/trapeze-grp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/g.csv", dir);
    trapeze_grouping g, back;
    CHECK_OK(trapeze_grouping_alloc(&g, 3, 2, NULL));
    fixture_set_grouping(&g, (int[]){1, 0, 1}, (long[]){1, 0, 0});
    CHECK_OK(trapeze_grouping_save(path, &g, NULL));
    CHECK_OK(trapeze_grouping_load(path, 3, 2, &back, NULL));
    for (int t = 0; t < 3; t++)
        CHECK(back.group[t] == g.group[t] && back.order[t] == g.order[t]);
    trapeze_grouping_free(&back);
    /* a grouping with a gap in a queue is refused before anything is written */
    g.order[0] = 2;
    trapeze_error err;
    CHECK(trapeze_grouping_save(path, &g, &err) == TRAPEZE_ERANGE);
    trapeze_grouping_free(&g);

    expect_load_error(path, "tb,grp,order\n0,0,0\n", ":1: header field 2");
    expect_load_error(path, "tb,group,order\n0,0,0\n1,0,1\n0,1,0\n", ":4: field tb: TB 0 listed twice");
    expect_load_error(path, "tb,group,order\n0,0,0\n1,2,0\n2,1,0\n", ":3: field group: 2 outside 0..1");
    expect_load_error(path, "tb,group,order\n0,0,0\n1,x,0\n", ":3: field group");
    expect_load_error(path, "tb,group,order\n0,0,0\n1,1,0\n", "TB 2 missing");
    expect_load_error(path, "tb,group,order\n0,0,0\n1,0,2\n2,1,0\n", "order 2 outside 0..1");
    expect_load_error(path, "tb,group,order\n0,0\n", ":2:");
    remove(path);
    rmdir(dir);
}

int main(void)
{
    test_shared_pair_halves_l2();
    test_clique_theta();
    test_l1_decay_after_residency();
    test_gradients();
    test_whole_gpu_dram();
    test_contention();
    test_whole_gpu_l2();
    test_dram_by_lines();
    test_dram_by_fetch();
    test_l1_by_fetch();
    test_dram_compulsory();
    test_grouping_file();
    return check_report("test_group_model");
}
