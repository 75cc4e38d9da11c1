/*
 * outputs.c - before a long run, that every output file named on the
 * command line can be written (trapeze_output_check), so that a mistyped
 * folder fails at once instead of after the simulation. Writes nothing;
 * the library still reports what fails later (a disk that fills up).
 */
#include "cli/commands.h"

trapeze_status cli_check_outputs(const char *const *paths, int n, trapeze_error *err)
{
    for (int i = 0; i < n; i++)
        if (paths[i] && trapeze_output_check(paths[i], err))
            return err->code;
    return TRAPEZE_OK;
}
