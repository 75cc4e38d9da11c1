/*
 * addrmap.c - GPGPU-Sim's address decoder (addrdec.cc) re-done: letters of
 * the mask string mark which address bits form the chip (D), bank (B), row
 * (R), column (C) and burst (S) fields; "dramid@N;" instead takes the
 * channel as (addr >> N) mod channels and closes the gap, which is how a
 * non-power-of-two channel count (GTX 480: 6) is interleaved.
 * Owns decoding only: no timing.
 */
#include <string.h>

#include "sim/mem/addrmap.h"
#include "sim/mem/setindex.h"

/* The mask as runs of contiguous bits, lowest first, each with the position
 * its lowest bit takes in the gathered field. */
static void split_runs(uint64_t mask, sim_bitrun *run, int *n_runs)
{
    int n = 0, dst = 0;
    while (mask) {
        int shift = __builtin_ctzll(mask);
        uint64_t rest = mask >> shift;
        int len = rest == ~0ull ? 64 : __builtin_ctzll(~rest);
        uint64_t bits = len == 64 ? ~0ull : (1ull << len) - 1;
        run[n].bits = bits;
        run[n].shift = (uint8_t)shift;
        run[n].dst = (uint8_t)dst;
        n++;
        dst += len;
        mask &= ~(bits << shift);
    }
    *n_runs = n;
}

const char *sim_addrmap_parse(const char *text, int n_channel, int n_sub, int n_bank,
                              sim_addrmap *out)
{
    memset(out, 0, sizeof *out);
    out->gap = -1;
    out->n_channel = n_channel;
    out->n_sub = n_sub;
    out->n_bank = n_bank;
    const char *p = text;
    if (strncmp(p, "dramid@", 7) == 0) {
        p += 7;
        int gap = 0, digits = 0;
        while (*p >= '0' && *p <= '9' && gap <= 40) { /* stop before gap can overflow */
            gap = gap * 10 + (*p++ - '0');
            digits++;
        }
        if (*p != ';' || !digits || gap > 40)
            return "expected dramid@N; with N a bit position below 41";
        out->gap = gap;
        p++;
    }
    /* The string lists bits from the most significant down to bit 0. */
    int bits = 0;
    for (const char *q = p; *q; q++)
        if (*q != '.' && *q != ' ')
            bits++;
    if (bits == 0 || bits > 64)
        return "expected 1 to 64 mask letters (0, D, B, R, C, S)";
    int bit = bits - 1;
    for (const char *q = p; *q; q++) {
        int field;
        switch (*q) {
        case '.': case ' ': continue;
        case '0': bit--; continue;
        case 'D': field = SIM_AM_CHIP; break;
        case 'B': field = SIM_AM_BANK; break;
        case 'R': field = SIM_AM_ROW; break;
        case 'C': field = SIM_AM_COL; break;
        case 'S': field = SIM_AM_BURST; break;
        default: return "mask letters must be 0, D, B, R, C or S";
        }
        out->mask[field] |= 1ull << bit;
        bit--;
    }
    if (out->gap < 0 && out->mask[SIM_AM_CHIP] == 0 && n_channel > 1)
        return "no D (channel) bits and no dramid@N";
    for (int f = 0; f < SIM_AM_FIELDS; f++)
        split_runs(out->mask[f], out->run[f], &out->n_runs[f]);
    /* GPGPU-Sim: the lowest log2(n_sub) bank bits select the sub-partition */
    int want = 0;
    while ((1 << want) < n_sub)
        want++;
    int log2_sub = want;
    for (uint64_t b = out->mask[SIM_AM_BANK]; b && want > 0; b &= b - 1, want--)
        out->sub_mask |= b & -b;
    unsigned pow2 = 1;
    int log2_channel = 0;
    while (pow2 < (unsigned)n_channel) {
        pow2 <<= 1;
        log2_channel++;
    }
    out->ipoly_n = pow2 * (unsigned)n_sub;
    out->ipoly_shift = pow2 == (unsigned)n_channel && out->gap >= 0
                           ? out->gap + log2_channel + log2_sub
                           : -1;
    out->random_shift = out->gap - log2_sub;
    return NULL;
}

/* Gathers the bits of addr selected by field f's mask into the low bits
 * (pext), a run of contiguous mask bits at a time. */
static uint64_t extract(const sim_addrmap *m, uint64_t addr, int f)
{
    uint64_t v = 0;
    for (int i = 0; i < m->n_runs[f]; i++) {
        const sim_bitrun *r = &m->run[f][i];
        v |= ((addr >> r->shift) & r->bits) << r->dst;
    }
    return v;
}

sim_dram_addr sim_addrmap_decode(const sim_addrmap *m, uint64_t addr)
{
    sim_dram_addr d;
    uint64_t rest = addr;
    if (m->gap >= 0) {
        uint64_t high = addr >> m->gap;
        d.chip = (int)(high % (uint64_t)m->n_channel);
        rest = ((high / (uint64_t)m->n_channel) << m->gap) | (addr & ((1ull << m->gap) - 1));
    } else {
        d.chip = (int)(extract(m, addr, SIM_AM_CHIP) % (uint64_t)m->n_channel);
    }
    uint64_t bank = extract(m, rest, SIM_AM_BANK);
    d.bank = (int)(bank % (uint64_t)m->n_bank);  /* GPGPU-Sim asserts; we wrap */
    d.row = extract(m, rest, SIM_AM_ROW);
    d.col = extract(m, rest, SIM_AM_COL);
    /* As in GPGPU-Sim: the low bank bits pick the sub-partition. */
    d.sub = d.chip * m->n_sub + (int)(bank % (uint64_t)m->n_sub);
    if (m->indexing == SIM_AM_IPOLY && m->gap >= 0) {
        /* addrdec.cc's IPOLY: the sub-partition hashed with the address
         * bits above the channel, over the next power of two of channels,
         * then taken modulo the real count. Which bits are "above" depends,
         * as in addrdec_tlx, on whether the channel count is a power of two:
         * if it is, the channel bits are inserted at bit N and the hash takes
         * addr >> (N + log2 channels + log2 sub-partitions), skipping one more
         * bit per sub-partition bit; if not, the quotient (addr >> N) /
         * channels. (Taking the quotient for both put 98% of the V100's lines
         * in another slice and channel than Accel-Sim's.) */
        uint64_t high = m->ipoly_shift >= 0 ? addr >> m->ipoly_shift
                                            : (addr >> m->gap) / (uint64_t)m->n_channel;
        unsigned sub = sim_ipoly_hash(high, (unsigned)d.sub, m->ipoly_n) %
                       (unsigned)(m->n_channel * m->n_sub);
        d.sub = (int)sub;
        d.chip = (int)sub / m->n_sub;
    } else if (m->indexing == SIM_AM_RANDOM) {
        /* addrdec.cc's RANDOM: each chunk addr >> (N - log2 sub-partitions)
         * gets a sub-partition of its own, uniformly; GPGPU-Sim draws it with
         * rand() at the chunk's first touch (so it depends on the order of
         * accesses), Trapeze hashes the chunk (the same for any order).
         * Bank, row and column stay the consecutive decode's. */
        uint64_t z = (addr >> m->random_shift) + 0x9e3779b97f4a7c15ull;   /* splitmix64 */
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        d.sub = (int)(z % (uint64_t)(m->n_channel * m->n_sub));
        d.chip = d.sub / m->n_sub;
    }
    return d;
}

/* Removes the bits of mask from v, closing each gap (GPGPU-Sim's
 * addrdec_packbits(~mask, v, 64, 0)); the highest first, so the lower
 * positions stay where they are. */
static uint64_t squeeze(uint64_t v, uint64_t mask)
{
    while (mask) {
        int b = 63 - __builtin_clzll(mask);
        uint64_t low = b ? v & ((1ull << b) - 1) : 0;
        v = b == 63 ? low : ((v >> (b + 1)) << b) | low;
        mask &= ~(1ull << b);
    }
    return v;
}

uint64_t sim_addrmap_partition_address(const sim_addrmap *m, uint64_t addr)
{
    if (m->gap < 0)
        return squeeze(addr, m->mask[SIM_AM_CHIP] | m->sub_mask);
    uint64_t low = addr & ((1ull << m->gap) - 1);
    uint64_t pa = (((addr >> m->gap) / (uint64_t)m->n_channel) << m->gap) | low;
    return squeeze(pa, m->sub_mask);
}
