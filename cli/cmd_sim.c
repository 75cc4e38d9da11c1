/*
 * cmd_sim.c - `trapeze sim`: run a built-in kernel or a trace on the
 * cycle-level simulator and print (and optionally write as CSV) its
 * statistics. Holds argument handling only, through the public simulator
 * API (trapeze_sim_* in trapeze.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze sim --gpu FILE KERNEL [name=value ...] [--csv FILE]\n"
            "                   [--per-sm-csv FILE] [--ideal-memory CYCLES] [--sim-threads N]\n"
            "                   [--quiet]\n"
            "       trapeze sim --gpu FILE --trace DIR[/kernelslist.g] [--csv FILE] ...\n"
            "       trapeze sim --list | --options\n"
            "\n"
            "Runs a built-in kernel on the cycle-level GPU simulator configured by FILE\n"
            "(gpgpusim.config syntax, e.g. data/gpus/gtx480.config) and prints cycles,\n"
            "warp instructions, IPC and a stall breakdown per kernel launch.\n"
            "\n"
            "  --gpu FILE             GPU configuration: a file, a folder (its gpgpusim.config\n"
            "                         then trace.config) or a comma list, read in order\n"
            "  --trace LIST           run the kernels of an Accel-Sim trace (its folder, or\n"
            "                         its kernelslist.g)\n"
            "                         instead of a built-in KERNEL\n"
            "  --csv FILE             write one row per kernel launch (kernel,cycles,\n"
            "                         warp_instructions,ipc,...)\n"
            "  --per-sm-csv FILE      write one row per kernel launch and SM (kernel,launch,\n"
            "                         sm,cycles,warp_instructions,ipc,...); they sum to --csv's\n"
            "  --ideal-memory CYCLES  replace the memory system by one that answers every\n"
            "                         request after CYCLES core cycles\n"
            "  --sim-threads N        split each simulated cycle across N threads (1-64;\n"
            "                         default 1): the same bytes as one thread, sooner on\n"
            "                         a GPU with many SMs (docs/performance.md)\n"
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
            "  --json FILE            the launches' statistics as one JSON document\n"
            "                         (docs/json.md); - for stdout (the text then on stderr)\n"
            "  --quiet                no summary on stdout; then one CSV may be - (stdout)\n"
            "  --list                 list the built-in kernels and their parameters\n"
            "  --options              list the config options the simulator reads (name,\n"
            "                         type, default, range, help)\n");
    cli_sim_workload_usage(f);
}

static void list(FILE *f)
{
    const char *name, *help, *pname;
    for (int i = 0; (name = trapeze_sim_builtin(i, &help)); i++) {
        fprintf(f, "%-10s %s\n", name, help);
        long value;
        for (int j = 0; (pname = trapeze_sim_builtin_param(i, j, &value, &help)); j++)
            fprintf(f, "    %s=%ld  %s\n", pname, value, help);
    }
}

/* "launch 3/10 jacobi: 120/240 blocks, ..., cycle 5000": one clock for the
 * whole run, whose work is its launches, each weighed by its blocks done. */
void cli_sim_progress(void *ctx, const trapeze_sim_progress_info *p)
{
    cli_progress *line = ctx;
    char prefix[96], text[64], detail[64];
    snprintf(prefix, sizeof prefix, "launch %d/%d %.60s", p->launch, p->launches, p->kernel);
    snprintf(text, sizeof text, "%llu/%llu blocks", p->blocks_done, p->blocks);
    snprintf(detail, sizeof detail, "cycle %llu", p->cycle);
    line->prefix = prefix;
    double frac = p->blocks ? (double)p->blocks_done / (double)p->blocks : 1;
    cli_progress_work(line, text, p->launch - 1 + frac, p->launches, detail);
    line->prefix = NULL; /* prefix lives no longer than this call */
}

trapeze_status cli_sim_json(trapeze_json_out *j, const trapeze_sim *sim, trapeze_error *err)
{
    trapeze_json_integer(j, "cycles", (long long)trapeze_sim_cycle(sim));
    trapeze_json_array(j, "launches");
    for (int i = 0; j && i < trapeze_sim_launches(sim); i++) {
        trapeze_sim_launch l;
        trapeze_status s = trapeze_sim_launch_stats(sim, i, &l, err);
        if (s)
            return s;
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "kernel", l.name);
        trapeze_json_integer(j, "launch", (long long)l.launch);
        trapeze_json_integer(j, "start_cycle", (long long)l.start_cycle);
        trapeze_json_integer(j, "cycles", (long long)l.cycles);
        trapeze_json_integer(j, "launch_cycles", (long long)l.launch_cycles);
        trapeze_json_integer(j, "blocks", (long long)l.blocks);
        trapeze_json_integer(j, "warp_instructions", (long long)l.warp_instructions);
        trapeze_json_integer(j, "thread_instructions", (long long)l.thread_instructions);
        trapeze_json_number(j, "ipc", l.ipc);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    return TRAPEZE_OK;
}

static void note_unused(const trapeze_config *cfg, const char *gpu_path)
{
    const char *unused[64];
    size_t nu = trapeze_sim_unmodelled_options(cfg, unused, 64);
    if (!nu)
        return;
    fprintf(stderr, "note: %zu option(s) of %s not modelled:", nu, gpu_path);
    for (size_t i = 0; i < nu && i < 64; i++)
        fprintf(stderr, " -%s", unused[i]);
    fputc('\n', stderr);
}

int cli_sim(int argc, char **argv)
{
    const char *gpu_path = NULL, *csv = NULL, *sm_csv = NULL, *kernel = NULL, *trace = NULL;
    const char *power_arg = NULL, *idle_csv = NULL, *sleep_arg[TRAPEZE_PS_SLEEPABLE] = {0};
    const char *grouping = NULL, *json_path = NULL, *ideal_text = NULL, *threads_text = NULL;
    long ideal = 0, threads = 1;
    int quiet = 0, list_wanted = 0, options_wanted = 0;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    char **params = calloc((size_t)argc + 1, sizeof *params);
    int n_params = 0, n_ops = 0;
    if (!params || !operands) {
        free(params);
        free(operands);
        return 2;
    }
    int rc = 2;
    /* a --workload run has options of its own (cmd_sim_workload.c) */
    static const cli_opt workload_opts[] = {
        {"--gpu", 1, 0}, {"--workload", 1, 0}, {"--csv", 1, 0}, {"--size", 1, 0}, {"--h", 1, 0},
        {"--sync", 1, 0}, {"--iterations", 1, 0}, {"--power", 1, 0}, {"--idle-csv", 1, 0},
        {"--sleep-l1d", 1, 0}, {"--sleep-l2", 1, 0}, {"--sleep-rf", 1, 0}, {"--quiet", 0, 0},
        {"--grouping", 1, 0}, {"--json", 1, 0}, {"--sim-threads", 1, 0},
        {NULL, 0, 0}};
    int workload_run = 0;
    for (int i = 1; i < argc; i++)
        workload_run |= !strcmp(argv[i], "--workload");
    if (workload_run) {
        if ((rc = cli_check_options("sim", argc, argv, 1, workload_opts)))
            goto out;
        for (int i = 1; i < argc && strcmp(argv[i], "--workload"); i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                usage(stdout);   /* a --help before --workload: the whole command's */
                goto out;
            }
        rc = cli_sim_workload(argc, argv);
        goto out;
    }
    const cli_field fields[] = {
        {"--gpu", &gpu_path, NULL}, {"--csv", &csv, NULL}, {"--per-sm-csv", &sm_csv, NULL},
        {"--ideal-memory", &ideal_text, NULL}, {"--trace", &trace, NULL},
        {"--power", &power_arg, NULL}, {"--idle-csv", &idle_csv, NULL},
        {"--sleep-l1d", &sleep_arg[TRAPEZE_PS_L1D], NULL},
        {"--sleep-l2", &sleep_arg[TRAPEZE_PS_L2], NULL},
        {"--sleep-rf", &sleep_arg[TRAPEZE_PS_RF], NULL}, {"--grouping", &grouping, NULL},
        {"--quiet", NULL, &quiet}, {"--list", NULL, &list_wanted},
        {"--options", NULL, &options_wanted},
        {"--json", &json_path, NULL}, {"--sim-threads", &threads_text, NULL},
        {NULL, NULL, NULL}};
    rc = cli_parse_options("sim", argc, argv, 1, fields, operands, argc, &n_ops, usage);
    if (rc >= 0)
        goto out;
    rc = 0;
    if (list_wanted || options_wanted) {
        if (list_wanted)
            list(stdout);
        else
            trapeze_sim_print_options(stdout);
        goto out;
    }
    rc = 2;
    if (ideal_text && (!trapeze_parse_long(ideal_text, &ideal) || ideal < 1 || ideal > 1000000)) {
        fprintf(stderr, "trapeze sim: --ideal-memory %s: expected cycles from 1 to 1000000\n",
                ideal_text);
        goto out;
    }
    if (threads_text &&
        (!trapeze_parse_long(threads_text, &threads) || threads < 1 || threads > 64)) {
        rc = cli_usage_error("sim", "--sim-threads %s: expected a whole number from 1 to 64",
                             threads_text);
        goto out;
    }
    if (n_ops > 0)
        kernel = operands[0];
    for (int i = 1; i < n_ops; i++)
        params[n_params++] = (char *)operands[i];
    if (!gpu_path || !kernel == !trace) {
        rc = cli_usage_error("sim", "%s", !gpu_path ? "--gpu FILE is required"
                                            : trace ? "give a KERNEL or --trace, not both"
                                                    : "no KERNEL given");
        goto out;
    }
    char gpu_file[4096];
    if (cli_resolve_preset("sim", "--gpu", "gpus", ".config", gpu_path, gpu_file,
                           sizeof gpu_file))
        goto out;
    gpu_path = gpu_file;
    trapeze_error err = {0};
    const cli_output outputs[] = {{"--csv", csv}, {"--per-sm-csv", sm_csv},
                                  {"--idle-csv", idle_csv}};
    cli_json json = {0};
    if (cli_check_outputs(outputs, 3, quiet ? CLI_STDOUT_FREE : CLI_STDOUT_QUIETABLE, json_path,
                          &err) ||
        cli_json_open(&json, "sim", json_path, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        rc = 1;
        goto out;
    }
    if (!trace && trapeze_sim_builtin_check(kernel, n_params, params, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        cli_json_abort(&json);
        goto out;
    }
    rc = 1; /* from here on, what fails is the files or the run, not the command line */
    trapeze_config *cfg = NULL;
    if (trapeze_config_load(gpu_path, &cfg, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        cli_json_abort(&json);
        goto out;
    }
    trapeze_power power;
    if (power_arg && cli_power_load(power_arg, &power, &err)) {
        fprintf(stderr, "trapeze sim: %s\n", err.message);
        trapeze_config_destroy(cfg);
        cli_json_abort(&json);
        goto out;
    }
    cli_progress bar = {0};
    trapeze_sim_options opt = {.ideal_memory_cycles = (int)ideal, .tb_grouping = grouping,
                               .progress = cli_sim_progress, .progress_ctx = &bar,
                               .power = power_arg ? &power : NULL,
                               .keep_idle = idle_csv != NULL, .threads = (int)threads};
    for (int i = 0; i < TRAPEZE_PS_SLEEPABLE; i++)
        opt.sleep[i] = sleep_arg[i];
    trapeze_sim *sim = NULL;
    if (trapeze_sim_create(cfg, &opt, &sim, &err) ||
        (trace ? trapeze_sim_run_trace(sim, trace, &err)
               : trapeze_sim_run_builtin(sim, kernel, n_params, params, &err))) {
        cli_progress_end(&bar, 0);
        fprintf(stderr, "trapeze sim: %s\n", err.message);
    } else {
        rc = 0;
        cli_progress_end(&bar, 1);
        if (!quiet) {
            /* the note before the results, on a terminal too (where stdout
             * is line-buffered and would otherwise come first) */
            if (ideal == 0)
                note_unused(cfg, gpu_path);
            fflush(stderr);
            trapeze_sim_print(sim, stdout);
            if (opt.power)
                trapeze_sim_print_energy(sim, stdout);
        }
        if ((idle_csv && trapeze_sim_write_idle_csv(sim, idle_csv, &err)) ||
            ((csv || sm_csv) && trapeze_sim_write_csv(sim, csv, sm_csv, &err)) ||
            cli_sim_json(json.j, sim, &err) || cli_json_commit(&json, &err)) {
            fprintf(stderr, "trapeze sim: %s\n", err.message);
            rc = 1;
        }
    }
    cli_json_abort(&json);
    trapeze_sim_destroy(sim);
    trapeze_config_destroy(cfg);
out:
    free(operands);
    free(params);
    return rc;
}
