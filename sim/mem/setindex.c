/*
 * setindex.c - GPGPU-Sim's set index functions (see setindex.h), bit for
 * bit: the IPOLY tables are hashing.cc's equations, held by column (the
 * index bits each bit of the higher address flips).
 */
#include "sim/mem/setindex.h"

/* The IPOLY tables by column: column k holds the index bits that bit a[k]
 * of the higher address flips, which is x^(n+k) mod P(x) for the index's n
 * bits (hashing.cc's equations, one per index bit, read across; test_sim_mem
 * checks every column against that power). hashing.cc's three list a[k] up
 * to k = 12, 14 and 18 (P = x^4+x+1, x^5+x^2+1, x^6+x+1); the 128 and 256
 * sub-partitions (the H100's 80 channels x 2, rounded up), which hashing.cc
 * lacks (it asserts), carry the same construction one degree further over
 * all 64 bits of the higher address, with Peterson's primitive polynomials
 * P = x^7+x+1 and x^8+x^4+x^3+x^2+1. By columns, the hash is the index
 * XORed with the columns of the higher address's set bits: a lookup per set
 * bit, where one parity per index bit folded all 64 bits each time. */
static const uint8_t ipoly16[13] = {3, 6, 12, 11, 5, 10, 7, 14, 15, 13, 9, 1, 2};
static const uint8_t ipoly32[15] = {5, 10, 20, 13, 26, 17, 7, 14, 28, 29, 31, 27, 19, 3, 6};
static const uint8_t ipoly64[19] = {3,  6,  12, 24, 48, 35, 5,  10, 20, 40,
                                    19, 38, 15, 30, 60, 59, 53, 41, 17};
static const uint8_t ipoly128[64] = {
    3,   6,   12,  24,  48, 96, 67,  5,   10,  20,  40,  80,  35, 70,  15,  30,
    60,  120, 115, 101, 73, 17, 34,  68,  11,  22,  44,  88,  51, 102, 79,  29,
    58,  116, 107, 85,  41, 82, 39,  78,  31,  62,  124, 123, 117, 105, 81, 33,
    66,  7,   14,  28,  56, 112, 99, 69,  9,   18,  36,  72,  19, 38,  76,  27};
static const uint8_t ipoly256[64] = {
    29,  58,  116, 232, 205, 135, 19,  38,  76,  152, 45,  90,  180, 117, 234, 201,
    143, 3,   6,   12,  24,  48,  96,  192, 157, 39,  78,  156, 37,  74,  148, 53,
    106, 212, 181, 119, 238, 193, 159, 35,  70,  140, 5,   10,  20,  40,  80,  160,
    93,  186, 105, 210, 185, 111, 222, 161, 95,  190, 97,  194, 153, 47,  94,  188};

/* index (its low bits, n = 2^bits) with the columns of higher's set bits
 * among the first n_cols XORed in; the bits past n_cols add nothing. */
static unsigned ipoly(const uint8_t *cols, int n_cols, int bits, uint64_t higher, unsigned index)
{
    if (n_cols < 64)
        higher &= (1ull << n_cols) - 1;
    unsigned out = index & ((1u << bits) - 1);
    for (; higher; higher &= higher - 1)
        out ^= cols[__builtin_ctzll(higher)];
    return out;
}

unsigned sim_ipoly_hash(uint64_t higher, unsigned index, unsigned n)
{
    switch (n) {
    case 16: return ipoly(ipoly16, 13, 4, higher, index);
    case 32: return ipoly(ipoly32, 15, 5, higher, index);
    case 64: return ipoly(ipoly64, 19, 6, higher, index);
    case 128: return ipoly(ipoly128, 64, 7, higher, index);
    case 256: return ipoly(ipoly256, 64, 8, higher, index);
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
