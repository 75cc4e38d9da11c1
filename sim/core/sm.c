/*
 * sm.c - one streaming multiprocessor: resident blocks and warp slots under
 * the occupancy limits, the warp schedulers' issue stage, the scoreboard,
 * SP/SFU pipelines with latency and initiation interval, the LDST unit
 * (coalescing, one request per cycle to the L1D port, blocking every warp's
 * memory instructions while the head request is refused), shared memory
 * serialized by bank-conflict degree, barriers, fences and atomics.
 *
 * Timing (core cycles), the rules hand-computed tests rely on:
 *  - a block placed at cycle t issues its first instruction at t+1;
 *  - an ALU instruction issued at t makes its result available at t+lat
 *    (a dependent issues then) and holds its unit until t+init;
 *  - a global access issued at t offers its first line request at t+1, one
 *    request per cycle; a load's register is ready in the cycle its last
 *    request completes (sim_memsys_pop), and a dependent issues then;
 *  - a shared access of conflict degree d issued at t holds the LDST unit
 *    for d cycles and its result is ready at t + smem_latency + d - 1;
 *  - EXIT issues like any instruction and retires the lanes of its active
 *    mask (Accel-Sim's semantics: a predicated-off EXIT, mask 0, retires
 *    none, as in the bounds check `@!P0 EXIT` real traces begin with);
 *    while lanes remain the warp goes on with its next instruction. The
 *    end of a warp's instruction stream is an EXIT of every live lane.
 *    Once no lane is live the warp finishes when its results are written
 *    and its requests completed; a block's resources are freed in the
 *    cycle its last warp finishes;
 *  - each scheduler picks at most one warp per cycle, which issues one
 *    instruction, or two with -gpgpu_max_insn_issue_per_warp 2 (issue_pair).
 *
 * Idle skipping: every warp has a `retry` cycle before which it surely cannot
 * issue (SIM_NEVER when it waits for an event: a load, a barrier, a fence);
 * the SM's `next` is their minimum, and the top level visits an SM only at
 * its `next` or when a completion arrives. Stall reasons of a visit hold
 * until the next visit, so skipped cycles are accounted in bulk; a
 * completion that changes a scheduler's warps without waking one (an exited
 * warp finishing, a block released) marks that scheduler's reason stale, and
 * a warp a barrier releases keeps "barrier" as its reason for the release
 * cycle, so no cycle is charged to a wait that no longer holds. A
 * completion that leaves its warp waiting as before (wake_futile) wakes
 * nothing: the visit it would have made could only have found that.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/mem/popcount.h"
#include "sim/core/dws.h"
#include "sim/core/rsimd.h"
#include "sim/core/sm.h"
#include "sim/core/sched_two_level.h"
#include "sim/core/warp_slots.h"

enum { TAG_LOAD = 0, TAG_STORE = 1, TAG_ATOMIC = 2, TAG_IFETCH = 3 /* fetch.c */ };

#define WST(sm, w) ((sm)->wstate[(w) - (sm)->warps])
#define SLOT(sm, w) ((int)((w) - (sm)->warps))

static inline uint64_t make_tag(int slot, int kind, int reg)
{
    return (uint64_t)slot | (uint64_t)kind << 8 | (uint64_t)reg << 16;
}

trapeze_status sim_sm_init(sim_sm *sm, int id, const sim_core_config *cfg, sim_events *ev,
                           sim_mem_port *mem, trapeze_error *err)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->cfg = cfg;
    sm->ev = ev;
    sm->mem = mem;
    /* sm->warps (about 2 KB a slot) waits for the SM's first block:
     * sim_sm_take_slots, so an SM that never runs a block costs little */
    sm->blocks = calloc((size_t)cfg->gpu.max_blocks_per_sm, sizeof *sm->blocks);
    /* the functional units by pipeline kind (memory: the LDST unit, ldst_free) */
    int units[SIM_OC_KINDS] = {[SIM_OC_SP] = cfg->n_sp, [SIM_OC_SFU] = cfg->n_sfu,
                               [SIM_OC_INT] = cfg->n_int, [SIM_OC_DP] = cfg->n_dp};
    for (int u = 1; u <= SIM_SPEC_UNITS; u++)
        units[sim_oc_spec_kind(u)] = cfg->spec_n[u];
    int no_units = 0;
    for (int k = 0; k < SIM_OC_KINDS; k++) {
        sm->unit_n[k] = units[k];
        sm->unit_free[k] = calloc((size_t)(units[k] ? units[k] : 1), sizeof(uint64_t));
        no_units |= !sm->unit_free[k];
    }
    sm->wstate = calloc((size_t)cfg->max_warps, 1);
    sm->wwait = calloc((size_t)cfg->max_warps, 1);
    sm->wretry = calloc((size_t)cfg->max_warps, sizeof *sm->wretry);
    sm->wop = calloc((size_t)cfg->max_warps, 1);
    sm->wwhy = malloc((size_t)cfg->max_warps);
    if (!sm->wwhy || !sm->wop || !sm->wstate || !sm->wwait || !sm->wretry || !sm->blocks || no_units) {
        sim_sm_free(sm);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for SM %d", id);
    }
    for (int i = 0; i < cfg->max_warps; i++) {
        sm->wretry[i] = SIM_NEVER;   /* and no bit in wfinite */
        sm->wwhy[i] = SIM_STALL_IDLE;   /* free: no bit in why[] needed */
    }
    sm->words = (cfg->max_warps + 63) / 64;
    int two_level = cfg->sched == SIM_SCHED_TWO_LEVEL || cfg->sched == SIM_SCHED_LOCALITY;
    for (int i = 0; i < cfg->max_warps; i++)
        sm->sched[i % cfg->n_sched].part[i >> 6] |= 1ull << (i & 63);
    for (int s = 0; s < cfg->n_sched; s++) {
        sm->sched[s].last = -1;
        sm->sched[s].words = sm->words;
        sm->sched[s].max_active = two_level ? cfg->active_warps : 0;
    }
    sm->next = SIM_NEVER;
    trapeze_status st = sim_oc_init(&sm->oc, cfg, err);
    if (!st)
        st = sim_fetch_init(sm, err);
    if (!st)
        st = sim_dws_init(sm, err);
    if (!st)
        st = sim_rsimd_init(sm, err);
    if (st) {
        sim_sm_free(sm);
        return st;
    }
    sm->oc_on = cfg->oc.on;
    sm->lq_max = 1;
    if (cfg->oc.on)
        sm->lq_max = 1 + cfg->oc.ocex_w[SIM_OC_MEM] < SM_LQ_INSTS
                         ? 1 + cfg->oc.ocex_w[SIM_OC_MEM] : SM_LQ_INSTS;
    for (sm->lq_size = SIM_WARP_LANES; sm->lq_size < sm->lq_max * SIM_WARP_LANES;)
        sm->lq_size *= 2;
    if (cfg->ldst_sched != SIM_LDST_FIFO) {
        /* a ring per warp slot; each warp's room is its own (ldst_refuses) */
        sm->lq_size = cfg->max_warps * cfg->ldst_depth;
        sm->lq_max = cfg->max_warps * cfg->ldst_depth + 1;
        sm->wq_head = calloc((size_t)cfg->max_warps, sizeof *sm->wq_head);
        sm->wq_n = calloc((size_t)cfg->max_warps, sizeof *sm->wq_n);
        if (!sm->wq_head || !sm->wq_n) {
            sim_sm_free(sm);
            return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for SM %d", id);
        }
    }
    sm->lq = calloc((size_t)sm->lq_size, sizeof *sm->lq);
    sm->lq_at = calloc((size_t)sm->lq_size, sizeof *sm->lq_at);
    sm->lq_last = calloc((size_t)sm->lq_size, 1);
    if (!sm->lq || !sm->lq_at || !sm->lq_last) {
        sim_sm_free(sm);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for SM %d", id);
    }
    return TRAPEZE_OK;
}

trapeze_status sim_sm_take_slots(sim_sm *sm, trapeze_error *err)
{
    if (sm->warps)
        return TRAPEZE_OK;
    sm->warps = calloc((size_t)sm->cfg->max_warps, sizeof *sm->warps);
    if (!sm->warps)
        return trapeze_fail(err, TRAPEZE_ENOMEM,
                            "simulator: out of memory for the warp slots of SM %d", sm->id);
    for (int i = 0; i < sm->cfg->max_warps; i++)
        sm->warps[i].part = (uint8_t)(sm->cfg->oc.sub_core ? i % sm->cfg->n_sched : 0);
    return TRAPEZE_OK;
}

void sim_sm_free(sim_sm *sm)
{
    free(sm->warps);
    free(sm->blocks);
    for (int k = 0; k < SIM_OC_KINDS; k++) {
        free(sm->unit_free[k]);
        sm->unit_free[k] = NULL;
    }
    free(sm->wstate);
    free(sm->wwait);
    free(sm->wretry);
    free(sm->wop);
    free(sm->wwhy);
    sim_oc_free(&sm->oc);
    sim_fetch_free(sm);
    sim_dws_free(sm);
    sim_rsimd_free(sm);
    free(sm->lq);
    free(sm->lq_at);
    free(sm->lq_last);
    free(sm->wq_head);
    free(sm->wq_n);
    sm->wq_head = sm->wq_n = NULL;
    sm->lq = NULL;
    sm->lq_at = NULL;
    sm->lq_last = NULL;
    sm->wop = sm->wwhy = NULL;
    sm->wstate = sm->wwait = NULL;
    sm->wretry = NULL;
    sm->warps = NULL;
    sm->blocks = NULL;
}

void sim_sm_begin_kernel(sim_sm *sm, const sim_kernel *k, uint64_t cycle)
{
    sm->k = k;
    sm->src = k->source ? k->source : &sim_program_source;
    sm->src_self = k->source_self;
    memset(&sm->st, 0, sizeof sm->st);
    sm->kernel_start = cycle;
    sm->progress = cycle;
    sm->last_eval = cycle;   /* first cycle not yet accounted */
    sm->skipped_until = 0;
    sm->next = SIM_NEVER;
    sm->warp_next = SIM_NEVER;
    for (int s = 0; s < 16; s++)
        sm->sched_next[s] = SIM_NEVER;
    sm->ldst_waiters = 0;
    sm->reasons_stale = 0;
    sm->release_pending = 0;
    memset(sm->wldst, 0, sizeof sm->wldst);
    for (int s = 0; s < sm->cfg->n_sched; s++) {
        sm->reason[s] = SIM_STALL_IDLE;
        sm->sched[s].last = -1;
        sm->sched[s].rr = 0;
    }
    sm->age_counter = 0;
    sim_oc_reset(&sm->oc);
    sim_fetch_begin_kernel(sm);
    sim_dws_reset(sm);
    sim_rsimd_begin_kernel(sm, cycle);
}

static int block_warps(const sim_sm *sm, const sim_kernel *k)
{
    int ws = sm->cfg->gpu.warp_size;
    return (sim_kernel_block_threads(k) + ws - 1) / ws;
}

static int block_regs(const sim_sm *sm, const sim_kernel *k)
{
    return ((k->regs_per_thread + 3) & ~3) * block_warps(sm, k) * sm->cfg->gpu.warp_size;
}

int sim_sm_fits(const sim_sm *sm, const sim_kernel *k)
{
    const sim_core_config *c = sm->cfg;
    return sm->n_blocks < c->gpu.max_blocks_per_sm &&
           sm->used_threads + sim_kernel_block_threads(k) <= c->gpu.max_threads_per_sm &&
           sm->used_warps + block_warps(sm, k) <= c->max_warps &&
           sm->used_regs + block_regs(sm, k) <= c->gpu.regs_per_sm &&
           sm->used_shmem + k->shmem_bytes <= c->gpu.shmem_per_sm;
}

static inline int oc_kind(const sim_sm *sm, const sim_warp_inst *in);

void sim_sm_next_inst(sim_sm *sm, sim_warp *w, sim_warp_inst *out)
{
    if (!sm->src->next(sm->src_self, sm->k, &w->cur, w->reg_value, out)) {
        memset(out, 0, offsetof(sim_warp_inst, addr));
        out->op = SIM_OP_EXIT;
        out->flags = SIM_INST_WARP_END;
        out->dst = out->src[0] = out->src[1] = out->src[2] = SIM_NO_REG;
    }
}

void sim_sm_inst_loaded(sim_sm *sm, sim_warp *w)
{
    w->has_inst = 1;
    w->kind = (uint8_t)oc_kind(sm, &w->inst);   /* asked at every issue check */
    sm->wop[w - sm->warps] = w->inst.op;
}

static void fetch(sim_sm *sm, sim_warp *w)
{
    sim_sm_next_inst(sm, w, &w->inst);
    sim_sm_inst_loaded(sm, w);
}

static void warp_regs(sim_sm *sm, int slot, uint64_t t, int open);

void sim_sm_place_block(sim_sm *sm, long id, uint64_t cycle)
{
    const sim_kernel *k = sm->k;
    int b = 0;
    while (sm->blocks[b].live)
        b++;
    sim_block *blk = &sm->blocks[b];
    memset(blk, 0, sizeof *blk);
    blk->live = 1;
    blk->id = id;
    blk->threads = sim_kernel_block_threads(k);
    blk->warps = block_warps(sm, k);
    blk->regs = block_regs(sm, k);
    blk->shmem = k->shmem_bytes;
    blk->n_warps = blk->warps;
    sm->n_blocks++;
    sm->used_threads += blk->threads;
    sm->used_warps += blk->warps;
    sm->used_regs += blk->regs;
    sm->used_shmem += blk->shmem;
    if ((uint64_t)sm->n_blocks > sm->st.max_resident_blocks)
        sm->st.max_resident_blocks = (uint64_t)sm->n_blocks;
    int bx = (int)(id % k->grid.x);
    int by = (int)((id / k->grid.x) % k->grid.y);
    int bz = (int)(id / ((long)k->grid.x * k->grid.y));
    int slot = 0;
    for (int i = 0; i < blk->warps; i++) {
        while (sm->wstate[slot] != W_FREE)
            slot++;
        sim_warp *w = &sm->warps[slot];
        set_state(sm, SLOT(sm, w), W_RUN);
        set_wait(sm, SLOT(sm, w), SIM_STALL_IDLE);
        w->block = (int16_t)b;
        int lanes = blk->threads - i * SIM_WARP_LANES;
        w->live = lanes >= SIM_WARP_LANES ? UINT32_MAX : (1u << lanes) - 1;
        w->age = sm->age_counter++;
        set_retry(sm, (int)(w - sm->warps), cycle + 1);
        w->busy_until = 0;
        w->ibuf = w->imiss = 0;   /* (fetch.c: the first fetch comes) */
        w->ibuf_ready = 0;
        if (sm->if_on)
            sim_fetch_want(sm, slot);
        w->pend_loads = w->pend_stores = 0;
        w->reg_waiting = 0;
        memset(w->reg_pending, 0, sizeof w->reg_pending);
        memset(w->reg_ready, 0, sizeof w->reg_ready);
        memset(w->reg_value, 0, sizeof w->reg_value);
        sm->src->warp_start(sm->src_self, k, &w->cur, bx, by, bz, i);
        if (sm->cfg->sched == SIM_SCHED_LOCALITY)
            sim_sched_warp_range(k, &w->cur, w);
        fetch(sm, w);
        blk->slot[i] = (uint8_t)slot;
        sim_sched_add(&sm->sched[slot % sm->cfg->n_sched], slot);
        retry_lowered(sm, slot);
        warp_regs(sm, slot, cycle, 1);
        if (sm->rsimd)
            sim_rsimd_placed(sm, slot, cycle);
        slot++;
    }
    if (sm->next > cycle + 1)
        sm->next = cycle + 1;
}

/* ---- blocks and warps finishing ---- */

static void release_block(sim_sm *sm, sim_block *blk, uint64_t t)
{
    for (int i = 0; i < blk->warps; i++) {
        int slot = blk->slot[i];
        warp_regs(sm, slot, t, 0);
        sim_sched_remove(&sm->sched[slot % sm->cfg->n_sched], slot);
        if (sm->dws)
            sim_dws_release(sm, slot);
        if (sm->rsimd)
            sim_rsimd_released(sm, slot);
        if (sm->src->warp_end)
            sm->src->warp_end(sm->src_self, &sm->warps[slot].cur);
        set_state(sm, slot, W_FREE);
        set_retry(sm, slot, SIM_NEVER);
    }
    sm->n_blocks--;
    sm->used_threads -= blk->threads;
    sm->used_warps -= blk->warps;
    sm->used_regs -= blk->regs;
    sm->used_shmem -= blk->shmem;
    blk->live = 0;
    sm->st.blocks++;
    sm->blocks_finished++;
    if (sm->rsimd)
        sim_rsimd_finished(sm, blk->threads, t);
    sm->reasons_stale = (1u << sm->cfg->n_sched) - 1;
}


static void try_finish(sim_sm *sm, sim_warp *w, uint64_t t)
{
    if (w->pend_loads || w->pend_stores) {
        set_retry(sm, (int)(w - sm->warps), SIM_NEVER);
        set_wait(sm, SLOT(sm, w), SIM_STALL_MEMORY);
        return;
    }
    if (w->busy_until > t) {
        set_retry(sm, (int)(w - sm->warps), w->busy_until);
        set_wait(sm, SLOT(sm, w), SIM_STALL_COMPUTE);
        return;
    }
    set_state(sm, SLOT(sm, w), W_DONE);
    set_retry(sm, (int)(w - sm->warps), SIM_NEVER);
    /* released by release_done(), never inside a scheduler's pick */
    if (++sm->blocks[w->block].done == sm->blocks[w->block].n_warps)
        sm->release_pending = 1;
}

static void release_done(sim_sm *sm, uint64_t t)
{
    if (!sm->release_pending)
        return;
    sm->release_pending = 0;
    int nb = sm->cfg->gpu.max_blocks_per_sm;
    for (int b = 0; b < nb; b++)
        if (sm->blocks[b].live && sm->blocks[b].done == sm->blocks[b].n_warps)
            release_block(sm, &sm->blocks[b], t);
}

static void barrier_check(sim_sm *sm, sim_block *blk, uint64_t t)
{
    if (blk->arrived == 0 || blk->arrived + blk->exited < blk->n_warps)
        return;
    for (int i = 0; i < blk->warps; i++) {
        sim_warp *w = &sm->warps[blk->slot[i]];
        if (WST(sm, w) == W_BAR) {
            set_state(sm, SLOT(sm, w), W_RUN);
            /* the barrier held it this cycle (a later scheduler's reason
             * may look at it before it can issue at t+1) */
            set_wait(sm, SLOT(sm, w), SIM_STALL_BARRIER);
            set_retry(sm, (int)(w - sm->warps), t + 1);
            retry_lowered(sm, blk->slot[i]);
        }
    }
    blk->arrived = 0;
    if (sm->next > t + 1)
        sm->next = t + 1;
}

/* ---- issue ---- */

typedef struct issue_ctx {
    sim_sm *sm;
    uint64_t t;
} issue_ctx;

static inline int alu_row(int op)
{
    return op == SIM_OP_FP ? 1 : op == SIM_OP_DP ? 2 : op == SIM_OP_SFU ? 3 : 0;
}

static inline int is_sp(int op)
{
    return op == SIM_OP_INT || op == SIM_OP_FP || op == SIM_OP_DP || op == SIM_OP_BRANCH;
}

static inline int is_ldst(int op)
{
    return op >= SIM_OP_LD_GLOBAL && op <= SIM_OP_ATOMIC;
}

/* Can the LDST unit not take warp slot's instruction op now? fifo: it holds
 * lq_max instructions already; per-warp queues: a global access's up to 32
 * requests do not fit in the warp's own queue. */
static inline int ldst_refuses(const sim_sm *sm, int slot, int op)
{
    if (!is_ldst(op))
        return 0;
    if (!sm->wq_n)
        return sm->lq_insts >= sm->lq_max;
    return op != SIM_OP_LD_SHARED && op != SIM_OP_ST_SHARED &&
           sm->wq_n[slot] + SIM_WARP_LANES > sm->cfg->ldst_depth;
}

/* The specialized unit an instruction runs on (sim_core_config.spec_n):
 * branches on unit 1, a trace opcode's unit (sim_trace_opcode.unit); 0:
 * none, or one the config does not enable. */
static inline int spec_unit(const sim_sm *sm, const sim_warp_inst *in)
{
    int u = in->op == SIM_OP_BRANCH ? 1 : in->unit;   /* 0..SIM_SPEC_UNITS */
    return sm->cfg->spec_n[u] ? u : 0;
}

/* The pipeline kind of an instruction: its ID_OC / OC_EX registers and its
 * units (GPGPU-Sim's dispatch in scheduler_unit::cycle): a specialized, INT
 * or DP unit when the config has it (DP on the SFUs when it says it has no
 * DP unit), else the SP units. */
static inline int oc_kind(const sim_sm *sm, const sim_warp_inst *in)
{
    int op = in->op, spec = spec_unit(sm, in);
    return (op == SIM_OP_SFU && !spec) || (op == SIM_OP_DP && sm->cfg->dp_on_sfu) ? SIM_OC_SFU
           : is_ldst(op) ? SIM_OC_MEM
           : spec ? sim_oc_spec_kind(spec)
           : op == SIM_OP_INT && sm->cfg->n_int ? SIM_OC_INT
           : op == SIM_OP_DP && sm->cfg->n_dp ? SIM_OC_DP : SIM_OC_SP;
}

/* Free unit of a pool at t, or -1 with *retry = the earliest it frees. */
static int free_unit(const uint64_t *pool, int n, uint64_t t, uint64_t *retry)
{
    uint64_t best = SIM_NEVER;
    for (int u = 0; u < n; u++) {
        if (pool[u] <= t)
            return u;
        if (pool[u] < best)
            best = pool[u];
    }
    *retry = best;
    return -1;
}

/* Is every warp but `slot` waiting on an event (memory, mostly)? LazySplit
 * splits only then. */
static int others_wait(const sim_sm *sm, int slot)
{
    for (int wi = 0; wi < sm->words; wi++) {
        uint64_t self = wi == slot >> 6 ? 1ull << (slot & 63) : 0;
        if (sm->wfinite[wi] & ~self)
            return 0;
    }
    return 1;
}

/* Dynamic Warp Subdivision on a memory divergence: the warp (or its held
 * split) waits on loaded data, some of its lanes hit and some missed; under
 * the policy it splits, the lanes with their data running ahead. */
static int mem_split(sim_sm *sm, int slot, uint64_t t, uint64_t *later)
{
    sim_dws_mem p = sim_dws_mem_now(sm);
    uint32_t ready;
    if (p == SIM_DWS_MEM_OFF || !sim_dws_mem_divergent(sm, slot, t, &ready, later) ||
        (p != SIM_DWS_MEM_AGGRESS && !others_wait(sm, slot)))
        return 0;
    return sim_dws_split_mem(sm, slot, ready);
}

/* Bit r for each register the instruction reads or writes. */
static inline uint64_t inst_regs(const sim_warp_inst *in)
{
    uint64_t m = 0;
    if (in->src[0] != SIM_NO_REG)
        m |= 1ull << in->src[0];
    if (in->src[1] != SIM_NO_REG)
        m |= 1ull << in->src[1];
    if (in->src[2] != SIM_NO_REG)
        m |= 1ull << in->src[2];
    if (in->dst != SIM_NO_REG)
        m |= 1ull << in->dst;
    return m;
}

static int unit_ready(sim_sm *sm, sim_warp *w, uint64_t t);

/* Can warp w issue its fetched instruction at t? Sets wait/retry if not. */
static int warp_ready(sim_sm *sm, sim_warp *w, uint64_t t)
{
    const sim_warp_inst *in = &w->inst;
    if (sm->if_on && (!w->ibuf || w->ibuf_ready > t)) {
        /* not fetched and decoded yet (fetch.c wakes it) */
        set_wait(sm, SLOT(sm, w), SIM_STALL_IDLE);
        set_retry(sm, SLOT(sm, w), w->ibuf ? w->ibuf_ready : SIM_NEVER);
        return 0;
    }
    uint64_t ready = 0;
    /* a result later than t was written by an ALU or shared load, which
     * raised busy_until to it; a load's completion writes its cycle */
    int any_later = w->busy_until > t;
    if (!any_later && !sm->dws) {
        /* the loop below in one test: no register is ready later than t, and
         * without DWS the first register waiting on a load (any one) ends
         * the check as below; the loop's facts, asserted */
        for (int i = 0; TRAPEZE_CHECKS_ON && i < 4; i++) {
            int r = i < 3 ? in->src[i] : in->dst;
            TRAPEZE_ASSERT(r == SIM_NO_REG || !(w->reg_waiting >> r & 1) == !w->reg_pending[r]);
            TRAPEZE_ASSERT(r == SIM_NO_REG || w->reg_ready[r] <= t);
        }
        if (w->reg_waiting && (w->reg_waiting & inst_regs(in))) {
            set_wait(sm, SLOT(sm, w), SIM_STALL_MEMORY);
            set_retry(sm, (int)(w - sm->warps), SIM_NEVER);
            return 0;
        }
        return unit_ready(sm, w, t);
    }
    int regs[4] = {in->src[0], in->src[1], in->src[2], in->dst};
    for (int i = 0; i < 4; i++) {
        int r = regs[i];
        if (r == SIM_NO_REG)
            continue;
        TRAPEZE_ASSERT(!(w->reg_waiting >> r & 1) == !w->reg_pending[r]);
        TRAPEZE_ASSERT(any_later || w->reg_ready[r] <= t);
        if ((w->reg_waiting >> r & 1) && (!sm->dws || sim_dws_reg_waits(sm, SLOT(sm, w), r))) {
            uint64_t later = SIM_NEVER;   /* (a completion wakes it) */
            if (sm->dws && mem_split(sm, SLOT(sm, w), t, &later))
                return warp_ready(sm, w, t);   /* the run-ahead split's turn */
            set_wait(sm, SLOT(sm, w), SIM_STALL_MEMORY);
            set_retry(sm, (int)(w - sm->warps), later);
            return 0;
        }
        if (any_later && w->reg_ready[r] > ready)
            ready = w->reg_ready[r];
    }
    if (ready > t) {
        set_wait(sm, SLOT(sm, w), SIM_STALL_COMPUTE);
        set_retry(sm, (int)(w - sm->warps), ready);
        return 0;
    }
    return unit_ready(sm, w, t);
}

/* warp_ready past its registers: the unit the instruction runs on. */
static int unit_ready(sim_sm *sm, sim_warp *w, uint64_t t)
{
    const sim_warp_inst *in = &w->inst;
    int op = in->op;
    uint64_t retry;
    if (sm->oc_on && (is_sp(op) || op == SIM_OP_SFU || is_ldst(op))) {
        /* its unit is the collector's question, at dispatch */
        if (ldst_refuses(sm, (int)(w - sm->warps), op)) {
            ldst_park(sm, (int)(w - sm->warps));
            return 0;
        }
        if (!sim_oc_can_issue(&sm->oc, w->kind, w->part, t, &retry)) {
            set_wait(sm, SLOT(sm, w), is_ldst(op) ? SIM_STALL_MEMORY : SIM_STALL_COMPUTE);
            set_retry(sm, (int)(w - sm->warps), retry);
            return 0;
        }
        return 1;
    }
    if (is_sp(op) || op == SIM_OP_SFU) {
        int n = sm->unit_n[w->kind];   /* the units it runs on */
        uint64_t *pool = sm->unit_free[w->kind];
        if (free_unit(pool, n, t, &retry) < 0) {
            set_wait(sm, SLOT(sm, w), SIM_STALL_COMPUTE);
            set_retry(sm, (int)(w - sm->warps), retry);
            return 0;
        }
    } else if (is_ldst(op)) {
        if (ldst_refuses(sm, (int)(w - sm->warps), op)) {   /* normally caught by can_issue */
            ldst_park(sm, (int)(w - sm->warps));
            return 0;
        }
        if (sm->ldst_free > t) {
            set_wait(sm, SLOT(sm, w), SIM_STALL_MEMORY);
            set_retry(sm, (int)(w - sm->warps), sm->ldst_free);
            return 0;
        }
    }
    return 1;
}

/* A split warp can issue when one of its splits can, tried from the one
 * that issued last; else it retries at the earliest of theirs. */
static int split_ready(sim_sm *sm, int slot, uint64_t t)
{
    sim_warp *w = &sm->warps[slot];
    uint64_t retry = SIM_NEVER;
    int why = SIM_STALL_MEMORY, parked = 0, got;
    ldst_unpark(sm, slot);
    for (int k = 0; (got = sim_dws_load_nth(sm, slot, k)) != 0; k++) {
        if (got < 0)
            continue;
        if (sm->lq_insts >= sm->lq_max && is_ldst(w->inst.op)) {
            parked = 1;   /* the LDST unit is taken */
            continue;
        }
        if (warp_ready(sm, w, t)) {
            ldst_unpark(sm, slot);
            return 1;
        }
        if (!sim_dws_group_of(sm, slot))
            return 0;
        if (sm->wretry[slot] < retry) {
            retry = sm->wretry[slot];
            why = sm->wwait[slot];
        }
    }
    if (parked)
        ldst_park(sm, slot);
    set_wait(sm, slot, why);
    set_retry(sm, slot, retry);
    return 0;
}

/* Called only for warps whose retry cycle has come. */
static inline __attribute__((always_inline)) int can_issue(void *vctx, int slot)
{
    issue_ctx *ctx = vctx;
    sim_sm *sm = ctx->sm;
    sim_warp *w = &sm->warps[slot];
    switch (sm->wstate[slot]) {
    case W_RUN:
        if (sim_rsimd_suspended(sm, slot)) {   /* Robust SIMD's depth leaves it no activity */
            ldst_unpark(sm, slot);
            set_wait(sm, slot, SIM_STALL_IDLE);
            set_retry(sm, slot, SIM_NEVER);
            return 0;
        }
        if (sm->dws && sim_dws_group_of(sm, slot))
            return split_ready(sm, slot, ctx->t);
        if (ldst_refuses(sm, slot, sm->wop[slot])) {
            ldst_park(sm, slot);   /* the LDST unit is taken */
            return 0;
        }
        ldst_unpark(sm, slot);
        return warp_ready(sm, w, ctx->t);
    case W_EXITED:
        try_finish(sm, w, ctx->t);
        return 0;
    default:
        set_retry(sm, slot, SIM_NEVER);
        return 0;
    }
}

/* Register-file energy events and idle periods (bank and 128-byte warp
 * register); returns the wake-up stall of the slowest operand (0 unless a
 * sleep policy with an exposed wake-up is active). */
static uint32_t reg_events(sim_sm *sm, int slot, const sim_warp_inst *in, uint64_t t)
{
    uint64_t lanes = (uint64_t)sim_popcount32(in->active);
    int reads = (in->src[0] != SIM_NO_REG) + (in->src[1] != SIM_NO_REG) +
                (in->src[2] != SIM_NO_REG);
    sim_events_count(sm->ev, SIM_EV_REG_READ, (uint64_t)reads);
    sim_events_count(sm->ev, SIM_EV_REG_READ_LANES, (uint64_t)reads * lanes);
    if (in->dst != SIM_NO_REG) {
        sim_events_count(sm->ev, SIM_EV_REG_WRITE, 1);
        sim_events_count(sm->ev, SIM_EV_REG_WRITE_LANES, lanes);
    }
    if (!sim_events_idle_on(sm->ev))   /* no periods to close: the counts alone */
        return 0;
    int nb = sm->cfg->reg_banks, base = sm->id * nb;
    int reg_base = (sm->id * sm->cfg->max_warps + slot) * SIM_MAX_REGS;
    uint32_t stall = 0, s;
    for (int i = 0; i < 3; i++)
        if (in->src[i] != SIM_NO_REG) {
            s = sim_events_busy(sm->ev, SIM_UNIT_REG_BANK, base + (in->src[i] + slot) % nb, t);
            stall = s > stall ? s : stall;
            s = sim_events_access(sm->ev, SIM_UNIT_REG, reg_base + in->src[i], t, SIM_NEXT_READ);
            stall = s > stall ? s : stall;
        }
    if (in->dst != SIM_NO_REG) {
        s = sim_events_access(sm->ev, SIM_UNIT_REG_BANK, base + (in->dst + slot) % nb, t,
                              SIM_NEXT_WRITE);
        stall = s > stall ? s : stall;
        s = sim_events_access(sm->ev, SIM_UNIT_REG, reg_base + in->dst, t, SIM_NEXT_WRITE);
        stall = s > stall ? s : stall;
    }
    return stall;
}

/* A warp's registers are allocated (its first access ends an idle period
 * that began at allocation) or released (their last period ends dead). */
static void warp_regs(sim_sm *sm, int slot, uint64_t t, int open)
{
    if (!sim_events_idle_on(sm->ev))   /* off: no register is ever allocated */
        return;
    int n = sm->k->regs_per_thread < SIM_MAX_REGS ? sm->k->regs_per_thread : SIM_MAX_REGS;
    int reg_base = (sm->id * sm->cfg->max_warps + slot) * SIM_MAX_REGS;
    for (int r = 0; r < n; r++)
        if (open)
            sim_events_open(sm->ev, SIM_UNIT_REG, reg_base + r, t);
        else
            sim_events_close(sm->ev, SIM_UNIT_REG, reg_base + r, t);
}

/* A wake-up stall of the register file delays the instruction: its results
 * and the warp's next issue come `stall` cycles later. */
static void wake_stall(sim_sm *sm, sim_warp *w, const sim_warp_inst *in, uint32_t stall,
                       uint64_t t)
{
    sm->st.wake_stall_cycles += stall;
    if (in->dst != SIM_NO_REG && w->reg_ready[in->dst] > t)
        w->reg_ready[in->dst] += stall;
    if (w->busy_until > t)
        w->busy_until += stall;
}

static void lq_push(sim_sm *sm, int slot, uint64_t addr, uint32_t sectors, uint32_t bytes,
                    int op, int flags, uint32_t value, uint64_t tag, uint64_t at)
{
    int i = sim_lq_index(sm, slot, sim_lq_count(sm, slot));
    sm->lq_n++;
    if (sm->wq_n)
        sm->wq_n[slot]++;
    sm->lq_at[i] = at;
    sm->lq_last[i] = 0;
    sim_mem_request *r = &sm->lq[i];
    r->addr = addr;
    r->sector_mask = sectors;
    r->bytes = bytes;
    r->op = (uint8_t)op;
    r->flags = (uint8_t)flags;
    r->sm = (uint16_t)sm->id;
    r->value = value;   /* a cached load's pc: 0 until lq_select sets it */
    r->origin = 0;
    r->tag = tag;
    r->issue_cycle = SIM_NEVER;
}

/* The requests pushed since slot's queue held `before` are one instruction's. */
static void lq_end_inst(sim_sm *sm, int slot, int before)
{
    int n = sim_lq_count(sm, slot);
    if (n == before)
        return;
    sm->lq_last[sim_lq_index(sm, slot, n - 1)] = 1;
    sm->lq_insts++;
}

/* The requests of one global load pushed since lq held `before` carry its
 * PC and origin (block id, warp slot), and the port marks those that
 * bypass the L1 (selective caching). */
static void lq_select(sim_sm *sm, int slot, int before, uint32_t pc)
{
    sim_mem_request *reqs[SIM_WARP_LANES];
    uint32_t origin = (uint32_t)sm->blocks[sm->warps[slot].block].id << 8 | (uint32_t)slot;
    int n = 0;
    for (int i = before; i < sim_lq_count(sm, slot) && n < SIM_WARP_LANES; i++) {
        reqs[n] = &sm->lq[sim_lq_index(sm, slot, i)];
        reqs[n]->pc = pc;
        reqs[n++]->origin = origin;
    }
    sm->mem->ops->select(sm->mem->self, reqs, n);
}

/* n more requests will write register r of w. */
static void reg_wait(sim_warp *w, int r, int n)
{
    w->reg_pending[r] += (uint16_t)n;
    if (w->reg_pending[r])   /* no request (no active lane): nothing to wait for */
        w->reg_waiting |= 1ull << r;
}

/* at: the cycle the LDST unit takes the instruction (its first request is
 * offered the cycle after). */
static void issue_global(sim_sm *sm, int slot, sim_warp *w, const sim_warp_inst *in, uint64_t at)
{
    int op = in->op, before = sim_lq_count(sm, slot);
    if (op == SIM_OP_ATOMIC) {
        sm->st.atomic_insts++;
        /* a request per 32-byte segment (GPGPU-Sim's atomic coalescing),
         * its words added to at L2 */
        sim_atomic_access reqs[SIM_WARP_LANES];
        int n = sim_coalesce_atomic(in->addr, in->active, in->size ? in->size : 4, reqs);
        for (int i = 0; i < n; i++) {
            lq_push(sm, slot, reqs[i].addr,
                    1u << ((reqs[i].addr % SIM_LINE_BYTES) / SIM_SECTOR_BYTES),
                    SIM_SECTOR_BYTES, SIM_MEM_ATOMIC, 0, in->value,
                    make_tag(slot, TAG_ATOMIC, in->dst), at + 1);
            sm->lq[sim_lq_index(sm, slot, sim_lq_count(sm, slot) - 1)].words = reqs[i].words;
        }
        w->pend_stores += (uint32_t)n;
        if (in->dst != SIM_NO_REG)
            reg_wait(w, in->dst, n);
        if (sm->dws)
            sim_dws_tag_requests(sm, slot, in, before);
        lq_end_inst(sm, slot, before);
        return;
    }
    sim_line_access lines[SIM_WARP_LANES];
    int n = sim_coalesce_known(in->addr, in->active, in->size,
                               in->flags & SIM_INST_RUNS ? in->runs : 0, lines);
    int load = op == SIM_OP_LD_GLOBAL;
    int flags = (in->flags & SIM_INST_VOLATILE) ? SIM_MEM_VOLATILE : 0;
    uint64_t tag = make_tag(slot, load ? TAG_LOAD : TAG_STORE, load ? in->dst : SIM_NO_REG);
    int kind = load ? SIM_MEM_LOAD : SIM_MEM_STORE;
    int sectors = 0;
    for (int i = 0; i < n; i++)
        sectors += sim_popcount32(lines[i].sector_mask & 0xf);
    if (sm->cfg->sector_accesses && !(flags & SIM_MEM_VOLATILE) && sectors <= SIM_WARP_LANES) {
        /* GPGPU-Sim's coalescer from arch 40 on: 32-byte segments, so a
         * request per sector, in line order, each carrying its bytes */
        for (int i = 0; i < n; i++)
            for (int sct = 0; sct < 4; sct++)
                if (lines[i].sector_mask >> sct & 1)
                    lq_push(sm, slot, lines[i].line_addr, 1u << sct, lines[i].sector_bytes[sct],
                            kind, flags, 0, tag, at + 1);
        n = sectors;
    } else {
        for (int i = 0; i < n; i++)
            lq_push(sm, slot, lines[i].line_addr, lines[i].sector_mask, lines[i].bytes, kind,
                    flags, 0, tag, at + 1);
    }
    if (load && !flags && sm->mem->ops->select)
        lq_select(sm, slot, before, in->pc);
    if (sm->dws && load)
        sim_dws_tag_requests(sm, slot, in, before);
    lq_end_inst(sm, slot, before);
    if (load) {
        sm->st.gld_insts++;
        w->pend_loads += (uint32_t)n;
        if (in->dst != SIM_NO_REG)
            reg_wait(w, in->dst, n);
    } else {
        sm->st.gst_insts++;
        w->pend_stores += (uint32_t)n;
    }
}

/* The cycle the LDST unit takes a memory instruction issued at t: t, or
 * through the collector (its address and data registers read). */
static uint64_t mem_at(sim_sm *sm, int slot, sim_warp *w, const sim_warp_inst *in, uint64_t t)
{
    if (!sm->oc_on)
        return t;
    uint64_t e = sim_oc_collect(&sm->oc, SIM_OC_MEM, w->part, slot, in->src, t);
    sim_oc_execute(&sm->oc, e);   /* a later instruction's requests queue behind (lq_at) */
    return e;
}

static void issue(sim_sm *sm, int slot, uint64_t t)
{
    sim_warp *w = &sm->warps[slot];
    const sim_warp_inst *in = &w->inst;
    const sim_core_config *c = sm->cfg;
    uint32_t issued_active = in->active, issued_pc = in->pc;   /* for a branch split */
    sm->st.warp_insts++;
    if (sm->if_on && --w->ibuf == 0)
        sim_fetch_want(sm, slot);
    sm->st.thread_insts += (uint64_t)sim_popcount32(in->active);
    sim_events_count(sm->ev, SIM_EV_INST_ISSUE, 1);
    if (!(in->flags & SIM_INST_SPIN))
        sm->progress = t;
    uint32_t stall = reg_events(sm, slot, in, t);
    int op = in->op;
    uint64_t retry_unused;
    sim_block *blk = &sm->blocks[w->block];
    switch (op) {
    case SIM_OP_INT:
    case SIM_OP_FP:
    case SIM_OP_DP:
    case SIM_OP_BRANCH:
    case SIM_OP_SFU: {
        int row = alu_row(op), alu = op == SIM_OP_BRANCH ? SIM_ALU_ADD : in->alu;
        int kind = w->kind, n_units = sm->unit_n[kind];
        uint64_t *pool = sm->unit_free[kind];
        int lat = c->lat[row][alu], init = c->init[row][alu], spec = spec_unit(sm, in);
        if (spec) {   /* a specialized unit's timing */
            lat = c->spec_lat[spec];
            init = c->spec_init[spec];
        }
        uint64_t done;
        if (c->oc.on) {
            /* through the collector; the unit takes it at e (the earliest free
             * of its sub-core's units), EX_WB at e + lat + 1, written back and
             * its dependents issue at e + lat + 2 */
            int part = w->part, per = n_units / (c->oc.sub_core ? c->n_sched : 1);
            uint64_t e = sim_oc_collect(&sm->oc, kind, part, slot, in->src, t);
            uint64_t *u = pool + part * per;
            for (int i = 1; i < per; i++)
                if (pool[part * per + i] < *u)
                    u = pool + part * per + i;
            e = *u > e ? *u : e;
            sim_oc_execute(&sm->oc, e);
            *u = e + (uint64_t)init;
            done = e + (uint64_t)lat + 2;
            if (in->dst != SIM_NO_REG)
                sim_oc_write(&sm->oc, part, slot, in->dst, done);
        } else {
            int u = free_unit(pool, n_units, t, &retry_unused);
            pool[u] = t + (uint64_t)init;
            done = t + (uint64_t)lat;
        }
        if (in->dst != SIM_NO_REG)
            w->reg_ready[in->dst] = done;
        if (done > w->busy_until)
            w->busy_until = done;
        sim_events_count(sm->ev, op == SIM_OP_SFU ? SIM_EV_SFU_OP
                                 : (op == SIM_OP_FP || op == SIM_OP_DP) ? SIM_EV_FP_OP
                                                                        : SIM_EV_INT_OP, 1);
        sim_events_count(sm->ev, op == SIM_OP_SFU ? SIM_EV_SFU_LANES
                                 : (op == SIM_OP_FP || op == SIM_OP_DP) ? SIM_EV_FP_LANES
                                                                        : SIM_EV_INT_LANES,
                         (uint64_t)sim_popcount32(in->active));
        break;
    }
    case SIM_OP_LD_GLOBAL:
    case SIM_OP_ST_GLOBAL:
    case SIM_OP_ATOMIC:
        issue_global(sm, slot, w, in, mem_at(sm, slot, w, in, t));
        break;
    case SIM_OP_LD_SHARED:
    case SIM_OP_ST_SHARED: {
        int d = in->active ? sim_shmem_conflict_degree(in->addr, in->active, c->shmem_banks,
                                                       in->flags & SIM_INST_SPAN ? in->addr_bound
                                                                                 : NULL)
                           : 1;
        if (d < 1)
            d = 1;
        uint64_t at = mem_at(sm, slot, w, in, t);
        at = sm->ldst_free > at ? sm->ldst_free : at;   /* (only with the collector) */
        sm->ldst_free = at + (uint64_t)d;
        sm->st.shmem_passes += (uint64_t)d;
        sim_events_count(sm->ev, SIM_EV_SHMEM_ACCESS, (uint64_t)d);
        uint64_t done = at + (uint64_t)c->smem_latency + (uint64_t)d - 1;
        if (c->oc.on && op == SIM_OP_LD_SHARED && in->dst != SIM_NO_REG)
            sim_oc_write(&sm->oc, w->part, slot, in->dst, done);
        if (op == SIM_OP_LD_SHARED) {
            sm->st.shld_insts++;
            if (in->dst != SIM_NO_REG)
                w->reg_ready[in->dst] = done;
        } else {
            sm->st.shst_insts++;
        }
        if (done > w->busy_until)
            w->busy_until = done;
        break;
    }
    case SIM_OP_BAR:
        set_state(sm, SLOT(sm, w), W_BAR);
        blk->arrived++;
        break;
    case SIM_OP_FENCE:
        if (w->pend_stores)
            set_state(sm, SLOT(sm, w), W_FENCE);
        break;
    default:   /* EXIT: its lanes retire; the warp ends with its last lane */
        w->live = (in->flags & SIM_INST_WARP_END) ? 0 : w->live & ~in->active;
        if (w->live)
            break;
        set_state(sm, SLOT(sm, w), W_EXITED);
        w->has_inst = 0;
        blk->exited++;
        break;
    }
    if (WST(sm, w) == W_EXITED) {
        barrier_check(sm, blk, t);
        try_finish(sm, w, t);
        return;
    }
    if (stall)
        wake_stall(sm, w, in, stall, t);
    if (sm->dws)
        sim_dws_next(sm, slot, op, issued_active, issued_pc);
    else
        fetch(sm, w);
    set_retry(sm, (int)(w - sm->warps), WST(sm, w) == W_RUN ? t + 1 + stall : SIM_NEVER);
    if (WST(sm, w) == W_BAR)
        barrier_check(sm, blk, t);
}

/* Instructions that may be half of a dual-issued pair: ALU and memory ones;
 * a branch, barrier, fence or EXIT issues alone. */
static inline int pairs(int op)
{
    return op == SIM_OP_INT || op == SIM_OP_FP || op == SIM_OP_DP || op == SIM_OP_SFU ||
           is_ldst(op);
}

/* GPGPU-Sim's dual issue (scheduler_unit::cycle with max_issue 2): after a
 * warp issued at t, its next instruction issues in the same cycle when it
 * is ready there (fetched, operands, a free unit: the first one's results
 * and unit are already taken, so a dependent or same-unit second waits) and,
 * under -gpgpu_dual_issue_diff_exec_units, runs on another kind of unit
 * (SP, INT, DP, SFU, memory, a specialized unit). Returns 1 if it issued. */
static int issue_second(sim_sm *sm, int slot, int first_kind, int first_op, uint64_t t)
{
    sim_warp *w = &sm->warps[slot];
    if (sm->wstate[slot] != W_RUN || sm->wretry[slot] != t + 1 || !pairs(first_op) ||
        !pairs(w->inst.op) || (sm->cfg->dual_diff_units && w->kind == first_kind) ||
        ldst_refuses(sm, slot, w->inst.op) || !warp_ready(sm, w, t))
        return 0;
    issue(sm, slot, t);
    return 1;
}

/* The picked warp's instruction, then its next one if it pairs: the
 * single-issue path (every preset but Kepler's and Pascal's) stays issue(). */
static void issue_pair(sim_sm *sm, int slot, uint64_t t)
{
    int kind = sm->warps[slot].kind, op = sm->warps[slot].inst.op;
    issue(sm, slot, t);
    issue_second(sm, slot, kind, op, t);
}

/* ---- the LDST unit's port ---- */

/* The LDST queue is empty at t: its parked are due (sim_sched_due) and
 * stay parked, untouched, until a scheduler asks them; mark their
 * schedulers and the SM as having warps due. */
static void ldst_parked_due(sim_sm *sm, uint64_t t)
{
    for (int s = 0; s < sm->cfg->n_sched; s++)
        for (int wi = 0; wi < sm->words; wi++)
            if (sm->wldst[wi] & sm->sched[s].own[wi]) {
                if (sm->sched_next[s] > t)
                    sm->sched_next[s] = t;
                break;
            }
    if (sm->warp_next > t)
        sm->warp_next = t;
}

/* A load request of warp `slot` (-1: none) was accepted at t: if the warp
 * waits on its data, it is asked again when the hit window has passed, when
 * its lanes that hit may split off from those that missed (their data may
 * be in already: no completion would wake it). */
static void dws_sent(sim_sm *sm, int slot, uint64_t t)
{
    if (slot < 0 || sim_dws_mem_now(sm) == SIM_DWS_MEM_OFF || sm->wstate[slot] != W_RUN ||
        sm->wretry[slot] != SIM_NEVER || (sm->wldst[slot >> 6] >> (slot & 63) & 1))
        return;
    set_retry(sm, slot, t + (uint64_t)sm->cfg->dws.hit_cycles + 1);
    retry_lowered(sm, slot);
}

/* Offers the queued requests in order, up to the port's accesses per cycle
 * (GPGPU-Sim: one per L1 bank), until one is refused. */
static void ldst_step(sim_sm *sm, uint64_t t)
{
    if (sm->wq_n) {
        sim_ldst_sched_step(sm, t);
        return;
    }
    int ports = sm->mem->ports > 1 ? sm->mem->ports : 1;
    for (int k = 0; k < ports && sm->lq_n && sm->lq_at[sm->lq_head] <= t; k++) {
        sim_mem_request *r = &sm->lq[sm->lq_head];
        if (r->issue_cycle == SIM_NEVER)
            r->issue_cycle = t;
        sim_fail_cause cause = SIM_FAIL_NONE;
        sim_mem_outcome o = sm->mem->ops->access(sm->mem->self, r, t, &cause);
        if (o == SIM_MEM_RESERVATION_FAIL) {
            sm->st.ldst_refused++;
            sm->st.ldst_ready += (uint64_t)sm->ldst_waiters;
            sm->st.refused[cause < SIM_FAIL_COUNT ? cause : SIM_FAIL_NONE]++;
            return;
        }
        sm->st.mem_requests++;
        if (sm->dws)
            dws_sent(sm, sim_dws_accepted(sm, r, t), t);
        int last = sm->lq_last[sm->lq_head];
        sm->lq_head = (sm->lq_head + 1) & (sm->lq_size - 1);
        sm->lq_n--;
        if (last && sm->lq_insts-- == sm->lq_max && sm->ldst_waiters)
            ldst_parked_due(sm, t);
    }
}

/* Does the warp's instruction read or write a register still waiting on a
 * load? Then its issue check stops there (warp_ready: memory, no retry). */
static int inst_waits(const sim_warp *w)
{
    const sim_warp_inst *in = &w->inst;
    int regs[4] = {in->src[0], in->src[1], in->src[2], in->dst};
    for (int i = 0; i < 4; i++)
        if (regs[i] != SIM_NO_REG && (w->reg_waiting >> regs[i] & 1))
            return 1;
    return 0;
}

/* Would asking warp `slot` again, after a completion that changed its
 * state not at all, find exactly what its last issue check found? A warp
 * whose instruction still waits on a loaded register (one of several
 * requests of a load arrived, or another register's last, or a store's
 * acknowledgement) waits on it still, and an exited warp with requests left
 * waits for them; waking it would visit the SM for a check that sets the
 * same wait and retry, and charges the same stall reasons the skipped
 * cycles are charged in bulk. Only where the check has no side effect: not
 * under DWS or Robust SIMD (their checks split and suspend warps), not with
 * a two-level scheduler (its pick moves warps between its levels), not for
 * a memory instruction (a full LDST queue parks it). */
static int wake_futile(const sim_sm *sm, const sim_warp *w, int slot)
{
    if (sm->dws || sm->rsimd || sm->cfg->sched == SIM_SCHED_TWO_LEVEL ||
        sm->cfg->sched == SIM_SCHED_LOCALITY)
        return 0;
    switch (sm->wstate[slot]) {
    case W_RUN:
        /* only warp_ready's register wait leaves a running warp waiting on
         * memory with no retry cycle and not parked (ldst_park sets a bit) */
        return sm->wretry[slot] == SIM_NEVER && sm->wwait[slot] == SIM_STALL_MEMORY &&
               !(sm->wldst[slot >> 6] >> (slot & 63) & 1) && !is_ldst(sm->wop[slot]) &&
               inst_waits(w);
    case W_EXITED:
        /* try_finish set this at the EXIT and at every completion since */
        TRAPEZE_ASSERT(!(w->pend_loads || w->pend_stores) ||
                       (sm->wretry[slot] == SIM_NEVER && sm->wwait[slot] == SIM_STALL_MEMORY));
        return w->pend_loads || w->pend_stores;
    default:
        return 0;
    }
}

void sim_sm_complete(sim_sm *sm, const sim_mem_request *done, uint64_t t)
{
    int slot = (int)(done->tag & 0xff), kind = (int)(done->tag >> 8 & 0xff);
    int reg = (int)(done->tag >> 16 & 0xff);
    sim_warp *w = &sm->warps[slot];
    if (kind == TAG_IFETCH) {
        sim_fetch_fill(sm, slot, (uint32_t)(done->tag >> 32), t);
        sm->reasons_stale |= 1u << (slot % sm->cfg->n_sched);
        if (sm->next > t)
            sm->next = t;
        return;
    }
    int state = WST(sm, w);
    if (kind == TAG_STORE || kind == TAG_ATOMIC) {
        w->pend_stores--;
        if (w->pend_stores == 0 && WST(sm, w) == W_FENCE)
            set_state(sm, SLOT(sm, w), W_RUN);
    } else {
        w->pend_loads--;
    }
    if (kind != TAG_STORE && reg != SIM_NO_REG) {
        if (sm->dws)
            sim_dws_arrived(sm, slot, reg, done, t);
        if ((done->flags & SIM_MEM_VOLATILE) || kind == TAG_ATOMIC)
            w->reg_value[reg] = done->value;
        if (--w->reg_pending[reg] == 0) {
            w->reg_waiting &= ~(1ull << reg);
            w->reg_ready[reg] = t;
            if (sm->oc_on)   /* written back after this cycle's collector steps */
                sim_oc_write(&sm->oc, w->part, slot, reg, t + 1);
        }
    }
    if (WST(sm, w) == state && wake_futile(sm, w, slot)) {   /* (a fence may have ended) */
        TRAPEZE_ASSERT(!sm->release_pending && sm->n_blocks > 0);
        sm->skipped_until = t + 2;   /* the visit at t + 1 it would have made (account) */
        return;
    }
    if (WST(sm, w) == W_RUN) {
        set_retry(sm, (int)(w - sm->warps), t);
    } else if (WST(sm, w) == W_EXITED) {
        try_finish(sm, w, t);
    }
    retry_lowered(sm, slot);
    sm->reasons_stale |= 1u << (slot % sm->cfg->n_sched);
    release_done(sm, t);
    if (sm->next > t)
        sm->next = t;
}

/* ---- one cycle ---- */

/* Charges the cycles from last_eval to upto (excluded) to the schedulers'
 * reasons, and as active when the SM holds a block now. A gap that ends
 * with no block (its last left in a completion) counts as active what the
 * visits a futile wake skipped would have counted (skipped_until: each saw
 * its block, and charged its gap and its own cycle), so that the count is
 * the one those visits made. */
static void account(sim_sm *sm, uint64_t upto)
{
    if (upto <= sm->last_eval)
        return;
    uint64_t gap = upto - sm->last_eval;
    for (int s = 0; s < sm->cfg->n_sched; s++) {
        int r = sm->reason[s];
        sm->st.stall[r < SIM_STALL_COUNT ? r : SIM_STALL_IDLE] += gap;
    }
    if (sm->n_blocks)
        sm->st.active_cycles += gap;
    else if (sm->skipped_until <= upto && sm->skipped_until > sm->last_eval)
        sm->st.active_cycles += sm->skipped_until - sm->last_eval;
    sm->last_eval = upto;
}

/* Scheduler 0's slots (slot % n == 0) as the same bits of every word when
 * n divides 64 (a bit every n; scheduler s's are these << s); 0 for other n. */
static uint64_t every_nth(int n)
{
    static const uint64_t every[17] = {
        [1] = ~0ull, [2] = 0x5555555555555555ull, [4] = 0x1111111111111111ull,
        [8] = 0x0101010101010101ull, [16] = 0x0001000100010001ull};
    return every[n];
}

/* Why scheduler s issues nothing, from its warps' reasons (precedence
 * memory > compute > fence > barrier > idle); every_n: every_nth(n_sched).
 * A slot giving a reason other than idle holds a warp, so it is its
 * scheduler's (own, sim_sm_check_slots): with the slots' bit pattern the
 * scheduler's own line is not read. */
static int sched_reason(const sim_sm *sm, int s, uint64_t every_n)
{
    for (int r = 0; r < SIM_STALL_IDLE; r++)
        for (int wi = 0; wi < sm->words; wi++)
            if (sm->why[wi][r] & (every_n ? every_n << s : sm->sched[s].own[wi]))
                return r;
    return SIM_STALL_IDLE;
}

/* The reasons of the schedulers that issued this cycle; the others' were
 * settled in the issue loop, and nothing after their evaluation changes
 * their warps without waking one (then there is no gap to account). */
static void dry_reasons(sim_sm *sm, unsigned issued)
{
    uint64_t every_n = every_nth(sm->cfg->n_sched);
    for (int s = 0; s < sm->cfg->n_sched; s++)
        if (issued >> s & 1)
            sm->reason[s] = (uint8_t)sched_reason(sm, s, every_n);
}

/* A completion changed a warp that waited on memory without waking it (an
 * exited warp finished, a block was released, a store was acknowledged):
 * the reasons of its scheduler, set before, no longer hold from now on. */
static void refresh_reasons(sim_sm *sm)
{
    if (!sm->reasons_stale)
        return;
    uint64_t every_n = every_nth(sm->cfg->n_sched);
    for (unsigned m = sm->reasons_stale; m; m &= m - 1) {
        int s = __builtin_ctz(m);
        sm->reason[s] = (uint8_t)sched_reason(sm, s, every_n);
    }
    sm->reasons_stale = 0;
}

/* The earliest of m and the retry cycles of word wi's slots in bits. */
static inline uint64_t retry_min(const uint64_t *retry, int wi, uint64_t bits, uint64_t m)
{
    for (; bits; bits &= bits - 1) {
        uint64_t v = retry[wi * 64 + __builtin_ctzll(bits)];
        m = v < m ? v : m;
    }
    return m;
}

/* The earliest retry cycle of each scheduler's warps into sched_next (slot w is
 * scheduler w % n); returns the earliest of all. Only the slots in wfinite
 * can lower a minimum: in a memory-bound kernel most warps wait on a load. */
static uint64_t retry_minima(sim_sm *sm)
{
    /* with the slots' bit pattern, no read of a scheduler's part[] (a line
     * of each scheduler's, every visited cycle) */
    const uint64_t *w = sm->wretry;
    uint64_t all = SIM_NEVER;
    int n = sm->cfg->n_sched;
    uint64_t every_n = every_nth(n);
    for (int s = 0; s < n; s++) {
        uint64_t m = SIM_NEVER;   /* in a register: a scheduler's slots by its mask */
        for (int wi = 0; wi < sm->words; wi++)
            m = retry_min(w, wi, sm->wfinite[wi] & (every_n ? every_n << s : sm->sched[s].part[wi]),
                          m);
        sm->sched_next[s] = m;
        all = m < all ? m : all;
    }
    return all;
}

/* ReviveSplit: the pipeline stalls at t or t + 1 (a skipped cycle is a
 * stalled one); split one warp waiting on a memory divergence (searched from
 * after the last one revived) to run from t + 1; 1 when one was. */
static int revive(sim_sm *sm, uint64_t t)
{
    int n = sm->cfg->max_warps, first = sm->dws->revive_next;
    for (int k = 0; k < n; k++) {
        int slot = (first + k) % n;
        uint32_t ready;
        if (sm->wstate[slot] != W_RUN || sm->wretry[slot] != SIM_NEVER ||
            (sm->wldst[slot >> 6] >> (slot & 63) & 1) ||
            !sim_dws_mem_divergent(sm, slot, t, &ready, NULL))
            continue;
        if (!sim_dws_split_mem(sm, slot, ready))
            return 0;   /* the table is full */
        set_retry(sm, slot, t + 1);
        retry_lowered(sm, slot);
        sm->dws->revive_next = (slot + 1) % n;
        return 1;
    }
    return 0;
}

static void sm_cycle(sim_sm *sm, uint64_t t)
{
    account(sm, t);
    ldst_step(sm, t);
    if (sm->warp_next > t) {
        /* no warp can issue: the LDST port (and fetch) alone worked this cycle */
        int fetching = sim_fetch_cycle(sm, t);
        refresh_reasons(sm);
        account(sm, t + 1);
        sm->next = sm->lq_n || fetching ? t + 1 : sm->warp_next;
        if (sm->warp_next < sm->next)   /* a fetch hit readied a warp */
            sm->next = sm->warp_next > t ? sm->warp_next : t + 1;
        return;
    }
    issue_ctx ctx = {sm, t};
    int gto = sm->cfg->sched == SIM_SCHED_GTO;   /* the pick loops inline, can_issue in them */
    int busy = sm->n_blocks > 0;
    unsigned issued = 0;
    uint64_t every_n = every_nth(sm->cfg->n_sched);
    for (int s = 0; s < sm->cfg->n_sched; s++) {
        sim_sched *sc = &sm->sched[s];
        /* its bound first: the scheduler's own line only when it is due */
        int due_now = sm->sched_next[s] <= t && sc->n;
        /* the LDST queue changes only when an instruction issues, after a pick */
        const uint64_t *ldst = sm->lq_insts < sm->lq_max && sm->ldst_waiters ? sm->wldst : NULL;
        int slot = !due_now ? -1
                   : gto ? sim_sched_pick_gto(sc, sm->wretry, sm->wfinite, ldst, t, can_issue,
                                              &ctx)
                   : !sc->max_active
                       ? sim_sched_pick_lrr(sc, sm->wretry, sm->wfinite, ldst, t, can_issue,
                                            &ctx)
                   : sm->cfg->sched == SIM_SCHED_LOCALITY
                       ? sim_sched_pick_locality(sm, sc, sm->wretry, sm->wfinite, ldst, t,
                                                 can_issue, &ctx)
                       : sim_sched_pick_two_level(sm, sc, sm->wretry, sm->wfinite, ldst, t,
                                                  can_issue, &ctx);
        if (slot >= 0) {
            if (sm->cfg->max_issue > 1 && !sm->dws)
                issue_pair(sm, slot, t);
            else
                issue(sm, slot, t);
            sm->st.issue_slots++;
            sm->reason[s] = SIM_STALL_IDLE;   /* re-evaluated before any gap */
            issued |= 1u << s;
        } else {
            int r = sched_reason(sm, s, every_n);
            sm->reason[s] = (uint8_t)r;
            sm->st.stall[r]++;
        }
    }
    if (busy)
        sm->st.active_cycles++;
    sm->last_eval = t + 1;
    release_done(sm, t);
    if (sm->rsimd)
        sim_rsimd_gate(sm, t);   /* activities freed by this cycle's barriers and exits */
    int fetching = sim_fetch_cycle(sm, t);
    uint64_t wn = retry_minima(sm);
    if (sim_dws_mem_now(sm) == SIM_DWS_MEM_REVIVE && (!issued || wn > t + 1) &&
        revive(sm, t))
        wn = t + 1;   /* the pipeline stalls now or at t + 1: a revived split runs then */
    if (sm->lq_insts < sm->lq_max && sm->ldst_waiters) {
        /* still due: their schedulers issued before asking them */
        ldst_parked_due(sm, t);
        wn = t;
    }
    if (wn <= t)
        wn = t + 1;
    sm->warp_next = wn;
    sm->next = sm->lq_n || fetching ? t + 1 : wn;
    sm->reasons_stale = 0;   /* every reason below is of this cycle's state */
    if (wn > t + 1)
        dry_reasons(sm, issued);   /* the reasons that hold until a warp is due */
}

/* The cycle, then (TRAPEZE_CHECKS builds) the warp-slot invariants. */
void sim_sm_cycle(sim_sm *sm, uint64_t t)
{
    sm_cycle(sm, t);
    if (TRAPEZE_CHECKS_ON) {
        sim_sm_check_slots(sm, t);
        sim_dws_check(sm);
    }
}

void sim_sm_finish_kernel(sim_sm *sm, uint64_t end)
{
    account(sm, end);
}
