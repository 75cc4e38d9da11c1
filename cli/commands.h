/*
 * commands.h - the subcommands of the trapeze program. Each parses its own
 * arguments and calls the library; none holds model or simulator logic.
 * Each returns the process exit status.
 */
#ifndef TRAPEZE_CLI_COMMANDS_H
#define TRAPEZE_CLI_COMMANDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trapeze.h"

int cli_ghostzone(int argc, char **argv);
int cli_sim(int argc, char **argv);
int cli_trace(int argc, char **argv);
/* `trapeze sim --workload`: cli_sim hands its whole command line over. */
int cli_sim_workload(int argc, char **argv);
void cli_sim_workload_usage(FILE *f);
/* The simulator's progress display on stderr (a terminal only). */
void cli_sim_progress(void *ctx, const char *kernel, unsigned long long cycle,
                      unsigned long long blocks_done, unsigned long long blocks);
int cli_calibrate(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_locality(int argc, char **argv);

/* A bad command line: "trapeze CMD: message" and a pointer to CMD --help on
 * stderr. Returns 2, the exit status of a usage error. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Where data/ lives: $TRAPEZE_DATA, else next to the program (build/../data),
 * else the installed share/trapeze. Writes path/relative into out. */
void cli_data_path(const char *relative, char *out, unsigned long size);

/* Presets (presets.c): a bare name (no '/', no '.') is a shipped file,
 * data/FOLDER/NAME.SUFFIX; anything else is a path, copied. Writes the path
 * to out and returns 0; for an unknown preset prints one message with the
 * nearest name and the list ("trapeze CMD: OPTION NAME: no such preset;
 * did you mean ...") and returns -1. */
int cli_is_preset_name(const char *arg);
int cli_resolve_preset(const char *cmd, const char *option, const char *folder,
                       const char *suffix, const char *arg, char *out, size_t size);
/* --size "AxB[xC]": one positive whole number per dimension of w, set in
 * w->data_len. 0, or 2 (the usage-error status) after printing why. */
int cli_apply_size(const char *cmd, const char *text, trapeze_workload *w);
int cli_import(int argc, char **argv);

#endif
