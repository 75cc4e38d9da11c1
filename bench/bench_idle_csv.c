/*
 * bench_idle_csv.c - reading the idle-period CSV (trapeze sleep --idle-csv)
 * as it grows fourfold: K kernels whose names share their first 70 bytes,
 * three rows each (l1d, l2, rf), the rows of a structure together, so that
 * every row looks its kernel up among all of them. Prints rows per second,
 * which stay flat when the reading is linear in the file's size, and the
 * histograms' memory (sizeof(trapeze_idle_hist) each). Files go to /tmp
 * and are removed. Prints figures, asserts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/bench_common.h"
#include "trapeze.h"

static int write_csv(const char *path, int kernels)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "gpu,kernel,structure,granularity,length_min_cycles,length_max_cycles,"
               "next_access,count\n");
    static const char *const key[3] = {"l1d,line", "l2,slice", "rf,warp_reg"};
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < kernels; k++)
            fprintf(f, "gtx480,\"void stencil<float, 3>(float const*, float*, int, int, int, "
                       "int) variant_%06d\",%s,%d,%d,read,%d\n",
                    k, key[s], k % 1000 + 1, k % 1000 + 1, s + 1);
    return fclose(f) != 0;
}

int main(void)
{
    char path[] = "/tmp/trapeze-bench-idle-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    printf("idle-period CSV read (trapeze_idle_csv_load), names sharing 70 bytes, 3 rows a "
           "kernel:\n");
    int rc = 0;
    for (int kernels = 250; !rc && kernels <= 4000; kernels *= 4) {
        if (write_csv(path, kernels)) {
            rc = 1;
            break;
        }
        trapeze_idle_hist *h = NULL;
        int n = 0;
        trapeze_error err;
        double t0 = now();
        if (trapeze_idle_csv_load(path, &h, &n, &err)) {
            fprintf(stderr, "bench_idle_csv: %s\n", err.message);
            rc = 1;
            break;
        }
        double s = now() - t0;
        printf("  %6d kernels, %6d rows: %.3f s, %.0f rows/s, %d histograms (%.0f MB)\n",
               kernels, 3 * kernels, s, 3 * kernels / s, n,
               (double)n * sizeof *h / 1048576.0);
        free(h);
    }
    remove(path);
    return rc;
}
