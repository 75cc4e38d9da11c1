/*
 * Tests of a launch in three parts (sim_gpu_launch_begin/step/end): stepping
 * visits strictly increasing cycles and gives the statistics sim_gpu_run
 * gives; idle cycles are skipped; a step after the end does nothing; a
 * kernel that cannot fit fails at begin. The kernel's totals are the SMs'
 * counters combined as SIM_SM_COUNTERS declares.
 */
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"

static sim_kernel *jacobi(const sim_core_config *c)
{
    const sim_builtin *b = sim_builtin_find("jacobi");
    long p[SIM_BUILTIN_MAX_PARAMS];
    char *set[] = {"nx=128", "ny=64"};
    sim_kernel *ks[2];
    int n = 0;
    trapeze_error err;
    CHECK_OK(sim_builtin_params(b, 2, set, p, &err));
    CHECK_OK(b->build(c, p, ks, 2, &n, &err));
    CHECK(n == 1);
    return ks[0];
}

int main(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    sim_gpu *a, *b;
    CHECK_OK(sim_gpu_create(cfg, NULL, &a, &err));
    CHECK_OK(sim_gpu_create(cfg, NULL, &b, &err));
    sim_kernel *k = jacobi(sim_gpu_config(a));

    sim_kernel_stats whole, stepped;
    CHECK_OK(sim_gpu_run(a, k, &whole, &err));
    sim_launch l;
    CHECK_OK(sim_gpu_launch_begin(b, k, &stepped, &l, &err));
    uint64_t last = l.t;
    long steps = 0, increasing = 1;
    while (sim_gpu_launch_step(&l, &err)) {
        increasing &= l.t > last;
        last = l.t;
        steps++;
    }
    CHECK(increasing && steps > 10);
    CHECK(steps < (long)whole.cycles); /* idle cycles are skipped */
    CHECK(sim_gpu_launch_step(&l, &err) == 0);
    CHECK_OK(sim_gpu_launch_end(&l, &err));
    CHECK(stepped.cycles == whole.cycles && stepped.total.warp_insts == whole.total.warp_insts);
    CHECK(memcmp(&stepped.total, &whole.total, sizeof whole.total) == 0);
    CHECK(sim_gpu_cycle(a) == sim_gpu_cycle(b) && sim_gpu_cycle(b) == whole.cycles);
    /* every counter of SIM_SM_COUNTERS: the kernel's total is the SMs' sum
     * (or maximum), as the list declares */
    int counters = 0, nonzero = 0;
#define SUM(acc, v) ((acc) + (v))
#define MAX(acc, v) ((acc) > (v) ? (acc) : (v))
#define CHECK_SCALAR(f, name, how)                                              \
    {                                                                           \
        uint64_t acc = 0;                                                       \
        for (int i = 0; i < whole.n_sm; i++)                                    \
            acc = how(acc, whole.sm[i].f);                                      \
        CHECK(acc == whole.total.f);                                            \
        counters++;                                                             \
        nonzero += acc != 0;                                                    \
    }
#define CHECK_ARRAY(f, n, prefix, names, first, how)                            \
    for (int j = 0; j < (n); j++) {                                             \
        uint64_t acc = 0;                                                       \
        for (int i = 0; i < whole.n_sm; i++)                                    \
            acc = how(acc, whole.sm[i].f[j]);                                   \
        CHECK(acc == whole.total.f[j]);                                         \
        counters++;                                                             \
    }
    SIM_SM_COUNTERS(CHECK_SCALAR, CHECK_ARRAY)
    CHECK(counters == (int)(sizeof whole.total / sizeof(uint64_t)));
    CHECK(nonzero >= 5 && whole.total.max_resident_blocks < whole.total.blocks);
    sim_kernel_stats_free(&whole);
    sim_kernel_stats_free(&stepped);

    /* a block too large fails before anything runs */
    k->block.x = 4096;
    CHECK(sim_gpu_launch_begin(b, k, &stepped, &l, &err) == TRAPEZE_ERANGE);
    CHECK(strstr(err.message, "does not fit on an SM") != NULL);
    sim_kernel_destroy(k);
    sim_gpu_destroy(a);
    sim_gpu_destroy(b);
    trapeze_config_destroy(cfg);
    return check_report("test_launch");
}
