/*
 * fuzz.h - what the fuzz targets share. Each fuzz/fuzz_NAME.c is one parser's
 * libFuzzer target (LLVMFuzzerTestOneInput) and lists its seed files
 * (fuzz_seeds: glob patterns, from data/ and tests/fuzz/NAME/, where every
 * crash found is kept as a regression input). Built two ways:
 *   make fuzz      clang + libFuzzer + ASan/UBSan, runs each FUZZ_SECONDS
 *   make test      gcc + fuzz/driver.c: every seed and reproducer once, as
 *                  build/tests/test_fuzz_NAME
 * A target asserts invariants (FUZZ_CHECK), not just "no crash": e.g. a
 * samples log that opened once opens again with the same rows.
 */
#ifndef TRAPEZE_FUZZ_H
#define TRAPEZE_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern const char *const fuzz_seeds[];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                 \
        }                                                                            \
    } while (0)

/* data as the file `name` in a private temporary folder (made on first
 * use, per process); returns its path. fuzz/util.c. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);
/* Removes that folder and its files (the driver does, at the end). */
void fuzz_cleanup(void);
/* The promise of common/error.c: a message holds no control byte. */
int fuzz_printable(const char *msg);
/* Every warp's instructions of two opened traces of one kernel (kept
 * blocks or lines parsed again, plain or .xz) compared; aborts on a
 * difference or a streaming error. */
struct sim_trace_kernel;
void fuzz_same_streams(struct sim_trace_kernel *a, struct sim_trace_kernel *b);
/* Optional, per target: writes generated seed files into dir (seeds too
 * large or too binary to keep in the repository); seed_init.c and the
 * driver call it when the target defines it. */
void fuzz_make_seeds(const char *dir) __attribute__((weak));

#endif
