/*
 * gz_energy.c - energy per stencil loop of the ghost-zone model, so that
 * the height h, the sync mode and the sleep thresholds are picked together
 * for time, energy or energy-delay product (`trapeze ghostzone
 * --objective`).
 *
 *   E(h) = inst_j[sync] x insts(h) + element_j[sync] x elements(h)     dynamic
 *        + idle_sm_w x GlbSync(h) / clock                      (relaunch gaps)
 *        + (P_static - sum_x saving_x P_leak,x) x CPL(h) (1 + penalty) / clock
 *
 * insts and elements are the model's own per-loop counts (the MiscComp and
 * IterComp instructions of every trapezoid, redundant ones included; the
 * elements LoadSten, Commit and IterMem move), CPL the time model's; the
 * joules per count come from simulated samples (trapeze_ghostzone_energy_calibrate),
 * the savings and penalties from the sleep model's thresholds on the same
 * samples' idle periods (trapeze_ghostzone_energy_sleep).
 *
 * Owns the energy equations, their h-gradient, the calibration of the
 * joules per count and the ranking of (sync, h). It must not simulate
 * (samples come in as structs, sampler/gz_energy/gz_energy_sample.c makes them) nor
 * print.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/dual.h"
#include "trapeze.h"

TRAPEZE_DUAL_DEFINE(ge_dual, ge, 1)

const char *trapeze_ghostzone_objective_name(trapeze_ghostzone_objective o)
{
    return o == TRAPEZE_GHOSTZONE_OBJ_ENERGY ? "energy" : o == TRAPEZE_GHOSTZONE_OBJ_EDP ? "edp" : "time";
}

int trapeze_ghostzone_objective_parse(const char *name, trapeze_ghostzone_objective *o)
{
    static const trapeze_ghostzone_objective all[] = {TRAPEZE_GHOSTZONE_OBJ_TIME, TRAPEZE_GHOSTZONE_OBJ_ENERGY,
                                               TRAPEZE_GHOSTZONE_OBJ_EDP};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, trapeze_ghostzone_objective_name(all[i])) == 0) {
            *o = all[i];
            return 0;
        }
    return -1;
}

double trapeze_ghostzone_energy_objective(const trapeze_ghostzone_energy_eval *e, trapeze_ghostzone_objective o)
{
    return o == TRAPEZE_GHOSTZONE_OBJ_ENERGY ? e->energy_j : o == TRAPEZE_GHOSTZONE_OBJ_EDP ? e->edp
                                                                              : e->cpl_sleep;
}

/* prod_i (blk - HaloWidth_i k) as a dual in h (k = h) or a constant (k = 1). */
static ge_dual tile(const trapeze_workload *w, ge_dual k)
{
    ge_dual r = ge_const(1.0);
    for (int i = 0; i < w->dims; i++)
        r = ge_mul(r, ge_sub(ge_const(w->blk_len), ge_scale(k, w->halo[i])));
    return r;
}

/* The counts follow the time model's T: Meng's smooth V / out_tile, or at a
 * whole h with whole_tiles the launched tiles, whose slope within the step
 * is 0 (as trapeze_ghostzone_evaluate's gradient there). */
trapeze_status trapeze_ghostzone_energy_counts(const trapeze_ghostzone_model *m, trapeze_sync sync, double h,
                                               trapeze_ghostzone_counts *out, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    const trapeze_gpu *g = trapeze_ghostzone_gpu(m);
    trapeze_ghostzone_eval ev;
    trapeze_status s = trapeze_ghostzone_evaluate(m, sync, h, w->blk_len, &ev, err);
    if (s)
        return s;
    if (!(w->profile_elements > 0))
        return trapeze_fail(err, TRAPEZE_EINVAL, "%s: no [profile] input_elements: the model "
                            "cannot count instructions", w->name);
    ge_dual hd = ge_var(h, 0), one = ge_const(1.0);
    double volume = 1;
    for (int i = 0; i < w->dims; i++)
        volume *= w->data_len[i];
    ge_dual out_tile = tile(w, hd), loop_tile = tile(w, one);
    ge_dual in_tile = ge_const(pow(w->blk_len, w->dims));
    ge_dual T = ge_div(ge_const(volume), out_tile);
    if (fabs(T.v - ev.trapezoids) > 1e-9 * ev.trapezoids)
        T = ge_const(ev.trapezoids);    /* whole tiles at a whole h */
    double mc = w->insts_per_sm_mc * g->n_sm / w->profile_elements;   /* 5.14 */
    double ic = w->insts_per_sm_ic * g->n_sm / w->profile_elements;
    ge_dual per_tile_insts = ge_add(ge_scale(in_tile, mc), ge_mul(hd, ge_scale(loop_tile, ic)));
    ge_dual per_tile_elems = ge_add(ge_add(ge_scale(in_tile, w->stencil_arrays), out_tile),
                                    ge_mul(hd, ge_scale(loop_tile, w->elem_per_op)));
    ge_dual insts = ge_div(ge_mul(T, per_tile_insts), hd);
    ge_dual elems = ge_div(ge_mul(T, per_tile_elems), hd);
    out->insts = insts.v;
    out->dinsts_dh = insts.d[0];
    out->elements = elems.v;
    out->delements_dh = elems.d[0];
    return TRAPEZE_OK;
}

static double static_power(const trapeze_ghostzone_energy_coef *c)
{
    double p = c->constant_w;
    for (int i = 0; i < TRAPEZE_PS_COUNT; i++)
        p += c->leak_w[i];
    return p;
}

trapeze_status trapeze_ghostzone_energy_evaluate(const trapeze_ghostzone_model *m,
                                                 const trapeze_ghostzone_energy_coef *c,
                                                 const trapeze_ghostzone_sleep *sl, trapeze_sync sync,
                                                 double h, trapeze_ghostzone_energy_eval *out,
                                                 trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    double clock = trapeze_ghostzone_gpu(m)->core_clock_hz;
    trapeze_ghostzone_eval ev;
    trapeze_status s = trapeze_ghostzone_evaluate(m, sync, h, w->blk_len, &ev, err);
    if (!s)
        s = trapeze_ghostzone_energy_counts(m, sync, h, &out->counts, err);
    if (s)
        return s;
    int k = sync == TRAPEZE_SYNC_FENCE;
    double pen = 0, saved_w = 0;
    if (sl && sl->valid) {
        out->sleep = *sl;
        for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
            pen += sl->penalty[x];
            saved_w += sl->saving[x] * c->leak_w[x];
        }
    }
    double leak_w = static_power(c) - saved_w;
    out->sync = sync;
    out->h = h;
    out->cpl = ev.cpl;
    out->cpl_sleep = ev.cpl * (1 + pen);
    out->seconds = out->cpl_sleep / clock;
    double dseconds = ev.dcpl_dh * (1 + pen) / clock;
    const trapeze_ghostzone_counts *n = &out->counts;
    out->dynamic_j = c->inst_j[k] * n->insts + c->element_j[k] * n->elements;
    double ddyn = c->inst_j[k] * n->dinsts_dh + c->element_j[k] * n->delements_dh;
    /* a relaunch's GlbSync leaves every SM without a block: idle-SM power;
     * per loop it is GlbSync per stage / h (no other h in it) */
    double dsync = 0;
    if (sync == TRAPEZE_SYNC_RELAUNCH) {
        out->sync_j = c->idle_sm_w * ev.per_loop[TRAPEZE_GHOSTZONE_GLBSYNC] / clock;
        dsync = -out->sync_j / h;
    }
    out->leakage_j = leak_w * out->seconds;
    out->saved_j = saved_w * out->seconds;
    out->energy_j = out->dynamic_j + out->sync_j + out->leakage_j;
    out->denergy_dh = ddyn + dsync + leak_w * dseconds;
    out->edp = out->energy_j * out->seconds;
    out->dedp_dh = out->denergy_dh * out->seconds + out->energy_j * dseconds;
    return TRAPEZE_OK;
}

/* ---- calibration ---- */

trapeze_status trapeze_ghostzone_energy_calibrate(const trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p,
                                                  const trapeze_ghostzone_energy_sample *s, int n,
                                                  trapeze_ghostzone_energy_coef *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (n < 1)
        return trapeze_fail(err, TRAPEZE_EINVAL, "energy calibration: no samples");
    double dyn_c[2] = {0, 0}, dyn_m[2] = {0, 0}, insts[2] = {0, 0}, elems[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        trapeze_workload win = *trapeze_ghostzone_workload(m);
        memcpy(win.data_len, s[i].data_len, sizeof win.data_len);
        trapeze_ghostzone_model *wm;
        trapeze_ghostzone_counts cnt;
        trapeze_status st = trapeze_ghostzone_create(trapeze_ghostzone_gpu(m), &win, p, &wm, err);
        if (st)
            return st;
        st = trapeze_ghostzone_energy_counts(wm, s[i].sync, s[i].h, &cnt, err);
        trapeze_ghostzone_destroy(wm);
        if (st)
            return st;
        int k = s[i].sync == TRAPEZE_SYNC_FENCE;
        out->n_samples[k]++;
        dyn_c[k] += s[i].dyn_compute_j;
        dyn_m[k] += s[i].dyn_memory_j;
        insts[k] += cnt.insts * s[i].iterations;
        elems[k] += cnt.elements * s[i].iterations;
        for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
            out->leak_w[x] += s[i].leak_w[x] / n;
        out->constant_w += s[i].constant_w / n;
        out->idle_sm_w += s[i].idle_sm_w / n;
    }
    for (int k = 0; k < 2; k++) {
        int from = out->n_samples[k] ? k : 1 - k;   /* a mode without samples: the other's */
        if (!(insts[from] > 0) || !(elems[from] > 0))
            return trapeze_fail(err, TRAPEZE_EINVAL, "energy calibration: the samples of %s "
                                "count no instructions or elements",
                                trapeze_sync_name((trapeze_sync)from));
        out->inst_j[k] = dyn_c[from] / insts[from];
        out->element_j[k] = dyn_m[from] / elems[from];
    }
    return TRAPEZE_OK;
}

/* ---- sleep thresholds per sample ---- */

trapeze_status trapeze_ghostzone_energy_sleep(const trapeze_power *pw, double clock_hz,
                                              const trapeze_ghostzone_energy_sample *s, double max_penalty,
                                              trapeze_ghostzone_sleep *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
        trapeze_sleep_structure st;
        trapeze_sleep_options o;
        trapeze_sleep_model *sm;
        trapeze_sleep_choice ch;
        trapeze_status r = trapeze_sleep_structure_from_power(pw, (trapeze_power_structure)x,
                                                              clock_hz, &st, err);
        if (r)
            return r;
        if (st.n_modes == 0 || trapeze_idle_hist_periods(&s->hist[x], -1) <= 0)
            continue;   /* nothing to sleep: the structure stays ON */
        trapeze_sleep_options_preset((trapeze_power_structure)x, &st, &o);
        if ((r = trapeze_sleep_create(&st, &s->hist[x], &o, &sm, err)))
            return r;
        r = trapeze_sleep_optimize(sm, max_penalty, &ch, err);
        trapeze_sleep_destroy(sm);
        if (r)
            return r;
        out->n_modes[x] = st.n_modes;
        memcpy(out->theta[x], ch.theta_int, sizeof out->theta[x]);
        /* the fraction of the observed unit-cycles saved, times the share of
         * the structure they are (registers of no warp stay ON); the share
         * is capped at 1: the L2 histograms can hold a few percent more
         * unit-cycles than lines x run cycles (measured on Poisson) */
        double share = s->unit_cycles[x] > 0 ? ch.chosen.leak_on_cycles / s->unit_cycles[x] : 0;
        out->saving[x] = ch.chosen.saving_fraction * (share < 1 ? share : 1);
        out->penalty[x] = ch.chosen.penalty_fraction;
    }
    out->valid = 1;
    return TRAPEZE_OK;
}

/* ---- ranking ---- */

int trapeze_ghostzone_energy_sample_heights(const trapeze_ghostzone_model *m, int heights[3])
{
    int hmax = trapeze_ghostzone_max_height(m, trapeze_ghostzone_workload(m)->blk_len);
    int cand[3] = {1, (1 + hmax) / 2, hmax}, n = 0;
    for (int i = 0; i < 3; i++)
        if (cand[i] >= 1 && (n == 0 || cand[i] != heights[n - 1]))
            heights[n++] = cand[i];
    return n;
}

/* The sample of mode sync nearest to h on a log scale (heights act on a
 * relative scale: 1 to 2 changes more than 8 to 9), or -1. */
static int nearest_sample(const trapeze_ghostzone_energy_sample *s, int n, trapeze_sync sync, int h)
{
    int best = -1;
    double bd = 0;
    for (int i = 0; i < n; i++) {
        if (s[i].sync != sync)
            continue;
        double d = fabs(log((double)h / s[i].h));
        if (best < 0 || d < bd - 1e-12) {
            best = i;
            bd = d;
        }
    }
    return best;
}

trapeze_status trapeze_ghostzone_energy_rank(const trapeze_ghostzone_model *m, const trapeze_ghostzone_energy_coef *c,
                                             const trapeze_ghostzone_energy_sample *samples,
                                             const trapeze_ghostzone_sleep *sleeps, int n_samples,
                                             const trapeze_sync *modes, int n_modes,
                                             trapeze_ghostzone_energy_eval **out, int *n, int best[3],
                                             trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    int hmax = trapeze_ghostzone_max_height(m, trapeze_ghostzone_workload(m)->blk_len);
    if (hmax < 1)
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s: no valid height at block %d",
                            trapeze_ghostzone_workload(m)->name, trapeze_ghostzone_workload(m)->blk_len);
    trapeze_ghostzone_energy_eval *e = calloc((size_t)(n_modes * hmax), sizeof *e);
    if (!e)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    int k = 0;
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; i < n_modes && !s; i++)
        for (int h = 1; h <= hmax && !s; h++) {
            int j = samples ? nearest_sample(samples, n_samples, modes[i], h) : -1;
            s = trapeze_ghostzone_energy_evaluate(m, c, j >= 0 && sleeps ? &sleeps[j] : NULL, modes[i],
                                                  h, &e[k++], err);
        }
    if (s) {
        free(e);
        return s;
    }
    for (int o = 0; o < 3; o++) {
        best[o] = 0;
        for (int i = 1; i < k; i++)
            if (trapeze_ghostzone_energy_objective(&e[i], (trapeze_ghostzone_objective)o) <
                trapeze_ghostzone_energy_objective(&e[best[o]], (trapeze_ghostzone_objective)o))
                best[o] = i;
    }
    *out = e;
    *n = k;
    return TRAPEZE_OK;
}

/* ---- CSV ---- */

const char *const trapeze_ghostzone_energy_csv_columns[] = {
    "workload", "gpu", "sync", "h", "trapezoids", "cpl_cycles", "glbsync_cycles",
    "loadsten_cycles", "commit_cycles", "itermem_cycles", "misccomp_cycles", "itercomp_cycles",
    "speedup_vs_h1", "energy_j_per_loop", "dynamic_j", "sync_j", "leakage_j", "saved_j",
    "edp_js", "cpl_sleep_cycles", "l1d_saving", "l2_saving", "rf_saving", "penalty_fraction",
    "l1d_thresholds", "l2_thresholds", "rf_thresholds"};
const int trapeze_ghostzone_energy_csv_ncolumns =
    (int)(sizeof trapeze_ghostzone_energy_csv_columns / sizeof trapeze_ghostzone_energy_csv_columns[0]);

static void thresholds_text(const trapeze_ghostzone_sleep *sl, int x, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; sl->valid && i < sl->n_modes[x] && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%.0f", i ? "/" : "",
                                 sl->theta[x][i]);
}

trapeze_status trapeze_ghostzone_energy_write_rows(const trapeze_ghostzone_model *m,
                                                   const trapeze_ghostzone_energy_eval *e, int n,
                                                   trapeze_csv_out *csv, trapeze_error *err)
{
    const trapeze_workload *w = trapeze_ghostzone_workload(m);
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; i < n && !s; i++) {
        trapeze_ghostzone_eval g, base;
        if ((s = trapeze_ghostzone_evaluate(m, e[i].sync, e[i].h, w->blk_len, &g, err)) ||
            (s = trapeze_ghostzone_evaluate(m, e[i].sync, 1, w->blk_len, &base, err)))
            break;
        trapeze_csv_text(csv, w->name);
        trapeze_csv_text(csv, trapeze_ghostzone_gpu(m)->name);
        trapeze_csv_text(csv, trapeze_sync_name(e[i].sync));
        trapeze_csv_number(csv, e[i].h);
        trapeze_csv_number(csv, g.trapezoids);
        trapeze_csv_number(csv, g.cpl);
        for (int c = 0; c < TRAPEZE_GHOSTZONE_NCOMPONENTS; c++)
            trapeze_csv_number(csv, g.per_loop[c]);
        trapeze_csv_number(csv, base.cpl / g.cpl);
        const double v[] = {e[i].energy_j, e[i].dynamic_j, e[i].sync_j, e[i].leakage_j,
                            e[i].saved_j, e[i].edp, e[i].cpl_sleep, e[i].sleep.saving[0],
                            e[i].sleep.saving[1], e[i].sleep.saving[2],
                            e[i].sleep.penalty[0] + e[i].sleep.penalty[1] + e[i].sleep.penalty[2]};
        for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
            trapeze_csv_number(csv, v[j]);
        for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
            char buf[64];
            thresholds_text(&e[i].sleep, x, buf, sizeof buf);
            trapeze_csv_text(csv, buf);
        }
        s = trapeze_csv_end_row(csv, err);
    }
    return s;
}
