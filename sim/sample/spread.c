/*
 * spread.c - the placement of a spread sample's windows (spread_run.c
 * runs them): the run's first `first` cycles, then in each stretch
 * of `every` cycles after them one window of every / 5 cycles, at an offset
 * within the stretch that follows a Weyl sequence (frac((k + 1) phi), k the
 * stretch), so that the windows do not alias with a loop whose period
 * divides the stride (GTX 480 SYRK 128: with the window at the same offset
 * in every stretch, 2000 cycles every 20000, its RF saving came out 2.3
 * points from the whole run's, at a varying offset 0.2). Owns the geometry
 * only.
 */
#include <math.h>
#include <stdlib.h>

#include "sim/sample/spread.h"

/* Where the window of stretch k starts, from the stretch's start. */
static double offset(const sim_spread *p, double k)
{
    double u = fmod((k + 1) * 0.6180339887498949, 1.0);
    return floor(u * (p->every - p->len));
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void sim_spread_init(sim_spread *p, double first, double every)
{
    p->first = first;
    p->every = every;
    p->len = every / SIM_SPREAD_SHARE;
    for (int k = 0; k < SIM_SPREAD_GAPS; k++)
        p->gap[k] = p->every - p->len - offset(p, k) + offset(p, k + 1);
    qsort(p->gap, SIM_SPREAD_GAPS, sizeof p->gap[0], ascending);
    p->below[0] = 0;
    for (int k = 0; k < SIM_SPREAD_GAPS; k++)
        p->below[k + 1] = p->below[k] + p->gap[k];
}

int sim_spread_region(const sim_spread *p, double t)
{
    if (t < p->first)
        return 0;
    if (!(p->every > 0))
        return 2;
    double k = floor((t - p->first) / p->every), o = t - p->first - k * p->every;
    double a = offset(p, k);
    return o >= a && o < a + p->len ? 1 : 2;
}

double sim_spread_recorded(const sim_spread *p, double end)
{
    if (!(end > p->first) || !(p->every > 0))
        return 0;
    double span = end - p->first, whole = floor(span / p->every);
    double rest = span - whole * p->every, a = offset(p, whole);
    double last = rest <= a ? 0 : (rest < a + p->len ? rest - a : p->len);
    return whole * p->len + last;
}

double sim_spread_inclusion(const sim_spread *p, double length)
{
    if (!(p->every > 0))
        return 1;
    int lo = 0, hi = SIM_SPREAD_GAPS;   /* the gaps shorter than length: [0, lo) */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->gap[mid] < length)
            lo = mid + 1;
        else
            hi = mid;
    }
    double covered = p->below[lo] + length * (SIM_SPREAD_GAPS - lo);
    /* over the stretches the gaps span (every, give or take the first and
     * last offsets), so that a period longer than every gap counts once */
    double q = (p->len + covered / SIM_SPREAD_GAPS) /
               (p->len + p->below[SIM_SPREAD_GAPS] / SIM_SPREAD_GAPS);
    return q < 1 ? q : 1;
}
