/*
 * power_args.c - the energy options shared by `trapeze sim` commands:
 * --power FILE|GPU, --sleep-l1d/--sleep-l2/--sleep-rf, and the printed
 * energy breakdown summed over a run's launches. Argument handling and
 * printing only; the accounting is sim/power.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

trapeze_status cli_power_options(const trapeze_config *cfg, const char *power_arg,
                                 const char *const sleep_arg[TRAPEZE_PS_SLEEPABLE],
                                 trapeze_power *power, sim_sleep_config *sleep,
                                 trapeze_error *err)
{
    trapeze_status s;
    if (power_arg) {
        char path[4096];
        size_t n = strlen(power_arg);
        if (strchr(power_arg, '/') || (n > 4 && !strcmp(power_arg + n - 4, ".ini"))) {
            snprintf(path, sizeof path, "%s", power_arg);
        } else {
            char rel[256];
            snprintf(rel, sizeof rel, "power/%s.ini", power_arg);
            cli_data_path(rel, path, sizeof path);
        }
        if ((s = trapeze_power_load(path, power, err)))
            return s;
    }
    if ((s = sim_sleep_config_read(cfg, sleep, err)))
        return s;
    for (int i = 0; i < TRAPEZE_PS_SLEEPABLE; i++)
        if (sleep_arg[i] &&
            (s = sim_sleep_config_set(sleep, (trapeze_power_structure)i, sleep_arg[i], err)))
            return s;
    return TRAPEZE_OK;
}

void cli_print_energy(FILE *f, const sim_kernel_stats *st, int n, const sim_sleep_config *sc)
{
    sim_energy sum;
    memset(&sum, 0, sizeof sum);
    for (int k = 0; k < n; k++) {
        const sim_energy *e = &st[k].energy;
        for (int p = 0; p < SIM_EN_COUNT; p++)
            sum.j[p] += e->j[p];
        sum.total_j += e->total_j;
        sum.seconds += e->seconds;
        for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
            sum.unallocated[s] += e->unallocated[s];
        for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
            sim_sleep_result *r = &sum.sleep[s];
            const sim_sleep_result *x = &e->sleep[s];
            r->tracked += x->tracked;
            for (int m = 0; m < TRAPEZE_POWER_MAX_MODES; m++) {
                r->mode_cycles[m] += x->mode_cycles[m];
                r->entries[m] += x->entries[m];
            }
            r->wakeups += x->wakeups;
            r->stall_cycles += x->stall_cycles;
        }
    }
    sim_energy_print(f, &sum, sc);
}
