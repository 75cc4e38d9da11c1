/*
 * jump_run.c - a jump sample's plan: at the first window's end, whether
 * jumping costs under half the run, or with a cap how many windows fit it
 * (sim_sleep_jump_here), then its later
 * windows and launch ends, latest first, and the histograms they stand for
 * (sim_sleep_run_jumps). Owns the plan and the weights; each window is
 * jump_window.c's, the geometry jump.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/sample/runs.h"
#include "sim/sim.h"

/* Warp instructions of a program kernel, counted by interpreting every
 * warp of every block (a spin loop taken once); 0 for another source. */
double sim_sleep_count_insts(const sim_kernel *k)
{
    if (k->source)
        return 0;
    sim_warp_cursor *cur = malloc(sizeof *cur);
    sim_warp_inst *in = malloc(sizeof *in);
    uint32_t regs[256];
    for (int r = 0; r < 256; r++)
        regs[r] = UINT32_MAX;   /* every spin loop's target reached: one trip */
    double n = 0;
    long blocks = sim_kernel_blocks(k);
    int warps = (sim_kernel_block_threads(k) + SIM_WARP_LANES - 1) / SIM_WARP_LANES;
    for (long b = 0; cur && in && b < blocks; b++) {
        int bx = (int)(b % k->grid.x), by = (int)((b / k->grid.x) % k->grid.y);
        int bz = (int)(b / ((long)k->grid.x * k->grid.y));
        for (int w = 0; w < warps; w++) {
            sim_program_source.warp_start(NULL, k, cur, bx, by, bz, w);
            while (sim_program_source.next(NULL, k, cur, regs, in))
                n++;
        }
    }
    free(cur);
    free(in);
    return n;
}

/* Trips of the kernel's first counted loop at depth 0 (block 0's), 1 when
 * it has none. */
long sim_sleep_outer_trips(const sim_kernel *k)
{
    if (k->source)
        return 1;
    int depth = 0;
    for (int i = 0; i < k->n_code; i++) {
        const sim_inst *in = &k->code[i];
        if (in->op == SIM_OP_LOOP) {
            if (depth == 0 && !(in->flags & SIM_INST_SPIN)) {
                sim_warp_cursor *cur = malloc(sizeof *cur);
                long t = 1;
                if (cur) {
                    sim_program_source.warp_start(NULL, k, cur, 0, 0, 0, 0);
                    int64_t v = sim_eval_uniform(k, cur, &in->trips);
                    t = v > 1 ? (long)v : 1;
                }
                free(cur);
                return t;
            }
            depth++;
        } else if (in->op == SIM_OP_ENDLOOP) {
            depth--;
        }
    }
    return 1;
}

/* The run's launches as a jump sample places windows in them (blocks,
 * blocks at once, outer trips, warp instructions), before the first window
 * runs: its work sizes the first window (SIM_JUMP_FIRST). */
void sim_sleep_jump_count(sim_jump_ctx *jc, sim_gpu *g, const sim_sleep_kernels *k)
{
    const sim_core_config *c = sim_gpu_config(g);
    jc->n = k->n;
    jc->n_sm = c->gpu.n_sm;
    jc->total_insts = 0;
    for (int x = 0; x < k->n; x++) {
        sim_jump_launch *L = &jc->launch[x];
        const char *why;
        int per_sm = sim_occupancy(c, k->ks[x], &why);
        if (x == 0)   /* a warm plan's one launch (sim_jump_block_life) */
            jc->per_sm = per_sm > 0 ? per_sm : 1;
        L->blocks = sim_kernel_blocks(k->ks[x]);
        L->concurrent = (long)c->gpu.n_sm * (per_sm > 0 ? per_sm : 1);
        if (L->concurrent > L->blocks)
            L->concurrent = L->blocks;
        L->trips = sim_sleep_outer_trips(k->ks[x]);
        L->insts = sim_sleep_count_insts(k->ks[x]);
        int regs = k->ks[x]->regs_per_thread < SIM_MAX_REGS ? k->ks[x]->regs_per_thread
                                                            : SIM_MAX_REGS;
        L->warp_regs = (double)L->blocks * regs *
                       ((sim_kernel_block_threads(k->ks[x]) + SIM_WARP_LANES - 1) / SIM_WARP_LANES);
        jc->total_insts += L->insts;
    }
}

/* The launch that end window e of `sampled` stands in, of the `ends`
 * launches from the first window's on (the last launch's always, the
 * others evenly). */
static int end_launch(int n, int ends, int sampled, int e)
{
    return n - 1 - (int)((double)e * ends / sampled);
}

/* A plan's cycles at the first window's rate (ipc): the first window (t),
 * `windows` later windows and `sampled` launch ends, each of which runs
 * from where its start can be placed (a persistent stencil's outer loop has
 * one trip per two stages: its end window may be half the run). */
static double plan_cycles(const sim_jump_ctx *jc, int ends, double t, double ipc, int windows,
                          int sampled, double scale)
{
    double planned = t + windows * (SIM_JUMP_WARM + SIM_JUMP_RECORD) * scale;
    for (int e = 0; e < sampled; e++) {
        const sim_jump_launch *L = &jc->launch[end_launch(jc->n, ends, sampled, e)];
        double g = L->insts > 0 ? 1 - (SIM_JUMP_WARM + SIM_JUMP_END) * scale * ipc / L->insts : 0;
        long fb, ft, conc = L->concurrent > 0 ? L->concurrent : 1, trips = L->trips > 1 ? L->trips : 1;
        sim_jump_start(L, g > 0 ? g : 0, &fb, &ft);
        double waves = (double)((L->blocks + conc - 1) / conc);
        double from = ((double)(fb / conc) * (double)trips + (double)ft) / (waves * (double)trips);
        planned += (1 - from) * L->insts / ipc;
    }
    return planned;
}

/* What sim_jump_fit prices: a plan of the run as the first window left it. */
typedef struct {
    const sim_jump_ctx *jc;
    int ends;
    double t, ipc;
} plan_price;

static double plan_cost(const void *ctx, int windows, int ends, double scale)
{
    const plan_price *p = ctx;
    return plan_cycles(p->jc, p->ends, p->t, p->ipc, windows, ends, scale);
}

/* The L1 frames' filled share in a cut capped plan: from the lines through
 * the L1s (sim_jump_l1_lines: the frames the first window touched, grown
 * with the run's work after it at its L1 reads' miss share) over the
 * frames the launch can fill (sim_sleep_frames_usable), not the job's
 * footprint over every frame. Not for a fence-mode stencil, whose stages
 * read the same footprint again (as for the L2, it counts once): grown
 * with the work, the V100's HotSpot 256² L1D saving fell to 85.77%
 * (simulated 93.58%). */
static double capped_l1_filled(const sim_jump_ctx *jc, sim_events *ev, int n_sm,
                               const sim_launch *l, double issued)
{
    sim_sleep_frames f;
    sim_sleep_frames_count(ev, SIM_UNIT_L1_LINE, n_sm, l->start,
                           sim_sleep_frames_usable(ev, SIM_UNIT_L1_LINE, n_sm, l->start), &f);
    double lines = sim_jump_l1_lines(f.touched, jc->total_insts / issued,
                                     (double)sim_events_get(ev, SIM_EV_L1_READ),
                                     (double)sim_events_get(ev, SIM_EV_L1_READ_HIT));
    return sim_sleep_frames_filled(&f, lines);
}

/* A warm plan where the job asks for one (jc->warm): the first window's
 * block life from its placements, and as many windows of a life of warm-up
 * and a life recorded as fit the cap's plan beside it, no launch end (the
 * launch's end is the one thing a warm window cannot reach). 0 where none
 * fits: the plan is then the fresh windows'. */
static int warm_plan(sim_jump_ctx *jc, double t, double run)
{
    const sim_jump_places *p = jc->places;
    double life = sim_jump_block_life(p->sm, p->cycle, p->n, jc->n_sm, jc->per_sm);
    int n = sim_jump_warm_windows(SIM_JUMP_BUDGET * jc->cap * run, t, life, SIM_JUMP_WINDOWS);
    jc->places->off = 1;
    if (n < 1) {
        jc->warm = 0;
        return 0;
    }
    jc->windows = n;
    jc->ends = 0;
    jc->warm_len = life;
    return 1;
}

/* The first window over and a jump planned (cut: fewer windows than the
 * whole plan): its open periods and the launch cut noted. */
static int first_window_done(sim_jump_ctx *jc, sim_gpu *g, const sim_sleep_kernels *k, int i,
                             sim_launch *l, double issued, int cut)
{
    sim_events *ev = sim_gpu_events(g);
    const sim_core_config *c = sim_gpu_config(g);
    jc->acc->footprint = sim_sleep_footprint_lines(k);
    jc->acc->l2_fills[0] = (double)sim_events_get(ev, SIM_EV_L2_FILL);
    jc->acc->l2_writes[0] = (double)sim_events_get(ev, SIM_EV_L2_WRITE);
    /* the first window's periods still open: their idle cycles so far */
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        const uint64_t *start = sim_events_idle_starts(ev, sim_sleep_units[u].kind);
        for (int x = 0; x < sim_events_units(ev, sim_sleep_units[u].kind); x++)
            if (start[x] != SIM_EV_UNALLOCATED && l->t > start[x])
                jc->acc->idle[0][u] += (double)(l->t - (start[x] > l->start ? start[x] : l->start));
        int n = sim_events_units(ev, sim_sleep_units[u].kind);
        if ((jc->acc->first_open[u] = malloc((n > 0 ? (size_t)n : 1) * sizeof(uint64_t))) && n > 0)
            memcpy(jc->acc->first_open[u], start, (size_t)n * sizeof(uint64_t));
        jc->acc->n_units[u] = n;
        sim_unit_kind kind = sim_sleep_units[u].kind;
        /* no launch end sampled: a frame no later window used is not
         * dead for that (sim_jump_refilled) */
        if (kind == SIM_UNIT_L2_LINE && jc->ends == 0)
            jc->acc->filled[u] = sim_jump_refilled(jc->acc->footprint, (double)n);
        else if (kind == SIM_UNIT_L1_LINE && cut && !k->persistent)   /* the L1s' lines */
            jc->acc->filled[u] = capped_l1_filled(jc, ev, c->gpu.n_sm, l, issued);
        else if (kind == SIM_UNIT_L2_LINE || kind == SIM_UNIT_L1_LINE)
            jc->acc->filled[u] = sim_sleep_filled_share(ev, kind,
                                                        kind == SIM_UNIT_L1_LINE ? c->gpu.n_sm : 1,
                                                        l->start, jc->acc->footprint, 0);
        jc->acc->first_start = l->start;
        jc->acc->first_end = l->t;
    }
    jc->jumped = 1;
    jc->cut_launch = i;
    jc->first_insts = issued;
    jc->first_cycles = (double)l->t;
    return 1;
}

/* Once the first window is over (at cycle t of launch l): whether a jump
 * sample is cheaper than simulating the run through, and if so the first
 * window's open periods (their idle cycles so far) and the launch cut. */
int sim_sleep_jump_here(sim_jump_ctx *jc, sim_gpu *g, const sim_sleep_kernels *k, int i,
                        sim_launch *l, double insts_before, double cycles_before)
{
    jc->decided = 1;
    if (!(jc->cap > 0))   /* capped: counted before the first window */
        sim_sleep_jump_count(jc, g, k);
    sim_events *ev = sim_gpu_events(g);
    double issued = insts_before + (double)sim_events_get(ev, SIM_EV_INST_ISSUE);
    const sim_core_config *c = sim_gpu_config(g);
    jc->acc->last_wave_frames = 0;
    for (int x = 0; x < k->n && !k->persistent; x++) {
        long b = sim_kernel_blocks(k->ks[x]), used = b < c->gpu.n_sm ? b : c->gpu.n_sm;
        double d = sim_sleep_last_wave_dead(k->ks[x], c->gpu.n_sm);
        double frames = (double)sim_events_units(ev, SIM_UNIT_L1_LINE) / c->gpu.n_sm * (double)used;
        if (jc->total_insts > 0 && d < 1)
            jc->acc->last_wave_frames += d / (1 - d) * frames * jc->launch[x].insts / jc->total_insts;
    }
    double t = (double)l->t;
    double ipc = issued / (t > 0 ? t : 1);
    double run = issued > 0 ? t * jc->total_insts / issued : 0;
    int ends = k->n - i, sampled = ends < SIM_JUMP_ENDS ? ends : SIM_JUMP_ENDS;
    (void)cycles_before;
    if (!(jc->total_insts > issued) || !(ipc > 0))
        return 0;
    /* uncapped: the whole plan where it costs under half the run, else the
     * run simulated through (the spread sample). Capped: the whole plan
     * within the cap, else the most windows that fit SIM_JUMP_BUDGET of it,
     * the later windows first (one at least), then the launch ends, the
     * windows shrunk by halves where none fits at full length (a short
     * run); where not even one fits so, the spread sample, with what the
     * least plan would cost (jc->smallest) */
    jc->windows = SIM_JUMP_WINDOWS;
    jc->ends = sampled;
    if (jc->warm && warm_plan(jc, t, run))
        return first_window_done(jc, g, k, i, l, issued, 1);
    double whole = plan_cycles(jc, ends, t, ipc, SIM_JUMP_WINDOWS, sampled, 1);
    if (!(jc->cap > 0) && !(whole < SIM_JUMP_DEAR * run))
        return 0;
    int cut = jc->cap > 0 && !(whole <= jc->cap * run);   /* fewer windows than the plan */
    if (cut) {
        plan_price p = {jc, ends, t, ipc};
        double scale = sim_jump_fit(plan_cost, &p, SIM_JUMP_WINDOWS, sampled,
                                    SIM_JUMP_BUDGET * jc->cap * run, &jc->windows, &jc->ends);
        if (!(scale > 0)) {   /* the run is the sample: what the least plan would cost */
            double least = 1.0 / (1 << SIM_JUMP_HALVINGS);
            jc->smallest = plan_cycles(jc, ends, t, ipc, 1, 0, least) / run;
            return 0;
        }
        jc->scale = scale;
    }
    return first_window_done(jc, g, k, i, l, issued, cut);
}

/* Warp instructions of launch L's last partial wave (0 where its blocks
 * fill whole waves, or one wave holds them all). */
static double partial_wave(const sim_jump_launch *L)
{
    long conc = L->concurrent > 0 ? L->concurrent : 1;
    if (L->blocks <= conc || L->blocks % conc == 0 || L->blocks < 1)
        return 0;
    return L->insts * (double)(L->blocks % conc) / (double)L->blocks;
}

/* The phases a capped plan without launch ends places its windows by:
 * the launches' last partial waves, where fewer blocks share the SMs and
 * a warp runs at another pace (GTX 480 matmul_tiled 256: its third wave of
 * 76 blocks issues 19.8 warp instructions a cycle, the second wave of 90
 * 15.0, the run 17.4), and the rest, the body. Two windows placed over the
 * whole run both fell in the second wave: the run taken 16% long, the
 * L1D's saving 4.3 points high. So, where two windows or more fit, one
 * goes to the last launch's partial wave and stands for every partial
 * wave after the first window (stratum 3), the others to the body
 * (stratum 1). (A single window is placed over the whole run as
 * uncapped: on GTX 480 kmeans, the one plan here with a single window
 * and a partial wave, the body ran as far from the run's pace as the
 * partial wave, 8.3 warp instructions a cycle against 4.1.) Returns the
 * launch of the last partial wave, -1 where there is none or the plan
 * keeps the uncapped sample's placement; their work to *tail. */
static int tail_launch(const sim_jump_ctx *jc, int sampled, double *tail)
{
    int last = -1;
    *tail = 0;
    if (!(jc->cap > 0) || sampled > 0)
        return -1;
    for (int x = jc->cut_launch; x < jc->n; x++)
        if (partial_wave(&jc->launch[x]) > 0) {
            *tail += partial_wave(&jc->launch[x]);
            last = x;
        }
    return last;
}

/* The place in the run (warp instructions from its start) of the place x
 * in its body (the work outside the launches' partial waves). */
static double body_to_run(const sim_jump_ctx *jc, double x)
{
    double at = 0;
    for (int i = 0; i < jc->n; i++) {
        double body = jc->launch[i].insts - partial_wave(&jc->launch[i]);
        if (x < body || i + 1 == jc->n)
            return at + (x < body ? x : body);
        x -= body;
        at += jc->launch[i].insts;
    }
    return at;
}

/* The place in the body of the place x in the run (the inverse of
 * body_to_run; a place in a partial wave goes to its launch's body's end). */
static double run_to_body(const sim_jump_ctx *jc, double x)
{
    double at = 0;
    for (int i = 0; i < jc->n && x > 0; i++) {
        double body = jc->launch[i].insts - partial_wave(&jc->launch[i]);
        at += x < body ? x : body;
        x -= jc->launch[i].insts;
    }
    return at;
}

/* A capped sample's register periods that end dead at warp exits its
 * windows did not see (sim_jump_dead_missing): how many the run has (every
 * warp register of every launch, once), how many the sample holds (those
 * in h so far, the long ones that ended dead, n_long, and the long open
 * ones taken for dead), their cycles, and the first window's dead periods
 * (first: its exits, exact). */
static void add_unseen_exits(const sim_jump_ctx *jc, const trapeze_idle_hist *first,
                             const double weight[SIM_JUMP_STRATA], double n_long,
                             trapeze_idle_hist *h)
{
    const sim_jump_acc *A = jc->acc;
    int u = 0;
    while (u + 1 < TRAPEZE_SLEEP_NUNITS && sim_sleep_units[u].kind != SIM_UNIT_REG)
        u++;
    double n_run = 0, n_have = n_long, mass = 0, first_n = 0, first_cycles = 0, cycles;
    for (int i = 0; i < jc->n; i++)
        n_run += jc->launch[i].warp_regs;
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        double len = trapeze_idle_bucket_length(b);
        n_have += h->count[TRAPEZE_NEXT_DEAD][b];
        mass += h->count[TRAPEZE_NEXT_DEAD][b] * len;
        first_n += first->count[TRAPEZE_NEXT_DEAD][b];
        first_cycles += first->count[TRAPEZE_NEXT_DEAD][b] * len;
    }
    for (int z = 0; z < SIM_JUMP_STRATA; z++) {
        n_have += weight[z] * A->pending_n[z][u][1] * (1 - A->filled[u]);
        mass += weight[z] * A->pending[z][u][1] * (1 - A->filled[u]);
    }
    double n = sim_jump_dead_missing(n_run, n_have, mass, first_n, first_cycles, &cycles);
    sim_jump_add_dead(h, n, cycles, SIM_JUMP_LONG * jc->scale);
}

/* A capped sample's L2 line periods that its later windows ended with a
 * refill the run does not make (sim_jump_refill_keep). A write-ended period
 * ends in a fill or a store, in each stratum's shares of the two while it
 * recorded (sim_jump_fill_share): the fills of the later windows (strata 1
 * and 3, as weighted, the long periods counted where they end included) are
 * cut to the footprint's lines the first window's fills did not fetch,
 * their cycles left to the long periods (the frame stays idle in the run,
 * where the line was fetched once); the stores are the run's (GTX 480
 * Poisson 256²: 2665 stores and 1319 fills in its later window). */
static void drop_refills(const sim_jump_ctx *jc,
                         trapeze_idle_hist (*first)[TRAPEZE_SLEEP_NUNITS],
                         const double weight[SIM_JUMP_STRATA], int u)
{
    sim_jump_acc *A = jc->acc;
    double have, later = 0, writes[SIM_JUMP_STRATA], share[SIM_JUMP_STRATA];
    for (int z = 0; z < SIM_JUMP_STRATA; z++) {
        share[z] = sim_jump_fill_share(A->l2_fills[z], A->l2_writes[z]);
        writes[z] = A->count[z][u][TRAPEZE_NEXT_WRITE] +
                    trapeze_idle_hist_periods(&A->hist[z][u], TRAPEZE_NEXT_WRITE);
    }
    have = trapeze_idle_hist_periods(&first[0][u], TRAPEZE_NEXT_WRITE) +
           trapeze_idle_hist_periods(&first[1][u], TRAPEZE_NEXT_WRITE);
    for (int z = 1; z < SIM_JUMP_STRATA; z += 2)
        later += weight[z] * share[z] * writes[z];
    double keep = sim_jump_refill_keep(A->footprint, (double)A->n_units[u], share[0] * have, later);
    for (int z = 1; keep < 1 && z < SIM_JUMP_STRATA; z += 2) {
        double k = 1 - share[z] * (1 - keep);   /* of the stratum's write-ended periods */
        A->count[z][u][TRAPEZE_NEXT_WRITE] *= k;
        for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
            double *n = &A->hist[z][u].count[TRAPEZE_NEXT_WRITE][b];
            A->exact[z][u] -= (1 - k) * *n * trapeze_idle_bucket_length(b);
            *n *= k;
        }
    }
}

/* The share of the later windows' short dead register periods to keep
 * (sim_jump_exit_keep; warm windows sim_jump_exit_hold): the run's warp
 * registers, each ending dead once;
 * the dead periods the rest of the sample holds (the first window's and
 * the launch ends' exact, the warp tails and every stratum's long dead
 * periods as weighted); the later windows' short ones as weighted by
 * work. */
static double later_exits_keep(const sim_jump_ctx *jc,
                               trapeze_idle_hist (*first)[TRAPEZE_SLEEP_NUNITS],
                               const double weight[SIM_JUMP_STRATA], int u)
{
    const sim_jump_acc *A = jc->acc;
    double n_run = 0, others = weight[2] * A->tail_n, seen = 0;
    for (int i = 0; i < jc->n; i++)
        n_run += jc->launch[i].warp_regs;
    for (int z = 0; z < SIM_JUMP_STRATA; z++)
        others += weight[z] * A->count[z][u][TRAPEZE_NEXT_DEAD];
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        others += first[0][u].count[TRAPEZE_NEXT_DEAD][b] +
                  first[2][u].count[TRAPEZE_NEXT_DEAD][b] +
                  weight[2] * A->hist[2][u].count[TRAPEZE_NEXT_DEAD][b] +
                  weight[3] * A->hist[3][u].count[TRAPEZE_NEXT_DEAD][b];
        seen += weight[1] * A->hist[1][u].count[TRAPEZE_NEXT_DEAD][b];
    }
    return jc->warm_len > 0 ? sim_jump_exit_hold(n_run, others, seen)
                            : sim_jump_exit_keep(n_run, others, seen);
}

/* The jump sample's later windows and launch ends, then the histograms:
 * the first window's periods, the later windows' weighted to stand for the
 * run's work after it less the ends', the ends' for every launch end after
 * the first window, and the long periods (count where they end, cycles
 * from the idle unit-cycles) split between the two buckets around their
 * mean length (sim_jump_add_long). */
trapeze_status sim_sleep_run_jumps(sim_jump_ctx *jc,
                                   trapeze_idle_hist (*first)[TRAPEZE_SLEEP_NUNITS],
                                   trapeze_sleep_run *out, trapeze_error *err)
{
    sim_jump_acc *A = jc->acc;
    trapeze_status s = TRAPEZE_OK;
    double ipc = jc->first_insts / (jc->first_cycles > 0 ? jc->first_cycles : 1);
    /* launch ends: the last launch's always, the others evenly */
    int ends = jc->n - jc->cut_launch;
    int sampled = ends < jc->ends ? ends : jc->ends;
    double cum[SIM_SLEEP_MAX_LAUNCHES + 1];
    cum[0] = 0;
    for (int x = 0; x < jc->n; x++)
        cum[x + 1] = cum[x] + jc->launch[x].insts;
    /* every window, latest in the run first: the launch ends sampled (the
     * last launch's always, the others evenly), the later windows */
    struct { double at; int launch, stratum; } win[SIM_JUMP_ENDS + SIM_JUMP_WINDOWS];
    int nw = 0;
    for (int e = 0; e < sampled; e++) {
        int i = end_launch(jc->n, ends, sampled, e);
        double left = (SIM_JUMP_WARM + SIM_JUMP_END) * jc->scale * ipc;
        double g = jc->launch[i].insts > 0 ? 1 - left / jc->launch[i].insts : 0;
        win[nw].at = cum[i] + (g > 0 ? g : 0) * jc->launch[i].insts;
        win[nw].launch = i;
        win[nw++].stratum = 2;
    }
    double tail_work;
    int tl = tail_launch(jc, sampled, &tail_work);
    int warm = jc->warm_len > 0;   /* the later windows ran warm (jump_warm.c) */
    jc->tail = tl >= 0 && jc->windows >= 2 && !warm;
    jc->tail_work = jc->tail ? tail_work : 0;
    if (jc->tail) {   /* the last partial wave (its middle trip, below) */
        win[nw].at = cum[tl + 1] - 0.5 * partial_wave(&jc->launch[tl]);
        win[nw].launch = tl;
        win[nw++].stratum = 3;
    }
    int rest = warm ? 0 : jc->windows - jc->tail;
    double body = jc->tail ? run_to_body(jc, jc->total_insts) : jc->total_insts;
    double from = (jc->tail ? run_to_body(jc, jc->first_insts) : jc->first_insts) / body;
    for (int w = rest - 1; w >= 0; w--) {
        double at = sim_jump_place(from, w, rest) * body;
        at = jc->tail ? body_to_run(jc, at) : at;
        int i = 0;
        while (i + 1 < jc->n && cum[i + 1] <= at)
            i++;
        win[nw].at = at;
        win[nw].launch = i;
        win[nw++].stratum = 1;
    }
    for (int a = 1; a < nw; a++)   /* latest first (stable) */
        for (int b = a; b > 0 && win[b].at > win[b - 1].at; b--) {
            __typeof__(win[0]) t = win[b];
            win[b] = win[b - 1];
            win[b - 1] = t;
        }
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++)
        if (!A->unused[u] && (A->unused[u] = malloc(A->n_units[u] > 0 ? (size_t)A->n_units[u] : 1)))
            memset(A->unused[u], 1, A->n_units[u] > 0 ? (size_t)A->n_units[u] : 1);
    for (int w = 0; !s && w < nw; w++) {
        const sim_jump_launch *L = &jc->launch[win[w].launch];
        long fb, ft;
        double g = L->insts > 0 ? (win[w].at - cum[win[w].launch]) / L->insts : 0;
        if (win[w].stratum == 3) {   /* the last wave, its middle trip */
            long conc = L->concurrent > 0 ? L->concurrent : 1;
            double waves = (double)((L->blocks + conc - 1) / conc);
            g = (waves - 0.5) / waves;
        }
        sim_jump_start(L, g, &fb, &ft);
        s = sim_sleep_jump_window(jc, win[w].launch, fb, ft, win[w].stratum, out, err);
    }
    if (s)
        return s;
    /* the first window's long open periods, now that the later uses are
     * known; long as the windows are (SIM_JUMP_LONG at their scale): a
     * capped first window on a short run is shorter than SIM_JUMP_LONG,
     * and at the unscaled length no period in any window of the sample was
     * long, so none was found dead (V100 kmeans --cap 0.25: the L2's idle
     * cycles 0% dead where the run has 97%, its saving 22.5 points low);
     * warm windows count them where they end */
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS && !warm; u++)
        for (int x = 0; A->first_open[u] && A->unused[u] && x < (int)A->n_units[u]; x++) {
            uint64_t y = A->first_open[u][x], t = A->first_end;
            y = y > A->first_start || y == SIM_EV_UNALLOCATED ? y : A->first_start;
            if (y != SIM_EV_UNALLOCATED && t > y && t - y > SIM_JUMP_LONG * jc->scale) {
                A->pending[0][u][A->unused[u][x]] += (double)(t - y);
                A->pending_n[0][u][A->unused[u][x]]++;
            }
        }
    _Static_assert(SIM_JUMP_STRATA == 4, "sim_jump_weights takes four strata");
    double w[SIM_JUMP_STRATA];
    sim_jump_weights(jc->total_insts, jc->first_insts, ends, A->windows[2], A->insts,
                     jc->tail_work, w);
    double w_mid = w[1], w_end = w[2], w_tail = w[3];
    out->cycles = jc->first_cycles + w_mid * A->cycles[1] + w_end * A->cycles[2] +
                  w_tail * A->cycles[3];
    out->recorded = jc->first_cycles + A->cycles[1] + A->cycles[2] + A->cycles[3];
    for (int u = 0; u < TRAPEZE_SLEEP_NUNITS; u++) {
        trapeze_idle_hist *h = &out->hist[u];
        /* the warp tails take their register-cycles from the later
         * windows, where every warp of a block ran (sim_jump_tail_cut) */
        double tails = sim_sleep_units[u].kind == SIM_UNIT_REG ? w_end * A->tail_mass : 0;
        double live_share = 1;
        if (tails > 0 && w_mid * A->idle[1][u] > 0) {
            live_share = 1 - tails / (w_mid * A->idle[1][u]);
            live_share = live_share > 0 ? live_share : 0;
        }
        double weight[SIM_JUMP_STRATA] = {1, w_mid * live_share, w_end, w_tail};
        /* a later window's first wave exits together (sim_jump_exit_keep):
         * its short dead register periods held to the run's warp exits */
        double keep1 = sim_sleep_units[u].kind == SIM_UNIT_REG
                           ? later_exits_keep(jc, first, weight, u) : 1;
        if (jc->cap > 0 && sim_sleep_units[u].kind == SIM_UNIT_L2_LINE)
            drop_refills(jc, first, weight, u);
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++)
                h->count[x][b] += first[0][u].count[x][b] + first[2][u].count[x][b] +
                                  weight[1] * (x == TRAPEZE_NEXT_DEAD ? keep1 : 1) *
                                      A->hist[1][u].count[x][b] +
                                  w_end * A->hist[2][u].count[x][b] +
                                  w_tail * A->hist[3][u].count[x][b];
        if (tails > 0)
            sim_jump_add_dead(h, w_end * A->tail_n, tails, SIM_JUMP_LONG * jc->scale);
        /* the long periods: counted where they end; their cycles split in
         * those of periods seen open and already long at a recording's end
         * (pending; dead in the share of such units a launch's end found
         * unused since its recording began, the rest live as the live long
         * periods that ended are) and the rest, split as the long periods
         * that ended in the recordings are, by number */
        double mass = 0, pend = 0, dead = 0, n = 0, live = 0, c[TRAPEZE_NEXT_N] = {0};
        for (int z = 0; z < SIM_JUMP_STRATA; z++) {
            mass += weight[z] * (A->idle[z][u] - A->exact[z][u]);
            pend += weight[z] * (A->pending[z][u][0] + A->pending[z][u][1]);
            dead += weight[z] * A->pending[z][u][1] * (1 - A->filled[u]);
            for (int x = 0; x < TRAPEZE_NEXT_N; x++)
                c[x] += weight[z] * A->count[z][u][x];
        }
        if (mass < 0)
            mass = 0;
        double q = pend > 0 ? dead / pend : 0;
        if (pend > mass)
            pend = mass;
        for (int x = 0; x < TRAPEZE_NEXT_N; x++)
            n += c[x];
        live = c[TRAPEZE_NEXT_READ] + c[TRAPEZE_NEXT_WRITE];
        double m[TRAPEZE_NEXT_N];
        for (int x = 0; x < TRAPEZE_NEXT_N; x++) {
            double share_live = live > 0 ? c[x] / live : x == TRAPEZE_NEXT_READ;
            m[x] = (n > 0 ? (mass - pend) * c[x] / n : 0) +
                   pend * (x == TRAPEZE_NEXT_DEAD ? q : (1 - q) * share_live);
            if (!(n > 0) && x == TRAPEZE_NEXT_DEAD)
                m[x] += mass - pend;
        }
        if (sim_sleep_units[u].kind == SIM_UNIT_L1_LINE && A->last_wave_frames > 0) {
            /* one dead period of the run's length per frame-run of the last wave */
            int b = trapeze_idle_bucket(out->cycles);
            if (b >= 0)
                h->count[TRAPEZE_NEXT_DEAD][b] += A->last_wave_frames;
        }
        if (warm && (sim_sleep_units[u].kind == SIM_UNIT_L1_LINE ||
                     sim_sleep_units[u].kind == SIM_UNIT_L2_LINE) && A->n_units[u] > 0) {
            /* the launch's end closes each frame's last period, dead, which
             * no warm window reaches: dead for the share of the run the
             * footprint's turnovers leave (sim_jump_refilled) */
            double frames = (double)A->n_units[u];
            double dead = 1 - sim_jump_refilled(A->footprint, frames);
            sim_jump_add_dead(h, frames, frames * out->cycles * dead, SIM_JUMP_LONG);
        }
        if (jc->cap > 0 && sim_sleep_units[u].kind == SIM_UNIT_REG)
            add_unseen_exits(jc, &first[0][u], weight, c[TRAPEZE_NEXT_DEAD], h);
        for (int x = 0; x < TRAPEZE_NEXT_N; x++) {
            double cx = c[x];
            if (m[x] > 0 && !(cx > 0))   /* cycles of a kind none of whose periods ended */
                cx = m[x] / (out->cycles > SIM_JUMP_LONG ? out->cycles : SIM_JUMP_LONG + 1);
            sim_jump_add_long(h, x, cx, m[x], SIM_JUMP_LONG * jc->scale);
        }
    }
    return TRAPEZE_OK;
}
