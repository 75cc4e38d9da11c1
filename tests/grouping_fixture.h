/*
 * grouping_fixture.h - a grouping written out by hand for the grouping
 * tests: TB p goes to queue group[p] at place order[p].
 */
#ifndef TRAPEZE_TESTS_GROUPING_FIXTURE_H
#define TRAPEZE_TESTS_GROUPING_FIXTURE_H

#include <string.h>

#include "check.h"
#include "trapeze.h"

static inline trapeze_grouping test_grouping(long n, const int *group, const long *order)
{
    trapeze_grouping g;
    trapeze_error err;
    int groups = 0;
    for (long p = 0; p < n; p++)
        groups = group[p] + 1 > groups ? group[p] + 1 : groups;
    CHECK_OK(trapeze_grouping_alloc(&g, n, groups, &err));
    memcpy(g.group, group, sizeof *group * (size_t)n);
    memcpy(g.order, order, sizeof *order * (size_t)n);
    return g;
}

#endif
