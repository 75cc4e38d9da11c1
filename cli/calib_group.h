/*
 * calib_group.h - `calibrate --model group` and `validate --model group`
 * (calib_group.c), reached through one hook at the top of each command, and
 * the GPU grouping calibration both they and `trapeze group` default to.
 */
#ifndef TRAPEZE_CLI_CALIB_GROUP_H
#define TRAPEZE_CLI_CALIB_GROUP_H

#include <stddef.h>

/* With --model group: runs the command and returns its exit status (>= 0).
 * Otherwise returns -(argc) - 1 with argc the arguments left for the
 * ghost-zone command (--model ghostzone removed from argv). */
int cli_calib_model_group(int argc, char **argv, const char *cmd);

/* data/calibrations/NAME-group.ini for GPU config .../NAME.config into out:
 * 1 when present. */
int cli_group_calibration(const char *gpu, char *out, size_t size);

#endif
