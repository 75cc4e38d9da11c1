/*
 * driver.c - runs a fuzz target without libFuzzer: over the files named on
 * the command line, or else over its seed patterns (fuzz_seeds) - the shipped
 * data and every reproducer kept in tests/fuzz/NAME/, and the seeds the
 * target generates (fuzz_make_seeds). This is how `make test`
 * replays the corpus and the regression inputs on every build (and under
 * ASan/UBSan with SAN=1). A crash or a failed invariant aborts.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (!buf)
        return 1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

/* The target's generated seeds, made in a folder of their own, run, and
 * removed; how many (-1: the folder could not be made). */
static int run_made_seeds(int *bad)
{
    char dir[] = "/tmp/trapeze-fuzz-seeds-XXXXXX";
    if (!fuzz_make_seeds)
        return 0;
    if (!mkdtemp(dir))
        return -1;
    fuzz_make_seeds(dir);
    char pattern[64];
    snprintf(pattern, sizeof pattern, "%s/*", dir);
    glob_t gl;
    int n = 0;
    if (glob(pattern, 0, NULL, &gl) == 0) {
        for (size_t i = 0; i < gl.gl_pathc; i++, n++) {
            *bad |= run_file(gl.gl_pathv[i]);
            remove(gl.gl_pathv[i]);
        }
        globfree(&gl);
    }
    rmdir(dir);
    return n;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++, files++)
        bad |= run_file(argv[i]);
    for (int p = 0; argc == 1 && fuzz_seeds[p]; p++) {
        glob_t gl;
        if (glob(fuzz_seeds[p], 0, NULL, &gl) != 0)
            continue;
        for (size_t i = 0; i < gl.gl_pathc; i++, files++)
            bad |= run_file(gl.gl_pathv[i]);
        globfree(&gl);
    }
    if (argc == 1) {
        int made = run_made_seeds(&bad);
        bad |= made < 0;
        files += made > 0 ? made : 0;
    }
    fuzz_cleanup();
    printf("%s: %d inputs replayed, %s\n", argv[0], files, bad ? "some unreadable" : "no failure");
    return bad || files == 0;
}
