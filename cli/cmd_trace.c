/*
 * cmd_trace.c - `trapeze trace`: export a built-in kernel as an Accel-Sim
 * trace, check a trace (every line read, a summary per kernel), print the
 * SASS opcode table. Argument handling only; the work is sim/trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"


static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze trace export --gpu FILE KERNEL [name=value ...] --out DIR\n"
            "       trapeze trace export --gpu FILE --workload SPEC [--h N] [--iterations N]\n"
            "                            [--size AxB] --out DIR\n"
            "       trapeze trace check DIR[/kernelslist.g] [--json FILE]\n"
            "       trapeze trace opcodes [--json FILE]\n"
            "\n"
            "Accel-Sim SASS traces (kernelslist.g + kernel-N.traceg).\n"
            "\n"
            "  export   write a built-in kernel (trapeze sim --list) as a trace in DIR, one\n"
            "           kernel-N.traceg per launch; run it with\n"
            "           trapeze sim --gpu FILE --trace DIR, or in Accel-Sim;\n"
            "           with --workload, a ghost-zone stencil (a preset: pathfinder,\n"
            "           hotspot, poisson, cell, or an INI file) in relaunch mode, one\n"
            "           kernel per stage, sized for the GPU as trapeze sim --workload does\n"
            "           (--h: trapezoid height, --iterations: stencil loops, --size: grid)\n"
            "  check    read every line of a trace; print each kernel's grid, block and\n"
            "           warp instructions, or the first error (file:line: expected ...)\n"
            "  opcodes  print the table mapping SASS opcodes to simulator classes and\n"
            "           to Accel-Sim's specialized units (used when a config enables them)\n"
            "  --json FILE  (export, check) what was written or read as one JSON document\n"
            "           (docs/json.md); - for stdout (the text then on stderr)\n");
}

static int fail(const char *msg)
{
    fprintf(stderr, "trapeze trace: %s\n", msg);
    return 1;
}

/* Kernels written of all: each kernel file of an export weighs alike (a
 * stencil's stages are the same kernel). */
static void written(void *ctx, int done, int total)
{
    cli_progress_update(ctx, done, total, "kernels written", "");
}

static int export_kernel(const char *gpu_path, const char *name, int n_params, char **params,
                         const char *dir, trapeze_json_out *j)
{
    trapeze_error err = {0};
    if (trapeze_sim_builtin_check(name, n_params, params, &err)) {
        fprintf(stderr, "trapeze trace: %s\n", err.message);
        return 2;
    }
    trapeze_config *cfg = NULL;
    int nk = 0, rc = 0;
    cli_progress bar = {.prefix = "trace export"};
    if (trapeze_config_load(gpu_path, &cfg, &err) ||
        trapeze_trace_export_builtin(cfg, name, n_params, params, dir, &nk, written, &bar,
                                     &err)) {
        cli_progress_end(&bar, 0);
        rc = fail(err.message);
    } else {
        printf("wrote %s/kernelslist.g and %d kernel trace%s\n", dir, nk, nk == 1 ? "" : "s");
        trapeze_json_integer(j, "kernels", nk);
    }
    trapeze_config_destroy(cfg);
    return rc;
}

/* The ghost-zone stencil of a workload spec, relaunch mode (the fence
 * mode's global barrier spins on loaded values: no fixed trace). */
static int export_workload(const char *gpu_path, const char *name, long h, long iterations,
                           const char *size, const char *dir, trapeze_json_out *j)
{
    char path[4096];
    trapeze_workload w;
    trapeze_error err = {0};
    if (cli_resolve_preset("trace", "--workload", "workloads", ".ini", name, path,
                           sizeof path))
        return 2;
    if (trapeze_workload_load(path, &w, &err))
        return fail(err.message);
    if (size && cli_apply_size("trace", size, &w))
        return 2;
    trapeze_config *cfg = NULL;
    int hh = h ? (int)h : w.height ? w.height : 1, rc = 0;
    trapeze_sim_stencil_result r;
    cli_progress bar = {.prefix = "trace export"};
    if (trapeze_config_load(gpu_path, &cfg, &err) ||
        trapeze_trace_export_stencil(cfg, &w, hh, (int)iterations, dir, &r, written, &bar,
                                     &err)) {
        cli_progress_end(&bar, 0);
        rc = fail(err.message);
    } else {
        printf("wrote %s/kernelslist.g and %d kernel trace%s (%s, h = %d, %d stages of %ld "
               "tiles)\n", dir, r.stages, r.stages == 1 ? "" : "s", w.name, hh, r.stages,
               r.tiles);
        trapeze_json_integer(j, "kernels", r.stages);
        trapeze_json_text(j, "workload", w.name);
        trapeze_json_integer(j, "h", hh);
        trapeze_json_integer(j, "stages", r.stages);
        trapeze_json_integer(j, "tiles", r.tiles);
    }
    trapeze_config_destroy(cfg);
    return rc;
}

/* A whole number from 1 to 10^9 for option opt: 0; else the message and 2. */
static int whole(const char *opt, const char *v, long *out)
{
    if (!v || (trapeze_parse_long(v, out) && *out >= 1 && *out <= 1000000000L))
        return 0;
    fprintf(stderr, "trapeze trace export: %s %s: expected a whole number from 1 to 1000000000\n",
            opt, v);
    return 2;
}

static int cmd_export(int argc, char **argv)
{
    const char *gpu = NULL, *out = NULL, *kernel = NULL, *workload = NULL, *size = NULL,
               *json_path = NULL, *h_text = NULL, *iterations_text = NULL;
    long h = 0, iterations = 0;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    char **params = calloc((size_t)argc + 1, sizeof *params);
    int n_params = 0, n_ops = 0, rc = 2;
    if (!params || !operands) {
        free(params);
        free(operands);
        return fail("out of memory");
    }
    const cli_field fields[] = {{"--gpu", &gpu, NULL}, {"--out", &out, NULL},
                                {"--workload", &workload, NULL}, {"--h", &h_text, NULL},
                                {"--iterations", &iterations_text, NULL}, {"--size", &size, NULL},
                                {"--json", &json_path, NULL}, {NULL, NULL, NULL}};
    rc = cli_parse_options("trace export", argc, argv, 1, fields, operands, argc, &n_ops, usage);
    if (rc >= 0)
        goto out;
    if ((rc = whole("--h", h_text, &h)) || (rc = whole("--iterations", iterations_text, &iterations)))
        goto out;
    rc = 2;
    if (n_ops > 0)
        kernel = operands[0];
    for (int i = 1; i < n_ops; i++)
        params[n_params++] = (char *)operands[i];
    if (!gpu || !out || (!kernel && !workload) || (kernel && workload) ||
        (!workload && (h || iterations || size))) {
        rc = cli_usage_error("trace", "%s", !gpu ? "--gpu FILE is required"
                                            : !out ? "--out DIR is required"
                                            : kernel && workload ? "give a KERNEL or --workload, not both"
                                            : workload || kernel ? "--h, --iterations and --size go with --workload"
                                                                 : "no KERNEL or --workload given");
        goto out;
    }
    char gpu_file[4096];
    if (cli_resolve_preset("trace", "--gpu", "gpus", ".config", gpu, gpu_file, sizeof gpu_file))
        goto out;
    gpu = gpu_file;
    trapeze_error err = {0};
    cli_json json = {0};
    if (cli_json_open(&json, "trace", json_path, &err)) {
        rc = fail(err.message);
        goto out;
    }
    trapeze_json_text(json.j, "action", "export");
    trapeze_json_text(json.j, "out", out);
    rc = workload ? export_workload(gpu, workload, h, iterations, size, out, json.j)
                  : export_kernel(gpu, kernel, n_params, params, out, json.j);
    if (!rc && cli_json_commit(&json, &err))
        rc = fail(err.message);
    cli_json_abort(&json);
out:
    free(operands);
    free(params);
    return rc;
}

/* What trace check's callback writes to: the --json document and the bar. */
typedef struct {
    trapeze_json_out *j;
    cli_progress *bar;
} check_ctx;

/* Each kernel's line on stdout (and object in the document), then the bytes
 * read so far on stderr. */
static void print_kernel(void *ctx, const trapeze_trace_kernel_info *k)
{
    const check_ctx *c = ctx;
    trapeze_json_out *j = c->j;
    cli_progress *bar = c->bar;
    cli_progress_end(bar, 1);
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "path", k->path);
    trapeze_json_text(j, "name", k->name);
    trapeze_json_array(j, "grid");
    for (int d = 0; d < 3; d++)
        trapeze_json_integer(j, NULL, k->grid[d]);
    trapeze_json_end(j);
    trapeze_json_array(j, "block");
    for (int d = 0; d < 3; d++)
        trapeze_json_integer(j, NULL, k->block[d]);
    trapeze_json_end(j);
    trapeze_json_integer(j, "warp_instructions", (long long)k->warp_instructions);
    trapeze_json_integer(j, "unknown_opcodes", (long long)k->unknown_opcodes);
    trapeze_json_end(j);
    printf("%s: %s, grid (%d,%d,%d), block (%d,%d,%d), %llu warp instructions, "
           "%llu with opcodes not in the table\n", k->path, k->name, k->grid[0], k->grid[1],
           k->grid[2], k->block[0], k->block[1], k->block[2], k->warp_instructions,
           k->unknown_opcodes);
    fflush(stdout);
    char text[64];
    snprintf(text, sizeof text, "%.1f/%.1f MB", k->bytes_done / 1e6, k->bytes_total / 1e6);
    cli_progress_work(bar, text, (double)k->bytes_done, (double)k->bytes_total, k->name);
}

static int cmd_check(const char *list_path, const char *json_path)
{
    trapeze_error err = {0};
    cli_json json = {0};
    if (cli_json_open(&json, "trace", json_path, &err))
        return fail(err.message);
    trapeze_json_text(json.j, "action", "check");
    trapeze_json_array(json.j, "kernels");
    cli_progress bar = {.prefix = "trace check"};
    check_ctx c = {json.j, &bar};
    trapeze_status s = trapeze_trace_check(list_path, print_kernel, &c, &err);
    cli_progress_end(&bar, !s);
    int rc = s ? fail(err.message) : 0;
    trapeze_json_end(json.j);
    if (!rc && cli_json_commit(&json, &err))
        rc = fail(err.message);
    cli_json_abort(&json);
    return rc;
}

/* The opcode table on stdout and, with --json, as the document's "opcodes". */
static int print_opcodes(const char *json_path)
{
    trapeze_error err = {0};
    cli_json json = {0};
    if (cli_json_open(&json, "trace", json_path, &err))
        return fail(err.message);
    trapeze_json_text(json.j, "action", "opcodes");
    trapeze_json_array(json.j, "opcodes");
    trapeze_trace_opcode_info o;
    printf("%-14s %-10s %-5s %-4s %s\n", "opcode", "class", "alu", "unit", "note");
    for (int i = 0; trapeze_trace_opcode(i, &o); i++) {
        char name[32], unit[8] = "-";
        snprintf(name, sizeof name, "%s%s%s", o.mnemonic, o.modifier ? "." : "",
                 o.modifier ? o.modifier : "");
        int u = o.unit ? o.unit : !strcmp(o.op_class, "branch") ? 1 : 0;
        if (u)
            snprintf(unit, sizeof unit, "%d", u);
        printf("%-14s %-10s %-5s %-4s %s%s\n", name, o.op_class, o.alu, unit,
               o.exported ? "[exported] " : "", o.note);
        trapeze_json_object(json.j, NULL);
        trapeze_json_text(json.j, "opcode", name);
        trapeze_json_text(json.j, "class", o.op_class);
        trapeze_json_text(json.j, "alu", o.alu);
        trapeze_json_number(json.j, "unit", u ? u : NAN);
        trapeze_json_bool(json.j, "exported", o.exported);
        trapeze_json_text(json.j, "note", o.note);
        trapeze_json_end(json.j);
    }
    printf("%-14s %-10s %-5s %-4s %s\n", "(other)", "INT", "ADD", "-",
           "not in the table: runs as an integer op, counted by trapeze trace check");
    trapeze_json_end(json.j);
    int rc = cli_json_commit(&json, &err) ? fail(err.message) : 0;
    cli_json_abort(&json);
    return rc;
}

/* check DIR [--json FILE] (check) or opcodes [--json FILE], their options
 * from one table as every command's. */
static int cmd_read(int argc, char **argv, int check)
{
    const char *cmd = check ? "trace check" : "trace opcodes", *json_path = NULL, *dir[1];
    const cli_field fields[] = {{"--json", &json_path, NULL}, {NULL, NULL, NULL}};
    int n_ops = 0;
    int rc = cli_parse_options(cmd, argc, argv, 1, fields, dir, check, &n_ops, usage);
    if (rc >= 0)
        return rc;
    if (check && !n_ops)
        return cli_usage_error(cmd, "no trace DIR[/kernelslist.g] given");
    return check ? cmd_check(dir[0], json_path) : print_opcodes(json_path);
}

int cli_trace(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "export"))
        return cmd_export(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check") || !strcmp(argv[1], "opcodes"))
        return cmd_read(argc - 1, argv + 1, !strcmp(argv[1], "check"));
    fprintf(stderr, "trapeze trace: expected export, check FILE or opcodes (see --help)\n");
    return 2;
}
