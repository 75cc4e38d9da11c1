/*
 * group_problem.c - a kernel's TB grouping problem on a GPU, where the
 * simulator meets the grouping model: the locality graph and the machine
 * (SMs, co-resident TBs, L1 and L2 lines) the model needs, the model's view
 * of each simulator policy's grouping, and simulations of one launch under
 * a policy or an explicit grouping (the samples and the ground truth).
 * The launch is a built-in kernel's or an Accel-Sim trace's (graph from the
 * trace's addresses, simulation streaming from its file).
 * Owns the joining only: the equations are model/'s, the dispatch sim/'s.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "sampler/sampler.h"
#include "common/text.h"
#include "sim/sim.h"
#include "sampler/group/dram_banks.h"

#define MAX_LAUNCHES 64

struct trapeze_group_problem {
    char gpu_path[512];
    char *cfg_text;                   /* the GPU config, to which a policy line is added */
    const sim_builtin *builtin;       /* NULL: an Accel-Sim trace */
    char trace[1024];                 /* its kernelslist.g */
    long p[SIM_BUILTIN_MAX_PARAMS];
    int launch;
    trapeze_locality_graph graph;
    trapeze_group_machine machine;
    double dram_stripe;               /* trapeze_group_problem_dram_stripe_bytes */
    int threads;                      /* each simulation's threads (0: one) */
};

void trapeze_group_problem_set_threads(trapeze_group_problem *pb, int threads)
{
    pb->threads = threads;
}

void trapeze_group_problem_destroy(trapeze_group_problem *pb)
{
    if (!pb)
        return;
    free(pb->cfg_text);
    trapeze_locality_graph_free(&pb->graph);
    free(pb);
}

const trapeze_locality_graph *trapeze_group_problem_graph(const trapeze_group_problem *pb)
{
    return &pb->graph;
}

const trapeze_group_machine *trapeze_group_problem_machine(const trapeze_group_problem *pb)
{
    return &pb->machine;
}

/* The GPU config with `-trapeze_tb_dispatch policy` (NULL: as is),
 * `-trapeze_tb_grouping file` (NULL: none) and `-trapeze_window_groups N`
 * (0: none) added. */
static trapeze_status config_with(const trapeze_group_problem *pb, const char *policy,
                                  const char *grouping_file, int window_groups,
                                  double warp_insts, trapeze_config **out, trapeze_error *err)
{
    size_t n = strlen(pb->cfg_text) + 384;
    char *text = malloc(n);
    if (!text)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    char win[128] = "";
    if (window_groups)   /* a short sample (the option is off in every shipped config) */
        snprintf(win, sizeof win, "-trapeze_window_groups %d", window_groups);
    if (warp_insts > 0)   /* a window of it */
        snprintf(win + strlen(win), sizeof win - strlen(win),
                 "\n-trapeze_window_warp_insts %.0f", warp_insts);
    snprintf(text, n, "%s\n%s%s\n%s%s\n%s\n", pb->cfg_text, policy ? "-trapeze_tb_dispatch " : "",
             policy ? policy : "", grouping_file ? "-trapeze_tb_grouping " : "",
             grouping_file ? grouping_file : "", win);
    trapeze_status s = trapeze_config_parse(text, pb->gpu_path, out, err);
    free(text);
    return s;
}

/* The launch's kernel: a built-in's built for the config's SMs, or a
 * trace's streaming from its file (opened anew for each run). */
typedef struct launch_handle {
    sim_kernel **ks;
    int nk;
    sim_trace_kernel *t;
    const sim_kernel *k;
} launch_handle;

static void close_launch(launch_handle *h)
{
    for (int i = 0; h->ks && i < h->nk; i++)
        sim_kernel_destroy(h->ks[i]);
    free(h->ks);
    sim_trace_kernel_close(h->t);
    memset(h, 0, sizeof *h);
}

static trapeze_status open_launch(const trapeze_group_problem *pb, const sim_core_config *core,
                                  launch_handle *h, trapeze_error *err)
{
    memset(h, 0, sizeof *h);
    trapeze_status s;
    if (!pb->builtin) {
        sim_trace_list l;
        if ((s = sim_trace_list_read(pb->trace, &l, err)))
            return s;
        if (pb->launch < 0 || pb->launch >= l.n)
            s = trapeze_fail(err, TRAPEZE_ERANGE, "%s: %d kernel%s, no launch %d", pb->trace,
                             l.n, l.n == 1 ? "" : "s", pb->launch);
        else if (!(s = sim_trace_kernel_open(l.kernels[pb->launch], &h->t, err)))
            h->k = sim_trace_kernel_sim(h->t);
        sim_trace_list_free(&l);
        return s;
    }
    if (!(h->ks = calloc(MAX_LAUNCHES, sizeof *h->ks)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    s = pb->builtin->build(core, pb->p, h->ks, MAX_LAUNCHES, &h->nk, err);
    if (!s && (pb->launch < 0 || pb->launch >= h->nk))
        s = trapeze_fail(err, TRAPEZE_ERANGE, "%s has %d launch%s, no launch %d",
                         pb->builtin->name, h->nk, h->nk == 1 ? "" : "es", pb->launch);
    if (!s)
        h->k = h->ks[pb->launch];
    return s;
}

/* The GPU's peak DRAM rate in 32-byte transfers per core cycle (the
 * config's channels, bus width and data rate over the core clock, the peak
 * the simulator's statistics measure bandwidth against): no launch moves
 * its data faster, so the whole launch's traffic at this rate is a floor
 * under its cycles. A streaming probe of the memory system reaches 92-97%
 * of it but moves with its length and address layout (the V100: 19.3, 21.1
 * and 15.3 reads a cycle at 512, 1,024 and 2,048 lines per SM), so the
 * floor takes the peak, which the simulated runs approach (the V100's
 * Jacobi 512^2 under k-way-TS: 94%). */
static double dram_rate(const sim_core_config *core)
{
    return core->gpu.core_clock_hz > 0
               ? core->gpu.dram_bandwidth_bps / core->gpu.core_clock_hz / 32
               : 0;
}

/* The GPU's peak L2 rate in accesses per core cycle: every slice (a
 * channel's sub-partition) takes one access a cycle of the L2's clock. The
 * GTX 480's Jacobi 512^2 trace under rr moves 10.5 a cycle through its 12
 * (178,416 L2 accesses in 16,998 cycles: `trapeze sim --csv`), the V100's
 * 30.5 through its 64. */
static double l2_rate(const sim_mem_config *mem)
{
    const double core = (double)mem->clock_khz[SIM_CLK_CORE];
    return core > 0 ? (double)mem->n_mem * mem->n_sub * (double)mem->clock_khz[SIM_CLK_L2] / core
                    : 0;
}

/* The bytes one row of every bank and channel holds: the address map's
 * bits below its lowest row bit, times the channels where dramid@N takes
 * them out before the map is read (the GTX 480's 64 KiB x 6, the V100's
 * 32 KiB x 32). */
static double dram_stripe(const sim_mem_config *mem)
{
    const uint64_t row = mem->map.mask[SIM_AM_ROW];
    if (!row)
        return 0;
    int low = 0;
    while (!(row >> low & 1))
        low++;
    return ldexp(1, low) * (mem->map.gap >= 0 ? mem->map.n_channel : 1);
}

double trapeze_group_problem_dram_stripe_bytes(const trapeze_group_problem *pb)
{
    return pb->dram_stripe;
}

trapeze_status trapeze_group_problem_with_launch(const trapeze_group_problem *pb,
                                                 trapeze_group_launch_fn fn, void *ctx,
                                                 trapeze_error *err)
{
    trapeze_config *cfg = NULL;
    sim_core_config core;
    sim_mem_config mem;
    launch_handle h;
    trapeze_status s = config_with(pb, NULL, NULL, 0, 0, &cfg, err);
    if (!s)
        s = sim_core_config_read(cfg, &core, err);
    if (!s)
        s = sim_mem_config_read(cfg, core.gpu.n_sm, &mem, err);
    if (!s) {
        if (!(s = open_launch(pb, &core, &h, err)))
            s = fn(ctx, h.k, &mem, err);
        close_launch(&h);
    }
    trapeze_config_destroy(cfg);
    return s;
}

/* SMs, occupancy, cache lines and the DRAM's peak rate as the simulator
 * sees them. */
static trapeze_status read_machine(trapeze_group_problem *pb, const trapeze_config *cfg,
                                   trapeze_error *err)
{
    sim_core_config core;
    sim_mem_config mem;
    trapeze_status s = sim_core_config_read(cfg, &core, err);
    if (s || (s = sim_mem_config_read(cfg, core.gpu.n_sm, &mem, err)))
        return s;
    launch_handle h;
    if (!(s = open_launch(pb, &core, &h, err))) {
        const char *why = "";
        int x = sim_occupancy(&core, h.k, &why);
        if (x < 1)
            s = trapeze_fail(err, TRAPEZE_ERANGE, "%s: one block does not fit on an SM (%s)",
                             h.k->name, why);
        pb->machine.n_sm = core.gpu.n_sm;
        pb->machine.by_elements = 1;   /* closer to L2 accesses (docs/grouping.md) */
        /* an L1 of whole lines misses whole lines to L2 and DRAM (the GTX
         * 480's one-SM Jacobi sub-grids read 4 sectors per line they
         * touch), a sectored one (or a sectored L2 where loads skip the
         * L1: the V100's) its sectors */
        const sim_cache_cfg *miss = mem.skip_l1d ? &mem.l2 : &mem.l1;
        pb->machine.dram_fetch_bytes = miss->sectored ? SIM_SECTOR_BYTES : miss->line;
        pb->machine.tbs_per_sm = x;
        double l1 = mem.skip_l1d ? 0 : (double)mem.l1.sets * mem.l1.assoc;
        pb->machine.l1_lines = l1 > 0 ? l1 : 1e-3;   /* no L1: nothing survives */
        pb->machine.l2_lines = (double)mem.l2.sets * mem.l2.assoc * mem.n_mem * mem.n_sub;
        if (!(pb->machine.l2_lines > 0))
            pb->machine.l2_lines = 1e-3;
        pb->machine.dram_reads_per_cycle = dram_rate(&core);
        /* a sector read moves a whole DRAM atom: the simulator's counters
         * give the GTX 480's copy 33,554,432 bytes for 524,288 reads */
        pb->machine.dram_read_transfers = mem.atom_bytes > 32 ? mem.atom_bytes / 32.0 : 1;
        pb->machine.l2_accesses_per_cycle = l2_rate(&mem);
        pb->dram_stripe = dram_stripe(&mem);
    }
    close_launch(&h);
    return s;
}

trapeze_status trapeze_group_problem_trace(const char *gpu_config_path, const char *kernelslist,
                                           int launch, trapeze_group_problem **out,
                                           trapeze_error *err)
{
    *out = NULL;
    trapeze_group_problem *pb = calloc(1, sizeof *pb);
    if (!pb)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    snprintf(pb->gpu_path, sizeof pb->gpu_path, "%s", gpu_config_path);
    snprintf(pb->trace, sizeof pb->trace, "%s", kernelslist);
    pb->launch = launch;
    trapeze_config *cfg = NULL;
    trapeze_status s = trapeze_read_file(gpu_config_path, &pb->cfg_text, err);
    if (!s)
        s = config_with(pb, NULL, NULL, 0, 0, &cfg, err);
    if (!s)
        s = trapeze_locality_trace(kernelslist, launch, &pb->graph, err);
    if (!s)
        s = read_machine(pb, cfg, err);
    trapeze_config_destroy(cfg);
    if (s) {
        trapeze_group_problem_destroy(pb);
        return s;
    }
    *out = pb;
    return TRAPEZE_OK;
}

trapeze_status trapeze_group_problem_builtin(const char *gpu_config_path, const char *kernel,
                                             char *const *params, int n_params, int launch,
                                             trapeze_group_problem **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_group_problem *pb = calloc(1, sizeof *pb);
    if (!pb)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    snprintf(pb->gpu_path, sizeof pb->gpu_path, "%s", gpu_config_path);
    pb->launch = launch;
    pb->builtin = sim_builtin_find(kernel);
    trapeze_status s = pb->builtin ? TRAPEZE_OK
                                   : trapeze_fail(err, TRAPEZE_EINVAL,
                                                  "no built-in kernel '%s' (trapeze sim --list names them)",
                                                  kernel);
    trapeze_config *cfg = NULL;
    if (!s)
        s = sim_builtin_params(pb->builtin, n_params, (char **)params, pb->p, err);
    if (!s)
        s = trapeze_read_file(gpu_config_path, &pb->cfg_text, err);
    if (!s)
        s = config_with(pb, NULL, NULL, 0, 0, &cfg, err);
    if (!s)
        s = trapeze_locality_builtin(cfg, kernel, params, n_params, launch, &pb->graph, err);
    if (!s)
        s = read_machine(pb, cfg, err);
    trapeze_config_destroy(cfg);
    if (s) {
        trapeze_group_problem_destroy(pb);
        return s;
    }
    *out = pb;
    return TRAPEZE_OK;
}

/* ------------------------------------------------------------ policies */

/* Group lists as the model's queues, placed as the simulator's PAVER
 * runtime places them at launch (sim/core/dispatch_groups.c): SM i takes
 * list i; each dispatch pass gives every SM with room (fewer than x
 * placed) its next block, an SM whose range is empty takes the next list
 * or, when none is left, steals from the tail of the SM with the most
 * waiting blocks (max - floor(mean) of them), until a pass places nothing.
 * What then waits in an SM's range joins its queue; lists never taken go
 * to SMs in turn. Without the stealing, a launch of 4 TBs in one MST-TS
 * list was predicted on one SM, four times rr's time, where the simulator
 * spreads it over four SMs. */
static trapeze_status lists_to_grouping(const sim_tb_groups *l, long n, int n_sm, int x,
                                        trapeze_grouping *out, trapeze_error *err)
{
    trapeze_status s = trapeze_grouping_alloc(out, n, n_sm, err);
    long *load = calloc((size_t)n_sm, sizeof *load), *next = calloc((size_t)n_sm, sizeof *next);
    long *tail = calloc((size_t)n_sm, sizeof *tail);
    if (!s && (!load || !next || !tail))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    int taken = 0;
    for (int i = 0; !s && i < n_sm && taken < l->n_groups; i++, taken++) {
        next[i] = l->gstart[taken];
        tail[i] = l->gstart[taken + 1];
    }
    for (int placed = 1, first = 0; !s && placed;) {
        placed = 0;
        const int pass_first = first;   /* read once a pass, as dispatch() does */
        for (int k = 0; k < n_sm; k++) {
            int sm = (pass_first + k) % n_sm;
            if (load[sm] >= x)
                continue;
            while (next[sm] == tail[sm] && taken < l->n_groups) {
                next[sm] = l->gstart[taken];
                tail[sm] = l->gstart[++taken];
            }
            if (next[sm] == tail[sm]) {   /* steal, as dispatch_groups.c */
                long most = 0, sum = 0;
                int donor = -1;
                for (int i = 0; i < n_sm; i++) {
                    long w = tail[i] - next[i];
                    if (w > most) {
                        most = w;
                        donor = i;
                    }
                    sum += w;
                }
                long count = most - sum / n_sm;
                if (donor >= 0 && count >= 1) {
                    tail[sm] = tail[donor];
                    tail[donor] -= count;
                    next[sm] = tail[donor];
                }
            }
            if (next[sm] == tail[sm])
                continue;
            long b = l->ids[next[sm]++];
            out->group[b] = sm;
            out->order[b] = load[sm]++;
            placed = 1;
            first = (sm + 1) % n_sm;
        }
    }
    for (int sm = 0; !s && sm < n_sm; sm++)   /* waiting in the SMs' ranges */
        for (long i = next[sm]; i < tail[sm]; i++) {
            out->group[l->ids[i]] = sm;
            out->order[l->ids[i]] = load[sm]++;
        }
    for (int k = taken; !s && k < l->n_groups; k++)   /* lists not taken yet */
        for (long i = l->gstart[k]; i < l->gstart[k + 1]; i++) {
            out->group[l->ids[i]] = k % n_sm;
            out->order[l->ids[i]] = load[k % n_sm]++;
        }
    free(load);
    free(next);
    free(tail);
    if (s)
        trapeze_grouping_free(out);
    return s;
}

trapeze_status trapeze_group_problem_policy_grouping(const trapeze_group_problem *pb,
                                                     const trapeze_group_model *m,
                                                     const char *policy, trapeze_grouping *out,
                                                     trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    int pol = trapeze_tb_policy_find(policy);
    if (pol == TRAPEZE_TB_RR)
        return trapeze_group_rr(m, out, err);
    if (pol == TRAPEZE_TB_BCS)
        return trapeze_group_bcs(m, out, err);
    if (pol != TRAPEZE_TB_MST && pol != TRAPEZE_TB_KWAY && pol != TRAPEZE_TB_RBTS) {
        char fixed[128];
        trapeze_tb_policy_list(TRAPEZE_TB_FIXED, ", ", ", ", fixed, sizeof fixed);
        return trapeze_fail(err, TRAPEZE_EINVAL,
                            "policy '%s' has no fixed grouping the model can predict (%s do)",
                            policy, fixed);
    }
    sim_locality_adj a;
    sim_tb_groups l;
    const trapeze_group_machine *mc = &pb->machine;
    trapeze_status s = sim_locality_adj_build(&pb->graph, &a, err);
    if (s)
        return s;
    s = pol == TRAPEZE_TB_MST    ? sim_locality_mst_ts(&a, mc->n_sm, mc->tbs_per_sm, &l, err)
        : pol == TRAPEZE_TB_KWAY ? sim_locality_kway_ts(&a, mc->n_sm, &l, err)
                                 : sim_locality_rb_ts(&a, mc->tbs_per_sm, &l, err);
    sim_locality_adj_free(&a);
    if (s)
        return s;
    s = lists_to_grouping(&l, pb->graph.n_tbs, mc->n_sm, mc->tbs_per_sm, out, err);
    sim_tb_groups_free(&l);
    return s;
}

/* ------------------------------------------------------------ simulation */

trapeze_status trapeze_group_problem_simulate(const trapeze_group_problem *pb, const char *policy,
                                              const trapeze_grouping *grouping,
                                              trapeze_group_measured *out, trapeze_error *err)
{
    return trapeze_group_problem_simulate_window(pb, policy, grouping, 0, 0, out, err);
}

trapeze_status trapeze_group_problem_simulate_window(const trapeze_group_problem *pb,
                                                     const char *policy,
                                                     const trapeze_grouping *grouping,
                                                     int window_groups, double warp_insts,
                                                     trapeze_group_measured *out,
                                                     trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    char path[64] = "";
    trapeze_status s = TRAPEZE_OK;
    if (grouping) {   /* the explicit policy reads a file: a private temporary one */
        if ((s = sampler_grouping_tempfile(grouping, path, err)))
            return s;
        policy = trapeze_tb_policies[TRAPEZE_TB_EXPLICIT].name;
    }
    trapeze_config *cfg = NULL;
    sim_gpu *g = NULL;
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.tb_grouping = grouping ? path : NULL;
    opt.threads = pb->threads;
    launch_handle h;
    memset(&h, 0, sizeof h);
    if (!s)
        s = config_with(pb, policy, grouping ? path : NULL, window_groups, warp_insts, &cfg,
                        err);
    if (!s)
        s = sim_gpu_create(cfg, &opt, &g, err);
    if (!s)
        s = open_launch(pb, sim_gpu_config(g), &h, err);
    sim_kernel_stats st;
    memset(&st, 0, sizeof st);
    if (!s)
        s = sim_gpu_run(g, h.k, &st, err);
    if (!s && h.t)   /* an error met while streaming the trace fails the run */
        s = sim_trace_kernel_status(h.t, err);
    if (!s) {
        out->cycles = (double)st.cycles;
        out->l2_accesses = (double)st.mem.l2.reads;
        out->dram_reads = (double)st.mem.dram_reads;
        out->l1_hits = (double)st.mem.l1.hits;
        out->warp_instructions = (double)st.total.warp_insts;
        out->stolen_blocks = (double)st.stolen_blocks;
    }
    sim_kernel_stats_free(&st);
    close_launch(&h);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    if (path[0])
        remove(path);
    return s;
}

trapeze_status sampler_grouping_tempfile(const trapeze_grouping *g, char *path,
                                         trapeze_error *err)
{
    snprintf(path, 64, "/tmp/trapeze-grouping-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return trapeze_fail(err, TRAPEZE_EIO, "cannot create a temporary grouping file");
    close(fd);
    trapeze_status s = trapeze_grouping_save(path, g, err);
    if (s)
        remove(path);
    return s;
}
