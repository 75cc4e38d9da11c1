/*
 * ghostzone_verify.c - `trapeze ghostzone --verify N` as a user waits for
 * it: the model's N best simulated in batches of --threads, then the search
 * along h, one candidate at a time, each announced on stderr with its stage
 * and the time left (warp instructions estimated per candidate by the
 * library, so a tall h or a fence run weighs what it costs); a SIGINT
 * prints what was verified so far. Every simulation and every choice of
 * the next candidate is a library call; this file owns the progress, the
 * interrupt and the verify lines' format.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/ghostzone_verify.h"

#define MAX_BATCH 32 /* --threads is at most 32 */

/* One verification: the candidates, what the interrupt prints, the
 * progress. `lock` guards c[].cpl_sim and the progress line: the watcher
 * thread prints them on SIGINT while the main thread simulates. */
typedef struct {
    const trapeze_workload *w;
    trapeze_ghostzone_choice *c;
    int n, k, stages;
    pthread_mutex_t lock;
    sigset_t interrupt;
    int finished;       /* under lock: the watcher returns */
    cli_progress bar;
    char prefix[96];
    double done, total; /* estimated warp instructions */
} verify_run;

int cli_gz_verify_print(FILE *out, const trapeze_workload *w, const trapeze_ghostzone_choice *c, int n,
                        int k, double *work)
{
    int best = -1;
    *work = 0;
    for (int i = 0; i < n; i++) {
        if (!(c[i].cpl_sim > 0))
            continue;
        fprintf(out, "%-12s verify: %-8s h=%-3d cpl_sim %12.1f  model %12.1f (%+.2f%%)%s\n",
                w->name, trapeze_sync_name(c[i].sync), c[i].h, c[i].cpl_sim, c[i].cpl_model,
                100 * (c[i].cpl_model / c[i].cpl_sim - 1), i < k ? "" : "  (searched)");
        *work += c[i].warp_instructions;
        if (best < 0 || c[i].cpl_sim < c[best].cpl_sim)
            best = i;
    }
    return best;
}

/* The watcher: waits for SIGINT (blocked in every other thread), then
 * prints what is verified and ends the program; returns within a tenth of
 * a second of the verification's end (polling: pthread_cancel would unwind
 * a thread blocked in sigwait, which the sanitizers' runtime mishandles). */
static void *watch_interrupt(void *arg)
{
    verify_run *v = arg;
    const struct timespec tick = {0, 100000000};
    for (;;) {
        int sig = sigtimedwait(&v->interrupt, NULL, &tick);
        pthread_mutex_lock(&v->lock);
        if (sig == SIGINT)
            break; /* keeps the lock: the main thread reports no more */
        int finished = v->finished;
        pthread_mutex_unlock(&v->lock);
        if (finished)
            return NULL;
    }
    if (v->bar.on == 1)
        fputc('\n', stderr); /* below the overwritten line */
    double work;
    int best = cli_gz_verify_print(stdout, v->w, v->c, v->n, v->k, &work);
    if (best < 0)
        printf("%-12s interrupted: nothing simulated yet\n", v->w->name);
    else
        printf("%-12s interrupted: the fastest so far is %s h=%d (cpl_sim %.1f), %.4g warp "
               "instructions simulated\n", v->w->name, trapeze_sync_name(v->c[best].sync),
               v->c[best].h, v->c[best].cpl_sim, work);
    fflush(stdout);
    _exit(130);
}

static void report(verify_run *v, const char *detail)
{
    pthread_mutex_lock(&v->lock);
    cli_progress_update(&v->bar, v->done, v->total, "warp instructions", detail);
    pthread_mutex_unlock(&v->lock);
}

/* Simulates the candidates idx[0..count) together; their results reach
 * v->c under the lock, so an interrupt never prints half a row. */
static trapeze_status run_batch(verify_run *v, const char *gpu_path, const int *idx, int count,
                                const char *stage, int threads, trapeze_error *err)
{
    trapeze_ghostzone_choice batch[MAX_BATCH];
    char detail[128];
    int len = snprintf(detail, sizeof detail, "%s:", stage);
    for (int j = 0; j < count; j++) {
        batch[j] = v->c[idx[j]];
        if (len < (int)sizeof detail)
            len += snprintf(detail + len, sizeof detail - (size_t)len, "%s %s h=%d",
                            j ? "," : "", trapeze_sync_name(batch[j].sync), batch[j].h);
    }
    report(v, detail);
    trapeze_status s = trapeze_ghostzone_verify(gpu_path, v->w, batch, count, v->stages, threads, err);
    pthread_mutex_lock(&v->lock);
    for (int j = 0; !s && j < count; j++) {
        v->c[idx[j]].cpl_sim = batch[j].cpl_sim;
        v->c[idx[j]].warp_instructions = batch[j].warp_instructions;
        v->done += trapeze_ghostzone_verify_cost(v->w, batch[j].sync, batch[j].h, v->stages);
    }
    pthread_mutex_unlock(&v->lock);
    return s;
}

static trapeze_status run_all(verify_run *v, const char *gpu_path, int threads, int *searched,
                              trapeze_error *err)
{
    trapeze_status s = TRAPEZE_OK;
    int batch = threads < 1 ? 1 : threads > MAX_BATCH ? MAX_BATCH : threads;
    for (int i = 0; i < v->k; i++)
        v->total += trapeze_ghostzone_verify_cost(v->w, v->c[i].sync, v->c[i].h, v->stages);
    for (int first = 0; !s && first < v->k; first += batch) {
        int idx[MAX_BATCH], count = v->k - first < batch ? v->k - first : batch;
        for (int j = 0; j < count; j++)
            idx[j] = first + j;
        char stage[64];
        if (count == 1)
            snprintf(stage, sizeof stage, "model's best %d of %d", first + 1, v->k);
        else
            snprintf(stage, sizeof stage, "model's best %d-%d of %d", first + 1, first + count,
                     v->k);
        s = run_batch(v, gpu_path, idx, count, stage, threads, err);
    }
    while (!s && *searched < TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH) {
        int i = trapeze_ghostzone_verify_next(v->c, v->n);
        if (i < 0)
            break;
        ++*searched;
        char stage[64];
        snprintf(stage, sizeof stage, "search along h, run %d", *searched);
        v->total += trapeze_ghostzone_verify_cost(v->w, v->c[i].sync, v->c[i].h, v->stages);
        s = run_batch(v, gpu_path, &i, 1, stage, threads, err);
    }
    if (!s) {
        v->total = v->done;
        report(v, "done");
    }
    return s;
}

trapeze_status cli_gz_verify(const char *gpu_path, const trapeze_workload *w, trapeze_ghostzone_choice *c,
                             int n, int k, int stages, int threads, int *searched,
                             trapeze_error *err)
{
    verify_run v = {.w = w, .c = c, .n = n, .k = k, .stages = stages};
    snprintf(v.prefix, sizeof v.prefix, "%s --verify", w->name);
    v.bar.prefix = v.prefix;
    v.bar.lines = 1;
    *searched = 0;
    fflush(stdout); /* the model's table stays, whatever happens next */
    pthread_mutex_init(&v.lock, NULL);
    sigemptyset(&v.interrupt);
    sigaddset(&v.interrupt, SIGINT);
    /* blocked before the library starts its workers, which inherit it */
    sigset_t old;
    pthread_t watcher;
    pthread_sigmask(SIG_BLOCK, &v.interrupt, &old);
    int watching = pthread_create(&watcher, NULL, watch_interrupt, &v) == 0;
    trapeze_status s = run_all(&v, gpu_path, threads, searched, err);
    if (watching) {
        pthread_mutex_lock(&v.lock);
        v.finished = 1;
        pthread_mutex_unlock(&v.lock);
        pthread_join(watcher, NULL);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_mutex_destroy(&v.lock);
    return s;
}
