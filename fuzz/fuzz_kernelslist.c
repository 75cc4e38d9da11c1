/*
 * fuzz_kernelslist.c - kernelslist.g: memcpy lines, kernel-N.traceg names,
 * comments. Invariants: every accepted kernel path lies in the list's
 * folder; messages printable.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "sim/core/gpu_sim.h"
#include "sim/trace/trace.h"

const char *const fuzz_seeds[] = {"data/traces/*/kernelslist.g", "tests/fuzz/kernelslist/*",
                                  NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("kernelslist.g", data, size);
    sim_trace_list l = {0};
    trapeze_error err = {0};
    if (sim_trace_list_read(path, &l, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    size_t dir = (size_t)(strrchr(path, '/') - path) + 1;
    for (int i = 0; i < l.n; i++)
        FUZZ_CHECK(strncmp(l.kernels[i], path, dir) == 0);
    sim_trace_list_free(&l);
    return 0;
}
