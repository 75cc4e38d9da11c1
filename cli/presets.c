/*
 * presets.c - shipped preset names wherever a file is accepted: a bare name
 * (no '/' and no '.') is data/FOLDER/NAME.SUFFIX (gtx480 ->
 * data/gpus/gtx480.config, hotspot -> data/workloads/hotspot.ini), or else
 * the folder data/FOLDER/NAME (a100 -> data/gpus/a100/, which the config
 * loader reads as a config folder); anything else is a path. A misspelt preset gets the nearest shipped name. Owns name
 * resolution and the suggestion only; never loads the file.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/text.h"

int cli_is_preset_name(const char *arg) { return !strchr(arg, '/') && !strchr(arg, '.'); }

/* Levenshtein distance of two short names (case-sensitive). */
int cli_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    int row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The preset name of data/FOLDER's entry `name` into out: NAME.SUFFIX
 * without the suffix, or a folder's own name; 0 when it is neither. */
static int preset_of(const char *dir, const char *name, const char *suffix, char out[64])
{
    size_t l = strlen(name), sl = strlen(suffix);
    if (l > sl && l - sl < 64 && strcmp(name + l - sl, suffix) == 0) {
        memcpy(out, name, l - sl);
        out[l - sl] = '\0';
        return 1;
    }
    char path[4096 + 64];
    if (name[0] == '.' || l >= 64 || !cli_is_preset_name(name))
        return 0;
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path || !is_dir(path))
        return 0;
    memcpy(out, name, l + 1);
    return 1;
}

/* Every preset of data/FOLDER (NAME.SUFFIX files and NAME folders),
 * comma-separated, and the one nearest to `arg` (empty when none is within
 * 3 edits). */
static void list_presets(const char *folder, const char *suffix, const char *arg, char *list,
                         size_t lsize, char *nearest, size_t nsize)
{
    char dir[4096];
    cli_data_path(folder, dir, sizeof dir);
    list[0] = nearest[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int best = 4;
    char names[64][64];
    int n = 0;
    while ((e = readdir(d)) && n < 64)
        n += preset_of(dir, e->d_name, suffix, names[n]);
    closedir(d);
    /* readdir's order is the file system's: sort, so messages are stable */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[64];
            memcpy(t, names[j], 64);
            memcpy(names[j], names[j - 1], 64);
            memcpy(names[j - 1], t, 64);
        }
    for (int i = 0; i < n; i++) {
        size_t used = strlen(list);
        snprintf(list + used, lsize - used, "%s%.63s", used ? ", " : "", names[i]);
        int dist = cli_edit_distance(arg, names[i]);
        if (dist < best) {
            best = dist;
            snprintf(nearest, nsize, "%.63s", names[i]);
        }
    }
}

int cli_resolve_preset(const char *cmd, const char *option, const char *folder,
                       const char *suffix, const char *arg, char *out, size_t size)
{
    if (!cli_is_preset_name(arg)) {
        snprintf(out, size, "%s", arg);
        return 0;
    }
    char rel[512];
    snprintf(rel, sizeof rel, "%s/%.64s%s", folder, arg, suffix);
    cli_data_path(rel, out, size);
    if (access(out, R_OK) == 0)
        return 0;
    snprintf(rel, sizeof rel, "%s/%.64s", folder, arg);
    cli_data_path(rel, out, size);
    if (is_dir(out))
        return 0;
    char list[1024], nearest[64];
    list_presets(folder, suffix, arg, list, sizeof list, nearest, sizeof nearest);
    if (nearest[0])
        fprintf(stderr, "trapeze %s: %s %s: no such preset; did you mean '%s'? (presets: %s)\n",
                cmd, option, arg, nearest, list);
    else
        fprintf(stderr, "trapeze %s: %s %s: no such preset or file (presets: %s)\n", cmd,
                option, arg, list);
    return -1;
}

/* "AxB[xC]": exactly one positive whole number per dimension of w. */
int cli_apply_size(const char *cmd, const char *text, trapeze_workload *w)
{
    char buf[128], *save = NULL;
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    for (char *tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
        long v;
        if (n == w->dims || !trapeze_parse_long(tok, &v) || v < 1)
            break;
        w->data_len[n++] = (double)v;
    }
    if (n == w->dims && !strtok_r(NULL, "x", &save))
        return 0;
    fprintf(stderr, "trapeze %s: --size %s: expected %d positive whole number(s) joined by "
            "'x' for %s (%d-D)\n", cmd, text, w->dims, w->name, w->dims);
    return 2;
}
