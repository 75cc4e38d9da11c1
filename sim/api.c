/*
 * api.c - the simulator's public face (trapeze_sim_* in trapeze.h): one
 * simulated GPU built from a config, runs of built-in kernel sequences,
 * traces and ghost-zone stencil workloads on it, and the statistics of
 * every launch. What `trapeze sim` and a library user call; it must not
 * print except where asked (trapeze_sim_print) nor hold global state.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/options.h"
#include "sim/mem/mem_config.h"
#include "sim/power/sleep.h"
#include "sim/core/gpu_sim.h"
#include "sim/stencil/stencil_run.h"
#include "sim/trace/trace.h"

#define MAX_LAUNCHES 4096 /* of one built-in sequence */

struct trapeze_sim {
    const trapeze_config *cfg;
    sim_gpu *gpu;
    trapeze_power power;       /* the caller's, copied (the GPU keeps a pointer) */
    sim_sleep_config sleep;
    sim_kernel_stats *stats;   /* every launch so far */
    int n, capacity;
};

void trapeze_sim_options_init(trapeze_sim_options *o)
{
    memset(o, 0, sizeof *o);
    o->progress = NULL;
    o->progress_ctx = NULL;
    o->tb_grouping = NULL;
    o->power = NULL;
    for (int i = 0; i < TRAPEZE_PS_SLEEPABLE; i++)
        o->sleep[i] = NULL;
}

trapeze_status trapeze_sim_create(const trapeze_config *cfg, const trapeze_sim_options *o,
                                  trapeze_sim **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    sim->cfg = cfg;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    if (o && o->progress) {
        opt.progress = o->progress;
        opt.progress_ctx = o->progress_ctx;
    }
    trapeze_status s = TRAPEZE_OK;
    if (o) {
        opt.tb_grouping = o->tb_grouping;
        opt.keep_idle = o->keep_idle;
        opt.threads = o->threads;
        if (o->power) {
            sim->power = *o->power;
            opt.power = &sim->power;
        }
        /* the config's sleep policies, the options' over them */
        s = sim_sleep_config_read(cfg, &sim->sleep, err);
        for (int i = 0; !s && i < TRAPEZE_PS_SLEEPABLE; i++)
            if (o->sleep[i])
                s = sim_sleep_config_set(&sim->sleep, (trapeze_power_structure)i, o->sleep[i],
                                         err);
        opt.sleep = &sim->sleep;
    }
    if (!s && o && o->ideal_memory_cycles > 0) {
        sim_core_config core;
        if (!(s = sim_core_config_read(cfg, &core, err)))
            s = sim_mem_port_ideal(core.gpu.n_sm, o->ideal_memory_cycles, &opt.mem, err);
    }
    if (!s)
        s = sim_gpu_create(cfg, &opt, &sim->gpu, err);
    if (s) {
        free(sim);
        return s;
    }
    *out = sim;
    return TRAPEZE_OK;
}

void trapeze_sim_destroy(trapeze_sim *sim)
{
    if (!sim)
        return;
    for (int i = 0; i < sim->n; i++)
        sim_kernel_stats_free(&sim->stats[i]);
    free(sim->stats);
    sim_gpu_destroy(sim->gpu);
    free(sim);
}

/* Room for `more` launches' statistics after the ones kept. */
static trapeze_status reserve(trapeze_sim *sim, int more, trapeze_error *err)
{
    if (sim->n + more <= sim->capacity)
        return TRAPEZE_OK;
    int cap = sim->capacity ? sim->capacity : 16;
    while (cap < sim->n + more)
        cap *= 2;
    sim_kernel_stats *grown = realloc(sim->stats, (size_t)cap * sizeof *grown);
    if (!grown)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    sim->stats = grown;
    sim->capacity = cap;
    return TRAPEZE_OK;
}

/* ---- built-in kernels ---- */

const char *trapeze_sim_builtin(int i, const char **help)
{
    int n;
    const sim_builtin *b = sim_builtins(&n);
    if (i < 0 || i >= n)
        return NULL;
    if (help)
        *help = b[i].help;
    return b[i].name;
}

const char *trapeze_sim_builtin_param(int i, int j, long *default_value, const char **help)
{
    int n;
    const sim_builtin *b = sim_builtins(&n);
    if (i < 0 || i >= n || j < 0 || j >= SIM_BUILTIN_MAX_PARAMS || !b[i].params[j].name)
        return NULL;
    if (default_value)
        *default_value = b[i].params[j].value;
    if (help)
        *help = b[i].params[j].help;
    return b[i].params[j].name;
}

static trapeze_status builtin_of(const char *name, int n, char *const *settings,
                                 const sim_builtin **b, long *p, trapeze_error *err)
{
    *b = sim_builtin_find(name);
    if (!*b)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "no built-in kernel '%s' (trapeze sim --list names them)", name);
    return sim_builtin_params(*b, n, (char **)settings, p, err);
}

trapeze_status trapeze_sim_builtin_check(const char *name, int n, char *const *settings,
                                         trapeze_error *err)
{
    const sim_builtin *b;
    long p[SIM_BUILTIN_MAX_PARAMS];
    return builtin_of(name, n, settings, &b, p, err);
}

/* Builds built-in `name` for the GPU c into ks (MAX_LAUNCHES room). */
static trapeze_status build_builtin(const sim_core_config *c, const char *name, int n,
                                    char *const *settings, sim_kernel **ks, int *nk,
                                    trapeze_error *err)
{
    const sim_builtin *b;
    long p[SIM_BUILTIN_MAX_PARAMS];
    *nk = 0;
    trapeze_status s = builtin_of(name, n, settings, &b, p, err);
    return s ? s : b->build(c, p, ks, MAX_LAUNCHES, nk, err);
}

/* Names the run of launches [from, sim->n) in their statistics, so that the
 * CSV rows of several runs can be told apart and combined. */
static void label_run(trapeze_sim *sim, int from, const char *run)
{
    for (int k = from; k < sim->n; k++)
        snprintf(sim->stats[k].run, sizeof sim->stats[k].run, "%s", run);
}

trapeze_status trapeze_sim_run_builtin(trapeze_sim *sim, const char *name, int n,
                                       char *const *settings, trapeze_error *err)
{
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    int nk = 0, ran = 0;
    trapeze_status s = ks ? build_builtin(sim_gpu_config(sim->gpu), name, n, settings, ks, &nk,
                                          err)
                          : trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    if (!s)
        s = reserve(sim, nk, err);
    sim_sequence seq = {.n = nk, .kernels = ks};
    if (!s)
        s = sim_gpu_run_sequence(sim->gpu, &seq, sim->stats + sim->n, &ran, err);
    sim->n += ran;
    char run[160];
    int used = snprintf(run, sizeof run, "%s", name);
    for (int i = 0; i < n && used > 0 && used < (int)sizeof run; i++)
        used += snprintf(run + used, sizeof run - (size_t)used, " %s", settings[i]);
    label_run(sim, sim->n - ran, run);
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    free(ks);
    return s;
}

trapeze_status trapeze_sim_run_trace(trapeze_sim *sim, const char *kernelslist,
                                     trapeze_error *err)
{
    sim_trace_list l;
    trapeze_status s = sim_trace_list_read(kernelslist, &l, err);
    if (s)
        return s;
    int n = l.n, ran = 0;
    sim_trace_list_free(&l);
    if ((s = reserve(sim, n, err)))
        return s;
    s = sim_trace_run(sim->gpu, kernelslist, sim->stats + sim->n, n, &ran, err);
    sim->n += ran;
    char run[160];
    snprintf(run, sizeof run, "trace %s", kernelslist);
    label_run(sim, sim->n - ran, run);
    return s;
}

/* ---- ghost-zone stencil workloads ---- */

trapeze_status trapeze_sim_run_stencil(trapeze_sim *sim, const trapeze_workload *w,
                                       trapeze_sync sync, int h, int iterations,
                                       trapeze_sim_stencil_result *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sim_stencil_spec spec = {.workload = w, .h = h, .sync = sync, .iterations = iterations};
    sim_stencil_result *r = NULL;
    trapeze_status s = sim_stencil_run(sim->gpu, &spec, &r, err);
    if (!s)
        s = reserve(sim, r->n_stats, err);
    if (s) {
        sim_stencil_result_destroy(r);
        return s;
    }
    const sim_stencil *st = r->stencil;
    *out = (trapeze_sim_stencil_result){
        .iterations = r->iterations, .stages = st->stages, .tiles = st->tiles,
        .resident_blocks = st->resident_blocks, .out_edge = st->out_edge,
        .blocks_per_sm = r->blocks_per_sm, .insts_per_op = st->insts_per_op,
        .setup_insts = st->setup_insts, .cycles = r->cycles, .warp_instructions = r->warp_insts,
        .cycles_per_loop = r->cycles_per_loop};
    snprintf(out->occupancy_limit, sizeof out->occupancy_limit, "%s",
             r->occupancy_limit ? r->occupancy_limit : "");
    /* the launches' statistics move into the simulator's list */
    memcpy(sim->stats + sim->n, r->stats, (size_t)r->n_stats * sizeof *r->stats);
    sim->n += r->n_stats;
    char run[160], size[64] = "";
    for (int i = 0, used = 0; i < w->dims && used < (int)sizeof size; i++)
        used += snprintf(size + used, sizeof size - (size_t)used, "%s%.0f", i ? "x" : "",
                         w->data_len[i]);
    snprintf(run, sizeof run, "%.48s h=%d sync=%s size=%s iterations=%d", w->name, h,
             trapeze_sync_name(sync), size, out->iterations);
    label_run(sim, sim->n - r->n_stats, run);
    r->n_stats = 0;
    sim_stencil_result_destroy(r);
    return TRAPEZE_OK;
}

/* ---- statistics ---- */

int trapeze_sim_launches(const trapeze_sim *sim) { return sim->n; }

unsigned long long trapeze_sim_cycle(const trapeze_sim *sim) { return sim_gpu_cycle(sim->gpu); }

trapeze_status trapeze_sim_launch_stats(const trapeze_sim *sim, int i, trapeze_sim_launch *out,
                                        trapeze_error *err)
{
    if (i < 0 || i >= sim->n)
        return trapeze_fail(err, TRAPEZE_EINVAL, "no launch %d (%d ran)", i, sim->n);
    const sim_kernel_stats *s = &sim->stats[i];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", s->name);
    out->launch = s->launch;
    out->start_cycle = s->start_cycle;
    out->cycles = s->cycles;
    out->launch_cycles = s->launch_cycles;
    out->blocks = s->blocks;
    out->warp_instructions = s->total.warp_insts;
    out->thread_instructions = s->total.thread_insts;
    out->ipc = s->ipc;
    return TRAPEZE_OK;
}

/* *p, which becomes NULL (a handle given to commit, which frees it). */
static trapeze_csv_out *exchange(trapeze_csv_out **p)
{
    trapeze_csv_out *c = *p;
    *p = NULL;
    return c;
}

trapeze_status trapeze_sim_write_csv(const trapeze_sim *sim, const char *csv,
                                     const char *per_sm_csv, trapeze_error *err)
{
    trapeze_csv_out *held_sm = NULL, *held = NULL;
    trapeze_status s = TRAPEZE_OK;
    if (per_sm_csv)
        s = sim_stats_write_sm_csv(per_sm_csv, sim->stats, sim->n, &held_sm, err);
    if (!s && csv)
        s = sim_stats_write_csv(csv, sim->stats, sim->n, &sim_gpu_config(sim->gpu)->gpu, &held, err);
    if (!s && held_sm)
        s = trapeze_csv_commit(exchange(&held_sm), err);
    if (!s && held)
        s = trapeze_csv_commit(exchange(&held), err);
    trapeze_csv_abort(held_sm);
    trapeze_csv_abort(held);
    return s;
}

void trapeze_sim_print(const trapeze_sim *sim, FILE *f)
{
    sim_stats_print(f, sim->stats, sim->n, sim_gpu_config(sim->gpu));
}

void trapeze_sim_print_energy(const trapeze_sim *sim, FILE *f)
{
    sim_energy sum;
    memset(&sum, 0, sizeof sum);
    for (int k = 0; k < sim->n; k++) {
        const sim_energy *e = &sim->stats[k].energy;
        for (int p = 0; p < SIM_EN_COUNT; p++)
            sum.j[p] += e->j[p];
        sum.total_j += e->total_j;
        sum.seconds += e->seconds;
        for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
            sum.unallocated[s] += e->unallocated[s];
        for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
            sim_sleep_result *r = &sum.sleep[s];
            const sim_sleep_result *x = &e->sleep[s];
            r->tracked += x->tracked;
            for (int m = 0; m < TRAPEZE_POWER_MAX_MODES; m++) {
                r->mode_cycles[m] += x->mode_cycles[m];
                r->entries[m] += x->entries[m];
            }
            r->wakeups += x->wakeups;
            r->stall_cycles += x->stall_cycles;
        }
    }
    sim_energy_print(f, &sum, sim_gpu_sleep(sim->gpu));
}

trapeze_status trapeze_sim_write_idle_csv(const trapeze_sim *sim, const char *path,
                                          trapeze_error *err)
{
    return sim_gpu_write_idle_csv(sim->gpu, path, err);
}

size_t trapeze_sim_unmodelled_options(const trapeze_config *cfg, const char **names, size_t max)
{
    return sim_config_unknown(cfg, names, max);
}

/* ---- traces ---- */

trapeze_status trapeze_trace_export_builtin(const trapeze_config *cfg, const char *name, int n,
                                            char *const *settings, const char *dir,
                                            int *kernels, trapeze_trace_written written,
                                            void *ctx, trapeze_error *err)
{
    *kernels = 0;
    sim_core_config core;
    trapeze_status s = sim_core_config_read(cfg, &core, err);
    if (s)
        return s;
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    int nk = 0;
    s = ks ? build_builtin(&core, name, n, settings, ks, &nk, err)
           : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s && !(s = sim_trace_export_each(ks, nk, dir, written, ctx, err)))
        *kernels = nk;
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    free(ks);
    return s;
}

/* The kernel's warp instructions by op, in the public info's classes
 * (every op lands in exactly one, so they sum to warp_instructions). */
static void trace_op_mix(const sim_trace_kernel *t, trapeze_trace_kernel_info *info)
{
    unsigned long long *to[SIM_OP_COUNT] = {
        [SIM_OP_INT] = &info->int_ops,           [SIM_OP_FP] = &info->fp_ops,
        [SIM_OP_DP] = &info->fp_ops,             [SIM_OP_SFU] = &info->sfu_ops,
        [SIM_OP_BRANCH] = &info->branch_ops,     [SIM_OP_LD_GLOBAL] = &info->global_loads,
        [SIM_OP_ST_GLOBAL] = &info->global_stores, [SIM_OP_LD_SHARED] = &info->shared_loads,
        [SIM_OP_ST_SHARED] = &info->shared_stores};
    for (int op = 0; op < SIM_OP_COUNT; op++)
        *(to[op] ? to[op] : &info->other_ops) += sim_trace_kernel_op_count(t, op);
}

/* A file's size as stored, 0 when it cannot be told (its open then says why). */
static unsigned long long file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0 ? (unsigned long long)st.st_size : 0;
}

trapeze_status trapeze_trace_check(const char *kernelslist,
                                   void (*each)(void *ctx, const trapeze_trace_kernel_info *k),
                                   void *ctx, trapeze_error *err)
{
    sim_trace_list l;
    trapeze_status s = sim_trace_list_read(kernelslist, &l, err);
    unsigned long long total = 0, done = 0;
    for (int i = 0; !s && i < l.n; i++)
        total += file_bytes(l.kernels[i]);
    for (int i = 0; !s && i < l.n; i++) {
        sim_trace_kernel *t;
        /* checked, not simulated: nothing to keep */
        if ((s = sim_trace_kernel_open_keep(l.kernels[i], 0, &t, err)))
            break;
        const sim_kernel *k = sim_trace_kernel_sim(t);
        trapeze_trace_kernel_info info = {
            .path = l.kernels[i],
            .grid = {k->grid.x, k->grid.y, k->grid.z},
            .block = {k->block.x, k->block.y, k->block.z},
            .warp_instructions = sim_trace_kernel_warp_insts(t),
            .unknown_opcodes = sim_trace_kernel_unknown_opcodes(t),
            .bytes_done = done += file_bytes(l.kernels[i]), .bytes_total = total};
        trace_op_mix(t, &info);
        snprintf(info.name, sizeof info.name, "%s", k->name);
        each(ctx, &info);
        sim_trace_kernel_close(t);
    }
    sim_trace_list_free(&l); /* also after a failed read, which leaves it empty */
    return s;
}

int trapeze_trace_opcode(int i, trapeze_trace_opcode_info *out)
{
    int n;
    const sim_trace_opcode *t = sim_trace_opcodes(&n);
    static const char *const alus[] = {"ADD", "MAX", "MUL", "MAD", "DIV"};
    if (i < 0 || i >= n)
        return 0;
    *out = (trapeze_trace_opcode_info){t[i].mnemonic, t[i].modifier, sim_op_name((sim_op)t[i].op),
                                       t[i].alu < 5 ? alus[t[i].alu] : "?", t[i].exported,
                                       t[i].note, t[i].unit};
    return 1;
}

trapeze_status trapeze_trace_export_stencil(const trapeze_config *cfg, const trapeze_workload *w,
                                            int h, int iterations, const char *dir,
                                            trapeze_sim_stencil_result *out,
                                            trapeze_trace_written written, void *ctx,
                                            trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    sim_core_config core;
    trapeze_status s = sim_core_config_read(cfg, &core, err);
    if (s)
        return s;
    sim_stencil_spec spec = {.workload = w, .h = h, .sync = TRAPEZE_SYNC_RELAUNCH,
                             .iterations = iterations};
    sim_stencil *st = NULL;
    int per_sm;
    const char *limit = NULL;
    s = sim_stencil_build_sized(&core, &spec, &st, &per_sm, &limit, err);
    if (!s)
        s = sim_trace_export_each(st->kernels, st->n_kernels, dir, written, ctx, err);
    if (!s) {
        out->stages = st->stages;
        out->tiles = st->tiles;
        out->resident_blocks = st->resident_blocks;
        out->out_edge = st->out_edge;
        out->blocks_per_sm = per_sm;
        out->insts_per_op = st->insts_per_op;
        out->setup_insts = st->setup_insts;
        out->iterations = iterations > 0 ? iterations : w->iterations;
        snprintf(out->occupancy_limit, sizeof out->occupancy_limit, "%s", limit ? limit : "");
    }
    sim_stencil_destroy(st);
    return s;
}

void trapeze_sim_print_options(FILE *f)
{
    trapeze_opt_print(f, "GPU (model and simulator)", trapeze_gpu_options);
    trapeze_opt_print(f, "SM cores", sim_core_options);
    trapeze_opt_print(f, "memory system", sim_mem_options);
    trapeze_opt_print(f, "sleep policies (with --power)", sim_sleep_options);
}
