/*
 * cmd_validate.c - `trapeze validate`: full simulations of every h in both
 * sync modes against a calibration's predictions; prints per workload and
 * mode the error, the picked h against the best simulated one and the
 * sample cost against the sweep's. Parsing and printing only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "cli/commands.h"

static const char *const row_columns[] = {
    "workload", "sync", "mape_pct", "max_ape_pct", "h_model", "h_sim_best", "pick_ratio",
    "sample_warp_instructions", "sweep_warp_instructions"};
static const char *const curve_columns[] = {"workload", "sync", "h", "cpl_sim", "cpl_model",
                                            "warp_instructions"};

static void usage(FILE *out)
{
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
"  --csv FILE          one row per workload and sync mode:\n"
"                      workload,sync,mape_pct,max_ape_pct,h_model,h_sim_best,\n"
"                      pick_ratio,sample_warp_instructions,sweep_warp_instructions\n"
"  --curve FILE        one row per workload, mode and h:\n"
"                      workload,sync,h,cpl_sim,cpl_model,warp_instructions\n"
"  --sweep-log FILE    keep the sweep's runs (samples.csv format): a rerun reuses\n"
"                      them and an interrupted one resumes\n"
"  -h, --help          show this help\n", calib_common_help);
}

typedef struct {
    const char *calibration, *csv, *curve, *sweep;
} validate_files;

static int parse(int argc, char **argv, calib_args *a, validate_files *f)
{
    for (int i = 1; i < argc; i++) {
        int r = calib_parse_common(a, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(argv[i], "--calibration") ? &f->calibration
                            : !strcmp(argv[i], "--csv")       ? &f->csv
                            : !strcmp(argv[i], "--curve")     ? &f->curve
                            : !strcmp(argv[i], "--sweep-log") ? &f->sweep
                                                              : NULL;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!slot || !val) {
            calib_usage_error(a->cmd, "unknown option or missing value:", argv[i]);
            return 2;
        }
        *slot = val;
        i++;
    }
    if (calib_finish_args(a) < 0)
        return 2;
    if (!f->calibration) {
        calib_usage_error(a->cmd, "--calibration FILE is required", NULL);
        return 2;
    }
    return -1;
}

static trapeze_status write_rows(const char *path, const trapeze_validation *v, trapeze_error *err)
{
    trapeze_csv_out *csv;
    trapeze_status s = trapeze_csv_create(path, row_columns, 9, &csv, err);
    for (int i = 0; !s && i < v->n_rows; i++) {
        const trapeze_validation_row *r = &v->rows[i];
        trapeze_csv_text(csv, r->workload);
        trapeze_csv_text(csv, trapeze_sync_name(r->sync));
        double nums[] = {r->mape_pct, r->max_ape_pct, r->h_model, r->h_sim_best, r->pick_ratio,
                         r->sample_warp_instructions, r->sweep_warp_instructions};
        for (int k = 0; k < 7; k++)
            trapeze_csv_number(csv, nums[k]);
        s = trapeze_csv_end_row(csv, err);
    }
    if (s) {
        trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}

static trapeze_status write_curve(const char *path, const trapeze_validation *v, trapeze_error *err)
{
    trapeze_csv_out *csv;
    trapeze_status s = trapeze_csv_create(path, curve_columns, 6, &csv, err);
    for (int i = 0; !s && i < v->n_points; i++) {
        const trapeze_validation_point *p = &v->points[i];
        trapeze_csv_text(csv, p->workload);
        trapeze_csv_text(csv, trapeze_sync_name(p->sync));
        double nums[] = {p->h, p->cpl_sim, p->cpl_model, p->warp_instructions};
        for (int k = 0; k < 4; k++)
            trapeze_csv_number(csv, nums[k]);
        s = trapeze_csv_end_row(csv, err);
    }
    if (s) {
        trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}

static void print_rows(const trapeze_validation *v)
{
    printf("%-12s %-8s %8s %8s %7s %10s %10s %12s\n", "workload", "sync", "mape_%", "max_%",
           "h_model", "h_sim_best", "pick_ratio", "sample_cost%");
    for (int i = 0; i < v->n_rows; i++) {
        const trapeze_validation_row *r = &v->rows[i];
        printf("%-12s %-8s %8.2f %8.2f %7d %10d %10.4f %12.2f\n", r->workload,
               trapeze_sync_name(r->sync), r->mape_pct, r->max_ape_pct, r->h_model, r->h_sim_best,
               r->pick_ratio, 100 * r->sample_warp_instructions / r->sweep_warp_instructions);
    }
}

int cli_validate(int argc, char **argv)
{
    calib_args a = {.cmd = "validate", .threads = 1};
    validate_files f = {0};
    trapeze_calib_options_default(&a.opt);
    int rc = parse(argc, argv, &a, &f);
    if (rc >= 0)
        return rc;
    trapeze_error err = {0};
    trapeze_calib_plan *plan = NULL;
    trapeze_sample_log *log = NULL, *sweep = NULL;
    trapeze_gz_params p;
    trapeze_validation v = {0};
    trapeze_status s = trapeze_gz_params_load(f.calibration, &p, &err);
    if (!s)
        s = calib_make_plan(&a, &plan, &err);
    if (!s && access(a.samples, R_OK) == 0)
        s = trapeze_sample_log_open(a.samples, &log, &err);
    if (!s && f.sweep)
        s = trapeze_sample_log_open(f.sweep, &sweep, &err);
    if (!s)
        s = trapeze_calib_validate(plan, &p, log, sweep, a.threads, calib_progress, NULL, &v, &err);
    if (!s && f.csv)
        s = write_rows(f.csv, &v, &err);
    if (!s && f.curve)
        s = write_curve(f.curve, &v, &err);
    if (!s)
        print_rows(&v);
    trapeze_validation_free(&v);
    trapeze_sample_log_close(log);
    trapeze_sample_log_close(sweep);
    trapeze_calib_plan_destroy(plan);
    if (s) {
        fprintf(stderr, "trapeze validate: %s\n", err.message);
        return 1;
    }
    return 0;
}
