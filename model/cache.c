/*
 * cache.c - the cache-contention decision (include/trapeze/cache.h): from
 * the samples' counts, each policy's predicted speed-up over the baseline
 * and the pick. Owns the screen (no policy that changes what the L1D caches
 * is worth sampling when the baseline's LDST unit is seldom refused for L1
 * resources: the seed's "kernels without contention stay within 2%";
 * memsched, which changes the order of the requests, always is), the
 * prediction (a sample's
 * cycles per warp instruction against the baseline's, both at their
 * slowest SM's pace: the policies change the cycles, never the
 * instructions, and a one-wave launch ends with its slowest SM), the
 * PCs the pcs candidate bypasses and the tie rule (the simpler policy
 * unless a later one is faster by more than the margin), where a
 * sample's window ends in a launch (trapeze_cache_launch_window; sized as
 * a share of it, trapeze_cache_window_for) and a launch's run predicted
 * from its window's two halves (trapeze_cache_extrapolate). Must
 * not simulate (the samples are sampler/cache/'s) nor know the policies' options
 * beyond their names and config lines.
 */
#include <stddef.h>

#include "common/error.h"
#include "trapeze.h"

static const struct {
    const char *name, *options;
} policies[TRAPEZE_CACHE_POLICIES] = {
    [TRAPEZE_CACHE_NONE] = {"none", ""},
    [TRAPEZE_CACHE_LASC] = {"lasc", "-trapeze_l1d_lasc 1\n"},
    [TRAPEZE_CACHE_PCS] = {"pcs", ""},   /* its PCs are the kernel's: the sampler adds them */
    [TRAPEZE_CACHE_LOC] = {"loc", "-trapeze_l1d_select loc\n"},
    [TRAPEZE_CACHE_LASC_LOC] = {"lasc+loc", "-trapeze_l1d_lasc 1\n-trapeze_l1d_select loc\n"},
    [TRAPEZE_CACHE_MEMSCHED] = {"memsched", "-trapeze_ldst_sched grr\n"},
    [TRAPEZE_CACHE_MEMSCHED_LOC] = {"memsched+loc",
                                    "-trapeze_ldst_sched grr\n-trapeze_l1d_select loc\n"},
    [TRAPEZE_CACHE_BYPASS_ALL] = {"bypass_all", "-trapeze_l1d_select bypass_all\n"},
};

const char *trapeze_cache_policy_name(trapeze_cache_policy p)
{
    return p >= 0 && p < TRAPEZE_CACHE_POLICIES ? policies[p].name : "?";
}

const char *trapeze_cache_policy_options(trapeze_cache_policy p)
{
    return p >= 0 && p < TRAPEZE_CACHE_POLICIES ? policies[p].options : "";
}

unsigned long long trapeze_cache_launch_window(double launch_insts, unsigned long long window)
{
    /* a window that stops short of the end leaves out a tail whose
     * requests (the last rows' misses) can be what tells the policies
     * apart; running to the end costs under one window more */
    return window && launch_insts > 0 && launch_insts < 2.0 * (double)window ? 0 : window;
}

unsigned long long trapeze_cache_window_for(const trapeze_cache_model *m, double launch_insts,
                                            unsigned long long window)
{
    if (!m || !(m->window_share > 0) || !window || !(launch_insts > 0))
        return trapeze_cache_launch_window(launch_insts, window);
    double w = m->window_share * launch_insts;
    if (m->window_cap > window && w > (double)m->window_cap)
        w = (double)m->window_cap;
    unsigned long long sized = w > (double)window ? (unsigned long long)w : window;
    return trapeze_cache_launch_window(launch_insts, sized);
}

double trapeze_cache_extrapolate(double mid_cycles, double mid_insts, double cycles,
                                 double insts, double launch_insts)
{
    /* a policy's start (cold lines, queues filling, LASC's tables
     * learning) can cost it more than the rest of its run at the same
     * rate would: counted once, the rest goes at the later rate */
    if (!(launch_insts > insts) || !(insts > mid_insts) || !(cycles > mid_cycles))
        return cycles;
    return cycles + (launch_insts - insts) * (cycles - mid_cycles) / (insts - mid_insts);
}

void trapeze_cache_model_init(trapeze_cache_model *m)
{
    m->min_resource_stall = 0.05;
    m->margin = 0.02;
    m->window_share = 0;        /* the fixed window unless asked (trapeze cache --window-share) */
    m->window_cap = 400000;
}

static double resource_stall(const trapeze_cache_counts *c)
{
    return c->sm_active_cycles > 0 ? c->refused_resource / c->sm_active_cycles : 0.0;
}

int trapeze_cache_contended(const trapeze_cache_model *m, const trapeze_cache_counts *base)
{
    return resource_stall(base) >= m->min_resource_stall;
}

int trapeze_cache_bypass_pcs(const trapeze_cache_counts *base, unsigned *pcs)
{
    int n = 0;
    for (int i = 0; i < base->n_pcs && i < TRAPEZE_CACHE_MAX_PCS; i++)
        /* most of its evicted lines were never read again: the fill bought
         * little, and took a frame another load's line could have reused;
         * unless blocks that share an SM read the same lines, a reuse the
         * window may see too little of to count */
        if (base->pc_evictions[i] > 0 && 2.0 * base->pc_evicted_unused[i] > base->pc_evictions[i] &&
            !base->pc_shared[i])
            pcs[n++] = base->pc[i];
    return n;
}

int trapeze_cache_sampled(const trapeze_cache_model *m, const trapeze_cache_counts *base,
                          trapeze_cache_policy p)
{
    unsigned pcs[TRAPEZE_CACHE_MAX_PCS];
    if (p == TRAPEZE_CACHE_PCS)
        return trapeze_cache_contended(m, base) && trapeze_cache_bypass_pcs(base, pcs) > 0;
    return p == TRAPEZE_CACHE_NONE || p == TRAPEZE_CACHE_MEMSCHED ||
           trapeze_cache_contended(m, base);
}

static trapeze_status usable(const trapeze_cache_counts *c, trapeze_cache_policy p,
                             trapeze_error *err)
{
    if (!c->taken)
        return trapeze_fail(err, TRAPEZE_EINVAL, "cache decision: no sample of policy %s",
                            trapeze_cache_policy_name(p));
    if (!(c->slowest_cycles > 0) || !(c->warp_insts > 0))
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "cache decision: the sample of policy %s has %g cycles at its "
                            "slowest SM's pace and %g warp instructions (both must be positive)",
                            trapeze_cache_policy_name(p), c->slowest_cycles, c->warp_insts);
    return TRAPEZE_OK;
}

trapeze_status trapeze_cache_decide(const trapeze_cache_model *m, trapeze_cache_decision *d,
                                    trapeze_error *err)
{
    const trapeze_cache_counts *base = &d->sample[TRAPEZE_CACHE_NONE];
    trapeze_status s = usable(base, TRAPEZE_CACHE_NONE, err);
    if (s)
        return s;
    d->resource_stall = resource_stall(base);
    d->contended = trapeze_cache_contended(m, base);
    d->n_bypass_pcs = trapeze_cache_bypass_pcs(base, d->bypass_pcs);
    double cpi0 = base->slowest_cycles / base->warp_insts;
    int sized = m->window_share > 0 && base->run_cycles > 0;
    for (int p = 0; p < TRAPEZE_CACHE_POLICIES; p++) {
        d->predicted_speedup[p] = 1.0;
        if (p == TRAPEZE_CACHE_NONE || !trapeze_cache_sampled(m, base, (trapeze_cache_policy)p))
            continue;
        const trapeze_cache_counts *c = &d->sample[p];
        if ((s = usable(c, (trapeze_cache_policy)p, err)))
            return s;
        if (sized && !(c->run_cycles > 0))
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "cache decision: the sample of policy %s has no predicted run",
                                trapeze_cache_policy_name((trapeze_cache_policy)p));
        /* every policy runs the same instructions: the runs' cycles compare */
        d->predicted_speedup[p] = sized ? base->run_cycles / c->run_cycles
                                        : cpi0 / (c->slowest_cycles / c->warp_insts);
    }
    /* in order, a policy replaces the choice only when faster by the margin */
    d->choice = TRAPEZE_CACHE_NONE;
    for (int p = 1; p < TRAPEZE_CACHE_POLICIES; p++)
        if (d->predicted_speedup[p] > d->predicted_speedup[d->choice] * (1.0 + m->margin))
            d->choice = (trapeze_cache_policy)p;
    return TRAPEZE_OK;
}
