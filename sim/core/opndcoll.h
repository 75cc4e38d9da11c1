/*
 * opndcoll.h - internal to sim/core: the operand collector between issue and
 * the functional units (GPGPU-Sim's opndcoll_rfu_t), with register-bank
 * conflicts, and the V100 sub-core partition of its banks and collector
 * units. Off (sim_oc_config.on == 0) unless a config sets one of its options.
 */
#ifndef TRAPEZE_SIM_CORE_OPNDCOLL_H
#define TRAPEZE_SIM_CORE_OPNDCOLL_H

#include <stdint.h>

#include "common/error.h"
#include "sim/core/gpu_sim.h"

#define SIM_OC_RING 128   /* steps of write bookings kept per bank */

/* Collector-unit sets (GPGPU-Sim's SP_CUS, SFU_CUS, MEM_CUS, GEN_CUS,
 * DP_CUS, INT_CUS). */
enum { SIM_OC_SET_SP, SIM_OC_SET_SFU, SIM_OC_SET_MEM, SIM_OC_SET_GEN, SIM_OC_SET_DP,
       SIM_OC_SET_INT, SIM_OC_SETS };

#define SIM_OC_MAX_PORTS 64

/* A collector-unit set's units and dispatch units, and where their steps
 * are in sim_oc.steps. */
typedef struct sim_oc_set {
    int cu_n;                      /* collector units per sub-core */
    int disp_n;                    /* dispatch units (out ports) */
    uint32_t cu, disp;             /* parts * cu_n, disp_n steps: the unit is free from */
} sim_oc_set;

/* What a collect of one pipeline kind reads besides the steps: 32 bytes,
 * two kinds to a host cache line (as one array per field they lay on five
 * lines for a kind). */
typedef struct sim_oc_kind {
    int cand_n;                    /* (in port, set with units) pairs that serve it */
    int idoc_w, ocex_w;            /* slots per sub-core */
    uint32_t idoc, ocex;           /* parts * idoc_w, parts * ocex_w steps in sim_oc.steps:
                                    * per slot, the step it frees */
    uint8_t cand_sets;             /* the sets among the pairs */
    const uint8_t *cand;           /* cand_n (port, set) byte pairs, in port order */
} sim_oc_kind;

typedef struct sim_oc {
    /* what every collect reads, on the struct's first two lines */
    const sim_oc_config *c;
    int P;                         /* register-file steps per cycle */
    int parts;                     /* sub-cores (n_sched) or 1 */
    int nb, bps;                   /* banks, banks per sub-core */
    /* every "free from step" array, one allocation (a collect reads a few
     * of its lines, not a line of each of eight allocations): the in
     * ports', the banks', each set's, each kind's */
    uint64_t *steps;
    uint64_t *bank_next;           /* per bank: first step a new read may be granted */
    uint64_t *bank_wr;             /* per bank, SIM_OC_RING: step of a booked write */
    uint64_t *pend_ocex;           /* the OC_EX slot of the last sim_oc_collect */
    sim_oc_set set[SIM_OC_SETS];
    uint64_t conflicts;            /* read grants delayed by another read or a write */
    _Alignas(64) sim_oc_kind kind[SIM_OC_KINDS];
    uint8_t *cand_all;             /* every kind's pairs, one after another */
    /* init only: the in ports */
    int n_ports;
    uint16_t port_kinds[SIM_OC_MAX_PORTS];
    uint8_t port_sets[SIM_OC_MAX_PORTS];  /* bit sets */
} sim_oc;

trapeze_status sim_oc_init(sim_oc *oc, const sim_core_config *cfg, trapeze_error *err);
void sim_oc_free(sim_oc *oc);
void sim_oc_reset(sim_oc *oc);

/* May an instruction of `kind` from sub-core `part` issue at cycle t (a free
 * ID_OC slot)? If not, *retry: the first cycle one frees. */
int sim_oc_can_issue(const sim_oc *oc, int kind, int part, uint64_t t, uint64_t *retry);

/* Books the path of an instruction issued at cycle t by warp slot `wid` of
 * sub-core `part`, reading src[0..2] (SIM_NO_REG: none): ID_OC, a collector
 * unit, one read per source register from its bank, dispatch to OC_EX.
 * Returns the first cycle its unit may take it. sim_oc_execute(oc, e) then
 * says when it did (its OC_EX slot frees). */
uint64_t sim_oc_collect(sim_oc *oc, int kind, int part, int wid, const uint8_t src[3],
                        uint64_t t);
void sim_oc_execute(sim_oc *oc, uint64_t e);

/* The write of register `reg` of warp slot `wid` at cycle w: its bank serves
 * no read in w's first step (writes have priority). */
void sim_oc_write(sim_oc *oc, int part, int wid, int reg, uint64_t w);

#endif
