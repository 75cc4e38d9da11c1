/*
 * check.h - the test harness: CHECK and CHECK_NEAR record a failure with
 * file and line and carry on, so one run shows every broken assertion.
 * A test program returns check_report().
 */
#ifndef TRAPEZE_TESTS_CHECK_H
#define TRAPEZE_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures, check_count;

#define CHECK(cond)                                                             \
    do {                                                                        \
        check_count++;                                                          \
        if (!(cond)) {                                                          \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                       \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                   \
    do {                                                                        \
        double check_a_ = (a), check_b_ = (b);                                  \
        check_count++;                                                          \
        if (!(fabs(check_a_ - check_b_) <= (tol))) {                            \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.10g, %s = %.10g, tol %g\n", \
                    __FILE__, __LINE__, #a, check_a_, #b, check_b_, (double)(tol)); \
        }                                                                       \
    } while (0)

#define CHECK_OK(call)                                                          \
    do {                                                                        \
        check_count++;                                                          \
        if ((call) != TRAPEZE_OK) {                                             \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call);   \
        }                                                                       \
    } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
