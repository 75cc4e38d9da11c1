/*
 * csv_in.h - reading a CSV file of whole numbers with a fixed header
 * (locality graphs, TB groupings): one callback per data row. Owns the
 * header check and the "file:line: field NAME: ..." errors; knows no
 * column meanings.
 */
#ifndef TRAPEZE_COMMON_CSV_IN_H
#define TRAPEZE_COMMON_CSV_IN_H

#include "trapeze.h"
#include "common/internal.h"

#define TRAPEZE_CSV_MAX_COLUMNS 16

/* Called per data row with its values (ncolumns of them) and its line; a
 * non-OK return stops the reading and is returned (the callback fills err,
 * naming path and line itself). */
typedef trapeze_status (*trapeze_csv_row_fn)(void *ctx, const long long *values, int line,
                                             trapeze_error *err);

/* The header must be exactly `columns`; every field a whole number. */
TRAPEZE_INTERNAL
trapeze_status trapeze_csv_read_integers(const char *path, const char *const *columns,
                                         int ncolumns, trapeze_csv_row_fn row, void *ctx,
                                         trapeze_error *err);

#endif
