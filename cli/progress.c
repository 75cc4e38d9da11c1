/*
 * progress.c - the one progress line every long command shows on stderr:
 * what is done of how much, elapsed time, rate and an estimate of the time
 * left, overwritten in place; silent when stderr is not a terminal, so logs
 * and pipes get results only, unless the caller asks for a line per update.
 * Owns formatting and the clock; knows nothing of what is being counted.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"

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

void cli_progress_update(cli_progress *p, double done, double total, const char *unit,
                         const char *detail)
{
    if (!p->checked) {
        p->checked = 1;
        p->on = isatty(2) ? 1 : p->lines ? 2 : 0; /* 2: a line per update */
        p->start = now_s();
        p->done0 = done;
    }
    if (!p->on)
        return;
    double elapsed = now_s() - p->start;
    char el[32], left[32] = "?", rate_text[48] = "? ";
    cli_format_duration(elapsed, el, sizeof el);
    /* the rate since the first report: work done before it took unknown time */
    double rate = elapsed >= 0.2 ? (done - p->done0) / elapsed : 0;
    if (rate > 0) {
        snprintf(rate_text, sizeof rate_text, "%.3g ", rate);
        if (total >= done)
            cli_format_duration((total - done) / rate, left, sizeof left);
    }
    int overwrite = p->on == 1; /* padded so that a shorter detail erases a longer one */
    fprintf(stderr, "%s%s%s%.0f/%.0f %s, %s elapsed, %s%s/s, about %s left  %-*.*s",
            overwrite ? "\r" : "", p->prefix ? p->prefix : "", p->prefix ? ": " : "", done,
            total, unit, el, rate_text, unit, left, overwrite ? 40 : 0, overwrite ? 40 : 80,
            detail ? detail : "");
    if (p->on == 2 || (done >= total && total > 0))
        fputc('\n', stderr);
    fflush(stderr);
}
