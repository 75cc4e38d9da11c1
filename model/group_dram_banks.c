/*
 * group_dram_banks.c - the whole launch's DRAM time from its channels'
 * traffic and row activations: the busiest channel's data bursts plus the
 * rows it opens, each costing the config's precharge and activate (tRP +
 * tRCD) of one of its banks. Pure arithmetic on counts the sampler makes
 * (sampler/group/dram_banks.c applies the address map); must not know the
 * simulator or how the counts were made.
 */
#include "trapeze.h"

/* Why the activations' time is divided by the banks: a channel's banks
 * precharge and activate at once while the bus moves another bank's data
 * (FR-FCFS keeps every bank with a request busy), so an activation holds
 * the bus for (tRP + tRCD) / banks on average. The V100's Jacobi 2048^2
 * under k-way-TS opens 201,546 more rows than under rr (6,298 a channel,
 * docs/grouping.md) and runs 10,336 core cycles (7,761 DRAM cycles, 1.23 an
 * activation) longer; (12 + 12) / 16 = 1.5. Serially (24 an activation) the
 * channel would need 151,000 DRAM cycles, three times the run. */
static double channel_time(const trapeze_group_dram_timing *t, double reads, double acts)
{
    const double banks = t->n_banks > 0 ? t->n_banks : 1;
    return reads * t->read_cycles + acts * t->row_cycles / banks;
}

double trapeze_group_dram_busiest_time(const trapeze_group_dram_timing *t, const double *reads,
                                       const double *activations, int n_channels)
{
    if (!t || !reads || !activations)
        return 0;
    double most = 0;
    for (int c = 0; c < n_channels; c++) {
        const double x = channel_time(t, reads[c], activations[c]);
        most = x > most ? x : most;
    }
    return most * (t->core_per_dram > 0 ? t->core_per_dram : 1);
}
