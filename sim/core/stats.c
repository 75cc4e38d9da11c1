/*
 * stats.c - writing per-kernel statistics: the CSV (one row per kernel
 * launch, beginning kernel,cycles,warp_instructions,ipc) and the short text
 * summary. Owns formatting only; the counters are filled by sm.c,
 * gpu_sim.c and sim/mem.
 */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/gpu_sim.h"

static const char *const stall_names[SIM_STALL_COUNT] = {"memory", "compute", "fence",
                                                         "barrier", "idle"};
static const char *const fail_names[SIM_FAIL_COUNT] = {"none", "line_alloc", "mshr_entry",
                                                       "mshr_merge", "miss_queue"};

typedef struct col {
    char name[48];
    uint64_t value;
    int valid;
} col;

/* The numeric columns after kernel,cycles,warp_instructions,ipc. */
static int columns(const sim_kernel_stats *s, col *c, int max)
{
    int n = 0;
#define C(nm, v, ok)                                                          \
    do {                                                                      \
        if (n < max) {                                                        \
            snprintf(c[n].name, sizeof c[n].name, "%s", nm);                  \
            c[n].value = (uint64_t)(v);                                       \
            c[n].valid = (ok);                                                \
        }                                                                     \
        n++;                                                                  \
    } while (0)
    const sim_sm_stats *t = &s->total;
    C("launch", s->launch, 1);
    C("start_cycle", s->start_cycle, 1);
    C("launch_cycles", s->launch_cycles, 1);
    C("blocks", s->blocks, 1);
    C("resident_blocks_per_sm", s->resident_blocks_per_sm, 1);
    C("thread_instructions", t->thread_insts, 1);
    C("issue_slots", t->issue_slots, 1);
    for (int i = 0; i < SIM_STALL_COUNT; i++) {
        char nm[48];
        snprintf(nm, sizeof nm, "stall_%s", stall_names[i]);
        C(nm, t->stall[i], 1);
    }
    C("global_loads", t->gld_insts, 1);
    C("global_stores", t->gst_insts, 1);
    C("shared_loads", t->shld_insts, 1);
    C("shared_stores", t->shst_insts, 1);
    C("atomics", t->atomic_insts, 1);
    C("mem_requests", t->mem_requests, 1);
    C("ldst_refused_cycles", t->ldst_refused, 1);
    for (int i = 1; i < SIM_FAIL_COUNT; i++) {
        char nm[48];
        snprintf(nm, sizeof nm, "refused_%s", fail_names[i]);
        C(nm, t->refused[i], 1);
    }
    C("shmem_passes", t->shmem_passes, 1);
    C("sm_active_cycles", t->active_cycles, 1);
    for (int e = 0; e < SIM_EV_COUNT; e++) {
        char nm[48];
        snprintf(nm, sizeof nm, "ev_%s", sim_event_name((sim_event)e));
        C(nm, s->events[e], 1);
    }
    int mv = s->mem_stats_valid;
    const sim_mem_stats *m = &s->mem;
    const sim_cache_stats *lv[2] = {&m->l1, &m->l2};
    for (int l = 0; l < 2; l++) {
        char nm[48];
        const char *p = l ? "l2" : "l1";
#define CC(field)                                                             \
    do {                                                                      \
        snprintf(nm, sizeof nm, "%s_%s", p, #field);                          \
        C(nm, lv[l]->field, mv);                                              \
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
    C("icnt_flits", m->icnt_flits, mv);
    C("dram_reads", m->dram_reads, mv);
    C("dram_writes", m->dram_writes, mv);
    C("dram_row_hits", m->dram_row_hits, mv);
    C("dram_row_misses", m->dram_row_misses, mv);
    C("dram_bytes_read", m->dram_bytes_read, mv);
    C("dram_bytes_written", m->dram_bytes_written, mv);
    C("dram_busy_cycles", m->dram_busy_cycles, mv);
    C("dram_cycles", m->dram_cycles, mv);
    C("atomics_performed", m->atomics_performed, mv);
#undef C
    return n;
}

#define MAX_COLS 128

trapeze_status sim_stats_write_csv(const char *path, const sim_kernel_stats *s, int n,
                                   trapeze_error *err)
{
    size_t len = strlen(path) + 5;
    char *tmp = malloc(len);
    col *c = calloc(MAX_COLS, sizeof *c);
    if (!tmp || !c) {
        free(tmp);
        free(c);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    snprintf(tmp, len, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        trapeze_status st = trapeze_fail(err, TRAPEZE_EIO, "%s: %s", tmp, strerror(errno));
        free(tmp);
        free(c);
        return st;
    }
    sim_kernel_stats empty;
    memset(&empty, 0, sizeof empty);
    int nc = columns(n ? &s[0] : &empty, c, MAX_COLS);
    fputs("kernel,cycles,warp_instructions,ipc", f);
    for (int i = 0; i < nc && i < MAX_COLS; i++)
        fprintf(f, ",%s", c[i].name);
    fputc('\n', f);
    for (int k = 0; k < n; k++) {
        csv_fwrite(f, s[k].name, strlen(s[k].name));
        fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.17g", s[k].cycles, s[k].total.warp_insts,
                s[k].ipc);
        nc = columns(&s[k], c, MAX_COLS);
        for (int i = 0; i < nc && i < MAX_COLS; i++) {
            if (c[i].valid)
                fprintf(f, ",%" PRIu64, c[i].value);
            else
                fputc(',', f);
        }
        fputc('\n', f);
    }
    free(c);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        remove(tmp);
        free(tmp);
        return trapeze_fail(err, TRAPEZE_EIO, "%s: write failed", path);
    }
    if (rename(tmp, path) != 0) {
        trapeze_status st = trapeze_fail(err, TRAPEZE_EIO, "%s: %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return st;
    }
    free(tmp);
    return TRAPEZE_OK;
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
                fprintf(f, ", %s %.1f%%", stall_names[i], 100.0 * (double)t->stall[i] / (double)slots);
            fputc('\n', f);
        }
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
