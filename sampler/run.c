/*
 * run.c - running samples: a pool of worker threads that takes rows in
 * order, each on its own simulator, and the calibration run that skips rows
 * already in samples.csv and appends each new one the moment it ends. Owns
 * concurrency and resumption; must not plan, time or fit samples.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

typedef struct {
    const trapeze_calib_plan *plan;
    trapeze_sample *rows;
    int n, next;
    sampler_done_fn done;
    void *ctx;
    pthread_mutex_t lock;
    int failed_at;            /* lowest failing row, n when none */
    trapeze_error first;
} pool;

static void fail_row(pool *p, int i, const trapeze_error *e)
{
    if (i < p->failed_at) {
        p->failed_at = i;
        p->first = *e;
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = p->failed_at < p->n ? p->n : p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        trapeze_error e;
        trapeze_status s = sampler_run_row(p->plan, &p->rows[i], &e);
        pthread_mutex_lock(&p->lock);
        if (!s && p->done)
            s = p->done(p->ctx, i, &p->rows[i], &e);
        if (s)
            fail_row(p, i, &e);
        pthread_mutex_unlock(&p->lock);
    }
}

trapeze_status sampler_run_rows(const trapeze_calib_plan *plan, trapeze_sample *rows, int n,
                                int threads, sampler_done_fn done, void *ctx,
                                trapeze_error *err)
{
    pool p = {.plan = plan, .rows = rows, .n = n, .done = done, .ctx = ctx, .failed_at = n};
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

/* ---- a calibration run over samples.csv ---- */

typedef struct {
    trapeze_sample_log *log;
    int done, total;
    trapeze_calib_progress progress;
    void *ctx;
} run_ctx;

static trapeze_status append_row(void *arg, int i, const trapeze_sample *row, trapeze_error *err)
{
    (void)i;
    run_ctx *r = arg;
    trapeze_status s = trapeze_sample_log_append(r->log, row, err);
    if (!s && r->progress)
        r->progress(r->ctx, ++r->done, r->total, row);
    return s;
}

/* A logged row must be the sample planned under its id. */
static trapeze_status same_sample(const trapeze_sample *planned, const trapeze_sample *logged,
                                  trapeze_error *err)
{
    int same = planned->h == logged->h && planned->sync == logged->sync &&
               planned->stages == logged->stages && strcmp(planned->kind, logged->kind) == 0;
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        same = same && planned->data_len[d] == logged->data_len[d];
    if (!same)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "samples.csv: row %s does not match the planned sample of that id",
                            planned->id);
    return TRAPEZE_OK;
}

trapeze_status trapeze_calib_pending(const trapeze_calib_plan *plan,
                                     const trapeze_sample_log *log, int *todo, int *n,
                                     trapeze_error *err)
{
    *n = 0;
    for (int i = 0; i < plan->count; i++) {
        const trapeze_sample *logged = trapeze_sample_log_find(log, plan->rows[i].id);
        trapeze_status s = logged ? same_sample(&plan->rows[i], logged, err) : TRAPEZE_OK;
        if (s)
            return s;
        if (!logged)
            todo[(*n)++] = i;
    }
    return TRAPEZE_OK;
}

trapeze_status trapeze_calib_run(const trapeze_calib_plan *plan, trapeze_sample_log *log,
                                 int threads, trapeze_calib_progress progress, void *ctx,
                                 trapeze_error *err)
{
    size_t room = (size_t)(plan->count ? plan->count : 1);
    trapeze_sample *todo = malloc(room * sizeof *todo);
    const char **ids = malloc(room * sizeof *ids);
    int *pending = malloc(room * sizeof *pending), n = 0;
    trapeze_status s = todo && ids && pending ? TRAPEZE_OK
                                              : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = trapeze_calib_pending(plan, log, pending, &n, err);
    for (int i = 0; !s && i < plan->count; i++)
        ids[i] = plan->rows[i].id;
    for (int k = 0; !s && k < n; k++)
        todo[k] = plan->rows[pending[k]];
    run_ctx r = {.log = log, .done = plan->count - n, .total = plan->count,
                 .progress = progress, .ctx = ctx};
    if (!s)
        s = sampler_run_rows(plan, todo, n, threads, append_row, &r, err);
    if (!s)
        s = trapeze_sample_log_sort(log, ids, plan->count, err);
    free(todo);
    free(ids);
    free(pending);
    return s;
}
