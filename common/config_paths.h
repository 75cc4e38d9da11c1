/*
 * config_paths.h - what a --gpu argument names: one config file, a folder
 * laid out as GPGPU-Sim's and Accel-Sim's tested-cfgs (gpgpusim.config, then
 * trace.config, then Trapeze's own trapeze.config, each when present), or a comma-separated list of files and
 * folders, loaded in order (a later definition of an option wins).
 */
#ifndef TRAPEZE_COMMON_CONFIG_PATHS_H
#define TRAPEZE_COMMON_CONFIG_PATHS_H

#include "trapeze.h"
#include "common/internal.h"

/* The files `spec` names, in load order, as a malloc'd array of malloc'd
 * paths (free with trapeze_config_paths_free). A path that is an existing
 * file is one file even when it holds a comma. A folder without a
 * gpgpusim.config is TRAPEZE_EIO naming the folder. */
TRAPEZE_INTERNAL
trapeze_status trapeze_config_paths(const char *spec, char ***paths, int *n,
                                    trapeze_error *err);
TRAPEZE_INTERNAL
void trapeze_config_paths_free(char **paths, int n);

#endif
