/*
 * sleep_priv.h - what the sleep model's files share inside the library
 * (not exported): facts of a model's histogram the search needs.
 */
#ifndef TRAPEZE_MODEL_SLEEP_PRIV_H
#define TRAPEZE_MODEL_SLEEP_PRIV_H

#include "trapeze.h"

/* The longest idle period in the model's histogram (its bucket's length). */
double sleep_longest_period(const trapeze_sleep_model *m);
/* The distinct period lengths, ascending (at most TRAPEZE_IDLE_NBUCKETS):
 * the only places a hard threshold's outcome changes. Returns the count. */
int sleep_period_lengths(const trapeze_sleep_model *m, double *lengths);

#endif
