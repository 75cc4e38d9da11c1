/*
 * cache.h - a tag array with line reservation and an MSHR table, shared by
 * the L1D and the L2 slices. Owns lines, replacement, set indexing and MSHR
 * bookkeeping; it must not decide what to send where (l1d.c and l2.c do)
 * and never counts statistics.
 */
#ifndef TRAPEZE_SIM_MEM_CACHE_H
#define TRAPEZE_SIM_MEM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/mem/idtab.h"
#include "sim/mem/mem_config.h"
#include "sim/mem/setindex.h"
#include "sim/mem/ring.h"

enum { SIM_LINE_INVALID, SIM_LINE_RESERVED, SIM_LINE_VALID };

typedef struct sim_line {
    uint64_t addr;      /* line address */
    uint64_t stamp;     /* LRU: last access; FIFO: allocation */
    int32_t mshr;       /* RESERVED lines: their MSHR entry */
    uint8_t state;
    uint8_t dirty;
    /* sectored caches ('S' specs): per 32-byte sector, bit s of each mask.
     * A line's tag is VALID once allocated; a sector is readable when its
     * valid bit is set and being fetched while its pend bit is. A line with
     * a pending sector is never a victim. */
    uint8_t sect_valid, sect_pend, sect_dirty;
    /* selective caching (selcache.h), L1D only: the hashed PC of the load
     * that allocated the line and its hits since (saturating at 15) */
    uint8_t reuse;
    uint16_t pc_hash;
} sim_line;

typedef enum {
    SIM_PROBE_HIT,           /* VALID line with this address */
    SIM_PROBE_HIT_RESERVED,  /* RESERVED line with this address: a fill is pending */
    SIM_PROBE_MISS,          /* not present; *way is the victim */
    SIM_PROBE_FAIL,          /* not present and every way reserved */
    SIM_PROBE_SECTOR_MISS    /* sectored: the line is present, the sector neither valid
                              * nor pending; *way is the line */
} sim_probe;

typedef struct sim_mshr {
    uint64_t line;      /* first: the key by_key reads, a whole number of words apart */
    int32_t n;          /* requests waiting (the first miss included) */
    int32_t used_slot;  /* position in the cache's used list */
} sim_mshr;
_Static_assert(offsetof(sim_mshr, line) == 0 && sizeof(sim_mshr) % sizeof(uint64_t) == 0,
               "sim_idtab reads an entry's line as keys[id * stride]");

typedef struct sim_cache {
    sim_cache_cfg cfg;
    sim_line *lines;    /* sets x assoc */
    /* per line, its address while it is not INVALID, else SIM_TAG_NONE:
     * a lookup compares 8 bytes a way, not a 32-byte line (the V100's L1
     * has up to 256 ways a set). Written only by cache.c. */
    uint64_t *tag;
    sim_mshr *mshr;
    /* the requests waiting in the entries: wait_row[k][id] is entry id's
     * k-th (mshr_merge rows of mshr_entries, a row allocated when a k-th
     * waiter first joins: most entries hold one, and the V100's L1s would
     * have held 29 MB of room for 8, which huge pages clear whole) */
    sim_pkt **wait_row;
    int32_t *free_ids, n_free;
    int32_t *used_ids, n_used;  /* entries in use, for on-fill lookups */
    uint64_t clock;     /* access counter: deterministic LRU ages */
    const sim_addrmap *part;  /* L2 slices: sets index the partition address */
    /* the last hashed line's set: a request probes, reads, touches and
     * installs the same line, and the partition address and the hash cost
     * ~80 host instructions. Written through const probes (it caches a pure
     * function of the line, so no probe's answer depends on it). */
    struct sim_set_memo { uint64_t line; int set; } *memo;
    int alloc_assoc;    /* ways allocated per set (>= cfg.assoc: the L1 carve-out
                         * changes cfg.assoc between kernels) */
    /* the entries in use by key (idtab.h): lookups without walking the
     * used list */
    sim_idtab by_key;
    /* caches of SIM_CACHE_INDEX_WAYS ways or more and at most
     * SIM_IDTAB_MAX_IDS frames (the V100's L1: 256 ways with
     * the carve-out, where scanning a set's 2 KB of tags was a quarter of a
     * memory-bound trace's host instructions): the frames by tag (idtab.h),
     * and per set a bitmap of its INVALID ways (none_words words a set), so
     * that a probe and a victim search read a few words. by_tag.slot and
     * none_bits are NULL otherwise. Written only by cache.c, with the tag
     * array. */
    sim_idtab by_tag;
    uint64_t *none_bits;
    int none_words;
    /* caches of SIM_CACHE_RECENCY_WAYS ways or more (the V100's L1 and L2):
     * per set, its lines that are not INVALID in the order of their stamps,
     * least recent first, linked through the frames (rec_link[2i] the frame
     * before frame i, rec_link[2i+1] the one after, -1 none; rec_end[2s] the
     * set's first, rec_end[2s+1] its last). A full set's victim is then the
     * first replaceable line from the front, not a read of every way's line
     * (a fill of the V100's L1 read 256 of them: 8 KB). NULL otherwise.
     * Written only by cache.c. */
    int32_t *rec_link, *rec_end;
} sim_cache;

enum { SIM_CACHE_INDEX_WAYS = 32, SIM_CACHE_RECENCY_WAYS = 16 };

/* No line has this address (lines are 128-byte aligned). */
#define SIM_TAG_NONE (~(uint64_t)0)

int sim_cache_init(sim_cache *c, const sim_cache_cfg *cfg);
void sim_cache_free(sim_cache *c);
/* Empties every line and sets the ways per set (at most alloc_assoc): the
 * L1 carve-out between kernels. */
void sim_cache_reset(sim_cache *c, int assoc);
/* Line `way` of line's set becomes INVALID. */
void sim_cache_invalidate(sim_cache *c, uint64_t line, int way);
/* The set of a line address: GPGPU-Sim's set index function of the
 * -gpgpu_cache spec (setindex.h), applied in an L2 slice to the partition
 * address (channel and sub-partition bits removed, as l2_cache_config
 * does). Inline: every probe starts here. */
static inline int sim_cache_set(const sim_cache *c, uint64_t line)
{
    unsigned nset = (unsigned)c->cfg.sets;
    int linear = c->cfg.set_index == SIM_SETIDX_LINEAR || c->cfg.set_index == SIM_SETIDX_CUSTOM;
    if (linear && !c->part)
        return (int)((line >> 7) & (nset - 1));
    if (c->memo->line == line)
        return c->memo->set;
    uint64_t key = line;
    if (c->part)
        line = sim_addrmap_partition_address(c->part, line);
    int set = linear ? (int)((line >> 7) & (nset - 1))
                     : (int)sim_set_index(line, nset, 7, c->cfg.set_index);
    c->memo->line = key;
    c->memo->set = set;
    return set;
}

sim_probe sim_cache_probe(const sim_cache *c, uint64_t line, int *way);
static inline sim_line *sim_cache_line(sim_cache *c, uint64_t line, int way)
{
    return &c->lines[(size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc + (size_t)way];
}
void sim_cache_touch(sim_cache *c, sim_line *l);
/* Victim for an on-fill allocation (no reservation): -1 if every way is reserved. */
int sim_cache_fill_victim(const sim_cache *c, uint64_t line);
/* Puts `line` in way `way` in `state`; returns the previous contents. */
sim_line sim_cache_install(sim_cache *c, uint64_t line, int way, int state);
void sim_cache_invalidate_valid(sim_cache *c);

int sim_cache_mshr_find(const sim_cache *c, uint64_t line);

/* ---- sectored caches: a line's tag, four 32-byte sectors (GPGPU-Sim's
 * sector_cache_block). MSHR entries are per sector, keyed by the sector's
 * address (sim_sector_key). ---- */

static inline uint64_t sim_sector_key(uint64_t line, int sector)
{
    return line | (uint64_t)sector * 32u;
}
/* HIT (sector valid), HIT_RESERVED (sector pending), SECTOR_MISS (line
 * present, sector not), MISS (*way the victim: invalid, else the least
 * recently used line without a pending sector) or FAIL (none). */
sim_probe sim_cache_probe_sector(const sim_cache *c, uint64_t line, int sector, int *way);
/* The way holding line (any state but INVALID), or -1: a probe without the
 * victim search, for lookups that allocate nothing; sim_cache_tag_way
 * searches the set whose first line is lines[base] (a caller that has the
 * set already). */
static inline int sim_cache_tag_way(const sim_cache *c, size_t base, uint64_t line)
{
    if (c->by_tag.slot) {
        /* a line is in one set only, so the frame whose tag it is lies in base's */
        int32_t i = sim_idtab_find(&c->by_tag, line);
        return i < 0 ? -1 : (int)((size_t)i - base);
    }
    const uint64_t *tag = &c->tag[base];
    for (int w = 0; w < c->cfg.assoc; w++)
        if (tag[w] == line)
            return w;
    return -1;
}
static inline int sim_cache_find(const sim_cache *c, uint64_t line)
{
    return sim_cache_tag_way(c, (size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc, line);
}
/* The MSHR entry waiting for key, searching the entries in use; -1 none. */
int sim_cache_mshr_lookup(const sim_cache *c, uint64_t key);
static inline int sim_cache_mshr_full(const sim_cache *c) { return c->n_free == 0; }
static inline int sim_cache_mshr_can_merge(const sim_cache *c, int id)
{
    return c->mshr[id].n < c->cfg.mshr_merge;
}
int sim_cache_mshr_alloc(sim_cache *c, uint64_t line);
void sim_cache_mshr_add(sim_cache *c, int id, const sim_pkt *p);
/* The i-th request waiting in entry id (i < mshr[id].n). */
static inline sim_pkt *sim_cache_mshr_waiter(sim_cache *c, int id, int i)
{
    return &c->wait_row[i][id];
}
void sim_cache_mshr_release(sim_cache *c, int id);

/* ---- a read miss and its fill, the same in the L1D and the L2 (the
 * caller checks its own queues and counts statistics) ---- */

/* After the caller's probe of `line` (probe, way) missed: *id is the MSHR
 * entry already waiting for the line, or -1 when a new one is needed; the
 * refusal when that entry takes no more requests (SIM_FAIL_MSHR_MERGE) or
 * no entry is free (SIM_FAIL_MSHR_ENTRY), else SIM_FAIL_NONE. */
sim_fail_cause sim_cache_miss_entry(const sim_cache *c, uint64_t line, sim_probe probe, int way,
                                    int *id);
/* The request w joins entry id; a reserved line (probe HIT_RESERVED at
 * way) counts as used and is returned, else NULL. */
sim_line *sim_cache_miss_merge(sim_cache *c, int id, const sim_pkt *w, uint64_t line,
                               sim_probe probe, int way);
/* A new entry for line with w as its first request. Allocate-on-miss also
 * reserves the line in way and returns what it displaced (state INVALID
 * when nothing or allocate-on-fill); *reserved is the reserved line or NULL. */
sim_line sim_cache_miss_alloc(sim_cache *c, const sim_pkt *w, uint64_t line, int way,
                              sim_line **reserved);
/* The line of a fill comes back. Allocate-on-miss: its reserved line
 * becomes valid; returns -1. Allocate-on-fill: the way to install it in,
 * for the caller to install once it has dealt with the line there (-1 when
 * every way is reserved: the line is not kept). */
int sim_cache_fill_way(sim_cache *c, uint64_t line);
/* Did installing `line` over `old` evict a valid line? */
static inline int sim_cache_evicted(const sim_line *old, uint64_t line)
{
    return old->state == SIM_LINE_VALID && old->addr != line;
}

#endif
