/*
 * Tests of the options structs' _init functions (docs/architecture.md,
 * "Structs that grow"): each sets every field to its documented default
 * whatever the struct held before, so a program that calls it and then sets
 * some fields gets the defaults for the rest; and the defaults are what the
 * library then acts on (a run with them, an import refused for what they
 * leave unset).
 */
#include <string.h>

#include "check.h"
#include "trapeze.h"

static void test_sim_options(void)
{
    trapeze_sim_options o;
    memset(&o, 0xA5, sizeof o);
    trapeze_sim_options_init(&o);
    CHECK(o.ideal_memory_cycles == 0 && o.tb_grouping == NULL && o.keep_idle == 0);
    CHECK(o.progress == NULL && o.progress_ctx == NULL && o.power == NULL);
    for (int i = 0; i < TRAPEZE_PS_SLEEPABLE; i++)
        CHECK(o.sleep[i] == NULL);

    /* a run with the defaults is the run without options: the same cycles */
    trapeze_config *cfg;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    unsigned long long cycles[2] = {0, 0};
    char *vec[] = {"n=4096"};
    for (int with = 0; with < 2; with++) {
        trapeze_sim *sim;
        CHECK_OK(trapeze_sim_create(cfg, with ? &o : NULL, &sim, &err));
        CHECK_OK(trapeze_sim_run_builtin(sim, "vecadd", 1, vec, &err));
        cycles[with] = trapeze_sim_cycle(sim);
        trapeze_sim_destroy(sim);
    }
    CHECK(cycles[0] > 0 && cycles[1] == cycles[0]);
    trapeze_config_destroy(cfg);
}

static void test_ncu_options(void)
{
    trapeze_ncu_options o;
    memset(&o, 0xA5, sizeof o);
    trapeze_ncu_options_init(&o);
    CHECK(o.workload == NULL && o.gpu == NULL && o.kernel == NULL);
    CHECK(o.sync == TRAPEZE_SYNC_RELAUNCH && o.h == 0 && o.blk_len == 0 && o.stages == 0);
    CHECK(o.skip == 0 && o.relaunch_gap_cycles == 0);
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        CHECK(o.data_len[d] == 0);
    /* what has no default must be given: refused before the file is read */
    trapeze_sample s;
    trapeze_ncu_summary sum;
    trapeze_error err;
    CHECK(trapeze_ncu_import("tests/no-such-file.csv", &o, &s, &sum, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "workload and gpu needed") != NULL);
}

int main(void)
{
    test_sim_options();
    test_ncu_options();
    return check_report("test_options_init");
}
