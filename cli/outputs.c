/*
 * outputs.c - before a long run, that every output file named on the
 * command line can be written (trapeze_output_check), so that a mistyped
 * folder fails at once instead of after the simulation; and the one rule
 * for "-": standard output (common/outfile.c), taken by at most one output
 * and only where the command prints nothing else there, so that a CSV is
 * never mixed into the text report. Writes nothing; the library still
 * reports what fails later (a disk that fills up).
 */
#include <string.h>

#include "cli/commands.h"
#include "common/error.h"

static int is_stdout(const char *path)
{
    return !strcmp(path, "-") || !strcmp(path, "/dev/stdout");
}

trapeze_status cli_check_outputs(const cli_output *outs, int n, cli_stdout use,
                                 const char *json, trapeze_error *err)
{
    /* --json - takes standard output over the report, which then goes to
     * stderr (json_out.c): the document is then what stdout carries */
    const char *taken = json && is_stdout(json) ? "--json" : NULL;
    for (int i = 0; i < n; i++) {
        const char *path = outs[i].path;
        if (!path)
            continue;
        if (is_stdout(path) && taken)
            return trapeze_fail(err, TRAPEZE_EINVAL, "%s %s: standard output is already %s's",
                                outs[i].option, path, taken);
        if (is_stdout(path) && use != CLI_STDOUT_FREE)
            return trapeze_fail(err, TRAPEZE_EINVAL,
                                "%s %s: standard output carries this command's report; give "
                                "a file name%s", outs[i].option, path,
                                use == CLI_STDOUT_QUIETABLE ? " (or --quiet)" : "");
        if (is_stdout(path))
            taken = outs[i].option;
        if (trapeze_output_check(path, err))
            return err->code;
    }
    return TRAPEZE_OK;
}
