/*
 * trapeze/cache.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Which loads to cache: the decision among Choo's cache-contention
 * policies (docs/simulator.md, "Cache contention") for one kernel on one
 * GPU. Short samples of the run measure each policy's cycles per warp
 * instruction and the baseline's contention counters (sampler/cache/); the
 * model (model/cache.c) predicts each policy's speed-up from them and
 * picks; a full simulation of each policy verifies the pick.
 */
#ifndef TRAPEZE_CACHE_H
#define TRAPEZE_CACHE_H

#include "trapeze/error.h"
#include "trapeze/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The candidates, in the order a tie goes (the simpler first). */
typedef enum {
    TRAPEZE_CACHE_NONE,          /* the baseline: every global load cached */
    TRAPEZE_CACHE_LASC,          /* LASC (-trapeze_l1d_lasc 1) */
    TRAPEZE_CACHE_PCS,           /* per-PC bypass: the loads trapeze_cache_bypass_pcs names */
    TRAPEZE_CACHE_LOC,           /* contention-aware selective caching */
    TRAPEZE_CACHE_LASC_LOC,      /* both */
    TRAPEZE_CACHE_MEMSCHED,      /* per-warp request queues, GroupedRR, k = 4 */
    TRAPEZE_CACHE_MEMSCHED_LOC,  /* with selective caching */
    TRAPEZE_CACHE_BYPASS_ALL,    /* no global load cached */
    TRAPEZE_CACHE_POLICIES
} trapeze_cache_policy;

/* "none", "lasc", "pcs", "loc", "lasc+loc", "memsched", "memsched+loc", "bypass_all" */
const char *trapeze_cache_policy_name(trapeze_cache_policy p);
/* The policy's GPU config lines (added after the GPU's), "" for none and
 * for pcs (its line, -trapeze_l1_bypass_pcs, lists the kernel's PCs). */
const char *trapeze_cache_policy_options(trapeze_cache_policy p);

#define TRAPEZE_CACHE_MAX_PCS 16   /* load PCs counted per sample (the simulator's table) */

/* One run or sample of a kernel under one policy, its launches summed. */
typedef struct trapeze_cache_counts {
    int taken;                      /* 1: measured */
    double cycles, warp_insts;
    /* the cycles at the slowest SM's pace: a windowed launch whose blocks
     * are all resident at once (one wave) ends with its slowest SM, so a
     * policy that lets some SMs race ahead is judged by the one it leaves
     * behind: cycles x the mean warp instructions per resident block over
     * the slowest SM's. = cycles for a whole run or a launch of several
     * waves (its blocks go to the SMs that free first) */
    double slowest_cycles;
    double sm_active_cycles;        /* SM cycles with a resident block */
    double refused_resource;        /* L1D probes refused for a line or an MSHR entry */
    double l1_accesses, l1_hits, l1_bypasses, l1_evictions, l1_evicted_unused;
    double miss_iw, miss_xw, miss_xb;   /* the seed's miss contention classes */
    /* per global load PC (an unsectored L1D only; a PC is its program's, so
     * the launches' counts of one PC are summed), ascending PC: requests
     * that probed the L1D, their misses (each filled a line), the filled
     * lines evicted and those never re-read; pc_shared 1 when the PC's
     * locality graph has a line read by two blocks resident on one SM
     * (the baseline's sample only) */
    int n_pcs;
    unsigned pc[TRAPEZE_CACHE_MAX_PCS];
    double pc_accesses[TRAPEZE_CACHE_MAX_PCS], pc_misses[TRAPEZE_CACHE_MAX_PCS];
    double pc_evictions[TRAPEZE_CACHE_MAX_PCS], pc_evicted_unused[TRAPEZE_CACHE_MAX_PCS];
    int pc_shared[TRAPEZE_CACHE_MAX_PCS];
    /* with a sized window (trapeze_cache_model.window_share > 0): each
     * launch's whole run predicted from its window (trapeze_cache_extrapolate
     * at the slowest SM's pace; a launch run to its end, its cycles),
     * summed; the launches' warp instructions counted from their programs
     * before they run (what the windows are a share of); and the cycles
     * and warp instructions at the windows' midpoints, summed */
    double run_cycles, run_warp_insts;
    double mid_cycles, mid_warp_insts;
} trapeze_cache_counts;

/* The model's constants, fixed before any kernel was decided (the
 * defaults of trapeze_cache_model_init). */
typedef struct trapeze_cache_model {
    /* share of the baseline sample's SM cycles its LDST unit is refused
     * for a line or an MSHR entry below which no policy is sampled: the
     * kernel has no contention to remove and keeps the baseline */
    double min_resource_stall;
    /* taken in order, a policy replaces the choice so far only if it is
     * predicted faster than it by more than this share */
    double margin;
    /* 0: a fixed window (the `window` the samples are given) and the
     * prediction from its cycles. > 0: each launch's window is this share
     * of its warp instructions, at least `window` and at most window_cap
     * (trapeze_cache_window_for), and the prediction is the launch's whole
     * run extrapolated from the window's second half (run_cycles) */
    double window_share;
    unsigned long long window_cap;
} trapeze_cache_model;

void trapeze_cache_model_init(trapeze_cache_model *m);

/* Whether the baseline sample shows contention enough for the other
 * policies to be sampled (its resource stall share at least the model's). */
int trapeze_cache_contended(const trapeze_cache_model *m, const trapeze_cache_counts *base);

/* The PCs the pcs candidate bypasses (into pcs, TRAPEZE_CACHE_MAX_PCS at
 * most; returns how many): those whose filled lines, evicted in the
 * baseline's sample, were mostly never re-read (more than half of at least
 * one), unless the locality graph shows their data shared by blocks
 * resident on one SM (pc_shared: reuse a window may not reach). */
int trapeze_cache_bypass_pcs(const trapeze_cache_counts *base, unsigned *pcs);

/* Whether policy p is sampled and predicted: the baseline and memsched
 * always (per-warp queues change the order the requests reach the L1D, L2
 * and DRAM in, which moves kernels whose L1D refuses nothing), the
 * policies that change what the L1D caches only with contention, pcs only
 * when it bypasses some PC. */
int trapeze_cache_sampled(const trapeze_cache_model *m, const trapeze_cache_counts *base,
                          trapeze_cache_policy p);

typedef struct trapeze_cache_decision {
    trapeze_cache_counts sample[TRAPEZE_CACHE_POLICIES];   /* [NONE] always taken */
    int contended;                  /* trapeze_cache_contended of sample[NONE] */
    double resource_stall;          /* sample[NONE]'s refused_resource / sm_active_cycles */
    /* the speed-up over the baseline each policy is predicted to give the
     * whole run: its sample's slowest_cycles per warp instruction against
     * the baseline's; 1 for a policy not sampled (trapeze_cache_sampled) */
    double predicted_speedup[TRAPEZE_CACHE_POLICIES];
    trapeze_cache_policy choice;
    int n_bypass_pcs;               /* trapeze_cache_bypass_pcs of sample[NONE] */
    unsigned bypass_pcs[TRAPEZE_CACHE_MAX_PCS];
} trapeze_cache_decision;

/* Predicts and picks from d->sample (sample[NONE] taken, and every policy's
 * that trapeze_cache_sampled names). TRAPEZE_EINVAL naming the policy when a
 * sample it needs is missing or has no cycles or instructions. */
trapeze_status trapeze_cache_decide(const trapeze_cache_model *m, trapeze_cache_decision *d,
                                    trapeze_error *err);

/* The window a sample runs one launch of launch_insts warp instructions
 * to: `window`, or 0 (to the launch's end) when less than one more window
 * would be left after it (launch_insts < 2 x window), so that a launch
 * just longer than the window is not judged without its tail; such a
 * launch then costs at most twice the window. launch_insts 0 (not known)
 * or window 0 (a whole run): `window`. */
unsigned long long trapeze_cache_launch_window(double launch_insts, unsigned long long window);

/* The window a sample runs one launch of launch_insts warp instructions to
 * under model m: with m->window_share 0, trapeze_cache_launch_window(
 * launch_insts, window); else the share of launch_insts, raised to `window`
 * and lowered to m->window_cap (when above `window`), then placed by
 * trapeze_cache_launch_window (0: to the launch's end). window 0 (a whole
 * run) stays 0. */
unsigned long long trapeze_cache_window_for(const trapeze_cache_model *m, double launch_insts,
                                            unsigned long long window);

/* A launch's whole-run cycles predicted from its window: `cycles` after
 * `insts` warp instructions, `mid_cycles` after `mid_insts` (the window's
 * midpoint), of a launch of launch_insts: the window's cycles (its start,
 * where caches fill and queues form, counted once) plus the rest of the
 * launch at the second half's cycles per warp instruction. `cycles` when
 * the window reached the launch's end (insts >= launch_insts) or the
 * second half is empty. */
double trapeze_cache_extrapolate(double mid_cycles, double mid_insts, double cycles,
                                 double insts, double launch_insts);

/* Built-in kernel `kernel` (settings "name=value") on the GPU config `gpu`
 * (a file, folder or comma list, as trapeze_config_load) under policy p
 * with the contention counters on, its launches summed: each launch alone
 * on a fresh GPU up to `window` warp instructions (or to its end, as
 * trapeze_cache_launch_window places it); 0: the whole run. Policy pcs
 * bypasses the n_pcs PCs of pcs (ignored for the others). The baseline's
 * sample also gives each PC's pc_shared from its locality graph. Each
 * simulation splits its cycles across `threads` (trapeze_sim_options.threads;
 * 0 or 1: one): the same counts for any. */
trapeze_status trapeze_cache_sample(const char *gpu, const char *kernel, char *const *settings,
                                    int n_settings, trapeze_cache_policy p, const unsigned *pcs,
                                    int n_pcs, unsigned long long window, int threads,
                                    trapeze_cache_counts *out, trapeze_error *err);
/* The same with each launch's window placed by trapeze_cache_window_for(m,
 * ...) (m NULL: as trapeze_cache_sample) and out's run_cycles filled. */
trapeze_status trapeze_cache_sample_sized(const trapeze_cache_model *m, const char *gpu,
                                          const char *kernel, char *const *settings,
                                          int n_settings, trapeze_cache_policy p,
                                          const unsigned *pcs, int n_pcs,
                                          unsigned long long window, int threads,
                                          trapeze_cache_counts *out, trapeze_error *err);

/* The whole decision: the baseline's sample, the others' when contended
 * (one after another, each on `threads`), then trapeze_cache_decide. */
trapeze_status trapeze_cache_choose(const trapeze_cache_model *m, const char *gpu,
                                    const char *kernel, char *const *settings, int n_settings,
                                    unsigned long long window, int threads,
                                    trapeze_cache_decision *d, trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
