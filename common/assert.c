/*
 * assert.c - where a failed TRAPEZE_ASSERT ends (common/assert.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/assert.h"

void trapeze_assert_fail(const char *cond, const char *file, int line)
{
    fprintf(stderr, "%s:%d: invariant violated: %s\n", file, line, cond);
    abort();
}
