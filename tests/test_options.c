/*
 * Tests of the option tables (common/options.h): the table is what the
 * readers use. Every integer row's range is the one enforced (its hi + 1 is
 * refused with the row's range in the message, its lo and hi accepted);
 * every row is an option some reader asks for; and every option the shipped
 * configs set that a reader uses has a row (nothing read outside a table).
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

static int in_tables(const char *name)
{
    for (int t = 0; t < 3; t++)
        if (trapeze_opt_find(tables[t], name))
            return 1;
    return 0;
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

/* Every row is read: a config that sets each row to its default (where the
 * default is written out) leaves none of them unused. */
static void test_rows_are_read(const char *base)
{
    size_t cap = strlen(base) + 16384, len;
    char *text = malloc(cap);
    len = (size_t)snprintf(text, cap, "%s\n", base);
    for (int t = 0; t < 3; t++)
        for (const trapeze_opt *o = tables[t]; o->name; o++)
            if (o->fallback[0] && o->fallback[0] != '(' && strcmp(o->fallback, "unset") &&
                strcmp(o->fallback, "GTX 480's"))
                len += (size_t)snprintf(text + len, cap - len, "-%s %s\n", o->name, o->fallback);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse(text, "t.config", &cfg, &err));
    free(text);
    CHECK_OK(read_all(cfg, &err));
    const char *unused[256];
    size_t n = trapeze_config_unused(cfg, unused, 256);
    int rows = 0;
    for (int t = 0; t < 3; t++)
        for (const trapeze_opt *o = tables[t]; o->name; o++) {
            if (!trapeze_config_has(cfg, o->name))
                continue;
            rows++;
            for (size_t i = 0; i < n && i < 256; i++) {
                if (!strcmp(unused[i], o->name))
                    fprintf(stderr, "row -%s is not read\n", o->name);
                CHECK(strcmp(unused[i], o->name) != 0);
            }
        }
    CHECK(rows >= 40); /* nearly every row took part */
    trapeze_config_destroy(cfg);
}

static void test_shipped_configs(void)
{
    const char *files[] = {"data/gpus/gtx280.config", "data/gpus/gtx480.config",
                           "data/gpus/v100.config"};
    for (int f = 0; f < 3; f++) {
        trapeze_config *cfg = NULL;
        trapeze_error err;
        CHECK_OK(trapeze_config_load(files[f], &cfg, &err));
        if (!cfg)
            continue;
        CHECK_OK(read_all(cfg, &err));
        const char *unused[256];
        size_t n = trapeze_config_unused(cfg, unused, 256);
        /* a used option is one the config has and is not unused: it needs a row */
        char *text = NULL;
        CHECK_OK(trapeze_read_file(files[f], &text, &err));
        for (char *p = text; p && (p = strstr(p, "\n-")) != NULL; p++) {
            char name[128];
            if (sscanf(p + 2, "%127s", name) != 1)
                continue;
            int is_unused = 0;
            for (size_t i = 0; i < n && i < 256; i++)
                is_unused |= !strcmp(unused[i], name);
            if (!is_unused && !in_tables(name))
                fprintf(stderr, "%s: -%s is read but has no table row\n", files[f], name);
            CHECK(is_unused || in_tables(name));
        }
        free(text);
        trapeze_config_destroy(cfg);
    }
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
    test_shipped_configs();
    return check_report("test_options");
}
