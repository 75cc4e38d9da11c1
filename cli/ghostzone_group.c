/*
 * ghostzone_group.c - `trapeze ghostzone --group`: trapezoid height and TB
 * grouping chosen together (sampler/group/gz_group.c), printed, the grouping
 * written as a grouping file, optionally checked by simulation. Parsing
 * and printing only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/ghostzone_group.h"

void cli_gz_group_usage(FILE *out)
{
    fprintf(out,
"  --group             choose h and the TB grouping together: per relaunch\n"
"                      height the grouping model (docs/grouping.md) picks the\n"
"                      grouping whose neighbouring tiles share halo lines in L1,\n"
"                      and the halo re-reads it leaves set the CPL\n"
"  --group-out FILE    write the chosen relaunch grouping (tb,group,order) for\n"
"                      trapeze sim --workload SPEC --h H --grouping FILE\n"
"  --group-calibration FILE\n"
"                      the grouping model's [group] constants (default: the\n"
"                      GPU's data/calibrations/NAME-group.ini, else built-in)\n"
"  --group-verify      simulate the chosen relaunch h under rr and under the\n"
"                      grouping for --stages stages (default 2)\n"
"  --group-all-heights evaluate every relaunch height (default: skip those that\n"
"                      could not win even with free halo re-reads)\n");
}

void cli_gz_group_parsed(cli_gz_group *g)
{
    g->enabled |= g->out || g->calibration || g->verify || g->exhaustive;
}

/* --group-calibration, else data/calibrations/NAME-group.ini, else defaults. */
static trapeze_status group_params(const cli_gz_group *g, const char *gpu_name,
                                   trapeze_group_params *gp, trapeze_error *err)
{
    char path[4096], rel[160];
    trapeze_group_params_default(gp);
    if (g->calibration)
        return trapeze_group_params_load(g->calibration, gp, err);
    snprintf(rel, sizeof rel, "calibrations/%.64s-group.ini", gpu_name);
    cli_data_path(rel, path, sizeof path);
    if (access(path, R_OK) == 0)
        return trapeze_group_params_load(path, gp, err);
    return TRAPEZE_OK;
}

static void print_row(const char *name, const trapeze_ghostzone_group_row *r)
{
    printf("%-12s group: relaunch h=%-3d rr CPL %10.1f  ", name, r->h, r->cpl_rr);
    if (!strcmp(r->source, "tiles"))
        printf("tiles %d x %d %s", r->gx, r->gy, r->tile_order ? "col-major" : "row-major");
    else
        printf("%s", r->source);
    double share_rr = r->ghost_elements > 0 ? r->l1_reread_rr / r->ghost_elements : 0;
    double share = r->ghost_elements > 0 ? r->l1_reread / r->ghost_elements : 0;
    printf(" CPL %10.1f (%+.2f%%)  halo re-reads in L1 %.1f%% (rr %.1f%%), rho %.3g%s\n",
           r->cpl_grouped, 100 * (r->cpl_grouped / r->cpl_rr - 1), 100 * share, 100 * share_rr,
           r->rho, !r->kept_rr ? "" : r->gain_sd > 0 ? "; rr kept (gain within 1% + 2 sd of rho)"
                                                    : "; rr kept (rho not fitted, or gain within 1%)");
}

/* A (sync, h, grouping) in the document. */
static void json_row(trapeze_json_out *j, const char *key, const trapeze_ghostzone_group_row *r)
{
    int tiles = !r->kept_rr && !strcmp(r->source, "tiles");
    trapeze_json_object(j, key);
    trapeze_json_text(j, "sync", trapeze_sync_name(r->sync));
    trapeze_json_integer(j, "h", r->h);
    trapeze_json_text(j, "choice", r->sync == TRAPEZE_SYNC_FENCE ? NULL
                                   : r->kept_rr                 ? "rr"
                                                                : r->source);
    trapeze_json_number(j, "tiles_x", tiles ? r->gx : NAN);
    trapeze_json_number(j, "tiles_y", tiles ? r->gy : NAN);
    trapeze_json_text(j, "tile_order", !tiles ? NULL : r->tile_order ? "column-major"
                                                                    : "row-major");
    trapeze_json_number(j, "cpl_cycles", r->cpl);
    trapeze_json_number(j, "cpl_rr", r->sync == TRAPEZE_SYNC_RELAUNCH ? r->cpl_rr : NAN);
    trapeze_json_number(j, "cpl_grouped", r->sync == TRAPEZE_SYNC_RELAUNCH ? r->cpl_grouped
                                                                           : NAN);
    trapeze_json_number(j, "rho", r->sync == TRAPEZE_SYNC_RELAUNCH ? r->rho : NAN);
    trapeze_json_bool(j, "kept_rr", r->kept_rr);
    trapeze_json_end(j);
}

trapeze_status cli_gz_group_run(const cli_gz_group *g, const char *gpu_path,
                                const trapeze_workload *spec, const trapeze_ghostzone_params *p,
                                int tau, long stages, trapeze_json_out *j, trapeze_error *err)
{
    trapeze_group_params gp;
    trapeze_gpu gpu;
    trapeze_config *cfg;
    trapeze_status s = trapeze_config_load(gpu_path, &cfg, err);
    if (!s) {
        s = trapeze_gpu_from_config(cfg, &gpu, err);
        trapeze_config_destroy(cfg);
    }
    if (!s)
        s = group_params(g, gpu.name, &gp, err);
    trapeze_ghostzone_group_result r;
    if (!s)
        s = trapeze_ghostzone_group_optimize(gpu_path, spec, p, tau, &gp, 0.01, g->exhaustive, &r, err);
    if (s)
        return s;
    const char *name = spec->name;
    int skipped = 0, relaunch = 0;
    trapeze_json_object(j, "group");
    trapeze_json_array(j, "rows");
    for (int i = 0; i < r.n_rows; i++) {
        const trapeze_ghostzone_group_row *row = &r.rows[i];
        if (row->sync != TRAPEZE_SYNC_RELAUNCH)
            continue;
        relaunch++;
        if (row->evaluated) {
            print_row(name, row);
            json_row(j, NULL, row);
        } else {
            skipped++;
        }
    }
    trapeze_json_end(j);
    printf("%-12s group: grouping model constants: %s\n", name, gp.source);
    if (skipped)
        printf("%-12s group: %d of %d relaunch heights skipped: even free halo re-reads "
               "would not beat the best\n", name, skipped, relaunch);
    const trapeze_ghostzone_group_row *b = &r.rows[r.best], *br = &r.rows[r.best_relaunch];
    trapeze_json_text(j, "constants", gp.source);
    trapeze_json_integer(j, "skipped", skipped);
    json_row(j, "best", b);
    json_row(j, "best_relaunch", br);
    if (b->sync == TRAPEZE_SYNC_FENCE)
        printf("%-12s best with grouping: fence h=%d (CPL %.1f; persistent blocks, no TB "
               "grouping); best relaunch h=%d %s (CPL %.1f)\n", name, b->h, b->cpl, br->h,
               br->kept_rr ? trapeze_tb_policies[TRAPEZE_TB_RR].name : br->source, br->cpl);
    else if (!b->kept_rr && !strcmp(b->source, "tiles"))
        printf("%-12s best with grouping: relaunch h=%d, tiles %d x %d %s (CPL %.1f)\n", name,
               b->h, b->gx, b->gy, b->tile_order ? "col-major" : "row-major", b->cpl);
    else
        printf("%-12s best with grouping: relaunch h=%d, %s (CPL %.1f)\n", name, b->h,
               b->kept_rr ? "rr (no grouping's gain is above 1% + 2 sd of a fitted rho)" : b->source, b->cpl);
    if (g->out) {
        s = trapeze_grouping_save(g->out, &r.grouping, err);
        if (!s)
            fprintf(stderr, "wrote %s (%ld TBs: relaunch h=%d)\n", g->out, r.grouping.n_tbs,
                    br->h);
    }
    if (!s && g->verify) {
        double sim_rr = 0, sim_g = 0;
        long n = stages > 0 ? stages : 2;
        int it = (int)(br->h * n);
        s = trapeze_ghostzone_group_simulate(gpu_path, spec, br->h, it, NULL, &sim_rr, err);
        if (!s)
            s = trapeze_ghostzone_group_simulate(gpu_path, spec, br->h, it, &r.grouping, &sim_g, err);
        if (!s)
            printf("%-12s group verify: relaunch h=%d, %ld stages: simulated CPL rr %.1f, "
                   "grouping %.1f (%+.2f%%; model %+.2f%%)\n", name, br->h, n, sim_rr, sim_g,
                   100 * (sim_g / sim_rr - 1), 100 * (br->cpl / br->cpl_rr - 1));
        trapeze_json_object(j, "verify");
        trapeze_json_integer(j, "h", br->h);
        trapeze_json_integer(j, "stages", n);
        trapeze_json_number(j, "cpl_sim_rr", sim_rr);
        trapeze_json_number(j, "cpl_sim_grouped", sim_g);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_ghostzone_group_result_free(&r);
    return s;
}
