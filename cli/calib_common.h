/*
 * calib_common.h - what `trapeze calibrate` and `trapeze validate` share:
 * their common options (GPU, workloads, plan shape, threads, samples file),
 * preset names, the progress line and building the plan. Parsing only.
 */
#ifndef TRAPEZE_CLI_CALIB_COMMON_H
#define TRAPEZE_CLI_CALIB_COMMON_H

#include <stdio.h>

#include "cli/commands.h"
#include "trapeze.h"

#define CALIB_MAX_WORKLOADS 16

typedef struct calib_args {
    const char *cmd;                 /* "calibrate" or "validate", for messages */
    char gpu[4096];
    const char *samples;
    const char *json;                /* --json FILE */
    const char *workload_args[CALIB_MAX_WORKLOADS];
    char workload_paths[CALIB_MAX_WORKLOADS][1024]; /* presets resolved (calib_finish_args) */
    int n_workloads;
    int threads;
    trapeze_ghostzone_calib_options opt;
} calib_args;

/* Options every calibration command takes: the "options" help text that
 * lists them, into out (2048 bytes hold it); returns out. */
const char *calib_common_help(char *out, size_t size);

/* Parses argv with cli_parse_options: the common options (into a, checked,
 * --gpu resolved) and the command's own table (own, ended by {NULL}: its
 * texts and flags, for the command to check); the operands are workloads.
 * Returns -1 when parsed, else the exit status (0 after --help, 2 on error).
 * The command then checks its own values and calls calib_finish_args. */
int calib_parse(calib_args *a, int argc, char **argv, const cli_field *own,
                void (*usage)(FILE *out));

/* Defaults and checks after parsing: the GPU is required. -1 on error. */
int calib_finish_args(calib_args *a);

trapeze_status calib_make_plan(const calib_args *a, trapeze_ghostzone_plan **plan,
                               trapeze_error *err);

/* Opens a samples or sweep log; says on stderr what opening repaired. */
trapeze_status calib_open_log(const calib_args *a, const char *path, trapeze_sample_log **log,
                              trapeze_error *err);

/* The end of a command: frees plan and log, prints err when s failed, and
 * returns the exit status. */
int calib_exit(const calib_args *a, trapeze_ghostzone_plan *plan, trapeze_sample_log *log,
               trapeze_status s, const trapeze_error *err);

/* Progress on stderr, one overwritten line, when stderr is a terminal. */
void calib_progress(void *ctx, const trapeze_run_progress *at, const trapeze_sample *s);

int calib_usage_error(const char *cmd, const char *what, const char *value);

/* MPI (calib_mpi.c): started by mpirun, MPI_Init and this rank; else rank 0
 * of 1. Returns whether MPI was started (pass to calib_mpi_stop). */
int calib_mpi_start(int *argc, char ***argv, int *rank, int *size);
void calib_mpi_stop(int started);
/* Under MPI: prints the message and ends every rank (MPI_Abort). */
void calib_mpi_abort(const char *message);
/* The pending samples round-robin over the ranks; rank 0 (the only one with
 * a log) appends them in plan order. A failure aborts every rank. */
trapeze_status calib_mpi_run(const trapeze_ghostzone_plan *plan, trapeze_sample_log *log, int rank,
                             int size, trapeze_error *err);
/* The same for any sample set (the grouping and sleep samples); rank 0
 * calls on_row(ctx, ...) (may be NULL) as each row is appended. */
trapeze_status calib_mpi_run_set(const trapeze_sample_set *set, trapeze_sample_log *log,
                                 int rank, int size, trapeze_sample_progress on_row, void *ctx,
                                 trapeze_error *err);
/* A sample set's pending rows into the log: over the ranks of an mpirun
 * (size > 1; rank 0 owns the log), else in `threads` threads. */
trapeze_status calib_run_set(const trapeze_sample_set *set, trapeze_sample_log *log, int threads,
                             int rank, int size, trapeze_sample_progress on_row, void *ctx,
                             trapeze_error *err);

#endif
