/*
 * sleep_validate.c - the sleep model against full simulation (`trapeze
 * validate --model sleep`). Per job: the window the model
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
#include "sampler/sampler.h"
#include "sampler/sleep/sleep_calib.h"

static const double snooze_sweep[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64};
#define N_SNOOZE ((int)(sizeof snooze_sweep / sizeof snooze_sweep[0]))
/* Slumber: shallow in {4, 12}, deep in {13, 14, 20}, gated in {16, 21, 32,
 * never}, kept in order (what the simulator accepts): 2 x (4 + 4 + 3) = 22
 * settings. A shallow "never" would be shallow at deep's threshold (a
 * look-ahead reaching deep skips shallow); as a value above deep the order
 * drops it, so it is not listed. */
static const double slumber_shallow[] = {4, 12}, slumber_deep[] = {13, 14, 20},
                    slumber_gated[] = {16, 21, 32, 1000};
#define N_SHALLOW ((int)(sizeof slumber_shallow / sizeof slumber_shallow[0]))

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
    for (int a = 0; a < N_SHALLOW; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 4; c++)
                if (slumber_shallow[a] <= slumber_deep[b] && slumber_deep[b] <= slumber_gated[c]) {
                    theta[n][0] = slumber_shallow[a];
                    theta[n][1] = slumber_deep[b];
                    theta[n++][2] = slumber_gated[c];
                }
    return n;
}

/* The work in two passes of the worker pool (sampler/run.c), each task
 * writing only its own rows, so that the rows are the same bytes for any
 * thread count: first each job's window and its picks per structure, then
 * the whole runs the (job, structure, setting) rows need (plan_runs: one
 * per distinct setting that exposes wake-ups, one per job for all that
 * hide them). Rows are laid out before either pass: per job and structure
 * the model's, the seed's, then the sweep's (sweep_settings depends on the
 * structure alone). */
typedef struct {
    sampler_sleep_pick pk[TRAPEZE_PS_SLEEPABLE];
    int n_pk;                      /* picks made (their models destroyed at the end) */
    double insts, cycles;          /* the window's */
    double simulated;              /* a jump sample's simulated cycles */
    double cap_smallest;           /* trapeze_sleep_run's */
    int cut, jumped;
} vjob;

typedef struct {
    int job, x, setting;           /* setting 0: the model's, 1: the seed's, 2..: sweep */
    double theta[TRAPEZE_SLEEP_MAX_MODES];   /* a sweep setting's thresholds */
} vtask;

typedef struct {
    const trapeze_config *cfg;
    const trapeze_power *pw;
    const trapeze_sleep_job *jobs;
    double clock_hz, window, spread, cap, budget;
    int use_fit;
    vjob *vj;
    vtask *task;
    double *row_insts;             /* each whole run's warp instructions */
    int *run_of;                   /* row k's simulation (vrun index) */
    int *run_lead;                 /* a simulation's first row; -1: its job's shared run */
    int *run_job;
    int n_runs, n_jobs;
    trapeze_sleep_validation *v;
    void (*progress)(void *ctx, int done, int total);
    void *progress_ctx;
    int done, total;
    int sim_threads;               /* each simulation's share of the threads */
} vctx;

/* Job k with this phase's simulation threads. */
static trapeze_sleep_job job_of(const vctx *c, int k)
{
    trapeze_sleep_job j = c->jobs[k];
    j.threads = c->sim_threads;
    return j;
}

static trapeze_status window_task(void *arg, int k, trapeze_error *err)
{
    vctx *c = arg;
    vjob *vj = &c->vj[k];
    trapeze_sleep_run *win = malloc(sizeof *win);
    trapeze_sleep_job j = job_of(c, k);
    trapeze_status s = !win ? trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory")
                       : c->cap > 0 ? trapeze_sleep_window_capped(c->cfg, c->pw, &j, c->window,
                                                                  c->spread, c->cap, win, err)
                                    : trapeze_sleep_window(c->cfg, c->pw, &j, c->window,
                                                           c->spread, win, err);
    if (!s) {
        vj->insts = win->warp_insts;
        vj->cycles = win->cycles;
        vj->cut = win->cut;
        vj->jumped = win->jumped;
        vj->simulated = win->simulated;
        vj->cap_smallest = win->cap_smallest;
    }
    for (int x = 0; !s && x < TRAPEZE_PS_SLEEPABLE; x++)
        if (!(s = sampler_sleep_choose(c->pw, c->clock_hz, &win->hist[sampler_sleep_unit[x]], x,
                                       c->budget, c->use_fit, &vj->pk[x], err)))
            vj->n_pk++;
    free(win);
    return s;
}

/* Row k's thresholds: the model's, the seed's or a swept setting's. */
static const double *row_theta(const vctx *c, int k)
{
    const vtask *t = &c->task[k];
    const sampler_sleep_pick *pk = &c->vj[t->job].pk[t->x];
    return t->setting == 0 ? pk->c.theta_int : t->setting == 1 ? pk->c.seed_theta : t->theta;
}

/* Row k from its simulation: the model's prediction beside it. */
static trapeze_status fill_row(vctx *c, int k, const trapeze_sleep_run *sim, trapeze_error *err)
{
    const vtask *t = &c->task[k];
    const sampler_sleep_pick *pk = &c->vj[t->job].pk[t->x];
    const trapeze_sleep_job *j = &c->jobs[t->job];
    const trapeze_power *pw = c->pw;
    int x = t->x;
    const double *theta = row_theta(c, k);
    const trapeze_sleep_eval *pred = t->setting == 0 ? &pk->c.chosen
                                     : t->setting == 1 ? &pk->c.seed : NULL;
    trapeze_sleep_eval ev;
    trapeze_status s = TRAPEZE_OK;
    if (!pred) {
        if ((s = trapeze_sleep_evaluate(pk->m, theta, 0, &ev, err)))
            return s;
        pred = &ev;
    }
    trapeze_sleep_vrow *r = &c->v->rows[k];
    memset(r, 0, sizeof *r);
    snprintf(r->gpu, sizeof r->gpu, "%s", c->v->gpu);
    snprintf(r->job, sizeof r->job, "%s", j->spec);
    r->structure = x;
    snprintf(r->choice, sizeof r->choice, "%s",
             t->setting == 0 ? "model" : t->setting == 1 ? "seed" : "sweep");
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
    c->row_insts[k] = sim->warp_insts;
    return TRAPEZE_OK;
}

/* A job's shared run: every row of it whose setting hides its wake-ups,
 * each evaluated on the one run always on. */
static trapeze_status shared_run(vctx *c, int r, trapeze_error *err)
{
    int n = 0, per_job = c->v->n_rows / (c->n_jobs ? c->n_jobs : 1);
    int first = c->run_job[r] * per_job;
    int *rows = calloc((size_t)per_job, sizeof *rows), *x = calloc((size_t)per_job, sizeof *x);
    double (*theta)[TRAPEZE_SLEEP_MAX_MODES] = calloc((size_t)per_job, sizeof *theta);
    trapeze_sleep_run **sim = calloc((size_t)per_job, sizeof *sim);
    trapeze_status s = rows && x && theta && sim ? TRAPEZE_OK
                                                 : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int k = first; !s && k < first + per_job; k++)
        if (c->run_of[k] == r) {
            rows[n] = k;
            x[n] = c->task[k].x;
            memcpy(theta[n], row_theta(c, k), sizeof theta[n]);
            if (!(sim[n++] = malloc(sizeof **sim)))
                s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        }
    trapeze_sleep_job j = job_of(c, c->run_job[r]);
    if (!s)
        s = sampler_sleep_simulate_hidden(c->cfg, c->pw, &j, n, x,
                                          (const double(*)[TRAPEZE_SLEEP_MAX_MODES])theta, sim,
                                          err);
    for (int i = 0; !s && i < n; i++)
        s = fill_row(c, rows[i], sim[i], err);
    for (int i = 0; sim && i < n; i++)
        free(sim[i]);
    free(sim);
    free(theta);
    free(x);
    free(rows);
    return s;
}

/* Simulation r: the job's shared run, or one setting's whole run with its
 * policy in the timing, which serves every row of that setting. */
static trapeze_status run_task(void *arg, int r, trapeze_error *err)
{
    vctx *c = arg;
    if (c->run_lead[r] < 0)
        return shared_run(c, r, err);
    int lead = c->run_lead[r];
    const vtask *t = &c->task[lead];
    trapeze_sleep_setting set;
    memset(&set, 0, sizeof set);
    set.on[t->x] = 1;
    memcpy(set.theta[t->x], row_theta(c, lead), sizeof set.theta[t->x]);
    trapeze_sleep_run *sim = malloc(sizeof *sim);
    if (!sim)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_sleep_job j = job_of(c, t->job);
    trapeze_status s = trapeze_sleep_simulate(c->cfg, c->pw, &j, &set, sim, err);
    for (int k = lead; !s && k < c->v->n_rows && c->task[k].job == t->job; k++)
        if (c->run_of[k] == r)
            s = fill_row(c, k, sim, err);
    free(sim);
    return s;
}

/* Whether rows a and b simulate the same run: one job and structure, the
 * thresholds its policy reads (Snooze's one time-out; Slumber's three). */
static int same_setting(const vctx *c, int a, int b)
{
    const vtask *ta = &c->task[a], *tb = &c->task[b];
    if (ta->job != tb->job || ta->x != tb->x)
        return 0;
    const double *p = row_theta(c, a), *q = row_theta(c, b);
    int n = ta->x == TRAPEZE_PS_RF ? 3 : 1;
    for (int m = 0; m < n; m++)
        if (p[m] != q[m])
            return 0;
    return 1;
}

/* The simulations the rows need, once the picks are known: per job one
 * run always on for every setting that hides its wake-ups (their timing
 * is that run's; sim_sleep_hides_wakes), and one run per distinct other
 * setting (the seed's is a swept one). Each row's figures are what its
 * own run would give, to the bit: only the number of runs changes. */
static trapeze_status plan_runs(vctx *c, trapeze_error *err)
{
    int rows = c->v->n_rows;
    c->run_of = malloc((size_t)(rows ? rows : 1) * sizeof *c->run_of);
    c->run_lead = malloc((size_t)(rows ? rows : 1) * sizeof *c->run_lead);
    c->run_job = malloc((size_t)(rows ? rows : 1) * sizeof *c->run_job);
    if (!c->run_of || !c->run_lead || !c->run_job)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    int shared = -1, job = -1;
    for (int k = 0; k < rows; k++) {
        const vtask *t = &c->task[k];
        if (t->job != job) {
            job = t->job;
            shared = -1;
        }
        int hidden = 0;
        trapeze_status s = sampler_sleep_hides_wakes(c->cfg, c->pw, t->x, row_theta(c, k),
                                                     &hidden, err);
        if (s)
            return s;
        if (hidden) {
            if (shared < 0) {
                shared = c->n_runs++;
                c->run_lead[shared] = -1;
                c->run_job[shared] = job;
            }
            c->run_of[k] = shared;
            continue;
        }
        int r = -1;
        for (int i = k - 1; i >= 0 && c->task[i].job == job && r < 0; i--)
            if (c->run_lead[c->run_of[i]] >= 0 && same_setting(c, i, k))
                r = c->run_of[i];
        if (r < 0) {
            r = c->n_runs++;
            c->run_lead[r] = k;
            c->run_job[r] = job;
        }
        c->run_of[k] = r;
    }
    c->total = c->n_jobs + c->n_runs;
    return TRAPEZE_OK;
}

/* Under the pool's lock: one task more is done. */
static trapeze_status task_done(void *arg, int k, trapeze_error *err)
{
    (void)k;
    (void)err;
    vctx *c = arg;
    if (c->progress)
        c->progress(c->progress_ctx, ++c->done, c->total);
    return TRAPEZE_OK;
}

/* The rows' layout: n jobs x structures x (model, seed, sweep). */
static trapeze_status lay_out(vctx *c, int n, trapeze_error *err)
{
    double theta[TRAPEZE_PS_SLEEPABLE][48][TRAPEZE_SLEEP_MAX_MODES] = {{{0}}};
    int ns[TRAPEZE_PS_SLEEPABLE], rows = 0;
    for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++)
        rows += 2 + (ns[x] = sweep_settings(x, theta[x]));
    rows *= n;
    c->task = calloc((size_t)(rows ? rows : 1), sizeof *c->task);
    c->row_insts = calloc((size_t)(rows ? rows : 1), sizeof *c->row_insts);
    c->v->rows = calloc((size_t)(rows ? rows : 1), sizeof *c->v->rows);
    if (!c->task || !c->row_insts || !c->v->rows)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++)
            for (int st = 0; st < 2 + ns[x]; st++, k++) {
                c->task[k] = (vtask){.job = i, .x = x, .setting = st};
                if (st >= 2)
                    memcpy(c->task[k].theta, theta[x][st - 2], sizeof c->task[k].theta);
            }
    c->v->n_rows = c->v->cap_rows = rows;
    c->n_jobs = n;
    c->total = n + rows;   /* until plan_runs counts the simulations */
    return TRAPEZE_OK;
}

/* Per job and structure: the summary, the best swept setting within the
 * budget (the first of equal savings, as a sequential pass finds it). */
static void summarize(vctx *c, int n)
{
    trapeze_sleep_validation *v = c->v;
    v->jobs = n;
    for (int i = 0; i < n; i++) {
        v->sample_insts += c->vj[i].insts;
        v->sample_cycles += c->vj[i].cycles;
        v->jumped += c->vj[i].jumped;
        v->jump_simulated += c->vj[i].jumped ? c->vj[i].simulated : 0;
    }
    for (int k = 0; k < v->n_rows; k++) {
        const vtask *t = &c->task[k];
        v->sweep_insts += c->row_insts[k];
        v->sweep_runs++;
        if (t->setting == 0) {
            trapeze_sleep_vsummary *sm = &v->summary[v->n_summary++];
            memset(sm, 0, sizeof *sm);
            snprintf(sm->job, sizeof sm->job, "%s", c->jobs[t->job].spec);
            sm->structure = t->x;
            sm->ks = c->vj[t->job].pk[t->x].fit.ks_all;
            sm->window_cycles = c->vj[t->job].cycles;
            sm->cut = c->vj[t->job].cut;
            sm->model = k;
            sm->seed = k + 1;
            sm->run_cycles = v->rows[k].sim_cycles;
            /* any whole run of the job issues the same warp instructions */
            sm->sample_insts = c->vj[t->job].insts;
            sm->run_insts = c->row_insts[k];
            sm->cap_smallest = c->vj[t->job].cap_smallest;
            if (c->vj[t->job].jumped && t->x == 0)
                v->jump_runs += sm->run_cycles;
            sm->best = -1;
        }
        trapeze_sleep_vsummary *sm = &v->summary[v->n_summary - 1];
        const trapeze_sleep_vrow *r = &v->rows[k];
        if (t->setting >= 2 && r->sim_penalty <= v->max_penalty &&
            (sm->best < 0 || r->sim_saving > v->rows[sm->best].sim_saving))
            sm->best = k;
    }
    for (int i = 0; i < v->n_summary; i++)
        if (v->summary[i].best >= 0)
            v->rows[v->summary[i].best].best = 1;
}

trapeze_status trapeze_sleep_validate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *jobs, int n, double window_cycles,
                                      double spread_cycles, double cap, double max_penalty,
                                      int use_fit,
                                      int threads,
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
    vctx c = {.cfg = cfg, .pw = pw, .jobs = jobs, .clock_hz = gpu.core_clock_hz,
              .window = window_cycles, .spread = spread_cycles, .cap = cap, .budget = max_penalty,
              .use_fit = use_fit, .v = v, .progress = progress, .progress_ctx = ctx};
    v->summary = calloc((size_t)(n ? n : 1) * TRAPEZE_PS_SLEEPABLE, sizeof *v->summary);
    c.vj = calloc((size_t)(n ? n : 1), sizeof *c.vj);
    if (!v->summary || !c.vj)
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = lay_out(&c, n, err);
    if (!s)
        s = sampler_budget_run(n, threads, &c.sim_threads, window_task, task_done, &c, err);
    if (!s)
        s = plan_runs(&c, err);
    if (!s)
        s = sampler_budget_run(c.n_runs, threads, &c.sim_threads, run_task, task_done, &c, err);
    if (!s) {
        summarize(&c, n);
        v->simulations = c.n_runs;
    }
    for (int i = 0; c.vj && i < n; i++)
        for (int x = 0; x < c.vj[i].n_pk; x++)
            trapeze_sleep_destroy(c.vj[i].pk[x].m);
    free(c.vj);
    free(c.task);
    free(c.row_insts);
    free(c.run_of);
    free(c.run_lead);
    free(c.run_job);
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
        /* a choice over the budget misses, whatever it saves */
        t->ratio_met += sm->ratio >= 0.99 && m->sim_penalty <= v->max_penalty;
        t->saving_met += fabs(m->pred_saving - m->sim_saving) <= 0.03;
        t->penalty_met += fabs(m->pred_penalty - m->sim_penalty) <= 0.005;
        t->over_budget += m->sim_penalty > v->max_penalty;
        if (m->sim_penalty - v->max_penalty > t->worst_over)
            t->worst_over = m->sim_penalty - v->max_penalty;
        double gap = best - m->sim_saving;
        t->point_met += gap <= 0.01 && m->sim_penalty <= v->max_penalty;
        if (gap > t->worst_point_gap)
            t->worst_point_gap = gap;
        if (sm->structure != TRAPEZE_PS_RF) {
            t->cache_rows++;
            t->cache_above_floor += m->n_modes > 0 && m->theta[0] > 0;
        }
        if (sm->structure == 0) {   /* once per job */
            double f = sm->run_insts > 0 ? sm->sample_insts / sm->run_insts : 1;
            t->jobs++;
            t->quarter_met += f <= 0.25;
            if (f > t->worst_run_fraction)
                t->worst_run_fraction = f;
        }
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
