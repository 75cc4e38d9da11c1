/*
 * sleep_validate.c - the sleep model against full simulation (`trapeze
 * validate --model sleep`, issue 14 item 6). Per job: the window the model
 * learns from (sleep_sample.c), the thresholds it picks per structure
 * (sleep_calib.c), then whole runs with one structure's policy in the
 * timing at a time (the others always on, so that no other policy's stalls
 * move its periods): at the model's thresholds, the seed's, and a sweep.
 * Each setting is also evaluated by the model (hard indicator) on the
 * window, so that predicted and simulated saving, penalty and mode split
 * sit in one row. Owns the sweep, the targets and the validation CSV.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sleep_calib.h"

static const double snooze_sweep[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64};
#define N_SNOOZE ((int)(sizeof snooze_sweep / sizeof snooze_sweep[0]))
/* Slumber: shallow in {4, 12, never}, deep in {13, 14, 20}, gated in {16, 21, 32,
 * never}, kept in order (what the simulator accepts) */
static const double slumber_shallow[] = {4, 12, 1000}, slumber_deep[] = {13, 14, 20},
                    slumber_gated[] = {16, 21, 32, 1000};

static int sweep_settings(int x, double theta[][TRAPEZE_SLEEP_MAX_MODES])
{
    int n = 0;
    if (x != TRAPEZE_PS_RF) {
        /* Snooze's one time-out serves both modes (off only for dead periods) */
        for (int i = 0; i < N_SNOOZE; i++, n++)
            for (int m = 0; m < TRAPEZE_SLEEP_MAX_MODES; m++)
                theta[n][m] = snooze_sweep[i];
        return n;
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 4; c++)
                if (slumber_shallow[a] <= slumber_deep[b] && slumber_deep[b] <= slumber_gated[c]) {
                    theta[n][0] = slumber_shallow[a];
                    theta[n][1] = slumber_deep[b];
                    theta[n++][2] = slumber_gated[c];
                }
    return n;
}

static trapeze_status grow(trapeze_sleep_validation *v, trapeze_error *err)
{
    if (v->n_rows < v->cap_rows)
        return TRAPEZE_OK;
    int cap = v->cap_rows ? 2 * v->cap_rows : 256;
    trapeze_sleep_vrow *r = realloc(v->rows, (size_t)cap * sizeof *r);
    if (!r)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    v->rows = r;
    v->cap_rows = cap;
    return TRAPEZE_OK;
}

/* One setting of structure x: the model's prediction and the simulation. */
static trapeze_status one_setting(const trapeze_config *cfg, const trapeze_power *pw,
                                  const trapeze_sleep_job *j, const sampler_sleep_pick *pk,
                                  int x, const char *choice, const double *theta,
                                  const trapeze_sleep_eval *pred, trapeze_sleep_validation *v,
                                  trapeze_sleep_run *sim, trapeze_error *err)
{
    trapeze_sleep_eval ev;
    trapeze_status s = TRAPEZE_OK;
    if (!pred) {
        if ((s = trapeze_sleep_evaluate(pk->m, theta, 0, &ev, err)))
            return s;
        pred = &ev;
    }
    trapeze_sleep_setting set;
    memset(&set, 0, sizeof set);
    set.on[x] = 1;
    memcpy(set.theta[x], theta, sizeof set.theta[x]);
    if ((s = trapeze_sleep_simulate(cfg, pw, j, &set, sim, err)) || (s = grow(v, err)))
        return s;
    trapeze_sleep_vrow *r = &v->rows[v->n_rows++];
    memset(r, 0, sizeof *r);
    snprintf(r->gpu, sizeof r->gpu, "%s", v->gpu);
    snprintf(r->job, sizeof r->job, "%s", j->spec);
    r->structure = x;
    snprintf(r->choice, sizeof r->choice, "%s", choice);
    r->n_modes = pk->st.n_modes;
    double sim_total = 0;
    for (int m = 0; m < pw->n_modes[x]; m++)
        sim_total += sim->mode_cycles[x][m];
    for (int i = 0; i < pk->st.n_modes; i++) {
        snprintf(r->mode[i], sizeof r->mode[i], "%s", pk->st.mode[i].name);
        r->theta[i] = theta[i];
        r->pred_mode[i] = pred->leak_on_cycles > 0 ? pred->mode_cycles[i + 1] /
                                                         pred->leak_on_cycles : 0;
        int pm = trapeze_power_mode_find(pw, (trapeze_power_structure)x, pk->st.mode[i].name);
        r->sim_mode[i] = pm > 0 && sim_total > 0 ? sim->mode_cycles[x][pm] / sim_total : 0;
    }
    r->pred_saving = pred->saving_fraction;
    r->pred_penalty = pred->penalty_fraction;
    r->sim_saving = sim->saving[x];
    r->sim_penalty = sim->penalty[x];
    r->sim_cycles = sim->cycles;
    v->sweep_insts += sim->warp_insts;
    v->sweep_runs++;
    return TRAPEZE_OK;
}

/* The job's window, choices and settings; one summary per structure. */
static trapeze_status one_job(const trapeze_config *cfg, const trapeze_power *pw,
                              double clock_hz, const trapeze_sleep_job *j, double window,
                              double spread, double budget, int use_fit, trapeze_sleep_validation *v,
                              trapeze_error *err)
{
    trapeze_sleep_run *win = malloc(sizeof *win), *sim = malloc(sizeof *sim);
    trapeze_status s = win && sim ? trapeze_sleep_window(cfg, pw, j, window, spread, win, err)
                                  : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s) {
        v->sample_insts += win->warp_insts;
        v->sample_cycles += win->cycles;
    }
    for (int x = 0; !s && x < TRAPEZE_PS_SLEEPABLE; x++) {
        sampler_sleep_pick pk;
        if ((s = sampler_sleep_choose(pw, clock_hz, &win->hist[sampler_sleep_unit[x]], x, budget,
                                      use_fit, &pk, err)))
            break;
        trapeze_sleep_vsummary *sm = &v->summary[v->n_summary];
        memset(sm, 0, sizeof *sm);
        snprintf(sm->job, sizeof sm->job, "%s", j->spec);
        sm->structure = x;
        sm->ks = pk.fit.ks_all;
        sm->window_cycles = win->cycles;
        sm->cut = win->cut;
        sm->model = v->n_rows;
        s = one_setting(cfg, pw, j, &pk, x, "model", pk.c.theta_int, &pk.c.chosen, v, sim, err);
        if (!s) {
            sm->run_cycles = sim->cycles;
            sm->seed = v->n_rows;
            s = one_setting(cfg, pw, j, &pk, x, "seed", pk.c.seed_theta, &pk.c.seed, v, sim,
                            err);
        }
        double theta[48][TRAPEZE_SLEEP_MAX_MODES];
        memset(theta, 0, sizeof theta);
        int n = sweep_settings(x, theta);
        sm->best = -1;
        for (int k = 0; !s && k < n; k++) {
            s = one_setting(cfg, pw, j, &pk, x, "sweep", theta[k], NULL, v, sim, err);
            const trapeze_sleep_vrow *r = &v->rows[v->n_rows - 1];
            if (!s && r->sim_penalty <= budget &&
                (sm->best < 0 || r->sim_saving > v->rows[sm->best].sim_saving))
                sm->best = v->n_rows - 1;
        }
        if (!s && sm->best >= 0)
            v->rows[sm->best].best = 1;
        trapeze_sleep_destroy(pk.m);
        if (!s)
            v->n_summary++;
    }
    free(win);
    free(sim);
    return s;
}

trapeze_status trapeze_sleep_validate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *jobs, int n, double window_cycles,
                                      double spread_cycles, double max_penalty, int use_fit,
                                      void (*progress)(void *ctx, int done, int total),
                                      void *ctx, trapeze_sleep_validation *v,
                                      trapeze_error *err)
{
    memset(v, 0, sizeof *v);
    trapeze_gpu gpu;
    trapeze_status s = trapeze_gpu_from_config(cfg, &gpu, err);
    if (s)
        return s;
    snprintf(v->gpu, sizeof v->gpu, "%s", gpu.name);
    v->max_penalty = max_penalty;
    v->summary = calloc((size_t)(n ? n : 1) * TRAPEZE_PS_SLEEPABLE, sizeof *v->summary);
    if (!v->summary)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; !s && i < n; i++) {
        s = one_job(cfg, pw, gpu.core_clock_hz, &jobs[i], window_cycles, spread_cycles,
                    max_penalty, use_fit, v, err);
        if (!s && progress)
            progress(ctx, i + 1, n);
    }
    if (s) {
        trapeze_sleep_validation_free(v);
        return s;
    }
    trapeze_sleep_validation_targets(v);
    return TRAPEZE_OK;
}

void trapeze_sleep_validation_targets(trapeze_sleep_validation *v)
{
    trapeze_sleep_targets *t = &v->targets;
    memset(t, 0, sizeof *t);
    t->worst_ratio = INFINITY;
    for (int i = 0; i < v->n_summary; i++) {
        trapeze_sleep_vsummary *sm = &v->summary[i];
        const trapeze_sleep_vrow *m = &v->rows[sm->model];
        double best = sm->best >= 0 ? v->rows[sm->best].sim_saving : 0;
        /* nothing swept within the budget saves anything: the model can
         * only match it (ratio 1) if it saves nothing either, within budget */
        sm->ratio = best > 0 ? m->sim_saving / best : (m->sim_penalty <= v->max_penalty ? 1 : 0);
        t->rows++;
        t->ratio_met += sm->ratio >= 0.99;
        t->saving_met += fabs(m->pred_saving - m->sim_saving) <= 0.03;
        t->penalty_met += fabs(m->pred_penalty - m->sim_penalty) <= 0.005;
        t->over_budget += m->sim_penalty > v->max_penalty;
        if (sm->ratio < t->worst_ratio)
            t->worst_ratio = sm->ratio;
        if (fabs(m->pred_saving - m->sim_saving) > t->worst_saving_error)
            t->worst_saving_error = fabs(m->pred_saving - m->sim_saving);
        if (fabs(m->pred_penalty - m->sim_penalty) > t->worst_penalty_error)
            t->worst_penalty_error = fabs(m->pred_penalty - m->sim_penalty);
    }
    if (!t->rows)
        t->worst_ratio = 0;
    t->sample_fraction = v->sweep_insts > 0 ? v->sample_insts / v->sweep_insts : 0;
}

void trapeze_sleep_validation_free(trapeze_sleep_validation *v)
{
    free(v->rows);
    free(v->summary);
    memset(v, 0, sizeof *v);
}

static const char *const csv_columns[] = {
    "gpu", "kernel", "structure", "choice", "thresholds", "best_swept", "mode",
    "threshold_cycles", "pred_mode_fraction", "sim_mode_fraction", "pred_saving", "sim_saving",
    "pred_leakage_fraction", "sim_leakage_fraction", "pred_penalty", "sim_penalty", "sim_cycles"};

trapeze_status trapeze_sleep_validation_write_csv(const trapeze_sleep_validation *v,
                                                  const char *path, trapeze_error *err)
{
    trapeze_csv_out *csv = NULL;
    trapeze_status s = trapeze_csv_create(path, csv_columns,
                                          (int)(sizeof csv_columns / sizeof *csv_columns), &csv,
                                          err);
    for (int i = 0; !s && i < v->n_rows; i++) {
        const trapeze_sleep_vrow *r = &v->rows[i];
        char th[64];
        sampler_sleep_theta_text(r->theta, r->n_modes, th, sizeof th);
        for (int k = 0; !s && k < r->n_modes; k++) {
            trapeze_csv_text(csv, r->gpu);
            trapeze_csv_text(csv, r->job);
            trapeze_csv_text(csv, trapeze_power_structure_name((trapeze_power_structure)r->structure));
            trapeze_csv_text(csv, r->choice);
            trapeze_csv_text(csv, th);
            trapeze_csv_number(csv, r->best);
            trapeze_csv_text(csv, r->mode[k]);
            trapeze_csv_number(csv, r->theta[k]);
            trapeze_csv_number(csv, r->pred_mode[k]);
            trapeze_csv_number(csv, r->sim_mode[k]);
            trapeze_csv_number(csv, r->pred_saving);
            trapeze_csv_number(csv, r->sim_saving);
            trapeze_csv_number(csv, 1 - r->pred_saving);
            trapeze_csv_number(csv, 1 - r->sim_saving);
            trapeze_csv_number(csv, r->pred_penalty);
            trapeze_csv_number(csv, r->sim_penalty);
            trapeze_csv_number(csv, r->sim_cycles);
            s = trapeze_csv_end_row(csv, err);
        }
    }
    if (s) {
        trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}
