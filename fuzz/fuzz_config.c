/*
 * fuzz_config.c - the GPU config (gpgpusim.config): tokenizing, the model's
 * hardware summary, and the simulator's core and memory options. Invariants:
 * what is accepted lies in the documented ranges; every message is printable.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "sim/core/gpu_sim.h"
#include "sim/mem/mem_config.h"

const char *const fuzz_seeds[] = {"data/gpus/*.config", "tests/fuzz/config/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("gpgpusim.config", data, size);
    trapeze_config *cfg;
    trapeze_error err = {0};
    if (trapeze_config_load(path, &cfg, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    trapeze_gpu gpu;
    if (trapeze_gpu_from_config(cfg, &gpu, &err) == TRAPEZE_OK) {
        FUZZ_CHECK(gpu.n_sm >= 1 && gpu.n_sm <= 4096);
        FUZZ_CHECK(gpu.warp_size >= 1 && gpu.max_threads_per_sm >= 1 && gpu.regs_per_sm >= 1);
        FUZZ_CHECK(gpu.shmem_per_block >= 0 && gpu.shmem_per_block <= gpu.shmem_per_sm);
        FUZZ_CHECK(gpu.core_clock_hz > 0 && gpu.dram_bandwidth_bps > 0);
    }
    FUZZ_CHECK(fuzz_printable(err.message));
    sim_core_config core;
    if (sim_core_config_read(cfg, &core, &err) == TRAPEZE_OK) {
        sim_mem_config mem;
        if (sim_mem_config_read(cfg, core.gpu.n_sm, &mem, &err) == TRAPEZE_OK)
            FUZZ_CHECK(mem.n_mem >= 1 && mem.atom_bytes >= 1);
    }
    FUZZ_CHECK(fuzz_printable(err.message));
    trapeze_config_destroy(cfg);
    return 0;
}
