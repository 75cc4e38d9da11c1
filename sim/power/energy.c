/*
 * energy.c - joules of a kernel launch from sim/events' counts and
 * histograms and a trapeze_power description (see energy.h). Pure
 * arithmetic over counts; no timing.
 */
#include <stdio.h>
#include <string.h>

#include "sim/power/energy.h"

const char *sim_energy_part_name(sim_energy_part p)
{
    static const char *const names[SIM_EN_COUNT] = {
        "dyn_core", "dyn_rf", "dyn_shmem", "dyn_l1d", "dyn_l2", "dyn_icnt", "dyn_dram", "dyn_tag",
        "leak_l1d", "leak_l2", "leak_rf", "leak_shmem", "leak_sm_other", "transition",
        "constant", "idle_sm"};
    return (unsigned)p < SIM_EN_COUNT ? names[p] : "?";
}

void sim_energy_geometry_init(sim_energy_geometry *g, const trapeze_power *pw, int n_sm,
                              int regs_per_sm, int reg_banks, int n_l1, int l1_frames, int n_l2,
                              int l2_frames)
{
    memset(g, 0, sizeof *g);
    int warp_regs = regs_per_sm / 32;   /* 128-byte registers: 32 lanes x 4 bytes */
    const double *w = pw->leak_w;
    g->unit_leak_w[SIM_UNIT_REG] = warp_regs ? w[TRAPEZE_PS_RF] / warp_regs : 0;
    g->physical_units[SIM_UNIT_REG] = (double)n_sm * warp_regs;
    g->unit_leak_w[SIM_UNIT_REG_BANK] = reg_banks ? w[TRAPEZE_PS_RF] / reg_banks : 0;
    g->physical_units[SIM_UNIT_REG_BANK] = (double)n_sm * reg_banks;
    g->unit_leak_w[SIM_UNIT_L1_BANK] = w[TRAPEZE_PS_L1D];
    g->physical_units[SIM_UNIT_L1_BANK] = n_l1;
    g->unit_leak_w[SIM_UNIT_L1_LINE] = l1_frames ? w[TRAPEZE_PS_L1D] / l1_frames : 0;
    g->physical_units[SIM_UNIT_L1_LINE] = (double)n_l1 * l1_frames;
    g->unit_leak_w[SIM_UNIT_L2_BANK] = w[TRAPEZE_PS_L2];
    g->physical_units[SIM_UNIT_L2_BANK] = n_l2;
    g->unit_leak_w[SIM_UNIT_L2_LINE] = l2_frames ? w[TRAPEZE_PS_L2] / l2_frames : 0;
    g->physical_units[SIM_UNIT_L2_LINE] = (double)n_l2 * l2_frames;
}

static double dynamic(const trapeze_power *pw, const uint64_t *ev, sim_energy_part part)
{
    const double *e = pw->event_j;
#define N(x) ((double)ev[SIM_EV_##x])
    switch (part) {
    case SIM_EN_DYN_CORE:
        return N(INST_ISSUE) * e[TRAPEZE_PE_INST_ISSUE] + N(INT_LANES) * e[TRAPEZE_PE_INT_OP] +
               N(FP_LANES) * e[TRAPEZE_PE_FP_OP] + N(SFU_LANES) * e[TRAPEZE_PE_SFU_OP];
    case SIM_EN_DYN_RF:
        return N(REG_READ_LANES) * e[TRAPEZE_PE_REG_READ] +
               N(REG_WRITE_LANES) * e[TRAPEZE_PE_REG_WRITE];
    case SIM_EN_DYN_SHMEM:
        return N(SHMEM_ACCESS) * e[TRAPEZE_PE_SHMEM_ACCESS];
    case SIM_EN_DYN_L1D:
        return N(L1_READ_HIT) * e[TRAPEZE_PE_L1_READ_HIT] +
               (N(L1_READ) - N(L1_READ_HIT)) * e[TRAPEZE_PE_L1_READ_MISS] +
               N(L1_WRITE_HIT) * e[TRAPEZE_PE_L1_WRITE_HIT] +
               (N(L1_WRITE) - N(L1_WRITE_HIT)) * e[TRAPEZE_PE_L1_WRITE_MISS];
    case SIM_EN_DYN_L2:
        return N(L2_READ_HIT) * e[TRAPEZE_PE_L2_READ_HIT] +
               (N(L2_READ) - N(L2_READ_HIT)) * e[TRAPEZE_PE_L2_READ_MISS] +
               N(L2_WRITE_HIT) * e[TRAPEZE_PE_L2_WRITE_HIT] +
               (N(L2_WRITE) - N(L2_WRITE_HIT)) * e[TRAPEZE_PE_L2_WRITE_MISS];
    case SIM_EN_DYN_ICNT:
        return N(ICNT_FLIT) * e[TRAPEZE_PE_ICNT_FLIT];
    case SIM_EN_DYN_DRAM:
        return N(DRAM_ACTIVATE) * e[TRAPEZE_PE_DRAM_ACTIVATE] +
               N(DRAM_READ) * e[TRAPEZE_PE_DRAM_READ] + N(DRAM_WRITE) * e[TRAPEZE_PE_DRAM_WRITE] +
               N(DRAM_PRECHARGE) * e[TRAPEZE_PE_DRAM_PRECHARGE];
    case SIM_EN_DYN_TAG:
        return N(L1_TAG_PROBE) * e[TRAPEZE_PE_L1_TAG_PROBE] +
               N(L2_TAG_PROBE) * e[TRAPEZE_PE_L2_TAG_PROBE];
    default:
        return 0;
    }
#undef N
}

double sim_energy_leak(const sim_energy_input *in, trapeze_power_structure s,
                       const sim_sleep_choice *c, sim_sleep_result *r, double *transition_j)
{
    sim_unit_kind k = sim_sleep_unit(s, c->line);
    const sim_sleep_ops *ops = sim_sleep_policy(c->kind);
    sim_sleep_evaluate(ops, &c->p, in->hist[k], r);
    double untracked = in->geo->physical_units[k] * (double)in->cycles - (double)r->tracked;
    if (untracked < 0)
        untracked = 0;   /* more tracked registers than the RF holds: cannot happen */
    return sim_sleep_leak_j(ops, &c->p, r, untracked, in->geo->unit_leak_w[k], in->clock_hz,
                            transition_j);
}

void sim_energy_compute(const sim_energy_input *in, sim_energy *out)
{
    memset(out, 0, sizeof *out);
    const trapeze_power *pw = in->pw;
    double sec = (double)in->cycles / in->clock_hz;
    out->seconds = sec;
    for (int p = SIM_EN_DYN_CORE; p <= SIM_EN_DYN_TAG; p++)
        out->j[p] = dynamic(pw, in->events, (sim_energy_part)p);
    static const sim_energy_part leak_part[TRAPEZE_PS_SLEEPABLE] = {
        SIM_EN_LEAK_L1D, SIM_EN_LEAK_L2, SIM_EN_LEAK_RF};
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
        double tr = 0;
        double all = sim_energy_leak(in, (trapeze_power_structure)s, &in->sleep->s[s],
                                     &out->sleep[s], &tr);
        sim_unit_kind k = sim_sleep_unit((trapeze_power_structure)s, in->sleep->s[s].line);
        double un = in->geo->physical_units[k] * (double)in->cycles - (double)out->sleep[s].tracked;
        out->unallocated[s] = un > 0 ? un : 0;
        out->j[leak_part[s]] = all - tr;
        out->j[SIM_EN_TRANSITION] += tr;
    }
    out->j[SIM_EN_LEAK_SHMEM] = pw->leak_w[TRAPEZE_PS_SHMEM] * in->n_sm * sec;
    out->j[SIM_EN_LEAK_SM_OTHER] = pw->leak_w[TRAPEZE_PS_SM_OTHER] * in->n_sm * sec;
    out->j[SIM_EN_CONSTANT] = pw->constant_w * sec;
    double idle = (double)in->n_sm * (double)in->cycles - (double)in->sm_active_cycles;
    out->j[SIM_EN_IDLE_SM] = pw->idle_sm_w * (idle > 0 ? idle : 0) / in->clock_hz;
    for (int p = 0; p < SIM_EN_COUNT; p++)
        out->total_j += out->j[p];
}

void sim_energy_print(FILE *f, const sim_energy *e, const sim_sleep_config *sc)
{
    fprintf(f, "energy: %.6g J over %.6g s, average %.4g W\n", e->total_j, e->seconds,
            e->seconds > 0 ? e->total_j / e->seconds : 0.0);
    for (int p = 0; p < SIM_EN_COUNT; p++)
        fprintf(f, "  %-14s %12.6g J %10.4g W %6.2f%%\n", sim_energy_part_name((sim_energy_part)p),
                e->j[p], e->seconds > 0 ? e->j[p] / e->seconds : 0.0,
                e->total_j > 0 ? 100.0 * e->j[p] / e->total_j : 0.0);
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
        const sim_sleep_choice *c = &sc->s[s];
        const sim_sleep_result *r = &e->sleep[s];
        fprintf(f, "  sleep %-3s %s:%s  unit-cycles", trapeze_power_structure_name((trapeze_power_structure)s),
                sim_sleep_policy(c->kind)->name,
                sim_sleep_granularity_name((trapeze_power_structure)s, c->line));
        for (int m = 0; m < c->p.n_modes; m++)
            fprintf(f, " %s %llu", c->p.mode[m].name, (unsigned long long)r->mode_cycles[m]);
        uint64_t tr = 0;
        for (int m = 1; m < TRAPEZE_POWER_MAX_MODES; m++)
            tr += r->entries[m];
        if (e->unallocated[s] > 0)
            fprintf(f, " (unallocated %.0f, %s)", e->unallocated[s],
                    sim_sleep_policy(c->kind)->gates_unallocated ? "gated" : "on");
        fprintf(f, "; transitions %llu, wake-ups %llu, wake stall %llu\n",
                (unsigned long long)tr, (unsigned long long)r->wakeups,
                (unsigned long long)r->stall_cycles);
    }
}
