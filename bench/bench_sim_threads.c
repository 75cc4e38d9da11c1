/*
 * bench_sim_threads.c - one simulation split across threads
 * (sim_gpu_options.threads): wall-clock and CPU seconds of the same launch
 * at 1 and 2 threads (or the counts given as arguments), best wall time of
 * three runs each, and the speed-up against one thread, with every cycle on
 * the threads ("always": the scaling) and as the simulator chooses between
 * the threads and one thread ("chosen": what a user gets); the load
 * average is printed beside them, since the threads share the machine's
 * cores with whatever else runs. So each "always" line also gives what the
 * threads' CPU times imply (sim_gpu_options.threads_profile): the sum over
 * phases of the slowest thread's CPU time plus the calling thread's time
 * outside the phases, the wall time the run would take with a core per
 * thread and nothing else running (spinning and waiting for a core left
 * out), its speed-up against one thread's CPU time ("bound"), and each
 * thread's work. Cases: a memory-bound stencil (Jacobi 1024x1024, 4096
 * blocks) and a compute-bound one (independent FMA chains on every
 * resident block) on the V100 and H100 presets, the stencil on the
 * GTX 480. Every thread count's statistics are checked equal to one
 * thread's (a line says so when they are not). Printed, never asserted.
 *
 *   build/bench/bench_sim_threads            1 and 2 threads, the five cases
 *   build/bench/bench_sim_threads 1 2 4 8    those counts
 *   build/bench/bench_sim_threads 1 2 -- v100    the cases whose GPU has that name
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_common.h"

typedef struct {
    const char *config, *gpu, *kernel, *what;
    int argc;
    char *argv[2];
} bench_case;

typedef struct {
    double wall, cpu;
    double caller_cpu;          /* the calling thread's CPU seconds */
    double critical, in_phases; /* the threads' profile (sim_gpu_threads_profile) */
    double work[16];
    int profiled;
    uint64_t warp_insts, cycles;
    sim_kernel_stats st;
} bench_run;

static double thread_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run of c at `threads`; 0 on success. */
static int run(const trapeze_config *cfg, const bench_case *c, int threads, int always,
               bench_run *r)
{
    trapeze_error err;
    sim_gpu *g;
    sim_kernel *k;
    sim_gpu_options opt = {.threads = threads, .threads_always = always,
                           .threads_profile = always};
    if (bench_builtin_opt(cfg, c->kernel, c->argc, (char **)c->argv, &opt, &g, &k, &err)) {
        fprintf(stderr, "bench_sim_threads: %s: %s\n", c->kernel, err.message);
        return 1;
    }
    double w0 = now(), c0 = cpu_now(), t0 = thread_cpu_now();
    trapeze_status s = sim_gpu_run(g, k, &r->st, &err);
    r->wall = now() - w0;
    r->cpu = cpu_now() - c0;
    r->caller_cpu = thread_cpu_now() - t0;
    r->profiled = sim_gpu_threads_profile(g, &r->critical, &r->in_phases, r->work, 16);
    if (s)
        fprintf(stderr, "bench_sim_threads: %s: %s\n", c->kernel, err.message);
    sim_kernel_destroy(k);
    sim_gpu_destroy(g);
    return s != TRAPEZE_OK;
}

/* The best of three runs (by wall time) at `threads`. */
static int best_of_3(const trapeze_config *cfg, const bench_case *c, int threads, int always,
                     bench_run *best)
{
    for (int rep = 0; rep < 3; rep++) {
        bench_run r;
        if (run(cfg, c, threads, always, &r))
            return 1;
        if (rep == 0 || r.wall < best->wall) {
            if (rep)
                sim_kernel_stats_free(&best->st);
            *best = r;
        } else {
            sim_kernel_stats_free(&r.st);
        }
    }
    return 0;
}

static int same_stats(const sim_kernel_stats *a, const sim_kernel_stats *b)
{
    return a->cycles == b->cycles && !memcmp(&a->total, &b->total, sizeof a->total) &&
           !memcmp(a->events, b->events, sizeof a->events) &&
           !memcmp(&a->mem, &b->mem, sizeof a->mem) &&
           !memcmp(a->sm, b->sm, (size_t)a->n_sm * sizeof *a->sm);
}

static double load_average(void)
{
    double l[1] = {-1};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l[0]) != 1)
            l[0] = -1;
        fclose(f);
    }
    return l[0];
}

/* One line: `threads` (always on them, or as the simulator chooses) against
 * one thread's run. */
static int line(const trapeze_config *cfg, const bench_case *c, int threads, int always,
                const bench_run *one)
{
    bench_run r;
    double load = load_average();
    if (best_of_3(cfg, c, threads, always, &r))
        return 1;
    printf("  %d threads%s: %.3f s wall, %.3f s CPU (best of 3; load average %.1f), "
           "speed-up %.2fx%s\n", threads, always ? ", always" : ", chosen", r.wall, r.cpu, load,
           one->wall / r.wall,
           threads == 2 && always ? " (target 1.6 on an otherwise idle machine)" : "");
    if (r.profiled) {
        /* outside the phases only the calling thread runs */
        double est = r.critical + r.caller_cpu - r.in_phases;
        printf("    a core each: %.3f s, bound %.2fx against one thread's %.3f s CPU; work", est,
               one->cpu / est, one->cpu);
        for (int i = 0; i < r.profiled && i < 16; i++)
            printf(" %.3f", r.work[i]);
        printf(" s\n");
    }
    if (!same_stats(&one->st, &r.st))
        printf("  STATISTICS DIFFER from one thread's at %d threads\n", threads);
    sim_kernel_stats_free(&r.st);
    return 0;
}

static int bench(const bench_case *c, const int *threads, int n)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_load(c->config, &cfg, &err)) {
        fprintf(stderr, "bench_sim_threads: %s\n", err.message);
        return 1;
    }
    bench_run one;
    double load = load_average();
    int rc = best_of_3(cfg, c, 1, 0, &one);
    if (!rc) {
        printf("%s %s (%s), %s: %llu warp instructions, %llu cycles\n", c->kernel,
               c->argc ? c->argv[0] : "", c->what, c->gpu,
               (unsigned long long)one.st.total.warp_insts, (unsigned long long)one.st.cycles);
        printf("  1 thread: %.3f s wall, %.3f s CPU (best of 3; load average %.1f)\n", one.wall,
               one.cpu, load);
    }
    for (int i = 0; i < n && !rc; i++)
        if (threads[i] > 1)
            rc = line(cfg, c, threads[i], 1, &one) || line(cfg, c, threads[i], 0, &one);
    if (!rc)
        sim_kernel_stats_free(&one.st);
    trapeze_config_destroy(cfg);
    return rc;
}

int main(int argc, char **argv)
{
    static const bench_case cases[] = {
        {"data/gpus/v100.config", "v100", "jacobi", "memory-bound, 4096 blocks", 2,
         {"nx=1024", "ny=1024"}},
        {"data/gpus/v100.config", "v100", "fma", "compute-bound, every resident block", 1,
         {"iters=64", NULL}},
        {"data/gpus/h100", "h100", "jacobi", "memory-bound, 4096 blocks", 2,
         {"nx=1024", "ny=1024"}},
        {"data/gpus/h100", "h100", "fma", "compute-bound, every resident block", 1,
         {"iters=64", NULL}},
        {"data/gpus/gtx480.config", "gtx480", "jacobi", "memory-bound, 4096 blocks", 2,
         {"nx=1024", "ny=1024"}},
    };
    int threads[16] = {1, 2}, n = 2, i = 1;
    if (argc > 1 && strcmp(argv[1], "--")) {
        n = 0;
        for (; i < argc && strcmp(argv[i], "--") && n < 16; i++)
            if ((threads[n] = atoi(argv[i])) >= 1)
                n++;
    }
    const char *only = i + 1 < argc ? argv[i + 1] : NULL;   /* after "--" */
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        if ((!only || !strcmp(only, cases[c].gpu)) && bench(&cases[c], threads, n))
            return 1;
    return 0;
}
