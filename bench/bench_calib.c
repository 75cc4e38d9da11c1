/*
 * bench_calib.c - the sampled calibration on the GTX 480 for Meng's four
 * benchmarks: wall time of the samples with 1 and 2 threads (and that both
 * write the same bytes), of the fit with cross-validation, and the
 * calibration's targets (docs/calibration.md) against the shipped
 * full-simulation sweep (data/validation/gtx480-sweep.csv, copied so it is
 * not touched): MAPE of the calibrated CPL, the picked h's share of the
 * best simulated performance, and the samples' cost against the sweep's.
 * Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/text.h"
#include "trapeze.h"
#include "bench/bench_common.h"

static int fail(const trapeze_error *err)
{
    fprintf(stderr, "bench_calib: %s\n", err->message);
    return 1;
}

/* Runs every sample of plan into a fresh log at path; seconds, or -1. */
static double run_samples(const trapeze_ghostzone_plan *plan, const char *path, int threads,
                          trapeze_error *err)
{
    trapeze_sample_log *log;
    remove(path);
    if (trapeze_sample_log_open(path, &log, err))
        return -1;
    double t0 = now();
    trapeze_status s = trapeze_ghostzone_run(plan, log, threads, NULL, NULL, err);
    double t = now() - t0;
    trapeze_sample_log_close(log);
    return s ? -1 : t;
}

static int same_file(const char *a, const char *b)
{
    char *x = NULL, *y = NULL;
    int same = !trapeze_read_file(a, &x, NULL) && !trapeze_read_file(b, &y, NULL) && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

static void print_targets(const trapeze_ghostzone_validation *v)
{
    printf("%-11s %-8s %7s %7s %8s %11s %11s\n", "workload", "sync", "mape%", "max%", "h m/sim",
           "pick_ratio", "sample/sweep");
    for (int i = 0; i < v->n_rows; i++) {
        const trapeze_ghostzone_validation_row *r = &v->rows[i];
        printf("%-11s %-8s %7.2f %7.2f %4d/%-3d %11.4f %10.2f%%   targets: %s %s %s\n", r->workload,
               trapeze_sync_name(r->sync), r->mape_pct, r->max_ape_pct, r->h_model, r->h_sim_best,
               r->pick_ratio, 100 * r->sample_warp_instructions / r->sweep_warp_instructions,
               r->mape_pct <= 5 ? "mape-met" : "mape-MISSED",
               r->pick_ratio >= 0.99 ? "pick-met" : "pick-MISSED",
               r->sample_warp_instructions <= 0.05 * r->sweep_warp_instructions ? "cost-met"
                                                                                : "cost-MISSED");
    }
}

int main(void)
{
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    trapeze_workload w[4];
    trapeze_error err;
    trapeze_ghostzone_calib_options o;
    trapeze_ghostzone_plan *plan;
    for (int i = 0; i < 4; i++) {
        char path[128];
        snprintf(path, sizeof path, "data/workloads/%s.ini", names[i]);
        if (trapeze_workload_load(path, &w[i], &err))
            return fail(&err);
    }
    trapeze_ghostzone_calib_options_init(&o);
    if (trapeze_ghostzone_plan_create("data/gpus/gtx480.config", w, 4, &o, &plan, &err))
        return fail(&err);
    double t1 = run_samples(plan, "build/bench_calib_1.csv", 1, &err);
    double t2 = t1 < 0 ? -1 : run_samples(plan, "build/bench_calib_2.csv", 2, &err);
    if (t2 < 0)
        return fail(&err);
    trapeze_sample_log *log;
    if (trapeze_sample_log_open("build/bench_calib_2.csv", &log, &err))
        return fail(&err);
    double warp = 0;
    for (int i = 0; i < trapeze_sample_log_count(log); i++)
        warp += trapeze_sample_log_get(log, i)->warp_instructions;
    printf("calibration samples, GTX 480, 4 benchmarks: %d samples, %.1f M warp instructions: "
           "%.2f s on 1 thread, %.2f s on 2 threads (%.2fx), same bytes: %s\n",
           trapeze_ghostzone_plan_count(plan), warp / 1e6, t1, t2, t1 / t2,
           same_file("build/bench_calib_1.csv", "build/bench_calib_2.csv") ? "yes" : "NO");
    trapeze_ghostzone_params p;
    trapeze_fit_report rep;
    double t0 = now();
    if (trapeze_ghostzone_from_log(plan, log, &p, &rep, &err))
        return fail(&err);
    printf("fit of %d parameters to %d observations + %d-fold cross-validation: %.1f ms; "
           "in-sample RMS %.2f%%, CV MAPE %.2f%%\n", rep.n_fitted, rep.n_points, o.folds,
           1e3 * (now() - t0), 100 * rep.rms_rel_error, rep.cv_mape_pct);
    char *sweep = NULL;
    FILE *f = fopen("build/bench_calib_sweep.csv", "w");
    if (trapeze_read_file("data/validation/gtx480-sweep.csv", &sweep, &err) || !f)
        return fail(&err);
    fputs(sweep, f);
    fclose(f);
    free(sweep);
    trapeze_sample_log *sweep_log;
    trapeze_ghostzone_validation v;
    if (trapeze_sample_log_open("build/bench_calib_sweep.csv", &sweep_log, &err) ||
        trapeze_ghostzone_validate(plan, &p, log, sweep_log, 2, NULL, NULL, &v, &err))
        return fail(&err);
    printf("against the full-simulation sweep (every h up to the sweep's max, both modes):\n");
    print_targets(&v);
    trapeze_ghostzone_validation_free(&v);
    trapeze_sample_log_close(sweep_log);
    trapeze_sample_log_close(log);
    trapeze_ghostzone_plan_destroy(plan);
    return 0;
}
