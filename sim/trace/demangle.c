/*
 * demangle.c - kernel names as people read them: NVBit traces carry the
 * mangled C++ name (_Z12vecAddKernelPfS_S_i); the simulator's output shows
 * vecAddKernel(float*, float*, float*, int). Uses the C++ runtime's
 * Itanium-ABI demangler (__cxa_demangle, libstdc++), the one the CUDA tool
 * chain's own names follow. A name that does not demangle (a C kernel, or
 * an already readable name) is kept as it is. Owns the name only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace/trace.h"

/* libstdc++'s demangler, declared here: no C header carries it. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

void sim_trace_demangle(const char *name, char *out, size_t size)
{
    int status = -1;
    char *d = strncmp(name, "_Z", 2) == 0 ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
    const char *src = status == 0 && d ? d : name;
    size_t n = strlen(src);
    if (n < size) {
        memcpy(out, src, n + 1);
    } else {
        /* too long for the statistics: keep the function name, elide the arguments */
        const char *paren = strchr(src, '(');
        size_t head = paren ? (size_t)(paren - src) : n;
        if (head + 6 <= size)
            snprintf(out, size, "%.*s(...)", (int)head, src);
        else
            snprintf(out, size, "%.*s...", (int)(size - 4), src);
    }
    free(d);
}
