/*
 * ring.h - the packet that travels between the parts of the memory system
 * (sim_pkt) and a growable FIFO of them (sim_ring). Owns storage only: the
 * capacity limits of the modelled queues are checked by their owners.
 */
#ifndef TRAPEZE_SIM_MEM_RING_H
#define TRAPEZE_SIM_MEM_RING_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/memsys.h"

typedef enum {
    SIM_PKT_READ,       /* a load (line fill, bypassing or volatile) */
    SIM_PKT_WRITE,      /* a store from an SM */
    SIM_PKT_ATOMIC,
    SIM_PKT_FETCH,      /* L2 miss: line fetch from DRAM */
    SIM_PKT_WRITEBACK   /* L2 dirty eviction or write-through: no reply */
} sim_pkt_kind;

/* What DRAM does when it has served a packet. */
enum { SIM_DRAM_DONE_NONE, SIM_DRAM_DONE_FILL_L2, SIM_DRAM_DONE_REPLY };

typedef struct sim_pkt {
    sim_mem_request req;  /* the SM's request (for FETCH: the first miss) */
    uint64_t line;        /* line address */
    uint64_t ready;       /* core cycle (DRAM tick in DRAM queues) it may move on */
    uint32_t bytes;       /* payload moved from/to DRAM or carried back */
    int32_t sub;          /* sub-partition (global index) */
    uint8_t kind;         /* sim_pkt_kind */
    uint8_t fill_l1;      /* the reply fills the L1 and releases its MSHR entry */
    uint8_t dram_done;    /* SIM_DRAM_DONE_... */
    uint8_t sectors;      /* sectored L2: sectors still to serve (bit s: bytes 32s..32s+31);
                           * a sector request: its one sector */
    uint8_t split;        /* sectored L2: sectors computed at the head of the queue */
    uint8_t icnt_part;    /* xbar.c flit mode: 1 + the index of this sector reply among its
                           * request's (GPGPU-Sim replies per sector); 0 a whole reply */
    int32_t parent;       /* sectored L2: 1 + the parent entry its reply waits in, 0 none */
} sim_pkt;

typedef struct sim_ring {
    sim_pkt *items;
    uint32_t head, count, mask;
} sim_ring;

static inline int sim_ring_init(sim_ring *r, uint32_t capacity)
{
    uint32_t cap = 8;
    while (cap < capacity)
        cap *= 2;
    r->items = malloc(cap * sizeof *r->items);
    r->head = r->count = 0;
    r->mask = cap - 1;
    return r->items != NULL;
}

static inline void sim_ring_free(sim_ring *r) { free(r->items); r->items = NULL; }

/* Growth happens only for queues the model leaves unbounded (bounded in
 * practice by the requests in flight); running out of memory there cannot
 * be recovered from mid-cycle, so it aborts with a message. */
static inline void sim_mem_out_of_memory(void)
{
    fputs("trapeze: out of memory in the memory-system simulator\n", stderr);
    abort();
}

/* Array a of *cap elements of elem bytes, grown (doubling) so that element
 * id fits. For arrays indexed by ids handed out lowest first (the split
 * parents of l1d.c and l2.c): they hold the high-water mark in flight, not
 * the worst case, which malloc on huge pages would have the kernel clear
 * whole (cli/hugepages.c). Out of memory aborts as sim_ring_grow does. */
static inline void *sim_grow_for(void *a, int32_t *cap, int32_t id, size_t elem)
{
    if (id < *cap)
        return a;
    int32_t n = *cap ? *cap : 16;
    while (n <= id)
        n *= 2;
    void *b = realloc(a, (size_t)n * elem);
    if (!b)
        sim_mem_out_of_memory();
    *cap = n;
    return b;
}

static inline void sim_ring_grow(sim_ring *r)
{
    uint32_t cap = r->mask + 1;
    sim_pkt *items = malloc(2 * (size_t)cap * sizeof *items);
    if (!items)
        sim_mem_out_of_memory();
    for (uint32_t i = 0; i < r->count; i++)
        items[i] = r->items[(r->head + i) & r->mask];
    free(r->items);
    r->items = items;
    r->head = 0;
    r->mask = 2 * cap - 1;
}

static inline void sim_ring_push(sim_ring *r, const sim_pkt *p)
{
    if (r->count == r->mask + 1)
        sim_ring_grow(r);
    r->items[(r->head + r->count) & r->mask] = *p;
    r->count++;
}

/* The slot a push fills, counted in: the caller writes the packet there,
 * one copy where a push of a changed local copy makes two. */
static inline sim_pkt *sim_ring_push_slot(sim_ring *r)
{
    if (r->count == r->mask + 1)
        sim_ring_grow(r);
    return &r->items[(r->head + r->count++) & r->mask];
}

static inline sim_pkt *sim_ring_front(sim_ring *r) { return &r->items[r->head]; }

/* An emptied ring starts again at its first slot: a queue that holds a few
 * packets at a time then reuses the same lines, which the host keeps in its
 * caches, instead of walking through all of its slots (each cold when the
 * walk comes back to it). Only where the packets sit changes. */
static inline void sim_ring_pop(sim_ring *r)
{
    r->head = --r->count ? (r->head + 1) & r->mask : 0;
}

#endif
