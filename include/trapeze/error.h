/*
 * trapeze/error.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Status codes and the error record every fallible call fills; nothing else.
 */
#ifndef TRAPEZE_ERROR_H
#define TRAPEZE_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TRAPEZE_OK = 0,
    TRAPEZE_EIO = 1,      /* a file could not be opened, read or written */
    TRAPEZE_EPARSE = 2,   /* malformed input: config, workload, CSV, trace */
    TRAPEZE_ERANGE = 3,   /* a value outside its valid range */
    TRAPEZE_EINVAL = 4,   /* an invalid argument to an API call */
    TRAPEZE_ENOMEM = 5,   /* allocation failed */
    TRAPEZE_EFAIL = 6     /* a numerical method failed */
} trapeze_status;

typedef struct trapeze_error {
    trapeze_status code;
    char message[768];
} trapeze_error;

const char *trapeze_status_name(trapeze_status status);
/* sizeof the named public struct ("trapeze_ghostzone_eval", ...), 0 if unknown:
 * for bindings that allocate or mirror the library's structs. */
size_t trapeze_struct_size(const char *name);

#ifdef __cplusplus
}
#endif

#endif
