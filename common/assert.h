/*
 * assert.h - TRAPEZE_ASSERT: the invariant checks of structures with state
 * (the SM's warp slots, the memory system's request accounting, the caches'
 * MSHRs and reservations). Active when built with TRAPEZE_CHECKS (the
 * sanitizer build, `make test SAN=1`), compiled out otherwise, so the
 * simulator's hot paths pay nothing in a normal build. A failed check
 * prints file, line and the condition, then aborts (the sanitizer prints
 * the stack): an invariant that does not hold is a bug, never an input
 * error.
 */
#ifndef TRAPEZE_COMMON_ASSERT_H
#define TRAPEZE_COMMON_ASSERT_H

#include "common/internal.h"

TRAPEZE_INTERNAL
void trapeze_assert_fail(const char *cond, const char *file, int line)
    __attribute__((noreturn));

#ifdef TRAPEZE_CHECKS
#define TRAPEZE_CHECKS_ON 1
#define TRAPEZE_ASSERT(cond) \
    ((cond) ? (void)0 : trapeze_assert_fail(#cond, __FILE__, __LINE__))
#else
#define TRAPEZE_CHECKS_ON 0
#define TRAPEZE_ASSERT(cond) ((void)sizeof(!(cond))) /* typed, not evaluated */
#endif

/* On a checker that runs after every simulated cycle (sim_sm_check_slots):
 * its own reads of the structure it checks are not left to the sanitizers,
 * which would cost more than the cycle checked (a quarter of a sanitizer
 * simulation); the simulator's writes, which the checks are about, stay
 * instrumented. */
#define TRAPEZE_CHECKER __attribute__((no_sanitize("address", "undefined")))

#endif
