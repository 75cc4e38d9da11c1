/*
 * fuzz_samples.c - the samples log (samples.csv, sweep logs). Invariants:
 * a log that opened opens again with the same rows and nothing left to
 * repair (repairs are idempotent); a refused file is left byte for byte as
 * it was; a new row appended is there on the next open; messages printable.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"data/calibrations/*-samples.csv",
                                  "data/validation/*-sweep.csv", "tests/fuzz/samples/*", NULL};

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 21);
    *n = buf ? fread(buf, 1, 1 << 21, f) : 0;
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 20))
        return 0;
    const char *path = fuzz_file("samples.csv", data, size);
    trapeze_sample_log *log;
    trapeze_error err = {0};
    if (trapeze_sample_log_open(path, &log, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        size_t n;
        char *now = slurp(path, &n);
        FUZZ_CHECK(now && n == size && memcmp(now, data, size) == 0); /* unchanged */
        free(now);
        return 0;
    }
    int count = trapeze_sample_log_count(log);
    trapeze_sample s = {.sync = TRAPEZE_SYNC_FENCE, .h = 2, .blk_len = 16,
                        .data_len = {512, 512, 1}, .stages = 3, .cycles = 900, .cpl_cycles = 150};
    snprintf(s.id, sizeof s.id, "fuzz/new-row");
    snprintf(s.kind, sizeof s.kind, "sim");
    int added = !trapeze_sample_log_find(log, s.id) &&
                trapeze_sample_log_append(log, &s, &err) == TRAPEZE_OK;
    trapeze_sample_log_close(log);
    FUZZ_CHECK(trapeze_sample_log_open(path, &log, &err) == TRAPEZE_OK);
    FUZZ_CHECK(trapeze_sample_log_note(log) == NULL);
    FUZZ_CHECK(trapeze_sample_log_count(log) == count + added);
    const trapeze_sample *got = trapeze_sample_log_find(log, "fuzz/new-row");
    FUZZ_CHECK(got != NULL);
    FUZZ_CHECK(!added || (got->cpl_cycles == 150 && got->h == 2));
    trapeze_sample_log_close(log);
    return 0;
}
