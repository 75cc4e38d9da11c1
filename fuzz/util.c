/*
 * util.c - the helpers every fuzz target uses (fuzz.h): inputs as files in
 * a private temporary folder, the printable-message check, and two opened
 * traces compared warp by warp.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string.h>

#include "fuzz/fuzz.h"
#include "sim/core/gpu_sim.h"
#include "sim/trace/parse.h"
#include "sim/trace/trace.h"

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

void fuzz_same_streams(sim_trace_kernel *kept, sim_trace_kernel *read)
{
    const sim_kernel *ka = sim_trace_kernel_sim(kept), *kb = sim_trace_kernel_sim(read);
    static sim_warp_cursor ca, cb;
    uint32_t regs[64] = {0};
    int warps = (sim_kernel_block_threads(ka) + 31) / 32;
    for (int z = 0; z < ka->grid.z; z++)
        for (int y = 0; y < ka->grid.y; y++)
            for (int x = 0; x < ka->grid.x; x++)
                for (int w = 0; w < warps; w++) {
                    memset(&ca, 0, sizeof ca);
                    memset(&cb, 0, sizeof cb);
                    ka->source->warp_start(ka->source_self, ka, &ca, x, y, z, w);
                    kb->source->warp_start(kb->source_self, kb, &cb, x, y, z, w);
                    sim_warp_inst ia, ib;
                    memset(&ia, 0, sizeof ia);
                    memset(&ib, 0, sizeof ib);
                    int ma, mb;
                    do {
                        ma = ka->source->next(ka->source_self, ka, &ca, regs, &ia);
                        mb = kb->source->next(kb->source_self, kb, &cb, regs, &ib);
                        FUZZ_CHECK(ma == mb);
                        FUZZ_CHECK(!ma || (ia.op == ib.op && ia.active == ib.active &&
                                           ia.pc == ib.pc && ia.dst == ib.dst && ia.unit == ib.unit &&
                                           !memcmp(ia.src, ib.src, sizeof ia.src)));
                        if (ma && sim_trace_op_is_memory(ia.op))
                            FUZZ_CHECK(!memcmp(ia.addr, ib.addr, sizeof ia.addr));
                    } while (ma && mb);
                    ka->source->warp_end(ka->source_self, &ca);
                    kb->source->warp_end(kb->source_self, &cb);
                }
    FUZZ_CHECK(sim_trace_kernel_status(kept, NULL) == TRAPEZE_OK &&
               sim_trace_kernel_status(read, NULL) == TRAPEZE_OK);
}
