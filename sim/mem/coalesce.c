/*
 * coalesce.c - the memory access coalescing unit and the shared-memory bank
 * conflict count: pure functions of a warp's addresses. Owns no state and
 * must not know about caches or timing.
 */
#include <string.h>

#include "common/assert.h"
#include "sim/mem/popcount.h"
#include "sim/memsys.h"

/* The lines a warp touches, with a 128-bit byte mask each (to count the
 * distinct bytes accessed). */
typedef struct {
    sim_line_access line;
    uint64_t bytes_lo, bytes_hi;
} line_acc;

/* Bytes [first, last] of a line (first <= last < 128) into the mask. */
static inline uint64_t span64(unsigned first, unsigned last)
{
    uint64_t hi = last >= 63 ? ~0ull : (2ull << last) - 1;
    return hi & ~((1ull << first) - 1);
}

/* The index of `line` in acc, appended (zeroed) if new; *n_lines grows. */
static inline int find_line(line_acc *acc, int *n_lines, uint64_t line)
{
    int n = *n_lines, i = 0;
    while (i < n && acc[i].line.line_addr != line)
        i++;
    if (i == n) {
        memset(&acc[i], 0, sizeof acc[i]);
        acc[i].line.line_addr = line;
        *n_lines = n + 1;
    }
    return i;
}

/* Bytes [first, last] of a line (first <= last < 128) into lo/hi/sectors. */
static inline void mark_local(uint64_t *lo, uint64_t *hi, uint32_t *sec, unsigned first,
                              unsigned last)
{
    unsigned s0 = first / SIM_SECTOR_BYTES, s1 = last / SIM_SECTOR_BYTES;
    if (s0 == s1) {   /* the common case: inside one sector, so one half */
        *sec |= 1u << s0;
        if (last < 64)
            *lo |= span64(first, last);
        else
            *hi |= span64(first - 64, last - 64);
        return;
    }
    if (first < 64)
        *lo |= span64(first, last < 64 ? last : 63);
    if (last >= 64)
        *hi |= span64(first < 64 ? 0 : first - 64, last - 64);
    *sec |= ((2u << s1) - 1) & ~((1u << s0) - 1);
}

static int clip_size(int size)
{
    return size < 1 ? 1 : size > SIM_LINE_BYTES ? SIM_LINE_BYTES : size;
}

uint32_t sim_coalesce_starts(const uint64_t *addr, int size)
{
    uint64_t sz = (uint64_t)clip_size(size);
    uint32_t starts = 1;
    for (int l = 1; l < SIM_WARP_SIZE_MAX; l++)
        starts |= (uint32_t)(addr[l] != addr[l - 1] + sz) << l;
    return starts;
}

int sim_coalesce(const uint64_t *addr, uint32_t active_mask, int size, sim_line_access *out)
{
    return sim_coalesce_known(addr, active_mask, size, 0, out);
}

int sim_coalesce_known(const uint64_t *addr, uint32_t active_mask, int size, uint32_t known,
                       sim_line_access *out)
{
    /* A thread's access may straddle two lines, so 64 is the worst case;
     * the interface promises at most 32 (aligned accesses), so clip. */
    line_acc acc[2 * SIM_WARP_SIZE_MAX];
    int n = 0;
    size = clip_size(size);
    /* The bytes of the line touched last gather in locals and are merged
     * into its entry when another line comes (lines keep the order of their
     * first appearance: an entry is made at once). */
    int cur = -1;
    uint64_t cur_line = 0, lo = 0, hi = 0;
    uint32_t sec = 0;
#define COALESCE_SWITCH(L)                                                                    \
    do {                                                                                   \
        if (cur >= 0) {                                                                    \
            acc[cur].bytes_lo |= lo;                                                       \
            acc[cur].bytes_hi |= hi;                                                       \
            acc[cur].line.sector_mask |= sec;                                              \
        }                                                                                  \
        cur_line = (L);                                                                    \
        cur = find_line(acc, &n, cur_line);                                                \
        lo = hi = 0;                                                                       \
        sec = 0;                                                                           \
    } while (0)
    /* Walk the active lanes as runs of contiguous accesses (lane i+1 reads
     * right after lane i: the common unit-stride case), one byte span per
     * run, cut at line boundaries. A run's lines come in increasing order,
     * the order in which its lanes would have met them. */
    uint32_t m = active_mask;
    /* A whole warp: the lanes that start a run in one branch-free pass,
     * unless the source knew them (its lanes' offsets seen before) */
    uint32_t starts = 1;
    if (active_mask == UINT32_MAX) {
        starts = known ? known : sim_coalesce_starts(addr, size);
        TRAPEZE_ASSERT(starts == sim_coalesce_starts(addr, size));
    }
    while (m) {
        int t = __builtin_ctz(m);
        m &= m - 1;
        uint64_t a = addr[t], end;
        if (active_mask == UINT32_MAX) {
            starts &= starts - 1;   /* t's own bit */
            int next = starts ? __builtin_ctz(starts) : SIM_WARP_SIZE_MAX;
            end = a + (uint64_t)size * (uint64_t)(next - t);
            m = next < SIM_WARP_SIZE_MAX ? UINT32_MAX << next : 0;
        } else {
            end = a + (uint64_t)size;
            while (m) {
                int u = __builtin_ctz(m);
                if (addr[u] != end)
                    break;
                end += (uint64_t)size;
                m &= m - 1;
            }
        }
        while (a < end) {   /* bytes [a, end) */
            uint64_t line = a & ~(uint64_t)(SIM_LINE_BYTES - 1);
            uint64_t stop = line + SIM_LINE_BYTES < end ? line + SIM_LINE_BYTES : end;
            if (cur < 0 || line != cur_line)
                COALESCE_SWITCH(line);
            mark_local(&lo, &hi, &sec, (unsigned)(a - line), (unsigned)(stop - 1 - line));
            a = stop;
        }
    }
    if (cur >= 0) {
        acc[cur].bytes_lo |= lo;
        acc[cur].bytes_hi |= hi;
        acc[cur].line.sector_mask |= sec;
    }
#undef COALESCE_SWITCH
    if (n > SIM_WARP_SIZE_MAX)
        n = SIM_WARP_SIZE_MAX;
    for (int i = 0; i < n; i++) {
        out[i] = acc[i].line;
        const uint64_t half[2] = {acc[i].bytes_lo, acc[i].bytes_hi};
        for (int s = 0; s < 4; s++) {
            uint32_t b = (uint32_t)(half[s / 2] >> (32 * (s % 2)));
            out[i].sector_bytes[s] = (uint8_t)(b ? sim_popcount32(b) : 0);   /* 0: untouched */
        }
        out[i].bytes = (uint32_t)(out[i].sector_bytes[0] + out[i].sector_bytes[1] +
                                  out[i].sector_bytes[2] + out[i].sector_bytes[3]);
    }
    return n;
}

/* w's bank: a mask when the bank count is a power of two (a 64-bit division
 * per lane was most of the count's time). */
static inline int bank_of(uint64_t w, int banks)
{
    return (banks & (banks - 1)) == 0 ? (int)(w & (uint64_t)(banks - 1))
                                      : (int)(w % (uint64_t)banks);
}

/* 1 when byte addresses lo to hi span fewer than `banks` words: two words
 * in one bank are then the same word (degree 1). */
static int span_within_banks(uint64_t lo, uint64_t hi, int banks)
{
    return hi / 4 - lo / 4 < (uint64_t)banks;
}

/* 1 when a whole warp's words span fewer than `banks` words (above). A branch-free min and max,
 * where the pass below costs about 16 instructions a lane; it settles
 * broadcasts, unit strides and a 16x16 tile's two half-warp rows. */
static int within_banks(const uint64_t *addr, int banks)
{
    uint64_t lo = addr[0], hi = addr[0];
    for (int l = 1; l < 32; l++) {
        lo = addr[l] < lo ? addr[l] : lo;
        hi = addr[l] > hi ? addr[l] : hi;
    }
    return span_within_banks(lo, hi, banks);
}

/* 1 when no bank holds two distinct words (degree 1), else 0: one pass
 * keeping the first word seen per bank, for at most 64 banks. Most shared
 * accesses are conflict-free; the chained count below serves the rest. */
static int conflict_free(const uint64_t *addr, uint32_t m, int banks)
{
    uint64_t seen = 0, word[64];
    for (; m; m &= m - 1) {
        uint64_t w = addr[__builtin_ctz(m)] / 4;
        int b = bank_of(w, banks);
        if (!(seen >> b & 1)) {
            seen |= 1ull << b;
            word[b] = w;
        } else if (word[b] != w) {
            return 0;
        }
    }
    return 1;
}

int sim_shmem_conflict_degree(const uint64_t *addr, uint32_t active_mask, int banks,
                              const uint64_t bound[2])
{
    /* Distinct words per bank; a repeated word is a broadcast, not a pass.
     * The distinct words are chained by bank (hashed into 64 chains, so any
     * bank count works): a lane compares its word only with those of its own
     * chain, usually none or one, where a scan of all lanes' words made every
     * shared access of a warp cost about 500 comparisons. */
    enum { CHAINS = 64 };
    uint64_t words[SIM_WARP_SIZE_MAX];
    int word_bank[SIM_WARP_SIZE_MAX];
    int8_t next[SIM_WARP_SIZE_MAX], head[CHAINS];
    int n = 0, degree = active_mask ? 1 : 0;
    if (banks < 1)
        banks = 1;
    if (active_mask == 0xffffffffu && (bound ? span_within_banks(bound[0], bound[1], banks)
                                             : within_banks(addr, banks)))
        return 1;
    if (active_mask && banks <= 64 && conflict_free(addr, active_mask, banks))
        return 1;
    memset(head, -1, sizeof head);
    for (uint32_t m = active_mask; m; m &= m - 1) {
        uint64_t w = addr[__builtin_ctz(m)] / 4;
        int bank = bank_of(w, banks), same = 1, seen = 0;
        for (int i = head[bank % CHAINS]; i >= 0 && !seen; i = next[i]) {
            seen = words[i] == w;
            same += word_bank[i] == bank;
        }
        if (seen)
            continue;
        degree = same > degree ? same : degree;
        words[n] = w;
        word_bank[n] = bank;
        next[n] = head[bank % CHAINS];
        head[bank % CHAINS] = (int8_t)n++;
    }
    return degree;
}

int sim_coalesce_atomic(const uint64_t *addr, uint32_t active_mask, int size,
                        sim_atomic_access *out)
{
    sim_atomic_access acc[SIM_WARP_SIZE_MAX];
    uint64_t seg[SIM_WARP_SIZE_MAX];
    uint32_t bytes[SIM_WARP_SIZE_MAX];
    int n = 0;
    if (size < 1)
        size = 1;
    for (uint32_t m = active_mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t s = addr[l] & ~(uint64_t)(SIM_SECTOR_BYTES - 1);
        unsigned off = (unsigned)(addr[l] - s);
        unsigned span = off + (unsigned)size > SIM_SECTOR_BYTES ? SIM_SECTOR_BYTES - off
                                                                : (unsigned)size;
        uint32_t mine = (span == 32 ? UINT32_MAX : (1u << span) - 1) << off;
        int i = 0;
        while (i < n && (seg[i] != s || (bytes[i] & mine)))
            i++;
        if (i == n) {   /* no request of the segment free on these bytes */
            seg[n] = s;
            bytes[n] = 0;
            acc[n].words = acc[n].lanes = 0;
            n++;
        }
        bytes[i] |= mine;
        acc[i].words |= 1u << (off / 4);
        acc[i].lanes |= 1u << l;
    }
    /* by segment, creation order kept (std::map of lists), sent from the back */
    int order[SIM_WARP_SIZE_MAX];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && seg[order[j - 1]] > seg[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int k = 0; k < n; k++) {
        int i = order[n - 1 - k];
        out[k] = acc[i];
        out[k].addr = seg[i] + 4u * (unsigned)__builtin_ctz(acc[i].words);
    }
    return n;
}
