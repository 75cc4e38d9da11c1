/*
 * sm.h - internal to sim/core: one streaming multiprocessor (warp slots,
 * blocks, schedulers, scoreboard, functional units, LDST unit), the warp
 * scheduler interface and the TB dispatch-policy interface.
 */
#ifndef TRAPEZE_SIM_CORE_SM_H
#define TRAPEZE_SIM_CORE_SM_H

#include <stdint.h>

#include "sim/core/gpu_sim.h"
#include "sim/core/opndcoll.h"
#include "sim/memsys.h"

#define SIM_NEVER UINT64_MAX
#define SM_MAX_WARPS 256
#define SM_MAX_BLOCK_WARPS 128
#define SM_MASK_WORDS (SM_MAX_WARPS / 64)   /* a bit per warp slot */
#define SM_LQ_INSTS 8                        /* memory instructions queued at most */

enum { W_FREE, W_RUN, W_BAR, W_FENCE, W_EXITED, W_DONE };

/* A warp slot. Its hot scheduling fields (state, wait reason, retry cycle)
 * live in the SM's compact arrays wstate/wwait/wretry, indexed by slot, so
 * that scanning warps touches a few cache lines instead of one per warp. */
typedef struct sim_warp {
    /* what the issue check reads (warp_ready) first, on the first cache line
     * with the instruction's opcode and registers: a cycle checks many warps
     * of many SMs, and each line it touches is usually cold */
    uint8_t has_inst;
    uint8_t ibuf;              /* I-fetch on: decoded instructions in its ibuffer (0-2) */
    uint8_t imiss;             /* waiting for an I-cache fill */
    uint8_t kind;              /* inst's pipeline kind (SIM_OC_*), found when fetched */
    int16_t block;             /* block slot */
    uint8_t part;              /* its sub-core (slot % schedulers with sub-cores, else 0) */
    uint32_t live;             /* lanes that exist and have not executed an EXIT */
    uint64_t ibuf_ready;       /* they may issue from this cycle (decode) */
    uint64_t age;              /* dispatch order (GTO's "oldest") */
    uint64_t busy_until;       /* last ALU result lands */
    uint32_t pend_loads, pend_stores;   /* outstanding requests (stores include atomics) */
    /* bit r: reg_pending[r] > 0. With busy_until (no reg_ready is later
     * than it, or than the cycle a load's completion set it to) the issue
     * check answers from this line: the scoreboard's arrays below span ten
     * lines, and a register's entry is read only when it may hold the warp */
    uint64_t reg_waiting;
    sim_warp_inst inst;        /* the next instruction (fetched) */
    uint16_t reg_pending[SIM_MAX_REGS]; /* outstanding load requests writing the register */
    uint64_t reg_ready[SIM_MAX_REGS];   /* cycle its ALU result is available */
    uint32_t reg_value[SIM_MAX_REGS];   /* words returned by atomics / volatile loads */
    sim_warp_cursor cur;
    /* Chen's warp access range: a region of 64 lines and the lines of it
     * the warp's first loads read (sched_two_level.c) */
    uint64_t loc_region, loc_lines;
} sim_warp;

/* The I-cache and fetch unit of an SM (fetch.c). */
typedef struct sim_icache {
    uint64_t *tag;               /* sets * assoc: line number + 1, 0 invalid */
    uint64_t *used;              /* LRU stamps */
    uint8_t *pending;            /* a fill is on its way */
    uint64_t stamp;
    int fills;                   /* MSHR entries in use */
    int n_send;                  /* fills not yet accepted by the memory port */
    uint32_t send_way[64];       /* their line slots */
    uint8_t send_slot[64];       /* the warps that missed */
    int last;                    /* warp slot fetched last (round robin) */
    uint64_t want[SM_MASK_WORDS];  /* per slot bit: may want a fetch (a superset,
                                    * checked when visited; fetch.c) */
    uint64_t hits, misses;
} sim_icache;

typedef struct sim_block {
    int live;
    long id;
    int n_warps, arrived, exited, done;
    int threads, warps, regs, shmem;
    uint8_t slot[SM_MAX_BLOCK_WARPS];
} sim_block;

/* ---- warp schedulers ---- */

/* Loose round-robin (LRR) and greedy-then-oldest (GTO), as GPGPU-Sim's
 * -gpgpu_scheduler lrr|gto. A scheduler only orders its warps; whether a
 * warp can issue is the SM's question: can_issue(ctx, slot) returns 1 and
 * the scheduler issues that warp (it may change that warp's retry cycle, never
 * another's). The pick loops are inline so that the SM's issue stage gets
 * them with its can_issue inlined. */
typedef int (*sim_can_issue_fn)(void *ctx, int slot);

typedef struct sim_sched {
    /* what every visit reads, on the first cache line (the arrays that
     * follow made a scheduler's scalars and bit sets three lines apart) */
    int n;                       /* warps assigned (slots, oldest first) */
    int words;                   /* words of the bit sets in use: the SM's warp slots / 64 */
    int last;                    /* slot issued last, -1 none */
    int rr;                      /* LRR: position after the last issue */
    /* two-level schedulers (sched_two_level.h): the active set and the
     * pending warps, oldest first; max_active 0: one level (LRR, GTO) */
    int max_active, n_active, n_pend;
    uint64_t own[SM_MASK_WORDS]; /* per slot bit: assigned to this scheduler */
    uint64_t part[SM_MASK_WORDS];   /* per slot bit: slot % n_sched is this scheduler
                                     * (fixed at init; a slot's only scheduler) */
    uint64_t act[SM_MASK_WORDS]; /* per slot bit: in the active set */
    uint8_t slot[SM_MAX_WARPS];
    uint8_t pos[SM_MAX_WARPS];   /* per slot of this scheduler: its index in slot[] */
    uint8_t pend[SM_MAX_WARPS];
} sim_sched;

void sim_sched_add(sim_sched *s, int slot);     /* appends: the youngest */
void sim_sched_remove(sim_sched *s, int slot);

/* Is warp `slot` due at t: its retry cycle has come, or it is parked on the LDST
 * queue (a bit of `ldst`, NULL while the queue is busy) and the queue is
 * empty? */
static inline int sim_sched_due(const uint64_t *retry, const uint64_t *ldst, int slot, uint64_t t)
{
    return retry[slot] <= t || (ldst && (ldst[slot >> 6] >> (slot & 63) & 1));
}

/* The list positions of the scheduler's due warps (sim_sched_due) other
 * than `skip`, as a bit set: only warps with a retry cycle (bits of
 * `finite`) or parked on an empty LDST queue (bits of `ldst`) can be due,
 * so the picks visit those instead of walking the whole list. */
static inline __attribute__((always_inline)) void
sim_sched_due_positions(const sim_sched *s, const uint64_t *retry, const uint64_t *finite,
                        const uint64_t *ldst, uint64_t t, int skip, uint64_t *due)
{
    /* a slot's list position may lie in another word; every word of the
     * caller's array, a constant size, is two stores (the words in use, a
     * variable count, compiled to a call of memset each visit) */
    for (int wi = 0; wi < SM_MASK_WORDS; wi++)
        due[wi] = 0;
    for (int wi = 0; wi < s->words; wi++) {
        uint64_t parked = ldst ? ldst[wi] & s->own[wi] : 0;
        for (uint64_t b = finite[wi] & s->own[wi] & ~parked; b; b &= b - 1) {
            int slot = wi * 64 + __builtin_ctzll(b);
            if (slot != skip && retry[slot] <= t)
                due[s->pos[slot] >> 6] |= 1ull << (s->pos[slot] & 63);
        }
        for (uint64_t b = parked; b; b &= b - 1) {
            int slot = wi * 64 + __builtin_ctzll(b);
            if (slot != skip)
                due[s->pos[slot] >> 6] |= 1ull << (s->pos[slot] & 63);
        }
    }
}

/* Asks the warps at the positions in due[] from position `from` up, in
 * order; the position of the first that issues, or -1. */
static inline __attribute__((always_inline)) int
sim_sched_ask_from(const sim_sched *s, const uint64_t *due, int from, sim_can_issue_fn can_issue,
                   void *ctx)
{
    for (int wi = from >> 6; wi < s->words; wi++) {
        uint64_t b = due[wi];
        if (wi == from >> 6)
            b &= ~0ull << (from & 63);
        for (; b; b &= b - 1) {
            int pos = wi * 64 + __builtin_ctzll(b);
            if (can_issue(ctx, s->slot[pos]))
                return pos;
        }
    }
    return -1;
}

/* LRR: start after the warp that issued last, in slot-list order (wrapping
 * round), asking only the due warps; the slot issued or -1. */
static inline __attribute__((always_inline)) int
sim_sched_pick_lrr(sim_sched *s, const uint64_t *retry, const uint64_t *finite,
                   const uint64_t *ldst, uint64_t t, sim_can_issue_fn can_issue, void *ctx)
{
    uint64_t due[SM_MASK_WORDS];
    sim_sched_due_positions(s, retry, finite, ldst, t, -1, due);
    int pos = sim_sched_ask_from(s, due, s->rr, can_issue, ctx);
    if (pos < 0 && s->rr > 0) {   /* then the positions before rr */
        uint64_t before[SM_MASK_WORDS];
        for (int wi = 0; wi < s->words; wi++) {
            int lo = wi * 64, n = s->rr - lo;
            before[wi] = n <= 0 ? 0 : n >= 64 ? due[wi] : due[wi] & ((1ull << n) - 1);
        }
        pos = sim_sched_ask_from(s, before, 0, can_issue, ctx);
    }
    if (pos < 0)
        return -1;
    s->rr = (pos + 1) % s->n;
    s->last = s->slot[pos];
    return s->last;
}

/* GTO: the warp that issued last while it can; then the oldest (the list is
 * kept in dispatch order): the same warps asked in the same order as a walk
 * of the list would. */
static inline __attribute__((always_inline)) int
sim_sched_pick_gto(sim_sched *s, const uint64_t *retry, const uint64_t *finite,
                   const uint64_t *ldst, uint64_t t, sim_can_issue_fn can_issue, void *ctx)
{
    int last = s->last;
    if (last >= 0 && sim_sched_due(retry, ldst, last, t) && can_issue(ctx, last))
        return last;
    uint64_t due[SM_MASK_WORDS];
    sim_sched_due_positions(s, retry, finite, ldst, t, last, due);
    int pos = sim_sched_ask_from(s, due, 0, can_issue, ctx);
    if (pos < 0)
        return -1;
    s->last = s->slot[pos];
    return s->last;
}

/* ---- TB dispatch policies ---- */

struct sim_sm;

/* What a policy may look at when a launch starts. */
typedef struct sim_dispatch_ctx {
    const sim_kernel *k;
    const sim_core_config *cfg;
    const struct sim_sm *sms;    /* n_sm of them (their resident blocks) */
    int n_sm;
    int per_sm;                  /* blocks of k resident per SM at most (occupancy) */
} sim_dispatch_ctx;

typedef struct sim_dispatch_ops {
    const char *name;
    trapeze_status (*create)(const sim_dispatch_ctx *c, void **self, trapeze_error *err);
    void (*destroy)(void *self);
    /* The SM to consider first in this cycle's dispatch pass. */
    int (*first_sm)(void *self);
    /* The block (linear id) to place on `sm` now, or -1 for none. Called
     * only when one more block fits on sm; room: how many fit (>= 1). */
    long (*next_block)(void *self, int sm, int room);
    void (*placed)(void *self, int sm, long block);
    /* Blocks moved by task stealing so far; NULL: the policy never steals. */
    uint64_t (*stolen)(const void *self);
    /* The blocks it will place in all; NULL: every block of the kernel. */
    long (*blocks)(const void *self);
    /* Never places blocks [from, to): when its next block reaches `from`
     * it goes on at `to` (from below the next block counts from there).
     * Returns the blocks dropped, or -1 while another range is pending.
     * NULL: the policy cannot skip (only round-robin knows an order). */
    long (*skip)(void *self, long from, long to);
} sim_dispatch_ops;

/* The policy of a kind (never NULL for a kind below SIM_TB_COUNT). */
const sim_dispatch_ops *sim_dispatch_policy(sim_tb_dispatch kind);
extern const sim_dispatch_ops sim_dispatch_round_robin, sim_dispatch_bcs, sim_dispatch_chen,
    sim_dispatch_groups;

/* ---- the SM ---- */

typedef struct sim_sm {
    /* first, on the struct's first lines: what the top level reads of
     * every SM each visited cycle (next, blocks_finished, progress) and what
     * the SM's cycle reads first (the accounting, the LDST queue's head, the
     * schedulers' bounds); they lay on six lines spread over the 20 KB
     * struct, each usually cold when a cycle comes back to the SM */
    uint64_t next;               /* earliest cycle the SM needs a visit */
    uint64_t progress;           /* last cycle a warp issued outside a spin loop (hang.c) */
    int blocks_finished;         /* set by the SM, read by the top level: blocks finished
                                  * since it last looked */
    int n_blocks;                /* resident */
    uint64_t last_eval;          /* last cycle accounted */
    uint64_t skipped_until;      /* a visit skipped after a wake_futile completion at c
                                  * (sm.c) would have counted the cycles before c + 2
                                  * active; 0: none this launch */
    uint64_t warp_next;          /* earliest retry cycle of any warp: no issue stage before it */
    int lq_head, lq_n, lq_size;  /* the LDST unit's queue */
    int lq_insts;                /* instructions with requests in lq */
    int lq_max;                  /* a memory instruction issues while lq_insts < this: 1,
                                  * or with the operand collector 1 + the OC_EX_MEM
                                  * width (those wait there while the unit drains) */
    int ldst_waiters;            /* bits set in wldst */
    uint64_t *lq_at;             /* first cycle the request may be offered */
    sim_mem_request *lq;         /* lq_size (a power of 2) entries */
    /* per scheduler: the sim_stall of its last evaluated cycle (here, not
     * in sim_sched, so that a scheduler with no warp due is not read) */
    uint8_t reason[16];
    /* per scheduler: no warp of it is retried before (a lower bound); read
     * by every issue stage before anything of the scheduler's own */
    uint64_t sched_next[16];
    int id;
    const sim_core_config *cfg;
    const sim_kernel *k;
    const sim_source_ops *src;
    void *src_self;
    sim_events *ev;
    sim_mem_port *mem;
    sim_warp *warps;             /* max_warps slots */
    uint8_t *wstate;             /* per slot: W_* */
    uint8_t *wwait;              /* per slot: sim_stall, why it last could not issue */
    uint64_t *wretry;             /* per slot: earliest cycle worth checking it again */
    uint8_t *wop;                /* per slot: sim_op of the fetched instruction */
    uint8_t *wwhy;               /* per slot: the stall reason it gives its scheduler */
    int words;                   /* words of the slot bit sets in use */
    int release_pending;         /* a block's last warp finished */
    /* the slot bit sets every visited cycle reads, on two lines of their
     * own: wfinite and wldst together, then each word's reasons side by
     * side (a scheduler's reason tests them all; as why[reason][word]
     * they lay on three lines) */
    _Alignas(64) uint64_t wfinite[SM_MASK_WORDS]; /* per slot bit: wretry is a cycle, not
                                                   * SIM_NEVER */
    uint64_t wldst[SM_MASK_WORDS];   /* per slot bit: parked until the LDST queue is empty
                                      * (due whenever it is: sim_sched_due) */
    uint64_t why[SM_MASK_WORDS][SIM_STALL_COUNT];   /* per word and reason: the slots giving
                                                     * it (why[slot >> 6][r]) */
    sim_block *blocks;           /* max_blocks slots */
    int used_threads, used_warps, used_regs, used_shmem;
    _Alignas(64) sim_sched sched[16];   /* each on its own lines (896 bytes: 14) */
    /* per pipeline kind (SIM_OC_*), per unit: next cycle it accepts; unit_n
     * units (the config's n_sp, n_sfu, n_bra, n_int, n_dp; 0: one unused) */
    uint64_t *unit_free[SIM_OC_KINDS];
    int unit_n[SIM_OC_KINDS];
    int oc_on;                   /* the operand collector is in use */
    int if_on;                   /* instruction fetch is modelled */
    sim_icache ic;
    sim_oc oc;
    /* LDST unit (its queue's position and counts: above) */
    uint8_t *lq_last;            /* the last request of its instruction */
    int *wq_head, *wq_n;         /* per-warp queues (-trapeze_ldst_sched other than fifo):
                                  * slot w's requests, oldest first, in the ring at
                                  * lq[w x ldst_depth ..] (lq_index); NULL with fifo */
    int wq_next;                 /* the slot the next probe group starts from */
    uint64_t ldst_free;          /* shared-memory passes keep it until then */
    unsigned reasons_stale;      /* per scheduler bit: its reason needs re-evaluating */
    uint64_t age_counter;
    uint64_t kernel_start;
    sim_sm_stats st;
    struct sim_dws *dws;         /* Dynamic Warp Subdivision's table (dws.c); NULL: off */
    struct sim_rsimd *rsimd;     /* Robust SIMD's width, depth and intervals (rsimd.c); NULL: off */
} sim_sm;

trapeze_status sim_sm_init(sim_sm *sm, int id, const sim_core_config *cfg, sim_events *ev,
                           sim_mem_port *mem, trapeze_error *err);

/* The LDST queue's entry i (0: the oldest) of warp slot's requests: with
 * fifo one ring for all warps (slot unused), else the slot's own ring. */
static inline int sim_lq_index(const sim_sm *sm, int slot, int i)
{
    if (!sm->wq_n)
        return (sm->lq_head + i) & (sm->lq_size - 1);
    int d = sm->cfg->ldst_depth;
    return slot * d + (sm->wq_head[slot] + i) % d;
}
/* Requests of warp slot queued (fifo: of every warp). */
static inline int sim_lq_count(const sim_sm *sm, int slot)
{
    return sm->wq_n ? sm->wq_n[slot] : sm->lq_n;
}
/* Per-warp queues (ldst_sched.c): one cycle of the probe units, at most
 * one request accepted. */
void sim_ldst_sched_step(sim_sm *sm, uint64_t t);
void sim_sm_free(sim_sm *sm);
void sim_sm_begin_kernel(sim_sm *sm, const sim_kernel *k, uint64_t cycle);
int sim_sm_fits(const sim_sm *sm, const sim_kernel *k);
/* Allocates the SM's warp slots if it has none yet (they wait for its first
 * block, so memory follows the SMs in use, not the SM count). Call before
 * sim_sm_place_block. */
trapeze_status sim_sm_take_slots(sim_sm *sm, trapeze_error *err);
void sim_sm_place_block(sim_sm *sm, long block, uint64_t cycle);
void sim_sm_complete(sim_sm *sm, const sim_mem_request *done, uint64_t cycle);
void sim_sm_cycle(sim_sm *sm, uint64_t cycle);
/* Accounts the stall reasons up to (excluding) `end`. */
void sim_sm_finish_kernel(sim_sm *sm, uint64_t end);

/* Warp w's next dynamic instruction from its source into *out (an EXIT of
 * every live lane when the stream ends). */
void sim_sm_next_inst(sim_sm *sm, sim_warp *w, sim_warp_inst *out);
/* w->inst was (re)written: the fields the issue check derives from it. */
void sim_sm_inst_loaded(sim_sm *sm, sim_warp *w);

/* ---- instruction fetch (fetch.c) ---- */

trapeze_status sim_fetch_init(sim_sm *sm, trapeze_error *err);
void sim_fetch_free(sim_sm *sm);
void sim_fetch_begin_kernel(sim_sm *sm);
/* The fetch stage of cycle t (after issue); returns 1 when a warp still
 * waits for a fetch slot or a fill request for the memory port (the SM needs
 * cycle t+1). */
int sim_fetch_cycle(sim_sm *sm, uint64_t t);
/* Warp `slot` may want a fetch (its ibuffer emptied, it was placed). */
static inline void sim_fetch_want(sim_sm *sm, int slot)
{
    sm->ic.want[slot >> 6] |= 1ull << (slot & 63);
}
/* An I-cache fill requested by warp `slot` for line slot `way` arrived at t. */
void sim_fetch_fill(sim_sm *sm, int slot, uint32_t way, uint64_t t);

/* Chen's access range of warp w starting at `start` (sched_range.c). */
void sim_sched_warp_range(const sim_kernel *k, const sim_warp_cursor *start, sim_warp *w);

/* ---- the hang guard (hang.c) ---- */

/* An error when k's global barrier waits for more blocks than its grid has
 * or than can be resident at once (per_sm blocks per SM, limited by `limit`). */
trapeze_status sim_hang_check_barrier(const sim_core_config *c, const sim_kernel *k, int per_sm,
                                      const char *limit, trapeze_error *err);
/* The error for a launch without progress for c->hang_cycles: what its
 * resident warps wait on (spinning, and on which word; barrier; fence;
 * memory) and how many blocks are done. */
trapeze_status sim_hang_report(const sim_sm *sms, int n_sm, const sim_mem_port *mem,
                               const sim_kernel *k, uint64_t cycle, uint64_t blocks_done,
                               trapeze_error *err);

#endif
