/*
 * sim.h - the simulator's one internal face for the layers above it:
 * sampler/ and bench/ include this header (and include/trapeze.h) and no
 * other sim/ header (tests/cli_layers.sh checks it); the command line uses
 * the public trapeze_sim_* API instead.
 *
 * What it offers:
 * - a simulator from a parsed config (sim_gpu_create, sim_core_config_read,
 *   sim_mem_config_read) and kernels built-in (sim_builtin_find), stencil
 *   (sim_stencil_build_sized, sim_stencil_run) or trace (sim_trace_*);
 * - runs (sim_gpu_run, sim_gpu_run_sequence) and a launch handle
 *   (sim_gpu_launch_begin, sim_launch_run_until: to a cycle or to its end,
 *   sim_launch_run_until_insts: to a count of warp instructions, every
 *   status returned, sim_gpu_launch_cut, sim_gpu_launch_end);
 * - observers: idle periods (sim_gpu_idle, sim_events_hist, marks by
 *   sim_events_set_mark), converted to the neutral trapeze_idle_hist by
 *   sim_idle_export_add; TB placements (sim_gpu_options.on_place);
 * - the sleep model's samples: window, spread and jump samples
 *   (sim_sleep_window) and whole runs with sleep policies
 *   (sim_sleep_whole; sim_sleep_whole_hidden: several settings that hide
 *   their wake-ups on one run), whose mechanics live in sim/sample/;
 * - locality graphs and TB groups (sim_locality_*), energy accounting
 *   (sim_energy_*).
 *
 * The structures those take and return are still declared by the headers
 * included below; sampler/ and bench/ reach them only through this file.
 * Must not include model/ or sampler/.
 */
#ifndef TRAPEZE_SIM_SIM_H
#define TRAPEZE_SIM_SIM_H

#include <stdint.h>

#include "sim/core/gpu_sim.h"
#include "sim/locality/locality.h"
#include "sim/mem/mem_config.h"
#include "sim/sample/idle_export.h"
#include "sim/stencil/stencil_run.h"
#include "sim/trace/trace.h"
#include "trapeze.h"

/* Runs launch l until its next visited cycle is at least `cycle` or it
 * ended (cycle 0: until it ended). Returns the launch's status: an error
 * inside the stretch (deadlock, hang, -trapeze_max_cycles) comes back
 * here, its message in err, and l has stopped (cut or end it). */
trapeze_status sim_launch_run_until(sim_launch *l, uint64_t cycle, trapeze_error *err);
/* Runs launch l until it has issued at least warp_insts warp instructions
 * (sim_gpu_launch_warp_insts) or it ended: it stops after the first visited
 * cycle whose issues reach the count, so it holds the instructions issued
 * by the end of that cycle, at least warp_insts unless it ended first; a
 * count already reached runs nothing. Returns the launch's status, as
 * sim_launch_run_until. */
trapeze_status sim_launch_run_until_insts(sim_launch *l, uint64_t warp_insts,
                                          trapeze_error *err);

/* Warp instructions of a program kernel, counted by interpreting every
 * warp of every block (a spin loop taken once; sim/sample/jump_run.c);
 * 0 for another source. */
double sim_sleep_count_insts(const sim_kernel *k);
/* Trips of k's first counted loop at depth 0, as the jump sample places its
 * windows by them (sim/sample/jump_run.c); 1 for a trace or a kernel without one. */
long sim_sleep_outer_trips(const sim_kernel *k);

/* The sleep model's sample of job j, every structure always on: the first
 * window_cycles of the run (0: the whole run); with spread_cycles > 0 the
 * spread sample of that stride, < 0 a jump sample where it costs under half
 * the run, else the spread sample of stride -spread_cycles; cap > 0 with
 * a jump sample: at most that share of the run (trapeze_sleep_window_capped)
 * (trapeze_sleep_window's contract, sim/sample/window.c). */
trapeze_status sim_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                const trapeze_sleep_job *j, double window_cycles,
                                double spread_cycles, double cap, trapeze_sleep_run *out,
                                trapeze_error *err);

/* Job j's whole run with the sleep policies of `set` (NULL or off: always
 * on) in the timing: out's cycles, n_sm, mode_cycles and stall. */
trapeze_status sim_sleep_whole(const trapeze_config *cfg, const trapeze_power *pw,
                               const trapeze_sleep_job *j, const trapeze_sleep_setting *set,
                               trapeze_sleep_run *out, trapeze_error *err);

/* 1 in *hidden where the policy sim_sleep_whole runs for structure x at
 * thresholds theta exposes no wake-up on any idle period (every wake is
 * within the look-ahead, or only a countdown's: Snooze with a wake-up no
 * longer than its warning; Slumber with shallow at deep's threshold).
 * Such a policy leaves the run's timing, and so its idle periods, those of
 * the run always on. An error where pw lacks the policy's modes. */
trapeze_status sim_sleep_hides_wakes(const trapeze_config *cfg, const trapeze_power *pw, int x,
                                     const double *theta, int *hidden, trapeze_error *err);
/* n settings that hide their wake-ups (sim_sleep_hides_wakes), out[i] the
 * one structure x[i] sleeping at theta[i]: one whole run always on, each
 * setting's mode cycles, periods and (no) stall evaluated launch by launch
 * on its histograms, as the simulator's energy accounting does for the
 * policy in the timing. out[i] is what sim_sleep_whole with that setting
 * alone gives, to the bit. */
trapeze_status sim_sleep_whole_hidden(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *j, int n, const int *x,
                                      const double (*theta)[TRAPEZE_SLEEP_MAX_MODES],
                                      trapeze_sleep_run *const *out, trapeze_error *err);

#endif
