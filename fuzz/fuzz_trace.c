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
#include "sim/trace/parse.h"
#include "sim/trace/trace.h"

#include <string.h>

/* Every warp's instructions from kept (its blocks decoded by the opening
 * pass) and from read (its lines parsed again as they run), compared. */
static void same_streams(sim_trace_kernel *kept, sim_trace_kernel *read)
{
    const sim_kernel *ka = sim_trace_kernel_sim(kept), *kb = sim_trace_kernel_sim(read);
    static sim_warp_cursor ca, cb;
    uint32_t regs[64] = {0};
    int warps = (sim_kernel_block_threads(ka) + 31) / 32;
    for (int z = 0; z < ka->grid.z; z++)
        for (int y = 0; y < ka->grid.y; y++)
            for (int x = 0; x < ka->grid.x; x++)
                for (int w = 0; w < warps; w++) {
                    memset(&ca, 0, sizeof ca);
                    memset(&cb, 0, sizeof cb);
                    ka->source->warp_start(ka->source_self, ka, &ca, x, y, z, w);
                    kb->source->warp_start(kb->source_self, kb, &cb, x, y, z, w);
                    sim_warp_inst ia, ib;
                    memset(&ia, 0, sizeof ia);
                    memset(&ib, 0, sizeof ib);
                    int ma, mb;
                    do {
                        ma = ka->source->next(ka->source_self, ka, &ca, regs, &ia);
                        mb = kb->source->next(kb->source_self, kb, &cb, regs, &ib);
                        FUZZ_CHECK(ma == mb);
                        FUZZ_CHECK(!ma || (ia.op == ib.op && ia.active == ib.active &&
                                           ia.pc == ib.pc && ia.dst == ib.dst && ia.unit == ib.unit &&
                                           !memcmp(ia.src, ib.src, sizeof ia.src)));
                        if (ma && sim_trace_op_is_memory(ia.op))
                            FUZZ_CHECK(!memcmp(ia.addr, ib.addr, sizeof ia.addr));
                    } while (ma && mb);
                    ka->source->warp_end(ka->source_self, &ca);
                    kb->source->warp_end(kb->source_self, &cb);
                }
    FUZZ_CHECK(sim_trace_kernel_status(kept, NULL) == TRAPEZE_OK &&
               sim_trace_kernel_status(read, NULL) == TRAPEZE_OK);
}

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
        same_streams(t, r);
        sim_trace_kernel_close(r);
    }
    sim_trace_kernel_close(t);
    return 0;
}
