/*
 * mem_config.h - the memory options of a gpgpusim.config, read once into
 * plain numbers (struct sim_mem_config). Owns parsing and validation of
 * every option sim/mem honours, with "file:line: option -x: ..." errors.
 * It must not model timing: the components only read this struct.
 */
#ifndef TRAPEZE_SIM_MEM_CONFIG_H
#define TRAPEZE_SIM_MEM_CONFIG_H

#include <stdint.h>

#include "common/options.h"
#include "sim/mem/addrmap.h"
#include "sim/mem/setindex.h"
#include "trapeze.h"

#define SIM_MAX_SHMEM_OPTIONS 16   /* -gpgpu_shmem_option sizes (tested configs: 2 to 6) */
#define SIM_MAX_BYPASS_PCS 16      /* -trapeze_l1_bypass_pcs: load PCs (a kernel has a few loads) */

/* One -gpgpu_cache:dlN spec:
 * [N|S:]sets:line:assoc,rep:wr:alloc:wr_alloc[:set_index],mshr:entries:merge,miss_queue[:...] */
/* The policy letters, parsed into these once (mem_config.c). */
typedef enum { SIM_REP_LRU, SIM_REP_FIFO } sim_cache_rep;                   /* L F */
typedef enum {
    SIM_WR_READ_ONLY, SIM_WR_BACK, SIM_WR_THROUGH, SIM_WR_EVICT, SIM_WR_LOCAL_BACK /* R B T E L */
} sim_cache_write;
typedef enum { SIM_ALLOC_ON_MISS, SIM_ALLOC_ON_FILL, SIM_ALLOC_STREAMING } sim_cache_alloc; /* m f s */
typedef enum {
    SIM_WALLOC_NONE, SIM_WALLOC_WRITE, SIM_WALLOC_FETCH, SIM_WALLOC_LAZY    /* N W F L */
} sim_cache_write_alloc;

/* Selective caching at the L1D (-trapeze_l1d_select; selcache.h). */
typedef enum {
    SIM_SEL_NONE,        /* none: every load is cached (the baseline) */
    SIM_SEL_BYPASS_ALL,  /* bypass_all: every global load skips the L1 */
    SIM_SEL_IND,         /* ind: a divergent load caches its last assoc requests per set */
    SIM_SEL_LOC,         /* loc: ind, and the locality degree picks or refuses the victim */
    SIM_SEL_COUNT
} sim_l1_select;
extern const char *const sim_l1_select_names[SIM_SEL_COUNT];

typedef struct sim_cache_cfg {
    int enabled;            /* 0 for "none" */
    int sectored;           /* 'S' prefix: parsed, modelled line-granular */
    int sets, line, assoc;
    sim_cache_rep rep;
    sim_cache_write wr;             /* L1 stores are always write-evict */
    sim_cache_alloc alloc;          /* on miss (reserve), on fill, streaming (= on fill) */
    sim_cache_write_alloc wr_alloc; /* none, else allocate without fetching */
    sim_set_index_fn set_index;
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
    int adaptive_l1;               /* -gpgpu_adaptive_cache_config 1: the L1 has up to
                                    * l1_max_assoc ways, as many as a kernel's shared memory leaves */
    int l1_max_assoc;              /* the carve-out's most ways (the dl1's without it) */
    int unified_kb;                /* -gpgpu_unified_l1d_size; 0: GPGPU-Sim 4.0's fixed table */
    int shmem_opt_kb[SIM_MAX_SHMEM_OPTIONS];   /* -gpgpu_shmem_option, ascending */
    int n_shmem_opt;
    int shmem_size;                /* -gpgpu_shmem_size (the carve-out's limit) */
    int l1_latency;                /* core cycles: stages of each L1 bank's latency queue */
    int l1_banks;                  /* -gpgpu_l1_banks: latency queues, one access each a cycle */
    int l1_bank_bytes;             /* -gpgpu_l1_banks_byte_interleaving */
    int l1_bank_hash;              /* -gpgpu_l1_banks_hashing_function: 0 (linear) only */
    sim_l1_select l1_select;       /* -trapeze_l1d_select */
    int bypass_on_stall;           /* -trapeze_l1d_bypass_on_stall: MRPB's bypass */
    int contention_counters;       /* -trapeze_contention_counters: the optional columns */
    int lasc;                      /* -trapeze_l1d_lasc: LASC's 1-bit reuse table */
    int lasc_entries;              /* -trapeze_l1d_lasc_entries (power of two) */
    int lasc_serve_hits;           /* -trapeze_l1d_lasc_serve_hits: a found line serves */
    uint32_t bypass_pcs[SIM_MAX_BYPASS_PCS];   /* -trapeze_l1_bypass_pcs: loads that skip the L1 */
    int n_bypass_pcs;
    int rop_latency, dram_latency; /* core cycles, as GPGPU-Sim counts them */
    int gs_upper_half_quirk;       /* -trapeze_gs_upper_half_write 1: GPGPU-Sim 4's sector
                                    * breakdown of a 64-byte write to a line's upper half */
    int n_mem, n_sub;              /* channels, sub-partitions per channel */
    int n_mem_per_ctrlr, buswidth, burst_length, freq_ratio;
    int atom_bytes;                /* bytes per column command: BL x buswidth x chips */
    int burst_cycles;              /* data-bus command cycles per column command: BL / ratio */
    sim_dram_timing t;
    int bnkgrp_lower;              /* -dram_bnkgrp_indexing_policy 1: a bank's group is its low
                                    * bits (bank % nbkgrp); 0: its high bits */
    int dual_bus;                  /* -dram_dual_bus_interface 1: a row and a column command
                                    * per DRAM cycle (one of either with 0) */
    int simple_dram;               /* -gpgpu_simple_dram_model 1: a fixed latency and one
                                    * request per DRAM cycle (dram.c) */
    int sched_queue, return_queue;
    int latency_queue;             /* -trapeze_dram_latency_queue 1: GPGPU-Sim's unbounded
                                    * latency queue behind the L2->DRAM queue (dram.c) */
    int dram_credits;              /* its shared credits per channel; 0 unlimited */
    int l2_miss_queue;             /* -trapeze_l2_miss_queue 1: GPGPU-Sim's L2 miss queue of
                                    * l2.miss_queue entries before the L2->DRAM queue (l2.c) */
    int q_icnt_l2, q_l2_dram, q_dram_l2, q_l2_icnt;  /* -gpgpu_dram_partition_queues */
    uint64_t clock_khz[SIM_CLK_COUNT];
    int flit_size, icnt_latency, icnt_flits_per_cycle;
    int sm_queue;                  /* the SM's port to the icnt when there is no L1 */
    int network_mode;              /* 1: icnt.c's ports; 2: xbar.c, GPGPU-Sim's local crossbar */
    int xbar_flits;                /* -trapeze_icnt_booksim 1: xbar.c in flit mode (mode 1) */
    int use_xbar;                  /* network_mode 2 or xbar_flits */
    int xbar_in_limit, xbar_out_limit;  /* -icnt_in/out_buffer_limit, packets */
    int xbar_islip;                /* -icnt_arbiter_algo: 1 iSLIP, 0 round robin */
    int xbar_grant_cycles;         /* -icnt_grant_cycles */
    int xbar_ejection;             /* -gpgpu_n_cluster_ejection_buffer_size, packets */
    sim_addrmap map;
} sim_mem_config;

/* The memory-side options, one row each (name, type, default, range, help). */
extern const trapeze_opt sim_mem_options[];
trapeze_status sim_mem_config_read(const trapeze_config *cfg, int n_sm, sim_mem_config *out,
                                   trapeze_error *err);
/* Parses one cache spec (exposed for tests). */
trapeze_status sim_cache_cfg_parse(const trapeze_config *cfg, const char *option,
                                   const char *text, sim_cache_cfg *out, trapeze_error *err);

#endif
