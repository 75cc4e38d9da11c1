/*
 * calib_common.c - the options `trapeze calibrate` and `trapeze validate`
 * share, preset names (gtx480 -> data/gpus/gtx480.config, pathfinder ->
 * data/workloads/pathfinder.ini), and the progress line. Parsing only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "cli/calib_models.h"
#include "cli/commands.h"
#include "common/text.h"

static const char help_gpu[] =
"  --gpu FILE|NAME     GPU config (gpgpusim.config syntax) or a shipped preset:\n"
"                      gtx280, gtx480, v100 (required)\n";
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
"  --threads N         threads in all (default 1; results do not depend on it):\n"
"                      samples side by side, and those left over split each\n"
"                      sample's simulation when fewer samples than threads remain\n"
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
    if (!val)
        return calib_usage_error(a->cmd, opt, "needs a value");
    if (!trapeze_parse_double(val, out) || *out < lo || *out > hi) {
        char what[160];
        snprintf(what, sizeof what, "%s: expected a number from %g to %g, got", opt, lo, hi);
        return calib_usage_error(a->cmd, what, val);
    }
    return 0;
}

int calib_parse_common(calib_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    static const struct { const char *name; double lo, hi; } numeric[] = {
        {"--budget", 1, 4096}, {"--stages", 1, 32}, {"--max-h", 1, 1e6}, {"--threads", 1, 256},
        {"--folds", 2, 100}, {"--sweep-budget", 1e3, 1e15}, {"--min-fraction", 1e-6, 64},
        {"--max-fraction", 1e-6, 64}};
    double *real[] = {&a->opt.sweep_budget, &a->opt.min_fraction, &a->opt.max_fraction};
    int *whole[] = {&a->opt.budget, &a->opt.stages, &a->opt.max_h, &a->threads, &a->opt.folds};
    for (size_t k = 0; k < sizeof numeric / sizeof numeric[0]; k++) {
        if (strcmp(arg, numeric[k].name) != 0)
            continue;
        double v;
        if (number_arg(a, arg, val, numeric[k].lo, numeric[k].hi, &v) < 0)
            return -1;
        if (k < 5 && v != (int)v)
            return calib_usage_error(a->cmd, "expected a whole number, got", val);
        if (k < 5)
            *whole[k] = (int)v;
        else
            *real[k - 5] = v;
        (*i)++;
        return 1;
    }
    if (strcmp(arg, "--json") == 0) {
        if (!val)
            return calib_usage_error(a->cmd, arg, "needs a value");
        a->json = val;
        (*i)++;
        return 1;
    }
    if (strcmp(arg, "--gpu") == 0 || strcmp(arg, "--samples") == 0) {
        if (!val)
            return calib_usage_error(a->cmd, arg, "needs a value");
        if (arg[2] == 'g') {
            if (cli_resolve_preset(a->cmd, "--gpu", "gpus", ".config", val, a->gpu,
                                   sizeof a->gpu))
                return -1;
        } else
            a->samples = val;
        (*i)++;
        return 1;
    }
    if (arg[0] == '-' && arg[1])
        return 0;
    if (a->n_workloads == CALIB_MAX_WORKLOADS)
        return calib_usage_error(a->cmd, "too many workloads (at most 16)", NULL);
    a->workload_args[a->n_workloads++] = arg;
    return 1;
}

int calib_parse(calib_args *a, int argc, char **argv, calib_own_option own, void *ctx,
                void (*usage)(FILE *out))
{
    for (int i = 1; i < argc; i++) {
        int r = calib_parse_common(a, argc, argv, &i);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        int taken = own(a, ctx, argv[i], i + 1 < argc ? argv[i + 1] : NULL);
        if (taken < 0)
            return 2;
        if (taken == 0) {
            calib_usage_error(a->cmd, "unknown option or missing value:", argv[i]);
            return 2;
        }
        i += taken - 1;
    }
    return calib_finish_args(a) < 0 ? 2 : -1;
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

int calib_check_options(const char *cmd, int argc, char **argv, const cli_opt *own)
{
    static const cli_opt common[] = {
        {"--gpu", 1, 0}, {"--samples", 1, 0}, {"--budget", 1, 0}, {"--stages", 1, 0},
        {"--max-h", 1, 0}, {"--sweep-budget", 1, 0}, {"--min-fraction", 1, 0},
        {"--max-fraction", 1, 0}, {"--threads", 1, 0}, {"--folds", 1, 0},
        {"--json", 1, 0}};
    cli_opt all[64];
    int n = 0;
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        all[n++] = common[i];
    for (const cli_opt *o = own; o->name && n < 63; o++)
        all[n++] = *o;
    all[n] = (cli_opt){NULL, 0, 0};
    return cli_check_options(cmd, argc, argv, 1, all);
}
