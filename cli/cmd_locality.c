/*
 * cmd_locality.c - `trapeze locality`: the thread-block locality graph of a
 * built-in kernel's launch or a trace's kernel: a summary on stdout, the
 * edge list and footprints as CSV. Argument handling only; the analysis is
 * sim/locality.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze locality --gpu FILE KERNEL [name=value ...] [--launch N]\n"
            "                        [--locality-csv FILE] [--footprint-csv FILE] [--quiet]\n"
            "       trapeze locality --trace DIR[/kernelslist.g] [--launch N] ...\n"
            "\n"
            "Builds the locality graph of one kernel launch: which thread blocks (TBs)\n"
            "read the same global elements and cache lines (PAVER's graph; SpScore is\n"
            "1 - nonzero off-diagonal entries / TBs^2). Built-in kernels are analysed\n"
            "exactly (every address of every load); traces from their load addresses.\n"
            "\n"
            "  --gpu FILE             GPU configuration (for the built-in kernel's shape)\n"
            "  --trace LIST           a kernel of an Accel-Sim trace instead of KERNEL\n"
            "  --launch N             which launch (0 first; default 0)\n"
            "  --locality-csv FILE    edge list: tb_i,tb_j,shared_elements,shared_lines\n"
            "  --footprint-csv FILE   per TB: tb,bx,by,bz,elements,lines\n"
            "  --json FILE            the summary as one JSON document (docs/json.md); -\n"
            "                         for stdout (the text then on stderr)\n"
            "  --quiet                no summary on stdout; then one CSV may be - (stdout)\n");
}

static void summary(const trapeze_locality_graph *g, int quiet, trapeze_json_out *j)
{
    long long el = 0, ln = 0, max_el = 0, sum_shared = 0;
    for (long t = 0; t < g->n_tbs; t++) {
        el += g->elements[t];
        ln += g->lines[t];
    }
    long with_el = 0;
    for (long e = 0; e < g->n_edges; e++) {
        with_el += g->edges[e].shared_elements > 0;
        sum_shared += g->edges[e].shared_elements;
        if (g->edges[e].shared_elements > max_el)
            max_el = g->edges[e].shared_elements;
    }
    double n = (double)g->n_tbs;
    trapeze_json_text(j, "kernel", g->kernel);
    trapeze_json_integer(j, "tbs", g->n_tbs);
    trapeze_json_array(j, "grid");
    for (int d = 0; d < 3; d++)
        trapeze_json_integer(j, NULL, g->grid[d]);
    trapeze_json_end(j);
    trapeze_json_number(j, "elements_per_tb", (double)el / n);
    trapeze_json_number(j, "lines_per_tb", (double)ln / n);
    trapeze_json_integer(j, "line_bytes", g->line_bytes);
    trapeze_json_integer(j, "edges", g->n_edges);
    trapeze_json_integer(j, "edges_sharing_elements", with_el);
    trapeze_json_integer(j, "largest_shared_elements", max_el);
    trapeze_json_number(j, "mean_shared_elements", with_el ? (double)sum_shared / (double)with_el
                                                           : 0.0);
    trapeze_json_number(j, "spscore", trapeze_locality_spscore(g));
    if (quiet)
        return;
    printf("kernel %s: %ld TBs (grid %d x %d x %d)\n", g->kernel, g->n_tbs, g->grid[0],
           g->grid[1], g->grid[2]);
    printf("footprint per TB: %.1f elements, %.1f lines of %d B (mean)\n", (double)el / n,
           (double)ln / n, g->line_bytes);
    printf("edges: %ld sharing lines, %ld sharing elements (largest %lld, mean %.1f)\n",
           g->n_edges, with_el, max_el, with_el ? (double)sum_shared / (double)with_el : 0.0);
    printf("SpScore: %.5f\n", trapeze_locality_spscore(g));
}

int cli_locality(int argc, char **argv)
{
    const char *gpu = NULL, *trace = NULL, *kernel = NULL, *edges = NULL, *fp = NULL,
               *json_path = NULL;
    long launch = 0;
    int quiet = 0, n_params = 0, rc = 2;
    const char *launch_text = NULL;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    char **params = calloc((size_t)argc + 1, sizeof *params);
    if (!params || !operands) {
        free(params);
        free(operands);
        return 2;
    }
    const cli_field fields[] = {
        {"--gpu", &gpu, NULL}, {"--trace", &trace, NULL}, {"--launch", &launch_text, NULL},
        {"--locality-csv", &edges, NULL}, {"--footprint-csv", &fp, NULL},
        {"--quiet", NULL, &quiet}, {"--json", &json_path, NULL}, {NULL, NULL, NULL}};
    int n_ops = 0;
    rc = cli_parse_options("locality", argc, argv, 1, fields, operands, argc, &n_ops, usage);
    if (rc >= 0)
        goto out;
    rc = 2;
    if (launch_text &&
        (!trapeze_parse_long(launch_text, &launch) || launch < 0 || launch > 1000000)) {
        rc = cli_usage_error("locality", "--launch %s: expected a launch index >= 0", launch_text);
        goto out;
    }
    if (n_ops > 0)
        kernel = operands[0];
    for (int i = 1; i < n_ops; i++)
        params[n_params++] = (char *)operands[i];
    if (!kernel == !trace || (kernel && !gpu)) {
        rc = cli_usage_error("locality", "%s", trace ? "give a KERNEL or --trace, not both"
                                               : !kernel ? "no KERNEL given"
                                                         : "--gpu FILE is required");
        goto out;
    }
    char gpu_file[4096];
    if (gpu && cli_resolve_preset("locality", "--gpu", "gpus", ".config", gpu, gpu_file,
                                  sizeof gpu_file)) {
        rc = 2;
        goto out;
    }
    if (gpu)
        gpu = gpu_file;
    trapeze_error err = {0};
    trapeze_locality_graph g;
    trapeze_config *cfg = NULL;
    const cli_output outputs[] = {{"--locality-csv", edges}, {"--footprint-csv", fp}};
    cli_json json = {0};
    if (cli_check_outputs(outputs, 2, quiet ? CLI_STDOUT_FREE : CLI_STDOUT_QUIETABLE, json_path,
                          &err) ||
        cli_json_open(&json, "locality", json_path, &err)) {
        fprintf(stderr, "trapeze locality: %s\n", err.message);
        rc = 1;
        goto out;
    }
    trapeze_status s = trace ? trapeze_locality_trace(trace, (int)launch, &g, &err)
                             : trapeze_config_load(gpu, &cfg, &err);
    if (!s && !trace)
        s = trapeze_locality_builtin(cfg, kernel, params, n_params, (int)launch, &g, &err);
    trapeze_config_destroy(cfg);
    if (s) {
        cli_json_abort(&json);
        fprintf(stderr, "trapeze locality: %s\n", err.message);
        rc = 1;
        goto out;
    }
    summary(&g, quiet, json.j);
    rc = 0;
    if (((edges || fp) && trapeze_locality_write_csv(&g, edges, fp, &err)) ||
        cli_json_commit(&json, &err)) {
        fprintf(stderr, "trapeze locality: %s\n", err.message);
        rc = 1;
    }
    cli_json_abort(&json);
    trapeze_locality_graph_free(&g);
out:
    free(operands);
    free(params);
    return rc;
}
