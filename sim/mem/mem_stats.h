/*
 * mem_stats.h - the memory system's statistics (struct sim_mem_stats).
 * Owns only the layout of the counters; the components of sim/mem/ fill
 * them. It holds no pointers, so two runs can be compared byte for byte.
 * Energy events and bank idle intervals are not here: they go to
 * sim/events.h.
 */
#ifndef TRAPEZE_SIM_MEM_STATS_H
#define TRAPEZE_SIM_MEM_STATS_H

#include <stdint.h>

#include "sim/memsys.h"

/* One cache level (an L1D, or all L1Ds, or all L2 slices together). */
typedef struct sim_cache_stats {
    uint64_t accesses;      /* accepted requests that probed the tags */
    uint64_t reads, writes, atomics;
    uint64_t hits;          /* data present */
    uint64_t misses;        /* new MSHR entry, request sent below */
    uint64_t merges;        /* merged into a pending MSHR entry (hit-reserved included) */
    uint64_t bypasses;      /* loads that skipped this level (volatile, skip_L1D, no cache) */
    uint64_t reservation_fails;        /* refusals, all causes (every retry counts) */
    uint64_t fails[SIM_FAIL_COUNT];    /* refusals by sim_fail_cause */
    uint64_t stall_cycles;  /* L2 only: cycles the head request could not be served */
    uint64_t fills, evictions, writebacks;
    uint64_t evicted_unused;  /* L1D, with -trapeze_contention_counters or selective
                               * caching: evicted lines never read after their fill */
    /* L1D, with -trapeze_contention_counters: load misses that evicted a valid
     * line, by who had brought it (the seed's miss contention classes): the
     * same warp (IW), another warp of the same block (XW), another block (XB) */
    uint64_t miss_iw, miss_xw, miss_xb;
    /* L1D, with -trapeze_contention_counters: the re-reads of evicted lines
     * (each line's counted up to 15: the locality degree's 4-bit counter;
     * over evictions, the reuse per cached line), and per global load the
     * most of its requests that fall in one L1D set (summed: over
     * global_loads, the mean per-set contention) and the loads where that
     * exceeds the ways (a set overflowed by one warp instruction) */
    uint64_t evicted_reuse, load_set_max, load_set_overflows;
    /* tag-only lookups (SIM_EV_L1_TAG_PROBE / L2): refused probes, each
     * retry, and requests bypassed after their tags were looked up */
    uint64_t tag_probes;
} sim_cache_stats;

/* One global load PC's L1D counters (-trapeze_contention_counters on an
 * unsectored L1D; pc_stats.c): the first SIM_PC_STATS_MAX PCs an SM sees
 * are kept, a later one is not counted. */
enum { SIM_PC_STATS_MAX = 16 };
typedef struct sim_pc_stats {
    uint64_t pc;
    uint64_t accesses;        /* its requests that probed the L1D: hits, merges, misses */
    uint64_t misses;          /* of which took a line and filled it */
    uint64_t bypasses;        /* its requests sent past the L1D */
    /* the lines it filled, evicted: all, never re-read, and their re-reads
     * (up to 15 a line); a line is known by its PC's 10-bit hash, so two
     * PCs of one hash count as the first of them */
    uint64_t evictions, evicted_unused, evicted_reuse;
} sim_pc_stats;

struct sim_mem_stats {
    sim_cache_stats l1;     /* summed over SMs; per SM: sim_memsys_l1_stats() */
    sim_cache_stats l2;     /* summed over sub-partitions */
    uint64_t icnt_packets_up, icnt_packets_down;  /* SM->L2, L2->SM */
    uint64_t icnt_flits;
    uint64_t dram_reads, dram_writes;             /* requests served by DRAM */
    uint64_t dram_row_hits, dram_row_misses;      /* per request, at its first column command */
    uint64_t dram_activates, dram_precharges;
    uint64_t dram_bytes_read, dram_bytes_written; /* atoms moved over the data bus */
    uint64_t dram_busy_cycles;    /* DRAM command cycles the data bus carried data, all channels */
    uint64_t dram_cycles;         /* DRAM command cycles elapsed (per channel, not summed) */
    uint64_t atomics_performed;   /* at L2 (or at the memory partition without L2) */
    uint64_t contention_valid;    /* -trapeze_contention_counters: the CSV shows
                                   * l1.evicted_unused, the SMs' ldst_stall_ready_warps,
                                   * l1.miss_iw, miss_xw, miss_xb, evicted_reuse,
                                   * load_set_max and load_set_overflows */
    uint64_t n_pcs;               /* with it: per load PC, ascending (summed over SMs) */
    sim_pc_stats pcs[SIM_PC_STATS_MAX];
};

#endif
