/*
 * rsimd_asu.c - Robust SIMD's adaptation state unit: the (W x D) search
 * (rsimd_asu.h says which). Pure: knows nothing of the SM, only the cycles
 * per task it is told for each configuration it asked for.
 */
#include "sim/core/rsimd_asu.h"

enum { PROBE_UP, PROBE_DOWN, MOVE, FIRST };
#define MAX_PASSES 3

int sim_asu_dmax(const sim_asu *a, int w)
{
    return (a->lanes + w - 1) / w * a->warps;
}

/* The configuration `delta` strides of the current dimension from the best;
 * 0 when it lies outside the space. */
static int neighbour(const sim_asu *a, int delta, int *w, int *d)
{
    *w = a->best_w;
    *d = a->best_d;
    if (a->dim == SIM_ASU_DEPTH) {
        *d += delta * a->stride[SIM_ASU_DEPTH];
        return *d >= 1 && *d <= sim_asu_dmax(a, *w);
    }
    *w += delta * a->stride[SIM_ASU_WIDTH];
    if (*w < a->min_w || *w > a->lanes)
        return 0;
    if (*d > sim_asu_dmax(a, *w))
        *d = sim_asu_dmax(a, *w);   /* wider slices: fewer of them */
    return 1;
}

static void initial_strides(sim_asu *a)
{
    a->stride[SIM_ASU_WIDTH] = a->lanes / 2;
    a->stride[SIM_ASU_DEPTH] = sim_asu_dmax(a, a->best_w) / 2;
}

static int sample(sim_asu *a, int step, int w, int d)
{
    a->step = step;
    a->w = w;
    a->d = d;
    return 1;
}

/* Next probe pair of the current dimension, or of the next one when its
 * stride is spent; a pass that changed nothing ends the search. */
static void probe(sim_asu *a)
{
    int w, d;
    for (;;) {
        if (a->stride[a->dim] >= 1) {
            if (neighbour(a, +1, &w, &d) && sample(a, PROBE_UP, w, d))
                return;
            a->up = -1;   /* no +stride neighbour */
            if (neighbour(a, -1, &w, &d) && sample(a, PROBE_DOWN, w, d))
                return;
            a->stride[a->dim] /= 2;
            continue;
        }
        if (a->dim == SIM_ASU_DEPTH) {
            a->dim = SIM_ASU_WIDTH;
            continue;
        }
        if (!a->changed || ++a->passes >= MAX_PASSES)
            break;
        a->changed = 0;
        a->dim = SIM_ASU_DEPTH;
        initial_strides(a);
    }
    a->done = 1;
    a->w = a->best_w;
    a->d = a->best_d;
}

static void accept(sim_asu *a, double cpt)
{
    a->best = cpt;
    a->best_w = a->w;
    a->best_d = a->d;
    a->changed = 1;
}

/* Keeps stepping in a->dir while it stays in the space; else the next stride. */
static void move_on(sim_asu *a)
{
    int w, d;
    if (neighbour(a, a->dir, &w, &d)) {
        sample(a, MOVE, w, d);
        return;
    }
    a->stride[a->dim] /= 2;
    probe(a);
}

void sim_asu_start(sim_asu *a, int lanes, int warps, int min_w, int w0, int d0)
{
    *a = (sim_asu){0};
    a->lanes = lanes;
    a->warps = warps;
    a->min_w = min_w;
    a->w = a->best_w = w0;
    a->d = a->best_d = d0 > 0 && d0 <= sim_asu_dmax(a, w0) ? d0 : sim_asu_dmax(a, w0);
    a->step = FIRST;
}

void sim_asu_step(sim_asu *a, double cpt)
{
    if (a->done)
        return;
    a->samples++;
    switch (a->step) {
    case FIRST:
        a->best = cpt;
        a->dim = SIM_ASU_DEPTH;
        initial_strides(a);
        probe(a);
        return;
    case PROBE_UP: {
        int w, d;
        a->up = cpt;
        if (neighbour(a, -1, &w, &d)) {
            sample(a, PROBE_DOWN, w, d);
            return;
        }
        cpt = -1;   /* no -stride neighbour: decide on the up probe alone */
    }
        /* fall through */
    case PROBE_DOWN: {
        double up = a->up, down = cpt;
        int use_up = up >= 0 && (down < 0 || up <= down);
        double m = use_up ? up : down;
        if (m >= 0 && m < a->best) {
            a->dir = use_up ? +1 : -1;
            neighbour(a, a->dir, &a->w, &a->d);
            accept(a, m);
            move_on(a);
            return;
        }
        a->stride[a->dim] /= 2;
        probe(a);
        return;
    }
    default:   /* MOVE */
        if (cpt < a->best) {
            accept(a, cpt);
            move_on(a);
            return;
        }
        a->stride[a->dim] /= 2;
        probe(a);
    }
}
