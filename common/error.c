/*
 * error.c - status names and the one place a trapeze_error is filled.
 */
#include <stdarg.h>
#include <stdio.h>

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
