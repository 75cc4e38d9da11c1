/*
 * commands.h - the subcommands of the trapeze program. Each parses its own
 * arguments and calls the library; none holds model or simulator logic.
 * Each returns the process exit status.
 */
#ifndef TRAPEZE_CLI_COMMANDS_H
#define TRAPEZE_CLI_COMMANDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trapeze.h"

int cli_ghostzone(int argc, char **argv);
int cli_sim(int argc, char **argv);
/* Re-executes the program with glibc's malloc on huge pages, once (hugepages.c). */
void cli_hugepages(char **argv);
int cli_trace(int argc, char **argv);
/* `trapeze sim --workload`: cli_sim hands its whole command line over. */
int cli_sim_workload(int argc, char **argv);
void cli_sim_workload_usage(FILE *f);
/* The statistics of sim's launches in the document j (cmd_sim.c). */
trapeze_status cli_sim_json(trapeze_json_out *j, const trapeze_sim *sim, trapeze_error *err);
/* The simulator's progress display on stderr (a terminal only). */
void cli_sim_progress(void *ctx, const trapeze_sim_progress_info *p);
int cli_calibrate(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_locality(int argc, char **argv);
int cli_cache(int argc, char **argv);
/* `validate --model cache`: `cache --verify`; `calibrate --model cache`: a
 * usage error (its constants are fixed, docs/cache.md). */
int cli_calib_model_cache(int argc, char **argv, const char *cmd);
int cli_group(int argc, char **argv);
int cli_simd(int argc, char **argv);

/* A bad command line: "trapeze CMD: message" and a pointer to CMD --help on
 * stderr. Returns 2, the exit status of a usage error. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Before a long run (outputs.c): each output of outs[0..n) given (path not
 * NULL) can be written (common/outfile.c: a temporary file beside it can be
 * created, and it is not a folder, a link to a file, a block device or a
 * socket); "-" or /dev/stdout (standard output) only where use says the
 * command prints nothing there (sim --quiet), for one output, and not
 * beside --json - (json: the --json path or NULL); else the error, naming
 * the option. */
typedef struct cli_output {
    const char *option, *path;
} cli_output;
typedef enum {
    CLI_STDOUT_REPORT,      /* the command prints its report on stdout */
    CLI_STDOUT_QUIETABLE,   /* it does, unless --quiet */
    CLI_STDOUT_FREE         /* it prints nothing there (--quiet given) */
} cli_stdout;
trapeze_status cli_check_outputs(const cli_output *outs, int n, cli_stdout use,
                                 const char *json, trapeze_error *err);

/* Where data/ lives: $TRAPEZE_DATA, else next to the program (build/../data),
 * else the installed share/trapeze. Writes path/relative into out. */
void cli_data_path(const char *relative, char *out, unsigned long size);

/* power_args.c: --power FILE|GPU (a bare name: data/power/NAME.ini) loaded. */
trapeze_status cli_power_load(const char *power_arg, trapeze_power *power, trapeze_error *err);
/* The --power preset a GPU named gpu_name gets by default (buf holds it when it differs). */
const char *cli_power_default(const char *gpu_name, char *buf, size_t size);

/* ghostzone_energy.c: `ghostzone --objective`: samples, calibration, sleep
 * thresholds and the picks by time, energy and EDP of one workload (spec:
 * as its file gives it, for the simulator; m: the model), printed; rows of
 * trapeze_ghostzone_energy_csv_columns to csv when not NULL. */
typedef struct cli_gz_energy_opts {
    int enabled;                   /* --objective given */
    trapeze_ghostzone_objective objective;
    const char *power;             /* --power; NULL: data/power/GPU.ini */
    double max_penalty;            /* --max-penalty (0.01) */
    const char *samples;           /* --energy-samples: the samples log; NULL: a temporary one */
    int threads;                   /* --threads */
} cli_gz_energy_opts;
/* The options' rows of ghostzone's cli_field table: --power and
 * --energy-samples into o, --objective and --max-penalty into t's texts,
 * which cli_gz_energy_parse then checks into o (0, or exit status 2). */
typedef struct cli_gz_energy_text {
    const char *objective, *max_penalty;
} cli_gz_energy_text;
#define CLI_GZ_ENERGY_FIELDS(o, t)                                                     \
    {"--objective", &(t)->objective, NULL}, {"--power", &(o)->power, NULL},            \
        {"--max-penalty", &(t)->max_penalty, NULL},                                    \
        {"--energy-samples", &(o)->samples, NULL}
int cli_gz_energy_parse(const cli_gz_energy_text *t, cli_gz_energy_opts *o);
trapeze_status cli_gz_energy(const cli_gz_energy_opts *o, const char *gpu_path,
                             const trapeze_workload *spec, const trapeze_ghostzone_model *m,
                             const trapeze_ghostzone_params *p, const trapeze_sync *modes, int nmodes,
                             trapeze_csv_out *csv, trapeze_json_out *j, trapeze_error *err);

/* Presets (presets.c): a bare name (no '/', no '.') is a shipped file,
 * data/FOLDER/NAME.SUFFIX; anything else is a path, copied. Writes the path
 * to out and returns 0; for an unknown preset prints one message with the
 * nearest name and the list ("trapeze CMD: OPTION NAME: no such preset;
 * did you mean ...") and returns -1. */
int cli_is_preset_name(const char *arg);
int cli_edit_distance(const char *a, const char *b);

/* A command line with each "--name=value" split into "--name" "value"
 * (args.c), before a bare "--"; the strings are argv's, but for the names
 * cut from them, held in names. */
typedef struct cli_argv {
    int argc;
    char **argv;
    char *names;
} cli_argv;
/* 0, or -1 when out of memory; free with cli_argv_free. */
int cli_split_equals(int argc, char **argv, cli_argv *out);
void cli_argv_free(cli_argv *a);

/* A command's options (args.c), a table ended by {NULL}: name, whether it
 * takes a value, whether it may be given more than once. */
typedef struct cli_opt {
    const char *name;
    int value, repeat;
} cli_opt;
/* Before a command parses argv[first..]: an unknown option (with the
 * nearest known one), an option given twice, or a missing value is one
 * usage error on stderr and returns 2; else 0 (also for -h/--help). */
int cli_check_options(const char *cmd, int argc, char **argv, int first, const cli_opt *opts);
/* A command's options for cli_parse_options, a table ended by {NULL}: a
 * value option stores its text in *text, a flag sets *flag to 1. */
typedef struct cli_field {
    const char *name;
    const char **text;   /* value options */
    int *flag;           /* flag options */
} cli_field;
/* The checks of cli_check_options, then each value into its text and each
 * flag into its flag; the other arguments, in order, into operands (at most
 * max_operands, else a usage error). -h/--help prints usage and returns 0;
 * a usage error returns 2; parsed, -1. */
int cli_parse_options(const char *cmd, int argc, char **argv, int first, const cli_field *fields,
                      const char **operands, int max_operands, int *n_operands,
                      void (*usage)(FILE *out));
int cli_resolve_preset(const char *cmd, const char *option, const char *folder,
                       const char *suffix, const char *arg, char *out, size_t size);
/* --size "AxB[xC]": one positive whole number per dimension of w, set in
 * w->data_len. 0, or 2 (the usage-error status) after printing why. */
int cli_apply_size(const char *cmd, const char *text, trapeze_workload *w);
/* On stderr, the shape a 2-D or 3-D spec without one was given (workload_note.c). */
void cli_workload_shape_note(const trapeze_workload *w);
/* ghostzone --trace DIR: the spec at path read with what the trace of the
 * stencil's own kernel shows (ghostzone_trace.c), and where each came from
 * said on stderr. */
trapeze_status cli_gz_trace_load(const char *path, const char *dir, trapeze_workload *w,
                                 trapeze_error *err);
/* ghostzone --ncu FILE [--kernel NAME]: the same from an Nsight Compute export. */
trapeze_status cli_gz_ncu_load(const char *path, const char *export_path, const char *kernel,
                               trapeze_workload *w, trapeze_error *err);
int cli_import(int argc, char **argv);
int cli_sleep(int argc, char **argv);

/* The progress display of long runs (progress.c): "PREFIX: done/total UNIT,
 * E elapsed, about T left  DETAIL" on stderr: on a terminal one line
 * overwritten; elsewhere a plain line every 10 s (TRAPEZE_PROGRESS: "off",
 * or the seconds between lines), none for a shorter run. The time left is
 * the work left at the observed rate of work, so done and total must be work
 * (warp instructions, bytes), not counts of unequal items. With `lines`, a
 * plain line per update off a terminal (for few, slow updates).
 * Zero-initialize; set prefix and lines as you like. */
typedef struct cli_progress {
    const char *prefix;
    int lines;
    int checked, on, printed, open; /* open: an overwritten line without its newline */
    double start, done0, period, last;
} cli_progress;
void cli_progress_update(cli_progress *p, double done, double total, const char *unit,
                         const char *detail);
/* The same with the caller's TEXT for "done/total UNIT" (work need not be
 * what TEXT counts: a run of launches counts blocks and weighs launches). */
void cli_progress_work(cli_progress *p, const char *text, double work_done, double work_total,
                       const char *detail);
/* After the last update: on a terminal, the overwritten line erased (erase)
 * or left above what follows (a message); nothing elsewhere. */
void cli_progress_end(cli_progress *p, int erase);
/* The same for a run of samples: "done/total UNIT (P% of the work)", the
 * time left from the planned work (trapeze_run_progress). */
void cli_progress_rows(cli_progress *p, const trapeze_run_progress *at, const char *unit,
                       const char *detail);
void cli_format_duration(double seconds, char *out, size_t size);

/* --json FILE (json_out.c): the command's summary as one JSON document
 * (docs/json.md). Open before anything is printed: for "-" or /dev/stdout
 * the text that goes to stdout goes to stderr until the commit, so stdout
 * holds the document alone. The document is an object whose first member
 * is "command"; c->j (NULL without --json) takes the command's members, and
 * trapeze_json_* on NULL does nothing. The commit ends the object and writes
 * it whole; abort (safe after a commit) writes nothing. */
typedef struct cli_json {
    trapeze_json_out *j;
    int saved_stdout;
} cli_json;
/* --threads of every command that runs several simulations: one budget
 * (sampler_share's rule, the library's). */
#define CLI_THREADS_HELP                                                               \
    "  --threads N         threads in all (default 1; the same bytes for any N):\n"    \
    "                      simulations side by side, and those left over split each\n" \
    "                      simulation when fewer remain than threads\n"
/* --threads TEXT of cmd (NULL: 1) into *threads, 1 to 64 (args.c): 0, or 2
 * after the usage error is printed. */
int cli_threads_value(const char *cmd, const char *text, long *threads);
#define CLI_JSON_HELP                                                                  \
    "  --json FILE         the summary as one JSON document (docs/json.md); - or\n"     \
    "                      /dev/stdout: the document alone on stdout, the text on\n"   \
    "                      stderr\n"
trapeze_status cli_json_open(cli_json *c, const char *command, const char *path,
                             trapeze_error *err);
trapeze_status cli_json_commit(cli_json *c, trapeze_error *err);
void cli_json_abort(cli_json *c);

#endif
