/*
 * calib_common.c - the options `trapeze calibrate` and `trapeze validate`
 * share, preset names (gtx480 -> data/gpus/gtx480.config, pathfinder ->
 * data/workloads/pathfinder.ini), and the progress line. Parsing only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "cli/calib_models.h"
#include "cli/commands.h"
#include "common/text.h"

static const char help_gpu[] =
"  --gpu FILE|NAME     GPU config (gpgpusim.config syntax), an Accel-Sim config\n"
"                      folder, or a shipped preset: gtx280, gtx480, v100, a100,\n"
"                      h100, rtx3070, choo-baseline (required)\n";
/* then --model (calib_models.c) */
static const char help_rest[] =
"  --samples FILE      the samples log (default samples.csv)\n"
"  --budget N          stencil samples per workload (default 12)\n"
"  --stages N          timed stages per sample, after one warm-up (default 2)\n"
"  --max-h N           largest h sampled and validated (default: every valid h)\n"
"  --sweep-budget N    warp instructions of one workload's validation sweep; sets\n"
"                      the reference grid samples are scaled from (default 5e8)\n"
"  --min-fraction F, --max-fraction F\n"
"                      sample grid volume / reference volume (default 1/4, 4;\n"
"                      at most 64: samples may span several reference grids)\n"
"  --identify          add the samples that identify the fence-mode constants:\n"
"                      a fence profiling pair per workload, and both modes at\n"
"                      tall h past the resident blocks for a loop that loads\n"
"                      every iteration (6 rows for PathFinder, 2 for others)\n"
"  --tall-rows         of those, only the tall rows (4 for PathFinder, none for\n"
"                      others): what the shipped calibrations hold\n"
CLI_THREADS_HELP
"  --folds K           cross-validation folds (default 5)\n"
CLI_JSON_HELP
"  WORKLOAD            a workload spec (.ini) or a shipped preset: pathfinder,\n"
"                      hotspot, poisson, cell (default: all four)\n";

const char *calib_common_help(char *out, size_t size)
{
    char model[512];
    snprintf(out, size, "%s%s%s", help_gpu, cli_calib_model_help(model, sizeof model),
             help_rest);
    return out;
}

static const char *const presets[] = {"pathfinder", "hotspot", "poisson", "cell"};

int calib_usage_error(const char *cmd, const char *what, const char *value)
{
    if (value)
        cli_usage_error(cmd, "%s '%s'", what, value);
    else
        cli_usage_error(cmd, "%s", what);
    return -1;
}

static int number_arg(calib_args *a, const char *opt, const char *val, double lo, double hi,
                      double *out)
{
    if (!trapeze_parse_double(val, out) || *out < lo || *out > hi) {
        char what[160];
        snprintf(what, sizeof what, "%s: expected a number from %g to %g, got", opt, lo, hi);
        return calib_usage_error(a->cmd, what, val);
    }
    return 0;
}

/* The common options, in the order their "did you mean" is looked up; the
 * first eight are numbers (the first five whole), each into its text. */
static const struct { const char *name; double lo, hi; } common[] = {
    {"--budget", 1, 4096}, {"--stages", 1, 32}, {"--max-h", 1, 1e6}, {"--threads", 1, 256},
    {"--folds", 2, 100}, {"--sweep-budget", 1e3, 1e15}, {"--min-fraction", 1e-6, 64},
    {"--max-fraction", 1e-6, 64}};
#define N_NUMERIC (sizeof common / sizeof common[0])

/* The numbers' texts into a, checked in the table's order: 0, or -1. */
static int take_numbers(calib_args *a, const char *const *text)
{
    double *real[] = {&a->opt.sweep_budget, &a->opt.min_fraction, &a->opt.max_fraction};
    int *whole[] = {&a->opt.budget, &a->opt.stages, &a->opt.max_h, &a->threads, &a->opt.folds};
    for (size_t k = 0; k < N_NUMERIC; k++) {
        double v;
        if (!text[k])
            continue;
        if (number_arg(a, common[k].name, text[k], common[k].lo, common[k].hi, &v) < 0)
            return -1;
        if (k < 5 && v != (int)v)
            return calib_usage_error(a->cmd, "expected a whole number, got", text[k]);
        if (k < 5)
            *whole[k] = (int)v;
        else
            *real[k - 5] = v;
    }
    return 0;
}

/* The operands: workloads, at most CALIB_MAX_WORKLOADS; 0, or -1. */
static int take_workloads(calib_args *a, const char *const *ops, int n)
{
    for (int i = 0; i < n; i++) {
        if (ops[i][0] == '-' && ops[i][1]) /* a negative number */
            return calib_usage_error(a->cmd, "unknown option or missing value:", ops[i]);
        if (a->n_workloads == CALIB_MAX_WORKLOADS)
            return calib_usage_error(a->cmd, "too many workloads (at most 16)", NULL);
        a->workload_args[a->n_workloads++] = ops[i];
    }
    return 0;
}

int calib_parse(calib_args *a, int argc, char **argv, const cli_field *own,
                void (*usage)(FILE *out))
{
    const char *gpu = NULL, *number[N_NUMERIC] = {0};
    cli_field all[64];
    int n = 0, n_ops = 0;
    all[n++] = (cli_field){"--gpu", &gpu, NULL};
    all[n++] = (cli_field){"--samples", &a->samples, NULL};
    static const int listed[N_NUMERIC] = {0, 1, 2, 5, 6, 7, 3, 4}; /* as the help lists them */
    for (size_t k = 0; k < N_NUMERIC; k++)
        all[n++] = (cli_field){common[listed[k]].name, &number[listed[k]], NULL};
    all[n++] = (cli_field){"--json", &a->json, NULL};
    all[n++] = (cli_field){"--identify", NULL, &a->opt.identify};
    all[n++] = (cli_field){"--tall-rows", NULL, &a->opt.tall};
    for (const cli_field *f = own; f->name && n < 63; f++)
        all[n++] = *f;
    all[n] = (cli_field){NULL, NULL, NULL};
    const char **ops = calloc((size_t)argc + 1, sizeof *ops);
    if (!ops)
        return 2;
    int rc = cli_parse_options(a->cmd, argc, argv, 1, all, ops, argc, &n_ops, usage);
    if (rc < 0 && (take_workloads(a, ops, n_ops) < 0 || take_numbers(a, number) < 0 ||
                   (gpu && cli_resolve_preset(a->cmd, "--gpu", "gpus", ".config", gpu, a->gpu,
                                              sizeof a->gpu))))
        rc = 2;
    free(ops);
    return rc;
}

int calib_finish_args(calib_args *a)
{
    if (!a->gpu[0])
        return calib_usage_error(a->cmd, "--gpu FILE is required", NULL);
    if (!a->samples)
        a->samples = "samples.csv";
    if (!a->n_workloads)
        for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++)
            a->workload_args[a->n_workloads++] = presets[k];
    for (int k = 0; k < a->n_workloads; k++)
        if (cli_resolve_preset(a->cmd, "workload", "workloads", ".ini", a->workload_args[k],
                               a->workload_paths[k], sizeof a->workload_paths[k]))
            return -1;
    return 0;
}

trapeze_status calib_make_plan(const calib_args *a, trapeze_ghostzone_plan **plan,
                               trapeze_error *err)
{
    trapeze_workload w[CALIB_MAX_WORKLOADS];
    for (int k = 0; k < a->n_workloads; k++) {
        trapeze_status s = trapeze_workload_load(a->workload_paths[k], &w[k], err);
        if (s)
            return s;
    }
    return trapeze_ghostzone_plan_create(a->gpu, w, a->n_workloads, &a->opt, plan, err);
}

void calib_progress(void *ctx, const trapeze_run_progress *at, const trapeze_sample *s)
{
    /* one line per command: the samples' clock starts with the first report */
    static cli_progress line;
    int threads = ctx ? *(const int *)ctx : 1;
    int left = at->total - at->done, running = left < threads ? left : threads;
    char detail[160];
    snprintf(detail, sizeof detail, "(%d running, %d left) %s", running, left, s->id);
    cli_progress_rows(&line, at, "samples", detail);
}

trapeze_status calib_open_log(const calib_args *a, const char *path, trapeze_sample_log **log,
                              trapeze_error *err)
{
    trapeze_status s = trapeze_sample_log_open(path, log, err);
    if (!s && trapeze_sample_log_note(*log))
        fprintf(stderr, "trapeze %s: note: %s\n", a->cmd, trapeze_sample_log_note(*log));
    return s;
}

int calib_exit(const calib_args *a, trapeze_ghostzone_plan *plan, trapeze_sample_log *log,
               trapeze_status s, const trapeze_error *err)
{
    trapeze_sample_log_close(log);
    trapeze_ghostzone_plan_destroy(plan);
    if (s)
        fprintf(stderr, "trapeze %s: %s\n", a->cmd, err->message);
    return s ? 1 : 0;
}
