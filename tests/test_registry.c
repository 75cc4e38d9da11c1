/*
 * The TB dispatch policies are named once (TRAPEZE_TB_DISPATCH_TABLE,
 * trapeze.h); everything else derives from the rows, and this checks each
 * derivation against the rows themselves:
 *  - every name parses back to its row through the config option, and the
 *    simulator runs that row's policy (the ops named in the row);
 *  - the option's help, default and error list every name, in order;
 *  - the grouping model's candidates are exactly the FIXED rows, its
 *    policy rows the compared ones then "optimized", the samples log's
 *    policy column accepts exactly the compared ones;
 *  - every FIXED row has a grouping the model predicts, no other row has;
 *  - the table's own rules: names unique, GIVEN rows last, the first row
 *    the default.
 * The warp schedulers (SIM_SCHED_TABLE, sim/core/gpu_sim.h) likewise: each
 * row with its arguments parses back to it, the option's default and help
 * come from the rows. The sleep policies (SIM_SLEEP_TABLE,
 * sim/power/sleep.h): each name sets its structures' policy and is refused
 * elsewhere with an error naming the structure's policies, and each
 * -trapeze_sleep_* option's help lists exactly those.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/core/gpu_sim.h"
#include "sim/core/sm.h"
#include "sim/power/sleep.h"

static const char *const base_cfg =
    "-gpgpu_ptx_force_max_capability 20\n-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_registers 32768\n-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_n_clusters 2\n-gpgpu_shader_cta 2\n";

/* The config with -trapeze_tb_dispatch name (and a grouping file) read. */
static trapeze_status read_policy(const char *name, sim_core_config *c, trapeze_error *err)
{
    char text[1024];
    snprintf(text, sizeof text, "%s-trapeze_tb_dispatch %s\n-trapeze_tb_grouping g.csv\n",
             base_cfg, name);
    trapeze_config *cfg = NULL;
    trapeze_status s = trapeze_config_parse(text, "test.config", &cfg, err);
    if (!s)
        s = sim_core_config_read(cfg, c, err);
    trapeze_config_destroy(cfg);
    return s;
}

/* Whether text holds the row names in table order, each as a word. */
static int lists_all(const char *text, int kind)
{
    const char *at = text;
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++) {
        if (kind >= 0 && (int)trapeze_tb_policies[i].kind != kind)
            continue;
        size_t n = strlen(trapeze_tb_policies[i].name);
        const char *p = at;
        while ((p = strstr(p, trapeze_tb_policies[i].name)) &&
               ((p > text && (p[-1] >= 'a' && p[-1] <= 'z')) || (p[n] >= 'a' && p[n] <= 'z')))
            p += n;
        if (!p)
            return 0;
        at = p + n;
    }
    return 1;
}

static void test_names_parse_back(void)
{
    trapeze_error err;
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++) {
        const char *name = trapeze_tb_policies[i].name;
        sim_core_config c;
        CHECK(trapeze_tb_policy_find(name) == i);
        CHECK_OK(read_policy(name, &c, &err));
        CHECK((int)c.tb_dispatch == i && !strcmp(sim_tb_dispatch_name(c.tb_dispatch), name));
        CHECK(sim_dispatch_policy(c.tb_dispatch) != NULL);
        CHECK(trapeze_tb_policies[i].help && trapeze_tb_policies[i].help[0]);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(trapeze_tb_policies[j].name, name) != 0);
    }
    /* the ops of the rows (by name: the policies' own files name them) */
    CHECK(sim_dispatch_policy(SIM_TB_RR) == &sim_dispatch_round_robin);
    CHECK(sim_dispatch_policy(SIM_TB_BCS) == &sim_dispatch_bcs);
    CHECK(sim_dispatch_policy(SIM_TB_CHEN) == &sim_dispatch_chen);
    CHECK(sim_dispatch_policy(SIM_TB_RBTS) == &sim_dispatch_groups);
    CHECK(trapeze_tb_policy_find("lifo") == -1 && trapeze_tb_policy_find("") == -1);
}

static void test_option_help_and_errors(void)
{
    const trapeze_opt *o = trapeze_opt_find(sim_core_options, "trapeze_tb_dispatch");
    CHECK(o && !strcmp(o->fallback, trapeze_tb_policies[0].name));
    CHECK(o && !strcmp(o->help, "thread-block dispatch: rr, bcs, chen, mst, kway, rbts, explicit"));
    CHECK(o && lists_all(o->help, -1));
    /* no option: the first row */
    trapeze_config *cfg = NULL;
    trapeze_error err;
    sim_core_config c;
    CHECK_OK(trapeze_config_parse(base_cfg, "test.config", &cfg, &err));
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.tb_dispatch == 0);
    trapeze_config_destroy(cfg);
    CHECK(read_policy("lifo", &c, &err) != TRAPEZE_OK && strstr(err.message, "'lifo'") &&
          lists_all(err.message, -1));
    /* a GIVEN row needs its file, by its own name */
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++)
        if (trapeze_tb_policies[i].kind == TRAPEZE_TB_GIVEN) {
            char text[1024], want[128];
            snprintf(text, sizeof text, "%s-trapeze_tb_dispatch %s\n", base_cfg,
                     trapeze_tb_policies[i].name);
            snprintf(want, sizeof want, "%s needs -trapeze_tb_grouping FILE",
                     trapeze_tb_policies[i].name);
            CHECK_OK(trapeze_config_parse(text, "test.config", &cfg, &err));
            CHECK(sim_core_config_read(cfg, &c, &err) != TRAPEZE_OK && strstr(err.message, want));
            trapeze_config_destroy(cfg);
        }
}

static void test_table_rules(void)
{
    int fixed = 0, compared = 0, given_seen = 0;
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++) {
        trapeze_tb_kind k = trapeze_tb_policies[i].kind;
        fixed += k == TRAPEZE_TB_FIXED;
        compared += k != TRAPEZE_TB_GIVEN;
        CHECK(!given_seen || k == TRAPEZE_TB_GIVEN);   /* GIVEN rows last */
        given_seen |= k == TRAPEZE_TB_GIVEN;
    }
    CHECK(fixed == TRAPEZE_TB_NFIXED && compared == TRAPEZE_TB_NCOMPARED);
    CHECK(TRAPEZE_TB_NFIXED == 5 && TRAPEZE_TB_NCOMPARED == 6 && TRAPEZE_TB_COUNT == 7);
    CHECK(trapeze_tb_policies[0].kind == TRAPEZE_TB_FIXED);   /* rr: the model's baseline */
    CHECK(trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, 2) == TRAPEZE_TB_MST);
    CHECK(trapeze_tb_policy_nth(TRAPEZE_TB_DYNAMIC, 0) == TRAPEZE_TB_CHEN);
    CHECK(trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, TRAPEZE_TB_NFIXED) == -1);
    char list[128];
    trapeze_tb_policy_list(TRAPEZE_TB_FIXED, ", ", " and ", list, sizeof list);
    CHECK(!strcmp(list, "rr, bcs, mst, kway and rbts"));
    trapeze_tb_policy_list(-1, " ", " ", list, sizeof list);
    CHECK(!strcmp(list, "rr bcs chen mst kway rbts explicit"));
    trapeze_tb_policy_list(TRAPEZE_TB_FIXED, ", ", ", ", list, 9);   /* truncated, ended */
    CHECK(!strcmp(list, "rr, bcs,"));
}

static void test_grouping_model_rows(void)
{
    for (int i = 0; i < TRAPEZE_GROUP_NPOLICIES - 1; i++)
        CHECK(trapeze_group_policy_name(i) && !strcmp(trapeze_group_policy_name(i),
                                                      trapeze_tb_policies[i].name) &&
              trapeze_tb_policies[i].kind != TRAPEZE_TB_GIVEN);
    CHECK(!strcmp(trapeze_group_policy_name(TRAPEZE_GROUP_NPOLICIES - 1), "optimized"));
    CHECK(trapeze_group_policy_name(TRAPEZE_GROUP_NPOLICIES) == NULL);
    /* the samples' policy column: the compared rows, nothing else */
    const trapeze_field *f = NULL;
    for (int k = 0; k < trapeze_group_sample_schema.nfields; k++)
        if (!strcmp(trapeze_group_sample_schema.fields[k].name, "policy"))
            f = &trapeze_group_sample_schema.fields[k];
    int n = 0;
    while (f && f->choices[n]) {
        CHECK(!strcmp(f->choices[n], trapeze_tb_policies[n].name));
        n++;
    }
    CHECK(n == TRAPEZE_TB_NCOMPARED);
    /* a grouping the model predicts: every FIXED row, and only they */
    trapeze_error err;
    char *params[] = {"n=32", "block=16"};
    trapeze_group_problem *pb = NULL;
    trapeze_group_model *m = NULL;
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    CHECK_OK(trapeze_group_problem_builtin("data/gpus/gtx480.config", "matmul", params, 2, 0, &pb,
                                           &err));
    CHECK_OK(trapeze_group_create(trapeze_group_problem_graph(pb), trapeze_group_problem_machine(pb),
                                  &p, &m, &err));
    for (int i = 0; m && i < TRAPEZE_TB_COUNT; i++) {
        trapeze_grouping g;
        trapeze_status s = trapeze_group_problem_policy_grouping(pb, m, trapeze_tb_policies[i].name,
                                                                 &g, &err);
        if (trapeze_tb_policies[i].kind == TRAPEZE_TB_FIXED)
            CHECK(s == TRAPEZE_OK && g.n_tbs == 4);
        else
            CHECK(s == TRAPEZE_EINVAL && strstr(err.message, "(rr, bcs, mst, kway, rbts do)"));
        trapeze_grouping_free(&g);
    }
    trapeze_group_destroy(m);
    trapeze_group_problem_destroy(pb);
}

/* The row's arguments with values: "N" 2, "0|2" its first choice. */
static void example(const char *name, const char *args, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "%s", name);
    for (const char *a = args; *a && n + 2 < size; a++) {
        if (*a == '|') {   /* "0|2": keep the 0, skip "|2" */
            a++;
            continue;
        }
        out[n++] = *a == 'N' ? '2' : *a;
    }
    out[n] = '\0';
}

static void test_schedulers(void)
{
#define ROW_(id, name, args, help) {SIM_SCHED_##id, name, args},
    static const struct { sim_sched_kind kind; const char *name, *args; } rows[] = {
        SIM_SCHED_TABLE(ROW_)};
#undef ROW_
    CHECK(sizeof rows / sizeof *rows == SIM_SCHED_COUNT);
    const trapeze_opt *o = trapeze_opt_find(sim_core_options, "gpgpu_scheduler");
    CHECK(o && !strcmp(o->fallback, rows[0].name));
    CHECK(o && !strcmp(o->help, "warp scheduler: lrr, gto, two_level_active:N:0|2:1, "
                                "locality_two_level:N"));
    trapeze_error err;
    for (int k = 0; k < SIM_SCHED_COUNT; k++) {
        char value[64], text[1024];
        example(rows[k].name, rows[k].args, value, sizeof value);
        CHECK(o && strstr(o->help, rows[k].name));
        snprintf(text, sizeof text, "%s-gpgpu_scheduler %s\n", base_cfg, value);
        trapeze_config *cfg = NULL;
        sim_core_config c;
        CHECK_OK(trapeze_config_parse(text, "test.config", &cfg, &err));
        CHECK_OK(sim_core_config_read(cfg, &c, &err));
        CHECK(c.sched == rows[k].kind && (rows[k].args[0] ? c.active_warps == 2 : 1));
        trapeze_config_destroy(cfg);
        /* one argument too many: not a scheduler, and the error names every row */
        snprintf(text, sizeof text, "%s-gpgpu_scheduler %s:1\n", base_cfg, value);
        CHECK_OK(trapeze_config_parse(text, "test.config", &cfg, &err));
        CHECK(sim_core_config_read(cfg, &c, &err) != TRAPEZE_OK &&
              strstr(err.message, "is not a scheduler"));
        for (int j = 0; j < SIM_SCHED_COUNT; j++)
            CHECK(strstr(err.message, rows[j].name) != NULL);
        trapeze_config_destroy(cfg);
    }
}

static void test_sleep_policies(void)
{
    char names[256];
    CHECK(!strcmp(sim_sleep_names(TRAPEZE_PS_RF, names, sizeof names),
                  "always_on, drowsy, slumber, oracle"));
    CHECK(!strcmp(sim_sleep_names(TRAPEZE_PS_L1D, names, sizeof names),
                  "always_on, snooze, oracle"));
    for (int st = 0; st < TRAPEZE_PS_SLEEPABLE; st++) {
        trapeze_power_structure s = (trapeze_power_structure)st;
        const trapeze_opt *o = &sim_sleep_options[st];   /* the first rows: one per structure */
        char want[300];
        snprintf(want, sizeof want, ": %s;", sim_sleep_names(s, names, sizeof names));
        CHECK(strstr(o->help, want) != NULL);
        CHECK(!strcmp(o->fallback, sim_sleep_policy((sim_sleep_kind)0)->name));
        for (int k = 0; k < SIM_SLEEP_KINDS; k++) {
            const sim_sleep_ops *ops = sim_sleep_policy((sim_sleep_kind)k);
            sim_sleep_config sc;
            trapeze_error err;
            memset(&sc, 0, sizeof sc);
            CHECK(ops && sim_sleep_find(ops->name) == k);
            trapeze_status r = sim_sleep_config_set(&sc, s, ops->name, &err);
            if (ops->structures >> st & 1)
                CHECK(r == TRAPEZE_OK && (int)sc.s[st].kind == k);
            else
                CHECK(r != TRAPEZE_OK && strstr(err.message, names));
        }
    }
}

int main(void)
{
    test_sleep_policies();
    test_schedulers();
    test_names_parse_back();
    test_option_help_and_errors();
    test_table_rules();
    test_grouping_model_rows();
    return check_report("test_registry");
}
