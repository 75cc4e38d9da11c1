/*
 * stats.c - writing per-kernel statistics: the CSV (one row per kernel
 * launch, beginning kernel,cycles,warp_instructions,ipc), the per-SM CSV
 * (one row per launch and SM, beginning kernel,launch,sm,cycles,
 * warp_instructions,ipc; its counters sum to the kernel row's) and the
 * short text summary. Owns the columns only: files are written by
 * common/csv_out.c; the counters are filled by sm.c, gpu_sim.c and sim/mem.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/gpu_sim.h"

const char *const sim_stall_names[SIM_STALL_COUNT] = {"memory", "compute", "fence", "barrier",
                                                      "idle"};
const char *const sim_fail_names[SIM_FAIL_COUNT] = {"none", "line_alloc", "mshr_entry",
                                                    "mshr_merge", "miss_queue", "l1_bank"};

typedef struct col {
    char name[48];
    uint64_t value;
    double joules;      /* a _j column: written instead of value */
    int valid, is_j;
} col;

/* Appends columns to a list of at most MAX_COLS (names and values). */
#define MAX_COLS 192
typedef struct cols {
    col c[MAX_COLS];
    int n;
} cols;

static void add(cols *l, const char *name, uint64_t value, int valid)
{
    if (l->n >= MAX_COLS)
        return;
    snprintf(l->c[l->n].name, sizeof l->c[l->n].name, "%s", name);
    l->c[l->n].value = value;
    l->c[l->n].valid = valid;
    l->c[l->n].is_j = 0;
    l->n++;
}

static void add_j(cols *l, const char *name, double joules)
{
    if (l->n >= MAX_COLS)
        return;
    add(l, name, 0, 1);
    l->c[l->n - 1].joules = joules;
    l->c[l->n - 1].is_j = 1;
}

/* Energy columns of a kernel row (runs with a power description). */
static void energy_columns(const sim_kernel_stats *s, cols *l)
{
    char nm[48];
    const sim_energy *e = &s->energy;
    for (int p = 0; p < SIM_EN_COUNT; p++) {
        snprintf(nm, sizeof nm, "%s_j", sim_energy_part_name((sim_energy_part)p));
        add_j(l, nm, e->j[p]);
    }
    add_j(l, "total_j", e->total_j);
    for (int st = 0; st < TRAPEZE_PS_SLEEPABLE; st++) {
        const char *sn = trapeze_power_structure_name((trapeze_power_structure)st);
        const sim_sleep_result *r = &e->sleep[st];
        uint64_t asleep = 0, tr = 0;
        for (int m = 1; m < TRAPEZE_POWER_MAX_MODES; m++) {
            asleep += r->mode_cycles[m];
            tr += r->entries[m];
        }
        snprintf(nm, sizeof nm, "%s_sleep_unit_cycles", sn);
        add(l, nm, asleep, 1);
        snprintf(nm, sizeof nm, "%s_transitions", sn);
        add(l, nm, tr, 1);
        snprintf(nm, sizeof nm, "%s_wakeups", sn);
        add(l, nm, r->wakeups, 1);
        snprintf(nm, sizeof nm, "%s_wake_stall_cycles", sn);
        add(l, nm, r->stall_cycles, 1);
    }
}

/* The per-SM energies that are exact per SM: idle-SM power, instruction
 * issue, shared memory. */
static void sm_energy_columns(const sim_kernel_stats *s, const sim_sm_stats *t, cols *l)
{
    double idle = (double)s->cycles - (double)t->active_cycles;
    add_j(l, "idle_sm_j", s->clock_hz > 0 ? s->idle_sm_w * (idle > 0 ? idle : 0) / s->clock_hz
                                          : 0);
    add_j(l, "dyn_inst_issue_j", (double)t->warp_insts * s->event_j[TRAPEZE_PE_INST_ISSUE]);
    add_j(l, "dyn_shmem_j", (double)t->shmem_passes * s->event_j[TRAPEZE_PE_SHMEM_ACCESS]);
}

/* The counters one SM keeps (SIM_SM_COUNTERS, in its order); the kernel
 * CSV has their totals over SMs. */
static void sm_columns(const sim_sm_stats *t, cols *l)
{
    char nm[48];
#define SIM_SM_COLUMN(f, name, how)                                             \
    if ((name)[0])                                                              \
        add(l, name, t->f, 1);
#define SIM_SM_COLUMNS(f, n, prefix, names, first, how)                         \
    for (int i = (first); i < (n); i++) {                                       \
        snprintf(nm, sizeof nm, "%s%s", prefix, names[i]);                      \
        add(l, nm, t->f[i], 1);                                                 \
    }
    SIM_SM_COUNTERS(SIM_SM_COLUMN, SIM_SM_COLUMNS)
#undef SIM_SM_COLUMN
#undef SIM_SM_COLUMNS
}

static void cache_columns(const char *level, const sim_cache_stats *c, int valid, cols *l)
{
    char nm[48];
#define CC(field)                                                             \
    do {                                                                      \
        snprintf(nm, sizeof nm, "%s_%s", level, #field);                      \
        add(l, nm, c->field, valid);                                          \
    } while (0)
    CC(accesses);
    CC(hits);
    CC(misses);
    CC(merges);
    CC(bypasses);
    CC(reservation_fails);
    CC(fills);
    CC(evictions);
    CC(writebacks);
#undef CC
}

/* The numeric columns of a kernel row after kernel,cycles,warp_instructions,ipc. */
static void kernel_columns(const sim_kernel_stats *s, cols *l)
{
    char nm[48];
    add(l, "launch", s->launch, 1);
    add(l, "start_cycle", s->start_cycle, 1);
    add(l, "launch_cycles", s->launch_cycles, 1);
    add(l, "blocks", s->blocks, 1);
    add(l, "resident_blocks_per_sm", s->resident_blocks_per_sm, 1);
    sm_columns(&s->total, l);
    for (int e = 0; e < SIM_EV_L1_TAG_PROBE; e++) {   /* the tag probes: below */
        snprintf(nm, sizeof nm, "ev_%s", sim_event_name((sim_event)e));
        add(l, nm, s->events[e], 1);
    }
    int mv = s->mem_stats_valid;
    const sim_mem_stats *m = &s->mem;
    cache_columns("l1", &m->l1, mv, l);
    cache_columns("l2", &m->l2, mv, l);
    add(l, "icnt_flits", m->icnt_flits, mv);
    add(l, "dram_reads", m->dram_reads, mv);
    add(l, "dram_writes", m->dram_writes, mv);
    add(l, "dram_row_hits", m->dram_row_hits, mv);
    add(l, "dram_row_misses", m->dram_row_misses, mv);
    add(l, "dram_bytes_read", m->dram_bytes_read, mv);
    add(l, "dram_bytes_written", m->dram_bytes_written, mv);
    add(l, "dram_busy_cycles", m->dram_busy_cycles, mv);
    add(l, "dram_cycles", m->dram_cycles, mv);
    add(l, "atomics_performed", m->atomics_performed, mv);
    if (mv && m->contention_valid) {   /* -trapeze_contention_counters */
        add(l, "l1_evicted_unused", m->l1.evicted_unused, 1);
        add(l, "ldst_stall_ready_warps", s->total.ldst_ready, 1);
        add(l, "l1_miss_iw", m->l1.miss_iw, 1);
        add(l, "l1_miss_xw", m->l1.miss_xw, 1);
        add(l, "l1_miss_xb", m->l1.miss_xb, 1);
        add(l, "l1_evicted_reuse", m->l1.evicted_reuse, 1);
        add(l, "l1_load_set_max", m->l1.load_set_max, 1);
        add(l, "l1_load_set_overflows", m->l1.load_set_overflows, 1);
        add(l, "l1_tag_probes", m->l1.tag_probes, 1);
        add(l, "l2_tag_probes", m->l2.tag_probes, 1);
    }
    if (s->energy_valid)
        energy_columns(s, l);
}

/* A per-SM row's columns after kernel,launch,sm,cycles,warp_instructions,ipc. */
static void sm_row_columns(const sim_sm_stats *t, cols *l)
{
    add(l, "blocks", t->blocks, 1);
    add(l, "max_resident_blocks", t->max_resident_blocks, 1);
    sm_columns(t, l);
}

/* The CSV's header: the leading columns, then the names of `tail`. */
static trapeze_status create(const char *path, const char *const *lead, int n_lead,
                             const cols *tail, trapeze_csv_out **out, trapeze_error *err)
{
    const char *names[8 + MAX_COLS];
    for (int i = 0; i < n_lead; i++)
        names[i] = lead[i];
    for (int i = 0; i < tail->n; i++)
        names[n_lead + i] = tail->c[i].name;
    return trapeze_csv_create(path, names, n_lead + tail->n, out, err);
}

/* The values of `tail` (an invalid one is an empty field). */
static void write_tail(trapeze_csv_out *csv, const cols *tail)
{
    for (int i = 0; i < tail->n; i++) {
        if (tail->c[i].is_j)
            trapeze_csv_number(csv, tail->c[i].joules);
        else if (tail->c[i].valid)
            trapeze_csv_number(csv, (double)tail->c[i].value);
        else
            trapeze_csv_text(csv, "");
    }
}

/* Ends a row with the values of `tail`. */
static trapeze_status finish_row(trapeze_csv_out *csv, const cols *tail, trapeze_error *err)
{
    write_tail(csv, tail);
    return trapeze_csv_end_row(csv, err);
}

/* Commits a complete file (or, with held, finishes it and hands it back
 * uncommitted), or removes it after a failure (status st). */
static trapeze_status close_csv(trapeze_csv_out *csv, trapeze_status st,
                                trapeze_csv_out **held, trapeze_error *err)
{
    if (st) {
        trapeze_csv_abort(csv);
        return st;
    }
    if (!held)
        return trapeze_csv_commit(csv, err);
    st = trapeze_csv_finish(csv, err);
    *held = st ? NULL : csv;
    return st;
}

static double ipc_of(uint64_t insts, uint64_t cycles)
{
    return cycles ? (double)insts / (double)cycles : 0.0;
}

trapeze_status sim_stats_write_csv(const char *path, const sim_kernel_stats *s, int n,
                                   const trapeze_gpu *gpu, trapeze_csv_out **held,
                                   trapeze_error *err)
{
    static const char *const lead[] = {"kernel", "cycles", "warp_instructions", "ipc"};
    cols *l = calloc(1, sizeof *l);
    if (!l)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    sim_kernel_stats empty;
    memset(&empty, 0, sizeof empty);
    kernel_columns(n ? &s[0] : &empty, l);
    /* what makes rows of several runs combine: the GPU, the run, seconds */
    const char *trail[] = {"gpu", "run", "time_s"};
    const int n_trail = (int)(sizeof trail / sizeof trail[0]);
    for (int i = 0; i < n_trail && l->n < MAX_COLS; i++)
        add(l, trail[i], 0, 1);
    trapeze_csv_out *csv = NULL;
    trapeze_status st = create(path, lead, 4, l, &csv, err);
    for (int k = 0; k < n && !st; k++) {
        trapeze_csv_text(csv, s[k].name);
        trapeze_csv_number(csv, (double)s[k].cycles);
        trapeze_csv_number(csv, (double)s[k].total.warp_insts);
        trapeze_csv_number(csv, s[k].ipc);
        l->n = 0;
        kernel_columns(&s[k], l);
        write_tail(csv, l);
        trapeze_csv_text(csv, gpu->name);
        trapeze_csv_text(csv, s[k].run);
        trapeze_csv_number(csv, gpu->core_clock_hz > 0 ? (double)s[k].cycles / gpu->core_clock_hz
                                                       : 0.0);
        st = trapeze_csv_end_row(csv, err);
    }
    free(l);
    return close_csv(csv, st, held, err);
}

trapeze_status sim_stats_write_sm_csv(const char *path, const sim_kernel_stats *s, int n,
                                      trapeze_csv_out **held, trapeze_error *err)
{
    static const char *const lead[] = {"kernel", "launch", "sm", "cycles",
                                       "warp_instructions", "ipc"};
    cols *l = calloc(1, sizeof *l);
    if (!l)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    sim_sm_stats zero;
    memset(&zero, 0, sizeof zero);
    sm_row_columns(&zero, l);
    if (n && s[0].energy_valid)
        sm_energy_columns(&s[0], &zero, l);
    trapeze_csv_out *csv = NULL;
    trapeze_status st = create(path, lead, 6, l, &csv, err);
    for (int k = 0; k < n && !st; k++)
        for (int i = 0; i < s[k].n_sm && !st; i++) {
            const sim_sm_stats *t = &s[k].sm[i];
            trapeze_csv_text(csv, s[k].name);
            trapeze_csv_number(csv, (double)s[k].launch);
            trapeze_csv_number(csv, (double)i);
            trapeze_csv_number(csv, (double)s[k].cycles);
            trapeze_csv_number(csv, (double)t->warp_insts);
            trapeze_csv_number(csv, ipc_of(t->warp_insts, s[k].cycles));
            l->n = 0;
            sm_row_columns(t, l);
            if (s[0].energy_valid)
                sm_energy_columns(&s[k], t, l);
            st = finish_row(csv, l, err);
        }
    free(l);
    return close_csv(csv, st, held, err);
}

void sim_stats_print(FILE *f, const sim_kernel_stats *s, int n, const sim_core_config *c)
{
    uint64_t cycles = 0, insts = 0, launch = 0;
    for (int k = 0; k < n; k++) {
        const sim_kernel_stats *x = &s[k];
        const sim_sm_stats *t = &x->total;
        uint64_t slots = 0;
        for (int i = 0; i < SIM_STALL_COUNT; i++)
            slots += t->stall[i];
        slots += t->issue_slots;
        fprintf(f, "%s: %" PRIu64 " cycles, %" PRIu64 " warp instructions, IPC %.3f, "
                   "%" PRIu64 " blocks (%" PRIu64 " per SM at most)\n",
                x->name, x->cycles, t->warp_insts, x->ipc, x->blocks,
                x->resident_blocks_per_sm);
        if (slots) {
            fprintf(f, "  scheduler cycles: issue %.1f%%", 100.0 * (double)t->issue_slots / (double)slots);
            for (int i = 0; i < SIM_STALL_COUNT; i++)
                fprintf(f, ", %s %.1f%%", sim_stall_names[i], 100.0 * (double)t->stall[i] / (double)slots);
            fputc('\n', f);
        }
        if (c && c->dws.on)
            fprintf(f, "  DWS: %" PRIu64 " branch splits, %" PRIu64 " memory splits, %" PRIu64
                       " merges, table peak %" PRIu64 "; %.1f active lanes per warp "
                       "instruction\n",
                    t->dws_branch_splits, t->dws_mem_splits, t->dws_merges, t->dws_wst_peak,
                    t->warp_insts ? (double)t->thread_insts / (double)t->warp_insts : 0.0);
        if (c && c->rsimd.on)
            fprintf(f, "  Robust SIMD: width %" PRIu64 " x depth %" PRIu64 " (widest and deepest "
                       "SM), %" PRIu64 " intervals sampled over %" PRIu64 " SM cycles, DWS kept "
                       "on %" PRIu64 " SMs\n",
                    t->rsimd_width, t->rsimd_depth, t->rsimd_intervals, t->rsimd_adapt_cycles,
                    t->rsimd_dws_kept);
        if (x->mem_stats_valid) {
            const sim_mem_stats *m = &x->mem;
            double secs = c && c->gpu.core_clock_hz > 0 ? (double)x->cycles / c->gpu.core_clock_hz : 0;
            double bw = secs > 0 ? (double)(m->dram_bytes_read + m->dram_bytes_written) / secs : 0;
            fprintf(f, "  L1 %" PRIu64 " accesses, %" PRIu64 " hits; L2 %" PRIu64 " accesses, %" PRIu64
                       " hits; DRAM %.1f GB/s",
                    m->l1.accesses, m->l1.hits, m->l2.accesses, m->l2.hits, bw / 1e9);
            if (c && c->gpu.dram_bandwidth_bps > 0)
                fprintf(f, " (%.0f%% of peak)", 100.0 * bw / c->gpu.dram_bandwidth_bps);
            fprintf(f, "; LDST refused %" PRIu64 " cycles\n", t->ldst_refused);
        }
        cycles += x->cycles;
        insts += t->warp_insts;
        launch += x->launch_cycles;
    }
    if (n > 1)
        fprintf(f, "total: %d launches, %" PRIu64 " cycles (%" PRIu64 " of them launch latency), "
                   "%" PRIu64 " warp instructions\n",
                n, cycles + launch, launch, insts);
}
