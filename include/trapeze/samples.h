/*
 * trapeze/samples.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Samples logs: the ghost-zone rows (trapeze_sample), rows of any model
 * (trapeze_sample_row and its schema), plans of samples run in threads, and
 * hardware measurements (Nsight Compute) imported as samples.
 */
#ifndef TRAPEZE_SAMPLES_H
#define TRAPEZE_SAMPLES_H

#include "trapeze/error.h"
#include "trapeze/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* samples.csv: the calibration's observations, one row per finished
 * sample, appended whole (one write, then fsync) the moment a sample ends,
 * so an interrupted run loses nothing and a restarted one skips what is
 * done. A torn last line (a crash mid-write) is cut off on open. Measured
 * rows from real hardware use the same columns. */
typedef struct trapeze_sample {
    char id[96];            /* unique key of the planned sample */
    char kind[16];          /* "sim" or "measured" */
    char workload[64], gpu[64];
    trapeze_sync sync;
    int h, blk_len;
    double data_len[TRAPEZE_MAX_DIMS];
    int stages;             /* stages timed (warm-up excluded) */
    double cycles;          /* over the timed stages */
    double cpl_cycles;      /* cycles / (stages x h) */
    double warp_instructions;
    double bank_conflicts;  /* shared-memory passes beyond one per access (profiling) */
} trapeze_sample;

typedef struct trapeze_sample_log trapeze_sample_log;

extern const char *const trapeze_sample_columns[];
extern const int trapeze_sample_ncolumns;

/* Opens (creating if absent), locks and reads every row. The open log holds
 * an exclusive lock: a second open of the same file, by this process or
 * another, fails (TRAPEZE_EIO, "in use by another run"). A file that is not a
 * samples log, a NUL byte, a malformed row or a repeated id is an error
 * naming file and line, and the file is left unchanged. A torn last row
 * written by this program is cut off (see trapeze_sample_log_note). A log
 * is a regular file: "-" (standard output for an output file) is refused. */
trapeze_status trapeze_sample_log_open(const char *path, trapeze_sample_log **out,
                                       trapeze_error *err);
/* What opening repaired (a torn last row cut, a missing final newline
 * added), as one line for the user, or NULL when it changed nothing. */
const char *trapeze_sample_log_note(const trapeze_sample_log *log);
/* The file the log was opened from (what error messages name). */
const char *trapeze_sample_log_path(const trapeze_sample_log *log);
void trapeze_sample_log_close(trapeze_sample_log *log);
int trapeze_sample_log_count(const trapeze_sample_log *log);
const trapeze_sample *trapeze_sample_log_get(const trapeze_sample_log *log, int i);
/* The row with this id, or NULL when the sample is still to run. */
const trapeze_sample *trapeze_sample_log_find(const trapeze_sample_log *log, const char *id);
/* Appends one row (one write, then fsync). An id already in the log is
 * TRAPEZE_EINVAL: no id is ever appended twice. */
trapeze_status trapeze_sample_log_append(trapeze_sample_log *log, const trapeze_sample *s,
                                         trapeze_error *err);
/* Rewrites the file (a temporary file, renamed) with the rows in the order of ids;
 * rows whose id is not listed follow in their order. No write when the rows
 * are already in that order. */
trapeze_status trapeze_sample_log_sort(trapeze_sample_log *log, const char *const *ids, int n,
                                       trapeze_error *err);

/* ---- samples of any model: rows (id, kind, model, inputs, outputs) ---- */

/* A model's row layout: its columns after sample_id and kind, inputs (what
 * a sample runs) then outputs (what it measured). A log file holds rows of
 * one model: header `sample_id,kind,model,<columns>`, each row naming the
 * model. The ghost-zone logs keep the columns they always had (no model
 * column: trapeze_ghostzone_sample_schema.implicit_model), so every log written
 * before still reads and appends unchanged. */
typedef enum { TRAPEZE_FIELD_TEXT, TRAPEZE_FIELD_INT, TRAPEZE_FIELD_REAL } trapeze_field_type;

typedef struct trapeze_field {
    const char *name;                 /* CSV column (units in the name) */
    trapeze_field_type type;
    int output;                       /* 0: input, 1: measured output */
    double min, max;                  /* a number's range, checked on read */
    const char *const *choices;       /* TEXT: allowed values (NULL-terminated), or NULL */
} trapeze_field;

#define TRAPEZE_ROW_MAX_FIELDS 24
#define TRAPEZE_ROW_TEXT 64

typedef struct trapeze_sample_row trapeze_sample_row;

typedef struct trapeze_row_schema {
    const char *model;                /* "ghostzone", "sleep", "group", ... */
    int nfields;                      /* <= TRAPEZE_ROW_MAX_FIELDS */
    const trapeze_field *fields;
    /* kinds this program writes: a torn last row of one of them is cut and
     * re-run; a torn row of another kind (typed by hand) is kept */
    const char *const *program_kinds; /* NULL-terminated */
    int implicit_model;               /* 1: no model column (ghost-zone logs) */
    /* model-specific check of a row just read (NULL: none); line for messages */
    trapeze_status (*check)(const trapeze_sample_row *row, const char *path, int line,
                            trapeze_error *err);
} trapeze_row_schema;

struct trapeze_sample_row {
    char id[96];
    char kind[16];
    const trapeze_row_schema *schema; /* its model: schema->model */
    char text[TRAPEZE_ROW_MAX_FIELDS][TRAPEZE_ROW_TEXT]; /* TEXT fields, by field index */
    double value[TRAPEZE_ROW_MAX_FIELDS];                /* INT and REAL fields */
};

/* The ghost-zone model's rows: the columns of trapeze_sample_columns. */
extern const trapeze_row_schema trapeze_ghostzone_sample_schema;

/* Index of the field called name, or -1. */
int trapeze_row_field(const trapeze_row_schema *schema, const char *name);
/* An empty row of schema with id and kind. */
void trapeze_row_init(trapeze_sample_row *row, const trapeze_row_schema *schema, const char *id,
                      const char *kind);
/* Set and read a field by name (TRAPEZE_EINVAL for an unknown name, the
 * wrong type or a text that does not fit). */
trapeze_status trapeze_row_set_text(trapeze_sample_row *row, const char *name, const char *text);
trapeze_status trapeze_row_set_number(trapeze_sample_row *row, const char *name, double v);
const char *trapeze_row_text(const trapeze_sample_row *row, const char *name);   /* NULL: none */
double trapeze_row_number(const trapeze_sample_row *row, const char *name);      /* NAN: none */
/* 1 when the two rows ran the same sample: same kind and equal inputs. */
int trapeze_row_same_inputs(const trapeze_sample_row *a, const trapeze_sample_row *b);
/* The ghost-zone row as a generic row, and back (the schema must be the
 * ghost-zone one). */
void trapeze_ghostzone_sample_to_row(const trapeze_sample *s, trapeze_sample_row *row);
trapeze_status trapeze_ghostzone_sample_from_row(const trapeze_sample_row *row, trapeze_sample *s,
                                                 trapeze_error *err);

/* A samples log of any model, with every guarantee of the ghost-zone one
 * above (lock, whole rows, torn row cut, ids unique). */
trapeze_status trapeze_sample_log_open_schema(const char *path, const trapeze_row_schema *schema,
                                              trapeze_sample_log **out, trapeze_error *err);
const trapeze_row_schema *trapeze_sample_log_schema(const trapeze_sample_log *log);
const trapeze_sample_row *trapeze_sample_log_row(const trapeze_sample_log *log, int i);
const trapeze_sample_row *trapeze_sample_log_find_row(const trapeze_sample_log *log,
                                                      const char *id);
trapeze_status trapeze_sample_log_append_row(trapeze_sample_log *log, const trapeze_sample_row *row,
                                             trapeze_error *err);

/* A plan of samples of one model: the planned rows (inputs set, outputs
 * empty) and how to run row i (on a fresh simulator, so rows are
 * independent and may run in any thread). */
typedef struct trapeze_sample_set {
    const trapeze_row_schema *schema;
    int count;
    const trapeze_sample_row *rows;
    trapeze_status (*run)(const void *ctx, int i, trapeze_sample_row *out, trapeze_error *err);
    const void *ctx;
    /* the planned work of row i (warp instructions estimated from its inputs),
     * for progress displays; NULL: every row weighs 1 */
    double (*cost)(const void *ctx, int i);
    /* where trapeze_samples_run writes, before any row starts, the threads
     * each row's simulation is split across (its share of the run's
     * threads); run reads it. NULL: every simulation runs on one thread */
    int *sim_threads;
} trapeze_sample_set;

/* Where a run of samples stands, for a progress display: rows done of the
 * plan's total (rows already logged count as done), and the planned work
 * done of the work this run has to do (each row's weight: its set's cost,
 * else 1). Rows grow with h and grid size, so a time left is work left over
 * the observed rate of work, never rows left over rows per second. */
typedef struct trapeze_run_progress {
    int done, total;
    double work_done, work_total;
} trapeze_run_progress;

typedef void (*trapeze_sample_progress)(void *ctx, const trapeze_run_progress *p,
                                        const trapeze_sample_row *row);

/* The indices of the set's rows missing from log, in plan order (todo has
 * room for set->count). A logged row under a planned id that ran another
 * sample (other kind or inputs) is an error. For drivers that spread
 * samples over processes (MPI): each runs set->run on its share. */
trapeze_status trapeze_samples_pending(const trapeze_sample_set *set,
                                       const trapeze_sample_log *log, int *todo, int *n,
                                       trapeze_error *err);
/* Runs every pending row with `threads` threads in all (min(threads, rows
 * pending) rows side by side, each simulation split across the rest:
 * set->sim_threads), appending each to log the moment it ends; then
 * rewrites the log in plan order (rows not in the plan kept after), so its
 * bytes do not depend on the thread count. */
trapeze_status trapeze_samples_run(const trapeze_sample_set *set, trapeze_sample_log *log,
                                   int threads, trapeze_sample_progress progress, void *ctx,
                                   trapeze_error *err);

/* Hardware measurements in: an Nsight Compute CSV export of a ghost-zone run
 * (`ncu --csv --page raw`, or the default details page; lines of program
 * output and ==PROF== notes around the table are skipped; each value scaled
 * by its unit, 18.02 Mbyte = 18,020,000 bytes) becomes one kind = "measured"
 * sample, which a calibration fits like a simulated one. Cycles come from
 * gpc__cycles_elapsed.max (else sm__cycles_elapsed.max or .avg, or the
 * details page's "Elapsed Cycles"), warp instructions from
 * smsp__inst_executed.sum, bank conflicts from
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum, DRAM bytes from
 * dram__bytes_read.sum / dram__bytes_write.sum (the last three optional).
 * The sample passes the samples log reader's own checks, so it reads back. */
typedef struct trapeze_ncu_options {
    const char *workload, *gpu;        /* the names the calibration plans with */
    trapeze_sync sync;
    int h, blk_len;
    double data_len[TRAPEZE_MAX_DIMS]; /* grid of the run; 0 = 1 */
    int stages;                        /* fence: stages in the one launch (required) */
    const char *kernel;                /* keep launches whose name contains this; NULL: all */
    int skip;                          /* kept launches to drop first (warm-up) */
    double relaunch_gap_cycles;        /* added per launch in relaunch mode (ncu times
                                          launches alone, without the gaps between them) */
} trapeze_ncu_options;

/* Every field to its default: zero, NULL (every kernel), relaunch mode;
 * workload, gpu, h and blk_len (and stages in fence mode) have none and
 * must be set. Call it first, then set the fields: a field added in a later
 * version then keeps its default in a program written before it. */
void trapeze_ncu_options_init(trapeze_ncu_options *o);

typedef struct trapeze_ncu_summary {
    int launches;                      /* launches imported */
    double dram_read_bytes, dram_write_bytes;
    int has_instructions, has_dram;    /* whether the export had those metrics */
    int skipped_output_lines;          /* lines of the program's own output skipped */
    int skipped_notes;                 /* "==PROF==" (and other "==") lines skipped */
} trapeze_ncu_summary;

trapeze_status trapeze_ncu_import(const char *path, const trapeze_ncu_options *o,
                                  trapeze_sample *out, trapeze_ncu_summary *summary,
                                  trapeze_error *err);

/* What an Nsight Compute export of a stencil's own kernel (one thread per
 * point, one sweep per launch; the launches whose name contains kernel,
 * NULL: all, every one of the same grid and block) shows, for a spec to
 * leave out (trapeze_workload_load_facts): the grid and block from the
 * launch columns, FP operations per thread (the six FP32/FP64 add, multiply
 * and FMA metrics below, summed), special-function instructions per warp
 * (XU pipe; optional), global loads per warp. A kernel that reads shared
 * memory is refused (already tiled). *launches: the launches read. */
#define TRAPEZE_NCU_STENCIL_METRICS                                                                  \
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,"                                    \
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,"                                    \
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,"                                    \
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,"                                    \
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,"                                    \
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,"                                    \
    "smsp__inst_executed_pipe_xu.sum,smsp__sass_inst_executed_op_global_ld.sum,"              \
    "smsp__sass_inst_executed_op_shared_ld.sum"
trapeze_status trapeze_ncu_stencil_facts(const char *path, const char *kernel,
                                         trapeze_workload_facts *f, int *launches,
                                         trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
