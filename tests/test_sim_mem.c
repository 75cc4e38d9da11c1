/*
 * test_sim_mem.c - the memory system (sim/mem/) against numbers worked out
 * by hand from the configs: coalescing, bank conflicts, config errors,
 * address mapping, L1D reservation failures by cause, the latency of one
 * miss, DRAM row hits and misses, stores, atomics, idle skipping,
 * determinism. Every test ends with every accepted request completed.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/text.h"
#include "sim/mem/addrmap.h"
#include "sim/mem/cache.h"
#include "sim/mem/clock.h"
#include "sim/mem/mem_config.h"
#include "sim/mem/mem_stats.h"
#include "sim/mem/memsys_impl.h"
#include "sim/mem/popcount.h"
#include "sim/memsys.h"

/* ---- helpers ---- */

/* A GPU config, optionally with options appended (the last one wins). */
static trapeze_config *config(const char *path, const char *extra)
{
    char *text = NULL;
    trapeze_error err;
    trapeze_config *cfg = NULL;
    if (trapeze_read_file(path, &text, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    size_t n = strlen(text) + (extra ? strlen(extra) : 0) + 2;
    char *all = malloc(n);
    snprintf(all, n, "%s\n%s", text, extra ? extra : "");
    if (trapeze_config_parse(all, path, &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    free(text);
    free(all);
    return cfg;
}

static sim_memsys *memsys(const char *path, const char *extra, int n_sm)
{
    trapeze_config *cfg = config(path, extra);
    sim_memsys *m = NULL;
    trapeze_error err;
    if (sim_memsys_create(cfg, n_sm, NULL, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    trapeze_config_destroy(cfg);
    return m;
}

static sim_mem_request load(uint64_t addr, int sm)
{
    sim_mem_request r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.sector_mask = 0xf;
    r.bytes = 128;
    r.op = SIM_MEM_LOAD;
    r.sm = (uint16_t)sm;
    r.tag = addr;
    return r;
}

/* A store from SM 0 of `bytes` bytes covering the sectors of mask. */
static sim_mem_request store(uint64_t addr, unsigned mask, int bytes)
{
    sim_mem_request r = load(addr, 0);
    r.op = SIM_MEM_STORE;
    r.sector_mask = (uint8_t)mask;
    r.bytes = (uint16_t)bytes;
    return r;
}

/* Runs cycles from `from` until SM sm completes a request; returns that
 * cycle (or UINT64_MAX after a million cycles). */
static uint64_t until_done(sim_memsys *m, int sm, uint64_t from, sim_mem_request *done)
{
    for (uint64_t c = from; c < from + 1000000; c++) {
        sim_memsys_cycle(m, c);
        if (sim_memsys_pop(m, sm, c, done))
            return c;
    }
    return UINT64_MAX;
}

/* Runs until every accepted request has completed; returns the cycle after. */
static uint64_t drain(sim_memsys *m, int n_sm, uint64_t from)
{
    uint64_t c = from;
    for (; c < from + 1000000 && sim_memsys_outstanding(m); c++) {
        sim_memsys_cycle(m, c);
        sim_mem_request d;
        for (int s = 0; s < n_sm; s++)
            while (sim_memsys_pop(m, s, c, &d))
                ;
    }
    CHECK(sim_memsys_outstanding(m) == 0);
    return c;
}

/* drain(), then 1000 cycles more for write-backs (no SM's request). */
static void settle(sim_memsys *m, uint64_t from)
{
    uint64_t end = drain(m, 1, from);
    for (uint64_t c = end; c < end + 1000; c++)
        sim_memsys_cycle(m, c);
}

#define GTX480 "data/gpus/gtx480.config"
#define GTX280 "data/gpus/gtx280.config"
#define V100 "data/gpus/v100.config"
/* GTX 480 with the DRAM clock equal to the core clock: DRAM cycles are
 * core cycles, so DRAM timing shows up unrounded. */
/* GTX 480 L2 slices of one line each (sectored, write-back) */
#define ONE_LINE_L2 "-gpgpu_cache:dl2 S:1:128:1,L:B:m:L:L,A:256:4,4:0,32\n"
#define SAME_CLOCKS "-gpgpu_clock_domains 700.0:700.0:700.0:700.0\n"

/* ---- coalescing and shared memory ---- */

/* The clock's conversions in 64 bits (operands under 2^32, 2^31) and in
 * 128 give one answer: each checked against the 128-bit formula on both
 * sides of the switch, for the GTX 480's DRAM/core ratio (924/700) and a
 * ratio whose terms pass 2^31. Ticks k run in cycle floor(k*den/num). */
static void test_clock_bits(void)
{
    const uint64_t f[][2] = {{924, 700}, {3000000007ull, 1000000007ull}, {1, 1}};
    const uint64_t at[] = {0, 1, 699, 700, (1ull << 31) - 2, (1ull << 31) - 1, 1ull << 31,
                           (1ull << 32) - 1, 1ull << 32, (1ull << 40) + 3};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        sim_clock c;
        sim_clock_init(&c, f[i][0], f[i][1]);
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
            unsigned __int128 k = at[j];
            CHECK(sim_clock_core_cycle(&c, at[j]) == (uint64_t)(k * c.den / c.num));
            CHECK(sim_clock_ticks_through(&c, at[j]) ==
                  (uint64_t)(((k + 1) * c.num + c.den - 1) / c.den));
        }
    }
    sim_clock g;
    sim_clock_init(&g, 924, 700);   /* 33/25: tick 25 in cycle 18, cycles 0..18 hold 26 ticks */
    CHECK(sim_clock_core_cycle(&g, 25) == 18 && sim_clock_ticks_through(&g, 18) == 26);
}

/* The inline bit count against the compiler's, its full-word shortcut and
 * the words either side of it included. */
static void test_popcount(void)
{
    const uint32_t x[] = {0, 1, 0x80000000u, 0x7fffffffu, 0xfffffffeu, UINT32_MAX, 0x0f0f0f0fu,
                          0xdeadbeefu};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        CHECK(sim_popcount32(x[i]) == __builtin_popcount(x[i]));
    CHECK(sim_popcount32(UINT32_MAX) == 32 && sim_popcount32(0x7fffffffu) == 31);
    CHECK(sim_popcount64(~0ull) == 64 && sim_popcount64(0xffffffff00000001ull) == 33);
}

static void test_coalesce_strides(void)
{
    /* 32 threads read 4-byte words at stride s words: the warp spans
     * 128*s bytes, so s lines; a line holds 32/s threads, i.e. 128/s bytes,
     * in every 32-byte sector while the stride is at most 8 words (32 B);
     * at 16 words (64 B) two sectors per line, at 32 words one. */
    static const int stride[] = {1, 2, 4, 8, 16, 32};
    static const int lines[] = {1, 2, 4, 8, 16, 32};
    static const uint32_t sectors[] = {0xf, 0xf, 0xf, 0xf, 0x5, 0x1};
    static const uint32_t bytes[] = {128, 64, 32, 16, 8, 4};
    for (int i = 0; i < 6; i++) {
        uint64_t a[32];
        sim_line_access out[32];
        for (int t = 0; t < 32; t++)
            a[t] = 4096 + (uint64_t)t * (uint64_t)stride[i] * 4;
        int n = sim_coalesce(a, 0xffffffffu, 4, out);
        CHECK(n == lines[i]);
        CHECK(out[0].line_addr == 4096);
        CHECK(out[n - 1].line_addr == 4096 + (uint64_t)(n - 1) * 128);
        CHECK(out[0].sector_mask == sectors[i]);
        CHECK(out[0].bytes == bytes[i]);
    }
    /* Misaligned by one word: 31 words in the first line (sectors 0-3,
     * 124 bytes), the last word in the next line (sector 0, 4 bytes). */
    uint64_t a[32];
    sim_line_access out[32];
    for (int t = 0; t < 32; t++)
        a[t] = 132 + (uint64_t)t * 4;
    CHECK(sim_coalesce(a, 0xffffffffu, 4, out) == 2);
    CHECK(out[0].line_addr == 128 && out[0].sector_mask == 0xf && out[0].bytes == 124);
    CHECK(out[1].line_addr == 256 && out[1].sector_mask == 0x1 && out[1].bytes == 4);
    /* First-appearance order, inactive threads ignored: thread 0 reads
     * line 5, thread 1 line 2, thread 2 (inactive) line 9. */
    a[0] = 5 * 128;
    a[1] = 2 * 128 + 64;
    a[2] = 9 * 128;
    CHECK(sim_coalesce(a, 0x3u, 4, out) == 2);
    CHECK(out[0].line_addr == 640 && out[1].line_addr == 256 && out[1].sector_mask == 0x4);
    /* Every thread the same word: one line, one sector, 4 bytes. */
    for (int t = 0; t < 32; t++)
        a[t] = 1000;
    CHECK(sim_coalesce(a, 0xffffffffu, 4, out) == 1);
    CHECK(out[0].line_addr == 896 && out[0].sector_mask == 0x8 && out[0].bytes == 4);
    /* The runs' starts a source may hand in (sim_coalesce_known): lanes
     * 0-15 at 4t, 16-31 at 4096 + 4t start runs at lanes 0 and 16, the same
     * for the addresses 132 bytes on (a lane offset plus one base); with
     * them the coalescing is sim_coalesce's: lines 128, 4224 and 4352 */
    uint64_t b[32];
    for (int t = 0; t < 32; t++) {
        a[t] = (t < 16 ? 0 : 4096) + 4 * (uint64_t)t;
        b[t] = a[t] + 132;
    }
    CHECK(sim_coalesce_starts(a, 4) == 0x10001u && sim_coalesce_starts(b, 4) == 0x10001u);
    CHECK(sim_coalesce_starts(a, 8) == 0xffffffffu);   /* 4-byte steps: no 8-byte run */
    sim_line_access out2[32];
    int n1 = sim_coalesce(b, 0xffffffffu, 4, out), n2 = sim_coalesce_known(b, 0xffffffffu, 4,
                                                                       0x10001u, out2);
    CHECK(n1 == 3 && n2 == 3);
    for (int i = 0; i < 3 && n2 == 3; i++)
        CHECK(out[i].line_addr == out2[i].line_addr && out[i].sector_mask == out2[i].sector_mask &&
              out[i].bytes == out2[i].bytes &&
              memcmp(out[i].sector_bytes, out2[i].sector_bytes, 4) == 0);
    CHECK(out2[0].line_addr == 128 && out2[1].line_addr == 4224 && out2[2].line_addr == 4352);
}

/* GPGPU-Sim's atomic coalescing (memory_coalescing_arch_atomic), worked by
 * hand for 20 lanes of a RED: lanes 0-7 the words of segment A = 0x1000,
 * 8-15 those of B = 0x1040, 16 and 18 A's first word again, 17 C = 0x2000,
 * 19 A's second word again. In lane order each lane joins the first
 * request of its segment free on its bytes: T0 = A {0-7}, T1 = B {8-15},
 * T2 = A {16, 19} (words 0 and 1), T3 = C {17}, T4 = A {18} (T0 and T2
 * hold word 0). By segment, creation order kept: T0 T2 T4 T1 T3; sent
 * from the back: T3 T1 T4 T2 T0. Five requests where a request per lane
 * made 20; a 2-byte lane beside another on one word shares its request. */
static void test_coalesce_atomic(void)
{
    uint64_t a[32] = {0};
    for (int l = 0; l < 8; l++) {
        a[l] = 0x1000 + 4u * (unsigned)l;
        a[8 + l] = 0x1040 + 4u * (unsigned)l;
    }
    a[16] = a[18] = 0x1000;
    a[17] = 0x2000;
    a[19] = 0x1004;
    sim_atomic_access out[32];
    CHECK(sim_coalesce_atomic(a, 0xfffffu, 4, out) == 5);
    static const struct { uint64_t addr; uint32_t words, lanes; } want[5] = {
        {0x2000, 0x01, 1u << 17}, {0x1040, 0xff, 0xff00}, {0x1000, 0x01, 1u << 18},
        {0x1000, 0x03, 1u << 16 | 1u << 19}, {0x1000, 0xff, 0xff}};
    for (int i = 0; i < 5; i++)
        CHECK(out[i].addr == want[i].addr && out[i].words == want[i].words &&
              out[i].lanes == want[i].lanes);
    /* bytes 0-1 and 2-3 of one word do not overlap: one request, word 0 */
    a[0] = 0x3000;
    a[1] = 0x3002;
    CHECK(sim_coalesce_atomic(a, 0x3u, 2, out) == 1);
    CHECK(out[0].addr == 0x3000 && out[0].words == 0x1 && out[0].lanes == 0x3);
    /* a request's addr is its lowest word */
    a[0] = 0x301c;
    a[1] = 0x3008;
    CHECK(sim_coalesce_atomic(a, 0x3u, 4, out) == 1);
    CHECK(out[0].addr == 0x3008 && out[0].words == 0x84);
}

static void test_shmem_conflicts(void)
{
    /* 32 banks: thread t reads word t*s, bank (t*s) mod 32; a bank gets
     * gcd(s, 32) distinct words. */
    static const int stride[] = {1, 2, 3, 4, 8, 16, 32};
    static const int degree[] = {1, 2, 1, 4, 8, 16, 32};
    for (int i = 0; i < 7; i++) {
        uint64_t a[32];
        for (int t = 0; t < 32; t++)
            a[t] = (uint64_t)t * (uint64_t)stride[i] * 4;
        CHECK(sim_shmem_conflict_degree(a, 0xffffffffu, 32, NULL) == degree[i]);
    }
    uint64_t a[32];
    for (int t = 0; t < 32; t++)
        a[t] = 64; /* one word for all: a broadcast */
    CHECK(sim_shmem_conflict_degree(a, 0xffffffffu, 32, NULL) == 1);
    for (int t = 0; t < 32; t++)
        a[t] = (uint64_t)(t % 2) * 128; /* words 0 and 32: both bank 0 */
    CHECK(sim_shmem_conflict_degree(a, 0xffffffffu, 32, NULL) == 2);
    /* 16 banks (GTX 280), stride 2 over the first 16 threads: gcd 2. */
    for (int t = 0; t < 32; t++)
        a[t] = (uint64_t)t * 8;
    CHECK(sim_shmem_conflict_degree(a, 0xffffu, 16, NULL) == 2);
    CHECK(sim_shmem_conflict_degree(a, 0, 32, NULL) == 0);
}

/* The definition, by brute force: the most distinct words any one bank
 * holds (at least 1 when a lane is active). */
static int conflict_reference(const uint64_t *a, uint32_t mask, int banks)
{
    int degree = mask ? 1 : 0;
    for (int b = 0; b < banks; b++) {
        int distinct = 0;
        for (int t = 0; t < 32; t++) {
            if (!(mask >> t & 1) || (int)(a[t] / 4 % (uint64_t)banks) != b)
                continue;
            int first = 1;
            for (int u = 0; u < t; u++)
                first &= !((mask >> u & 1) && a[u] / 4 == a[t] / 4);
            distinct += first;
        }
        degree = distinct > degree ? distinct : degree;
    }
    return degree;
}

/* Random warps (words from a small range, so that broadcasts and conflicts
 * are common; bank counts beyond the 64 chains included) against the
 * brute-force definition. */
static void test_shmem_conflicts_random(void)
{
    static const int banks[] = {1, 2, 16, 32, 33, 64, 100, 130};
    uint64_t x = 12345;
    for (int trial = 0; trial < 4000; trial++) {
        uint64_t a[32];
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t mask = trial % 5 == 1 ? 0xffffffffu : (uint32_t)(x >> 32);   /* whole warps: */
        uint64_t range = 1 + (x >> 8) % (trial % 5 == 1 ? 70 : 300);   /* near the bank count */
        for (int t = 0; t < 32; t++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            a[t] = (x >> 33) % range * 4 + (x >> 20) % 4;   /* any byte of a word */
            if (trial % 3 == 0)   /* strided: conflict-free or not by the bank count */
                a[t] = (range + t * (uint64_t)(trial / 3 % 5)) * 4;
        }
        int nb = banks[trial % 8];
        CHECK(sim_shmem_conflict_degree(a, mask, nb, NULL) == conflict_reference(a, mask, nb));
    }
    /* whole warps at one stride (coalesce.c's closed form for power-of-two
     * bank counts): strides of -70 to 70 bytes, whole words or not, from
     * aligned and unaligned starts, near zero and near the top of the
     * address space (negative strides wrap) */
    static const int pow2_banks[] = {1, 2, 16, 32, 64};
    int affine_ok = 1, affine_cases = 0;
    for (int stride = -70; stride <= 70; stride++)
        for (int start = 0; start < 3; start++)
            for (int b = 0; b < 5; b++) {
                uint64_t a[32];
                uint64_t base = start == 0 ? 4096 : start == 1 ? 4098 : ~0ull - 4095;
                for (int t = 0; t < 32; t++)
                    a[t] = base + (uint64_t)((int64_t)t * stride);
                int nb = pow2_banks[b];
                affine_ok &= sim_shmem_conflict_degree(a, 0xffffffffu, nb, NULL) ==
                             conflict_reference(a, 0xffffffffu, nb);
                affine_cases++;
            }
    CHECK(affine_ok && affine_cases == 141 * 3 * 5);
}

/* ---- configuration ---- */

static void test_config(void)
{
    trapeze_config *cfg = config(GTX480, NULL);
    sim_mem_config c;
    trapeze_error err;
    CHECK_OK(sim_mem_config_read(cfg, 15, &c, &err));
    CHECK(c.l1.enabled && c.l1.sets == 32 && c.l1.assoc == 4 && c.l1.set_index == SIM_SETIDX_FERMI);
    CHECK(c.l1.mshr_entries == 64 && c.l1.mshr_merge == 8 && c.l1.miss_queue == 8);
    CHECK(c.l2.enabled && c.l2.sets == 64 && c.l2.assoc == 8 && c.l2.wr == SIM_WR_BACK);
    CHECK(c.l2.mshr_entries == 256 && c.l2.mshr_merge == 4);
    CHECK(c.l1_latency == 35 && c.rop_latency == 120 && c.dram_latency == 100);
    CHECK(c.n_mem == 6 && c.n_sub == 2 && c.t.nbk == 16 && c.t.RCD == 12 && c.t.CCDL == 3);
    /* atom = BL 8 x 4 bytes x 2 chips = 64 bytes, on the bus 8/4 = 2 cycles */
    CHECK(c.atom_bytes == 64 && c.burst_cycles == 2);
    CHECK(c.clock_khz[SIM_CLK_CORE] == 700000 && c.clock_khz[SIM_CLK_DRAM] == 924000);
    CHECK(c.q_icnt_l2 == 64 && c.sched_queue == 64 && c.return_queue == 116);
    CHECK(c.l2.sectored && c.bnkgrp_lower == 1 && c.map.indexing == SIM_AM_CONSECUTIVE);
    trapeze_config_destroy(cfg);

    cfg = config(GTX280, NULL);
    CHECK_OK(sim_mem_config_read(cfg, 30, &c, &err));
    CHECK(!c.l1.enabled && !c.l2.enabled && c.t.nbk == 8 && c.atom_bytes == 32);
    trapeze_config_destroy(cfg);

    cfg = config(V100, NULL);
    CHECK_OK(sim_mem_config_read(cfg, 80, &c, &err));
    CHECK(c.l1.sectored && c.l1.alloc == SIM_ALLOC_STREAMING && c.l1.assoc == 64 && c.l2.assoc == 24);
    CHECK(c.l2.set_index == SIM_SETIDX_IPOLY && c.map.indexing == SIM_AM_IPOLY && c.bnkgrp_lower == 1);
    trapeze_config_destroy(cfg);

    static const struct { const char *text, *want; } bad[] = {
        {"-gpgpu_n_mem 6\n-gpgpu_cache:dl1 32:100:4,L:L:m:N,A:32:8,8\n",
         "bad.config:2: option -gpgpu_cache:dl1: only 128-byte lines"},
        {"-gpgpu_cache:dl2 S:64:128:8,L:B:q:L:L,A:256:4,4:0,32\n",
         "bad.config:1: option -gpgpu_cache:dl2: allocation must be"},
        {"-gpgpu_cache:dl1 32:128:4\n", "bad.config:1: option -gpgpu_cache:dl1: expected"},
        {"-gpgpu_dram_timing_opt \"nbk=16:CL=x\"\n",
         "bad.config:1: option -gpgpu_dram_timing_opt: CL must be"},
        {"-gpgpu_dram_timing_opt nbk=16:FOO=2\n",
         "bad.config:1: option -gpgpu_dram_timing_opt: unknown timing parameter 'FOO'"},
        {"\n\n-gpgpu_mem_addr_mapping dramid@8;RRRRXBBB\n",
         "bad.config:3: option -gpgpu_mem_addr_mapping: mask letters"},
        {"-gpgpu_clock_domains 700:700:700\n", "bad.config:1: option -gpgpu_clock_domains"},
        {"-gpgpu_l1_latency -3\n", "bad.config:1: option -gpgpu_l1_latency: -3 is outside [1, 100000]"},
        {"-gpgpu_dram_partition_queues 64:64:0:64\n",
         "bad.config:1: option -gpgpu_dram_partition_queues"},
        {"-dram_bnkgrp_indexing_policy 2\n",
         "bad.config:1: option -dram_bnkgrp_indexing_policy: 2 is outside [0, 1]"},
        {"-gpgpu_memory_partition_indexing 1\n",
         "bad.config:1: option -gpgpu_memory_partition_indexing: 1 is not modelled"},
        {"-gpgpu_n_mem 6\n-gpgpu_memory_partition_indexing 2\n",
         "bad.config:2: option -gpgpu_memory_partition_indexing: IPOLY (2) needs"},
        {"-gpgpu_cache:dl2 S:8:128:8,L:B:m:L:P,A:256:4,4:0,32\n",
         "bad.config:1: option -gpgpu_cache:dl2: the IPOLY hash (P) needs 16, 32 or 64 sets"},
        {"-gpgpu_n_sub_partition_per_mchannel 3\n",
         "bad.config:1: option -gpgpu_n_sub_partition_per_mchannel: must be a power of two"},
        {"-gpgpu_cache:dl1 32:128:4,L:L:m:N,A:32769:8,8\n",
         "bad.config:1: option -gpgpu_cache:dl1: at most 32768 MSHR entries"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_OK(trapeze_config_parse(bad[i].text, "bad.config", &cfg, &err));
        sim_memsys *m = NULL;
        /* a value outside its range is ERANGE (common/number.h), the rest EPARSE */
        trapeze_status want = strstr(bad[i].want, "is outside") ? TRAPEZE_ERANGE : TRAPEZE_EPARSE;
        CHECK(sim_memsys_create(cfg, 4, NULL, &m, &err) == want);
        CHECK(m == NULL);
        if (!strstr(err.message, bad[i].want))
            fprintf(stderr, "got: %s\nwant: %s\n", err.message, bad[i].want);
        CHECK(strstr(err.message, bad[i].want) != NULL);
        trapeze_config_destroy(cfg);
    }
}

static void test_addrmap(void)
{
    /* GTX 480: channel = (addr >> 8) mod 6; the rest, with the channel
     * digit removed, reads B at bits 8,13,14,15, R at 16-27, C at 6,7,9-12.
     * Sub-partition = 2 x channel + (bank & 1). */
    sim_addrmap map;
    CHECK(sim_addrmap_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                            "BBBCCCCB.CCSSSSSS", 6, 2, 16, &map) == NULL);
    sim_dram_addr d = sim_addrmap_decode(&map, 0);
    CHECK(d.chip == 0 && d.bank == 0 && d.row == 0 && d.sub == 0);
    d = sim_addrmap_decode(&map, 256);          /* 256>>8 = 1: channel 1, rest 0 */
    CHECK(d.chip == 1 && d.bank == 0 && d.sub == 2);
    d = sim_addrmap_decode(&map, 1536);         /* 6: channel 0, rest 1<<8: bank bit 0 */
    CHECK(d.chip == 0 && d.bank == 1 && d.sub == 1);
    d = sim_addrmap_decode(&map, 3072);         /* 12: channel 0, rest 2<<8 = bit 9: column */
    CHECK(d.chip == 0 && d.bank == 0 && d.row == 0 && d.col == 4 && d.sub == 0);
    d = sim_addrmap_decode(&map, 0x60000);      /* 1536: channel 0, rest 256<<8 = bit 16: row 1 */
    CHECK(d.chip == 0 && d.bank == 0 && d.row == 1 && d.sub == 0);
    d = sim_addrmap_decode(&map, 0x6000 * 6);   /* rest 0x6000 = bits 13,14: bank 0b0110 */
    CHECK(d.chip == 0 && d.bank == 6 && d.sub == 0);
    /* Plain D bits: 4 channels at bits 8-9, C at 6,7,10,11, B at 12-15:
     * 0x1700 = bits 12 (bank 1), 10 (column bit 2), 9 and 8 (channel 3). */
    CHECK(sim_addrmap_parse("RRRRRRRR.BBBBCCDD.CCSSSSSS", 4, 1, 16, &map) == NULL);
    d = sim_addrmap_decode(&map, 0x1700);
    CHECK(d.chip == 3 && d.bank == 1 && d.col == 4 && d.sub == 3);
    CHECK(sim_addrmap_parse("RRBBCCSS", 4, 1, 4, &map) != NULL); /* no channel bits */
    /* the one-line memo: the same fields as a decode, through repeats and
     * changes of line */
    CHECK(sim_addrmap_parse("RRRRRRRR.BBBBCCDD.CCSSSSSS", 4, 1, 16, &map) == NULL);
    sim_decode_memo memo = {.line = SIM_DECODE_NONE};
    const uint64_t lines[] = {0x1700, 0x1700, 0, 0, 0x1300, 0x1700, 0};
    int same = 1;
    for (int i = 0; i < 7; i++) {
        sim_dram_addr a = sim_addrmap_decode(&map, lines[i]);
        sim_dram_addr b = sim_addrmap_decode_memo(&map, &memo, lines[i]);
        same &= a.chip == b.chip && a.bank == b.bank && a.sub == b.sub && a.row == b.row &&
                a.col == b.col;
    }
    CHECK(same);
}

/* -gpgpu_memory_partition_indexing 4 (SM6_TITANX: 12 channels x 2
 * sub-partitions, dramid@8). GPGPU-Sim's addrdec.cc (RANDOM): chip_address
 * = addr >> (8 - log2 2) = addr >> 7, and each chip_address gets
 * rand() % 24 at its first touch; sub_partition = that number, chip =
 * it / 2; bank, row and column stay the consecutive decode's. Trapeze draws
 * the number as splitmix64(addr >> 7) % 24, where splitmix64(x): z = x +
 * 0x9e3779b97f4a7c15; z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9; z = (z ^ z >>
 * 27) * 0x94d049bb133111eb; z ^= z >> 31 (64-bit arithmetic), so:
 * 0x0 -> chunk 0 -> 7 (channel 3); 0x80 -> chunk 1 -> 17 (channel 8);
 * 0x100 -> chunk 2 -> 22 (channel 11); 0x12345680 -> chunk 2386093 -> 14
 * (channel 7). */
static void test_random_indexing(void)
{
    sim_addrmap map;
    CHECK(sim_addrmap_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                            "RBBBCCCC.BCCSSSSS", 12, 2, 16, &map) == NULL);
    sim_addrmap cons = map;
    map.indexing = SIM_AM_RANDOM;
    CHECK(map.random_shift == 7);
    const uint64_t addr[4] = {0x0, 0x80, 0x100, 0x12345680};
    const int sub[4] = {7, 17, 22, 14};
    for (int i = 0; i < 4; i++) {
        sim_dram_addr d = sim_addrmap_decode(&map, addr[i]), c = sim_addrmap_decode(&cons, addr[i]);
        CHECK(d.sub == sub[i] && d.chip == sub[i] / 2);
        CHECK(d.bank == c.bank && d.row == c.row && d.col == c.col);
    }
    /* one sub-partition per 128-byte chunk; uniform over the 24: 24,000
     * chunks put 1000 +- 10% in each (binomial sd 31) */
    CHECK(sim_addrmap_decode(&map, 0x7f).sub == 7);
    int count[24] = {0}, lo = 1 << 30, hi = 0;
    for (uint64_t k = 0; k < 24000; k++)
        count[sim_addrmap_decode(&map, k << 7).sub]++;
    for (int i = 0; i < 24; i++) {
        lo = count[i] < lo ? count[i] : lo;
        hi = count[i] > hi ? count[i] : hi;
    }
    CHECK(lo >= 900 && hi <= 1100);
}

/* L2 set indexing as GPGPU-Sim's l2_cache_config::set_index: the partition
 * address (channel digit divided out, sub-partition bit squeezed out), then
 * the spec's set function. Hand-computed:
 *  - GTX 480 (dramid@8, 6 channels, sub bit = bank bit 0 = bit 8):
 *    0x12345 >> 8 = 291 = 6*48 + 3 -> 48<<8 | 0x45 = 0x3045; bit 8 is 0,
 *    squeezed out: (0x3045 >> 9) << 8 | 0x45 = 0x1845. The line 0x12300
 *    gives 0x1800: linear set (0x1800 >> 7) & 63 = 48 (the full address
 *    gave (0x12300 >> 7) & 63 = 6).
 *  - IPOLY(37), 32 sets: higher bits a = addr >> 12, index b = bits 7-11;
 *    a = 1 (a[0]) flips index bits 0 and 2: set 5; a = 2 (a[1]) flips bits
 *    1 and 3: set 10; a = 1 with b = 3: 3 ^ 5 = 6.
 *  - Fermi hash, 64 sets: 0x1000 has only bit 12, which becomes set bit 5:
 *    set 32 (bit 6, set 64, was out of range).
 *  - V100 sub-partition under -gpgpu_memory_partition_indexing 2 (IPOLY(67)
 *    over 32 x 2 = 64). 32 channels are a power of two, so addrdec_tlx
 *    hashes with a = addr >> (8 + 5 + 1) = addr >> 14 (the bits above the
 *    channel and the sub-partition bit; Accel-Sim's slices for the 65536
 *    lines of strided_s1 all agree with this): 0x2000 >> 8 = 32: channel 0,
 *    rest 0x100 = bank bit 0: sub 1; a = 0: unchanged (the quotient
 *    (0x2000 >> 8) / 32 = 1 taken as a would have flipped bits 0 and 1:
 *    sub 2). 0x4000: channel 0, rest 0x200, bank bit 0 clear: sub 0;
 *    a = 1 (a[0]) flips bits 0 and 1: sub 3, channel 1 (the quotient 2,
 *    a[1], flips bits 1 and 2: sub 6). 0x100: channel 1, sub 2, a = 0.
 *  - 6 channels (GTX 480 mapping) under IPOLY(5) over 8 x 2 = 16: not a
 *    power of two, so a = (addr >> 8) / 6. 0x12345: 291 = 6*48 + 3,
 *    channel 3, rest 0x3045, bank bit 0 clear: sub 6 = 0110b; a = 48 =
 *    a[4] | a[5]: a[4] flips bits 0 and 2, a[5] bits 1 and 3: 1001b = 9,
 *    9 % 12 = 9: sub 9, channel 4.
 *  - V100 slice 0: its first 32 lines (partition lines 0..31, same higher
 *    bits) fall in 32 different sets; indexed linearly by the full address
 *    (the old reading, P ignored) they fell in 2: a slice's lines are
 *    16384*k + {0, 128}, whose bits 7-11 are 0 or 1. */
/* x^e mod p(x) over GF(2), p of degree n: the column that a[e - n] adds. */
static unsigned gf2_xpow_mod(int e, unsigned p, int n)
{
    unsigned v = 1;
    for (int i = 0; i < e; i++) {
        v <<= 1;
        if (v >> n & 1)
            v ^= p;
    }
    return v;
}

/* IPOLY over 128 and 256 sub-partitions, which hashing.cc lacks:
 *  - every table is bit b of x^(n+k) mod P: hashing.cc's own three over the
 *    a[k] they list (k <= 12, 14, 18; P = x^4+x+1, x^5+x^2+1, x^6+x+1), the
 *    new two over all 64 (x^7+x+1, x^8+x^4+x^3+x^2+1);
 *  - SM90_H100 (dramid@8, 80 channels x 2, mapping ...RBBBCCCB.CCCSSSSS: the
 *    sub-partition bit is bank bit 0 = bit 8 of the rest; 80 is not a power
 *    of two, so a = (addr >> 8) / 80, hashed over 128 x 2 = 256, then % 160):
 *    0x100: channel 1, a = 0, rest bit 8 clear: sub 2, unchanged.
 *    0x5000 = 80 << 8: channel 0, a = 1, rest 0x100: sub 1; a[0] adds
 *    x^8 = x^4+x^3+x^2+1, bits 0,2,3,4: 00000001 ^ 00011101 = 28: channel 14.
 *    0xEF00 = (2*80 + 79) << 8: channel 79, a = 2, rest 0x200 (bit 8
 *    clear): sub 158 = 10011110b; a[1] adds x^9 = x^5+x^4+x^3+x, bits
 *    1,3,4,5: 10100100b = 164, past 160: 164 % 160 = 4, channel 2. */
static void test_ipoly_h100(void)
{
    static const struct { unsigned n, p; int kmax; } poly[] = {
        {16, 0x13, 12}, {32, 0x25, 14}, {64, 0x43, 18}, {128, 0x83, 63}, {256, 0x11d, 63}};
    int bad = 0;
    for (size_t i = 0; i < sizeof poly / sizeof *poly; i++) {
        int n = __builtin_ctz(poly[i].n);
        for (int k = 0; k <= poly[i].kmax; k++)
            bad += sim_ipoly_hash(1ull << k, 0, poly[i].n) != gf2_xpow_mod(n + k, poly[i].p, n);
        /* and a bit beyond hashing.cc's last a[k] adds nothing */
        if (poly[i].kmax < 63)
            bad += sim_ipoly_hash(1ull << (poly[i].kmax + 1), 0, poly[i].n) != 0;
    }
    CHECK(bad == 0);
    /* several bits at once, by hashing.cc's equations for 64 sets: a[0] and
     * a[2] set, index 3: bit 0 = 1^a0 = 0, bit 1 = 1^a0 = 0, bit 2 = a2,
     * bit 3 = a2, bits 4, 5 = 0: 12; index bits past the sets' are dropped */
    CHECK(sim_ipoly_hash(0x5, 3, 64) == 12 && sim_ipoly_hash(0, 64 + 3, 64) == 3);
    sim_addrmap h;
    CHECK(sim_addrmap_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                            "RBBBCCCB.CCCSSSSS", 80, 2, 16, &h) == NULL);
    h.indexing = SIM_AM_IPOLY;
    CHECK(h.ipoly_n == 256 && h.ipoly_shift == -1);
    sim_dram_addr d = sim_addrmap_decode(&h, 0x100);
    CHECK(d.sub == 2 && d.chip == 1);
    d = sim_addrmap_decode(&h, 0x5000);
    CHECK(d.sub == 28 && d.chip == 14);
    d = sim_addrmap_decode(&h, 0xEF00);
    CHECK(d.sub == 4 && d.chip == 2);
}

static void test_set_index(void)
{
    sim_addrmap map;
    CHECK(sim_addrmap_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                            "BBBCCCCB.CCSSSSSS", 6, 2, 16, &map) == NULL);
    CHECK(map.sub_mask == 0x100);
    CHECK(sim_addrmap_partition_address(&map, 0x12345) == 0x1845);
    sim_cache_cfg l2 = {.enabled = 1, .sets = 64, .line = 128, .assoc = 8, .rep = SIM_REP_LRU,
                        .wr = SIM_WR_BACK, .alloc = SIM_ALLOC_ON_MISS,
                        .wr_alloc = SIM_WALLOC_LAZY, .set_index = SIM_SETIDX_LINEAR,
                        .mshr_entries = 4, .mshr_merge = 4, .miss_queue = 4};
    sim_cache c;
    CHECK(sim_cache_init(&c, &l2));
    CHECK(sim_cache_set(&c, 0x12300) == 6);
    c.part = &map;
    CHECK(sim_cache_set(&c, 0x12300) == 48);
    sim_cache_free(&c);
    CHECK(sim_set_index(1u << 12, 32, 7, SIM_SETIDX_IPOLY) == 5);
    CHECK(sim_set_index(2u << 12, 32, 7, SIM_SETIDX_IPOLY) == 10);
    CHECK(sim_set_index((1u << 12) | (3u << 7), 32, 7, SIM_SETIDX_IPOLY) == 6);
    CHECK(sim_set_index(0x1000, 64, 7, SIM_SETIDX_FERMI) == 32);
    CHECK(sim_set_index(0x1000, 32, 7, SIM_SETIDX_FERMI) == 0);
    CHECK(sim_addrmap_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                            "RBBBCCCB.CCCSSSSS", 32, 2, 16, &map) == NULL);
    sim_dram_addr d = sim_addrmap_decode(&map, 0x2000);
    CHECK(d.sub == 1 && d.chip == 0);
    map.indexing = SIM_AM_IPOLY;
    d = sim_addrmap_decode(&map, 0x2000);
    CHECK(d.sub == 1 && d.chip == 0);
    d = sim_addrmap_decode(&map, 0x4000);
    CHECK(d.sub == 3 && d.chip == 1);
    d = sim_addrmap_decode(&map, 0x100);
    CHECK(d.sub == 2 && d.chip == 1);
    sim_addrmap map6;
    CHECK(sim_addrmap_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                            "BBBCCCCB.CCSSSSSS", 6, 2, 16, &map6) == NULL);
    map6.indexing = SIM_AM_IPOLY;
    d = sim_addrmap_decode(&map6, 0x12345);
    CHECK(d.sub == 9 && d.chip == 4);
    map.indexing = SIM_AM_CONSECUTIVE;
    l2.sets = 32;
    l2.set_index = 'P';
    CHECK(sim_cache_init(&c, &l2));
    c.part = &map;
    uint64_t seen_part = 0, seen_full = 0;
    int lines = 0;
    for (uint64_t a = 0; lines < 32; a += 128)
        if (sim_addrmap_decode(&map, a).sub == 0) {
            seen_full |= 1ull << sim_set_index(a, 32, 7, SIM_SETIDX_LINEAR);
            seen_part |= 1ull << sim_cache_set(&c, a);
            lines++;
        }
    CHECK(__builtin_popcountll(seen_part) == 32);
    CHECK(__builtin_popcountll(seen_full) == 2);
    /* the remembered set (cache.h's memo) answers for the line asked, not
     * the last one: lines of one slice with different sets, asked in
     * turn, twice each, against the partition address indexed directly */
    int memo_ok = 1, memo_sets = 0;
    uint64_t ask[3] = {0x0, 0x4000, 0x8000}, seen = 0;
    for (int i = 0; i < 12; i++) {
        uint64_t a = ask[(i / 2) % 3];
        int want = (int)sim_set_index(sim_addrmap_partition_address(&map, a), 32, 7,
                                      l2.set_index);
        memo_ok &= sim_cache_set(&c, a) == want;
        seen |= 1ull << want;
    }
    memo_sets = __builtin_popcountll(seen);
    CHECK(memo_ok && memo_sets == 3);
    sim_cache_free(&c);
    CHECK(sim_set_index_check(SIM_SETIDX_IPOLY, 8) != NULL);
    CHECK(sim_set_index_check(SIM_SETIDX_FERMI, 16) != NULL);
    test_ipoly_h100();
    CHECK(sim_set_index_check(SIM_SETIDX_IPOLY, 32) == NULL);
}

/* The MSHR table's key index (open addressing, backward-shift deletion):
 * after a fixed pseudo-random mix of allocations and releases, every key
 * in use is found under its entry and released keys are not found. */
static void test_mshr_index(void)
{
    sim_cache_cfg cfg = {.enabled = 1, .sets = 4, .line = 128, .assoc = 4, .rep = 'L',
                         .wr = 'B', .alloc = 'f', .wr_alloc = 'N', .set_index = 'L',
                         .sectored = 1, .mshr_entries = 64, .mshr_merge = 2, .miss_queue = 4};
    sim_cache c;
    CHECK(sim_cache_init(&c, &cfg));
    uint64_t key[64];
    int live[64] = {0}, ok = 1;
    uint64_t x = 99;
    for (int step = 0; step < 20000; step++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int i = (int)(x >> 58);   /* 0..63 */
        if (live[i]) {
            sim_cache_mshr_release(&c, live[i] - 1);
            ok &= sim_cache_mshr_lookup(&c, key[i]) < 0;
            live[i] = 0;
        } else if (!sim_cache_mshr_full(&c)) {
            key[i] = ((x >> 20) % 512) * 4096 + (uint64_t)i * 32;   /* distinct per i */
            live[i] = 1 + sim_cache_mshr_alloc(&c, key[i]);
        }
        for (int k = 0; k < 64; k++)
            if (live[k])
                ok &= sim_cache_mshr_lookup(&c, key[k]) == live[k] - 1;
    }
    CHECK(ok);
    sim_cache_free(&c);
}

/* A slot keeps 16 bits of its key's hash: two keys with the same 16 bits,
 * both in the table, are told apart by their keys (a lookup that trusted
 * the hash would return the first for both), and each stays found when the
 * other leaves. And a table at its most ids (SIM_IDTAB_MAX_IDS, 65,536
 * slots: every home within the 16 bits) finds every id. */
static void test_idtab_hash_bits(void)
{
    uint64_t keys[3] = {4096 * 32, 0, 0};
    for (uint64_t k = keys[0] + 32; !keys[1]; k += 32)
        if (sim_idtab_hash(k) == sim_idtab_hash(keys[0]))
            keys[1] = k;
    sim_idtab t;
    CHECK(sim_idtab_init(&t, 2, keys, 1));
    sim_idtab_insert(&t, keys[0], 0);
    sim_idtab_insert(&t, keys[1], 1);
    CHECK(sim_idtab_find(&t, keys[0]) == 0 && sim_idtab_find(&t, keys[1]) == 1);
    sim_idtab_remove(&t, keys[0], 0);
    CHECK(sim_idtab_find(&t, keys[0]) == -1 && sim_idtab_find(&t, keys[1]) == 1);
    sim_idtab_free(&t);

    uint64_t *many = malloc(SIM_IDTAB_MAX_IDS * sizeof *many);
    CHECK(many && sim_idtab_init(&t, SIM_IDTAB_MAX_IDS, many, 1));
    CHECK(t.mask == 65535);
    for (int32_t i = 0; i < SIM_IDTAB_MAX_IDS; i++) {
        many[i] = (uint64_t)i * 4096 + 128;
        sim_idtab_insert(&t, many[i], i);
    }
    int ok = 1;
    for (int32_t i = 0; i < SIM_IDTAB_MAX_IDS; i++)
        ok &= sim_idtab_find(&t, many[i]) == i;
    CHECK(ok);
    CHECK(sim_idtab_find(&t, 64) == -1);
    sim_idtab_free(&t);
    free(many);

    /* a cache of more frames than a table holds scans its sets: the same
     * answers, no index */
    sim_cache_cfg cfg = {.enabled = 1, .sets = 1024, .line = 128, .assoc = 64, .rep = 'L',
                         .wr = 'B', .alloc = 'm', .wr_alloc = 'N', .set_index = 'L',
                         .mshr_entries = 8, .mshr_merge = 2, .miss_queue = 4};
    sim_cache c;
    CHECK(sim_cache_init(&c, &cfg));
    CHECK(c.by_tag.slot == NULL && c.rec_link != NULL);
    int way;
    CHECK(sim_cache_probe(&c, 5 * 128, &way) == SIM_PROBE_MISS && way == 0);
    sim_cache_install(&c, 5 * 128, way, SIM_LINE_VALID);
    CHECK(sim_cache_probe(&c, 1029 * 128, &way) == SIM_PROBE_MISS && way == 1);
    CHECK(sim_cache_find(&c, 5 * 128) == 0 && sim_cache_find(&c, 1029 * 128) == -1);
    sim_cache_free(&c);
}

/* The tag index against a scan of the lines, through every way a line
 * enters or leaves INVALID: random installs (valid and reserved),
 * invalidations of one line and of every valid line, and a carve-out reset
 * to fewer ways; after each step every line address of the pool is looked
 * up both ways, and a probe's victim is the first invalid way, else the
 * least recently used valid one. */
static int scan_find(const sim_cache *c, uint64_t line)
{
    const sim_line *set = &c->lines[(size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc];
    for (int w = 0; w < c->cfg.assoc; w++)
        if (set[w].state != SIM_LINE_INVALID && set[w].addr == line)
            return w;
    return -1;
}

/* sim_grow_for: after growing for id, ids 0..id fit and what was stored
 * stays; capacities double from 16. And the MSHR waiter rows: a row is
 * allocated when a k-th waiter first joins, each waiter reads back. */
static void test_grow_for(void)
{
    int32_t *a = NULL, cap = 0;
    int ok = 1;
    for (int32_t id = 0; id < 1000; id += 1 + id / 7) {
        a = sim_grow_for(a, &cap, id, sizeof *a);
        ok &= cap > id && (cap & (cap - 1)) == 0 && cap >= 16;
        a[id] = 3 * id + 1;
        for (int32_t j = 0; j <= id; j += 1 + j / 7)
            ok &= a[j] == 3 * j + 1;
    }
    CHECK(ok);
    CHECK(cap == 1024);
    free(a);

    sim_cache_cfg cfg = {.enabled = 1, .sets = 4, .line = 128, .assoc = 4, .rep = 'L',
                         .wr = 'B', .alloc = 'm', .wr_alloc = 'N', .set_index = 'L',
                         .mshr_entries = 6, .mshr_merge = 3, .miss_queue = 4};
    sim_cache c;
    CHECK(sim_cache_init(&c, &cfg));
    int id0 = sim_cache_mshr_alloc(&c, 0), id1 = sim_cache_mshr_alloc(&c, 128);
    sim_pkt w;
    memset(&w, 0, sizeof w);
    for (int k = 0; k < 3; k++) {
        CHECK(c.wait_row[k] == NULL || k == 0);
        w.line = 1000 + (uint64_t)k;
        sim_cache_mshr_add(&c, id0, &w);
        CHECK(c.wait_row[k] != NULL);
    }
    w.line = 7;
    sim_cache_mshr_add(&c, id1, &w);
    for (int k = 0; k < 3; k++)
        CHECK(sim_cache_mshr_waiter(&c, id0, k)->line == 1000 + (uint64_t)k);
    CHECK(sim_cache_mshr_waiter(&c, id1, 0)->line == 7);
    CHECK(!sim_cache_mshr_can_merge(&c, id0) && sim_cache_mshr_can_merge(&c, id1));
    sim_cache_free(&c);
}

/* Random installs, invalidations and resets against a scan of the lines:
 * assoc 8 searches the tag array, assoc 19 (>= SIM_CACHE_RECENCY_WAYS) too
 * with the recency lists, assoc 64 (>= SIM_CACHE_INDEX_WAYS) the tag index
 * and the INVALID bitmaps, resets moving it between 4 and 64 ways a set
 * (the L1 carve-out). Hits are touched (under LRU a touch gives the newest
 * stamp, under FIFO it does not) and lines' pending sectors toggled, so
 * that the victims of both probes skip lines. The lines are random
 * (consecutive ones hash to distinct slots and would leave the index's
 * probe runs and their removal untried), assoc + 5 of them a set, so that
 * sets fill and LRU victims are taken too. */
static void test_tag_index(int assoc, sim_cache_rep rep)
{
    sim_cache_cfg cfg = {.enabled = 1, .sets = 4, .line = 128, .assoc = assoc, .rep = rep,
                         .wr = 'B', .alloc = 'm', .wr_alloc = 'N', .set_index = 'L',
                         .mshr_entries = 8, .mshr_merge = 2, .miss_queue = 4};
    sim_cache c;
    CHECK(sim_cache_init(&c, &cfg));
    CHECK((c.by_tag.slot != NULL) == (assoc >= SIM_CACHE_INDEX_WAYS));
    CHECK((c.rec_link != NULL) == (assoc >= SIM_CACHE_RECENCY_WAYS));
    enum { MAX_LINES = 4 * (64 + 5) };
    uint64_t x = 7, pool[MAX_LINES];
    int n_lines = 4 * (assoc + 5);
    for (int k = 0; k < n_lines; k++) {   /* set k % 4 */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        pool[k] = ((x >> 24) << 9 | (uint64_t)(k % 4) << 7);
    }
    int touches = 0, pends = 0;
    int ok = 1, victims = 0, lru_victims = 0, steps = assoc >= SIM_CACHE_INDEX_WAYS ? 6000 : 20000;
    for (int step = 0; step < steps; step++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t line = pool[(x >> 40) % (uint64_t)n_lines];
        int way, op = (int)(x >> 60);
        sim_probe p = sim_cache_probe(&c, line, &way);
        if (op < 12 && p == SIM_PROBE_MISS) {
            const sim_line *set = &c.lines[(size_t)sim_cache_set(&c, line) * (size_t)c.cfg.assoc];
            int inv = -1, lru = -1;
            for (int w = 0; w < c.cfg.assoc && inv < 0; w++)
                if (set[w].state == SIM_LINE_INVALID)
                    inv = w;
            for (int w = 0; w < c.cfg.assoc; w++)
                if (set[w].state == SIM_LINE_VALID && (lru < 0 || set[w].stamp < set[lru].stamp))
                    lru = w;
            ok &= way == (inv >= 0 ? inv : lru);
            lru_victims += inv < 0;
            /* the sectored probe's victim: LRU among lines with no pending sector */
            int sway, slru = -1;
            for (int w = 0; w < c.cfg.assoc; w++)
                if (set[w].state != SIM_LINE_INVALID && !set[w].sect_pend &&
                    (slru < 0 || set[w].stamp < set[slru].stamp))
                    slru = w;
            sim_probe sp = sim_cache_probe_sector(&c, line, 1, &sway);
            ok &= sway == (inv >= 0 ? inv : slru) &&
                  sp == (sway < 0 ? SIM_PROBE_FAIL : SIM_PROBE_MISS);
            victims++;
            sim_cache_install(&c, line, way, op < 10 ? SIM_LINE_VALID : SIM_LINE_RESERVED);
        } else if (op < 12 && p == SIM_PROBE_HIT_RESERVED) {
            sim_cache_install(&c, line, way, SIM_LINE_VALID);
        } else if (op == 12 && (p == SIM_PROBE_HIT || p == SIM_PROBE_HIT_RESERVED)) {
            sim_cache_invalidate(&c, line, way);
        } else if (op == 13 && (p == SIM_PROBE_HIT || p == SIM_PROBE_HIT_RESERVED)) {
            sim_cache_touch(&c, sim_cache_line(&c, line, way));
            touches++;
        } else if (op == 14 && (p == SIM_PROBE_HIT || p == SIM_PROBE_HIT_RESERVED)) {
            sim_cache_line(&c, line, way)->sect_pend ^= 2;
            pends++;
        } else if (op == 15 && step % 53 == 0) {
            sim_cache_invalidate_valid(&c);
        } else if (op == 15 && step % 97 == 1) {
            sim_cache_reset(&c, 4 + (int)((x >> 30) % (uint64_t)(assoc - 3)));
        }
        for (int k = 0; k < n_lines; k++) {
            int w = sim_cache_find(&c, pool[k]);
            ok &= w == scan_find(&c, pool[k]);
            ok &= (w >= 0) == (sim_cache_probe(&c, pool[k], &way) != SIM_PROBE_MISS &&
                               sim_cache_probe(&c, pool[k], &way) != SIM_PROBE_FAIL);
        }
    }
    CHECK(ok);
    CHECK(victims > 1000);
    CHECK(lru_victims > 100);
    CHECK(touches > 100 && pends > 100);
    printf("tag index, %d ways, %s: %d victims, %d of them LRU\n", assoc,
           rep == SIM_REP_LRU ? "LRU" : "FIFO", victims, lru_victims);
    sim_cache_free(&c);
}

/* ---- timing ---- */

/* The GTX 480's L2 read line-granular ('N' instead of 'S'): the timing
 * tests below derive whole-line fetches by hand (two 64-byte atoms a line);
 * that path is still what an 'N:' L2 spec gets. The sectored L2 has its own
 * hand-computed derivation (test_miss_latency). */
#define L2_LINE "-gpgpu_cache:dl2 N:64:128:8,L:B:m:L:L,A:256:4,4:0,32\n"


/* One load that misses everywhere on the GTX 480, issued at cycle 0:
 *   miss queue -> icnt at cycle 0; 1 flit (8-byte header <= 40-byte flit),
 *     icnt latency 8 (-trapeze_icnt_latency default): at L2's port in 8;
 *   ROP latency 120: L2 sees it at 128; the sectored L2 serves its four
 *     sectors at 128, 129, 130, 131, each a miss sent to DRAM;
 *   dram_latency 100: the controller may take them at core cycles 228..231;
 *   DRAM clock 924 MHz vs core 700: tick k runs in core cycle
 *     floor(k*25/33); the first tick in cycle c is ceil(c*33/25): 301, 303,
 *     304, 305 (one request taken per tick);
 *   bank closed: ACT 301, sector 0's READ at 301+RCD 12 = 313; each sector
 *     is one 64-byte atom (a 32-byte read holds a whole GDDR5 burst); the
 *     next READs of the bank group at +CCDL 3: 316, 319, 322; the last
 *     data ends 322+CL 12+BL/ratio 2 = 336, core cycle floor(336*25/33) = 254;
 *   L2 fills the last sector at 254 and the request's reply leaves: 8+128
 *     bytes = 4 flits, received at 254 + 8 + (4-1) = 265;
 *   L1 fill at 265, the load completes after the L1 latency: 265 + 35 = 300.
 * Line-granular (L2_LINE): one 128-byte fetch, two atoms at 313 and 316,
 *   data ends 330 = core 250, reply received 261, done 296. */
/* The L1 latency queue (GPGPU-Sim 4's l1_latency_queue), through the SM's
 * port sim_memsys_offer, on the GTX 480 (-gpgpu_l1_latency 35, 1 bank):
 *  - the miss of test_miss_latency offered at 0 is probed at 35 and leaves
 *    for the icnt at 36 (the icnt runs before the SM side of a cycle, as
 *    GPGPU-Sim drains the L1 miss queue before the queue's probe); L2 port
 *    44, ROP 164, sectors 164..167; the DRAM may take them at 264..267,
 *    ticks ceil(c*33/25) = 349, 350, 352, 353; ACT 349, READs 361, 364,
 *    367, 370; data ends 384 = core 290; reply 4 flits, 290+8+3 = 301; the
 *    fill completes the load: 301 (no L1 latency after it);
 *  - a hit offered at 301 is probed and completes at 336;
 *  - with -gpgpu_l1_latency 2: offers at 0 and 1 are taken, one at 2 finds
 *    both stages full (the head leaves only in cycle 2's probe), one more in
 *    the same cycle as an accepted one finds the entry stage taken;
 *  - with -gpgpu_l1_latency 3 and one MSHR entry: X (miss) offered at 0,
 *    Y (another line) at 1 and Z (a hit) at 2: X is probed at 3, Y's probe
 *    is refused from 4 until X's fill frees the entry; in X's fill cycle f
 *    Y is probed, Z the cycle after: Z completes at f + 1, held behind Y,
 *    where probed on arrival it would at 2 + 3. */
static void test_l1_latency_queue(void)
{
    sim_memsys *m = memsys(GTX480, NULL, 15);
    sim_mem_request r = load(0, 3), d;
    sim_fail_cause why;
    CHECK(sim_memsys_offer(m, &r, 0, &why) == SIM_MEM_SENT && why == SIM_FAIL_NONE);
    CHECK(sim_memsys_outstanding(m) == 1);
    CHECK(until_done(m, 3, 0, &d) == 301);
    CHECK(sim_memsys_offer(m, &r, 301, &why) == SIM_MEM_SENT);
    CHECK(until_done(m, 3, 301, &d) == 336);
    CHECK(sim_memsys_stats(m)->l1.hits == 1 && sim_memsys_stats(m)->l1.misses == 1);
    uint64_t probe;
    trapeze_config *cfg = config(GTX480, NULL);
    trapeze_error err;
    CHECK_OK(sim_memsys_probe_latency(cfg, 15, &probe, &err));
    CHECK(probe == 301);
    trapeze_config_destroy(cfg);
    drain(m, 15, 337);
    sim_memsys_destroy(m);

    m = memsys(GTX480, "-gpgpu_l1_latency 2\n", 15);
    sim_mem_request a = load(0, 0), b = load(128, 0), c2 = load(256, 0);
    CHECK(sim_memsys_offer(m, &a, 0, &why) == SIM_MEM_SENT);
    sim_memsys_cycle(m, 0);
    CHECK(sim_memsys_offer(m, &b, 1, &why) == SIM_MEM_SENT);
    CHECK(sim_memsys_offer(m, &c2, 1, &why) == SIM_MEM_RESERVATION_FAIL && why == SIM_FAIL_L1_BANK);
    sim_memsys_cycle(m, 1);
    CHECK(sim_memsys_offer(m, &c2, 2, &why) == SIM_MEM_RESERVATION_FAIL && why == SIM_FAIL_L1_BANK);
    sim_memsys_cycle(m, 2);
    CHECK(sim_memsys_offer(m, &c2, 3, &why) == SIM_MEM_SENT);
    CHECK(sim_memsys_stats(m)->l1.reservation_fails == 0);   /* not an L1 refusal */
    drain(m, 15, 3);
    sim_memsys_destroy(m);

    m = memsys(GTX480, "-gpgpu_l1_latency 3\n-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:1:8,8\n", 15);
    sim_mem_request x = load(0, 0), y = load(128, 0), z = load(4096, 0);
    CHECK(sim_memsys_offer(m, &z, 0, &why) == SIM_MEM_SENT);   /* bring z's line in */
    uint64_t t0 = drain(m, 15, 0);
    uint64_t done_x = 0, done_z = 0;
    CHECK(sim_memsys_offer(m, &x, t0, &why) == SIM_MEM_SENT);
    for (uint64_t c = t0; c < t0 + 100000 && (!done_x || !done_z); c++) {
        if (c == t0 + 1)
            CHECK(sim_memsys_offer(m, &y, c, &why) == SIM_MEM_SENT);
        if (c == t0 + 2)
            CHECK(sim_memsys_offer(m, &z, c, &why) == SIM_MEM_SENT);
        sim_memsys_cycle(m, c);
        while (sim_memsys_pop(m, 0, c, &d)) {
            if (d.tag == x.tag)
                done_x = c;
            if (d.tag == z.tag)
                done_z = c;
        }
    }
    CHECK(done_x > t0 + 5 && done_z == done_x + 1);
    /* Y refused from t0 + 4 through done_x - 1 */
    CHECK(sim_memsys_stats(m)->l1.fails[SIM_FAIL_MSHR_ENTRY] == done_x - (t0 + 4));
    drain(m, 15, done_z + 1);
    sim_memsys_destroy(m);

    /* The V100's 4 banks, 32-byte interleaved: a line's four sectors enter
     * four queues in one cycle; a fifth access to bank 0 in that cycle finds
     * its entry stage taken; a 128-byte access is at its line: bank 0; the
     * upper half alone at +64: bank 2 */
    m = memsys(V100, NULL, 80);
    for (int sct = 0; sct < 4; sct++) {
        sim_mem_request q = load(0, 0);
        q.sector_mask = 1u << sct;
        CHECK(sim_memsys_offer(m, &q, 0, &why) == SIM_MEM_SENT);
    }
    CHECK(sim_memsys_ports(m) == 4);
    sim_mem_request line = load(1024, 0), upper = load(2048, 0);
    CHECK(sim_memsys_offer(m, &line, 0, &why) == SIM_MEM_RESERVATION_FAIL &&
          why == SIM_FAIL_L1_BANK);
    upper.sector_mask = 0xc;
    CHECK(sim_memsys_offer(m, &upper, 0, &why) == SIM_MEM_RESERVATION_FAIL &&
          why == SIM_FAIL_L1_BANK);
    sim_memsys_cycle(m, 0);
    CHECK(sim_memsys_offer(m, &line, 1, &why) == SIM_MEM_SENT);
    CHECK(sim_memsys_offer(m, &upper, 1, &why) == SIM_MEM_SENT);
    drain(m, 80, 1);
    sim_memsys_destroy(m);
}

/* The per-warp queues' port (sim_memsys_probe) against the LDST unit's
 * (sim_memsys_offer), -gpgpu_l1_latency 2, the line of 0 in the L1 from t0:
 *  - a hit offered at t0 is probed at t0 + 2 and completes then; probed
 *    at once it completes t0 + 2 too (the latency paid after);
 *  - probed at t0 and t0 + 1, two hits take both stages; a third at t0 + 2
 *    finds them taken (the first leaves in t0 + 2's cycle, after the SM's
 *    probe) and is taken at t0 + 3, as offered ones are; a fourth in the
 *    same cycle as a taken one finds the entry stage taken;
 *  - a refused probe leaves nothing behind: no stage, no L1 access. */
static void test_l1_probe_holds_stages(void)
{
    sim_memsys *m = memsys(GTX480, "-gpgpu_l1_latency 2\n", 15);
    sim_mem_request a = load(0, 0), d;
    sim_fail_cause why;
    CHECK(sim_memsys_access(m, &a, 0, &why) == SIM_MEM_MISS);
    uint64_t t0 = drain(m, 15, 0);
    CHECK(sim_memsys_offer(m, &a, t0, &why) == SIM_MEM_SENT);
    CHECK(until_done(m, 0, t0, &d) == t0 + 2);
    t0 += 3;
    CHECK(sim_memsys_probe(m, &a, t0, &why) == SIM_MEM_HIT && why == SIM_FAIL_NONE);
    CHECK(until_done(m, 0, t0, &d) == t0 + 2);
    CHECK(sim_memsys_outstanding(m) == 0);   /* its stages left with it */
    t0 += 3;
    uint64_t hits = sim_memsys_stats(m)->l1.hits;
    CHECK(sim_memsys_probe(m, &a, t0, &why) == SIM_MEM_HIT);
    sim_memsys_cycle(m, t0);
    CHECK(sim_memsys_probe(m, &a, t0 + 1, &why) == SIM_MEM_HIT);
    CHECK(sim_memsys_probe(m, &a, t0 + 1, &why) == SIM_MEM_RESERVATION_FAIL &&
          why == SIM_FAIL_L1_BANK);
    sim_memsys_cycle(m, t0 + 1);
    CHECK(sim_memsys_probe(m, &a, t0 + 2, &why) == SIM_MEM_RESERVATION_FAIL &&
          why == SIM_FAIL_L1_BANK);
    sim_memsys_cycle(m, t0 + 2);
    CHECK(sim_memsys_probe(m, &a, t0 + 3, &why) == SIM_MEM_HIT);
    CHECK(sim_memsys_stats(m)->l1.hits == hits + 3);
    CHECK(sim_memsys_stats(m)->l1.reservation_fails == 0);   /* not an L1 refusal */
    drain(m, 15, t0 + 3);
    sim_memsys_destroy(m);
}

static void test_miss_latency(void)
{
    sim_memsys *m = memsys(GTX480, NULL, 15);
    sim_mem_request r = load(0, 3), d;
    sim_fail_cause why;
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_MISS);
    CHECK(sim_memsys_outstanding(m) == 1);
    CHECK(until_done(m, 3, 0, &d) == 300);
    CHECK(d.tag == 0 && d.sm == 3);
    /* The same line again at 300: an L1 hit, done after 35 cycles. */
    CHECK(sim_memsys_access(m, &r, 300, &why) == SIM_MEM_HIT);
    CHECK(until_done(m, 3, 300, &d) == 335);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->l1.accesses == 2 && s->l1.hits == 1 && s->l1.misses == 1);
    CHECK(s->l2.accesses == 4 && s->l2.misses == 4 && s->l2.fills == 4 && s->dram_reads == 4);
    CHECK(s->dram_activates == 1 && s->dram_row_misses == 1 && s->dram_row_hits == 3);
    CHECK(s->dram_bytes_read == 4 * 64 && s->dram_busy_cycles == 4 * 2);
    CHECK(s->icnt_flits == 1 + 4);
    CHECK(sim_memsys_l1_stats(m, 3)->hits == 1 && sim_memsys_l1_stats(m, 0)->accesses == 0);
    drain(m, 15, 336);
    sim_memsys_destroy(m);
    m = memsys(GTX480, L2_LINE, 15);
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_MISS);
    CHECK(until_done(m, 3, 0, &d) == 296);
    s = sim_memsys_stats(m);
    CHECK(s->l2.misses == 1 && s->l2.fills == 1 && s->dram_reads == 1);
    CHECK(s->dram_activates == 1 && s->dram_row_misses == 1 && s->dram_bytes_read == 128);
    drain(m, 15, 300);
    sim_memsys_destroy(m);
}


/* -gpgpu_simple_dram_model 1 (GPGPU-Sim's simple_dram_model_cycle): the miss
 * of test_miss_latency with DRAM a fixed latency. Its four sectors may
 * leave the L2 for DRAM at 228..231 (-dram_latency 100 passed); DRAM tick k
 * falls in core floor(k * 700 / 924) = floor(k * 25 / 33), so the first
 * ticks at or after them are 301, 303, 304, 305: each serves its sector
 * at once, the last in core floor(305 * 25 / 33) = 231. The timed model's
 * last data leave at tick 336 = core 254 and the request completes at
 * 300, 46 cycles later; the same path from 231 ends at 277. No bank, row
 * or bus: no activate, row hit or busy cycle; 4 reads of one 64-byte atom
 * each are still counted. */
static void test_simple_dram(void)
{
    sim_memsys *m = memsys(GTX480, "-gpgpu_simple_dram_model 1\n", 15);
    sim_mem_request r = load(0, 3), d;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    CHECK(until_done(m, 3, 0, &d) == 277);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->dram_reads == 4 && s->dram_bytes_read == 4 * 64);
    CHECK(s->dram_activates == 0 && s->dram_row_hits == 0 && s->dram_row_misses == 0 &&
          s->dram_busy_cycles == 0);
    drain(m, 15, 300);
    sim_memsys_destroy(m);
}

/* -trapeze_dram_latency_queue (GPGPU-Sim's memory_partition_unit::
 * dram_cycle): the miss of test_miss_latency with every clock at 700 MHz
 * (a DRAM tick is a core cycle and runs before the L2's). The sectored L2
 * sends sector s to the L2->DRAM queue at 128 + s.
 *  - Default: each waits -dram_latency 100 in that queue; the controller
 *    takes them at 228..231, ACT 228, READs 240, 243, 246, 249 (RCD 12,
 *    CCDL 3), the last data end 249 + CL 12 + BL/ratio 2 = 263; reply 4
 *    flits, 263 + 8 + 3 = 274; done after the L1 latency: 309. With a
 *    one-entry L2->DRAM queue (-gpgpu_dram_partition_queues 64:1:64:64) a
 *    sector enters only when the one before has left, every 100 cycles:
 *    taken at 228, 328, 428, 528, READs 240 (ACT 228), 328, 428, 528 (row
 *    hits), data end 542, done 588; the L2 is refused from 129 to 227, 229
 *    to 327 and 329 to 427: 297 reservation failures, all the miss queue's.
 *  - Latency queue: the next DRAM tick moves each sector out of the L2->DRAM
 *    queue (129..132) and it waits its 100 cycles there (229..232); the
 *    controller takes it at the end of that tick, after the commands, as
 *    dram_cycle orders them: ACT 230, READs 242, 245, 248, 251, data end
 *    265, done 311, whatever the L2->DRAM queue's size: the one-entry queue
 *    is empty again before the next sector (no reservation failure).
 *  - Credits: -gpgpu_frfcfs_dram_sched_queue_size 1 and
 *    -gpgpu_dram_return_queue_size 1 leave 1 + 1 - (2 sub-partitions - 1)
 *    = 1 shared credit beside each sub-partition's private one, and one
 *    request in the scheduler and one served and not yet delivered: sectors
 *    0 and 1 move at 129 and 130 (ready 229, 230), sectors 2 and 3 find no
 *    credit. Sector 0: taken 229, ACT 230, READ 242 (data end 256), which
 *    frees the scheduler: sector 1 taken 242, its READ waits for the full
 *    return queue until sector 0 leaves it at 256 and gives back its
 *    credit: READ 256 (data end 270), sector 2 moves (ready 356). At 270
 *    sector 1 leaves, sector 3 moves (ready 370). Sector 2: taken 356, READ
 *    357, data end 371; sector 3: taken 370, READ 371 (the return queue
 *    empty again), data end 385; reply 396, done 431.
 *  - The same with a one-entry L2->DRAM queue: sector 2 waits in it from
 *    130 to 256, and sector 3 finds it full from 131 to 255: GPGPU-Sim's
 *    cache_cycle does not probe the L2 then, so those 125 stalled cycles
 *    are no reservation failure; sector 3 enters at 256 and moves at 270
 *    as before: done 431. */
static uint64_t latency_queue_done(const char *extra, uint64_t *l2_fails,
                                   uint64_t *l2_stalls)
{
    sim_memsys *m = memsys(GTX480, extra, 15);
    sim_mem_request r = load(0, 3), d;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    uint64_t done = until_done(m, 3, 0, &d);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->dram_reads == 4 && s->l2.misses == 4);
    *l2_fails = s->l2.fails[SIM_FAIL_MISS_QUEUE];
    CHECK(s->l2.reservation_fails == *l2_fails);
    *l2_stalls = s->l2.stall_cycles;
    drain(m, 15, done + 1);
    sim_memsys_destroy(m);
    return done;
}

static void test_dram_latency_queue(void)
{
    uint64_t fails, stalls;
    CHECK(latency_queue_done(SAME_CLOCKS, &fails, &stalls) == 309 && fails == 0);
    CHECK(latency_queue_done(SAME_CLOCKS "-gpgpu_dram_partition_queues 64:1:64:64\n",
                             &fails, &stalls) == 588 && fails == 297 && stalls == 297);
#define LQ SAME_CLOCKS "-trapeze_dram_latency_queue 1\n"
#define CREDITS "-gpgpu_frfcfs_dram_sched_queue_size 1\n-gpgpu_dram_return_queue_size 1\n"
    CHECK(latency_queue_done(LQ, &fails, &stalls) == 311 && fails == 0);
    CHECK(latency_queue_done(LQ "-gpgpu_dram_partition_queues 64:1:64:64\n", &fails,
                             &stalls) == 311 && fails == 0 && stalls == 0);
    CHECK(latency_queue_done(LQ CREDITS, &fails, &stalls) == 431 && fails == 0 && stalls == 0);
    CHECK(latency_queue_done(LQ CREDITS "-gpgpu_dram_partition_queues 64:1:64:64\n", &fails,
                             &stalls) == 431 && fails == 0 && stalls == 125);
#undef CREDITS
#undef LQ
}

/* -trapeze_l2_miss_queue (GPGPU-Sim's L2 miss queue, baseline_cache::cycle and
 * data_cache::rd_miss_base): the load of test_dram_latency_queue, its sector
 * s served by the L2 at 128 + s, each a miss now pushed into the miss queue.
 * Each L2 cycle first moves the queue's head to the L2->DRAM queue if that
 * has room, then serves the next sector.
 *  - Alone: sector s moves at 129 + s, one cycle later than without the miss
 *    queue, ready 229 + s: ACT 229, READs 241, 244, 247, 250, data end
 *    250 + 12 + 2 = 264, reply 264 + 8 + 3 = 275, done 310 (309 without).
 *  - With a one-entry L2->DRAM queue and a 3-entry miss queue
 *    (`...,3:0,32`): sector 0 is pushed at 128 and moves at 129 (ready 229);
 *    sector 1 is pushed at 129 and cannot move (the L2->DRAM queue is full);
 *    sector 2 at 130 finds one entry used and two free, and a read wants two:
 *    pushed; sector 3 at 131 finds one free: refused (MISS_QUEUE_FULL), every
 *    cycle to 228; at 229 the controller takes sector 0 before the L2's
 *    cycle, sector 1 moves (ready 329) and sector 3 is pushed. 98 refusals
 *    (131..228), where the bounded queue alone had 297. Taken at 229, 329,
 *    429, 529 (READs 241, then row hits at 329, 429, 529), data end 543,
 *    reply 554, done 589 (588 without the miss queue).
 *  - With the latency queue: sector s moves at 129 + s to the L2->DRAM queue
 *    and at the next DRAM tick, 130 + s, into the latency queue (ready
 *    230 + s): ACT 231, READs 243, 246, 249, 252, data end 266, done 312
 *    (311 without).
 *  - The 3-entry case with a second request for line 0 from SM 0 at cycle 1
 *    (1 flit, at the L2's port at 9, ROP ready 129: behind the load), served
 *    at 230 with two of the three entries used: a 32-byte store to sector 0
 *    (reserved: GPGPU-Sim's lazy-fetch write miss, which sends nothing)
 *    needs one free entry and is taken at once: still 98 refusals. A load of
 *    the line, whose sectors would merge and send nothing, needs two free
 *    for each: its sector 0 is refused from 230 until its fill at 255 (READ
 *    241, data end 241 + 12 + 2) makes it a hit, which asks no entry;
 *    sector 1 is refused from 256 until 329, when sector 2 moves on, and
 *    merges then: 98 + 25 + 73 = 196 refusals. The first load is done at
 *    589 either way. */
#define MQ SAME_CLOCKS "-trapeze_l2_miss_queue 1\n"
#define MQ3 MQ "-gpgpu_dram_partition_queues 64:1:64:64\n" \
    "-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,3:0,32\n"
static uint64_t miss_queue_second(const sim_mem_request *second, uint64_t *l2_fails)
{
    sim_memsys *m = memsys(GTX480, MQ3, 15);
    sim_mem_request r = load(0, 3), s = *second, d;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    sim_memsys_cycle(m, 0);
    CHECK(sim_memsys_access(m, &s, 1, NULL) != SIM_MEM_RESERVATION_FAIL);
    uint64_t done = until_done(m, 3, 1, &d);
    const sim_mem_stats *st = sim_memsys_stats(m);
    *l2_fails = st->l2.fails[SIM_FAIL_MISS_QUEUE];
    CHECK(st->l2.reservation_fails == *l2_fails);
    drain(m, 15, done + 1);
    sim_memsys_destroy(m);
    return done;
}

static void test_l2_miss_queue(void)
{
    uint64_t fails, stalls;
    CHECK(latency_queue_done(MQ, &fails, &stalls) == 310 && fails == 0);
    CHECK(latency_queue_done(MQ3, &fails, &stalls) == 589 && fails == 98 && stalls == 98);
    CHECK(latency_queue_done(MQ "-trapeze_dram_latency_queue 1\n", &fails, &stalls) == 312 &&
          fails == 0 && stalls == 0);
    sim_mem_request st = store(0, 0x1, 32), ld = load(0, 0);
    CHECK(miss_queue_second(&st, &fails) == 589 && fails == 98);
    CHECK(miss_queue_second(&ld, &fails) == 589 && fails == 196);
}
#undef MQ3
#undef MQ

/* GPGPU-Sim's local crossbar (-network_mode 2, sim/mem/xbar.c), on the GTX 480
 * config (15 SMs, 12 sub-partitions, ROP 120):
 *  - the miss of test_miss_latency: injected and moved to sub-partition 0's
 *    output in cycle 0, popped by it at 1: the L2 sees it at 1 + 120 = 121
 *    (128 with the fixed 8-cycle icnt); sectors 121..124, DRAM may take them
 *    at 221..224, ticks ceil(c*33/25) = 292, 294, 295, 296; ACT 292, READs
 *    304, 307, 310, 313; data ends 313+12+2 = 327 = core 247; the reply,
 *    produced at 247, is injected at 248 (GPGPU-Sim pushes replies before
 *    its L2 cycle) and moved; SM 3 pops it into its ejection buffer at 249,
 *    the L1 fills at 250; done 250 + 35 = 285 (300 with the fixed icnt);
 *  - iSLIP, packets pushed before cycle 0, all pointers at device 0:
 *    SM0 [A->sub0, B->sub1], SM1 [C->sub0], SM2 [D->sub1]. Cycle 0: sub0
 *    takes A (first from 0), SM0's head is now B and sub1, later in the
 *    same pass, takes it; cycle 1: C and D. The L2s pop one a cycle:
 *    rop ready A 121, B 121, C 122, D 122;
 *  - round robin (-icnt_arbiter_algo 0), same packets: one per input, one per
 *    output a cycle, inputs from device 0 then 1: cycle 0 A and D (C finds
 *    sub0 taken), cycle 1 C and B: A 121, D 121, C 122, B 122;
 *  - head-of-line blocking (iSLIP): SM0 [A->sub1], SM1 [C->sub1, E->sub0].
 *    Cycle 0: sub0 has no head for it, sub1 takes A; cycle 1: sub1 takes C,
 *    E becomes SM1's head after sub0's turn; cycle 2: sub0 takes E. E is
 *    popped at 3 (ready 123) although sub0 was idle from cycle 0;
 *  - -icnt_in_buffer_limit 2: an SM's input takes two packets, not a third. */
static sim_pkt xpkt(int sm, int sub, uint64_t tag)
{
    sim_pkt p;
    memset(&p, 0, sizeof p);
    p.req = load(tag, sm);
    p.sub = sub;
    p.kind = SIM_PKT_READ;
    return p;
}

static uint64_t rop_ready(sim_memsys *m, int sub, uint64_t tag)
{
    sim_ring *r = &m->sub[sub].rop;
    for (uint32_t i = 0; i < r->count; i++) {
        const sim_pkt *p = &r->items[(r->head + i) & r->mask];
        if (p->req.tag == tag)
            return p->ready;
    }
    return 0;
}

static void xbar_scene(sim_memsys *m, const int *sm, const int *sub, int n)
{
    for (int i = 0; i < n; i++) {
        sim_pkt p = xpkt(sm[i], sub[i], (uint64_t)i + 1);
        sim_xbar_push(m, 0, sm[i], &p);
    }
    for (uint64_t c = 0; c < 4; c++)
        sim_xbar_tick(m, c);   /* icnt tick c is core cycle c (same clocks) */
    CHECK(m->xbar.n_pkts == 0);
}

static uint64_t reply_ready(sim_memsys *m, int sm, uint64_t tag)
{
    sim_ring *r = &m->sm[sm].replies;
    for (uint32_t i = 0; i < r->count; i++) {
        const sim_pkt *p = &r->items[(r->head + i) & r->mask];
        if (p->req.tag == tag)
            return p->ready;
    }
    return 0;
}

/* The flit-level crossbar (-trapeze_icnt_booksim 1, booksim's one-router fly),
 * GTX 480 config, pipeline -trapeze_icnt_latency 5, flits of 40 bytes:
 *  - the miss of test_miss_latency: the 1-flit request is granted at 0 and
 *    arrives at 0 + 1 + 5 = 6; ROP: L2 at 126, sectors 126..129, DRAM may
 *    take them at 226..229 = ticks 299, 300, 301, 303; ACT 299, READs 311,
 *    314, 317, 320, data ends 334 = core 253; the reply (8 + 128 bytes: 4
 *    flits) is injected and granted at 254, its tail arrives 254 + 4 + 5 =
 *    263, the SM pops it then, the L1 fills at 264: done 264 + 35 = 299;
 *  - wormhole and head-of-line: 4-flit replies, sub0 [R1->SM0], sub1
 *    [R2->SM0, R3->SM1]. Cycle 0: SM0 takes R1 (busy to 4, arrives 9);
 *    SM1 has no head for it. Cycle 4: SM0 takes R2 (pointer past sub0);
 *    sub1 is busy sending it until 8, so SM1, idle, waits; cycle 8: R3.
 *    Arrivals 9, 13, 17; each SM pops at arrival, the L1 sees it a cycle
 *    later: replies ready 10, 14, 18;
 *  - -icnt_in_buffer_limit 9 counts flits: two 4-flit packets fit, a third
 *    does not (GPGPU-Sim's 9-flit injection queue);
 *  - the same three replies through the L2's reply queues: a 128-byte reply
 *    leaves as four 1-flit sector replies (the GTX 480's L2 is sectored),
 *    one injected per cycle from 1; outputs alternate by iSLIP pointer:
 *    SM0 takes R1.1 at 1, R2.1 at 2, R1.2 3, R2.2 4, R1.3 5, R2.3 6,
 *    R1.4 7, R2.4 8 (arrival = grant + 1 + 5); SM1 takes R3.1..R3.4 at
 *    9..12, its sub-partition's input being busy with R2.4 at 8. SM0 pops
 *    one a cycle from 7 (R1.4 at 13, R2.4 at 14), SM1 R3.4 at 18: replies
 *    ready 14, 15, 19 (10, 14, 18 as whole packets). The miss above still
 *    takes 299: its four sectors leave at 254..257, the last arrives 263. */
static void test_booksim_xbar(void)
{
    const char *bk = "-trapeze_icnt_booksim 1\n-trapeze_icnt_latency 5\n";
    sim_memsys *m = memsys(GTX480, bk, 15);
    sim_mem_request r = load(0, 3), d;
    sim_fail_cause why;
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_MISS);
    CHECK(until_done(m, 3, 0, &d) == 299);
    CHECK(sim_memsys_stats(m)->icnt_flits == 1 + 4);
    drain(m, 15, 300);
    sim_memsys_destroy(m);

    m = memsys(GTX480, bk, 15);
    const int from[] = {0, 1, 1}, to[] = {0, 0, 1};
    for (int i = 0; i < 3; i++) {
        sim_pkt p = xpkt(to[i], 0, (uint64_t)i + 1);
        p.bytes = 128;
        sim_xbar_push(m, 1, from[i], &p);
    }
    for (uint64_t c = 0; c < 20; c++)
        sim_xbar_tick(m, c);
    CHECK(m->xbar.n_pkts == 0);
    CHECK(reply_ready(m, 0, 1) == 10 && reply_ready(m, 0, 2) == 14 && reply_ready(m, 1, 3) == 18);
    sim_memsys_destroy(m);

    char opts[128];
    snprintf(opts, sizeof opts, "%s-icnt_in_buffer_limit 9\n", bk);
    m = memsys(GTX480, opts, 15);
    sim_pkt p = xpkt(0, 0, 1);
    p.bytes = 128;
    sim_xbar_push(m, 1, 0, &p);
    CHECK(sim_xbar_has_room(m, 1, 0, &p));
    sim_xbar_push(m, 1, 0, &p);
    CHECK(!sim_xbar_has_room(m, 1, 0, &p));
    sim_memsys_destroy(m);

    m = memsys(GTX480, bk, 15);
    for (int i = 0; i < 3; i++) {
        sim_pkt q = xpkt(to[i], from[i], (uint64_t)i + 1);
        q.bytes = 128;
        sim_ring_push(&m->sub[from[i]].respq, &q);
        sim_sub_update_active(m, from[i]);
    }
    for (uint64_t c = 1; c < 24; c++)
        sim_xbar_tick(m, c);
    CHECK(m->xbar.n_pkts == 0 && !m->sub[0].respq.count && !m->sub[1].respq.count);
    CHECK(reply_ready(m, 0, 1) == 14 && reply_ready(m, 0, 2) == 15 && reply_ready(m, 1, 3) == 19);
    CHECK(m->stats.icnt_flits == 12 && m->stats.icnt_packets_down == 3);
    sim_memsys_destroy(m);
}

static void test_local_xbar(void)
{
    sim_memsys *m = memsys(GTX480, "-network_mode 2\n", 15);
    sim_mem_request r = load(0, 3), d;
    sim_fail_cause why;
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_MISS);
    CHECK(until_done(m, 3, 0, &d) == 285);
    CHECK(sim_memsys_stats(m)->icnt_flits == 1 + 4);   /* counted as before */
    drain(m, 15, 286);
    sim_memsys_destroy(m);

    /* tags 1..4 are A, B, C, D; 1..3 below are A, C, E */
    const int sm4[] = {0, 0, 1, 2}, sub4[] = {0, 1, 0, 1};
    m = memsys(GTX480, "-network_mode 2\n", 15);
    xbar_scene(m, sm4, sub4, 4);
    CHECK(rop_ready(m, 0, 1) == 121 && rop_ready(m, 1, 2) == 121);
    CHECK(rop_ready(m, 0, 3) == 122 && rop_ready(m, 1, 4) == 122);
    sim_memsys_destroy(m);

    m = memsys(GTX480, "-network_mode 2\n-icnt_arbiter_algo 0\n", 15);
    xbar_scene(m, sm4, sub4, 4);
    CHECK(rop_ready(m, 0, 1) == 121 && rop_ready(m, 1, 4) == 121);
    CHECK(rop_ready(m, 0, 3) == 122 && rop_ready(m, 1, 2) == 122);
    sim_memsys_destroy(m);

    const int sm3[] = {0, 1, 1}, sub3[] = {1, 1, 0};
    m = memsys(GTX480, "-network_mode 2\n", 15);
    xbar_scene(m, sm3, sub3, 3);
    CHECK(rop_ready(m, 1, 1) == 121 && rop_ready(m, 1, 2) == 122 && rop_ready(m, 0, 3) == 123);
    sim_memsys_destroy(m);

    m = memsys(GTX480, "-network_mode 2\n-icnt_in_buffer_limit 2\n", 15);
    sim_pkt p = xpkt(0, 0, 1);
    CHECK(sim_xbar_has_room(m, 0, 0, &p));
    sim_xbar_push(m, 0, 0, &p);
    sim_xbar_push(m, 0, 0, &p);
    CHECK(!sim_xbar_has_room(m, 0, 0, &p) && sim_xbar_has_room(m, 0, 1, &p));
    sim_memsys_destroy(m);
}

/* Same path with DRAM at the core clock: ready for DRAM at c0 + 228, then
 *   cold bank:   ACT, +RCD 12, +CCDL 3, +CL 12 +2 = 29 -> c0+257, reply
 *                at +8+3 -> 268, +35 = c0 + 303;
 *   row hit:     READ at once: 3+12+2 = 17 -> c0 + 291;
 *   row miss:    PRE, +RP 12 ACT, then as cold: 12+29 = 41 -> c0 + 315.
 * Row miss - row hit = RP + RCD = 24 cycles. Addresses (see test_addrmap):
 * 0 and 3072 share channel 0, bank 0, row 0; 0x60000 is row 1 of bank 0. */
static void test_row_hit_miss_same_clock(void)
{
    sim_memsys *m = memsys(GTX480, SAME_CLOCKS L2_LINE, 1);
    sim_mem_request r, d;
    r = load(0, 0);
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    CHECK(until_done(m, 0, 0, &d) == 303);
    r = load(3072, 0);
    CHECK(sim_memsys_access(m, &r, 1000, NULL) == SIM_MEM_MISS);
    uint64_t hit = until_done(m, 0, 1000, &d) - 1000;
    r = load(0x60000, 0);
    CHECK(sim_memsys_access(m, &r, 2000, NULL) == SIM_MEM_MISS);
    uint64_t miss = until_done(m, 0, 2000, &d) - 2000;
    CHECK(hit == 291);
    CHECK(miss == 315);
    CHECK(miss - hit == 12 + 12);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->dram_row_hits == 1 && s->dram_row_misses == 2);
    CHECK(s->dram_activates == 2 && s->dram_precharges == 1);
    drain(m, 1, 3000);
    sim_memsys_destroy(m);
}

/* -dram_dual_bus_interface (SM7_QV100's HBM): a row and a column command
 * in the same DRAM cycle. Same clocks and path as above; bank 0's row 0 is
 * left open by a first load. Then A = 3072 (bank 0, row 0: a hit) offered
 * at 1000 and B = 0x600 (channel 0, bank 1: dramid@8 puts 6 * 256 in
 * channel 0 and its bit 8, bank bit 0, is set; closed) at 1003:
 *   A: ready for DRAM at 1228, READs at 1228 and 1231 (+CCDL 3), done
 *      1000 + 291 = 1291 either way;
 *   B: ready at 1231, taken that tick, ACT ready too (RRD long past). One
 *      command bus: A's second READ takes tick 1231, ACT at 1232, READs
 *      1244 and 1247, data ends 1261, reply 1272, done 1307. Two buses:
 *      ACT at 1231 beside the READ, everything one cycle earlier: 1306,
 *      the cold-bank latency 303 from its offer. */
static uint64_t dual_bus_b_done(const char *extra, uint64_t *a_done)
{
    sim_memsys *m = memsys(GTX480, extra, 1);
    sim_mem_request r = load(0, 0), d;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    CHECK(until_done(m, 0, 0, &d) == 303);
    uint64_t b_done = 0;
    *a_done = 0;
    for (uint64_t c = 1000; c < 3000 && (!b_done || !*a_done); c++) {
        if (c == 1000 || c == 1003) {
            r = load(c == 1000 ? 3072 : 0x600, 0);
            CHECK(sim_memsys_access(m, &r, c, NULL) == SIM_MEM_MISS);
        }
        sim_memsys_cycle(m, c);
        while (sim_memsys_pop(m, 0, c, &d))
            *(d.tag == 3072 ? a_done : &b_done) = c;
    }
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->dram_activates == 2 && s->dram_row_hits == 1 && s->dram_precharges == 0);
    drain(m, 1, 3000);
    sim_memsys_destroy(m);
    return b_done;
}

static void test_dram_dual_bus(void)
{
    uint64_t a_done;
    CHECK(dual_bus_b_done(SAME_CLOCKS L2_LINE, &a_done) == 1307);
    CHECK(a_done == 1291);
    CHECK(dual_bus_b_done(SAME_CLOCKS L2_LINE "-dram_dual_bus_interface 1\n", &a_done) == 1306);
    CHECK(a_done == 1291);
}

/* The real GTX 480 clocks (tick k in core cycle floor(k*25/33)):
 *   row hit at c0 = 1000: DRAM may start at core 1228, first tick
 *     ceil(1228*33/25) = 1621; READs 1621 and 1624, data done 1624+14 = 1638
 *     = core floor(1638*25/33) = 1240; reply 1251; done 1286: 286 cycles.
 *   row miss at c0 = 2000: core 2228, tick ceil(2228*33/25) = 2941; PRE
 *     2941, ACT 2953, READs 2965 and 2968, done 2982 = core 2259; reply
 *     2270; done 2305: 305 cycles.
 * RP+RCD = 24 DRAM cycles = 18.2 core cycles; here the rounding gives 19. */
static void test_row_hit_miss_gtx480(void)
{
    sim_memsys *m = memsys(GTX480, L2_LINE, 1);
    sim_mem_request r, d;
    r = load(0, 0);
    sim_memsys_access(m, &r, 0, NULL);
    CHECK(until_done(m, 0, 0, &d) == 296);
    r = load(3072, 0);
    sim_memsys_access(m, &r, 1000, NULL);
    CHECK(until_done(m, 0, 1000, &d) == 1286);
    r = load(0x60000, 0);
    sim_memsys_access(m, &r, 2000, NULL);
    CHECK(until_done(m, 0, 2000, &d) == 2305);
    drain(m, 1, 3000);
    sim_memsys_destroy(m);
}

/* ---- L1D reservation ---- */

/* GTX 480 L1 MSHR: 8 requests per entry. The first miss and 7 merges are
 * accepted; the 9th request to the line fails on the merge limit. */
static void test_mshr_merge(void)
{
    sim_memsys *m = memsys(GTX480, L2_LINE, 2);
    sim_fail_cause why;
    for (int i = 0; i < 8; i++) {
        sim_mem_request r = load(1 << 20, 1);
        r.tag = (uint64_t)i;
        sim_mem_outcome o = sim_memsys_access(m, &r, (uint64_t)i, &why);
        CHECK(o == (i == 0 ? SIM_MEM_MISS : SIM_MEM_MERGED));
        sim_memsys_cycle(m, (uint64_t)i);
    }
    sim_mem_request r = load(1 << 20, 1);
    CHECK(sim_memsys_access(m, &r, 8, &why) == SIM_MEM_RESERVATION_FAIL);
    CHECK(why == SIM_FAIL_MSHR_MERGE);
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 1);
    CHECK(s->misses == 1 && s->merges == 7 && s->fails[SIM_FAIL_MSHR_MERGE] == 1);
    CHECK(s->reservation_fails == 1);
    /* The 8 complete one per cycle after the fill, in order: 296 .. 303. */
    sim_mem_request d;
    uint64_t c = 8;
    for (int i = 0; i < 8; i++) {
        c = until_done(m, 1, c, &d);
        CHECK(c == 296 + (uint64_t)i);
        CHECK(d.tag == (uint64_t)i);
        c++;
    }
    CHECK(sim_memsys_outstanding(m) == 0);
    /* The line is valid now: the refused request succeeds as a hit. */
    CHECK(sim_memsys_access(m, &r, c, &why) == SIM_MEM_HIT);
    drain(m, 2, c);
    sim_memsys_destroy(m);
}

/* GTX 480 L1 MSHR: 64 entries. 64 distinct lines (two per set of the
 * 32-set cache: lines 0..63 lie below 8 KB, where the Fermi hash is the
 * plain line index mod 32) take them all, one per cycle; the 65th line
 * (8192: set 0 XOR bit 13 = set 1, which has 2 free ways) fails on MSHR. */
static void test_mshr_entries(void)
{
    sim_memsys *m = memsys(GTX480, L2_LINE, 1);
    sim_fail_cause why;
    for (uint64_t i = 0; i < 64; i++) {
        sim_mem_request r = load(i * 128, 0);
        CHECK(sim_memsys_access(m, &r, i, &why) == SIM_MEM_MISS);
        sim_memsys_cycle(m, i);
    }
    sim_mem_request r = load(8192, 0);
    CHECK(sim_memsys_access(m, &r, 64, &why) == SIM_MEM_RESERVATION_FAIL);
    CHECK(why == SIM_FAIL_MSHR_ENTRY);
    CHECK(sim_memsys_stats(m)->l1.fails[SIM_FAIL_MSHR_ENTRY] == 1);
    drain(m, 1, 64);
    CHECK(sim_memsys_access(m, &r, 2000, &why) == SIM_MEM_MISS);
    drain(m, 1, 2000);
    sim_memsys_destroy(m);
}

/* Line allocation: five lines that the Fermi hash puts in set 0
 * (0, 4096: bits 7-11 = 0; 8320: 1 ^ bit 13; 12416: 1 ^ bit 13;
 * 16640: 2 ^ bit 14) - the fifth finds all 4 ways reserved. */
static void test_line_alloc_fail(void)
{
    sim_memsys *m = memsys(GTX480, L2_LINE, 1);
    static const uint64_t addr[] = {0, 4096, 8320, 12416, 16640};
    sim_fail_cause why;
    for (uint64_t i = 0; i < 4; i++) {
        sim_mem_request r = load(addr[i], 0);
        CHECK(sim_memsys_access(m, &r, i, &why) == SIM_MEM_MISS);
        sim_memsys_cycle(m, i);
    }
    sim_mem_request r = load(addr[4], 0);
    CHECK(sim_memsys_access(m, &r, 4, &why) == SIM_MEM_RESERVATION_FAIL);
    CHECK(why == SIM_FAIL_LINE_ALLOC);
    /* The first fill (cycle 261 for a line issued at 0) frees a way: the
     * retry at 262 allocates it, evicting the LRU valid line. */
    uint64_t c = 4;
    for (; c < 400; c++) {
        sim_memsys_cycle(m, c);
        if (sim_memsys_access(m, &r, c + 1, &why) != SIM_MEM_RESERVATION_FAIL)
            break;
        CHECK(why == SIM_FAIL_LINE_ALLOC);
    }
    CHECK(c + 1 == 262);
    CHECK(sim_memsys_stats(m)->l1.fails[SIM_FAIL_LINE_ALLOC] == 262 - 4);
    CHECK(sim_memsys_stats(m)->l1.evictions == 1);
    drain(m, 1, c + 1);
    sim_memsys_destroy(m);
}

/* Miss queue of 8: read misses keep one slot free (GPGPU-Sim's "+1"), so 7
 * fit in one cycle and the 8th fails. A store may use the 8th slot. */
static void test_miss_queue(void)
{
    sim_memsys *m = memsys(GTX480, L2_LINE, 1);
    sim_fail_cause why;
    for (uint64_t i = 0; i < 7; i++) {
        sim_mem_request r = load(i * 128, 0);
        CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_MISS);
    }
    sim_mem_request r = load(7 * 128, 0);
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_RESERVATION_FAIL);
    CHECK(why == SIM_FAIL_MISS_QUEUE);
    r.op = SIM_MEM_STORE;
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_SENT);
    CHECK(sim_memsys_access(m, &r, 0, &why) == SIM_MEM_RESERVATION_FAIL);
    CHECK(why == SIM_FAIL_MISS_QUEUE);
    CHECK(sim_memsys_stats(m)->l1.fails[SIM_FAIL_MISS_QUEUE] == 2);
    drain(m, 1, 0);
    sim_memsys_destroy(m);
}

/* ---- stores, atomics, volatile loads ---- */

/* A 128-byte store at cycle 0: 8+128 bytes = 4 flits, received at
 * 0+8+3 = 11; ROP 120: L2 at 131, write miss, write-allocate (no fetch),
 * acknowledged: 1 flit back, received 131+8 = 139. Write-evict: a valid L1
 * copy is dropped, so the next load misses. */
static void test_store(void)
{
    sim_memsys *m = memsys(GTX480, L2_LINE, 1);
    sim_mem_request r = load(4096, 0), d;
    r.op = SIM_MEM_STORE;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_SENT);
    CHECK(until_done(m, 0, 0, &d) == 139);
    CHECK(d.op == SIM_MEM_STORE);
    /* Load it (L2 hit now: 1 flit up at 200, L2 at 328, reply 328+11 = 339,
     * done 339+35 = 374), then store again: the L1 copy goes. */
    r.op = SIM_MEM_LOAD;
    CHECK(sim_memsys_access(m, &r, 200, NULL) == SIM_MEM_MISS);
    CHECK(until_done(m, 0, 200, &d) == 374);
    CHECK(sim_memsys_access(m, &r, 400, NULL) == SIM_MEM_HIT);
    drain(m, 1, 400);
    r.op = SIM_MEM_STORE;
    CHECK(sim_memsys_access(m, &r, 500, NULL) == SIM_MEM_SENT);
    r.op = SIM_MEM_LOAD;
    CHECK(sim_memsys_access(m, &r, 501, NULL) == SIM_MEM_MISS);
    drain(m, 1, 501);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->l2.writes == 2 && s->l2.hits == 3 && s->l2.misses == 1 && s->dram_reads == 0);
    sim_memsys_destroy(m);
}

/* The sectored L2 (GPGPU-Sim's sector cache), counted by hand on a GTX 480
 * whose L2 slices hold one line each (S:1:128:1): 0 and 3072 share channel
 * 0 and sub-partition 0 (see test_addrmap).
 *  1. a 32-byte store to sector 0 of line 0: a write miss that allocates
 *     the line without fetching (sector 0 valid and dirty): 1 access, 1
 *     miss, no DRAM read;
 *  2. a 128-byte load of line 0 (L1 miss): four sector requests at L2,
 *     sector 0 hits, 1-3 miss (sector misses: the line stays) and are
 *     fetched: 3 DRAM reads of 32 bytes, each a whole 64-byte burst;
 *  3. a 32-byte store to line 3072: the one way is line 0, evicted: its
 *     one dirty sector is written back (32 bytes, one 64-byte burst), not
 *     the whole line. */
static void test_sectors(void)
{
    sim_memsys *m = memsys(GTX480, ONE_LINE_L2, 1);
    sim_mem_request r = store(0, 0x1, 32), d;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_SENT);
    until_done(m, 0, 0, &d);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->l2.accesses == 1 && s->l2.misses == 1 && s->dram_reads == 0);
    r = load(0, 0);
    CHECK(sim_memsys_access(m, &r, 1000, NULL) == SIM_MEM_MISS);
    until_done(m, 0, 1000, &d);
    CHECK(s->l2.accesses == 5 && s->l2.hits == 1 && s->l2.misses == 4);
    CHECK(s->dram_reads == 3 && s->dram_bytes_read == 3 * 64 && s->l2.evictions == 0);
    r = store(3072, 0x2, 32);
    CHECK(sim_memsys_access(m, &r, 2000, NULL) == SIM_MEM_SENT);
    settle(m, 2000);
    CHECK(s->l2.evictions == 1 && s->l2.writebacks == 1);
    CHECK(s->dram_writes == 1 && s->dram_bytes_written == 64);
    sim_memsys_destroy(m);
}

/* -trapeze_gs_upper_half_write, by hand on the one-line slices of
 * test_sectors: a 64-byte store to the upper half of line 0 (sectors 2-3,
 * at 64) allocates line 0 with two dirty sectors, then a 64-byte store to
 * its lower half hits that line: no eviction. With the option (GPGPU-Sim
 * 4's breakdown) the first store's sectors go to line 128's tag, so the
 * second store misses and evicts line 128: one write-back of its two dirty
 * sectors, adjacent, so one 64-byte burst. */
static void test_upper_half_quirk(void)
{
    for (int quirk = 0; quirk < 2; quirk++) {
        sim_memsys *m = memsys(GTX480, quirk ? ONE_LINE_L2 "-trapeze_gs_upper_half_write 1\n"
                                             : ONE_LINE_L2, 1);
        sim_mem_request r = store(64, 0xc, 64), d;
        CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_SENT);
        until_done(m, 0, 0, &d);
        r = store(0, 0x3, 64);
        CHECK(sim_memsys_access(m, &r, 1000, NULL) == SIM_MEM_SENT);
        settle(m, 1000);
        const sim_mem_stats *s = sim_memsys_stats(m);
        CHECK(s->l2.accesses == 4 && s->dram_reads == 0);
        CHECK(s->l2.evictions == (uint64_t)quirk && s->l2.writebacks == (uint64_t)quirk);
        CHECK(s->dram_writes == (uint64_t)quirk && s->dram_bytes_written == 64u * (uint64_t)quirk);
        sim_memsys_destroy(m);
    }
}

/* The V100's sectored L1 (S:4:128:64, allocation on fill), counted by hand:
 *  1. a load of sectors 0 and 1 of line 0x8000: 2 accesses, 2 misses, two
 *     32-byte reads to L2 (2 L2 accesses, not the line's 4); it completes
 *     once, when both sectors are back;
 *  2. a load of the whole line: sectors 0 and 1 hit, 2 and 3 miss: 4 more
 *     accesses, 2 hits, 2 misses, 2 more L2 accesses; one completion;
 *  3. the whole line again: 4 hits, done after the L1 latency (20). */
static void test_l1_sectors(void)
{
    sim_memsys *m = memsys(V100, NULL, 1);
    sim_mem_request r = load(0x8000, 0), d;
    r.sector_mask = 0x3;
    r.bytes = 64;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    uint64_t end = drain(m, 1, 0);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->l1.accesses == 2 && s->l1.misses == 2 && s->l1.hits == 0);
    CHECK(s->l2.accesses == 2 && s->l2.misses == 2);
    r = load(0x8000, 0);
    CHECK(sim_memsys_access(m, &r, end, NULL) == SIM_MEM_MISS);
    int completions = 0;
    for (uint64_t c = end; c < end + 5000; c++) {
        sim_memsys_cycle(m, c);
        while (sim_memsys_pop(m, 0, c, &d))
            completions++;
    }
    CHECK(completions == 1 && sim_memsys_outstanding(m) == 0);
    s = sim_memsys_stats(m);   /* the L1's sums are taken when asked */
    CHECK(s->l1.accesses == 6 && s->l1.hits == 2 && s->l1.misses == 4);
    CHECK(s->l2.accesses == 4 && s->l2.misses == 4);
    CHECK(sim_memsys_access(m, &r, end + 5000, NULL) == SIM_MEM_HIT);
    CHECK(until_done(m, 0, end + 5000, &d) == end + 5000 + 20);
    s = sim_memsys_stats(m);
    CHECK(s->l1.accesses == 10 && s->l1.hits == 6);
    sim_memsys_destroy(m);
}

/* Loads lines 0..n-1 (128 B each, all sectors) on SM 0 one per cycle as
 * the port takes them, from cycle c, and drains; returns the cycle after. */
static uint64_t load_lines(sim_memsys *m, int n, uint64_t c)
{
    for (int i = 0; i < n; c++) {
        sim_mem_request r = load((uint64_t)i * 128, 0), d;
        if (sim_memsys_access(m, &r, c, NULL) != SIM_MEM_RESERVATION_FAIL)
            i++;
        sim_memsys_cycle(m, c);
        while (sim_memsys_pop(m, 0, c, &d))
            ;
    }
    return drain(m, 1, c);
}

/* The Volta L1/shared carve-out (-gpgpu_adaptive_cache_config 1), as
 * GPGPU-Sim's shader.cc sets it: the V100's L1 spec has 64 ways (32 KB),
 * the carve-out up to 4 x 64 = 256 (128 KB): 256 ways with no shared
 * memory, 240 (15/16) with 8 KB, 224 (7/8) with 10 KB, 64 (1/4) with
 * 70 KB, the spec's 64 when the whole 96 KB is used. With 256 ways a
 * 128 KB working set (1024 lines, 256 per set of the 4) stays: reloaded,
 * its 4096 sectors all hit; with the fixed 32 KB L1 none does. */
static void test_l1_carveout(void)
{
    sim_memsys *m = memsys(V100, NULL, 1);   /* v100.config sets the option */
    CHECK(sim_memsys_carve_l1(m, 8192) == 240);
    CHECK(sim_memsys_carve_l1(m, 10000) == 224);
    CHECK(sim_memsys_carve_l1(m, 70000) == 64);
    CHECK(sim_memsys_carve_l1(m, 98304) == 64);
    CHECK(sim_memsys_carve_l1(m, 0) == 256);
    uint64_t c = load_lines(m, 1024, 0);
    uint64_t hits = sim_memsys_stats(m)->l1.hits;
    load_lines(m, 1024, c);
    CHECK(sim_memsys_stats(m)->l1.hits - hits == 4096);
    sim_memsys_destroy(m);
    m = memsys(V100, "-gpgpu_adaptive_cache_config 0\n", 1);
    CHECK(sim_memsys_carve_l1(m, 0) == 64);   /* not configured: the spec's */
    c = load_lines(m, 1024, 0);
    hits = sim_memsys_stats(m)->l1.hits;
    load_lines(m, 1024, c);
    CHECK(sim_memsys_stats(m)->l1.hits - hits == 0);
    sim_memsys_destroy(m);
}

/* The carve-out of GPGPU-Sim's dev branch (-gpgpu_unified_l1d_size U,
 * -gpgpu_shmem_option), on Accel-Sim's configs as shipped: the most ways
 * are U / (dl1 KB) x dl1 ways; the least option S >= the shared memory
 * leaves (int)(most x (1 - S/U) + 0.5).
 *  - SM80_A100: dl1 4 x 128 B x 64 = 32 KB, U = 192: 6 x 64 = 384 ways.
 *    None: S = 0, 384 (192 KB, where the 4.0 table gave 256). 20 KB: S =
 *    32, 384 x 5/6 = 320. 164 KB: S = 164, 384 x 28/192 = 56.
 *  - SM86_RTX3070: dl1 4 x 128 x 256 = 128 KB = U: 256 ways at most (the
 *    4.0 table would give 1024). 100 KB: 256 x 28/128 = 56.
 *  - SM75_RTX2060: dl1 32 KB, U = 96, options 32,64: most 192; none: S =
 *    32, 192 x 2/3 = 128. 40 KB: S = 64, 192 x 1/3 = 64.
 *  - SM7_QV100: U = 128 over 32 KB, options 0..96 repeat the 4.0 table.
 *  - U not a multiple of the dl1's KB is refused, naming the option. */
static void test_l1_carveout_unified(void)
{
    const char *U = "tests/configs/accelsim/";
    static const struct { const char *gpu; long shmem; int ways; } want[] = {
        {"SM80_A100", 0, 384},       {"SM80_A100", 20480, 320}, {"SM80_A100", 167936, 56},
        {"SM86_RTX3070", 0, 256},    {"SM86_RTX3070", 102400, 56},
        {"SM75_RTX2060", 0, 128},    {"SM75_RTX2060", 40960, 64},
        {"SM7_QV100", 0, 256},       {"SM7_QV100", 8192, 240},  {"SM7_QV100", 10000, 224},
        {"SM7_QV100", 98304, 64},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s%s/gpgpusim.config", U, want[i].gpu);
        sim_memsys *m = memsys(path, NULL, 1);
        int got = sim_memsys_carve_l1(m, want[i].shmem);
        if (got != want[i].ways) {
            fprintf(stderr, "%s, %ld B shared: %d ways, want %d\n", want[i].gpu, want[i].shmem,
                    got, want[i].ways);
            bad++;
        }
        sim_memsys_destroy(m);
    }
    CHECK(bad == 0);
    trapeze_config *cfg = config("tests/configs/accelsim/SM80_A100/gpgpusim.config",
                                 "-gpgpu_unified_l1d_size 100\n");
    sim_memsys *m = NULL;
    trapeze_error err;
    CHECK(sim_memsys_create(cfg, 1, NULL, &m, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "-gpgpu_unified_l1d_size: 100 KB is not a multiple of the dl1's "
                              "32 KB") != NULL);
    trapeze_config_destroy(cfg);
}

/* Atomics from three SMs to one word reach L2 in issue order and return
 * 0, 1, 2 (old values); a volatile load then reads 3 + 5 = 8 at L2. */
static void test_atomics(void)
{
    sim_memsys *m = memsys(GTX480, NULL, 4);
    uint64_t word = 0x10004;
    for (int i = 0; i < 3; i++) {
        sim_mem_request r = load(word, i);
        r.op = SIM_MEM_ATOMIC;
        r.value = 1;
        r.bytes = 4;
        CHECK(sim_memsys_access(m, &r, (uint64_t)i, NULL) == SIM_MEM_SENT);
        sim_memsys_cycle(m, (uint64_t)i);
    }
    uint32_t old[3] = {99, 99, 99};
    for (uint64_t c = 3; c < 2000; c++) {
        sim_memsys_cycle(m, c);
        sim_mem_request d;
        for (int s = 0; s < 3; s++)
            if (sim_memsys_pop(m, s, c, &d))
                old[s] = d.value;
    }
    CHECK(old[0] == 0 && old[1] == 1 && old[2] == 2);
    CHECK(sim_memsys_peek(m, word) == 3);
    sim_mem_request r = load(word, 3);
    r.op = SIM_MEM_ATOMIC;
    r.value = 5;
    sim_memsys_access(m, &r, 2000, NULL);
    sim_mem_request d;
    until_done(m, 3, 2000, &d);
    CHECK(d.value == 3);
    /* Volatile load: bypasses L1 (no L1 access counted), value from L2. */
    r = load(word, 3);
    r.flags = SIM_MEM_VOLATILE;
    uint64_t l1_before = sim_memsys_stats(m)->l1.accesses;
    CHECK(sim_memsys_access(m, &r, 3000, NULL) == SIM_MEM_SENT);
    until_done(m, 3, 3000, &d);
    CHECK(d.value == 8);
    CHECK(sim_memsys_stats(m)->l1.accesses == l1_before);
    CHECK(sim_memsys_stats(m)->atomics_performed == 4);
    /* No atomic touched the L1 (Accel-Sim's CACHE_GLOBAL): not an access,
     * and no L1 write energy. */
    CHECK(sim_memsys_stats(m)->l1.accesses == 0);
    /* One request for words 0, 2 and 7 of the segment at 0x20000 (addr its
     * lowest word, preset to 10, 20, 70): one L2 access, each word + 2,
     * the old value of addr's word back. */
    sim_memsys_poke(m, 0x20000, 10);
    sim_memsys_poke(m, 0x20008, 20);
    sim_memsys_poke(m, 0x2001c, 70);
    uint64_t l2_before = sim_memsys_stats(m)->l2.accesses;
    r = load(0x20000, 2);
    r.op = SIM_MEM_ATOMIC;
    r.value = 2;
    r.bytes = 32;
    r.words = 1u << 0 | 1u << 2 | 1u << 7;
    CHECK(sim_memsys_access(m, &r, 3500, NULL) == SIM_MEM_SENT);
    until_done(m, 2, 3500, &d);
    CHECK(d.value == 10);
    CHECK(sim_memsys_peek(m, 0x20000) == 12 && sim_memsys_peek(m, 0x20004) == 0 &&
          sim_memsys_peek(m, 0x20008) == 22 && sim_memsys_peek(m, 0x2001c) == 72);
    CHECK(sim_memsys_stats(m)->l2.accesses == l2_before + 1);
    CHECK(sim_memsys_stats(m)->atomics_performed == 7);
    CHECK(sim_memsys_stats(m)->l1.accesses == 0);
    /* A value-carrying store, then a poke, seen by volatile loads. */
    r = load(word, 0);
    r.op = SIM_MEM_STORE;
    r.flags = SIM_MEM_STORE_VALUE;
    r.value = 77;
    sim_memsys_access(m, &r, 4000, NULL);
    until_done(m, 0, 4000, &d);
    CHECK(sim_memsys_peek(m, word) == 77);
    sim_memsys_poke(m, word + 4, 11);
    r = load(word + 4, 0);
    r.flags = SIM_MEM_VOLATILE;
    sim_memsys_access(m, &r, 5000, NULL);
    until_done(m, 0, 5000, &d);
    CHECK(d.value == 11 && sim_memsys_peek(m, 0x999990) == 0);
    drain(m, 4, 6000);
    sim_memsys_destroy(m);
}

/* ---- the other GPUs ---- */

/* GTX 280: no L1, no L2. A 32-byte load (one sector) goes icnt -> memory
 * partition -> DRAM and back. Clocks core 1300, icnt/L2 650 (tick k in core
 * cycle 2k), DRAM 1107 (tick k in core floor(k*1300/1107)); no
 * -icnt_flit_size, so 32-byte flits; ROP 85 (GPGPU-Sim default), DRAM
 * latency 100, RCD 11, CL 11, burst 4 / ratio 2 = 2 cycles, atom 4x4x2 = 32:
 *   icnt tick 0 (core 0), 1 flit, received at tick 8 = core 16;
 *   ROP: ready 101; the next L2 tick is core 102; to DRAM, ready 202;
 *   first DRAM tick at core >= 202: k = 173 (core 203); ACT 173, READ 184,
 *     data done 184+11+2 = 197 = core floor(197*1300/1107) = 231;
 *   next icnt tick at core >= 231: tick 116 (core 232); reply 8+32 bytes =
 *     2 flits, received at tick 116+8+1 = 125 = core 250. No L1 latency. */
static void test_gtx280(void)
{
    sim_memsys *m = memsys(GTX280, NULL, 30);
    sim_mem_request r = load(0, 5), d;
    r.sector_mask = 0x1;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_SENT);
    uint64_t t = until_done(m, 5, 0, &d);
    CHECK(t == 250);
    CHECK(t != UINT64_MAX);
    const sim_mem_stats *s = sim_memsys_stats(m);
    CHECK(s->l1.bypasses == 1 && s->l2.accesses == 0 && s->dram_reads == 1);
    CHECK(s->dram_bytes_read == 32);
    /* The same with 4 sectors moves 128 bytes = 4 atoms of 32. */
    r.sector_mask = 0xf;
    sim_memsys_access(m, &r, 10000, NULL);
    until_done(m, 5, 10000, &d);
    CHECK(s->dram_bytes_read == 32 + 128);
    r.op = SIM_MEM_STORE;
    sim_memsys_access(m, &r, 20000, NULL);
    until_done(m, 5, 20000, &d);
    CHECK(s->dram_writes == 1);
    drain(m, 30, 30000);
    sim_memsys_destroy(m);
}

/* Between kernels the L1s are flushed: the same line misses again. */
static void test_flush_and_reset(void)
{
    sim_memsys *m = memsys(GTX480, NULL, 1);
    sim_mem_request r = load(0, 0), d;
    sim_memsys_access(m, &r, 0, NULL);
    until_done(m, 0, 0, &d);
    CHECK(sim_memsys_access(m, &r, 400, NULL) == SIM_MEM_HIT);
    drain(m, 1, 400);
    sim_memsys_flush_l1(m);
    sim_memsys_reset_stats(m);
    CHECK(sim_memsys_stats(m)->l1.accesses == 0 && sim_memsys_stats(m)->dram_cycles == 0);
    CHECK(sim_memsys_access(m, &r, 1000, NULL) == SIM_MEM_MISS);
    drain(m, 1, 1000);
    /* the L2 still holds the line: its four sectors hit */
    CHECK(sim_memsys_stats(m)->l2.hits == 4 && sim_memsys_l1_stats(m, 0)->misses == 1);
    sim_memsys_destroy(m);
}

static void test_v100(void)
{
    sim_memsys *m = memsys(V100, NULL, 80);
    sim_mem_request r = load(123 * 128, 79), d;
    CHECK(sim_memsys_access(m, &r, 0, NULL) == SIM_MEM_MISS);
    CHECK(until_done(m, 79, 0, &d) != UINT64_MAX);
    CHECK(sim_memsys_access(m, &r, 5000, NULL) == SIM_MEM_HIT);
    drain(m, 80, 5000);
    sim_memsys_destroy(m);
}

/* A fill is not starved by hits. V100, 80 SMs: SMs 2..79 poll one line
 * with volatile loads (two in flight each, reissued as they complete; a
 * 128-byte reply is 4 flits, so the slice's reply queue fills and then
 * frees one slot per 4 icnt cycles, which the next hit takes). At cycle
 * 1000 SMs 0 and 1 load another line of the same sub-partition: one L2
 * miss with 2 requests, whose fill needs 2 reply slots at once. It used to
 * wait for ever (the V100 fence-mode stencils' hang); it must complete
 * within 1500 cycles: the unloaded miss (~650 cycles: icnt, ROP 120, DRAM
 * latency 100, L1 28) plus a full reply queue drained once (64 x 4 icnt
 * cycles), with room to spare, while the pollers keep completing. */
static void test_fill_not_starved(void)
{
    sim_memsys *m = memsys(V100, NULL, 80);
    uint64_t flag = 0x20000000, line = flag + 128;
    int sub = sim_addrmap_decode(&m->cfg.map, flag).sub;
    while (sim_addrmap_decode(&m->cfg.map, line).sub != sub)
        line += 128;
    int in_flight[80] = {0};
    uint64_t done_at[2] = {0, 0}, polls_after = 0, c = 0;
    int issued[2] = {0, 0};
    for (; c < 4000; c++) {
        for (int s = 2; s < 80; s++)
            while (in_flight[s] < 2) {
                sim_mem_request r = load(flag, s);
                r.flags = SIM_MEM_VOLATILE;
                if (sim_memsys_access(m, &r, c, NULL) == SIM_MEM_RESERVATION_FAIL)
                    break;
                in_flight[s]++;
            }
        for (int s = 0; s < 2; s++)
            if (c >= 1000 && !issued[s]) {
                sim_mem_request r = load(line, s);
                issued[s] = sim_memsys_access(m, &r, c, NULL) != SIM_MEM_RESERVATION_FAIL;
            }
        sim_memsys_cycle(m, c);
        sim_mem_request d;
        for (int s = 0; s < 80; s++)
            while (sim_memsys_pop(m, s, c, &d)) {
                if (s < 2)
                    done_at[s] = c;
                else
                    in_flight[s]--, polls_after += done_at[0] > 0;
            }
    }
    CHECK(sim_memsys_stats(m)->l2.merges >= 1);
    CHECK(done_at[0] > 1000 && done_at[0] < 2500);
    CHECK(done_at[1] > 1000 && done_at[1] < 2500);
    CHECK(polls_after > 100);   /* the pollers were still at it */
    drain(m, 80, c);
    sim_memsys_destroy(m);
}

/* ---- idle skipping, determinism, bandwidth ---- */

/* Jumping from event to event gives the same completion cycle (300) as
 * stepping every cycle, in far fewer calls; idle means UINT64_MAX. */
static void test_next_event(void)
{
    sim_memsys *m = memsys(GTX480, NULL, 15);
    CHECK(sim_memsys_next_event(m, 0) == UINT64_MAX);
    sim_mem_request r = load(0, 2), d;
    sim_memsys_access(m, &r, 0, NULL);
    uint64_t c = 0, calls = 0, done = 0;
    while (c != UINT64_MAX && calls < 10000) {
        sim_memsys_cycle(m, c);
        calls++;
        if (sim_memsys_pop(m, 2, c, &d))
            done = c;
        uint64_t next = sim_memsys_next_event(m, c);
        CHECK(next > c);
        c = next;
    }
    CHECK(done == 300);   /* test_miss_latency's sectored derivation */
    CHECK(calls < 100);
    CHECK(sim_memsys_outstanding(m) == 0);
    sim_memsys_destroy(m);
}

/* A fixed mix of loads, stores and atomics over 15 SMs, over 2 MB (the
 * 768 KB L2 must evict and write back; since its sets are indexed by the
 * partition address, 512 KB fit in it). */
static void mixed_run(sim_mem_stats *out, sim_cache_stats *sm7)
{
    sim_memsys *m = memsys(GTX480, NULL, 15);
    uint64_t x = 12345;
    uint64_t c = 0;
    for (; c < 20000; c++) {
        for (int s = 0; s < 15; s++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            sim_mem_request r = load(((x >> 20) % 16384) * 128, s);
            int k = (int)((x >> 8) % 16);
            r.op = k == 0 ? SIM_MEM_STORE : k == 1 ? SIM_MEM_ATOMIC : SIM_MEM_LOAD;
            r.value = 1;
            sim_memsys_access(m, &r, c, NULL);
        }
        sim_memsys_cycle(m, c);
        sim_mem_request d;
        for (int s = 0; s < 15; s++)
            while (sim_memsys_pop(m, s, c, &d))
                ;
    }
    drain(m, 15, c);
    *out = *sim_memsys_stats(m);
    *sm7 = *sim_memsys_l1_stats(m, 7);
    CHECK(out->l1.reservation_fails > 0 && out->dram_row_hits > 0 && out->l2.writebacks > 0);
    sim_memsys_destroy(m);
}

static void test_determinism(void)
{
    sim_mem_stats a, b;
    sim_cache_stats a7, b7;
    memset(&a, 0, sizeof a);
    memset(&b, 0xff, sizeof b);
    mixed_run(&a, &a7);
    mixed_run(&b, &b7);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(memcmp(&a7, &b7, sizeof a7) == 0);
}

/* Saturating sequential loads on the GTX 480: peak = 6 channels x 64 bytes
 * per 2 DRAM cycles x 924/700 = 253.44 bytes per core cycle. A stream of
 * row-hitting reads should reach most of it (loose bounds; exact value is
 * the benchmark's to print). */
static void test_stream(void)
{
    trapeze_config *cfg = config(GTX480, NULL);
    trapeze_error err;
    double achieved = 0, peak = 0;
    CHECK_OK(sim_memsys_probe_stream(cfg, 15, 15 * 2048, &achieved, &peak, &err));
    CHECK_NEAR(peak, 6 * 64 / 2.0 * 924.0 / 700.0, 1e-9);
    printf("stream: %.1f of %.1f bytes/cycle (%.0f%%)\n", achieved, peak, 100 * achieved / peak);
    CHECK(achieved > 0.6 * peak && achieved <= peak);
    trapeze_config_destroy(cfg);
}

/* The completion queue pops in (ready, push order) whatever the push order,
 * across the ring's wrap and its growth: 4 slots, the head moved to 1, then
 * pushes in falling ready order that wrap and grow it to 8. */
static void test_done_queue(void)
{
    static sim_memsys m;   /* unused by the queue */
    sim_sm_port p;
    memset(&p, 0, sizeof p);
    p.done.capacity = 4;
    p.done.items = malloc(4 * sizeof *p.done.items);
    CHECK(p.done.items != NULL);
    if (!p.done.items)
        return;
    sim_mem_request r;
    memset(&r, 0, sizeof r);
    uint64_t ready[] = {10, 10, 12, 9, 12, 7, 10};   /* tags 0..6 */
    for (int i = 0; i < 2; i++) {
        r.tag = (uint64_t)i;
        sim_done_push(&m, &p, &r, ready[i]);
    }
    sim_mem_request out;
    CHECK(!sim_done_pop(&p.done, 9, &out));          /* nothing ready at 9 */
    CHECK(sim_done_pop(&p.done, 10, &out) && out.tag == 0);
    for (int i = 2; i < 7; i++) {
        r.tag = (uint64_t)i;
        sim_done_push(&m, &p, &r, ready[i]);
    }
    CHECK(p.done.capacity == 8 && p.done.count == 6);
    /* (ready, order): 7:#5, 9:#3, 10:#1, 10:#6, 12:#2, 12:#4 */
    uint64_t want[] = {5, 3, 1, 6, 2, 4};
    for (int i = 0; i < 6; i++)
        CHECK(sim_done_pop(&p.done, 100, &out) && out.tag == want[i]);
    CHECK(!sim_done_pop(&p.done, 100, &out));
    free(p.done.items);
}

/* pop_next pops SM by SM as a pop of each SM would: completions queued
 * (their requests counted as accepted) at SMs 1 (cycles 5, 5, 9) and 3
 * (cycle 4); at cycle 5 it answers 1, 1, 3 (tags 10, 11, 30), then 4 (none
 * left due), and SM 1's cycle-9 completion stays for cycle 9; from 2 on it
 * passes SM 1 by. */
static void test_pop_next(void)
{
    sim_memsys *m = memsys(GTX480, NULL, 4);
    const int sm[] = {1, 1, 1, 3};
    const uint64_t ready[] = {5, 9, 5, 4}, tag[] = {10, 12, 11, 30};
    for (int i = 0; i < 4; i++) {
        sim_mem_request r = load(0, sm[i]);
        r.tag = tag[i];
        sim_done_push(m, &m->sm[sm[i]], &r, ready[i]);
        m->sm[sm[i]].outstanding++;
    }
    sim_mem_request d;
    const int want_sm[] = {1, 1, 3};
    const uint64_t want_tag[] = {10, 11, 30};
    int s = 0;
    for (int i = 0; i < 3; i++) {
        s = sim_memsys_pop_next(m, s, 5, &d);
        CHECK(s == want_sm[i] && d.tag == want_tag[i]);
    }
    CHECK(sim_memsys_pop_next(m, s, 5, &d) == 4);
    CHECK(sim_memsys_pop_next(m, 2, 9, &d) == 4);   /* SM 1's is before 2 */
    CHECK(sim_memsys_pop_next(m, 0, 9, &d) == 1 && d.tag == 12);
    CHECK(sim_memsys_outstanding(m) == 0);
    sim_memsys_destroy(m);
}

int main(void)
{
    test_popcount();
    test_clock_bits();
    test_coalesce_strides();
    test_coalesce_atomic();
    test_shmem_conflicts();
    test_shmem_conflicts_random();
    test_config();
    test_addrmap();
    test_random_indexing();
    test_set_index();
    test_mshr_index();
    test_grow_for();
    test_idtab_hash_bits();
    test_tag_index(8, SIM_REP_LRU);
    test_tag_index(19, SIM_REP_LRU);
    test_tag_index(19, SIM_REP_FIFO);
    test_tag_index(64, SIM_REP_LRU);
    test_tag_index(64, SIM_REP_FIFO);
    test_miss_latency();
    test_simple_dram();
    test_dram_latency_queue();
    test_l2_miss_queue();
    test_l1_latency_queue();
    test_l1_probe_holds_stages();
    test_local_xbar();
    test_booksim_xbar();
    test_row_hit_miss_same_clock();
    test_dram_dual_bus();
    test_row_hit_miss_gtx480();
    test_mshr_merge();
    test_mshr_entries();
    test_line_alloc_fail();
    test_miss_queue();
    test_store();
    test_sectors();
    test_upper_half_quirk();
    test_l1_sectors();
    test_l1_carveout();
    test_l1_carveout_unified();
    test_atomics();
    test_gtx280();
    test_flush_and_reset();
    test_v100();
    test_fill_not_starved();
    test_next_event();
    test_determinism();
    test_stream();
    test_done_queue();
    test_pop_next();
    return check_report("test_sim_mem");
}
