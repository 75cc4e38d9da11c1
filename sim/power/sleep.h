/*
 * sleep.h - sleep policies: how a structure spends an idle period (which
 * power mode, for how many cycles) and how much of its wake-up reaches the
 * access that ends it. One file per policy (always_on.c, snooze.c,
 * drowsy.c, slumber.c, oracle.c), registered in the table of sleep.c.
 *
 * A policy sees one idle period at a time, when it ends (sim/events learns
 * each gap lazily at the next use), so sleeping costs nothing per cycle:
 * the timing-active policy of a structure turns the period into a wake-up
 * stall at the access site; energy comes afterwards from the idle-period
 * histograms, exactly, for the active policy and for any other.
 */
#ifndef TRAPEZE_SIM_POWER_SLEEP_H
#define TRAPEZE_SIM_POWER_SLEEP_H

#include <stdint.h>

#include "common/options.h"
#include "sim/events.h"
#include "trapeze.h"

/* The sleep policies, one row each: X(ID, ops), ops naming the policy's
 * sim_sleep_OPS in its own file sim/power/OPS.c, which holds its name, the
 * structures it serves, its modes and its decision. The enum, the table by
 * kind, the lookup by name and the error listing a structure's policies
 * derive from the rows (sleep.c, sleep_config.c); the first row is the
 * default (every unit awake). */
#define SIM_SLEEP_TABLE(X) \
    X(ALWAYS_ON, always_on) X(SNOOZE, snooze) X(DROWSY, drowsy) X(SLUMBER, slumber) \
    X(ORACLE, oracle)
#define SIM_SLEEP_ENUM_(id, ops) SIM_SLEEP_##id,
typedef enum { SIM_SLEEP_TABLE(SIM_SLEEP_ENUM_) SIM_SLEEP_KINDS } sim_sleep_kind;
#undef SIM_SLEEP_ENUM_

/* What a policy needs to decide, bound to one structure's mode table. */
typedef struct sim_sleep_params {
    int threshold;          /* idle cycles before a time-out policy sleeps */
    int lookahead;          /* cycles before an access that the unit learns of it */
    int slumber[3];         /* Slumber: predicted idle >= these picks shallow, deep, gated */
    int drowsy_wake;        /* Warped RF: drowsy wake-up latency */
    int mode_ix[3];         /* the policy's modes (sim_sleep_ops.modes) in the table */
    const trapeze_power_mode *mode;   /* the structure's modes; [0] is ON */
    int n_modes;
    double transition_cycles[TRAPEZE_POWER_MAX_MODES];  /* transition_j / ON leakage per cycle
                                                         (both the structure's) */
    double unit_share;      /* a unit's part of its structure: unit leakage / structure's,
                               the part of transition_j one unit's round trip costs */
} sim_sleep_params;

/* One idle period as the policy spent it. */
typedef struct sim_sleep_gap {
    int mode;               /* 0: stayed ON */
    uint64_t mode_cycles;   /* cycles in `mode` (the rest of the period is ON) */
    uint32_t stall;         /* wake-up cycles the ending access waits */
} sim_sleep_gap;

typedef struct sim_sleep_ops {
    const char *name;
    unsigned structures;        /* bit (1 << trapeze_power_structure) per structure it serves */
    const char *modes[3];       /* modes it needs by name (NULL: none / any) */
    int gates_unallocated;      /* registers of no warp are held in the deepest mode */
    void (*gap)(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                sim_sleep_gap *out);
} sim_sleep_ops;

#define SIM_SLEEP_EXTERN_(id, ops) extern const sim_sleep_ops sim_sleep_##ops;
SIM_SLEEP_TABLE(SIM_SLEEP_EXTERN_)
#undef SIM_SLEEP_EXTERN_

const sim_sleep_ops *sim_sleep_policy(sim_sleep_kind k);
/* "always_on", "snooze", ...; -1 when unknown. */
int sim_sleep_find(const char *name);
/* The names of the policies that serve structure s, joined by ", ", into
 * out (truncated to size); returns out. */
const char *sim_sleep_names(trapeze_power_structure s, char *out, size_t size);

/* Time-out sleeping shared by Snooze and drowsy: asleep `threshold` cycles
 * after the last use unless the access is already visible, woken
 * `lookahead` cycles before the access (never, before a dead end). */
void sim_sleep_timeout(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                       int mode, int wake_cycles, sim_sleep_gap *out);

/* ---- a structure's policy as configured ---- */

/* Granularities: l1d line|bank, l2 line|slice, rf warp_reg|bank. */
typedef struct sim_sleep_choice {
    sim_sleep_kind kind;
    int line;               /* 1: line / warp register; 0: bank / slice */
    sim_sleep_params p;     /* threshold, lookahead, slumber, drowsy_wake set by config */
} sim_sleep_choice;

typedef struct sim_sleep_config {
    sim_sleep_choice s[TRAPEZE_PS_SLEEPABLE];   /* l1d, l2, rf */
} sim_sleep_config;

/* The -trapeze_sleep_* options (common/options.h rows, one each). */
extern const trapeze_opt sim_sleep_options[];
/* Defaults, then the -trapeze_sleep_* options of cfg. */
trapeze_status sim_sleep_config_read(const trapeze_config *cfg, sim_sleep_config *sc,
                                     trapeze_error *err);
/* "POLICY[:GRANULARITY]" for structure s ("snooze:line", "slumber"). */
trapeze_status sim_sleep_config_set(sim_sleep_config *sc, trapeze_power_structure s,
                                    const char *value, trapeze_error *err);
/* Binds the policy to the structure's mode table in pw (NULL: only
 * always_on is possible); an error names the power file and the mode. */
trapeze_status sim_sleep_bind(sim_sleep_choice *c, trapeze_power_structure s,
                              const trapeze_power *pw, double clock_hz, double unit_leak_w,
                              trapeze_error *err);
int sim_sleep_active(const sim_sleep_config *sc);   /* any policy other than always_on */
/* The unit kind a structure's choice works at. */
sim_unit_kind sim_sleep_unit(trapeze_power_structure s, int line);
const char *sim_sleep_granularity_name(trapeze_power_structure s, int line);

/* The sim_events wake-up hook of a bound choice. */
uint32_t sim_sleep_wake(void *choice, uint64_t length, sim_next_access next);

/* ---- energy of a policy over a histogram ---- */

typedef struct sim_sleep_result {
    uint64_t tracked;                                /* unit-cycles allocated */
    uint64_t mode_cycles[TRAPEZE_POWER_MAX_MODES];   /* [0]: ON */
    uint64_t entries[TRAPEZE_POWER_MAX_MODES];       /* sleep periods per mode */
    uint64_t wakeups;                                /* sleep periods ended by an access */
    uint64_t stall_cycles;                           /* wake-up cycles not hidden */
} sim_sleep_result;

void sim_sleep_evaluate(const sim_sleep_ops *ops, const sim_sleep_params *p,
                        const sim_idle_hist *h, sim_sleep_result *r);
/* Leakage energy of r: unit_leak_w per unit when ON, clock_hz core clock;
 * untracked unit-cycles are ON, or in the deepest mode for a policy that
 * gates unallocated registers. Transition energies included. */
double sim_sleep_leak_j(const sim_sleep_ops *ops, const sim_sleep_params *p,
                        const sim_sleep_result *r, double untracked_unit_cycles,
                        double unit_leak_w, double clock_hz, double *transition_j);

#endif
