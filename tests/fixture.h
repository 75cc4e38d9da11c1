/* Fixtures shared by unit tests: a GPU description from a config file; a
 * grouping's queues and places from two arrays.
 * Test-only; include after check.h (it uses CHECK_OK). */
#ifndef TRAPEZE_TESTS_FIXTURE_H
#define TRAPEZE_TESTS_FIXTURE_H

#include "trapeze.h"

static inline trapeze_gpu fixture_gpu_of(const char *path)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_error err;
    CHECK_OK(trapeze_config_load(path, &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    trapeze_config_destroy(cfg);
    return gpu;
}

/* TB t in queue group[t] at place order[t], for every TB of g */
static inline void fixture_set_grouping(trapeze_grouping *g, const int *group, const long *order)
{
    for (long t = 0; t < g->n_tbs; t++) {
        g->group[t] = group[t];
        g->order[t] = order[t];
    }
}

#endif
