/*
 * export.c - the ghost-zone model's predictions as CSV rows: one per valid
 * height, with the per-loop components of Eq. 5.24. Owns the column list;
 * the file handling is common/csv_out.c's.
 */
#include "common/error.h"

const char *const trapeze_ghostzone_csv_columns[] = {
    "workload", "gpu", "sync", "h", "trapezoids", "cpl_cycles", "glbsync_cycles",
    "loadsten_cycles", "commit_cycles", "itermem_cycles", "misccomp_cycles",
    "itercomp_cycles", "speedup_vs_h1"};
const int trapeze_ghostzone_csv_ncolumns =
    (int)(sizeof trapeze_ghostzone_csv_columns / sizeof trapeze_ghostzone_csv_columns[0]);

trapeze_status trapeze_ghostzone_write_rows(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                            int blk_len, trapeze_csv_out *csv, trapeze_error *err)
{
    trapeze_ghostzone_eval base, e;
    trapeze_status s = trapeze_ghostzone_evaluate(m, sync, 1, blk_len, &base, err);
    int hmax = trapeze_ghostzone_max_height(m, blk_len);
    for (int h = 1; !s && h <= hmax; h++) {
        if ((s = trapeze_ghostzone_evaluate(m, sync, h, blk_len, &e, err)))
            break;
        trapeze_csv_text(csv, trapeze_ghostzone_workload(m)->name);
        trapeze_csv_text(csv, trapeze_ghostzone_gpu(m)->name);
        trapeze_csv_text(csv, trapeze_sync_name(sync));
        trapeze_csv_number(csv, h);
        trapeze_csv_number(csv, e.trapezoids);
        trapeze_csv_number(csv, e.cpl);
        for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++)
            trapeze_csv_number(csv, e.per_loop[c]);
        trapeze_csv_number(csv, base.cpl / e.cpl);
        s = trapeze_csv_end_row(csv, err);
    }
    return s;
}
