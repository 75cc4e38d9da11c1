/*
 * args.c - what every command does the same with its command line, checked
 * in one pass before the command's own parser runs: an option the command
 * does not know is a usage error naming the nearest one it does; an option
 * given twice is a usage error (which of the two did the user mean?); an
 * option that takes a value and has none is one too. Each command lists its
 * options once, in a table. Exit status 2 for every usage error, printed
 * before anything reaches stdout. Owns these checks only; the values are
 * parsed by the command.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

static const cli_opt *find(const cli_opt *opts, const char *name)
{
    for (const cli_opt *o = opts; o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

static const char *nearest(const cli_opt *opts, const char *name)
{
    const char *best = NULL;
    int best_d = 4; /* at most 3 edits away, else no suggestion */
    for (const cli_opt *o = opts; o->name; o++) {
        int d = cli_edit_distance(name, o->name);
        if (d < best_d) {
            best_d = d;
            best = o->name;
        }
    }
    return best;
}

int cli_check_options(const char *cmd, int argc, char **argv, int first, const cli_opt *opts)
{
    const char *seen[128];
    int n_seen = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1] || (a[1] >= '0' && a[1] <= '9'))
            continue; /* an operand, or a negative number */
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return 0; /* the command prints its help */
        const cli_opt *o = find(opts, a);
        if (!o) {
            const char *near = nearest(opts, a);
            if (near)
                return cli_usage_error(cmd, "unknown option '%s'; did you mean '%s'?", a, near);
            return cli_usage_error(cmd, "unknown option '%s'", a);
        }
        for (int k = 0; k < n_seen && !o->repeat; k++)
            if (!strcmp(seen[k], a))
                return cli_usage_error(cmd, "%s given twice", a);
        if (n_seen < (int)(sizeof seen / sizeof seen[0]))
            seen[n_seen++] = o->name;
        if (o->value) {
            if (i + 1 >= argc)
                return cli_usage_error(cmd, "%s needs a value", a);
            i++;
        }
    }
    return 0;
}
