/*
 * pool.h - internal to sim/core: the threads of one parallel simulation
 * and the reusable barrier that starts and ends each of its phases. Owns
 * the threads only; what runs in a phase, and the rule of what it may
 * touch, is gpu_par.c's.
 */
#ifndef TRAPEZE_SIM_CORE_POOL_H
#define TRAPEZE_SIM_CORE_POOL_H

#include "trapeze.h"

typedef struct sim_pool sim_pool;
typedef void (*sim_pool_fn)(void *ctx, int thread);

/* What profiling measured (CPU seconds, summed over phases): the longest
 * thread of each phase (the phases' wall time with a core per thread), the
 * caller's time inside phases (its work and its wait), and each thread's
 * work (n of them). */
typedef struct {
    double critical, caller;
    double *work;
    int n;
} sim_pool_profile_t;

/* n threads in all: the caller is thread 0, n - 1 are started here and
 * wait for phases until sim_pool_destroy. */
trapeze_status sim_pool_create(int n, sim_pool **out, trapeze_error *err);
void sim_pool_destroy(sim_pool *p);
int sim_pool_threads(const sim_pool *p);
/* One phase: fn(ctx, i) on every thread i (the caller runs i = 0);
 * returns when all have returned. What a thread wrote before the phase
 * is visible to fn on every thread, and what fn wrote is visible to the
 * caller afterwards. */
void sim_pool_run(sim_pool *p, sim_pool_fn fn, void *ctx);
/* Each thread's wall seconds inside phases (busy[0..n-1]) since the last
 * call; between phases only. */
void sim_pool_busy(sim_pool *p, double *busy);
/* Measure each thread's CPU time in every phase from now on (costs two
 * clock reads per thread per phase). */
void sim_pool_profile(sim_pool *p, int on);
const sim_pool_profile_t *sim_pool_profiled(const sim_pool *p);

#endif
