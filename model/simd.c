/*
 * simd.c - the width-and-depth model's equations, fit and pick (simd.h
 * gives them). Pure arithmetic on sample counters; never runs anything.
 */
#include <math.h>

#include "common/error.h"
#include "model/simd.h"

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The three terms of (w, d), per thread instruction. */
static void terms(const trapeze_simd_model *m, int w, int d, double t[3])
{
    double u = pow(m->u32, log2((double)w) / 5.0);
    double threads = (double)w * d;
    double miss = m->m_a + m->m_slope * (threads - m->t_a);
    t[0] = 1.0 / ((double)w * u * m->n_sched);
    t[1] = m->a32 * pow(32.0 / w, m->c);
    /* streams waiting apart: a warp's worth of threads each, more for narrow
     * slices only where lanes touch lines of their own (c < 1) */
    double streams = threads / 32.0 * pow(32.0 / w, 1.0 - m->c);
    t[2] = (miss > 0 ? miss : 0) * m->lat / streams;
}

static double combine(const double t[3], double v)
{
    double mx = fmax(t[0], fmax(t[1], t[2]));
    return mx + v * (t[0] + t[1] + t[2] - mx);
}

trapeze_status trapeze_simd_fit(const trapeze_simd_sample *a, const trapeze_simd_sample *b,
                                int n_sched, trapeze_simd_model *m, trapeze_error *err)
{
    if (a->thread_insts <= 0 || a->warp_insts <= 0 || b->thread_insts <= 0 ||
        a->threads == b->threads || a->depth < 1 || n_sched < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "simd model: the samples need instructions "
                                                 "and two different thread counts");
    m->n_sched = n_sched;
    m->u32 = clamp(a->thread_insts / (32.0 * a->warp_insts), 1.0 / 32, 1.0);
    m->a32 = a->l1_accesses / a->thread_insts;
    /* lines per 32-wide instruction: 1 coalesced (c = 1) .. 32 scattered (c = 0) */
    double lines = a->l1_accesses / a->warp_insts;
    m->c = clamp(1.0 - log2(lines > 1 ? lines : 1) / 5.0, 0, 1);
    m->t_a = a->threads;
    m->m_a = a->l1_misses / a->thread_insts;
    m->m_slope = (m->m_a - b->l1_misses / b->thread_insts) / (double)(a->threads - b->threads);
    double cpt = a->cycles / a->thread_insts;
    double mem = clamp(a->mem_share, 0, 1) * cpt;
    m->lat = m->m_a > 0 ? mem * a->depth / m->m_a : 0;
    /* v: what of the other terms the first sample did not hide */
    double t[3];
    m->v = 0;
    terms(m, 32, a->depth, t);
    double mx = fmax(t[0], fmax(t[1], t[2])), rest = t[0] + t[1] + t[2] - mx;
    m->v = rest > 0 ? clamp((cpt - mx) / rest, 0, 1) : 0;
    return TRAPEZE_OK;
}

double trapeze_simd_predict(const trapeze_simd_model *m, int w, int d)
{
    double t[3];
    terms(m, w, d, t);
    return combine(t, m->v);
}

int trapeze_simd_pick(const trapeze_simd_model *m, const int *w, const int *d, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (trapeze_simd_predict(m, w[i], d[i]) < trapeze_simd_predict(m, w[best], d[best]))
            best = i;
    return best;
}
