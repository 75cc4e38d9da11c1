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

typedef struct sim_oc {
    const sim_oc_config *c;
    int P;                         /* register-file steps per cycle */
    int parts;                     /* sub-cores (n_sched) or 1 */
    int nb, bps;                   /* banks, banks per sub-core */
    uint64_t *bank_next;           /* per bank: first step a new read may be granted */
    uint64_t *bank_wr;             /* per bank, SIM_OC_RING: step of a booked write */
    int cu_n[SIM_OC_SETS];         /* collector units per set and sub-core */
    uint64_t *cu_free[SIM_OC_SETS];   /* parts * cu_n: step the unit is free from */
    int disp_n[SIM_OC_SETS];       /* dispatch units (out ports) per set */
    uint64_t *disp_next[SIM_OC_SETS];
    int n_ports;
    uint16_t port_kinds[SIM_OC_MAX_PORTS];
    uint8_t port_sets[SIM_OC_MAX_PORTS];  /* bit sets */
    uint64_t port_next[SIM_OC_MAX_PORTS];   /* first step the in port allocates again */
    /* per kind: the (in port, set with units) pairs that serve it, in port
     * order, and the sets among them (derived from the above at init) */
    int cand_n[SIM_OC_KINDS];
    uint8_t *cand[SIM_OC_KINDS];   /* cand_n (port, set) byte pairs */
    uint8_t cand_sets[SIM_OC_KINDS];
    int idoc_w[SIM_OC_KINDS], ocex_w[SIM_OC_KINDS];   /* slots per sub-core */
    uint64_t *idoc[SIM_OC_KINDS], *ocex[SIM_OC_KINDS];  /* per slot: step it frees */
    uint64_t *pend_ocex;           /* the OC_EX slot of the last sim_oc_collect */
    uint64_t conflicts;            /* read grants delayed by another read or a write */
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
