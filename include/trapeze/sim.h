/*
 * trapeze/sim.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * The cycle-level simulator's public face (sim/api.c): a simulator from a
 * config, its runs (built-in kernels, traces, stencils) and their statistics.
 */
#ifndef TRAPEZE_SIM_H
#define TRAPEZE_SIM_H

#include <stddef.h>
#include <stdio.h>
#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/power.h"
#include "trapeze/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A cycle-level GPU simulator built from a config. Every run (a built-in
 * kernel sequence, an Accel-Sim trace, a ghost-zone stencil workload)
 * continues on the same GPU: the first launch starts at cycle 0, each later
 * one after the config's kernel launch latency. Statistics of every launch
 * are kept until the simulator is destroyed. One simulator per thread;
 * separate simulators share nothing. */
typedef struct trapeze_sim trapeze_sim;

/* Where a run stands, for a progress display: the launch running, its
 * number in this run (from 1) of how many the run has, cycles into the
 * launch and its blocks done. Reported when a launch begins and now and then
 * during it. */
typedef struct trapeze_sim_progress_info {
    const char *kernel;
    int launch, launches;
    unsigned long long cycle, blocks_done, blocks;
} trapeze_sim_progress_info;

typedef void (*trapeze_sim_progress)(void *ctx, const trapeze_sim_progress_info *p);

typedef struct trapeze_sim_options {
    int ideal_memory_cycles;       /* > 0: every memory request answered after this many
                                      core cycles, nothing refused (isolates the SMs) */
    const char *tb_grouping;       /* not NULL: the explicit TB dispatch policy with this
                                      grouping file (tb,group,order), whatever the config says */
    trapeze_sim_progress progress; /* now and then during a launch; may be NULL */
    void *progress_ctx;
    /* energy: a power description (NULL: no energy accounting; copied),
     * sleep policies by structure (NULL entries: the config's
     * -trapeze_sleep_* options; the text of --sleep-l1d etc.), and whether
     * to keep idle-period histograms for trapeze_sim_write_idle_csv */
    const trapeze_power *power;
    const char *sleep[TRAPEZE_PS_SLEEPABLE];
    int keep_idle;
    /* > 1: split each simulated cycle across this many threads (the SMs
     * shared among them, the memory system's partitions in their own phase);
     * every result is byte-identical to one thread. 0 or 1: one thread.
     * With ideal_memory_cycles, one thread runs. */
    int threads;
} trapeze_sim_options;

/* Every field to its default: no ideal memory, the config's TB dispatch, no
 * progress, no energy accounting, the config's sleep policies, no idle
 * histograms. Call it first, then set the fields wanted: a field added in a
 * later version then keeps its default in a program written before it. */
void trapeze_sim_options_init(trapeze_sim_options *o);

/* o may be NULL. The config must outlive the simulator. */
trapeze_status trapeze_sim_create(const trapeze_config *cfg, const trapeze_sim_options *o,
                                  trapeze_sim **out, trapeze_error *err);
void trapeze_sim_destroy(trapeze_sim *sim);

/* Built-in kernels (trapeze sim --list): i from 0 while the name is not
 * NULL; parameter j of kernel i likewise, with its default. */
const char *trapeze_sim_builtin(int i, const char **help);
const char *trapeze_sim_builtin_param(int i, int j, long *default_value, const char **help);
/* Checks a built-in's name and "name=value" settings without running. */
trapeze_status trapeze_sim_builtin_check(const char *name, int n, char *const *settings,
                                         trapeze_error *err);
/* Builds the built-in's kernel sequence for this GPU and runs it. */
trapeze_status trapeze_sim_run_builtin(trapeze_sim *sim, const char *name, int n,
                                       char *const *settings, trapeze_error *err);
/* Runs the kernels of an Accel-Sim kernelslist.g in order, one trace open
 * at a time. */
trapeze_status trapeze_sim_run_trace(trapeze_sim *sim, const char *kernelslist,
                                     trapeze_error *err);

/* A ghost-zone stencil workload at height h: relaunch runs one kernel per
 * stage; fence one persistent kernel sized to what the GPU holds at once.
 * cycles_per_loop = cycles / iterations with every launch and the launch
 * latency before each (warm-up included), unlike the samples log's
 * cpl_cycles, which times only the stages after a warm-up one. */
typedef struct trapeze_sim_stencil_result {
    int iterations, stages;
    long tiles;                    /* trapezoids per stage */
    long resident_blocks;          /* fence: blocks of the persistent kernel */
    int out_edge;                  /* output tile edge: blk_len - HaloWidth h */
    int blocks_per_sm;
    char occupancy_limit[32];      /* the resource that caps blocks_per_sm */
    int insts_per_op, setup_insts;
    unsigned long long cycles, warp_instructions;
    double cycles_per_loop;
} trapeze_sim_stencil_result;

/* iterations 0: the workload's. */
trapeze_status trapeze_sim_run_stencil(trapeze_sim *sim, const trapeze_workload *w,
                                       trapeze_sync sync, int h, int iterations,
                                       trapeze_sim_stencil_result *out, trapeze_error *err);

/* Statistics of the launches run so far, in order. */
typedef struct trapeze_sim_launch {
    char name[64];
    unsigned long long launch;          /* index in the simulator's sequence */
    unsigned long long start_cycle, cycles, launch_cycles, blocks;
    unsigned long long warp_instructions, thread_instructions;
    double ipc;                         /* warp instructions per cycle, whole GPU */
} trapeze_sim_launch;

int trapeze_sim_launches(const trapeze_sim *sim);
trapeze_status trapeze_sim_launch_stats(const trapeze_sim *sim, int i, trapeze_sim_launch *out,
                                        trapeze_error *err);
unsigned long long trapeze_sim_cycle(const trapeze_sim *sim);
/* The per-launch CSV (and, when per_sm_csv is not NULL, the per-SM one);
 * all or nothing: both are complete before either replaces its file. */
trapeze_status trapeze_sim_write_csv(const trapeze_sim *sim, const char *csv,
                                     const char *per_sm_csv, trapeze_error *err);
/* The text summary of every launch (trapeze sim's output). */
void trapeze_sim_print(const trapeze_sim *sim, FILE *f);
/* With a power description: the energy breakdown summed over every launch. */
void trapeze_sim_print_energy(const trapeze_sim *sim, FILE *f);
/* With keep_idle: the idle-period CSV (CONTRACTS.md format) of every kernel. */
trapeze_status trapeze_sim_write_idle_csv(const trapeze_sim *sim, const char *path,
                                          trapeze_error *err);
/* Every config option the model and the simulator read, with its type,
 * default, range and help, by component (trapeze sim --options). */
void trapeze_sim_print_options(FILE *f);
/* Options of cfg the simulator does not model (reported as ignored). */
size_t trapeze_sim_unmodelled_options(const trapeze_config *cfg, const char **names, size_t max);

#ifdef __cplusplus
}
#endif

#endif
