/*
 * run.c - running samples of any model: a pool of worker threads that takes
 * tasks in order (each sample on its own simulator), and the run of a
 * sample set that skips rows already in the log and appends each new one
 * the moment it ends; the calibration plan as such a set. Owns concurrency
 * and resumption; must not plan, time or fit samples.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

typedef struct {
    sampler_task_fn run, done;
    void *ctx;
    int n, next;
    pthread_mutex_t lock;
    int failed_at;            /* lowest failing task, n when none */
    trapeze_error first;
} pool;

static void fail_task(pool *p, int k, const trapeze_error *e)
{
    if (k < p->failed_at) {
        p->failed_at = k;
        p->first = *e;
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int k = p->failed_at < p->n ? p->n : p->next++;
        pthread_mutex_unlock(&p->lock);
        if (k >= p->n)
            return NULL;
        trapeze_error e = {0};
        trapeze_status s = p->run(p->ctx, k, &e);
        pthread_mutex_lock(&p->lock);
        if (!s && p->done)
            s = p->done(p->ctx, k, &e);
        if (s) {
            if (!e.code)
                e.code = s;
            fail_task(p, k, &e);
        }
        pthread_mutex_unlock(&p->lock);
    }
}

trapeze_status sampler_pool_run(int n, int threads, sampler_task_fn run, sampler_task_fn done,
                                void *ctx, trapeze_error *err)
{
    pool p = {.run = run, .done = done, .ctx = ctx, .n = n, .failed_at = n};
    if (threads < 1)
        threads = 1;
    if (threads > n)
        threads = n > 0 ? n : 1;
    pthread_mutex_init(&p.lock, NULL);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int started = 0;
    for (; tid && started < threads - 1; started++)
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
    worker(&p); /* the caller's thread works too */
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    pthread_mutex_destroy(&p.lock);
    if (p.failed_at < n) {
        if (err)
            *err = p.first;
        return p.first.code ? p.first.code : TRAPEZE_EFAIL;
    }
    return TRAPEZE_OK;
}

/* ---- ghost-zone rows of a plan, run in the pool ---- */

typedef struct {
    const trapeze_ghostzone_plan *plan;
    trapeze_sample *rows;
    sampler_done_fn done;
    void *ctx;
} gz_rows;

static trapeze_status run_gz_row(void *arg, int k, trapeze_error *err)
{
    gz_rows *g = arg;
    return sampler_run_row(g->plan, &g->rows[k], err);
}

static trapeze_status done_gz_row(void *arg, int k, trapeze_error *err)
{
    gz_rows *g = arg;
    return g->done ? g->done(g->ctx, k, &g->rows[k], err) : TRAPEZE_OK;
}

void sampler_share(int threads, int pending, int *workers, int *sim_threads)
{
    if (threads < 1)
        threads = 1;
    *workers = pending < 1 ? 1 : pending < threads ? pending : threads;
    *sim_threads = threads / *workers;
}

trapeze_status sampler_budget_run(int n, int threads, int *sim_threads, sampler_task_fn run,
                                  sampler_task_fn done, void *ctx, trapeze_error *err)
{
    int workers, per_sim;
    sampler_share(threads, n, &workers, &per_sim);
    if (sim_threads)   /* before any task starts: the tasks only read it */
        *sim_threads = per_sim;
    return sampler_pool_run(n, workers, run, done, ctx, err);
}

trapeze_status sampler_run_rows(const trapeze_ghostzone_plan *plan, trapeze_sample *rows, int n,
                                int threads, sampler_done_fn done, void *ctx,
                                trapeze_error *err)
{
    gz_rows g = {plan, rows, done, ctx};
    return sampler_budget_run(n, threads, plan->sim_threads, run_gz_row, done_gz_row, &g, err);
}

/* ---- a sample set run over its log ---- */

typedef struct {
    const trapeze_sample_set *set;
    trapeze_sample_log *log;
    const int *pending;          /* set index of task k */
    trapeze_sample_row *results; /* task k's row */
    const double *weight;        /* task k's planned work */
    trapeze_run_progress at;
    trapeze_sample_progress progress;
    void *ctx;
} set_run;

static trapeze_status run_set_row(void *arg, int k, trapeze_error *err)
{
    set_run *r = arg;
    r->results[k] = r->set->rows[r->pending[k]];
    return r->set->run(r->set->ctx, r->pending[k], &r->results[k], err);
}

static trapeze_status append_set_row(void *arg, int k, trapeze_error *err)
{
    set_run *r = arg;
    trapeze_status s = trapeze_sample_log_append_row(r->log, &r->results[k], err);
    r->at.done++;
    r->at.work_done += r->weight[k];
    if (!s && r->progress)
        r->progress(r->ctx, &r->at, &r->results[k]);
    return s;
}

trapeze_status trapeze_samples_pending(const trapeze_sample_set *set,
                                       const trapeze_sample_log *log, int *todo, int *n,
                                       trapeze_error *err)
{
    *n = 0;
    if (trapeze_sample_log_schema(log) != set->schema)
        return trapeze_fail(err, TRAPEZE_EINVAL, "samples log of %s rows, plan of %s rows",
                            trapeze_sample_log_schema(log)->model, set->schema->model);
    for (int i = 0; i < set->count; i++) {
        const trapeze_sample_row *logged = trapeze_sample_log_find_row(log, set->rows[i].id);
        if (logged && !trapeze_row_same_inputs(&set->rows[i], logged))
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "%s: row %s does not match the planned sample of that id",
                                trapeze_sample_log_path(log), set->rows[i].id);
        if (!logged)
            todo[(*n)++] = i;
    }
    return TRAPEZE_OK;
}

trapeze_status sampler_sweep_logged(const trapeze_sample_log *log, const trapeze_sample *planned,
                                    const trapeze_sample **found, trapeze_error *err)
{
    *found = log ? trapeze_sample_log_find(log, planned->id) : NULL;
    if (!*found)
        return TRAPEZE_OK;
    trapeze_sample_row a, b;
    trapeze_ghostzone_sample_to_row(planned, &a);
    trapeze_ghostzone_sample_to_row(*found, &b);
    if (trapeze_row_same_inputs(&a, &b))
        return TRAPEZE_OK;
    *found = NULL;
    return trapeze_fail(err, TRAPEZE_EPARSE,
                        "%s: row %s does not match the planned run of that id (made by another "
                        "plan: remove the log or give another one)",
                        trapeze_sample_log_path(log), planned->id);
}

typedef struct {
    trapeze_run_progress at;
    const double *weight;     /* by task, as index */
    trapeze_ghostzone_progress fn;
    void *ctx;
    trapeze_sample_log *log;
    trapeze_sample *rows;     /* the whole sweep, results copied back by index */
    const int *index;
} sweep_progress;

static trapeze_status sweep_finished(void *arg, int i, const trapeze_sample *row,
                                     trapeze_error *err)
{
    sweep_progress *pr = arg;
    pr->rows[pr->index[i]] = *row;
    trapeze_status s = pr->log ? trapeze_sample_log_append(pr->log, row, err) : TRAPEZE_OK;
    pr->at.done++;
    pr->at.work_done += pr->weight[i];
    if (!s && pr->fn)
        pr->fn(pr->ctx, &pr->at, row);
    return s;
}

trapeze_status sampler_sweep_run(const trapeze_ghostzone_plan *plan, trapeze_sample *rows, int n,
                                 trapeze_sample_log *sweep_log, int threads,
                                 trapeze_ghostzone_progress progress, void *ctx, trapeze_error *err)
{
    size_t room = (size_t)(n ? n : 1);
    trapeze_sample *todo = malloc(room * sizeof *todo);
    int *index = malloc(room * sizeof *index), m = 0;
    const char **ids = malloc(room * sizeof *ids);
    double *weight = malloc(room * sizeof *weight), work = 0;
    trapeze_status s = todo && index && ids && weight
                           ? TRAPEZE_OK
                           : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; !s && i < n; i++) {
        const trapeze_sample *done = NULL;
        s = sampler_sweep_logged(sweep_log, &rows[i], &done, err);
        if (done) {
            rows[i] = *done;
        } else if (plan->opt.logged_only) {
            rows[i].cpl_cycles = 0; /* not measured: the caller leaves it out */
        } else {
            index[m] = i;
            weight[m] = trapeze_ghostzone_sample_cost(plan, &rows[i]);
            work += weight[m];
            todo[m++] = rows[i];
        }
        ids[i] = rows[i].id;
    }
    sweep_progress pr = {.at = {.done = n - m, .total = n, .work_total = work},
                         .weight = weight, .fn = progress, .ctx = ctx, .log = sweep_log,
                         .rows = rows, .index = index};
    if (!s)
        s = sampler_run_rows(plan, todo, m, threads, sweep_finished, &pr, err);
    /* Sweep order, whatever the threads; a run that simulated nothing (every
     * point logged, or --logged-only) leaves the log byte for byte as it was. */
    if (!s && sweep_log && m > 0)
        s = trapeze_sample_log_sort(sweep_log, ids, n, err);
    free(ids);
    free(todo);
    free(index);
    free(weight);
    return s;
}

trapeze_status trapeze_samples_run(const trapeze_sample_set *set, trapeze_sample_log *log,
                                   int threads, trapeze_sample_progress progress, void *ctx,
                                   trapeze_error *err)
{
    size_t room = (size_t)(set->count ? set->count : 1);
    trapeze_sample_row *results = malloc(room * sizeof *results);
    const char **ids = malloc(room * sizeof *ids);
    int *pending = malloc(room * sizeof *pending), n = 0;
    double *weight = malloc(room * sizeof *weight), work = 0;
    trapeze_status s = results && ids && pending && weight
                           ? TRAPEZE_OK
                           : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = trapeze_samples_pending(set, log, pending, &n, err);
    for (int i = 0; !s && i < set->count; i++)
        ids[i] = set->rows[i].id;
    for (int k = 0; !s && k < n; k++)
        work += weight[k] = set->cost ? set->cost(set->ctx, pending[k]) : 1;
    set_run r = {.set = set, .log = log, .pending = pending, .results = results,
                 .weight = weight,
                 .at = {.done = set->count - n, .total = set->count, .work_total = work},
                 .progress = progress, .ctx = ctx};
    if (!s)
        s = sampler_budget_run(n, threads, set->sim_threads, run_set_row, append_set_row, &r,
                               err);
    if (!s)
        s = trapeze_sample_log_sort(log, ids, set->count, err);
    free(results);
    free(ids);
    free(pending);
    free(weight);
    return s;
}

/* ---- the calibration plan as a sample set ---- */

static double plan_row_cost(const void *ctx, int i)
{
    const trapeze_ghostzone_plan *plan = ctx;
    return trapeze_ghostzone_sample_cost(plan, &plan->rows[i]);
}

static trapeze_status run_plan_row(const void *ctx, int i, trapeze_sample_row *out,
                                   trapeze_error *err)
{
    const trapeze_ghostzone_plan *plan = ctx;
    trapeze_sample row;
    trapeze_status s = trapeze_ghostzone_run_sample(plan, i, &row, err);
    if (!s)
        trapeze_ghostzone_sample_to_row(&row, out);
    return s;
}

trapeze_status sampler_plan_set(trapeze_ghostzone_plan *plan, trapeze_error *err)
{
    plan->set_rows = calloc((size_t)(plan->count ? plan->count : 1), sizeof *plan->set_rows);
    if (!plan->set_rows)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    for (int i = 0; i < plan->count; i++)
        trapeze_ghostzone_sample_to_row(&plan->rows[i], &plan->set_rows[i]);
    plan->set = (trapeze_sample_set){&trapeze_ghostzone_sample_schema, plan->count, plan->set_rows,
                                     run_plan_row, plan, plan_row_cost, plan->sim_threads};
    return TRAPEZE_OK;
}

const trapeze_sample_set *trapeze_ghostzone_plan_set(const trapeze_ghostzone_plan *plan)
{
    return &plan->set;
}

trapeze_status trapeze_ghostzone_pending(const trapeze_ghostzone_plan *plan,
                                         const trapeze_sample_log *log, int *todo, int *n,
                                         trapeze_error *err)
{
    return trapeze_samples_pending(&plan->set, log, todo, n, err);
}

/* The ghost-zone progress callback, called with each generic row. */
typedef struct {
    trapeze_ghostzone_progress fn;
    void *ctx;
} gz_progress;

static void gz_progress_row(void *arg, const trapeze_run_progress *p,
                            const trapeze_sample_row *row)
{
    gz_progress *g = arg;
    trapeze_sample s;
    if (trapeze_ghostzone_sample_from_row(row, &s, NULL) == TRAPEZE_OK)
        g->fn(g->ctx, p, &s);
}

trapeze_status trapeze_ghostzone_run(const trapeze_ghostzone_plan *plan, trapeze_sample_log *log,
                                     int threads, trapeze_ghostzone_progress progress, void *ctx,
                                     trapeze_error *err)
{
    gz_progress g = {progress, ctx};
    return trapeze_samples_run(&plan->set, log, threads, progress ? gz_progress_row : NULL, &g,
                               err);
}
