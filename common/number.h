/*
 * number.h - the one place where numbers read from files are checked:
 * every parser (config options, workload and calibration INI, the samples
 * log, traces) reads its integers, doubles and "AxB" lists through these,
 * so that a value is range-checked BEFORE it is converted to a narrower
 * type, and every error has one form:
 *
 *     FILE:LINE: WHAT: expected an integer in [LO, HI], got 'TEXT'
 *
 * where WHAT is the caller's label ("option -gpgpu_n_clusters",
 * "[workload] halo", "field h"). Untrusted text is escaped in messages.
 *
 * How to adopt, e.g. in a new config reader:
 *     trapeze_where at = {path, line, "option -my_option"};
 *     int v;
 *     if ((s = trapeze_num_int(text, 1, 64, &at, &v, err))) return s;
 * Never cast a double or long from a file to int yourself: pass it through
 * trapeze_num_whole / trapeze_num_int with the range the field allows.
 */
#ifndef TRAPEZE_COMMON_NUMBER_H
#define TRAPEZE_COMMON_NUMBER_H

#include "trapeze.h"
#include "common/internal.h"

/* Where a value comes from. line 0: no line (the message omits it). */
typedef struct trapeze_where {
    const char *file;
    int line;
    const char *what;
} trapeze_where;

/* A decimal integer (optional sign, spaces around) in [lo, hi]; anything
 * else, including "1e6", "0.5" and overflow, is an error. */
TRAPEZE_INTERNAL
trapeze_status trapeze_num_long(const char *text, long lo, long hi, const trapeze_where *at,
                                long *out, trapeze_error *err);
/* The same stored in an int: lo and hi must lie within int's range. */
TRAPEZE_INTERNAL
trapeze_status trapeze_num_int(const char *text, int lo, int hi, const trapeze_where *at,
                               int *out, trapeze_error *err);
/* A finite number in [lo, hi]. */
TRAPEZE_INTERNAL
trapeze_status trapeze_num_double(const char *text, double lo, double hi,
                                  const trapeze_where *at, double *out, trapeze_error *err);
/* A value already read as a double that must be a whole number in
 * [lo, hi] (for lists such as "1024:32"): checked before the conversion. */
TRAPEZE_INTERNAL
trapeze_status trapeze_num_whole(double v, long lo, long hi, const trapeze_where *at,
                                 long *out, trapeze_error *err);
/* 1 to max numbers separated by any of seps ("2000x2000", "1024:32"),
 * each in [lo, hi]; *count gets how many. With whole, each must be an
 * integer written as such (no "0.5", no "1e3"). */
TRAPEZE_INTERNAL
trapeze_status trapeze_num_list(const char *text, const char *seps, double lo, double hi,
                                int whole, const trapeze_where *at, double *out, int max,
                                int *count, trapeze_error *err);
/* Fills err with "FILE:LINE: WHAT: " followed by the formatted reason. */
TRAPEZE_INTERNAL
trapeze_status trapeze_num_fail(const trapeze_where *at, trapeze_status code,
                                trapeze_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
