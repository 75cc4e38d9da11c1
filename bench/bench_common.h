/*
 * bench_common.h - what the benchmark programs share: a monotonic wall
 * clock, the process's CPU clock, and a built-in kernel made ready to run
 * (one launch on a fresh simulator). Header-only, because each bench_*.c is a program of its own;
 * it prints nothing and asserts nothing.
 */
#ifndef TRAPEZE_BENCH_COMMON_H
#define TRAPEZE_BENCH_COMMON_H

#include <time.h>

#include "common/error.h"
#include "sim/sim.h"

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* This process's CPU time: rates that other jobs on the machine do not skew. */
static inline double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The first launch of built-in `name` with "name=value" settings, on a new
 * simulator of cfg with options opt (may be NULL). On error *g and *k are NULL. */
static inline trapeze_status bench_builtin_opt(const trapeze_config *cfg, const char *name,
                                               int argc, char **argv, const sim_gpu_options *opt,
                                               sim_gpu **g, sim_kernel **k, trapeze_error *err)
{
    const sim_builtin *b = sim_builtin_find(name);
    long p[SIM_BUILTIN_MAX_PARAMS];
    int n = 0;
    trapeze_status s;
    *g = NULL;
    *k = NULL;
    if (!b)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s'", name);
    if ((s = sim_builtin_params(b, argc, argv, p, err)) || (s = sim_gpu_create(cfg, opt, g, err)) ||
        (s = b->build(sim_gpu_config(*g), p, k, 1, &n, err))) {
        sim_gpu_destroy(*g);
        *g = NULL;
        return s;
    }
    return TRAPEZE_OK;
}

static inline trapeze_status bench_builtin(const trapeze_config *cfg, const char *name, int argc,
                                           char **argv, sim_gpu **g, sim_kernel **k,
                                           trapeze_error *err)
{
    return bench_builtin_opt(cfg, name, argc, argv, NULL, g, k, err);
}

/* The cycle a watched block is placed on an SM (sim_gpu_options.on_place
 * with bench_on_place; placed 0: not yet). */
typedef struct {
    long block;
    uint64_t placed;
} bench_watch;

static inline void bench_on_place(void *ctx, int sm, long block, uint64_t cycle)
{
    bench_watch *w = ctx;
    (void)sm;
    if (block == w->block && !w->placed)
        w->placed = cycle;
}

#endif
