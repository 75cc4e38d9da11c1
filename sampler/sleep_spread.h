/*
 * sleep_spread.h - where a spread sample of a run records its idle periods
 * (sleep_spread.c): the first window, then short windows to the run's end.
 */
#ifndef TRAPEZE_SAMPLER_SLEEP_SPREAD_H
#define TRAPEZE_SAMPLER_SLEEP_SPREAD_H

/* A later window lasts every / SAMPLER_SPREAD_SHARE cycles. */
#define SAMPLER_SPREAD_SHARE 5

/* The gaps between later windows whose lengths sampler_spread_inclusion
 * averages over (the Weyl offsets give three lengths; a run has far fewer
 * windows) */
#define SAMPLER_SPREAD_GAPS 1024

typedef struct sampler_spread {
    double first;   /* cycles of the first window, [0, first) */
    double every;   /* then one later window in each stretch of `every` cycles */
    double len;     /* cycles of a later window */
    /* the gaps from a window's end to the next one's start, ascending, and
     * below[i] the sum of the first i of them */
    double gap[SAMPLER_SPREAD_GAPS], below[SAMPLER_SPREAD_GAPS + 1];
} sampler_spread;

void sampler_spread_init(sampler_spread *p, double first, double every);
/* Where cycle t falls: 0 the first window, 1 a later window, 2 between
 * windows (simulated, not recorded). */
int sampler_spread_region(const sampler_spread *p, double t);
/* Cycles of [first, end) in later windows: for whole cycles t, how many
 * have region 1. */
double sampler_spread_recorded(const sampler_spread *p, double end);
/* The share of the positions after the first window at which a period of
 * `length` idle cycles overlaps a later window (ends in one or began before
 * one ended): each window with the `length` cycles before it, as far back
 * as the previous window, over the stretch, (len + mean of min(length,
 * gap)) / every; len / every for the shortest, 1 for those longer than
 * every gap. Its inverse weights such a period so that the sample's counts
 * are unbiased (Horvitz-Thompson). */
double sampler_spread_inclusion(const sampler_spread *p, double length);

#endif
