/*
 * memsys.h - the boundary between the SM pipeline (sim/core/) and the memory
 * system (sim/mem/). The SM side coalesces a warp's access into line
 * requests (sim_coalesce), offers each to its SM's L1D port
 * (sim_memsys_access), and collects completions (sim_memsys_pop). Everything
 * behind the port -- L1D, miss queue, interconnect, L2 slices, DRAM, atomics
 * -- is sim/mem/'s business; the SM never sees it.
 *
 * Contract:
 *  - Every accepted request completes exactly once: loads when their data
 *    reach the SM (hit or miss), stores when the write is acknowledged by L2
 *    (or DRAM when there is no L2), atomics when L2 has performed them.
 *    sim_memsys_outstanding() counts accepted-but-not-completed requests;
 *    the "no request lost" invariant is that it is 0 when a kernel ends.
 *  - A request that cannot be reserved is refused (SIM_MEM_RESERVATION_FAIL
 *    with a cause) and the SM must offer it again on a later cycle; while it
 *    does, its load/store unit is blocked for every warp (Choo 1.5).
 *  - Time: sim_memsys_cycle() is called once per core clock cycle and runs
 *    the interconnect, L2 and DRAM clock domains at their configured ratios.
 *  - Atomics and SIM_MEM_VOLATILE loads are performed at L2 on a small
 *    functional store of 32-bit words, so a persistent kernel's global
 *    barrier (atomic counter + spinning loads) sees real counter values.
 */
#ifndef TRAPEZE_SIM_MEMSYS_H
#define TRAPEZE_SIM_MEMSYS_H

#include <stdint.h>

#include "sim/events.h"
#include "trapeze.h"

#define SIM_LINE_BYTES 128
#define SIM_SECTOR_BYTES 32
#define SIM_WARP_SIZE_MAX 32

typedef enum {
    SIM_MEM_LOAD,
    SIM_MEM_STORE,
    SIM_MEM_ATOMIC  /* atomicAdd of `value` on each 32-bit word of `words`; returns the old
                       value of the word at addr */
} sim_mem_op;

enum {
    SIM_MEM_VOLATILE = 1u << 0,   /* load served by L2, never by L1 (spinning on a flag);
                                     addr is the word address, value returns the word */
    SIM_MEM_STORE_VALUE = 1u << 1,/* store: also write `value` to the functional word at
                                     addr (a word address) when L2 performs the store */
    SIM_MEM_QUEUED = 1u << 2,     /* set by the memory system: the access came through the
                                     L1 latency queue, so it completes without the latency */
    SIM_MEM_BYPASS_L1 = 1u << 3,  /* load: selective caching sends it past the L1 */
    SIM_MEM_SEL_CACHE = 1u << 4   /* load: a divergent load's request chosen to be cached
                                     (the locality degree picks its victim) */
};

typedef struct sim_mem_request {
    uint64_t addr;         /* line-aligned for loads/stores; word address for atomics,
                              volatile loads and SIM_MEM_STORE_VALUE stores */
    uint16_t sector_mask;  /* 32-byte sectors of the line that are touched (bits 0..3) */
    uint16_t bytes;        /* bytes actually accessed (for bandwidth statistics) */
    uint8_t op;            /* sim_mem_op */
    uint8_t flags;         /* SIM_MEM_VOLATILE ... */
    uint16_t sm;           /* issuing SM */
    union {
        uint32_t value;    /* atomics, volatile loads: operand in, old value / word out */
        uint32_t pc;       /* other loads: the instruction's PC (selective caching; the
                            * request stays 40 bytes) */
    };
    union {
        uint32_t origin;   /* cached loads: the issuing block's id << 8 | its warp's slot
                            * (the L1D's miss classes, -trapeze_contention_counters) */
        uint32_t words;    /* atomics: the words of addr's 32-byte segment the request
                            * updates, bit i the word at segment + 4 i (0: addr's alone) */
    };
    uint64_t tag;          /* opaque to the memory system: the SM's bookkeeping */
    uint64_t issue_cycle;  /* core cycle the SM first offered it */
} sim_mem_request;

typedef enum {
    SIM_MEM_HIT,               /* accepted; completes after the L1 hit latency */
    SIM_MEM_MISS,              /* accepted; an MSHR entry was allocated, request sent below */
    SIM_MEM_MERGED,            /* accepted; merged into an existing MSHR entry */
    SIM_MEM_SENT,              /* accepted; store / atomic / bypassing load sent below */
    SIM_MEM_RESERVATION_FAIL   /* refused; see cause */
} sim_mem_outcome;

typedef enum {
    SIM_FAIL_NONE,
    SIM_FAIL_LINE_ALLOC,   /* every way of the set is reserved by pending misses */
    SIM_FAIL_MSHR_ENTRY,   /* no free MSHR entry */
    SIM_FAIL_MSHR_MERGE,   /* the line's MSHR entry is at its merge limit */
    SIM_FAIL_MISS_QUEUE,   /* the miss queue towards the interconnect is full */
    SIM_FAIL_L1_BANK,      /* the L1 bank's latency queue is full (GPGPU-Sim's BK_CONF;
                              not an L1 reservation failure) */
    SIM_FAIL_COUNT
} sim_fail_cause;

/* ---- coalescing (pure functions; sim/mem/coalesce.c) ---- */

typedef struct sim_line_access {
    uint64_t line_addr;
    uint32_t sector_mask;
    uint32_t bytes;             /* distinct bytes touched in the line */
    uint8_t sector_bytes[4];    /* of them, in each 32-byte sector */
} sim_line_access;

/* Coalesce the active threads' accesses of `size` bytes each into distinct
 * 128-byte lines (in order of first appearance). Returns the number of lines
 * written to out (at most 32). */
int sim_coalesce(const uint64_t *addr, uint32_t active_mask, int size, sim_line_access *out);
/* The lanes of a whole warp that start a run of contiguous accesses in
 * sim_coalesce: lane 0, and lane l where addr[l] != addr[l - 1] + size
 * (size clipped as there). Addresses that differ from addr by one constant
 * give the same answer, so a source whose lanes' offsets repeat from one
 * access to the next may compute it once per offsets. */
uint32_t sim_coalesce_starts(const uint64_t *addr, int size);
/* sim_coalesce with a whole warp's sim_coalesce_starts already known
 * (starts: 0 when not; read only when active_mask is the whole warp). */
int sim_coalesce_known(const uint64_t *addr, uint32_t active_mask, int size, uint32_t starts,
                       sim_line_access *out);

/* One request of a warp's atomic: the 32-byte segment's words it updates
 * (as sim_mem_request's `words`), addr the lowest of them, and its lanes. */
typedef struct sim_atomic_access {
    uint64_t addr;
    uint32_t words;
    uint32_t lanes;
} sim_atomic_access;

/* GPGPU-Sim's memory_coalescing_arch_atomic over the whole warp (every
 * tested config sets -gpgpu_shmem_warp_parts 1): a request per 32-byte
 * segment, a lane joining the first of its segment's requests whose bytes
 * its own `size` bytes do not overlap (a new one otherwise), so only lanes
 * on the same bytes are split. Written to out in the order the LDST unit
 * sends them: GPGPU-Sim sorts by segment, then by creation, and sends from
 * the back. Returns the number of requests (at most 32). */
int sim_coalesce_atomic(const uint64_t *addr, uint32_t active_mask, int size,
                        sim_atomic_access *out);

/* Shared memory: the number of serialized passes (1 = conflict free) for the
 * active threads' word addresses on `banks` 4-byte-wide banks. Threads that
 * read the same word are served by one broadcast. bound: NULL, or the least
 * and greatest active address when the caller knows them (the trace's kept
 * form: a whole warp within the bank count then needs no pass). */
int sim_shmem_conflict_degree(const uint64_t *addr, uint32_t active_mask, int banks,
                              const uint64_t bound[2]);

/* ---- the memory system ---- */

typedef struct sim_memsys sim_memsys;
typedef struct sim_mem_stats sim_mem_stats;   /* defined in sim/mem/mem_stats.h */

/* Reads the memory options of cfg (caches, partitions, DRAM, interconnect)
 * and reports every energy event and L1/L2 bank use to `events`. */
trapeze_status sim_memsys_create(const trapeze_config *cfg, int n_sm, sim_events *events,
                                 sim_memsys **out, trapeze_error *err);
void sim_memsys_destroy(sim_memsys *m);

/* Probes the L1 now: a hit completes -gpgpu_l1_latency cycles later, a
 * miss that long after its fill (the unit tests' port). */
sim_mem_outcome sim_memsys_access(sim_memsys *m, const sim_mem_request *req,
                                  uint64_t cycle, sim_fail_cause *cause);
/* The LDST unit's port (GPGPU-Sim 4's l1_latency_queue): an access the L1
 * serves enters its bank's queue of -gpgpu_l1_latency stages (refused with
 * SIM_FAIL_L1_BANK when all are taken) and is probed when it reaches the
 * end, in order; a refused probe holds the queue. A hit completes at its
 * probe, a miss at its fill. Bypassing loads and atomics are probed at once.
 * Returns SIM_MEM_SENT for a queued access. */
sim_mem_outcome sim_memsys_offer(sim_memsys *m, const sim_mem_request *req,
                                 uint64_t cycle, sim_fail_cause *cause);
/* The per-warp request queues' port (-trapeze_ldst_sched): the L1 probed at
 * once as sim_memsys_access, so a refusal is known in its cycle; an access
 * it takes holds its bank's latency-queue stages as sim_memsys_offer's
 * would (refused with SIM_FAIL_L1_BANK when the entry stage is taken), so
 * that a hit takes the FIFO path's cycles. */
sim_mem_outcome sim_memsys_probe(sim_memsys *m, const sim_mem_request *req,
                                 uint64_t cycle, sim_fail_cause *cause);
/* Selective caching (-trapeze_l1d_select, -trapeze_l1d_lasc; sim/mem/selcache.h):
 * marks which of one warp load's n requests (same SM, PC in each) bypass
 * the L1; with both options off it changes nothing. */
void sim_memsys_select(sim_memsys *m, sim_mem_request *const *reqs, int n);
/* Accesses the LDST unit may offer in one cycle: -gpgpu_l1_banks. */
int sim_memsys_ports(const sim_memsys *m);
/* Pops one completed request of SM `sm`, if any is due at `cycle`. */
int sim_memsys_pop(sim_memsys *m, int sm, uint64_t cycle, sim_mem_request *done);
/* sim_memsys_pop of the first SM from `from` on with a completion due at
 * `cycle`; returns that SM, or the SM count when none has one. Called
 * again from the SM returned, it pops SM by SM in the order of a pop of
 * each SM until it answers 0, without a call for each SM that has none. */
int sim_memsys_pop_next(sim_memsys *m, int from, uint64_t cycle, sim_mem_request *done);
void sim_memsys_cycle(sim_memsys *m, uint64_t cycle);
uint64_t sim_memsys_outstanding(const sim_memsys *m);
/* Earliest core cycle > cycle at which anything can happen, or UINT64_MAX
 * when idle: lets the top level skip dead cycles. */
uint64_t sim_memsys_next_event(const sim_memsys *m, uint64_t cycle);
/* Functional words for atomics / volatile loads (initialised to 0). */
void sim_memsys_poke(sim_memsys *m, uint64_t addr, uint32_t value);
uint32_t sim_memsys_peek(const sim_memsys *m, uint64_t addr);
/* The counters (the L1's summed over the ports when called). */
const sim_mem_stats *sim_memsys_stats(sim_memsys *m);
void sim_memsys_reset_stats(sim_memsys *m);
/* sim_memsys_cycle in parts, for a simulation whose SMs run in parallel
 * threads: _behind (DRAM and L2: nothing an SM touches, so it may run
 * beside the SMs' cycle), then _icnt alone, then _port for each SM (its
 * fill and latency queues: only that port's state, so the SMs' threads may
 * run them); together, in that order, they are sim_memsys_cycle. With
 * parallel on (threads > 1; 0 when out of memory), the ports' activity
 * bits are set atomically; each port reports its events to `ev` (default:
 * the events given at creation).
 * When sim_memsys_icnt_split(cycle) answers 1 (a crossbar, one icnt tick in
 * the cycle), the interconnect runs split instead of _icnt: _icnt_sm(s,
 * thread) for each SM after its cycle, on its thread; then _icnt_rest on
 * one thread, after _behind, beside the ports' _port. */
void sim_memsys_cycle_behind(sim_memsys *m, uint64_t cycle);
void sim_memsys_cycle_icnt(sim_memsys *m, uint64_t cycle);
void sim_memsys_cycle_port(sim_memsys *m, int sm, uint64_t cycle);
int sim_memsys_set_parallel(sim_memsys *m, int threads);
int sim_memsys_icnt_split(sim_memsys *m, uint64_t cycle);
void sim_memsys_icnt_sm(sim_memsys *m, int sm, int thread);
void sim_memsys_icnt_rest(sim_memsys *m);
void sim_memsys_port_events(sim_memsys *m, int sm, sim_events *ev);
/* Invalidate the L1s (GPGPU-Sim flushes L1 between kernels). */
void sim_memsys_flush_l1(sim_memsys *m);
/* -gpgpu_adaptive_cache_config 1 (Volta on): a kernel whose resident
 * blocks use `shmem` bytes of shared memory per SM gets the L1 ways
 * GPGPU-Sim gives it (shader.cc): with -gpgpu_unified_l1d_size U KB, the
 * least -gpgpu_shmem_option S that holds shmem leaves (1 - S/U) of the
 * most ways (U over the dl1's size, times its ways); without U, GPGPU-Sim
 * 4.0's table: 4x the spec's ways with none, 15/16 up to 8 KB, 7/8 up to
 * 16 KB, 3/4 up to 32 KB, 1/2 up to 64 KB, 1/4 above, the spec's when
 * shmem reaches -gpgpu_shmem_size. Empties the L1s. Without the option it
 * does nothing. Returns the ways. */
int sim_memsys_carve_l1(sim_memsys *m, long shmem);

/* ---- additions (sim/mem/memsys.c) ----
 * Call order within core cycle c: the SM offers requests (sim_memsys_access
 * with cycle c), then sim_memsys_cycle(c), then pops completions due at c.
 * A request accepted at c enters the interconnect in c. One L1D probe per
 * SM per cycle is the SM's to enforce (the single 128-byte port). */

typedef struct sim_cache_stats sim_cache_stats;  /* sim/mem/mem_stats.h */
/* L1D counters of one SM (the sum over SMs is sim_memsys_stats()->l1). */
const sim_cache_stats *sim_memsys_l1_stats(const sim_memsys *m, int sm);
/* Units the memory system reports to sim_events: SIM_UNIT_L1_BANK = n_sm
 * (0 without L1D), SIM_UNIT_L2_BANK = channels x sub-partitions (0 without
 * L2), SIM_UNIT_L1_LINE / SIM_UNIT_L2_LINE = their line frames (sets x
 * ways each). Fills only those four entries of units[]. */
trapeze_status sim_memsys_unit_counts(const trapeze_config *cfg, int n_sm,
                                      int units[SIM_UNIT_KIND_COUNT], trapeze_error *err);
/* Peak DRAM bandwidth of the config, bytes per core cycle (all channels). */
double sim_memsys_dram_peak(const sim_memsys *m);
/* Unloaded latency of one load that misses L1 and L2 and opens a closed
 * DRAM row, in core cycles, measured by simulating it alone. */
trapeze_status sim_memsys_probe_latency(const trapeze_config *cfg, int n_sm, uint64_t *cycles,
                                        trapeze_error *err);
/* Streams `lines` distinct 128-byte lines through every SM (sequential
 * addresses, one load offered per SM per cycle, retried when refused) and
 * reports DRAM bytes read per core cycle and the configured peak. */
trapeze_status sim_memsys_probe_stream(const trapeze_config *cfg, int n_sm, uint64_t lines,
                                       double *achieved, double *peak, trapeze_error *err);

#endif
