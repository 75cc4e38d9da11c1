/* cmd_sim.c - `trapeze sim` (placeholder until the simulator lands). */
#include <stdio.h>

#include "cli/commands.h"

int cli_sim(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "trapeze sim: the simulator is not built yet\n");
    return 2;
}
