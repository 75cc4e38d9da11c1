/*
 * gpu_par.c - one simulation's cycle split across threads (-sim-threads,
 * sim_gpu_options.threads): owns the parallel cycle's phases and the rule
 * for what each may touch. Results are byte-identical to one thread for
 * every thread count; it must not change what a cycle computes, only who
 * computes it.
 *
 * One visited cycle t, in gpu_sim.c's order, as two phases on the pool
 * (pool.c), a fork and a join each:
 *
 *   phase A  thread 0 first runs DRAM and L2 (sim_memsys_cycle_behind); then
 *            every thread, for each SM of its own share (a contiguous range,
 *            balanced between windows of cycles), runs the SM's cycle if due (its
 *            LDST port offers requests to its own L1D port) and the SM's
 *            side of the crossbar's tick (sim_memsys_icnt_sm: its port
 *            ejects a reply, injects a request);
 *   phase B  thread 0 first runs the rest of the crossbar's tick
 *            (sim_memsys_icnt_rest: the slices' side, the arbitration of
 *            both directions); every thread, for each SM of its share, runs
 *            its port's fill and latency queues (sim_memsys_cycle_port),
 *            pops the completions due at t and hands them to the SM.
 *
 * The interconnect runs alone between the phases instead
 * (sim_memsys_cycle_icnt) where it cannot be split: the fixed-latency
 * interconnect of -network_mode 1 (icnt.c), and a cycle with other than
 * one icnt tick (sim_memsys_icnt_split).
 *
 * Why that is the one-thread order: DRAM and L2 in cycle t read only what
 * the interconnect delivered before t, never what an SM does in t, so they
 * may run beside the SMs; an SM's cycle, its side of the crossbar and its
 * port's queues read and write that SM, that port and that port's buffers
 * of the crossbar only; the crossbar's arbitration moves packets between
 * its own buffers, which no port's queues touch. Which thread runs an SM
 * could change from cycle to cycle without changing a result (the sums
 * commute); the shares change only between windows of cycles, so that an
 * SM's state stays in one core's cache.
 *
 * THE RULE for state touched by an SM's cycle, its port or its completions
 * (sim/core/sm.c, fetch.c, opndcoll.c, sched*.c, sim/mem/l1d.c, and any new
 * feature there): it must be
 *   - the SM's own (sim_sm, its warps, its sim_sm_port in sim/mem), or
 *   - read-only during a launch (the config, the kernel, its program), or
 *   - a sum that commutes, kept per thread and added in at the end
 *     (sim_events counts and idle histograms go to the thread's shard:
 *     sm->ev and the port's ev are set here before each SM runs; per-SM
 *     statistics live in sim_sm.st and sim_sm_port.stats), or
 *   - a set updated atomically (the memory system's active-port bits), or
 *   - behind a lock, when its content cannot change a result (the trace
 *     reader's memo of parsed lines and its section accounting).
 * Never: a counter whose value orders anything (a global sequence number:
 * the completion queue's is per port), a random generator shared by SMs
 * (give each SM its own stream, seeded from its id), an allocator whose
 * addresses or ids feed a result, or state of another SM. The DRAM and L2
 * side (l2.c, dram.c) and the crossbar's rest run on thread 0 while SMs
 * run: they may touch m->stats and m->events but nothing an SM touches;
 * the crossbar's counts that SMs' sides change (its packets, flits) are
 * kept per thread and added in by its rest (xbar.c). A test runs every built-in
 * kernel, a trace, the power model and the interconnect configs at 1, 2, 4
 * and 8 threads and compares the bytes (tests/cli_sim_threads.sh);
 * ThreadSanitizer on it finds what breaks this rule.
 */
#include <stdlib.h>
#include <time.h>

#include "common/error.h"
#include "sim/core/gpu_par.h"
#include "sim/core/pool.h"

/* Thread 0's first share of the SMs against another thread's, until the
 * first window balances them: it also runs DRAM and L2 in phase A and the
 * interconnect's rest in phase B (on the V100 Jacobi 1024x1024, one
 * thread: L2 12%, DRAM 4%, the interconnect 10% of the run). */
#define SIM_PAR_SHARE0 0.6

struct sim_par {
    sim_pool *pool;
    int n;
    sim_sm *sms;
    int n_sm;
    sim_memsys *m;
    sim_events **ev;       /* per thread: the simulator's events (0), shards */
    uint64_t t;
    int split;             /* this cycle's interconnect split between the phases */
    int *first;            /* thread i runs SMs first[i] .. first[i + 1] - 1: the same ones
                            * for a window, so that an SM's state stays in one core's
                            * cache; moved between windows (balance) */
    double *busy;          /* per thread: wall seconds in the window's phases */
    uint64_t *visits;      /* per thread, a cache line apart (VISIT_STRIDE): the SM
                            * cycles it ran in this window (what the ways are timed by) */
    /* which way runs the cycles (choose_way) */
    int always;            /* every cycle on the threads (sim_par_create) */
    int serial;            /* 1: this window's cycles on the calling thread alone */
    int state;             /* 0 start, 1 timing the threads, 2 timing one thread, 3 keeping */
    int left;              /* cycles left in this window */
    int windows;           /* windows left before both ways are timed again */
    double started, took[2];   /* the window's start; seconds per SM cycle run, [serial] */
};

/* Cycles timed at once, and windows between two timings. */
#define SIM_PAR_WINDOW 1024
#define SIM_PAR_KEEP 16
#define VISIT_STRIDE 8   /* uint64_t: 64 bytes */

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Threads pay off only when every thread gets a core: on a machine busy
 * with other work a thread that waits for a core holds all the others at
 * the next phase, and a GPU with little work per cycle (15 SMs) spends more
 * on the phases than it gains. So the cycles run in windows, each all on
 * the threads or all on the calling thread: both ways are timed now and
 * then, and the faster runs the next windows. Either way computes the same
 * bytes (the order of the sums is all that changes); only the time differs.
 * The ways are compared per SM cycle run, not per simulated cycle: the two
 * windows timed are different cycles of the run, and on a short launch one
 * of them can hold twice the other's work (H100 Jacobi 1024^2, 7 windows:
 * timed per cycle, one thread won the comparison and ran the rest, 1.15x
 * where the threads alone gave 1.58x). */
static void choose_way(sim_par *p, double per)
{
    switch (p->state) {
    case 0:   /* the first window times the threads */
        p->state = 1;
        p->serial = 0;
        break;
    case 1:   /* the threads timed: now one thread */
        p->took[0] = per;
        p->state = 2;
        p->serial = 1;
        break;
    case 2:   /* both timed: the faster, for a while */
        p->took[1] = per;
        p->serial = p->took[1] < p->took[0];
        p->state = 3;
        p->windows = SIM_PAR_KEEP;
        break;
    default:
        if (--p->windows <= 0) {
            p->state = 1;
            p->serial = 0;
        }
    }
}

/* The cycle on the calling thread, in the one-thread loop's order. */
static void serial_cycle(sim_par *p, uint64_t t)
{
    for (int s = 0; s < p->n_sm; s++)
        if (p->sms[s].next <= t) {
            sim_sm_cycle(&p->sms[s], t);
            p->visits[0]++;
        }
    sim_memsys_cycle(p->m, t);
    sim_mem_request r;
    for (int s = 0; (s = sim_memsys_pop_next(p->m, s, t, &r)) < p->n_sm;)
        sim_sm_complete(&p->sms[s], &r, t);
}

/* SM s reports to thread i's events while thread i runs it. */
static void own(sim_par *p, int s, int i)
{
    sim_sm *sm = &p->sms[s];
    if (sm->ev != p->ev[i]) {
        sm->ev = p->ev[i];
        sim_memsys_port_events(p->m, s, p->ev[i]);
    }
}

static void phase_a(void *ctx, int i)
{
    sim_par *p = ctx;
    uint64_t t = p->t, ran = 0;
    if (i == 0)
        sim_memsys_cycle_behind(p->m, t);
    for (int s = p->first[i]; s < p->first[i + 1]; s++) {
        if (p->sms[s].next <= t) {
            own(p, s, i);
            sim_sm_cycle(&p->sms[s], t);
            ran++;
        }
        if (p->split)
            sim_memsys_icnt_sm(p->m, s, i);
    }
    p->visits[(size_t)i * VISIT_STRIDE] += ran;
}

static void phase_b(void *ctx, int i)
{
    sim_par *p = ctx;
    uint64_t t = p->t;
    sim_mem_request r;
    if (p->split && i == 0)
        sim_memsys_icnt_rest(p->m);
    for (int s = p->first[i]; s < p->first[i + 1]; s++) {
        own(p, s, i);
        sim_memsys_cycle_port(p->m, s, t);
        while (sim_memsys_pop(p->m, s, t, &r))
            sim_sm_complete(&p->sms[s], &r, t);   /* a port's requests are its SM's */
    }
}

/* Thread 0 gets k0 SMs, the others equal contiguous shares of the rest. */
static void set_shares(sim_par *p, int k0)
{
    p->first[0] = 0;
    p->first[1] = k0;
    for (int i = 1; i < p->n; i++)
        p->first[i + 1] = k0 + (int)((long)(p->n_sm - k0) * i / (p->n - 1));
}

/* After a window on the threads: thread 0's share moved halfway to where
 * the threads' busy times say each would have had the same work. Thread 0
 * also runs the memory side (DRAM, L2, the crossbar's rest), whose cost
 * depends on the kernel: none for a compute-bound one, a third of the
 * cycle for a memory-bound one. Each SM is taken to cost what the other
 * threads' SMs cost on average; the rest of thread 0's time is the memory
 * side's. Which thread runs an SM changes no result (the file comment). */
static void balance(sim_par *p)
{
    sim_pool_busy(p->pool, p->busy);
    int n = p->n, k0 = p->first[1], others = p->n_sm - k0;
    double rest = 0;
    for (int i = 1; i < n; i++)
        rest += p->busy[i];
    if (others <= 0 || rest <= 0 || p->busy[0] <= 0)
        return;
    double per_sm = rest / others, mem = p->busy[0] - k0 * per_sm;
    if (mem < 0)
        mem = 0;
    double total = mem + p->n_sm * per_sm, want = (total / n - mem) / per_sm;
    if (want < 0)
        want = 0;
    if (want > p->n_sm)
        want = p->n_sm;
    set_shares(p, (int)((k0 + want) / 2 + 0.5));
}

/* Every SIM_PAR_WINDOW cycles: the threads' shares balanced after a window
 * on the threads; then the way the next window runs chosen. */
static void next_window(sim_par *p)
{
    uint64_t ran = 1;   /* 1: a window whose SMs all slept still has a time */
    for (int i = 0; i < p->n; i++) {
        ran += p->visits[(size_t)i * VISIT_STRIDE];
        p->visits[(size_t)i * VISIT_STRIDE] = 0;
    }
    double now = wall_now(), per = (now - p->started) / (double)ran;
    p->started = now;
    p->left = SIM_PAR_WINDOW;
    if (!p->serial)
        balance(p);
    if (!p->always)
        choose_way(p, per);
}

void sim_par_cycle(sim_par *p, uint64_t t)
{
    if (--p->left <= 0)
        next_window(p);
    if (p->serial) {
        serial_cycle(p, t);
        return;
    }
    p->t = t;
    p->split = sim_memsys_icnt_split(p->m, t);
    sim_pool_run(p->pool, phase_a, p);
    if (!p->split)
        sim_memsys_cycle_icnt(p->m, t);
    sim_pool_run(p->pool, phase_b, p);
}

int sim_par_threads(const sim_par *p) { return p->n; }

void sim_par_profile(sim_par *p, int on) { sim_pool_profile(p->pool, on); }

const sim_pool_profile_t *sim_par_profiled(const sim_par *p) { return sim_pool_profiled(p->pool); }

void sim_par_destroy(sim_par *p)
{
    if (!p)
        return;
    sim_pool_destroy(p->pool);
    if (p->m) {
        sim_memsys_set_parallel(p->m, 0);
        for (int s = 0; s < p->n_sm; s++)
            own(p, s, 0);
    }
    free(p->ev);   /* the shards are the events' own */
    free(p->first);
    free(p->busy);
    free(p->visits);
    free(p);
}

trapeze_status sim_par_create(int threads, int always, sim_sm *sms, int n_sm, sim_memsys *m,
                              sim_events *ev, sim_par **out, trapeze_error *err)
{
    *out = NULL;
    sim_par *p = calloc(1, sizeof *p);
    if (!p || !(p->ev = calloc((size_t)threads, sizeof *p->ev)) ||
        !(p->first = calloc((size_t)threads + 1, sizeof *p->first)) ||
        !(p->busy = calloc((size_t)threads, sizeof *p->busy)) ||
        !(p->visits = calloc((size_t)threads * VISIT_STRIDE, sizeof *p->visits))) {
        if (p) {
            free(p->ev);
            free(p->first);
            free(p->busy);
        }
        free(p);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    p->n = threads;
    p->sms = sms;
    p->n_sm = n_sm;
    /* contiguous shares: thread 0's SIM_PAR_SHARE0 of the others' to start */
    set_shares(p, (int)(n_sm * SIM_PAR_SHARE0 / (SIM_PAR_SHARE0 + threads - 1) + 0.5));
    p->ev[0] = ev;
    for (int i = 1; i < threads; i++)
        if (!(p->ev[i] = sim_events_shard(ev))) {
            sim_par_destroy(p);
            return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
        }
    trapeze_status s = sim_pool_create(threads, &p->pool, err);
    if (s) {
        sim_par_destroy(p);
        return s;
    }
    p->m = m;
    p->left = 1;
    p->always = always;
    if (!sim_memsys_set_parallel(m, threads)) {
        sim_par_destroy(p);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    *out = p;
    return TRAPEZE_OK;
}
