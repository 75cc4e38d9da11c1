/*
 * snooze.c - Snooze (seed 004 section 3.4, Fig. 5.6) for the L1D and L2, at
 * bank or line granularity: a unit with no pending request sleeps
 * (state-retentive "sleep") after `threshold` idle cycles, is woken when a
 * request enters its input queue, `lookahead` cycles (3-5 in the seed)
 * before the access; it is switched OFF (state-destroying) only when its
 * contents are dead (the kernel ended). A reservation-failed head request
 * does not touch the cache (the LDST unit's retries are not accesses), as
 * the seed's reservation queue ensures.
 */
#include "sim/power/sleep.h"

static void gap(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                sim_sleep_gap *out)
{
    int m = p->mode_ix[next == SIM_NEXT_DEAD ? 1 : 0];
    sim_sleep_timeout(p, length, next, m, p->mode[m].wake_cycles, out);
}

const sim_sleep_ops sim_sleep_snooze = {
    "snooze", (1u << TRAPEZE_PS_L1D) | (1u << TRAPEZE_PS_L2), {"sleep", "off", NULL}, 0, gap};
