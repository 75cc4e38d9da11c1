/*
 * fuzz_trace.c - an Accel-Sim kernel-N.traceg: the header (-key = value),
 * the thread-block sections and every instruction line (the opening pass
 * reads them all). Invariants: an accepted trace has a grid and block of at
 * least one, no more blocks than the file can hold; messages printable; and
 * its blocks kept decoded give the simulator the same instructions as its
 * lines parsed again while it runs.
 */
#include "fuzz/fuzz.h"
#include "sim/core/gpu_sim.h"
#include "sim/trace/trace.h"

const char *const fuzz_seeds[] = {"data/traces/*/*.traceg", "tests/fuzz/trace/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("kernel-1.traceg", data, size);
    sim_trace_kernel *t;
    trapeze_error err = {0};
    if (sim_trace_kernel_open(path, &t, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    const sim_kernel *k = sim_trace_kernel_sim(t);
    long long blocks = (long long)k->grid.x * k->grid.y * k->grid.z;
    FUZZ_CHECK(k->grid.x >= 1 && k->grid.y >= 1 && k->grid.z >= 1);
    FUZZ_CHECK(blocks <= (long long)size / 32 + 1);
    FUZZ_CHECK(sim_kernel_block_threads(k) >= 1);
    sim_trace_kernel *r;
    if (!sim_trace_kernel_open_keep(path, 0, &r, &err)) {
        fuzz_same_streams(t, r);
        sim_trace_kernel_close(r);
    }
    sim_trace_kernel_close(t);
    return 0;
}
