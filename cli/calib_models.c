/*
 * calib_models.c - the models `trapeze calibrate --model` and `trapeze
 * validate --model` know: one row each (name, a note for the help, the
 * command), the dispatch on --model and the option's help derived from the
 * rows. Adding a model's calibration is one row here and its command.
 * Parsing only: every model's work is its command's.
 */
#include <stdio.h>
#include <string.h>

#include "cli/calib_group.h"
#include "cli/calib_models.h"
#include "cli/calib_sleep.h"
#include "cli/commands.h"

static int ghostzone(int argc, char **argv, const char *cmd)
{
    return strcmp(cmd, "validate") ? cli_calibrate_ghostzone(argc, argv)
                                   : cli_validate_ghostzone(argc, argv);
}

typedef struct {
    const char *name;
    const char *note;   /* the help's words after the name */
    int (*run)(int argc, char **argv, const char *cmd);
    int own_help;       /* `--model NAME --help` lists options of its own */
} calib_model;

/* The first row is the default. */
static const calib_model models[] = {
    {"ghostzone", "(default)", ghostzone, 0},
    {"group", "(the TB grouping model)", cli_calib_group_run, 1},
    {"sleep", "(the sleep thresholds)", cli_calib_model_sleep, 1},
    {"cache", "(which loads to cache)", cli_calib_model_cache, 1},
};
#define N_MODELS ((int)(sizeof models / sizeof *models))

/* "a, b or c" of the rows' names, (with notes), those with own_help only. */
static void join(char *out, size_t size, int notes, int own_help_only, const char *prefix,
                 const char *suffix, const char *last)
{
    int total = 0, n = 0;
    for (int i = 0; i < N_MODELS; i++)
        total += !own_help_only || models[i].own_help;
    size_t used = strlen(out);
    for (int i = 0; i < N_MODELS && used < size; i++) {
        if (own_help_only && !models[i].own_help)
            continue;
        const char *sep = n == 0 ? "" : n == total - 1 ? last : ", ";
        int w = snprintf(out + used, size - used, "%s%s%s%s%s%s", sep, prefix, models[i].name,
                         notes ? " " : "", notes ? models[i].note : "", suffix);
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
}

int cli_calib_model_run(const char *cmd, int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--model")) {
            for (int m = 0; m < N_MODELS; m++)
                if (!strcmp(argv[i + 1], models[m].name)) {
                    for (int k = i; k + 2 <= argc; k++)   /* "--model NAME" out */
                        argv[k] = argv[k + 2];
                    return models[m].run(argc - 2, argv, cmd);
                }
            char names[256] = "";
            join(names, sizeof names, 0, 0, "", "", " or ");
            return cli_usage_error(cmd, "--model %s: expected %s", argv[i + 1], names);
        }
    return models[0].run(argc, argv, cmd);
}

/* Appends text to out, wrapped greedily at 80 columns under the options'
 * help column (22), the first line after the option's name. */
static void wrap(char *out, size_t size, const char *text)
{
    char words[512];
    snprintf(words, sizeof words, "%s", text);
    size_t used = strlen(out);
    const char *line = strrchr(out, '\n');
    size_t col = used - (line ? (size_t)(line - out) + 1 : 0);
    int first = 1;
    for (char *save, *w = strtok_r(words, " ", &save); w && used < size;
         w = strtok_r(NULL, " ", &save)) {
        int n;
        if (!first && col + 1 + strlen(w) > 80) {
            n = snprintf(out + used, size - used, "\n%22s%s", "", w);
            col = 22 + strlen(w);
        } else {
            n = snprintf(out + used, size - used, "%s%s", first ? "" : " ", w);
            col += (first ? 0 : 1) + strlen(w);
        }
        used += n > 0 ? (size_t)n : 0;
        first = 0;
    }
    if (used < size)
        snprintf(out + used, size - used, "\n");
}

const char *cli_calib_model_help(char *out, size_t size)
{
    char text[512] = "";
    join(text, sizeof text, 1, 0, "", "", " or ");
    strncat(text, "; ", sizeof text - strlen(text) - 1);
    join(text, sizeof text, 0, 1, "--model ", " --help", " and ");
    strncat(text, " list their options", sizeof text - strlen(text) - 1);
    snprintf(out, size, "  --model MODEL       ");
    wrap(out, size, text);
    return out;
}
