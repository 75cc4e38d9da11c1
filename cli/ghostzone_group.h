/*
 * ghostzone_group.h - `trapeze ghostzone --group`: its options and its run,
 * kept apart from cmd_ghostzone.c (whose option table takes these rows
 * and which calls these hooks).
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

/* The options' rows of the command's cli_field table (cli_parse_options),
 * storing into g, and their help text. */
#define CLI_GZ_GROUP_FIELDS(g)                                                         \
    {"--group", NULL, &(g)->enabled}, {"--group-out", &(g)->out, NULL},                \
        {"--group-calibration", &(g)->calibration, NULL},                              \
        {"--group-verify", NULL, &(g)->verify}, {"--group-all-heights", NULL, &(g)->exhaustive}
void cli_gz_group_usage(FILE *out);
/* After parsing: any of the options turns --group on. */
void cli_gz_group_parsed(cli_gz_group *g);
/* After a workload's usual output: the joint (h, grouping) decision,
 * printed and, when j is not NULL, as the member "group" of j's object. */
trapeze_status cli_gz_group_run(const cli_gz_group *g, const char *gpu_path,
                                const trapeze_workload *spec, const trapeze_ghostzone_params *p,
                                int tau, long stages, trapeze_json_out *j, trapeze_error *err);

#endif
