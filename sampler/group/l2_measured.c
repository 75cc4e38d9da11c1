/*
 * l2_measured.c - the whole GPU's L2 time of a launch from its candidates'
 * sub-grids: each candidate's L2 accesses per TB, as its sub-grid measured
 * them, scaled to the launch's TBs and put through all L2 slices at once,
 * and the correction that time makes to the model's cycles at the
 * measured L2 contention beta2; or, with the DRAM reads the sub-grid
 * measured beside them, the whole GPU's memory time (the L2's and the
 * DRAM's). The model's own L2 count barely separates
 * the candidates where the runs do (docs/grouping.md, "The whole GPU's L2
 * time"); a sub-grid's per-TB L2 reads are within a few percent of its
 * launch's on the held-out Jacobi launches. Must not simulate or fit:
 * group_samples.c runs the sub-grids, calib_group.c fits beta2,
 * group_decide.c applies the correction.
 */
#include "trapeze.h"

double trapeze_group_l2_measured_time(const trapeze_group_measured *sub, long launch_tbs,
                                      double l2_rate)
{
    if (!(sub->tbs > 0) || !(l2_rate > 0) || launch_tbs <= 0)
        return 0;
    return sub->l2_accesses / sub->tbs * (double)launch_tbs / l2_rate;
}

double trapeze_group_memory_measured_time(const trapeze_group_measured *sub, long launch_tbs,
                                          const trapeze_group_machine *mc)
{
    const double t2 = trapeze_group_l2_measured_time(sub, launch_tbs, mc->l2_accesses_per_cycle);
    if (!(sub->tbs > 0) || !(mc->dram_reads_per_cycle > 0) || launch_tbs <= 0)
        return t2;
    /* a read moves a whole access atom (the model's Tg counts it alike) */
    const double atom = mc->dram_read_transfers > 1 ? mc->dram_read_transfers : 1;
    return t2 + sub->dram_reads / sub->tbs * (double)launch_tbs * atom / mc->dram_reads_per_cycle;
}

double trapeze_group_l2_measured_factor(double cycles, double t2m, double beta2)
{
    if (beta2 < 0 || !(cycles > 0))
        return 1;
    return trapeze_group_contention_cycles(cycles, t2m, beta2) / cycles;
}
