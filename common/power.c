/*
 * power.c - power descriptions (data/power/NAME.ini) into trapeze_power:
 *
 *   [gpu]              name
 *   [event_j]          one key per trapeze_power_event (joules per event)
 *   [power_w]          constant, idle_sm (watts)
 *   [leakage_w]        l1d, l2, rf, shmem, sm_other (watts per instance, ON)
 *   [mode.S.NAME]      a sleep mode of S in {l1d, l2, rf}: leak_fraction,
 *                      wake_cycles, transition_j, retains_state (all four)
 *
 * Owns parsing and validation; every error names file, line and field (a
 * missing field: file, section and field). Must not compute energy: that is
 * sim/power/ from a run's events.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "common/ini.h"

static const char *const event_names[TRAPEZE_PE_COUNT] = {
    "inst_issue",    "reg_read",       "reg_write",     "int_op",         "fp_op",
    "sfu_op",        "shmem_access",   "l1_read_hit",   "l1_read_miss",   "l1_write_hit",
    "l1_write_miss", "l2_read_hit",    "l2_read_miss",  "l2_write_hit",   "l2_write_miss",
    "icnt_flit",     "dram_activate",  "dram_read",     "dram_write",     "dram_precharge",
    "l1_tag_probe",  "l2_tag_probe"};

static const char *const structure_names[TRAPEZE_PS_COUNT] = {"l1d", "l2", "rf", "shmem",
                                                              "sm_other"};

const char *trapeze_power_event_name(trapeze_power_event e)
{
    return (unsigned)e < TRAPEZE_PE_COUNT ? event_names[e] : "?";
}

const char *trapeze_power_structure_name(trapeze_power_structure s)
{
    return (unsigned)s < TRAPEZE_PS_COUNT ? structure_names[s] : "?";
}

int trapeze_power_mode_find(const trapeze_power *p, trapeze_power_structure s, const char *name)
{
    if ((unsigned)s >= TRAPEZE_PS_SLEEPABLE)
        return -1;
    for (int m = 0; m < p->n_modes[s]; m++)
        if (strcmp(p->mode[s][m].name, name) == 0)
            return m;
    return -1;
}

enum { MODE_LEAK = 1, MODE_WAKE = 2, MODE_TR = 4, MODE_RETAIN = 8, MODE_ALL = 15 };

typedef struct {
    trapeze_power *p;
    unsigned events_set, leak_set;
    int constant_set, idle_set;
    unsigned mode_set[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES];
    char mode_section[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES][48];
} load_state;

static int find_name(const char *const *names, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], key) == 0)
            return i;
    return -1;
}

static trapeze_status unknown(const trapeze_ini_ctx *at, const char *sec, const char *key,
                              trapeze_error *err)
{
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: unknown key", at->path, at->line,
                        sec, key);
}

/* "mode.S.NAME": the structure and mode slot (created on first sight). */
static trapeze_status mode_slot(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                const char *key, int *s_out, int *m_out, trapeze_error *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", sec + 5);
    char *dot = strchr(buf, '.');
    int s = -1;
    if (dot) {
        *dot = '\0';
        s = find_name(structure_names, TRAPEZE_PS_SLEEPABLE, buf);
    }
    if (s < 0 || !dot[1])
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [%s] %s: section must be [mode.STRUCTURE.NAME] with "
                            "STRUCTURE l1d, l2 or rf",
                            at->path, at->line, sec, key);
    const char *name = dot + 1;
    trapeze_power *p = st->p;
    int m = trapeze_power_mode_find(p, (trapeze_power_structure)s, name);
    if (m == 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [%s] %s: mode 'on' is implicit (leakage 1, no wake-up)",
                            at->path, at->line, sec, key);
    if (m < 0) {
        if (p->n_modes[s] == TRAPEZE_POWER_MAX_MODES)
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [%s] %s: more than %d sleep modes",
                                at->path, at->line, sec, key, TRAPEZE_POWER_MAX_MODES - 1);
        if (strlen(name) >= sizeof p->mode[s][0].name)
            return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: mode name too long",
                                at->path, at->line, sec, key);
        m = p->n_modes[s]++;
        snprintf(p->mode[s][m].name, sizeof p->mode[s][m].name, "%s", name);
        snprintf(st->mode_section[s][m], sizeof st->mode_section[s][m], "%s", sec);
    }
    *s_out = s;
    *m_out = m;
    return TRAPEZE_OK;
}

static trapeze_status on_mode_key(load_state *st, const trapeze_ini_ctx *at, const char *sec,
                                  const char *key, const char *value, trapeze_error *err)
{
    int s = 0, m = 0;
    trapeze_status rc = mode_slot(st, at, sec, key, &s, &m, err);
    if (rc)
        return rc;
    trapeze_power_mode *md = &st->p->mode[s][m];
    unsigned bit;
    long v;
    if (!strcmp(key, "leak_fraction")) {
        bit = MODE_LEAK;
        rc = trapeze_ini_double(at, sec, key, value, 0, 1, &md->leak_fraction, err);
    } else if (!strcmp(key, "wake_cycles")) {
        bit = MODE_WAKE;
        rc = trapeze_ini_int(at, sec, key, value, 0, 1000000, &v, err);
        md->wake_cycles = (int)v;
    } else if (!strcmp(key, "transition_j")) {
        bit = MODE_TR;
        rc = trapeze_ini_double(at, sec, key, value, 0, 1, &md->transition_j, err);
    } else if (!strcmp(key, "retains_state")) {
        bit = MODE_RETAIN;
        rc = trapeze_ini_int(at, sec, key, value, 0, 1, &v, err);
        md->retains_state = (int)v;
    } else {
        return unknown(at, sec, key, err);
    }
    if (!rc && (st->mode_set[s][m] & bit))
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: given twice", at->path,
                            at->line, sec, key);
    st->mode_set[s][m] |= bit;
    return rc;
}

static trapeze_status on_key(void *user, const trapeze_ini_ctx *at, const char *sec,
                             const char *key, const char *value, trapeze_error *err)
{
    load_state *st = user;
    trapeze_power *p = st->p;
    int i;
    if (!strcmp(sec, "gpu")) {
        if (strcmp(key, "name"))
            return unknown(at, sec, key, err);
        snprintf(p->name, sizeof p->name, "%s", value);
        return TRAPEZE_OK;
    }
    if (!strcmp(sec, "event_j")) {
        if ((i = find_name(event_names, TRAPEZE_PE_COUNT, key)) < 0)
            return unknown(at, sec, key, err);
        st->events_set |= 1u << i;
        return trapeze_ini_double(at, sec, key, value, 0, 1, &p->event_j[i], err);
    }
    if (!strcmp(sec, "power_w")) {
        if (!strcmp(key, "constant")) {
            st->constant_set = 1;
            return trapeze_ini_double(at, sec, key, value, 0, 1e5, &p->constant_w, err);
        }
        if (!strcmp(key, "idle_sm")) {
            st->idle_set = 1;
            return trapeze_ini_double(at, sec, key, value, 0, 1e4, &p->idle_sm_w, err);
        }
        return unknown(at, sec, key, err);
    }
    if (!strcmp(sec, "leakage_w")) {
        if ((i = find_name(structure_names, TRAPEZE_PS_COUNT, key)) < 0)
            return unknown(at, sec, key, err);
        st->leak_set |= 1u << i;
        return trapeze_ini_double(at, sec, key, value, 0, 1e4, &p->leak_w[i], err);
    }
    if (!strncmp(sec, "mode.", 5))
        return on_mode_key(st, at, sec, key, value, err);
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: unknown section", at->path,
                        at->line, sec, key);
}

static trapeze_status missing(const char *path, const char *sec, const char *key,
                              trapeze_error *err)
{
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s: [%s] %s: missing", path, sec, key);
}

static trapeze_status check_complete(const load_state *st, const char *path, trapeze_error *err)
{
    static const char *const mode_keys[] = {"leak_fraction", "wake_cycles", "transition_j",
                                            "retains_state"};
    for (int i = 0; i < TRAPEZE_PE_COUNT; i++)
        if (!(st->events_set >> i & 1))
            return missing(path, "event_j", event_names[i], err);
    if (!st->constant_set)
        return missing(path, "power_w", "constant", err);
    if (!st->idle_set)
        return missing(path, "power_w", "idle_sm", err);
    for (int i = 0; i < TRAPEZE_PS_COUNT; i++)
        if (!(st->leak_set >> i & 1))
            return missing(path, "leakage_w", structure_names[i], err);
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        for (int m = 1; m < st->p->n_modes[s]; m++)
            for (int k = 0; k < 4; k++)
                if (!(st->mode_set[s][m] >> k & 1))
                    return missing(path, st->mode_section[s][m], mode_keys[k], err);
    return TRAPEZE_OK;
}

trapeze_status trapeze_power_load(const char *path, trapeze_power *p, trapeze_error *err)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
        p->n_modes[s] = 1;
        p->mode[s][0] = (trapeze_power_mode){"on", 1.0, 0, 0.0, 1};
    }
    load_state st;
    memset(&st, 0, sizeof st);
    st.p = p;
    trapeze_status rc = trapeze_ini_parse(path, on_key, &st, err);
    if (!rc)
        rc = check_complete(&st, path, err);
    if (rc)
        return rc;
    if (!p->name[0]) {
        /* the file's base name without .ini */
        const char *base = strrchr(path, '/');
        snprintf(p->name, sizeof p->name, "%s", base ? base + 1 : path);
        char *dot = strrchr(p->name, '.');
        if (dot && !strcasecmp(dot, ".ini"))
            *dot = '\0';
    }
    return TRAPEZE_OK;
}
