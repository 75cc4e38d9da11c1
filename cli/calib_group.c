/*
 * calib_group.c - `trapeze calibrate --model group` and `trapeze validate
 * --model group`: the grouping model's samples (one launch under one
 * policy) run through the samples log (threads, resumed), then the
 * constants fitted (calibrate: written as a [group] file) or every launch
 * decided and compared with the simulations (validate: predicted against
 * simulated cycles and L2 accesses per policy, and the targets of
 * docs/grouping.md). Parsing and printing only.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "cli/calib_group.h"
#include "cli/commands.h"
#include "common/error.h"
#include "common/text.h"

#define MAX_LAUNCHES 64
/* The candidates (the dispatch policies of fixed grouping; the first, rr,
 * the baseline) and the gains over rr the model predicts for the others. */
#define NFIXED TRAPEZE_TB_NFIXED
#define NGAIN (NFIXED - 1)
/* The whole GPU's L2 time in the cycles: none, the model's count
 * (--l2-contention), each candidate's sub-grid's, scaled to the launch
 * (--l2-measured), or its sub-grid's L2 and DRAM counts together
 * (--memory-measured) */
enum { L2_NONE, L2_MODEL, L2_MEASURED, L2_MEMORY };

/* The option, the [group] key, the contention field and what calibrate
 * says the L2 time is made of, for each L2 mode but L2_NONE (every caller
 * asks only with an L2 option), one row each. */
static const struct {
    const char *option, *key;
    size_t field;   /* offsetof trapeze_group_params */
    const char *of;
} l2_modes[] = {
    [L2_MODEL] = {"--l2-contention", "l2_contention",
                  offsetof(trapeze_group_params, l2_contention), ""},
    [L2_MEASURED] = {"--l2-measured", "l2_measured_contention",
                     offsetof(trapeze_group_params, l2_measured_contention),
                     " of the sub-grids' L2 accesses per TB"},
    [L2_MEMORY] = {"--memory-measured", "memory_measured_contention",
                   offsetof(trapeze_group_params, memory_measured_contention),
                   " and DRAM's of the sub-grids' L2 accesses and DRAM reads per TB"},
};

static const char *l2_option(int l2) { return l2_modes[l2].option; }
static const char *l2_key(int l2) { return l2_modes[l2].key; }

static double *l2_beta(trapeze_group_params *p, int l2)
{
    return (double *)((char *)p + l2_modes[l2].field);
}

static double l2_beta_of(const trapeze_group_params *p, int l2)
{
    return *(const double *)((const char *)p + l2_modes[l2].field);
}

/* The c-th candidate's policy row. */
static int fixed_row(int c)
{
    return trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c);
}

/* "rr, bcs, mst, kway, rbts" (sep ", ", last ", "), "... kway and rbts" or
 * "rr bcs mst kway rbts": the candidates' names. */
static const char *fixed_list(const char *sep, const char *last, char *buf, size_t size)
{
    trapeze_tb_policy_list(TRAPEZE_TB_FIXED, sep, last, buf, size);
    return buf;
}

/* The launches of docs/grouping.md's validation. */
static const char *const default_launches[] = {
    "matmul", "matmul_tiled", "syrk", "syr2k", "atax", "atax@1", "bicg", "bicg@1",
    "gesummv", "mvt", "mvt@1", "jacobi,nx=512,ny=512"};

typedef struct {
    const char *cmd;
    char storage[MAX_LAUNCHES][128];
    char params[MAX_LAUNCHES][128];
    trapeze_group_launch l[MAX_LAUNCHES];
    int n;
    int l1_by_fetch;   /* --l1-fetch, or the calibration's: every launch's model form */
    int dram_banks;    /* the DRAM rows' floor: on unless --no-dram-banks or the calibration's 0 */
    trapeze_group_gain_form gain_form;   /* u's error: the ratio, or --gain-difference */
} launches;

static void usage_for(FILE *f, const char *cmd)
{
    int cal = !strcmp(cmd, "calibrate");
    fprintf(f,
            "usage: trapeze %s --model group --gpu FILE|NAME [--samples FILE] [--threads N]\n"
            "       %s%s\n\n",
            cmd, cal ? "                  --out FILE " : "                 [--csv FILE] [--margin PCT] [--calibration FILE] ",
            "[LAUNCH ...]");
    if (cal)
        fprintf(f,
                "Fits the grouping model's constants (docs/grouping.md) to short samples,\n"
                "the sub-grids of rr, bcs, mst, kway and rbts (their first queues alone on\n"
                "a share of the SMs), and writes them as a [group] file, for trapeze group\n"
                "--calibration FILE --no-sim. One LAUNCH: its own constants, with the\n"
                "GPU calibration's sub-grid uncertainty and DRAM contention. Several (by\n"
                "default the 12 of docs/grouping.md's validation): one set fitted to all\n"
                "their sub-grids, and gain_uncertainty, the uncertainty of a predicted gain\n"
                "over rr held out over launches (each launch's whole runs, simulated too,\n"
                "against the constants fitted to the others), and dram_contention, fitted\n"
                "to the whole runs whose DRAM time is at least half the rest; the same two\n"
                "with each launch fitted to its own sub-grids (subgrid_gain_uncertainty,\n"
                "subgrid_dram_contention: what validate and a user's launch use): a GPU's\n"
                "calibration, data/calibrations/NAME-group.ini.\n");
    else
        fprintf(f,
                "For each launch (default: the 12 of docs/grouping.md's validation), fits the\n"
                "grouping model to short samples (the sub-grids of rr, bcs, mst, kway and\n"
                "rbts), chooses a grouping with it (the candidate whose sub-grid ran fastest,\n"
                "when it beat rr's by the margin and the model does not predict it slower\n"
                "than rr by more; then the tiles, by prediction), simulates the whole launch\n"
                "under rr, bcs, chen, mst, kway, rbts and the choice, and prints predicted\n"
                "against simulated cycles and L2 accesses per policy, then the issue's\n"
                "targets. A grouping replaces rr only when its predicted gain exceeds the\n"
                "uncertainty u; u and the DRAM contention come from the other launches'\n"
                "whole runs (three launches or more), else from the GPU's calibration,\n"
                "data/calibrations/NAME-group.ini.\n");
    fprintf(f,
            "\n"
            "LAUNCH is KERNEL[,name=value...][@N]: a built-in kernel (trapeze sim --list),\n"
            "its parameters and the launch index (default 0), e.g. jacobi,nx=512,ny=512;\n"
            "or an Accel-Sim trace's path (with a '/': DIR/ or DIR/kernelslist.g)[@N].\n"
            "  --trace PATH    a trace's launch 0 as one more LAUNCH (then no default)\n"
            "  --extra FILE    the LAUNCHes of FILE (one a line, '#' a comment) after the\n"
            "                  default ones or those given, e.g. the whole-launch\n"
            "                  micro-benchmarks of data/validation/group-row-launches.txt\n"
            "Each simulation is a row of the samples log (--samples, default\n"
            "group-samples.csv) appended when it ends; a rerun skips the rows already there.\n"
            "  --threads N     threads in all (default 1; the same bytes for any N):\n"
            "                  simulations side by side, those left over split each\n"
            "                  simulation when fewer remain than threads\n"
            "  --window PCT    the sub-grid samples' share of the SMs (default 4; at\n"
            "                  least one SM)\n"
            "  --window-tbs PCT  at most this share of the TBs in a sub-grid: a first\n"
            "                  queue over it is cut to its first TBs (at least two\n"
            "                  that run at once); default: the budget's\n"
            "  --budget PCT    the sub-grids' most share of the validation's work on a\n"
            "                  launch (they and six whole runs; default 5, 0: none):\n"
            "                  each holds at most 6/5 PCT/(100-PCT) of the TBs, and one\n"
            "                  whose TBs still hold more runs only its part of the\n"
            "                  warp instructions, extrapolated (docs/grouping.md)\n"
            "  --gpu-window PCT  this part of the budget (default 0: none) to one\n"
            "                  whole-GPU window a candidate, its grouping's first TBs\n"
            "                  of every queue on all SMs at once; its measured cycles\n"
            "                  over the model's correct the candidate's whole-launch\n"
            "                  prediction (docs/grouping.md)\n"
            "  --l2-contention  price the whole GPU's L2 time (the launch's L2 accesses\n"
            "                  at the slices' peak rate) beside the DRAM's, at an L2\n"
            "                  contention fitted like the DRAM's to the whole runs\n"
            "                  (held out over launches; with --calibration, its\n"
            "                  l2_contention, which calibrate --l2-contention over\n"
            "                  several launches writes); off by default: not a net win\n"
            "                  on the held-out launches (docs/grouping.md)\n"
            "  --l2-measured   the same time from each candidate's sub-grid: its L2\n"
            "                  accesses per TB times the launch's TBs, priced at\n"
            "                  l2_measured_contention (calibrate --l2-measured); off\n"
            "                  by default (docs/grouping.md)\n"
            "  --memory-measured  the same with each candidate's sub-grid DRAM reads\n"
            "                  per TB beside its L2 accesses (the L2's and the DRAM's\n"
            "                  peak-rate times summed), priced at\n"
            "                  memory_measured_contention (calibrate --memory-measured);\n"
            "                  off by default (docs/grouping.md)\n"
            "  --dram-rows     price the DRAM rows each candidate's grouping scatters\n"
            "                  (its TBs in flight together that are not contiguous, on\n"
            "                  the launch's DRAM time beyond one row of every bank) at\n"
            "                  dram_rows_cost (calibrate --dram-rows), alone or with\n"
            "                  an L2 option; off by default (docs/grouping.md)\n"
            "  --no-dram-banks do not raise each candidate's cycles to its DRAM time\n"
            "                  (the address map applied to the launch's loads and\n"
            "                  stores: the busiest channel's bursts and the rows its\n"
            "                  grouping's waves open at the config's tRP + tRCD;\n"
            "                  nothing fitted; on by default, written to and read\n"
            "                  from the calibration as dram_banks; docs/grouping.md)\n"
            "  --l1-fetch      count what a TB finds in L1 in the lines or sectors\n"
            "                  the L1 fetches (a neighbour's line serves every read\n"
            "                  of it), not in elements; written to and read from the\n"
            "                  calibration (l1_by_fetch); off by default\n"
            "                  (docs/grouping.md)\n"
            "  --gain-difference  u, the uncertainty a predicted gain over rr must\n"
            "                  exceed, as the rms of the predicted gain minus the\n"
            "                  simulated one (1 - pred/pred_rr against 1 - sim/sim_rr,\n"
            "                  per launch), not of (pred/pred_rr)/(sim/sim_rr) - 1;\n"
            "                  written to and read from the calibration\n"
            "                  (gain_difference); off by default: no decision moves\n"
            "                  (docs/grouping.md)\n"
            "%s",
            cal ? "  --out FILE      the [group] calibration file to write\n"
                : "  --csv FILE      one row per launch and policy: predicted and simulated\n"
                  "  --margin PCT    as trapeze group's, and what a sub-grid must beat rr's\n"
                  "                  by (default 1)\n"
                  "  --calibration FILE  every launch's u and DRAM contention from this\n"
                  "                  [group] file (subgrid_gain_uncertainty and\n"
                  "                  subgrid_dram_contention, else gain_uncertainty and\n"
                  "                  dram_contention), none held out over launches\n");
    fputs("  --json FILE     the summary as one JSON document (docs/json.md; - for\n"
          "                  stdout, the text then on stderr)\n", f);
}

/* data/calibrations/NAME-group.ini for gpu config .../NAME.config, if present. */
int cli_group_calibration(const char *gpu, char *out, size_t size)
{
    const char *base = strrchr(gpu, '/');
    base = base ? base + 1 : gpu;
    char name[128], rel[256];
    snprintf(name, sizeof name, "%.127s", base);
    char *dot = strrchr(name, '.');
    if (dot)
        *dot = '\0';
    snprintf(rel, sizeof rel, "calibrations/%s-group.ini", name);
    cli_data_path(rel, out, size);
    return access(out, R_OK) == 0;
}

static void usage_calibrate(FILE *f) { usage_for(f, "calibrate"); }
static void usage_validate(FILE *f) { usage_for(f, "validate"); }

/* "jacobi,nx=512,ny=512@0" into ls->l[ls->n]; 0, or 2 after a usage error
 * (where: "FILE:LINE: " for a launch read from a file, else ""). */
static int parse_launch(launches *ls, const char *text, const char *where)
{
    if (ls->n == MAX_LAUNCHES)
        return cli_usage_error(ls->cmd, "%sat most %d launches", where, MAX_LAUNCHES);
    if (strlen(text) >= sizeof ls->storage[0])
        return cli_usage_error(ls->cmd, "%s%.40s...: a LAUNCH under %zu characters", where,
                               text, sizeof ls->storage[0]);
    char *s = ls->storage[ls->n], *p = ls->params[ls->n];
    snprintf(s, sizeof ls->storage[0], "%s", text);
    long launch = 0;
    char *at = strchr(s, '@');
    if (at) {
        *at = '\0';
        if (!trapeze_parse_long(at + 1, &launch) || launch < 0 || launch > 1000000)
            return cli_usage_error(ls->cmd, "%s%s: expected KERNEL[,name=value...][@N]", where,
                                   text);
    }
    p[0] = '\0';
    char *comma = strchr(s, ',');
    if (comma) {
        *comma = '\0';
        snprintf(p, sizeof ls->params[0], "%s", comma + 1);
        for (char *c = p; *c; c++)
            if (*c == ',')
                *c = ' ';
    }
    if (!s[0])
        return cli_usage_error(ls->cmd, "%s%s: expected KERNEL[,name=value...][@N]", where, text);
    ls->l[ls->n++] = (trapeze_group_launch){s, p, (int)launch};
    return 0;
}

/* The LAUNCHes of `path` (--extra), one a line, '#' to the line's end a
 * comment, blanks around them ignored, appended to ls; 0, or 2 after a
 * usage error naming the file and line. */
static int read_launches(launches *ls, const char *path)
{
    char *text = NULL;
    trapeze_error err = {0};
    if (trapeze_read_file(path, &text, &err))
        return cli_usage_error(ls->cmd, "--extra: %s", err.message);
    int rc = 0, no = 1;
    for (char *line = text; !rc && *line; no++) {
        char *end = line + strcspn(line, "\n"), *next = *end ? end + 1 : end;
        *end = '\0';
        line[strcspn(line, "#")] = '\0';
        line += strspn(line, " \t\r");
        size_t len = strlen(line);
        while (len && strchr(" \t\r", line[len - 1]))
            line[--len] = '\0';
        char where[300];
        snprintf(where, sizeof where, "%.256s:%d: LAUNCH ", path, no);
        if (strpbrk(line, " \t"))
            rc = cli_usage_error(ls->cmd, "%s'%s': one LAUNCH a line, without blanks", where,
                                 line);
        else if (len)
            rc = parse_launch(ls, line, where);
        line = next;
    }
    /* parse_launch keeps copies: the text can go */
    free(text);
    return rc;
}

/* The GPU's name, for the rows. */
static trapeze_status gpu_name(const char *path, char *name, size_t size, trapeze_error *err)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_status s = trapeze_config_load(path, &cfg, err);
    if (!s) {
        s = trapeze_gpu_from_config(cfg, &gpu, err);
        trapeze_config_destroy(cfg);
    }
    if (!s)
        snprintf(name, size, "%s", gpu.name);
    return s;
}

static void progress(void *ctx, const trapeze_run_progress *at, const trapeze_sample_row *row)
{
    cli_progress_rows(ctx, at, "samples", row->id);
}

/* Runs the plan's pending rows into the log (rank 0 of an mpirun: the
 * log's owner; size > 1: spread over the ranks as calibrate's ghost-zone
 * samples are, cli/calib_mpi.c); says how many ran. */
static trapeze_status run_samples(const trapeze_group_plan *plan, trapeze_sample_log *log,
                                  int threads, int rank, int size, trapeze_error *err)
{
    const trapeze_sample_set *set = trapeze_group_plan_set(plan);
    int *todo = malloc(sizeof *todo * (size_t)(set->count > 0 ? set->count : 1)), n = 0;
    if (!todo)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status s = rank == 0 ? trapeze_samples_pending(set, log, todo, &n, err) : TRAPEZE_OK;
    free(todo);
    cli_progress bar = {0};
    if (!s)
        s = calib_run_set(set, log, threads, rank, size, rank == 0 ? progress : NULL, &bar, err);
    if (!s && rank == 0)
        printf("samples: %d planned, %d run now, %d from the log\n", set->count, n,
               set->count - n);
    return s;
}

static double pct(double pred, double sim) { return 100 * (pred / sim - 1); }

/* One launch's table and the figures the summary needs. */
typedef struct {
    double opt_vs_best, opt_vs_rr, opt_vs_rbts, l2_err, cyc_err, samples_work, all_work;
} launch_figures;

/* The grouping constants in the document. */
static void json_params(trapeze_json_out *j, const trapeze_group_params *p, const char *out)
{
    trapeze_json_text(j, "out", out);
    trapeze_json_array(j, "parameters");
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++) {
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "parameter", trapeze_group_param_name((trapeze_group_param)k));
        trapeze_json_number(j, "value", p->value[k]);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
}

/* A launch's decision and table in the document (an object of "launches"). */
static void json_launch(trapeze_json_out *j, const trapeze_group_launch *l,
                        const trapeze_group_outcome *o, const launch_figures *f)
{
    const int chosen = TRAPEZE_GROUP_NPOLICIES - 1;
    int tiles = !strcmp(o->choice.source, "tiles");
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "kernel", l->kernel);
    trapeze_json_text(j, "params", l->params);
    trapeze_json_integer(j, "launch", l->launch);
    trapeze_json_text(j, "chosen", o->choice.source);
    trapeze_json_number(j, "tiles_x", tiles ? o->choice.gx : NAN);
    trapeze_json_number(j, "tiles_y", tiles ? o->choice.gy : NAN);
    trapeze_json_text(j, "tile_order", !tiles ? NULL : o->choice.tile_order ? "column-major"
                                                                           : "row-major");
    trapeze_json_number(j, "fit_rms_pct", 100 * o->fit.rms_rel_error);
    trapeze_json_text(j, "bound", o->predicted[chosen] ? trapeze_group_eval_bound(&o->pred[chosen])
                                                       : NULL);
    trapeze_json_array(j, "policies");
    for (int i = 0; i < TRAPEZE_GROUP_NPOLICIES; i++) {
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "policy", trapeze_group_policy_name(i));
        trapeze_json_number(j, "pred_cycles", o->predicted[i] ? o->pred[i].cycles : NAN);
        trapeze_json_number(j, "sim_cycles", o->sim[i].cycles);
        trapeze_json_number(j, "pred_l2_accesses", o->predicted[i] ? o->pred[i].l2_accesses : NAN);
        trapeze_json_number(j, "sim_l2_accesses", o->sim[i].l2_accesses);
        trapeze_json_number(j, "pred_dram_reads", o->predicted[i] ? o->pred[i].dram_reads : NAN);
        trapeze_json_number(j, "sim_dram_reads", o->sim[i].dram_reads);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_json_number(j, "optimized_vs_best_pct", f->opt_vs_best);
    trapeze_json_number(j, "optimized_vs_rr_pct", f->opt_vs_rr);
    trapeze_json_number(j, "optimized_vs_rbts_pct", f->opt_vs_rbts);
    trapeze_json_number(j, "l2_error_pct", f->l2_err);
    trapeze_json_number(j, "cycles_error_pct", f->cyc_err);
    trapeze_json_number(j, "gain_uncertainty_pct", o->uncertainty >= 0 ? 100 * o->uncertainty
                                                                       : NAN);
    trapeze_json_number(j, "dram_contention", o->params.value[TRAPEZE_GROUP_CONTENTION]);
    trapeze_json_end(j);
}

/* One target in the document: its name, the count or figure, and whether it is met. */
static void json_target(trapeze_json_out *j, const char *name, double value, double of,
                        int met)
{
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "target", name);
    trapeze_json_number(j, "value", value);
    trapeze_json_number(j, "of", of);
    trapeze_json_bool(j, "met", met);
    trapeze_json_end(j);
}

static void print_launch(const trapeze_group_launch *l, const trapeze_group_outcome *o,
                         launch_figures *f)
{
    printf("\n%s%s%s launch %d: chosen %s", l->kernel, l->params[0] ? " " : "", l->params,
           l->launch, o->choice.source);
    if (!strcmp(o->choice.source, "tiles"))
        printf(" %d x %d %s", o->choice.gx, o->choice.gy,
               o->choice.tile_order ? "column-major" : "row-major");
    printf("; fit rms %.2f%%", 100 * o->fit.rms_rel_error);
    const int chosen = TRAPEZE_GROUP_NPOLICIES - 1;   /* the optimized row */
    if (o->predicted[chosen])
        printf("; bound by %s", trapeze_group_eval_bound(&o->pred[chosen]));
    printf("\n");
    printf("%-10s %12s %12s %8s %12s %12s %8s\n", "policy", "pred_cycles", "sim_cycles", "err",
           "pred_L2", "sim_L2", "err");
    double best = INFINITY, l2 = 0, cyc = 0;
    int np = 0;
    for (int i = 0; i < TRAPEZE_GROUP_NPOLICIES; i++) {
        const char *name = trapeze_group_policy_name(i);
        printf("%-10s", name);
        if (o->predicted[i])
            printf(" %12.0f %12.0f %+7.2f%% %12.0f %12.0f %+7.2f%%\n", o->pred[i].cycles,
                   o->sim[i].cycles, pct(o->pred[i].cycles, o->sim[i].cycles),
                   o->pred[i].l2_accesses, o->sim[i].l2_accesses,
                   pct(o->pred[i].l2_accesses, o->sim[i].l2_accesses));
        else
            printf(" %12s %12.0f %8s %12s %12.0f %8s\n", "-", o->sim[i].cycles, "", "-",
                   o->sim[i].l2_accesses, "");
        if (i < TRAPEZE_GROUP_NPOLICIES - 1 && o->sim[i].cycles < best)
            best = o->sim[i].cycles;
        /* the model's errors over the policies with a fixed grouping */
        if (o->predicted[i] && i < TRAPEZE_GROUP_NPOLICIES - 1) {
            l2 += fabs(pct(o->pred[i].l2_accesses, o->sim[i].l2_accesses));
            cyc += fabs(pct(o->pred[i].cycles, o->sim[i].cycles));
            np++;
        }
        if (i < TRAPEZE_GROUP_NPOLICIES - 1 || o->optimized_simulated)
            f->all_work += o->sim[i].warp_instructions;
    }
    const double opt = o->sim[TRAPEZE_GROUP_NPOLICIES - 1].cycles;
    f->opt_vs_best = pct(opt, best);
    f->opt_vs_rr = pct(opt, o->sim[0].cycles);
    f->opt_vs_rbts = pct(opt, o->sim[TRAPEZE_TB_RBTS].cycles);
    f->l2_err = np ? l2 / np : 0;
    f->cyc_err = np ? cyc / np : 0;
    char names[128];
    printf("optimized: %+.2f%% vs the best of six, %+.2f%% vs %s, %+.2f%% vs %s; model error "
           "(mean over %s): L2 %.1f%%, cycles %.1f%%\n", f->opt_vs_best, f->opt_vs_rr,
           trapeze_tb_policies[TRAPEZE_TB_RR].name, f->opt_vs_rbts,
           trapeze_tb_policies[TRAPEZE_TB_RBTS].name, fixed_list(" ", " ", names, sizeof names),
           f->l2_err, f->cyc_err);
}

static void print_targets(trapeze_json_out *j, const launch_figures *f, int n)
{
    int best2 = 0, rr1 = 0, l2 = 0, cyc = 0, beats_rbts = 0;
    double samples = 0, all = 0;
    for (int i = 0; i < n; i++) {
        best2 += f[i].opt_vs_best <= 2;
        rr1 += f[i].opt_vs_rr <= 1;
        beats_rbts += f[i].opt_vs_rbts < 0;
        l2 += f[i].l2_err <= 10;
        cyc += f[i].cyc_err <= 5;
        samples += f[i].samples_work;
        all += f[i].all_work;
    }
    printf("\ntargets over %d launches:\n", n);
    printf("  optimized within 2%% of the best of the six policies: %d of %d\n", best2, n);
    printf("  better than RB-TS on at least one: %s (%d launches)\n", beats_rbts ? "yes" : "no",
           beats_rbts);
    printf("  never worse than rr by more than 1%%: %d of %d\n", rr1, n);
    printf("  predicted L2 accesses within 10%% (mean over the policies): %d of %d\n", l2, n);
    printf("  predicted cycles within 5%% (mean over the policies): %d of %d\n", cyc, n);
    printf("  samples' share of the simulated work (warp instructions; the sub-grids "
           "against them, the six policies' whole runs and the chosen groupings' runs): "
           "%.1f%% (target 5%%)\n", all > 0 ? 100 * samples / all : 0);
    trapeze_json_array(j, "targets");
    json_target(j, "optimized_within_2pct_of_best", best2, n, best2 == n);
    json_target(j, "better_than_rbts", beats_rbts, n, beats_rbts > 0);
    json_target(j, "never_worse_than_rr_by_1pct", rr1, n, rr1 == n);
    json_target(j, "l2_within_10pct", l2, n, l2 == n);
    json_target(j, "cycles_within_5pct", cyc, n, cyc == n);
    json_target(j, "samples_share_pct", all > 0 ? 100 * samples / all : 0, NAN,
                all > 0 && 100 * samples / all <= 5);
    trapeze_json_end(j);
}

static const char *const csv_columns[] = {"gpu", "kernel", "params", "launch", "policy",
                                          "pred_cycles", "sim_cycles", "pred_l2_accesses",
                                          "sim_l2_accesses"};

static void csv_rows(trapeze_csv_out *csv, const char *gpu, const trapeze_group_launch *l,
                     const trapeze_group_outcome *o, trapeze_error *err, trapeze_status *s)
{
    for (int i = 0; !*s && i < TRAPEZE_GROUP_NPOLICIES; i++) {
        trapeze_csv_text(csv, gpu);
        trapeze_csv_text(csv, l->kernel);
        trapeze_csv_text(csv, l->params);
        trapeze_csv_number(csv, l->launch);
        trapeze_csv_text(csv, trapeze_group_policy_name(i));
        if (o->predicted[i])
            trapeze_csv_number(csv, o->pred[i].cycles);
        else
            trapeze_csv_text(csv, "");
        trapeze_csv_number(csv, o->sim[i].cycles);
        if (o->predicted[i])
            trapeze_csv_number(csv, o->pred[i].l2_accesses);
        else
            trapeze_csv_text(csv, "");
        trapeze_csv_number(csv, o->sim[i].l2_accesses);
        *s = trapeze_csv_end_row(csv, err);
    }
}

/* The whole runs into the outcome (the comparison), the chosen grouping's
 * run (a policy's own, or simulated now), and the simulated work of the
 * sub-grids (the samples) and of everything. */
static trapeze_status compare_with_runs(const trapeze_group_problem *pb,
                                        const trapeze_group_measured sim[TRAPEZE_TB_NCOMPARED],
                                        double win_work,
                                        trapeze_group_outcome *o, launch_figures *f,
                                        trapeze_error *err)
{
    const int opt = TRAPEZE_GROUP_NPOLICIES - 1;
    int kept = -1;
    for (int i = 0; i < opt; i++) {
        o->sim[i] = sim[i];
        o->simulated[i] = 1;
        if (trapeze_tb_policies[i].kind == TRAPEZE_TB_FIXED &&
            !strcmp(o->choice.source, trapeze_group_policy_name(i)))
            kept = i;
    }
    trapeze_status s = TRAPEZE_OK;
    if (kept >= 0)
        o->sim[opt] = sim[kept];
    else {
        s = trapeze_group_problem_simulate(pb, NULL, &o->grouping, &o->sim[opt], err);
        o->optimized_simulated = 1;
    }
    o->simulated[opt] = !s;
    f->samples_work = win_work;
    f->all_work = f->samples_work;
    return s;
}

/* One launch's evidence: the whole runs (validate), its sub-grids, its
 * problem and the constants fitted to the sub-grids only. */
typedef struct {
    trapeze_group_measured sim[TRAPEZE_TB_NCOMPARED];
    trapeze_group_window_evidence ev;
    trapeze_group_params p;
    const trapeze_group_problem *pb;   /* the plan's, or own */
    trapeze_group_problem *own;        /* built here where the plan has none */
    double win_work, win_share;
    int m;
} launch_evidence;

static trapeze_status prepare(const char *gpu, const launches *ls, int i,
                              const trapeze_group_plan *plan, const trapeze_sample_log *log,
                              int validate, launch_evidence *e, trapeze_error *err)
{
    memset(e, 0, sizeof *e);
    trapeze_group_params_default(&e->p);
    e->p.l1_by_fetch = ls->l1_by_fetch;
    e->p.dram_banks = ls->dram_banks;
    e->p.gain_difference = ls->gain_form == TRAPEZE_GROUP_GAIN_DIFFERENCE;
    trapeze_status s = validate ? trapeze_group_plan_measured(plan, log, i, e->sim, err)
                                : TRAPEZE_OK;
    if (!s)
        s = trapeze_group_plan_windows(plan, log, i, e->ev.sub, &e->m, &e->win_share,
                                       &e->win_work, err);
    double gpu_work = 0;
    if (!s)
        s = trapeze_group_plan_gpu_windows(plan, log, i, e->ev.gpu, e->ev.gpu_k, &gpu_work, err);
    e->win_work += gpu_work;   /* the samples: sub-grids and whole-GPU windows */
    e->pb = trapeze_group_plan_problem(plan, i);
    if (!s && !e->pb) {
        s = trapeze_group_launch_problem(gpu, &ls->l[i], &e->own, err);
        e->pb = e->own;
    }
    /* the constants come from the sub-grids only; the whole runs are
     * the ground truth they are compared with */
    if (!s)
        s = trapeze_group_window_fit(e->pb, e->m, e->win_share, e->ev.sub, &e->p, &e->ev.fit, err);
    char names[128];
    if (!s && !validate && ls->n == 1)
        printf("fitted to the sub-grids of %s on %d SM%s of %s launch %d: rms error %.2f%%, "
               "cross-validated %.2f%%\n", fixed_list(", ", ", ", names, sizeof names), e->m,
               e->m == 1 ? "" : "s", ls->l[i].kernel, ls->l[i].launch,
               100 * e->ev.fit.rms_rel_error, e->ev.fit.cv_mape_pct);
    return s;
}

/* One launch's candidates as the model predicts them before the DRAM
 * contention (an SM queue's time N and the whole GPU's DRAM time Tg), and
 * their whole runs: what the contention and the gain errors are taken on. */
typedef struct {
    double norm[NFIXED], tg[NFIXED], sim[NFIXED];
    double t2g[NFIXED];   /* the whole GPU's L2 time (trapeze_group_eval.t_gpu_l2, or
                             trapeze_group_l2_measured_time of the candidate's sub-grid,
                             or its trapeze_group_memory_measured_time) */
    /* the candidates' whole-GPU windows, the model's N and Tg and the
     * measured cycles (wsim 0: no window, no correction) */
    double wnorm[NFIXED], wtg[NFIXED], wsim[NFIXED];
    /* the DRAM rows' time of each candidate's grouping (trapeze_group_row_time) */
    double trow[NFIXED];
} launch_times;

static trapeze_status times_of(const launch_evidence *e, const trapeze_group_params *p, int l2,
                               launch_times *t, trapeze_error *err)
{
    const long n = trapeze_group_problem_graph(e->pb)->n_tbs;
    const trapeze_group_machine *mc = trapeze_group_problem_machine(e->pb);
    trapeze_group_model *m = NULL;
    trapeze_group_params pl = *p;
    pl.l2_contention = 0;   /* so that the evaluation reports the L2 time; N and Tg do not move */
    trapeze_status s = trapeze_group_create(trapeze_group_problem_graph(e->pb),
                                            trapeze_group_problem_machine(e->pb), &pl, &m, err);
    for (int c = 0; !s && c < NFIXED; c++) {
        trapeze_grouping g;
        trapeze_group_eval ev;
        memset(&g, 0, sizeof g);
        s = trapeze_group_problem_policy_grouping(e->pb, m, trapeze_tb_policies[fixed_row(c)].name,
                                                  &g, err);
        if (!s)
            s = trapeze_group_evaluate(m, &g, &ev, err);
        t->norm[c] = ev.t_norm;
        t->tg[c] = ev.t_gpu_dram;
        t->t2g[c] = l2 == L2_MEMORY ? trapeze_group_memory_measured_time(&e->ev.sub[c], n, mc)
                    : l2 == L2_MEASURED
                        ? trapeze_group_l2_measured_time(&e->ev.sub[c], n, mc->l2_accesses_per_cycle)
                        : ev.t_gpu_l2;
        t->sim[c] = e->sim[fixed_row(c)].cycles;
        t->trow[c] = trapeze_group_row_time(
            trapeze_group_row_spread(&g, trapeze_group_problem_graph(e->pb)->grid[0],
                                     mc->tbs_per_sm),
            ev.dram_reads, trapeze_group_problem_dram_stripe_bytes(e->pb), ev.t_gpu_dram);
        t->wnorm[c] = t->wtg[c] = t->wsim[c] = 0;
        trapeze_group_window *w = NULL;
        if (!s && e->ev.gpu_k[c])
            s = trapeze_group_window_create_gpu(e->pb, &g, e->ev.gpu_k[c], p, &w, err);
        if (!s && w)
            s = trapeze_group_evaluate(trapeze_group_window_model(w),
                                       trapeze_group_window_grouping(w), &ev, err);
        if (!s && w) {
            t->wnorm[c] = ev.t_norm;
            t->wtg[c] = ev.t_gpu_dram;
            t->wsim[c] = e->ev.gpu[c].cycles;
        }
        trapeze_group_window_destroy(w);
        trapeze_grouping_free(&g);
    }
    trapeze_group_destroy(m);
    return s;
}

/* A candidate's cycles at DRAM contention beta, then beside the whole GPU's
 * L2 time at beta2 (< 0: no L2 term), as model/group.c computes them. */
static double cycles_at(const launch_times *t, int c, double beta, double beta2)
{
    double c1 = trapeze_group_contention_cycles(t->norm[c], t->tg[c], beta);
    return beta2 >= 0 ? trapeze_group_contention_cycles(c1, t->t2g[c], beta2) : c1;
}

/* The candidates' predictions at DRAM contention beta and L2 contention
 * beta2, each corrected by its whole-GPU window where it has one; before
 * the DRAM rows' time, whose factor is taken on the cycles without the L2
 * term, as group_decide.c takes it (kappa < 0: none). */
static void predictions(const launch_times *t, double beta, double beta2, double kappa,
                        double pred[NFIXED])
{
    for (int c = 0; c < NFIXED; c++)
        pred[c] = cycles_at(t, c, beta, beta2) *
                  trapeze_group_gpu_window_factor(t->wsim[c], t->wnorm[c], t->wtg[c], beta) *
                  trapeze_group_row_factor(cycles_at(t, c, beta, -1), t->trow[c], kappa);
}

/* The errors of the predicted gains over round-robin (the first candidate)
 * of the other candidates against the whole runs, at DRAM contention beta,
 * L2 contention beta2 and the DRAM rows' cost kappa, in `form`
 * (trapeze_group_gain_error: by default (pred_c / pred_rr) / (sim_c /
 * sim_rr) - 1). */
static void gain_errors(const launch_times *t, double beta, double beta2, double kappa,
                        trapeze_group_gain_form form, double out[NGAIN])
{
    double pred[NFIXED];
    predictions(t, beta, beta2, kappa, pred);
    for (int c = 1; c < NFIXED; c++)
        out[c - 1] = trapeze_group_gain_error(form, pred[c], pred[0], t->sim[c], t->sim[0]);
}

/* The DRAM contention fitted to the whole runs of every launch but `skip`
 * (-1: all of them). */
static trapeze_status contention_without(const launch_times *t, int n, int skip, double *beta,
                                         trapeze_error *err)
{
    static double norm[MAX_LAUNCHES * NFIXED], tg[MAX_LAUNCHES * NFIXED],
        sim[MAX_LAUNCHES * NFIXED];
    long k = 0;
    for (int j = 0; j < n; j++)
        for (int c = 0; j != skip && c < NFIXED; c++, k++) {
            norm[k] = t[j].norm[c];
            tg[k] = t[j].tg[c];
            sim[k] = t[j].sim[c];
        }
    return trapeze_group_fit_contention(norm, tg, sim, k, beta, err);
}

/* The L2 contention fitted to the whole runs of every launch but `skip`
 * (-1: all of them), their cycles taken at DRAM contention beta. */
static trapeze_status l2_contention_without(const launch_times *t, int n, int skip, double beta,
                                            double *beta2, trapeze_error *err)
{
    static double c1[MAX_LAUNCHES * NFIXED], t2g[MAX_LAUNCHES * NFIXED],
        sim[MAX_LAUNCHES * NFIXED];
    long k = 0;
    for (int j = 0; j < n; j++)
        for (int c = 0; j != skip && c < NFIXED; c++, k++) {
            c1[k] = cycles_at(&t[j], c, beta, -1);
            t2g[k] = t[j].t2g[c];
            sim[k] = t[j].sim[c];
        }
    return trapeze_group_fit_contention(c1, t2g, sim, k, beta2, err);
}

/* The DRAM rows' cost fitted to the gains of every launch but `skip` (-1:
 * all of them), their other corrections at beta and beta2 (< 0: none);
 * *n_moved (NULL: not kept) how many launches identify it and moves (with
 * skip -1) how far each one's gains move at cost 1
 * (trapeze_group_row_cost_launches). */
static trapeze_status row_cost_without(const launch_times *t, int n, int skip, double beta,
                                       double beta2, double *kappa, double *moves,
                                       long *n_moved, trapeze_error *err)
{
    static double pred[MAX_LAUNCHES * NFIXED], trow[MAX_LAUNCHES * NFIXED],
        sim[MAX_LAUNCHES * NFIXED];
    long k = 0;
    for (int j = 0; j < n; j++) {
        if (j == skip)
            continue;
        predictions(&t[j], beta, beta2, -1, pred + k * NFIXED);
        for (int c = 0; c < NFIXED; c++) {
            /* the rows' time on the scale the factor takes it: the
             * prediction's, not the cycles before the L2 term */
            const double c1 = cycles_at(&t[j], c, beta, -1);
            trow[k * NFIXED + c] = c1 > 0 ? t[j].trow[c] * pred[k * NFIXED + c] / c1 : 0;
            sim[k * NFIXED + c] = t[j].sim[c];
        }
        k++;
    }
    if (n_moved)
        *n_moved = trapeze_group_row_cost_launches(pred, trow, sim, k, NFIXED, moves);
    return trapeze_group_fit_row_cost(pred, trow, sim, k, NFIXED, kappa, err);
}

/* Each launch's gain errors at the contentions held out from it (fitted to
 * the others' whole runs), and those contentions; beta2 NULL: no L2 term;
 * kappa NULL: no DRAM rows' term. */
static trapeze_status held_out_gain_errors(const launch_times *t, int n,
                                           trapeze_group_gain_form form, double (*gerr)[NGAIN],
                                           double *beta, double *beta2, double *kappa,
                                           trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < n; i++) {
        s = contention_without(t, n, i, &beta[i], err);
        if (!s && beta2)
            s = l2_contention_without(t, n, i, beta[i], &beta2[i], err);
        if (!s && kappa)
            s = row_cost_without(t, n, i, beta[i], beta2 ? beta2[i] : -1, &kappa[i], NULL,
                                     NULL, err);
        if (!s)
            gain_errors(&t[i], beta[i], beta2 ? beta2[i] : -1, kappa ? kappa[i] : -1, form,
                        gerr[i]);
    }
    return s;
}

/* What u's errors are, as the summary names them. */
static const char *gain_error_text(trapeze_group_gain_form form)
{
    return form == TRAPEZE_GROUP_GAIN_DIFFERENCE ? "sim/sim_rr - pred/pred_rr (the predicted "
                                                   "gain minus the simulated)"
                                                 : "(pred/pred_rr)/(sim/sim_rr) - 1";
}

/* The uncertainty of a predicted gain over rr for launch `skip`: the rms of
 * the other launches' gain errors (none held out: all of them). */
static double held_out_rms(double (*gerr)[NGAIN], int n, int skip)
{
    return trapeze_group_gain_uncertainty(&gerr[0][0], n, NGAIN, skip);
}

/* Every launch's times (sub-grid fit against its whole runs). */
static trapeze_status all_times(const char *gpu, const launches *ls,
                                const trapeze_group_plan *plan, const trapeze_sample_log *log,
                                int l2, launch_times *t, trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < ls->n; i++) {
        launch_evidence e;
        s = prepare(gpu, ls, i, plan, log, 1, &e, err);
        if (!s)
            s = times_of(&e, &e.p, l2, &t[i], err);
        trapeze_group_problem_destroy(e.own);
    }
    return s;
}

/* The constants of `p0` fitted to launches ev[0..n) but `skip` at once
 * (skip -1: all of them; folds as trapeze_group_fit's). */
static trapeze_status fit_launches(const launch_evidence *ev, int n, int skip, int folds,
                                   trapeze_group_params *p, trapeze_fit_report *rep,
                                   trapeze_error *err)
{
    const trapeze_group_problem *pb[MAX_LAUNCHES];
    int m[MAX_LAUNCHES], k = 0;
    double share[MAX_LAUNCHES];
    trapeze_group_measured meas[MAX_LAUNCHES][NFIXED];
    for (int i = 0; i < n; i++)
        if (i != skip) {
            pb[k] = ev[i].pb;
            m[k] = ev[i].m;
            share[k] = ev[i].win_share;
            memcpy(meas[k], ev[i].ev.sub, sizeof meas[k]);
            k++;
        }
    trapeze_group_params_default(p);
    p->l1_by_fetch = n > 0 && ev[0].p.l1_by_fetch;   /* the launches' model form */
    p->dram_banks = n > 0 && ev[0].p.dram_banks;
    p->gain_difference = n > 0 && ev[0].p.gain_difference;
    return trapeze_group_window_fit_many(pb, k, m, share, (const trapeze_group_measured(*)[NFIXED])meas,
                                         folds, p, rep, err);
}

/* "KERNEL PARAMS held out: gain errors bcs +1.00%, mst ...": one per candidate but rr. */
static void print_gain_errors(const trapeze_group_launch *l, const double gerr[NGAIN])
{
    printf("%-24s %-10s held out: gain errors", l->kernel, l->params);
    for (int c = 1; c < NFIXED; c++)
        printf("%s %s %+.2f%%", c > 1 ? "," : "", trapeze_tb_policies[fixed_row(c)].name,
               100 * gerr[c - 1]);
    printf("\n");
}

/* calibrate's line on a launch's whole-GPU windows: each candidate's model
 * cycles at the held-out DRAM contention, its window's factor and its run,
 * what the corrected gain errors (and u) are taken on. */
static void print_window_gains(const trapeze_group_launch *l, const launch_times *t, double beta)
{
    printf("%-24s %-10s whole-GPU windows, DRAM contention %.6g held out: model cycles x "
           "factor / run:", l->kernel, l->params, beta);
    for (int c = 0; c < NFIXED; c++)
        printf("%s %s %.1f x %.6f / %.0f", c ? "," : "", trapeze_tb_policies[fixed_row(c)].name,
               cycles_at(t, c, beta, -1),
               trapeze_group_gpu_window_factor(t->wsim[c], t->wnorm[c], t->wtg[c], beta),
               t->sim[c]);
    printf("\n");
}

/* calibrate's line on the DRAM rows' cost: the launches whose gains it
 * moves and how far at cost 1 (the most of a launch's), or that none does
 * (then the fit is flat and its 0 no measurement). */
static void print_row_cost(const launches *ls, double kappa, const double *moves, long count)
{
    printf("... with the DRAM rows each grouping scatters: cost %.4g (", kappa);
    if (!count)
        printf("not identified: no launch of the %d reads past one row of every bank with "
               "candidates that scatter it differently", ls->n);
    else
        printf("fitted to the whole runs' gains at those constants, on the %ld of %d launches "
               "whose gains it moves, the most at cost 1:", count, ls->n);
    for (int i = 0; i < ls->n; i++)
        if (moves[i] > 0)
            printf(" %s%s%s@%d %.2f%%%s", ls->l[i].kernel, ls->l[i].params[0] ? " " : "",
                   ls->l[i].params, ls->l[i].launch, 100 * expm1(moves[i]),
                   --count ? "," : "");
    printf("; the uncertainty above held out with it)\n");
}

/* calibrate over several launches: one set of constants fitted to every
 * launch's sub-grids, and the uncertainty of a predicted gain over rr with
 * them, held out over launches: each launch's whole runs against the
 * constants fitted to the others' sub-grids. */
static trapeze_status calibrate_many(const char *gpu, const char *gpu_nm, const launches *ls,
                                     const trapeze_group_plan *plan, const trapeze_sample_log *log,
                                     int l2, int rows, const char *out, trapeze_json_out *j,
                                     trapeze_error *err)
{
    static launch_evidence ev[MAX_LAUNCHES];
    static double own_kappa[MAX_LAUNCHES];
    static double row_moves[MAX_LAUNCHES];   /* how far the rows' cost moves each one's gains */
    long n_row_moved = 0;
    static launch_times t[MAX_LAUNCHES], own[MAX_LAUNCHES];
    static double gerr[MAX_LAUNCHES][NGAIN], beta[MAX_LAUNCHES];
    static double own_gerr[MAX_LAUNCHES][NGAIN], own_beta[MAX_LAUNCHES], own_beta2[MAX_LAUNCHES];
    static double win_gerr[MAX_LAUNCHES][NGAIN], win_beta[MAX_LAUNCHES];
    static launch_times own_win[MAX_LAUNCHES];
    int windows = 0;   /* whole-GPU windows planned: u with their corrections too */
    int n = 0;
    trapeze_status s = TRAPEZE_OK;
    for (; !s && n < ls->n; n++)
        s = prepare(gpu, ls, n, plan, log, 1, &ev[n], err);
    /* u and beta where each launch is fitted to its own sub-grids (what
     * validate and a user's launch use): each launch's constants see only
     * its sub-grids, and beta is fitted over the whole runs at those
     * constants, where a launch's Tg can reach half its N (the GTX 480's
     * Jacobi 512^2); at the one set below none does, and beta fits 0 */
    for (int i = 0; !s && i < ls->n; i++) {
        s = times_of(&ev[i], &ev[i].p, l2, &own[i], err);
        own_win[i] = own[i];
        for (int c = 0; c < NFIXED; c++) {
            windows |= own[i].wsim[c] > 0;
            own[i].wsim[c] = 0;   /* the sub-grid pair: uncorrected */
        }
    }
    if (!s)
        s = held_out_gain_errors(own, ls->n, ls->gain_form, own_gerr, own_beta, l2 ? own_beta2 : NULL,
                                 rows ? own_kappa : NULL, err);
    if (!s && windows)
        s = held_out_gain_errors(own_win, ls->n, ls->gain_form, win_gerr, win_beta, NULL, NULL, err);
    for (int i = 0; !s && i < ls->n; i++) {
        trapeze_group_params held;
        s = fit_launches(ev, ls->n, i, 0, &held, NULL, err);
        if (!s)
            s = times_of(&ev[i], &held, L2_NONE, &t[i], err);
        for (int c = 0; c < NFIXED; c++)   /* the one set: uncorrected, as before windows */
            t[i].wsim[c] = 0;
    }
    if (!s)
        s = held_out_gain_errors(t, ls->n, ls->gain_form, gerr, beta, NULL, NULL, err);
    for (int i = 0; !s && i < ls->n; i++)
        print_gain_errors(&ls->l[i], gerr[i]);
    for (int i = 0; !s && windows && i < ls->n; i++)
        print_window_gains(&ls->l[i], &own_win[i], win_beta[i]);
    trapeze_group_params p;
    trapeze_fit_report rep;
    memset(&rep, 0, sizeof rep);
    if (!s)
        s = fit_launches(ev, ls->n, -1, 5, &p, &rep, err);
    if (!s)
        s = contention_without(t, ls->n, -1, &p.value[TRAPEZE_GROUP_CONTENTION], err);
    if (!s)
        s = contention_without(own, ls->n, -1, &p.subgrid_contention, err);
    /* beta2 at the sub-grid pair's constants and beta, where it is priced */
    if (!s && l2)
        s = l2_contention_without(own, ls->n, -1, p.subgrid_contention, l2_beta(&p, l2), err);
    /* the DRAM rows' cost at the same constants, beta and beta2 */
    if (!s && rows)
        s = row_cost_without(own, ls->n, -1, p.subgrid_contention,
                             l2 ? l2_beta_of(&p, l2) : -1, &p.dram_rows_cost, row_moves,
                             &n_row_moved, err);
    if (!s) {
        p.gain_uncertainty = held_out_rms(gerr, ls->n, -1);
        p.subgrid_gain_uncertainty = held_out_rms(own_gerr, ls->n, -1);
        p.gpu_window_gain_uncertainty = windows ? held_out_rms(win_gerr, ls->n, -1) : -1;
        snprintf(p.source, sizeof p.source,
                 "trapeze calibrate --model group on %.24s: %d launches' sub-grids", gpu_nm,
                 ls->n);
        s = trapeze_group_params_save(out, &p, err);
    }
    char names[128];
    if (!s) {
        printf("fitted to the sub-grids of %s of %d launches: rms error %.2f%%, cross-validated "
               "%.2f%%\n", fixed_list(", ", ", ", names, sizeof names), ls->n,
               100 * rep.rms_rel_error, rep.cv_mape_pct);
        printf("uncertainty of a predicted gain over rr: %.2f%% (rms of the errors above: "
               "each launch's whole runs against the constants fitted to the others' sub-grids "
               "and the DRAM contention to the others' whole runs)\n",
               100 * p.gain_uncertainty);
        printf("DRAM contention: %.4g (fitted to the whole runs of the %d launches)\n",
               p.value[TRAPEZE_GROUP_CONTENTION], ls->n);
        printf("each launch fitted to its own sub-grids (validate, a user's launch): "
               "uncertainty of a gain %.2f%%, DRAM contention %.4g (held out as above)\n",
               100 * p.subgrid_gain_uncertainty, p.subgrid_contention);
        if (l2)
            printf("... with the whole GPU's L2 time%s: L2 contention %.4g (fitted to the whole "
                   "runs at those constants; the uncertainty above held out with it)\n",
                   l2_modes[l2].of, l2_beta_of(&p, l2));
        if (rows)
            print_row_cost(ls, p.dram_rows_cost, row_moves, n_row_moved);
        if (windows)
            printf("... with each prediction corrected by its whole-GPU window: uncertainty "
                   "of a gain %.2f%%\n", 100 * p.gpu_window_gain_uncertainty);
        for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++)
            printf("  %-14s %.6g\n", trapeze_group_param_name((trapeze_group_param)k), p.value[k]);
        fprintf(stderr, "wrote %s\n", out);
        json_params(j, &p, out);
        trapeze_json_number(j, "rms_pct", 100 * rep.rms_rel_error);
        trapeze_json_number(j, "cv_mape_pct", rep.cv_mape_pct);
        trapeze_json_number(j, "gain_uncertainty_pct", 100 * p.gain_uncertainty);
        trapeze_json_number(j, "subgrid_gain_uncertainty_pct", 100 * p.subgrid_gain_uncertainty);
        trapeze_json_number(j, "subgrid_dram_contention", p.subgrid_contention);
        trapeze_json_number(j, "l2_contention", l2 == L2_MODEL ? p.l2_contention : NAN);
        trapeze_json_number(j, "l2_measured_contention",
                            l2 == L2_MEASURED ? p.l2_measured_contention : NAN);
        trapeze_json_number(j, "memory_measured_contention",
                            l2 == L2_MEMORY ? p.memory_measured_contention : NAN);
        trapeze_json_number(j, "gpu_window_gain_uncertainty_pct",
                            windows ? 100 * p.gpu_window_gain_uncertainty : NAN);
        trapeze_json_number(j, "dram_rows_cost", rows ? p.dram_rows_cost : NAN);
        trapeze_json_number(j, "dram_rows_launches", rows ? (double)n_row_moved : NAN);
    }
    for (int i = 0; i < n; i++)
        trapeze_group_problem_destroy(ev[i].own);
    return s;
}

/* A calibration's figure measured at sub-grid-fitted constants, else (an
 * older file, not measured) the one at its own constants. */
static double subgrid_or(double subgrid, double whole)
{
    return subgrid >= 0 ? subgrid : whole;
}

/* whether any candidate of the launch got a whole-GPU window */
static int has_gpu_windows(const trapeze_group_window_evidence *ev)
{
    for (int c = 0; c < TRAPEZE_TB_NFIXED; c++)
        if (ev->gpu_k[c] > 0)
            return 1;
    return 0;
}

/* After the samples: validate decides every launch, each with the
 * uncertainty of a gain and the DRAM contention held out over the others
 * (`held_out`: at least two others and no --calibration), else the
 * calibration's, `fallback`; calibrate fits one. */
static trapeze_status finish(int validate, const char *gpu, const char *gpu_nm,
                             const launches *ls, const trapeze_group_plan *plan,
                             const trapeze_sample_log *log, double margin,
                             const trapeze_group_params *fallback, const char *fallback_from,
                             int held_out, int gpu_windows, int l2, int rows,
                             const char *out, const char *csv_path, trapeze_json_out *j,
                             trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    trapeze_csv_out *csv = NULL;
    static launch_figures f[MAX_LAUNCHES];
    static launch_times t[MAX_LAUNCHES];
    static double gerr[MAX_LAUNCHES][NGAIN], beta[MAX_LAUNCHES], beta2[MAX_LAUNCHES],
        kappa[MAX_LAUNCHES];
    memset(f, 0, sizeof f);
    if (!validate && ls->n > 1)
        return calibrate_many(gpu, gpu_nm, ls, plan, log, l2, rows, out, j, err);
    if (validate)
        trapeze_json_array(j, "launches");
    if (csv_path)
        s = trapeze_csv_create(csv_path, csv_columns, 9, &csv, err);
    if (!s && held_out)
        s = all_times(gpu, ls, plan, log, l2, t, err);
    if (!s && held_out)
        s = held_out_gain_errors(t, ls->n, ls->gain_form, gerr, beta, l2 ? beta2 : NULL,
                                 rows ? kappa : NULL, err);
    for (int i = 0; !s && i < ls->n; i++) {
        trapeze_group_outcome o;
        memset(&o, 0, sizeof o);
        launch_evidence e;
        s = prepare(gpu, ls, i, plan, log, validate, &e, err);
        /* the whole GPU's DRAM contention: measured on the other launches'
         * whole runs, else the calibration's (never this launch's), the
         * pair it measured at sub-grid-fitted constants, as here */
        /* a launch with whole-GPU windows takes the calibration's u of
         * corrected predictions; one the windows' part cannot hold a wave
         * of keeps its sub-grids' u, since nothing corrects its gains */
        e.p.gain_uncertainty =
            held_out ? held_out_rms(gerr, ls->n, i)
            : fallback ? subgrid_or(gpu_windows && has_gpu_windows(&e.ev)
                                        ? fallback->gpu_window_gain_uncertainty : -1,
                                    subgrid_or(fallback->subgrid_gain_uncertainty,
                                               fallback->gain_uncertainty))
                       : -1;
        e.p.value[TRAPEZE_GROUP_CONTENTION] =
            held_out ? beta[i]
            : fallback ? subgrid_or(fallback->subgrid_contention,
                                    fallback->value[TRAPEZE_GROUP_CONTENTION])
                       : 0;
        /* the whole GPU's L2 contention, as the DRAM's (off without an L2 option) */
        e.p.l2_contention = e.p.l2_measured_contention = e.p.memory_measured_contention = -1;
        if (l2)
            *l2_beta(&e.p, l2) = held_out ? beta2[i] : l2_beta_of(fallback, l2);
        /* the DRAM rows' cost, as the L2's (off without --dram-rows) */
        e.p.dram_rows_cost = !rows ? -1 : held_out ? kappa[i] : fallback->dram_rows_cost;
        if (!s)
            s = trapeze_group_decide(e.pb, &e.p, NULL, &e.ev, 0, margin, 0, &o, err);
        if (!s && validate)
            s = compare_with_runs(e.pb, e.sim, e.win_work, &o, &f[i], err);
        if (!s && !validate) {
            snprintf(o.params.source, sizeof o.params.source,
                     "trapeze calibrate --model group on %.24s: %.40s launch %d", gpu_nm,
                     ls->l[i].kernel, ls->l[i].launch);
            s = trapeze_group_params_save(out, &o.params, err);
            if (!s) {
                for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++)
                    printf("  %-14s %.6g\n", trapeze_group_param_name((trapeze_group_param)k),
                           o.params.value[k]);
                fprintf(stderr, "wrote %s\n", out);
                json_params(j, &o.params, out);
            }
        }
        if (!s && validate) {
            print_launch(&ls->l[i], &o, &f[i]);
            if (o.dram_banks) {
                printf("DRAM time with the rows each grouping opens (cycles, activations):");
                for (int c = 0; c < NFIXED; c++)
                    printf(" %s %.0f (%.0f)", trapeze_tb_policies[fixed_row(c)].name,
                           o.dram_time[c], o.dram_activations[c]);
                printf("\n");
            }
            if (o.gpu_factor_chosen > 0) {
                printf("%s%s:", o.l2_measured == 2 ? "the sub-grids' measured L2 and DRAM time "
                                                     "(corrected / model cycles, over rr's)"
                                : o.l2_measured ? "the sub-grids' measured L2 time (corrected / "
                                                  "model cycles, over rr's)"
                                : o.dram_rows   ? "the DRAM rows' time (corrected / model cycles, "
                                                  "over rr's)"
                                                : "whole-GPU windows (measured / predicted cycles)",
                       o.dram_rows && o.l2_measured ? ", with the DRAM rows' time" : "");
                for (int c = 0; c < NFIXED; c++)
                    printf(" %s %.3f", trapeze_tb_policies[fixed_row(c)].name, o.gpu_factor[c]);
                printf("; the optimized row's %.3f\n", o.gpu_factor_chosen);
            }
            json_launch(j, &ls->l[i], &o, &f[i]);
            if (o.uncertainty >= 0)
                printf("uncertainty of a predicted gain over rr: %.2f%% (%s); DRAM contention "
                       "%.4g\n", 100 * o.uncertainty,
                       held_out ? "rms over the other launches' whole runs" : fallback_from,
                       o.params.value[TRAPEZE_GROUP_CONTENTION]);
            else
                printf("uncertainty of a predicted gain over rr: not measured (no other "
                       "launches, no calibration); the margin alone\n");
            if (l2)
                printf("L2 contention %.4g (the whole GPU's L2 time priced%s)\n",
                       l2_beta_of(&o.params, l2),
                       l2 == L2_MEMORY ? ", with its DRAM time, each candidate's L2 accesses "
                                         "and DRAM reads per TB as its sub-grid measured them"
                       : l2 == L2_MEASURED ? ", each candidate's L2 accesses per TB as its sub-grid "
                                             "measured them" : "");
            if (rows)
                printf("DRAM rows' cost %.4g (each candidate's scattered rows priced)\n",
                       o.params.dram_rows_cost);
        }
        if (!s && csv)
            csv_rows(csv, gpu_nm, &ls->l[i], &o, err, &s);
        trapeze_group_outcome_free(&o);
        trapeze_group_problem_destroy(e.own);
    }
    char names[128];
    const char *others = strchr(fixed_list(" ", " ", names, sizeof names), ' ');   /* but rr */
    if (!s && held_out)
        printf("\nuncertainty of a predicted gain over rr, all %d launches: %.2f%% (rms of "
               "%s over %s)\n", ls->n, 100 * held_out_rms(gerr, ls->n, -1),
               gain_error_text(ls->gain_form), others ? others + 1 : "");
    if (validate)
        trapeze_json_end(j);
    if (!s && held_out)
        trapeze_json_number(j, "gain_uncertainty_pct", 100 * held_out_rms(gerr, ls->n, -1));
    if (!s && validate)
        print_targets(j, f, ls->n);
    if (!s && csv)
        return trapeze_csv_commit(csv, err);
    trapeze_csv_abort(csv);
    return s;
}

int cli_calib_group_run(int argc, char **argv, const char *cmd)
{
    int validate = !strcmp(cmd, "validate");
    const char *model = NULL, *gpu = NULL, *samples = NULL, *threads_text = NULL, *out = NULL,
               *csv = NULL, *margin_text = NULL, *window_text = NULL,
               *window_tbs_text = NULL, *budget_text = NULL, *gpu_window_text = NULL;
    const char *trace = NULL, *json_path = NULL, *calib = NULL, *extra = NULL;
    int l2 = 0;   /* --l2-contention: the whole GPU's L2 time in the cycles */
    int l2m = 0;  /* --l2-measured: the same, from each candidate's sub-grid's L2 count */
    int memm = 0; /* --memory-measured: its L2 and DRAM counts together */
    int rows = 0; /* --dram-rows: the DRAM rows each candidate's grouping scatters */
    int l1f = 0;  /* --l1-fetch: L1 sharing in the unit the L1 fetches */
    int no_banks = 0; /* --no-dram-banks: no DRAM time with the rows each grouping opens */
    int gain_diff = 0; /* --gain-difference: u on the predicted gain minus the simulated */
    const cli_field cal_fields[] = {{"--model", &model, NULL}, {"--gpu", &gpu, NULL},
                                    {"--trace", &trace, NULL}, {"--extra", &extra, NULL},
                                    {"--samples", &samples, NULL}, {"--threads", &threads_text, NULL},
                                    {"--out", &out, NULL}, {"--window", &window_text, NULL},
                                    {"--json", &json_path, NULL},
                                    {"--window-tbs", &window_tbs_text, NULL},
                                    {"--budget", &budget_text, NULL},
                                    {"--gpu-window", &gpu_window_text, NULL},
                                    {"--l2-contention", NULL, &l2},
                                    {"--l2-measured", NULL, &l2m},
                                    {"--memory-measured", NULL, &memm},
                                    {"--dram-rows", NULL, &rows},
                                    {"--no-dram-banks", NULL, &no_banks},
                                    {"--gain-difference", NULL, &gain_diff},
                                    {"--l1-fetch", NULL, &l1f}, {NULL, NULL, NULL}};
    const cli_field val_fields[] = {{"--model", &model, NULL}, {"--gpu", &gpu, NULL},
                                    {"--trace", &trace, NULL}, {"--extra", &extra, NULL},
                                    {"--samples", &samples, NULL}, {"--threads", &threads_text, NULL},
                                    {"--csv", &csv, NULL}, {"--margin", &margin_text, NULL},
                                    {"--calibration", &calib, NULL},
                                    {"--json", &json_path, NULL},
                                    {"--window", &window_text, NULL},
                                    {"--window-tbs", &window_tbs_text, NULL},
                                    {"--budget", &budget_text, NULL},
                                    {"--gpu-window", &gpu_window_text, NULL},
                                    {"--l2-contention", NULL, &l2},
                                    {"--l2-measured", NULL, &l2m},
                                    {"--memory-measured", NULL, &memm},
                                    {"--dram-rows", NULL, &rows},
                                    {"--no-dram-banks", NULL, &no_banks},
                                    {"--gain-difference", NULL, &gain_diff},
                                    {"--l1-fetch", NULL, &l1f}, {NULL, NULL, NULL}};
    static launches ls;
    memset(&ls, 0, sizeof ls);
    ls.cmd = cmd;
    const char *ops[MAX_LAUNCHES + 1];
    int n_ops = 0;
    int rc = cli_parse_options(cmd, argc, argv, 1, validate ? val_fields : cal_fields, ops,
                               MAX_LAUNCHES, &n_ops, validate ? usage_validate : usage_calibrate);
    if (rc >= 0)
        return rc;
    long threads;
    double margin = 1;
    if (cli_threads_value(cmd, threads_text, &threads))
        return 2;
    if (margin_text && (!trapeze_parse_double(margin_text, &margin) || margin < 0 || margin >= 100))
        return cli_usage_error(cmd, "--margin %s: expected a percentage in [0, 100)", margin_text);
    double window = 4;   /* V100: 3 SMs of 80, GTX 480: 1 of 15 */
    if (window_text && (!trapeze_parse_double(window_text, &window) || !(window > 0) ||
                        window > 100))
        return cli_usage_error(cmd, "--window %s: expected a percentage in (0, 100]", window_text);
    double window_tbs = 0;   /* none: whole queues */
    if (window_tbs_text && (!trapeze_parse_double(window_tbs_text, &window_tbs) ||
                            !(window_tbs > 0) || window_tbs > 100))
        return cli_usage_error(cmd, "--window-tbs %s: expected a percentage in (0, 100]",
                               window_tbs_text);
    double budget = 5;   /* the samples' target share of the validation's work */
    if (budget_text && (!trapeze_parse_double(budget_text, &budget) || budget < 0 || budget > 50))
        return cli_usage_error(cmd, "--budget %s: expected a percentage in [0, 50]", budget_text);
    double gpu_window = 0;   /* the whole-GPU windows' part of the budget, % */
    if (gpu_window_text && (!trapeze_parse_double(gpu_window_text, &gpu_window) ||
                            gpu_window < 0 || gpu_window >= 100 || (gpu_window > 0 && !(budget > 0))))
        return cli_usage_error(cmd, "--gpu-window %s: expected a percentage of the budget in "
                               "[0, 100), with a budget", gpu_window_text);
    if (l2 + l2m + memm > 1)
        return cli_usage_error(cmd, "%s and %s: one count of the L2 accesses at a time",
                               l2 ? "--l2-contention" : "--l2-measured",
                               memm ? "--memory-measured" : "--l2-measured");
    if ((l2m || memm) && gpu_window > 0)
        return cli_usage_error(cmd, "%s with --gpu-window: their uncertainty "
                                    "together is not measured; one at a time",
                               memm ? "--memory-measured" : "--l2-measured");
    if (rows && gpu_window > 0)
        return cli_usage_error(cmd, "--dram-rows with --gpu-window: their uncertainty "
                                    "together is not measured; one at a time");
    l2 = l2 ? L2_MODEL : l2m ? L2_MEASURED : memm ? L2_MEMORY : L2_NONE;
    if (!gpu)
        return cli_usage_error(cmd, "--gpu FILE is required");
    if (!validate && !out)
        return cli_usage_error(cmd, "--model group needs --out FILE");
    for (int i = 0; i < n_ops; i++)
        if (parse_launch(&ls, ops[i], ""))
            return 2;
    if (trace) {   /* a path: its launch as a LAUNCH (trapeze_group_launch_problem) */
        char text[128];
        if (!strchr(trace, '/') || strlen(trace) >= sizeof text - 3)
            return cli_usage_error(cmd, "--trace %s: expected DIR/ or DIR/kernelslist.g "
                                        "(a path with a '/', under 125 characters)", trace);
        snprintf(text, sizeof text, "%s", trace);
        if (parse_launch(&ls, text, ""))
            return 2;
    }
    for (int i = 0; !n_ops && !trace &&
                    i < (int)(sizeof default_launches / sizeof *default_launches); i++)
        parse_launch(&ls, default_launches[i], "");
    if (extra && read_launches(&ls, extra))
        return 2;
    /* validate, and calibrate over several launches, need the whole runs */
    const int several = validate || ls.n > 1;
    char gpu_file[4096], gpu_nm[64];
    if (cli_resolve_preset(cmd, "--gpu", "gpus", ".config", gpu, gpu_file, sizeof gpu_file))
        return 2;
    trapeze_error err = {0};
    trapeze_group_plan *plan = NULL;
    trapeze_sample_log *log = NULL;
    /* under mpirun every rank plans; rank 0 alone owns the log, fits and
     * prints, the others run their share of the samples */
    int rank, size, mpi = calib_mpi_start(&argc, &argv, &rank, &size);
    const cli_output outputs[] = {{"--out", out}, {"--csv", csv}};
    trapeze_status s =
        rank == 0 ? cli_check_outputs(outputs, 2, CLI_STDOUT_REPORT, json_path, &err) : TRAPEZE_OK;
    cli_json json = {0};
    if (!s && rank == 0)
        s = cli_json_open(&json, cmd, json_path, &err);
    trapeze_json_text(json.j, "model", "group");
    /* u and the DRAM contention: --calibration's for every launch (what a
     * user's launch gets from group --no-sim), else held out over three
     * launches or more, else the GPU calibration's; calibrate of one launch
     * writes the GPU calibration's with its constants, so that group
     * --no-sim on them predicts what validate does */
    char cal_path[1024], fallback_from[1100] = "";
    const trapeze_group_params *fallback = NULL;
    trapeze_group_params gp;
    const int held_out = validate && !calib && ls.n >= 3;
    if (!s && calib) {
        s = trapeze_group_params_load(calib, &gp, &err);
        fallback = &gp;
        snprintf(fallback_from, sizeof fallback_from, "the calibration %s", calib);
    } else if (!s && (validate || ls.n == 1) &&
               cli_group_calibration(gpu_file, cal_path, sizeof cal_path)) {
        s = trapeze_group_params_load(cal_path, &gp, &err);
        fallback = &gp;
        snprintf(fallback_from, sizeof fallback_from, "the GPU's calibration %s", cal_path);
    }
    if (fallback && fallback->gain_difference)   /* say which error u is the rms of */
        strncat(fallback_from, ", measured as gain differences",
                sizeof fallback_from - strlen(fallback_from) - 1);
    /* beta2 comes from the other launches' runs, else from the calibration:
     * refused before any simulation where it has none */
    if (!s && l2 && !held_out && (validate || ls.n == 1) &&
        !(fallback && l2_beta_of(fallback, l2) >= 0))
        s = trapeze_fail(&err, TRAPEZE_EINVAL,
                         "%s: %s has no %s (make one with calibrate --model group %s over "
                         "several launches)", l2_option(l2),
                         fallback ? fallback_from : "no calibration", l2_key(l2), l2_option(l2));
    if (!s && rows && !held_out && (validate || ls.n == 1) &&
        !(fallback && fallback->dram_rows_cost >= 0))
        s = trapeze_fail(&err, TRAPEZE_EINVAL,
                         "--dram-rows: %s has no dram_rows_cost (make one with calibrate "
                         "--model group --dram-rows over several launches)",
                         fallback ? fallback_from : "no calibration");
    /* the model form goes with the constants and u it was measured at */
    ls.l1_by_fetch = l1f || (fallback && fallback->l1_by_fetch);
    ls.dram_banks = !no_banks && (!fallback || fallback->dram_banks);
    ls.gain_form = gain_diff || (fallback && fallback->gain_difference)
                       ? TRAPEZE_GROUP_GAIN_DIFFERENCE
                       : TRAPEZE_GROUP_GAIN_RATIO;
    if (!s)
        s = gpu_name(gpu_file, gpu_nm, sizeof gpu_nm, &err);
    if (!s)
        s = trapeze_group_plan_create(gpu_file, gpu_nm, ls.l, ls.n, several, several,
                                      window / 100, window_tbs / 100, budget / 100,
                                      gpu_window / 100, &plan, &err);
    if (!s && rank == 0)
        s = trapeze_sample_log_open_schema(samples ? samples : "group-samples.csv",
                                           &trapeze_group_sample_schema, &log, &err);
    if (!s && rank == 0 && trapeze_sample_log_note(log))
        fprintf(stderr, "%s\n", trapeze_sample_log_note(log));
    if (s && size > 1)
        calib_mpi_abort(err.message);   /* the other ranks would wait for this one */
    if (!s)
        s = run_samples(plan, log, (int)threads, rank, size, &err);
    if (!s && rank == 0)
        s = finish(validate, gpu_file, gpu_nm, &ls, plan, log, margin / 100, fallback,
                   fallback_from, held_out, gpu_window > 0, l2, rows, out, csv, json.j, &err);
    if (!s && rank == 0)
        s = cli_json_commit(&json, &err);
    cli_json_abort(&json);
    trapeze_sample_log_close(log);
    trapeze_group_plan_destroy(plan);
    calib_mpi_stop(mpi);
    if (s) {
        fprintf(stderr, "trapeze %s: %s\n", cmd, err.message);
        return 1;
    }
    return 0;
}
