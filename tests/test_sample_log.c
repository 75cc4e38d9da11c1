/*
 * Tests of samples.csv: rows survive a reopen exactly, a torn last row (a
 * crash in mid-write) is cut off and nothing finished is lost, and malformed
 * rows are errors naming file, line and field. Then the bad-input cases:
 * a NUL byte, a foreign (binary) file, a hand-appended row without a final
 * newline, a second run on the same log, a repeated id, out-of-range numbers:
 * each an error that changes nothing, or a repair that is reported.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "trapeze.h"

static trapeze_sample make(int i)
{
    trapeze_sample s = {.sync = i % 2 ? TRAPEZE_SYNC_FENCE : TRAPEZE_SYNC_RELAUNCH,
                        .h = 1 + i, .blk_len = 16, .data_len = {512, 256, 1}, .stages = 3,
                        .cycles = 1000.25 * (i + 1), .warp_instructions = 4096.0 * i};
    snprintf(s.id, sizeof s.id, "hotspot/h%d,\"odd\" id", i); /* needs CSV quoting */
    snprintf(s.kind, sizeof s.kind, "sim");
    snprintf(s.workload, sizeof s.workload, "HotSpot");
    snprintf(s.gpu, sizeof s.gpu, "gtx480");
    s.cpl_cycles = s.cycles / (s.stages * s.h) + 0.1;
    return s;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static void spill(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(bytes, 1, len, f);
    fclose(f);
}

/* Opening must fail with `code` and a message containing `text`, and leave
 * the file byte for byte as it was. */
static void refused(const char *path, trapeze_status code, const char *text)
{
    size_t before_len, after_len;
    char *before = slurp(path, &before_len);
    trapeze_sample_log *log = NULL;
    trapeze_error err = {0};
    trapeze_status st = trapeze_sample_log_open(path, &log, &err);
    CHECK(st == code);
    CHECK(log == NULL);
    if (!strstr(err.message, text))
        fprintf(stderr, "message '%s' lacks '%s'\n", err.message, text);
    CHECK(strstr(err.message, text) != NULL);
    char *after = slurp(path, &after_len);
    CHECK(before && after && before_len == after_len && memcmp(before, after, after_len) == 0);
    free(before);
    free(after);
    trapeze_sample_log_close(log);
}

/* A log of n rows written by the library; returns its bytes. */
static char *fresh_log(const char *path, int n, size_t *len)
{
    trapeze_sample_log *log;
    trapeze_error err;
    remove(path);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    for (int i = 0; i < n; i++) {
        trapeze_sample s = make(i);
        CHECK_OK(trapeze_sample_log_append(log, &s, &err));
    }
    trapeze_sample_log_close(log);
    return slurp(path, len);
}

static void test_bad_files(const char *path)
{
    size_t len;
    char *text = fresh_log(path, 6, &len);
    /* a NUL byte in row 5 (line 6): refused, nothing cut */
    char *row5 = text;
    for (int l = 1; l < 6; l++)
        row5 = strchr(row5, '\n') + 1;
    row5[3] = '\0';
    spill(path, text, len);
    refused(path, TRAPEZE_EPARSE, "test_sample_log.csv:6: a NUL byte");
    /* a gzip file given as the log */
    static const char gz[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48\xcd\xc9\xc9\x07\x00";
    spill(path, gz, sizeof gz - 1);
    refused(path, TRAPEZE_EPARSE, "test_sample_log.csv:1: not a samples log");
    /* some other CSV whose first line ends */
    spill(path, "x,y\n1,2\n", 8);
    refused(path, TRAPEZE_EPARSE, ":1: not a samples log");
    /* out-of-range numbers: named, not cast */
    free(text);
    text = fresh_log(path, 2, &len);
    FILE *f = fopen(path, "a");
    fputs("big,sim,HotSpot,gtx480,relaunch,4294967298,16,512,256,1,3,9,1,1,0\n", f);
    fclose(f);
    refused(path, TRAPEZE_ERANGE, "test_sample_log.csv:4: field h: 4294967298 is outside [1, 2147483647]");
    spill(path, text, len);
    f = fopen(path, "a");
    fputs("half,sim,HotSpot,gtx480,relaunch,2,16.5,512,256,1,3,9,1,1,0\n", f);
    fclose(f);
    refused(path, TRAPEZE_EPARSE, ":4: field blk_len: expected an integer");
    /* a repeated id: a fit would count the row twice */
    spill(path, text, len);
    f = fopen(path, "a");
    fputs("hotspot/h9,sim,HotSpot,gtx480,relaunch,2,16,512,256,1,3,9,1,1,0\n"
          "hotspot/h9,sim,HotSpot,gtx480,relaunch,2,16,512,256,1,3,9,1,1,0\n", f);
    fclose(f);
    refused(path, TRAPEZE_EPARSE, ":5: sample id 'hotspot/h9' is already on line 4");
    free(text);
}

/* A log past the size a file read whole may be (256 MiB; a sparse file,
 * so no disk is used) is refused by name as it is read, and left as it
 * is; a log given through a symbolic link is refused (its sorted rewrite
 * would replace the link). */
static void test_size_and_link(const char *path)
{
    trapeze_sample_log *log = NULL;
    trapeze_error err = {0};
    remove(path);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs("id\n", f) >= 0 && fclose(f) == 0);
    CHECK(truncate(path, (off_t)((256 << 20) + 1)) == 0);
    CHECK(trapeze_sample_log_open(path, &log, &err) != TRAPEZE_OK && log == NULL);
    CHECK(strstr(err.message, "test_sample_log.csv: larger than 256 MiB") != NULL);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size == (256 << 20) + 1);
    remove(path);
    size_t len;
    free(fresh_log(path, 1, &len));
    char link[256];
    snprintf(link, sizeof link, "%s.link", path);
    remove(link);
    CHECK(symlink("test_sample_log.csv", link) == 0);
    CHECK(trapeze_sample_log_open(link, &log, &err) == TRAPEZE_EIO && log == NULL);
    CHECK(strstr(err.message, ".link: is a symbolic link") != NULL);
    remove(link);
}

static void test_repairs(const char *path)
{
    size_t len;
    char *text = fresh_log(path, 3, &len);
    trapeze_sample_log *log;
    trapeze_error err;
    /* a hand-appended measurement without a final newline is kept */
    FILE *f = fopen(path, "a");
    fputs("lab/1,measured,HotSpot,gtx480,fence,2,16,512,256,1,3,900,150,1,0", f);
    fclose(f);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 4);
    const trapeze_sample *m = trapeze_sample_log_find(log, "lab/1");
    CHECK(m && m->cpl_cycles == 150 && m->sync == TRAPEZE_SYNC_FENCE);
    CHECK(trapeze_sample_log_note(log) && strstr(trapeze_sample_log_note(log), ":5: the last row had no final newline"));
    trapeze_sample s = make(7);
    CHECK_OK(trapeze_sample_log_append(log, &s, &err));
    trapeze_sample_log_close(log);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 5 && trapeze_sample_log_note(log) == NULL);
    trapeze_sample_log_close(log);
    /* ... but a malformed one is refused, not dropped */
    spill(path, text, len);
    f = fopen(path, "a");
    fputs("lab/2,measured,HotSpot,gtx480,fence,2,16,512,256,1,3,900", f);
    fclose(f);
    refused(path, TRAPEZE_EPARSE, ":5: 12 fields, expected 15");
    /* a torn row of the program's own kind is cut, and said so */
    spill(path, text, len);
    f = fopen(path, "a");
    fputs("hotspot/h3,sim,HotSpot,gtx480,relaunch,2,16,512,256,1,3,900,150,1,12", f);
    fclose(f);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 3);
    CHECK(trapeze_sample_log_note(log) && strstr(trapeze_sample_log_note(log), ":5: cut a partial last row"));
    trapeze_sample_log_close(log);
    size_t now_len;
    char *now = slurp(path, &now_len);
    CHECK(now_len == len && memcmp(now, text, len) == 0);
    free(now);
    /* a header cut short (killed while creating the log) is rewritten */
    spill(path, "sample_id,ki", 12);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 0);
    trapeze_sample_log_close(log);
    now = slurp(path, &now_len);
    CHECK(now_len == (size_t)(strchr(text, '\n') - text + 1) && memcmp(now, text, now_len) == 0);
    free(now);
    free(text);
}

static void test_one_writer(const char *path)
{
    size_t len;
    char *text = fresh_log(path, 2, &len);
    trapeze_sample_log *a, *b = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_sample_log_open(path, &a, &err));
    CHECK(trapeze_sample_log_open(path, &b, &err) == TRAPEZE_EIO && b == NULL);
    CHECK(strstr(err.message, "in use by another run") != NULL);
    /* an id already there is not appended again */
    trapeze_sample s = make(1);
    CHECK(trapeze_sample_log_append(a, &s, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "already in the log") != NULL);
    /* the lock survives the rewrite of a sort */
    trapeze_sample s0 = make(0), s1 = make(1);
    const char *id1 = s1.id, *order[] = {s1.id, s0.id};
    CHECK_OK(trapeze_sample_log_sort(a, order, 2, &err));
    CHECK(trapeze_sample_log_open(path, &b, &err) == TRAPEZE_EIO && b == NULL);
    trapeze_sample_log_close(a);
    CHECK_OK(trapeze_sample_log_open(path, &b, &err));
    CHECK(trapeze_sample_log_count(b) == 2 && strcmp(trapeze_sample_log_get(b, 0)->id, id1) == 0);
    trapeze_sample_log_close(b);
    free(text);
}

/* A row the reader would refuse is refused on append too (the same check),
 * and the file is unchanged: zero, non-finite, tiny and huge cycles, a NaN,
 * a line break in the id. Before, each was written, and every later open of
 * the log failed until the row was removed by hand. */
static void test_append_checked(const char *path)
{
    trapeze_sample_log *log;
    trapeze_error err;
    remove(path);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    trapeze_sample ok = make(0);
    CHECK_OK(trapeze_sample_log_append(log, &ok, &err));
    size_t before_len, after_len;
    char *before = slurp(path, &before_len);
    static const struct {
        double cycles, cpl;
        const char *id, *message;
    } bad[] = {
        {0, 1, "zero", ":3: field cycles: 0 is outside [1, 1e+15]"},
        {1e-300, 1, "tiny", ":3: field cycles: 1e-300 is outside [1, 1e+15]"},
        {INFINITY, 1, "inf", ":3: field cycles: inf is outside [1, 1e+15]"},
        {2e15, 1, "huge", ":3: field cycles: 2e+15 is outside [1, 1e+15]"},
        {100, NAN, "nan", ":3: field cpl_cycles: nan is outside [0, 1e+15]"},
        {100, 0, "zero cpl", ":3: field cpl_cycles: must be positive"},
        {100, 1, "run\n.csv", ":3: field sample_id: 'run\\x0a.csv' holds a line break"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        trapeze_sample s = make(1);
        s.cycles = bad[i].cycles;
        s.cpl_cycles = bad[i].cpl;
        snprintf(s.id, sizeof s.id, "%s", bad[i].id);
        CHECK(trapeze_sample_log_append(log, &s, &err) != TRAPEZE_OK);
        CHECK(strstr(err.message, bad[i].message) != NULL);
        if (!strstr(err.message, bad[i].message))
            fprintf(stderr, "  got: %s\n", err.message);
    }
    CHECK(trapeze_sample_log_count(log) == 1);
    trapeze_sample_log_close(log);
    char *after = slurp(path, &after_len);
    CHECK(before && after && before_len == after_len && memcmp(before, after, after_len) == 0);
    free(before);
    free(after);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err)); /* and it still reads */
    CHECK(trapeze_sample_log_count(log) == 1);
    trapeze_sample_log_close(log);
}

int main(void)
{
    const char *path = "build/test_sample_log.csv";
    trapeze_sample_log *log;
    trapeze_error err;
    remove(path);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    for (int i = 0; i < 3; i++) {
        trapeze_sample s = make(i);
        CHECK_OK(trapeze_sample_log_append(log, &s, &err));
    }
    trapeze_sample_log_close(log);

    /* a crash in the middle of writing the fourth row */
    FILE *f = fopen(path, "a");
    fputs("hotspot/h3,sim,HotSpot,gtx480,fen", f);
    fclose(f);

    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 3);
    CHECK(trapeze_sample_log_note(log) && strstr(trapeze_sample_log_note(log), ":5: cut a partial last row"));
    for (int i = 0; i < 3; i++) {
        trapeze_sample want = make(i);
        const trapeze_sample *got = trapeze_sample_log_find(log, want.id);
        CHECK(got != NULL);
        if (!got)
            continue;
        CHECK(strcmp(got->kind, "sim") == 0 && strcmp(got->workload, "HotSpot") == 0 &&
              strcmp(got->gpu, "gtx480") == 0);
        CHECK(got->sync == want.sync && got->h == want.h && got->blk_len == 16 &&
              got->stages == 3);
        CHECK(got->data_len[0] == 512 && got->data_len[1] == 256 && got->data_len[2] == 1);
        /* the same doubles, not approximately */
        CHECK(got->cycles == want.cycles && got->cpl_cycles == want.cpl_cycles &&
              got->warp_instructions == want.warp_instructions);
    }
    CHECK(trapeze_sample_log_find(log, "hotspot/h3") == NULL); /* still to run */
    trapeze_sample s = make(3);
    CHECK_OK(trapeze_sample_log_append(log, &s, &err));
    trapeze_sample_log_close(log);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 4);
    trapeze_sample_log_close(log);

    /* malformed content is an error naming file, line and field */
    f = fopen(path, "a");
    fputs("x,sim,HotSpot,gtx480,relaunch,2,16,512,256,1,3,many,1,1,0\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open(path, &log, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "test_sample_log.csv:6: field cycles: expected a number in [1, 1e+15]") != NULL);
    CHECK(strstr(err.message, "got 'many'") != NULL);
    remove(path);
    f = fopen(path, "w");
    fputs("a,b\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open(path, &log, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":1: not a samples log") != NULL);
    test_bad_files(path);
    test_size_and_link(path);
    test_repairs(path);
    test_one_writer(path);
    test_append_checked(path);
    remove(path);
    return check_report("test_sample_log");
}
