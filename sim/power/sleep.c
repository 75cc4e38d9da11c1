/*
 * sleep.c - the policy table, binding a policy to a structure's mode table,
 * the wake-up hook the pipeline's accesses reach through sim/events, and the
 * energy of a policy over an idle-period histogram. Owns no timing: the
 * hook only answers how long an access waits.
 *
 * Invariant (asserted): the unit-cycles a policy spends asleep never exceed
 * the tracked unit-cycles of the histogram it is evaluated over.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "sim/power/sleep.h"

#define ROW_(id, ops) [SIM_SLEEP_##id] = &sim_sleep_##ops,
static const sim_sleep_ops *const table[SIM_SLEEP_KINDS] = {SIM_SLEEP_TABLE(ROW_)};
#undef ROW_

const sim_sleep_ops *sim_sleep_policy(sim_sleep_kind k)
{
    return (unsigned)k < SIM_SLEEP_KINDS ? table[k] : NULL;
}

int sim_sleep_find(const char *name)
{
    for (int k = 0; k < SIM_SLEEP_KINDS; k++)
        if (!strcmp(table[k]->name, name))
            return k;
    return -1;
}

const char *sim_sleep_names(trapeze_power_structure s, char *out, size_t size)
{
    size_t used = 0;
    if (size)
        out[0] = '\0';
    for (int k = 0; k < SIM_SLEEP_KINDS && used < size; k++)
        if (table[k]->structures >> s & 1) {
            int w = snprintf(out + used, size - used, "%s%s", used ? ", " : "", table[k]->name);
            used += w > 0 ? (size_t)w : 0;
        }
    return out;
}

void sim_sleep_timeout(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                       int mode, int wake_cycles, sim_sleep_gap *out)
{
    *out = (sim_sleep_gap){0, 0, 0};
    uint64_t th = (uint64_t)p->threshold;
    if (next == SIM_NEXT_DEAD) {
        if (length > th)
            *out = (sim_sleep_gap){mode, length - th, 0};
        return;
    }
    uint64_t visible = th + (uint64_t)p->lookahead;
    if (length <= visible)
        return;   /* the access is known before the unit may sleep */
    out->mode = mode;
    out->mode_cycles = length - visible;
    out->stall = wake_cycles > p->lookahead ? (uint32_t)(wake_cycles - p->lookahead) : 0;
}

sim_unit_kind sim_sleep_unit(trapeze_power_structure s, int line)
{
    switch (s) {
    case TRAPEZE_PS_L1D: return line ? SIM_UNIT_L1_LINE : SIM_UNIT_L1_BANK;
    case TRAPEZE_PS_L2: return line ? SIM_UNIT_L2_LINE : SIM_UNIT_L2_BANK;
    default: return line ? SIM_UNIT_REG : SIM_UNIT_REG_BANK;
    }
}

const char *sim_sleep_granularity_name(trapeze_power_structure s, int line)
{
    if (line)
        return s == TRAPEZE_PS_RF ? "warp_reg" : "line";
    return s == TRAPEZE_PS_L2 ? "slice" : "bank";
}

trapeze_status sim_sleep_bind(sim_sleep_choice *c, trapeze_power_structure s,
                              const trapeze_power *pw, double clock_hz, double unit_leak_w,
                              trapeze_error *err)
{
    const sim_sleep_ops *ops = table[c->kind];
    sim_sleep_params *p = &c->p;
    static const trapeze_power_mode on = {"on", 1.0, 0, 0.0, 1};
    p->mode = pw ? pw->mode[s] : &on;
    p->n_modes = pw ? pw->n_modes[s] : 1;
    if (!(ops->structures >> s & 1))
        return trapeze_fail(err, TRAPEZE_EINVAL, "sleep policy %s does not apply to %s",
                            ops->name, trapeze_power_structure_name(s));
    if (c->kind != SIM_SLEEP_ALWAYS_ON && !pw)
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "sleep policy %s for %s needs a power description (--power)",
                            ops->name, trapeze_power_structure_name(s));
    for (int i = 0; i < 3; i++) {
        p->mode_ix[i] = 0;
        if (!ops->modes[i])
            continue;
        int m = trapeze_power_mode_find(pw, s, ops->modes[i]);
        if (m < 0)
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "%s: [mode.%s.%s] missing: sleep policy %s needs it", pw->path,
                                trapeze_power_structure_name(s), ops->modes[i], ops->name);
        p->mode_ix[i] = m;
    }
    /* transition_j is the round trip of the whole structure (the instance
     * [leakage_w] describes: an SM's L1D or RF, an L2 slice); a unit pays its
     * share of it as of the leakage, so the break-even in cycles is the same
     * at every granularity (wake energy and leakage both scale with the bits) */
    double structure_w = pw ? pw->leak_w[s] : 0, per_cycle = structure_w / clock_hz;
    p->unit_share = structure_w > 0 ? unit_leak_w / structure_w : 0;
    for (int m = 0; m < TRAPEZE_POWER_MAX_MODES; m++)
        p->transition_cycles[m] =
            m < p->n_modes && per_cycle > 0 ? p->mode[m].transition_j / per_cycle : 0;
    return TRAPEZE_OK;
}

uint32_t sim_sleep_wake(void *choice, uint64_t length, sim_next_access next)
{
    const sim_sleep_choice *c = choice;
    sim_sleep_gap g;
    table[c->kind]->gap(&c->p, length, next, &g);
    return g.stall;
}

/* Adds `count` periods of total length `sum`, all spent like one of
 * length L0 = sum / count (exact for exact bins; for the log buckets exact
 * while the policy is linear in L there, i.e. its parameters < 1024). */
static void add_bin(const sim_sleep_ops *ops, const sim_sleep_params *p, sim_next_access next,
                    uint64_t count, uint64_t sum, sim_sleep_result *r)
{
    uint64_t l0 = sum / count;
    sim_sleep_gap g;
    ops->gap(p, l0, next, &g);
    if (g.mode == 0)
        return;
    r->mode_cycles[g.mode] += g.mode_cycles * count + (sum - l0 * count);
    r->entries[g.mode] += count;
    if (next != SIM_NEXT_DEAD)
        r->wakeups += count;
    r->stall_cycles += (uint64_t)g.stall * count;
}

void sim_sleep_evaluate(const sim_sleep_ops *ops, const sim_sleep_params *p,
                        const sim_idle_hist *h, sim_sleep_result *r)
{
    memset(r, 0, sizeof *r);
    r->tracked = h->tracked_cycles;
    for (int n = 0; n < SIM_NEXT_COUNT; n++)
        for (int b = 0; b < SIM_IDLE_BINS; b++)
            if (h->bin[n][b].count)
                add_bin(ops, p, (sim_next_access)n, h->bin[n][b].count, h->bin[n][b].sum, r);
    uint64_t asleep = 0;
    for (int m = 1; m < TRAPEZE_POWER_MAX_MODES; m++)
        asleep += r->mode_cycles[m];
    /* every period lies inside its unit's allocated time, and a policy
     * sleeps at most the whole period */
    assert(asleep <= r->tracked);
    r->mode_cycles[0] = r->tracked - asleep;
}

double sim_sleep_leak_j(const sim_sleep_ops *ops, const sim_sleep_params *p,
                        const sim_sleep_result *r, double untracked_unit_cycles,
                        double unit_leak_w, double clock_hz, double *transition_j)
{
    double per_cycle = unit_leak_w / clock_hz, units = 0, tr = 0;
    for (int m = 0; m < p->n_modes; m++) {
        units += p->mode[m].leak_fraction * (double)r->mode_cycles[m];
        tr += p->mode[m].transition_j * p->unit_share * (double)r->entries[m];
    }
    double floor_fraction = 1.0;   /* unallocated registers: ON, or the deepest mode */
    if (ops->gates_unallocated)
        for (int m = 0; m < p->n_modes; m++)
            if (p->mode[m].leak_fraction < floor_fraction)
                floor_fraction = p->mode[m].leak_fraction;
    units += floor_fraction * untracked_unit_cycles;
    if (transition_j)
        *transition_j = tr;
    return units * per_cycle + tr;
}

int sim_sleep_active(const sim_sleep_config *sc)
{
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        if (sc->s[s].kind != SIM_SLEEP_ALWAYS_ON)
            return 1;
    return 0;
}
