/*
 * bench_features.c - what each fidelity feature of the simulator costs in
 * host time: the Jacobi 1024x1024 (16x16 blocks) on a preset as shipped,
 * then with one feature switched off by its config options (the preset's
 * lines for it dropped or rewritten, everything else as shipped), and on
 * the GTX 480 with the flit-level crossbar it does not use switched on.
 * CPU seconds, best of three, and the feature's share of the preset's
 * time. The cycles change with the feature (that is its fidelity); the
 * figure is what it costs to simulate. Printed, never asserted.
 *
 *   build/bench/bench_features           both presets
 *   build/bench/bench_features v100      one
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_common.h"
#include "common/text.h"

typedef struct {
    const char *what;
    const char *drop[8];  /* option-name prefixes whose lines are dropped */
    int unsector;         /* the data caches' S: specs read as N: (sectors off) */
    const char *add;      /* lines appended (a later definition wins) */
    const char *add_file; /* a file's lines appended */
} variant;

typedef struct {
    const char *gpu, *config;
    variant v[6];
} preset;

static const preset presets[] = {
    {"gtx480",
     "data/gpus/gtx480.config",
     {{"as shipped (sectored L2)", {NULL}, 0, NULL, NULL},
      {"without sectors (L2 N:)", {"gpgpu_coalesce_arch"}, 1, NULL, NULL},
      {"with the flit-level crossbar (data/fidelity/gtx480.icnt.config)", {NULL}, 0, NULL,
       "data/fidelity/gtx480.icnt.config"}}},
    {"v100",
     "data/gpus/v100.config",
     {{"as shipped (sectors, collector, fetch, local crossbar)", {NULL}, 0, NULL, NULL},
      {"without sectors (L1 and L2 N:, line requests)", {"gpgpu_coalesce_arch"}, 1, NULL, NULL},
      {"without the operand collector and sub-cores",
       {"gpgpu_sub_core_model", "gpgpu_enable_specialized_operand_collector",
        "gpgpu_operand_collector_", "gpgpu_reg_file_port_throughput"},
       0, NULL, NULL},
      {"without instruction fetch",
       {"gpgpu_cache:il1", "gpgpu_inst_fetch_throughput", "gpgpu_perfect_inst_const_cache"}, 0,
       NULL, NULL},
      {"without the local crossbar (-network_mode 1)", {"network_mode"}, 0, "-network_mode 1\n",
       NULL}}},
};

static int dropped(const variant *v, const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line != '-')
        return 0;
    for (int i = 0; i < 8 && v->drop[i]; i++)
        if (!strncmp(line + 1, v->drop[i], strlen(v->drop[i])))
            return 1;
    return 0;
}

/* The preset's text with the variant applied; NULL on error (printed). */
static char *variant_text(const preset *p, const variant *v)
{
    trapeze_error err;
    char *text, *extra = NULL;
    if (trapeze_read_file(p->config, &text, &err) ||
        (v->add_file && trapeze_read_file(v->add_file, &extra, &err))) {
        fprintf(stderr, "bench_features: %s\n", err.message);
        free(text);
        return NULL;
    }
    size_t n = strlen(text) + (extra ? strlen(extra) : 0) + (v->add ? strlen(v->add) : 0) + 2;
    char *out = malloc(n), *o = out;
    for (char *line = text; out && *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (!dropped(v, line)) {
            memcpy(o, line, len);
            /* -gpgpu_cache:dlN S:... -> N:...: the same geometry, whole lines */
            if (v->unsector && (!strncmp(o, "-gpgpu_cache:dl1 S:", 19) ||
                                !strncmp(o, "-gpgpu_cache:dl2 S:", 19)))
                o[17] = 'N';
            o += len;
        }
        line += len;
    }
    if (out) {
        *o++ = '\n';
        *o = '\0';
        if (extra)
            strcat(o, extra);
        if (v->add)
            strcat(o, v->add);
    }
    free(text);
    free(extra);
    return out;
}

/* Best CPU seconds of three runs of the Jacobi 1024^2 on cfg; 0 on success. */
static int time_case(const trapeze_config *cfg, double *best, uint64_t *insts, uint64_t *cycles)
{
    char *args[] = {"nx=1024", "ny=1024"};
    for (int rep = 0; rep < 3; rep++) {
        trapeze_error err;
        sim_gpu *g;
        sim_kernel *k;
        sim_kernel_stats st;
        if (bench_builtin(cfg, "jacobi", 2, args, &g, &k, &err)) {
            fprintf(stderr, "bench_features: %s\n", err.message);
            return 1;
        }
        double t0 = cpu_now();
        trapeze_status s = sim_gpu_run(g, k, &st, &err);
        double t = cpu_now() - t0;
        sim_kernel_destroy(k);
        sim_gpu_destroy(g);
        if (s) {
            fprintf(stderr, "bench_features: %s\n", err.message);
            return 1;
        }
        if (rep == 0 || t < *best)
            *best = t;
        *insts = st.total.warp_insts;
        *cycles = st.cycles;
        sim_kernel_stats_free(&st);
    }
    return 0;
}

static int bench(const preset *p)
{
    double base = 0;
    printf("feature costs, %s, jacobi 1024x1024 (CPU seconds, best of 3):\n", p->gpu);
    for (int i = 0; i < 6 && p->v[i].what; i++) {
        const variant *v = &p->v[i];
        trapeze_config *cfg;
        trapeze_error err;
        char *text = variant_text(p, v);
        if (!text)
            return 1;
        trapeze_status s = trapeze_config_parse(text, p->config, &cfg, &err);
        free(text);
        if (s) {
            fprintf(stderr, "bench_features: %s\n", err.message);
            return 1;
        }
        double t;
        uint64_t insts, cycles;
        int rc = time_case(cfg, &t, &insts, &cycles);
        trapeze_config_destroy(cfg);
        if (rc)
            return 1;
        if (i == 0)
            base = t;
        printf("  %-66s %6.3f s  %5.2f M warp inst/s  %7llu cycles", v->what, t,
               (double)insts / t / 1e6, (unsigned long long)cycles);
        if (i > 0)
            printf("  %+5.1f%% of the time", 100 * (t - base) / base);
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
        if ((argc < 2 || !strcmp(argv[1], presets[i].gpu)) && bench(&presets[i]))
            return 1;
    return 0;
}
