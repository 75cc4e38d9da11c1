/*
 * spread.h - where a spread sample of a run records its idle periods
 * (spread.c): the first window, then short windows to the run's end.
 */
#ifndef TRAPEZE_SIM_SAMPLE_SPREAD_H
#define TRAPEZE_SIM_SAMPLE_SPREAD_H

/* A later window lasts every / SIM_SPREAD_SHARE cycles. */
#define SIM_SPREAD_SHARE 5

/* The gaps between later windows whose lengths sim_spread_inclusion
 * averages over (the Weyl offsets give three lengths; a run has far fewer
 * windows) */
#define SIM_SPREAD_GAPS 1024

typedef struct sim_spread {
    double first;   /* cycles of the first window, [0, first) */
    double every;   /* then one later window in each stretch of `every` cycles */
    double len;     /* cycles of a later window */
    /* the gaps from a window's end to the next one's start, ascending, and
     * below[i] the sum of the first i of them */
    double gap[SIM_SPREAD_GAPS], below[SIM_SPREAD_GAPS + 1];
} sim_spread;

void sim_spread_init(sim_spread *p, double first, double every);
/* Where cycle t falls: 0 the first window, 1 a later window, 2 between
 * windows (simulated, not recorded). */
int sim_spread_region(const sim_spread *p, double t);
/* Cycles of [first, end) in later windows: for whole cycles t, how many
 * have region 1. */
double sim_spread_recorded(const sim_spread *p, double end);
/* The share of the positions after the first window at which a period of
 * `length` idle cycles overlaps a later window (ends in one or began before
 * one ended): each window with the `length` cycles before it, as far back
 * as the previous window, over the stretch, (len + mean of min(length,
 * gap)) / every; len / every for the shortest, 1 for those longer than
 * every gap. Its inverse weights such a period so that the sample's counts
 * are unbiased (Horvitz-Thompson). */
double sim_spread_inclusion(const sim_spread *p, double length);

#endif
