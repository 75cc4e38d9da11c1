/*
 * cmd_ghostzone.c - `trapeze ghostzone`: argument parsing and printing for
 * the ghost-zone model. Every computation is a library call.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/ghostzone_group.h"
#include "cli/ghostzone_verify.h"
#include "common/error.h"
#include "common/text.h"
#include "trapeze.h"

#define MAX_WORKLOADS 64

static const char *const default_workloads[] = {"pathfinder", "hotspot", "poisson", "cell"};

typedef struct {
    const char *gpu, *calibration, *csv, *json;
    trapeze_json_out *j;   /* --json's document (NULL: none) */
    int modes[2], nmodes;  /* sync modes to optimize */
    int tau, optimize_block, force_calibration, spec_counts, list_keys;
    const char *trace, *ncu, *kernel; /* a run of the stencil's own kernel */
    long height;           /* evaluate this height instead of optimizing; 0 = optimize */
    long verify, stages, threads; /* simulate the `verify` best candidates */
    const char **workloads; /* the operands: argc of them at most */
    int nworkloads;
    cli_gz_group group;    /* --group and its options (ghostzone_group.c) */
    cli_gz_energy_opts energy;  /* --objective, --power, --max-penalty (ghostzone_energy.c) */
} gz_args;

static void usage(FILE *out)
{
    fprintf(out,
"usage: trapeze ghostzone [options] [WORKLOAD.ini ...]\n"
"\n"
"Predicts the best ghost-zone (trapezoid) height h of iterative stencil loops\n"
"with Meng's cycles-per-loop model (dissertation ch. 5, Eqs. 5.1-5.30), for\n"
"kernel-relaunch and memory-fence global sync, and picks the faster mode.\n"
"With no WORKLOAD it runs the dissertation's four benchmarks (PathFinder,\n"
"HotSpot, Poisson, Cell) on the GTX 280.\n"
"\n"
"options:\n"
"  --gpu FILE|NAME     GPU config in gpgpusim.config syntax, an Accel-Sim config\n"
"                      folder, or a shipped preset (gtx280, gtx480, v100, a100,\n"
"                      h100, rtx3070, choo-baseline; default: gtx280 with Meng's\n"
"                      own constants, the dissertation's 'paper mode')\n"
"  --calibration FILE|NAME\n"
"                      model parameters, [ghostzone] INI (default: the\n"
"                      calibration shipped for --gpu, data/calibrations/NAME.ini)\n"
"  --force-calibration use --calibration although it records another GPU\n"
"  --spec-counts       for a workload the calibration has no [profile.NAME] of,\n"
"                      use the instruction counts its spec gives (Meng's GTX 280\n"
"                      convention) instead of profiling it on --gpu with four short\n"
"                      simulations, the counts `validate` uses (the default with\n"
"                      --gpu; in paper mode the spec's counts are always used)\n"
"  --trace DIR         an Accel-Sim trace of the stencil as its author wrote it\n"
"                      (one thread per point, one sweep per launch): its grid,\n"
"                      block, FP and special-function instructions per point and\n"
"                      (2-D/3-D) star or box shape fill what the one WORKLOAD's\n"
"                      spec leaves out; the spec's own keys win\n"
"  --ncu FILE          the same from an Nsight Compute export of that kernel\n"
"                      (ncu --csv --page raw with the metrics docs/formats.md\n"
"                      lists); --kernel NAME keeps the launches of that name\n"
"  --sync MODE         relaunch, fence or best (default best: both, and the\n"
"                      faster is reported as chosen)\n"
"  --tau               apply tau = (1-beta)(1+BankConflictRate) of Eq. 5.11 to\n"
"                      compute (off by default: 'paper mode', which reproduces\n"
"                      the dissertation's printed predictions)\n"
"  --optimize-block    also choose the block edge, bounded by the GPU's threads\n"
"                      and shared memory per block\n"
"  --height N          evaluate the model at height N instead of optimizing\n"
"  --verify N          simulate the model's N best (mode, h) at the workload's\n"
"                      own grid (and the other mode's best when those N are one\n"
"                      mode) for --stages stages, then search along h from the\n"
"                      fastest where the model's curve is off, and in the\n"
"                      other mode from its fastest when that is within 10%%\n"
"                      (up to 16 runs more), and decide by simulation (prints\n"
"                      each candidate and the warp instructions spent; stderr\n"
"                      shows each candidate's stage and the time left; Ctrl-C\n"
"                      prints what was verified so far)\n"
"  --stages N          timed stages per verified candidate (default 2)\n"
"  --threads N         threads in all: candidates simulated side by side, the\n"
"                      rest splitting each simulation (default 1)\n"
"  --csv FILE          write one row per (workload, sync, h) for every valid h:\n"
"                      workload,gpu,sync,h,trapezoids,cpl_cycles,glbsync_cycles,\n"
"                      loadsten_cycles,commit_cycles,itermem_cycles,\n"
"                      misccomp_cycles,itercomp_cycles,speedup_vs_h1\n"
"                      (with --objective, energy columns follow: docs/sleep.md)\n"
CLI_JSON_HELP
"  --objective OBJ     time, energy or edp: also predict the energy per loop of\n"
"                      every (sync, h) with sleep thresholds chosen for it, from\n"
"                      short simulated samples (3 heights per sync mode), and\n"
"                      pick by OBJ (prints the picks by all three)\n"
"  --power FILE|NAME   power description (default: data/power/GPU.ini)\n"
"  --max-penalty F     sleep wake-up penalty budget, fraction of cycles (0.01)\n"
"  --energy-samples FILE\n"
"                      log of those samples (resumed: logged ones are not run\n"
"                      again; --threads N runs them in parallel)\n"
"  --list-keys         print the keys a workload spec may hold, one\n"
"                      '[section] key' a line (docs/formats.md), and exit\n"
"  -h, --help          show this help\n");
    cli_gz_group_usage(out);
    fprintf(out,
"\n"
"Output columns: h* is the continuous optimum (NLopt MMA under Eq. 5.20);\n"
"h = floor(h*), the dissertation's choice; h_argmin is the best integer\n"
"height; cpl is cycles per loop at h_argmin; speedup is CPL(1)/CPL(h_argmin);\n"
"delta is Eq. 5.23's per-block net cost of fences (delta > 0 favours\n"
"relaunch); chosen is the mode of the best integer (mode, h).\n"
"Below each workload, 'best:' is the headline: the best integer (mode, h),\n"
"the predicted margin over the runner-up and its standard deviation from\n"
"the calibration's covariance (stderr and [correlation]); a margin within\n"
"two standard deviations is flagged, and --verify decides it. When the\n"
"runner-up is of the same sync mode, 'sync mode:' gives the other mode's\n"
"best, its margin and uncertainty, flagged alike: how sure the choice of\n"
"sync mode is.\n"
"\n"
"Instruction counts: a workload with a [profile.NAME] in the calibration uses\n"
"those (measured on the calibrated GPU). Else, with --gpu, the kernel generated\n"
"from the spec is profiled on that GPU; without --gpu (or with --spec-counts)\n"
"the spec's own counts are used: derived from its stencil (shape, arrays,\n"
"flops_per_point, ...) or, as an override, its [profile] (Meng's GTX 280\n"
"per-SM counts). stderr says which, except for a [profile] in paper mode.\n");
}

/* 0: a sync mode (or best); -1: not one. */
static int parse_sync(const char *v, gz_args *a)
{
    if (strcmp(v, "relaunch") == 0) {
        a->modes[0] = TRAPEZE_SYNC_RELAUNCH;
        a->nmodes = 1;
    } else if (strcmp(v, "fence") == 0) {
        a->modes[0] = TRAPEZE_SYNC_FENCE;
        a->nmodes = 1;
    } else if (strcmp(v, "best") == 0) {
        a->modes[0] = TRAPEZE_SYNC_RELAUNCH;
        a->modes[1] = TRAPEZE_SYNC_FENCE;
        a->nmodes = 2;
    } else {
        return -1;
    }
    return 0;
}

/* A whole-number option's text into *out, checked against [1, max] (max 0:
 * no bound): 0; else the usage error's status. */
static int whole(const char *opt, const char *text, long max, long *out)
{
    if (!text || (trapeze_parse_long(text, out) && *out >= 1 && (!max || *out <= max)))
        return 0;
    return cli_usage_error("ghostzone", "%s: expected a positive integer%s, got '%s'", opt,
                           max == 1000 ? " up to 1000" : max ? " up to 32" : "", text);
}

/* The options' texts into a, each checked. Returns -1 when parsed, else the
 * exit status (0 after --help). */
static int parse_options(int argc, char **argv, gz_args *a)
{
    const char *sync = NULL, *height = NULL, *verify = NULL, *stages = NULL, *threads = NULL;
    cli_gz_energy_text energy = {0};
    const cli_field fields[] = {
        {"--gpu", &a->gpu, NULL}, {"--calibration", &a->calibration, NULL},
        {"--force-calibration", NULL, &a->force_calibration}, {"--sync", &sync, NULL},
        {"--spec-counts", NULL, &a->spec_counts}, {"--json", &a->json, NULL},
        {"--trace", &a->trace, NULL}, {"--ncu", &a->ncu, NULL}, {"--kernel", &a->kernel, NULL},
        {"--csv", &a->csv, NULL}, {"--height", &height, NULL}, {"--tau", NULL, &a->tau},
        {"--optimize-block", NULL, &a->optimize_block}, {"--verify", &verify, NULL},
        {"--stages", &stages, NULL}, {"--threads", &threads, NULL},
        CLI_GZ_ENERGY_FIELDS(&a->energy, &energy), {"--list-keys", NULL, &a->list_keys},
        CLI_GZ_GROUP_FIELDS(&a->group), {NULL, NULL, NULL}};
    int rc = cli_parse_options("ghostzone", argc, argv, 1, fields, a->workloads, argc,
                               &a->nworkloads, usage);
    if (rc >= 0)
        return rc;
    cli_gz_group_parsed(&a->group);
    parse_sync("best", a);
    if (sync && parse_sync(sync, a) != 0)
        return cli_usage_error("ghostzone", "--sync: expected relaunch, fence or best, got '%s'",
                               sync);
    if ((rc = whole("--height", height, 0, &a->height)) ||
        (rc = whole("--verify", verify, 1000, &a->verify)) ||
        (rc = whole("--stages", stages, 32, &a->stages)) ||
        (rc = whole("--threads", threads, 32, &a->threads)) ||
        (rc = cli_gz_energy_parse(&energy, &a->energy)))
        return rc;
    return -1;
}

/* Returns -1 when parsed, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, gz_args *a)
{
    int rc = parse_options(argc, argv, a);
    if (rc >= 0)
        return rc;
    for (int i = 0; i < a->nworkloads; i++)
        if (a->workloads[i][0] == '-' && a->workloads[i][1]) /* a negative number */
            return cli_usage_error("ghostzone", "unknown option '%s'", a->workloads[i]);
    if (a->nworkloads > MAX_WORKLOADS)
        return cli_usage_error("ghostzone", "at most %s workloads", "64");
    if ((a->energy.power || a->energy.max_penalty > 0 || a->energy.samples) && !a->energy.enabled)
        return cli_usage_error("ghostzone", "--power, --max-penalty and --energy-samples need "
                               "--objective");
    a->energy.threads = (int)a->threads;
    if (a->energy.enabled && (a->height || a->optimize_block || a->verify))
        return cli_usage_error("ghostzone", "--objective ranks every height at the workload's "
                               "block: not with --height, --optimize-block or --verify");
    if (a->height && a->optimize_block)
        return cli_usage_error("ghostzone", "--height and --optimize-block exclude each other");
    if (a->trace && a->ncu)
        return cli_usage_error("ghostzone", "--trace and --ncu exclude each other");
    if (a->kernel && !a->ncu)
        return cli_usage_error("ghostzone", "--kernel goes with --ncu");
    if ((a->trace || a->ncu) && a->nworkloads != 1)
        return cli_usage_error("ghostzone", "%s describes one stencil: give its spec (the halo "
                               "and arrays a run cannot say) as the one WORKLOAD",
                               a->trace ? "--trace" : "--ncu");
    if (a->verify && (a->height || a->optimize_block || a->nmodes != 2))
        return cli_usage_error("ghostzone", "--verify decides among both modes' heights: not with "
                               "--height, --optimize-block or --sync");
    if (a->group.enabled && (a->height || a->optimize_block))
        return cli_usage_error("ghostzone", "--group chooses h itself: not with --height or "
                               "--optimize-block");
    return -1;
}

/* The GPU, then its calibration: --calibration when given, else the one
 * shipped for that GPU (data/calibrations/NAME.ini), else none: an error,
 * never another GPU's constants. No --gpu at all is the dissertation's
 * paper mode, the GTX 280 with Meng's constants. */
static int load_inputs(const gz_args *a, trapeze_gpu *gpu, trapeze_ghostzone_params *p,
                       char *gpu_path, size_t gpu_path_size, trapeze_error *err)
{
    char path[4096], calib[4096];
    trapeze_config *cfg;
    if (cli_resolve_preset("ghostzone", "--gpu", "gpus", ".config", a->gpu ? a->gpu : "gtx280",
                           path, sizeof path))
        return 2;
    snprintf(gpu_path, gpu_path_size, "%s", path);
    trapeze_status s = trapeze_config_load(path, &cfg, err);
    if (!s) {
        s = trapeze_gpu_from_config(cfg, gpu, err);
        trapeze_config_destroy(cfg);
    }
    if (s)
        return 1;
    if (a->calibration) {
        if (cli_resolve_preset("ghostzone", "--calibration", "calibrations", ".ini",
                               a->calibration, calib, sizeof calib))
            return 2;
    } else {
        char rel[128];
        snprintf(rel, sizeof rel, "calibrations/%.64s.ini", a->gpu ? gpu->name : "gtx280-meng2010");
        cli_data_path(rel, calib, sizeof calib);
        if (access(calib, R_OK) != 0) {
            trapeze_fail(err, TRAPEZE_EINVAL, "no calibration shipped for GPU %s (%s): make one "
                         "with 'trapeze calibrate --gpu %s --out FILE' and pass --calibration "
                         "FILE", gpu->name, calib, a->gpu);
            return 1;
        }
    }
    if (trapeze_ghostzone_params_load(calib, p, err))
        return 1;
    if (!a->force_calibration && trapeze_ghostzone_params_check_gpu(p, gpu, err)) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        trapeze_fail(err, TRAPEZE_EINVAL, "%s: %s", calib, why);
        return 1;
    }
    return 0;
}

/* Whether the calibration carries standard errors (the headlines' margins
 * then have an uncertainty, which the legend explains). */
static int has_stderr(const trapeze_ghostzone_params *p)
{
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++)
        if (p->stderr_[k] > 0)
            return 1;
    return 0;
}

static void print_header(void)
{
    printf("%-12s %-8s %-8s %8s %4s %8s %14s %8s %8s %s\n", "workload", "gpu", "sync", "h*",
           "h", "h_argmin", "cpl_cycles", "speedup", "delta", "chosen");
}

/* Candidate c's margin over the best and its standard deviation; returns
 * 1 when the margin is within two of them (sd 0: no uncertainty known). */
static int print_margin(const trapeze_ghostzone_choice *best, const trapeze_ghostzone_choice *c, double *sd)
{
    double margin = c->cpl_model / best->cpl_model - 1;
    *sd = c->diff_sd / best->cpl_model;
    printf("%+.2f%%", 100 * margin);
    if (*sd > 0)
        printf(" +- %.2f%%", 100 * *sd);
    return *sd > 0 && margin < 2 * *sd;
}

/* Candidate c in the document under key: its (mode, h) and predicted CPL;
 * beside a best, its margin over it and that margin's uncertainty, as the
 * headline prints them (margin_sd_pct null: no uncertainty known). */
static void json_choice(trapeze_json_out *j, const char *key, const trapeze_ghostzone_choice *best,
                        const trapeze_ghostzone_choice *c)
{
    trapeze_json_object(j, key);
    trapeze_json_text(j, "sync", trapeze_sync_name(c->sync));
    trapeze_json_integer(j, "h", c->h);
    trapeze_json_number(j, "cpl_cycles", c->cpl_model);
    if (best) {
        double margin = c->cpl_model / best->cpl_model - 1, sd = c->diff_sd / best->cpl_model;
        trapeze_json_number(j, "margin_pct", 100 * margin);
        trapeze_json_number(j, "margin_sd_pct", sd > 0 ? 100 * sd : NAN);
        trapeze_json_bool(j, "within_uncertainty", sd > 0 && margin < 2 * sd);
    }
    trapeze_json_end(j);
}

/* When the runner-up is of the best's sync mode, the other mode's best, its
 * margin and uncertainty: how sure the choice of sync mode is, on its own line. */
static void print_sync_margin(const gz_args *a, const trapeze_workload *w,
                              const trapeze_ghostzone_choice *c, int n)
{
    int o = 1;
    while (o < n && c[o].sync == c[0].sync)
        o++;
    if (o == 1 || o == n) {
        trapeze_json_text(a->j, "sync_mode", NULL);
        return; /* the runner-up is the other mode already, or there is one mode */
    }
    json_choice(a->j, "sync_mode", &c[0], &c[o]);
    double sd;
    printf("%-12s sync mode: %s's best, h=%d: ", w->name, trapeze_sync_name(c[o].sync), c[o].h);
    if (print_margin(&c[0], &c[o], &sd))
        printf(", within the calibration's uncertainty: the sync mode is not certain%s",
               a->verify ? "" : " (--verify 3 simulates both)");
    putchar('\n');
}

/* --verify's runs in the document: every simulated candidate, and the pick. */
static void json_verified(trapeze_json_out *j, const trapeze_ghostzone_choice *c, int n, int k,
                          int best, int searched, long stages, double work)
{
    trapeze_json_object(j, "verify");
    trapeze_json_array(j, "candidates");
    for (int i = 0; i < n; i++) {
        if (!(c[i].cpl_sim > 0))
            continue;
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "sync", trapeze_sync_name(c[i].sync));
        trapeze_json_integer(j, "h", c[i].h);
        trapeze_json_number(j, "cpl_sim", c[i].cpl_sim);
        trapeze_json_number(j, "cpl_model", c[i].cpl_model);
        trapeze_json_number(j, "model_error_pct", 100 * (c[i].cpl_model / c[i].cpl_sim - 1));
        trapeze_json_bool(j, "searched", i >= k);
        trapeze_json_number(j, "warp_instructions", c[i].warp_instructions);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    if (best >= 0) {
        trapeze_json_object(j, "verified");
        trapeze_json_text(j, "sync", trapeze_sync_name(c[best].sync));
        trapeze_json_integer(j, "h", c[best].h);
        trapeze_json_end(j);
    } else {
        trapeze_json_text(j, "verified", NULL);
    }
    trapeze_json_integer(j, "simulated", k + searched);
    trapeze_json_integer(j, "model_best", k);
    trapeze_json_integer(j, "searched", searched);
    trapeze_json_integer(j, "stages", stages);
    trapeze_json_number(j, "warp_instructions", work);
    trapeze_json_end(j);
}

/* The headline: the best integer (mode, h), its margin over the runner-up
 * and that margin's uncertainty; with --verify, the decision by simulation. */
/* spec: the workload as its file gives it; the model's copy carries the
 * calibration's profiled counts, which must not shape the simulated kernel. */
static trapeze_status decide(const gz_args *a, const char *gpu_path, const trapeze_ghostzone_model *m,
                             const trapeze_workload *spec, const trapeze_ghostzone_params *p,
                             trapeze_error *err)
{
    const trapeze_workload *w = spec;
    trapeze_ghostzone_choice *c;
    int n;
    trapeze_status s = trapeze_ghostzone_rank(m, p, w->blk_len, &c, &n, err);
    if (s)
        return s;
    printf("%-12s best: %s h=%d (CPL %.1f)", w->name, trapeze_sync_name(c[0].sync), c[0].h,
           c[0].cpl_model);
    json_choice(a->j, "best", NULL, &c[0]);
    if (n > 1)
        json_choice(a->j, "runner_up", &c[0], &c[1]);
    else
        trapeze_json_text(a->j, "runner_up", NULL);
    if (n > 1) {
        double sd;
        printf("; runner-up %s h=%d: ", trapeze_sync_name(c[1].sync), c[1].h);
        if (print_margin(&c[0], &c[1], &sd))
            printf(", within the calibration's uncertainty%s",
                   a->verify ? "" : " (--verify 3 decides by simulation)");
        else if (sd == 0)
            printf(" (no uncertainty: the calibration has no standard errors)");
    }
    putchar('\n');
    print_sync_margin(a, w, c, n);
    if (a->verify && !s) {
        int k = trapeze_ghostzone_verify_order(c, n, a->verify < n ? (int)a->verify : n), best = 0;
        int searched = 0;
        double work = 0;
        s = cli_gz_verify(gpu_path, w, c, n, k, a->stages ? (int)a->stages : 2,
                          a->threads ? (int)a->threads : 1, &searched, err);
        if (!s)
            best = cli_gz_verify_print(stdout, w, c, n, k, &work);
        if (!s)
            json_verified(a->j, c, n, k, best, searched, a->stages ? a->stages : 2, work);
        if (!s && best >= 0)
            printf("%-12s verified: %s h=%d, the fastest of %d simulated (the model's %d best, "
                   "%d searched along h; %ld stages each, %.4g warp instructions)\n", w->name,
                   trapeze_sync_name(c[best].sync), c[best].h, k + searched, k, searched,
                   a->stages ? a->stages : 2, work);
    }
    free(c);
    return s;
}

/* A workload the calibration never saw is profiled on the GPU as `validate`
 * profiles it (5.14: four short simulations), so that the prediction printed
 * is the one the validation measured; *out is p with its [profile.NAME]. */
static const char *counts_source_name(const trapeze_workload *w)
{
    return w->counts_source == TRAPEZE_COUNTS_SPEC  ? "spec-derived counts"
           : w->counts_source == TRAPEZE_COUNTS_RUN ? "spec and the run's arithmetic"
                                                    : "spec's [profile] override";
}

static trapeze_status profile(const gz_args *a, const char *gpu_path, const trapeze_workload *w,
                              const trapeze_ghostzone_params *p, trapeze_ghostzone_params *out,
                              trapeze_error *err)
{
    *out = *p;
    double work;
    trapeze_status s = trapeze_ghostzone_profile_run(gpu_path, w, (int)a->threads, out, &work, err);
    if (!s)
        fprintf(stderr, "%s: instruction counts: profiled generated kernel (no [profile.%s] in "
                "the calibration: the kernel generated from the %s, profiled on this GPU in "
                "four short simulations, %.4g warp instructions; --spec-counts skips them)\n",
                w->name, w->name, counts_source_name(w), work);
    return s;
}

/* Where the counts the model reads come from when they are the spec's:
 * derived from its stencil, or its [profile] read on another GPU than
 * Meng's (on the GTX 280 without --gpu, the dissertation's own case, a
 * [profile] is silent). */
static void note_spec_counts(const trapeze_workload *w, const trapeze_ghostzone_model *m,
                             const trapeze_gpu *gpu)
{
    trapeze_workload_counts c;
    trapeze_workload_derive_counts(w, &c);
    if (w->counts_source != TRAPEZE_COUNTS_PROFILE)
        fprintf(stderr, "%s: instruction counts: %s, %d warp instructions per point "
                "and loop (%d shared loads, %d global, %d arithmetic, %d special-function, 1 "
                "store) and %d of setup\n", w->name,
                w->counts_source == TRAPEZE_COUNTS_RUN ? "the spec's with the run's arithmetic"
                                                       : "spec-derived", c.per_point, c.shared_loads,
                c.global_loads, c.arith, c.sfu, c.setup);
    else if (trapeze_ghostzone_profile_sms(m) != gpu->n_sm)
        fprintf(stderr, "%s: instruction counts: [profile] override: no [profile.%s] in the "
                "calibration: the spec's instruction counts (Meng's GTX 280, per SM of %g) are "
                "used per element on %s's %d SMs (the stencil itself implies %d per point and "
                "%d outside the loop)\n", w->name, w->name, trapeze_ghostzone_profile_sms(m),
                gpu->name, gpu->n_sm, c.per_point, c.outside_loop);
}

/* A workload's object in the document, opened here and closed by the
 * caller: where its counts came from and the table's rows (one per mode). */
static void json_rows(trapeze_json_out *j, const trapeze_workload *w, const trapeze_gpu *gpu,
                      const trapeze_ghostzone_model *m, const trapeze_ghostzone_decision *d, int nmodes,
                      const char *counts)
{
    const trapeze_ghostzone_optimum *o = d->mode;
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "workload", w->name);
    trapeze_json_text(j, "gpu", gpu->name);
    trapeze_json_text(j, "counts", counts);
    trapeze_json_text(j, "chosen", trapeze_sync_name(o[d->chosen].sync));
    trapeze_json_array(j, "rows");
    for (int i = 0; i < nmodes; i++) {
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "sync", trapeze_sync_name(o[i].sync));
        trapeze_json_number(j, "h_continuous", o[i].h_continuous);
        trapeze_json_integer(j, "h", o[i].h_floor);
        trapeze_json_integer(j, "h_argmin", o[i].h_argmin);
        trapeze_json_number(j, "cpl_cycles", o[i].cpl_argmin);
        trapeze_json_number(j, "speedup", o[i].cpl_h1 / o[i].cpl_argmin);
        trapeze_json_number(j, "delta", trapeze_ghostzone_delta(m, o[i].blk_len));
        trapeze_json_integer(j, "blk_len", o[i].blk_len);
        trapeze_json_number(j, "blk_continuous", o[i].blk_continuous);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
}

static trapeze_status run_workload(const gz_args *a, const trapeze_workload *spec,
                                   const trapeze_gpu *gpu, const char *gpu_path,
                                   const trapeze_ghostzone_params *p, trapeze_csv_out *csv,
                                   int *header_done, trapeze_error *err)
{
    trapeze_workload w = *spec;
    trapeze_ghostzone_model *m;
    trapeze_ghostzone_params profiled;
    trapeze_status s = trapeze_ghostzone_create(gpu, &w, p, &m, err);
    if (s)
        return s;
    cli_workload_shape_note(&w);
    int calibrated = trapeze_ghostzone_profile_sms(m) == gpu->n_sm && a->gpu;
    const char *counts = calibrated ? "calibration"
                         : w.counts_source == TRAPEZE_COUNTS_SPEC ? "spec-derived"
                         : w.counts_source == TRAPEZE_COUNTS_RUN  ? (a->trace ? "trace" : "ncu")
                                                                  : "profile-override";
    if (trapeze_ghostzone_profile_sms(m) != gpu->n_sm && a->gpu && !a->spec_counts) {
        trapeze_ghostzone_destroy(m);
        if ((s = profile(a, gpu_path, &w, p, &profiled, err)) ||
            (s = trapeze_ghostzone_create(gpu, &w, &profiled, &m, err)))
            return s;
        p = &profiled;
        counts = "profiled";
    } else if (!calibrated) {
        note_spec_counts(&w, m, gpu);
    }
    trapeze_ghostzone_set_tau(m, a->tau);
    trapeze_sync modes[2] = {(trapeze_sync)a->modes[0], (trapeze_sync)a->modes[1]};
    trapeze_ghostzone_decision d;
    s = trapeze_ghostzone_decide(m, modes, a->nmodes, a->optimize_block, (int)a->height, &d, err);
    const trapeze_ghostzone_optimum *o = d.mode;
    for (int i = 0; !s && csv && !a->energy.enabled && i < a->nmodes; i++)
        s = trapeze_ghostzone_write_rows(m, o[i].sync, o[i].blk_len, csv, err);
    if (!s) {
        if (!*header_done)
            print_header();
        *header_done = 1;
        for (int i = 0; i < a->nmodes; i++)
            printf("%-12s %-8s %-8s %8.3f %4d %8d %14.1f %7.2fx %8.2f %s\n", w.name,
                   gpu->name, trapeze_sync_name(o[i].sync), o[i].h_continuous, o[i].h_floor,
                   o[i].h_argmin, o[i].cpl_argmin, o[i].cpl_h1 / o[i].cpl_argmin,
                   trapeze_ghostzone_delta(m, o[i].blk_len), trapeze_sync_name(o[d.chosen].sync));
        json_rows(a->j, &w, gpu, m, &d, a->nmodes, counts);
        if (a->optimize_block)
            for (int i = 0; i < a->nmodes; i++)
                printf("%-12s block edge for %s: %d (continuous optimum %.2f)\n", w.name,
                       trapeze_sync_name(o[i].sync), o[i].blk_len, o[i].blk_continuous);
        if (!a->height && !a->optimize_block && a->nmodes == 2)
            s = decide(a, gpu_path, m, &w, p, err);
        if (!s && a->group.enabled)
            s = cli_gz_group_run(&a->group, gpu_path, &w, p, a->tau, a->stages, a->j, err);
        if (!s && a->energy.enabled)
            s = cli_gz_energy(&a->energy, gpu_path, &w, m, p, modes, a->nmodes, csv, a->j, err);
        trapeze_json_end(a->j);   /* the workload's object (json_rows) */
    }
    trapeze_ghostzone_destroy(m);
    return s;
}

static void list_keys(void)
{
    const char *section, *key;
    for (int i = 0; (key = trapeze_workload_key(i, &section)); i++)
        printf("[%s] %s\n", section, key);
}

/* The command, with a's room for the operands (cli_ghostzone owns it). */
static int ghostzone(int argc, char **argv, gz_args *ap)
{
    gz_args a = *ap;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.list_keys) {
        list_keys();
        return 0;
    }
    trapeze_error err = {0};
    trapeze_gpu gpu;
    trapeze_ghostzone_params params;
    trapeze_csv_out *csv = NULL;
    char gpu_path[4096];
    int loaded = load_inputs(&a, &gpu, &params, gpu_path, sizeof gpu_path, &err);
    if (loaded == 2)
        return 2;
    trapeze_status s = loaded ? TRAPEZE_EINVAL : TRAPEZE_OK;
    const cli_output outputs[] = {{"--csv", a.csv}, {"--group-out", a.group.out}};
    if (!s)
        s = cli_check_outputs(outputs, 2, CLI_STDOUT_REPORT, a.json, &err);
    cli_json json = {0};
    if (!s)
        s = cli_json_open(&json, "ghostzone", a.json, &err);
    a.j = json.j;
    if (!s && a.csv)
        s = a.energy.enabled
            ? trapeze_csv_create(a.csv, trapeze_ghostzone_energy_csv_columns,
                                 trapeze_ghostzone_energy_csv_ncolumns, &csv, &err)
            : trapeze_csv_create(a.csv, trapeze_ghostzone_csv_columns, trapeze_ghostzone_csv_ncolumns, &csv,
                                 &err);
    /* every name resolved before anything is printed */
    int n = a.nworkloads ? a.nworkloads : 4;
    static char paths[MAX_WORKLOADS][4096];
    for (int i = 0; i < n && !s; i++) {
        if (!a.nworkloads) {
            char rel[64];
            snprintf(rel, sizeof rel, "workloads/%s.ini", default_workloads[i]);
            cli_data_path(rel, paths[i], sizeof paths[i]);
        } else if (cli_resolve_preset("ghostzone", "workload", "workloads", ".ini",
                                      a.workloads[i], paths[i], sizeof paths[i])) {
            trapeze_csv_abort(csv);
            cli_json_abort(&json);
            return 2;
        }
    }
    /* every spec read and checked before anything is printed or run */
    static trapeze_workload specs[MAX_WORKLOADS];
    for (int i = 0; i < n && !s; i++)
        s = a.trace ? cli_gz_trace_load(paths[i], a.trace, &specs[i], &err)
            : a.ncu ? cli_gz_ncu_load(paths[i], a.ncu, a.kernel, &specs[i], &err)
                    : trapeze_workload_load(paths[i], &specs[i], &err);
    int header_done = 0;
    trapeze_json_text(a.j, "gpu", s ? NULL : gpu.name);
    trapeze_json_array(a.j, "workloads");
    for (int i = 0; i < n && !s; i++)
        s = run_workload(&a, &specs[i], &gpu, gpu_path, &params, csv, &header_done, &err);
    trapeze_json_end(a.j);
    if (!s && !a.height && !a.optimize_block && a.nmodes == 2 && has_stderr(&params))
        printf("(margin +X%% +- Y%%: the runner-up's predicted CPL above the best's, and the "
               "standard deviation of that difference from the calibration's covariance; "
               "under two of them the order is not certain)\n");
    if (!s && csv) {
        s = trapeze_csv_finish(csv, &err);
        if (s)
            csv = NULL;   /* freed */
    }
    if (!s)
        s = cli_json_commit(&json, &err);
    if (!s && csv) {
        s = trapeze_csv_commit(csv, &err);
        csv = NULL;
    }
    if (s) {
        cli_json_abort(&json);
        trapeze_csv_abort(csv);
        fprintf(stderr, "trapeze ghostzone: %s\n", err.message);
        return 1;
    }
    if (a.csv)
        fprintf(stderr, "wrote %s\n", a.csv);
    return 0;
}

int cli_ghostzone(int argc, char **argv)
{
    gz_args a = {0};
    a.workloads = calloc((size_t)argc + 1, sizeof *a.workloads);
    if (!a.workloads)
        return 2;
    int rc = ghostzone(argc, argv, &a);
    free(a.workloads);
    return rc;
}
