/* test_energy.c - idle periods, sleep policies and energy, hand-computed:
 * exact idle lengths and next-access kinds of a one-warp kernel, exact
 * leakage under each Slumber mode and under the oracle, the exact wake-up
 * stall when the look-ahead is shorter than the wake-up, the oracle never
 * above a policy, always-on accounting leaving timing bit-identical, and
 * the marked histogram a spread sample reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/core/gpu_sim.h"
#include "sim/power/energy.h"
#include "sim/power/sleep.h"
#include "tests/check.h"

static const char *const one_sm_cfg =
    "-gpgpu_ptx_force_max_capability 20\n"
    "-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_shader_cta 8\n"
    "-gpgpu_shmem_size 49152\n-gpgpu_shmem_num_banks 32\n-gpgpu_smem_latency 26\n"
    "-gpgpu_num_sp_units 2\n-gpgpu_num_sfu_units 1\n"
    "-ptx_opcode_latency_int 4,13,4,5,145\n-ptx_opcode_initiation_int 1,2,2,1,8\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n-ptx_opcode_initiation_fp 1,2,1,1,4\n"
    "-gpgpu_num_sched_per_core 2\n-gpgpu_scheduler gto\n";

static trapeze_power power;

static uint64_t count(const sim_idle_hist *h, sim_next_access n, uint64_t len)
{
    return h->bin[n][sim_idle_bin(len)].count;
}

static uint64_t total(const sim_idle_hist *h)
{
    uint64_t c = 0;
    for (int n = 0; n < SIM_NEXT_COUNT; n++)
        for (int b = 0; b < SIM_IDLE_BINS; b++)
            c += h->bin[n][b].count;
    return c;
}

static void test_bins(void)
{
    uint64_t lo, hi;
    CHECK(sim_idle_bin(1) == 0 && sim_idle_bin(1024) == 1023);
    CHECK(sim_idle_bin(1025) == 1024 && sim_idle_bin(2048) == 1024 && sim_idle_bin(2049) == 1025);
    sim_idle_bin_range(1024, &lo, &hi);
    CHECK(lo == 1025 && hi == 2048);
    sim_idle_bin_range(1025, &lo, &hi);
    CHECK(lo == 2049 && hi == 4096);
    sim_idle_bin_range(16, &lo, &hi);
    CHECK(lo == 17 && hi == 17);
}

/* r1 = add (write at cycle 1, INT/FP ADD latency 4); r2 = mad(r1, r1, r1)
 * reads r1 at 5 (MAD latency 5: result at 10); EXIT at 6; the warp is done
 * at 10, its block released at 10; the kernel ends at 11. Registers r0..r2
 * are allocated at 0 (the block is placed at 0). */
static void test_one_warp(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err = {0};
    CHECK_OK(trapeze_config_parse(one_sm_cfg, "one.config", &cfg, &err));
    sim_kb *kb = sim_kb_begin("regs", SIM_DIM(1), SIM_DIM(32));
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_ADD, 1, SIM_NO_REG, SIM_NO_REG, SIM_NO_REG);
    sim_kb_alu(kb, SIM_OP_FP, SIM_ALU_MAD, 2, 1, 1, 1);
    sim_kernel *k = NULL;
    CHECK_OK(sim_kb_end(kb, &k, &err));
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    CHECK_OK(sim_mem_port_ideal(1, 100, &opt.mem, &err));
    opt.power = &power;
    opt.keep_idle = 1;
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    sim_kernel_stats st;
    CHECK_OK(sim_gpu_run(g, k, &st, &err));
    CHECK(st.cycles == 11);
    const sim_idle_hist *h = &sim_gpu_idle(g, 0, NULL)[SIM_UNIT_REG];
    int nregs = k->regs_per_thread;
    CHECK(nregs == 3);
    CHECK(count(h, SIM_NEXT_WRITE, 1) == 1);   /* r1: allocated 0, written 1 */
    CHECK(count(h, SIM_NEXT_READ, 3) == 1);    /* r1: idle 2..4, read at 5 */
    CHECK(count(h, SIM_NEXT_WRITE, 5) == 1);   /* r2: idle 0..4, written at 5 */
    CHECK(count(h, SIM_NEXT_DEAD, 4) == 2);    /* r1, r2: idle 6..9, released at 10 */
    CHECK(count(h, SIM_NEXT_DEAD, 10) == 1);   /* r0: never used */
    CHECK(total(h) == 6);
    CHECK(h->tracked_cycles == 3 * 10);

    /* Slumber (Table 6.1, look-ahead 3) over these periods: write 1 and
     * read 3 stay ON (< 4); write 5 shallow for 5 - 3 = 2 cycles with a
     * 4 - 3 = 1 cycle stall; dead 4, 4 and 10 shallow for their length. */
    sim_sleep_choice c = sim_gpu_sleep(g)->s[TRAPEZE_PS_RF];
    c.kind = SIM_SLEEP_SLUMBER;
    const sim_energy_geometry *geo = sim_gpu_energy_geometry(g);
    CHECK_OK(sim_sleep_bind(&c, TRAPEZE_PS_RF, &power, 700e6, geo->unit_leak_w[SIM_UNIT_REG],
                            &err));
    sim_sleep_result r;
    sim_sleep_evaluate(&sim_sleep_slumber, &c.p, h, &r);
    CHECK(r.mode_cycles[1] == 2 + 4 + 4 + 10 && r.mode_cycles[2] == 0 && r.mode_cycles[3] == 0);
    CHECK(r.mode_cycles[0] == 30 - 20);
    CHECK(r.entries[1] == 4 && r.wakeups == 1 && r.stall_cycles == 1);
    /* leakage: 0.61 W / 1024 registers at 700 MHz; unallocated registers
     * (1024 x 11 - 30 register-cycles) gated at 0 % */
    double per = 0.61 / 1024 / 700e6;
    CHECK_NEAR(sim_sleep_leak_j(&sim_sleep_slumber, &c.p, &r, 1024.0 * 11 - 30,
                                geo->unit_leak_w[SIM_UNIT_REG], 700e6, NULL),
               per * (10 + 0.94 * 20), 1e-25);
    /* the default profile's circuit-model transitions: transition_j is the
     * whole register file's round trip (103.7 pJ for shallow), a warp
     * register pays 1/1024 of it per entry (its share of the leakage) */
    {
        trapeze_power circuit;
        CHECK_OK(trapeze_power_load("data/power/gtx480.ini", &circuit, &err));
        sim_sleep_choice cc = c;
        CHECK_OK(sim_sleep_bind(&cc, TRAPEZE_PS_RF, &circuit, 700e6,
                                geo->unit_leak_w[SIM_UNIT_REG], &err));
        CHECK_NEAR(cc.p.unit_share, 1.0 / 1024, 1e-15);
        CHECK_NEAR(cc.p.transition_cycles[1], 1.037e-10 * 700e6 / 0.61, 1e-12);
        double tr = 0, leak = sim_sleep_leak_j(&sim_sleep_slumber, &cc.p, &r, 1024.0 * 11 - 30,
                                               geo->unit_leak_w[SIM_UNIT_REG], 700e6, &tr);
        CHECK_NEAR(tr, 4 * 1.037e-10 / 1024, 1e-25);
        CHECK_NEAR(leak, per * (10 + 0.94 * 20) + tr, 1e-25);
    }
    /* always-on: every physical register ON for 11 cycles */
    c.kind = SIM_SLEEP_ALWAYS_ON;
    sim_sleep_evaluate(&sim_sleep_always_on, &c.p, h, &r);
    CHECK_NEAR(sim_sleep_leak_j(&sim_sleep_always_on, &c.p, &r, 1024.0 * 11 - 30,
                                geo->unit_leak_w[SIM_UNIT_REG], 700e6, NULL),
               per * 1024 * 11, 1e-22);
    CHECK_NEAR(st.energy.j[SIM_EN_LEAK_RF], per * 1024 * 11, 1e-22);
    /* the oracle: write 5 shallow 5 - 4 = 1 cycle (0.94 + 4 < 5); the dead
     * periods gated (0 %) for their whole length */
    sim_sleep_evaluate(&sim_sleep_oracle, &c.p, h, &r);
    CHECK(r.mode_cycles[1] == 1 && r.mode_cycles[2] == 0 && r.mode_cycles[3] == 18);
    CHECK(r.stall_cycles == 0);
    CHECK_NEAR(sim_sleep_leak_j(&sim_sleep_oracle, &c.p, &r, 0, geo->unit_leak_w[SIM_UNIT_REG],
                                700e6, NULL),
               per * (30 - 19 + 0.94 * 1), 1e-25);
    /* Warped RF: drowsy (deep, 42 %) after every access, 1-cycle wake seen
     * 3 cycles ahead: write 1, read 3 stay ON; write 5 drowsy 2 cycles;
     * dead periods drowsy throughout */
    c.kind = SIM_SLEEP_DROWSY;
    CHECK_OK(sim_sleep_bind(&c, TRAPEZE_PS_RF, &power, 700e6, geo->unit_leak_w[SIM_UNIT_REG],
                            &err));
    sim_sleep_evaluate(&sim_sleep_drowsy, &c.p, h, &r);
    CHECK(r.mode_cycles[2] == 2 + 18 && r.stall_cycles == 0);
    sim_kernel_stats_free(&st);
    sim_gpu_destroy(g);

    /* Slumber in the simulator: r2's write at 5 ends a 5-cycle period spent
     * in shallow sleep, woken 3 cycles ahead: it waits 4 - 3 = 1 cycle, so
     * the MAD's result lands at 11, EXIT issues at 7, the block is released
     * at 11 and the kernel ends at 12 instead of 11. */
    sim_sleep_config sc;
    CHECK_OK(sim_sleep_config_read(cfg, &sc, &err));
    CHECK_OK(sim_sleep_config_set(&sc, TRAPEZE_PS_RF, "slumber", &err));
    CHECK_OK(sim_mem_port_ideal(1, 100, &opt.mem, &err));
    opt.sleep = &sc;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    CHECK_OK(sim_gpu_run(g, k, &st, &err));
    CHECK(st.cycles == 12);
    CHECK(st.total.wake_stall_cycles == 1);
    h = &sim_gpu_idle(g, 0, NULL)[SIM_UNIT_REG];
    CHECK(count(h, SIM_NEXT_WRITE, 5) == 1 && count(h, SIM_NEXT_DEAD, 5) == 2);
    CHECK(count(h, SIM_NEXT_DEAD, 11) == 1);
    CHECK(st.energy.sleep[TRAPEZE_PS_RF].stall_cycles == 1);
    sim_kernel_stats_free(&st);
    sim_gpu_destroy(g);
    sim_kernel_destroy(k);
    trapeze_config_destroy(cfg);
}

/* data/gpus/gtx480.config, with every clock domain at the core's 700 MHz
 * when one_clock (so that delaying a lone request shifts its whole round
 * trip by exactly the delay: no DRAM clock edge to re-align to). */
static trapeze_config *gtx480_config(int one_clock)
{
    static char text[65536];
    FILE *f = fopen("data/gpus/gtx480.config", "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    char *clk = strstr(text, "-gpgpu_clock_domains 700.0:700.0:700.0:924.0");
    CHECK(clk != NULL);
    if (one_clock && clk)
        memcpy(clk + 39, "700.0", 5);   /* the DRAM clock */
    trapeze_config *cfg = NULL;
    trapeze_error err = {0};
    CHECK_OK(trapeze_config_parse(text, "gtx480.config", &cfg, &err));
    return cfg;
}

/* Runs built-in `name` on the GTX 480 with the given sleep policies;
 * returns the stats of the first launch. */
static void run_builtin(const char *name, int np, char **params, const sim_sleep_config *sc,
                        const trapeze_power *pw, sim_kernel_stats *st, sim_sleep_config *bound,
                        int one_clock, uint64_t *idle)
{
    trapeze_config *cfg = gtx480_config(one_clock);
    trapeze_error err = {0};
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.power = pw;
    opt.sleep = sc;
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    if (!g) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    const sim_builtin *b = sim_builtin_find(name);
    long p[SIM_BUILTIN_MAX_PARAMS];
    CHECK_OK(sim_builtin_params(b, np, params, p, &err));
    sim_kernel *ks[4];
    int nk = 0;
    CHECK_OK(b->build(sim_gpu_config(g), p, ks, 4, &nk, &err));
    CHECK_OK(sim_gpu_run(g, ks[0], st, &err));
    if (bound)
        *bound = *sim_gpu_sleep(g);
    if (idle) {   /* the periods recorded and unit-cycles tracked, every kind */
        *idle = 0;
        for (int u = 0; u < SIM_UNIT_KIND_COUNT; u++) {
            const sim_idle_hist *h = sim_events_hist(sim_gpu_events(g), (sim_unit_kind)u);
            *idle += h->tracked_cycles + total(h);
        }
    }
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

static void default_sleep(sim_sleep_config *sc)
{
    trapeze_config *cfg = NULL;
    trapeze_error err = {0};
    CHECK_OK(trapeze_config_parse("", "empty.config", &cfg, &err));
    CHECK_OK(sim_sleep_config_read(cfg, sc, &err));
    trapeze_config_destroy(cfg);
}

/* One thread, 32 dependent loads 4 bytes apart: one miss (its fill) and 31
 * hits in the same line. With Snooze on the L1D at bank level and no
 * look-ahead, the sleeping L1D delays each of these 33 accesses (the miss's
 * probe, its fill, 31 hits) by its 2-cycle wake-up: the kernel is longer by
 * exactly 65 cycles (every clock domain at 700 MHz, so the miss's round trip
 * shifts as a whole), not 66: the miss, probed at the end of the L1 latency
 * queue after the interconnect has run in that cycle, waits a cycle for it
 * anyway, so its wake-up costs 1. */
static void test_wake_stall(void)
{
    char *params[] = {"steps=32", "stride=4"};
    sim_sleep_config sc, bound;
    default_sleep(&sc);
    sim_kernel_stats base, slow;
    run_builtin("chase", 2, params, &sc, &power, &base, NULL, 1, NULL);
    CHECK_OK(sim_sleep_config_set(&sc, TRAPEZE_PS_L1D, "snooze:bank", NULL));
    sc.s[TRAPEZE_PS_L1D].p.lookahead = 0;
    run_builtin("chase", 2, params, &sc, &power, &slow, &bound, 1, NULL);
    const sim_sleep_result *r = &slow.energy.sleep[TRAPEZE_PS_L1D];
    CHECK(r->wakeups == 33);
    CHECK(r->stall_cycles == 2 * r->wakeups);
    CHECK(slow.cycles == base.cycles + r->stall_cycles - 1);
    if (slow.cycles != base.cycles + r->stall_cycles - 1)
        fprintf(stderr, "chase: %llu cycles always-on, %llu with snooze (%llu wake-ups)\n",
                (unsigned long long)base.cycles, (unsigned long long)slow.cycles,
                (unsigned long long)r->wakeups);
    /* with the seed's look-ahead (3 >= 2) the wake-up is hidden: same cycles */
    sim_kernel_stats hidden;
    sc.s[TRAPEZE_PS_L1D].p.lookahead = 3;
    run_builtin("chase", 2, params, &sc, &power, &hidden, NULL, 1, NULL);
    CHECK(hidden.cycles == base.cycles);
    CHECK(hidden.energy.sleep[TRAPEZE_PS_L1D].stall_cycles == 0);
    CHECK(hidden.energy.j[SIM_EN_LEAK_L1D] < 0.5 * base.energy.j[SIM_EN_LEAK_L1D]);
    sim_kernel_stats_free(&base);
    sim_kernel_stats_free(&slow);
    sim_kernel_stats_free(&hidden);
}

/* Energy accounting (always-on) changes no timing: every counter of a
 * Jacobi sweep is identical with and without a power description. */
static void test_timing_unchanged(void)
{
    char *params[] = {"nx=256", "ny=256"};
    sim_sleep_config sc;
    default_sleep(&sc);
    sim_kernel_stats off, on;
    uint64_t idle_off, idle_on;
    run_builtin("jacobi", 2, params, NULL, NULL, &off, NULL, 0, &idle_off);
    run_builtin("jacobi", 2, params, &sc, &power, &on, NULL, 0, &idle_on);
    /* without a power description nothing reads the idle periods: none are
     * recorded, and the counts and timing are those of a run that does */
    CHECK(idle_off == 0 && idle_on > 1000000);
    CHECK(off.cycles == on.cycles && on.cycles > 0);
    CHECK(memcmp(&off.total, &on.total, sizeof off.total) == 0);
    CHECK(memcmp(off.events, on.events, sizeof off.events) == 0);
    CHECK(memcmp(&off.mem, &on.mem, sizeof off.mem) == 0);
    CHECK(!off.energy_valid && on.energy_valid);
    /* the breakdown adds up, and constant power is constant x time */
    double sum = 0;
    for (int p = 0; p < SIM_EN_COUNT; p++)
        sum += on.energy.j[p];
    CHECK_NEAR(sum, on.energy.total_j, 1e-12 * on.energy.total_j);
    CHECK_NEAR(on.energy.j[SIM_EN_CONSTANT], 11.0 * (double)on.cycles / 700e6, 1e-15);
    CHECK_NEAR(on.energy.j[SIM_EN_DYN_DRAM],
               26.9e-9 * (double)on.events[SIM_EV_DRAM_READ] +
                   15.9e-9 * (double)on.events[SIM_EV_DRAM_WRITE] +
                   4.2e-9 * (double)on.events[SIM_EV_DRAM_PRECHARGE],
               1e-15);
    /* tag-only probes (its L1D and L2 refuse requests): the tag array's
     * read each, 96.84 pJ (L1D) and 90.3 pJ (L2), as counted by the caches */
    CHECK(on.events[SIM_EV_L1_TAG_PROBE] == on.mem.l1.tag_probes && on.mem.l1.tag_probes > 0);
    CHECK(on.events[SIM_EV_L2_TAG_PROBE] == on.mem.l2.tag_probes);
    CHECK_NEAR(on.energy.j[SIM_EN_DYN_TAG],
               96.84e-12 * (double)on.mem.l1.tag_probes + 90.3e-12 * (double)on.mem.l2.tag_probes,
               1e-15);
    sim_kernel_stats_free(&off);
    sim_kernel_stats_free(&on);
}

/* Over the idle periods of one real run, the oracle's leakage is at most
 * that of every policy whose wake-ups are hidden, at every granularity;
 * and block level leaks less than bank level under Snooze. */
static void test_oracle_bound(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err = {0};
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.power = &power;
    opt.keep_idle = 1;
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    const sim_builtin *b = sim_builtin_find("matmul");
    long p[SIM_BUILTIN_MAX_PARAMS];
    char *params[] = {"n=128"};
    CHECK_OK(sim_builtin_params(b, 1, params, p, &err));
    sim_kernel *ks[4];
    int nk = 0;
    CHECK_OK(b->build(sim_gpu_config(g), p, ks, 4, &nk, &err));
    sim_kernel_stats st;
    CHECK_OK(sim_gpu_run(g, ks[0], &st, &err));
    sim_energy_input in = {.pw = &power, .clock_hz = 700e6, .n_sm = 15, .cycles = st.cycles,
                           .geo = sim_gpu_energy_geometry(g)};
    const sim_idle_hist *h = sim_gpu_idle(g, 0, NULL);
    for (int k = 0; k < SIM_UNIT_KIND_COUNT; k++)
        in.hist[k] = &h[k];
    double leak[TRAPEZE_PS_SLEEPABLE][2][SIM_SLEEP_KINDS];
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        for (int line = 0; line < 2; line++)
            for (int kind = 0; kind < SIM_SLEEP_KINDS; kind++) {
                sim_sleep_choice c = sim_gpu_sleep(g)->s[s];
                c.kind = (sim_sleep_kind)kind;
                c.line = line;
                c.p.lookahead = 4;    /* every wake-up hidden */
                sim_unit_kind u = sim_sleep_unit((trapeze_power_structure)s, line);
                leak[s][line][kind] = -1;
                if (sim_sleep_bind(&c, (trapeze_power_structure)s, &power, 700e6,
                                   in.geo->unit_leak_w[u], NULL))
                    continue;
                sim_sleep_result r;
                leak[s][line][kind] =
                    sim_energy_leak(&in, (trapeze_power_structure)s, &c, &r, NULL);
            }
    int compared = 0;
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        for (int line = 0; line < 2; line++) {
            double o = leak[s][line][SIM_SLEEP_ORACLE], on = leak[s][line][SIM_SLEEP_ALWAYS_ON];
            CHECK(o > 0 && o < on);
            for (int kind = 0; kind < SIM_SLEEP_KINDS; kind++)
                if (leak[s][line][kind] >= 0) {
                    CHECK(o <= leak[s][line][kind] * (1 + 1e-12));
                    compared++;
                }
        }
    CHECK(compared == 2 * (3 + 3 + 4));
    CHECK(leak[TRAPEZE_PS_L1D][1][SIM_SLEEP_SNOOZE] < leak[TRAPEZE_PS_L1D][0][SIM_SLEEP_SNOOZE]);
    CHECK(leak[TRAPEZE_PS_L2][1][SIM_SLEEP_SNOOZE] < leak[TRAPEZE_PS_L2][0][SIM_SLEEP_SNOOZE]);
    sim_kernel_stats_free(&st);
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

static void test_bad_policy(void)
{
    sim_sleep_config sc;
    trapeze_error err = {0};
    default_sleep(&sc);
    CHECK(sim_sleep_config_set(&sc, TRAPEZE_PS_RF, "snooze", &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "'snooze' is not one of always_on, drowsy, slumber, oracle"));
    CHECK(sim_sleep_config_set(&sc, TRAPEZE_PS_L2, "snooze:bank", &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "granularity 'bank' is not line or slice"));
    trapeze_config *cfg = NULL;
    CHECK_OK(trapeze_config_parse("-trapeze_sleep_rf napping\n", "x.config", &cfg, &err));
    CHECK(sim_sleep_config_read(cfg, &sc, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "x.config:1:") && strstr(err.message, "napping"));
    trapeze_config_destroy(cfg);
    /* a policy without a power description */
    CHECK_OK(sim_sleep_config_set(&sc, TRAPEZE_PS_RF, "slumber", &err));
    CHECK(sim_sleep_bind(&sc.s[TRAPEZE_PS_RF], TRAPEZE_PS_RF, NULL, 700e6, 0, &err) ==
          TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "needs a power description"));
}

/* The marked histogram: a period counts there when it began before the
 * mark in force at its end; a reset clears it, not the mark. Hand-made:
 * one L1 bank idle from cycle 0. */
static void test_mark(void)
{
    int units[SIM_UNIT_KIND_COUNT] = {0};
    units[SIM_UNIT_L1_BANK] = 1;
    sim_events *ev = sim_events_create(units);
    const sim_idle_hist *m = sim_events_marked_hist(ev, SIM_UNIT_L1_BANK);
    CHECK(total(m) == 0);                                 /* no mark yet: an empty one */
    sim_events_access(ev, SIM_UNIT_L1_BANK, 0, 10, SIM_NEXT_READ);    /* [0, 10) */
    CHECK(sim_events_set_mark(ev, 20) == 0);
    m = sim_events_marked_hist(ev, SIM_UNIT_L1_BANK);
    CHECK(total(m) == 0);                                 /* ended before the mark was set */
    sim_events_access(ev, SIM_UNIT_L1_BANK, 0, 30, SIM_NEXT_WRITE);   /* [11, 30): began before 20 */
    sim_events_access(ev, SIM_UNIT_L1_BANK, 0, 50, SIM_NEXT_READ);    /* [31, 50): after */
    CHECK(count(m, SIM_NEXT_WRITE, 19) == 1 && total(m) == 1);
    CHECK(total(sim_events_hist(ev, SIM_UNIT_L1_BANK)) == 3);
    sim_events_finish(ev, 60);                            /* [51, 60) dead, after the mark */
    CHECK(total(m) == 1);
    CHECK(sim_events_set_mark(ev, 100) == 0);
    sim_events_reset(ev, 70);                             /* idle from 70; the mark stays */
    CHECK(total(m) == 0);
    sim_events_finish(ev, 90);                            /* [70, 90) dead, began before 100 */
    CHECK(count(m, SIM_NEXT_DEAD, 20) == 1 && total(m) == 1);
    sim_events_destroy(ev);
}

/* Idle recording off: an access answers 0 without looking at its unit
 * (every unit is unallocated), records nothing and calls no wake hook;
 * on again (a reset at 0), the same access closes the period [0, 10). */
static int wakes;
static uint32_t count_wake(void *ctx, uint64_t length, sim_next_access next)
{
    (void)ctx;
    (void)length;
    (void)next;
    wakes++;
    return 7;
}

static void test_idle_off(void)
{
    int units[SIM_UNIT_KIND_COUNT] = {0};
    units[SIM_UNIT_L1_BANK] = 1;
    units[SIM_UNIT_L2_LINE] = 4;
    sim_events *ev = sim_events_create(units);
    sim_events_set_wake(ev, SIM_UNIT_L1_BANK, count_wake, NULL);
    sim_events_set_idle(ev, 0);
    CHECK(sim_events_access(ev, SIM_UNIT_L1_BANK, 0, 10, SIM_NEXT_READ) == 0);
    CHECK(sim_events_access(ev, SIM_UNIT_L2_LINE, 3, 20, SIM_NEXT_WRITE) == 0);
    CHECK(sim_events_idle_starts(ev, SIM_UNIT_L1_BANK)[0] == SIM_EV_UNALLOCATED);
    CHECK(total(sim_events_hist(ev, SIM_UNIT_L1_BANK)) == 0 && wakes == 0);
    sim_events_set_idle(ev, 1);
    CHECK(sim_events_access(ev, SIM_UNIT_L1_BANK, 0, 10, SIM_NEXT_READ) == 7);
    CHECK(count(sim_events_hist(ev, SIM_UNIT_L1_BANK), SIM_NEXT_READ, 10) == 1 && wakes == 1);
    sim_events_destroy(ev);
}

int main(void)
{
    trapeze_error err = {0};
    /* the seed profile: no transition energies, every figure by hand */
    if (trapeze_power_load("data/power/gtx480-seed.ini", &power, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    test_bins();
    test_one_warp();
    test_wake_stall();
    test_timing_unchanged();
    test_oracle_bound();
    test_bad_policy();
    test_mark();
    test_idle_off();
    return check_report("test_energy");
}
