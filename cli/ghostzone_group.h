/*
 * ghostzone_group.h - `trapeze ghostzone --group`: its options and its run,
 * kept apart from cmd_ghostzone.c (which calls these two hooks).
 */
#ifndef TRAPEZE_CLI_GHOSTZONE_GROUP_H
#define TRAPEZE_CLI_GHOSTZONE_GROUP_H

#include <stdio.h>

#include "trapeze.h"

typedef struct cli_gz_group {
    int enabled;              /* --group (or --group-out / --group-verify) */
    const char *out;          /* --group-out FILE */
    const char *calibration;  /* --group-calibration FILE */
    int verify;               /* --group-verify */
    int exhaustive;           /* --group-all-heights */
} cli_gz_group;

/* The options' table entries and help text. */
#define CLI_GZ_GROUP_OPTIONS                                                           \
    {"--group", 0, 0}, {"--group-out", 1, 0}, {"--group-calibration", 1, 0},           \
        {"--group-verify", 0, 0}, {"--group-all-heights", 0, 0}
void cli_gz_group_usage(FILE *out);
/* argv[i] one of ours: the arguments it takes (1 or 2); 0: not ours. */
int cli_gz_group_parse(cli_gz_group *g, const char *arg, const char *val);
/* After a workload's usual output: the joint (h, grouping) decision. */
trapeze_status cli_gz_group_run(const cli_gz_group *g, const char *gpu_path,
                                const trapeze_workload *spec, const trapeze_ghostzone_params *p,
                                int tau, long stages, trapeze_error *err);

#endif
