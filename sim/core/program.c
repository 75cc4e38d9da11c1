/*
 * program.c - the program interpreter: the default instruction source. It
 * walks a kernel's structured program for one warp, keeps the SIMT stack
 * (active masks, reconvergence at ENDIF) and loop counters, and turns each
 * executed instruction into a sim_warp_inst with its 32 lane addresses.
 *
 * Timing contract with the SM: next() is called once the previous
 * instruction has issued. A branch that closes a loop is emitted first and
 * resolved on the following call, so a spin loop's exit test reads the value
 * its load returned (the branch waits on that register in the scoreboard).
 */
#include <string.h>

#include "sim/kernel.h"
#include "sim/memsys.h"   /* sim_coalesce_starts: a whole warp's runs, once per shape */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int64_t derived_value(const sim_kernel *k, const sim_warp_cursor *cur, int d);

/* Block and loop variables always; derived ones only those the kernel has
 * (the others read 0), so an index costs a few multiply-adds. */
static int64_t eval_uniform(const sim_kernel *k, const sim_warp_cursor *cur, const sim_affine *e)
{
    const int64_t *kv = e->k;
    int64_t s = e->c + kv[SIM_BX] * cur->bid[0] + kv[SIM_BY] * cur->bid[1] +
                kv[SIM_BZ] * cur->bid[2];
    for (int l = 0; l < cur->loops && l < SIM_MAX_LOOP_DEPTH; l++)   /* deeper ones read 0 */
        s += kv[SIM_L0 + l] * cur->counter[l];
    for (int d = 0; d < k->n_derived && d <= SIM_D3 - SIM_D0; d++)
        if (kv[SIM_D0 + d])
            s += kv[SIM_D0 + d] * derived_value(k, cur, d);
    return s;
}

static int64_t derived_value(const sim_kernel *k, const sim_warp_cursor *cur, int d)
{
    const sim_derived *dv = &k->derived[d];
    int64_t x = floor_div(eval_uniform(k, cur, &dv->e), dv->div);
    if (dv->mod > 0) {
        x %= dv->mod;
        if (x < 0)
            x += dv->mod;
    }
    return x;
}

int64_t sim_eval_uniform(const sim_kernel *k, const sim_warp_cursor *cur, const sim_affine *e)
{
    return eval_uniform(k, cur, e);
}

static inline int64_t clamp64(int64_t x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

uint64_t sim_eval_addr(const sim_kernel *k, const sim_warp_cursor *cur, const sim_addr *a,
                       int lane)
{
    int64_t sum = 0;
    for (int d = 0; d < a->n_dims; d++) {
        const sim_index *ix = &a->index[d];
        int64_t x = eval_uniform(k, cur, &ix->e) + ix->e.k[SIM_TX] * cur->tid[0][lane] +
                    ix->e.k[SIM_TY] * cur->tid[1][lane] + ix->e.k[SIM_TZ] * cur->tid[2][lane];
        sum += a->stride[d] * clamp64(x, ix->lo, ix->hi);
    }
    return k->arrays[a->array].base + (uint64_t)(sum * a->elem_bytes);
}

/* sum[l] (+)= st * clamp(u + kx*tx + ky*ty + kz*tz, lo, hi) for every lane;
 * `first` stores instead of adding. Inlined with constant flags, so each
 * variant is one straight loop. */
static inline __attribute__((always_inline)) void lane_dim(int64_t *sum, const sim_warp_cursor *cur,
                                     int64_t u, int64_t kx, int64_t ky, int64_t kz,
                                     int64_t st, int64_t lo, int64_t hi, int first, int use_y,
                                     int use_z)
{
    for (int l = 0; l < SIM_WARP_LANES; l++) {
        int64_t x = u + kx * cur->tid[0][l];
        if (use_y)
            x += ky * cur->tid[1][l];
        if (use_z)
            x += kz * cur->tid[2][l];
        int64_t v = st * clamp64(x, lo, hi);
        sum[l] = first ? v : sum[l] + v;
    }
}

/* Every lane clamped per dimension: the general case (a boundary warp). */
static void lane_addrs_clamped(const sim_warp_cursor *cur, const sim_addr *a, const int64_t *u,
                               int64_t *sum)
{
    if (a->n_dims <= 0)
        memset(sum, 0, SIM_WARP_LANES * sizeof *sum);
    for (int d = 0; d < a->n_dims; d++) {
        const sim_index *ix = &a->index[d];
        int64_t kx = ix->e.k[SIM_TX], ky = ix->e.k[SIM_TY], kz = ix->e.k[SIM_TZ];
        int64_t st = a->stride[d], lo = ix->lo, hi = ix->hi;
        if (kz != 0) {
            if (d == 0)
                lane_dim(sum, cur, u[d], kx, ky, kz, st, lo, hi, 1, 1, 1);
            else
                lane_dim(sum, cur, u[d], kx, ky, kz, st, lo, hi, 0, 1, 1);
        } else if (ky != 0) {
            if (d == 0)
                lane_dim(sum, cur, u[d], kx, ky, 0, st, lo, hi, 1, 1, 0);
            else
                lane_dim(sum, cur, u[d], kx, ky, 0, st, lo, hi, 0, 1, 0);
        } else {
            if (d == 0)
                lane_dim(sum, cur, u[d], kx, 0, 0, st, lo, hi, 1, 0, 0);
            else
                lane_dim(sum, cur, u[d], kx, 0, 0, st, lo, hi, 0, 0, 0);
        }
    }
}

/* The range [*lo, *hi] of u + kx*tx + ky*ty + kz*tz over the lanes that
 * exist, from the bounds of tx, ty, tz. */
static void lane_range(const sim_warp_cursor *cur, const sim_affine *e, int64_t u, int64_t *lo,
                       int64_t *hi)
{
    *lo = *hi = u;
    for (int i = 0; i < 3; i++) {
        int64_t k = e->k[SIM_TX + i];
        int64_t a = k * cur->tid_min[i], b = k * cur->tid_max[i];
        *lo += a < b ? a : b;
        *hi += a < b ? b : a;
    }
}

/* Does clamp(u + kx*tx + ky*ty + kz*tz, lo, hi) leave every existing lane
 * unchanged? Checked once per warp. */
static int clamp_idle(const sim_warp_cursor *cur, const sim_index *ix, int64_t u)
{
    int64_t lo, hi;
    lane_range(cur, &ix->e, u, &lo, &hi);
    return lo >= ix->lo && hi <= ix->hi;
}

/* off[l] = cx*tx + cy*ty + cz*tz for every lane; inlined with constant
 * flags, so each variant is one straight loop. */
static inline __attribute__((always_inline)) void lane_affine(uint64_t *off,
                                                              const sim_warp_cursor *cur,
                                                              uint64_t cx, uint64_t cy,
                                                              uint64_t cz, int use_y, int use_z)
{
    for (int l = 0; l < SIM_WARP_LANES; l++) {
        uint64_t x = cx * (uint64_t)(int64_t)cur->tid[0][l];
        if (use_y)
            x += cy * (uint64_t)(int64_t)cur->tid[1][l];
        if (use_z)
            x += cz * (uint64_t)(int64_t)cur->tid[2][l];
        off[l] = x;
    }
}

/* The lanes' offsets for (cx, cy, cz), kept in the cursor: a warp's
 * accesses mostly share one shape (the same array strides), so the
 * multiplications run once per shape rather than once per access. */
static const uint64_t *lane_offsets(sim_warp_cursor *cur, uint64_t cx, uint64_t cy, uint64_t cz)
{
    uint64_t *key = cur->lane_off_key;
    if (key[0] != cx || key[1] != cy || key[2] != cz) {
        if (cy == 0 && cz == 0)
            lane_affine(cur->lane_off, cur, cx, 0, 0, 0, 0);
        else if (cz == 0)
            lane_affine(cur->lane_off, cur, cx, cy, 0, 1, 0);
        else
            lane_affine(cur->lane_off, cur, cx, cy, cz, 1, 1);
        key[0] = cx;
        key[1] = cy;
        key[2] = cz;
        cur->lane_off_size = 0;   /* its runs not known yet */
    }
    return cur->lane_off;
}

/* All active lanes' addresses (inactive lanes get 0); the uniform part of
 * each dimension once. When no clamp binds for the warp, an address is
 * affine in the thread index: base + cx*tx + cy*ty + cz*tz, one short loop
 * (unsigned arithmetic: the same bits as the clamped sum). Returns, for a
 * whole warp's affine addresses, the lanes that start a run of `size`-byte
 * accesses (sim_coalesce_starts: the lane offsets' runs, kept with them in
 * the cursor, as the base adds the same to every lane); else 0. */
static uint32_t lane_addrs(const sim_kernel *k, sim_warp_cursor *cur, const sim_addr *a,
                           uint32_t active, int size, uint64_t *out)
{
    int64_t u[SIM_MAX_ADDR_DIMS];
    int affine = 1;
    uint64_t eb = (uint64_t)a->elem_bytes, off = 0, cx = 0, cy = 0, cz = 0;
    for (int d = 0; d < a->n_dims; d++) {
        const sim_index *ix = &a->index[d];
        uint64_t st = (uint64_t)a->stride[d];
        u[d] = eval_uniform(k, cur, &ix->e);
        affine = affine && clamp_idle(cur, ix, u[d]);
        off += st * (uint64_t)u[d];
        cx += st * (uint64_t)ix->e.k[SIM_TX];
        cy += st * (uint64_t)ix->e.k[SIM_TY];
        cz += st * (uint64_t)ix->e.k[SIM_TZ];
    }
    uint64_t base = k->arrays[a->array].base;
    if (affine) {
        base += eb * off;
        const uint64_t *lane = lane_offsets(cur, cx * eb, cy * eb, cz * eb);
        if (active != UINT32_MAX) {
            for (int l = 0; l < SIM_WARP_LANES; l++)
                out[l] = (active >> l & 1) ? base + lane[l] : 0;
            return 0;
        }
        for (int l = 0; l < SIM_WARP_LANES; l++)
            out[l] = base + lane[l];
        if (cur->lane_off_size != size) {
            cur->lane_off_starts = sim_coalesce_starts(lane, size);
            cur->lane_off_size = size;
        }
        return cur->lane_off_starts;
    }
    int64_t sum[SIM_WARP_LANES];
    lane_addrs_clamped(cur, a, u, sum);
    for (int l = 0; l < SIM_WARP_LANES; l++)
        out[l] = (active >> l & 1) ? base + (uint64_t)sum[l] * eb : 0;
    return 0;
}

/* 1 when `x cmp 0` holds for every x in [lo, hi], 0 when for none, -1
 * when that depends on the lane. */
static int cmp_over_range(int cmp, int64_t lo, int64_t hi)
{
    switch (cmp) {
    case SIM_LT: return hi < 0 ? 1 : lo >= 0 ? 0 : -1;
    case SIM_LE: return hi <= 0 ? 1 : lo > 0 ? 0 : -1;
    case SIM_GT: return lo > 0 ? 1 : hi <= 0 ? 0 : -1;
    case SIM_GE: return lo >= 0 ? 1 : hi < 0 ? 0 : -1;
    case SIM_EQ: return lo == 0 && hi == 0 ? 1 : lo > 0 || hi < 0 ? 0 : -1;
    default: return lo > 0 || hi < 0 ? 1 : lo == 0 && hi == 0 ? 0 : -1;
    }
}

static uint32_t eval_pred(const sim_kernel *k, const sim_warp_cursor *cur, const sim_pred *p,
                          uint32_t active)
{
    uint32_t mask = active;
    for (int c = 0; c < p->n && mask; c++) {
        const sim_affine *e = &p->c[c].e;
        int64_t u = eval_uniform(k, cur, e), lo, hi;
        /* the same outcome on every lane (a warp away from the boundary a
         * condition tests) needs no lane loop */
        lane_range(cur, e, u, &lo, &hi);
        int all = cmp_over_range(p->c[c].cmp, lo, hi);
        if (all >= 0) {
            mask = all ? mask : 0;
            continue;
        }
        uint32_t m = 0;
        for (int l = 0; l < SIM_WARP_LANES; l++) {
            if (!(mask >> l & 1))
                continue;
            int64_t x = u + e->k[SIM_TX] * cur->tid[0][l] + e->k[SIM_TY] * cur->tid[1][l] +
                        e->k[SIM_TZ] * cur->tid[2][l];
            m |= (uint32_t)cmp_over_range(p->c[c].cmp, x, x) << l;
        }
        mask = m;
    }
    return mask;
}

/* The least and greatest of each thread-index coordinate over n lanes
 * counted up from (tx, ty, tz), x wrapping at block.x into y and y at
 * block.y into z (INT16_MAX and INT16_MIN when n is 0), without a pass over
 * the lanes: a coordinate that wraps has passed its last value and come
 * back to 0, so it spans all of them; one that does not spans its start to
 * its start plus its steps. */
static void tid_bounds(const sim_kernel *k, int tx, int ty, int tz, int n, int16_t lo[3],
                       int16_t hi[3])
{
    if (n <= 0) {
        for (int i = 0; i < 3; i++) {
            lo[i] = INT16_MAX;
            hi[i] = INT16_MIN;
        }
        return;
    }
    int rows = (tx + n - 1) / k->block.x;    /* times x wraps */
    int planes = (ty + rows) / k->block.y;   /* times y wraps */
    lo[0] = (int16_t)(rows ? 0 : tx);
    hi[0] = (int16_t)(rows ? k->block.x - 1 : tx + n - 1);
    lo[1] = (int16_t)(planes ? 0 : ty);
    hi[1] = (int16_t)(planes ? k->block.y - 1 : ty + rows);
    lo[2] = (int16_t)tz;
    hi[2] = (int16_t)(tz + planes);
}

static void prog_warp_start(void *self, const sim_kernel *k, sim_warp_cursor *cur, int bx,
                            int by, int bz, int warp)
{
    (void)self;
    memset(cur, 0, sizeof *cur);
    cur->bid[0] = bx;
    cur->bid[1] = by;
    cur->bid[2] = bz;
    /* The lanes that exist are a prefix (the block's last warp may be
     * short). Each lane's thread index is counted up from lane 0's. */
    int t0 = warp * SIM_WARP_LANES, n = sim_kernel_block_threads(k) - t0;
    n = n < 0 ? 0 : n > SIM_WARP_LANES ? SIM_WARP_LANES : n;
    cur->exist = n == SIM_WARP_LANES ? UINT32_MAX : (1u << n) - 1;
    int tx = t0 % k->block.x, ty = (t0 / k->block.x) % k->block.y;
    int tz = t0 / (k->block.x * k->block.y);
    tid_bounds(k, tx, ty, tz, n, cur->tid_min, cur->tid_max);
    for (int l = 0; l < SIM_WARP_LANES; l++, tx++) {
        if (tx == k->block.x) {
            tx = 0;
            if (++ty == k->block.y) {
                ty = 0;
                tz++;
            }
        }
        cur->tid[0][l] = (int16_t)tx;
        cur->tid[1][l] = (int16_t)ty;
        cur->tid[2][l] = (int16_t)tz;
    }
    cur->active = cur->exist;
    cur->pending_branch = -1;
}

static void emit_simple(sim_warp_inst *out, sim_op op, uint32_t active)
{
    out->op = (uint8_t)op;
    out->alu = SIM_ALU_ADD;
    out->flags = 0;
    out->dst = SIM_NO_REG;
    out->src[0] = out->src[1] = out->src[2] = SIM_NO_REG;
    out->size = 0;
    out->active = active;
    out->value = 0;
    out->unit = 0;
}

/* Resolve the loop-closing branch emitted by the previous call. */
static void resolve_endloop(const sim_kernel *k, sim_warp_cursor *cur, const uint32_t *reg_value)
{
    const sim_inst *in = &k->code[cur->pc];
    int l = cur->loops - 1;
    int again;
    if (in->flags & SIM_INST_SPIN) {
        int64_t target = eval_uniform(k, cur, &in->trips);
        again = (int64_t)reg_value[in->spin_reg] < target;
    } else {
        again = ++cur->counter[l] < cur->trips[l];
    }
    if (again) {
        cur->pc = cur->loop_pc[l] + 1;
    } else {
        cur->loops--;
        cur->spin_depth -= (in->flags & SIM_INST_SPIN) != 0;
        cur->pc++;
    }
}

static int next_inst(const sim_kernel *k, sim_warp_cursor *cur, const uint32_t *reg_value,
                     sim_warp_inst *out)
{
    if (cur->pending_branch >= 0) {
        cur->pending_branch = -1;
        resolve_endloop(k, cur, reg_value);
    }
    for (;;) {
        if (cur->pc >= k->n_code)
            return 0;
        const sim_inst *in = &k->code[cur->pc];
        out->pc = (uint32_t)cur->pc * 16;   /* SASS instructions are 16 bytes */
        switch ((sim_op)in->op) {
        case SIM_OP_INT:
        case SIM_OP_FP:
        case SIM_OP_DP:
        case SIM_OP_SFU:
            emit_simple(out, (sim_op)in->op, cur->active);
            out->alu = in->alu;
            out->unit = in->unit;
            out->dst = in->dst;
            memcpy(out->src, in->src, sizeof out->src);
            cur->pc++;
            return 1;
        case SIM_OP_LD_GLOBAL:
        case SIM_OP_ST_GLOBAL:
        case SIM_OP_LD_SHARED:
        case SIM_OP_ST_SHARED:
        case SIM_OP_ATOMIC:
            emit_simple(out, (sim_op)in->op, cur->active);
            out->flags = in->flags & SIM_INST_VOLATILE;
            out->dst = in->dst;
            memcpy(out->src, in->src, sizeof out->src);
            out->size = (uint8_t)in->addr.elem_bytes;
            out->value = in->value;
            out->runs = lane_addrs(k, cur, &in->addr, cur->active, out->size, out->addr);
            if (out->runs)   /* the coalescer's first pass, known (never 0: lane 0's bit) */
                out->flags |= SIM_INST_RUNS;
            cur->pc++;
            return 1;
        case SIM_OP_BAR:
        case SIM_OP_FENCE:
            emit_simple(out, (sim_op)in->op, cur->active);
            cur->pc++;
            return 1;
        case SIM_OP_EXIT:
            emit_simple(out, SIM_OP_EXIT, cur->active);
            cur->pc = k->n_code;
            return 1;
        case SIM_OP_IF: {
            uint32_t taken = eval_pred(k, cur, &in->pred, cur->active);
            uint32_t not_taken = cur->active & ~taken;
            emit_simple(out, SIM_OP_BRANCH, cur->active);
            int d = cur->depth;
            if (d >= SIM_MAX_SIMT_DEPTH)   /* validated nesting makes this unreachable */
                d = SIM_MAX_SIMT_DEPTH - 1;
            cur->saved[d] = cur->active;
            cur->depth = d + 1;
            const sim_inst *m = &k->code[in->match];
            if (taken) {
                cur->pending[d] = not_taken;
                cur->active = taken;
                cur->pc++;
            } else if (m->op == SIM_OP_ELSE) {
                cur->pending[d] = 0;
                cur->active = not_taken;
                cur->pc = in->match + 1;
            } else {   /* nobody takes it and there is no ELSE: straight to ENDIF */
                cur->pending[d] = 0;
                cur->pc = in->match;
            }
            return 1;
        }
        case SIM_OP_ELSE: {
            /* reached by the THEN lanes: jump over the ELSE part, or run it */
            int d = cur->depth - 1;
            emit_simple(out, SIM_OP_BRANCH, cur->active);
            if (cur->pending[d]) {
                cur->active = cur->pending[d];
                cur->pending[d] = 0;
                cur->pc++;
            } else {
                cur->pc = in->match;
            }
            return 1;
        }
        case SIM_OP_ENDIF:
            if (cur->depth > 0) {
                cur->depth--;
                cur->active = cur->saved[cur->depth];
            }
            cur->pc++;
            continue;
        case SIM_OP_LOOP: {
            int l = cur->loops;
            int spin = (in->flags & SIM_INST_SPIN) != 0;
            int64_t trips = spin ? 1 : eval_uniform(k, cur, &in->trips);
            int64_t first = l == 0 && !spin ? k->first_trip : 0;   /* a later window */
            if (trips <= first) {
                cur->pc = in->match + 1;
                continue;
            }
            cur->counter[l] = first;
            cur->trips[l] = trips;
            cur->loop_pc[l] = cur->pc;
            cur->loops = l + 1;
            cur->spin_depth += (in->flags & SIM_INST_SPIN) != 0;
            cur->pc++;
            continue;
        }
        case SIM_OP_ENDLOOP:
            emit_simple(out, SIM_OP_BRANCH, cur->active);
            if (in->flags & SIM_INST_SPIN)
                out->src[0] = in->spin_reg;
            cur->pending_branch = cur->pc;
            return 1;
        default:
            cur->pc++;
            continue;
        }
    }
}

/* The next instruction, marked SIM_INST_SPIN inside a spin loop (the loop's
 * closing branch included: it is emitted before the loop is left). */
static int prog_next(void *self, const sim_kernel *k, sim_warp_cursor *cur,
                     const uint32_t *reg_value, sim_warp_inst *out)
{
    (void)self;
    if (!next_inst(k, cur, reg_value, out))
        return 0;
    if (cur->spin_depth > 0)
        out->flags |= SIM_INST_SPIN;
    return 1;
}

const sim_source_ops sim_program_source = {"program", prog_warp_start, prog_next, NULL, NULL};

static int first_lane(uint32_t mask)
{
    return mask ? __builtin_ctz(mask) : 0;
}

int sim_program_spin_wait(const sim_kernel *k, const sim_warp_cursor *cur, uint64_t *addr,
                          int64_t *target)
{
    if (k->source || cur->spin_depth <= 0)
        return 0;
    for (int l = cur->loops - 1; l >= 0; l--) {
        const sim_inst *loop = &k->code[cur->loop_pc[l]];
        if (!(loop->flags & SIM_INST_SPIN))
            continue;
        const sim_inst *end = &k->code[loop->match];
        *target = eval_uniform(k, cur, &end->trips);
        *addr = 0;
        for (const sim_inst *in = loop + 1; in < end; in++)
            if ((in->op == SIM_OP_LD_GLOBAL || in->op == SIM_OP_ATOMIC) &&
                in->dst == end->spin_reg)
                *addr = sim_eval_addr(k, cur, &in->addr, first_lane(cur->active));
        return 1;
    }
    return 0;
}
