/*
 * cmd_sim_workload.c - `trapeze sim --workload SPEC`: parses the options of
 * a ghost-zone stencil run, resolves preset names (hotspot ->
 * data/workloads/hotspot.ini) and prints what sim_stencil_run() returns.
 * Argument handling only; building and running is sim/stencil.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/text.h"
#include "sim/stencil/stencil_run.h"

typedef struct {
    const char *gpu, *workload, *csv, *size;
    long h, iterations;   /* 0: the spec's height (else 1) and iterations */
    trapeze_sync sync;
    int quiet;
} workload_args;

void cli_sim_workload_usage(FILE *f)
{
    fprintf(f,
            "\n"
            "usage: trapeze sim --gpu FILE --workload SPEC [--h N] [--sync relaunch|fence]\n"
            "                   [--iterations N] [--size AxB] [--csv FILE] [--quiet]\n"
            "\n"
            "With --workload, builds Meng's ghost-zone stencil from a workload spec (an INI\n"
            "file, or a preset name: pathfinder, hotspot, poisson, cell) and runs it:\n"
            "  --h N                  trapezoid height (default: the spec's height, else 1)\n"
            "  --sync MODE            relaunch (one kernel per stage, the default) or fence\n"
            "                         (one persistent kernel, as many blocks as are resident,\n"
            "                         a global barrier per stage)\n"
            "  --iterations N         stencil loops (default: the spec's)\n"
            "  --size AxB             grid size, one number per dimension (default: the spec's)\n"
            "It prints each launch's statistics and the cycles per loop (CPL).\n");
}

/* A whole number in [lo, hi] for option `opt`; 0 when it is not one. */
static int parse_count(const char *opt, const char *v, long lo, long hi, long *out)
{
    if (trapeze_parse_long(v, out) && *out >= lo && *out <= hi)
        return 1;
    fprintf(stderr, "trapeze sim: %s %s: expected a whole number from %ld to %ld\n", opt, v,
            lo, hi);
    return 0;
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
                                             "--sync", "--iterations"};
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
        else if (!strcmp(o, "--size"))
            a->size = v;
        else if (!strcmp(o, "--h") && !parse_count(o, v, 1, 1000000, &a->h))
            return 2;
        else if (!strcmp(o, "--iterations") && !parse_count(o, v, 1, 1000000000L, &a->iterations))
            return 2;
        else if (!strcmp(o, "--sync")) {
            if (strcmp(v, "relaunch") && strcmp(v, "fence"))
                return cli_usage_error("sim", "--sync %s: expected relaunch or fence", v);
            a->sync = strcmp(v, "fence") ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
        }
    }
    if (!a->gpu)
        return cli_usage_error("sim", "--gpu FILE is required");
    return 0;
}


/* A bare name (no '/', no ".ini") is a preset in data/workloads/. */
static int load_workload(const char *name, trapeze_workload *w)
{
    char path[4096];
    size_t len = strlen(name);
    if (!strchr(name, '/') && (len < 4 || strcmp(name + len - 4, ".ini"))) {
        char rel[512];
        snprintf(rel, sizeof rel, "workloads/%s.ini", name);
        cli_data_path(rel, path, sizeof path);
        if (access(path, R_OK) != 0) {
            fprintf(stderr, "trapeze sim: --workload %s: no such preset (%s) and no such file; "
                    "presets: pathfinder, hotspot, poisson, cell\n", name, path);
            return 1;
        }
    } else {
        snprintf(path, sizeof path, "%s", name);
    }
    trapeze_error err;
    if (trapeze_workload_load(path, w, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        return 1;
    }
    return 0;
}

static void print_summary(const sim_stencil_result *r, const sim_stencil_spec *spec,
                          const sim_core_config *c)
{
    const sim_stencil *s = r->stencil;
    sim_stats_print(stdout, r->stats, r->n_stats, c);
    printf("%s, %s, h = %d: %d iterations in %d stages of %ld tiles (output tile edge %d), ",
           spec->workload->name, trapeze_sync_name(spec->sync), spec->h, r->iterations,
           s->stages, s->tiles, s->out_edge);
    if (spec->sync == TRAPEZE_SYNC_FENCE)
        printf("%ld persistent blocks (%d per SM, limited by %s), ", s->resident_blocks,
               r->blocks_per_sm, r->occupancy_limit);
    printf("%d and %d instructions per stencil op and per thread setup\n", s->insts_per_op,
           s->setup_insts);
    printf("CPL: %.1f cycles per loop (%llu cycles / %d iterations)\n", r->cpl,
           (unsigned long long)r->cycles, r->iterations);
}

static int run(const workload_args *a, trapeze_workload *w)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    sim_gpu *g = NULL;
    sim_gpu_options opt = {.progress = isatty(2) ? cli_sim_progress : NULL};
    if (trapeze_config_load(a->gpu, &cfg, &err) || sim_gpu_create(cfg, &opt, &g, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        trapeze_config_destroy(cfg);
        return 1;
    }
    sim_stencil_spec spec = {.workload = w, .h = a->h ? (int)a->h : w->height ? w->height : 1,
                             .sync = a->sync, .iterations = (int)a->iterations};
    sim_stencil_result *r = NULL;
    trapeze_status rc = sim_stencil_run(g, &spec, &r, &err);
    if (opt.progress)
        fprintf(stderr, "\r%60s\r", "");
    if (rc)
        fprintf(stderr, "trapeze sim: %s\n", err.message);
    else if (!a->quiet)
        print_summary(r, &spec, sim_gpu_config(g));
    if (!rc && a->csv && sim_stats_write_csv(a->csv, r->stats, r->n_stats, NULL, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        rc = err.code;
    }
    sim_stencil_result_destroy(r);
    sim_gpu_destroy(g);
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
    return run(&a, &w);
}
