/*
 * usage_error.c - the one way a subcommand reports a bad command line: its
 * name, the message, and a pointer to its --help. Holds no parsing.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli/commands.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "trapeze %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(try 'trapeze %s --help')\n", cmd);
    va_end(ap);
    return 2;
}
