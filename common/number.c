/*
 * number.c - range-checked reading of numbers from files (see number.h).
 * Owns the checks and the one message form; knows no format or field.
 * The rule kept here: compare in the wide type (long or double) against
 * the field's range first, convert only after, so no out-of-range value
 * ever reaches a cast.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "number.h"
#include "text.h"

trapeze_status trapeze_num_fail(const trapeze_where *at, trapeze_status code,
                                trapeze_error *err, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (at->line > 0)
        return trapeze_fail(err, code, "%s:%d: %s: %s", at->file, at->line, at->what, why);
    return trapeze_fail(err, code, "%s: %s: %s", at->file, at->what, why);
}

static const char *quoted(const char *text, char *buf, size_t room)
{
    return trapeze_escape(text, strlen(text), buf, room);
}

/* Only [spaces][sign]digits[spaces]: strtol alone would take "0x10". */
static int decimal_form(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '+' || *s == '-')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    while (isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

trapeze_status trapeze_num_long(const char *text, long lo, long hi, const trapeze_where *at,
                                long *out, trapeze_error *err)
{
    char q[96];
    long v;
    if (!decimal_form(text))
        return trapeze_num_fail(at, TRAPEZE_EPARSE, err,
                                "expected an integer in [%ld, %ld], got '%s'", lo, hi,
                                quoted(text, q, sizeof q));
    if (!trapeze_parse_long(text, &v) || v < lo || v > hi)
        return trapeze_num_fail(at, TRAPEZE_ERANGE, err, "%s is outside [%ld, %ld]",
                                quoted(text, q, sizeof q), lo, hi);
    *out = v;
    return TRAPEZE_OK;
}

trapeze_status trapeze_num_int(const char *text, int lo, int hi, const trapeze_where *at,
                               int *out, trapeze_error *err)
{
    long v = 0;
    trapeze_status s = trapeze_num_long(text, lo, hi, at, &v, err);
    if (!s)
        *out = (int)v; /* lo <= v <= hi, both ints */
    return s;
}

trapeze_status trapeze_num_double(const char *text, double lo, double hi,
                                  const trapeze_where *at, double *out, trapeze_error *err)
{
    char q[96];
    double v;
    if (!trapeze_parse_double(text, &v))
        return trapeze_num_fail(at, TRAPEZE_EPARSE, err,
                                "expected a number in [%g, %g], got '%s'", lo, hi,
                                quoted(text, q, sizeof q));
    if (!(v >= lo && v <= hi))
        return trapeze_num_fail(at, TRAPEZE_ERANGE, err, "%s is outside [%g, %g]",
                                quoted(text, q, sizeof q), lo, hi);
    *out = v;
    return TRAPEZE_OK;
}

trapeze_status trapeze_num_whole(double v, long lo, long hi, const trapeze_where *at,
                                 long *out, trapeze_error *err)
{
    /* (double)lo and (double)hi may round outward for huge bounds: the
     * strict comparisons below keep v inside long's range regardless */
    if (!(v >= (double)lo && v <= (double)hi) || v != floor(v) || !(v > (double)LONG_MIN) ||
        !(v < (double)LONG_MAX))
        return trapeze_num_fail(at, TRAPEZE_ERANGE, err,
                                "%.17g is not a whole number in [%ld, %ld]", v, lo, hi);
    long w = (long)v;
    if (w < lo || w > hi)
        return trapeze_num_fail(at, TRAPEZE_ERANGE, err,
                                "%.17g is not a whole number in [%ld, %ld]", v, lo, hi);
    *out = w;
    return TRAPEZE_OK;
}

trapeze_status trapeze_num_list(const char *text, const char *seps, double lo, double hi,
                                int whole, const trapeze_where *at, double *out, int max,
                                int *count, trapeze_error *err)
{
    char buf[256], q[96];
    *count = 0;
    if (strlen(text) >= sizeof buf)
        return trapeze_num_fail(at, TRAPEZE_EPARSE, err, "value too long: '%s'",
                                quoted(text, q, sizeof q));
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, seps, &save); tok; tok = strtok_r(NULL, seps, &save)) {
        double v;
        if (*count == max)
            return trapeze_num_fail(at, TRAPEZE_EPARSE, err, "more than %d values in '%s'", max,
                                    quoted(text, q, sizeof q));
        if (whole && !decimal_form(tok))
            return trapeze_num_fail(at, TRAPEZE_EPARSE, err,
                                    "'%s' is not an integer",
                                    quoted(tok, q, sizeof q));
        if (!trapeze_parse_double(tok, &v))
            return trapeze_num_fail(at, TRAPEZE_EPARSE, err, "'%s' is not a number",
                                    quoted(tok, q, sizeof q));
        if (!(v >= lo && v <= hi))
            return trapeze_num_fail(at, TRAPEZE_ERANGE, err, "%s is outside [%g, %g]",
                                    quoted(tok, q, sizeof q), lo, hi);
        out[(*count)++] = v;
    }
    if (*count == 0)
        return trapeze_num_fail(at, TRAPEZE_EPARSE, err, "empty value");
    return TRAPEZE_OK;
}
