/*
 * bench_warm_age.c - why a warm later window of GTX 480 copy misses the
 * run's long dead register periods: the dead register periods (a warp
 * register's last access to its block's release) that end in each
 * stretch of the launch, with their share of 1025-2048 cycles and the
 * mean time a block holds its slot (an SM's (k + per_sm)-th placement
 * less its k-th), for the whole run by the launch's age and for the warm
 * sample's GPU (the first window to a tenth of the run's warp
 * instructions, then its dispatcher moved to the first later window's
 * block, sim_gpu_launch_skip) at the cycles it reaches. Prints figures;
 * asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trapeze.h"
#include "bench/bench_common.h"

#define STRETCH 20000   /* cycles of one printed row */
#define MAX_SM 64
/* The first later window's block, where the capped warm sample places it
 * (sim_sleep_jump_warm: wave 17, from 0, of copy's 46; `trapeze sleep --gpu
 * gtx480 copy --cap 0.25 --warm`) */
#define LATER_BLOCK 1530

/* Each SM's placement times, for the slot-holding time of a stretch. */
typedef struct {
    uint64_t *at[MAX_SM];
    long n[MAX_SM];
    long size;
} places;

static void on_place(void *ctx, int sm, long block, uint64_t cycle)
{
    places *p = ctx;
    (void)block;
    if (sm < 0 || sm >= MAX_SM || p->n[sm] >= p->size)
        return;
    p->at[sm][p->n[sm]++] = cycle;
}

/* Dead register periods that ended since `before`, all and 1025-2048. */
static void dead_since(const sim_idle_hist *now, const sim_idle_hist *before, double *all,
                       double *long_)
{
    *all = *long_ = 0;
    for (int b = 0; b < SIM_IDLE_BINS; b++) {
        uint64_t lo, hi;
        sim_idle_bin_range(b, &lo, &hi);
        double n = (double)(now->bin[SIM_NEXT_DEAD][b].count - before->bin[SIM_NEXT_DEAD][b].count);
        *all += n;
        if (lo > 1024 && hi <= 2048)
            *long_ += n;
    }
}

/* Mean slot-holding time of the placements in [a, b) that took a slot
 * an earlier placement of the same SM left. */
static double slot_time(const places *p, int n_sm, int per_sm, uint64_t a, uint64_t b)
{
    double sum = 0, n = 0;
    for (int s = 0; s < n_sm && s < MAX_SM; s++)
        for (long k = per_sm; k < p->n[s]; k++)
            if (p->at[s][k] >= a && p->at[s][k] < b) {
                sum += (double)(p->at[s][k] - p->at[s][k - per_sm]);
                n++;
            }
    return n > 0 ? sum / n : 0;
}

/* Rows of STRETCH cycles from the launch's current cycle to `until` (0:
 * its end). */
static void rows(const char *tag, sim_launch *l, const places *p, int n_sm, int per_sm,
                 uint64_t until, trapeze_error *err)
{
    sim_events *ev = sim_gpu_events(l->g);
    while (l->running && (!until || l->t < until)) {
        sim_idle_hist before = *sim_events_hist(ev, SIM_UNIT_REG);
        uint64_t a = l->t;
        if (sim_launch_run_until(l, a + STRETCH, err))
            return;
        uint64_t b = l->running ? l->t : l->end;
        double all, long_;
        dead_since(sim_events_hist(ev, SIM_UNIT_REG), &before, &all, &long_);
        printf("  %-5s %7llu-%7llu  dead %6.0f  of 1025-2048 cycles %5.0f (%5.1f%%)  slot held %5.0f\n",
               tag, (unsigned long long)a, (unsigned long long)b, all, long_,
               all > 0 ? 100 * long_ / all : 0, slot_time(p, n_sm, per_sm, a, b));
    }
}

/* Mode 0: the whole run; 1: the warm sample's GPU to `until`. */
static int job(const trapeze_config *cfg, int mode, double first_insts, uint64_t until,
               double *insts)
{
    trapeze_error err;
    places p;
    memset(&p, 0, sizeof p);
    p.size = 4096;
    for (int s = 0; s < MAX_SM; s++)
        if (!(p.at[s] = malloc((size_t)p.size * sizeof *p.at[s])))
            return 1;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.keep_idle = 1;
    opt.on_place = on_place;
    opt.on_place_ctx = &p;
    sim_gpu *g = NULL;
    sim_kernel *k = NULL;
    sim_kernel_stats st;
    sim_launch l;
    memset(&st, 0, sizeof st);
    int rc = 1;
    if (bench_builtin_opt(cfg, "copy", 0, NULL, &opt, &g, &k, &err) ||
        sim_gpu_launch_begin(g, k, &st, &l, &err))
        goto out;
    const char *why;
    int n_sm = sim_gpu_config(g)->gpu.n_sm, per_sm = sim_occupancy(sim_gpu_config(g), k, &why);
    if (mode == 0) {
        rows("run", &l, &p, n_sm, per_sm, 0, &err);
        *insts = (double)sim_gpu_launch_warp_insts(&l);
    } else {
        long fb = LATER_BLOCK;
        if (sim_launch_run_until_insts(&l, (uint64_t)first_insts, &err))
            goto cut;
        printf("  warm: the first window ends at cycle %llu; the dispatcher moved to block %ld\n",
               (unsigned long long)l.t, fb);
        if (sim_gpu_launch_skip(&l, 0, fb, &err))
            goto cut;
        rows("warm", &l, &p, n_sm, per_sm, until, &err);
    }
    rc = l.status != TRAPEZE_OK;
cut:
    sim_gpu_launch_cut(&l);
out:
    if (rc)
        fprintf(stderr, "bench_warm_age: %s\n", err.message);
    sim_kernel_destroy(k);
    sim_gpu_destroy(g);
    for (int s = 0; s < MAX_SM; s++)
        free(p.at[s]);
    return rc;
}

int main(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err)) {
        fprintf(stderr, "bench_warm_age: %s\n", err.message);
        return 1;
    }
    double insts = 0;
    printf("GTX 480 copy (4096 blocks, 90 at once): dead register periods ending in each "
           "stretch of %d cycles\n", STRETCH);
    int rc = job(cfg, 0, 0, 0, &insts);
    if (!rc)
        rc = job(cfg, 1, 0.1 * insts, 100000, &insts);
    trapeze_config_destroy(cfg);
    return rc;
}
