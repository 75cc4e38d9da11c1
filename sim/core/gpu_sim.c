/*
 * gpu_sim.c - the top level: SMs, memory port and event counters; the
 * cycle loop that runs one kernel launch to completion, skipping cycles in
 * which nothing can happen; kernel sequences with a launch latency between
 * them (relaunch); per-kernel statistics and the no-request-lost invariant.
 *
 * One cycle t, in order (GPGPU-Sim's): every SM whose `next` has come runs
 * its LDST port (offering a request to the memory system) and its issue
 * stage; the memory system's cycle; completions due at t are handed to
 * their SMs; finished blocks are counted; TB dispatch places blocks
 * (issuing from t+1). The next visited cycle is the earliest of the SMs'
 * `next`, the memory system's next event and, while blocks wait for room,
 * t+1. docs/architecture.md has the same order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/gpu_par.h"
#include "sim/core/sm.h"
#include "sim/power/idle_csv.h"

struct sim_gpu {
    sim_core_config cfg;
    sim_events *ev;
    sim_mem_port mem;
    int n_sm;
    sim_sm *sms;
    uint64_t cycle;      /* first cycle after the last kernel */
    uint64_t launches;
    trapeze_sim_progress progress;
    void *progress_ctx;
    int seq_launch, seq_launches; /* the running launch's place in its sequence */
    const trapeze_power *power;      /* NULL: no energy */
    sim_sleep_config sleep;          /* bound to power */
    sim_energy_geometry geo;
    int keep_idle, n_idle;
    struct idle_agg {
        char name[64];
        sim_idle_hist h[SIM_UNIT_KIND_COUNT];
    } *idle;
    void (*on_place)(void *, int, long, uint64_t);
    void *on_place_ctx;
    int windowed;        /* a launch stopped at its window: no further launch */
    sim_par *par;        /* NULL: one thread (the loop below, unchanged) */
    int profile;         /* the threads' CPU time measured (threads_profile) */
};

void sim_gpu_destroy(sim_gpu *g)
{
    if (!g)
        return;
    sim_par_destroy(g->par);
    if (g->sms)
        for (int s = 0; s < g->n_sm; s++)
            sim_sm_free(&g->sms[s]);
    free(g->sms);
    if (g->mem.ops)
        g->mem.ops->destroy(g->mem.self);
    sim_events_destroy(g->ev);
    free(g->idle);
    free(g);
}

/* The sleep policies bound to the power description; the timing-active
 * granularity of each structure gets the wake-up hook. */
static trapeze_status setup_power(sim_gpu *g, const trapeze_config *cfg,
                                  const sim_sleep_config *sleep, const int *units,
                                  trapeze_error *err)
{
    trapeze_status s;
    if (sleep)
        g->sleep = *sleep;
    else if ((s = sim_sleep_config_read(cfg, &g->sleep, err)))
        return s;
    if (g->power) {
        int n_l1 = units[SIM_UNIT_L1_BANK], n_l2 = units[SIM_UNIT_L2_BANK];
        sim_energy_geometry_init(&g->geo, g->power, g->n_sm, g->cfg.gpu.regs_per_sm,
                                 g->cfg.reg_banks, n_l1, n_l1 ? units[SIM_UNIT_L1_LINE] / n_l1 : 0,
                                 n_l2, n_l2 ? units[SIM_UNIT_L2_LINE] / n_l2 : 0);
    }
    for (int st = 0; st < TRAPEZE_PS_SLEEPABLE; st++) {
        sim_sleep_choice *c = &g->sleep.s[st];
        sim_unit_kind k = sim_sleep_unit((trapeze_power_structure)st, c->line);
        if ((s = sim_sleep_bind(c, (trapeze_power_structure)st, g->power,
                                g->cfg.gpu.core_clock_hz, g->geo.unit_leak_w[k], err)))
            return s;
        if (c->kind != SIM_SLEEP_ALWAYS_ON)
            sim_events_set_wake(g->ev, k, sim_sleep_wake, c);
    }
    return TRAPEZE_OK;
}

trapeze_status sim_gpu_create(const trapeze_config *cfg, const sim_gpu_options *opt,
                              sim_gpu **out, trapeze_error *err)
{
    *out = NULL;
    sim_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        if (opt && opt->mem.ops)
            opt->mem.ops->destroy(opt->mem.self);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    if (opt) {
        g->mem = opt->mem;
        g->progress = opt->progress;
        g->progress_ctx = opt->progress_ctx;
        g->power = opt->power;
        g->keep_idle = opt->keep_idle;
        g->on_place = opt->on_place;
        g->on_place_ctx = opt->on_place_ctx;
    }
    trapeze_status s = sim_core_config_read(cfg, &g->cfg, err);
    if (s) {
        sim_gpu_destroy(g);
        return s;
    }
    if (opt && opt->tb_grouping) {
        if (strlen(opt->tb_grouping) >= sizeof g->cfg.tb_grouping) {
            sim_gpu_destroy(g);
            return trapeze_fail(err, TRAPEZE_EINVAL, "grouping file name too long");
        }
        g->cfg.tb_dispatch = SIM_TB_EXPLICIT;
        strcpy(g->cfg.tb_grouping, opt->tb_grouping);
        g->cfg.tb_grouping_named_by_config = 0;
    }
    if (opt && opt->first_block > 0)
        g->cfg.window_first_block = opt->first_block;
    g->n_sm = g->cfg.gpu.n_sm;
    int units[SIM_UNIT_KIND_COUNT] = {0};
    if (!g->mem.ops && (s = sim_memsys_unit_counts(cfg, g->n_sm, units, err))) {
        sim_gpu_destroy(g);
        return s;
    }
    units[SIM_UNIT_REG_BANK] = g->n_sm * g->cfg.reg_banks;
    units[SIM_UNIT_REG] = g->n_sm * g->cfg.max_warps * SIM_MAX_REGS;
    g->ev = sim_events_create(units);
    /* on line boundaries, as sim_sm's layout assumes (sim_sm_init clears each) */
    g->sms = aligned_alloc(_Alignof(sim_sm), (size_t)g->n_sm * sizeof *g->sms);
    if (!g->ev || !g->sms) {
        sim_gpu_destroy(g);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    if (!g->mem.ops && (s = sim_mem_port_real(cfg, g->n_sm, g->ev, &g->mem, err))) {
        sim_gpu_destroy(g);
        return s;
    }
    for (int i = 0; i < g->n_sm; i++)
        if ((s = sim_sm_init(&g->sms[i], i, &g->cfg, g->ev, &g->mem, err))) {
            sim_gpu_destroy(g);
            return s;
        }
    if ((s = setup_power(g, cfg, opt ? opt->sleep : NULL, units, err))) {
        sim_gpu_destroy(g);
        return s;
    }
    /* idle periods only where something reads them (their recording was
     * 5-8% of a trace's host instructions) */
    int idle = g->power || g->keep_idle;
    for (int st = 0; st < TRAPEZE_PS_SLEEPABLE; st++)
        idle |= g->sleep.s[st].kind != SIM_SLEEP_ALWAYS_ON;
    sim_events_set_idle(g->ev, idle);
    /* threads only over the real memory system: another port (the ideal
     * memory) keeps shared state behind its SMs, and runs on one */
    int threads = opt && opt->threads > 1 ? opt->threads : 1;
    if (threads > 1 && !(opt && opt->mem.ops) &&
        (s = sim_par_create(threads, opt->threads_always, g->sms, g->n_sm, g->mem.self, g->ev,
                            &g->par, err))) {
        sim_gpu_destroy(g);
        return s;
    }
    if (g->par && opt->threads_profile) {
        g->profile = 1;
        sim_par_profile(g->par, 1);
    }
    *out = g;
    return TRAPEZE_OK;
}

int sim_gpu_threads(const sim_gpu *g)
{
    return g->par ? sim_par_threads(g->par) : 1;
}

int sim_gpu_threads_profile(const sim_gpu *g, double *critical, double *caller, double *work,
                            int n)
{
    if (!g->par || !g->profile)
        return 0;
    const sim_pool_profile_t *pr = sim_par_profiled(g->par);
    *critical = pr->critical;
    *caller = pr->caller;
    for (int i = 0; i < n && i < pr->n; i++)
        work[i] = pr->work[i];
    return pr->n;
}

const sim_core_config *sim_gpu_config(const sim_gpu *g)
{
    return &g->cfg;
}

sim_events *sim_gpu_events(sim_gpu *g)
{
    sim_events_gather(g->ev);   /* the threads' shards, if any */
    return g->ev;
}

const sim_sleep_config *sim_gpu_sleep(const sim_gpu *g) { return &g->sleep; }

const sim_energy_geometry *sim_gpu_energy_geometry(const sim_gpu *g) { return &g->geo; }

int sim_gpu_idle_count(const sim_gpu *g) { return g->n_idle; }

const sim_idle_hist *sim_gpu_idle(const sim_gpu *g, int i, const char **kernel)
{
    if (kernel)
        *kernel = g->idle[i].name;
    return g->idle[i].h;
}

static void kernel_energy(sim_gpu *g, sim_kernel_stats *st)
{
    sim_energy_input in = {.pw = g->power,
                           .clock_hz = g->cfg.gpu.core_clock_hz,
                           .n_sm = g->n_sm,
                           .cycles = st->cycles,
                           .sm_active_cycles = st->total.active_cycles,
                           .events = st->events,
                           .geo = &g->geo,
                           .sleep = &g->sleep};
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        in.hist[k] = sim_events_hist(g->ev, (sim_unit_kind)k);
    sim_energy_compute(&in, &st->energy);
    st->energy_valid = 1;
    memcpy(st->event_j, g->power->event_j, sizeof st->event_j);
    st->idle_sm_w = g->power->idle_sm_w;
    st->clock_hz = in.clock_hz;
}

trapeze_status sim_gpu_write_idle_csv(const sim_gpu *g, const char *path, trapeze_error *err)
{
    const char **names = calloc((size_t)g->n_idle + 1, sizeof *names);
    const sim_idle_hist **h = calloc((size_t)g->n_idle + 1, sizeof *h);
    trapeze_status s = TRAPEZE_ENOMEM;
    if (names && h) {
        for (int i = 0; i < g->n_idle; i++) {
            names[i] = g->idle[i].name;
            h[i] = g->idle[i].h;
        }
        s = sim_idle_write_csv(path, g->cfg.gpu.name, names, h, g->n_idle, err);
    } else {
        trapeze_fail(err, s, "simulator: out of memory");
    }
    free(names);
    free(h);
    return s;
}

/* Adds this launch's histograms to its kernel name's. */
static trapeze_status keep_idle(sim_gpu *g, const char *name, trapeze_error *err)
{
    int i = 0;
    while (i < g->n_idle && strcmp(g->idle[i].name, name))
        i++;
    if (i == g->n_idle) {
        struct idle_agg *n = realloc(g->idle, (size_t)(g->n_idle + 1) * sizeof *n);
        if (!n)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
        g->idle = n;
        memset(&n[i], 0, sizeof n[i]);
        snprintf(n[i].name, sizeof n[i].name, "%s", name);
        g->n_idle++;
    }
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        sim_idle_hist_add(&g->idle[i].h[k], sim_events_hist(g->ev, (sim_unit_kind)k));
    return TRAPEZE_OK;
}

uint32_t sim_gpu_peek(const sim_gpu *g, uint64_t addr)
{
    return g->mem.ops->peek(g->mem.self, addr);
}

uint64_t sim_gpu_cycle(const sim_gpu *g)
{
    return g->cycle;
}

void sim_kernel_stats_free(sim_kernel_stats *s)
{
    if (s) {
        free(s->sm);
        s->sm = NULL;
    }
}

/* A kernel's total over SMs: every counter of SIM_SM_COUNTERS summed, or
 * its maximum taken, as the list says. */
#define SUM(a, b) ((a) + (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
static void add_sm_stats(sim_sm_stats *to, const sim_sm_stats *from)
{
#define SIM_SM_ADD(f, name, how) to->f = how(to->f, from->f);
#define SIM_SM_ADD_ARRAY(f, n, prefix, names, first, how)                      \
    for (int i = 0; i < (n); i++)                                               \
        to->f[i] = how(to->f[i], from->f[i]);
    SIM_SM_COUNTERS(SIM_SM_ADD, SIM_SM_ADD_ARRAY)
#undef SIM_SM_ADD
#undef SIM_SM_ADD_ARRAY
}
#undef SUM
#undef MAX

/* One dispatch pass at the end of cycle t; returns blocks placed, or -1
 * (err filled) when an SM's warp slots cannot be allocated. */
static int dispatch(sim_gpu *g, const sim_dispatch_ops *pol, void *ps, const sim_kernel *k,
                    int per_sm, uint64_t t, trapeze_error *err)
{
    int placed = 0, first = pol->first_sm(ps);
    for (int i = 0; i < g->n_sm; i++) {
        int s = (first + i) % g->n_sm;
        if (!sim_sm_fits(&g->sms[s], k))
            continue;
        long b = pol->next_block(ps, s, per_sm - g->sms[s].n_blocks);
        if (b < 0)
            continue;
        if (sim_sm_take_slots(&g->sms[s], err))
            return -1; /* the block stays with the policy: the run ends here */
        sim_sm_place_block(&g->sms[s], b, t);
        pol->placed(ps, s, b);
        if (g->on_place)
            g->on_place(g->on_place_ctx, s, b, t);
        placed++;
    }
    return placed;
}


void sim_gpu_sequence_at(sim_gpu *g, int launch, int launches)
{
    g->seq_launch = launch;
    g->seq_launches = launches;
}

/* The progress callback with the launch's place in its sequence (a launch
 * run alone is 1 of 1). */
static void report(sim_gpu *g, const sim_kernel *k, uint64_t cycle, uint64_t done,
                   uint64_t blocks)
{
    trapeze_sim_progress_info p = {.kernel = k->name,
                                   .launch = g->seq_launches ? g->seq_launch : 1,
                                   .launches = g->seq_launches ? g->seq_launches : 1,
                                   .cycle = cycle, .blocks_done = done, .blocks = blocks};
    g->progress(g->progress_ctx, &p);
}

/* A launch runs in three parts so that a caller can interleave its own
 * work between visited cycles (a debugger, a co-simulation, a progress
 * display): sim_gpu_launch_begin checks and places the kernel, each
 * sim_gpu_launch_step runs one visited cycle, sim_gpu_launch_end collects
 * the statistics. sim_gpu_run is the three in a row. */
trapeze_status sim_gpu_launch_begin(sim_gpu *g, const sim_kernel *k, sim_kernel_stats *st,
                                    sim_launch *l, trapeze_error *err)
{
    memset(l, 0, sizeof *l);
    memset(st, 0, sizeof *st);
    if (g->windowed)   /* its warps and requests are still in flight */
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "kernel %s: the launch before it stopped at its window "
                            "(-trapeze_window_warp_insts); a windowed launch must be the last",
                            k->name);
    const char *why = NULL;
    int per_sm = sim_occupancy(&g->cfg, k, &why);
    if (per_sm < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "kernel %s: one block (%d threads, %d registers per thread, %d B "
                            "shared memory) does not fit on an SM: %s",
                            k->name, sim_kernel_block_threads(k), k->regs_per_thread,
                            k->shmem_bytes, why);
    if (sim_kernel_block_threads(k) > SM_MAX_BLOCK_WARPS * SIM_WARP_LANES)
        return trapeze_fail(err, TRAPEZE_ERANGE, "kernel %s: block too large", k->name);
    trapeze_status barrier = sim_hang_check_barrier(&g->cfg, k, per_sm, why, err);
    if (barrier)
        return barrier;
    /* refusals before the allocation: they leave nothing to free */
    const sim_dispatch_ops *pol = sim_dispatch_policy(g->cfg.tb_dispatch);
    if (g->cfg.window_groups && !pol->blocks)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "kernel %s: -trapeze_window_groups needs a group-list dispatch "
                            "(explicit, mst, kway, rbts) or chen", k->name);
    if (g->cfg.window_first_block && pol != &sim_dispatch_round_robin)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "kernel %s: -trapeze_window_first_block needs round-robin dispatch (rr)",
                            k->name);
    st->sm = calloc((size_t)g->n_sm, sizeof *st->sm);
    if (!st->sm)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    sim_dispatch_ctx dctx = {k, &g->cfg, g->sms, g->n_sm, per_sm};
    void *ps = NULL;
    trapeze_status made = pol->create(&dctx, &ps, err);
    if (made) {
        sim_kernel_stats_free(st);
        return made;
    }
    snprintf(st->name, sizeof st->name, "%s", k->name);
    st->launch = g->launches;
    st->launch_cycles = g->launches ? g->cfg.launch_latency : 0;
    uint64_t start = g->cycle + st->launch_cycles;
    st->start_cycle = start;
    st->blocks = (uint64_t)(pol->blocks ? pol->blocks(ps) : sim_kernel_blocks(k));
    if (g->cfg.window_first_block)   /* round-robin from that block on (dispatch.c) */
        st->blocks = g->cfg.window_first_block < (long)st->blocks
                         ? st->blocks - (uint64_t)g->cfg.window_first_block : 0;
    st->resident_blocks_per_sm = (uint64_t)per_sm;
    g->launches++;

    const sim_mem_port_ops *mo = g->mem.ops;
    void *ms = g->mem.self;
    mo->flush_l1(ms);
    if (mo->carve_l1) {
        /* GPGPU-Sim's carve-out counts the blocks resident at once: the
         * occupancy, or fewer when the grid is smaller than a full wave */
        long waves = ((long)st->blocks + g->n_sm - 1) / g->n_sm;
        long resident = per_sm < waves ? per_sm : waves;
        mo->carve_l1(ms, (long)k->shmem_bytes * resident);
    }
    mo->reset_stats(ms);
    if (k->source && k->source->set_threads)
        k->source->set_threads(k->source_self, sim_gpu_threads(g));
    sim_events_reset(g->ev, start);
    for (int s = 0; s < g->n_sm; s++)
        sim_sm_begin_kernel(&g->sms[s], k, start);

    *l = (sim_launch){.g = g, .k = k, .st = st, .pol = pol, .ps = ps, .per_sm = per_sm,
                      .start = start, .t = start, .total = st->blocks, .progress = start,
                      .dirty = 1, .running = 1};
    if (g->progress) /* every launch shows, however short */
        report(g, k, 0, 0, st->blocks);
    return TRAPEZE_OK;
}

uint64_t sim_gpu_launch_warp_insts(const sim_launch *l)
{
    uint64_t n = 0;
    for (int s = 0; s < l->g->n_sm; s++)
        n += l->g->sms[s].st.warp_insts;
    return n;
}

/* A sample's window (-trapeze_window_warp_insts): the launch's SMs have
 * issued that many warp instructions. */
static int window_reached(const sim_launch *l)
{
    return sim_gpu_launch_warp_insts(l) >= l->g->cfg.window_warp_insts;
}

/* One visited cycle t (the order is the file comment's); then the next
 * cycle worth visiting. 0 when the launch ended: all blocks done, or an
 * error (l->status, err filled). */
int sim_gpu_launch_step(sim_launch *l, trapeze_error *err)
{
    if (!l->running)
        return 0;
    sim_gpu *g = l->g;
    const sim_kernel *k = l->k;
    const sim_mem_port_ops *mo = g->mem.ops;
    void *ms = g->mem.self;
    uint64_t t = l->t, done = l->done, total = l->total, start = l->start;
    uint64_t progress = l->progress, end = 0;
    int dirty = l->dirty;
    trapeze_status status = TRAPEZE_OK;
    for (int once = 1; once; once = 0) {
        /* GPGPU-Sim's order within a cycle (sim/memsys.h): the SMs offer
         * requests, the memory system runs, completions due now are popped */
        uint64_t next = SIM_NEVER;
        if (g->par) {
            sim_par_cycle(g->par, t);   /* the same three steps in threads (gpu_par.c) */
        } else {
            for (int s = 0; s < g->n_sm; s++)
                if (g->sms[s].next <= t)
                    sim_sm_cycle(&g->sms[s], t);
            mo->cycle(ms, t);
            sim_mem_request r;
            for (int s = 0; (s = mo->pop_next(ms, s, t, &r)) < g->n_sm;)
                sim_sm_complete(&g->sms[r.sm < g->n_sm ? r.sm : s], &r, t);
        }
        for (int s = 0; s < g->n_sm; s++) {
            sim_sm *sm = &g->sms[s];
            if (sm->blocks_finished) {
                done += (uint64_t)sm->blocks_finished;
                sm->blocks_finished = 0;
                dirty = 1;
                progress = t;
            }
            if (sm->progress > progress)
                progress = sm->progress;
        }
        if (done == total) {
            end = t + 1;
            break;
        }
        if (g->cfg.window_warp_insts && window_reached(l)) {
            l->windowed = 1;
            end = t + 1;
            break;
        }
        int placed = dirty ? dispatch(g, l->pol, l->ps, k, l->per_sm, t, err) : 0;
        if (placed < 0) {
            status = TRAPEZE_ENOMEM;
            end = t + 1;
            break;
        }
        if (dirty && !placed)
            dirty = 0;
        else if (dirty)
            progress = t;
        if (dirty)
            next = t + 1;
        for (int s = 0; s < g->n_sm; s++)
            if (g->sms[s].next < next)
                next = g->sms[s].next;
        uint64_t mn = mo->next_event(ms, t);
        if (mn < next)
            next = mn;
        if (next == SIM_NEVER) {
            status = trapeze_fail(err, TRAPEZE_EFAIL,
                                  "kernel %s: deadlock at cycle %llu (%llu of %llu blocks done)",
                                  k->name, (unsigned long long)t, (unsigned long long)done,
                                  (unsigned long long)total);
            end = t + 1;
            break;
        }
        if (next - progress > g->cfg.hang_cycles) {
            status = sim_hang_report(g->sms, g->n_sm, &g->mem, k, t, done, err);
            end = t + 1;
            break;
        }
        if (next - start > g->cfg.max_cycles) {
            status = trapeze_fail(err, TRAPEZE_EFAIL,
                                  "kernel %s: still running after %llu cycles "
                                  "(-trapeze_max_cycles; %llu of %llu blocks done)",
                                  k->name, (unsigned long long)g->cfg.max_cycles,
                                  (unsigned long long)done, (unsigned long long)total);
            end = t + 1;
            break;
        }
        t = next > t ? next : t + 1;
        if (g->progress && (++l->iter & 0xffff) == 0)
            report(g, k, t - start, done, total);
    }
    l->t = t;
    l->done = done;
    l->progress = progress;
    l->dirty = dirty;
    if (end) {
        l->end = end;
        l->status = status;
        l->running = 0;
    }
    return l->running;
}

/* The launch's statistics into st (or, after an error, its status), the
 * no-request-lost check, and the GPU's clock moved to the launch's end. */
trapeze_status sim_gpu_launch_end(sim_launch *l, trapeze_error *err)
{
    sim_gpu *g = l->g;
    const sim_kernel *k = l->k;
    sim_kernel_stats *st = l->st;
    const sim_dispatch_ops *pol = l->pol;
    void *ps = l->ps;
    const sim_mem_port_ops *mo = g->mem.ops;
    void *ms = g->mem.self;
    uint64_t end = l->end, start = l->start;
    trapeze_status status = l->status;
    st->stolen_blocks = pol->stolen ? pol->stolen(ps) : 0;
    pol->destroy(ps);
    if (status) {
        g->cycle = end;
        sim_kernel_stats_free(st);
        return status;
    }
    sim_events_finish(g->ev, end);
    st->n_sm = g->n_sm;
    st->cycles = end - start;
    for (int s = 0; s < g->n_sm; s++) {
        sim_sm_finish_kernel(&g->sms[s], end);
        st->sm[s] = g->sms[s].st;
        add_sm_stats(&st->total, &g->sms[s].st);
    }
    st->ipc = st->cycles ? (double)st->total.warp_insts / (double)st->cycles : 0.0;
    for (int e = 0; e < SIM_EV_COUNT; e++)
        st->events[e] = sim_events_get(g->ev, (sim_event)e);
    if (g->power)
        kernel_energy(g, st);
    if (g->keep_idle && (status = keep_idle(g, k->name, err))) {
        sim_kernel_stats_free(st);
        return status;
    }
    if (mo->stats) {
        st->mem = *mo->stats(ms);
        st->mem_stats_valid = 1;
    }
    g->cycle = end;
    if (l->windowed) {   /* stopped part way: requests in flight are expected */
        st->windowed = 1;
        g->windowed = 1;
        return TRAPEZE_OK;
    }
    uint64_t lost = mo->outstanding(ms);
    if (lost) {
        sim_kernel_stats_free(st);
        return trapeze_fail(err, TRAPEZE_EFAIL,
                            "kernel %s: %llu memory requests outstanding at its end "
                            "(a request was lost)",
                            k->name, (unsigned long long)lost);
    }
    return TRAPEZE_OK;
}

void sim_gpu_launch_cut(sim_launch *l)
{
    sim_events_gather(l->g->ev);
    if (l->ps)
        l->pol->destroy(l->ps);
    l->ps = NULL;
    sim_kernel_stats_free(l->st);
    l->running = 0;
}

trapeze_status sim_gpu_launch_skip(sim_launch *l, long from, long to, trapeze_error *err)
{
    if (!l->running || !l->ps || !l->pol->skip)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "kernel %s: skipping blocks needs a running launch with "
                            "round-robin dispatch (rr)", l->k->name);
    long dropped = l->pol->skip(l->ps, from, to);
    if (dropped < 0)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "kernel %s: a skip of blocks is already pending", l->k->name);
    l->total -= (uint64_t)dropped;
    l->st->blocks -= (uint64_t)dropped;
    return TRAPEZE_OK;
}

trapeze_status sim_gpu_run(sim_gpu *g, const sim_kernel *k, sim_kernel_stats *st,
                           trapeze_error *err)
{
    sim_launch l;
    trapeze_status s = sim_gpu_launch_begin(g, k, st, &l, err);
    if (s)
        return s;
    while (sim_gpu_launch_step(&l, err))
        ;
    return sim_gpu_launch_end(&l, err);
}
