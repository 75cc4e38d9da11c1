/*
 * dual.h - forward-mode differentiation for the closed-form models: a value
 * carried with its exact partial derivatives in every model variable. The
 * model's equations are written once, over gz_dual, and yield CPL and its
 * analytic gradient together (tests compare it with finite differences).
 * Only arithmetic lives here; no model knowledge.
 */
#ifndef TRAPEZE_MODEL_DUAL_H
#define TRAPEZE_MODEL_DUAL_H

#include <math.h>

#include "trapeze.h"

/* Variables: h, blk_len, then the parameter vector. */
enum { GZ_VAR_H, GZ_VAR_BLK, GZ_VAR_PARAM0, GZ_NVARS = GZ_VAR_PARAM0 + TRAPEZE_GZ_NPARAMS };

typedef struct {
    double v;
    double d[GZ_NVARS];
} gz_dual;

static inline gz_dual dual_const(double v)
{
    gz_dual r = {.v = v};
    return r;
}

static inline gz_dual dual_var(double v, int var)
{
    gz_dual r = {.v = v};
    r.d[var] = 1.0;
    return r;
}

static inline gz_dual dual_add(gz_dual a, gz_dual b)
{
    gz_dual r = {.v = a.v + b.v};
    for (int i = 0; i < GZ_NVARS; i++)
        r.d[i] = a.d[i] + b.d[i];
    return r;
}

static inline gz_dual dual_sub(gz_dual a, gz_dual b)
{
    gz_dual r = {.v = a.v - b.v};
    for (int i = 0; i < GZ_NVARS; i++)
        r.d[i] = a.d[i] - b.d[i];
    return r;
}

static inline gz_dual dual_mul(gz_dual a, gz_dual b)
{
    gz_dual r = {.v = a.v * b.v};
    for (int i = 0; i < GZ_NVARS; i++)
        r.d[i] = a.d[i] * b.v + a.v * b.d[i];
    return r;
}

static inline gz_dual dual_div(gz_dual a, gz_dual b)
{
    gz_dual r = {.v = a.v / b.v};
    double inv2 = 1.0 / (b.v * b.v);
    for (int i = 0; i < GZ_NVARS; i++)
        r.d[i] = (a.d[i] * b.v - a.v * b.d[i]) * inv2;
    return r;
}

static inline gz_dual dual_scale(gz_dual a, double k)
{
    gz_dual r = {.v = a.v * k};
    for (int i = 0; i < GZ_NVARS; i++)
        r.d[i] = a.d[i] * k;
    return r;
}

static inline gz_dual dual_powi(gz_dual a, int n)
{
    gz_dual r = dual_const(1.0);
    for (int i = 0; i < n; i++)
        r = dual_mul(r, a);
    return r;
}

/* a^b for a > 0, both duals: exp(b ln a). */
static inline gz_dual dual_pow(gz_dual a, gz_dual b)
{
    double la = log(a.v), v = exp(b.v * la);
    gz_dual r = {.v = v};
    for (int i = 0; i < GZ_NVARS; i++)
        r.d[i] = v * (b.d[i] * la + b.v * a.d[i] / a.v);
    return r;
}

#endif
