/*
 * walk.c - one block's warp instructions as the analyses that read a kernel
 * without simulating it see them (the locality graph, build.c; the DRAM
 * rows a grouping opens, sampler/group/dram_banks.c): warp by warp through
 * the kernel's instruction source, every spin loop's word taken as arrived.
 * Owns the walk and its guard against a stuck stream; must not keep what
 * an instruction touches (each caller's visit does).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/locality/locality.h"

#define MAX_WARP_INSTS 200000000ull   /* a warp that long is a stuck stream */

trapeze_status sim_block_walk(const sim_kernel *k, long tb, const char *who,
                              sim_block_visit visit, void *ctx, long long *insts,
                              trapeze_error *err)
{
    const sim_source_ops *src = k->source ? k->source : &sim_program_source;
    const int warps = (sim_kernel_block_threads(k) + SIM_WARP_LANES - 1) / SIM_WARP_LANES;
    const int bx = (int)(tb % k->grid.x), by = (int)(tb / k->grid.x % k->grid.y);
    const int bz = (int)(tb / ((long)k->grid.x * k->grid.y));
    uint32_t regs[SIM_MAX_REGS];
    for (int r = 0; r < SIM_MAX_REGS; r++)
        regs[r] = UINT32_MAX;   /* every spin loop's word has arrived */
    sim_warp_cursor *cur = calloc(1, sizeof *cur);
    sim_warp_inst *in = malloc(sizeof *in);
    trapeze_status s = cur && in ? TRAPEZE_OK
                                 : trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", who);
    for (int w = 0; w < warps && !s; w++) {
        memset(cur, 0, sizeof *cur);
        src->warp_start(k->source_self, k, cur, bx, by, bz, w);
        uint64_t n = 0;
        while (!s && src->next(k->source_self, k, cur, regs, in)) {
            if (++n > MAX_WARP_INSTS)
                s = trapeze_fail(err, TRAPEZE_ERANGE,
                                 "%s: kernel %s: warp %d of block %ld runs more than %llu "
                                 "instructions", who, k->name, w, tb, MAX_WARP_INSTS);
            else
                s = visit(ctx, in, err);
        }
        if (src->warp_end)
            src->warp_end(k->source_self, cur);
        if (insts)
            *insts += (long long)n;
    }
    free(cur);
    free(in);
    return s;
}
