/*
 * setindex.c - GPGPU-Sim's set index functions (see setindex.h), bit for
 * bit: the IPOLY tables are hashing.cc's equations, one mask per index bit
 * of the bits of the higher address that are XORed into it.
 */
#include "sim/mem/setindex.h"

/* Per index bit: the bits a[k] of the higher address XORed into it, as a
 * mask (the hash is then one parity per index bit). */
#define B(k) (1ull << (k))
static const uint64_t ipoly16[4] = {
    B(11) | B(10) | B(9) | B(8) | B(6) | B(4) | B(3) | B(0),
    B(12) | B(8) | B(7) | B(6) | B(5) | B(3) | B(1) | B(0),
    B(9) | B(8) | B(7) | B(6) | B(4) | B(2) | B(1),
    B(10) | B(9) | B(8) | B(7) | B(5) | B(3) | B(2),
};
static const uint64_t ipoly32[5] = {
    B(13) | B(12) | B(11) | B(10) | B(9) | B(6) | B(5) | B(3) | B(0),
    B(14) | B(13) | B(12) | B(11) | B(10) | B(7) | B(6) | B(4) | B(1),
    B(14) | B(10) | B(9) | B(8) | B(7) | B(6) | B(3) | B(2) | B(0),
    B(11) | B(10) | B(9) | B(8) | B(7) | B(4) | B(3) | B(1),
    B(12) | B(11) | B(10) | B(9) | B(8) | B(5) | B(4) | B(2),
};
static const uint64_t ipoly64[6] = {
    B(18) | B(17) | B(16) | B(15) | B(12) | B(10) | B(6) | B(5) | B(0),
    B(15) | B(13) | B(12) | B(11) | B(10) | B(7) | B(5) | B(1) | B(0),
    B(16) | B(14) | B(13) | B(12) | B(11) | B(8) | B(6) | B(2) | B(1),
    B(17) | B(15) | B(14) | B(13) | B(12) | B(9) | B(7) | B(3) | B(2),
    B(18) | B(16) | B(15) | B(14) | B(13) | B(10) | B(8) | B(4) | B(3),
    B(17) | B(16) | B(15) | B(14) | B(11) | B(9) | B(5) | B(4),
};
#undef B
/* 128 and 256 sub-partitions (the H100's 80 channels x 2, rounded up), which
 * hashing.cc lacks (it asserts): the same construction carried one degree
 * further. Row b holds bit b of x^(n+k) mod P(x) for every k, which is what
 * the three tables above are (over the k they list: test_sim_mem checks it),
 * with Peterson's primitive polynomials P = x^7 + x + 1 (the 128 rows) and
 * x^8 + x^4 + x^3 + x^2 + 1 (the 256 rows); all 64 bits of the higher address. */
static const uint64_t ipoly128[7] = {
    0x91c2f95cd13c50c1ull, 0xb2470be57344f143ull, 0x648e17cae689e286ull, 0xc91c2f95cd13c50cull,
    0x92385f2b9a278a18ull, 0x2470be57344f1430ull, 0x48e17cae689e2860ull,
};
static const uint64_t ipoly256[8] = {
    0x35b504ec9303a471ull, 0x6b6a09d9260748e2ull, 0xe361175edf0d35b5ull, 0xf3772a512d19cf1bull,
    0xd35b504ec9303a47ull, 0xa6b6a09d9260748eull, 0x4d6d413b24c0e91cull, 0x9ada82764981d238ull,
};

static unsigned ipoly(const uint64_t *rows, int bits, uint64_t higher, unsigned index)
{
    unsigned out = 0;
    for (int b = 0; b < bits; b++)
        out |= ((index >> b & 1) ^ (unsigned)__builtin_parityll(higher & rows[b])) << b;
    return out;
}

unsigned sim_ipoly_hash(uint64_t higher, unsigned index, unsigned n)
{
    switch (n) {
    case 16: return ipoly(ipoly16, 4, higher, index);
    case 32: return ipoly(ipoly32, 5, higher, index);
    case 64: return ipoly(ipoly64, 6, higher, index);
    case 128: return ipoly(ipoly128, 7, higher, index);
    case 256: return ipoly(ipoly256, 8, higher, index);
    default: return index;
    }
}

static int log2u(unsigned n)
{
    int l = 0;
    while ((1u << l) < n)
        l++;
    return l;
}

unsigned sim_set_index(uint64_t addr, unsigned sets, int line_log2, sim_set_index_fn fn)
{
    unsigned linear = (unsigned)(addr >> line_log2) & (sets - 1);
    switch (fn) {
    case SIM_SETIDX_FERMI: {
        if (sets != 32 && sets != 64)
            return linear;
        unsigned lower = (unsigned)(addr >> line_log2) & 0x1f;
        unsigned upper = (unsigned)((addr & 0xe000) >> 13);   /* bits 13, 14, 15 */
        upper |= (unsigned)((addr & 0x20000) >> 14);           /* bit 17 */
        upper |= (unsigned)((addr & 0x80000) >> 15);           /* bit 19 */
        unsigned set = lower ^ upper;
        if (sets == 64)
            set |= (unsigned)((addr & 0x1000) >> 7);           /* bit 12 -> bit 5 */
        return set;
    }
    case SIM_SETIDX_IPOLY:
        return sim_ipoly_hash(addr >> (line_log2 + log2u(sets)), linear, sets);
    case SIM_SETIDX_XOR:
        return linear ^ ((unsigned)(addr >> (line_log2 + log2u(sets))) & (sets - 1));
    default:
        return linear;
    }
}

const char *sim_set_index_check(sim_set_index_fn fn, unsigned sets)
{
    if (fn == SIM_SETIDX_FERMI && sets != 32 && sets != 64)
        return "the Fermi hash (H) needs 32 or 64 sets";
    if (fn == SIM_SETIDX_IPOLY && sets != 16 && sets != 32 && sets != 64)
        return "the IPOLY hash (P) needs 16, 32 or 64 sets";
    return 0;
}
