/*
 * ncu_import.c - hardware measurements in: reads an Nsight Compute CSV
 * export of a ghost-zone run and turns it into one `kind = measured` sample,
 * the row a calibration fits like a simulated one. Owns the export's layout
 * and the mapping of its metrics to the sample's columns; numbers and units
 * are ncu_units.c's, the row's checks samples.c's (sampler_row_check: an
 * imported row passes exactly the check the log's reader applies, so it
 * always reads back). Must not write the samples log (the caller appends
 * the row) nor know the model.
 *
 * The export as ncu writes it: lines before the CSV header (the program's
 * own output and "==PROF==" notes, when stdout was redirected) are skipped
 * and counted; so are, after a quoted header, "==" notes and unquoted lines
 * (the program's output between launches). Two pages:
 *  - raw (--page raw): a header of metric names, a units row ("", ...,
 *    "Mbyte", "cycle"), one row per launch;
 *  - details (the default page): one row per metric, with "Section Name",
 *    "Metric Name", "Metric Unit" and "Metric Value" columns; consecutive
 *    rows of one ID are one launch.
 * Every value is scaled by its unit to the base unit (18.02 Mbyte ->
 * 18,020,000 bytes); a unit this reader does not know, or one of the wrong
 * kind for its metric, is an error naming the column and the unit.
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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/number.h"
#include "common/text.h"
#include "sampler/ncu_units.h"
#include "sampler/sampler.h"

enum { Q_CYCLES, Q_INST, Q_CONFLICTS, Q_READ, Q_WRITE, NQ };

/* What the row takes from the export. names: the metrics that give it, most
 * preferred first (raw names, then the details page's labels of the same
 * metric); unit: the base unit its values must have ("" a plain count);
 * field: the sample field whose range a launch's value must lie in. */
static const struct quantity {
    const char *what, *unit, *field;
    const char *const names[5];
} quantities[NQ] = {
    {"cycles", "cycle", "cycles",
     {"gpc__cycles_elapsed.max", "sm__cycles_elapsed.max", "sm__cycles_elapsed.avg",
      "Elapsed Cycles", NULL}},
    {"instructions", "inst", "warp_instructions",
     {"smsp__inst_executed.sum", "sm__inst_executed.sum", "Executed Instructions", NULL}},
    {"bank conflicts", "", "bank_conflicts",
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL}},
    /* bytes are counts: the counts' range */
    {"DRAM bytes read", "byte", "warp_instructions", {"dram__bytes_read.sum", NULL}},
    {"DRAM bytes written", "byte", "warp_instructions", {"dram__bytes_write.sum", NULL}},
};

#define NCU_MAX_FIELDS 4096
#define NO_RANK 99

/* The launch being read: a raw row, or a details page's run of rows. */
typedef struct {
    char id[64];
    int open, keep, line;
    double value[NQ];
    int rank[NQ]; /* index in names of the metric that gave value; NO_RANK: none yet */
} launch;

typedef struct {
    const char *path;
    const trapeze_ncu_options *opt;
    trapeze_error *err;
    trapeze_status status;
    char **field; /* the current line's fields */
    int nfield, line;
    int header_seen, quoted_header, details, units_seen, nheader;
    int col_id, col_kernel, col_name, col_unit, col_value;
    int col[NQ];      /* raw page: each quantity's column, -1 if absent */
    int col_rank[NQ]; /* and which of its names that column is */
    int exp10[NQ];    /* raw page: from the units row, the power of ten to the base unit */
    launch cur;
    int launches_seen, kept, last_line, nhave[NQ];
    double sum[NQ];
    int skipped_output, skipped_notes;
} ncu_state;

/* An error at the current line: "PATH:LINE: " and the reason (made
 * printable by trapeze_fail). */
__attribute__((format(printf, 2, 3))) static void fail_line(ncu_state *st, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    st->status = trapeze_fail(st->err, TRAPEZE_EPARSE, "%s:%d: %s", st->path, st->line, why);
}

static void on_field(void *s, size_t len, void *data)
{
    ncu_state *st = data;
    if (st->nfield >= NCU_MAX_FIELDS || st->status) {
        st->nfield++;
        return;
    }
    char *f = malloc(len + 1);
    if (!f) {
        st->status = trapeze_fail(st->err, TRAPEZE_ENOMEM, "%s: out of memory", st->path);
        return;
    }
    memcpy(f, s, len);
    f[len] = '\0';
    st->field[st->nfield++] = f;
}

static void free_fields(ncu_state *st)
{
    for (int i = 0; i < st->nfield && i < NCU_MAX_FIELDS; i++)
        free(st->field[i]);
    st->nfield = 0;
}

static int column(const ncu_state *st, const char *name)
{
    for (int i = 0; i < st->nfield && i < NCU_MAX_FIELDS; i++)
        if (strcmp(st->field[i], name) == 0)
            return i;
    return -1;
}

/* The quantity a metric name gives, and its rank among the names; -1: none. */
static int quantity_of(const char *name, int *rank)
{
    for (int q = 0; q < NQ; q++)
        for (int k = 0; quantities[q].names[k]; k++)
            if (strcmp(name, quantities[q].names[k]) == 0) {
                *rank = k;
                return q;
            }
    return -1;
}

/* The power of ten from `unit` to quantity q's base unit, or an error naming the
 * metric and the unit. */
static int unit_scale(ncu_state *st, int q, const char *metric, const char *unit, int *exp10)
{
    char base[64];
    const char *want = quantities[q].unit[0] ? quantities[q].unit : "a plain count";
    if (!ncu_unit(unit, base, sizeof base, exp10)) {
        fail_line(st, "%s: unit '%s' is not one this reader knows (for %s: %s, with K, M, G "
                  "or T before it)", metric, unit, quantities[q].what, want);
        return 0;
    }
    if (base[0] && strcmp(base, quantities[q].unit) != 0) {
        fail_line(st, "%s: unit '%s' is not %s", metric, unit, want);
        return 0;
    }
    return 1;
}

/* One launch's value of quantity q: a number as ncu writes it, scaled to
 * the base unit, within the range of the sample field it goes to. */
static int launch_value(ncu_state *st, int q, const char *metric, const char *text,
                        int exp10, double *out)
{
    char clean[128], what[160];
    snprintf(what, sizeof what, "%s (%s)", metric, quantities[q].what);
    trapeze_where at = {st->path, st->line, what};
    double v;
    if (!ncu_strip_separators(text, clean, sizeof clean) || !trapeze_parse_double(clean, &v)) {
        st->status = trapeze_num_fail(&at, TRAPEZE_EPARSE, st->err,
                                      "'%.60s' is not a number (a comma may only separate "
                                      "thousands: 1,234,567.5)", text);
        return 0;
    }
    if (v < 0) {
        st->status = trapeze_num_fail(&at, TRAPEZE_ERANGE, st->err, "'%.60s' is negative", text);
        return 0;
    }
    const trapeze_field *f =
        &trapeze_ghostzone_sample_schema.fields[trapeze_row_field(&trapeze_ghostzone_sample_schema,
                                                                  quantities[q].field)];
    /* "18.02" Mbyte read as "18.02e6": the nearest double to the exact
     * value, where 18.02 * 1e6 could be off by a rounding */
    char scaled[160];
    if (exp10 && !strpbrk(clean, "eE")) {
        snprintf(scaled, sizeof scaled, "%se%d", clean, exp10);
        if (!trapeze_parse_double(scaled, &v))
            v = HUGE_VAL; /* out of double's range: refused below */
    } else if (exp10) {
        v *= pow(10, exp10);
    }
    if (!(v >= f->min && v <= f->max)) {
        st->status = trapeze_num_fail(&at, TRAPEZE_ERANGE, st->err,
                                      "'%.60s' is %.10g%s%s, outside [%g, %g]", text, v,
                                      quantities[q].unit[0] ? " " : "", quantities[q].unit,
                                      f->min, f->max);
        return 0;
    }
    *out = v;
    return 1;
}

static void begin_launch(ncu_state *st, const char *id)
{
    const char *kernel = st->col_kernel < st->nfield ? st->field[st->col_kernel] : "";
    memset(&st->cur, 0, sizeof st->cur);
    snprintf(st->cur.id, sizeof st->cur.id, "%s", id);
    st->cur.open = 1;
    st->cur.line = st->line;
    for (int q = 0; q < NQ; q++)
        st->cur.rank[q] = NO_RANK;
    st->cur.keep = (!st->opt->kernel || strstr(kernel, st->opt->kernel)) &&
                   st->launches_seen++ >= st->opt->skip;
}

static void end_launch(ncu_state *st)
{
    launch *l = &st->cur;
    if (!l->open || !l->keep || st->status) {
        l->open = 0;
        return;
    }
    l->open = 0;
    if (l->rank[Q_CYCLES] == NO_RANK) {
        st->line = l->line;
        fail_line(st, "launch ID %s has no cycle metric (one of gpc__cycles_elapsed.max, "
                  "sm__cycles_elapsed.max, sm__cycles_elapsed.avg, Elapsed Cycles)", l->id);
        return;
    }
    st->kept++;
    st->last_line = l->line;
    for (int q = 0; q < NQ; q++)
        if (l->rank[q] != NO_RANK) {
            st->sum[q] += l->value[q];
            st->nhave[q]++;
        }
}

static void header_row(ncu_state *st)
{
    st->header_seen = 1;
    st->nheader = st->nfield;
    st->col_id = column(st, "ID");
    st->col_kernel = column(st, "Kernel Name");
    st->col_name = column(st, "Metric Name");
    st->col_unit = column(st, "Metric Unit");
    st->col_value = column(st, "Metric Value");
    st->details = st->col_name >= 0 && st->col_value >= 0;
    if (st->col_id < 0 || st->col_kernel < 0 || (st->details && st->col_unit < 0)) {
        fail_line(st, "not an Nsight Compute CSV export (no 'ID' and 'Kernel Name' columns; "
                  "export with ncu --csv --page raw)");
        return;
    }
    for (int q = 0; q < NQ; q++) {
        st->col[q] = -1;
        st->exp10[q] = 0; /* no units row: base units */
        for (int k = 0; !st->details && st->col[q] < 0 && quantities[q].names[k]; k++)
            if ((st->col[q] = column(st, quantities[q].names[k])) >= 0)
                st->col_rank[q] = k;
    }
    if (!st->details && st->col[Q_CYCLES] < 0)
        fail_line(st, "no cycle metric (one of gpc__cycles_elapsed.max, sm__cycles_elapsed.max, "
                  "sm__cycles_elapsed.avg)");
}

/* The raw page's units row: each used column's unit becomes its scale. */
static void units_row(ncu_state *st)
{
    st->units_seen = 1;
    for (int q = 0; q < NQ && !st->status; q++) {
        int c = st->col[q];
        if (c >= 0 && c < st->nfield)
            unit_scale(st, q, quantities[q].names[st->col_rank[q]], st->field[c],
                       &st->exp10[q]);
    }
}

static void raw_row(ncu_state *st)
{
    const char *id = st->field[st->col_id];
    if (id[0] == '\0') {
        if (!st->units_seen && st->kept == 0 && st->launches_seen == 0)
            units_row(st);
        else
            fail_line(st, "a row without a launch ID (only the units row, right after the "
                      "header, has none)");
        return;
    }
    st->units_seen = 1; /* a units row after a launch is no units row */
    begin_launch(st, id);
    for (int q = 0; q < NQ && st->cur.keep && !st->status; q++) {
        int c = st->col[q];
        if (c >= 0 && launch_value(st, q, quantities[q].names[st->col_rank[q]], st->field[c],
                                   st->exp10[q], &st->cur.value[q]))
            st->cur.rank[q] = st->col_rank[q];
    }
    end_launch(st);
}

static void details_row(ncu_state *st)
{
    const char *id = st->field[st->col_id];
    if (!st->cur.open || strcmp(st->cur.id, id) != 0) {
        end_launch(st);
        if (st->status)
            return;
        begin_launch(st, id);
    }
    int rank, q = quantity_of(st->field[st->col_name], &rank);
    int exp10;
    double v;
    if (q < 0 || !st->cur.keep || rank >= st->cur.rank[q])
        return;
    const char *metric = st->field[st->col_name];
    if (unit_scale(st, q, metric, st->field[st->col_unit], &exp10) &&
        launch_value(st, q, metric, st->field[st->col_value], exp10, &v)) {
        st->cur.value[q] = v;
        st->cur.rank[q] = rank;
    }
}

static void table_row(ncu_state *st)
{
    if (!st->header_seen) {
        header_row(st);
        return;
    }
    if (st->nfield != st->nheader) {
        fail_line(st, "%d fields, the header has %d", st->nfield, st->nheader);
        return;
    }
    if (st->details)
        details_row(st);
    else
        raw_row(st);
}

/* One line (without its newline): skipped, the header, or a table row. */
static void read_line(ncu_state *st, const char *p, size_t n)
{
    if (st->line == 1 && n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) { /* a UTF-8 BOM */
        p += 3;
        n -= 3;
    }
    if (n && p[n - 1] == '\r') /* exported on Windows */
        n--;
    if (n == 0)
        return;
    int note = n >= 2 && p[0] == '=' && p[1] == '=';
    int header = (n >= 5 && memcmp(p, "\"ID\",", 5) == 0) || (n >= 3 && memcmp(p, "ID,", 3) == 0);
    /* before the header, and between rows after a quoted one (ncu quotes
     * every field), a line is a note or the program's own output */
    if (note || (!st->header_seen && !header) || (st->quoted_header && p[0] != '"')) {
        if (note)
            st->skipped_notes++;
        else
            st->skipped_output++;
        return;
    }
    if (!st->header_seen)
        st->quoted_header = p[0] == '"';
    struct csv_parser cp;
    if (csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI) != 0) { /* an open quote is an error */
        st->status = trapeze_fail(st->err, TRAPEZE_ENOMEM, "%s: out of memory", st->path);
        return;
    }
    if ((csv_parse(&cp, p, n, on_field, NULL, st) != n || csv_fini(&cp, on_field, NULL, st)) &&
        !st->status)
        fail_line(st, "malformed CSV (%s)", csv_strerror(csv_error(&cp)));
    csv_free(&cp);
    if (!st->status)
        table_row(st);
    free_fields(st);
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
    s->cycles = st->sum[Q_CYCLES] + gaps;
    s->cpl_cycles = s->cycles / ((double)s->stages * o->h);
    s->warp_instructions = st->sum[Q_INST];
    s->bank_conflicts = st->sum[Q_CONFLICTS];
    if (sum) {
        sum->launches = st->kept;
        sum->dram_read_bytes = st->sum[Q_READ];
        sum->dram_write_bytes = st->sum[Q_WRITE];
        sum->has_instructions = st->nhave[Q_INST] == st->kept;
        sum->has_dram = st->nhave[Q_READ] == st->kept && st->nhave[Q_WRITE] == st->kept;
        sum->skipped_output_lines = st->skipped_output;
        sum->skipped_notes = st->skipped_notes;
    }
}

/* Every line of text[0..len), then the launch left open. */
static void read_text(ncu_state *st, const char *text, size_t len)
{
    size_t pos = 0;
    while (!st->status && pos < len) {
        const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - p) : len - pos;
        st->line++;
        read_line(st, p, n);
        pos += n + (nl != NULL);
    }
    if (!st->status)
        end_launch(st);
}

/* After the table: a metric some kept launches have and others lack would
 * sum over part of the run. */
static trapeze_status check_launches(ncu_state *st)
{
    const trapeze_ncu_options *o = st->opt;
    if (!st->header_seen)
        return trapeze_fail(st->err, TRAPEZE_EPARSE,
                            "%s: not an Nsight Compute CSV export (no header line starting "
                            "\"ID\",...; export with ncu --csv --page raw, or --page details)",
                            st->path);
    if (st->kept == 0)
        return trapeze_fail(st->err, TRAPEZE_EPARSE, "%s: no launch%s%s%s left to import (%d "
                            "seen, %d skipped)", st->path, o->kernel ? " of kernel '" : "",
                            o->kernel ? o->kernel : "", o->kernel ? "'" : "",
                            st->launches_seen, o->skip);
    for (int q = 0; q < NQ; q++)
        if (st->nhave[q] && st->nhave[q] < st->kept)
            return trapeze_fail(st->err, TRAPEZE_EPARSE, "%s: %s in %d of the %d launches "
                                "kept: export every launch with the same metrics",
                                st->path, quantities[q].what, st->nhave[q], st->kept);
    return TRAPEZE_OK;
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
    if (!st.field) {
        free(text);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    read_text(&st, text, strlen(text));
    free(st.field);
    free(text);
    if (st.status || (s = check_launches(&st)))
        return st.status ? st.status : s;
    fill_sample(&st, path, out, summary);
    /* the reader's check: what is appended reads back */
    trapeze_sample_row row;
    trapeze_ghostzone_sample_to_row(out, &row);
    return sampler_row_check(&row, path, st.last_line, err);
}
