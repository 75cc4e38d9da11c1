/*
 * sleep_spread.h - where a spread sample of a run records its idle periods
 * (sleep_spread.c): the first window, then short windows to the run's end.
 */
#ifndef TRAPEZE_SAMPLER_SLEEP_SPREAD_H
#define TRAPEZE_SAMPLER_SLEEP_SPREAD_H

/* A later window lasts every / SAMPLER_SPREAD_SHARE cycles. */
#define SAMPLER_SPREAD_SHARE 5

typedef struct sampler_spread {
    double first;   /* cycles of the first window, [0, first) */
    double every;   /* then one later window in each stretch of `every` cycles */
    double len;     /* cycles of a later window */
} sampler_spread;

void sampler_spread_init(sampler_spread *p, double first, double every);
/* Where cycle t falls: 0 the first window, 1 a later window, 2 between
 * windows (simulated, not recorded). */
int sampler_spread_region(const sampler_spread *p, double t);
/* Cycles of [first, end) in later windows: for whole cycles t, how many
 * have region 1. */
double sampler_spread_recorded(const sampler_spread *p, double end);

#endif
