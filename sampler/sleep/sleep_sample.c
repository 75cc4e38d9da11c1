/*
 * sleep_sample.c - the sleep model's samples as the library's API names
 * them: a job parsed from its spec ("matmul n=128", "hotspot size=256x256
 * sync=fence h=2 iters=8"), its window, spread or jump sample
 * (trapeze_sleep_window) and its whole run with sleep policies
 * (trapeze_sleep_simulate: the saving and penalty per structure from the
 * simulator's mode cycles and stalls). The simulations themselves are
 * sim/sample/'s (window.c and the runs it picks), reached through sim/sim.h.
 *
 * Joins sim/ and the model's neutral types; owns no model and no format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"
#include "sampler/sleep/sleep_calib.h"
#include "sim/sim.h"

/* ------------------------------------------------------------------ jobs */

int trapeze_sleep_job_is_builtin(const char *name) { return sim_builtin_find(name) != NULL; }

static trapeze_status parse_stencil_setting(trapeze_sleep_job *j, const char *t,
                                            trapeze_error *err)
{
    const char *v = strchr(t, '=');
    long n;
    if (v && !strncmp(t, "sync=", 5)) {
        if (!strcmp(v + 1, "fence") || !strcmp(v + 1, "relaunch")) {
            j->sync = strcmp(v + 1, "fence") ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
            return TRAPEZE_OK;
        }
    } else if (v && !strncmp(t, "size=", 5)) {
        const char *p = v + 1;
        int d = 0;
        while (*p && d < TRAPEZE_MAX_DIMS) {
            char *end;
            double len = strtod(p, &end);
            if (end == p || len < 1 || (*end && *end != 'x'))
                break;
            j->workload.data_len[d++] = len;
            p = *end ? end + 1 : end;
        }
        if (!*p && d == j->workload.dims)
            return TRAPEZE_OK;
    } else if (v && (!strncmp(t, "h=", 2) || !strncmp(t, "iters=", 6)) &&
               trapeze_parse_long(v + 1, &n) && n >= 1 && n <= 1000000) {
        if (t[0] == 'h')
            j->h = (int)n;
        else
            j->iterations = (int)n;
        return TRAPEZE_OK;
    }
    return trapeze_fail(err, TRAPEZE_EINVAL,
                        "job '%s': '%s' is not size=AxB (one length per dimension), "
                        "sync=relaunch|fence, h=N or iters=N", j->spec, t);
}

trapeze_status trapeze_sleep_job_parse(const char *spec, const trapeze_workload *w,
                                       trapeze_sleep_job *j, trapeze_error *err)
{
    memset(j, 0, sizeof *j);
    if (strlen(spec) >= sizeof j->spec)
        return trapeze_fail(err, TRAPEZE_EINVAL, "job '%.40s...': longer than %d characters",
                            spec, (int)sizeof j->spec - 1);
    snprintf(j->spec, sizeof j->spec, "%s", spec);
    char buf[sizeof j->spec];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL, *t = strtok_r(buf, " ", &save);
    if (!t)
        return trapeze_fail(err, TRAPEZE_EINVAL, "an empty job");
    snprintf(j->name, sizeof j->name, "%s", t);
    j->stencil = w != NULL;
    if (w) {
        j->workload = *w;
        j->sync = TRAPEZE_SYNC_FENCE;
        j->h = 1;
        j->iterations = w->iterations;
    }
    for (t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        trapeze_status s;
        if (w && (s = parse_stencil_setting(j, t, err)))
            return s;
        if (!w) {
            if (j->argc == TRAPEZE_SLEEP_JOB_ARGS || !strchr(t, '='))
                return trapeze_fail(err, TRAPEZE_EINVAL, "job '%s': '%s' is not name=value "
                                    "(at most %d of them)", spec, t, TRAPEZE_SLEEP_JOB_ARGS);
            snprintf(j->args[j->argc++], sizeof j->args[0], "%s", t);
        }
    }
    if (!w && !sim_builtin_find(j->name))
        return trapeze_fail(err, TRAPEZE_EINVAL, "no built-in kernel '%s' (trapeze sim --list)",
                            j->name);
    return TRAPEZE_OK;
}

trapeze_status trapeze_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                    const trapeze_sleep_job *j, double window_cycles,
                                    double spread_cycles, trapeze_sleep_run *out,
                                    trapeze_error *err)
{
    return sim_sleep_window(cfg, pw, j, window_cycles, spread_cycles, 0, out, err);
}

trapeze_status trapeze_sleep_window_capped(const trapeze_config *cfg, const trapeze_power *pw,
                                           const trapeze_sleep_job *j, double window_cycles,
                                           double spread_cycles, double cap,
                                           trapeze_sleep_run *out, trapeze_error *err)
{
    if (!(cap > 0 && cap <= 1))
        return trapeze_fail(err, TRAPEZE_EINVAL, "a sample's cap: %g is not a fraction in (0, 1]",
                            cap);
    return sim_sleep_window(cfg, pw, j, window_cycles, spread_cycles, cap, out, err);
}

/* A whole run's saving and penalty per structure from its mode cycles,
 * periods and stalls. */
static void run_savings(const trapeze_power *pw, double clock_hz, trapeze_sleep_run *out)
{
    for (int x = 0; x < TRAPEZE_PS_SLEEPABLE; x++) {
        double total = 0, leak = 0;
        for (int m = 0; m < pw->n_modes[x]; m++) {
            total += out->mode_cycles[x][m];
            leak += pw->mode[x][m].leak_fraction * out->mode_cycles[x][m];
            /* a round trip in ON unit-cycles: the structure's transition_j
             * over its leakage per cycle (a unit pays its share of both) */
            if (pw->leak_w[x] > 0)
                leak += out->entries[x][m] * pw->mode[x][m].transition_j * clock_hz /
                        pw->leak_w[x];
        }
        out->saving[x] = total > 0 ? 1 - leak / total : 0;
        out->penalty[x] = out->cycles > 0 ? out->stall[x] / (out->cycles * out->n_sm) : 0;
    }
}

trapeze_status trapeze_sleep_simulate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *j,
                                      const trapeze_sleep_setting *set, trapeze_sleep_run *out,
                                      trapeze_error *err)
{
    trapeze_status s;
    trapeze_gpu gpu;
    if ((s = trapeze_gpu_from_config(cfg, &gpu, err)) ||
        (s = sim_sleep_whole(cfg, pw, j, set, out, err)))
        return s;
    run_savings(pw, gpu.core_clock_hz, out);
    return TRAPEZE_OK;
}

trapeze_status sampler_sleep_hides_wakes(const trapeze_config *cfg, const trapeze_power *pw,
                                         int x, const double *theta, int *hidden,
                                         trapeze_error *err)
{
    return sim_sleep_hides_wakes(cfg, pw, x, theta, hidden, err);
}

trapeze_status sampler_sleep_simulate_hidden(const trapeze_config *cfg, const trapeze_power *pw,
                                             const trapeze_sleep_job *j, int n, const int *x,
                                             const double (*theta)[TRAPEZE_SLEEP_MAX_MODES],
                                             trapeze_sleep_run *const *out, trapeze_error *err)
{
    trapeze_status s;
    trapeze_gpu gpu;
    if ((s = trapeze_gpu_from_config(cfg, &gpu, err)) ||
        (s = sim_sleep_whole_hidden(cfg, pw, j, n, x, theta, out, err)))
        return s;
    for (int i = 0; i < n; i++)
        run_savings(pw, gpu.core_clock_hz, out[i]);
    return TRAPEZE_OK;
}

/* The whole run's idle periods (trapeze sleep --whole; the API of before
 * windows). */
trapeze_status trapeze_sleep_sample_builtin(const trapeze_config *cfg, const trapeze_power *pw,
                                            const char *kernel, int argc, char **argv,
                                            trapeze_idle_hist **out, int *n, double *cycles,
                                            trapeze_error *err)
{
    *out = NULL;
    *n = 0;
    *cycles = 0;
    char spec[TRAPEZE_ROW_TEXT];
    size_t used = (size_t)snprintf(spec, sizeof spec, "%s", kernel);
    for (int i = 0; i < argc && used < sizeof spec; i++)
        used += (size_t)snprintf(spec + used, sizeof spec - used, " %s", argv[i]);
    if (used >= sizeof spec)
        return trapeze_fail(err, TRAPEZE_EINVAL, "kernel '%s': settings too long", kernel);
    trapeze_sleep_job *j = malloc(sizeof *j);
    trapeze_sleep_run *r = malloc(sizeof *r);
    trapeze_status s = j && r ? trapeze_sleep_job_parse(spec, NULL, j, err)
                              : trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s)
        s = trapeze_sleep_window(cfg, pw, j, 0, 0, r, err);
    if (!s && !(*out = malloc(sizeof r->hist)))
        s = trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    if (!s) {
        memcpy(*out, r->hist, sizeof r->hist);
        *n = TRAPEZE_SLEEP_NUNITS;
        *cycles = r->cycles;
    }
    free(j);
    free(r);
    return s;
}
