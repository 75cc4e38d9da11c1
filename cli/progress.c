/*
 * progress.c - the one progress display every long command shows on
 * stderr: what is done of how much, elapsed time and the time left at the
 * rate of work observed (common/progress.h), on a terminal one line
 * overwritten in place, elsewhere a plain line every 10 seconds (a run
 * shorter than that prints none), never on stdout. TRAPEZE_PROGRESS=off
 * (or the --no-progress every command takes) silences it; a number sets the
 * seconds between plain lines (0: a line per update). Owns formatting and
 * the clock; knows nothing of what is being counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/progress.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 75 -> "1m15s", 4000 -> "1h06m", 9 -> "9s" */
void cli_format_duration(double s, char *out, size_t size)
{
    long v = (long)(s + 0.5);
    if (v < 60)
        snprintf(out, size, "%lds", v);
    else if (v < 3600)
        snprintf(out, size, "%ldm%02lds", v / 60, v % 60);
    else
        snprintf(out, size, "%ldh%02ldm", v / 3600, v / 60 % 60);
}

/* The first update decides the display and starts the clock; later ones
 * say whether they print. */
static int due(cli_progress *p, double work_done, int finished)
{
    double now = now_s();
    if (!p->checked) {
        p->checked = 1;
        double period;
        int setting = trapeze_progress_setting(getenv("TRAPEZE_PROGRESS"), &period);
        if (setting < 0)
            fprintf(stderr, "note: TRAPEZE_PROGRESS='%.40s' is neither 'off' nor a number of "
                            "seconds: plain lines every 10 s\n", getenv("TRAPEZE_PROGRESS"));
        p->on = setting == 0 ? 0 : isatty(2) ? 1 : 2;
        p->period = p->lines ? 0 : period;
        p->start = p->last = now;
        p->done0 = work_done;
    }
    if (p->on != 2)
        return p->on;
    if (!trapeze_progress_line_due(now - p->last, p->period, finished, p->printed))
        return 0;
    p->last = now;
    return 1;
}

/* Prints "PREFIX: TEXT, E elapsed, about T left  DETAIL" in the display's way. */
static void emit(cli_progress *p, const char *text, double work_done, double work_total,
                 int finished, const char *detail)
{
    double elapsed = now_s() - p->start;
    char el[32], left[32] = "?";
    cli_format_duration(elapsed, el, sizeof el);
    double s = trapeze_progress_left(p->done0, work_done, work_total, elapsed);
    if (s >= 0)
        cli_format_duration(s, left, sizeof left);
    int overwrite = p->on == 1; /* padded so that a shorter detail erases a longer one */
    fprintf(stderr, "%s%s%s%s, %s elapsed, about %s left  %-*.*s", overwrite ? "\r" : "",
            p->prefix ? p->prefix : "", p->prefix ? ": " : "", text, el, left,
            overwrite ? 40 : 0, overwrite ? 40 : 80, detail ? detail : "");
    if (!overwrite || finished)
        fputc('\n', stderr);
    fflush(stderr);
    p->printed = 1;
    p->open = overwrite && !finished;
}

void cli_progress_end(cli_progress *p, int erase)
{
    if (p->on != 1 || !p->open)
        return;
    if (erase)
        fprintf(stderr, "\r%*s\r", 140, "");
    else
        fputc('\n', stderr);
    fflush(stderr);
    p->open = 0;
}

void cli_progress_work(cli_progress *p, const char *text, double work_done, double work_total,
                       const char *detail)
{
    int finished = work_done >= work_total && work_total > 0;
    if (due(p, work_done, finished))
        emit(p, text, work_done, work_total, finished, detail);
}

void cli_progress_update(cli_progress *p, double done, double total, const char *unit,
                         const char *detail)
{
    char text[96];
    snprintf(text, sizeof text, "%.0f/%.0f %s", done, total, unit);
    cli_progress_work(p, text, done, total, detail);
}

void cli_progress_rows(cli_progress *p, const trapeze_run_progress *at, const char *unit,
                       const char *detail)
{
    char text[128];
    double pct = at->work_total > 0 ? 100 * at->work_done / at->work_total : 100;
    snprintf(text, sizeof text, "%d/%d %s (%.0f%% of the work)", at->done, at->total, unit, pct);
    cli_progress_work(p, text, at->work_done, at->work_total, detail);
}
