/*
 * fuzz_idle.c - the idle-period CSV (trapeze sim --idle-csv, read by
 * trapeze sleep). Invariants: an accepted file's counts are finite and
 * >= 0 and its names within their bounds; written back with
 * trapeze_idle_hist_write_rows and loaded again it gives the same
 * histograms, in the same order, with the same names and counts.
 */
#include <math.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"tests/fuzz/idle/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("idle.csv", data, size);
    trapeze_idle_hist *h = NULL, *g = NULL;
    int n = 0, m = 0;
    trapeze_error err = {0};
    if (trapeze_idle_csv_load(path, &h, &n, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message) && h == NULL);
        return 0;
    }
    FUZZ_CHECK(n >= 1);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(h[i].gpu[0] && strlen(h[i].kernel) < TRAPEZE_IDLE_NAME_MAX);
        for (int a = 0; a < TRAPEZE_NEXT_N; a++)
            for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
                FUZZ_CHECK(isfinite(h[i].count[a][b]) && h[i].count[a][b] >= 0);
    }
    char again[600];
    snprintf(again, sizeof again, "%s.again.csv", path);
    trapeze_csv_out *csv = NULL;
    FUZZ_CHECK(trapeze_csv_create(again, trapeze_idle_csv_columns, trapeze_idle_csv_ncolumns,
                                  &csv, &err) == TRAPEZE_OK);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(trapeze_idle_hist_write_rows(&h[i], csv, &err) == TRAPEZE_OK);
    FUZZ_CHECK(trapeze_csv_commit(csv, &err) == TRAPEZE_OK);
    /* a histogram whose counts are all 0 writes no row */
    int written = 0;
    for (int i = 0; i < n; i++)
        written += trapeze_idle_hist_periods(&h[i], -1) > 0;
    trapeze_status s = trapeze_idle_csv_load(again, &g, &m, &err);
    if (!written) {
        FUZZ_CHECK(s == TRAPEZE_EPARSE);
    } else {
        if (s)
            fprintf(stderr, "reload: %s\n", err.message);
        FUZZ_CHECK(s == TRAPEZE_OK && m == written);
        for (int i = 0, j = 0; i < n && s == TRAPEZE_OK; i++) {
            if (!(trapeze_idle_hist_periods(&h[i], -1) > 0))
                continue;
            FUZZ_CHECK(!strcmp(h[i].gpu, g[j].gpu) && !strcmp(h[i].kernel, g[j].kernel) &&
                       !strcmp(h[i].structure, g[j].structure) &&
                       !strcmp(h[i].granularity, g[j].granularity));
            FUZZ_CHECK(!memcmp(h[i].count, g[j].count, sizeof h[i].count));
            j++;
        }
    }
    free(h);
    free(g);
    return 0;
}
