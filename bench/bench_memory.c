/*
 * bench_memory.c - peak memory of one simulation per shipped GPU config
 * (every config in data/gpus) and of the largest SM count a config may declare
 * (4096, common/gpu.c), each in a child process of its own so that every
 * figure is that run's peak resident set (getrusage ru_maxrss). The kernel
 * is a 1,024-thread vector add: what a run needs is then small, and the
 * figure shows what the simulator allocates by the config alone (per SM).
 * Printed, never asserted (docs/reliability.md records the figures).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench_common.h"
#include "common/text.h"

static int run_one(const char *label, const char *text_or_path, int is_text)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    trapeze_status s = is_text ? trapeze_config_parse(text_or_path, label, &cfg, &err)
                               : trapeze_config_load(text_or_path, &cfg, &err);
    sim_gpu *g = NULL;
    sim_kernel *k = NULL;
    char *argv[] = {"n=1024"};
    sim_kernel_stats st;
    double t0 = now();
    if (!s)
        s = bench_builtin(cfg, "vecadd", 1, argv, &g, &k, &err);
    if (!s)
        s = sim_gpu_run(g, k, &st, &err);
    if (s) {
        fprintf(stderr, "bench_memory: %s: %s\n", label, err.message);
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-34s %5d SMs: peak memory %8.1f MB, %6.2f s\n", label, sim_gpu_config(g)->gpu.n_sm,
           ru.ru_maxrss / 1024.0, now() - t0);
    sim_kernel_stats_free(&st);
    sim_kernel_destroy(k);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
    return 0;
}

/* Runs run_one in a child: each peak is measured alone. */
static int in_child(const char *label, const char *text_or_path, int is_text)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int rc = run_one(label, text_or_path, is_text);
        fflush(stdout);
        _exit(rc);
    }
    int status = 1;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return 1;
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
    glob_t gl;
    int bad = 0;
    if (glob("data/gpus/*.config", 0, NULL, &gl) == 0) {
        for (size_t i = 0; i < gl.gl_pathc; i++)
            bad |= in_child(gl.gl_pathv[i], gl.gl_pathv[i], 0);
        globfree(&gl);
    }
    /* the GTX 480 with the most SMs a config may declare */
    char *text = NULL;
    trapeze_error err;
    if (trapeze_read_file("data/gpus/gtx480.config", &text, &err) == TRAPEZE_OK) {
        size_t n = strlen(text);
        char *big = malloc(n + 128);
        if (big) {
            snprintf(big, n + 128, "%s\n-gpgpu_n_clusters 4096\n-gpgpu_n_cores_per_cluster 1\n",
                     text);
            bad |= in_child("gtx480 with 4096 SMs (the limit)", big, 1);
            free(big);
        }
        free(text);
    }
    return bad;
}
