/*
 * config_extend.h - lines added to a loaded GPU config, as if they were one
 * more file after its own (a policy's options over a preset, a sample's
 * window). Defined in config.c, which owns the parser; internal.
 */
#ifndef TRAPEZE_COMMON_CONFIG_EXTEND_H
#define TRAPEZE_COMMON_CONFIG_EXTEND_H

#include "trapeze.h"
#include "common/internal.h"

/* Parses text as the file `name` into cfg: its options override cfg's. On
 * an error cfg may hold part of text; the caller destroys it. */
TRAPEZE_INTERNAL
trapeze_status trapeze_config_extend(trapeze_config *cfg, const char *text, const char *name,
                                     trapeze_error *err);

#endif
