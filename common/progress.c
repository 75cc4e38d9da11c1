/*
 * progress.c - the time left of a run from its work done, and when a plain
 * progress line is due (see progress.h). Owns the arithmetic only; must not
 * read the clock or print.
 */
#include <string.h>

#include "common/progress.h"
#include "common/text.h"

/* Under this much timed work the rate is mostly start-up noise. */
#define MIN_TIMED_S 0.2
#define DEFAULT_PERIOD_S 10.0

double trapeze_progress_left(double done0, double done, double total, double elapsed)
{
    if (total > 0 && done == total)
        return 0;
    if (elapsed < MIN_TIMED_S || !(done > done0) || !(total >= done))
        return -1;
    return (total - done) * elapsed / (done - done0);
}

int trapeze_progress_line_due(double since_last, double period, int finished, int printed)
{
    return since_last >= period || (finished && printed);
}

int trapeze_progress_setting(const char *text, double *period)
{
    *period = DEFAULT_PERIOD_S;
    if (!text || !*text)
        return 1;
    if (!strcmp(text, "off"))
        return 0;
    double v;
    if (!trapeze_parse_double(text, &v) || v < 0)
        return -1;
    *period = v;
    return 1;
}
