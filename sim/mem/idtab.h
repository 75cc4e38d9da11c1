/*
 * idtab.h - a hash table of int32 ids by 64-bit key: open addressing,
 * linear probing, removal by backward shift (no tombstones). The keys stay
 * in the owner's array (key of id: keys[id * stride]); a slot holds the id
 * and its key's hash, so that a probe past other ids, and a removal's
 * shift, read no key: the owner's entries are cold lines of their own (an
 * MSHR lookup that found nothing read one per id on its way). A slot is 4
 * bytes (16 bits each), so that a table has at most SIM_IDTAB_MAX_IDS ids:
 * an SM's tables are looked up at random slots every cycle it accesses its
 * L1, and 80 SMs' tables at 8 bytes a slot were 1.6 MB. It serves a
 * cache's MSHR entries by key and the frames of a high-associativity cache
 * by tag (cache.c). Owns the slots; must not decide what a key means.
 *
 * Invariant: every id inserted and not removed sits in exactly one slot,
 * reachable from its key's home slot without crossing an empty slot (0).
 */
#ifndef TRAPEZE_SIM_MEM_IDTAB_H
#define TRAPEZE_SIM_MEM_IDTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_idtab_slot {
    uint16_t id1;           /* the id + 1; 0: empty */
    uint16_t hash;          /* sim_idtab_hash of the id's key: its home is hash & mask */
} sim_idtab_slot;

/* The most ids a table holds: 2n slots, a home within 16 bits. */
enum { SIM_IDTAB_MAX_IDS = 32768 };

typedef struct sim_idtab {
    sim_idtab_slot *slot;   /* mask + 1 slots */
    uint32_t mask;
    const uint64_t *keys;   /* key of id: keys[id * stride] */
    uint32_t stride;
} sim_idtab;

/* Room for n ids (2n slots rounded up to a power of two), all empty; keys
 * as above (the array must not move). 0 when out of memory; n must be at
 * most SIM_IDTAB_MAX_IDS. */
int sim_idtab_init(sim_idtab *t, uint32_t n, const uint64_t *keys, uint32_t stride);
void sim_idtab_free(sim_idtab *t);
void sim_idtab_clear(sim_idtab *t);
/* id (whose key is key) goes in; it must not be in already. */
void sim_idtab_insert(sim_idtab *t, uint64_t key, int32_t id);
/* id (whose key is key) comes out; it must be in. */
void sim_idtab_remove(sim_idtab *t, uint64_t key, int32_t id);

static inline uint16_t sim_idtab_hash(uint64_t key)
{
    /* keys are 32-byte sectors or 128-byte lines: their low bits say nothing */
    return (uint16_t)((key >> 5) * 0x9e3779b97f4a7c15ull >> 40);
}

static inline uint32_t sim_idtab_home(const sim_idtab *t, uint64_t key)
{
    return sim_idtab_hash(key) & t->mask;
}

/* The id whose key is key, or -1. */
static inline int32_t sim_idtab_find(const sim_idtab *t, uint64_t key)
{
    uint16_t h = sim_idtab_hash(key);
    for (uint32_t s = h & t->mask;; s = (s + 1) & t->mask) {
        const sim_idtab_slot *e = &t->slot[s];
        if (!e->id1 || (e->hash == h && t->keys[(size_t)(e->id1 - 1) * t->stride] == key))
            return (int32_t)e->id1 - 1;
    }
}

#endif
