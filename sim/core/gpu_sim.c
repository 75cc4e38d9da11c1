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
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/sm.h"

struct sim_gpu {
    sim_core_config cfg;
    sim_events *ev;
    sim_mem_port mem;
    int n_sm;
    sim_sm *sms;
    uint64_t cycle;      /* first cycle after the last kernel */
    uint64_t launches;
    void (*progress)(void *, const char *, uint64_t, uint64_t, uint64_t);
    void *progress_ctx;
    void (*on_place)(void *, int, long, uint64_t);
    void *on_place_ctx;
};

void sim_gpu_destroy(sim_gpu *g)
{
    if (!g)
        return;
    if (g->sms)
        for (int s = 0; s < g->n_sm; s++)
            sim_sm_free(&g->sms[s]);
    free(g->sms);
    if (g->mem.ops)
        g->mem.ops->destroy(g->mem.self);
    sim_events_destroy(g->ev);
    free(g);
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
    }
    g->n_sm = g->cfg.gpu.n_sm;
    int units[SIM_UNIT_KIND_COUNT] = {0};
    if (!g->mem.ops && (s = sim_memsys_unit_counts(cfg, g->n_sm, units, err))) {
        sim_gpu_destroy(g);
        return s;
    }
    units[SIM_UNIT_REG_BANK] = g->n_sm * g->cfg.reg_banks;
    g->ev = sim_events_create(units);
    g->sms = calloc((size_t)g->n_sm, sizeof *g->sms);
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
    *out = g;
    return TRAPEZE_OK;
}

const sim_core_config *sim_gpu_config(const sim_gpu *g)
{
    return &g->cfg;
}

sim_events *sim_gpu_events(sim_gpu *g)
{
    return g->ev;
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

/* One dispatch pass at the end of cycle t; returns blocks placed. */
static int dispatch(sim_gpu *g, const sim_dispatch_ops *pol, void *ps, const sim_kernel *k,
                    int per_sm, uint64_t t)
{
    int placed = 0, first = pol->first_sm(ps);
    for (int i = 0; i < g->n_sm; i++) {
        int s = (first + i) % g->n_sm;
        if (!sim_sm_fits(&g->sms[s], k))
            continue;
        long b = pol->next_block(ps, s, per_sm - g->sms[s].n_blocks);
        if (b < 0)
            continue;
        sim_sm_place_block(&g->sms[s], b, t);
        pol->placed(ps, s, b);
        if (g->on_place)
            g->on_place(g->on_place_ctx, s, b, t);
        placed++;
    }
    return placed;
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
    st->sm = calloc((size_t)g->n_sm, sizeof *st->sm);
    if (!st->sm)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    const sim_dispatch_ops *pol = sim_dispatch_policy(g->cfg.tb_dispatch);
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
    st->blocks = (uint64_t)sim_kernel_blocks(k);
    st->resident_blocks_per_sm = (uint64_t)per_sm;
    g->launches++;

    const sim_mem_port_ops *mo = g->mem.ops;
    void *ms = g->mem.self;
    mo->flush_l1(ms);
    mo->reset_stats(ms);
    sim_events_reset(g->ev, start);
    for (int s = 0; s < g->n_sm; s++)
        sim_sm_begin_kernel(&g->sms[s], k, start);

    *l = (sim_launch){.g = g, .k = k, .st = st, .pol = pol, .ps = ps, .per_sm = per_sm,
                      .start = start, .t = start, .total = st->blocks, .progress = start,
                      .dirty = 1, .running = 1};
    return TRAPEZE_OK;
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
        for (int s = 0; s < g->n_sm; s++)
            if (g->sms[s].next <= t)
                sim_sm_cycle(&g->sms[s], t);
        mo->cycle(ms, t);
        sim_mem_request r;
        for (int s = 0; s < g->n_sm; s++)
            while (mo->pop(ms, s, t, &r))
                sim_sm_complete(&g->sms[r.sm < g->n_sm ? r.sm : s], &r, t);
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
        if (dirty && !dispatch(g, l->pol, l->ps, k, l->per_sm, t))
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
            g->progress(g->progress_ctx, k->name, t - start, done, total);
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
    if (mo->stats) {
        st->mem = *mo->stats(ms);
        st->mem_stats_valid = 1;
    }
    g->cycle = end;
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
