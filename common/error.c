/*
 * error.c - status names and the one place a trapeze_error is filled.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

const char *trapeze_status_name(trapeze_status status)
{
    switch (status) {
    case TRAPEZE_OK: return "ok";
    case TRAPEZE_EIO: return "i/o error";
    case TRAPEZE_EPARSE: return "parse error";
    case TRAPEZE_ERANGE: return "value out of range";
    case TRAPEZE_EINVAL: return "invalid argument";
    case TRAPEZE_ENOMEM: return "out of memory";
    case TRAPEZE_EFAIL: return "numerical failure";
    }
    return "unknown status";
}

trapeze_status trapeze_fail(trapeze_error *err, trapeze_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void trapeze_error_clear(trapeze_error *err)
{
    if (err) {
        err->code = TRAPEZE_OK;
        err->message[0] = '\0';
    }
}

/* Bindings (python/trapeze) allocate the library's structs by these sizes
 * and check their mirrors against them at import, so a layout change fails
 * loudly instead of corrupting memory. */
size_t trapeze_struct_size(const char *name)
{
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {
        {"trapeze_error", sizeof(trapeze_error)},
        {"trapeze_gpu", sizeof(trapeze_gpu)},
        {"trapeze_workload", sizeof(trapeze_workload)},
        {"trapeze_gz_params", sizeof(trapeze_gz_params)},
        {"trapeze_gz_eval", sizeof(trapeze_gz_eval)},
        {"trapeze_gz_optimum", sizeof(trapeze_gz_optimum)},
        {"trapeze_sample", sizeof(trapeze_sample)},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].name, name) == 0)
            return sizes[i].size;
    return 0;
}
