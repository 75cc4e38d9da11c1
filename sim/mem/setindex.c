/*
 * setindex.c - GPGPU-Sim's set index functions (see setindex.h), bit for
 * bit: the IPOLY tables are hashing.cc's equations, one row per index bit
 * listing the bits of the higher address that are XORed into it.
 */
#include "sim/mem/setindex.h"

#define END 0xff

/* Per index bit: the bits a[k] of the higher address XORed in (END-ended). */
static const uint8_t ipoly16[4][16] = {
    {11, 10, 9, 8, 6, 4, 3, 0, END},
    {12, 8, 7, 6, 5, 3, 1, 0, END},
    {9, 8, 7, 6, 4, 2, 1, END},
    {10, 9, 8, 7, 5, 3, 2, END}};
static const uint8_t ipoly32[5][16] = {
    {13, 12, 11, 10, 9, 6, 5, 3, 0, END},
    {14, 13, 12, 11, 10, 7, 6, 4, 1, END},
    {14, 10, 9, 8, 7, 6, 3, 2, 0, END},
    {11, 10, 9, 8, 7, 4, 3, 1, END},
    {12, 11, 10, 9, 8, 5, 4, 2, END}};
static const uint8_t ipoly64[6][16] = {
    {18, 17, 16, 15, 12, 10, 6, 5, 0, END},
    {15, 13, 12, 11, 10, 7, 5, 1, 0, END},
    {16, 14, 13, 12, 11, 8, 6, 2, 1, END},
    {17, 15, 14, 13, 12, 9, 7, 3, 2, END},
    {18, 16, 15, 14, 13, 10, 8, 4, 3, END},
    {17, 16, 15, 14, 11, 9, 5, 4, END}};

static unsigned ipoly(const uint8_t (*rows)[16], int bits, uint64_t higher, unsigned index)
{
    unsigned out = 0;
    for (int b = 0; b < bits; b++) {
        unsigned x = index >> b & 1;
        for (const uint8_t *k = rows[b]; *k != END; k++)
            x ^= (unsigned)(higher >> *k) & 1;
        out |= x << b;
    }
    return out;
}

unsigned sim_ipoly_hash(uint64_t higher, unsigned index, unsigned n)
{
    switch (n) {
    case 16: return ipoly(ipoly16, 4, higher, index);
    case 32: return ipoly(ipoly32, 5, higher, index);
    case 64: return ipoly(ipoly64, 6, higher, index);
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
