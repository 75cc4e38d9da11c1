/*
 * gpu_par.h - internal to sim/core: one simulation's cycle split across
 * threads (gpu_par.c), with results identical to one thread.
 */
#ifndef TRAPEZE_SIM_CORE_GPU_PAR_H
#define TRAPEZE_SIM_CORE_GPU_PAR_H

#include "sim/core/pool.h"
#include "sim/core/sm.h"

typedef struct sim_par sim_par;

/* threads >= 2 over the SMs and the real memory system m; ev is the
 * simulator's events (each thread but the first counts into a shard of
 * it, sim_events_shard). always: every cycle on the threads, never timed
 * against one thread (benchmarks). */
trapeze_status sim_par_create(int threads, int always, sim_sm *sms, int n_sm, sim_memsys *m,
                              sim_events *ev, sim_par **out, trapeze_error *err);
void sim_par_destroy(sim_par *p);
int sim_par_threads(const sim_par *p);
/* The first three steps of cycle t (gpu_sim.c's order): the due SMs'
 * cycle, the memory system's cycle, the completions due at t handed to
 * their SMs. Exactly what the one-thread loop does, in bytes. */
void sim_par_cycle(sim_par *p, uint64_t t);
/* Each thread's CPU time per phase, from now on (pool.h). */
void sim_par_profile(sim_par *p, int on);
const sim_pool_profile_t *sim_par_profiled(const sim_par *p);

#endif
