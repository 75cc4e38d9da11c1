/*
 * hugepages.c - the program's one process-level setting: glibc's malloc on
 * transparent huge pages (the tunable glibc.malloc.hugetlb=1), which glibc
 * reads only at start-up, so the program re-executes itself once with it
 * set. The simulator allocates tens of MB of per-SM and per-cache state
 * and touches it sparsely: with 4 KB pages a run spent up to a sixth of
 * its CPU time in page faults (V100 jacobi_1024_nx: 4.14 s -> 3.53 s of
 * CPU, docs/performance.md). Results do not depend on it.
 *
 * Left alone: TRAPEZE_HUGEPAGES=0, a GLIBC_TUNABLES that already names the
 * tunable, a platform without /proc/self/exe (the exec fails, the program
 * goes on as it was). Owns no output.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"

#define TUNABLE "glibc.malloc.hugetlb=1"

void cli_hugepages(char **argv)
{
    const char *off = getenv("TRAPEZE_HUGEPAGES");
    const char *have = getenv("GLIBC_TUNABLES");
    /* once set (by the user, or by this call before the exec) it stays */
    if ((off && strcmp(off, "0") == 0) || (have && strstr(have, "glibc.malloc.hugetlb")))
        return;
    char value[4096];
    int n = have && *have ? snprintf(value, sizeof value, "%s:%s", have, TUNABLE)
                          : snprintf(value, sizeof value, "%s", TUNABLE);
    if (n < 0 || (size_t)n >= sizeof value || setenv("GLIBC_TUNABLES", value, 1))
        return;
    execv("/proc/self/exe", argv);
    /* not re-executed: run as started */
    if (have)
        setenv("GLIBC_TUNABLES", have, 1);
    else
        unsetenv("GLIBC_TUNABLES");
}
