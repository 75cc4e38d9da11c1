/*
 * sleep_spread.c - the placement of a spread sample's windows (sleep
 * sample.c runs them): the run's first `first` cycles, then in each stretch
 * of `every` cycles after them one window of every / 5 cycles, at an offset
 * within the stretch that follows a Weyl sequence (frac((k + 1) phi), k the
 * stretch), so that the windows do not alias with a loop whose period
 * divides the stride (GTX 480 SYRK 128: with the window at the same offset
 * in every stretch, 2000 cycles every 20000, its RF saving came out 2.3
 * points from the whole run's, at a varying offset 0.2). Owns the geometry
 * only.
 */
#include <math.h>

#include "sampler/sleep_spread.h"

void sampler_spread_init(sampler_spread *p, double first, double every)
{
    p->first = first;
    p->every = every;
    p->len = every / SAMPLER_SPREAD_SHARE;
}

/* Where the window of stretch k starts, from the stretch's start. */
static double offset(const sampler_spread *p, double k)
{
    double u = fmod((k + 1) * 0.6180339887498949, 1.0);
    return floor(u * (p->every - p->len));
}

int sampler_spread_region(const sampler_spread *p, double t)
{
    if (t < p->first)
        return 0;
    if (!(p->every > 0))
        return 2;
    double k = floor((t - p->first) / p->every), o = t - p->first - k * p->every;
    double a = offset(p, k);
    return o >= a && o < a + p->len ? 1 : 2;
}

double sampler_spread_recorded(const sampler_spread *p, double end)
{
    if (!(end > p->first) || !(p->every > 0))
        return 0;
    double span = end - p->first, whole = floor(span / p->every);
    double rest = span - whole * p->every, a = offset(p, whole);
    double last = rest <= a ? 0 : (rest < a + p->len ? rest - a : p->len);
    return whole * p->len + last;
}
