/*
 * idtab.c - the id table's slots (idtab.h): sizing, insertion and removal
 * by backward shift. Owns nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/mem/idtab.h"

int sim_idtab_init(sim_idtab *t, uint32_t n, const uint64_t *keys, uint32_t stride)
{
    TRAPEZE_ASSERT(n <= SIM_IDTAB_MAX_IDS);
    uint32_t n_slot = 2;
    while (n_slot < 2 * n)
        n_slot *= 2;
    t->slot = malloc(n_slot * sizeof *t->slot);
    t->mask = n_slot - 1;
    t->keys = keys;
    t->stride = stride;
    if (!t->slot)
        return 0;
    sim_idtab_clear(t);
    return 1;
}

void sim_idtab_free(sim_idtab *t)
{
    free(t->slot);
    t->slot = NULL;
}

void sim_idtab_clear(sim_idtab *t)
{
    memset(t->slot, 0, ((size_t)t->mask + 1) * sizeof *t->slot);
}

void sim_idtab_insert(sim_idtab *t, uint64_t key, int32_t id)
{
    TRAPEZE_ASSERT(sim_idtab_find(t, key) < 0);
    uint16_t h = sim_idtab_hash(key);
    uint32_t s = h & t->mask;
    while (t->slot[s].id1)
        s = (s + 1) & t->mask;
    t->slot[s] = (sim_idtab_slot){(uint16_t)(id + 1), h};
}

/* The hole left at i is filled by a later entry of the probe run whose home
 * is not in (i, j]: otherwise a lookup for it would stop at the hole. */
void sim_idtab_remove(sim_idtab *t, uint64_t key, int32_t id)
{
    uint32_t i = sim_idtab_home(t, key), mask = t->mask;
    while (t->slot[i].id1 != id + 1)
        i = (i + 1) & mask;
    for (uint32_t j = (i + 1) & mask; t->slot[j].id1; j = (j + 1) & mask) {
        uint32_t home = t->slot[j].hash & mask;
        TRAPEZE_ASSERT(t->slot[j].hash ==
                       sim_idtab_hash(t->keys[(size_t)(t->slot[j].id1 - 1) * t->stride]));
        if (((j - home) & mask) >= ((j - i) & mask)) {
            t->slot[i] = t->slot[j];
            i = j;
        }
    }
    t->slot[i] = (sim_idtab_slot){0, 0};
}
