/*
 * bench_trace.c - Accel-Sim trace figures (printed, never asserted), GTX 480
 * config: the time to open (read and check every line of) a trace and to
 * simulate it, in simulated warp instructions per second, against the same
 * kernel run as a built-in program; and peak memory (maxrss of a child
 * process that opens and simulates one trace) as the trace grows 16-fold,
 * to show the reader's memory is bounded by resident blocks and the
 * decoded blocks it keeps (at most SIM_TRACE_KEEP_DEFAULT), not by the
 * file's length; and `trapeze trace check` (the program beside this one's
 * folder) on an .xz trace of about 1 GB decompressed, generated compressed
 * (vecadd's blocks repeated, their addresses moved), in decompressed MB/s
 * and peak RSS. Traces are written to /tmp and removed.
 */
#define _DEFAULT_SOURCE   /* wait4: the child's own peak RSS */
#include <libgen.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"
#include "bench/bench_common.h"

static trapeze_config *cfg;

static int fail(const char *what, const trapeze_error *err)
{
    fprintf(stderr, "bench_trace: %s: %s\n", what, err->message);
    return 1;
}

/* Builds a built-in (one launch), runs it, exports it to dir. */
static int builtin_and_export(const char *name, int argc, char **argv, const char *dir,
                              sim_kernel_stats *st, double *secs)
{
    trapeze_error err;
    sim_gpu *g;
    sim_kernel *k[1];
    if (bench_builtin(cfg, name, argc, argv, &g, &k[0], &err))
        return fail(name, &err);
    int rc = 0;
    double t0 = now();
    if (st && sim_gpu_run(g, k[0], st, &err))
        rc = fail(name, &err);
    if (secs)
        *secs = now() - t0;
    if (!rc && sim_trace_export(k, 1, dir, &err))
        rc = fail("export", &err);
    sim_kernel_destroy(k[0]);
    sim_gpu_destroy(g);
    return rc;
}

/* Opens and simulates dir/kernel-1.traceg. */
static int run_trace(const char *dir, double *open_s, double *sim_s, sim_kernel_stats *st,
                     size_t *peak_sections, size_t *kept)
{
    char path[256];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    trapeze_error err;
    sim_trace_kernel *t = NULL;
    sim_gpu *g = NULL;
    double t0 = now();
    if (sim_trace_kernel_open(path, &t, &err))
        return fail(path, &err);
    double t1 = now();
    int rc = 0;
    if (sim_gpu_create(cfg, NULL, &g, &err) || sim_gpu_run(g, sim_trace_kernel_sim(t), st, &err))
        rc = fail(path, &err);
    *open_s = t1 - t0;
    *sim_s = now() - t1;
    *peak_sections = sim_trace_kernel_peak_section_bytes(t);
    *kept = sim_trace_kernel_kept_bytes(t);
    sim_gpu_destroy(g);
    sim_trace_kernel_close(t);
    return rc;
}

static void remove_trace(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    remove(path);
    rmdir(dir);
}

static long file_mb(const char *dir)
{
    char path[256];
    struct stat s;
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    return stat(path, &s) ? -1 : (long)(s.st_size >> 20);
}

static int speed(void)
{
    char dir[] = "/tmp/trapeze-bench-trace-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    static char *jac[] = {"nx=512", "ny=512", "bx=16", "by=16", "iters=1"};
    sim_kernel_stats a, b;
    double builtin_s, open_s, sim_s;
    size_t peak, kept;
    if (builtin_and_export("jacobi", 5, jac, dir, &a, &builtin_s) ||
        run_trace(dir, &open_s, &sim_s, &b, &peak, &kept))
        return 1;
    double wi = (double)b.total.warp_insts;
    printf("jacobi 512x512 (16x16 blocks), %llu warp instructions, trace of %ld MB:\n",
           (unsigned long long)b.total.warp_insts, file_mb(dir));
    printf("  built-in program:  %.3f s simulating, %.2f million warp instructions/s\n",
           builtin_s, wi / builtin_s / 1e6);
    printf("  trace:             %.3f s opening (every line checked), %.3f s simulating: "
           "%.2f million warp instructions/s overall (%.2f simulating only)\n",
           open_s, sim_s, wi / (open_s + sim_s) / 1e6, wi / sim_s / 1e6);
    printf("  same cycles: %s (%llu vs %llu)\n", a.cycles == b.cycles ? "yes" : "NO",
           (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    sim_kernel_stats_free(&a);
    sim_kernel_stats_free(&b);
    remove_trace(dir);
    return 0;
}

/* Peak RSS of a child that opens and simulates a vecadd trace of n elements. */
static int memory(long n)
{
    char dir[] = "/tmp/trapeze-bench-trace-XXXXXX";
    char arg[32];
    snprintf(arg, sizeof arg, "n=%ld", n);
    char *va[] = {arg, "block=256"};
    if (!mkdtemp(dir) || builtin_and_export("vecadd", 2, va, dir, NULL, NULL))
        return 1;
    int fd[2];
    if (pipe(fd))
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double open_s, sim_s;
        size_t peak = 0, kept = 0;
        sim_kernel_stats st;
        int rc = run_trace(dir, &open_s, &sim_s, &st, &peak, &kept);
        char line[200];
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        int len = snprintf(line, sizeof line, "%.2f %.2f %zu %zu %llu %ld", open_s, sim_s, peak,
                           kept, rc ? 0ULL : (unsigned long long)st.total.warp_insts,
                           ru.ru_maxrss);
        if (write(fd[1], line, (size_t)len) != len)
            rc = 1;
        _exit(rc);
    }
    close(fd[1]);
    char line[200] = "";
    ssize_t got = read(fd[0], line, sizeof line - 1);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    double open_s = 0, sim_s = 0;
    size_t peak = 0, kept = 0;
    unsigned long long wi = 0;
    long maxrss_kb = 0;
    if (got <= 0 ||
        sscanf(line, "%lf %lf %zu %zu %llu %ld", &open_s, &sim_s, &peak, &kept, &wi,
               &maxrss_kb) != 6 ||
        status != 0) {
        fprintf(stderr, "bench_trace: child failed\n");
        remove_trace(dir);
        return 1;
    }
    printf("  vecadd n=%-9ld trace %5ld MB, %9llu warp instructions: open %.2f s, simulate "
           "%.2f s, peak RSS %.1f MB, resident block sections at most %.2f MB, decoded blocks "
           "kept %.1f MB (at most %zu)\n",
           n, file_mb(dir), wi, open_s, sim_s, (double)maxrss_kb / 1024.0,
           (double)peak / 1048576.0, (double)kept / 1048576.0, SIM_TRACE_KEEP_DEFAULT >> 20);
    remove_trace(dir);
    return 0;
}

/* The text of dir/kernel-1.traceg, NUL-terminated; NULL on failure. */
static char *slurp(const char *dir, size_t *n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    if (f && !fseek(f, 0, SEEK_END) && (*n = (size_t)ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
        (s = malloc(*n + 1)) && fread(s, 1, *n, f) != *n) {
        free(s);
        s = NULL;
    }
    if (f)
        fclose(f);
    if (s)
        s[*n] = '\0';
    return s;
}

/* Feeds n bytes (NULL: the end) to the encoder z writing to f. */
static int xz_put(lzma_stream *z, FILE *f, const char *p, size_t n)
{
    static uint8_t out[1 << 16];
    z->next_in = (const uint8_t *)p;
    z->avail_in = n;
    lzma_action a = p ? LZMA_RUN : LZMA_FINISH;
    for (;;) {
        z->next_out = out;
        z->avail_out = sizeof out;
        lzma_ret r = lzma_code(z, a);
        size_t w = sizeof out - z->avail_out;
        if ((r != LZMA_OK && r != LZMA_STREAM_END) || fwrite(out, 1, w, f) != w)
            return 1;
        if (r == LZMA_STREAM_END || (a == LZMA_RUN && z->avail_in == 0 && z->avail_out))
            return 0;
    }
}

/* One repeat of the blocks body[0, n) (NUL-terminated) as block ids
 * first, ..., each address moved to pages of its own, into out (at least
 * 2n bytes); its length. */
static size_t repeat_body(const char *body, size_t n, long first, char *out)
{
    size_t len = 0;
    unsigned long long off = ((unsigned long long)first * 2654435761u & 0xfffff) << 12;
    long id = first;
    const char *s = body, *e = body + n;
    const char *x = strstr(s, "0x"), *tb = strstr(s, "thread block = ");
    while (s < e) {
        const char *next = tb && (!x || tb < x) ? tb : x ? x : e;
        memcpy(out + len, s, (size_t)(next - s));
        len += (size_t)(next - s);
        if (next == e)
            break;
        if (next == tb) {   /* renumber the block */
            len += (size_t)sprintf(out + len, "thread block = %ld", id++);
            s = strchr(tb, ',');
            tb = strstr(s, "thread block = ");
        } else {
            char *end;
            len += (size_t)sprintf(out + len, "0x%llx", strtoull(x, &end, 16) + off);
            s = end;
            x = strstr(s, "0x");
        }
    }
    return len;
}

/* dir/kernel-1.traceg.xz: vecadd's trace of per blocks repeated to about
 * mb MB; its decompressed size in *bytes. */
static int write_big_xz(const char *dir, long mb, long long *bytes)
{
    static char *va[] = {"n=1024", "block=128"};
    size_t n = 0;
    char *plain = NULL;
    if (builtin_and_export("vecadd", 2, va, dir, NULL, NULL) || !(plain = slurp(dir, &n)))
        return 1;
    remove_trace(dir);
    mkdir(dir, 0700);
    const long per = 8;
    char *body = strstr(plain, "#BEGIN_TB"), *grid = strstr(plain, "(8,1,1)");
    size_t body_n = n - (size_t)(body - plain);
    long reps = (long)((mb << 20) / (long long)body_n) + 1;
    char path[256], head[64];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *list = fopen(path, "w");
    if (list)
        fprintf(list, "kernel-1.traceg\n");
    snprintf(path, sizeof path, "%s/kernel-1.traceg.xz", dir);
    FILE *f = fopen(path, "wb");
    char *out = malloc(2 * body_n + 4096);
    lzma_stream z = LZMA_STREAM_INIT;
    int rc = !list || fclose(list) || !f || !out || !body || !grid ||
             lzma_easy_encoder(&z, 0, LZMA_CHECK_CRC64) != LZMA_OK;
    int hn = snprintf(head, sizeof head, "(%ld,1,1)", per * reps);
    rc = rc || xz_put(&z, f, plain, (size_t)(grid - plain)) || xz_put(&z, f, head, (size_t)hn) ||
         xz_put(&z, f, grid + 7, (size_t)(body - grid - 7));
    *bytes = (grid - plain) + hn + (body - grid - 7);
    for (long r = 0; !rc && r < reps; r++) {
        size_t len = repeat_body(body, body_n, r * per, out);
        rc = xz_put(&z, f, out, len);
        *bytes += (long long)len;
    }
    rc = rc || xz_put(&z, f, NULL, 0);
    lzma_end(&z);
    if (f && fclose(f))
        rc = 1;
    free(out);
    free(plain);
    return rc;
}

/* `trapeze trace check` on an .xz trace of about mb MB decompressed. */
static int xz_check(const char *trapeze, long mb)
{
    char dir[] = "/tmp/trapeze-bench-trace-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    long long bytes = 0;
    double t0 = now();
    int rc = write_big_xz(dir, mb, &bytes);
    double gen_s = now() - t0;
    char list[256], xz[256];
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    snprintf(xz, sizeof xz, "%s/kernel-1.traceg.xz", dir);
    struct stat sz = {0};
    stat(xz, &sz);
    t0 = now();
    pid_t pid = rc ? -1 : fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(1);
        execl(trapeze, trapeze, "trace", "check", list, (char *)NULL);
        _exit(127);
    }
    int status = 1;
    struct rusage ru = {0};
    if (pid > 0 && wait4(pid, &status, 0, &ru) == pid && status == 0) {
        double s = now() - t0, dmb = (double)bytes / 1e6;
        printf("  %s trace check: %.0f MB decompressed (%.1f MB .xz, written in %.1f s): %.1f s, "
               "%.0f MB/s, peak RSS %.1f MB\n", trapeze, dmb, (double)sz.st_size / 1e6, gen_s,
               s, dmb / s, (double)ru.ru_maxrss / 1024.0);
    } else {
        fprintf(stderr, "bench_trace: %s trace check %s failed\n", trapeze, list);
        rc = 1;
    }
    remove(xz);
    remove(list);
    rmdir(dir);
    return rc;
}

int main(int argc, char **argv)
{
    trapeze_error err;
    if (trapeze_config_load("data/gpus/gtx480.config", &cfg, &err))
        return fail("config", &err);
    int rc = speed();
    /* TRAPEZE_BENCH_TRACE_MAX=N raises the largest vecadd (elements; about
     * 8.6 bytes of trace each: 2^28 gives a 2.2 GB trace) */
    const char *env = getenv("TRAPEZE_BENCH_TRACE_MAX");
    long max = env ? atol(env) : 1L << 24;
    printf("memory while reading and simulating a trace (separate process each):\n");
    for (long n = 1L << 20; !rc && n <= max; n <<= 2)
        rc = memory(n);
    /* TRAPEZE_BENCH_XZ_MB=N: the .xz trace's decompressed size (1024) */
    const char *xz_env = getenv("TRAPEZE_BENCH_XZ_MB");
    char trapeze[4096];
    snprintf(trapeze, sizeof trapeze, "%s/trapeze", dirname(dirname(argc ? argv[0] : ".")));
    printf("an .xz trace read by the command line (no temporary file; separate process):\n");
    if (!rc)
        rc = xz_check(trapeze, xz_env ? atol(xz_env) : 1024);
    trapeze_config_destroy(cfg);
    return rc;
}
