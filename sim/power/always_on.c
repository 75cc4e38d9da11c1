/*
 * always_on.c - the baseline: every unit stays ON; no wake-up, no stall.
 * Its timing is today's, bit for bit.
 */
#include "sim/power/sleep.h"

static void gap(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                sim_sleep_gap *out)
{
    (void)p, (void)length, (void)next;
    *out = (sim_sleep_gap){0, 0, 0};
}

const sim_sleep_ops sim_sleep_always_on = {
    "always_on", (1u << TRAPEZE_PS_L1D) | (1u << TRAPEZE_PS_L2) | (1u << TRAPEZE_PS_RF),
    {NULL, NULL, NULL}, 0, gap};
