/*
 * pc_stats.c - the L1D's counters per global load PC (sim_pc_stats,
 * mem_stats.h): a port's table, filled by l1d.c when the contention
 * counters are on (the port has its per-frame origins), and the sum over
 * the ports that sim_memsys_stats returns. Must not change what the L1D
 * does: it only counts.
 */
#include <string.h>

#include "sim/mem/memsys_impl.h"

sim_pc_stats *sim_pc_stats_of(sim_sm_port *p, uint32_t pc)
{
    if (!p->origin)
        return NULL;
    for (int i = 0; i < p->n_pcs; i++)
        if (p->pcs[i].pc == pc)
            return &p->pcs[i];
    if (p->n_pcs == SIM_PC_STATS_MAX)
        return NULL;
    sim_pc_stats *e = &p->pcs[p->n_pcs++];
    memset(e, 0, sizeof *e);
    e->pc = pc;
    return e;
}

sim_pc_stats *sim_pc_stats_of_line(sim_sm_port *p, const sim_line *l)
{
    if (!p->origin)
        return NULL;
    for (int i = 0; i < p->n_pcs; i++)   /* the first PC seen of that hash */
        if (sim_sel_hash((uint32_t)p->pcs[i].pc) == l->pc_hash)
            return &p->pcs[i];
    return NULL;
}

static void add(sim_pc_stats *to, const sim_pc_stats *from)
{
    to->accesses += from->accesses;
    to->misses += from->misses;
    to->bypasses += from->bypasses;
    to->evictions += from->evictions;
    to->evicted_unused += from->evicted_unused;
    to->evicted_reuse += from->evicted_reuse;
}

/* e into the ascending table (n entries): added to its PC's, else inserted
 * in order; when the table is full the highest PC is the one left out, so
 * the sum does not depend on the order the SMs are read in. */
static void merge(sim_pc_stats *t, uint64_t *n, const sim_pc_stats *e)
{
    uint64_t i = 0;
    while (i < *n && t[i].pc < e->pc)
        i++;
    if (i < *n && t[i].pc == e->pc) {
        add(&t[i], e);
        return;
    }
    if (i == SIM_PC_STATS_MAX)
        return;
    uint64_t last = *n < SIM_PC_STATS_MAX ? (*n)++ : *n - 1;
    memmove(&t[i + 1], &t[i], (size_t)(last - i) * sizeof *t);
    t[i] = *e;
}

void sim_pc_stats_sum(const sim_memsys *m, sim_mem_stats *st)
{
    st->n_pcs = 0;
    memset(st->pcs, 0, sizeof st->pcs);
    for (int s = 0; s < m->n_sm; s++)
        for (int i = 0; i < m->sm[s].n_pcs; i++)
            merge(st->pcs, &st->n_pcs, &m->sm[s].pcs[i]);
}
