/*
 * oracle.c - the bound no policy can beat: knowing each idle period's
 * length and what ends it, pick the mode of least leakage energy,
 * state-destroying modes only before a write or a dead end, and wake
 * exactly in time (no stall). Per period of length L in mode m (wake W_m,
 * leakage fraction f_m, transition energy as E_m cycles of ON leakage):
 *   cost_m = f_m (L - W_m) + W_m + E_m    (dead end: f_m L + E_m)
 * against L for staying ON.
 */
#include "sim/power/sleep.h"

static void gap(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                sim_sleep_gap *out)
{
    *out = (sim_sleep_gap){0, 0, 0};
    double best = (double)length;
    for (int m = 1; m < p->n_modes; m++) {
        const trapeze_power_mode *md = &p->mode[m];
        if (!md->retains_state && next == SIM_NEXT_READ)
            continue;
        uint64_t w = next == SIM_NEXT_DEAD ? 0 : (uint64_t)md->wake_cycles;
        if (length <= w)
            continue;
        double cost = md->leak_fraction * (double)(length - w) + (double)w +
                      p->transition_cycles[m];
        if (cost < best) {
            best = cost;
            out->mode = m;
            out->mode_cycles = length - w;
        }
    }
}

const sim_sleep_ops sim_sleep_oracle = {
    "oracle", (1u << TRAPEZE_PS_L1D) | (1u << TRAPEZE_PS_L2) | (1u << TRAPEZE_PS_RF),
    {NULL, NULL, NULL}, 1, gap};
