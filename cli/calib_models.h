/*
 * calib_models.h - the models `trapeze calibrate --model` and `trapeze
 * validate --model` know, one row each (calib_models.c): the option's
 * parsing, its help lines and its error derive from the rows.
 */
#ifndef TRAPEZE_CLI_CALIB_MODELS_H
#define TRAPEZE_CLI_CALIB_MODELS_H

#include <stddef.h>

/* `trapeze CMD [--model NAME] ...` (CMD calibrate or validate): runs the
 * named model's command (the first row's without --model) on argv less
 * "--model NAME"; returns its exit status, 2 after a usage error. */
int cli_calib_model_run(const char *cmd, int argc, char **argv);

/* The --model option's help lines (the rows' names and notes, wrapped
 * as the other options' help) into out (truncated to size); returns out. */
const char *cli_calib_model_help(char *out, size_t size);

/* The ghost-zone model's commands (cmd_calibrate.c, cmd_validate.c): argv
 * without --model. */
int cli_calibrate_ghostzone(int argc, char **argv);
int cli_validate_ghostzone(int argc, char **argv);

#endif
