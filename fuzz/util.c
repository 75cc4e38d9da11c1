/*
 * util.c - the helpers every fuzz target uses (fuzz.h): inputs as files in
 * a private temporary folder, and the printable-message check.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

static char fuzz_dir[256];

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[600];
    if (!fuzz_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/trapeze-fuzz-%ld", tmp ? tmp : "/tmp",
                 (long)getpid());
        mkdir(fuzz_dir, 0700);
    }
    snprintf(path, sizeof path, "%s/%s", fuzz_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

void fuzz_cleanup(void)
{
    if (!fuzz_dir[0])
        return;
    DIR *d = opendir(fuzz_dir);
    struct dirent *e;
    char path[600];
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(fuzz_dir);
}

int fuzz_printable(const char *msg)
{
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}
