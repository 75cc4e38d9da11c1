/*
 * funcmem.h - the functional store of 32-bit words that atomics, volatile
 * loads and value-carrying stores act on (everything else is timing only).
 * An open-addressing table keyed by word address with a fixed hash, so no
 * result depends on pointer values. Owns values only.
 */
#ifndef TRAPEZE_SIM_MEM_FUNCMEM_H
#define TRAPEZE_SIM_MEM_FUNCMEM_H

#include <stdint.h>

typedef struct sim_funcmem {
    uint64_t *keys;     /* word address + 1 (0 = empty) */
    uint32_t *values;
    uint64_t count, mask;
} sim_funcmem;

int sim_funcmem_init(sim_funcmem *f);
void sim_funcmem_free(sim_funcmem *f);
uint32_t sim_funcmem_get(const sim_funcmem *f, uint64_t addr);
void sim_funcmem_set(sim_funcmem *f, uint64_t addr, uint32_t value);

#endif
