/*
 * Tests of the option tables (common/options.h): the table is what the
 * readers use. Every integer row's range is the one enforced (its hi + 1 is
 * refused with the row's range in the message, and lo - 1 too); every row
 * is an option some reader asks for (a bad value for it is refused by name);
 * options outside every table are the ones reported as not modelled.
 * (tests/cli_sim.sh checks the converse: every option name the readers'
 * sources ask for has a row.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/options.h"
#include "common/text.h"
#include "sim/core/gpu_sim.h"
#include "sim/mem/mem_config.h"

static const trapeze_opt *const tables[] = {trapeze_gpu_options, sim_core_options,
                                            sim_mem_options};

/* Reads cfg as the model and simulator do; returns the first failure. */
static trapeze_status read_all(const trapeze_config *cfg, trapeze_error *err)
{
    sim_core_config core;
    sim_mem_config mem;
    trapeze_status s = sim_core_config_read(cfg, &core, err);
    return s ? s : sim_mem_config_read(cfg, core.gpu.n_sm, &mem, err);
}

/* The base config (GTX 480) with one more line (the last definition wins). */
static trapeze_config *with(const char *base, const char *name, long v)
{
    size_t n = strlen(base) + 256;
    char *text = malloc(n);
    snprintf(text, n, "%s\n-%s %ld\n", base, name, v);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse(text, "t.config", &cfg, &err));
    free(text);
    return cfg;
}

static void test_ranges(const char *base)
{
    for (int t = 0; t < 3; t++)
        for (const trapeze_opt *o = tables[t]; o->name; o++) {
            if (o->type != OPT_INT)
                continue;
            trapeze_error err = {0};
            trapeze_config *cfg = with(base, o->name, o->hi + 1);
            char want[256];
            snprintf(want, sizeof want, "option -%s: %ld is outside [%ld, %ld]", o->name,
                     o->hi + 1, o->lo, o->hi);
            CHECK(read_all(cfg, &err) == TRAPEZE_ERANGE);
            if (!strstr(err.message, want))
                fprintf(stderr, "%s: got '%s'\n", o->name, err.message);
            CHECK(strstr(err.message, want) != NULL);
            trapeze_config_destroy(cfg);
            cfg = with(base, o->name, o->lo - 1);
            CHECK(read_all(cfg, &err) == TRAPEZE_ERANGE);
            trapeze_config_destroy(cfg);
        }
}

/* Every row is read: a bad value for it is refused, naming it (only the
 * GPU's free-text name and the grouping file's path, read when a kernel
 * launches, accept anything here). */
static void test_rows_are_read(const char *base)
{
    for (int t = 0; t < 3; t++)
        for (const trapeze_opt *o = tables[t]; o->name; o++) {
            if (!strcmp(o->name, "trapeze_gpu_name") || !strcmp(o->name, "trapeze_tb_grouping"))
                continue;
            size_t n = strlen(base) + 256;
            char *text = malloc(n), want[128];
            snprintf(text, n, "%s\n-%s @bad\n", base, o->name);
            trapeze_config *cfg = NULL;
            trapeze_error err = {0};
            CHECK_OK(trapeze_config_parse(text, "t.config", &cfg, &err));
            free(text);
            snprintf(want, sizeof want, "option -%s:", o->name);
            CHECK(read_all(cfg, &err) != TRAPEZE_OK);
            if (!strstr(err.message, want))
                fprintf(stderr, "row -%s: a bad value gave '%s'\n", o->name, err.message);
            CHECK(strstr(err.message, want) != NULL);
            trapeze_config_destroy(cfg);
        }
}

/* The shipped configs: what the tables do not list is only what the
 * simulator does not model (the note `trapeze sim` prints). */
static void test_unknown(void)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse("-gpgpu_n_clusters 4\n-gpgpu_ptx_sim_mode 0\n-gpgpu_l1_latency 20\n"
                                  "-no_such_option 3\n", "t.config", &cfg, &err));
    const char *names[4];
    CHECK(sim_config_unknown(cfg, names, 4) == 2);
    CHECK(!strcmp(names[0], "gpgpu_ptx_sim_mode") && !strcmp(names[1], "no_such_option"));
    trapeze_config_destroy(cfg);
}

int main(void)
{
    char *base = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_read_file("data/gpus/gtx480.config", &base, &err));
    if (base) {
        test_ranges(base);
        test_rows_are_read(base);
    }
    free(base);
    test_unknown();
    return check_report("test_options");
}
