/*
 * probe.c - stand-alone drives of the memory system for tests and
 * benchmarks: the unloaded latency of one miss and the bandwidth reached
 * by saturating sequential loads. Owns only these drivers (they use the
 * public interface, as the SM does); nothing here is timed by the wall
 * clock.
 */
#include <stdlib.h>

#include "common/error.h"
#include "sim/mem/memsys_impl.h"

trapeze_status sim_memsys_probe_latency(const trapeze_config *cfg, int n_sm, uint64_t *cycles,
                                        trapeze_error *err)
{
    sim_memsys *m;
    trapeze_status s = sim_memsys_create(cfg, n_sm, NULL, &m, err);
    if (s)
        return s;
    sim_mem_request r = {0};
    r.addr = 0;
    r.sector_mask = 0xf;
    r.bytes = 4;
    r.op = SIM_MEM_LOAD;
    sim_memsys_offer(m, &r, 0, NULL);   /* as the SM offers it */
    *cycles = 0;
    for (uint64_t c = 0; c < 1000000; c++) {
        sim_memsys_cycle(m, c);
        sim_mem_request done;
        if (sim_memsys_pop(m, 0, c, &done)) {
            *cycles = c;
            break;
        }
    }
    sim_memsys_destroy(m);
    return TRAPEZE_OK;
}

trapeze_status sim_memsys_probe_stream(const trapeze_config *cfg, int n_sm, uint64_t lines,
                                       double *achieved, double *peak, trapeze_error *err)
{
    sim_memsys *m;
    trapeze_status s = sim_memsys_create(cfg, n_sm, NULL, &m, err);
    if (s)
        return s;
    *peak = sim_memsys_dram_peak(m);
    uint64_t per_sm = (lines + (uint64_t)n_sm - 1) / (uint64_t)n_sm, c = 0;
    uint64_t *next = calloc((size_t)n_sm, sizeof *next);
    if (!next) {
        sim_memsys_destroy(m);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    /* SM s streams its own contiguous block, as a grid-stride copy's TBs do. */
    for (int busy = 1; busy || sim_memsys_outstanding(m); c++) {
        busy = 0;
        for (int sm = 0; sm < n_sm; sm++) {
            sim_mem_request done;
            while (sim_memsys_pop(m, sm, c, &done))
                ;
            if (next[sm] >= per_sm)
                continue;
            busy = 1;
            sim_mem_request r = {0};
            r.addr = ((uint64_t)sm * per_sm + next[sm]) * SIM_LINE_BYTES;
            r.sector_mask = 0xf;
            r.bytes = SIM_LINE_BYTES;
            r.op = SIM_MEM_LOAD;
            r.sm = (uint16_t)sm;
            r.issue_cycle = c;
            if (sim_memsys_offer(m, &r, c, NULL) != SIM_MEM_RESERVATION_FAIL)
                next[sm]++;
        }
        sim_memsys_cycle(m, c);
    }
    *achieved = (double)sim_memsys_stats(m)->dram_bytes_read / (double)c;
    free(next);
    sim_memsys_destroy(m);
    return TRAPEZE_OK;
}
