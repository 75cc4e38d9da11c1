/*
 * validate_csv.c - a validation's results as CSV files (the rows of
 * `trapeze validate --csv` and `--curve`, with or without --sizes): the
 * column names and how each row of a trapeze_ghostzone_validation or
 * trapeze_ghostzone_size_validation becomes CSV fields. The command line and the
 * Python package both call these, so the files are the same whoever asks.
 * Both files of a call appear together or not at all. Owns formatting only;
 * what a validation measures is validate.c's and validate_sizes.c's.
 */
#include <string.h>

#include "common/error.h"
#include "trapeze.h"

/* One CSV field: text, or a number. */
typedef struct field {
    const char *text;
    double number;
} field;

/* Fills f with row i's fields (as many as the table's columns). */
typedef void (*row_fn)(const void *v, int i, field *f);

typedef struct table {
    const char *const *columns;
    int ncolumns;
    row_fn row;
} table;

#define TEXT(s) ((field){.text = (s)})
#define NUM(x) ((field){.number = (double)(x)})

static const char *const row_columns[] = {
    "workload", "sync", "mape_pct", "max_ape_pct", "h_model", "h_sim_best", "pick_ratio",
    "sample_warp_instructions", "sweep_warp_instructions"};
static void summary_row(const void *vv, int i, field *f)
{
    const trapeze_ghostzone_validation_row *r = &((const trapeze_ghostzone_validation *)vv)->rows[i];
    field row[] = {TEXT(r->workload), TEXT(trapeze_sync_name(r->sync)), NUM(r->mape_pct),
                   NUM(r->max_ape_pct), NUM(r->h_model), NUM(r->h_sim_best), NUM(r->pick_ratio),
                   NUM(r->sample_warp_instructions), NUM(r->sweep_warp_instructions)};
    memcpy(f, row, sizeof row);
}

static const char *const curve_columns[] = {"workload", "sync", "h", "cpl_sim", "cpl_model",
                                            "warp_instructions"};
static void curve_row(const void *vv, int i, field *f)
{
    const trapeze_ghostzone_validation_point *p = &((const trapeze_ghostzone_validation *)vv)->points[i];
    field row[] = {TEXT(p->workload), TEXT(trapeze_sync_name(p->sync)), NUM(p->h),
                   NUM(p->cpl_sim), NUM(p->cpl_model), NUM(p->warp_instructions)};
    memcpy(f, row, sizeof row);
}

static const char *const size_columns[] = {
    "workload", "area_factor", "size_0", "size_1", "size_2", "points", "mape_pct",
    "bias_relaunch_pct", "bias_fence_pct", "sync_model", "h_model", "sync_sim_best",
    "h_sim_best", "sync_right", "pick_ratio", "sweep_warp_instructions", "verify3_pick_ratio",
    "verify3_sync_right", "verify3_warp_instructions"};
static void size_row(const void *vv, int i, field *f)
{
    const trapeze_ghostzone_size_validation_row *r = &((const trapeze_ghostzone_size_validation *)vv)->rows[i];
    field row[] = {TEXT(r->workload), NUM(r->area_factor), NUM(r->data_len[0]),
                   NUM(r->data_len[1]), NUM(r->data_len[2]), NUM(r->n_points), NUM(r->mape_pct),
                   NUM(r->bias_pct[0]), NUM(r->bias_pct[1]), TEXT(trapeze_sync_name(r->sync_model)),
                   NUM(r->h_model), TEXT(trapeze_sync_name(r->sync_sim_best)),
                   NUM(r->h_sim_best), NUM(r->sync_right), NUM(r->pick_ratio),
                   NUM(r->sweep_warp_instructions), NUM(r->verify_pick_ratio),
                   NUM(r->verify_sync_right), NUM(r->verify_warp_instructions)};
    memcpy(f, row, sizeof row);
}

static const char *const size_curve_columns[] = {"workload", "area_factor", "sync", "h",
                                                 "cpl_sim", "cpl_model", "warp_instructions"};
static void size_curve_row(const void *vv, int i, field *f)
{
    const trapeze_ghostzone_validation_point *p = &((const trapeze_ghostzone_size_validation *)vv)->points[i];
    field row[] = {TEXT(p->workload), NUM(p->area_factor), TEXT(trapeze_sync_name(p->sync)),
                   NUM(p->h), NUM(p->cpl_sim), NUM(p->cpl_model), NUM(p->warp_instructions)};
    memcpy(f, row, sizeof row);
}

#define TABLE(cols, fn) {cols, (int)(sizeof cols / sizeof cols[0]), fn}

/* n rows of t into a temporary file, finished but not renamed (*out), so that two
 * files are committed together. */
static trapeze_status write_table(const char *path, const table *t, const void *v, int n,
                                  trapeze_csv_out **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_csv_out *csv;
    trapeze_status s = trapeze_csv_create(path, t->columns, t->ncolumns, &csv, err);
    for (int i = 0; !s && i < n; i++) {
        field f[32];
        t->row(v, i, f);
        for (int k = 0; k < t->ncolumns; k++)
            if (f[k].text)
                trapeze_csv_text(csv, f[k].text);
            else
                trapeze_csv_number(csv, f[k].number);
        s = trapeze_csv_end_row(csv, err);
    }
    if (s) {
        trapeze_csv_abort(csv);
        return s;
    }
    s = trapeze_csv_finish(csv, err); /* frees csv when it fails */
    if (!s)
        *out = csv;
    return s;
}

/* Both tables (either path may be NULL), renamed into place together. */
static trapeze_status write_pair(const char *rows_path, const table *rows, int n_rows,
                                 const char *curve_path, const table *curve, int n_points,
                                 const void *v, trapeze_error *err)
{
    trapeze_csv_out *a = NULL, *b = NULL;
    trapeze_status s = rows_path ? write_table(rows_path, rows, v, n_rows, &a, err) : TRAPEZE_OK;
    if (!s && curve_path)
        s = write_table(curve_path, curve, v, n_points, &b, err);
    /* a commit frees its handle whatever happens */
    trapeze_csv_out *first = a, *second = b;
    if (!s && first)
        s = trapeze_csv_commit(first, err);
    else
        trapeze_csv_abort(first);
    if (!s && second)
        s = trapeze_csv_commit(second, err);
    else
        trapeze_csv_abort(second);
    return s;
}

trapeze_status trapeze_ghostzone_validation_write_csv(const trapeze_ghostzone_validation *v, const char *rows_csv,
                                                      const char *curve_csv, trapeze_error *err)
{
    static const table rows = TABLE(row_columns, summary_row);
    static const table curve = TABLE(curve_columns, curve_row);
    return write_pair(rows_csv, &rows, v->n_rows, curve_csv, &curve, v->n_points, v, err);
}

trapeze_status trapeze_ghostzone_size_validation_write_csv(const trapeze_ghostzone_size_validation *v,
                                                           const char *rows_csv, const char *curve_csv,
                                                           trapeze_error *err)
{
    static const table rows = TABLE(size_columns, size_row);
    static const table curve = TABLE(size_curve_columns, size_curve_row);
    return write_pair(rows_csv, &rows, v->n_rows, curve_csv, &curve, v->n_points, v, err);
}
