/*
 * events.c - energy event counters and idle-interval histograms.
 * Owns only counting; it must not model timing or energy.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/events.h"

struct sim_events {
    struct sim_events_hot hot;   /* first member: the inline functions of events.h rely on it */
    int units[SIM_UNIT_KIND_COUNT];
    sim_idle_stats idle[SIM_UNIT_KIND_COUNT];
};

sim_events *sim_events_create(const int units[SIM_UNIT_KIND_COUNT])
{
    sim_events *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++) {
        ev->units[k] = units[k];
        ev->hot.next_idle_start[k] = calloc(units[k] > 0 ? (size_t)units[k] : 1, sizeof(uint64_t));
        if (!ev->hot.next_idle_start[k]) {
            sim_events_destroy(ev);
            return NULL;
        }
    }
    return ev;
}

void sim_events_destroy(sim_events *ev)
{
    if (!ev)
        return;
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        free(ev->hot.next_idle_start[k]);
    free(ev);
}

void sim_events_reset(sim_events *ev, uint64_t cycle)
{
    memset(ev->hot.count, 0, sizeof ev->hot.count);
    memset(ev->idle, 0, sizeof ev->idle);
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        for (int u = 0; u < ev->units[k]; u++)
            ev->hot.next_idle_start[k][u] = cycle;
}

/* length >= 1: bucket floor(log2(length)), the last one open-ended */
static void record_idle(sim_idle_stats *s, uint64_t length)
{
    int b = 63 - __builtin_clzll(length);
    if (b > SIM_IDLE_BUCKETS - 1)
        b = SIM_IDLE_BUCKETS - 1;
    s->intervals++;
    s->idle_cycles += length;
    s->histogram[b]++;
}

void sim_events_idle_ended(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle)
{
    uint64_t *start = &ev->hot.next_idle_start[kind][unit];
    record_idle(&ev->idle[kind], cycle - *start);
    *start = cycle + 1;
}

void sim_events_finish(sim_events *ev, uint64_t end_cycle)
{
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        for (int u = 0; u < ev->units[k]; u++) {
            uint64_t *start = &ev->hot.next_idle_start[k][u];
            if (end_cycle > *start)
                record_idle(&ev->idle[k], end_cycle - *start);
            *start = end_cycle;
        }
}

uint64_t sim_events_get(const sim_events *ev, sim_event e) { return ev->hot.count[e]; }

const sim_idle_stats *sim_events_idle(const sim_events *ev, sim_unit_kind kind)
{
    return &ev->idle[kind];
}

const char *sim_event_name(sim_event e)
{
    static const char *const names[SIM_EV_COUNT] = {
        "inst_issue", "reg_read", "reg_write", "int_op", "fp_op", "sfu_op", "shmem_access",
        "l1_read", "l1_write", "l1_fill", "l2_read", "l2_write", "l2_fill", "icnt_flit",
        "dram_activate", "dram_precharge", "dram_read", "dram_write"};
    return (unsigned)e < SIM_EV_COUNT ? names[e] : "?";
}

const char *sim_unit_kind_name(sim_unit_kind k)
{
    static const char *const names[SIM_UNIT_KIND_COUNT] = {"reg_bank", "l1_bank", "l2_bank"};
    return (unsigned)k < SIM_UNIT_KIND_COUNT ? names[k] : "?";
}
