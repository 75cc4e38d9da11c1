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

/* the defaults the headers document beside each field */
static void test_model_options(void)
{
    trapeze_ghostzone_calib_options c;
    memset(&c, 0xA5, sizeof c);
    trapeze_ghostzone_calib_options_init(&c);
    CHECK(c.budget == 12 && c.stages == 2 && c.max_h == 0 && c.sweep_budget == 5e8);
    CHECK(c.min_fraction == 0.25 && c.max_fraction == 4 && c.folds == 5 && c.fit_mask == 0);
    CHECK(c.real_tiles == 0 && c.structure == TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE);
    CHECK(c.holdout == 0.25 && c.logged_only == 0);

    trapeze_sleep_options s;
    memset(&s, 0xA5, sizeof s);
    trapeze_sleep_options_init(&s);
    CHECK(s.policy == TRAPEZE_SLEEP_LOOKAHEAD && s.lead_cycles == 3 && s.exact_wake == 0);
    CHECK(s.gate_writes == 1 && s.smoothing == 1 && s.penalty_scale == 1);
    CHECK(s.requester_cycles == 0 && s.eager_margin == 0 && s.penalty_z == 0);
}

int main(void)
{
    test_sim_options();
    test_ncu_options();
    test_model_options();
    return check_report("test_options_init");
}
