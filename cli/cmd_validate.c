/*
 * cmd_validate.c - `trapeze validate`: full simulations of every h in both
 * sync modes against a calibration's predictions; prints per workload and
 * mode the error, the picked h against the best simulated one and the
 * sample cost against the sweep's. Parsing and printing only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "cli/calib_models.h"
#include "common/error.h"
#include "cli/commands.h"
#include "common/text.h"

#define MAX_SIZES 16

static void usage(FILE *out)
{
    char common[2048];
    fprintf(out,
"usage: trapeze validate --gpu FILE --calibration FILE [options] [WORKLOAD ...]\n"
"\n"
"Simulates every valid h (up to --max-h) in both sync modes on each workload's\n"
"reference grid (the one calibration samples are scaled from; held out: no\n"
"sample ran at it) and compares with the calibrated model's CPL. Prints per\n"
"workload and mode: mean and maximum absolute percentage error, the h the\n"
"model picks against the h the simulator finds best and the ratio of their\n"
"simulated performance, and the warp instructions the calibration's samples\n"
"cost (from the samples log) against those of the sweep. Use the options the\n"
"calibration used (--budget, --stages, --max-h, --sweep-budget).\n"
"\n"
"options:\n"
"%s"
"  --calibration FILE  the calibration to check (from trapeze calibrate)\n"
"  --force-calibration check it although it records another GPU than --gpu\n"
"  --csv FILE          one row per workload and sync mode:\n"
"                      workload,sync,mape_pct,max_ape_pct,h_model,h_sim_best,\n"
"                      pick_ratio,sample_warp_instructions,sweep_warp_instructions\n"
"  --curve FILE        one row per workload, mode and h:\n"
"                      workload,sync,h,cpl_sim,cpl_model,warp_instructions\n"
"  --sweep-log FILE    keep the sweep's runs (samples.csv format): a rerun reuses\n"
"                      them and an interrupted one resumes\n"
"  --sizes F1,F2,...   validate at the reference grid scaled to these area\n"
"                      factors (e.g. 1,16,100) instead: the plausible h of both\n"
"                      modes (output tile >= 1/4 of the block, at most 10, plus\n"
"                      the model's pick); per workload and size: MAPE, bias per\n"
"                      mode, the model's (mode, h) against the simulator's best,\n"
"                      pick ratio and whether the sync mode is right. --csv rows:\n"
"                      workload,area_factor,size_0,size_1,size_2,points,mape_pct,\n"
"                      bias_relaunch_pct,bias_fence_pct,sync_model,h_model,\n"
"                      sync_sim_best,h_sim_best,sync_right,pick_ratio,\n"
"                      sweep_warp_instructions,verify3_pick_ratio,\n"
"                      verify3_sync_right,verify3_warp_instructions (what\n"
"                      ghostzone --verify 3 decides on the same runs, and their\n"
"                      cost; the model's 3 best are always simulated);\n"
"                      --curve rows: workload,\n"
"                      area_factor,sync,h,cpl_sim,cpl_model,warp_instructions.\n"
"                      The grids scale the calibration's reference grid (give\n"
"                      the calibration's --stages and --sweep-budget)\n"
"  --sweep-stages N    timed stages per --sizes point (default: --stages)\n"
"  --logged-only       with --sizes: compare with the runs --sweep-log holds and\n"
"                      simulate none (points it lacks are left out; the model's\n"
"                      pick is its better mode's pick, or when that was not run\n"
"                      its best among the logged runs): a refitted\n"
"                      calibration against a finished sweep, in a second\n"
"  -h, --help          show this help\n", calib_common_help(common, sizeof common));
}

typedef struct {
    const char *calibration, *csv, *curve, *sweep;
    double sizes[MAX_SIZES];
    int n_sizes;
    int sweep_stages;
    int force_calibration;
} validate_files;

/* "1,16,100": positive area factors. Returns 2 when taken, -1 on error. */
static int parse_sizes(calib_args *a, validate_files *f, const char *val)
{
    const char *p = val;
    f->n_sizes = 0;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0 && v <= 1e6) || (*end && *end != ',') || f->n_sizes == MAX_SIZES)
            return calib_usage_error(a->cmd,
                                     "--sizes: expected up to 16 positive area factors such as 1,16,100, got",
                                     val);
        f->sizes[f->n_sizes++] = v;
        p = *end ? end + 1 : end;
    }
    if (!f->n_sizes)
        return calib_usage_error(a->cmd, "--sizes: expected area factors, got", val);
    return 2;
}

/* validate's own options' texts into f, checked: -1; else the exit status. */
static int own_options(calib_args *a, validate_files *f, const char *sizes,
                       const char *sweep_stages)
{
    long n;
    if (sizes && parse_sizes(a, f, sizes) < 0)
        return 2;
    if (sweep_stages && (!trapeze_parse_long(sweep_stages, &n) || n < 1 || n > 32)) {
        calib_usage_error(a->cmd, "--sweep-stages: expected 1 to 32, got", sweep_stages);
        return 2;
    }
    if (sweep_stages)
        f->sweep_stages = (int)n;
    return calib_finish_args(a) < 0 ? 2 : -1;
}

/* The tables in the document, under the CSV's column names. */
static void json_rows(trapeze_json_out *j, const trapeze_ghostzone_validation *v)
{
    trapeze_json_array(j, "rows");
    for (int i = 0; i < v->n_rows; i++) {
        const trapeze_ghostzone_validation_row *r = &v->rows[i];
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "workload", r->workload);
        trapeze_json_text(j, "sync", trapeze_sync_name(r->sync));
        trapeze_json_number(j, "mape_pct", r->mape_pct);
        trapeze_json_number(j, "max_ape_pct", r->max_ape_pct);
        trapeze_json_integer(j, "h_model", r->h_model);
        trapeze_json_integer(j, "h_sim_best", r->h_sim_best);
        trapeze_json_number(j, "pick_ratio", r->pick_ratio);
        trapeze_json_number(j, "sample_warp_instructions", r->sample_warp_instructions);
        trapeze_json_number(j, "sweep_warp_instructions", r->sweep_warp_instructions);
        trapeze_json_number(j, "sample_cost_pct",
                            100 * r->sample_warp_instructions / r->sweep_warp_instructions);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
}

static void json_sizes(trapeze_json_out *j, const trapeze_ghostzone_size_validation *v)
{
    trapeze_json_array(j, "sizes");
    for (int i = 0; i < v->n_rows; i++) {
        const trapeze_ghostzone_size_validation_row *r = &v->rows[i];
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "workload", r->workload);
        trapeze_json_number(j, "area_factor", r->area_factor);
        trapeze_json_array(j, "size");
        for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
            trapeze_json_number(j, NULL, r->data_len[d]);
        trapeze_json_end(j);
        trapeze_json_integer(j, "points", r->n_points);
        trapeze_json_number(j, "mape_pct", r->mape_pct);
        trapeze_json_number(j, "bias_relaunch_pct", r->bias_pct[0]);
        trapeze_json_number(j, "bias_fence_pct", r->bias_pct[1]);
        trapeze_json_text(j, "sync_model", trapeze_sync_name(r->sync_model));
        trapeze_json_integer(j, "h_model", r->h_model);
        trapeze_json_text(j, "sync_sim_best", trapeze_sync_name(r->sync_sim_best));
        trapeze_json_integer(j, "h_sim_best", r->h_sim_best);
        trapeze_json_bool(j, "sync_right", r->sync_right);
        trapeze_json_number(j, "pick_ratio", r->pick_ratio);
        trapeze_json_number(j, "sweep_warp_instructions", r->sweep_warp_instructions);
        trapeze_json_number(j, "verify3_pick_ratio", r->verify_pick_ratio);
        trapeze_json_bool(j, "verify3_sync_right", r->verify_sync_right);
        trapeze_json_number(j, "verify3_warp_instructions", r->verify_warp_instructions);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
}

static void print_rows(const trapeze_ghostzone_validation *v)
{
    printf("%-12s %-8s %8s %8s %7s %10s %10s %12s\n", "workload", "sync", "mape_%", "max_%",
           "h_model", "h_sim_best", "pick_ratio", "sample_cost%");
    for (int i = 0; i < v->n_rows; i++) {
        const trapeze_ghostzone_validation_row *r = &v->rows[i];
        printf("%-12s %-8s %8.2f %8.2f %7d %10d %10.4f %12.2f\n", r->workload,
               trapeze_sync_name(r->sync), r->mape_pct, r->max_ape_pct, r->h_model, r->h_sim_best,
               r->pick_ratio, 100 * r->sample_warp_instructions / r->sweep_warp_instructions);
    }
}

static void print_sizes(const trapeze_ghostzone_size_validation *v)
{
    printf("%-12s %7s %14s %7s %9s %9s %-13s %-13s %5s %10s %9s %8s\n", "workload", "area_x", "grid",
           "mape_%", "bias_rl_%", "bias_fn_%", "model_pick", "sim_best", "sync", "pick_ratio",
           "verify3", "v3_sweep%");
    for (int i = 0; i < v->n_rows; i++) {
        const trapeze_ghostzone_size_validation_row *r = &v->rows[i];
        char grid[48], mp[24], sb[24];
        snprintf(grid, sizeof grid, "%.0fx%.0fx%.0f", r->data_len[0], r->data_len[1], r->data_len[2]);
        snprintf(mp, sizeof mp, "%s %d", trapeze_sync_name(r->sync_model), r->h_model);
        snprintf(sb, sizeof sb, "%s %d", trapeze_sync_name(r->sync_sim_best), r->h_sim_best);
        printf("%-12s %7.4g %14s %7.2f %+9.2f %+9.2f %-13s %-13s %5s %10.4f %9.4f %8.2f\n",
               r->workload, r->area_factor, grid, r->mape_pct, r->bias_pct[0], r->bias_pct[1], mp,
               sb, r->sync_right ? "right" : "WRONG", r->pick_ratio, r->verify_pick_ratio,
               100 * r->verify_warp_instructions / r->sweep_warp_instructions);
    }
}

static int validate_sizes(calib_args *a, validate_files *f, const trapeze_ghostzone_params *p,
                          trapeze_ghostzone_plan *plan, trapeze_sample_log *sweep,
                          cli_json *json, trapeze_error *err)
{
    trapeze_ghostzone_size_validation v = {0};
    trapeze_status s = trapeze_ghostzone_validate_sizes(plan, p, f->sizes, f->n_sizes,
                                                        f->sweep_stages ? f->sweep_stages : a->opt.stages,
                                                        sweep,
                                                        a->threads, calib_progress, NULL, &v, err);
    if (!s)
        s = trapeze_ghostzone_size_validation_write_csv(&v, f->csv, f->curve, err);
    if (!s) {
        print_sizes(&v);
        json_sizes(json->j, &v);
        s = cli_json_commit(json, err);
    }
    trapeze_ghostzone_size_validation_free(&v);
    return s;
}

int cli_validate(int argc, char **argv)
{
    return cli_calib_model_run("validate", argc, argv);
}

int cli_validate_ghostzone(int argc, char **argv)
{
    calib_args a = {.cmd = "validate", .threads = 1};
    validate_files f = {0};
    trapeze_ghostzone_calib_options_init(&a.opt);
    const char *sizes = NULL, *sweep_stages = NULL;
    const cli_field own[] = {
        {"--calibration", &f.calibration, NULL}, {"--force-calibration", NULL, &f.force_calibration},
        {"--csv", &f.csv, NULL}, {"--curve", &f.curve, NULL}, {"--sweep-log", &f.sweep, NULL},
        {"--sizes", &sizes, NULL}, {"--sweep-stages", &sweep_stages, NULL},
        {"--logged-only", NULL, &a.opt.logged_only}, {NULL, NULL, NULL}};
    int rc = calib_parse(&a, argc, argv, own, usage);
    if (rc < 0)
        rc = own_options(&a, &f, sizes, sweep_stages);
    if (rc >= 0)
        return rc;
    if (!f.calibration) {
        calib_usage_error(a.cmd, "--calibration FILE is required", NULL);
        return 2;
    }
    if (a.opt.logged_only && (!f.n_sizes || !f.sweep)) {
        calib_usage_error(a.cmd, "--logged-only needs --sizes and the --sweep-log to read", NULL);
        return 2;
    }
    trapeze_error err = {0};
    trapeze_ghostzone_plan *plan = NULL;
    trapeze_sample_log *log = NULL, *sweep = NULL;
    trapeze_ghostzone_params p;
    trapeze_ghostzone_validation v = {0};
    const cli_output outputs[] = {{"--csv", f.csv}, {"--curve", f.curve}};
    trapeze_status s = cli_check_outputs(outputs, 2, CLI_STDOUT_REPORT, a.json, &err);
    cli_json json = {0};
    if (!s)
        s = cli_json_open(&json, "validate", a.json, &err);
    trapeze_json_text(json.j, "model", "ghostzone");
    if (!s)
        s = trapeze_ghostzone_params_load(f.calibration, &p, &err);
    if (!s)
        s = calib_make_plan(&a, &plan, &err);
    if (!s && !f.force_calibration &&
        (s = trapeze_ghostzone_params_check_gpu(&p, trapeze_ghostzone_plan_gpu(plan), &err))) {
        char why[sizeof err.message];
        snprintf(why, sizeof why, "%s", err.message);
        trapeze_fail(&err, s, "%s: %s", f.calibration, why);
    }
    if (!s && access(a.samples, R_OK) == 0)
        s = calib_open_log(&a, a.samples, &log, &err);
    if (!s && f.sweep)
        s = calib_open_log(&a, f.sweep, &sweep, &err);
    if (!s && f.n_sizes) {
        s = validate_sizes(&a, &f, &p, plan, sweep, &json, &err);
        cli_json_abort(&json);
        trapeze_sample_log_close(sweep);
        return calib_exit(&a, plan, log, s, &err);
    }
    if (!s)
        s = trapeze_ghostzone_validate(plan, &p, log, sweep, a.threads, calib_progress, &a.threads, &v, &err);
    if (!s)
        s = trapeze_ghostzone_validation_write_csv(&v, f.csv, f.curve, &err);
    if (!s) {
        print_rows(&v);
        json_rows(json.j, &v);
        s = cli_json_commit(&json, &err);
    }
    cli_json_abort(&json);
    trapeze_ghostzone_validation_free(&v);
    trapeze_sample_log_close(sweep);
    return calib_exit(&a, plan, log, s, &err);
}
