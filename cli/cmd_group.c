/*
 * cmd_group.c - `trapeze group`: choose a TB grouping for one launch of a
 * built-in kernel with the calibrated grouping model, write it as a
 * grouping file, and print its predicted and simulated cycles and L2
 * accesses beside the simulator's policies (rr, bcs, chen, mst, kway,
 * rbts). Argument handling and printing only; the model is model/group*.c,
 * the joining to the simulator sampler/group/group_problem.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_group.h"
#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: trapeze group --gpu FILE KERNEL [name=value ...] | --trace LIST [--launch N]\n"
            "                     [--calibration FILE] [--out GROUPING] [--csv FILE]\n"
            "                     [--no-sim] [--threads N]\n"
            "\n"
            "Chooses which thread blocks (TBs) share an SM's group queue, and in what\n"
            "order, for one launch of a built-in kernel (trapeze sim --list): the\n"
            "grouping model (docs/grouping.md) predicts L2 accesses, DRAM reads and\n"
            "cycles from the kernel's locality graph, the caches and the occupancy; a\n"
            "relaxation over tile shapes is optimized with NLopt, rounded and refined,\n"
            "and the simulator's own policies compete as candidates. Prints the\n"
            "chosen grouping's predicted and simulated cycles and L2 accesses beside\n"
            "round-robin (rr), BCS, Chen's dispatch, MST-TS, k-way-TS and RB-TS,\n"
            "each with what the model finds bounds it (bound: latency, sm for the\n"
            "SM's own pipelines, l2 or dram). chen-static, Chen's dispatch decided\n"
            "before launch (as if every TB took the same time), is a candidate too:\n"
            "simulated and ranked by its cycles (with --no-sim: by prediction).\n"
            "\n"
            "  --gpu FILE           GPU configuration (gpgpusim.config syntax)\n"
            "  --trace LIST         an Accel-Sim trace (DIR or DIR/kernelslist.g) instead of a\n"
            "                       built-in KERNEL: the graph from its loads' addresses\n"
            "  --launch N           which launch of the kernel (0 first; default 0)\n"
            "  --calibration FILE   the model's constants ([group] section); without it\n"
            "                       they are fitted to the simulations of rr, bcs, mst,\n"
            "                       kway and rbts (with --no-sim: the GPU's\n"
            "                       data/calibrations/NAME-group.ini, else defaults)\n"
            "  --save-calibration FILE  write the constants used\n"
            "  --out GROUPING       write the chosen grouping (CSV tb,group,order), for\n"
            "                       trapeze sim --grouping GROUPING\n"
            "  --csv FILE           one row per policy, chen-static, the choice\n"
            "                       (optimized) and, when simulated, the model's own\n"
            "                       pick by prediction alone (model): predicted and\n"
            "                       simulated figures and pred_bound\n"
            "  --margin PCT         another grouping replaces round-robin only when\n"
            "                       predicted faster by more than PCT%% (default 1) and\n"
            "                       than the measured uncertainty of a predicted gain\n"
            "                       (fitted: the fit's cross-validated error over the five\n"
            "                       whole runs; else the calibration's gain_uncertainty)\n"
            "  --soft               also try a soft assignment of TBs to the SM queues\n"
            "                       (relaxed, NLopt, rounded, refined; for graphs without\n"
            "                       grid structure), chosen when predicted faster\n"
            "  --no-sim             predictions only (no simulation)\n"
            "  --threads N          the simulations run one after another, each split\n"
            "                       across N threads (1-64; default 1): the same bytes\n"
            "  --json FILE          the summary as one JSON document (docs/json.md); - for\n"
            "                       stdout (the text then on stderr)\n");
}

#define N_POLICIES TRAPEZE_GROUP_NPOLICIES
/* The table's rows: the six policies, Chen's dispatch decided before
 * launch (a grouping, not a policy), the choice. */
#define N_ROWS (N_POLICIES + 2)
/* ... then, when simulated, the model's own pick (MODEL_ROW) */
#define MODEL_ROW (N_POLICIES + 1)
static const char *row_name(int i)
{
    return i < N_POLICIES - 1 ? trapeze_group_policy_name(i)
           : i == N_POLICIES - 1 ? "chen-static"
           : i == N_POLICIES     ? trapeze_group_policy_name(N_POLICIES - 1)
                                 : "model";
}

typedef struct {
    int predicted, simulated;
    trapeze_group_eval pred;
    trapeze_group_measured sim;
} row;

static const char *const csv_columns[] = {
    "gpu", "kernel", "launch", "policy", "pred_cycles", "pred_l2_accesses", "pred_dram_reads",
    "sim_cycles", "sim_l2_accesses", "sim_dram_reads", "sim_l1_hits", "pred_bound"};

static trapeze_status write_csv(const char *path, const char *gpu, const char *kernel,
                                int launch, const row *rows, int n_rows, trapeze_error *err)
{
    trapeze_csv_out *csv;
    trapeze_status s = trapeze_csv_create(path, csv_columns, 12, &csv, err);
    for (int i = 0; !s && i < n_rows; i++) {
        const row *r = &rows[i];
        trapeze_csv_text(csv, gpu);
        trapeze_csv_text(csv, kernel);
        trapeze_csv_number(csv, launch);
        trapeze_csv_text(csv, row_name(i));
        const double v[7] = {r->pred.cycles, r->pred.l2_accesses, r->pred.dram_reads,
                             r->sim.cycles, r->sim.l2_accesses, r->sim.dram_reads,
                             r->sim.l1_hits};
        for (int k = 0; k < 7; k++) {
            int have = k < 3 ? r->predicted : r->simulated;
            if (have)
                trapeze_csv_number(csv, v[k]);
            else
                trapeze_csv_text(csv, "");
        }
        trapeze_csv_text(csv, r->predicted ? trapeze_group_eval_bound(&r->pred) : "");
        s = trapeze_csv_end_row(csv, err);
    }
    if (s) {
        trapeze_csv_abort(csv);
        return s;
    }
    return trapeze_csv_commit(csv, err);
}

/* The table in the document: the CSV's columns, and vs_rr_pct. */
static void json_rows(trapeze_json_out *j, const row *rows, int n_rows)
{
    trapeze_json_array(j, "rows");
    for (int i = 0; i < n_rows; i++) {
        const row *r = &rows[i];
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "policy", row_name(i));
        trapeze_json_number(j, "pred_cycles", r->predicted ? r->pred.cycles : NAN);
        trapeze_json_number(j, "pred_l2_accesses", r->predicted ? r->pred.l2_accesses : NAN);
        trapeze_json_number(j, "pred_dram_reads", r->predicted ? r->pred.dram_reads : NAN);
        trapeze_json_number(j, "sim_cycles", r->simulated ? r->sim.cycles : NAN);
        trapeze_json_number(j, "sim_l2_accesses", r->simulated ? r->sim.l2_accesses : NAN);
        trapeze_json_number(j, "sim_dram_reads", r->simulated ? r->sim.dram_reads : NAN);
        trapeze_json_number(j, "sim_l1_hits", r->simulated ? r->sim.l1_hits : NAN);
        trapeze_json_text(j, "pred_bound", r->predicted ? trapeze_group_eval_bound(&r->pred) : NULL);
        trapeze_json_number(j, "vs_rr_pct", r->simulated && rows[0].simulated
                                                ? 100.0 * (r->sim.cycles / rows[0].sim.cycles - 1)
                                                : NAN);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
}

/* A grouping choice in the document: its kind, and a tile shape's. */
static void json_choice(trapeze_json_out *j, const char *key, const trapeze_group_choice *ch)
{
    int tiles = !strcmp(ch->source, "tiles");
    trapeze_json_object(j, key);
    trapeze_json_text(j, "choice", ch->source);
    trapeze_json_number(j, "tiles_x", tiles ? ch->gx : NAN);
    trapeze_json_number(j, "tiles_y", tiles ? ch->gy : NAN);
    trapeze_json_text(j, "tile_order", !tiles ? NULL : ch->tile_order ? "column-major"
                                                                     : "row-major");
    trapeze_json_number(j, "pred_cycles", ch->eval.cycles);
    trapeze_json_end(j);
}

/* "tiles 2 x 3 row-major", or the candidate's name. */
static void choice_name(const trapeze_group_choice *ch, char *out, size_t size)
{
    if (!strcmp(ch->source, "tiles"))
        snprintf(out, size, "tiles %d x %d %s", ch->gx, ch->gy,
                 ch->tile_order ? "column-major" : "row-major");
    else
        snprintf(out, size, "%s", ch->source);
}

/* The model's pick before the simulations ranked the candidates, its run,
 * and whether the simulations moved the choice off it. */
static void print_model_pick(const trapeze_group_outcome *o)
{
    char name[64], opt[64];
    choice_name(&o->model_choice, name, sizeof name);
    choice_name(&o->choice, opt, sizeof opt);
    printf("model's pick (by prediction alone): %s, predicted %.0f cycles, simulated %.0f "
           "(%+.2f%% vs rr); simulation %s\n", name, o->model_choice.eval.cycles,
           o->model_sim.cycles, 100.0 * (o->model_sim.cycles / o->sim[0].cycles - 1),
           o->model_changed ? "changed it to the optimized row's" : "did not change it");
    if (o->model_changed)
        printf("optimized (ranked by the simulations): %s\n", opt);
}

static void print_table(const row *rows, const trapeze_group_choice *ch, int simulated)
{
    printf("%-11s %14s %14s %8s %14s %14s %9s\n", "policy", "pred_cycles", "pred_L2", "bound",
           simulated ? "sim_cycles" : "", simulated ? "sim_L2" : "",
           simulated ? "vs_rr" : "");
    for (int i = 0; i < (simulated ? N_ROWS : N_ROWS - 1); i++) {
        const row *r = &rows[i];
        printf("%-11s", row_name(i));
        if (r->predicted)
            printf(" %14.0f %14.0f %8s", r->pred.cycles, r->pred.l2_accesses,
                   trapeze_group_eval_bound(&r->pred));
        else
            printf(" %14s %14s %8s", "-", "-", "-");
        if (r->simulated)
            printf(" %14.0f %14.0f %+8.2f%%", r->sim.cycles, r->sim.l2_accesses,
                   100.0 * (r->sim.cycles / rows[0].sim.cycles - 1));
        printf("\n");
    }
    if (!strcmp(ch->source, "tiles"))
        printf("optimized: tiles of %d x %d TBs, %s tile order (relaxation: %.2f x %.2f)\n",
               ch->gx, ch->gy, ch->tile_order ? "column-major" : "row-major",
               ch->gx_continuous, ch->gy_continuous);
    else if (!strcmp(ch->source, "soft"))
        printf("optimized: the soft assignment\n");
    else if (!strcmp(ch->source, "chen-static"))
        printf("optimized: Chen's dispatch decided before launch (chen-static: each SM's TBs\n"
               "           as Chen would place them if every TB took the same time); run the\n"
               "           grouping file (--out)\n");
    else
        printf("optimized: the %s policy (no tile shape predicted faster by more than the\n"
               "           margin); run that policy (a grouping file only places it statically)\n",
               ch->source);
    printf("model evaluations: %d groupings, %d NLopt steps\n", ch->model_evaluations,
           ch->nlopt_evaluations);
}

int cli_group(int argc, char **argv)
{
    const char *gpu = NULL, *kernel = NULL, *trace = NULL, *calib = NULL, *out_path = NULL, *csv = NULL;
    const char *save_calib = NULL, *json_path = NULL;
    long launch = 0;
    double margin = 0.01;
    int no_sim = 0, soft = 0, n_params = 0, rc = 2;
    const char *launch_text = NULL, *margin_text = NULL, *threads_text = NULL;
    long threads = 1;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    char **params = calloc((size_t)argc + 1, sizeof *params);
    if (!params || !operands) {
        free(params);
        free(operands);
        return 2;
    }
    const cli_field fields[] = {
        {"--gpu", &gpu, NULL}, {"--trace", &trace, NULL}, {"--launch", &launch_text, NULL}, {"--calibration", &calib, NULL},
        {"--out", &out_path, NULL}, {"--csv", &csv, NULL}, {"--margin", &margin_text, NULL},
        {"--save-calibration", &save_calib, NULL}, {"--no-sim", NULL, &no_sim}, {"--soft", NULL, &soft},
        {"--json", &json_path, NULL}, {"--threads", &threads_text, NULL}, {NULL, NULL, NULL}};
    int n_ops = 0;
    rc = cli_parse_options("group", argc, argv, 1, fields, operands, argc, &n_ops, usage);
    if (rc >= 0)
        goto out;
    rc = 2;
    if (margin_text) {
        if (!trapeze_parse_double(margin_text, &margin) || margin < 0 || margin >= 100) {
            rc = cli_usage_error("group", "--margin %s: expected a percentage in [0, 100)",
                                 margin_text);
            goto out;
        }
        margin /= 100;
    }
    if (launch_text &&
        (!trapeze_parse_long(launch_text, &launch) || launch < 0 || launch > 1000000)) {
        rc = cli_usage_error("group", "--launch %s: expected a launch index >= 0", launch_text);
        goto out;
    }
    if (cli_threads_value("group", threads_text, &threads))
        goto out;   /* rc is 2 */
    if (n_ops > 0)
        kernel = operands[0];
    for (int i = 1; i < n_ops; i++)
        params[n_params++] = (char *)operands[i];
    if (trace && n_ops > 0) {
        rc = cli_usage_error("group", "--trace %s and KERNEL %s exclude each other", trace,
                             operands[0]);
        goto out;
    }
    if (trace)
        kernel = trace;
    if (!gpu || !kernel) {
        rc = cli_usage_error("group", "%s", !gpu ? "--gpu FILE is required" : "no KERNEL given");
        goto out;
    }
    char gpu_file[4096];
    if (cli_resolve_preset("group", "--gpu", "gpus", ".config", gpu, gpu_file, sizeof gpu_file)) {
        rc = 2;
        goto out;
    }
    gpu = gpu_file;
    rc = 1;
    trapeze_error err = {0};
    const cli_output outputs[] = {{"--csv", csv}, {"--out", out_path},
                                  {"--save-calibration", save_calib}};
    cli_json json = {0};
    if (cli_check_outputs(outputs, 3, CLI_STDOUT_REPORT, json_path, &err) ||
        cli_json_open(&json, "group", json_path, &err)) {
        fprintf(stderr, "trapeze group: %s\n", err.message);
        goto out;
    }
    trapeze_group_params p;
    char calib_path[1024];
    /* without --calibration: the GPU's shipped one, used as is with
     * --no-sim, else the start of the fit to the simulations */
    const char *gpu_calib = NULL;
    if (!calib && cli_group_calibration(gpu, calib_path, sizeof calib_path))
        gpu_calib = calib_path;
    const char *load = calib ? calib : gpu_calib;
    if (load ? trapeze_group_params_load(load, &p, &err) != TRAPEZE_OK
             : (trapeze_group_params_default(&p), 0)) {
        fprintf(stderr, "trapeze group: %s\n", err.message);
        cli_json_abort(&json);
        goto out;
    }
    if (!calib && !gpu_calib && no_sim)
        fprintf(stderr, "note: no calibration for this GPU; the model's constants are uncalibrated defaults\n");
    trapeze_group_problem *pb = NULL;
    trapeze_group_measured sim[N_POLICIES - 1];
    memset(sim, 0, sizeof sim);
    trapeze_group_outcome o;
    memset(&o, 0, sizeof o);
    trapeze_status s =
        trace ? trapeze_group_problem_trace(gpu, trace, (int)launch, &pb, &err)
              : trapeze_group_problem_builtin(gpu, kernel, params, n_params, (int)launch, &pb, &err);
    if (!s)   /* one simulation at a time: each takes every thread */
        trapeze_group_problem_set_threads(pb, (int)threads);
    /* the simulator's policies first: they are the comparison and, without a
     * calibration file, the samples the model is fitted to */
    /* every simulation runs the same launch: they weigh alike */
    cli_progress bar = {.prefix = "group"};
    char detail[64];
    for (int i = 0; !s && !no_sim && i < N_POLICIES - 1; i++) {
        snprintf(detail, sizeof detail, "simulating %s", trapeze_group_policy_name(i));
        cli_progress_update(&bar, i, N_ROWS, "simulations", detail);
        s = trapeze_group_problem_simulate(pb, trapeze_group_policy_name(i), NULL, &sim[i], &err);
    }
    if (!s && !no_sim)   /* decide simulates chen-static, then the choice */
        cli_progress_update(&bar, N_POLICIES - 1, N_ROWS, "simulations",
                            "simulating chen-static and the choice");
    if (!s)
        s = trapeze_group_decide(pb, &p, no_sim ? NULL : sim, NULL, !calib, margin, soft, &o, &err);
    if (!s && !no_sim)
        cli_progress_update(&bar, N_ROWS, N_ROWS, "simulations", "done");
    cli_progress_end(&bar, !s);
    if (!s && save_calib)
        s = trapeze_group_params_save(save_calib, &o.params, &err);
    if (!s && out_path)
        s = trapeze_grouping_save(out_path, &o.grouping, &err);
    row rows[N_ROWS];
    for (int i = 0; i < N_POLICIES - 1; i++)
        rows[i] = (row){o.predicted[i], o.simulated[i], o.pred[i], o.sim[i]};
    rows[N_POLICIES - 1] = (row){!s, o.chen_static_simulated, o.chen_static_pred,
                                 o.chen_static_sim};
    rows[N_POLICIES] = (row){o.predicted[N_POLICIES - 1], o.simulated[N_POLICIES - 1],
                             o.pred[N_POLICIES - 1], o.sim[N_POLICIES - 1]};
    rows[MODEL_ROW] = (row){o.model_simulated, o.model_simulated, o.model_choice.eval,
                            o.model_sim};
    const trapeze_group_choice ch = o.choice;
    const trapeze_fit_report rep = o.fit;
    const int fitted = o.fitted;
    p = o.params;
    if (!s) {
        const trapeze_locality_graph *g = trapeze_group_problem_graph(pb);
        const trapeze_group_machine *mc = trapeze_group_problem_machine(pb);
        /* printed once the work is done: a failed run prints nothing on stdout */
        if (gpu_calib)
            printf("calibration: %s (%s)\n", gpu_calib,
                   no_sim ? "the GPU's, by default" : "the GPU's, the start of the fit");
        printf("kernel %s launch %ld: %ld TBs (grid %d x %d x %d), %d SMs x %d co-resident TBs\n",
               kernel, launch, g->n_tbs, g->grid[0], g->grid[1], g->grid[2], mc->n_sm,
               mc->tbs_per_sm);
        printf("model constants: %s\n", p.source);
        if (fitted)
            printf("fitted to rr, bcs, mst, kway, rbts: rms error %.2f%%, cross-validated %.2f%% (max %.2f%%)\n",
                   100 * rep.rms_rel_error, rep.cv_mape_pct, rep.cv_max_ape_pct);
        if (o.uncertainty >= 0)
            printf("uncertainty of a predicted gain over rr: %.2f%% (%s)\n", 100 * o.uncertainty,
                   fitted ? "cross-validated over the five whole runs" : p.source);
        else
            printf("uncertainty of a predicted gain over rr: not measured (%s); the margin "
                   "alone\n", p.source);
        printf("margin: %.2f%%\n", 100 * o.margin);
        print_table(rows, &ch, !no_sim);
        if (!no_sim)
            print_model_pick(&o);
        if (o.soft_tried)
            printf("soft assignment: predicted %.0f cycles; shared data within queues %.0f of %.0f "
                   "(rounded %.0f, %d refining moves; relaxation %.4f -> %.4f in %d NLopt steps)\n",
                   o.soft_pred_cycles, o.soft.kept, o.soft.total_shared, o.soft.rounded_kept,
                   o.soft.moves, o.soft.relaxed_start, o.soft.relaxed, o.soft.nlopt_evaluations);
        trapeze_json_text(json.j, "kernel", kernel);
        trapeze_json_integer(json.j, "launch", launch);
        trapeze_json_integer(json.j, "tbs", g->n_tbs);
        trapeze_json_integer(json.j, "sms", mc->n_sm);
        trapeze_json_integer(json.j, "tbs_per_sm", mc->tbs_per_sm);
        trapeze_json_text(json.j, "constants", p.source);
        trapeze_json_bool(json.j, "fitted", fitted);
        trapeze_json_number(json.j, "fit_rms_pct", fitted ? 100 * rep.rms_rel_error : NAN);
        trapeze_json_number(json.j, "fit_cv_mape_pct", fitted ? rep.cv_mape_pct : NAN);
        trapeze_json_number(json.j, "gain_uncertainty_pct",
                            o.uncertainty >= 0 ? 100 * o.uncertainty : NAN);
        trapeze_json_number(json.j, "margin_pct", 100 * o.margin);
        json_rows(json.j, rows, no_sim ? N_ROWS - 1 : N_ROWS);
        json_choice(json.j, "optimized", &ch);
        if (!no_sim) {
            json_choice(json.j, "model_pick", &o.model_choice);
            trapeze_json_number(json.j, "model_pick_sim_cycles", o.model_sim.cycles);
            trapeze_json_bool(json.j, "simulation_changed", o.model_changed);
        }
        if (csv)
            s = write_csv(csv, gpu, kernel, (int)launch, rows, no_sim ? N_ROWS - 1 : N_ROWS,
                          &err);
        if (!s)
            s = cli_json_commit(&json, &err);
    }
    cli_json_abort(&json);
    if (s)
        fprintf(stderr, "trapeze group: %s\n", err.message);
    else
        rc = 0;
    trapeze_group_outcome_free(&o);
    trapeze_group_problem_destroy(pb);
out:
    free(operands);
    free(params);
    return rc;
}
