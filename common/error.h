/*
 * error.h - filling a trapeze_error. Owns message formatting only; never
 * prints, never exits (the command line decides what to do with an error).
 */
#ifndef TRAPEZE_COMMON_ERROR_H
#define TRAPEZE_COMMON_ERROR_H

#include "trapeze.h"
#include "common/internal.h"

/* Sets err (when non-NULL) and returns code, so callers can write
 * `return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: ...", ...);` */
TRAPEZE_INTERNAL
trapeze_status trapeze_fail(trapeze_error *err, trapeze_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

TRAPEZE_INTERNAL
void trapeze_error_clear(trapeze_error *err);

#endif
