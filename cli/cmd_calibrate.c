/*
 * cmd_calibrate.c - `trapeze calibrate`: plan, run (resuming from
 * samples.csv) and fit the ghost-zone model's constants for one GPU; writes
 * the calibration file `trapeze ghostzone --calibration` reads. Parsing and
 * printing only: every step is a library call.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/calib_common.h"
#include "cli/calib_models.h"
#include "cli/commands.h"
#include "common/text.h"

static void usage(FILE *out)
{
    char common[2048];
    fprintf(out,
"usage: trapeze calibrate --gpu FILE [options] [WORKLOAD ...]\n"
"\n"
"Calibrates Meng's ghost-zone model against the cycle-level simulator, as the\n"
"dissertation did against hardware: micro-benchmarks (CPI, empty-kernel\n"
"relaunch, fence barrier over block counts, copy bandwidth, pointer-chase\n"
"latency), one profiling pair per workload (instructions per phase, bank\n"
"conflicts), then short stencil samples over (h, grid size, sync mode) placed\n"
"by a Sobol sequence. Each finished sample is appended to the samples log at\n"
"once; a rerun skips those already there. Nonlinear least squares then fits\n"
"the constants, with standard errors and a k-fold cross-validated error.\n"
"Rows of kind 'measured' in the samples log (hardware, same columns) join the\n"
"fit the same way.\n"
"\n"
"options:\n"
"%s"
"  --out FILE          the calibration file to write (default calib.ini)\n"
"  --fit LIST          parameters to fit, comma-separated calibration-file names\n"
"                      (default: uncontended_latency_cycles,sigma,mu,\n"
"                      relaunch_cycles,cpi,overlap; those no\n"
"                      sample moves are left out)\n"
"  --real-tiles        calibrate with Meng's real-valued T (Eq. 5.3) instead of\n"
"                      whole tiles at whole heights\n"
"  --structure LIST    model extensions to switch on, comma-separated: occupancy,\n"
"                      waves, persistent_fence, fence_overlap, fence_staging,\n"
"                      row_penalty, fence_iter, mem_latency, row_lines,\n"
"                      barrier_max, partial_round, loop_reread,\n"
"                      loop_once, round_latency, round_compute,\n"
"                      round_staging, lone_round, fence_issue,\n"
"                      fence_iter_hidden, fence_overlap_loads, round_spin,\n"
"                      spin_staging, round_tiles, round_setup;\n"
"                      'at-size'\n"
"                      (the default) is occupancy,fence_overlap,\n"
"                      fence_staging,row_penalty,fence_iter,persistent_fence,\n"
"                      barrier_max,partial_round,loop_reread,round_latency,\n"
"                      fence_iter_hidden;\n"
"                      'meng' is none;\n"
"                      a GPU without data caches holds halo_reread at 1 and\n"
"                      leaves loop_reread off (every load is a DRAM read);\n"
"                      with any, the fit adds tile_cycles, fence_misc_fraction,\n"
"                      fence_cycles_per_block, fence_barrier_cycles (held at\n"
"                      the fencebar micro-benchmark's with barrier_max),\n"
"                      halo_reread (and overlap_fence, fence_iter_fraction,\n"
"                      partial_round_fraction, loop_reread_fraction,\n"
"                      fence_issue_fraction) and\n"
"                      holds mu at 1 (and occupancy holds turnaround_cycles\n"
"                      at the chase micro-benchmark's latency); a\n"
"                      plan with fewer than two samples per such constant\n"
"                      calibrates 'meng' (docs/calibration.md)\n"
"  --holdout F         fraction of each workload's samples, the largest grids,\n"
"                      held out of a second fit to report the extrapolation\n"
"                      error (default 0.25; 0: none)\n"
"  -h, --help          show this help\n", calib_common_help(common, sizeof common));
}

/* "cpi,mu" -> TRAPEZE_GHOSTZONE_MASK bits; -1 after a usage message. */
static int parse_fit(const char *list, unsigned *mask)
{
    char names[512];
    snprintf(names, sizeof names, "%s", list);
    *mask = 0;
    for (char *save, *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < TRAPEZE_GHOSTZONE_NPARAMS && strcmp(name, trapeze_ghostzone_param_name((trapeze_ghostzone_param)k)))
            k++;
        if (k == TRAPEZE_GHOSTZONE_NPARAMS)
            return calib_usage_error("calibrate", "--fit: no parameter named", name);
        *mask |= TRAPEZE_GHOSTZONE_MASK(k);
    }
    return *mask ? 0 : calib_usage_error("calibrate", "--fit: an empty list", NULL);
}

/* "occupancy,waves" -> TRAPEZE_GHOSTZONE_STRUCT_* bits; -1 after a usage message. */
static int parse_structure(const char *list, unsigned *bits)
{
    static const struct { const char *name; unsigned bits; } names[] = {
        {"occupancy", TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY}, {"waves", TRAPEZE_GHOSTZONE_STRUCT_WAVES},
        {"persistent_fence", TRAPEZE_GHOSTZONE_STRUCT_PERSISTENT_FENCE},
        {"fence_overlap", TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP},
        {"fence_staging", TRAPEZE_GHOSTZONE_STRUCT_FENCE_STAGING},
        {"row_penalty", TRAPEZE_GHOSTZONE_STRUCT_ROW_PENALTY},
        {"fence_iter", TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER},
        {"fence_issue", TRAPEZE_GHOSTZONE_STRUCT_FENCE_ISSUE},
        {"fence_iter_hidden", TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER_HIDDEN},
        {"fence_overlap_loads", TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP_LOADS},
        {"round_spin", TRAPEZE_GHOSTZONE_STRUCT_ROUND_SPIN},
        {"spin_staging", TRAPEZE_GHOSTZONE_STRUCT_SPIN_STAGING},
        {"round_tiles", TRAPEZE_GHOSTZONE_STRUCT_ROUND_TILES},
        {"round_setup", TRAPEZE_GHOSTZONE_STRUCT_ROUND_SETUP},
        {"mem_latency", TRAPEZE_GHOSTZONE_STRUCT_MEM_LATENCY},
        {"row_lines", TRAPEZE_GHOSTZONE_STRUCT_ROW_LINES},
        {"barrier_max", TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX},
        {"partial_round", TRAPEZE_GHOSTZONE_STRUCT_PARTIAL_ROUND},
        {"loop_reread", TRAPEZE_GHOSTZONE_STRUCT_LOOP_REREAD},
        {"loop_once", TRAPEZE_GHOSTZONE_STRUCT_LOOP_ONCE},
        {"round_latency", TRAPEZE_GHOSTZONE_STRUCT_ROUND_LATENCY},
        {"round_compute", TRAPEZE_GHOSTZONE_STRUCT_ROUND_COMPUTE},
        {"round_staging", TRAPEZE_GHOSTZONE_STRUCT_ROUND_STAGING},
        {"lone_round", TRAPEZE_GHOSTZONE_STRUCT_LONE_ROUND},
        {"at-size", TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE},
        {"meng", 0}};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    *bits = 0;
    for (char *save, *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] && strcmp(name, names[k].name))
            k++;
        if (k == sizeof names / sizeof names[0])
            return calib_usage_error("calibrate", "--structure: no extension named", name);
        *bits |= names[k].bits;
    }
    return 0;
}

/* calibrate's own options' texts into a, checked: -1; else the exit status. */
static int own_options(calib_args *a, const char *structure, const char *holdout,
                       const char *fit)
{
    double f;
    if (structure && parse_structure(structure, &a->opt.structure) < 0)
        return 2;
    if (holdout && (!trapeze_parse_double(holdout, &f) || !(f >= 0 && f < 1))) {
        calib_usage_error("calibrate", "--holdout: expected a fraction in [0, 1), got", holdout);
        return 2;
    }
    if (holdout)
        a->opt.holdout = f;
    if (fit && parse_fit(fit, &a->opt.fit_mask) < 0)
        return 2;
    return calib_finish_args(a) < 0 ? 2 : -1;
}

/* Runs the plan's samples: threads in one process, or spread over ranks. */
static trapeze_status run_samples(const calib_args *a, const trapeze_ghostzone_plan *plan,
                                  trapeze_sample_log *log, int rank, int size, trapeze_error *err)
{
    if (size > 1)
        return calib_mpi_run(plan, log, rank, size, err);
    return trapeze_ghostzone_run(plan, log, a->threads, calib_progress, (void *)&a->threads, err);
}

/* The fit in the document: the table's rows, then the errors. */
static void json_result(trapeze_json_out *j, const trapeze_ghostzone_params *p,
                        const trapeze_fit_report *rep, int folds, const char *out)
{
    trapeze_json_text(j, "out", out);
    trapeze_json_array(j, "parameters");
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "parameter", trapeze_ghostzone_param_name((trapeze_ghostzone_param)k));
        trapeze_json_number(j, "value", p->value[k]);
        trapeze_json_number(j, "stderr", p->stderr_[k]);
        trapeze_json_bool(j, "fitted", p->stderr_[k] > 0);
        trapeze_json_bool(j, "at_bound", rep->at_bound[k]);
        int w = rep->corr_with[k];
        trapeze_json_text(j, "max_corr_with", w >= 0 ? trapeze_ghostzone_param_name((trapeze_ghostzone_param)w)
                                                     : NULL);
        trapeze_json_number(j, "max_corr", w >= 0 ? fabs(rep->max_corr[k]) : NAN);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_json_integer(j, "observations", rep->n_points);
    trapeze_json_integer(j, "parameters_fitted", rep->n_fitted);
    trapeze_json_number(j, "rms_pct", 100 * rep->rms_rel_error);
    trapeze_json_integer(j, "folds", folds);
    trapeze_json_number(j, "cv_mape_pct", rep->cv_mape_pct);
    trapeze_json_number(j, "cv_max_ape_pct", rep->cv_max_ape_pct);
    trapeze_json_integer(j, "holdout", rep->n_holdout);
    int h = rep->n_holdout > 0;
    trapeze_json_number(j, "holdout_mape_pct", h ? rep->holdout_mape_pct : NAN);
    trapeze_json_number(j, "holdout_max_ape_pct", h ? rep->holdout_max_ape_pct : NAN);
    trapeze_json_number(j, "holdout_bias_pct", h ? rep->holdout_bias_pct : NAN);
}

static void print_result(const trapeze_ghostzone_params *p, const trapeze_fit_report *rep, int folds,
                         const char *out)
{
    printf("%-28s %14s %12s  %s\n", "parameter", "value", "stderr", "identifiability (fitted)");
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
        printf("%-28s %14.6g %12.3g", trapeze_ghostzone_param_name((trapeze_ghostzone_param)k), p->value[k],
               p->stderr_[k]);
        if (rep->corr_with[k] >= 0)
            printf("  %s|r| %.2f with %s", rep->at_bound[k] ? "AT BOUND, " : "",
                   fabs(rep->max_corr[k]), trapeze_ghostzone_param_name((trapeze_ghostzone_param)rep->corr_with[k]));
        else if (rep->at_bound[k])
            printf("  AT BOUND");
        putchar('\n');
    }
    /* the markers above, said once where they are seen */
    printf("(stderr 0: held, not fitted (a micro-benchmark's or the default value); AT BOUND: "
           "the fit pushed it to the edge of its range, so its stderr is no confidence "
           "interval; |r| with P: its largest correlation with a fitted P, near 1 when the "
           "samples cannot tell the two apart)\n");
    printf("%d observations, %d parameters fitted, in-sample RMS %.2f%%, "
           "%d-fold CV MAPE %.2f%% (max %.2f%%)\nwrote %s\n",
           rep->n_points, rep->n_fitted, 100 * rep->rms_rel_error, folds, rep->cv_mape_pct,
           rep->cv_max_ape_pct, out);
    if (rep->n_holdout > 0)
        printf("extrapolation: fitted without the %d largest samples, on them: MAPE %.2f%% "
               "(max %.2f%%, bias %+.2f%%)\n",
               rep->n_holdout, rep->holdout_mape_pct, rep->holdout_max_ape_pct,
               rep->holdout_bias_pct);
    else if (rep->n_points > 0)
        printf("extrapolation: not measured (holding out the largest samples would leave "
               "fewer than two per fitted constant; raise --budget)\n");
}

int cli_calibrate(int argc, char **argv)
{
    return cli_calib_model_run("calibrate", argc, argv);
}

int cli_calibrate_ghostzone(int argc, char **argv)
{
    calib_args a = {.cmd = "calibrate", .threads = 1};
    trapeze_ghostzone_calib_options_init(&a.opt);
    const char *out = "calib.ini", *fit = NULL, *structure = NULL, *holdout = NULL;
    const cli_field own[] = {{"--out", &out, NULL}, {"--fit", &fit, NULL},
                             {"--real-tiles", NULL, &a.opt.real_tiles},
                             {"--structure", &structure, NULL}, {"--holdout", &holdout, NULL},
                             {NULL, NULL, NULL}};
    int rc = calib_parse(&a, argc, argv, own, usage);
    if (rc < 0)
        rc = own_options(&a, structure, holdout, fit);
    if (rc >= 0)
        return rc;
    int rank, size, mpi = calib_mpi_start(&argc, &argv, &rank, &size);
    trapeze_error err = {0};
    trapeze_ghostzone_plan *plan = NULL;
    trapeze_sample_log *log = NULL;
    trapeze_ghostzone_params p;
    trapeze_fit_report rep;
    const cli_output outputs[] = {{"--out", out}};
    trapeze_status s =
        rank == 0 ? cli_check_outputs(outputs, 1, CLI_STDOUT_REPORT, a.json, &err) : TRAPEZE_OK;
    cli_json json = {0};
    if (!s && rank == 0)
        s = cli_json_open(&json, "calibrate", a.json, &err);
    if (!s)
        s = calib_make_plan(&a, &plan, &err);
    if (!s && rank == 0)
        s = calib_open_log(&a, a.samples, &log, &err);
    if (s && size > 1)
        calib_mpi_abort(err.message); /* the other ranks would wait for this one */
    if (!s)
        s = run_samples(&a, plan, log, rank, size, &err);
    if (!s && rank == 0 && !(s = trapeze_ghostzone_from_log(plan, log, &p, &rep, &err)) &&
        !(s = trapeze_ghostzone_params_save(out, &p, &err))) {
        print_result(&p, &rep, a.opt.folds, out);
        trapeze_json_text(json.j, "model", "ghostzone");
        json_result(json.j, &p, &rep, a.opt.folds, out);
        s = cli_json_commit(&json, &err);
    }
    cli_json_abort(&json);
    rc = calib_exit(&a, plan, log, s, &err);
    calib_mpi_stop(mpi);
    return rc;
}
