/*
 * json_out.c - `--json FILE` of every command: where the document goes and
 * what happens to the text summary meanwhile. "-" and /dev/stdout are
 * standard output; the document then takes stdout alone, and the text the
 * command prints there goes to stderr, so a script reads one JSON document
 * and a person still sees the summary. The document itself is written by
 * the library's JSON writer (trapeze_json_*), whole or not at all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/error.h"

trapeze_status cli_json_open(cli_json *c, const char *command, const char *path,
                             trapeze_error *err)
{
    c->j = NULL;
    c->saved_stdout = -1;
    if (!path)
        return TRAPEZE_OK;
    int to_stdout = !strcmp(path, "-") || !strcmp(path, "/dev/stdout");
    trapeze_status s = trapeze_json_create(to_stdout ? "/dev/stdout" : path, &c->j, err);
    if (s)
        return s;
    if (to_stdout) {
        fflush(stdout);
        c->saved_stdout = dup(1);
        if (c->saved_stdout < 0 || dup2(2, 1) < 0) {
            int e = errno;
            cli_json_abort(c);
            return trapeze_fail(err, TRAPEZE_EIO, "--json: standard output: %s", strerror(e));
        }
    }
    trapeze_json_object(c->j, NULL);
    trapeze_json_text(c->j, "command", command);
    return TRAPEZE_OK;
}

/* Standard output back where it was, once the summary is out. */
static void restore_stdout(cli_json *c)
{
    if (c->saved_stdout < 0)
        return;
    fflush(stdout);
    dup2(c->saved_stdout, 1);
    close(c->saved_stdout);
    c->saved_stdout = -1;
}

trapeze_status cli_json_commit(cli_json *c, trapeze_error *err)
{
    if (!c->j)
        return TRAPEZE_OK;
    restore_stdout(c);
    trapeze_json_end(c->j);
    trapeze_status s = trapeze_json_commit(c->j, err);
    c->j = NULL;
    return s;
}

void cli_json_abort(cli_json *c)
{
    restore_stdout(c);
    trapeze_json_abort(c->j);
    c->j = NULL;
}
