/*
 * sched_range.c - a warp's access range for Chen's locality-aware warp
 * scheduler (sched_two_level.h), computed when its block is placed, as
 * Chen's block scheduler runs the kernel's address code for each warp: the
 * lines its first global loads read, as one region of 64 lines (the region
 * of its first load) and a bitmap of the lines of that region it reads.
 * Program kernels only; a trace's warps get no range (locality 0: the
 * scheduler is then a greedy two-level scheduler). Owns no timing.
 */
#include "sim/core/sm.h"

#define RANGE_INSTS 256   /* the window of instructions looked at */
#define RANGE_LOADS 8     /* ... and of global loads */

void sim_sched_warp_range(const sim_kernel *k, const sim_warp_cursor *start, sim_warp *w)
{
    w->loc_region = w->loc_lines = 0;
    if (k->source)
        return;
    sim_warp_cursor cur = *start;
    sim_warp_inst in;
    uint32_t regs[SIM_MAX_REGS];
    for (int r = 0; r < SIM_MAX_REGS; r++)
        regs[r] = UINT32_MAX;   /* spin loops: satisfied */
    int loads = 0;
    for (int i = 0; i < RANGE_INSTS && loads < RANGE_LOADS; i++) {
        if (!sim_program_source.next(NULL, k, &cur, regs, &in))
            break;
        if (in.op != SIM_OP_LD_GLOBAL || !in.active)
            continue;
        loads++;
        for (int l = 0; l < SIM_WARP_LANES; l++) {
            if (!(in.active >> l & 1))
                continue;
            uint64_t line = in.addr[l] / SIM_LINE_BYTES;
            if (!w->loc_region)
                w->loc_region = (line >> 6) + 1;   /* 0: no range */
            if ((line >> 6) + 1 == w->loc_region)
                w->loc_lines |= 1ull << (line & 63);
        }
    }
}
