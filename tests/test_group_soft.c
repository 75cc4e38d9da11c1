/*
 * test_group_soft.c - the soft assignment for graphs without grid structure
 * (model/group_soft.c):
 *   - the relaxation's gradient against central differences on a random
 *     graph at a random point;
 *   - planted clusters (4 chains of 6 TBs, ids interleaved so no tile or
 *     id range finds them, strong edges along a chain, weak ones across):
 *     every cluster lands whole in one queue, so the shared data kept is
 *     exactly the chains' 4 x 5 x 10 = 200, the loads are 6 each, and each
 *     queue runs its chain in chain order (the greedy order);
 *   - rounding respects the constraints on an uneven count (25 TBs on 4
 *     queues: every TB once, no queue above ceil(25/4) = 7), and the
 *     refinement never keeps less shared data than the rounding.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

typedef struct {
    trapeze_locality_graph g;
    long long fe[64], fl[64];
    trapeze_locality_edge e[2048];
} graph;

static void init(graph *s, long n)
{
    memset(s, 0, sizeof *s);
    s->g.n_tbs = n;
    s->g.grid[0] = (int)n;
    s->g.grid[1] = s->g.grid[2] = 1;
    s->g.elements = s->fe;
    s->g.lines = s->fl;
    s->g.edges = s->e;
    for (long t = 0; t < n; t++)
        s->fe[t] = s->fl[t] = 40;
}

static void edge(graph *s, long a, long b, long long w)
{
    long i = a < b ? a : b, j = a < b ? b : a;
    s->e[s->g.n_edges++] = (trapeze_locality_edge){i, j, w, w, 0};
}

/* Edges must be sorted by (tb_i, tb_j). */
static int by_pair(const void *a, const void *b)
{
    const trapeze_locality_edge *x = a, *y = b;
    if (x->tb_i != y->tb_i)
        return x->tb_i < y->tb_i ? -1 : 1;
    return x->tb_j < y->tb_j ? -1 : x->tb_j > y->tb_j;
}

static trapeze_group_model *model_of(graph *s, int n_sm)
{
    qsort(s->e, (size_t)s->g.n_edges, sizeof *s->e, by_pair);
    trapeze_group_machine mach = {n_sm, 4, 128, 6144, 0, 0, 1, 0, 0};
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    trapeze_group_model *m = NULL;
    CHECK_OK(trapeze_group_create(&s->g, &mach, &p, &m, NULL));
    return m;
}

static unsigned long rng = 12345;
static double uniform(void)
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void gradient(void)
{
    static graph s;
    init(&s, 12);
    for (long i = 0; i < 12; i++)
        for (long j = i + 1; j < 12; j++)
            if (uniform() < 0.4)
                edge(&s, i, j, 1 + (long long)(9 * uniform()));
    trapeze_group_model *m = model_of(&s, 3);
    const int G = 3, n = 12;
    double th[36], g[36], X[36], dX[39];
    for (int k = 0; k < n * G; k++)
        th[k] = 2 * uniform() - 1;
    trapeze_group_soft_objective(m, G, th, g, X, dX);
    for (int k = 0; k < n * G; k++) {
        double h = 1e-6, save = th[k];
        th[k] = save + h;
        double fp = trapeze_group_soft_objective(m, G, th, NULL, X, dX);
        th[k] = save - h;
        double fm = trapeze_group_soft_objective(m, G, th, NULL, X, dX);
        th[k] = save;
        CHECK_NEAR(g[k], (fp - fm) / (2 * h), 1e-7);
    }
    trapeze_group_destroy(m);
}

static void planted(void)
{
    static graph s;
    init(&s, 24);
    /* chain c: TBs c, c + 4, ..., c + 20 (ids interleaved) */
    for (long c = 0; c < 4; c++)
        for (long k = 0; k + 1 < 6; k++)
            edge(&s, c + 4 * k, c + 4 * (k + 1), 10);
    edge(&s, 0, 1, 1);   /* weak links across chains */
    edge(&s, 6, 11, 1);
    edge(&s, 15, 22, 1);
    trapeze_group_model *m = model_of(&s, 4);
    trapeze_grouping g;
    trapeze_group_soft_info info;
    memset(&g, 0, sizeof g);
    CHECK_OK(trapeze_group_soft(m, &g, &info, NULL));
    CHECK_NEAR(info.total_shared, 203, 0);
    CHECK_NEAR(info.kept, 200, 0);
    CHECK_NEAR(trapeze_group_kept_shared(m, &g), 200, 0);
    CHECK(info.kept >= info.rounded_kept);
    CHECK_OK(trapeze_grouping_check(&g, NULL));
    for (long c = 0; c < 4 && g.group; c++)
        for (long k = 0; k < 6; k++) {
            CHECK(g.group[c + 4 * k] == g.group[c]);
            CHECK(g.order[c + 4 * k] == k);   /* chain order, from its smallest id */
        }
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

static void uneven(void)
{
    static graph s;
    init(&s, 25);
    for (long i = 0; i < 25; i++)
        for (long j = i + 1; j < 25; j++)
            if (uniform() < 0.25)
                edge(&s, i, j, 1 + (long long)(5 * uniform()));
    trapeze_group_model *m = model_of(&s, 4);
    trapeze_grouping g;
    trapeze_group_soft_info info;
    memset(&g, 0, sizeof g);
    CHECK_OK(trapeze_group_soft(m, &g, &info, NULL));
    CHECK_OK(trapeze_grouping_check(&g, NULL));
    long load[4] = {0};
    for (long t = 0; t < 25 && g.group; t++) {
        CHECK(g.group[t] >= 0 && g.group[t] < 4);
        if (g.group[t] >= 0 && g.group[t] < 4)
            load[g.group[t]]++;
    }
    for (int q = 0; q < 4; q++)
        CHECK(load[q] <= 7 && load[q] >= 25 - 3 * 7);
    CHECK(info.kept >= info.rounded_kept);
    CHECK(info.relaxed <= info.relaxed_start);
    /* the kept shared data of the grouping returned is what info says */
    CHECK_NEAR(trapeze_group_kept_shared(m, &g), info.kept, 1e-9);
    trapeze_grouping_free(&g);
    trapeze_group_destroy(m);
}

int main(void)
{
    gradient();
    planted();
    uneven();
    return check_report("test_group_soft");
}
