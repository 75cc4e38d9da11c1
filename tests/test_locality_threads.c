/*
 * test_locality_threads.c - PAVER's METIS partitions (k-way-TS, RB-TS) are
 * the same when computed in several threads at once as when computed
 * alone: METIS draws from one process-wide random state, so partitions run
 * concurrently (the grouping samples' runner with --threads) interleaved its
 * draws and came out differently from run to run until sim/locality/order.c
 * serialized them. Four threads partition matmul's locality graph 12 times
 * each, every result compared with the one computed alone.
 */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "sim/locality/locality.h"

#define THREADS 4
#define ROUNDS 12

static sim_locality_adj adj;
static sim_tb_groups ref_kway, ref_rb;

static int same(const sim_tb_groups *a, const sim_tb_groups *b, long n)
{
    if (a->n_groups != b->n_groups)
        return 0;
    if (memcmp(a->gstart, b->gstart, (size_t)(a->n_groups + 1) * sizeof *a->gstart))
        return 0;
    return !memcmp(a->ids, b->ids, (size_t)n * sizeof *a->ids);
}

static void *worker(void *arg)
{
    int *differ = arg;
    for (int r = 0; r < ROUNDS; r++) {
        sim_tb_groups k, b;
        if (sim_locality_kway_ts(&adj, 15, &k, NULL) || sim_locality_rb_ts(&adj, 6, &b, NULL)) {
            (*differ)++;
            continue;
        }
        *differ += !same(&k, &ref_kway, adj.n) + !same(&b, &ref_rb, adj.n);
        sim_tb_groups_free(&k);
        sim_tb_groups_free(&b);
    }
    return NULL;
}

int main(void)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    trapeze_locality_graph g;
    memset(&g, 0, sizeof g);
    char *params[] = {"n=200", "block=16"};
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    CHECK_OK(trapeze_locality_builtin(cfg, "matmul", params, 2, 0, &g, &err));
    CHECK_OK(sim_locality_adj_build(&g, &adj, &err));
    CHECK_OK(sim_locality_kway_ts(&adj, 15, &ref_kway, &err));
    CHECK_OK(sim_locality_rb_ts(&adj, 6, &ref_rb, &err));
    CHECK(g.n_tbs == 169);
    pthread_t t[THREADS];
    int differ[THREADS] = {0};
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, &differ[i]);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK(differ[i] == 0);
    }
    sim_tb_groups_free(&ref_kway);
    sim_tb_groups_free(&ref_rb);
    sim_locality_adj_free(&adj);
    trapeze_locality_graph_free(&g);
    trapeze_config_destroy(cfg);
    return check_report("test_locality_threads");
}
