/*
 * addrmap.h - GPGPU-Sim's DRAM address decoding (-gpgpu_mem_addr_mapping):
 * which channel, sub-partition, bank, row and column an address falls in.
 * Pure functions; owns nothing else.
 */
#ifndef TRAPEZE_SIM_MEM_ADDRMAP_H
#define TRAPEZE_SIM_MEM_ADDRMAP_H

#include <stdint.h>

enum { SIM_AM_CHIP, SIM_AM_BANK, SIM_AM_ROW, SIM_AM_COL, SIM_AM_BURST, SIM_AM_FIELDS };

/* A run of contiguous mask bits: field |= ((addr >> shift) & bits) << dst. */
typedef struct sim_bitrun {
    uint64_t bits;
    uint8_t shift, dst;
} sim_bitrun;

#define SIM_AM_MAX_RUNS 32

enum { SIM_AM_CONSECUTIVE = 0, SIM_AM_IPOLY = 2, SIM_AM_RANDOM = 4 };   /* GPGPU-Sim's numbers */          /* 64 mask bits make at most 32 runs */

typedef struct sim_addrmap {
    int gap;                        /* dramid@N: channel = (addr >> N) % channels; -1: D bits */
    uint64_t mask[SIM_AM_FIELDS];   /* bit masks of D, B, R, C, S */
    int n_channel, n_sub, n_bank;
    uint64_t sub_mask;              /* the low log2(n_sub) B bits: the sub-partition's */
    int indexing;                   /* -gpgpu_memory_partition_indexing: SIM_AM_CONSECUTIVE,
                                     * SIM_AM_IPOLY (sub-partition hashed) or SIM_AM_RANDOM */
    /* IPOLY, derived at parse: the hash's range (the next power of two of
     * channels times n_sub), and the shift of the bits above the channel
     * and sub-partition (-1 when channels are not a power of two: then the
     * quotient (addr >> gap) / channels) */
    unsigned ipoly_n;
    int ipoly_shift;
    /* RANDOM: the chunk that keeps one sub-partition is addr >> random_shift
     * (dramid@N's N less log2 sub-partitions: GPGPU-Sim's chip_address) */
    int random_shift;
    /* each mask as runs of contiguous bits, so decoding moves a run at once */
    sim_bitrun run[SIM_AM_FIELDS][SIM_AM_MAX_RUNS];
    int n_runs[SIM_AM_FIELDS];
} sim_addrmap;

typedef struct sim_dram_addr {
    int chip, bank, sub;            /* sub: global sub-partition index */
    uint64_t row, col;
} sim_dram_addr;

/* Parses "dramid@8;0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS". Returns NULL on
 * success or a static message saying what is wrong. */
const char *sim_addrmap_parse(const char *text, int n_channel, int n_sub, int n_bank,
                              sim_addrmap *out);
sim_dram_addr sim_addrmap_decode(const sim_addrmap *m, uint64_t addr);

/* The last line decoded, for a caller that decodes runs of one line (an
 * L1 sends a line's sectors one after another, a DRAM channel takes them
 * so): a decode costs two 64-bit divisions and the IPOLY hash. `line` is
 * SIM_DECODE_NONE until the first. */
typedef struct sim_decode_memo {
    uint64_t line;
    sim_dram_addr d;
} sim_decode_memo;
#define SIM_DECODE_NONE (~(uint64_t)0)

static inline sim_dram_addr sim_addrmap_decode_memo(const sim_addrmap *m, sim_decode_memo *memo,
                                                    uint64_t line)
{
    if (memo->line != line) {
        memo->d = sim_addrmap_decode(m, line);
        memo->line = line;
    }
    return memo->d;
}
/* GPGPU-Sim's partition_address: addr with the channel (and sub-partition)
 * bits taken out, what the L2 slice indexes its sets with ("to reduce set
 * camping": every line of a slice has the same channel bits). */
uint64_t sim_addrmap_partition_address(const sim_addrmap *m, uint64_t addr);

#endif
