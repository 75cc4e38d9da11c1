/*
 * mem_config.h - the memory options of a gpgpusim.config, read once into
 * plain numbers (struct sim_mem_config). Owns parsing and validation of
 * every option sim/mem honours, with "file:line: option -x: ..." errors.
 * It must not model timing: the components only read this struct.
 */
#ifndef TRAPEZE_SIM_MEM_CONFIG_H
#define TRAPEZE_SIM_MEM_CONFIG_H

#include <stdint.h>

#include "sim/mem/addrmap.h"
#include "trapeze.h"

/* One -gpgpu_cache:dlN spec:
 * [N|S:]sets:line:assoc,rep:wr:alloc:wr_alloc[:set_index],mshr:entries:merge,miss_queue[:...] */
typedef struct sim_cache_cfg {
    int enabled;            /* 0 for "none" */
    int sectored;           /* 'S' prefix: parsed, modelled line-granular */
    int sets, line, assoc;
    char rep;               /* 'L' LRU, 'F' FIFO */
    char wr;                /* 'L','T','B','E','R' (L1 stores are always write-evict) */
    char alloc;             /* 'm' on miss (reserve), 'f' on fill, 's' streaming (= on fill) */
    char wr_alloc;          /* 'N' no write-allocate, else allocate without fetching */
    char set_index;         /* 'L' linear, 'H' Fermi hash; others treated as linear */
    int mshr_entries, mshr_merge;
    int miss_queue;
} sim_cache_cfg;

typedef struct sim_dram_timing {
    int nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL;
} sim_dram_timing;

enum { SIM_CLK_CORE, SIM_CLK_ICNT, SIM_CLK_L2, SIM_CLK_DRAM, SIM_CLK_COUNT };

typedef struct sim_mem_config {
    int n_sm;
    sim_cache_cfg l1, l2;
    int skip_l1d;                  /* -gpgpu_gmem_skip_L1D */
    int l1_latency;                /* core cycles */
    int rop_latency, dram_latency; /* core cycles, as GPGPU-Sim counts them */
    int n_mem, n_sub;              /* channels, sub-partitions per channel */
    int n_mem_per_ctrlr, buswidth, burst_length, freq_ratio;
    int atom_bytes;                /* bytes per column command: BL x buswidth x chips */
    int burst_cycles;              /* data-bus command cycles per column command: BL / ratio */
    sim_dram_timing t;
    int bnkgrp_lower;              /* -dram_bnkgrp_indexing_policy 1: a bank's group is its low
                                    * bits (bank % nbkgrp); 0: its high bits */
    int sched_queue, return_queue;
    int q_icnt_l2, q_l2_dram, q_dram_l2, q_l2_icnt;  /* -gpgpu_dram_partition_queues */
    uint64_t clock_khz[SIM_CLK_COUNT];
    int flit_size, icnt_latency, icnt_flits_per_cycle;
    int sm_queue;                  /* the SM's port to the icnt when there is no L1 */
    sim_addrmap map;
} sim_mem_config;

trapeze_status sim_mem_config_read(const trapeze_config *cfg, int n_sm, sim_mem_config *out,
                                   trapeze_error *err);
/* Parses one cache spec (exposed for tests). */
trapeze_status sim_cache_cfg_parse(const trapeze_config *cfg, const char *option,
                                   const char *text, sim_cache_cfg *out, trapeze_error *err);

#endif
