/*
 * progress.h - the arithmetic of a progress display, the same for every
 * command: the time left from the work done, and when a plain line is due
 * where the display cannot be overwritten. Pure functions of their
 * arguments: no clock, no printing (cli/progress.c reads the clock and
 * prints).
 */
#ifndef TRAPEZE_COMMON_PROGRESS_H
#define TRAPEZE_COMMON_PROGRESS_H

#include "common/internal.h"

/* Seconds left of a run that has done `done` of `total` units of work after
 * `elapsed` seconds, `done0` of them before the clock started (work whose
 * time is unknown, e.g. samples already logged): the work left at the rate
 * observed, (total - done) * elapsed / (done - done0). Units are work (warp
 * instructions, bytes), not rows: after the first of three samples weighing
 * 1, 2 and 4, 6 units are left at 1 unit per `elapsed`. Negative when it
 * cannot be told (no work timed yet, under a fifth of a second timed); 0
 * when all of it is done. */
TRAPEZE_INTERNAL
double trapeze_progress_left(double done0, double done, double total, double elapsed);

/* Off a terminal, whether an update prints a line: once `period` seconds
 * have passed since the last line (or the start), and at the end when a
 * line was printed before (a run shorter than the period prints none). */
TRAPEZE_INTERNAL
int trapeze_progress_line_due(double since_last, double period, int finished, int printed);

/* The display asked for by the text of TRAPEZE_PROGRESS (NULL when unset):
 * 0 for "off" (nothing), else 1 with *period the seconds between plain
 * lines off a terminal ("0": a line per update; unset: 10). -1 for any
 * other text. */
TRAPEZE_INTERNAL
int trapeze_progress_setting(const char *text, double *period);

#endif
