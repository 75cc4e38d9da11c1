/*
 * popcount.h - bit counts for the simulator's hot paths. Without -march,
 * __builtin_popcount compiles to a libgcc call (__popcountdi2); this is
 * the classic SWAR count, a dozen inline instructions. Owns nothing else.
 */
#ifndef TRAPEZE_SIM_MEM_POPCOUNT_H
#define TRAPEZE_SIM_MEM_POPCOUNT_H

#include <stdint.h>

static inline int sim_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

/* A whole warp's active mask, or a whole sector's bytes, is the common
 * case: answered without the count. */
static inline int sim_popcount32(uint32_t x) { return x == UINT32_MAX ? 32 : sim_popcount64(x); }

#endif
