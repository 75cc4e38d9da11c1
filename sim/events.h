/*
 * events.h - the one place where the simulator counts what costs energy and
 * when hardware sits idle. Pipeline and memory code only report; energy
 * models (later) read these counts and idle-interval histograms without
 * touching the pipeline.
 *
 * An idle interval of a unit (a register-file bank, an L1 bank, an L2
 * slice) is the run of cycles between two cycles in which it was used; the
 * first interval starts at cycle 0 and the last ends at sim_events_finish().
 */
#ifndef TRAPEZE_SIM_EVENTS_H
#define TRAPEZE_SIM_EVENTS_H

#include <stdint.h>
#include <stdio.h>

typedef enum {
    SIM_EV_INST_ISSUE,      /* warp instructions issued */
    SIM_EV_REG_READ,        /* warp-wide register operand reads */
    SIM_EV_REG_WRITE,
    SIM_EV_INT_OP,          /* warp-wide functional-unit operations */
    SIM_EV_FP_OP,
    SIM_EV_SFU_OP,
    SIM_EV_SHMEM_ACCESS,    /* shared-memory passes (conflicts included) */
    SIM_EV_L1_READ,
    SIM_EV_L1_WRITE,
    SIM_EV_L1_FILL,
    SIM_EV_L2_READ,
    SIM_EV_L2_WRITE,
    SIM_EV_L2_FILL,
    SIM_EV_ICNT_FLIT,
    SIM_EV_DRAM_ACTIVATE,
    SIM_EV_DRAM_PRECHARGE,
    SIM_EV_DRAM_READ,       /* bursts */
    SIM_EV_DRAM_WRITE,
    SIM_EV_COUNT
} sim_event;

typedef enum {
    SIM_UNIT_REG_BANK,
    SIM_UNIT_L1_BANK,
    SIM_UNIT_L2_BANK,
    SIM_UNIT_KIND_COUNT
} sim_unit_kind;

#define SIM_IDLE_BUCKETS 24  /* bucket b holds intervals of [2^b, 2^(b+1)) cycles */

typedef struct sim_idle_stats {
    uint64_t intervals;
    uint64_t idle_cycles;
    uint64_t histogram[SIM_IDLE_BUCKETS];
} sim_idle_stats;

typedef struct sim_events sim_events;

/* units[k]: how many units of kind k exist (0 allowed). */
sim_events *sim_events_create(const int units[SIM_UNIT_KIND_COUNT]);
void sim_events_destroy(sim_events *ev);
void sim_events_reset(sim_events *ev, uint64_t cycle);

static inline void sim_events_count(sim_events *ev, sim_event e, uint64_t n);
/* Unit `unit` of `kind` is used in `cycle`; closes its open idle interval. */
static inline void sim_events_busy(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle);
/* Closes every unit's trailing idle interval at end_cycle. */
void sim_events_finish(sim_events *ev, uint64_t end_cycle);

uint64_t sim_events_get(const sim_events *ev, sim_event e);
const sim_idle_stats *sim_events_idle(const sim_events *ev, sim_unit_kind kind);
const char *sim_event_name(sim_event e);
const char *sim_unit_kind_name(sim_unit_kind k);

/* Inline because they sit in the simulator's hottest paths: the first
 * member of struct sim_events (events.c) is this. */
struct sim_events_hot {
    uint64_t count[SIM_EV_COUNT];
    uint64_t *next_idle_start[SIM_UNIT_KIND_COUNT];  /* per unit: first cycle not yet used */
};
static inline void sim_events_count(sim_events *ev, sim_event e, uint64_t n)
{
    ((struct sim_events_hot *)ev)->count[e] += n;
}

/* Records the idle interval [start, cycle) of a unit used again in cycle. */
void sim_events_idle_ended(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle);

static inline void sim_events_busy(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle)
{
    uint64_t *start = &((struct sim_events_hot *)ev)->next_idle_start[kind][unit];
    if (cycle == *start)          /* used in the cycle after its last use: no gap */
        *start = cycle + 1;
    else if (cycle > *start)
        sim_events_idle_ended(ev, kind, unit, cycle);
}

#endif
