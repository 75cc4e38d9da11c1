/*
 * fuzz_inst.c - single trace lines: every line of the input through the
 * instruction parser (first byte: tracer version 3 to 5 and line info), and
 * through the `key = number` reader. Invariants: an accepted instruction
 * has a valid access size and only addresses of active lanes set; parsing
 * through the opcode cache (shared by the input's lines) gives the same
 * answer, instruction and classification as parsing without it.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "sim/trace/parse.h"

const char *const fuzz_seeds[] = {"data/traces/*/*.traceg", "tests/fuzz/inst/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    sim_trace_format f = {.version = 3 + data[0] % 3, .lineinfo = (data[0] >> 2) & 1,
                          .shmem_base = 0x00007f0000000000ull,
                          .local_base = 0x00007f0001000000ull};
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    sim_trace_memo cache;   /* this input's lines share it */
    memset(&cache, 0, sizeof cache);
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        sim_warp_inst in;
        sim_trace_class cls;
        const char *at = NULL;
        memset(&in, 0, sizeof in);
        const char *what = sim_trace_parse_inst(&f, NULL, p, e, &in, &cls, &at);
        sim_warp_inst in2;
        sim_trace_class cls2;
        const char *at2 = NULL;
        memset(&in2, 0, sizeof in2);
        const char *what2 = sim_trace_parse_inst(&f, &cache, p, e, &in2, &cls2, &at2);
        FUZZ_CHECK(what == what2 && at == at2);
        FUZZ_CHECK(what || (!memcmp(&in, &in2, sizeof in) && !memcmp(&cls, &cls2, sizeof cls)));
        if (!what) {
            FUZZ_CHECK(in.size == 0 || in.size == 1 || in.size == 2 || in.size == 4 ||
                       in.size == 8 || in.size == 16);
            for (int l = 0; l < SIM_WARP_LANES; l++)
                FUZZ_CHECK((in.active >> l & 1) || in.addr[l] == 0);
        } else {
            FUZZ_CHECK(!at || (at >= p && at <= e));
        }
        long long v;
        (void)sim_trace_key_number(p, e, "insts =", 1LL << 40, &v);
        p = e + 1;
    }
    return 0;
}
