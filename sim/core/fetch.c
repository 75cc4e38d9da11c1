/*
 * fetch.c - an SM's instruction fetch: the I-cache (-gpgpu_cache:il1) and
 * the per-warp instruction buffer of two, as GPGPU-Sim 4 models them
 * (shader_core_ctx::fetch/decode). Owns the I-cache tags, its MSHR entries
 * and the fetch round robin; it does not decide what a warp executes (the
 * instruction source does) nor when it issues (sm.c).
 *
 * GPGPU-Sim's facts this follows. A cycle runs ... issue, then
 * -gpgpu_inst_fetch_throughput times (decode, fetch). fetch: when the fetch
 * buffer is free, the warps are visited round robin from the one after the
 * warp fetched last; the first whose ibuffer is empty and that has no
 * I-cache miss pending accesses the I-cache at its next PC (one access per
 * fetch): a hit fills the fetch buffer, decode moves two instructions into
 * the warp's ibuffer in the next cycle and they may issue from the cycle
 * after; a miss sends a fill through the interconnect (an MSHR entry; a
 * miss to a line already on its way merges) and marks the warp; with no
 * MSHR entry free the access is refused (the warp tries again later). A
 * returned fill goes to the fetch buffer for the warp that missed.
 *
 * Here: a fill is a read of the line's sectors at L2 (a load that bypasses
 * the L1D, at address IFETCH_BASE + PC, GPGPU-Sim's PROGRAM_MEM_START);
 * a fill that completes in cycle t (after the SM's stages) enters the fetch
 * buffer in t+1, is decoded in t+2, and the warp that missed issues from
 * t+3; warps merged on it fetch again. The I-cache is invalidated at
 * each launch (the traces of different kernels share PCs).
 *
 * Invariants (TRAPEZE_CHECKS): fills <= mshr; a pending line has a tag; a
 * warp with a miss pending has an empty ibuffer.
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/core/sm.h"
#include "sim/core/warp_slots.h"

#define IFETCH_BASE 0xF0000000ull   /* GPGPU-Sim's PROGRAM_MEM_START */
#define TAG_IFETCH 3                /* sm.c's request kinds: load, store, atomic, fetch */

trapeze_status sim_fetch_init(sim_sm *sm, trapeze_error *err)
{
    const sim_ifetch_config *c = &sm->cfg->ifetch;
    memset(&sm->ic, 0, sizeof sm->ic);
    sm->if_on = c->on;
    if (!c->on)
        return TRAPEZE_OK;
    size_t n = (size_t)c->sets * (size_t)c->assoc;
    sm->ic.tag = calloc(n, sizeof *sm->ic.tag);
    sm->ic.used = calloc(n, sizeof *sm->ic.used);
    sm->ic.pending = calloc(n, 1);
    if (!sm->ic.tag || !sm->ic.used || !sm->ic.pending) {
        sim_fetch_free(sm);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for an I-cache");
    }
    return TRAPEZE_OK;
}

void sim_fetch_free(sim_sm *sm)
{
    free(sm->ic.tag);
    free(sm->ic.used);
    free(sm->ic.pending);
    sm->ic.tag = sm->ic.used = NULL;
    sm->ic.pending = NULL;
}

void sim_fetch_begin_kernel(sim_sm *sm)
{
    if (!sm->if_on)
        return;
    size_t n = (size_t)sm->cfg->ifetch.sets * (size_t)sm->cfg->ifetch.assoc;
    memset(sm->ic.tag, 0, n * sizeof *sm->ic.tag);
    memset(sm->ic.pending, 0, n);
    sm->ic.fills = sm->ic.n_send = 0;
    sm->ic.last = -1;
    memset(sm->ic.want, 0, sizeof sm->ic.want);
}

/* The first slot with a bit in want[] at or after `from`, wrapping round;
 * -1 when none. */
static int next_candidate(const sim_sm *sm, int from)
{
    int words = sm->words, n = sm->cfg->max_warps;
    if (from >= n)
        from = 0;
    for (int k = 0; k <= words; k++) {
        int wi = (from >> 6) + k;
        uint64_t b = sm->ic.want[wi % words];
        if (k == 0)
            b &= ~0ull << (from & 63);
        else if (wi >= words && wi % words == from >> 6)
            b &= (from & 63) ? (1ull << (from & 63)) - 1 : 0;
        if (b)
            return (wi % words) * 64 + __builtin_ctzll(b);
    }
    return -1;
}

/* The warp needs the fetch unit: live, ibuffer empty, no miss pending. */
static int wants_fetch(const sim_sm *sm, int slot)
{
    int st = sm->wstate[slot];
    const sim_warp *w = &sm->warps[slot];
    return (st == W_RUN || st == W_BAR || st == W_FENCE) && w->has_inst && !w->ibuf &&
           !w->imiss;
}

static void fill_ibuffer(sim_sm *sm, int slot, uint64_t ready)
{
    sim_warp *w = &sm->warps[slot];
    w->ibuf = 2;
    w->ibuf_ready = ready;
    if (sm->wstate[slot] == W_RUN) {
        set_retry(sm, slot, ready);
        retry_lowered(sm, slot);
    }
}

/* One I-cache access for warp `slot` at t. */
static void access_icache(sim_sm *sm, int slot, uint64_t t)
{
    const sim_ifetch_config *c = &sm->cfg->ifetch;
    sim_icache *ic = &sm->ic;
    sim_warp *w = &sm->warps[slot];
    if (c->perfect) {   /* -gpgpu_perfect_inst_const_cache: status = HIT */
        ic->hits++;
        fill_ibuffer(sm, slot, t + 2);
        return;
    }
    uint64_t line = (IFETCH_BASE + w->inst.pc) / (uint64_t)c->line;
    uint32_t base = (uint32_t)(line % (uint64_t)c->sets) * (uint32_t)c->assoc;
    int victim = -1;
    for (int i = 0; i < c->assoc; i++) {
        uint32_t x = base + (uint32_t)i;
        if (ic->tag[x] == line + 1) {
            if (ic->pending[x]) {   /* merge: fetch again when it is filled */
                w->imiss = 1;
                return;
            }
            ic->used[x] = ++ic->stamp;
            ic->hits++;
            fill_ibuffer(sm, slot, t + 2);   /* decode at t+1 */
            return;
        }
        if (!ic->pending[x] && (victim < 0 || ic->used[x] < ic->used[victim]))
            victim = (int)x;
    }
    if (victim < 0 || ic->fills >= c->mshr || ic->n_send >= 64) {
        sim_fetch_want(sm, slot);   /* reservation failure: tried again in a later fetch */
        return;
    }
    ic->misses++;
    ic->tag[victim] = line + 1;
    ic->used[victim] = ++ic->stamp;
    ic->pending[victim] = 1;
    ic->fills++;
    ic->send_way[ic->n_send] = (uint32_t)victim;
    ic->send_slot[ic->n_send++] = (uint8_t)slot;
    w->imiss = 1;
}

/* Offers the oldest fill request to the memory port. */
static void send_fill(sim_sm *sm, uint64_t t)
{
    sim_icache *ic = &sm->ic;
    uint32_t way = ic->send_way[0];
    int slot = ic->send_slot[0];
    sim_mem_request r;
    memset(&r, 0, sizeof r);
    r.addr = (ic->tag[way] - 1) * (uint64_t)sm->cfg->ifetch.line;
    r.sector_mask = (1u << (sm->cfg->ifetch.line / SIM_SECTOR_BYTES)) - 1;
    if (!r.sector_mask || sm->cfg->ifetch.line > SIM_LINE_BYTES)
        r.sector_mask = 0xf;
    r.bytes = (uint32_t)(sm->cfg->ifetch.line < SIM_LINE_BYTES ? sm->cfg->ifetch.line
                                                                : SIM_LINE_BYTES);
    r.op = SIM_MEM_LOAD;
    r.flags = SIM_MEM_VOLATILE;   /* served by L2, never by the L1D */
    r.sm = (uint16_t)sm->id;
    r.tag = (uint64_t)slot | (uint64_t)TAG_IFETCH << 8 | (uint64_t)0xff << 16 |
            (uint64_t)way << 32;
    r.issue_cycle = t;
    sim_fail_cause cause = SIM_FAIL_NONE;
    if (sm->mem->ops->access(sm->mem->self, &r, t, &cause) == SIM_MEM_RESERVATION_FAIL)
        return;
    ic->n_send--;
    memmove(ic->send_way, ic->send_way + 1, (size_t)ic->n_send * sizeof *ic->send_way);
    memmove(ic->send_slot, ic->send_slot + 1, (size_t)ic->n_send);
}

/* Does a warp want a fetch, or a fill wait for the memory port? */
static int fetch_waiting(const sim_sm *sm)
{
    int waiting = sm->ic.n_send > 0;
    for (int wi = 0; wi < sm->words; wi++)
        waiting |= sm->ic.want[wi] != 0;
    return waiting;
}

int sim_fetch_cycle(sim_sm *sm, uint64_t t)
{
    if (!sm->if_on || !sm->warps)
        return 0;
    sim_icache *ic = &sm->ic;
    /* most visits: no candidate and no fill, so the stages below would do
     * nothing (their round robin starts from ic->last, which only a fetch
     * moves) */
    if (!TRAPEZE_CHECKS_ON && !fetch_waiting(sm))
        return 0;
    for (int k = 0; k < sm->cfg->ifetch.throughput; k++) {
        /* round robin from the warp after the one fetched last, over the
         * candidates; one that no longer wants a fetch leaves them */
        int found = -1;
        for (int c = next_candidate(sm, ic->last + 1); c >= 0;
             c = next_candidate(sm, ic->last + 1)) {
            if (wants_fetch(sm, c)) {
                found = c;
                break;
            }
            ic->want[c >> 6] &= ~(1ull << (c & 63));
        }
        if (found < 0)
            break;
        ic->last = found;
        ic->want[found >> 6] &= ~(1ull << (found & 63));
        access_icache(sm, found, t);   /* refused: it stays a candidate */
    }
    if (ic->n_send)   /* the I-cache's cycle: a miss leaves in the cycle it happens */
        send_fill(sm, t);
    if (TRAPEZE_CHECKS_ON) {
        TRAPEZE_ASSERT(ic->fills <= sm->cfg->ifetch.mshr);
        for (int s = 0; s < sm->cfg->max_warps; s++)   /* no warp forgotten */
            TRAPEZE_ASSERT(!wants_fetch(sm, s) || (ic->want[s >> 6] >> (s & 63) & 1));
    }
    return fetch_waiting(sm);
}

void sim_fetch_fill(sim_sm *sm, int slot, uint32_t way, uint64_t t)
{
    sim_icache *ic = &sm->ic;
    ic->pending[way] = 0;
    ic->fills--;
    /* the warps that wait on this line: the one that missed gets it through
     * the fetch buffer (decoded in the next cycle), the merged fetch again */
    uint64_t line = ic->tag[way] - 1;
    const sim_ifetch_config *c = &sm->cfg->ifetch;
    for (int s = 0; s < sm->cfg->max_warps; s++) {
        sim_warp *w = &sm->warps[s];
        if (!w->imiss || (IFETCH_BASE + w->inst.pc) / (uint64_t)c->line != line)
            continue;
        w->imiss = 0;
        if (s == slot && w->has_inst)   /* fetch buffer at t+1, decoded t+2 */
            fill_ibuffer(sm, s, t + 3);
        else
            sim_fetch_want(sm, s);
    }
}
