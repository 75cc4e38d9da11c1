/*
 * events.h - the one place where the simulator counts what costs energy and
 * when hardware sits idle. Pipeline and memory code only report; energy
 * models (sim/power/) read these counts and idle-period histograms without
 * touching the pipeline.
 *
 * An idle period of a unit (a register-file bank, an L1D, an L2 slice, one
 * 128-byte warp register, one L1D or L2 line frame) is the run of cycles
 * between two cycles in which it was used, classified by what ends it: a
 * read, a write, or nothing (dead: the kernel ended, the warp's registers
 * were released). Units of the fixed kinds exist for the whole kernel; warp
 * registers exist from sim_events_open (their warp starts) to
 * sim_events_close (its block is released).
 *
 * Invariants: a unit's next_idle_start is the first cycle after its last
 * use, or SIM_EV_UNALLOCATED (every unit, while idle recording is off:
 * sim_events_set_idle); every recorded period has length >= 1 and
 * lies inside the unit's allocated time; tracked cycles (allocated unit
 * cycles) >= the sum of recorded lengths.
 */
#ifndef TRAPEZE_SIM_EVENTS_H
#define TRAPEZE_SIM_EVENTS_H

#include <stdint.h>
#include <stdio.h>

#include "common/assert.h"

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
    SIM_EV_REG_READ_LANES,  /* register reads x active threads */
    SIM_EV_REG_WRITE_LANES,
    SIM_EV_INT_LANES,       /* functional-unit operations x active threads */
    SIM_EV_FP_LANES,
    SIM_EV_SFU_LANES,
    SIM_EV_L1_READ_HIT,     /* of SIM_EV_L1_READ: the data was present */
    SIM_EV_L1_WRITE_HIT,
    SIM_EV_L2_READ_HIT,
    SIM_EV_L2_WRITE_HIT,
    /* tag-only lookups, one per probe: a refused probe (each retry of the
     * LDST unit's head, of the latency queue's, of a probe unit's, of the
     * L2's head) and a request bypassed after its tags were looked up
     * (LASC's check, loc's or MRPB's bypass); not in the kernel CSV's ev_
     * columns, so that runs without them keep their columns (shown as
     * l1_tag_probes, l2_tag_probes with the contention counters) */
    SIM_EV_L1_TAG_PROBE,
    SIM_EV_L2_TAG_PROBE,
    SIM_EV_COUNT
} sim_event;

typedef enum {
    SIM_UNIT_REG_BANK,      /* register-file banks, n_sm x banks */
    SIM_UNIT_L1_BANK,       /* a whole L1D (not banked), n_sm */
    SIM_UNIT_L2_BANK,       /* L2 slices */
    SIM_UNIT_REG,           /* 128-byte warp registers: n_sm x warp slots x SIM_MAX_REGS */
    SIM_UNIT_L1_LINE,       /* L1D line frames, n_sm x sets x ways */
    SIM_UNIT_L2_LINE,       /* L2 line frames, slices x sets x ways */
    SIM_UNIT_KIND_COUNT
} sim_unit_kind;

typedef enum { SIM_NEXT_READ, SIM_NEXT_WRITE, SIM_NEXT_DEAD, SIM_NEXT_COUNT } sim_next_access;

/* Idle-period histogram: lengths 1..SIM_IDLE_EXACT one bin each, then
 * log2 buckets [2^k+1, 2^(k+1)] for k = 10..63. Each bin counts its
 * periods and sums their lengths (so policies are exact on the buckets too). */
#define SIM_IDLE_EXACT 1024
#define SIM_IDLE_BINS (SIM_IDLE_EXACT + 54)
typedef struct sim_idle_hist {
    struct {
        uint64_t count, sum;   /* together: one cache line per recorded period */
    } bin[SIM_NEXT_COUNT][SIM_IDLE_BINS];
    uint64_t tracked_cycles;   /* unit-cycles the units were allocated */
} sim_idle_hist;

static inline int sim_idle_bin(uint64_t length)
{
    if (length <= SIM_IDLE_EXACT)
        return (int)length - 1;
    return SIM_IDLE_EXACT + (63 - __builtin_clzll(length - 1)) - 10;
}
/* [lo, hi] of bin b (inclusive). */
void sim_idle_bin_range(int b, uint64_t *lo, uint64_t *hi);
/* dst += src */
void sim_idle_hist_add(sim_idle_hist *dst, const sim_idle_hist *src);

#define SIM_EV_UNALLOCATED UINT64_MAX

typedef struct sim_events sim_events;

/* units[k]: how many units of kind k exist (0 allowed). */
sim_events *sim_events_create(const int units[SIM_UNIT_KIND_COUNT]);
void sim_events_destroy(sim_events *ev);
/* A kernel starts at cycle: counts and histograms cleared, fixed units
 * idle from cycle, warp registers unallocated. */
void sim_events_reset(sim_events *ev, uint64_t cycle);

/* Idle periods are recorded only while on (the default): off, every unit
 * stays unallocated from the next reset, so an access costs two compares and
 * the histograms stay empty; counts are kept either way. For runs whose
 * periods nobody reads (no power description, sleep policy or idle CSV).
 * Resets ev at cycle 0. */
void sim_events_set_idle(sim_events *ev, int on);
static inline int sim_events_idle_on(const sim_events *ev);

/* A wake-up stall hook (sim/power): called for each idle period of a kind
 * as it ends; returns the cycles the access must wait for its unit. */
typedef uint32_t (*sim_events_wake_fn)(void *ctx, uint64_t length, sim_next_access next);
void sim_events_set_wake(sim_events *ev, sim_unit_kind kind, sim_events_wake_fn fn, void *ctx);

static inline void sim_events_count(sim_events *ev, sim_event e, uint64_t n);
/* Unit `unit` of `kind` is used in `cycle` by an access of kind `what`;
 * closes its open idle period. Returns the wake-up stall (0 without hook). */
static inline uint32_t sim_events_access(sim_events *ev, sim_unit_kind kind, int unit,
                                         uint64_t cycle, sim_next_access what);
/* A read access (the bank units' historical entry point). */
static inline uint32_t sim_events_busy(sim_events *ev, sim_unit_kind kind, int unit,
                                       uint64_t cycle);
/* A warp register is allocated at cycle (idle until its first access) /
 * released (its open period ends dead). */
void sim_events_open(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle);
void sim_events_close(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle);
/* Closes every unit's trailing idle period at end_cycle (dead). */
void sim_events_finish(sim_events *ev, uint64_t end_cycle);

/* A parallel simulation's per-thread view of ev (owned by ev): counts and
 * idle periods go to the shard's own sums, over ev's units, with ev's
 * settings (idle recording, wake hooks, mark; kept in step). NULL when out
 * of memory. sim_events_gather adds every shard's sums into ev and clears
 * them; ev's counts and histograms are whole only after it. */
sim_events *sim_events_shard(sim_events *ev);
void sim_events_gather(sim_events *ev);

uint64_t sim_events_get(const sim_events *ev, sim_event e);
int sim_events_units(const sim_events *ev, sim_unit_kind kind);
const sim_idle_hist *sim_events_hist(const sim_events *ev, sim_unit_kind kind);
/* From now on a period that ends is counted also in the marked histogram
 * when it began before cycle `mark` (0: none; a reset clears the marked
 * histograms as the others, not the mark): for a sample that counts the periods overlapping its windows, not only those
 * ending in them. Returns -1 when out of memory (the histograms are
 * allocated on the first nonzero mark), else 0. */
int sim_events_set_mark(sim_events *ev, uint64_t mark);
const sim_idle_hist *sim_events_marked_hist(const sim_events *ev, sim_unit_kind kind);
const char *sim_event_name(sim_event e);
const char *sim_unit_kind_name(sim_unit_kind k);
const char *sim_next_access_name(sim_next_access n);
/* Each unit's first cycle not yet used, sim_events_units(ev, kind) of them:
 * the start of its open idle period (SIM_EV_UNALLOCATED: never allocated).
 * Read by the samples that cut a run (sim/sample/). */
static inline const uint64_t *sim_events_idle_starts(const sim_events *ev, sim_unit_kind kind);

/* Inline because they sit in the simulator's hottest paths: the first
 * member of struct sim_events (events.c) is this. */
struct sim_events_hot {
    uint64_t count[SIM_EV_COUNT];
    uint64_t *next_idle_start[SIM_UNIT_KIND_COUNT];  /* per unit: first cycle not yet used */
    int idle_on;
};
static inline int sim_events_idle_on(const sim_events *ev)
{
    return ((const struct sim_events_hot *)ev)->idle_on;
}
static inline const uint64_t *sim_events_idle_starts(const sim_events *ev, sim_unit_kind kind)
{
    return ((const struct sim_events_hot *)ev)->next_idle_start[kind];
}
static inline void sim_events_count(sim_events *ev, sim_event e, uint64_t n)
{
    ((struct sim_events_hot *)ev)->count[e] += n;
}

/* Records the idle period [start, cycle) of a unit used again in cycle. */
uint32_t sim_events_idle_ended(sim_events *ev, sim_unit_kind kind, int unit, uint64_t cycle,
                               sim_next_access what);

static inline uint32_t sim_events_access(sim_events *ev, sim_unit_kind kind, int unit,
                                         uint64_t cycle, sim_next_access what)
{
    struct sim_events_hot *hot = (struct sim_events_hot *)ev;
    /* off, every unit is unallocated (the invariant above) and the answer is
     * 0: the unit's word, a cold line per L1 or L2 frame, is not read */
    if (!hot->idle_on) {
        TRAPEZE_ASSERT(hot->next_idle_start[kind][unit] == SIM_EV_UNALLOCATED);
        return 0;
    }
    uint64_t *start = &hot->next_idle_start[kind][unit];
    if (cycle == *start) {        /* used in the cycle after its last use: no gap */
        *start = cycle + 1;
        return 0;
    }
    if (cycle > *start)           /* never for SIM_EV_UNALLOCATED */
        return sim_events_idle_ended(ev, kind, unit, cycle, what);
    return 0;
}

static inline uint32_t sim_events_busy(sim_events *ev, sim_unit_kind kind, int unit,
                                       uint64_t cycle)
{
    return sim_events_access(ev, kind, unit, cycle, SIM_NEXT_READ);
}

#endif
