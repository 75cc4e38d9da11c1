/*
 * options.h - the options of a component in one table: name, type, default,
 * range and help, one registration line each (GPGPU-Sim's option_parser
 * style). A reader takes an integer option through its table entry, so the
 * default and the allowed range are written once, and `trapeze sim --options`
 * prints the same table. Lists and text options (cache specs, DRAM timing,
 * address mapping, scheduler) are parsed by their component's own code; their
 * rows carry the default and help for the listing.
 *
 * Adopting it for a new option: add one row to the component's table, e.g.
 *     {"trapeze_tb_dispatch", OPT_INT, "0", 0, 2, "thread-block dispatch: 0 ..."},
 * then read it with
 *     long v; if ((s = trapeze_opt_int(cfg, my_options, "trapeze_tb_dispatch", &v, err)))
 * The range check happens before any conversion (common/number.h).
 */
#ifndef TRAPEZE_COMMON_OPTIONS_H
#define TRAPEZE_COMMON_OPTIONS_H

#include <stdio.h>

#include "trapeze.h"
#include "common/internal.h"

typedef enum { OPT_INT, OPT_NUMBER, OPT_LIST, OPT_TEXT } trapeze_opt_type;

typedef struct trapeze_opt {
    const char *name;       /* without the leading '-'; NULL ends a table */
    trapeze_opt_type type;
    const char *fallback;   /* the default as a config would write it ("" when computed) */
    long lo, hi;            /* OPT_INT: the allowed range */
    const char *help;       /* one line */
} trapeze_opt;

/* The hardware summary's options (common/gpu.c), shared by the model and
 * the simulator; the simulator's own are sim_core_options and
 * sim_mem_options (sim/core/gpu_sim.h, sim/mem/mem_config.h). */
TRAPEZE_INTERNAL
extern const trapeze_opt trapeze_gpu_options[];

/* The row of `name` in table, or NULL. */
TRAPEZE_INTERNAL
const trapeze_opt *trapeze_opt_find(const trapeze_opt *table, const char *name);
/* Integer option `name` (an OPT_INT row of table: its default and range).
 * A name missing from the table is a programming error: TRAPEZE_EINVAL. */
TRAPEZE_INTERNAL
trapeze_status trapeze_opt_int(const trapeze_config *cfg, const trapeze_opt *table,
                               const char *name, long *out, trapeze_error *err);
/* The same with a default computed by the caller (the row's fallback says how). */
TRAPEZE_INTERNAL
trapeze_status trapeze_opt_int_or(const trapeze_config *cfg, const trapeze_opt *table,
                                  const char *name, long fallback, long *out,
                                  trapeze_error *err);
/* Options of cfg that none of the n tables lists (Trapeze does not read
 * them): returns how many; writes at most max names. */
TRAPEZE_INTERNAL
size_t trapeze_opt_unknown(const trapeze_config *cfg, const trapeze_opt *const *tables, int n,
                           const char **names, size_t max);
/* Prints the table: one line per option (name, type, default, range, help). */
TRAPEZE_INTERNAL
void trapeze_opt_print(FILE *f, const char *component, const trapeze_opt *table);

#endif
