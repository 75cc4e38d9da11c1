/*
 * group_params.c - the grouping model's calibration file: [group] name =
 * value (and name_stderr) for each constant, gain_uncertainty (the
 * held-out error of a predicted gain over round-robin) and its sub-grid
 * pair (subgrid_gain_uncertainty, subgrid_dram_contention), the same
 * uncertainty with whole-GPU windows (gpu_window_gain_uncertainty), the
 * whole-GPU L2 contention where measured (l2_contention, and
 * l2_measured_contention at the sub-grids' L2 counts,
 * memory_measured_contention at their L2 and DRAM counts), the cost of the
 * DRAM rows a grouping scatters (dram_rows_cost), whether L1 sharing is
 * counted in the L1's fetch unit (l1_by_fetch), whether the uncertainties
 * are in the gain-difference form (gain_difference), [meta] source. Absent names
 * keep their default; an unknown name or section is an error naming file
 * and line. Must not evaluate the model.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/outfile.h"
#include "common/text.h"
#include "common/ini.h"
#include "model/group.h"

static trapeze_status on_key(void *user, const trapeze_ini_ctx *at, const char *section,
                             const char *key, const char *value, trapeze_error *err)
{
    trapeze_group_params *p = user;
    if (strcmp(section, "meta") == 0) {
        if (strcmp(key, "source") == 0)
            snprintf(p->source, sizeof p->source, "%s", value);
        return TRAPEZE_OK;   /* other [meta] keys are notes */
    }
    if (strcmp(section, "group") != 0)
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "%s:%d: [%s] %s: unknown section (expected [group] or [meta])",
                            at->path, at->line, section, key);
    if (strcmp(key, "gain_uncertainty") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->gain_uncertainty, err);
    if (strcmp(key, "subgrid_gain_uncertainty") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->subgrid_gain_uncertainty,
                                  err);
    if (strcmp(key, "subgrid_dram_contention") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->subgrid_contention, err);
    if (strcmp(key, "l2_contention") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->l2_contention, err);
    if (strcmp(key, "l2_measured_contention") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->l2_measured_contention,
                                  err);
    if (strcmp(key, "memory_measured_contention") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->memory_measured_contention,
                                  err);
    if (strcmp(key, "dram_rows_cost") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 4, &p->dram_rows_cost, err);
    if (strcmp(key, "l1_by_fetch") == 0) {
        long on = 0;
        trapeze_status s = trapeze_ini_int(at, section, key, value, 0, 1, &on, err);
        p->l1_by_fetch = (int)on;
        return s;
    }
    if (strcmp(key, "gain_difference") == 0) {
        long on = 0;
        trapeze_status s = trapeze_ini_int(at, section, key, value, 0, 1, &on, err);
        p->gain_difference = (int)on;
        return s;
    }
    if (strcmp(key, "dram_banks") == 0) {
        long on = 0;
        trapeze_status s = trapeze_ini_int(at, section, key, value, 0, 1, &on, err);
        p->dram_banks = (int)on;
        return s;
    }
    if (strcmp(key, "gpu_window_gain_uncertainty") == 0)
        return trapeze_ini_double(at, section, key, value, 0, 1, &p->gpu_window_gain_uncertainty,
                                  err);
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++) {
        size_t len = strlen(grp_param_names[k]);
        if (strncmp(key, grp_param_names[k], len) != 0)
            continue;
        if (key[len] == '\0')
            return trapeze_ini_double(at, section, key, value, grp_param_min[k],
                                      grp_param_max[k], &p->value[k], err);
        if (strcmp(key + len, "_stderr") == 0)
            return trapeze_ini_double(at, section, key, value, 0, 1e300, &p->stderr_[k], err);
    }
    return trapeze_fail(err, TRAPEZE_EPARSE, "%s:%d: [group] %s: unknown key", at->path,
                        at->line, key);
}

trapeze_status trapeze_group_params_load(const char *path, trapeze_group_params *p,
                                         trapeze_error *err)
{
    trapeze_group_params_default(p);
    snprintf(p->source, sizeof p->source, "%s", path);
    return trapeze_ini_parse(path, on_key, p, err);
}

trapeze_status trapeze_group_params_save(const char *path, const trapeze_group_params *p,
                                         trapeze_error *err)
{
    trapeze_outfile *o;
    FILE *f;
    trapeze_status s = trapeze_outfile_open_stream(path, &o, &f, err);
    if (s)
        return s;
    fprintf(f, "; Trapeze calibration of the TB grouping model (docs/grouping.md)\n");
    fprintf(f, "[meta]\nsource = %s\n\n[group]\n", p->source);
    for (int k = 0; k < TRAPEZE_GROUP_NPARAMS; k++) {
        fprintf(f, "%s = %.17g\n", grp_param_names[k], p->value[k]);
        if (p->stderr_[k] > 0)
            fprintf(f, "%s_stderr = %.17g\n", grp_param_names[k], p->stderr_[k]);
    }
    if (p->gain_uncertainty >= 0)
        fprintf(f, "gain_uncertainty = %.17g\n", p->gain_uncertainty);
    if (p->subgrid_gain_uncertainty >= 0)
        fprintf(f, "subgrid_gain_uncertainty = %.17g\n", p->subgrid_gain_uncertainty);
    if (p->subgrid_contention >= 0)
        fprintf(f, "subgrid_dram_contention = %.17g\n", p->subgrid_contention);
    if (p->gpu_window_gain_uncertainty >= 0)
        fprintf(f, "gpu_window_gain_uncertainty = %.17g\n", p->gpu_window_gain_uncertainty);
    if (p->l2_contention >= 0)
        fprintf(f, "l2_contention = %.17g\n", p->l2_contention);
    if (p->l2_measured_contention >= 0)
        fprintf(f, "l2_measured_contention = %.17g\n", p->l2_measured_contention);
    if (p->memory_measured_contention >= 0)
        fprintf(f, "memory_measured_contention = %.17g\n", p->memory_measured_contention);
    if (p->dram_rows_cost >= 0)
        fprintf(f, "dram_rows_cost = %.17g\n", p->dram_rows_cost);
    if (p->l1_by_fetch)
        fprintf(f, "l1_by_fetch = 1\n");
    if (p->gain_difference)
        fprintf(f, "gain_difference = 1\n");
    if (!p->dram_banks)   /* on by default */
        fprintf(f, "dram_banks = 0\n");
    return trapeze_outfile_commit(o, err);
}
