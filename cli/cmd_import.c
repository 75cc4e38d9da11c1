/*
 * cmd_import.c - `trapeze import ncu FILE.csv`: hardware measurements into
 * the samples log. Parses arguments, loads the GPU config and workload the
 * row names, calls trapeze_ncu_import and appends its row; the format is
 * the library's (sampler/ghostzone/ncu_import.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/text.h"

typedef struct {
    const char *file, *gpu, *workload, *samples, *size, *kernel, *json;
    long h, block, stages, skip;
    double gap;
    int sync_set;
    trapeze_sync sync;
} import_args;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze import ncu FILE.csv --gpu FILE|NAME --workload FILE|NAME\n"
            "                          --sync relaunch|fence --h N --samples LOG\n"
            "                          [--size AxB] [--block N] [--stages N] [--kernel NAME]\n"
            "                          [--skip N] [--relaunch-gap CYCLES]\n"
            "\n"
            "Turns an Nsight Compute CSV export of a ghost-zone stencil run on a real GPU\n"
            "(ncu --csv --page raw --log-file FILE.csv --metrics gpc__cycles_elapsed.max,\n"
            " smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum ./stencil;\n"
            " the details page and a redirected stdout are read too) into one\n"
            "kind=measured row of a samples log, which `trapeze calibrate --samples LOG`\n"
            "then fits with the simulated rows. Each value is scaled by its unit\n"
            "(18.02 Mbyte = 18,020,000 bytes).\n"
            "\n"
            "  --gpu FILE|NAME        the GPU config the row is for (its name goes in the row)\n"
            "  --workload FILE|NAME   the stencil's workload spec (name, block, grid)\n"
            "  --sync MODE            how the run synchronized: relaunch (a launch per stage)\n"
            "                         or fence (one persistent launch)\n"
            "  --h N                  trapezoid height of the run\n"
            "  --samples LOG          samples log to append to (created if absent)\n"
            "  --size AxB             grid of the run (default: the workload's)\n"
            "  --block N              block edge (default: the workload's)\n"
            "  --stages N             fence mode: stages the persistent launch ran (required)\n"
            "  --kernel NAME          keep launches whose name contains NAME (default: all)\n"
            "  --skip N               drop the first N kept launches (warm-up; default 0)\n"
            "  --relaunch-gap CYCLES  add per launch in relaunch mode: Nsight Compute times\n"
            "                         launches alone, without the gaps between them\n"
            "  --json FILE            what was imported as one JSON document (docs/json.md);\n"
            "                         - for stdout (the text then on stderr)\n");
}

static int whole(const char *opt, const char *v, long lo, long *out)
{
    if (v && trapeze_parse_long(v, out) && *out >= lo && *out <= 1000000000L)
        return 0;
    return cli_usage_error("import", "%s: expected a whole number from %ld to 1000000000, got "
                           "'%s'", opt, lo, v ? v : "");
}

/* 0: parsed; -1: help printed; else the usage-error status. */
static int parse(int argc, char **argv, import_args *a)
{
    memset(a, 0, sizeof *a);
    if (argc < 2 || strcmp(argv[1], "ncu") != 0) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            usage(stdout);
            return -1;
        }
        return cli_usage_error("import", "expected a source: ncu");
    }
    static const cli_opt options[] = {
        {"--gpu", 1, 0}, {"--workload", 1, 0}, {"--samples", 1, 0}, {"--size", 1, 0},
        {"--kernel", 1, 0}, {"--h", 1, 0}, {"--block", 1, 0}, {"--stages", 1, 0},
        {"--skip", 1, 0}, {"--sync", 1, 0}, {"--relaunch-gap", 1, 0}, {"--json", 1, 0},
        {NULL, 0, 0}};
    int rc = cli_check_options("import", argc, argv, 2, options);
    if (rc)
        return rc;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **str = !strcmp(o, "--gpu")            ? &a->gpu
                           : !strcmp(o, "--workload")     ? &a->workload
                           : !strcmp(o, "--samples")      ? &a->samples
                           : !strcmp(o, "--size")         ? &a->size
                           : !strcmp(o, "--kernel")       ? &a->kernel
                           : !strcmp(o, "--json")         ? &a->json
                                                          : NULL;
        long *num = !strcmp(o, "--h") ? &a->h : !strcmp(o, "--block") ? &a->block
                    : !strcmp(o, "--stages") ? &a->stages : !strcmp(o, "--skip") ? &a->skip
                    : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            return -1;
        } else if (str || num || !strcmp(o, "--sync") || !strcmp(o, "--relaunch-gap")) {
            if (!v)
                return cli_usage_error("import", "%s needs a value", o);
            if ((str && *str) || (num && *num) || (!strcmp(o, "--sync") && a->sync_set))
                return cli_usage_error("import", "%s given twice", o);
            int rc = 0;
            if (str)
                *str = v;
            else if (num)
                rc = whole(o, v, !strcmp(o, "--skip") ? 0 : 1, num);
            else if (!strcmp(o, "--sync")) {
                if (strcmp(v, "relaunch") && strcmp(v, "fence"))
                    return cli_usage_error("import", "--sync: expected relaunch or fence, got "
                                           "'%s'", v);
                a->sync = strcmp(v, "fence") ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
                a->sync_set = 1;
            } else if (!trapeze_parse_double(v, &a->gap) || a->gap < 0 || a->gap > 1e12)
                return cli_usage_error("import", "--relaunch-gap: expected cycles from 0 to "
                                       "1e12, got '%s'", v);
            if (rc)
                return rc;
            i++;
        } else if (o[0] == '-') {
            return cli_usage_error("import", "unknown option '%s'", o);
        } else if (a->file) {
            return cli_usage_error("import", "one CSV file at a time ('%s' and '%s')", a->file, o);
        } else {
            a->file = o;
        }
    }
    const char *missing = !a->file ? "FILE.csv" : !a->gpu ? "--gpu" : !a->workload ? "--workload"
                          : !a->sync_set ? "--sync" : !a->h ? "--h" : !a->samples ? "--samples"
                          : NULL;
    if (missing)
        return cli_usage_error("import", "%s is required", missing);
    if (a->sync == TRAPEZE_SYNC_FENCE && !a->stages)
        return cli_usage_error("import", "--stages is required with --sync fence (one launch "
                               "runs every stage)");
    return 0;
}

static int fail(const trapeze_error *err)
{
    fprintf(stderr, "trapeze import: %s\n", err->message);
    return 1;
}

/* The sample appended, in the document. */
static void json_row(trapeze_json_out *j, const import_args *a, const trapeze_sample *row,
                     const trapeze_ncu_summary *sum)
{
    trapeze_json_text(j, "file", a->file);
    trapeze_json_text(j, "samples", a->samples);
    trapeze_json_integer(j, "rows_written", 1);
    trapeze_json_text(j, "sample_id", row->id);
    trapeze_json_integer(j, "launches", sum->launches);
    trapeze_json_text(j, "workload", row->workload);
    trapeze_json_text(j, "gpu", row->gpu);
    trapeze_json_integer(j, "h", row->h);
    trapeze_json_text(j, "sync", trapeze_sync_name(row->sync));
    trapeze_json_number(j, "cycles", row->cycles);
    trapeze_json_integer(j, "stages", row->stages);
    trapeze_json_number(j, "cpl_cycles", row->cpl_cycles);
    trapeze_json_number(j, "dram_read_bytes", sum->has_dram ? sum->dram_read_bytes : NAN);
    trapeze_json_number(j, "dram_write_bytes", sum->has_dram ? sum->dram_write_bytes : NAN);
}

static int run(import_args a, cli_json *json);

int cli_import(int argc, char **argv)
{
    import_args a;
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    trapeze_error err = {0};
    cli_json json = {0};
    if (cli_json_open(&json, "import", a.json, &err))
        return fail(&err);
    rc = run(a, &json);
    cli_json_abort(&json);
    return rc;
}

static int run(import_args a, cli_json *json)
{
    int rc;
    char gpu_path[4096], wl_path[4096];
    if (cli_resolve_preset("import", "--gpu", "gpus", ".config", a.gpu, gpu_path, sizeof gpu_path) ||
        cli_resolve_preset("import", "--workload", "workloads", ".ini", a.workload, wl_path,
                           sizeof wl_path))
        return 2;
    trapeze_error err = {0};
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_workload w;
    if (trapeze_config_load(gpu_path, &cfg, &err))
        return fail(&err);
    trapeze_status s = trapeze_gpu_from_config(cfg, &gpu, &err);
    trapeze_config_destroy(cfg);
    if (s || trapeze_workload_load(wl_path, &w, &err))
        return fail(&err);
    if (a.size && (rc = cli_apply_size("import", a.size, &w)))
        return rc;
    trapeze_ncu_options o;
    trapeze_ncu_options_init(&o);
    o.workload = w.name;
    o.gpu = gpu.name;
    o.sync = a.sync;
    o.h = (int)a.h;
    o.blk_len = a.block ? (int)a.block : w.blk_len;
    o.stages = (int)a.stages;
    o.kernel = a.kernel;
    o.skip = (int)a.skip;
    o.relaunch_gap_cycles = a.gap;
    memcpy(o.data_len, w.data_len, sizeof o.data_len);
    trapeze_sample row;
    trapeze_ncu_summary sum;
    if (trapeze_ncu_import(a.file, &o, &row, &sum, &err))
        return fail(&err);
    if (sum.skipped_output_lines || sum.skipped_notes)
        fprintf(stderr, "trapeze import: note: %s: skipped %d line%s of program output and %d "
                "==PROF== line%s around the CSV table\n", a.file, sum.skipped_output_lines,
                sum.skipped_output_lines == 1 ? "" : "s", sum.skipped_notes,
                sum.skipped_notes == 1 ? "" : "s");
    trapeze_sample_log *log;
    if (trapeze_sample_log_open(a.samples, &log, &err))
        return fail(&err);
    if (trapeze_sample_log_note(log))
        fprintf(stderr, "trapeze import: note: %s\n", trapeze_sample_log_note(log));
    if (trapeze_sample_log_find(log, row.id)) {
        trapeze_sample_log_close(log);
        fprintf(stderr, "trapeze import: %s already holds sample %s; nothing appended\n",
                a.samples, row.id);
        return 1;
    }
    s = trapeze_sample_log_append(log, &row, &err);
    trapeze_sample_log_close(log);
    if (s)
        return fail(&err);
    printf("%s: %d launch%s of %s (%s, h = %d, %s): %.0f cycles over %d stage%s, %.2f cycles "
           "per loop", a.file, sum.launches, sum.launches == 1 ? "" : "es", row.workload,
           row.gpu, row.h, trapeze_sync_name(row.sync), row.cycles, row.stages,
           row.stages == 1 ? "" : "s", row.cpl_cycles);
    if (sum.has_dram)
        printf("; DRAM %.0f bytes read, %.0f written", sum.dram_read_bytes, sum.dram_write_bytes);
    printf("\nappended %s to %s\n", row.id, a.samples);
    json_row(json->j, &a, &row, &sum);
    return cli_json_commit(json, &err) ? fail(&err) : 0;
}
