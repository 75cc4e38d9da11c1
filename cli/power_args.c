/*
 * power_args.c - the energy options shared by `trapeze sim` commands:
 * --power FILE|GPU resolved to a power description (a bare name is
 * data/power/NAME.ini), and the description a GPU gets without --power.
 * Argument handling only; the accounting is sim/power, reached through
 * trapeze_sim_* (trapeze.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* The power description of a GPU without --power: data/power/NAME.ini of its
 * name; an Accel-Sim folder's name (SM86_RTX3070, SM90_H100) when that file
 * is missing reads the description of its name after "SMnn_" in lower case
 * (rtx3070, h100), the preset's name for the same GPU. */
const char *cli_power_default(const char *gpu_name, char *buf, size_t size)
{
    char rel[256], path[4096];
    snprintf(rel, sizeof rel, "power/%.64s.ini", gpu_name);
    cli_data_path(rel, path, sizeof path);
    const char *u = strchr(gpu_name, '_');
    if (access(path, R_OK) == 0 || gpu_name[0] != 'S' || gpu_name[1] != 'M' || !u || !u[1])
        return gpu_name;
    for (const char *c = gpu_name + 2; c < u; c++)
        if (!isdigit((unsigned char)*c))
            return gpu_name;
    size_t n = 0;
    for (const char *c = u + 1; *c && n + 1 < size; c++)
        buf[n++] = (char)tolower((unsigned char)*c);
    buf[n] = '\0';
    snprintf(rel, sizeof rel, "power/%.64s.ini", buf);
    cli_data_path(rel, path, sizeof path);
    return access(path, R_OK) == 0 ? buf : gpu_name;
}
