/*
 * ghostzone_energy.c - `trapeze ghostzone --objective time|energy|edp`: the
 * energy half of the ghost-zone command (cmd_ghostzone.c parses and calls
 * cli_gz_energy once per workload). Samples, calibration, sleep thresholds
 * and ranking are library calls (sampler/gz_energy/gz_energy_sample.c,
 * model/gz_energy.c); this file only sequences them and prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/error.h"
#include "common/text.h"
#include "trapeze.h"

#define MAX_SAMPLES 6   /* 3 heights x 2 sync modes */

static void print_pick(const char *name, const char *label, const trapeze_ghostzone_energy_eval *e,
                       const trapeze_ghostzone_energy_eval *ref)
{
    printf("%-12s by %-7s %-8s h=%-3.0f cpl %10.1f  energy %9.4f mJ/loop  edp %10.4g uJs", name,
           label, trapeze_sync_name(e->sync), e->h, e->cpl_sleep, 1e3 * e->energy_j,
           1e6 * e->edp);
    if (ref && ref != e)
        printf("  (vs time pick: cycles %+.2f%%, energy %+.2f%%)",
               100 * (e->cpl_sleep / ref->cpl_sleep - 1), 100 * (e->energy_j / ref->energy_j - 1));
    putchar('\n');
}

/* A pick by one objective in the document. */
static void json_pick(trapeze_json_out *j, const char *key, const trapeze_ghostzone_energy_eval *e)
{
    trapeze_json_object(j, key);
    trapeze_json_text(j, "sync", trapeze_sync_name(e->sync));
    trapeze_json_number(j, "h", e->h);
    trapeze_json_number(j, "cpl_cycles", e->cpl_sleep);
    trapeze_json_number(j, "energy_j", e->energy_j);
    trapeze_json_number(j, "edp", e->edp);
    trapeze_json_end(j);
}

/* The chosen pick's sleep thresholds in the document. */
static void json_thresholds(trapeze_json_out *j, const trapeze_ghostzone_energy_eval *e)
{
    static const char *const st[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT] = {"l1d", "l2", "rf"};
    trapeze_json_array(j, "sleep");
    for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
        int on = !e->sleep.valid || !e->sleep.n_modes[x];
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "structure", st[x]);
        trapeze_json_array(j, "thresholds");
        for (int i = 0; !on && i < e->sleep.n_modes[x]; i++)
            trapeze_json_number(j, NULL, e->sleep.theta[x][i]);
        trapeze_json_end(j);
        trapeze_json_number(j, "saving", on ? 0 : e->sleep.saving[x]);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_json_number(j, "penalty", e->sleep.penalty[0] + e->sleep.penalty[1] +
                                          e->sleep.penalty[2]);
}

static void print_thresholds(const char *name, const trapeze_ghostzone_energy_eval *e)
{
    static const char *const st[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT] = {"l1d", "l2", "rf"};
    printf("%-12s sleep at the pick:", name);
    for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
        printf(" %s ", st[x]);
        if (!e->sleep.valid || !e->sleep.n_modes[x]) {
            printf("on");
            continue;
        }
        for (int i = 0; i < e->sleep.n_modes[x]; i++)
            printf("%s%.0f", i ? "/" : "", e->sleep.theta[x][i]);
        printf(" (saves %.1f%%)", 100 * e->sleep.saving[x]);
    }
    double pen = e->sleep.penalty[0] + e->sleep.penalty[1] + e->sleep.penalty[2];
    printf("; penalty %.2f%% of cycles\n", 100 * pen);
}

static void progress(void *ctx, const trapeze_run_progress *at, const trapeze_sample_row *row)
{
    cli_progress_rows(ctx, at, "samples", row->id);
}

/* The plan's samples through the samples log (--energy-samples FILE, else a
 * temporary one): run in --threads workers, the logged ones skipped, then
 * read back in plan order. */
static trapeze_status run_samples(const cli_gz_energy_opts *o, const char *gpu_path,
                                  const trapeze_power *pw, const trapeze_workload *spec,
                                  const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                  int nmodes, trapeze_ghostzone_energy_sample *s, trapeze_ghostzone_sleep *sl,
                                  int *n, trapeze_error *err)
{
    char dir[] = "/tmp/trapeze-energy-XXXXXX", tmp[64] = "";
    const char *path = o->samples;
    trapeze_config *cfg = NULL;
    trapeze_ghostzone_energy_plan *plan = NULL;
    trapeze_sample_log *log = NULL;
    *n = 0;
    if (!path) {
        if (!mkdtemp(dir))
            return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot create: %s", dir, strerror(errno));
        snprintf(tmp, sizeof tmp, "%s/samples.csv", dir);
        path = tmp;
    }
    trapeze_status st = trapeze_config_load(gpu_path, &cfg, err);
    if (!st)
        st = trapeze_ghostzone_energy_plan_create(cfg, pw, spec, m, modes, nmodes, o->max_penalty, &plan,
                                                  err);
    if (!st)
        st = trapeze_sample_log_open_schema(path, &trapeze_ghostzone_energy_schema, &log, err);
    cli_progress bar = {.prefix = "energy samples"};
    if (!st)
        st = trapeze_samples_run(trapeze_ghostzone_energy_plan_set(plan), log,
                                 o->threads > 0 ? o->threads : 1, progress, &bar, err);
    const trapeze_sample_set *set = plan ? trapeze_ghostzone_energy_plan_set(plan) : NULL;
    for (int i = 0; !st && i < set->count; i++) {
        const trapeze_sample_row *r = trapeze_sample_log_find_row(log, set->rows[i].id);
        if (!r)
            st = trapeze_fail(err, TRAPEZE_EINVAL, "%s: sample %s missing after the run", path,
                              set->rows[i].id);
        else if (!(st = trapeze_ghostzone_energy_from_row(r, pw, trapeze_ghostzone_gpu(m)->n_sm, &s[*n],
                                                          &sl[*n], err)))
            (*n)++;
        else {   /* the row's message, with the file it came from */
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            trapeze_fail(err, st, "%s: %s", o->samples ? o->samples : "samples log", why);
        }
    }
    trapeze_sample_log_close(log);
    trapeze_ghostzone_energy_plan_destroy(plan);
    trapeze_config_destroy(cfg);
    if (tmp[0]) {
        unlink(tmp);
        rmdir(dir);
    }
    return st;
}

trapeze_status cli_gz_energy(const cli_gz_energy_opts *o, const char *gpu_path,
                             const trapeze_workload *spec, const trapeze_ghostzone_model *m,
                             const trapeze_ghostzone_params *p, const trapeze_sync *modes, int nmodes,
                             trapeze_csv_out *csv, trapeze_json_out *j, trapeze_error *err)
{
    const trapeze_gpu *gpu = trapeze_ghostzone_gpu(m);
    const char *name = trapeze_ghostzone_workload(m)->name;
    trapeze_power pw;
    char dflt[64];
    trapeze_status s =
        cli_power_load(o->power ? o->power : cli_power_default(gpu->name, dflt, sizeof dflt), &pw, err);
    if (s)
        return s;
    trapeze_ghostzone_energy_sample *smp = calloc(MAX_SAMPLES, sizeof *smp);
    trapeze_ghostzone_sleep sl[MAX_SAMPLES];
    trapeze_ghostzone_energy_coef c;
    trapeze_ghostzone_energy_eval *e = NULL;
    int ns = 0, n = 0, best[3];
    if (!smp)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    s = run_samples(o, gpu_path, &pw, spec, m, modes, nmodes, smp, sl, &ns, err);
    if (!s)
        s = trapeze_ghostzone_energy_calibrate(m, p, smp, ns, &c, err);
    if (!s)
        s = trapeze_ghostzone_energy_rank(m, &c, smp, sl, ns, modes, nmodes, &e, &n, best, err);
    if (!s) {
        double insts = 0;
        for (int i = 0; i < ns; i++)
            insts += smp[i].warp_instructions;
        printf("%-12s energy: %s, %d samples (", name, pw.path, ns);
        for (int i = 0; i < ns; i++)
            printf("%s%s h=%d", i ? ", " : "", trapeze_sync_name(smp[i].sync), smp[i].h);
        printf("; %.4g warp instructions)\n", insts);
        for (int k = 0; k < 2; k++)
            if (c.n_samples[k])
                printf("%-12s calibrated %-8s %.4g nJ per counted warp instruction, %.4g nJ "
                       "per element moved\n", name, trapeze_sync_name((trapeze_sync)k),
                       1e9 * c.inst_j[k], 1e9 * c.element_j[k]);
        const trapeze_ghostzone_energy_eval *t = &e[best[TRAPEZE_GHOSTZONE_OBJ_TIME]];
        print_pick(name, "time", t, NULL);
        print_pick(name, "energy", &e[best[TRAPEZE_GHOSTZONE_OBJ_ENERGY]], t);
        print_pick(name, "edp", &e[best[TRAPEZE_GHOSTZONE_OBJ_EDP]], t);
        const trapeze_ghostzone_energy_eval *pick = &e[best[o->objective]];
        printf("%-12s chosen (%s): %s h=%.0f\n", name, trapeze_ghostzone_objective_name(o->objective),
               trapeze_sync_name(pick->sync), pick->h);
        print_thresholds(name, pick);
        trapeze_json_object(j, "energy");
        trapeze_json_text(j, "power", pw.path);
        trapeze_json_array(j, "samples");
        for (int i = 0; i < ns; i++) {
            trapeze_json_object(j, NULL);
            trapeze_json_text(j, "sync", trapeze_sync_name(smp[i].sync));
            trapeze_json_integer(j, "h", smp[i].h);
            trapeze_json_end(j);
        }
        trapeze_json_end(j);
        trapeze_json_number(j, "warp_instructions", insts);
        json_pick(j, "time", t);
        json_pick(j, "energy", &e[best[TRAPEZE_GHOSTZONE_OBJ_ENERGY]]);
        json_pick(j, "edp", &e[best[TRAPEZE_GHOSTZONE_OBJ_EDP]]);
        trapeze_json_text(j, "objective", trapeze_ghostzone_objective_name(o->objective));
        json_pick(j, "chosen", pick);
        json_thresholds(j, pick);
        trapeze_json_end(j);
        if (csv)
            s = trapeze_ghostzone_energy_write_rows(m, e, n, csv, err);
    }
    free(e);
    free(smp);
    return s;
}

int cli_gz_energy_parse(const cli_gz_energy_text *t, cli_gz_energy_opts *o)
{
    if (t->objective) {
        if (trapeze_ghostzone_objective_parse(t->objective, &o->objective) != 0)
            return cli_usage_error("ghostzone", "--objective: expected time, energy or edp, "
                                   "got '%s'", t->objective);
        o->enabled = 1;
        o->max_penalty = 0.01;
    }
    if (t->max_penalty) {
        double v;
        if (!trapeze_parse_double(t->max_penalty, &v) || !(v > 0) || v >= 1)
            return cli_usage_error("ghostzone", "--max-penalty: expected a fraction in (0, 1), "
                                   "got '%s'", t->max_penalty);
        o->max_penalty = v;
    }
    return 0;
}
