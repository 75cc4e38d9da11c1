/* Fixtures shared by the simulator's unit tests: a built-in kernel run on
 * the GTX 480 preset with a few options laid over it. Test-only; include
 * after check.h (it uses CHECK and CHECK_OK) and sim/core/gpu_sim.h. */
#ifndef TRAPEZE_TESTS_SIM_FIXTURE_H
#define TRAPEZE_TESTS_SIM_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel a builder made; a builder error ends the test at once (the
 * kernels that follow would be built on it). */
static inline sim_kernel *fixture_kb_end(sim_kb *kb)
{
    sim_kernel *k = NULL;
    trapeze_error err;
    if (sim_kb_end(kb, &k, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return k;
}

/* Runs built-in `name` (with its argc name=value parameters) on
 * data/gpus/gtx480.config plus the option lines `extra`; fills st. */
static inline void fixture_run_builtin(const char *name, int argc, char **argv, const char *extra,
                                       sim_kernel_stats *st)
{
    trapeze_error err;
    trapeze_config *cfg = NULL;
    char path[] = "/tmp/trapeze_fixture_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        CHECK(0);
        return;
    }
    fputs(extra, f);
    fclose(f);
    char list[256];
    snprintf(list, sizeof list, "data/gpus/gtx480.config,%s", path);
    CHECK_OK(trapeze_config_load(list, &cfg, &err));
    remove(path);
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    sim_gpu *g = NULL;
    CHECK_OK(sim_gpu_create(cfg, &opt, &g, &err));
    const sim_builtin *b = sim_builtin_find(name);
    long p[SIM_BUILTIN_MAX_PARAMS];
    sim_kernel *ks[4];
    int n = 0;
    CHECK_OK(sim_builtin_params(b, argc, argv, p, &err));
    CHECK_OK(b->build(sim_gpu_config(g), p, ks, 4, &n, &err));
    CHECK(n == 1);
    CHECK_OK(sim_gpu_run(g, ks[0], st, &err));
    sim_kernel_destroy(ks[0]);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

/* data/gpus/gtx480.config with the option lines `extra` appended, parsed
 * under the name `name` (the name errors would give). */
static inline trapeze_config *fixture_gtx480_with(const char *extra, const char *name)
{
    FILE *f = fopen("data/gpus/gtx480.config", "r");
    static char text[1 << 16];
    size_t room = sizeof text - strlen(extra) - 2;
    size_t n = f ? fread(text, 1, room, f) : 0;
    if (f)
        fclose(f);
    CHECK(n > 0 && n < room);
    snprintf(text + n, sizeof text - n, "\n%s\n", extra);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse(text, name, &cfg, &err));
    return cfg;
}

/* The simulator refuses `cfg` with a message containing `needle`; takes
 * cfg (destroys it). */
static inline void fixture_expect_refused(trapeze_config *cfg, const char *needle)
{
    sim_gpu_options opt;
    memset(&opt, 0, sizeof opt);
    trapeze_error err;
    memset(&err, 0, sizeof err);
    sim_gpu *g = NULL;
    CHECK(sim_gpu_create(cfg, &opt, &g, &err) != TRAPEZE_OK && !g);
    if (!strstr(err.message, needle))
        fprintf(stderr, "message: %s\n", err.message);
    CHECK(strstr(err.message, needle) != NULL);
    sim_gpu_destroy(g);
    trapeze_config_destroy(cfg);
}

#endif
