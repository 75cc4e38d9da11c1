/*
 * config_paths.c - expands a GPU config argument into the files to load, in
 * order (config_paths.h says the forms). Owns the folder layout of
 * GPGPU-Sim's and Accel-Sim's tested-cfgs and the comma list; it must not
 * read any file's contents (common/config.c parses them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config_paths.h"
#include "error.h"
#include "text.h"

typedef struct {
    char **paths;
    int n;
} path_list;

static trapeze_status push(path_list *l, const char *dir, const char *file,
                           trapeze_error *err)
{
    size_t len = strlen(dir) + (file ? strlen(file) + 1 : 0) + 1;
    char *p = malloc(len);
    char **grown = realloc(l->paths, (size_t)(l->n + 1) * sizeof *grown);
    if (!p || !grown) {
        free(p);
        if (grown)
            l->paths = grown;
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    l->paths = grown;
    if (file)
        snprintf(p, len, "%s/%s", dir, file);
    else
        snprintf(p, len, "%s", dir);
    l->paths[l->n++] = p;
    return TRAPEZE_OK;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* One element: a folder gives its gpgpusim.config then trace.config (as
 * Accel-Sim's -config order), then trapeze.config, Trapeze's own options
 * (a shipped preset's: data/gpus/a100/); anything else is a file (read
 * errors later name it). */
static trapeze_status add_one(path_list *l, const char *item, trapeze_error *err)
{
    if (!item[0])
        return trapeze_fail(err, TRAPEZE_EINVAL, "an empty name in the GPU config list");
    if (!is_dir(item))
        return push(l, item, NULL, err);
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/gpgpusim.config", item);
    if (!is_file(probe))
        return trapeze_fail(err, TRAPEZE_EIO,
                            "%s: a folder without gpgpusim.config (a GPU config folder holds "
                            "gpgpusim.config and, optionally, trace.config and trapeze.config)", item);
    trapeze_status s = push(l, item, "gpgpusim.config", err);
    snprintf(probe, sizeof probe, "%s/trace.config", item);
    if (!s && is_file(probe))
        s = push(l, item, "trace.config", err);
    snprintf(probe, sizeof probe, "%s/trapeze.config", item);
    if (!s && is_file(probe))
        s = push(l, item, "trapeze.config", err);
    return s;
}

trapeze_status trapeze_config_paths(const char *spec, char ***paths, int *n,
                                    trapeze_error *err)
{
    path_list l = {NULL, 0};
    trapeze_status s = TRAPEZE_OK;
    *paths = NULL;
    *n = 0;
    if (is_file(spec) || !strchr(spec, ',')) {
        s = add_one(&l, spec, err);
    } else {
        char *copy = trapeze_strdup(spec);
        if (!copy)
            return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
        /* strsep, not strtok: "a,,b" has an empty name, an error */
        char *rest = copy;
        for (char *item = rest; !s && item; item = rest) {
            char *comma = strchr(item, ',');
            rest = comma ? comma + 1 : NULL;
            if (comma)
                *comma = '\0';
            s = add_one(&l, item, err);
        }
        free(copy);
    }
    if (s) {
        trapeze_config_paths_free(l.paths, l.n);
        return s;
    }
    *paths = l.paths;
    *n = l.n;
    return TRAPEZE_OK;
}

void trapeze_config_paths_free(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}
