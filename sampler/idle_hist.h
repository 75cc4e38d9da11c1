/*
 * idle_hist.h - the simulator's idle-period histograms in the model's
 * buckets: where sampler/ hands what sim/ measured to what model/ reads.
 */
#ifndef TRAPEZE_SAMPLER_IDLE_HIST_H
#define TRAPEZE_SAMPLER_IDLE_HIST_H

#include "sim/power/sleep.h"
#include "trapeze.h"

/* Adds one simulator histogram to h: each bin to the bucket of its range. */
void sampler_idle_hist_add(trapeze_idle_hist *h, const sim_idle_hist *s);

#endif
