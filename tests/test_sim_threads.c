/*
 * Tests of one simulation split across threads (sim/core/gpu_par.c):
 * event shards add up to what one sim_events counts (hand-computed idle
 * periods); a trace read as text by every warp (no kept blocks: the line
 * memo shared by the threads) gives the statistics one thread gives, SM by
 * SM, at 2, 4 and 8 threads; the H100 preset's crossbar, its tick split
 * between the phases, gives one thread's statistics at 2, 4 and 8 threads,
 * and the threads' profile holds its invariants; a port other than the real
 * memory system runs on one thread; the sampling commands' --threads
 * divided between samples and their simulations. tests/cli_sim_threads.sh
 * compares whole outputs.
 */
#include <string.h>

#include "check.h"
#include "sampler/sampler.h"
#include "sim/core/gpu_sim.h"
#include "sim/trace/trace.h"

/* Unit 0 of L1_BANK used at 3 and 9 through a shard, at 12 through the
 * parent: periods [0,3), [4,9), [10,12) of lengths 3, 5 and 2, then dead
 * from 13 to the end at 20 (7); counts from both add up. */
static void test_shards(void)
{
    int units[SIM_UNIT_KIND_COUNT] = {[SIM_UNIT_L1_BANK] = 2};
    sim_events *ev = sim_events_create(units);
    sim_events *sh = sim_events_shard(ev);
    CHECK(ev && sh);
    sim_events_reset(ev, 0);
    sim_events_busy(sh, SIM_UNIT_L1_BANK, 0, 3);
    sim_events_count(sh, SIM_EV_L1_READ, 2);
    sim_events_busy(sh, SIM_UNIT_L1_BANK, 0, 9);
    sim_events_busy(ev, SIM_UNIT_L1_BANK, 0, 12);
    sim_events_count(ev, SIM_EV_L1_READ, 1);
    CHECK(sim_events_get(ev, SIM_EV_L1_READ) == 1);   /* the shard's not yet gathered */
    sim_events_finish(ev, 20);
    CHECK(sim_events_get(ev, SIM_EV_L1_READ) == 3);
    const sim_idle_hist *h = sim_events_hist(ev, SIM_UNIT_L1_BANK);
    CHECK(h->bin[SIM_NEXT_READ][2].count == 1 && h->bin[SIM_NEXT_READ][4].count == 1 &&
          h->bin[SIM_NEXT_READ][1].count == 1);
    CHECK(h->bin[SIM_NEXT_READ][2].sum + h->bin[SIM_NEXT_READ][4].sum +
              h->bin[SIM_NEXT_READ][1].sum == 10);
    CHECK(h->bin[SIM_NEXT_DEAD][6].count == 1);       /* [13, 20) */
    CHECK(h->tracked_cycles == 2 * 20);               /* two units, 20 cycles each */
    sim_events_gather(ev);                             /* nothing left to add */
    CHECK(sim_events_get(ev, SIM_EV_L1_READ) == 3);
    sim_events_reset(ev, 0);                           /* clears the shard too */
    sim_events_gather(ev);
    CHECK(sim_events_get(ev, SIM_EV_L1_READ) == 0);
    sim_events_destroy(ev);
}

static void run_trace(const trapeze_config *cfg, int threads, sim_kernel_stats *st)
{
    trapeze_error err;
    sim_trace_kernel *t;
    CHECK_OK(sim_trace_kernel_open_keep("data/traces/vecadd/kernel-1.traceg", 0, &t, &err));
    sim_gpu_options opt = {.threads = threads, .threads_always = 1};   /* every cycle threaded */
    sim_gpu *g;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    CHECK(sim_gpu_threads(g) == threads);
    CHECK_OK(sim_gpu_run(g, sim_trace_kernel_sim(t), st, &err));
    sim_gpu_destroy(g);
    sim_trace_kernel_close(t);
}

static void test_trace_text(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/v100.config", &cfg, &err));
    sim_kernel_stats one;
    run_trace(cfg, 1, &one);
    CHECK(one.total.warp_insts > 0 && one.mem.l1.accesses > 0);
    for (int n = 2; n <= 8; n *= 2) {
        sim_kernel_stats par;
        run_trace(cfg, n, &par);
        CHECK(par.cycles == one.cycles);
        CHECK(!memcmp(&par.total, &one.total, sizeof par.total));
        CHECK(!memcmp(par.events, one.events, sizeof par.events));
        CHECK(!memcmp(&par.mem, &one.mem, sizeof par.mem));
        CHECK(par.n_sm == one.n_sm && !memcmp(par.sm, one.sm, (size_t)par.n_sm * sizeof *par.sm));
        sim_kernel_stats_free(&par);
    }
    sim_kernel_stats_free(&one);
    trapeze_config_destroy(cfg);
}

typedef struct {
    double critical, caller, work[2];
    int threads;
} profile;

/* Jacobi 128x128 (64 blocks) on the H100
 * preset at `threads`, every cycle on the threads, profiled. */
static void run_h100(const trapeze_config *cfg, int threads, sim_kernel_stats *st, profile *pr)
{
    trapeze_error err;
    sim_gpu_options opt = {.threads = threads, .threads_always = 1, .threads_profile = 1};
    sim_gpu *g;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    const sim_builtin *b = sim_builtin_find("jacobi");
    char *argv[] = {"nx=128", "ny=128", "iters=1"};
    long p[SIM_BUILTIN_MAX_PARAMS];
    sim_kernel *k[1];
    int n = 0;
    CHECK_OK(sim_builtin_params(b, 3, argv, p, &err));
    CHECK_OK(b->build(sim_gpu_config(g), p, k, 1, &n, &err));
    CHECK_OK(sim_gpu_run(g, k[0], st, &err));
    pr->threads = sim_gpu_threads_profile(g, &pr->critical, &pr->caller, pr->work, 2);
    sim_kernel_destroy(k[0]);
    sim_gpu_destroy(g);
}

static void test_h100_split(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/h100", &cfg, &err));
    sim_kernel_stats one;
    profile pr;
    run_h100(cfg, 1, &one, &pr);
    CHECK(pr.threads == 0);   /* one thread: nothing to profile */
    CHECK(one.mem.icnt_packets_up > 0 && one.mem.icnt_packets_down == one.mem.icnt_packets_up);
    for (int n = 2; n <= 8; n *= 2) {
        sim_kernel_stats par;
        run_h100(cfg, n, &par, &pr);
        CHECK(par.cycles == one.cycles);
        CHECK(!memcmp(&par.total, &one.total, sizeof par.total));
        CHECK(!memcmp(par.events, one.events, sizeof par.events));
        CHECK(!memcmp(&par.mem, &one.mem, sizeof par.mem));
        CHECK(par.n_sm == one.n_sm && !memcmp(par.sm, one.sm, (size_t)par.n_sm * sizeof *par.sm));
        /* each phase's longest thread, summed, is at least any thread's
         * work and at most all threads' (2 of them here); the caller's time
         * in the phases holds its work */
        CHECK(pr.threads == n);
        CHECK(pr.critical > 0 && pr.critical >= pr.work[0] && pr.critical >= pr.work[1]);
        CHECK(n > 2 || pr.critical <= pr.work[0] + pr.work[1]);
        CHECK(pr.caller >= pr.work[0]);
        sim_kernel_stats_free(&par);
    }
    sim_kernel_stats_free(&one);
    trapeze_config_destroy(cfg);
}

static void test_ideal_one_thread(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    sim_gpu_options opt = {.threads = 4};
    CHECK_OK(sim_mem_port_ideal(15, 100, &opt.mem, &err));
    sim_gpu *g;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    CHECK(sim_gpu_threads(g) == 1);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

/* One --threads budget for samples and their simulations (sampler_share):
 * samples side by side first, the rest into each simulation. */
static void test_share(void)
{
    static const int cases[][4] = {
        /* threads, pending -> workers, threads per simulation */
        {2, 1, 1, 2}, {2, 5, 2, 1}, {8, 3, 3, 2}, {1, 4, 1, 1}, {4, 0, 1, 4}, {0, 3, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int w, t;
        sampler_share(cases[i][0], cases[i][1], &w, &t);
        CHECK(w == cases[i][2] && t == cases[i][3]);
    }
}

int main(void)
{
    test_share();
    test_shards();
    test_trace_text();
    test_h100_split();
    test_ideal_one_thread();
    return check_report("test_sim_threads");
}
