/*
 * trapeze/power.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * A GPU's power description (data/power/NAME.ini): energy per event, leakage,
 * sleep modes; a neutral type that the simulator and the models read.
 */
#ifndef TRAPEZE_POWER_H
#define TRAPEZE_POWER_H

#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a GPU's hardware costs in energy: joules per event, constant and
 * idle-SM power, leakage per structure and the sleep modes of the structures
 * that can sleep. Loaded from an INI file (data/power/NAME.ini); neutral, so
 * that model/ can read the mode tables without sim/. */
typedef enum {
    TRAPEZE_PE_INST_ISSUE,      /* per warp instruction (fetch, buffer, scheduler) */
    TRAPEZE_PE_REG_READ,        /* per active thread and operand */
    TRAPEZE_PE_REG_WRITE,       /* per active thread */
    TRAPEZE_PE_INT_OP,          /* per active thread */
    TRAPEZE_PE_FP_OP,
    TRAPEZE_PE_SFU_OP,
    TRAPEZE_PE_SHMEM_ACCESS,    /* per shared-memory pass (conflict replays included) */
    TRAPEZE_PE_L1_READ_HIT, TRAPEZE_PE_L1_READ_MISS,
    TRAPEZE_PE_L1_WRITE_HIT, TRAPEZE_PE_L1_WRITE_MISS,
    TRAPEZE_PE_L2_READ_HIT, TRAPEZE_PE_L2_READ_MISS,
    TRAPEZE_PE_L2_WRITE_HIT, TRAPEZE_PE_L2_WRITE_MISS,
    TRAPEZE_PE_ICNT_FLIT,
    TRAPEZE_PE_DRAM_ACTIVATE, TRAPEZE_PE_DRAM_READ, TRAPEZE_PE_DRAM_WRITE,
    TRAPEZE_PE_DRAM_PRECHARGE,  /* DRAM: per command (read/write: per burst) */
    /* a cache's tag array looked up without its data: a refused probe (each
     * retry) or a bypassed request's tag check */
    TRAPEZE_PE_L1_TAG_PROBE, TRAPEZE_PE_L2_TAG_PROBE,
    TRAPEZE_PE_COUNT
} trapeze_power_event;

/* Structures with leakage; the first three can sleep. Instances: rf, shmem,
 * l1d, sm_other per SM; l2 per L2 slice. */
typedef enum {
    TRAPEZE_PS_L1D, TRAPEZE_PS_L2, TRAPEZE_PS_RF,
    TRAPEZE_PS_SHMEM, TRAPEZE_PS_SM_OTHER,
    TRAPEZE_PS_COUNT
} trapeze_power_structure;
#define TRAPEZE_PS_SLEEPABLE 3      /* l1d, l2, rf */
#define TRAPEZE_POWER_MAX_MODES 4   /* "on" and up to three sleep modes */

typedef struct trapeze_power_mode {
    char name[16];           /* "on", "sleep", "off", "shallow", "deep", "gated" */
    double leak_fraction;    /* leakage in this mode / leakage when ON */
    int wake_cycles;         /* core cycles from the wake signal to ON */
    double transition_j;     /* energy of one ON -> mode -> ON round trip of the whole
                                structure ([leakage_w]'s instance); a unit (line, warp
                                register) pays its share, as of the leakage */
    int retains_state;       /* 0: contents lost (only for dead or about-to-be-written data) */
} trapeze_power_mode;

typedef struct trapeze_power {
    char name[64];
    char path[256];
    double event_j[TRAPEZE_PE_COUNT];
    double constant_w;                      /* whole chip, always */
    double idle_sm_w;                       /* per SM with no resident block */
    double leak_w[TRAPEZE_PS_COUNT];        /* per instance, when ON */
    int n_modes[TRAPEZE_PS_SLEEPABLE];      /* mode[s][0] is always "on" (1.0, 0 cycles) */
    trapeze_power_mode mode[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES];
} trapeze_power;

/* Every [event_j] key, [power_w] constant and idle_sm and [leakage_w] key is
 * required; [mode.STRUCT.NAME] sections add sleep modes in file order. An
 * error names file, line and field. */
trapeze_status trapeze_power_load(const char *path, trapeze_power *p, trapeze_error *err);
const char *trapeze_power_event_name(trapeze_power_event e);
const char *trapeze_power_structure_name(trapeze_power_structure s);
/* Index of mode `name` of sleepable structure s, or -1. */
int trapeze_power_mode_find(const trapeze_power *p, trapeze_power_structure s, const char *name);

#ifdef __cplusplus
}
#endif

#endif
