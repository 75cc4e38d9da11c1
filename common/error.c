/*
 * error.c - status names and the one place a trapeze_error is filled.
 * Messages quote what users gave (values, lines of files that may be
 * binary), so every message is made printable here: control bytes and
 * bytes that are not valid UTF-8 are written as \xHH.
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

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at s, or 0. */
static size_t utf8_seq(const unsigned char *s)
{
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (s[0] > 0xf4)
        n = 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

static void printable(const char *in, char *out, size_t room)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)in;
    size_t n = 0;
    while (*s && n + 5 < room) {
        size_t seq = *s >= 0x80 ? utf8_seq(s) : 0;
        if (*s >= 0x20 && *s != 0x7f && *s < 0x80) {
            out[n++] = (char)*s++;
        } else if (seq && n + seq < room) {
            while (seq--)
                out[n++] = (char)*s++;
        } else {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[*s >> 4];
            out[n++] = hex[*s & 15];
            s++;
        }
    }
    out[n] = '\0';
}

trapeze_status trapeze_fail(trapeze_error *err, trapeze_status code, const char *fmt, ...)
{
    if (err) {
        char raw[sizeof err->message];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        printable(raw, err->message, sizeof err->message);
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
        {"trapeze_ghostzone_params", sizeof(trapeze_ghostzone_params)},
        {"trapeze_ghostzone_eval", sizeof(trapeze_ghostzone_eval)},
        {"trapeze_ghostzone_optimum", sizeof(trapeze_ghostzone_optimum)},
        {"trapeze_sample", sizeof(trapeze_sample)},
        {"trapeze_ghostzone_calib_options", sizeof(trapeze_ghostzone_calib_options)},
        {"trapeze_fit_report", sizeof(trapeze_fit_report)},
        {"trapeze_ghostzone_validation", sizeof(trapeze_ghostzone_validation)},
        {"trapeze_ghostzone_size_validation", sizeof(trapeze_ghostzone_size_validation)},
        {"trapeze_sim_stencil_result", sizeof(trapeze_sim_stencil_result)},
        {"trapeze_power", sizeof(trapeze_power)},
        {"trapeze_sleep_job", sizeof(trapeze_sleep_job)},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].name, name) == 0)
            return sizes[i].size;
    return 0;
}
