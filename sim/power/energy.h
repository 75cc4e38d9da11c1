/*
 * energy.h - the energy of one kernel launch from its event counts and
 * idle-period histograms: dynamic (events x energy per event), leakage
 * (each structure's unit-cycles in each power mode x that mode's power),
 * transitions, constant and idle-SM power. Reads counts only; it must not
 * touch the pipeline.
 */
#ifndef TRAPEZE_SIM_POWER_ENERGY_H
#define TRAPEZE_SIM_POWER_ENERGY_H

#include "sim/events.h"
#include "sim/power/sleep.h"
#include "trapeze.h"

typedef enum {
    SIM_EN_DYN_CORE,      /* instruction issue + functional-unit lanes */
    SIM_EN_DYN_RF,        /* register reads and writes per lane */
    SIM_EN_DYN_SHMEM,
    SIM_EN_DYN_L1D,
    SIM_EN_DYN_L2,
    SIM_EN_DYN_ICNT,
    SIM_EN_DYN_DRAM,
    SIM_EN_DYN_TAG,       /* L1D and L2 tag-only probes (refusals, bypasses' checks) */
    SIM_EN_LEAK_L1D,
    SIM_EN_LEAK_L2,
    SIM_EN_LEAK_RF,
    SIM_EN_LEAK_SHMEM,
    SIM_EN_LEAK_SM_OTHER,
    SIM_EN_TRANSITION,    /* sleep-mode round trips */
    SIM_EN_CONSTANT,
    SIM_EN_IDLE_SM,
    SIM_EN_COUNT
} sim_energy_part;

const char *sim_energy_part_name(sim_energy_part p);   /* "dyn_core", ..., CSV adds "_j" */

/* Units of each kind as the power model counts them. */
typedef struct sim_energy_geometry {
    double unit_leak_w[SIM_UNIT_KIND_COUNT];    /* per unit when ON */
    double physical_units[SIM_UNIT_KIND_COUNT]; /* warp registers: the whole RF, allocated or not */
} sim_energy_geometry;

/* units: sim_events_units; regs_per_sm, reg_banks, n_sm from the core
 * config; l1_frames / l2_frames: sets x ways of one L1D / one L2 slice. */
void sim_energy_geometry_init(sim_energy_geometry *g, const trapeze_power *pw, int n_sm,
                              int regs_per_sm, int reg_banks, int n_l1, int l1_frames, int n_l2,
                              int l2_frames);

typedef struct sim_energy {
    double j[SIM_EN_COUNT];
    double total_j;
    double seconds;
    sim_sleep_result sleep[TRAPEZE_PS_SLEEPABLE];   /* the configured policy of each */
    double unallocated[TRAPEZE_PS_SLEEPABLE];       /* unit-cycles outside tracked units
                                                       (registers of no warp) */
} sim_energy;

typedef struct sim_energy_input {
    const trapeze_power *pw;
    double clock_hz;
    int n_sm;
    uint64_t cycles;
    uint64_t sm_active_cycles;     /* summed over SMs */
    const uint64_t *events;        /* SIM_EV_COUNT counts */
    const sim_idle_hist *hist[SIM_UNIT_KIND_COUNT];
    const sim_energy_geometry *geo;
    const sim_sleep_config *sleep; /* bound choices */
} sim_energy_input;

void sim_energy_compute(const sim_energy_input *in, sim_energy *out);

/* Leakage (and transitions through *transition_j) of structure s under
 * policy choice c over the histogram of its unit kind. */
double sim_energy_leak(const sim_energy_input *in, trapeze_power_structure s,
                       const sim_sleep_choice *c, sim_sleep_result *r, double *transition_j);

/* The short breakdown `trapeze sim --power` prints. */
void sim_energy_print(FILE *f, const sim_energy *e, const sim_sleep_config *sc);

#endif
