/*
 * samples.c - samples.csv, the calibration's append-only log of finished
 * samples. Owns the file format, crash safety (whole rows, fsync, torn last
 * line cut off) and lookup by id; must not plan or run samples.
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/text.h"

const char *const trapeze_sample_columns[] = {
    "sample_id", "kind", "workload", "gpu", "sync", "h", "blk_len", "size_0", "size_1",
    "size_2", "stages", "cycles", "cpl_cycles", "warp_instructions", "bank_conflicts"};
const int trapeze_sample_ncolumns =
    (int)(sizeof trapeze_sample_columns / sizeof trapeze_sample_columns[0]);

struct trapeze_sample_log {
    char *path;
    int fd;
    trapeze_sample *rows;
    int count, capacity;
};

typedef struct {
    char field[16][128];
    int n;
} row_fields;

static void on_field(void *s, size_t len, void *data)
{
    row_fields *r = data;
    if (r->n < 16) {
        size_t n = len < 127 ? len : 127;
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
    csv_fini(&p, on_field, NULL, r);
    csv_free(&p);
    return used == len;
}

static trapeze_status number(const char *path, int line, int col, const char *text, double *out,
                             trapeze_error *err)
{
    if (!trapeze_parse_double(text, out))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field %s: expected a number, got '%s'",
                            path, line, trapeze_sample_columns[col], text);
    return TRAPEZE_OK;
}

static trapeze_status to_sample(const char *path, int line, const row_fields *r,
                                trapeze_sample *s, trapeze_error *err)
{
    double v[16];
    trapeze_status st;
    if (r->n != trapeze_sample_ncolumns)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: %d fields, expected %d", path, line,
                            r->n, trapeze_sample_ncolumns);
    for (int c = 5; c < trapeze_sample_ncolumns; c++)
        if ((st = number(path, line, c, r->field[c], &v[c], err)))
            return st;
    memset(s, 0, sizeof *s);
    char *const dest[] = {s->id, s->kind, s->workload, s->gpu};
    const size_t room[] = {sizeof s->id, sizeof s->kind, sizeof s->workload, sizeof s->gpu};
    for (int c = 0; c < 4; c++) {
        if (strlen(r->field[c]) >= room[c])
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: field %s: longer than %zu characters",
                                path, line, trapeze_sample_columns[c], room[c] - 1);
        memcpy(dest[c], r->field[c], strlen(r->field[c]) + 1);
    }
    if (strcmp(r->field[4], "relaunch") != 0 && strcmp(r->field[4], "fence") != 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: field sync: expected relaunch or fence, got '%s'", path, line,
                            r->field[4]);
    s->sync = strcmp(r->field[4], "fence") == 0 ? TRAPEZE_SYNC_FENCE : TRAPEZE_SYNC_RELAUNCH;
    s->h = (int)v[5];
    s->blk_len = (int)v[6];
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        s->data_len[d] = v[7 + d];
    s->stages = (int)v[10];
    s->cycles = v[11];
    s->cpl_cycles = v[12];
    s->warp_instructions = v[13];
    s->bank_conflicts = v[14];
    if (s->h < 1 || s->blk_len < 1 || s->stages < 1 || !(s->cpl_cycles > 0))
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "%s:%d: h, blk_len, stages and cpl_cycles must be positive", path, line);
    return TRAPEZE_OK;
}

static trapeze_status keep(trapeze_sample_log *log, const trapeze_sample *s, trapeze_error *err)
{
    if (log->count == log->capacity) {
        int cap = log->capacity ? 2 * log->capacity : 64;
        trapeze_sample *grown = realloc(log->rows, (size_t)cap * sizeof *grown);
        if (!grown)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        log->rows = grown;
        log->capacity = cap;
    }
    log->rows[log->count++] = *s;
    return TRAPEZE_OK;
}

static trapeze_status write_all(trapeze_sample_log *log, const char *text, size_t len,
                                trapeze_error *err)
{
    /* one write() of a whole row: O_APPEND keeps concurrent rows whole */
    if (write(log->fd, text, len) != (ssize_t)len || fsync(log->fd) != 0)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot append: %s", log->path, strerror(errno));
    return TRAPEZE_OK;
}

/* Reads complete rows; a last line without '\n' is a torn write: cut off. */
static trapeze_status read_rows(trapeze_sample_log *log, const char *text, trapeze_error *err)
{
    size_t total = strlen(text), complete = 0;
    int line = 0;
    const char *p = text;
    trapeze_status st = TRAPEZE_OK;
    while (!st && *p) {
        const char *nl = strchr(p, '\n');
        if (!nl)
            break; /* torn */
        row_fields r;
        line++;
        if (!split_row(p, (size_t)(nl - p), &r)) {
            st = trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: malformed CSV", log->path, line);
        } else if (line == 1) {
            for (int c = 0; c < trapeze_sample_ncolumns && !st; c++)
                if (r.n != trapeze_sample_ncolumns || strcmp(r.field[c], trapeze_sample_columns[c]))
                    st = trapeze_fail(err, TRAPEZE_EPARSE,
                                      "%s:1: header: expected the columns %s,%s,...", log->path,
                                      trapeze_sample_columns[0], trapeze_sample_columns[1]);
        } else {
            trapeze_sample s;
            if (!(st = to_sample(log->path, line, &r, &s, err)))
                st = keep(log, &s, err);
        }
        p = nl + 1;
        complete = (size_t)(p - text);
    }
    if (!st && complete < total && ftruncate(log->fd, (off_t)complete) != 0)
        st = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot cut a torn last row: %s", log->path,
                          strerror(errno));
    return st;
}

static trapeze_status write_header(trapeze_sample_log *log, trapeze_error *err)
{
    char line[512] = "";
    for (int c = 0; c < trapeze_sample_ncolumns; c++) {
        strcat(line, trapeze_sample_columns[c]);
        strcat(line, c + 1 < trapeze_sample_ncolumns ? "," : "\n");
    }
    return write_all(log, line, strlen(line), err);
}

trapeze_status trapeze_sample_log_open(const char *path, trapeze_sample_log **out,
                                       trapeze_error *err)
{
    *out = NULL;
    trapeze_sample_log *log = calloc(1, sizeof *log);
    if (!log || !(log->path = trapeze_strdup(path))) {
        free(log);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    log->fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0644);
    if (log->fd < 0) {
        trapeze_status st = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", path,
                                         strerror(errno));
        trapeze_sample_log_close(log);
        return st;
    }
    char *text = NULL;
    trapeze_status st = trapeze_read_file(path, &text, err);
    if (!st)
        st = text[0] ? read_rows(log, text, err) : write_header(log, err);
    if (!st && text[0] && log->count == 0 && !strchr(text, '\n'))
        st = write_header(log, err); /* only a torn header was there */
    free(text);
    if (st) {
        trapeze_sample_log_close(log);
        return st;
    }
    *out = log;
    return TRAPEZE_OK;
}

void trapeze_sample_log_close(trapeze_sample_log *log)
{
    if (!log)
        return;
    if (log->fd >= 0)
        close(log->fd);
    free(log->rows);
    free(log->path);
    free(log);
}

int trapeze_sample_log_count(const trapeze_sample_log *log) { return log->count; }

const trapeze_sample *trapeze_sample_log_get(const trapeze_sample_log *log, int i)
{
    return i >= 0 && i < log->count ? &log->rows[i] : NULL;
}

const trapeze_sample *trapeze_sample_log_find(const trapeze_sample_log *log, const char *id)
{
    for (int i = 0; i < log->count; i++)
        if (strcmp(log->rows[i].id, id) == 0)
            return &log->rows[i];
    return NULL;
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

/* The CSV text of one row, '\n' included; 0 when it does not fit. */
static size_t format_row(const trapeze_sample *s, char *row, size_t room)
{
    size_t n = 0;
    const char *texts[] = {s->id, s->kind, s->workload, s->gpu, trapeze_sync_name(s->sync)};
    for (int i = 0; i < 5 && n < room; i++)
        n += put_text(row + n, room - n, texts[i]);
    if (n < room)
        n += (size_t)snprintf(row + n, room - n,
                              "%d,%d,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g\n", s->h,
                              s->blk_len, s->data_len[0], s->data_len[1], s->data_len[2],
                              s->stages, s->cycles, s->cpl_cycles, s->warp_instructions,
                              s->bank_conflicts);
    return n < room ? n : 0;
}

trapeze_status trapeze_sample_log_append(trapeze_sample_log *log, const trapeze_sample *s,
                                         trapeze_error *err)
{
    char row[1024];
    size_t n = format_row(s, row, sizeof row);
    if (!n)
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: sample row too long", log->path);
    trapeze_status st = write_all(log, row, n, err);
    return st ? st : keep(log, s, err);
}

static int rank_of(const trapeze_sample *s, const char *const *ids, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s->id, ids[i]) == 0)
            return i;
    return n;
}

/* Rows in the order of ids (rows without one keep their order, after). */
static void order_rows(trapeze_sample *rows, int count, const char *const *ids, int n)
{
    for (int i = 1; i < count; i++) { /* insertion sort: stable, logs are short */
        trapeze_sample r = rows[i];
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
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", log->path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    if (fd < 0)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    int old = log->fd;
    log->fd = fd;
    trapeze_status st = write_header(log, err);
    for (int i = 0; i < log->count && !st; i++) {
        char row[1024];
        size_t len = format_row(&log->rows[i], row, sizeof row);
        st = write_all(log, row, len, err);
    }
    if (!st && rename(tmp, log->path) != 0)
        st = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot replace: %s", log->path, strerror(errno));
    if (st) {
        close(fd);
        remove(tmp);
        log->fd = old;
        return st;
    }
    close(old);
    return TRAPEZE_OK;
}
