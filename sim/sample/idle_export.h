/*
 * idle_export.h - the simulator's idle-period histograms in the model's
 * buckets (trapeze_idle_hist): what sim/ measured, in the neutral type
 * model/ reads.
 */
#ifndef TRAPEZE_SIM_SAMPLE_IDLE_EXPORT_H
#define TRAPEZE_SIM_SAMPLE_IDLE_EXPORT_H

#include "sim/core/gpu_sim.h"
#include "sim/power/sleep.h"
#include "trapeze.h"

/* Adds one simulator histogram to h: each bin to the bucket of its range. */
void sim_idle_export_add(trapeze_idle_hist *h, const sim_idle_hist *s);

/* Adds weight x (now - before) to h: the periods a histogram gained between
 * two readings of the same launch (now counts at least what before did),
 * of the kinds of next access whose bit (1 << sim_next_access) is set in
 * next_mask. */
void sim_idle_export_add_diff(trapeze_idle_hist *h, const sim_idle_hist *now,
                                const sim_idle_hist *before, double weight, unsigned next_mask);
/* The same, each bin's periods weighted by weight(ctx, their mean length). */
void sim_idle_export_add_diff_by(trapeze_idle_hist *h, const sim_idle_hist *now,
                                   const sim_idle_hist *before,
                                   double (*weight)(const void *ctx, double length),
                                   const void *ctx, unsigned next_mask);

/* GPU options that measure idle periods as they are: energy by pw, every
 * structure always on (no policy shortens a period), histograms kept.
 * always_on must outlive the GPU. */
void sim_idle_window_options(const trapeze_power *pw, sim_sleep_config *always_on,
                          sim_gpu_options *opt);

#endif
