/*
 * coalesce.c - the memory access coalescing unit and the shared-memory bank
 * conflict count: pure functions of a warp's addresses. Owns no state and
 * must not know about caches or timing.
 */
#include <string.h>

#include "sim/memsys.h"

/* The lines a warp touches, with a 128-bit byte mask each (to count the
 * distinct bytes accessed). */
typedef struct {
    sim_line_access line;
    uint64_t bytes_lo, bytes_hi;
} line_acc;

/* Bytes [first, last] of a line (first <= last < 128) into the mask. */
static uint64_t span64(unsigned first, unsigned last)
{
    uint64_t hi = last >= 63 ? ~0ull : (2ull << last) - 1;
    return hi & ~((1ull << first) - 1);
}

static void mark_bytes(line_acc *a, unsigned first, unsigned last)
{
    if (first < 64)
        a->bytes_lo |= span64(first, last < 64 ? last : 63);
    if (last >= 64)
        a->bytes_hi |= span64(first < 64 ? 0 : first - 64, last - 64);
    for (unsigned s = first / SIM_SECTOR_BYTES; s <= last / SIM_SECTOR_BYTES; s++)
        a->line.sector_mask |= 1u << s;
}

/* Adds bytes [addr, addr+n) that lie inside one line; returns the number
 * of lines in use. */
static int touch(line_acc *acc, int n_lines, uint64_t addr, unsigned n)
{
    uint64_t line = addr & ~(uint64_t)(SIM_LINE_BYTES - 1);
    int i = 0;
    while (i < n_lines && acc[i].line.line_addr != line)
        i++;
    if (i == n_lines) {
        memset(&acc[i], 0, sizeof acc[i]);
        acc[i].line.line_addr = line;
        n_lines++;
    }
    unsigned first = (unsigned)(addr - line);
    mark_bytes(&acc[i], first, first + n - 1);
    return n_lines;
}

int sim_coalesce(const uint64_t *addr, uint32_t active_mask, int size, sim_line_access *out)
{
    /* A thread's access may straddle two lines, so 64 is the worst case;
     * the interface promises at most 32 (aligned accesses), so clip. */
    line_acc acc[2 * SIM_WARP_SIZE_MAX];
    int n = 0;
    if (size < 1)
        size = 1;
    if (size > SIM_LINE_BYTES)
        size = SIM_LINE_BYTES;
    for (int t = 0; t < SIM_WARP_SIZE_MAX; t++) {
        if (!(active_mask >> t & 1u))
            continue;
        uint64_t a = addr[t];
        uint64_t line_end = (a | (SIM_LINE_BYTES - 1)) + 1;
        unsigned head = (unsigned)size;
        if (a + head > line_end)
            head = (unsigned)(line_end - a);
        n = touch(acc, n, a, head);
        if (head < (unsigned)size)
            n = touch(acc, n, line_end, (unsigned)size - head);
    }
    if (n > SIM_WARP_SIZE_MAX)
        n = SIM_WARP_SIZE_MAX;
    for (int i = 0; i < n; i++) {
        out[i] = acc[i].line;
        out[i].bytes = (uint32_t)(__builtin_popcountll(acc[i].bytes_lo) +
                                  __builtin_popcountll(acc[i].bytes_hi));
    }
    return n;
}

int sim_shmem_conflict_degree(const uint64_t *addr, uint32_t active_mask, int banks)
{
    /* Distinct words per bank; a repeated word is a broadcast, not a pass. */
    uint64_t words[SIM_WARP_SIZE_MAX];
    int word_bank[SIM_WARP_SIZE_MAX];
    int n = 0, degree = active_mask ? 1 : 0;
    if (banks < 1)
        banks = 1;
    for (int t = 0; t < SIM_WARP_SIZE_MAX; t++) {
        if (!(active_mask >> t & 1u))
            continue;
        uint64_t w = addr[t] / 4;
        int seen = 0;
        for (int i = 0; i < n && !seen; i++)
            seen = words[i] == w;
        if (seen)
            continue;
        int bank = (int)(w % (uint64_t)banks), same = 1;
        for (int i = 0; i < n; i++)
            same += word_bank[i] == bank;
        if (same > degree)
            degree = same;
        words[n] = w;
        word_bank[n++] = bank;
    }
    return degree;
}
