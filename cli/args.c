/*
 * args.c - what every command does the same with its command line, checked
 * in one pass before the command's own parser runs: an option the command
 * does not know is a usage error naming the nearest one it does; an option
 * given twice is a usage error (which of the two did the user mean?); an
 * option that takes a value and has none is one too. Each command lists its
 * options once, in a table. Exit status 2 for every usage error, printed
 * before anything reaches stdout. And, before any command sees its command
 * line, "--name=value" becomes "--name" "value" (cli_split_equals), so every
 * command takes both spellings. Owns these checks only; the values are
 * parsed by the command, but for --threads of the commands that run
 * several simulations, whose range and message are the same everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/text.h"

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

static const cli_field *field_of(const cli_field *fields, const char *name)
{
    for (const cli_field *f = fields; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

int cli_parse_options(const char *cmd, int argc, char **argv, int first, const cli_field *fields,
                      const char **operands, int max_operands, int *n_operands,
                      void (*usage)(FILE *out))
{
    *n_operands = 0;
    for (int i = first; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
    cli_opt opts[64];
    int n = 0;
    for (const cli_field *f = fields; f->name && n < 63; f++)
        opts[n++] = (cli_opt){f->name, f->text != NULL, 0};
    opts[n] = (cli_opt){NULL, 0, 0};
    int rc = cli_check_options(cmd, argc, argv, first, opts);
    if (rc)
        return rc;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        int optlike = a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9');
        const cli_field *f = optlike ? field_of(fields, a) : NULL;
        if (f && f->text) {
            *f->text = argv[++i];
        } else if (f) {
            *f->flag = 1;
        } else if (*n_operands < max_operands) {
            operands[(*n_operands)++] = a;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", a);
        }
    }
    return -1;
}

/* "--name=value" (a name of one character at least): where the '=' is. */
static const char *equals_of(const char *a)
{
    const char *eq = a[0] == '-' && a[1] == '-' && a[2] && a[2] != '=' ? strchr(a, '=') : NULL;
    return eq;
}

int cli_split_equals(int argc, char **argv, cli_argv *out)
{
    size_t names = 0;
    int extra = 0, end = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) { /* operands only from here on */
            end = i;
            break;
        }
        if (equals_of(argv[i])) {
            names += strlen(argv[i]) + 1;
            extra++;
        }
    }
    out->argv = malloc((size_t)(argc + extra + 1) * sizeof *out->argv);
    out->names = malloc(names + 1);
    if (!out->argv || !out->names) {
        cli_argv_free(out);
        return -1;
    }
    char *name = out->names;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *eq = i > 0 && i < end ? equals_of(argv[i]) : NULL;
        if (!eq) {
            out->argv[n++] = argv[i];
            continue;
        }
        size_t len = (size_t)(eq - argv[i]);
        memcpy(name, argv[i], len);
        name[len] = '\0';
        out->argv[n++] = name;
        out->argv[n++] = (char *)eq + 1;
        name += len + 1;
    }
    out->argv[n] = NULL;
    out->argc = n;
    return 0;
}

void cli_argv_free(cli_argv *a)
{
    free(a->argv);
    free(a->names);
    a->argv = NULL;
    a->names = NULL;
}

int cli_threads_value(const char *cmd, const char *text, long *threads)
{
    *threads = 1;
    if (text && (!trapeze_parse_long(text, threads) || *threads < 1 || *threads > 64))
        return cli_usage_error(cmd, "--threads %s: expected 1 to 64", text);
    return 0;
}
