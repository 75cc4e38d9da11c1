/*
 * setindex.h - GPGPU-Sim's set index functions (gpu-cache.cc hash_function,
 * hashing.cc): which set of a cache, or which memory sub-partition, an
 * address falls in. Pure functions of the address; no state, no timing.
 *
 *   'L' linear   (addr >> line_log2) mod sets
 *   'H' Fermi    bits 7-11 XOR bits 13,14,15,17,19 (Nugteren et al., HPCA
 *                2014); 64 sets put bit 12 in bit 5. 32 or 64 sets only.
 *   'P' IPOLY    Rau's pseudo-random interleaving, the polynomials GPGPU-Sim
 *                uses: IPOLY(5) for 16, IPOLY(37) for 32, IPOLY(67) for 64;
 *                128 and 256 (memory sub-partitions only) carried on from
 *                them with x^7+x+1 and x^8+x^4+x^3+x^2+1.
 *   'X' XOR      index XOR the next log2(sets) bits above it.
 *   'C' custom   GPGPU-Sim implements none (its index is then always 0);
 *                taken here as linear.
 */
#ifndef TRAPEZE_SIM_MEM_SETINDEX_H
#define TRAPEZE_SIM_MEM_SETINDEX_H

#include <stdint.h>

/* The functions, parsed from the letters once (sim/mem/mem_config.c). */
typedef enum {
    SIM_SETIDX_LINEAR,  /* 'L' */
    SIM_SETIDX_FERMI,   /* 'H' */
    SIM_SETIDX_IPOLY,   /* 'P' */
    SIM_SETIDX_XOR,     /* 'X' */
    SIM_SETIDX_CUSTOM   /* 'C', taken as linear */
} sim_set_index_fn;

/* IPOLY: index (log2(n) bits) XOR the polynomial's bits of higher. n is 16,
 * 32, 64, 128 or 256; other n return index unchanged (the config reader
 * refuses them). */
unsigned sim_ipoly_hash(uint64_t higher, unsigned index, unsigned n);

/* The set of addr in a cache of `sets` sets (a power of two) of lines of
 * 2^line_log2 bytes under function fn. */
unsigned sim_set_index(uint64_t addr, unsigned sets, int line_log2, sim_set_index_fn fn);

/* Does function fn work with this many sets? NULL or why not. */
const char *sim_set_index_check(sim_set_index_fn fn, unsigned sets);

#endif
