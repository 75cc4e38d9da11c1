/*
 * fuzz_workload.c - the workload INI. Invariants: an accepted workload has
 * 1 to 3 dimensions, whole positive halos and block edge, and a block that
 * leaves output at h = 1 (Eq. 5.20); every message is printable.
 */
#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"data/workloads/*.ini", "tests/fuzz/workload/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("workload.ini", data, size);
    trapeze_workload w;
    trapeze_error err = {0};
    if (trapeze_workload_load(path, &w, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    FUZZ_CHECK(w.dims >= 1 && w.dims <= TRAPEZE_MAX_DIMS && w.blk_len >= 1);
    for (int i = 0; i < w.dims; i++)
        FUZZ_CHECK(w.halo[i] >= 1 && w.blk_len - w.halo[i] >= 1 && w.data_len[i] >= 1);
    return 0;
}
