/*
 * ini.h - INI files (workload specs, calibration files) read with libinih,
 * with the line number of every key given to the handler so that semantic
 * errors can name file, line and key. Knows nothing of what keys mean.
 */
#ifndef TRAPEZE_COMMON_INI_H
#define TRAPEZE_COMMON_INI_H

#include "trapeze.h"
#include "common/internal.h"

typedef struct trapeze_ini_ctx {
    const char *path;
    int line;
} trapeze_ini_ctx;

/* Returns TRAPEZE_OK to go on; on error fill err and return its code. */
typedef trapeze_status (*trapeze_ini_handler)(void *user, const trapeze_ini_ctx *at,
                                              const char *section, const char *key,
                                              const char *value, trapeze_error *err);

TRAPEZE_INTERNAL
trapeze_status trapeze_ini_parse(const char *path, trapeze_ini_handler handler, void *user,
                                 trapeze_error *err);

/* Helpers for handlers: parse a value or fail naming path:line: [section] key. */
TRAPEZE_INTERNAL
trapeze_status trapeze_ini_double(const trapeze_ini_ctx *at, const char *section,
                                  const char *key, const char *value, double min, double max,
                                  double *out, trapeze_error *err);
TRAPEZE_INTERNAL
trapeze_status trapeze_ini_int(const trapeze_ini_ctx *at, const char *section, const char *key,
                               const char *value, long min, long max, long *out,
                               trapeze_error *err);

#endif
