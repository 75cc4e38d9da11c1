/*
 * samples.c - samples.csv, the append-only log of finished samples of one
 * model (the calibration's, the validation's sweep log, and any model's
 * rows: sampler/rows.c has their layout). Owns the file format, crash
 * safety and lookup by id; must not plan or run samples.
 *
 * What it guarantees (docs/reliability.md):
 *  - a finished row is never lost: the file is read by length (a NUL byte
 *    is an error naming its line, not an end of text); a file that does not
 *    start with the header is refused and left as it is;
 *  - only a real torn last row is cut (a last line without '\n' whose kind
 *    is one this program writes, or too short to name one: re-runnable),
 *    and the cut is reported by trapeze_sample_log_note(); a last line of
 *    another kind (a hand-typed "measured" row) is kept and given its
 *    newline, or refused if malformed - never dropped;
 *  - one writer: the open log holds an exclusive flock(), so a second run
 *    on the same file fails at once with a clear message;
 *  - an id is never in the log twice (refused on read and on append);
 *  - a row is appended with one write() then fsync(); a failed write (disk
 *    full) is cut back so the file keeps whole rows only.
 * Invariants: rows[i] came from line i + 2 of the file; ids are unique.
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/outfile.h"
#include "common/number.h"
#include "common/text.h"
#include "sampler/sampler.h"

const char *const trapeze_sample_columns[] = {
    "sample_id", "kind", "workload", "gpu", "sync", "h", "blk_len", "size_0", "size_1",
    "size_2", "stages", "cycles", "cpl_cycles", "warp_instructions", "bank_conflicts"};
const int trapeze_sample_ncolumns =
    (int)(sizeof trapeze_sample_columns / sizeof trapeze_sample_columns[0]);

struct trapeze_sample_log {
    char *path;
    int fd;
    const trapeze_row_schema *schema;
    trapeze_sample_row *rows;
    trapeze_sample *gz;   /* the same rows as trapeze_sample, for a ghost-zone log */
    int count, capacity;
    char note[640];   /* what opening repaired, for the caller to print; "" if nothing */
};

/* sample_id, kind, model (unless implicit), then the schema's fields. */
#define MAX_COLUMNS (3 + TRAPEZE_ROW_MAX_FIELDS)
#define FIELD_MAX 128
typedef struct {
    char field[MAX_COLUMNS][FIELD_MAX];
    int n;
    int too_long;     /* index + 1 of the first field longer than FIELD_MAX - 1 */
} row_fields;

/* Columns before the schema's fields. */
static int lead_columns(const trapeze_row_schema *schema)
{
    return schema->implicit_model ? 2 : 3;
}

static int ncolumns(const trapeze_row_schema *schema)
{
    return lead_columns(schema) + schema->nfields;
}

static const char *column_name(const trapeze_row_schema *schema, int c)
{
    static const char *const lead[] = {"sample_id", "kind", "model"};
    return c < lead_columns(schema) ? lead[c] : schema->fields[c - lead_columns(schema)].name;
}

static void on_field(void *s, size_t len, void *data)
{
    row_fields *r = data;
    if (r->n < MAX_COLUMNS) {
        if (len >= FIELD_MAX && !r->too_long)
            r->too_long = r->n + 1;
        size_t n = len < FIELD_MAX - 1 ? len : FIELD_MAX - 1;
        memcpy(r->field[r->n], s, n);
        r->field[r->n][n] = '\0';
    }
    r->n++;
}

static int split_row(const char *line, size_t len, row_fields *r)
{
    struct csv_parser p;
    memset(r, 0, sizeof *r);
    csv_init(&p, CSV_APPEND_NULL);
    size_t used = csv_parse(&p, line, len, on_field, NULL, r);
    int ok = used == len && csv_fini(&p, on_field, NULL, r) == 0;
    csv_free(&p);
    return ok;
}

/* One TEXT field's value: within room, on one line (the log is read line by
 * line, so a line break would split the row however it is quoted), and one
 * of its choices when it has some. */
static trapeze_status text_ok(const trapeze_field *f, const char *text, const char *path,
                              int line, size_t room, trapeze_error *err)
{
    char q[96];
    trapeze_where at = {path, line, NULL};
    char what[96];
    snprintf(what, sizeof what, "field %s", f->name);
    at.what = what;
    if (strlen(text) >= room)
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err, "longer than %zu characters",
                                room - 1);
    if (strpbrk(text, "\r\n"))
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err,
                                "'%s' holds a line break: a row is one line",
                                trapeze_escape(text, strlen(text), q, sizeof q));
    int ok = !f->choices;
    for (int k = 0; f->choices && f->choices[k] && !ok; k++)
        ok = strcmp(text, f->choices[k]) == 0;
    if (!ok) {
        char list[160] = "";
        for (int k = 0; f->choices[k]; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     k == 0 ? "" : f->choices[k + 1] ? ", " : " or ", f->choices[k]);
        return trapeze_num_fail(&at, TRAPEZE_EPARSE, err, "expected %s, got '%s'", list,
                                trapeze_escape(text, strlen(text), q, sizeof q));
    }
    return TRAPEZE_OK;
}

static trapeze_status text_field(const trapeze_field *f, const char *text, const char *path,
                                 int line, char *dest, size_t room, trapeze_error *err)
{
    trapeze_status st = text_ok(f, text, path, line, room, err);
    if (!st)
        memcpy(dest, text, strlen(text) + 1);
    return st;
}

/* A number already read (from the file or from a writer): finite, in the
 * field's range, whole for an INT field. */
static trapeze_status value_ok(const trapeze_field *f, double v, const char *path, int line,
                               trapeze_error *err)
{
    char what[96];
    snprintf(what, sizeof what, "field %s", f->name);
    trapeze_where at = {path, line, what};
    if (!(v >= f->min && v <= f->max)) /* NaN fails too */
        return trapeze_num_fail(&at, TRAPEZE_ERANGE, err, "%.10g is outside [%g, %g]", v,
                                f->min, f->max);
    if (f->type == TRAPEZE_FIELD_INT && v != (double)(long)v)
        return trapeze_num_fail(&at, TRAPEZE_ERANGE, err, "%.10g is not a whole number", v);
    return TRAPEZE_OK;
}

static const trapeze_field id_field = {"sample_id", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL};
static const trapeze_field kind_field = {"kind", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL};

trapeze_status sampler_row_check(const trapeze_sample_row *row, const char *path, int line,
                                 trapeze_error *err)
{
    const trapeze_row_schema *schema = row->schema;
    trapeze_status st;
    if ((st = text_ok(&id_field, row->id, path, line, sizeof row->id, err)) ||
        (st = text_ok(&kind_field, row->kind, path, line, sizeof row->kind, err)))
        return st;
    for (int i = 0; i < schema->nfields; i++) {
        const trapeze_field *f = &schema->fields[i];
        st = f->type == TRAPEZE_FIELD_TEXT
                 ? text_ok(f, row->text[i], path, line, TRAPEZE_ROW_TEXT, err)
                 : value_ok(f, row->value[i], path, line, err);
        if (st)
            return st;
    }
    return schema->check ? schema->check(row, path, line, err) : TRAPEZE_OK;
}

static trapeze_status number_field(const trapeze_field *f, const char *text, const char *path,
                                   int line, double *out, trapeze_error *err)
{
    char what[96];
    snprintf(what, sizeof what, "field %s", f->name);
    trapeze_where at = {path, line, what};
    if (f->type == TRAPEZE_FIELD_REAL)
        return trapeze_num_double(text, f->min, f->max, &at, out, err);
    long v;
    trapeze_status st = trapeze_num_long(text, (long)f->min, (long)f->max, &at, &v, err);
    *out = (double)v;
    return st;
}

static trapeze_status to_row(const trapeze_sample_log *log, int line, const row_fields *r,
                             trapeze_sample_row *row, trapeze_error *err)
{
    const trapeze_row_schema *schema = log->schema;
    const char *path = log->path;
    trapeze_status st;
    int lead = lead_columns(schema);
    if (r->n != ncolumns(schema))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: %d fields, expected %d", path, line,
                            r->n, ncolumns(schema));
    if (r->too_long)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field %s: longer than %d characters",
                            path, line, column_name(schema, r->too_long - 1), FIELD_MAX - 1);
    memset(row, 0, sizeof *row);
    row->schema = schema;
    if ((st = text_field(&id_field, r->field[0], path, line, row->id, sizeof row->id, err)) ||
        (st = text_field(&kind_field, r->field[1], path, line, row->kind, sizeof row->kind, err)))
        return st;
    if (lead == 3 && strcmp(r->field[2], schema->model) != 0) {
        char q[96];
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field model: expected %s, got '%s'",
                            path, line, schema->model,
                            trapeze_escape(r->field[2], strlen(r->field[2]), q, sizeof q));
    }
    for (int i = 0; i < schema->nfields; i++) {
        const trapeze_field *f = &schema->fields[i];
        const char *text = r->field[lead + i];
        st = f->type == TRAPEZE_FIELD_TEXT
                 ? text_field(f, text, path, line, row->text[i], TRAPEZE_ROW_TEXT, err)
                 : number_field(f, text, path, line, &row->value[i], err);
        if (st)
            return st;
    }
    return sampler_row_check(row, path, line, err);
}

static int is_gz(const trapeze_sample_log *log)
{
    return log->schema == &trapeze_ghostzone_sample_schema;
}

static trapeze_status keep(trapeze_sample_log *log, const trapeze_sample_row *s,
                           trapeze_error *err)
{
    if (log->count == log->capacity) {
        int cap = log->capacity ? 2 * log->capacity : 64;
        trapeze_sample_row *grown = realloc(log->rows, (size_t)cap * sizeof *grown);
        if (grown)
            log->rows = grown;
        trapeze_sample *gz = is_gz(log) ? realloc(log->gz, (size_t)cap * sizeof *gz) : NULL;
        if (gz)
            log->gz = gz;
        if (!grown || (is_gz(log) && !gz))
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        log->capacity = cap;
    }
    log->rows[log->count] = *s;
    if (is_gz(log))
        trapeze_ghostzone_sample_from_row(s, &log->gz[log->count], NULL);
    log->count++;
    return TRAPEZE_OK;
}

static int find_index(const trapeze_sample_log *log, const char *id)
{
    for (int i = 0; i < log->count; i++)
        if (strcmp(log->rows[i].id, id) == 0)
            return i;
    return -1;
}

/* A row read from line `line`: kept unless its id is already there. */
static trapeze_status keep_read(trapeze_sample_log *log, int line, const trapeze_sample_row *s,
                                trapeze_error *err)
{
    int i = find_index(log, s->id);
    if (i >= 0) {
        char q[128];
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: sample id '%s' is already on line %d: a fit would count it "
                            "twice; delete one of the two rows",
                            log->path, line, trapeze_escape(s->id, strlen(s->id), q, sizeof q),
                            i + 2);
    }
    return keep(log, s, err);
}

/* Writes all of text at the end of the file, then fsync. On failure the
 * file is cut back to its old end, so it never holds a part of a row. */
static trapeze_status write_all(trapeze_sample_log *log, int fd, const char *text, size_t len,
                                trapeze_error *err)
{
    off_t end = lseek(fd, 0, SEEK_END);
    size_t done = 0;
    int e = 0;
    /* one write() of a whole row as a rule; the loop only finishes a short one */
    while (done < len && !e) {
        ssize_t n = write(fd, text + done, len - done);
        if (n > 0)
            done += (size_t)n;
        else if (n < 0 && errno != EINTR)
            e = errno;
        else if (n == 0)
            e = EIO;
    }
    if (!e && fsync(fd) != 0)
        e = errno;
    if (!e)
        return TRAPEZE_OK;
    if (end >= 0 && ftruncate(fd, end) != 0) {
        /* the row stays torn; the next open cuts it */
    }
    return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot append: %s", log->path, strerror(e));
}

static size_t header_text(const trapeze_row_schema *schema, char *line, size_t room)
{
    size_t n = 0;
    int nc = ncolumns(schema);
    for (int c = 0; c < nc && n < room; c++)
        n += (size_t)snprintf(line + n, room - n, "%s%s", column_name(schema, c),
                              c + 1 < nc ? "," : "\n");
    return n < room ? n : 0;
}

static trapeze_status write_header(trapeze_sample_log *log, int fd, trapeze_error *err)
{
    char line[2048];
    return write_all(log, fd, line, header_text(log->schema, line, sizeof line), err);
}

static trapeze_status foreign(const trapeze_sample_log *log, trapeze_error *err)
{
    return trapeze_fail(err, TRAPEZE_EPARSE,
                        "%s:1: not a samples log (the first line must be the header %s,%s,...); "
                        "the file is left as it is",
                        log->path, column_name(log->schema, 0), column_name(log->schema, 1));
}

/* Line 1 (p[0..n), `whole` when it ended with '\n'). A header cut short
 * (a kill while creating the log) is rewritten; anything else is foreign. */
static trapeze_status read_header(trapeze_sample_log *log, const char *p, size_t n, int whole,
                                  trapeze_error *err)
{
    char want[2048];
    size_t want_len = header_text(log->schema, want, sizeof want) - 1; /* without '\n' */
    if (!whole && n < want_len && memcmp(p, want, n) == 0) {
        if (ftruncate(log->fd, 0) != 0)
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot rewrite a torn header: %s",
                                log->path, strerror(errno));
        snprintf(log->note, sizeof log->note, "%s:1: rewrote a header cut short", log->path);
        return write_header(log, log->fd, err);
    }
    if (!whole || n != want_len || memcmp(p, want, n) != 0)
        return foreign(log, err);
    return TRAPEZE_OK;
}

static int is_program_kind(const trapeze_sample_log *log, const char *kind)
{
    for (int i = 0; log->schema->program_kinds && log->schema->program_kinds[i]; i++)
        if (strcmp(kind, log->schema->program_kinds[i]) == 0)
            return 1;
    return 0;
}

/* The kind field of a partial row, when the row got past it (a comma after). */
static int partial_kind(const char *p, size_t n, char *kind, size_t room)
{
    row_fields r;
    const char *comma = memchr(p, ',', n);
    if (!comma)
        return 0;
    const char *second = memchr(comma + 1, ',', n - (size_t)(comma + 1 - p));
    if (!second || !split_row(p, (size_t)(second - p), &r) || r.n < 2)
        return 0;
    snprintf(kind, room, "%s", r.field[1]);
    return 1;
}

/* The last line, p[0..n) at byte `at`, has no '\n'. */
static trapeze_status read_unterminated(trapeze_sample_log *log, int line, const char *p,
                                        size_t n, size_t at, trapeze_error *err)
{
    char kind[FIELD_MAX];
    if (!partial_kind(p, n, kind, sizeof kind) || is_program_kind(log, kind)) {
        /* a torn write of this program's row: the sample is run again */
        if (ftruncate(log->fd, (off_t)at) != 0)
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot cut a torn last row: %s",
                                log->path, strerror(errno));
        snprintf(log->note, sizeof log->note,
                 "%s:%d: cut a partial last row (%zu bytes) left by an interrupted run; "
                 "its sample will run again",
                 log->path, line, n);
        return TRAPEZE_OK;
    }
    /* someone else's row (a hand-typed measurement): keep it or refuse it */
    row_fields r;
    trapeze_sample_row s;
    trapeze_status st;
    if (!split_row(p, n, &r))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV (last row)", log->path,
                            line);
    if ((st = to_row(log, line, &r, &s, err)) ||
        (st = keep_read(log, line, &s, err)) ||
        (st = write_all(log, log->fd, "\n", 1, err)))
        return st;
    snprintf(log->note, sizeof log->note,
             "%s:%d: the last row had no final newline; kept it and added one", log->path, line);
    return TRAPEZE_OK;
}

/* Reads every row of text[0..len). */
static trapeze_status read_rows(trapeze_sample_log *log, const char *text, size_t len,
                                trapeze_error *err)
{
    size_t pos = 0;
    int line = 0;
    trapeze_status st = TRAPEZE_OK;
    while (!st && pos < len) {
        const char *p = text + pos;
        const char *nl = memchr(p, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - p) : len - pos;
        line++;
        if (memchr(p, '\0', n)) {
            if (line == 1)
                return foreign(log, err);
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "%s:%d: a NUL byte in the row: the file is damaged or not a "
                                "samples log; it is left as it is",
                                log->path, line);
        }
        if (line == 1) {
            st = read_header(log, p, n, nl != NULL, err);
        } else if (!nl) {
            st = read_unterminated(log, line, p, n, pos, err);
        } else {
            row_fields r;
            trapeze_sample_row s;
            if (!split_row(p, n, &r))
                st = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV", log->path, line);
            else if (!(st = to_row(log, line, &r, &s, err)))
                st = keep_read(log, line, &s, err);
        }
        pos += n + (nl != NULL);
    }
    return st;
}

/* Opens and locks path; retries when the file was replaced (by a sort of
 * the run that held the lock) between open and lock. */
static trapeze_status open_locked(trapeze_sample_log *log, trapeze_error *err)
{
    /* "-" is standard output for every output (common/outfile.c), which a
     * log, read back and rewritten, cannot be; never a file named "-" */
    if (!strcmp(log->path, "-"))
        return trapeze_fail(err, TRAPEZE_EIO, "-: a samples log is a file the run reads back "
                            "and rewrites, not standard output; give a file name");
    for (int tries = 0; tries < 8; tries++) {
        /* a regular file of its own name: the log may be rewritten sorted,
         * which replaces the file (common/outfile.c refuses links) */
        int fd = open(log->path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
        struct stat st;
        if (fd < 0 && errno == ELOOP)
            return trapeze_fail(err, TRAPEZE_EIO, "%s: is a symbolic link; give the path of "
                                "the log itself", log->path);
        if (fd < 0)
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", log->path,
                                strerror(errno));
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            return trapeze_fail(err, TRAPEZE_EIO, "%s: not a regular file (a samples log is "
                                "a file the run can rewrite)", log->path);
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK)
                return trapeze_fail(err, TRAPEZE_EIO,
                                    "%s: in use by another run (it holds the file's lock); "
                                    "wait for it to end, or give another file",
                                    log->path);
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot lock: %s", log->path,
                                strerror(e));
        }
        struct stat by_fd, by_path;
        if (fstat(fd, &by_fd) == 0 && stat(log->path, &by_path) == 0 &&
            by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino) {
            log->fd = fd;
            return TRAPEZE_OK;
        }
        close(fd);
    }
    return trapeze_fail(err, TRAPEZE_EIO, "%s: the file keeps being replaced", log->path);
}

trapeze_status trapeze_sample_log_open(const char *path, trapeze_sample_log **out,
                                       trapeze_error *err)
{
    return trapeze_sample_log_open_schema(path, &trapeze_ghostzone_sample_schema, out, err);
}

trapeze_status trapeze_sample_log_open_schema(const char *path, const trapeze_row_schema *schema,
                                              trapeze_sample_log **out, trapeze_error *err)
{
    *out = NULL;
    if (!schema || schema->nfields < 1 || schema->nfields > TRAPEZE_ROW_MAX_FIELDS)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: a row schema needs 1 to %d fields", path,
                            TRAPEZE_ROW_MAX_FIELDS);
    trapeze_sample_log *log = calloc(1, sizeof *log);
    if (!log || !(log->path = trapeze_strdup(path))) {
        free(log);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    log->schema = schema;
    log->fd = -1;
    char *text = NULL;
    size_t len = 0;
    trapeze_status st = open_locked(log, err);
    if (!st)
        st = trapeze_read_fd(log->fd, path, &text, &len, err);
    if (!st)
        st = len ? read_rows(log, text, len, err) : write_header(log, log->fd, err);
    free(text);
    if (st) {
        trapeze_sample_log_close(log);
        return st;
    }
    *out = log;
    return TRAPEZE_OK;
}

const char *trapeze_sample_log_note(const trapeze_sample_log *log)
{
    return log->note[0] ? log->note : NULL;
}

const char *trapeze_sample_log_path(const trapeze_sample_log *log) { return log->path; }

void trapeze_sample_log_close(trapeze_sample_log *log)
{
    if (!log)
        return;
    if (log->fd >= 0)
        close(log->fd);
    free(log->rows);
    free(log->gz);
    free(log->path);
    free(log);
}

int trapeze_sample_log_count(const trapeze_sample_log *log) { return log->count; }
const trapeze_row_schema *trapeze_sample_log_schema(const trapeze_sample_log *log)
{
    return log->schema;
}

/* The ghost-zone view: NULL for a log of another model. */
const trapeze_sample *trapeze_sample_log_get(const trapeze_sample_log *log, int i)
{
    return is_gz(log) && i >= 0 && i < log->count ? &log->gz[i] : NULL;
}

const trapeze_sample *trapeze_sample_log_find(const trapeze_sample_log *log, const char *id)
{
    int i = is_gz(log) ? find_index(log, id) : -1;
    return i >= 0 ? &log->gz[i] : NULL;
}

const trapeze_sample_row *trapeze_sample_log_row(const trapeze_sample_log *log, int i)
{
    return i >= 0 && i < log->count ? &log->rows[i] : NULL;
}

const trapeze_sample_row *trapeze_sample_log_find_row(const trapeze_sample_log *log,
                                                      const char *id)
{
    int i = find_index(log, id);
    return i >= 0 ? &log->rows[i] : NULL;
}

/* A text field, quoted by libcsv only when it must be. */
static size_t put_text(char *out, size_t room, const char *s)
{
    if (!strpbrk(s, ",\"\r\n"))
        return (size_t)snprintf(out, room, "%s,", s);
    size_t n = csv_write(out, room, s, strlen(s));
    if (n < room)
        out[n++] = ',';
    return n;
}

/* The CSV text of one row, '\n' included; 0 when it does not fit. Whole
 * numbers of INT fields as integers, others in the shortest form that
 * reads back to the same double (%.17g). */
static size_t format_row(const trapeze_row_schema *schema, const trapeze_sample_row *s,
                         char *row, size_t room)
{
    size_t n = 0;
    n += put_text(row + n, room - n, s->id);
    if (n < room)
        n += put_text(row + n, room - n, s->kind);
    if (n < room && !schema->implicit_model)
        n += put_text(row + n, room - n, schema->model);
    for (int i = 0; i < schema->nfields && n < room; i++) {
        const trapeze_field *f = &schema->fields[i];
        if (f->type == TRAPEZE_FIELD_TEXT)
            n += put_text(row + n, room - n, s->text[i]);
        else if (f->type == TRAPEZE_FIELD_INT)
            n += (size_t)snprintf(row + n, room - n, "%ld,", (long)s->value[i]);
        else
            n += (size_t)snprintf(row + n, room - n, "%.17g,", s->value[i]);
    }
    if (n < room && n > 0)
        row[n - 1] = '\n'; /* the last comma ends the row */
    return n < room ? n : 0;
}

trapeze_status trapeze_sample_log_append(trapeze_sample_log *log, const trapeze_sample *s,
                                         trapeze_error *err)
{
    if (!is_gz(log))
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: a log of %s rows, not ghost-zone ones",
                            log->path, log->schema->model);
    trapeze_sample_row row;
    trapeze_ghostzone_sample_to_row(s, &row);
    return trapeze_sample_log_append_row(log, &row, err);
}

trapeze_status trapeze_sample_log_append_row(trapeze_sample_log *log, const trapeze_sample_row *s,
                                             trapeze_error *err)
{
    char row[4096];
    if (s->schema != log->schema)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: a %s row in a log of %s rows", log->path,
                            s->schema ? s->schema->model : "?", log->schema->model);
    if (find_index(log, s->id) >= 0) {
        char q[128];
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "%s: sample id '%s' is already in the log; not appended twice",
                            log->path, trapeze_escape(s->id, strlen(s->id), q, sizeof q));
    }
    /* the reader's own check, so a row appended always reads back */
    trapeze_status st = sampler_row_check(s, log->path, log->count + 2, err);
    if (st)
        return st;
    size_t n = format_row(log->schema, s, row, sizeof row);
    if (!n)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: sample row too long", log->path);
    st = write_all(log, log->fd, row, n, err);
    return st ? st : keep(log, s, err);
}

static int rank_of(const trapeze_sample_row *s, const char *const *ids, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s->id, ids[i]) == 0)
            return i;
    return n;
}

/* Rows in the order of ids (rows without one keep their order, after). */
static void order_rows(trapeze_sample_row *rows, int count, const char *const *ids, int n)
{
    for (int i = 1; i < count; i++) { /* insertion sort: stable, logs are short */
        trapeze_sample_row r = rows[i];
        int key = rank_of(&r, ids, n), j = i;
        while (j > 0 && rank_of(&rows[j - 1], ids, n) > key) {
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = r;
    }
}

trapeze_status trapeze_sample_log_sort(trapeze_sample_log *log, const char *const *ids, int n,
                                       trapeze_error *err)
{
    int sorted = 1;
    for (int i = 1; i < log->count && sorted; i++)
        sorted = rank_of(&log->rows[i - 1], ids, n) <= rank_of(&log->rows[i], ids, n);
    if (sorted)
        return TRAPEZE_OK;
    order_rows(log->rows, log->count, ids, n);
    for (int i = 0; is_gz(log) && i < log->count; i++)
        trapeze_ghostzone_sample_from_row(&log->rows[i], &log->gz[i], NULL);
    trapeze_outfile *o;
    trapeze_status st = trapeze_outfile_open(log->path, &o, err);
    if (st)
        return st;
    int fd = trapeze_outfile_fd(o);
    int flags = fcntl(fd, F_GETFL);   /* appended to as the open log was */
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_APPEND) != 0)
        st = trapeze_fail(err, TRAPEZE_EIO, "%s: %s", log->path, strerror(errno));
    /* the new file is locked before it takes the name, so the lock never lapses */
    if (!st && flock(fd, LOCK_EX | LOCK_NB) != 0)
        st = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot lock the rewritten log: %s", log->path,
                          strerror(errno));
    int old = log->fd;
    log->fd = fd;
    if (!st)
        st = write_header(log, fd, err);
    for (int i = 0; i < log->count && !st; i++) {
        char row[4096];
        size_t len = format_row(log->schema, &log->rows[i], row, sizeof row);
        st = write_all(log, fd, row, len, err);
    }
    log->fd = old;
    if (st) {
        trapeze_outfile_abort(o);
        return st;
    }
    trapeze_outfile_keep_fd(o);
    if ((st = trapeze_outfile_commit(o, err)))
        return st;   /* the old file, still locked, is the log */
    log->fd = fd;
    close(old);
    return TRAPEZE_OK;
}
