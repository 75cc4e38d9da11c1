/*
 * params.c - the ghost-zone model's parameter vector: names, Meng's GTX 280
 * defaults, and calibration files ([ghostzone] name = value, with optional
 * name_stderr for fitted standard errors). Must not evaluate the model.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/outfile.h"
#include "common/text.h"
#include "common/ini.h"
#include "model/ghostzone.h"

const char *const gz_param_names[TRAPEZE_GHOSTZONE_NPARAMS] = {
    "uncontended_latency_cycles", "sigma", "beta", "mu", "fence_cycles_per_block",
    "relaunch_cycles", "cpi", "blocks_per_sm", "bandwidth_fraction", "fence_barrier_cycles", "overlap",
    "tile_cycles", "fence_misc_fraction", "fence_poll_cycles", "overlap_fence", "halo_reread",
    "fence_iter_fraction", "partial_round_fraction", "loop_reread_fraction",
    "fence_issue_fraction"};

/* Physical ranges: a calibration outside them is an error, not a result. */
const double gz_param_min[TRAPEZE_GHOSTZONE_NPARAMS] = {0, 0.01, 0, 0, 0, 0, 0.01, 0.01, 0.01, 0, 0,
                                                  0, 0, 0, 0, 0, 0, 0, 0, 0};
const double gz_param_max[TRAPEZE_GHOSTZONE_NPARAMS] = {1e6, 1e3, 1, 1, 1e7, 1e9, 1e3, 1e3, 1, 1e9, 0.95,
                                                  1e7, 1, 1e7, 0.95, 1, 3, 1, 1, 3};

const char *trapeze_ghostzone_param_name(trapeze_ghostzone_param p)
{
    return (unsigned)p < TRAPEZE_GHOSTZONE_NPARAMS ? gz_param_names[p] : "?";
}

void trapeze_ghostzone_param_range(trapeze_ghostzone_param p, double *lo, double *hi)
{
    int i = (unsigned)p < TRAPEZE_GHOSTZONE_NPARAMS ? (int)p : 0;
    *lo = gz_param_min[i];
    *hi = gz_param_max[i];
}

void trapeze_ghostzone_params_default(trapeze_ghostzone_params *p)
{
    static const double meng_gtx280[TRAPEZE_GHOSTZONE_NPARAMS] = {
        300.0,  /* UncontendedLat, assumed (Table 5.1) */
        5.0,    /* sigma, fitted (5.4.2) */
        0.5,    /* beta, assumed (5.4.3) */
        0.5,    /* mu, assumed (5.4.5) */
        210.3,  /* fence cycles per block, measured (5.4.5) */
        3350.0, /* relaunch cycles, measured (5.17) */
        4.0,    /* CPI (Table 5.1) */
        8.0,    /* BlksPerSM (Table 5.1) */
        1.0,    /* bandwidth fraction: Meng assumes the peak (5.4.2) */
        0.0,    /* fence-barrier intercept: "negligible" (5.4.5) */
        0.0,    /* overlap: none, memory and compute add up (5.2) */
        0.0,    /* tile cycles: none beyond the instructions */
        0.0,    /* fence MiscComp fraction: dropped (5.4.5) */
        0.0,    /* fence polling: none */
        0.0,    /* fence-mode overlap (used with fence_overlap = 1) */
        1.0,    /* halo re-reads cost a DRAM read each (5.8) */
        0.0,    /* fence iterations cost what the relaunch profile counts */
        0.0,    /* a partial last round of tiles costs its tiles' instructions */
        1.0,    /* a loop's extra loads cost a DRAM read each (5.10) */
        0.0};   /* the fence kernel issues as fast as the relaunch kernel */
    memset(p, 0, sizeof *p);
    memcpy(p->value, meng_gtx280, sizeof meng_gtx280);
    snprintf(p->source, sizeof p->source, "Meng 2010, GTX 280 (built-in)");
}

static int find_param(const char *key, int *is_stderr)
{
    size_t n = strlen(key);
    *is_stderr = n > 7 && strcmp(key + n - 7, "_stderr") == 0;
    for (int i = 0; i < TRAPEZE_GHOSTZONE_NPARAMS; i++) {
        size_t len = strlen(gz_param_names[i]);
        if (strncmp(key, gz_param_names[i], len) == 0 && key[len] == (*is_stderr ? '_' : '\0'))
            return i;
    }
    return -1;
}

static const char *const profile_keys[] = {"input_elements", "insts_per_sm_mc",
                                           "insts_per_sm_ic", "bank_conflict_rate",
                                           "issue_cycles"};
#define N_PROFILE_KEYS (int)(sizeof profile_keys / sizeof profile_keys[0])
#define PROFILE_ISSUE 4 /* optional: written only when measured */

static double *profile_field(trapeze_ghostzone_profile *pr, int k)
{
    double *fields[] = {&pr->input_elements, &pr->insts_per_sm_mc, &pr->insts_per_sm_ic,
                        &pr->bank_conflict_rate, &pr->issue_cycles};
    return fields[k];
}

/* [profile.NAME] key = value: the measured counts of workload NAME. */
static trapeze_status on_profile(trapeze_ghostzone_params *p, const trapeze_ini_ctx *at,
                                 const char *section, const char *key, const char *value,
                                 trapeze_error *err)
{
    const char *name = section + strlen("profile.");
    int i = 0;
    while (i < p->n_profiles && strcmp(p->profile[i].workload, name) != 0)
        i++;
    if (i == p->n_profiles) {
        if (i == TRAPEZE_GHOSTZONE_MAX_PROFILES || strlen(name) >= sizeof p->profile[i].workload)
            return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: [%s]: too many or too long a name",
                                at->path, at->line, section);
        memset(&p->profile[i], 0, sizeof p->profile[i]);
        snprintf(p->profile[i].workload, sizeof p->profile[i].workload, "%s", name);
        p->n_profiles++;
    }
    for (int k = 0; k < N_PROFILE_KEYS; k++)
        if (strcmp(key, profile_keys[k]) == 0)
            return trapeze_ini_double(at, section, key, value, k == 0 ? 1 : 0, 1e15,
                                      profile_field(&p->profile[i], k), err);
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [%s] %s: unknown key", at->path, at->line,
                        section, key);
}

/* [correlation] "a,b = r": one pair of fitted parameters, |r| <= 1. */
static trapeze_status on_correlation(trapeze_ghostzone_params *p, const trapeze_ini_ctx *at,
                                     const char *key, const char *value, trapeze_error *err)
{
    char names[128];
    snprintf(names, sizeof names, "%s", key);
    char *comma = strchr(names, ',');
    int a = -1, b = -1, is_stderr;
    if (comma) {
        *comma = '\0';
        a = find_param(names, &is_stderr);
        a = is_stderr ? -1 : a;
        b = find_param(comma + 1, &is_stderr);
        b = is_stderr ? -1 : b;
    }
    if (a < 0 || b < 0 || a == b)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [correlation] %s: expected two parameter names, NAME,NAME",
                            at->path, at->line, key);
    trapeze_status s = trapeze_ini_double(at, "correlation", key, value, -1, 1, &p->corr[a][b], err);
    p->corr[b][a] = p->corr[a][b];
    return s;
}

/* The structure switches of a calibration file: name = 0 or 1. */
static const char *const flag_names[] = {"whole_tiles", "occupancy", "waves", "persistent_fence",
                                         "fence_overlap", "fence_staging", "row_penalty", "fence_iter",
                                         "mem_latency", "row_lines", "barrier_max", "partial_round", "loop_reread",
                                         "loop_once", "round_latency", "round_compute",
                                         "round_staging", "lone_round", "fence_issue", "fence_iter_hidden",
                                         "fence_overlap_loads", "round_spin", "spin_staging",
                                         "round_tiles", "round_setup"};
#define N_FLAGS (int)(sizeof flag_names / sizeof flag_names[0])

static int *flag_slot(trapeze_ghostzone_params *p, int i)
{
    int *slots[N_FLAGS] = {&p->whole_tiles, &p->occupancy, &p->waves, &p->persistent_fence,
                           &p->fence_overlap, &p->fence_staging, &p->row_penalty,
                           &p->fence_iter, &p->mem_latency, &p->row_lines,
                           &p->barrier_max, &p->partial_round, &p->loop_reread,
                           &p->loop_once, &p->round_latency, &p->round_compute,
                           &p->round_staging, &p->lone_round, &p->fence_issue, &p->fence_iter_hidden,
                           &p->fence_overlap_loads, &p->round_spin, &p->spin_staging,
                           &p->round_tiles, &p->round_setup};
    return slots[i];
}

static int *structure_flag(trapeze_ghostzone_params *p, const char *key)
{
    for (int i = 0; i < N_FLAGS; i++)
        if (strcmp(key, flag_names[i]) == 0)
            return flag_slot(p, i);
    return NULL;
}

static trapeze_status on_param(void *user, const trapeze_ini_ctx *at, const char *section,
                               const char *key, const char *value, trapeze_error *err)
{
    trapeze_ghostzone_params *p = user;
    if (strcmp(section, "meta") == 0) {
        if (strcmp(key, "source") == 0)
            snprintf(p->source, sizeof p->source, "%s", value);
        else if (strcmp(key, "gpu") == 0)
            snprintf(p->gpu, sizeof p->gpu, "%s", value);
        else if (strcmp(key, "gpu_fingerprint") == 0)
            snprintf(p->gpu_fingerprint, sizeof p->gpu_fingerprint, "%s", value);
        return TRAPEZE_OK; /* other [meta] keys are free-form notes */
    }
    if (strncmp(section, "profile.", 8) == 0 && section[8])
        return on_profile(p, at, section, key, value, err);
    if (strcmp(section, "correlation") == 0)
        return on_correlation(p, at, key, value, err);
    if (strcmp(section, "ghostzone") != 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [%s] %s: unknown section (expected [ghostzone], [profile.NAME] or [meta])",
                            at->path, at->line, section, key);
    if (strcmp(key, "issue_cycles_ref") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1e6, &p->issue_cycles_ref, err);
    if (strcmp(key, "turnaround_cycles") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1e7, &p->turnaround_cycles, err);
    int *flag = structure_flag(p, key);
    if (flag) {
        long on;
        trapeze_status s = trapeze_ini_int(at, section, key, value, 0, 1, &on, err);
        *flag = (int)on;
        return s;
    }
    int is_stderr;
    int i = find_param(key, &is_stderr);
    if (i < 0)
        return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [ghostzone] %s: unknown parameter",
                            at->path, at->line, key);
    if (is_stderr)
        return trapeze_ini_double(at, section, key, value, 0, 1e300, &p->stderr_[i], err);
    return trapeze_ini_double(at, section, key, value, gz_param_min[i], gz_param_max[i],
                              &p->value[i], err);
}

typedef struct {
    trapeze_ghostzone_params *p;
    int set;    /* [ghostzone] and [profile.NAME] keys read */
} load_state;

static trapeze_status on_key(void *user, const trapeze_ini_ctx *at, const char *section,
                             const char *key, const char *value, trapeze_error *err)
{
    load_state *st = user;
    trapeze_status s = on_param(st->p, at, section, key, value, err);
    st->set += !s && strcmp(section, "meta") != 0;
    return s;
}

trapeze_status trapeze_ghostzone_params_load(const char *path, trapeze_ghostzone_params *p,
                                             trapeze_error *err)
{
    trapeze_ghostzone_params_default(p);
    snprintf(p->source, sizeof p->source, "%s", path);
    load_state st = {p, 0};
    trapeze_status s = trapeze_ini_parse(path, on_key, &st, err);
    if (s)
        return s;
    /* an empty or truncated file is a mistake, not "use the defaults" */
    if (st.set == 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s: sets nothing (expected [ghostzone] name = value lines); "
                            "leave out --calibration for the built-in defaults",
                            path);
    /* a profile's counts are per input element: without that count the
     * section is incomplete (and would save a value no load accepts) */
    for (int i = 0; i < p->n_profiles; i++)
        if (!(p->profile[i].input_elements >= 1))
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "%s: [profile.%s] input_elements: missing (a profile needs "
                                "input_elements, insts_per_sm_mc and insts_per_sm_ic)",
                                path, p->profile[i].workload);
    return TRAPEZE_OK;
}

/* A parameter only an opt-in switch reads, with the switch off and the value
 * at Meng's default, is left out of a saved file: absent names read back as
 * that default, and a calibration made without the switch keeps the bytes
 * it had before the parameter existed (the shipped files are checked so). */
static int unused_default(const trapeze_ghostzone_params *p, int i)
{
    static const struct { int param; size_t flag; double dflt; } opt_in[] = {
        {TRAPEZE_GHOSTZONE_PARTIAL_ROUND, offsetof(trapeze_ghostzone_params, partial_round), 0.0},
        {TRAPEZE_GHOSTZONE_LOOP_REREAD, offsetof(trapeze_ghostzone_params, loop_reread), 1.0},
        {TRAPEZE_GHOSTZONE_FENCE_ISSUE, offsetof(trapeze_ghostzone_params, fence_issue), 0.0}};
    for (size_t k = 0; k < sizeof opt_in / sizeof opt_in[0]; k++)
        if (opt_in[k].param == i)
            return !*(const int *)((const char *)p + opt_in[k].flag) && p->value[i] == opt_in[k].dflt &&
                   !(p->stderr_[i] > 0);
    return 0;
}

trapeze_status trapeze_ghostzone_params_save(const char *path, const trapeze_ghostzone_params *p,
                                             trapeze_error *err)
{
    trapeze_outfile *o;
    FILE *f;
    trapeze_status s = trapeze_outfile_open_stream(path, &o, &f, err);
    if (s)
        return s;
    fprintf(f, "; Trapeze calibration of the ghost-zone model (Meng 2010, ch. 5)\n");
    fprintf(f, "[meta]\nsource = %s\n", p->source);
    if (p->gpu[0])
        fprintf(f, "gpu = %s\ngpu_fingerprint = %s\n", p->gpu, p->gpu_fingerprint);
    fprintf(f, "\n[ghostzone]\n");
    for (int i = 0; i < TRAPEZE_GHOSTZONE_NPARAMS; i++) {
        if (unused_default(p, i))
            continue;
        fprintf(f, "%s = %.17g\n", gz_param_names[i], p->value[i]);
        if (p->stderr_[i] > 0)
            fprintf(f, "%s_stderr = %.17g\n", gz_param_names[i], p->stderr_[i]);
    }
    for (int i = 0; i < N_FLAGS; i++)
        if (*flag_slot((trapeze_ghostzone_params *)p, i))
            fprintf(f, "%s = 1\n", flag_names[i]);
    if (p->issue_cycles_ref > 0)
        fprintf(f, "issue_cycles_ref = %.17g\n", p->issue_cycles_ref);
    if (p->turnaround_cycles > 0)
        fprintf(f, "turnaround_cycles = %.17g\n", p->turnaround_cycles);
    int header = 0;
    for (int a = 0; a < TRAPEZE_GHOSTZONE_NPARAMS; a++)
        for (int b = a + 1; b < TRAPEZE_GHOSTZONE_NPARAMS; b++)
            if (p->corr[a][b] != 0) {
                fprintf(f, "%s%s,%s = %.17g\n", header++ ? "" : "\n[correlation]\n",
                        gz_param_names[a], gz_param_names[b], p->corr[a][b]);
            }
    for (int i = 0; i < p->n_profiles; i++) {
        fprintf(f, "\n[profile.%s]\n", p->profile[i].workload);
        for (int k = 0; k < N_PROFILE_KEYS; k++) {
            double v = *profile_field((trapeze_ghostzone_profile *)&p->profile[i], k);
            if (k != PROFILE_ISSUE || v > 0)
                fprintf(f, "%s = %.17g\n", profile_keys[k], v);
        }
    }
    return trapeze_outfile_commit(o, err);
}

trapeze_status trapeze_ghostzone_params_check_gpu(const trapeze_ghostzone_params *p, const trapeze_gpu *gpu,
                                                  trapeze_error *err)
{
    if (!p->gpu_fingerprint[0])
        return TRAPEZE_OK;
    char fp[17];
    trapeze_gpu_fingerprint(gpu, fp);
    if (strcmp(fp, p->gpu_fingerprint) == 0)
        return TRAPEZE_OK;
    return trapeze_fail(err, TRAPEZE_EINVAL,
                        "made for GPU %s (fingerprint %s), not for %s (fingerprint %s); use "
                        "the calibration made for %s, or force it with --force-calibration",
                        p->gpu, p->gpu_fingerprint, gpu->name, fp, gpu->name);
}
