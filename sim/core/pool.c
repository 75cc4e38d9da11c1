/*
 * pool.c - the threads of one parallel simulation (pool.h): created once
 * per simulator, reused for every phase of every cycle. Must not know what
 * a phase does.
 *
 * A phase is a fork and a join: the caller bumps a generation number, the
 * workers run the phase and count themselves done. A simulated cycle lasts
 * a few microseconds, so both sides first spin on the counter (with the
 * CPU's pause hint), then yield, and only then sleep on a condition
 * variable: sleeping at every phase would cost more than the phase. A sleeper announces
 * itself before it checks the counter once more under the mutex, and the
 * other side looks for sleepers after it changed the counter (both
 * sequentially consistent), so a wake-up is never lost.
 *
 * The counters the two sides spin on sit on cache lines of their own: the
 * caller writes the generation, the workers the done count, and neither
 * line holds anything else that changes during a phase.
 *
 * Each thread's wall time in phases is summed (two reads of a clock that
 * needs no system call), for the caller to balance the threads' shares
 * (sim_pool_busy). Profiling (sim_pool_profile): each thread's CPU time in
 * each phase, from
 * which the wall time the phases would take if every thread had a core of
 * its own follows, whatever else the machine runs.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "sim/core/pool.h"

/* Waiting, in three steps: spin (a phase of a busy cycle ends within a
 * few microseconds when every thread has a core), then give the core away
 * a few times (the thread waited for may be queued behind this one: more
 * threads than cores, or a machine shared with other work), then sleep. */
#define SIM_POOL_SPIN 256
#define SIM_POOL_YIELDS 16

/* A thread's CPU seconds in the current phase (profiling), and its wall
 * seconds in phases since sim_pool_busy last asked; a line each. */
typedef struct {
    double cpu, busy;
    char pad[48];
} pool_slot;

struct sim_pool {
    int n;
    pthread_t *th;
    int started;                  /* workers running */
    sim_pool_fn fn;
    void *ctx;
    int stop;
    int profile;
    pool_slot *slot;              /* profiling: per thread */
    sim_pool_profile_t prof;
    pthread_mutex_t mu;
    pthread_cond_t go, fin;
    _Alignas(64) unsigned gen;    /* bumped to start a phase (atomic) */
    int sleepers;                 /* atomic */
    _Alignas(64) int done;        /* workers finished with the phase (atomic) */
    int caller_sleeps;            /* atomic */
};

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    sim_pool *p;
    int id;
} worker_arg;

static inline void pause_or_yield(int i)
{
    if (i >= SIM_POOL_SPIN)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#endif
}

static unsigned wait_gen(sim_pool *p, unsigned seen)
{
    unsigned g;
    for (int i = 0; i < SIM_POOL_SPIN + SIM_POOL_YIELDS; i++) {
        if ((g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE)) != seen)
            return g;
        pause_or_yield(i);
    }
    pthread_mutex_lock(&p->mu);
    __atomic_fetch_add(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    while ((g = __atomic_load_n(&p->gen, __ATOMIC_SEQ_CST)) == seen)
        pthread_cond_wait(&p->go, &p->mu);
    __atomic_fetch_sub(&p->sleepers, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&p->mu);
    return g;
}

static void *worker(void *arg)
{
    worker_arg a = *(worker_arg *)arg;
    free(arg);
    sim_pool *p = a.p;
    unsigned seen = 0;
    for (;;) {
        seen = wait_gen(p, seen);
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            return NULL;
        double w0 = wall();
        if (p->profile) {
            double c0 = thread_cpu();
            p->fn(p->ctx, a.id);
            p->slot[a.id].cpu = thread_cpu() - c0;
        } else {
            p->fn(p->ctx, a.id);
        }
        p->slot[a.id].busy += wall() - w0;
        if (__atomic_add_fetch(&p->done, 1, __ATOMIC_SEQ_CST) == p->n - 1 &&
            __atomic_load_n(&p->caller_sleeps, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->fin);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

static void start_phase(sim_pool *p)
{
    __atomic_store_n(&p->done, 0, __ATOMIC_RELAXED);
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
}

static void wait_done(sim_pool *p)
{
    for (int i = 0; i < SIM_POOL_SPIN + SIM_POOL_YIELDS; i++) {
        if (__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) == p->n - 1)
            return;
        pause_or_yield(i);
    }
    pthread_mutex_lock(&p->mu);
    __atomic_store_n(&p->caller_sleeps, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&p->done, __ATOMIC_SEQ_CST) != p->n - 1)
        pthread_cond_wait(&p->fin, &p->mu);
    __atomic_store_n(&p->caller_sleeps, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&p->mu);
}

/* Profiling: the phase's longest thread, each thread's share, and the
 * caller's time in the phase (its work and its wait). */
static void profile_phase(sim_pool *p, sim_pool_fn fn, void *ctx)
{
    double c0 = thread_cpu(), w0 = wall();
    start_phase(p);
    fn(ctx, 0);
    p->slot[0].cpu = thread_cpu() - c0;
    p->slot[0].busy += wall() - w0;
    wait_done(p);
    p->prof.caller += thread_cpu() - c0;
    double most = 0;
    for (int i = 0; i < p->n; i++) {
        p->prof.work[i] += p->slot[i].cpu;
        if (p->slot[i].cpu > most)
            most = p->slot[i].cpu;
    }
    p->prof.critical += most;
}

void sim_pool_run(sim_pool *p, sim_pool_fn fn, void *ctx)
{
    p->fn = fn;
    p->ctx = ctx;
    if (p->profile) {
        profile_phase(p, fn, ctx);
        return;
    }
    double w0 = wall();
    start_phase(p);
    fn(ctx, 0);
    p->slot[0].busy += wall() - w0;
    wait_done(p);
}

void sim_pool_busy(sim_pool *p, double *busy)
{
    for (int i = 0; i < p->n; i++) {
        busy[i] = p->slot[i].busy;
        p->slot[i].busy = 0;
    }
}

void sim_pool_profile(sim_pool *p, int on)
{
    p->profile = on && p->slot;
}

const sim_pool_profile_t *sim_pool_profiled(const sim_pool *p) { return &p->prof; }

int sim_pool_threads(const sim_pool *p) { return p->n; }

void sim_pool_destroy(sim_pool *p)
{
    if (!p)
        return;
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
    start_phase(p);
    for (int i = 0; i < p->started; i++)
        pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->fin);
    free(p->th);
    free(p->slot);
    free(p->prof.work);
    free(p);
}

trapeze_status sim_pool_create(int n, sim_pool **out, trapeze_error *err)
{
    *out = NULL;
    sim_pool *p = aligned_alloc(64, sizeof *p);
    if (p)
        memset(p, 0, sizeof *p);
    if (!p || !(p->th = calloc((size_t)(n > 1 ? n - 1 : 1), sizeof *p->th)) ||
        !(p->slot = aligned_alloc(64, (size_t)n * sizeof *p->slot)) ||
        !(p->prof.work = calloc((size_t)n, sizeof *p->prof.work))) {
        if (p) {
            free(p->th);
            free(p->slot);
        }
        free(p);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    p->prof.n = n;
    memset(p->slot, 0, (size_t)n * sizeof *p->slot);
    p->n = n;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->fin, NULL);
    for (int i = 1; i < n; i++) {
        worker_arg *a = malloc(sizeof *a);
        if (a) {
            a->p = p;
            a->id = i;
        }
        if (!a || pthread_create(&p->th[p->started], NULL, worker, a)) {
            free(a);
            p->n = p->started + 1;   /* the started ones must see a count that ends */
            sim_pool_destroy(p);
            return trapeze_fail(err, TRAPEZE_EFAIL,
                                "simulator: cannot start simulation thread %d of %d", i, n);
        }
        p->started++;
    }
    *out = p;
    return TRAPEZE_OK;
}
