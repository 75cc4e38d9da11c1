/*
 * clock.h - a clock domain advanced from the core clock with exact integer
 * arithmetic: tick k of a domain with frequency f_d falls in core cycle
 * floor(k * f_core / f_d), so there is no floating-point drift and ticks can
 * be jumped over in O(1) when the domain is idle. Owns tick accounting only.
 */
#ifndef TRAPEZE_SIM_MEM_CLOCK_H
#define TRAPEZE_SIM_MEM_CLOCK_H

#include <stdint.h>

typedef struct sim_clock {
    uint64_t num, den;   /* f_domain / f_core, reduced */
    uint64_t next;       /* the next tick not yet run */
} sim_clock;

static inline uint64_t sim_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static inline void sim_clock_init(sim_clock *c, uint64_t f_domain, uint64_t f_core)
{
    uint64_t g = sim_gcd(f_domain, f_core);
    c->num = f_domain / g;
    c->den = f_core / g;
    c->next = 0;
}

/* The core cycle in which tick k runs. In 64 bits while the product fits
 * (operands under 2^32: every run's ticks and a MHz ratio), the same
 * quotient without the 128-bit division's library call (__udivti3). */
static inline uint64_t sim_clock_core_cycle(const sim_clock *c, uint64_t k)
{
    if (((k | c->den) >> 32) == 0)
        return k * c->den / c->num;
    return (uint64_t)(((unsigned __int128)k * c->den) / c->num);
}

/* The number of ticks that run in core cycles 0..cycle: the first tick k
 * with floor(k*den/num) > cycle, i.e. ceil((cycle+1)*num/den). In 64 bits
 * as above (operands under 2^31: the sum stays under 2^63). */
static inline uint64_t sim_clock_ticks_through(const sim_clock *c, uint64_t cycle)
{
    if ((((cycle + 1) | c->num | c->den) >> 31) == 0)
        return ((cycle + 1) * c->num + c->den - 1) / c->den;
    return (uint64_t)(((unsigned __int128)(cycle + 1) * c->num + c->den - 1) / c->den);
}

/* Domain cycles -> core cycles, rounded up (for reporting peaks and bounds). */
static inline double sim_clock_ratio(const sim_clock *c) { return (double)c->num / (double)c->den; }

#endif
