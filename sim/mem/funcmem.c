/*
 * funcmem.c - word store for atomics and volatile loads (see funcmem.h).
 * Owns no timing. Words never written read as 0.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/mem/funcmem.h"

static uint64_t hash(uint64_t x)  /* splitmix64 finalizer */
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int sim_funcmem_init(sim_funcmem *f)
{
    f->mask = 255;
    f->count = 0;
    f->keys = calloc(f->mask + 1, sizeof *f->keys);
    f->values = calloc(f->mask + 1, sizeof *f->values);
    return f->keys && f->values;
}

void sim_funcmem_free(sim_funcmem *f)
{
    free(f->keys);
    free(f->values);
    f->keys = NULL;
    f->values = NULL;
}

static uint64_t slot_of(const sim_funcmem *f, uint64_t key)
{
    uint64_t i = hash(key) & f->mask;
    while (f->keys[i] && f->keys[i] != key)
        i = (i + 1) & f->mask;
    return i;
}

uint32_t sim_funcmem_get(const sim_funcmem *f, uint64_t addr)
{
    uint64_t i = slot_of(f, (addr >> 2) + 1);
    return f->keys[i] ? f->values[i] : 0;
}

static void grow(sim_funcmem *f)
{
    sim_funcmem g = {NULL, NULL, 0, 2 * f->mask + 1};
    g.keys = calloc(g.mask + 1, sizeof *g.keys);
    g.values = calloc(g.mask + 1, sizeof *g.values);
    if (!g.keys || !g.values) {
        fputs("trapeze: out of memory in the memory-system simulator\n", stderr);
        abort();
    }
    for (uint64_t i = 0; i <= f->mask; i++)
        if (f->keys[i]) {
            uint64_t j = slot_of(&g, f->keys[i]);
            g.keys[j] = f->keys[i];
            g.values[j] = f->values[i];
            g.count++;
        }
    sim_funcmem_free(f);
    *f = g;
}

void sim_funcmem_set(sim_funcmem *f, uint64_t addr, uint32_t value)
{
    uint64_t key = (addr >> 2) + 1, i = slot_of(f, key);
    if (!f->keys[i]) {
        if (2 * (f->count + 1) > f->mask + 1) {
            grow(f);
            i = slot_of(f, key);
        }
        f->keys[i] = key;
        f->count++;
    }
    f->values[i] = value;
}
