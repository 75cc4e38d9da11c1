/*
 * drowsy.c - the Warped Register File (Abdel-Majeed & Annavaram, HPCA 2013;
 * Slumber's comparison point): every register drops to the drowsy voltage
 * ("deep" mode, 0.3 V) right after each access (threshold 0 by default) and
 * is woken by the decode stage `lookahead` cycles ahead; its drowsy wake-up
 * takes drowsy_wake cycles (1 in the paper). Registers of finished warps
 * stay drowsy; unallocated registers are OFF.
 */
#include "sim/power/sleep.h"

static void gap(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                sim_sleep_gap *out)
{
    sim_sleep_timeout(p, length, next, p->mode_ix[0], p->drowsy_wake, out);
}

const sim_sleep_ops sim_sleep_drowsy = {
    "drowsy", 1u << TRAPEZE_PS_RF, {"deep", NULL, NULL}, 1, gap};
