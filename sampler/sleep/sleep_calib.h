/*
 * sleep_calib.h - what calibration (sleep_calib.c) and validation
 * (sleep_validate.c) of the sleep model share inside sampler/: the choice of
 * one structure's thresholds on one window's histogram.
 */
#ifndef TRAPEZE_SAMPLER_SLEEP_CALIB_H
#define TRAPEZE_SAMPLER_SLEEP_CALIB_H

#include <stddef.h>

#include "trapeze.h"

/* trapeze_sleep_run.hist index of each structure's policy unit. */
extern const int sampler_sleep_unit[TRAPEZE_PS_SLEEPABLE];

typedef struct sampler_sleep_pick {
    trapeze_sleep_structure st;
    trapeze_sleep_options o;
    const char *policy;        /* "snooze", "slumber" */
    trapeze_idle_fit fit;      /* always made: its KS distance is reported */
    trapeze_sleep_model *m;    /* on the counts (or the fit, use_fit); destroy */
    trapeze_sleep_choice c;
} sampler_sleep_pick;

/* Structure x (TRAPEZE_PS_*) of pw at the simulator's preset policy on
 * histogram h: fit, model, thresholds under max_penalty. */
trapeze_status sampler_sleep_choose(const trapeze_power *pw, double clock_hz,
                                    const trapeze_idle_hist *h, int x, double max_penalty,
                                    int use_fit, sampler_sleep_pick *out, trapeze_error *err);
/* Whole runs for the validation (sleep_sample.c): whether structure x at
 * theta hides every wake-up (sim_sleep_hides_wakes), and n such settings
 * on one run always on, out[i] what trapeze_sleep_simulate with that
 * setting alone gives, to the bit (sim_sleep_whole_hidden). */
trapeze_status sampler_sleep_hides_wakes(const trapeze_config *cfg, const trapeze_power *pw,
                                         int x, const double *theta, int *hidden,
                                         trapeze_error *err);
trapeze_status sampler_sleep_simulate_hidden(const trapeze_config *cfg, const trapeze_power *pw,
                                             const trapeze_sleep_job *j, int n, const int *x,
                                             const double (*theta)[TRAPEZE_SLEEP_MAX_MODES],
                                             trapeze_sleep_run *const *out, trapeze_error *err);
/* "4/13/16" */
void sampler_sleep_theta_text(const double *theta, int n, char *buf, size_t size);

#endif
