/*
 * seed_init.c - libFuzzer builds only: with TRAPEZE_FUZZ_SEED_DIR set, copies
 * the target's seed files (fuzz_seeds) into that folder at start-up, which
 * scripts/fuzz.sh gives libFuzzer as a corpus, and the files the target
 * generates (fuzz_make_seeds, when it defines one). The patterns stay in
 * one place, the target's source.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static void copy(const char *from, const char *dir, size_t i)
{
    char to[1024], buf[65536];
    snprintf(to, sizeof to, "%s/seed-%zu", dir, i);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = getenv("TRAPEZE_FUZZ_SEED_DIR");
    size_t n = 0;
    for (int p = 0; dir && fuzz_seeds[p]; p++) {
        glob_t gl;
        if (glob(fuzz_seeds[p], 0, NULL, &gl) != 0)
            continue;
        for (size_t i = 0; i < gl.gl_pathc; i++)
            copy(gl.gl_pathv[i], dir, n++);
        globfree(&gl);
    }
    if (dir && fuzz_make_seeds)
        fuzz_make_seeds(dir);
    return 0;
}
