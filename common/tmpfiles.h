/*
 * tmpfiles.h - the temporary output files alive in this process, removed
 * when SIGINT or SIGTERM ends it (common/tmpfiles.c). Used by
 * common/outfile.c only: every writer goes through that file.
 */
#ifndef TRAPEZE_COMMON_TMPFILES_H
#define TRAPEZE_COMMON_TMPFILES_H

#include "common/internal.h"

/* Remembers path until trapeze_tmp_forget(slot); on the first call, installs
 * the SIGINT and SIGTERM handlers (where their action is still the default).
 * Returns the slot, or -1 when the path is not remembered (longer than
 * TRAPEZE_TMP_PATH_MAX bytes, or TRAPEZE_TMP_SLOTS files alive at once):
 * the file is then still written and renamed, only not removed on a signal. */
TRAPEZE_INTERNAL
int trapeze_tmp_track(const char *path);
/* Forgets the slot (safe on -1); the caller has renamed or removed the file. */
TRAPEZE_INTERNAL
void trapeze_tmp_forget(int slot);

#define TRAPEZE_TMP_SLOTS 64
#define TRAPEZE_TMP_PATH_MAX 4096

#endif
