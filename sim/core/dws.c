/*
 * dws.c - Dynamic Warp Subdivision: the SM's warp-split table (dws.h says
 * what a split is and how splits re-converge). Owns the splits, their ring
 * of fetched instructions and the per-lane arrival of loaded data; never
 * changes a warp's scheduling state (sm.c does, around these calls).
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/error.h"
#include "sim/core/dws.h"
#include "sim/mem/popcount.h"

#define ALL_LANES 0xffffffffu

trapeze_status sim_dws_init(sim_sm *sm, trapeze_error *err)
{
    const sim_dws_config *c = &sm->cfg->dws;
    const sim_rsimd_config *rs = &sm->cfg->rsimd;
    if (!c->on && !rs->on)
        return TRAPEZE_OK;
    sim_dws *d = calloc(1, sizeof *d);
    int n = sm->cfg->max_warps;
    if (d) {
        d->cfg = c;
        /* Robust SIMD may slice every warp: a group per warp slot */
        d->n_groups = rs->on && n > c->wst / 2 ? n : c->wst / 2;
        d->g = calloc((size_t)d->n_groups, sizeof *d->g);
        d->pend = calloc((size_t)n, sizeof *d->pend);
        d->hit = calloc((size_t)n, sizeof *d->hit);
        d->sent = calloc((size_t)n, sizeof *d->sent);
    }
    sm->dws = d;
    if (!d || !d->g || !d->pend || !d->hit || !d->sent) {
        sim_dws_free(sm);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for the warp-split "
                                                 "table of SM %d", sm->id);
    }
    sim_dws_reset(sm);
    return TRAPEZE_OK;
}

void sim_dws_free(sim_sm *sm)
{
    if (!sm->dws)
        return;
    free(sm->dws->g);
    free(sm->dws->pend);
    free(sm->dws->hit);
    free(sm->dws->sent);
    free(sm->dws);
    sm->dws = NULL;
}

void sim_dws_reset(sim_sm *sm)
{
    sim_dws *d = sm->dws;
    if (!d)
        return;
    for (int i = 0; i < d->n_groups; i++)
        d->g[i].slot = -1;
    memset(d->grp, -1, sizeof d->grp);
    memset(d->pend, 0, (size_t)sm->cfg->max_warps * sizeof *d->pend);
    memset(d->hit, 0, (size_t)sm->cfg->max_warps * sizeof *d->hit);
    memset(d->sent, 0, (size_t)sm->cfg->max_warps * sizeof *d->sent);
    d->used = 0;
    d->live = 0;
    d->revive_next = 0;
    d->split_on = sm->cfg->dws.on && !sm->cfg->rsimd.dws;
    d->slice_w = sm->cfg->rsimd.on ? sm->cfg->rsimd.width : 32;
}

/* ---- lanes of loaded data ---- */

/* Does request r carry lane address a's first byte? */
static int carries(const sim_mem_request *r, uint64_t a)
{
    if (r->op == SIM_MEM_ATOMIC)   /* its segment's words (sim_coalesce_atomic) */
        return (a & ~(uint64_t)(SIM_SECTOR_BYTES - 1)) ==
                   (r->addr & ~(uint64_t)(SIM_SECTOR_BYTES - 1)) &&
               (r->words >> ((a % SIM_SECTOR_BYTES) / 4) & 1);
    uint64_t line = a / SIM_LINE_BYTES * SIM_LINE_BYTES;
    return line == r->addr / SIM_LINE_BYTES * SIM_LINE_BYTES &&
           (r->sector_mask >> ((a % SIM_LINE_BYTES) / SIM_SECTOR_BYTES) & 1);
}

void sim_dws_tag_requests(sim_sm *sm, int slot, const sim_warp_inst *in, int before)
{
    uint32_t left = in->active;
    int last = -1;
    for (int q = before; q < sim_lq_count(sm, slot); q++) {
        sim_mem_request *r = &sm->lq[sim_lq_index(sm, slot, q)];
        uint32_t lanes = 0, words = 0;
        for (uint32_t b = left; b; b &= b - 1) {
            int l = __builtin_ctz(b);
            if (!carries(r, in->addr[l]))
                continue;
            if (r->op == SIM_MEM_ATOMIC) {   /* one lane per word: repeats go in other requests */
                uint32_t word = 1u << ((in->addr[l] % SIM_SECTOR_BYTES) / 4);
                if (words & word)
                    continue;
                words |= word;
            }
            lanes |= 1u << l;
        }
        left &= ~lanes;
        r->tag = (r->tag & 0xffffffffull) | (uint64_t)lanes << 32;
        last = q;
    }
    if (last >= 0 && left) {   /* never expected: no lane may stay due for ever */
        sim_mem_request *r = &sm->lq[sim_lq_index(sm, slot, last)];
        r->tag |= (uint64_t)left << 32;
    }
    if (in->dst != SIM_NO_REG && last >= 0) {
        sm->dws->pend[slot][in->dst] |= in->active;
        sm->dws->hit[slot][in->dst] &= ~in->active;
    }
}

int sim_dws_accepted(sim_sm *sm, const sim_mem_request *r, uint64_t t)
{
    int slot = (int)(r->tag & 0xff), kind = (int)(r->tag >> 8 & 0xff);
    int reg = (int)(r->tag >> 16 & 0xff);
    if (kind == 1 /* store */ || kind == 3 /* I-fetch */ || reg == SIM_NO_REG)
        return -1;
    sm->dws->sent[slot][reg] = t;
    return slot;
}

void sim_dws_arrived(sim_sm *sm, int slot, int reg, const sim_mem_request *done, uint64_t t)
{
    uint32_t lanes = (uint32_t)(done->tag >> 32);
    sm->dws->pend[slot][reg] &= ~lanes;
    if (t - done->issue_cycle <= (uint64_t)sm->cfg->dws.hit_cycles)
        sm->dws->hit[slot][reg] |= lanes;
}

/* The lanes of the split the warp holds (every lane when not split). */
static uint32_t held_lanes(const sim_sm *sm, int slot)
{
    const sim_dws_group *g = sim_dws_group_of(sm, slot);
    return g ? g->s[g->loaded].lanes : ALL_LANES;
}

int sim_dws_reg_waits(const sim_sm *sm, int slot, int r)
{
    /* a whole warp waits on the request count, as without subdivision; a
     * split on its active lanes (the held inst's mask is already its own) */
    return !sim_dws_group_of(sm, slot) || (sm->dws->pend[slot][r] & sm->warps[slot].inst.active);
}

/* Lanes of `lanes` active in `in` whose data for one of its registers is
 * due at t; *split (when not NULL): for some register, some of those lanes
 * hit (their data came within the hit window) while others are still due
 * past it, i.e. missed: a memory divergence, not lanes of misses that
 * merely arrive in turn. */
static uint32_t due_lanes(const sim_sm *sm, int slot, const sim_warp_inst *in, uint32_t lanes,
                          uint64_t t, int *split, uint64_t *later)
{
    int regs[4] = {in->src[0], in->src[1], in->src[2], in->dst};
    uint32_t due = 0;
    int div = 0;
    lanes &= in->active;   /* an instruction waits only for its active lanes' data */
    for (int i = 0; i < 4; i++)
        if (regs[i] != SIM_NO_REG) {
            int r = regs[i];
            uint32_t pend = sm->dws->pend[slot][r] & lanes;
            uint64_t known = sm->dws->sent[slot][r] + (uint64_t)sm->cfg->dws.hit_cycles + 1;
            due |= pend;
            if (!pend || !(lanes & ~pend & sm->dws->hit[slot][r]))
                continue;
            if (t >= known)
                div = 1;
            else if (later && known < *later)
                *later = known;   /* the misses are known then */
        }
    if (split)
        *split = div;
    return due;
}

/* Instructions that run on the whole warp: every split waits there. */
static int joins(const sim_warp_inst *in)
{
    return in->op == SIM_OP_BAR || in->op == SIM_OP_FENCE || in->op == SIM_OP_EXIT ||
           in->op == SIM_OP_ATOMIC || (in->flags & (SIM_INST_VOLATILE | SIM_INST_SPIN));
}

int sim_dws_mem_divergent(const sim_sm *sm, int slot, uint64_t t, uint32_t *ready,
                          uint64_t *later)
{
    const sim_warp_inst *in = &sm->warps[slot].inst;
    if (joins(in))
        return 0;
    uint32_t lanes = held_lanes(sm, slot);
    int div;
    uint32_t due = due_lanes(sm, slot, in, lanes, t, &div, later);
    *ready = lanes & ~due;   /* their data is in (and the lanes the instruction does not run) */
    return div && (*ready & in->active);
}

/* ---- the table ---- */

static sim_dws_group *new_group(sim_sm *sm, int slot)
{
    sim_dws *d = sm->dws;
    if (d->used + 2 > d->cfg->wst)
        return NULL;
    for (int i = 0; i < d->n_groups; i++)
        if (d->g[i].slot < 0) {
            sim_dws_group *g = &d->g[i];
            g->slot = slot;
            g->n = 1;
            g->loaded = 0;
            g->base = 0;
            g->nseq = 1;
            g->ring[0] = sm->warps[slot].inst;
            g->sliced = 0;
            g->s[0] = (sim_dws_split){ALL_LANES, 0, 0, 0, 0, 0};
            d->grp[slot] = (int16_t)i;
            d->used++;
            d->live++;
            return g;
        }
    return NULL;
}

static void count_used(sim_sm *sm)
{
    if ((uint64_t)sm->dws->used > sm->st.dws_wst_peak)
        sm->st.dws_wst_peak = (uint64_t)sm->dws->used;
}

/* Split i of g (which holds an entry) keeps `keep`, a new split the rest;
 * sibs: the branch paths' lanes each waits for (0: a memory split). */
static void divide(sim_sm *sm, sim_dws_group *g, int i, uint32_t keep, uint32_t sib_keep,
                   uint32_t sib_rest, int mem)
{
    sim_dws_split *s = &g->s[i], *t = &g->s[g->n++];
    *t = *s;
    t->lanes = s->lanes & ~keep;
    s->lanes &= keep;
    s->sib = sib_keep;
    t->sib = sib_rest;
    s->mem = t->mem = (uint8_t)(mem || s->mem);
    s->wait = t->wait = 0;
    sm->dws->used++;
    count_used(sm);
}

/* Room for one more split of slot's warp (a group made if it has none):
 * a free table entry (two for a warp not split yet) and a free scheduler
 * entry (the scheduler has twice the warp slots: resident warps plus the
 * splits beyond each warp's first). */
static sim_dws_group *room(sim_sm *sm, int slot)
{
    sim_dws *d = sm->dws;
    if (sm->used_warps + (d->used - d->live) + 1 > 2 * sm->cfg->max_warps)
        return NULL;
    sim_dws_group *g = sim_dws_group_of(sm, slot);
    if (!g)
        return new_group(sm, slot);
    if (g->sliced)
        return NULL;   /* a warp still in slices from before a RobustDWS trial */
    return g->n < SIM_DWS_MAX_SPLITS && d->used < d->cfg->wst ? g : NULL;
}

static const sim_warp_inst *entry(const sim_dws_group *g, uint32_t seq)
{
    return &g->ring[seq % SIM_DWS_RING];
}

static void load(sim_sm *sm, sim_dws_group *g, int i)
{
    sim_warp *w = &sm->warps[g->slot];
    w->inst = *entry(g, g->s[i].seq);
    w->inst.active &= g->s[i].lanes;
    g->loaded = i;
    sim_sm_inst_loaded(sm, w);
}

int sim_dws_split_mem(sim_sm *sm, int slot, uint32_t ready)
{
    sim_dws_group *g = room(sm, slot);
    if (!g)
        return 0;
    int i = g->loaded;
    divide(sm, g, i, ready, 0, 0, 1);
    sm->st.dws_mem_splits++;
    load(sm, g, i);
    return 1;
}

int sim_dws_load_nth(sim_sm *sm, int slot, int k)
{
    sim_dws_group *g = sim_dws_group_of(sm, slot);
    if (!g || k >= g->n)
        return 0;
    int i = (g->loaded + k) % g->n;
    if (g->s[i].wait || g->s[i].off)
        return -1;
    load(sm, g, i);
    return 1;
}

/* Is split s at entry e held there by one behind it? */
static int held_back(const sim_sm *sm, const sim_dws_group *g, const sim_dws_split *s,
                     const sim_warp_inst *e)
{
    int limited = s->mem && sm->dws->cfg->reconv == SIM_DWS_LIMITED && e->op == SIM_OP_BRANCH;
    uint32_t other = e->active & s->sib;   /* the other path's lanes run this entry too */
    for (int j = 0; j < g->n; j++) {
        const sim_dws_split *b = &g->s[j];
        if (b != s && b->seq < s->seq && (limited || (b->lanes & other)))
            return 1;
    }
    return 0;
}

/* Moves split i over the entries none of its lanes run, fetching as it
 * goes; sets whether it waits for another split. */
static void advance(sim_sm *sm, sim_dws_group *g, int i)
{
    sim_dws_split *s = &g->s[i];
    sim_warp *w = &sm->warps[g->slot];
    for (;;) {
        if (s->seq == g->nseq) {
            if (g->nseq - g->base >= SIM_DWS_RING) {   /* run ahead as far as it may */
                s->wait = 1;
                return;
            }
            sim_sm_next_inst(sm, w, &g->ring[g->nseq % SIM_DWS_RING]);
            g->nseq++;
        }
        const sim_warp_inst *e = entry(g, s->seq);
        if (joins(e)) {
            int all = 1;
            for (int j = 0; j < g->n; j++)
                all &= g->s[j].seq == s->seq;
            s->wait = !all;
            return;
        }
        if (!(e->active & s->lanes)) {
            s->seq++;
            continue;
        }
        s->wait = (uint8_t)held_back(sm, g, s, e);
        return;
    }
}

/* Is split s waiting on its lanes' loaded data at its entry? */
static int blocked(const sim_sm *sm, const sim_dws_group *g, const sim_dws_split *s)
{
    return due_lanes(sm, g->slot, entry(g, s->seq), s->lanes, 0, NULL, NULL) != 0;
}

/* Merges split j into split i (same entry). */
static void merge(sim_sm *sm, sim_dws_group *g, int i, int j)
{
    sim_dws_split *a = &g->s[i], *b = &g->s[j];
    a->lanes |= b->lanes;
    a->sib = (a->sib | b->sib) & ~a->lanes;
    a->mem = (uint8_t)(a->mem | b->mem);
    if (g->loaded == j)
        g->loaded = i;
    *b = g->s[--g->n];   /* the last split moves into j's place */
    if (g->loaded == g->n)
        g->loaded = j;
    if (g->sliced)
        return;   /* slices re-formed at a join: no table entry, no DWS merge */
    sm->dws->used--;
    sm->st.dws_merges++;
}

/* One merge of two splits at the same entry, both ready (or both at an
 * entry the whole warp runs); 1 when one happened. */
static int merge_one(sim_sm *sm, sim_dws_group *g)
{
    for (int i = 0; i < g->n; i++)
        for (int j = i + 1; j < g->n; j++) {
            if (g->s[i].seq != g->s[j].seq || g->s[i].seq == g->nseq)
                continue;   /* (at nseq: both wait for room in the ring) */
            if (joins(entry(g, g->s[i].seq)) ||
                (!g->sliced && !blocked(sm, g, &g->s[i]) && !blocked(sm, g, &g->s[j]))) {
                merge(sm, g, i, j);
                return 1;
            }
        }
    return 0;
}

/* The warp's last split: it runs as a whole warp again, from its entry. */
static void dissolve(sim_sm *sm, sim_dws_group *g)
{
    sim_warp *w = &sm->warps[g->slot];
    TRAPEZE_ASSERT(g->n == 1 && g->s[0].lanes == ALL_LANES && g->s[0].seq + 1 == g->nseq);
    w->inst = *entry(g, g->s[0].seq);
    sim_sm_inst_loaded(sm, w);
    sm->dws->grp[g->slot] = -1;
    if (!g->sliced) {
        sm->dws->used--;
        sm->dws->live--;
    }
    g->slot = -1;
}

/* Every split moved on and every possible merge made; the ring's base
 * follows the last split. Returns g, or NULL when the warp is whole again. */
static void follow_base(sim_dws_group *g)
{
    uint32_t base = g->nseq;
    for (int i = 0; i < g->n; i++)
        base = g->s[i].seq < base ? g->s[i].seq : base;
    g->base = base;
}

static sim_dws_group *settle(sim_sm *sm, sim_dws_group *g)
{
    do {
        for (int i = 0; i < g->n; i++) {
            follow_base(g);
            advance(sm, g, i);
        }
    } while (merge_one(sm, g));
    if (g->n == 1) {
        dissolve(sm, g);
        return NULL;
    }
    follow_base(g);
    return g;
}

/* Is the program branch at pc one to split at: an IF whose post-dominator
 * (its ENDIF) is followed by a block of at most post_block instructions?
 * A trace has no static program: every divergent branch is. */
static int selected(const sim_sm *sm, uint32_t pc)
{
    const sim_kernel *k = sm->k;
    if (k->source)
        return 1;
    int i = (int)(pc / 16);
    if (i < 0 || i >= k->n_code || k->code[i].op != SIM_OP_IF)
        return 0;
    int end = k->code[i].match;
    if (k->code[end].op == SIM_OP_ELSE)
        end = k->code[end].match;
    int n = 0;
    for (int p = end + 1; p < k->n_code; p++) {
        int op = k->code[p].op;
        if (op == SIM_OP_IF || op == SIM_OP_ELSE || op == SIM_OP_ENDIF || op == SIM_OP_LOOP ||
            op == SIM_OP_ENDLOOP || op == SIM_OP_BAR || op == SIM_OP_EXIT)
            break;
        n++;
    }
    return n <= sm->dws->cfg->post_block;
}

/* After a branch with lanes `taken_from` active, the next entry runs only
 * `next` of them: split the path that runs (next) from the rest. */
static void branch_split(sim_sm *sm, int slot, uint32_t from, uint32_t next)
{
    sim_dws_group *g = room(sm, slot);
    if (!g)
        return;
    int i = g->loaded;
    uint32_t keep = next & g->s[i].lanes;
    divide(sm, g, i, keep, from & ~next, keep, 0);
    sm->st.dws_branch_splits++;
}

/* Loads the first split from the one loaded that may issue (not waiting
 * for another, not suspended), else the loaded one. */
static void load_first(sim_sm *sm, sim_dws_group *g)
{
    int i = g->loaded;
    for (int k = 0; k < g->n && (g->s[i].wait || g->s[i].off); k++)
        i = (g->loaded + k) % g->n;
    load(sm, g, i);
}

static int diverges(uint32_t from, uint32_t next)
{
    return next && next != from && !(next & ~from);
}

void sim_dws_next(sim_sm *sm, int slot, int op, uint32_t active, uint32_t pc)
{
    sim_warp *w = &sm->warps[slot];
    sim_dws_group *g = sim_dws_group_of(sm, slot);
    int branch = op == SIM_OP_BRANCH && sm->dws->cfg->branch && sm->dws->split_on;
    if (!g) {
        sim_sm_next_inst(sm, w, &w->inst);
        sim_sm_inst_loaded(sm, w);
        if (sm->dws->slice_w < SIM_WARP_LANES) {   /* slices again after a join */
            sim_dws_slice(sm, slot, sm->dws->slice_w);
            return;
        }
        if (!branch || !diverges(active, w->inst.active) || !selected(sm, pc))
            return;
        branch_split(sm, slot, active, w->inst.active);
        g = sim_dws_group_of(sm, slot);
    } else {
        sim_dws_split *s = &g->s[g->loaded];
        s->seq++;
        if (s->seq == g->nseq && g->nseq - g->base < SIM_DWS_RING) {
            sim_sm_next_inst(sm, w, &g->ring[g->nseq % SIM_DWS_RING]);
            g->nseq++;
        }
        if (branch && s->seq < g->nseq &&
            diverges(active, entry(g, s->seq)->active & s->lanes) && selected(sm, pc))
            branch_split(sm, slot, active, entry(g, s->seq)->active & s->lanes);
    }
    if (!g || !(g = settle(sm, g)))
        return;
    load_first(sm, g);
}

void sim_dws_slice(sim_sm *sm, int slot, int width)
{
    sim_dws *d = sm->dws;
    int i = 0;
    while (d->g[i].slot >= 0)
        i++;   /* (a group per warp slot with Robust SIMD: one is free) */
    sim_dws_group *g = &d->g[i];
    g->slot = slot;
    g->sliced = 1;
    g->n = 0;
    g->loaded = 0;
    g->base = 0;
    g->nseq = 1;
    g->ring[0] = sm->warps[slot].inst;
    d->grp[slot] = (int16_t)i;
    uint32_t live = sm->warps[slot].live;
    for (int lo = 0; lo < SIM_WARP_LANES; lo += width) {
        int hi = lo + width < SIM_WARP_LANES ? lo + width : SIM_WARP_LANES;
        uint32_t lanes = (hi - lo == 32 ? ALL_LANES : ((1u << (hi - lo)) - 1) << lo);
        if (g->n && !(lanes & live))
            g->s[g->n - 1].lanes |= lanes;   /* no thread there: no slice of its own */
        else
            g->s[g->n++] = (sim_dws_split){lanes, 0, 0, 0, 0, 0};
    }
    if (!(g = settle(sm, g)))
        return;   /* one slice: the warp runs whole */
    load_first(sm, g);
}

void sim_dws_release(sim_sm *sm, int slot)
{
    sim_dws_group *g = sim_dws_group_of(sm, slot);
    if (g) {
        if (!g->sliced) {
            sm->dws->used -= g->n;
            sm->dws->live--;
        }
        g->slot = -1;
        sm->dws->grp[slot] = -1;
    }
    memset(sm->dws->pend[slot], 0, sizeof sm->dws->pend[slot]);
    memset(sm->dws->hit[slot], 0, sizeof sm->dws->hit[slot]);
}

void sim_dws_check(const sim_sm *sm)
{
    const sim_dws *d = sm->dws;
    if (!d)
        return;
    int used = 0, extra = 0, live = 0;
    for (int i = 0; i < d->n_groups; i++) {
        const sim_dws_group *g = &d->g[i];
        if (g->slot < 0)
            continue;
        TRAPEZE_ASSERT(d->grp[g->slot] == i && g->n >= 2 && g->n <= SIM_DWS_MAX_SPLITS);
        TRAPEZE_ASSERT(g->nseq - g->base <= SIM_DWS_RING);
        uint32_t all = 0;
        for (int j = 0; j < g->n; j++) {
            TRAPEZE_ASSERT(!(all & g->s[j].lanes) && g->s[j].lanes);
            TRAPEZE_ASSERT(g->s[j].seq >= g->base && g->s[j].seq <= g->nseq);
            all |= g->s[j].lanes;
        }
        TRAPEZE_ASSERT(all == ALL_LANES);
        if (g->sliced)
            continue;   /* slices hold no warp-split table entry */
        used += g->n;
        extra += g->n - 1;
        live++;
    }
    TRAPEZE_ASSERT(used == d->used && live == d->live && used <= d->cfg->wst);
    TRAPEZE_ASSERT(sm->used_warps + extra <= 2 * sm->cfg->max_warps);
}
