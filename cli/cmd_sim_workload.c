/*
 * cmd_sim_workload.c - `trapeze sim --workload SPEC`: parses the options of
 * a ghost-zone stencil run, resolves preset names (hotspot ->
 * data/workloads/hotspot.ini) and prints what trapeze_sim_run_stencil()
 * returns. Argument handling only, through the public simulator API.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

typedef struct {
    const char *gpu, *workload, *csv, *size, *grouping, *json;
    char gpu_file[4096];
    const char *power, *idle_csv, *sleep[TRAPEZE_PS_SLEEPABLE];   /* energy (cli/power_args.c) */
    long h, iterations;   /* 0: the spec's height (else 1) and iterations */
    long threads;         /* --sim-threads (0: one) */
    trapeze_sync sync;
    int quiet;
} workload_args;

void cli_sim_workload_usage(FILE *f)
{
    fprintf(f,
            "\n"
            "usage: trapeze sim --gpu FILE --workload SPEC [--h N] [--sync relaunch|fence]\n"
            "                   [--iterations N] [--size AxB] [--csv FILE] [--quiet]\n"
            "                   [--power FILE|GPU] [--sleep-l1d|--sleep-l2|--sleep-rf P] [--idle-csv F]\n"
            "                   [--grouping FILE] [--sim-threads N]\n"
            "\n"
            "With --workload, builds Meng's ghost-zone stencil from a workload spec (an INI\n"
            "file, or a preset name: pathfinder, hotspot, poisson, cell) and runs it:\n"
            "  --h N                  trapezoid height (default: the spec's height, else 1)\n"
            "  --sync MODE            relaunch (one kernel per stage, the default) or fence\n"
            "                         (one persistent kernel, as many blocks as are resident,\n"
            "                         a global barrier per stage)\n"
            "  --iterations N         stencil loops (default: the spec's)\n"
            "  --size AxB             grid size, one number per dimension (default: the spec's)\n"
            "  --grouping FILE        relaunch: dispatch each stage's TBs by the grouping FILE\n"
            "                         (tb,group,order; trapeze ghostzone --group-out writes one)\n"
            "  --json FILE            the launches and the run's cycles per loop as one JSON\n"
            "                         document (docs/json.md; - for stdout)\n"
            "It prints each launch's statistics and the run's cycles per loop: its cycles\n"
            "(warm-up stage and launch latencies included) over the iterations. The\n"
            "calibration's CPL (samples.csv cpl_cycles) times only the stages after a\n"
            "warm-up one.\n");
}

/* A whole number in [lo, hi] for option `opt`: 0; else the message and 2. */
static int parse_count(const char *opt, const char *v, long lo, long hi, long *out)
{
    if (trapeze_parse_long(v, out) && *out >= lo && *out <= hi)
        return 0;
    fprintf(stderr, "trapeze sim: %s %s: expected a whole number from %ld to %ld\n", opt, v,
            lo, hi);
    return 2;
}

/* 0: run; -1: help printed; otherwise the exit status of a bad command line. */
static int parse_args(int argc, char **argv, workload_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--quiet")) {
            a->quiet = 1;
            continue;
        }
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            cli_sim_workload_usage(stdout);
            return -1;
        }
        static const char *const valued[] = {"--gpu", "--workload", "--csv", "--size", "--h",
                                             "--sync", "--iterations", "--power", "--idle-csv",
                                             "--sleep-l1d", "--sleep-l2", "--sleep-rf",
                                             "--grouping", "--json",
                                             "--sim-threads"};
        int known = 0;
        for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
            known |= !strcmp(o, valued[k]);
        if (!known)
            return cli_usage_error("sim", "%s: not an option of a --workload run", o);
        if (i + 1 >= argc)
            return cli_usage_error("sim", "%s needs a value", o);
        const char *v = argv[++i];
        if (!strcmp(o, "--gpu"))
            a->gpu = v;
        else if (!strcmp(o, "--workload"))
            a->workload = v;
        else if (!strcmp(o, "--csv"))
            a->csv = v;
        else if (!strcmp(o, "--power"))
            a->power = v;
        else if (!strcmp(o, "--idle-csv"))
            a->idle_csv = v;
        else if (!strcmp(o, "--sleep-l1d"))
            a->sleep[TRAPEZE_PS_L1D] = v;
        else if (!strcmp(o, "--sleep-l2"))
            a->sleep[TRAPEZE_PS_L2] = v;
        else if (!strcmp(o, "--sleep-rf"))
            a->sleep[TRAPEZE_PS_RF] = v;
        else if (!strcmp(o, "--grouping"))
            a->grouping = v;
        else if (!strcmp(o, "--json"))
            a->json = v;
        else if (!strcmp(o, "--size"))
            a->size = v;
        else if (!strcmp(o, "--h") && parse_count(o, v, 1, 1000000, &a->h))
            return 2;
        else if (!strcmp(o, "--iterations") && parse_count(o, v, 1, 1000000000L, &a->iterations))
            return 2;
        else if (!strcmp(o, "--sim-threads") && parse_count(o, v, 1, 64, &a->threads))
            return 2;
        else if (!strcmp(o, "--sync")) {
            if (strcmp(v, "relaunch") && strcmp(v, "fence"))
                return cli_usage_error("sim", "--sync %s: expected relaunch or fence", v);
            a->sync = strcmp(v, "fence") ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
        }
    }
    if (!a->gpu)
        return cli_usage_error("sim", "--gpu FILE is required");
    if (cli_resolve_preset("sim", "--gpu", "gpus", ".config", a->gpu, a->gpu_file,
                           sizeof a->gpu_file))
        return 2;
    a->gpu = a->gpu_file;
    return 0;
}


/* A workload spec file or a preset name (data/workloads/NAME.ini). */
static int load_workload(const char *name, trapeze_workload *w)
{
    char path[4096];
    if (cli_resolve_preset("sim", "--workload", "workloads", ".ini", name, path, sizeof path))
        return 2;
    trapeze_error err;
    if (trapeze_workload_load(path, w, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        return 1;
    }
    cli_workload_shape_note(w);
    return 0;
}

static void print_summary(const trapeze_sim *sim, const trapeze_sim_stencil_result *r,
                          const trapeze_workload *w, trapeze_sync sync, int h)
{
    trapeze_sim_print(sim, stdout);
    printf("%s, %s, h = %d: %d iterations in %d stages of %ld tiles (output tile edge %d), ",
           w->name, trapeze_sync_name(sync), h, r->iterations, r->stages, r->tiles, r->out_edge);
    if (sync == TRAPEZE_SYNC_FENCE)
        printf("%ld persistent blocks (%d per SM, limited by %s), ", r->resident_blocks,
               r->blocks_per_sm, r->occupancy_limit);
    printf("%d and %d instructions per stencil op and per thread setup\n", r->insts_per_op,
           r->setup_insts);
    printf("run cycles per loop: %.1f (%llu cycles / %d iterations, warm-up included)\n",
           r->cycles_per_loop, r->cycles, r->iterations);
}

/* The run in the document: the stencil's shape and its cycles per loop. */
static void json_result(trapeze_json_out *j, const trapeze_sim_stencil_result *r,
                        const trapeze_workload *w, trapeze_sync sync, int h)
{
    trapeze_json_text(j, "workload", w->name);
    trapeze_json_text(j, "sync", trapeze_sync_name(sync));
    trapeze_json_integer(j, "h", h);
    trapeze_json_integer(j, "iterations", r->iterations);
    trapeze_json_integer(j, "stages", r->stages);
    trapeze_json_integer(j, "tiles", r->tiles);
    trapeze_json_integer(j, "out_edge", r->out_edge);
    trapeze_json_number(j, "resident_blocks", sync == TRAPEZE_SYNC_FENCE ? r->resident_blocks
                                                                         : NAN);
    trapeze_json_integer(j, "blocks_per_sm", r->blocks_per_sm);
    trapeze_json_text(j, "occupancy_limit", r->occupancy_limit);
    trapeze_json_integer(j, "insts_per_op", r->insts_per_op);
    trapeze_json_integer(j, "setup_insts", r->setup_insts);
    trapeze_json_integer(j, "warp_instructions", (long long)r->warp_instructions);
    trapeze_json_number(j, "cycles_per_loop", r->cycles_per_loop);
}

static int run(const workload_args *a, trapeze_workload *w, cli_json *json)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    trapeze_sim *sim = NULL;
    trapeze_power power;
    cli_progress bar = {0};
    trapeze_sim_options opt;
    trapeze_sim_options_init(&opt);
    opt.progress = cli_sim_progress;
    opt.progress_ctx = &bar;
    opt.power = a->power ? &power : NULL;
    opt.keep_idle = a->idle_csv != NULL;
    opt.tb_grouping = a->grouping;
    opt.threads = (int)a->threads;
    for (int i = 0; i < TRAPEZE_PS_SLEEPABLE; i++)
        opt.sleep[i] = a->sleep[i];
    if (trapeze_config_load(a->gpu, &cfg, &err) ||
        (a->power && cli_power_load(a->power, &power, &err)) ||
        trapeze_sim_create(cfg, &opt, &sim, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        trapeze_config_destroy(cfg);
        return 1;
    }
    int h = a->h ? (int)a->h : w->height ? w->height : 1;
    trapeze_sim_stencil_result r;
    trapeze_status rc = trapeze_sim_run_stencil(sim, w, a->sync, h, (int)a->iterations, &r, &err);
    cli_progress_end(&bar, !rc);
    if (rc)
        fprintf(stderr, "trapeze sim: %s\n", err.message);
    else if (!a->quiet) {
        print_summary(sim, &r, w, a->sync, h);
        if (opt.power)
            trapeze_sim_print_energy(sim, stdout);
    }
    if (!rc)
        json_result(json->j, &r, w, a->sync, h);
    if (!rc && ((a->idle_csv && (rc = trapeze_sim_write_idle_csv(sim, a->idle_csv, &err))) ||
                (a->csv && (rc = trapeze_sim_write_csv(sim, a->csv, NULL, &err))) ||
                (rc = cli_sim_json(json->j, sim, &err)) || (rc = cli_json_commit(json, &err))))
        fprintf(stderr, "trapeze sim: %s\n", err.message);
    cli_json_abort(json);
    trapeze_sim_destroy(sim);
    trapeze_config_destroy(cfg);
    return rc ? 1 : 0;
}

int cli_sim_workload(int argc, char **argv)
{
    workload_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    trapeze_workload w;
    if ((rc = load_workload(a.workload, &w)) || (a.size && (rc = cli_apply_size("sim", a.size, &w))))
        return rc;
    const cli_output outputs[] = {{"--csv", a.csv}, {"--idle-csv", a.idle_csv}};
    trapeze_error err;
    cli_json json = {0};
    if (cli_check_outputs(outputs, 2, a.quiet ? CLI_STDOUT_FREE : CLI_STDOUT_QUIETABLE, a.json,
                          &err) ||
        cli_json_open(&json, "sim", a.json, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        return 1;
    }
    return run(&a, &w, &json);
}
