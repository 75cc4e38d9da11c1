/*
 * trapeze/config.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * A parsed GPU config (gpgpusim.config) and the hardware facts read from it
 * (trapeze_gpu); nothing about what a model or the simulator does with them.
 */
#ifndef TRAPEZE_CONFIG_H
#define TRAPEZE_CONFIG_H

#include <stddef.h>
#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A parsed gpgpusim.config: "-option value..." lines, '#' comments. Values
 * stay strings until a consumer asks for a type, so that an error can name
 * the file, line and option of the value that is wrong. */
typedef struct trapeze_config trapeze_config;

/* path: a config file; a folder as GPGPU-Sim's and Accel-Sim's tested-cfgs
 * (its gpgpusim.config, then its trace.config when present, as Accel-Sim's
 * -config files, then its trapeze.config of Trapeze's own options when
 * present: a shipped preset's); or a comma-separated list of files and folders, loaded in
 * order: a later definition of an option wins. */
trapeze_status trapeze_config_load(const char *path, trapeze_config **out,
                                   trapeze_error *err);
/* The files paths[0..n) in order into one config (named after paths[0]). */
trapeze_status trapeze_config_load_files(const char *const *paths, int n,
                                         trapeze_config **out, trapeze_error *err);
/* Parse text as if it were the file `name` (for tests and embedding). */
trapeze_status trapeze_config_parse(const char *text, const char *name,
                                    trapeze_config **out, trapeze_error *err);
void trapeze_config_destroy(trapeze_config *cfg);

const char *trapeze_config_name(const trapeze_config *cfg);
/* The path of the file whose line defines `option` (a file that option names
 * is read relative to it, -inter_config_file); NULL when absent. */
const char *trapeze_config_file(const trapeze_config *cfg, const char *option);
int trapeze_config_has(const trapeze_config *cfg, const char *option);
/* Typed getters: `fallback` when the option is absent; a malformed value is
 * TRAPEZE_EPARSE with "file:line: option -x: ..." in err. Getters only read. */
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
/* Range-checked getters, the ones to use (common/number.h's rule: checked in
 * the wide type before any conversion). The value, `fallback` when absent,
 * must lie in [lo, hi]; else "file:line: option -x: V is outside [lo, hi]". */
trapeze_status trapeze_config_get_int_in(const trapeze_config *cfg, const char *option,
                                         long fallback, long lo, long hi, long *out,
                                         trapeze_error *err);
trapeze_status trapeze_config_get_double_in(const trapeze_config *cfg, const char *option,
                                            double fallback, double lo, double hi, double *out,
                                            trapeze_error *err);
/* A list of whole numbers ("1024:32") in [lo, hi], read as integers (no
 * "1e10"): *count = 0 when the option is absent. */
trapeze_status trapeze_config_get_ints(const trapeze_config *cfg, const char *option,
                                       const char *seps, long lo, long hi, long *values,
                                       int max_values, int *count, trapeze_error *err);
/* Report a semantic error about an option's value, located at its line. */
trapeze_status trapeze_config_fail(const trapeze_config *cfg, const char *option,
                                   trapeze_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The options the file defines (each once: the last definition), in file
 * order; trapeze_config_option is NULL past the end. A config never changes
 * when read, so one parsed config may be shared by threads. */
size_t trapeze_config_count(const trapeze_config *cfg);
const char *trapeze_config_option(const trapeze_config *cfg, size_t i);

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

/* name: -trapeze_gpu_name when set, else the config file's name without
 * extension, or its folder's name for GPGPU-Sim's gpgpusim.config. */
trapeze_status trapeze_gpu_from_config(const trapeze_config *cfg, trapeze_gpu *gpu,
                                       trapeze_error *err);
/* 16 hex digits identifying what the models read of a GPU (every field but
 * the name): a calibration records it, and is refused for another GPU. */
void trapeze_gpu_fingerprint(const trapeze_gpu *gpu, char out[17]);

#ifdef __cplusplus
}
#endif

#endif
