/*
 * opndcoll.c - the operand collector between an SM's issue stage and its
 * functional units, as GPGPU-Sim 4's opndcoll_rfu_t models it, with
 * register-bank conflicts and the V100 sub-core partition. Owns the
 * booking of ID_OC slots, collector units, bank read/write slots, dispatch
 * units and OC_EX slots; it does not issue, execute or touch memory.
 *
 * GPGPU-Sim's facts (shader.cc) this follows. A cycle runs writeback,
 * execute, read_operands (the collector's step, -gpgpu_reg_file_port_
 * throughput times), issue. A step: (1) each dispatch unit moves one ready
 * collector unit (all operands read, an OC_EX slot free) to OC_EX and frees
 * it; (2) each register bank grants the read at the head of its FIFO
 * queue, unless a writeback took the bank this step (writes first); (3)
 * each in port moves an instruction from its ID_OC register into a free
 * collector unit of its sets and queues its reads (one per distinct source
 * register; bank = (reg + warp id) mod banks, or, with sub-cores, within
 * the issuing scheduler's banks/n_sched). A unit takes an OC_EX
 * instruction in execute(), before read_operands; the result reaches EX_WB
 * latency + 1 cycles after, and writeback (the next cycle) releases the
 * scoreboard and writes the bank.
 *
 * So with one step a cycle and no conflict, an instruction issued at t is
 * in a collector unit at t+1, read at t+2, dispatched at t+3, taken by its
 * unit at e = t+4, and its dependents issue at e + latency + 2; with two
 * steps (V100) it is read in t+1's second step and taken at t+3.
 *
 * How: instructions are booked in issue order at issue time, each resource
 * as "free from step s" (the queues are FIFO, so the first free slot after
 * the previous booking is GPGPU-Sim's). Simplifications: a write booked
 * after a read was granted the same step does not displace it; writes are
 * remembered SIM_OC_RING steps ahead; in ports serve one instruction a step.
 *
 * Invariants (checked in TRAPEZE_CHECKS builds): an instruction issued at t
 * is allocated at a step >= (t+1)*P, its reads after its allocation, its
 * dispatch after its reads, its unit after its dispatch.
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/core/opndcoll.h"
#include "sim/kernel.h"

/* The specialized collector's in ports, in create_exec_pipeline's order:
 * each serves one pipeline kind through its own set or the generic one. */
static const uint8_t port_kind[5] = {SIM_OC_SP, SIM_OC_DP, SIM_OC_SFU, SIM_OC_MEM, SIM_OC_INT};
static const uint8_t port_set[5] = {SIM_OC_SET_SP, SIM_OC_SET_DP, SIM_OC_SET_SFU,
                                    SIM_OC_SET_MEM, SIM_OC_SET_INT};

/* The next n steps of oc->steps from *at; an empty array still gets one
 * step of its own (the separate callocs before did: a kind without OC_EX
 * slots books its one, which sim_oc_reset does not clear). */
static uint32_t take_steps(uint32_t *at, int n)
{
    uint32_t first = *at;
    *at += n > 0 ? (uint32_t)n : 1;
    return first;
}

/* Lays out oc->steps (the in ports', the banks', then each set's units
 * and dispatch units, then each kind's ID_OC and OC_EX slots) and
 * allocates it, zeroed, on host line boundaries. */
static uint64_t *alloc_steps(sim_oc *oc)
{
    uint32_t n = 0;
    take_steps(&n, oc->n_ports);
    uint32_t banks = take_steps(&n, oc->nb);
    for (int s = 0; s < SIM_OC_SETS; s++) {
        oc->set[s].cu = take_steps(&n, oc->set[s].cu_n * oc->parts);
        oc->set[s].disp = take_steps(&n, oc->set[s].disp_n);
    }
    for (int k = 0; k < SIM_OC_KINDS; k++) {
        oc->kind[k].idoc = take_steps(&n, oc->kind[k].idoc_w * oc->parts);
        oc->kind[k].ocex = take_steps(&n, oc->kind[k].ocex_w * oc->parts);
    }
    size_t bytes = ((size_t)n * sizeof(uint64_t) + 63) / 64 * 64;
    uint64_t *steps = aligned_alloc(64, bytes);
    if (steps)
        memset(steps, 0, bytes);
    oc->bank_next = steps ? steps + banks : NULL;
    return steps;
}

static int serves(const sim_oc *oc, int p, int k, int s)
{
    return oc->port_kinds[p] >> k & 1 && oc->port_sets[p] >> s & 1 && oc->set[s].cu_n;
}

/* The (in port, set) pairs that serve each kind, in port order, into
 * oc->cand_all, one kind's after another's; 0 when out of memory. */
static int make_candidates(sim_oc *oc)
{
    size_t n = 0;
    for (int k = 0; k < SIM_OC_KINDS; k++)
        for (int p = 0; p < oc->n_ports; p++)
            for (int s = 0; s < SIM_OC_SETS; s++)
                n += (size_t)serves(oc, p, k, s);
    oc->cand_all = malloc(2 * n + 1);
    if (!oc->cand_all)
        return 0;
    uint8_t *cand = oc->cand_all;
    for (int k = 0; k < SIM_OC_KINDS; k++) {
        sim_oc_kind *kd = &oc->kind[k];
        kd->cand = cand;
        for (int p = 0; p < oc->n_ports; p++)
            for (int s = 0; s < SIM_OC_SETS; s++)
                if (serves(oc, p, k, s)) {
                    *cand++ = (uint8_t)p;
                    *cand++ = (uint8_t)s;
                    kd->cand_n++;
                    kd->cand_sets |= (uint8_t)(1u << s);
                }
    }
    return 1;
}

trapeze_status sim_oc_init(sim_oc *oc, const sim_core_config *cfg, trapeze_error *err)
{
    memset(oc, 0, sizeof *oc);
    const sim_oc_config *c = &cfg->oc;
    oc->c = c;
    if (!c->on)
        return TRAPEZE_OK;
    oc->P = c->port_throughput;
    oc->parts = c->sub_core ? cfg->n_sched : 1;
    oc->nb = cfg->reg_banks;
    oc->bps = oc->nb / oc->parts;
    oc->bank_wr = malloc((size_t)oc->nb * SIM_OC_RING * sizeof *oc->bank_wr);
    for (int s = 0; s < SIM_OC_SETS; s++) {
        int on = s == SIM_OC_SET_GEN || c->specialized;
        oc->set[s].cu_n = on ? c->units[s] / oc->parts : 0;
        oc->set[s].disp_n = on && c->units[s] ? c->out_ports[s] : 0;
    }
    for (int k = 0; k < SIM_OC_KINDS; k++) {
        oc->kind[k].idoc_w = c->idoc_w[k] / oc->parts;
        oc->kind[k].ocex_w = c->ocex_w[k] / oc->parts;
    }
    /* in ports, as create_exec_pipeline adds them */
    if (c->specialized)
        for (int j = 0; j < 5; j++)   /* the specialized units: generic only */
            for (int i = 0; i < c->in_ports[port_set[j]] && oc->n_ports < SIM_OC_MAX_PORTS;
                 i++) {
                oc->port_kinds[oc->n_ports] = (uint16_t)(1u << port_kind[j]);
                oc->port_sets[oc->n_ports++] =
                    (uint8_t)(1u << port_set[j] | 1u << SIM_OC_SET_GEN);
            }
    for (int i = 0; i < c->in_ports[SIM_OC_SET_GEN] && oc->n_ports < SIM_OC_MAX_PORTS; i++) {
        oc->port_kinds[oc->n_ports] = (uint16_t)((1u << SIM_OC_KINDS) - 1);
        oc->port_sets[oc->n_ports++] = 1u << SIM_OC_SET_GEN;
    }
    oc->steps = alloc_steps(oc);
    if (!oc->bank_wr || !oc->steps || !make_candidates(oc)) {
        sim_oc_free(oc);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory for the operand "
                                                 "collector");
    }
    sim_oc_reset(oc);
    return TRAPEZE_OK;
}

void sim_oc_free(sim_oc *oc)
{
    free(oc->steps);
    free(oc->bank_wr);
    free(oc->cand_all);
    const sim_oc_config *c = oc->c;
    memset(oc, 0, sizeof *oc);
    oc->c = c;
}

/* Everything free (a launch starts after every booking of the previous
 * one has passed: its results were all written). */
void sim_oc_reset(sim_oc *oc)
{
    if (!oc->c || !oc->c->on)
        return;
    for (size_t i = 0; i < (size_t)oc->nb * SIM_OC_RING; i++)
        oc->bank_wr[i] = UINT64_MAX;
    uint64_t *st = oc->steps;
    memset(st, 0, (size_t)oc->n_ports * sizeof *st);
    memset(oc->bank_next, 0, (size_t)oc->nb * sizeof *st);
    for (int s = 0; s < SIM_OC_SETS; s++) {
        memset(st + oc->set[s].cu, 0, (size_t)(oc->set[s].cu_n * oc->parts) * sizeof *st);
        memset(st + oc->set[s].disp, 0, (size_t)oc->set[s].disp_n * sizeof *st);
    }
    for (int k = 0; k < SIM_OC_KINDS; k++) {
        memset(st + oc->kind[k].idoc, 0, (size_t)(oc->kind[k].idoc_w * oc->parts) * sizeof *st);
        memset(st + oc->kind[k].ocex, 0, (size_t)(oc->kind[k].ocex_w * oc->parts) * sizeof *st);
    }
}

int sim_oc_can_issue(const sim_oc *oc, int kind, int part, uint64_t t, uint64_t *retry)
{
    /* a slot is freed in the read_operands of cycle slot / P: by t when it
     * is below (t + 1) * P (no division a slot) */
    const sim_oc_kind *kd = &oc->kind[kind];
    const uint64_t *slot = oc->steps + kd->idoc + part * kd->idoc_w;
    uint64_t best = UINT64_MAX, end = (t + 1) * (uint64_t)oc->P;
    for (int i = 0; i < kd->idoc_w; i++) {
        if (slot[i] < end)
            return 1;
        best = slot[i] < best ? slot[i] : best;
    }
    *retry = best == UINT64_MAX ? best : best / (uint64_t)oc->P;
    return 0;
}

/* The slot of n (from `base`) that frees first. */
static uint64_t *earliest(uint64_t *base, int n)
{
    uint64_t *best = base;
    for (int i = 1; i < n; i++)
        if (base[i] < *best)
            best = base + i;
    return best;
}

static int bank_of(const sim_oc *oc, int part, int wid, int reg)
{
    /* GPGPU-Sim 4's register_bank(): the warp id is always added
     * (-gpgpu_reg_bank_use_warp_id is read there but unused) */
    int b = reg + wid;
    return oc->parts > 1 ? b % oc->bps + part * oc->bps : b % oc->nb;
}

static int write_booked(const sim_oc *oc, int bank, uint64_t step)
{
    return oc->bank_wr[(size_t)bank * SIM_OC_RING + step % SIM_OC_RING] == step;
}

/* Books a read of bank b from step `from`: the first step after the bank's
 * previous read (FIFO queue) that no write takes. */
static uint64_t book_read(sim_oc *oc, int b, uint64_t from)
{
    uint64_t *next = oc->bank_next + b;
    uint64_t g = from > *next ? from : *next;
    if (g > from)
        oc->conflicts++;
    while (write_booked(oc, b, g)) {
        g++;
        oc->conflicts++;
    }
    *next = g + 1;
    return g;
}

uint64_t sim_oc_collect(sim_oc *oc, int kind, int part, int wid, const uint8_t src[3], uint64_t t)
{
    uint64_t P = (uint64_t)oc->P;
    const sim_oc_kind *kd = &oc->kind[kind];
    /* ID_OC: the slot freeing first (sim_oc_can_issue found one by t) */
    uint64_t *idoc = earliest(oc->steps + kd->idoc + part * kd->idoc_w, kd->idoc_w);
    /* a collector unit through an in port that serves this kind: each set's
     * earliest unit found once, the pairs tried in port order */
    uint64_t *first[SIM_OC_SETS] = {0}, at0 = (t + 1) * P;
    for (unsigned m = kd->cand_sets; m; m &= m - 1) {
        int s = __builtin_ctz(m);
        const sim_oc_set *st = &oc->set[s];
        first[s] = earliest(oc->steps + st->cu + part * st->cu_n, st->cu_n);
    }
    uint64_t a = UINT64_MAX, *cu = NULL;
    uint64_t *port_next = oc->steps;   /* per in port: the first step it allocates again */
    int port = -1, set = 0;
    for (int i = 0; i < kd->cand_n; i++) {
        int p = kd->cand[2 * i], s = kd->cand[2 * i + 1];
        uint64_t at = *first[s] > at0 ? *first[s] : at0;
        at = port_next[p] > at ? port_next[p] : at;
        if (at < a) {
            a = at;
            cu = first[s];
            port = p;
            set = s;
            if (a == at0)   /* no pair is earlier, and a tie keeps the first */
                break;
        }
    }
    TRAPEZE_ASSERT(cu != NULL);   /* sim_oc_config validation: every kind has a set */
    for (int i = 0; TRAPEZE_CHECKS_ON && i < kd->cand_n; i++) {   /* the break above */
        uint64_t f = *first[kd->cand[2 * i + 1]], q = port_next[kd->cand[2 * i]];
        TRAPEZE_ASSERT((f > at0 ? f : at0) >= a || q >= a);
    }
    port_next[port] = a + 1;
    *idoc = a;
    /* reads: one per distinct register, from the step after allocation */
    uint64_t ready = a + 1;
    for (int i = 0; i < 3; i++) {
        int r = src[i];
        if (r == SIM_NO_REG || (i > 0 && r == src[0]) || (i > 1 && r == src[1]))
            continue;
        uint64_t g = book_read(oc, bank_of(oc, part, wid, r), a + 1);
        ready = g + 1 > ready ? g + 1 : ready;
    }
    /* dispatch: a dispatch unit of the collector's set, an OC_EX slot */
    uint64_t d = ready;
    const sim_oc_set *st = &oc->set[set];
    uint64_t *du = st->disp_n ? earliest(oc->steps + st->disp, st->disp_n) : NULL;
    if (du && *du > d)
        d = *du;
    uint64_t *ex = earliest(oc->steps + kd->ocex + part * kd->ocex_w, kd->ocex_w);
    if (*ex > d)
        d = *ex;
    if (du)
        *du = d + 1;
    *cu = d;   /* a unit freed by dispatch is allocated again from the same step */
    oc->pend_ocex = ex;
    uint64_t e = d / P + 1;
    *ex = UINT64_MAX;   /* until sim_oc_execute */
    if (TRAPEZE_CHECKS_ON)
        TRAPEZE_ASSERT(a >= (t + 1) * P && ready > a && d >= ready && e > t);
    return e;
}

void sim_oc_execute(sim_oc *oc, uint64_t e)
{
    *oc->pend_ocex = e * (uint64_t)oc->P;   /* execute runs before the cycle's first step */
}

void sim_oc_write(sim_oc *oc, int part, int wid, int reg, uint64_t w)
{
    uint64_t step = w * (uint64_t)oc->P;
    int b = bank_of(oc, part, wid, reg);
    oc->bank_wr[(size_t)b * SIM_OC_RING + step % SIM_OC_RING] = step;
}
