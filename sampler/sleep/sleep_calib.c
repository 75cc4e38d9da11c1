/*
 * sleep_calib.c - learning the sleep model from short windows
 * (`trapeze calibrate --model sleep`): the samples log rows of model
 * "sleep" (one per job: a window of its run, sleep_sample.c), planned, run
 * in threads and resumed by trapeze_samples_run like every other log; each
 * row's run fits the idle-period distribution of the window (KS distance
 * reported) and picks, per structure, the thresholds under the penalty
 * budget (model/sleep_opt.c). Owns the schema and the choice of one
 * structure on one window, which validation (sleep_validate.c) shares; no
 * simulation of its own, no format but the log's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sleep/sleep_calib.h"

static const char *const sleep_kinds[] = {"window", NULL};
#define BIG 1e300

/* The unit each structure's policy works at (sleep_sample.c's order):
 * l1d line, l2 line, rf warp_reg. */
const int sampler_sleep_unit[TRAPEZE_PS_SLEEPABLE] = {0, 2, 4};

enum {
    S_JOB, S_GPU, S_WINDOW, S_SPREAD, S_MAX_PENALTY, S_FIT,
    S_CYCLES, S_WARP_INSTS, S_CUT, S_CENSORED,
    S_THETA0,
    S_SAVING0 = S_THETA0 + TRAPEZE_PS_SLEEPABLE,
    S_PENALTY0 = S_SAVING0 + TRAPEZE_PS_SLEEPABLE,
    S_KS0 = S_PENALTY0 + TRAPEZE_PS_SLEEPABLE,
    S_NFIELDS = S_KS0 + TRAPEZE_PS_SLEEPABLE
};

static const trapeze_field sleep_fields[] = {
    {"job", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"gpu", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"window_cycles", TRAPEZE_FIELD_REAL, 0, 0, BIG, NULL},
    {"spread_cycles", TRAPEZE_FIELD_REAL, 0, -BIG, BIG, NULL},   /* < 0: jump */
    {"max_penalty", TRAPEZE_FIELD_REAL, 0, 0, 1, NULL},
    {"fit", TRAPEZE_FIELD_INT, 0, 0, 1, NULL},
    {"cycles", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"warp_instructions", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"cut", TRAPEZE_FIELD_INT, 1, 0, 1, NULL},
    {"censored_periods", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l1d_thresholds", TRAPEZE_FIELD_TEXT, 1, 0, 0, NULL},
    {"l2_thresholds", TRAPEZE_FIELD_TEXT, 1, 0, 0, NULL},
    {"rf_thresholds", TRAPEZE_FIELD_TEXT, 1, 0, 0, NULL},
    {"l1d_saving", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"l2_saving", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"rf_saving", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"l1d_penalty", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l2_penalty", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"rf_penalty", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l1d_fit_ks", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"l2_fit_ks", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"rf_fit_ks", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
};
_Static_assert(S_NFIELDS == sizeof sleep_fields / sizeof sleep_fields[0], "sleep fields");
_Static_assert(S_NFIELDS <= TRAPEZE_ROW_MAX_FIELDS, "sleep fields fit a row");

const trapeze_row_schema trapeze_sleep_schema = {
    .model = "sleep",
    .nfields = S_NFIELDS,
    .fields = sleep_fields,
    .program_kinds = sleep_kinds,
};

/* ---------------------------------------- one structure on one window */

trapeze_status sampler_sleep_choose(const trapeze_power *pw, double clock_hz,
                                    const trapeze_idle_hist *h, int x, double max_penalty,
                                    int use_fit, sampler_sleep_pick *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    trapeze_status s = trapeze_sleep_structure_from_power(pw, (trapeze_power_structure)x,
                                                          clock_hz, &out->st, err);
    if (s)
        return s;
    out->policy = trapeze_sleep_options_preset((trapeze_power_structure)x, &out->st, &out->o);
    trapeze_idle_hist *smooth = malloc(sizeof *smooth);
    if (!smooth)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    /* the fit is always made, for its goodness of fit; the model reads it
     * only when asked to (use_fit), else the window's counts themselves */
    if (!(s = trapeze_idle_hist_fit(h, 8, 50, &out->fit, smooth, err)) &&
        !(s = trapeze_sleep_create(&out->st, use_fit ? smooth : h, &out->o, &out->m, err)) &&
        (s = trapeze_sleep_optimize(out->m, max_penalty, &out->c, err))) {
        trapeze_sleep_destroy(out->m);
        out->m = NULL;
    }
    free(smooth);
    return s;
}

void sampler_sleep_theta_text(const double *theta, int n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; m < n && used < size; m++)
        used += (size_t)snprintf(buf + used, size - used, "%s%.0f", m ? "/" : "", theta[m]);
}

/* ------------------------------------------------------ the samples log */

struct trapeze_sleep_plan {
    const trapeze_config *cfg;
    trapeze_power pw;
    double clock_hz;
    trapeze_sleep_job *jobs;
    trapeze_sample_row *rows;
    trapeze_sample_set set;
    int sim_threads;   /* each row's share of the run's threads (set.sim_threads) */
};

static trapeze_status run_row(const void *ctx, int i, trapeze_sample_row *out,
                              trapeze_error *err)
{
    const trapeze_sleep_plan *p = ctx;
    const trapeze_sample_row *in = &p->rows[i];
    trapeze_sleep_run *r = malloc(sizeof *r);
    if (!r)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_sleep_job job = p->jobs[i];
    job.threads = p->sim_threads;
    trapeze_status s = trapeze_sleep_window(p->cfg, &p->pw, &job, in->value[S_WINDOW],
                                            in->value[S_SPREAD], r, err);
    if (!s) {
        *out = *in;
        out->value[S_CYCLES] = r->cycles;
        out->value[S_WARP_INSTS] = r->warp_insts;
        out->value[S_CUT] = r->cut;
        out->value[S_CENSORED] = r->censored;
    }
    for (int x = 0; !s && x < TRAPEZE_PS_SLEEPABLE; x++) {
        sampler_sleep_pick pk;
        s = sampler_sleep_choose(&p->pw, p->clock_hz, &r->hist[sampler_sleep_unit[x]], x,
                                 in->value[S_MAX_PENALTY], (int)in->value[S_FIT], &pk, err);
        if (s)
            break;
        sampler_sleep_theta_text(pk.c.theta_int, pk.st.n_modes, out->text[S_THETA0 + x],
                                 TRAPEZE_ROW_TEXT);
        out->value[S_SAVING0 + x] = pk.c.chosen.saving_fraction;
        out->value[S_PENALTY0 + x] = pk.c.chosen.penalty_fraction;
        out->value[S_KS0 + x] = pk.fit.ks_all;
        trapeze_sleep_destroy(pk.m);
    }
    free(r);
    return s;
}

trapeze_status trapeze_sleep_plan_create(const trapeze_config *cfg, const trapeze_power *pw,
                                         const trapeze_sleep_job *jobs, int n,
                                         double window_cycles, double spread_cycles,
                                         double max_penalty, int use_fit,
                                         trapeze_sleep_plan **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_gpu gpu;
    trapeze_status s = trapeze_gpu_from_config(cfg, &gpu, err);
    if (s)
        return s;
    trapeze_sleep_plan *p = calloc(1, sizeof *p);
    if (!p || !(p->jobs = calloc((size_t)(n ? n : 1), sizeof *p->jobs)) ||
        !(p->rows = calloc((size_t)(n ? n : 1), sizeof *p->rows))) {
        trapeze_sleep_plan_destroy(p);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    p->cfg = cfg;
    p->pw = *pw;
    p->clock_hz = gpu.core_clock_hz;
    for (int i = 0; i < n; i++) {
        p->jobs[i] = jobs[i];
        trapeze_sample_row *r = &p->rows[i];
        for (int k = 0; k < i; k++)
            if (!strcmp(jobs[k].spec, jobs[i].spec)) {
                trapeze_sleep_plan_destroy(p);
                return trapeze_fail(err, TRAPEZE_EINVAL, "job '%s' given twice", jobs[i].spec);
            }
        trapeze_row_init(r, &trapeze_sleep_schema, jobs[i].spec, "window");
        snprintf(r->text[S_JOB], TRAPEZE_ROW_TEXT, "%s", jobs[i].spec);
        snprintf(r->text[S_GPU], TRAPEZE_ROW_TEXT, "%s", gpu.name);
        r->value[S_WINDOW] = window_cycles;
        r->value[S_SPREAD] = spread_cycles;
        r->value[S_MAX_PENALTY] = max_penalty;
        r->value[S_FIT] = use_fit ? 1 : 0;
    }
    p->set = (trapeze_sample_set){.schema = &trapeze_sleep_schema, .count = n, .rows = p->rows,
                                  .run = run_row, .ctx = p, .sim_threads = &p->sim_threads};
    p->sim_threads = 1;
    *out = p;
    return TRAPEZE_OK;
}

void trapeze_sleep_plan_destroy(trapeze_sleep_plan *p)
{
    if (!p)
        return;
    free(p->jobs);
    free(p->rows);
    free(p);
}

const trapeze_sample_set *trapeze_sleep_plan_set(const trapeze_sleep_plan *p) { return &p->set; }

trapeze_status trapeze_sleep_from_row(const trapeze_sample_row *row, trapeze_sleep_sampled *out,
                                      trapeze_error *err)
{
    if (row->schema != &trapeze_sleep_schema)
        return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s: a %s row, not a sleep one", row->id,
                            row->schema ? row->schema->model : "?");
    memset(out, 0, sizeof *out);
    snprintf(out->job, sizeof out->job, "%s", row->text[S_JOB]);
    snprintf(out->gpu, sizeof out->gpu, "%s", row->text[S_GPU]);
    out->window_cycles = row->value[S_WINDOW];
    out->spread_cycles = row->value[S_SPREAD];
    out->cycles = row->value[S_CYCLES];
    out->warp_insts = row->value[S_WARP_INSTS];
    out->cut = (int)row->value[S_CUT];
    out->censored = row->value[S_CENSORED];
    for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++) {
        out->saving[x] = row->value[S_SAVING0 + x];
        out->penalty[x] = row->value[S_PENALTY0 + x];
        out->ks[x] = row->value[S_KS0 + x];
        const char *t = row->text[S_THETA0 + x];
        while (*t && out->n_modes[x] < TRAPEZE_SLEEP_MAX_MODES) {
            char *end;
            out->theta[x][out->n_modes[x]++] = strtod(t, &end);
            if (end == t || (*end && *end != '/'))
                return trapeze_fail(err, TRAPEZE_EPARSE, "sample %s: thresholds '%s' are not "
                                    "A/B/C", row->id, row->text[S_THETA0 + x]);
            t = *end ? end + 1 : end;
        }
        if (!out->n_modes[x])
            return trapeze_fail(err, TRAPEZE_EPARSE, "sample %s: no %s thresholds", row->id,
                                trapeze_power_structure_name((trapeze_power_structure)x));
    }
    return TRAPEZE_OK;
}

static const char *const result_columns[] = {
    "gpu", "kernel", "structure", "thresholds", "pred_saving", "pred_penalty", "fit_ks",
    "window_cycles", "sampled_cycles", "cut"};

trapeze_status trapeze_sleep_calib_write_csv(const trapeze_sleep_plan *p,
                                             const trapeze_sample_log *log, const char *path,
                                             trapeze_error *err)
{
    trapeze_csv_out *csv = NULL;
    trapeze_status s = trapeze_csv_create(path, result_columns,
                                          (int)(sizeof result_columns / sizeof *result_columns),
                                          &csv, err);
    for (int i = 0; !s && i < p->set.count; i++) {
        const trapeze_sample_row *row = trapeze_sample_log_find_row(log, p->rows[i].id);
        trapeze_sleep_sampled r;
        if (!row) {
            s = trapeze_fail(err, TRAPEZE_EINVAL, "%s has no row %s: run the samples first",
                             trapeze_sample_log_path(log), p->rows[i].id);
            break;
        }
        if ((s = trapeze_sleep_from_row(row, &r, err)))
            break;
        for (int x = 0; !s && x < TRAPEZE_PS_SLEEPABLE; x++) {
            char th[64];
            sampler_sleep_theta_text(r.theta[x], r.n_modes[x], th, sizeof th);
            trapeze_csv_text(csv, r.gpu);
            trapeze_csv_text(csv, r.job);
            trapeze_csv_text(csv, trapeze_power_structure_name((trapeze_power_structure)x));
            trapeze_csv_text(csv, th);
            trapeze_csv_number(csv, r.saving[x]);
            trapeze_csv_number(csv, r.penalty[x]);
            trapeze_csv_number(csv, r.ks[x]);
            trapeze_csv_number(csv, r.window_cycles);
            trapeze_csv_number(csv, r.cycles);
            trapeze_csv_number(csv, r.cut);
            s = trapeze_csv_end_row(csv, err);
        }
    }
    if (s) {
        trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}
