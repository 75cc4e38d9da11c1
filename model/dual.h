/*
 * dual.h - forward-mode differentiation for the closed-form models: a value
 * carried with its exact partial derivatives in every model variable. Each
 * model's equations are written once over its own dual type and yield the
 * value and its analytic gradient together (tests compare with finite
 * differences). Only arithmetic lives here; no model knowledge.
 *
 * TRAPEZE_DUAL_DEFINE(T, P, N) generates a fixed-width dual type T with N
 * partials and its arithmetic as static inline functions P_const, P_var,
 * P_add, P_sub, P_mul, P_div, P_scale, P_powi, P_pow, P_exp, P_log,
 * P_sigmoid. Each model picks the width it needs, so every type stays
 * fixed-size (no allocation) and the loops unroll. The ghost-zone model
 * defines its widths below.
 *
 * The partials come first and the value last: the loops store the partials
 * in pairs from the struct's start, where a copy of the struct reads them,
 * so each read finds one whole store to forward. With the value first, every
 * pair straddled two stores, and the ghost-zone model's full gradient ran at
 * half the speed (bench/bench_model.c). Each lane is computed alone, so
 * the layout and the width change no bit of any lane.
 */
#ifndef TRAPEZE_MODEL_DUAL_H
#define TRAPEZE_MODEL_DUAL_H

#include <math.h>

#include "trapeze.h"

#define TRAPEZE_DUAL_DEFINE(T, P, N)                                                   \
    typedef struct {                                                                   \
        double d[N];                                                                   \
        double v;                                                                      \
    } T;                                                                               \
    static inline T P##_const(double v)                                                \
    {                                                                                  \
        T r = {.v = v};                                                                \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_var(double v, int var)                                         \
    {                                                                                  \
        T r = {.v = v};                                                                \
        r.d[var] = 1.0;                                                                \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_add(T a, T b)                                                  \
    {                                                                                  \
        T r = {.v = a.v + b.v};                                                        \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = a.d[i] + b.d[i];                                                  \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_sub(T a, T b)                                                  \
    {                                                                                  \
        T r = {.v = a.v - b.v};                                                        \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = a.d[i] - b.d[i];                                                  \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_mul(T a, T b)                                                  \
    {                                                                                  \
        T r = {.v = a.v * b.v};                                                        \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = a.d[i] * b.v + a.v * b.d[i];                                      \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_div(T a, T b)                                                  \
    {                                                                                  \
        T r = {.v = a.v / b.v};                                                        \
        double inv2 = 1.0 / (b.v * b.v);                                               \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = (a.d[i] * b.v - a.v * b.d[i]) * inv2;                             \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_scale(T a, double k)                                           \
    {                                                                                  \
        T r = {.v = a.v * k};                                                          \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = a.d[i] * k;                                                       \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_powi(T a, int n)                                               \
    {                                                                                  \
        T r = P##_const(1.0);                                                          \
        for (int i = 0; i < n; i++)                                                    \
            r = P##_mul(r, a);                                                         \
        return r;                                                                      \
    }                                                                                  \
    /* a^b for a > 0, both duals: exp(b ln a). */                                      \
    static inline T P##_pow(T a, T b)                                                  \
    {                                                                                  \
        double la = log(a.v), v = exp(b.v * la);                                       \
        T r = {.v = v};                                                                \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = v * (b.d[i] * la + b.v * a.d[i] / a.v);                           \
        return r;                                                                      \
    }                                                                                  \
    /* f(a) with f(a.v) = fv and f'(a.v) = fd: the chain rule, once. */               \
    static inline T P##_apply(T a, double fv, double fd)                               \
    {                                                                                  \
        T r = {.v = fv};                                                               \
        for (int i = 0; i < (N); i++)                                                  \
            r.d[i] = fd * a.d[i];                                                      \
        return r;                                                                      \
    }                                                                                  \
    static inline T P##_exp(T a)                                                       \
    {                                                                                  \
        double e = exp(a.v);                                                           \
        return P##_apply(a, e, e);                                                     \
    }                                                                                  \
    static inline T P##_log(T a) { return P##_apply(a, log(a.v), 1.0 / a.v); }         \
    /* 1 / (1 + e^-a): the relaxed indicator of smooth threshold models. */           \
    static inline T P##_sigmoid(T a)                                                   \
    {                                                                                  \
        double s = a.v >= 0 ? 1.0 / (1.0 + exp(-a.v)) : exp(a.v) / (1.0 + exp(a.v));  \
        return P##_apply(a, s, s * (1.0 - s));                                         \
    }

/* The ghost-zone model's variables: h, blk_len, then the parameter vector. */
enum { GZ_VAR_H, GZ_VAR_BLK, GZ_VAR_PARAM0, GZ_NVARS = GZ_VAR_PARAM0 + TRAPEZE_GHOSTZONE_NPARAMS };

/* The ghost-zone model's widths (model/ghostzone_eqs.h, compiled once per
 * width). An evaluation with parameter partials gives lanes only to the
 * parameters its sync mode and switches read (model/ghostzone.c,
 * live_lanes): at most 10 with relaunch and 14 with fences, so the fit's
 * Jacobian runs at width 12, 14 or 16 (the defaults read 9 and 12); every
 * variable (gz_dual, 22: h, blk_len and the 20 parameters; a lane that
 * stays 0 when their count is odd) is the reference the tests compare those with. Each
 * width is even: an odd one leaves the last lane's pair straddling the value,
 * and a copy that reads the pair waits for two stores (19 lanes unpadded ran
 * 27% slower than 20). gz_dual_hb: h and blk_len only, for the optimizer. */
TRAPEZE_DUAL_DEFINE(gz_dual, dual, GZ_NVARS + GZ_NVARS % 2)
TRAPEZE_DUAL_DEFINE(gz_dual_p10, dual_p10, GZ_VAR_PARAM0 + 10)
TRAPEZE_DUAL_DEFINE(gz_dual_p12, dual_p12, GZ_VAR_PARAM0 + 12)
TRAPEZE_DUAL_DEFINE(gz_dual_p14, dual_p14, GZ_VAR_PARAM0 + 14)
TRAPEZE_DUAL_DEFINE(gz_dual_hb, dual_hb, GZ_VAR_PARAM0)

#endif
