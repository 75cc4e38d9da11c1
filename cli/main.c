/*
 * main.c - the trapeze program: dispatches to a subcommand. Parses nothing
 * beyond the subcommand name and --no-progress, which every command takes
 * (it sets TRAPEZE_PROGRESS=off for progress.c); every command gets its
 * line with "--name=value" already split (args.c) and --no-progress taken
 * out, and returns its exit status: 0 done, 1 a failure at run time (a
 * file missing or malformed, a write that failed), 2 a bad command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "trapeze.h"

static void usage(FILE *out)
{
    fprintf(out,
            "Trapeze %s: predict and optimize GPU kernel performance.\n"
            "\n"
            "usage: trapeze COMMAND [options]\n"
            "\n"
            "commands:\n"
            "  ghostzone   predict the best ghost-zone (trapezoid) height and sync mode\n"
            "              of iterative stencil loops with Meng's model; export CSV\n"
            "  sim         run kernels on the cycle-level GPU simulator\n"
            "  trace       export, check and list Accel-Sim SASS traces\n"
            "  calibrate   fit the ghost-zone model's constants to short simulations\n"
            "  validate    check a calibration against full simulations\n"
            "  locality    thread-block locality graph of a kernel (CSV edge list)\n"
            "  group       choose a TB grouping with the locality model; compare policies\n"
            "  import      hardware measurements in (Nsight Compute CSV -> samples log)\n"
            "  sleep       choose L1D, L2 and register-file sleep thresholds from idle periods\n"
            "  cache       choose which loads the L1D caches (Choo's policies) from samples\n"
            "  simd        choose an SM's SIMD width and depth with the width-and-depth model\n"
            "\n"
            "Run 'trapeze COMMAND --help' for a command's options. Every command also\n"
            "takes --no-progress: no progress display on stderr (TRAPEZE_PROGRESS=off).\n",
            TRAPEZE_VERSION);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {   /* and whether hugepages.c's setting holds */
        const char *tun = getenv("GLIBC_TUNABLES");
        printf("trapeze %s%s\n", TRAPEZE_VERSION,
               tun && strstr(tun, "glibc.malloc.hugetlb=1") ? " (malloc on huge pages)" : "");
        return 0;
    }
    if (strcmp(cmd, "ghostzone") == 0)
        return cli_ghostzone(argc - 1, argv + 1);
    if (strcmp(cmd, "sim") == 0)
        return cli_sim(argc - 1, argv + 1);
    if (strcmp(cmd, "trace") == 0)
        return cli_trace(argc - 1, argv + 1);
    if (strcmp(cmd, "calibrate") == 0)
        return cli_calibrate(argc - 1, argv + 1);
    if (strcmp(cmd, "validate") == 0)
        return cli_validate(argc - 1, argv + 1);
    if (strcmp(cmd, "locality") == 0)
        return cli_locality(argc - 1, argv + 1);
    if (strcmp(cmd, "group") == 0)
        return cli_group(argc - 1, argv + 1);
    if (strcmp(cmd, "import") == 0)
        return cli_import(argc - 1, argv + 1);
    if (strcmp(cmd, "sleep") == 0)
        return cli_sleep(argc - 1, argv + 1);
    if (strcmp(cmd, "cache") == 0)
        return cli_cache(argc - 1, argv + 1);
    if (strcmp(cmd, "simd") == 0)
        return cli_simd(argc - 1, argv + 1);
    fprintf(stderr, "trapeze: unknown command '%s' (try 'trapeze --help')\n", cmd);
    return 2;
}

int main(int argc, char **argv)
{
    cli_hugepages(argv);
    cli_argv a;
    if (cli_split_equals(argc, argv, &a) != 0) {
        fprintf(stderr, "trapeze: out of memory\n");
        return 1;
    }
    /* before a bare "--", where the operands' own words begin */
    int kept = 0, options = 1;
    for (int i = 0; i < a.argc; i++) {
        options = options && strcmp(a.argv[i], "--") != 0;
        if (i > 1 && options && !strcmp(a.argv[i], "--no-progress"))
            setenv("TRAPEZE_PROGRESS", "off", 1);
        else
            a.argv[kept++] = a.argv[i];
    }
    a.argc = kept;
    int rc = dispatch(a.argc, a.argv);
    cli_argv_free(&a);
    return rc;
}
