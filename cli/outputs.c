/*
 * outputs.c - before a long run, that every output file named on the
 * command line can be written: the library writes each through PATH.tmp
 * (trapeze_csv_create), so that file is created here and removed again, and
 * PATH must not be a folder. A mistyped folder then fails at once instead of
 * after the simulation. Writes nothing that stays; the library still
 * reports what fails later (a disk that fills up).
 */
#include <stdio.h>
#include <sys/stat.h>

#include "cli/commands.h"

trapeze_status cli_check_outputs(const char *const *paths, int n, trapeze_error *err)
{
    static const char *const column[] = {"x"};
    for (int i = 0; i < n; i++) {
        if (!paths[i])
            continue;
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            err->code = TRAPEZE_EIO;
            snprintf(err->message, sizeof err->message, "%s: is a folder (expected a file name)",
                     paths[i]);
            return TRAPEZE_EIO;
        }
        trapeze_csv_out *probe = NULL;
        trapeze_status s = trapeze_csv_create(paths[i], column, 1, &probe, err);
        if (s)
            return s;
        trapeze_csv_abort(probe);
    }
    return TRAPEZE_OK;
}
