/*
 * trapeze.h - the public C API of libtrapeze.
 *
 * Conventions (after NLopt and GSL): every function is trapeze_<module>_<verb>;
 * objects are opaque handles with create/destroy; every fallible call returns a
 * trapeze_status and, when given a non-NULL trapeze_error, fills it with one
 * human-readable line naming file, line and field where those exist. The
 * library keeps no global state.
 */
#ifndef TRAPEZE_H
#define TRAPEZE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRAPEZE_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

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

/* ----------------------------------------- GPU config (gpgpusim.config) */

/* A parsed gpgpusim.config: "-option value..." lines, '#' comments. Values
 * stay strings until a consumer asks for a type, so that an error can name
 * the file, line and option of the value that is wrong. */
typedef struct trapeze_config trapeze_config;

trapeze_status trapeze_config_load(const char *path, trapeze_config **out,
                                   trapeze_error *err);
/* Parse text as if it were the file `name` (for tests and embedding). */
trapeze_status trapeze_config_parse(const char *text, const char *name,
                                    trapeze_config **out, trapeze_error *err);
void trapeze_config_destroy(trapeze_config *cfg);

const char *trapeze_config_name(const trapeze_config *cfg);
int trapeze_config_has(const trapeze_config *cfg, const char *option);
/* Typed getters: `fallback` when the option is absent; a malformed value is
 * TRAPEZE_EPARSE with "file:line: option -x: ..." in err. Every getter marks
 * the option as used, so unused ones can be reported as ignored. */
trapeze_status trapeze_config_get_int(const trapeze_config *cfg, const char *option,
                                      long fallback, long *out, trapeze_error *err);
trapeze_status trapeze_config_get_double(const trapeze_config *cfg, const char *option,
                                         double fallback, double *out,
                                         trapeze_error *err);
trapeze_status trapeze_config_get_string(const trapeze_config *cfg, const char *option,
                                         const char *fallback, const char **out);
/* A list of numbers separated by any of `seps` ("1300.0:650.0:650.0:1107.0"). */
trapeze_status trapeze_config_get_doubles(const trapeze_config *cfg, const char *option,
                                          const char *seps, double *values,
                                          int max_values, int *count,
                                          trapeze_error *err);
/* Report a semantic error about an option's value, located at its line. */
trapeze_status trapeze_config_fail(const trapeze_config *cfg, const char *option,
                                   trapeze_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Options present in the file that no getter has asked for (ignored by
 * Trapeze). Returns how many; writes at most `max` names. */
size_t trapeze_config_unused(const trapeze_config *cfg, const char **names, size_t max);

/* The hardware facts every model needs, read from a config. */
typedef struct trapeze_gpu {
    char name[64];
    int n_sm;                     /* clusters x cores per cluster */
    double core_clock_hz;
    double dram_bandwidth_bps;    /* peak bytes per second */
    int warp_size;
    int max_threads_per_block;    /* from the compute capability */
    int shmem_per_block;          /* bytes, from the compute capability */
    int shmem_per_sm;             /* bytes */
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int coalesce_degree;          /* words per coalesced request */
    int compute_capability;       /* e.g. 13, 20, 70 */
} trapeze_gpu;

trapeze_status trapeze_gpu_from_config(const trapeze_config *cfg, trapeze_gpu *gpu,
                                       trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
