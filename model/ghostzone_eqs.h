/*
 * ghostzone_eqs.h - Eqs. 5.1-5.30 of the ghost-zone model, written once over
 * a dual number and compiled once per dual width (model/ghostzone.c includes
 * this file once per width; it has no include guard on purpose): with lanes
 * for the parameters an evaluation reads, for the calibration fit's
 * Jacobian, and with d/dh and d/dblk_len only for the optimizer and every
 * value-only caller, which would otherwise pay for the parameters' lanes to
 * use 2 (the lanes of a dual are computed independently, so every width
 * gives the same bits in the value, d/dh, d/dblk_len and each parameter's
 * partial; tests/test_ghostzone.c compares them).
 *
 * The includer defines GZ_DUAL (a dual type of model/dual.h), GZ_DUAL_OP(op)
 * (its operations' names), GZ_EQ(name) (the instance's name of each
 * function and type here) and GZ_EQ_PARAMS (1: the parameters given a lane
 * are variables; 0: every parameter is a constant). Owns the equations
 * only: no files, no optimizing, no simulator; what depends on the workload
 * and GPU alone is computed once per model (gz_fixed_terms).
 */
#define gz_dual GZ_DUAL
#define dual_const GZ_DUAL_OP(const)
#define dual_var GZ_DUAL_OP(var)
#define dual_add GZ_DUAL_OP(add)
#define dual_sub GZ_DUAL_OP(sub)
#define dual_mul GZ_DUAL_OP(mul)
#define dual_div GZ_DUAL_OP(div)
#define dual_scale GZ_DUAL_OP(scale)
#define dual_powi GZ_DUAL_OP(powi)
#define dual_pow GZ_DUAL_OP(pow)
#define gz_vars GZ_EQ(gz_vars)
#define gz_terms GZ_EQ(gz_terms)
#define make_vars GZ_EQ(make_vars)
#define param GZ_EQ(param)
#define tile_elements GZ_EQ(tile_elements)
#define tau_factor GZ_EQ(tau_factor)
#define at_whole_tiles GZ_EQ(at_whole_tiles)
#define resident_per_sm GZ_EQ(resident_per_sm)
#define mem_cycles GZ_EQ(mem_cycles)
#define row_cost GZ_EQ(row_cost)
#define memory_terms GZ_EQ(memory_terms)
#define barrier_arrivals GZ_EQ(barrier_arrivals)
#define barrier_wait GZ_EQ(barrier_wait)
#define fence_barrier GZ_EQ(fence_barrier)
#define turnaround GZ_EQ(turnaround)
#define busiest_rounds GZ_EQ(busiest_rounds)
#define staging_wait GZ_EQ(staging_wait)
#define spin_share GZ_EQ(spin_share)
#define spin_staging_wait GZ_EQ(spin_staging_wait)
#define compute_terms GZ_EQ(compute_terms)
#define overlap_factor GZ_EQ(overlap_factor)
#define lone_round_floor GZ_EQ(lone_round_floor)
#define round_wait GZ_EQ(round_wait)
#define compute_tiles GZ_EQ(compute_tiles)
#define combine GZ_EQ(combine)
#define gz_equations GZ_EQ(gz_equations)

/* Everything one evaluation needs: h and blk_len as duals, the parameters'
 * values and lanes (lane[i]: parameter i's lane, or -1: a constant, which
 * the equations do not read in this evaluation, or GZ_EQ_PARAMS is 0). */
typedef struct {
    gz_dual h, blk;
    const double *params;
    const signed char *lane;
} gz_vars;

static void make_vars(gz_vars *v, const double *params, const signed char *lane, double h, double blk)
{
    v->h = dual_var(h, GZ_VAR_H);
    v->blk = dual_var(blk, GZ_VAR_BLK);
    v->params = params;
    v->lane = lane;
}

/* Parameter k as a dual, made where it is read: the 17 of them made up
 * front cost more stores than the rest of an evaluation at width 2. */
static inline gz_dual param(const gz_vars *v, int k)
{
    return GZ_EQ_PARAMS && v->lane[k] >= 0 ? dual_var(v->params[k], v->lane[k]) : dual_const(v->params[k]);
}

/* prod_i (blk - HaloWidth_i * k), the tile edge after k loops (5.3, 5.9, 5.10). */
static gz_dual tile_elements(const trapeze_workload *w, gz_dual blk, gz_dual k)
{
    gz_dual r = dual_const(1.0);
    for (int i = 0; i < w->dims; i++)
        r = dual_mul(r, dual_sub(blk, dual_scale(k, w->halo[i])));
    return r;
}

/* tau of 5.11, or 1 in paper mode (5.15/5.16 as printed). */
static gz_dual tau_factor(const trapeze_ghostzone_model *m, const gz_vars *v)
{
    if (!m->tau)
        return dual_const(1.0);
    gz_dual one_minus_beta = dual_sub(dual_const(1.0), param(v, TRAPEZE_GHOSTZONE_BETA));
    return dual_scale(one_minus_beta, 1.0 + m->work.bank_conflict_rate);
}

typedef struct {
    gz_dual trapezoids, passes, participants;
    gz_dual in_tile, loop_tile; /* blk^D and prod(blk - w_i): memory and compute both use them */
    gz_dual stage[TRAPEZE_GHOSTZONE_NCOMPONENTS];
    double per_loop[TRAPEZE_GHOSTZONE_NCOMPONENTS]; /* values only: no caller reads their partials */
    gz_dual per_iter; /* IterComp of one tile-iteration at the issue rate (5.16 / h) */
    gz_dual round_misc; /* with round_setup: fence MiscComp's setup share, paid a round, not a tile */
    gz_dual cps, cpl;
} gz_terms;

/* The whole-tiles extension applies at whole heights only, so that the
 * continuous optimizer still sees Meng's smooth T between them. */
static int at_whole_tiles(const trapeze_ghostzone_model *m, const gz_vars *v)
{
    return m->params.whole_tiles && v->h.v == floor(v->h.v) && v->blk.v == floor(v->blk.v);
}

/* Resident blocks per SM: as the occupancy rule gives it, or the parameter. */
static gz_dual resident_per_sm(const trapeze_ghostzone_model *m, const gz_vars *v)
{
    if (!m->params.occupancy)
        return param(v, TRAPEZE_GHOSTZONE_BLOCKS_PER_SM);
    int b = (int)floor(v->blk.v);
    int r = b == m->fixed.occupancy_blk ? m->fixed.occupancy
                                        : trapeze_ghostzone_occupancy(&m->gpu, &m->work, b);
    return dual_const(r < 1 ? 1 : r);
}

/* 5.7's MemCycles from its two parts: Meng's sum, or with mem_latency a
 * smooth maximum of the two, (L^q + B^q)^(1/q): a round of resident blocks
 * that waits on its loads costs a latency whether its bytes are few or
 * many (Little's law: more resident blocks, fewer rounds), and only past
 * the bandwidth's time do bytes set the pace. Smooth, not max(), so that
 * a fit starting on the bandwidth side still sees the latency's gradient
 * (with max() it stayed at its start). When either is 0 the norm is the
 * other, value and gradient (the norm's partial in a zero side is 0; pow
 * would make it 0 x log 0). */
#define MEM_LATENCY_NORM 4.0
static gz_dual mem_cycles(const trapeze_ghostzone_model *m, gz_dual latency, gz_dual bandwidth)
{
    if (!m->params.mem_latency)
        return dual_add(latency, bandwidth);
    if (!(latency.v > 0))
        return bandwidth;
    if (!(bandwidth.v > 0))
        return latency;
    gz_dual q = dual_const(MEM_LATENCY_NORM);
    return dual_pow(dual_add(dual_pow(latency, q), dual_pow(bandwidth, q)),
                    dual_const(1.0 / MEM_LATENCY_NORM));
}

static gz_dual row_cost(const trapeze_ghostzone_model *m, gz_dual row)
{
    double fetched = m->params.row_lines ? row_segment_elements(&m->gpu, &m->work, row.v) : 0;
    return fetched > 0 ? dual_div(dual_const(fetched), row) : dual_const(1.0);
}

static void memory_terms(const trapeze_ghostzone_model *m, const gz_vars *v, gz_terms *t)
{
    const trapeze_workload *w = &m->work;
    const trapeze_gpu *g = &m->gpu;
    gz_dual one = dual_const(1.0);
    gz_dual volume = dual_const(m->fixed.volume);
    gz_dual out_tile = tile_elements(w, v->blk, v->h);             /* prod(blk - w_i h) */
    gz_dual loop_tile = tile_elements(w, v->blk, one);             /* prod(blk - w_i)   */
    gz_dual in_tile = dual_powi(v->blk, w->dims);                  /* blk^D             */
    gz_dual T = dual_div(volume, out_tile);                        /* 5.3 */
    if (at_whole_tiles(m, v))
        T = dual_const(launched_tiles(w, v->blk.v, v->h.v));
    gz_dual concurrent = dual_scale(resident_per_sm(m, v), g->n_sm); /* 5.5 */
    gz_dual passes = dual_div(T, concurrent);                       /* 5.6 */
    if (m->params.waves && at_whole_tiles(m, v))
        passes = dual_const(ceil(passes.v - 1e-9)); /* the partial last wave is a whole one */
    /* 5.7: MemCycles(n) = passes*UL + alpha*n*x*Clock/BW, alpha = sigma^(D-1).
     * With row_penalty, alpha = sigma once the rows are not contiguous (D >= 2):
     * a 3-D tile is more rows of the same length, not rows costlier per element,
     * and sigma^2 fitted on 2-D grids over-priced a memory-bound 3-D star by 50-68% */
    int penalty_dims = m->params.row_penalty && w->dims > 2 ? 1 : w->dims - 1;
    gz_dual alpha = dual_powi(param(v, TRAPEZE_GHOSTZONE_SIGMA), penalty_dims);
    gz_dual per_elem = dual_div(dual_scale(alpha, m->fixed.bytes_cycles),
                                param(v, TRAPEZE_GHOSTZONE_BW_FRACTION)); /* achieved, not peak, bandwidth */
    gz_dual latency = dual_mul(passes, param(v, TRAPEZE_GHOSTZONE_UNCONTENDED_LAT));
    /* with row_lines, each term's rows pay the segments they touch: the
     * staged tile's rows are blk long, the committed ones blk - w_0 h, a
     * loop's blk - w_0 */
    gz_dual load_rows = row_cost(m, v->blk);
    gz_dual commit_rows = row_cost(m, dual_sub(v->blk, dual_scale(v->h, w->halo[0])));
    gz_dual loop_rows = row_cost(m, dual_sub(v->blk, dual_const(w->halo[0])));
#define MEM_CYCLES(n, rows) mem_cycles(m, latency, dual_mul(dual_mul(per_elem, (rows)), (n)))
    /* 5.8; of the T blk^D staged elements, those beyond the grid's V are
     * ghost zones a neighbour loads too: rho of a DRAM read each */
    gz_dual staged = dual_mul(T, in_tile);
    if (staged.v > volume.v) /* written so that rho = 1 adds exactly 0 (Meng to the bit) */
        staged = dual_add(staged, dual_mul(dual_sub(param(v, TRAPEZE_GHOSTZONE_HALO_REREAD), dual_const(1.0)),
                                           dual_sub(staged, volume)));
    t->stage[TRAPEZE_GHOSTZONE_LOADSTEN] = dual_scale(MEM_CYCLES(staged, load_rows), w->stencil_arrays);
    t->stage[TRAPEZE_GHOSTZONE_COMMIT] = MEM_CYCLES(dual_mul(T, out_tile), commit_rows);                   /* 5.9 */
    /* 5.10; with loop_reread, of a loop's T prod(blk - w_i) extra loads those
     * beyond the grid's V are a neighbour's too: rho_L of a DRAM read each.
     * With loop_once they cost no DRAM time: the neighbour loading the same
     * elements runs in the same round, so they hit the caches, and a loop
     * moves the grid once (PathFinder's simulated CPL falls from h = 15 to
     * 31 where T prod(blk - w_i) grows 9%) */
    gz_dual looped = dual_mul(T, loop_tile);
    if (m->params.loop_once && looped.v > volume.v)
        looped = volume;
    else if (m->params.loop_reread && looped.v > volume.v)
        looped = dual_add(looped, dual_mul(dual_sub(param(v, TRAPEZE_GHOSTZONE_LOOP_REREAD), dual_const(1.0)),
                                           dual_sub(looped, volume)));
    t->stage[TRAPEZE_GHOSTZONE_ITERMEM] = dual_mul(dual_scale(v->h, w->elem_per_op),
                                                   MEM_CYCLES(looped, loop_rows));
#undef MEM_CYCLES
    t->trapezoids = T;
    t->passes = passes;
    t->in_tile = in_tile;
    t->loop_tile = loop_tile;
    /* blocks meeting at a fence barrier: every trapezoid (5.18), or those of
     * the persistent kernel, which holds only what is resident at once */
    t->participants = T;
    if (m->params.persistent_fence && T.v > concurrent.v)
        t->participants = concurrent;
}

/* 5.18 with the fit's intercept, a participant's cost and the polling
 * contention among participants: mu (delta + F P + poll P^2), increasing in
 * P whenever the three are >= 0. With barrier_max, the larger of the two
 * parts, smoothly, mu sqrt(delta^2 + (F P + poll P^2)^2): a barrier waits
 * for its round trip, or for its P arrivals serialized at one counter in
 * the L2, whichever is longer. The V100's barrier alone (the fencebar
 * micro-benchmark) is 490, 570, 795, 1395, 2640 and 5200 cycles for 80 to
 * 2560 blocks: flat, then 2 cycles a block; a sum cannot be both. */
static gz_dual barrier_arrivals(const gz_vars *v, gz_dual participants)
{
    gz_dual per_block = dual_add(param(v, TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK),
                                 dual_mul(param(v, TRAPEZE_GHOSTZONE_FENCE_POLL), participants));
    return dual_mul(per_block, participants);
}

/* The barrier of `arrivals` without mu: their sum with the round trip, or
 * with barrier_max their smooth maximum. */
static gz_dual barrier_wait(const trapeze_ghostzone_model *m, const gz_vars *v, gz_dual arrivals)
{
    gz_dual round_trip = param(v, TRAPEZE_GHOSTZONE_FENCE_BARRIER);
    gz_dual cost = dual_add(arrivals, round_trip);
    if (m->params.barrier_max && cost.v > 0)
        cost = dual_pow(dual_add(dual_mul(round_trip, round_trip), dual_mul(arrivals, arrivals)),
                        dual_const(0.5));
    return cost;
}

static gz_dual fence_barrier(const trapeze_ghostzone_model *m, const gz_vars *v, gz_dual participants)
{
    return dual_mul(param(v, TRAPEZE_GHOSTZONE_MU), barrier_wait(m, v, barrier_arrivals(v, participants)));
}

/* With round_staging, what a fence stage waits beside its barrier: the
 * busiest SM's rounds, ceil(n / k) at a whole h, each one unloaded latency
 * L (the chase micro-benchmark's, held as turnaround_cycles). The
 * persistent blocks leave the barrier, and a round's last commit, together
 * and all stage their next tiles at once, so the SM has nothing to issue
 * while those loads are out; the relaunch kernel's blocks start as others
 * retire, and its once-a-stage share is relaunch_cycles'. PathFinder's
 * simulated fence stage is a + b h with a = 2,206 / 5,182 cycles (GTX 480 /
 * V100) where the barrier and staging terms give 1,368 / 3,086. Between
 * whole heights the rounds are the passes, at least one. No constant. */
/* The busiest SM's rounds: ceil(n / k) at a whole h, else the passes, at least one. */
static gz_dual busiest_rounds(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t)
{
    gz_dual k = resident_per_sm(m, v);
    gz_dual rounds = t->passes;
    if (at_whole_tiles(m, v))
        rounds = dual_const(ceil(ceil(t->trapezoids.v / m->gpu.n_sm - 1e-9) / k.v - 1e-9));
    else if (rounds.v < 1)
        rounds = dual_const(1.0);
    return rounds;
}

/* round_staging's wait: L for each of those rounds. */
static gz_dual staging_wait(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t)
{
    return dual_scale(busiest_rounds(m, v, t), m->params.turnaround_cycles);
}

/* In fence mode, a S / (k M): S = k M - r the persistent blocks that have
 * finished their tiles and poll the barrier's counter while the r tiles of
 * the last round run, a the share of the k M blocks' barrier that is their
 * arrivals serialized at the counter (the fencebar constants). 0 without a
 * partial round or where arrivals never queue (the GTX 480), and 0 where
 * T <= k M: the persistent grid is then T blocks, one tile each, and none
 * finishes early to spin (counted as k M - T spinners, V100 PathFinder at
 * 68,348 points, h = 2, 320 tiles on 640, went from +19.4% to +33.0%). */
static gz_dual spin_share(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t, double k)
{
    double resident = k * m->gpu.n_sm, r = fmod(t->trapezoids.v, resident);
    gz_dual arrivals = barrier_arrivals(v, dual_const(resident));
    gz_dual cost = barrier_wait(m, v, arrivals);
    if (!(t->trapezoids.v > resident && r > 0 && arrivals.v > 0 && cost.v > 0))
        return dual_const(0.0);
    return dual_scale(dual_div(arrivals, cost), (resident - r) / resident);
}

/* With spin_staging, in fence mode, what the partial round's staging waits
 * behind the spinners' polls: its stencil_arrays loads and its commit, one
 * round trip each, wait L a S / (k M) more (round_spin's share, on the
 * loads outside the loop that round_spin's loop loads leave out). Multi1D
 * (no loads in its loop) on the V100 at 158,720 points: the fence stage
 * with a partial round runs 792-3,491 cycles above the round_spin refit
 * (h = 2 to 22, S = 576-1,237 spinners), and 267 below it at h = 1 (T = k M,
 * nothing spins). Beside the barrier, outside the overlap, at whole heights
 * only (S steps with T); no constant. */
static gz_dual spin_staging_wait(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t)
{
    if (!at_whole_tiles(m, v))
        return dual_const(0.0); /* as round_wait: between whole heights the optimizer sees Meng's T */
    gz_dual share = spin_share(m, v, t, resident_per_sm(m, v).v);
    return dual_scale(share, (m->work.stencil_arrays + 1) * m->params.turnaround_cycles);
}

/* A relaunched block retires only when its stores are acknowledged, and
 * its successor waits on its first loads: one unloaded round trip a tile
 * (the chase micro-benchmark's latency). The SM's other k - 1 resident
 * blocks issue a tile's compute each meanwhile, so only what they leave
 * is exposed, max(0, turnaround - (k - 1) CPT): the whole of it with one
 * resident block (a 13-point star of radius 3 on 32x32 blocks, where the
 * simulated relaunch costs 295 cycles a tile beyond the model and fences),
 * none for every calibrated workload (3 or more blocks of hundreds of
 * cycles each). Called once MiscComp and IterComp of one tile are set. */
static gz_dual turnaround(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t)
{
    gz_dual others = dual_sub(resident_per_sm(m, v), dual_const(1.0));
    gz_dual cpt = dual_add(t->stage[TRAPEZE_GHOSTZONE_MISCCOMP], t->stage[TRAPEZE_GHOSTZONE_ITERCOMP]);
    gz_dual exposed = dual_sub(dual_const(m->params.turnaround_cycles), dual_mul(others, cpt));
    return exposed.v > 0 ? exposed : dual_const(0.0);
}

static void compute_terms(const trapeze_ghostzone_model *m, const gz_vars *v, trapeze_sync sync,
                          gz_terms *t)
{
    t->round_misc = dual_const(0.0);
    gz_dual tau_cpi = dual_scale(dual_mul(tau_factor(m, v), param(v, TRAPEZE_GHOSTZONE_CPI)), m->fixed.issue);
    /* the persistent kernel issues more slowly than the relaunch kernel the
     * profile counts: its warps wait on the loads the grid barrier lines up,
     * on __syncthreads and the fence (sim counters, docs/calibration.md,
     * "What slows the fence kernel's issue"): every instruction costs
     * (1 + eta) */
    if (sync == TRAPEZE_SYNC_FENCE && m->params.fence_issue)
        tau_cpi = dual_mul(tau_cpi, dual_add(dual_const(1.0), param(v, TRAPEZE_GHOSTZONE_FENCE_ISSUE)));
    gz_dual in_tile = t->in_tile, loop_tile = t->loop_tile;
    gz_dual misc = dual_mul(dual_scale(in_tile, m->fixed.per_elem_mc), tau_cpi); /* 5.15 */
    /* with fences Meng drops MiscComp (5.4.5); the persistent kernel still
     * stages and commits every tile: that fraction stays. Relaunch pays
     * each block's dispatch and retire on top of its instructions. */
    if (sync == TRAPEZE_SYNC_FENCE && m->params.fence_staging) {
        /* the persistent kernel runs its setup once, but stages and commits
         * every tile: MiscComp less the setup's warp instructions, plus the
         * fitted fraction of the setup (0 when the split is right) */
        double warps = ceil(in_tile.v / (m->gpu.warp_size > 0 ? m->gpu.warp_size : 32));
        gz_dual setup = dual_scale(tau_cpi, m->setup_insts * warps);
        if (setup.v > misc.v)
            setup = misc;
        gz_dual phi_setup = dual_mul(setup, param(v, TRAPEZE_GHOSTZONE_FENCE_MISC));
        /* with round_setup, the fitted share is paid once a round of the
         * busiest SM (combine), not once a tile: the V100's simulated HotSpot
         * fence stage at n = 4 to 8 tiles a SM (4 resident) is about 1,500 +
         * n 471 h cycles, no part of a tile's cost independent of h, where
         * the model's is 800 + n (244 + 411 h) */
        t->stage[TRAPEZE_GHOSTZONE_MISCCOMP] = dual_sub(misc, setup);
        if (m->params.round_setup)
            t->round_misc = phi_setup;
        else
            t->stage[TRAPEZE_GHOSTZONE_MISCCOMP] = dual_add(t->stage[TRAPEZE_GHOSTZONE_MISCCOMP], phi_setup);
    } else {
        t->stage[TRAPEZE_GHOSTZONE_MISCCOMP] = sync == TRAPEZE_SYNC_FENCE
            ? dual_mul(misc, param(v, TRAPEZE_GHOSTZONE_FENCE_MISC))
            : dual_add(misc, param(v, TRAPEZE_GHOSTZONE_TILE_CYCLES));
    }
    gz_dual per_iter = dual_mul(dual_scale(loop_tile, m->fixed.per_elem_ic), tau_cpi);
    t->per_iter = per_iter;
    t->stage[TRAPEZE_GHOSTZONE_ITERCOMP] = dual_mul(v->h, per_iter); /* 5.16 */
    if (sync == TRAPEZE_SYNC_RELAUNCH && m->params.turnaround_cycles > 0)
        t->stage[TRAPEZE_GHOSTZONE_MISCCOMP] = dual_add(t->stage[TRAPEZE_GHOSTZONE_MISCCOMP],
                                                       turnaround(m, v, t));
    /* the persistent kernel's iterations after a tile's first run more
     * instructions than the relaunch profile (its tile coordinates are
     * derived, not block indices): psi (h - 1) iterations' worth more.
     * With fence_iter_hidden, not in a loop that loads from device memory
     * every iteration (elem_per_op > 0: PathFinder): its warps wait on each
     * iteration's loads, and the persistent kernel's extra issue fills
     * those waits (GTX 480, PathFinder at h = 36 / 48, 7 / 8 tiles a SM on 6:
     * the fence stage 3-5% faster than relaunch's once either's sync is
     * taken out; priced with psi, the model put those samples 16-20% high,
     * and fitted on them psi, which every workload's fence shares, fell from
     * 0.130 to 0.090 and turned Multi1D's 100x sync mode wrong) */
    if (sync == TRAPEZE_SYNC_FENCE && m->params.fence_iter &&
        !(m->params.fence_iter_hidden && m->work.elem_per_op > 0))
        t->stage[TRAPEZE_GHOSTZONE_ITERCOMP] = dual_add(
            t->stage[TRAPEZE_GHOSTZONE_ITERCOMP],
            dual_mul(dual_mul(param(v, TRAPEZE_GHOSTZONE_FENCE_ITER), dual_sub(v->h, dual_const(1.0))), per_iter));
    t->stage[TRAPEZE_GHOSTZONE_GLBSYNC] = sync == TRAPEZE_SYNC_FENCE
        ? fence_barrier(m, v, t->participants)
        : param(v, TRAPEZE_GHOSTZONE_RELAUNCH);                                                               /* 5.17 */
    if (sync == TRAPEZE_SYNC_FENCE && m->params.round_staging && m->params.turnaround_cycles > 0)
        t->stage[TRAPEZE_GHOSTZONE_GLBSYNC] = dual_add(t->stage[TRAPEZE_GHOSTZONE_GLBSYNC], staging_wait(m, v, t));
    if (sync == TRAPEZE_SYNC_FENCE && m->params.spin_staging && m->params.turnaround_cycles > 0)
        t->stage[TRAPEZE_GHOSTZONE_GLBSYNC] = dual_add(t->stage[TRAPEZE_GHOSTZONE_GLBSYNC], spin_staging_wait(m, v, t));
}

/* The overlap extension: memory and compute of a stage combined as
 * (M^p + C^p)^(1/p), p = 1/(1 - omega), returned as the factor that scales
 * both (so the six components still add up to CPL). Exactly 1 at omega = 0
 * (Meng's 5.2), with the derivative in omega kept for the fit. */
static gz_dual overlap_factor(const gz_vars *v, const gz_terms *t, gz_dual blocks_per_sm,
                              const gz_dual *round_part, gz_dual omega)
{
    gz_dual mem = dual_add(dual_add(t->stage[TRAPEZE_GHOSTZONE_LOADSTEN], t->stage[TRAPEZE_GHOSTZONE_COMMIT]),
                           t->stage[TRAPEZE_GHOSTZONE_ITERMEM]);
    gz_dual comp = dual_mul(dual_add(t->stage[TRAPEZE_GHOSTZONE_MISCCOMP], t->stage[TRAPEZE_GHOSTZONE_ITERCOMP]),
                            blocks_per_sm);
    if (round_part)
        comp = dual_add(comp, *round_part);
    gz_dual sum = dual_add(mem, comp);
    (void)v;
    if (!(mem.v > 0 && comp.v > 0))
        return dual_const(1.0); /* nothing to overlap */
    gz_dual p = dual_div(dual_const(1.0), dual_sub(dual_const(1.0), omega));
    gz_dual inv_p = dual_div(dual_const(1.0), p);
    gz_dual norm = dual_pow(dual_add(dual_pow(mem, p), dual_pow(comp, p)), inv_p);
    gz_dual r = dual_div(norm, sum);
    if (omega.v == 0)
        r.v = 1.0; /* Meng's model to the last bit */
    return r;
}

/* The tiles' worth of compute on the busiest SM (CPT x T / M's T / M): n
 * tiles, or when n exceeds the k resident blocks, at least
 * - with partial_round, k (1 + lambda): the few blocks of a partial last
 *   round run with too few warps to hide their latency, so they take longer
 *   than their share of the issue slots (PathFinder on the GTX 480: 7 to 9
 *   tiles per SM with 6 resident cost the same per loop, then 10 to 14 grow
 *   with n);
 * - with round_latency, for a loop that loads from device memory every
 *   iteration (NumElemPerOp > 0), k + NumElemPerOp L / I: each iteration of
 *   the partial round waits its loads' unloaded latency L (the chase
 *   micro-benchmark's, held as turnaround_cycles) where its few tiles would
 *   issue in I cycles each, so the round costs L / I tiles' worth whatever
 *   it holds (the V100's PathFinder: 9 to 11 tiles per SM with 8 resident,
 *   priced 15% under the simulator with lambda's 2 tiles). A latency, not a
 *   fitted fraction of k: a loop without device loads (HotSpot) keeps n;
 * - with round_compute as well, k + 1 + NumElemPerOp L / I: the partial
 *   round's iteration computes only once its loads are back, one
 *   tile-iteration after the latency, not under it (the V100's PathFinder
 *   stage sits 1,300-1,500 cycles above the model with loop_once; the
 *   GTX 480's relaunch curve is flat to 9 tiles and grows from 10, so
 *   there it prices 10 tiles as flat: off by default);
 * - with round_tiles instead, n + NumElemPerOp L / I: all n - k tiles of
 *   the partial round compute after their loads' latency, so the floor
 *   steps with the busiest SM's whole tiles (the V100's PathFinder fence
 *   stage on its reference grid: 1,630 cycles a loop at h = 26, the last
 *   height with 10 tiles on the busiest SM, 1,720 at 28 with 11, where
 *   k + L / I sat above both; off by default, docs/calibration.md).
 * With lone_round (and round_latency), n <= k tiles, a round that is all
 * partial, cost at least NumElemPerOp L / I (+ 1 with round_compute): its
 * iterations wait their loads' latency as a second round's do (PathFinder's
 * one-round samples, 3 tiles on 6 or 8 resident blocks, ran 15-17% above
 * the model on both GPUs; off by default, lone_round_floor).
 * Whole heights only, as whole_tiles: between them the optimizer sees
 * Meng's T. */
static gz_dual lone_round_floor(const trapeze_ghostzone_model *m, const gz_terms *t, gz_dual n)
{
    double wait = m->work.elem_per_op * m->params.turnaround_cycles;
    if (!(m->params.lone_round && m->params.round_latency && wait > 0 && t->per_iter.v > 0))
        return n;
    gz_dual floor_tiles = dual_div(dual_const(wait), t->per_iter);
    if (m->params.round_compute)
        floor_tiles = dual_add(floor_tiles, dual_const(1.0));
    return floor_tiles.v > n.v ? floor_tiles : n;
}

/* With round_spin, in fence mode, the latency a partial round's loads wait
 * an iteration: L (1 + a S / (k M)), S = k M - r the persistent blocks that
 * have finished their tiles and poll the barrier's counter while the r
 * tiles of the last round run, a the share of the k M blocks' barrier that
 * is their arrivals serialized at the counter (the fencebar constants): the
 * polls queue at the counter's L2 slice as the arrivals do, and the loads
 * behind them. Simulated PathFinder fence stages at h = 20, against the
 * relaunch kernel at the same grids (scripts/gz-fence-stage.py --past):
 * one tile an SM past the k M resident costs 1,140 cycles an iteration with
 * fences (S = 756) and 583 with relaunch, whose finished blocks retire, on
 * the A100 (a = 0.94); 814 and 462 on the V100 (S = 560, a = 0.94); on the
 * GTX 480, whose 90 arrivals fit in the barrier's round trip (a = 0), 281
 * and 304. L otherwise. */
static gz_dual round_wait(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t,
                          trapeze_sync sync, double k)
{
    gz_dual wait = dual_const(m->work.elem_per_op * m->params.turnaround_cycles);
    if (!(sync == TRAPEZE_SYNC_FENCE && m->params.round_spin && wait.v > 0))
        return wait;
    return dual_mul(wait, dual_add(dual_const(1.0), spin_share(m, v, t, k)));
}

static gz_dual compute_tiles(const trapeze_ghostzone_model *m, const gz_vars *v, const gz_terms *t,
                             trapeze_sync sync, gz_dual n)
{
    if (!(m->params.partial_round || m->params.round_latency) || !at_whole_tiles(m, v))
        return n;
    gz_dual k = resident_per_sm(m, v);
    if (!(n.v > k.v))
        return lone_round_floor(m, t, n);
    gz_dual tiles = n;
    if (m->params.partial_round) {
        gz_dual floor_tiles = dual_mul(k, dual_add(dual_const(1.0), param(v, TRAPEZE_GHOSTZONE_PARTIAL_ROUND)));
        if (floor_tiles.v > tiles.v)
            tiles = floor_tiles;
    }
    gz_dual wait = round_wait(m, v, t, sync, k.v);
    if (m->params.round_latency && wait.v > 0 && t->per_iter.v > 0) {
        gz_dual floor_tiles = dual_add(k, dual_div(wait, t->per_iter));
        if (m->params.round_tiles)
            floor_tiles = dual_add(floor_tiles, dual_sub(n, k)); /* n + wait / I */
        else if (m->params.round_compute)
            floor_tiles = dual_add(floor_tiles, dual_const(1.0));
        if (floor_tiles.v > tiles.v)
            tiles = floor_tiles;
    }
    return tiles;
}

/* 5.2 and 5.24-5.30: per-stage sum and per-loop components. */
static void combine(const trapeze_ghostzone_model *m, const gz_vars *v, trapeze_sync sync, gz_terms *t)
{
    gz_dual blocks_per_sm = dual_scale(t->trapezoids, 1.0 / m->gpu.n_sm); /* T / M */
    if (at_whole_tiles(m, v))
        blocks_per_sm = dual_const(ceil(blocks_per_sm.v)); /* the busiest SM */
    blocks_per_sm = compute_tiles(m, v, t, sync, blocks_per_sm);
    /* with fence_overlap_loads the fence-mode omega is a loop's with device
     * loads every iteration alone (PathFinder, whose iterations wait on them):
     * the other fence stages are issue-bound with their loads hidden as
     * relaunch's are (GTX 480 Poisson 171^2, h = 1 and 2: 30% of the slots
     * memory stalls at both, the CPL within 1.4% of the warp instructions'
     * ratio, where the shared fence omega, 0.54, lets the staging that h = 2
     * halves through) */
    gz_dual omega = fence_omega_read(m, sync)
        ? param(v, TRAPEZE_GHOSTZONE_OVERLAP_FENCE) : param(v, TRAPEZE_GHOSTZONE_OVERLAP);
    /* round_setup's share of the fence MiscComp, once for each of the
     * busiest SM's rounds (its tiles before the floors above) */
    int per_round = sync == TRAPEZE_SYNC_FENCE && m->params.round_setup && m->params.fence_staging;
    gz_dual round_part = per_round ? dual_mul(t->round_misc, busiest_rounds(m, v, t)) : dual_const(0.0);
    gz_dual overlap = overlap_factor(v, t, blocks_per_sm, per_round ? &round_part : NULL, omega);
    for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++) {
        gz_dual stage = t->stage[c];
        if (c == TRAPEZE_GHOSTZONE_MISCCOMP || c == TRAPEZE_GHOSTZONE_ITERCOMP)
            stage = dual_mul(stage, blocks_per_sm); /* CPT x T / M */
        if (c == TRAPEZE_GHOSTZONE_MISCCOMP && per_round)
            stage = dual_add(stage, round_part);
        if (c != TRAPEZE_GHOSTZONE_GLBSYNC)
            stage = dual_mul(stage, overlap);
        t->per_loop[c] = stage.v / v->h.v; /* dual_div's value, without its partials */
        t->cps = c == 0 ? stage : dual_add(t->cps, stage);
    }
    t->cpl = dual_div(t->cps, v->h); /* 5.1 */
}

/* CPL and its parts at a point check_point accepted; the partials in the
 * parameters only when they are variables (NaN otherwise: not computed),
 * exactly 0 for a parameter without a lane, which the equations do not read. */
static void gz_equations(const trapeze_ghostzone_model *m, const double *params, const signed char *lane,
                         trapeze_sync sync, double h, double blk_len, trapeze_ghostzone_eval *out)
{
    gz_vars v;
    gz_terms t;
    make_vars(&v, params, lane, h, blk_len);
    memory_terms(m, &v, &t);
    compute_terms(m, &v, sync, &t);
    combine(m, &v, sync, &t);
    out->trapezoids = t.trapezoids.v;
    out->passes = t.passes.v;
    for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++) {
        out->stage[c] = t.stage[c].v;
        out->per_loop[c] = t.per_loop[c];
    }
    out->cps = t.cps.v;
    out->cpl = t.cpl.v;
    out->dcpl_dh = t.cpl.d[GZ_VAR_H];
    out->dcpl_dblk = t.cpl.d[GZ_VAR_BLK];
    for (int i = 0; i < TRAPEZE_GHOSTZONE_NPARAMS; i++)
        out->dcpl_dparam[i] = !GZ_EQ_PARAMS ? NAN : lane[i] >= 0 ? t.cpl.d[lane[i]] : 0.0;
}

#undef gz_vars
#undef gz_terms
#undef make_vars
#undef param
#undef tile_elements
#undef tau_factor
#undef at_whole_tiles
#undef resident_per_sm
#undef mem_cycles
#undef row_cost
#undef memory_terms
#undef barrier_arrivals
#undef barrier_wait
#undef fence_barrier
#undef turnaround
#undef busiest_rounds
#undef staging_wait
#undef spin_share
#undef spin_staging_wait
#undef compute_terms
#undef overlap_factor
#undef lone_round_floor
#undef round_wait
#undef compute_tiles
#undef combine
#undef gz_equations
#undef gz_dual
#undef dual_const
#undef dual_var
#undef dual_add
#undef dual_sub
#undef dual_mul
#undef dual_div
#undef dual_scale
#undef dual_powi
#undef dual_pow
