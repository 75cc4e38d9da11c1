/*
 * power_args.c - the energy options shared by `trapeze sim` commands:
 * --power FILE|GPU resolved to a power description (a bare name is
 * data/power/NAME.ini). Argument handling only; the accounting is
 * sim/power, reached through trapeze_sim_* (trapeze.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

trapeze_status cli_power_load(const char *power_arg, trapeze_power *power, trapeze_error *err)
{
    char path[4096];
    size_t n = strlen(power_arg);
    if (strchr(power_arg, '/') || (n > 4 && !strcmp(power_arg + n - 4, ".ini"))) {
        snprintf(path, sizeof path, "%s", power_arg);
    } else {
        char rel[256];
        snprintf(rel, sizeof rel, "power/%s.ini", power_arg);
        cli_data_path(rel, path, sizeof path);
    }
    return trapeze_power_load(path, power, err);
}
