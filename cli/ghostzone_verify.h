/*
 * ghostzone_verify.h - `trapeze ghostzone --verify N`: the model's N best
 * (mode, h) simulated, then the search along h, with progress a user can
 * wait for and an interrupt that keeps what was verified. Kept apart from
 * cmd_ghostzone.c, which calls these two.
 */
#ifndef TRAPEZE_CLI_GHOSTZONE_VERIFY_H
#define TRAPEZE_CLI_GHOSTZONE_VERIFY_H

#include <stdio.h>

#include "trapeze.h"

/* Simulates c[0..k) (in batches of `threads`), then the search along h
 * (trapeze_ghostzone_verify_next, up to TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH runs) into
 * c[].cpl_sim; *searched gets the search's runs. Flushes stdout first (the
 * model's table is kept whatever happens next), reports each candidate, its
 * stage (the model's best or the search) and the time left, weighted by
 * each candidate's estimated warp instructions, on stderr (a line each when
 * stderr is not a terminal). On SIGINT it prints on stdout what it has
 * verified so far and the fastest, then exits with status 130. */
trapeze_status cli_gz_verify(const char *gpu_path, const trapeze_workload *w, trapeze_ghostzone_choice *c,
                             int n, int k, int stages, int threads, int *searched,
                             trapeze_error *err);

/* One line per simulated candidate of c[0..n) (cpl_sim > 0), in ranking
 * order, those past the first k marked searched; returns the fastest's
 * index (-1: none) and the warp instructions spent in *work. */
int cli_gz_verify_print(FILE *out, const trapeze_workload *w, const trapeze_ghostzone_choice *c, int n,
                        int k, double *work);

#endif
