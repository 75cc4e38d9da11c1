/*
 * calib_sleep.h - `calibrate --model sleep` and `validate --model sleep`
 * (calib_sleep.c), reached through the model table (calib_models.c).
 */
#ifndef TRAPEZE_CLI_CALIB_SLEEP_H
#define TRAPEZE_CLI_CALIB_SLEEP_H

#include "trapeze.h"

/* Runs the command (argv without --model); returns its exit status. */
int cli_calib_model_sleep(int argc, char **argv, const char *cmd);

/* A JOB "NAME settings...": a built-in kernel, else a workload preset or
 * INI file with size=, iters=, h=, sync=. 0; 1 with err set; 2 after a
 * usage message. */
int cli_sleep_job(const char *cmd, const char *spec, trapeze_sleep_job *j, trapeze_error *err);
/* The spread_cycles of trapeze_sleep_window for --spread and --jump /
 * --no-jump: negative asks for the jump sample; 0 (the first window
 * alone) stays 0. */
double cli_sleep_stride(double spread, int jump);

#endif
