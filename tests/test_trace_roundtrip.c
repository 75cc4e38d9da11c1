/*
 * test_trace_roundtrip.c - `trapeze trace export` and reading back: every
 * built-in kernel that has no spin loop, exported as an Accel-Sim trace and
 * simulated from the trace, gives the same cycles, warp and thread
 * instructions, memory instructions and DRAM traffic as the built-in on the
 * GTX 480 config; exported PCs are static (a loop body repeats its PCs);
 * the value-dependent gbarrier is refused; a trace's resident block
 * sections stay a small fraction of the file.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sim/trace/trace.h"

#define MAX_K 8

static char dir[64];
static trapeze_config *cfg;

static sim_gpu *new_gpu(void)
{
    sim_gpu *g = NULL;
    trapeze_error err;
    if (sim_gpu_create(cfg, NULL, &g, &err))
        fprintf(stderr, "%s\n", err.message);
    return g;
}

static int build(const char *name, const char *const *settings, int ns, sim_kernel **ks,
                 const sim_core_config *core)
{
    const sim_builtin *b = sim_builtin_find(name);
    long p[SIM_BUILTIN_MAX_PARAMS];
    trapeze_error err;
    int n = 0;
    if (sim_builtin_params(b, ns, (char **)settings, p, &err) ||
        b->build(core, p, ks, MAX_K, &n, &err)) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        return 0;
    }
    return n;
}

static void remove_dir(void)
{
    char path[128];
    for (int i = 1; i <= MAX_K; i++) {
        snprintf(path, sizeof path, "%s/kernel-%d.traceg", dir, i);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    remove(path);
}

static long file_size(const char *path)
{
    struct stat s;
    return stat(path, &s) ? -1 : (long)s.st_size;
}

/* Built-in vs its exported trace, launch by launch. */
static void roundtrip(const char *name, const char *const *settings, int ns)
{
    sim_gpu *g = new_gpu();
    sim_kernel *ks[MAX_K];
    int n = build(name, settings, ns, ks, sim_gpu_config(g));
    CHECK(n > 0);
    sim_kernel_stats a[MAX_K], b[MAX_K];
    trapeze_error err;
    for (int i = 0; i < n; i++)
        CHECK_OK(sim_gpu_run(g, ks[i], &a[i], &err));
    CHECK_OK(sim_trace_export(ks, n, dir, &err));
    sim_gpu_destroy(g);
    g = new_gpu();
    char list[128];
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    int m = 0;
    trapeze_status s = sim_trace_run(g, list, b, MAX_K, &m, &err);
    if (s)
        fprintf(stderr, "%s: %s\n", name, err.message);
    CHECK(s == TRAPEZE_OK && m == n);
    for (int i = 0; i < n && i < m; i++) {
        if (a[i].cycles != b[i].cycles || a[i].total.warp_insts != b[i].total.warp_insts)
            fprintf(stderr, "%s launch %d: built-in %llu cycles %llu insts, trace %llu cycles "
                    "%llu insts\n", name, i, (unsigned long long)a[i].cycles,
                    (unsigned long long)a[i].total.warp_insts, (unsigned long long)b[i].cycles,
                    (unsigned long long)b[i].total.warp_insts);
        CHECK(a[i].cycles == b[i].cycles);
        CHECK(a[i].total.warp_insts == b[i].total.warp_insts);
        CHECK(a[i].total.thread_insts == b[i].total.thread_insts);
        CHECK(a[i].total.gld_insts == b[i].total.gld_insts);
        CHECK(a[i].total.gst_insts == b[i].total.gst_insts);
        CHECK(a[i].total.mem_requests == b[i].total.mem_requests);
        CHECK(a[i].mem.dram_bytes_read == b[i].mem.dram_bytes_read);
        CHECK(!memcmp(a[i].total.stall, b[i].total.stall, sizeof a[i].total.stall));
        sim_kernel_stats_free(&b[i]);
    }
    for (int i = 0; i < n; i++) {
        sim_kernel_stats_free(&a[i]);
        sim_kernel_destroy(ks[i]);
    }
    sim_gpu_destroy(g);
    remove_dir();
}

/* The opening pass counts the warp instructions the built-in issues. */
static void counts_and_pcs(void)
{
    sim_gpu *g = new_gpu();
    sim_kernel *ks[MAX_K];
    static const char *const copy[] = {"n=4096", "block=128", "per_thread=4"};
    int n = build("copy", copy, 3, ks, sim_gpu_config(g));
    trapeze_error err;
    CHECK_OK(sim_trace_export(ks, n, dir, &err));
    char path[128];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    sim_trace_kernel *t = NULL;
    CHECK_OK(sim_trace_kernel_open(path, &t, &err));
    /* 8 blocks x 4 warps; per warp: MAD, then 4 x (IF branch, LD, ST, ADD,
     * ENDLOOP branch) + EXIT = 1 + 20 + 1 = 22 */
    CHECK(t && sim_trace_kernel_warp_insts(t) == 8 * 4 * 22);
    CHECK(t && sim_trace_kernel_unknown_opcodes(t) == 0);
    sim_trace_kernel_close(t);
    /* the loop's load has one static PC: it appears 4 times in warp 0 */
    FILE *f = fopen(path, "r");
    char line[1024], first_ldg[16] = "";
    int same = 0;
    while (f && fgets(line, sizeof line, f) && !strstr(line, "warp = 1")) {
        if (!strstr(line, " LDG.E "))
            continue;
        if (!first_ldg[0])
            snprintf(first_ldg, sizeof first_ldg, "%.4s", line);
        same += !strncmp(line, first_ldg, 4);
    }
    if (f)
        fclose(f);
    CHECK(same == 4);
    sim_kernel_destroy(ks[0]);
    sim_gpu_destroy(g);
    remove_dir();
}

static void gbarrier_refused(void)
{
    sim_gpu *g = new_gpu();
    sim_kernel *ks[MAX_K];
    static const char *const gb[] = {"tiles=30", "stages=2", "block=64"};
    int n = build("gbarrier", gb, 3, ks, sim_gpu_config(g));
    trapeze_error err = {0};
    CHECK(n == 1 && sim_trace_export(ks, n, dir, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "spin loop") != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    CHECK(file_size(path) < 0);   /* nothing written */
    sim_kernel_destroy(ks[0]);
    sim_gpu_destroy(g);
}

/* 1000 blocks of 256 threads; at most 6 per GTX 480 SM x 15 SMs resident. */
static void bounded_sections(void)
{
    sim_gpu *g = new_gpu();
    sim_kernel *ks[MAX_K];
    static const char *const va[] = {"n=256000", "block=256"};
    int n = build("vecadd", va, 2, ks, sim_gpu_config(g));
    trapeze_error err;
    CHECK_OK(sim_trace_export(ks, n, dir, &err));
    char path[128];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    sim_trace_kernel *t = NULL;
    sim_kernel_stats st, kept_st;
    /* no decoded block kept: every block is read from the file as it runs */
    CHECK_OK(sim_trace_kernel_open_keep(path, 0, &t, &err));
    CHECK_OK(sim_gpu_run(g, sim_trace_kernel_sim(t), &st, &err));
    CHECK_OK(sim_trace_kernel_status(t, &err));
    long size = file_size(path);
    size_t peak = sim_trace_kernel_peak_section_bytes(t);
    /* a section is about size/1000 bytes of text (plus ~350 bytes of
     * bookkeeping); the 90 resident blocks hold 9% of the file, never all */
    CHECK(peak > (size_t)size * 85 / 1000 && peak < (size_t)size * 110 / 1000);
    CHECK(st.resident_blocks_per_sm == 6);
    sim_trace_kernel_close(t);
    /* every block kept decoded: the same run on a fresh GPU, only the
     * sections' warp cursors held (no text) */
    sim_gpu_destroy(g);
    g = new_gpu();
    CHECK_OK(sim_trace_kernel_open(path, &t, &err));
    CHECK_OK(sim_gpu_run(g, sim_trace_kernel_sim(t), &kept_st, &err));
    CHECK(sim_trace_kernel_kept_bytes(t) > 0 &&
          sim_trace_kernel_kept_bytes(t) < (size_t)size);
    CHECK(sim_trace_kernel_peak_section_bytes(t) < peak / 4);
    CHECK(kept_st.cycles == st.cycles && !memcmp(&kept_st.total, &st.total, sizeof st.total) &&
          !memcmp(kept_st.events, st.events, sizeof st.events));
    sim_kernel_stats_free(&kept_st);
    sim_kernel_stats_free(&st);
    sim_trace_kernel_close(t);
    sim_kernel_destroy(ks[0]);
    sim_gpu_destroy(g);
    remove_dir();
}

int main(void)
{
    trapeze_error err;
    snprintf(dir, sizeof dir, "/tmp/trapeze-trace-XXXXXX");
    if (!mkdtemp(dir) || trapeze_config_load("data/gpus/gtx480.config", &cfg, &err)) {
        fprintf(stderr, "setup failed\n");
        return 1;
    }
    static const char *const vecadd[] = {"n=3000", "block=128"};
    static const char *const copy[] = {"n=5000", "block=128", "per_thread=3"};
    static const char *const jacobi[] = {"nx=40", "ny=36", "bx=16", "by=8", "iters=2"};
    static const char *const strided[] = {"n=2048", "stride=3", "block=64"};
    static const char *const chase[] = {"steps=12", "stride=4096"};
    static const char *const relaunch[] = {"tiles=20", "stages=2", "block=64"};
    roundtrip("vecadd", vecadd, 2);
    roundtrip("copy", copy, 3);
    roundtrip("jacobi", jacobi, 5);
    roundtrip("strided", strided, 3);
    roundtrip("chase", chase, 2);
    roundtrip("relaunch", relaunch, 3);
    counts_and_pcs();
    gbarrier_refused();
    bounded_sections();
    trapeze_config_destroy(cfg);
    rmdir(dir);
    return check_report("test_trace_roundtrip");
}
