/*
 * hang.c - the simulator's hang guard: refuses a launch whose global
 * barrier waits for more blocks than can be resident at once, and, when a
 * running launch has stopped making progress, says what its warps wait on.
 * Owns the two error messages; must not change simulation state (the top
 * level decides when to ask, gpu_sim.c).
 *
 * Progress is an instruction issued outside a spin loop, or a block placed
 * or finished. Warps that only poll a word (spin loops), wait at a barrier
 * or a fence, or wait on memory do not advance the kernel.
 */
#include <stdio.h>

#include "common/error.h"
#include "sim/core/sm.h"

trapeze_status sim_hang_check_barrier(const sim_core_config *c, const sim_kernel *k, int per_sm,
                                      const char *limit, trapeze_error *err)
{
    int64_t fit = (int64_t)per_sm * c->gpu.n_sm, grid = sim_kernel_blocks(k);
    if (k->barrier_blocks > grid)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "kernel %s: its global barrier waits for %lld blocks but the grid "
                            "has %lld: it would never open",
                            k->name, (long long)k->barrier_blocks, (long long)grid);
    if (k->barrier_blocks > fit)
        return trapeze_fail(err, TRAPEZE_ERANGE,
                            "kernel %s: its global barrier waits for %lld blocks but at most "
                            "%lld can be resident at once (%d per SM, limited by %s, x %d SMs): "
                            "it would never open",
                            k->name, (long long)k->barrier_blocks, (long long)fit, per_sm,
                            limit, c->gpu.n_sm);
    return TRAPEZE_OK;
}

/* What the resident warps wait on; the first spinning warp's word. */
typedef struct hang_census {
    int spin, bar, fence, memory, other, resident_blocks;
    int have_word;
    uint64_t word;
    int64_t target;
} hang_census;

static void count_warp(hang_census *h, const sim_sm *sm, int slot)
{
    const sim_warp *w = &sm->warps[slot];
    int state = sm->wstate[slot];
    if (state == W_BAR) {
        h->bar++;
    } else if (state == W_FENCE) {
        h->fence++;
    } else if (state == W_RUN && w->has_inst && (w->inst.flags & SIM_INST_SPIN)) {
        h->spin++;
        if (!h->have_word)
            h->have_word = sim_program_spin_wait(sm->k, &w->cur, &h->word, &h->target);
    } else if (w->pend_loads || w->pend_stores) {
        h->memory++;
    } else if (state == W_RUN || state == W_EXITED) {
        h->other++;
    }
}

static void take_census(const sim_sm *sms, int n_sm, hang_census *h)
{
    for (int s = 0; s < n_sm; s++) {
        const sim_sm *sm = &sms[s];
        h->resident_blocks += sm->n_blocks;
        for (int slot = 0; slot < sm->cfg->max_warps; slot++)
            if (sm->wstate[slot] != W_FREE && sm->wstate[slot] != W_DONE)
                count_warp(h, sm, slot);
    }
}

trapeze_status sim_hang_report(const sim_sm *sms, int n_sm, const sim_mem_port *mem,
                               const sim_kernel *k, uint64_t cycle, uint64_t blocks_done,
                               trapeze_error *err)
{
    hang_census h = {0};
    take_census(sms, n_sm, &h);
    char spin[160] = "";
    if (h.have_word)
        snprintf(spin, sizeof spin, " until the word at 0x%llx (now %u) reaches %lld",
                 (unsigned long long)h.word, mem->ops->peek(mem->self, h.word),
                 (long long)h.target);
    const sim_core_config *c = sms[0].cfg;
    return trapeze_fail(err, TRAPEZE_EFAIL,
                        "kernel %s: no progress for %llu cycles (-trapeze_hang_cycles; no "
                        "instruction outside a spin loop, no block started or finished), at "
                        "cycle %llu: %d warps spin%s, %d wait at __syncthreads, %d at a fence, "
                        "%d on memory, %d other; %llu of %ld blocks done, %d resident",
                        k->name, (unsigned long long)c->hang_cycles, (unsigned long long)cycle,
                        h.spin, spin, h.bar, h.fence, h.memory, h.other,
                        (unsigned long long)blocks_done, sim_kernel_blocks(k), h.resident_blocks);
}
