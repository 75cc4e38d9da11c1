/*
 * data_path.c - finding the shipped data/ folder (GPU configs, workloads,
 * calibrations) from wherever the program runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"

static int exists(const char *path) { return access(path, R_OK) == 0; }

void cli_data_path(const char *relative, char *out, unsigned long size)
{
    const char *env = getenv("TRAPEZE_DATA");
    if (env && *env) {
        snprintf(out, size, "%s/%s", env, relative);
        return;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        /* build/trapeze -> data/ ; PREFIX/bin/trapeze -> PREFIX/share/trapeze/ */
        snprintf(out, size, "%s/../data/%s", exe, relative);
        if (exists(out))
            return;
        snprintf(out, size, "%s/../share/trapeze/%s", exe, relative);
        if (exists(out))
            return;
    }
    snprintf(out, size, "data/%s", relative);
}
