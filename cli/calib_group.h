/*
 * calib_group.h - `calibrate --model group` and `validate --model group`
 * (calib_group.c), reached through the model table (calib_models.c), and
 * the GPU grouping calibration both they and `trapeze group` default to.
 */
#ifndef TRAPEZE_CLI_CALIB_GROUP_H
#define TRAPEZE_CLI_CALIB_GROUP_H

#include <stddef.h>

/* `calibrate --model group` or `validate --model group` (cmd), argv
 * without --model (calib_models.c); returns the exit status. */
int cli_calib_group_run(int argc, char **argv, const char *cmd);

/* data/calibrations/NAME-group.ini for GPU config .../NAME.config into out:
 * 1 when present. */
int cli_group_calibration(const char *gpu, char *out, size_t size);

#endif
