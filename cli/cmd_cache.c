/*
 * cmd_cache.c - `trapeze cache` (and `trapeze validate --model cache`, its
 * --verify): which loads to cache for a built-in kernel, Choo's policies
 * decided from short samples (include/trapeze/cache.h), with --verify each
 * policy's whole run beside its prediction. Argument handling and printing only;
 * the samples are sampler/cache/'s, the decision model/cache.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

static void usage(FILE *f)
{
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    fprintf(f,
            "usage: trapeze cache --gpu FILE KERNEL [name=value ...] [--window N]\n"
            "                     [--window-share F [--window-cap N]] [--verify]\n"
            "                     [--threads N] [--json FILE] [--quiet]\n"
            "\n"
            "Chooses which global loads the L1D caches for a built-in kernel: none (the\n"
            "baseline), lasc, pcs, loc, lasc+loc, memsched, memsched+loc or bypass_all (Choo's\n"
            "policies, docs/simulator.md; pcs bypasses the loads whose lines the baseline's\n"
            "window evicted mostly unused, unless the locality graph shows blocks on one SM\n"
            "sharing them). A window of the baseline's run measures its\n"
            "contention. memsched is always sampled (the order it serves the warps in moves\n"
            "kernels whose L1D refuses nothing); the other policies when the baseline's LDST\n"
            "unit is refused for L1 resources in at least 5%% of the SM cycles. Each sampled\n"
            "policy's window predicts its speed-up (cycles per warp instruction against the\n"
            "baseline's, at the slowest SM's pace) and the fastest\n"
            "is chosen, a later policy only when 2%% faster than the one before it\n"
            "(docs/cache.md).\n"
            "\n"
            "  --gpu FILE          GPU configuration (a file, folder, comma list or preset)\n"
            "  --window N          warp instructions per launch in a sample, each launch\n"
            "                      alone on a fresh GPU (default 40000); a launch of fewer\n"
            "                      than 2N runs to its end\n"
            "  --window-share F    size each launch's window as the share F (0 < F < 0.5) of\n"
            "                      its warp instructions (counted from its program), at\n"
            "                      least --window and at most --window-cap (default\n"
            "                      %d), and predict each launch's whole run from the\n"
            "                      window's second half (its start counted once); prints\n"
            "                      the samples' share of the run\n"
            "  --verify            also simulate each policy's whole run: its speed-up and\n"
            "                      how far the choice is behind the fastest\n"
            "  --threads N         the simulations run one after another, each split\n"
            "                      across N threads (1-64; default 1): the same bytes\n"
            CLI_JSON_HELP
            "  --quiet             no table on stdout\n",
            (int)m.window_cap);
}

typedef struct verified {
    int on;
    trapeze_cache_counts run[TRAPEZE_CACHE_POLICIES];
    int best;
} verified;

static double speedup(const trapeze_cache_counts *base, const trapeze_cache_counts *c)
{
    return c->cycles > 0 ? base->cycles / c->cycles : 0.0;
}

static trapeze_status verify(const char *gpu, const char *kernel, char **params, int n,
                             int threads, const trapeze_cache_decision *d, verified *v,
                             trapeze_error *err)
{
    v->on = 1;
    v->best = 0;
    for (int p = 0; p < TRAPEZE_CACHE_POLICIES; p++) {
        trapeze_status s = TRAPEZE_OK;
        if (p == TRAPEZE_CACHE_PCS && d->n_bypass_pcs == 0)
            v->run[p] = v->run[TRAPEZE_CACHE_NONE];   /* bypassing nothing is the baseline */
        else
            s = trapeze_cache_sample(gpu, kernel, params, n, (trapeze_cache_policy)p,
                                     d->bypass_pcs, d->n_bypass_pcs, 0, threads, &v->run[p],
                                     err);
        if (s)
            return s;
        if (v->run[p].cycles < v->run[v->best].cycles)
            v->best = p;
    }
    return TRAPEZE_OK;
}

/* The baseline's loads: each PC's counters and whether pcs bypasses it. */
static void print_pcs(const trapeze_cache_decision *d)
{
    const trapeze_cache_counts *b = &d->sample[TRAPEZE_CACHE_NONE];
    printf("pcs bypasses:");
    for (int i = 0; i < d->n_bypass_pcs; i++)
        printf("%s0x%x", i ? "," : " ", d->bypass_pcs[i]);
    printf("%s\n", d->n_bypass_pcs ? "" : " none");
    for (int i = 0; i < b->n_pcs; i++)
        printf("  load 0x%x: %.0f L1D accesses, %.0f misses, %.0f of %.0f evicted lines never "
               "re-read%s\n",
               b->pc[i], b->pc_accesses[i], b->pc_misses[i], b->pc_evicted_unused[i],
               b->pc_evictions[i], b->pc_shared[i] ? "; shared by blocks on one SM" : "");
}

/* The samples' cost: each candidate's share of the run's warp instructions. */
static double sample_share(const trapeze_cache_counts *c)
{
    return c->run_warp_insts > 0 ? c->warp_insts / c->run_warp_insts : 0.0;
}

static void print_text(const trapeze_cache_decision *d, const verified *v, const char *kernel,
                       const trapeze_cache_model *m)
{
    const trapeze_cache_counts *b = &d->sample[TRAPEZE_CACHE_NONE];
    double cls = b->miss_iw + b->miss_xw + b->miss_xb;
    printf("%s: baseline sample %.0f cycles, %.0f warp instructions; LDST refused for L1 "
           "resources %.1f%% of SM cycles; misses IW/XW/XB %.0f/%.0f/%.0f%%\n",
           kernel, b->cycles, b->warp_insts, 100.0 * d->resource_stall,
           cls > 0 ? 100.0 * b->miss_iw / cls : 0.0, cls > 0 ? 100.0 * b->miss_xw / cls : 0.0,
           cls > 0 ? 100.0 * b->miss_xb / cls : 0.0);
    if (m->window_share > 0)
        printf("windows %.0f%% of each launch (at least --window, at most %llu): the baseline's "
               "sample %.1f%% of the run's %.0f warp instructions\n",
               100.0 * m->window_share, m->window_cap, 100.0 * sample_share(b), b->run_warp_insts);
    if (!d->contended)
        printf("no contention to remove: of the other policies only memsched is sampled\n");
    print_pcs(d);
    printf("%-13s %14s %10s%s\n", "policy", "sample_cycles", "predicted",
           v->on ? "  simulated_cycles  speedup" : "");
    for (int p = 0; p < TRAPEZE_CACHE_POLICIES; p++) {
        const trapeze_cache_counts *c = &d->sample[p];
        printf("%-13s %14.0f %9.2fx", trapeze_cache_policy_name((trapeze_cache_policy)p),
               c->taken ? c->cycles : 0.0, d->predicted_speedup[p]);
        if (v->on)
            printf("  %16.0f %7.2fx", v->run[p].cycles,
                   speedup(&v->run[TRAPEZE_CACHE_NONE], &v->run[p]));
        printf("%s\n", (int)d->choice == p ? "  <- chosen" : "");
    }
    if (v->on)
        printf("verified: %s %.2fx, the fastest %s %.2fx: the choice %.1f%% behind\n",
               trapeze_cache_policy_name(d->choice),
               speedup(&v->run[TRAPEZE_CACHE_NONE], &v->run[d->choice]),
               trapeze_cache_policy_name((trapeze_cache_policy)v->best),
               speedup(&v->run[TRAPEZE_CACHE_NONE], &v->run[v->best]),
               100.0 * (v->run[d->choice].cycles / v->run[v->best].cycles - 1.0));
}

static void print_json(trapeze_json_out *j, const trapeze_cache_decision *d, const verified *v,
                       const char *gpu, const char *kernel, unsigned long long window,
                       const trapeze_cache_model *m)
{
    trapeze_json_text(j, "gpu", gpu);
    trapeze_json_text(j, "kernel", kernel);
    trapeze_json_integer(j, "window_warp_insts", (long long)window);
    if (m->window_share > 0) {   /* absent without --window-share: the output as before */
        trapeze_json_number(j, "window_share", m->window_share);
        trapeze_json_integer(j, "window_cap", (long long)m->window_cap);
        trapeze_json_number(j, "run_warp_insts", d->sample[TRAPEZE_CACHE_NONE].run_warp_insts);
    }
    trapeze_json_bool(j, "contended", d->contended);
    trapeze_json_number(j, "resource_stall", d->resource_stall);
    const trapeze_cache_counts *b = &d->sample[TRAPEZE_CACHE_NONE];
    trapeze_json_number(j, "miss_iw", b->miss_iw);
    trapeze_json_number(j, "miss_xw", b->miss_xw);
    trapeze_json_number(j, "miss_xb", b->miss_xb);
    char hex[16];
    trapeze_json_array(j, "bypass_pcs");
    for (int i = 0; i < d->n_bypass_pcs; i++) {
        snprintf(hex, sizeof hex, "0x%x", d->bypass_pcs[i]);
        trapeze_json_text(j, NULL, hex);
    }
    trapeze_json_end(j);
    trapeze_json_array(j, "loads");
    for (int i = 0; i < b->n_pcs; i++) {
        trapeze_json_object(j, NULL);
        snprintf(hex, sizeof hex, "0x%x", b->pc[i]);
        trapeze_json_text(j, "pc", hex);
        trapeze_json_number(j, "l1_accesses", b->pc_accesses[i]);
        trapeze_json_number(j, "l1_misses", b->pc_misses[i]);
        trapeze_json_number(j, "l1_evictions", b->pc_evictions[i]);
        trapeze_json_number(j, "l1_evicted_unused", b->pc_evicted_unused[i]);
        trapeze_json_bool(j, "shared_on_sm", b->pc_shared[i]);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_json_array(j, "policies");
    for (int p = 0; p < TRAPEZE_CACHE_POLICIES; p++) {
        const trapeze_cache_counts *c = &d->sample[p];
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "policy", trapeze_cache_policy_name((trapeze_cache_policy)p));
        if (c->taken) {
            trapeze_json_number(j, "sample_cycles", c->cycles);
            trapeze_json_number(j, "sample_slowest_cycles", c->slowest_cycles);
            trapeze_json_number(j, "sample_warp_insts", c->warp_insts);
            if (m->window_share > 0) {
                trapeze_json_number(j, "sample_share", sample_share(c));
                trapeze_json_number(j, "sample_mid_cycles", c->mid_cycles);
                trapeze_json_number(j, "sample_mid_warp_insts", c->mid_warp_insts);
                trapeze_json_number(j, "predicted_cycles", c->run_cycles);
            }
        } else {
            trapeze_json_text(j, "sample_cycles", NULL);
            trapeze_json_text(j, "sample_slowest_cycles", NULL);
            trapeze_json_text(j, "sample_warp_insts", NULL);
        }
        trapeze_json_number(j, "predicted_speedup", d->predicted_speedup[p]);
        if (v->on) {
            trapeze_json_number(j, "cycles", v->run[p].cycles);
            trapeze_json_number(j, "speedup", speedup(&v->run[TRAPEZE_CACHE_NONE], &v->run[p]));
        } else {
            trapeze_json_text(j, "cycles", NULL);
            trapeze_json_text(j, "speedup", NULL);
        }
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_json_text(j, "choice", trapeze_cache_policy_name(d->choice));
    trapeze_json_text(j, "fastest",
                      v->on ? trapeze_cache_policy_name((trapeze_cache_policy)v->best) : NULL);
    if (v->on)
        trapeze_json_number(j, "choice_behind",
                            v->run[d->choice].cycles / v->run[v->best].cycles - 1.0);
    else
        trapeze_json_text(j, "choice_behind", NULL);
}

int cli_cache(int argc, char **argv)
{
    const char *gpu = NULL, *window_text = NULL, *json_path = NULL, *share_text = NULL;
    const char *cap_text = NULL, *threads_text = NULL;
    int quiet = 0, do_verify = 0, rc = 2, n_ops = 0;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    if (!operands)
        return 2;
    const cli_field fields[] = {{"--gpu", &gpu, NULL},       {"--window", &window_text, NULL},
                                {"--verify", NULL, &do_verify}, {"--quiet", NULL, &quiet},
                                {"--json", &json_path, NULL}, {"--window-share", &share_text, NULL},
                                {"--window-cap", &cap_text, NULL},
                                {"--threads", &threads_text, NULL},   {NULL, NULL, NULL}};
    rc = cli_parse_options("cache", argc, argv, 1, fields, operands, argc, &n_ops, usage);
    if (rc >= 0)
        goto out;
    rc = 2;
    long window = 40000;
    if (window_text && (!trapeze_parse_long(window_text, &window) || window < 1)) {
        rc = cli_usage_error("cache", "--window %s: expected warp instructions >= 1",
                             window_text);
        goto out;
    }
    trapeze_cache_model m;
    trapeze_cache_model_init(&m);
    long cap = (long)m.window_cap;
    if (share_text && (!trapeze_parse_double(share_text, &m.window_share) ||
                       !(m.window_share > 0) || !(m.window_share < 0.5))) {
        /* at half or more every launch would leave less than one more
         * window and run to its end (trapeze_cache_launch_window) */
        rc = cli_usage_error("cache", "--window-share %s: expected a share above 0 and below 0.5",
                             share_text);
        goto out;
    }
    if (cap_text && (!share_text || !trapeze_parse_long(cap_text, &cap) || cap < window)) {
        rc = cli_usage_error("cache", share_text ? "--window-cap %s: expected warp instructions "
                                                   "at least --window's"
                                                 : "--window-cap %s: only with --window-share",
                             cap_text);
        goto out;
    }
    m.window_cap = (unsigned long long)cap;
    if (!share_text)
        m.window_share = 0;
    long threads;
    if (cli_threads_value("cache", threads_text, &threads))
        goto out;   /* rc is 2 */
    if (n_ops < 1 || !gpu) {
        rc = cli_usage_error("cache", "%s", !gpu ? "--gpu FILE is required" : "no KERNEL given");
        goto out;
    }
    char gpu_file[4096];
    if (cli_resolve_preset("cache", "--gpu", "gpus", ".config", gpu, gpu_file, sizeof gpu_file))
        goto out;
    const char *kernel = operands[0];
    char **params = (char **)operands + 1;
    int n_params = n_ops - 1;
    trapeze_error err = {0};
    cli_json json = {0};
    trapeze_cache_decision d;
    verified v = {0};
    rc = 1;
    if (trapeze_sim_builtin_check(kernel, n_params, params, &err) ||
        cli_json_open(&json, "cache", json_path, &err) ||
        trapeze_cache_choose(&m, gpu_file, kernel, params, n_params, (unsigned long long)window,
                             (int)threads, &d, &err) ||
        (do_verify && verify(gpu_file, kernel, params, n_params, (int)threads, &d, &v, &err))) {
        cli_json_abort(&json);
        fprintf(stderr, "trapeze cache: %s\n", err.message);
        goto out;
    }
    if (!quiet)
        print_text(&d, &v, kernel, &m);
    print_json(json.j, &d, &v, gpu, kernel, (unsigned long long)window, &m);
    rc = 0;
    if (cli_json_commit(&json, &err)) {
        fprintf(stderr, "trapeze cache: %s\n", err.message);
        rc = 1;
    }
    cli_json_abort(&json);
out:
    free(operands);
    return rc;
}

/* `CMD --model cache --help`: what the model does under CMD. */
static int calib_help(const char *cmd)
{
    if (strcmp(cmd, "validate")) {
        printf("usage: trapeze calibrate --model cache\n\n"
               "The cache decision has nothing to calibrate: its constants (the window, the\n"
               "5%% screen, the 2%% margin) are fixed (docs/cache.md). See trapeze cache and\n"
               "trapeze validate --model cache.\n");
        return 0;
    }
    printf("usage: trapeze validate --model cache --gpu FILE KERNEL [name=value ...]\n"
           "                        [--window N] [--threads N] [--json FILE] [--quiet]\n\n"
           "trapeze cache --verify: the decision, then every policy's whole run.\n\n");
    usage(stdout);
    return 0;
}

int cli_calib_model_cache(int argc, char **argv, const char *cmd)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return calib_help(cmd);
    if (strcmp(cmd, "validate"))
        return cli_usage_error(cmd, "--model cache: nothing to calibrate (its constants are "
                                    "fixed); validate --model cache verifies its choice");
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return 2;
    memcpy(args, argv, (size_t)argc * sizeof *args);
    args[argc] = "--verify";
    int rc = cli_cache(argc + 1, args);
    free(args);
    return rc;
}
