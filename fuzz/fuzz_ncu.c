/*
 * fuzz_ncu.c - an Nsight Compute CSV export (`ncu --csv --page raw`), read
 * through the importer's public entry point, trapeze_ncu_import, as a
 * HotSpot relaunch run (512x512, 16-wide blocks) at h = 2 on the GTX 480
 * (kept thin: the importer's own checks are its business). Invariants:
 * messages printable; an accepted export gives at least one launch and a
 * sample of at least one cycle per launch, finite, with finite counters
 * >= 0; importing it again gives the same sample.
 */
#include <math.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"tests/fuzz/ncu/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("ncu.csv", data, size);
    trapeze_ncu_options o;
    trapeze_ncu_options_init(&o);
    o.workload = "HotSpot";
    o.gpu = "gtx480";
    o.sync = TRAPEZE_SYNC_RELAUNCH;
    o.h = 2;
    o.blk_len = 16;
    o.data_len[0] = o.data_len[1] = 512;
    trapeze_sample a, b;
    trapeze_ncu_summary sa, sb;
    trapeze_error err = {0};
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (trapeze_ncu_import(path, &o, &a, &sa, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    FUZZ_CHECK(sa.launches >= 1);
    FUZZ_CHECK(isfinite(a.cycles) && a.cycles >= sa.launches);
    FUZZ_CHECK(isfinite(a.cpl_cycles) && a.cpl_cycles > 0);
    FUZZ_CHECK(isfinite(a.warp_instructions) && a.warp_instructions >= 0);
    FUZZ_CHECK(isfinite(a.bank_conflicts) && a.bank_conflicts >= 0);
    FUZZ_CHECK(isfinite(sa.dram_read_bytes) && sa.dram_read_bytes >= 0);
    FUZZ_CHECK(isfinite(sa.dram_write_bytes) && sa.dram_write_bytes >= 0);
    FUZZ_CHECK(trapeze_ncu_import(path, &o, &b, &sb, &err) == TRAPEZE_OK);
    FUZZ_CHECK(!memcmp(&a, &b, sizeof a) && sa.launches == sb.launches);
    return 0;
}
