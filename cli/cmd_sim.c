/*
 * cmd_sim.c - `trapeze sim`: run a built-in kernel on the cycle-level
 * simulator and print (and optionally write as CSV) its statistics. Holds
 * argument handling only; the simulator is sim/core and sim/mem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/text.h"
#include "sim/core/gpu_sim.h"
#include "sim/mem/mem_config.h"
#include "sim/trace/trace.h"

#define MAX_LAUNCHES 4096

static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze sim --gpu FILE KERNEL [name=value ...] [--csv FILE]\n"
            "                   [--per-sm-csv FILE] [--ideal-memory CYCLES] [--quiet]\n"
            "       trapeze sim --gpu FILE --trace DIR/kernelslist.g [--csv FILE] ...\n"
            "       trapeze sim --list | --options\n"
            "\n"
            "Runs a built-in kernel on the cycle-level GPU simulator configured by FILE\n"
            "(gpgpusim.config syntax, e.g. data/gpus/gtx480.config) and prints cycles,\n"
            "warp instructions, IPC and a stall breakdown per kernel launch.\n"
            "\n"
            "  --gpu FILE             GPU configuration\n"
            "  --trace LIST           run the kernels of an Accel-Sim trace (kernelslist.g)\n"
            "                         instead of a built-in KERNEL\n"
            "  --csv FILE             write one row per kernel launch (kernel,cycles,\n"
            "                         warp_instructions,ipc,...)\n"
            "  --per-sm-csv FILE      write one row per kernel launch and SM (kernel,launch,\n"
            "                         sm,cycles,warp_instructions,ipc,...); they sum to --csv's\n"
            "  --ideal-memory CYCLES  replace the memory system by one that answers every\n"
            "                         request after CYCLES core cycles\n"
            "  --power FILE|GPU       account energy with a power description (an INI file, or\n"
            "                         gtx480 / v100 for data/power/GPU.ini): prints joules and\n"
            "                         average watts by component, adds _j columns to the CSVs\n"
            "  --sleep-l1d POLICY[:G] L1D sleep policy: always_on, snooze, oracle; G line|bank\n"
            "  --sleep-l2 POLICY[:G]  L2 sleep policy: always_on, snooze, oracle; G line|slice\n"
            "  --sleep-rf POLICY[:G]  register-file sleep policy: always_on, drowsy, slumber,\n"
            "                         oracle; G warp_reg|bank (policies change timing; they\n"
            "                         need --power; config: -trapeze_sleep_l1d etc.)\n"
            "  --idle-csv FILE        write idle-period histograms (gpu,kernel,structure,\n"
            "                         granularity,length_min_cycles,length_max_cycles,\n"
            "                         next_access,count)\n"
            "  --grouping FILE        dispatch TBs by the grouping FILE (tb,group,order;\n"
            "                         the option -trapeze_tb_dispatch explicit)\n"
            "  --quiet                no summary on stdout\n"
            "  --list                 list the built-in kernels and their parameters\n"
            "  --options              list the config options the simulator reads (name,\n"
            "                         type, default, range, help)\n");
    cli_sim_workload_usage(f);
}

static void list(FILE *f)
{
    int n;
    const sim_builtin *b = sim_builtins(&n);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%-10s %s\n", b[i].name, b[i].help);
        for (int j = 0; j < SIM_BUILTIN_MAX_PARAMS && b[i].params[j].name; j++)
            fprintf(f, "    %s=%ld  %s\n", b[i].params[j].name, b[i].params[j].value,
                    b[i].params[j].help);
    }
}

void cli_sim_progress(void *ctx, const char *kernel, uint64_t cycle, uint64_t done,
                     uint64_t blocks)
{
    (void)ctx;
    static cli_progress line;
    static char last[64];
    if (strncmp(last, kernel, sizeof last - 1) != 0) { /* a new launch: a new clock */
        snprintf(last, sizeof last, "%s", kernel);
        memset(&line, 0, sizeof line);
    }
    char detail[64];
    snprintf(detail, sizeof detail, "cycle %llu", (unsigned long long)cycle);
    line.prefix = last;
    cli_progress_update(&line, (double)done, (double)blocks, "blocks", detail);
}

/* *p, which becomes NULL (a handle given to commit, which frees it). */
static trapeze_csv_out *exchange(trapeze_csv_out **p)
{
    trapeze_csv_out *c = *p;
    *p = NULL;
    return c;
}

int cli_sim(int argc, char **argv)
{
    const char *gpu_path = NULL, *csv = NULL, *sm_csv = NULL, *kernel = NULL, *trace = NULL;
    const char *power_arg = NULL, *idle_csv = NULL, *sleep_arg[TRAPEZE_PS_SLEEPABLE] = {0};
    const char *grouping = NULL;
    long ideal = 0;
    int quiet = 0;
    char **params = calloc((size_t)argc + 1, sizeof *params);
    int n_params = 0;
    if (!params)
        return 2;
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(params);
            return 0;
        } else if (!strcmp(a, "--workload")) {
            free(params);
            return cli_sim_workload(argc, argv);
        } else if (!strcmp(a, "--list")) {
            list(stdout);
            free(params);
            return 0;
        } else if (!strcmp(a, "--options")) {
            trapeze_opt_print(stdout, "GPU (model and simulator)", trapeze_gpu_options);
            trapeze_opt_print(stdout, "SM cores", sim_core_options);
            trapeze_opt_print(stdout, "memory system", sim_mem_options);
            trapeze_opt_print(stdout, "sleep policies (with --power)", sim_sleep_options);
            free(params);
            return 0;
        } else if (!strcmp(a, "--gpu") || !strcmp(a, "--csv") || !strcmp(a, "--per-sm-csv") ||
                   !strcmp(a, "--ideal-memory") || !strcmp(a, "--trace") ||
                   !strcmp(a, "--power") || !strcmp(a, "--idle-csv") ||
                   !strcmp(a, "--sleep-l1d") || !strcmp(a, "--sleep-l2") ||
                   !strcmp(a, "--sleep-rf") || !strcmp(a, "--grouping")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "trapeze sim: %s needs a value\n", a);
                goto out;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--gpu"))
                gpu_path = v;
            else if (!strcmp(a, "--csv"))
                csv = v;
            else if (!strcmp(a, "--trace"))
                trace = v;
            else if (!strcmp(a, "--per-sm-csv"))
                sm_csv = v;
            else if (!strcmp(a, "--power"))
                power_arg = v;
            else if (!strcmp(a, "--idle-csv"))
                idle_csv = v;
            else if (!strcmp(a, "--sleep-l1d"))
                sleep_arg[TRAPEZE_PS_L1D] = v;
            else if (!strcmp(a, "--sleep-l2"))
                sleep_arg[TRAPEZE_PS_L2] = v;
            else if (!strcmp(a, "--sleep-rf"))
                sleep_arg[TRAPEZE_PS_RF] = v;
            else if (!strcmp(a, "--grouping"))
                grouping = v;
            else if (!trapeze_parse_long(v, &ideal) || ideal < 1 || ideal > 1000000) {
                fprintf(stderr, "trapeze sim: --ideal-memory %s: expected cycles from 1 to 1000000\n", v);
                goto out;
            }
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "trapeze sim: unknown option %s (see --help)\n", a);
            goto out;
        } else if (!kernel) {
            kernel = a;
        } else {
            params[n_params++] = argv[i];
        }
    }
    if (!gpu_path || !kernel == !trace) {
        rc = cli_usage_error("sim", "%s", !gpu_path ? "--gpu FILE is required"
                                            : trace ? "give a KERNEL or --trace, not both"
                                                    : "no KERNEL given");
        goto out;
    }
    const sim_builtin *b = trace ? NULL : sim_builtin_find(kernel);
    if (!trace && !b) {
        fprintf(stderr, "trapeze sim: no built-in kernel '%s' (trapeze sim --list names them)\n",
                kernel);
        goto out;
    }
    trapeze_error err = {0};
    long p[SIM_BUILTIN_MAX_PARAMS];
    if (!trace && sim_builtin_params(b, n_params, params, p, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        goto out;
    }
    trapeze_config *cfg = NULL;
    if (trapeze_config_load(gpu_path, &cfg, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        goto out;
    }
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    if (isatty(2))
        opt.progress = cli_sim_progress;
    trapeze_power power;
    sim_sleep_config sleep;
    if (cli_power_options(cfg, power_arg, sleep_arg, &power, &sleep, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        trapeze_config_destroy(cfg);
        goto out;
    }
    opt.power = power_arg ? &power : NULL;
    opt.sleep = &sleep;
    opt.keep_idle = idle_csv != NULL;
    opt.tb_grouping = grouping;
    sim_gpu *g = NULL;
    sim_core_config core;
    if (sim_core_config_read(cfg, &core, &err) ||
        (ideal && sim_mem_port_ideal(core.gpu.n_sm, (int)ideal, &opt.mem, &err)) ||
        sim_gpu_create(cfg, &opt, &g, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        trapeze_config_destroy(cfg);
        goto out;
    }
    sim_kernel **ks = calloc(MAX_LAUNCHES, sizeof *ks);
    sim_kernel_stats *st = calloc(MAX_LAUNCHES, sizeof *st);
    int nk = 0, ran = 0;
    if (!ks || !st) {
        fprintf(stderr, "trapeze sim: out of memory\n");
    } else if (trace ? sim_trace_run(g, trace, st, MAX_LAUNCHES, &ran, &err)
                     : b->build(sim_gpu_config(g), p, ks, MAX_LAUNCHES, &nk, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        rc = trace ? 1 : rc;
    } else {
        rc = 0;
        for (; ran < nk; ran++)
            if (sim_gpu_run(g, ks[ran], &st[ran], &err)) {
                if (opt.progress)
                    fputc('\n', stderr);
                fprintf(stderr, "trapeze sim: %s\n", err.message);
                rc = 1;
                break;
            }
        if (opt.progress)
            fprintf(stderr, "\r%60s\r", "");
        if (!rc && !quiet) {
            sim_stats_print(stdout, st, ran, sim_gpu_config(g));
            if (opt.power)
                cli_print_energy(stdout, st, ran, sim_gpu_sleep(g));
            const char *unused[64];
            size_t nu = sim_config_unknown(cfg, unused, 64);
            if (nu && ideal == 0) {
                fprintf(stderr, "note: %zu option(s) of %s not modelled:", nu, gpu_path);
                for (size_t i = 0; i < nu && i < 64; i++)
                    fprintf(stderr, " -%s", unused[i]);
                fputc('\n', stderr);
            }
        }
        /* all or nothing: both files finished before either is renamed */
        trapeze_csv_out *held_sm = NULL, *held = NULL;
        if ((!rc && idle_csv && sim_gpu_write_idle_csv(g, idle_csv, &err)) ||
            (!rc && sm_csv && sim_stats_write_sm_csv(sm_csv, st, ran, &held_sm, &err)) ||
            (!rc && csv && sim_stats_write_csv(csv, st, ran, &held, &err)) ||
            (held_sm && trapeze_csv_commit(exchange(&held_sm), &err)) ||
            (held && trapeze_csv_commit(exchange(&held), &err))) {
            fprintf(stderr, "trapeze sim: %s\n", err.message);
            rc = 1;
        }
        trapeze_csv_abort(held_sm);
        trapeze_csv_abort(held);
    }
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    for (int i = 0; i < ran; i++)
        sim_kernel_stats_free(&st[i]);
    free(ks);
    free(st);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
out:
    free(params);
    return rc;
}
