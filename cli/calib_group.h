/*
 * calib_group.h - `calibrate --model group` and `validate --model group`
 * (calib_group.c), reached through one hook at the top of each command.
 */
#ifndef TRAPEZE_CLI_CALIB_GROUP_H
#define TRAPEZE_CLI_CALIB_GROUP_H

/* With --model group: runs the command and returns its exit status (>= 0).
 * Otherwise returns -(argc) - 1 with argc the arguments left for the
 * ghost-zone command (--model ghostzone removed from argv). */
int cli_calib_model_group(int argc, char **argv, const char *cmd);

#endif
