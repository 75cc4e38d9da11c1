/*
 * calib_sleep.c - `trapeze calibrate --model sleep` and `trapeze validate
 * --model sleep`: argument parsing and printing for learning the sleep
 * model from short windows and checking it against full simulation
 * (docs/sleep.md). Every computation is a library call (sampler/
 * sleep_calib.c, sleep_validate.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "cli/calib_sleep.h"
#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

#define MAX_JOBS 64

/* The built-in seeds' kernels and the four stencils at sizes that simulate
 * in about a second each (the sweep runs each about 60 times). */
static const char *const default_jobs[] = {
    "jacobi nx=512 ny=512", "matmul n=128", "vecadd n=262144", "atax n=512", "gesummv n=512",
    "syrk n=128",
    "pathfinder size=100000 iters=8 sync=relaunch h=2", "hotspot size=256x256 iters=8",
    "poisson size=256x256 iters=8", "cell size=32x32x32 iters=4"};

static void usage_calibrate(FILE *out)
{
    fprintf(out,
"usage: trapeze calibrate --model sleep --gpu NAME|FILE [options] [JOB ...]\n"
"\n"
"Learns the sleep-threshold model from short windows: for each JOB the first\n"
"--window cycles of its run are simulated always on (one row of the samples\n"
"log each, appended as it ends; a rerun skips the rows already there), the\n"
"idle periods fitted (point masses up to 8 cycles, two log-normals beyond;\n"
"Kolmogorov-Smirnov distance printed), and per structure the thresholds that\n"
"save the most leakage within --max-penalty chosen (L1D and L2 Snooze on\n"
"lines, RF Slumber on warp registers). Writes one row per job and structure.\n"
"\n"
"A JOB is a built-in kernel with settings (\"matmul n=128\", trapeze sim --list)\n"
"or a stencil workload (preset or INI) with size=AxB, iters=N, h=N,\n"
"sync=relaunch|fence (\"hotspot size=256x256 iters=8\"); default: the\n"
"validation's ten (the seeds' kernels and the four stencils).\n"
"\n"
"options:\n"
"  --gpu NAME|FILE     GPU config (gtx480, v100, ...)\n"
"  --power NAME|FILE   power description (default data/power/GPU.ini)\n"
"  --window N          cycles of each run to sample (default 20000; 0: whole)\n"
"  --spread N          then a window of N/5 cycles in every N to the run's end\n"
"                      (default 2500; the run is simulated through; 0: the\n"
"                      first window only, the run cut there)\n"
"  --no-jump           that spread sample always; by default (--jump) a jump\n"
"                      sample where it costs under half the run (trapeze\n"
"                      sleep --jump)\n"
"  --max-penalty F     wake-up stall budget, fraction of SM cycles (default 0.01)\n"
"  --fit               the model reads the fitted distribution, not the counts\n"
"  --samples FILE      the samples log (default sleep-samples.csv)\n"
CLI_THREADS_HELP
"  --out FILE          result CSV (default sleep-calibration.csv): gpu, kernel,\n"
"                      structure, thresholds, pred_saving, pred_penalty, fit_ks,\n"
"                      window_cycles, sampled_cycles, cut\n"
CLI_JSON_HELP
"  -h, --help          show this help\n");
}

static void usage_validate(FILE *out)
{
    fprintf(out,
"usage: trapeze validate --model sleep --gpu NAME|FILE [options] [JOB ...]\n"
"\n"
"Checks the sleep-threshold model against full simulation: for each\n"
"JOB (as in calibrate --model sleep; default the seeds' kernels and the four\n"
"stencils) the thresholds chosen on its window, then whole runs with one\n"
"structure's policy at a time in the timing, at the model's thresholds, the\n"
"seed's (Snooze 2; Slumber 4/13/16) and a sweep (Snooze 0, 1, 2, 3, 4, 6, 8,\n"
"12, 16, 24, 32, 64: 12 settings; Slumber shallow 4/12 x deep 13/14/20 x gated\n"
"16/21/32/never, in order: 22 settings). Prints per job and structure the\n"
"predicted and simulated saving and penalty, and the targets: the model's\n"
"thresholds meet the budget when simulated and reach >= 99%% of the best\n"
"swept saving within the budget (a choice over the budget misses); saving\n"
"within 3 points; penalty within 0.5 points; windows <= 5%% of the sweep's\n"
"simulated work (warp instructions), and each job's <= 25%% of one run (its\n"
"share printed per job). A choice over the budget says by how much; last,\n"
"each mode's energy break-even E_tr/(P_on - P_off) in cycles.\n"
"\n"
"options:\n"
"  --gpu, --power, --window, --spread, --max-penalty, --fit\n"
"                      as calibrate --model sleep\n"
"  --no-jump           the spread sample always for the model's thresholds;\n"
"                      by default (--jump) the jump sample of trapeze sleep\n"
"                      where it costs under half the run\n"
"  --cap F             the capped jump sample of trapeze sleep --cap F (at most\n"
"                      the share F of the run, windows shrunk on short runs)\n"
"  --warm              with --cap: trapeze sleep --warm's later windows\n"
CLI_THREADS_HELP
"  --csv FILE          one row per job, structure, setting and mode: predicted\n"
"                      and simulated mode share, saving, leakage, penalty\n"
CLI_JSON_HELP
"  -h, --help          show this help\n");
}

static void run_progress(void *ctx, int done, int total)
{
    cli_progress_update(ctx, done, total, "runs", "");
}

static void row_progress(void *ctx, const trapeze_run_progress *at, const trapeze_sample_row *row)
{
    cli_progress_rows(ctx, at, "jobs", row->id);
}

double cli_sleep_stride(double spread, int jump) { return jump && spread > 0 ? -spread : spread; }

int cli_sleep_job(const char *cmd, const char *spec, trapeze_sleep_job *j, trapeze_error *err)
{
    char name[64];
    if (sscanf(spec, "%63s", name) != 1)
        return cli_usage_error(cmd, "an empty JOB");
    if (trapeze_sleep_job_is_builtin(name))
        return trapeze_sleep_job_parse(spec, NULL, j, err) ? 1 : 0;
    char path[4096];
    if (cli_resolve_preset(cmd, "not a built-in kernel (trapeze sim --list); workload",
                           "workloads", ".ini", name, path, sizeof path))
        return 2;
    trapeze_workload w;
    if (trapeze_workload_load(path, &w, err) || trapeze_sleep_job_parse(spec, &w, j, err))
        return 1;
    return 0;
}

/* Thresholds (cycles, one per sleep mode) as an array of the document. */
static void json_thresholds(trapeze_json_out *j, const char *key, const double *theta, int n)
{
    trapeze_json_array(j, key);
    for (int m = 0; m < n; m++)
        trapeze_json_number(j, NULL, theta[m]);
    trapeze_json_end(j);
}

static void json_target(trapeze_json_out *j, const char *name, double value, double of,
                        double worst, int met)
{
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "target", name);
    trapeze_json_number(j, "value", value);
    trapeze_json_number(j, "of", of);
    trapeze_json_number(j, "worst", worst);
    trapeze_json_bool(j, "met", met);
    trapeze_json_end(j);
}

/* A job's sample over one whole run of it, in warp instructions. */
static double run_fraction(const trapeze_sleep_vsummary *s)
{
    return s->run_insts > 0 ? s->sample_insts / s->run_insts : 1;
}

static void json_validation(trapeze_json_out *j, const trapeze_sleep_validation *v)
{
    trapeze_json_text(j, "gpu", v->gpu);
    trapeze_json_number(j, "max_penalty", v->max_penalty);
    trapeze_json_array(j, "rows");
    for (int i = 0; i < v->n_summary; i++) {
        const trapeze_sleep_vsummary *s = &v->summary[i];
        const trapeze_sleep_vrow *m = &v->rows[s->model], *sd = &v->rows[s->seed];
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "job", s->job);
        trapeze_json_text(j, "structure",
                          trapeze_power_structure_name((trapeze_power_structure)s->structure));
        json_thresholds(j, "thresholds", m->theta, m->n_modes);
        trapeze_json_number(j, "pred_saving", m->pred_saving);
        trapeze_json_number(j, "sim_saving", m->sim_saving);
        trapeze_json_number(j, "pred_penalty", m->pred_penalty);
        trapeze_json_number(j, "sim_penalty", m->sim_penalty);
        trapeze_json_number(j, "seed_pred_saving", sd->pred_saving);
        trapeze_json_number(j, "seed_sim_saving", sd->sim_saving);
        trapeze_json_number(j, "seed_pred_penalty", sd->pred_penalty);
        trapeze_json_number(j, "seed_sim_penalty", sd->sim_penalty);
        if (s->best >= 0)
            json_thresholds(j, "best_swept", v->rows[s->best].theta, v->rows[s->best].n_modes);
        else
            trapeze_json_text(j, "best_swept", NULL);
        trapeze_json_number(j, "ratio", s->ratio);
        trapeze_json_number(j, "ks", s->ks);
        trapeze_json_bool(j, "over_budget", m->sim_penalty > v->max_penalty);
        trapeze_json_number(j, "sample_run_fraction", run_fraction(s));
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    const trapeze_sleep_targets *t = &v->targets;
    trapeze_json_array(j, "targets");
    json_target(j, "saving_ratio_99pct", t->ratio_met, t->rows, t->worst_ratio,
                t->ratio_met == t->rows);
    json_target(j, "saving_within_3_points", t->saving_met, t->rows, t->worst_saving_error,
                t->saving_met == t->rows);
    json_target(j, "penalty_within_half_point", t->penalty_met, t->rows,
                t->worst_penalty_error, t->penalty_met == t->rows);
    json_target(j, "samples_fraction", t->sample_fraction, NAN, NAN, t->sample_fraction <= 0.05);
    json_target(j, "samples_quarter_of_run", t->quarter_met, t->jobs, t->worst_run_fraction,
                t->quarter_met == t->jobs);
    trapeze_json_end(j);
    trapeze_json_integer(j, "over_budget", t->over_budget);
    trapeze_json_number(j, "sample_warp_instructions", v->sample_insts);
    trapeze_json_number(j, "sweep_warp_instructions", v->sweep_insts);
    trapeze_json_integer(j, "sweep_runs", v->sweep_runs);
}

static int finish_calibrate(const trapeze_sleep_plan *plan, trapeze_sample_log *log,
                            const char *out, trapeze_json_out *j, trapeze_error *err)
{
    if (trapeze_sleep_calib_write_csv(plan, log, out, err))
        return 1;
    const trapeze_sample_set *set = trapeze_sleep_plan_set(plan);
    printf("%-44s %-4s %9s %10s %8s %8s %7s\n", "job", "", "thresholds", "saving", "penalty",
           "fit KS", "window");
    trapeze_json_text(j, "out", out);
    trapeze_json_array(j, "rows");
    for (int i = 0; i < set->count; i++) {
        trapeze_sleep_sampled r;
        if (trapeze_sleep_from_row(trapeze_sample_log_find_row(log, set->rows[i].id), &r, err))
            return 1;
        for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++) {
            char th[48] = "";
            for (int m = 0, used = 0; m < r.n_modes[x]; m++)
                used += snprintf(th + used, sizeof th - (size_t)used, "%s%.0f", m ? "/" : "",
                                 r.theta[x][m]);
            printf("%-44s %-4s %9s %9.2f%% %7.3f%% %8.4f %7.0f%s\n", x ? "" : r.job,
                   trapeze_power_structure_name((trapeze_power_structure)x), th,
                   100 * r.saving[x], 100 * r.penalty[x], r.ks[x], r.cycles,
                   r.cut                                            ? ""
                   : !(r.window_cycles > 0 && r.cycles > r.window_cycles) ? " (whole run)"
                   : r.spread_cycles > 0                            ? " (spread)"
                                                                    : " (jump or spread)");
            trapeze_json_object(j, NULL);
            trapeze_json_text(j, "job", r.job);
            trapeze_json_text(j, "structure",
                              trapeze_power_structure_name((trapeze_power_structure)x));
            json_thresholds(j, "thresholds", r.theta[x], r.n_modes[x]);
            trapeze_json_number(j, "saving", r.saving[x]);
            trapeze_json_number(j, "penalty", r.penalty[x]);
            trapeze_json_number(j, "ks", r.ks[x]);
            trapeze_json_number(j, "window_cycles", r.cycles);
            trapeze_json_end(j);
        }
    }
    trapeze_json_end(j);
    fprintf(stderr, "wrote %s\n", out);
    return 0;
}

/* Each mode's energy break-even E_tr / (P_on - P_off) in cycles: what a
 * threshold trades (sleep.md, "Break-even algebra"); 0 on the seed profile. */
static int print_break_evens(const trapeze_power *pw, double clock_hz, trapeze_error *err)
{
    printf("energy break-even E_tr/(P_on - P_off), cycles (%s):", pw->name);
    for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++) {
        trapeze_sleep_structure st;
        if (trapeze_sleep_structure_from_power(pw, (trapeze_power_structure)x, clock_hz, &st,
                                               err))
            return 1;
        printf("%s %s", x ? ";" : "", trapeze_power_structure_name((trapeze_power_structure)x));
        for (int m = 0; m < st.n_modes; m++)
            printf(" %s %.2f", st.mode[m].name, trapeze_sleep_energy_break_even(&st.mode[m]));
    }
    printf("\n");
    return 0;
}

static void print_validation(const trapeze_sleep_validation *v)
{
    printf("%s, budget %.3g%% of SM cycles; per job and structure, the model's thresholds "
           "(from the window), saving and penalty predicted / simulated, the seed's, the best "
           "swept within the budget:\n", v->gpu, 100 * v->max_penalty);
    printf("%-44s %-4s %9s %15s %13s %15s %13s %9s %7s %6s\n", "job", "", "model", "saving p/s",
           "penalty p/s", "seed saving", "seed penalty", "best swept", "ratio", "KS");
    for (int i = 0; i < v->n_summary; i++) {
        const trapeze_sleep_vsummary *s = &v->summary[i];
        const trapeze_sleep_vrow *m = &v->rows[s->model], *sd = &v->rows[s->seed];
        char th[48] = "", best[48] = "-";
        for (int k = 0, used = 0; k < m->n_modes; k++)
            used += snprintf(th + used, sizeof th - (size_t)used, "%s%.0f", k ? "/" : "",
                             m->theta[k]);
        if (s->best >= 0)
            for (int k = 0, used = 0; k < v->rows[s->best].n_modes; k++)
                used += snprintf(best + used, sizeof best - (size_t)used, "%s%.0f",
                                 k ? "/" : "", v->rows[s->best].theta[k]);
        printf("%-44s %-4s %9s %6.2f / %6.2f %5.2f / %5.2f %6.2f / %6.2f %5.2f / %5.2f "
               "%9s %7.4f %6.4f%s",
               s->structure ? "" : s->job,
               trapeze_power_structure_name((trapeze_power_structure)s->structure), th,
               100 * m->pred_saving, 100 * m->sim_saving, 100 * m->pred_penalty,
               100 * m->sim_penalty, 100 * sd->pred_saving, 100 * sd->sim_saving,
               100 * sd->pred_penalty, 100 * sd->sim_penalty, best, s->ratio, s->ks,
               m->sim_penalty > v->max_penalty ? "  OVER BUDGET by" : "");
        if (m->sim_penalty > v->max_penalty)
            printf(" %.2f points", 100 * (m->sim_penalty - v->max_penalty));
        printf("\n");
    }
    const trapeze_sleep_targets *t = &v->targets;
    printf("targets, %d job-structure rows:\n", t->rows);
    printf("  model within the budget and >= 99%% of the best swept saving within it: %d of "
           "%d (worst %.4f) %s\n", t->ratio_met, t->rows, t->worst_ratio,
           t->ratio_met == t->rows ? "MET" : "MISSED");
    printf("  model within the budget and within 1 point of the best swept saving within it: "
           "%d of %d (worst %.2f points behind)\n", t->point_met, t->rows,
           100 * t->worst_point_gap);
    printf("  cache thresholds above the sweep's lowest (0): %d of %d\n", t->cache_above_floor,
           t->cache_rows);
    printf("  predicted saving within 3 points of simulated: %d of %d (worst %.2f points) %s\n",
           t->saving_met, t->rows, 100 * t->worst_saving_error,
           t->saving_met == t->rows ? "MET" : "MISSED");
    printf("  predicted penalty within 0.5 points of simulated: %d of %d (worst %.2f points) "
           "%s\n", t->penalty_met, t->rows, 100 * t->worst_penalty_error,
           t->penalty_met == t->rows ? "MET" : "MISSED");
    printf("  samples <= 5%% of the sweep's simulated work: %.2f%% (windows %.0f warp "
           "instructions, %d whole runs %.0f) %s\n", 100 * t->sample_fraction, v->sample_insts,
           v->sweep_runs, v->sweep_insts, t->sample_fraction <= 0.05 ? "MET" : "MISSED");
    printf("  whole runs simulated: %d for the %d settings (those that hide every wake-up share "
           "one run always on per job)\n", v->simulations, v->sweep_runs);
    printf("  samples <= 25%% of one run (warp instructions): %d of %d jobs (worst %.1f%%) %s\n",
           t->quarter_met, t->jobs, 100 * t->worst_run_fraction,
           t->quarter_met == t->jobs ? "MET" : "MISSED");
    for (int i = 0; i < v->n_summary; i++)
        if (v->summary[i].structure == 0)
            printf("    %s: sample %.1f%% of one run (%.0f of %.0f warp instructions)%s\n",
                   v->summary[i].job, 100 * run_fraction(&v->summary[i]),
                   v->summary[i].sample_insts, v->summary[i].run_insts,
                   v->summary[i].cap_smallest > 0 ? ": the whole run is the sample, too short "
                   "for a window within the cap (trapeze sleep --cap says by how much)" : "");
    if (t->over_budget)
        printf("  (%d of the model's choices simulate above the budget, by up to %.2f points)\n",
               t->over_budget, 100 * t->worst_over);
    if (v->jumped)
        printf("  jump samples on %d of %d jobs: %.0f cycles simulated of their runs' %.0f "
               "(%.1f%%); the others simulated through (a jump sample would cost half the run "
               "or more)\n", v->jumped, v->jobs, v->jump_simulated, v->jump_runs,
               v->jump_runs > 0 ? 100 * v->jump_simulated / v->jump_runs : 0);
    else
        printf("  no jump sample: every run simulated through or cut (--no-jump, --spread 0, "
               "or a jump sample would cost half the run or more)\n");
}

int cli_calib_model_sleep(int argc, char **argv, const char *cmd)
{
    int validate = !strcmp(cmd, "validate");
    const char *model = NULL, *gpu = NULL, *power = NULL, *window_text = NULL, *spread_text = NULL,
               *penalty_text = NULL, *samples = NULL, *threads_text = NULL, *out = NULL,
               *csv = NULL, *json_path = NULL, *cap_text = NULL;
    int fit = 0, no_jump = 0, jump = 0, warm = 0;
    const cli_field cal_fields[] = {
        {"--model", &model, NULL}, {"--gpu", &gpu, NULL}, {"--power", &power, NULL},
        {"--window", &window_text, NULL}, {"--spread", &spread_text, NULL},
        {"--max-penalty", &penalty_text, NULL}, {"--no-jump", NULL, &no_jump},
        {"--jump", NULL, &jump},
        {"--fit", NULL, &fit}, {"--samples", &samples, NULL}, {"--threads", &threads_text, NULL},
        {"--out", &out, NULL}, {"--json", &json_path, NULL}, {NULL, NULL, NULL}};
    const cli_field val_fields[] = {
        {"--model", &model, NULL}, {"--gpu", &gpu, NULL}, {"--power", &power, NULL},
        {"--window", &window_text, NULL}, {"--spread", &spread_text, NULL},
        {"--max-penalty", &penalty_text, NULL}, {"--jump", NULL, &jump},
        {"--no-jump", NULL, &no_jump}, {"--cap", &cap_text, NULL}, {"--warm", NULL, &warm},
        {"--fit", NULL, &fit}, {"--threads", &threads_text, NULL}, {"--csv", &csv, NULL},
        {"--json", &json_path, NULL}, {NULL, NULL, NULL}};
    const char *ops[MAX_JOBS];
    int n_ops = 0;
    int rc = cli_parse_options(cmd, argc, argv, 1, validate ? val_fields : cal_fields, ops,
                               MAX_JOBS, &n_ops, validate ? usage_validate : usage_calibrate);
    if (rc >= 0)
        return rc;
    double window = 20000, spread = TRAPEZE_SLEEP_SPREAD_DEFAULT, budget = 0.01;
    long threads;
    if (window_text && (!trapeze_parse_double(window_text, &window) || window < 0))
        return cli_usage_error(cmd, "--window %s: expected cycles >= 0", window_text);
    if (spread_text && (!trapeze_parse_double(spread_text, &spread) || spread < 0))
        return cli_usage_error(cmd, "--spread %s: expected cycles >= 0", spread_text);
    if (penalty_text && (!trapeze_parse_double(penalty_text, &budget) || budget < 0 || budget > 1))
        return cli_usage_error(cmd, "--max-penalty %s: expected a fraction in [0, 1]",
                               penalty_text);
    if (cli_threads_value(cmd, threads_text, &threads))
        return 2;
    if (!gpu)
        return cli_usage_error(cmd, "--gpu NAME|FILE is required");
    if (jump && no_jump)
        return cli_usage_error(cmd, "--jump and --no-jump: one or the other");
    double cap = 0;
    if (cap_text && (!trapeze_parse_double(cap_text, &cap) || !(cap > 0 && cap <= 1)))
        return cli_usage_error(cmd, "--cap %s: expected a fraction in (0, 1]", cap_text);
    if (cap > 0 && no_jump)
        return cli_usage_error(cmd, "--cap is for a jump sample: not with --no-jump");
    if (warm && !(cap > 0))
        return cli_usage_error(cmd, "--warm is for the capped sample's later windows: with --cap");
    double stride = cli_sleep_stride(spread, !no_jump);
    static trapeze_sleep_job jobs[MAX_JOBS];
    int n = 0;
    trapeze_error err = {0};
    for (int i = 0; i < (n_ops ? n_ops : (int)(sizeof default_jobs / sizeof *default_jobs)); i++) {
        rc = cli_sleep_job(cmd, n_ops ? ops[i] : default_jobs[i], &jobs[n], &err);
        jobs[n++].warm = warm;
        if (rc) {
            if (rc == 1)
                fprintf(stderr, "trapeze %s: %s\n", cmd, err.message);
            return rc;
        }
    }
    char gpu_file[4096], power_file[4096];
    trapeze_config *cfg = NULL;
    trapeze_gpu g;
    trapeze_power pw;
    if (cli_resolve_preset(cmd, "--gpu", "gpus", ".config", gpu, gpu_file, sizeof gpu_file))
        return 2;
    const char *cal_out = out ? out : "sleep-calibration.csv";
    const cli_output outputs[] = {{"--csv", csv}, {"--out", validate ? NULL : cal_out}};
    /* calibrate under mpirun: every rank plans; rank 0 alone owns the
     * outputs, the log and the result, the others run their share of the
     * windows */
    int rank = 0, size = 1, mpi = validate ? 0 : calib_mpi_start(&argc, &argv, &rank, &size);
    trapeze_status s =
        rank == 0 ? cli_check_outputs(outputs, 2, CLI_STDOUT_REPORT, json_path, &err) : TRAPEZE_OK;
    cli_json json = {0};
    if (!s && rank == 0)
        s = cli_json_open(&json, cmd, json_path, &err);
    trapeze_json_text(json.j, "model", "sleep");
    if (!s)
        s = trapeze_config_load(gpu_file, &cfg, &err);
    if (!s)
        s = trapeze_gpu_from_config(cfg, &g, &err);
    char dflt[64];
    if (!s && cli_resolve_preset(cmd, "--power", "power", ".ini",
                                 power ? power : cli_power_default(g.name, dflt, sizeof dflt),
                                 power_file, sizeof power_file)) {
        trapeze_config_destroy(cfg);
        calib_mpi_stop(mpi);
        return 2;
    }
    if (!s)
        s = trapeze_power_load(power_file, &pw, &err);
    cli_progress bar = {.prefix = validate ? "validate" : "calibrate"};
    if (!s && validate) {
        trapeze_sleep_validation v;
        s = trapeze_sleep_validate(cfg, &pw, jobs, n, window, stride, cap, budget, fit,
                                   (int)threads, run_progress, &bar, &v, &err);
        if (!s && csv)
            s = trapeze_sleep_validation_write_csv(&v, csv, &err);
        if (!s)
            print_validation(&v);
        if (!s && print_break_evens(&pw, g.core_clock_hz, &err))
            s = TRAPEZE_EINVAL;
        if (!s)
            json_validation(json.j, &v);
        if (!s)
            trapeze_sleep_validation_free(&v);
    } else if (!s) {
        trapeze_sleep_plan *plan = NULL;
        trapeze_sample_log *log = NULL;
        s = trapeze_sleep_plan_create(cfg, &pw, jobs, n, window, stride, budget, fit, &plan,
                                      &err);
        if (!s && rank == 0)
            s = trapeze_sample_log_open_schema(samples ? samples : "sleep-samples.csv",
                                               &trapeze_sleep_schema, &log, &err);
        if (!s && rank == 0 && trapeze_sample_log_note(log))
            fprintf(stderr, "%s\n", trapeze_sample_log_note(log));
        if (s && size > 1)
            calib_mpi_abort(err.message);   /* the other ranks would wait for this one */
        if (!s)
            s = calib_run_set(trapeze_sleep_plan_set(plan), log, (int)threads, rank, size,
                              rank == 0 ? row_progress : NULL, &bar, &err);
        if (!s && rank == 0 && finish_calibrate(plan, log, cal_out, json.j, &err))
            s = TRAPEZE_EINVAL;
        trapeze_sample_log_close(log);
        trapeze_sleep_plan_destroy(plan);
    }
    if (!s && rank == 0)
        s = cli_json_commit(&json, &err);
    cli_json_abort(&json);
    trapeze_config_destroy(cfg);
    calib_mpi_stop(mpi);
    if (s) {
        fprintf(stderr, "trapeze %s: %s\n", cmd, err.message);
        return 1;
    }
    return 0;
}
