/*
 * sleep_priv.h - what the sleep model's files share inside the library
 * (not exported): facts of a model's histogram the search needs.
 */
#ifndef TRAPEZE_MODEL_SLEEP_PRIV_H
#define TRAPEZE_MODEL_SLEEP_PRIV_H

#include "model/model.h"
#include "trapeze.h"

/* The longest idle period in the model's histogram (its bucket's length). */
double sleep_longest_period(const trapeze_sleep_model *m);
/* The distinct period lengths, ascending (at most TRAPEZE_IDLE_NBUCKETS):
 * the only places a hard threshold's outcome changes. Returns the count. */
int sleep_period_lengths(const trapeze_sleep_model *m, double *lengths);

/* The model under a penalty budget, seen through the generic interface
 * (sleep_model.c): decisions u = ln(1 + theta), value 1 - saving fraction,
 * constraints penalty <= budget and thresholds in mode order. `in` must
 * outlive the result. */
typedef struct {
    const trapeze_sleep_model *m;
    double budget;
} sleep_instance;
trapeze_model sleep_as_model(const sleep_instance *in);
/* theta = e^u - 1 and, when not NULL, d theta / d u. */
void sleep_to_theta(int n, const double *u, double *theta, double *dtheta_du);

#endif
