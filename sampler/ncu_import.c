/*
 * ncu_import.c - hardware measurements in: reads an Nsight Compute CSV
 * export (`ncu --csv --page raw`) of a ghost-zone run and turns it into one
 * `kind = measured` sample, the row a calibration fits like a simulated one.
 * Owns the export's format (a header row of metric names, an optional row
 * of units, one row per profiled launch, numbers possibly written with
 * thousands separators) and the mapping of its metrics to the sample's
 * columns. Must not write the samples log (the caller appends the row) nor
 * know the model.
 *
 * What a measured row means: cycles is the sum of the kept launches'
 * elapsed cycles; stages is the number of kept launches in relaunch mode
 * (one launch per stage of h iterations) or the caller's count in fence mode
 * (one persistent launch runs every stage); cpl_cycles = cycles / (stages h).
 * Nsight Compute times each launch alone, so the gaps between relaunches are
 * not in `cycles`; the caller may add them (relaunch_gap_cycles).
 */
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"

/* Metric names, most preferred first: the first present in the header wins. */
static const char *const cycle_metrics[] = {"gpc__cycles_elapsed.max", "sm__cycles_elapsed.max",
                                            "sm__cycles_elapsed.avg", NULL};
static const char *const inst_metrics[] = {"smsp__inst_executed.sum", "sm__inst_executed.sum",
                                           NULL};
static const char *const conflict_metrics[] = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL};
static const char *const dram_read_metrics[] = {"dram__bytes_read.sum", NULL};
static const char *const dram_write_metrics[] = {"dram__bytes_write.sum", NULL};

#define NCU_MAX_FIELDS 4096

typedef struct {
    const char *path;
    const trapeze_ncu_options *opt;
    char **field;                  /* the current row's fields */
    int nfield, line;
    int col_id, col_kernel, col_cycles, col_inst, col_conflicts, col_rd, col_wr;
    int header_seen, launches_seen, kept;
    double cycles, insts, conflicts, rd_bytes, wr_bytes;
    trapeze_status status;
    trapeze_error *err;
} ncu_state;

static void on_field(void *s, size_t len, void *data)
{
    ncu_state *st = data;
    if (st->nfield >= NCU_MAX_FIELDS) {
        st->nfield++;
        return;
    }
    char *f = malloc(len + 1);
    if (!f) {
        st->status = TRAPEZE_ENOMEM;
        return;
    }
    memcpy(f, s, len);
    f[len] = '\0';
    st->field[st->nfield++] = f;
}

static int find_column(const ncu_state *st, const char *const *names)
{
    for (int k = 0; names[k]; k++)
        for (int i = 0; i < st->nfield && i < NCU_MAX_FIELDS; i++)
            if (strcmp(st->field[i], names[k]) == 0)
                return i;
    return -1;
}

/* "1,234,567.5" as Nsight Compute prints it, or plain "1234567.5". */
static int ncu_number(const char *text, double *out)
{
    char buf[128];
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (*p == ',')
            continue;
        if (n + 1 >= sizeof buf)
            return 0;
        buf[n++] = *p;
    }
    buf[n] = '\0';
    return trapeze_parse_double(buf, out) && isfinite(*out) && *out >= 0;
}

static void header_row(ncu_state *st)
{
    st->col_id = find_column(st, (const char *const[]){"ID", NULL});
    st->col_kernel = find_column(st, (const char *const[]){"Kernel Name", NULL});
    st->col_cycles = find_column(st, cycle_metrics);
    st->col_inst = find_column(st, inst_metrics);
    st->col_conflicts = find_column(st, conflict_metrics);
    st->col_rd = find_column(st, dram_read_metrics);
    st->col_wr = find_column(st, dram_write_metrics);
    st->header_seen = 1;
    if (st->col_id < 0 || st->col_kernel < 0)
        st->status = trapeze_fail(st->err, TRAPEZE_EPARSE,
                                  "%s:%d: not an Nsight Compute CSV export (no 'ID' and 'Kernel "
                                  "Name' columns; export with ncu --csv --page raw)",
                                  st->path, st->line);
    else if (st->col_cycles < 0)
        st->status = trapeze_fail(st->err, TRAPEZE_EPARSE,
                                  "%s:%d: no cycle metric (one of gpc__cycles_elapsed.max, "
                                  "sm__cycles_elapsed.max, sm__cycles_elapsed.avg)",
                                  st->path, st->line);
}

static int metric(ncu_state *st, int col, const char *what, double *acc)
{
    if (col < 0)
        return 1;
    double v;
    if (col >= st->nfield || !ncu_number(st->field[col], &v)) {
        st->status = trapeze_fail(st->err, TRAPEZE_EPARSE,
                                  "%s:%d: %s: expected a non-negative number, got '%.40s'",
                                  st->path, st->line, what,
                                  col < st->nfield ? st->field[col] : "");
        return 0;
    }
    *acc += v;
    return 1;
}

static void launch_row(ncu_state *st)
{
    /* the units row ("", "", ..., "cycle") has no launch ID */
    if (st->col_id >= st->nfield || st->field[st->col_id][0] == '\0')
        return;
    const char *kernel = st->col_kernel < st->nfield ? st->field[st->col_kernel] : "";
    if (st->opt->kernel && !strstr(kernel, st->opt->kernel))
        return;
    if (st->launches_seen++ < st->opt->skip)
        return;
    st->kept++;
    if (!metric(st, st->col_cycles, "cycles", &st->cycles) ||
        !metric(st, st->col_inst, "instructions", &st->insts) ||
        !metric(st, st->col_conflicts, "bank conflicts", &st->conflicts))
        return;
    if (metric(st, st->col_rd, "DRAM bytes read", &st->rd_bytes))
        metric(st, st->col_wr, "DRAM bytes written", &st->wr_bytes);
}

static void on_row(int c, void *data)
{
    (void)c;
    ncu_state *st = data;
    st->line++;
    if (st->status == TRAPEZE_OK) {
        /* Nsight Compute prints "==PROF==" notes before the table */
        int note = st->nfield > 0 && strncmp(st->field[0], "==", 2) == 0;
        if (!note && !st->header_seen)
            header_row(st);
        else if (!note)
            launch_row(st);
    }
    for (int i = 0; i < st->nfield && i < NCU_MAX_FIELDS; i++)
        free(st->field[i]);
    st->nfield = 0;
}

static trapeze_status check_options(const trapeze_ncu_options *o, trapeze_error *err)
{
    if (o->h < 1 || o->blk_len < 1 || !o->workload || !o->gpu || o->skip < 0 || o->stages < 0 ||
        o->relaunch_gap_cycles < 0)
        return trapeze_fail(err, TRAPEZE_EINVAL, "ncu import: h, blk_len >= 1, workload and gpu "
                                                 "needed; skip, stages, gap >= 0");
    if (o->sync == TRAPEZE_SYNC_FENCE && o->stages < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "ncu import: fence mode runs every stage in one launch: give the "
                            "number of stages");
    return TRAPEZE_OK;
}

static void fill_sample(const ncu_state *st, const char *path, trapeze_sample *s,
                        trapeze_ncu_summary *sum)
{
    const trapeze_ncu_options *o = st->opt;
    memset(s, 0, sizeof *s);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(s->id, sizeof s->id, "%.20s/measured/%.24s:%s:h%d:%.30s", o->gpu, o->workload,
             trapeze_sync_name(o->sync), o->h, base);
    snprintf(s->kind, sizeof s->kind, "measured");
    snprintf(s->workload, sizeof s->workload, "%s", o->workload);
    snprintf(s->gpu, sizeof s->gpu, "%s", o->gpu);
    s->sync = o->sync;
    s->h = o->h;
    s->blk_len = o->blk_len;
    for (int i = 0; i < TRAPEZE_MAX_DIMS; i++)
        s->data_len[i] = o->data_len[i] > 0 ? o->data_len[i] : 1;
    s->stages = o->sync == TRAPEZE_SYNC_FENCE ? o->stages : st->kept;
    double gaps = o->sync == TRAPEZE_SYNC_RELAUNCH ? st->kept * o->relaunch_gap_cycles : 0;
    s->cycles = st->cycles + gaps;
    s->cpl_cycles = s->cycles / ((double)s->stages * o->h);
    s->warp_instructions = st->insts;
    s->bank_conflicts = st->conflicts;
    if (sum) {
        sum->launches = st->kept;
        sum->dram_read_bytes = st->rd_bytes;
        sum->dram_write_bytes = st->wr_bytes;
        sum->has_instructions = st->col_inst >= 0;
        sum->has_dram = st->col_rd >= 0 && st->col_wr >= 0;
    }
}

trapeze_status trapeze_ncu_import(const char *path, const trapeze_ncu_options *o,
                                  trapeze_sample *out, trapeze_ncu_summary *summary,
                                  trapeze_error *err)
{
    trapeze_status s = check_options(o, err);
    if (s)
        return s;
    char *text;
    if ((s = trapeze_read_file(path, &text, err)))
        return s;
    ncu_state st = {.path = path, .opt = o, .err = err};
    st.field = calloc(NCU_MAX_FIELDS, sizeof *st.field);
    struct csv_parser p;
    if (!st.field || csv_init(&p, CSV_APPEND_NULL) != 0) {
        free(st.field);
        free(text);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    size_t len = strlen(text);
    if (csv_parse(&p, text, len, on_field, on_row, &st) != len && st.status == TRAPEZE_OK)
        st.status = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV (%s)", path,
                                 st.line + 1, csv_strerror(csv_error(&p)));
    csv_fini(&p, on_field, on_row, &st);
    csv_free(&p);
    free(st.field);
    free(text);
    if (st.status)
        return st.status == TRAPEZE_ENOMEM
                   ? trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path)
                   : st.status;
    if (!st.header_seen)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: empty file", path);
    if (st.kept == 0)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s: no launch%s%s%s left to import (%d seen, "
                            "%d skipped)", path, o->kernel ? " of kernel '" : "",
                            o->kernel ? o->kernel : "", o->kernel ? "'" : "", st.launches_seen,
                            o->skip);
    fill_sample(&st, path, out, summary);
    return TRAPEZE_OK;
}
