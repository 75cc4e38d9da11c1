/*
 * cmd_simd.c - `trapeze simd`: the width-and-depth model's decision for one
 * kernel launch (the predicted cycles of each W x D organization on the
 * grid, its pick, what its two samples cost) and, with --verify, every
 * organization simulated. Argument handling and printing only: the samples
 * and the model are the library's (trapeze_simd_*).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

#define DEFAULT_WINDOW 4000L

static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze simd --gpu GPU [--verify] [--window N] KERNEL [name=value ...]\n"
            "       trapeze simd --gpu GPU [--verify] [--window N] --trace DIR[/kernelslist.g]\n"
            "\n"
            "Robust SIMD's choice of an SM's organization, W lanes per warp-slice x D\n"
            "active slices, made by the width-and-depth model from two short samples at\n"
            "full width (all warps per SM, then a quarter of them): the predicted cycles\n"
            "of each organization on the grid (W 32, 16, 8, 4; W x D = T/4, T/2, T\n"
            "threads per SM, T the SM's warp slots x 32) and the one it picks.\n"
            "\n"
            "  --gpu GPU           GPU configuration (a preset name, a file or a list)\n"
            "  --trace LIST        the first kernel of an Accel-Sim trace instead of KERNEL\n"
            "  --window N          warp instructions of each sample (default 4000)\n"
            "  --verify            simulate every organization; print the best and the\n"
            "                      pick's ratio to it (best cycles / pick's cycles)\n" CLI_JSON_HELP);
}

/* The samples, the table and the pick on stdout and into j; sim: each
 * organization's simulated cycles (NULL: not verified). */
static void report(const char *what, const trapeze_simd_decision *d,
                   const trapeze_simd_run *full, const uint64_t *sim, trapeze_json_out *j)
{
    double n_sm = d->n_sm, insts = (double)(d->a.warp_insts + d->b.warp_insts) * n_sm;
    double share = full->warp_insts ? 100.0 * insts / (double)full->warp_insts : 0;
    double per_sm = (double)full->thread_insts / n_sm;
    printf("%s: %d SMs, %d warps per SM, %d schedulers\n", what, d->n_sm, d->max_warps,
           d->n_sched);
    printf("samples: %d and %d warps per SM at width 32, %ld warp instructions each: "
           "%.0f warp instructions, %.2f%% of one run's %llu\n", d->a.depth, d->b.depth,
           d->window, insts, share, (unsigned long long)full->warp_insts);
    printf("%7s %10s %16s%s\n", "W x D", "threads", "predicted cycles",
           sim ? "   simulated cycles" : "");
    trapeze_json_text(j, "kernel", what);
    trapeze_json_integer(j, "sms", d->n_sm);
    trapeze_json_integer(j, "warps_per_sm", d->max_warps);
    trapeze_json_integer(j, "schedulers", d->n_sched);
    trapeze_json_integer(j, "window_warp_insts", d->window);
    trapeze_json_number(j, "samples_warp_insts", insts);
    trapeze_json_integer(j, "run_warp_insts", (long long)full->warp_insts);
    trapeze_json_number(j, "samples_share_pct", share);
    trapeze_json_array(j, "organizations");
    for (int i = 0; i < TRAPEZE_SIMD_ORGS; i++) {
        double pred = d->per_thread_inst[i] * per_sm;
        char org[32];
        snprintf(org, sizeof org, "%dx%d", d->width[i], d->depth[i]);
        printf("%7s %10d %16.0f", org, d->width[i] * d->depth[i], pred);
        if (sim)
            printf("   %16llu", (unsigned long long)sim[i]);
        printf("%s\n", i == d->pick ? "   <- pick" : "");
        trapeze_json_object(j, NULL);
        trapeze_json_integer(j, "width", d->width[i]);
        trapeze_json_integer(j, "depth", d->depth[i]);
        trapeze_json_number(j, "pred_cycles", pred);
        if (sim)
            trapeze_json_integer(j, "sim_cycles", (long long)sim[i]);
        else
            trapeze_json_text(j, "sim_cycles", NULL);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    printf("pick: %dx%d\n", d->width[d->pick], d->depth[d->pick]);
    trapeze_json_object(j, "pick");
    trapeze_json_integer(j, "width", d->width[d->pick]);
    trapeze_json_integer(j, "depth", d->depth[d->pick]);
    trapeze_json_end(j);
}

/* --verify: the fastest simulated organization and the pick's ratio to it. */
static void report_verify(const trapeze_simd_decision *d, const uint64_t *sim,
                          trapeze_json_out *j)
{
    int best = 0;
    for (int i = 1; i < TRAPEZE_SIMD_ORGS; i++)
        best = sim[i] < sim[best] ? i : best;
    double ratio = (double)sim[best] / (double)sim[d->pick];
    printf("verified: best %dx%d, %llu cycles; the pick reaches %.4f of it (best / pick)\n",
           d->width[best], d->depth[best], (unsigned long long)sim[best], ratio);
    trapeze_json_object(j, "verify");
    trapeze_json_integer(j, "best_width", d->width[best]);
    trapeze_json_integer(j, "best_depth", d->depth[best]);
    trapeze_json_integer(j, "best_cycles", (long long)sim[best]);
    trapeze_json_number(j, "pick_ratio", ratio);
    trapeze_json_end(j);
}

/* Every organization of d simulated whole, with progress on stderr. */
static trapeze_status verify(const trapeze_simd_kernel *k, const trapeze_simd_decision *d,
                             uint64_t *sim, trapeze_error *err)
{
    cli_progress bar = {.prefix = "simd --verify"};
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; !s && i < TRAPEZE_SIMD_ORGS; i++) {
        char detail[64];
        snprintf(detail, sizeof detail, "simulating %dx%d", d->width[i], d->depth[i]);
        cli_progress_update(&bar, i, TRAPEZE_SIMD_ORGS, "simulations", detail);
        trapeze_simd_run r;
        if (!(s = trapeze_simd_simulate(k, d->width[i], d->depth[i], 0, &r, err)))
            sim[i] = r.cycles;
    }
    if (!s)
        cli_progress_update(&bar, TRAPEZE_SIMD_ORGS, TRAPEZE_SIMD_ORGS, "simulations", "done");
    cli_progress_end(&bar, !s);
    return s;
}

static int run(const char *gpu, const char *trace, const char *kernel, char **params,
               int n_params, long window, int do_verify, const char *json_path)
{
    trapeze_error err = {0};
    cli_json json = {0};
    trapeze_simd_kernel *k = NULL;
    trapeze_simd_decision d;
    trapeze_simd_run full;
    uint64_t sim[TRAPEZE_SIMD_ORGS];
    trapeze_status s = cli_json_open(&json, "simd", json_path, &err);
    if (!s)
        s = trace ? trapeze_simd_kernel_trace(gpu, trace, &k, &err)
                  : trapeze_simd_kernel_builtin(gpu, kernel, params, n_params, &k, &err);
    if (!s)
        s = trapeze_simd_decide(k, window, &d, &err);
    if (!s)   /* one whole run at full width: what the samples cost against */
        s = trapeze_simd_simulate(k, 32, 0, 0, &full, &err);
    if (!s && do_verify)
        s = verify(k, &d, sim, &err);
    if (!s) {
        report(trace ? trace : kernel, &d, &full, do_verify ? sim : NULL, json.j);
        if (do_verify)
            report_verify(&d, sim, json.j);
        else
            trapeze_json_text(json.j, "verify", NULL);
        s = cli_json_commit(&json, &err);
    }
    cli_json_abort(&json);
    trapeze_simd_kernel_destroy(k);
    if (s)
        fprintf(stderr, "trapeze simd: %s\n", err.message);
    return s ? 1 : 0;
}

int cli_simd(int argc, char **argv)
{
    const char *gpu = NULL, *trace = NULL, *window_text = NULL, *json_path = NULL;
    int do_verify = 0, n_ops = 0, rc;
    long window = DEFAULT_WINDOW;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    if (!operands)
        return 2;
    const cli_field fields[] = {
        {"--gpu", &gpu, NULL}, {"--trace", &trace, NULL}, {"--window", &window_text, NULL},
        {"--verify", NULL, &do_verify}, {"--json", &json_path, NULL}, {NULL, NULL, NULL}};
    rc = cli_parse_options("simd", argc, argv, 1, fields, operands, argc, &n_ops, usage);
    if (rc >= 0)
        goto out;
    char gpu_file[4096];
    if (window_text && (!trapeze_parse_long(window_text, &window) || window < 1))
        rc = cli_usage_error("simd", "--window %s: expected a whole number of warp "
                                     "instructions >= 1", window_text);
    else if (!gpu)
        rc = cli_usage_error("simd", "--gpu GPU is required");
    else if (!n_ops == !trace)
        rc = cli_usage_error("simd", "%s", trace ? "give a KERNEL or --trace, not both"
                                                 : "no KERNEL given");
    else if (cli_resolve_preset("simd", "--gpu", "gpus", ".config", gpu, gpu_file,
                                sizeof gpu_file))
        rc = 2;
    else
        rc = run(gpu_file, trace, trace ? NULL : operands[0], (char **)operands + 1,
                 trace ? 0 : n_ops - 1, window, do_verify, json_path);
out:
    free(operands);
    return rc;
}
