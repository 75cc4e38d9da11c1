/*
 * group_samples.c - the grouping model's samples: one launch of a built-in
 * kernel simulated under one dispatch policy, as rows of the samples log
 * (model "group"), planned for a list of launches and run by the generic
 * runner (run.c: threads, appended the moment each ends, resumed from the
 * log). A launch's samples are sub-grids (group_window.c: a share of the
 * SMs' queues, what the model is fitted to), optionally whole-GPU windows
 * (every queue's first TBs on all SMs: what corrects the model's
 * whole-launch cycles for the contention a sub-grid cannot show), both
 * within the samples' budget, and, for validation, whole runs (the ground
 * truth). Owns the row layout and the plan; the
 * simulations are group_problem.c's and group_window.c's.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sampler/group/gpu_window.h"
#include "trapeze.h"

/* The policies the model compares (the dispatch table's rows before the
 * GIVEN ones, which come last): the names up to the first NULL. */
#define COMPARED_(id, name, ops, kind, help) (kind) != TRAPEZE_TB_GIVEN ? name : NULL,
static const char *const policy_names[TRAPEZE_TB_COUNT + 1] = {
    TRAPEZE_TB_DISPATCH_TABLE(COMPARED_) NULL};
#undef COMPARED_
#define NFIXED TRAPEZE_TB_NFIXED
/* The c-th policy with a fixed grouping: the candidates, sampled in sub-grids. */
static const char *fixed_name(int c)
{
    return trapeze_tb_policies[trapeze_tb_policy_nth(TRAPEZE_TB_FIXED, c)].name;
}
static const char *const program_kinds[] = {"sim", NULL};
#define BIG 1.7976931348623157e308

static const trapeze_field fields[] = {
    {"gpu", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"kernel", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"params", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"launch", TRAPEZE_FIELD_INT, 0, 0, 1e6, NULL},
    {"policy", TRAPEZE_FIELD_TEXT, 0, 0, 0, policy_names},
    {"window_sms", TRAPEZE_FIELD_INT, 0, 0, 1e6, NULL},
    {"window_pct", TRAPEZE_FIELD_REAL, 0, 0, 100, NULL},   /* its most TBs, %; 0: m / SMs */
    {"cycles", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l2_accesses", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"dram_reads", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l1_hits", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"warp_instructions", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"tbs", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
};

static trapeze_status check_row(const trapeze_sample_row *row, const char *path, int line,
                                trapeze_error *err)
{
    if (!(trapeze_row_number(row, "cycles") > 0))
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: field cycles: must be positive", path,
                            line);
    return TRAPEZE_OK;
}

const trapeze_row_schema trapeze_group_sample_schema = {
    .model = "group",
    .nfields = (int)(sizeof fields / sizeof fields[0]),
    .fields = fields,
    .program_kinds = program_kinds,
    .implicit_model = 0,
    .check = check_row,
};

struct trapeze_group_plan {
    char gpu_path[1024];
    int sim_threads;              /* each row's share of the run's threads (set.sim_threads) */
    int n_launches, n_policies, n_windows, n_gpu;
    double window_share;          /* of the SMs, for the sub-grid samples */
    trapeze_sample_row *rows;     /* launch-major: launch i's n_policies whole runs, then its
                                     distinct sub-grids (rr bcs mst kway rbts in turn, each
                                     unless an earlier policy's is the same) */
    int n_rows;
    int *whole_row;               /* [launch * n_policies + k]: its row */
    int *window_row;              /* [launch * NFIXED + k]: the row of candidate k's
                                     sub-grid */
    double *run_insts;            /* [row]: a sub-grid's window of warp instructions
                                     (0: it runs to its end) */
    double *sub_insts;            /* [row]: the warp instructions its TBs hold (the
                                     locality graph's count) */
    int *gpu_row;                 /* [launch * NFIXED + k]: the row of candidate k's
                                     whole-GPU window */
    long *gpu_k;                  /* [row]: a whole-GPU window's TBs a queue (0: not
                                     one) */
    trapeze_group_problem **problems; /* [launch]: the problem its windows were planned
                                         on, kept for the fit (NULL: none built) */
    trapeze_sample_set set;
};

/* An id of letters, digits and ._=- : "jacobi.nx=512.ny=512.l0.rr" (kernel
 * and parameters at most ID_PART characters each, checked by the plan, so
 * that it fits a row's id whole and two launches never share one). */
#define ID_PART 36
static void make_id(char *id, size_t size, const trapeze_group_launch *l, const char *policy)
{
    char params[128], kernel[128];
    snprintf(params, sizeof params, "%s", l->params ? l->params : "");
    snprintf(kernel, sizeof kernel, "%s", l->kernel);   /* a trace's path: '/' to '.' */
    for (char *t = params; t; t = t == params ? kernel : NULL)
        for (char *c = t; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '=' && *c != '_' && *c != '-')
                *c = '.';
    snprintf(id, size, "%.36s%s%.36s.l%d.%.16s", kernel, params[0] ? "." : "", params,
             l->launch, policy);
}

trapeze_status trapeze_group_launch_problem(const char *gpu, const trapeze_group_launch *l,
                                            trapeze_group_problem **out, trapeze_error *err)
{
    if (strchr(l->kernel, '/')) {
        if (l->params && l->params[0])
            return trapeze_fail(err, TRAPEZE_EINVAL, "%s: a trace takes no parameters (%s)",
                                l->kernel, l->params);
        return trapeze_group_problem_trace(gpu, l->kernel, l->launch, out, err);
    }
    char buf[TRAPEZE_ROW_TEXT], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", l->params ? l->params : "");
    for (char *save, *t = strtok_r(buf, " ", &save); t && argc < 32; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    return trapeze_group_problem_builtin(gpu, l->kernel, argv, argc, l->launch, out, err);
}

/* A window sample (sampler/group/group_window.c): the policy's grouping as
 * the model sees it, either its first queues (at most m, at most `share` of
 * the TBs) alone, a sub-grid, or with gpu_k > 0 the first gpu_k TBs of every
 * queue on all SMs at once, a whole-GPU window. */
static trapeze_status run_window(const trapeze_group_problem *pb, const char *policy, int m,
                                 double share, long gpu_k, double insts,
                                 trapeze_group_measured *out, long *tbs, trapeze_error *err)
{
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    trapeze_group_model *model = NULL;
    trapeze_group_window *w = NULL;
    trapeze_grouping g;
    memset(&g, 0, sizeof g);
    trapeze_status s = trapeze_group_create(trapeze_group_problem_graph(pb),
                                            trapeze_group_problem_machine(pb), &p, &model, err);
    if (!s)
        s = trapeze_group_problem_policy_grouping(pb, model, policy, &g, err);
    if (!s)
        s = gpu_k ? trapeze_group_window_create_gpu(pb, &g, gpu_k, &p, &w, err)
                  : trapeze_group_window_create(pb, &g, m, share, &p, &w, err);
    if (!s)
        s = trapeze_group_window_simulate(pb, w, insts, out, err);
    if (!s)
        *tbs = trapeze_group_window_tbs(w);
    trapeze_group_window_destroy(w);
    trapeze_grouping_free(&g);
    trapeze_group_destroy(model);
    return s;
}

/* For the launch of pb: same[k] = the first policy whose sub-grid on m SMs (at
 * most `share` of the TBs) is policy k's (k itself when none before);
 * insts[k] the warp instructions its TBs hold, *launch_insts the launch's. */
static trapeze_status distinct_windows(trapeze_group_problem *pb, int m,
                                       double share, double gpu_frac, int same[NFIXED],
                                       double insts[NFIXED], double *launch_insts,
                                       double *gpu_part, int gsame[NFIXED], long gk[NFIXED],
                                       double ginsts[NFIXED], long *resident,
                                       trapeze_error *err)
{
    trapeze_group_model *model = NULL;
    trapeze_group_window *w[NFIXED] = {NULL}, *gw[NFIXED] = {NULL};
    trapeze_group_params p;
    trapeze_group_params_default(&p);
    trapeze_status s = trapeze_group_create(trapeze_group_problem_graph(pb),
                                            trapeze_group_problem_machine(pb), &p, &model, err);
    *launch_insts = 0;
    const trapeze_locality_graph *graph = s ? NULL : trapeze_group_problem_graph(pb);
    for (long t = 0; graph && graph->warp_insts && t < graph->n_tbs; t++)
        *launch_insts += (double)graph->warp_insts[t];
    *gpu_part = gpu_frac * *launch_insts;
    *resident = s ? 0 : trapeze_group_problem_machine(pb)->tbs_per_sm;
    for (int k = 0; !s && k < NFIXED; k++) {
        trapeze_grouping g;
        memset(&g, 0, sizeof g);
        s = trapeze_group_problem_policy_grouping(pb, model, fixed_name(k), &g, err);
        if (!s)
            s = trapeze_group_window_create(pb, &g, m, share, &p, &w[k], err);
        gk[k] = 0;   /* its whole-GPU window's TBs a queue, 0: none planned */
        if (!s && *gpu_part > 0)
            gk[k] = trapeze_group_gpu_window_tbs(graph, &g, *gpu_part, &ginsts[k]);
        if (!s && gk[k])
            s = trapeze_group_window_create_gpu(pb, &g, gk[k], &p, &gw[k], err);
        trapeze_grouping_free(&g);
        insts[k] = s ? 0 : trapeze_group_window_warp_insts(w[k]);
        same[k] = gsame[k] = k;
        for (int j = 0; !s && j < k && same[k] == k; j++)
            if (same[j] == j && trapeze_group_window_same(w[j], w[k]))
                same[k] = j;
        for (int j = 0; !s && gk[k] && j < k && gsame[k] == k; j++)
            if (gsame[j] == j && trapeze_group_window_same(gw[j], gw[k]))
                gsame[k] = j;
    }
    for (int k = 0; k < NFIXED; k++) {
        trapeze_group_window_destroy(w[k]);
        trapeze_group_window_destroy(gw[k]);
    }
    trapeze_group_destroy(model);
    return s;
}

/* Runs row i: the launch under its policy on a fresh simulator. */
static trapeze_status run_row(const void *ctx, int i, trapeze_sample_row *out, trapeze_error *err)
{
    const trapeze_group_plan *plan = ctx;
    *out = plan->rows[i];
    trapeze_group_problem *pb = NULL;
    trapeze_group_measured m;
    int window = (int)trapeze_row_number(out, "window_sms");
    long tbs = 0;
    const trapeze_group_launch l = {trapeze_row_text(out, "kernel"), trapeze_row_text(out, "params"),
                                  (int)trapeze_row_number(out, "launch")};
    trapeze_status s = trapeze_group_launch_problem(plan->gpu_path, &l, &pb, err);
    if (!s)
        trapeze_group_problem_set_threads(pb, plan->sim_threads);
    if (!s && (plan->gpu_k[i] || window))
        s = run_window(pb, trapeze_row_text(out, "policy"), window,
                       trapeze_row_number(out, "window_pct") / 100, plan->gpu_k[i],
                       plan->run_insts[i], &m, &tbs, err);
    else if (!s) {
        s = trapeze_group_problem_simulate(pb, trapeze_row_text(out, "policy"), NULL, &m, err);
        tbs = trapeze_group_problem_graph(pb)->n_tbs;
    }
    trapeze_group_problem_destroy(pb);
    if (!s) {
        trapeze_row_set_number(out, "cycles", m.cycles);
        trapeze_row_set_number(out, "l2_accesses", m.l2_accesses);
        trapeze_row_set_number(out, "dram_reads", m.dram_reads);
        trapeze_row_set_number(out, "l1_hits", m.l1_hits);
        trapeze_row_set_number(out, "warp_instructions", m.warp_instructions);
        trapeze_row_set_number(out, "tbs", (double)tbs);
    }
    return s;
}

void trapeze_group_plan_destroy(trapeze_group_plan *plan)
{
    if (!plan)
        return;
    free(plan->rows);
    free(plan->whole_row);
    free(plan->window_row);
    free(plan->run_insts);
    free(plan->sub_insts);
    free(plan->gpu_row);
    free(plan->gpu_k);
    for (int i = 0; plan->problems && i < plan->n_launches; i++)
        trapeze_group_problem_destroy(plan->problems[i]);
    free(plan->problems);
    free(plan);
}

const trapeze_group_problem *trapeze_group_plan_problem(const trapeze_group_plan *plan,
                                                        int launch)
{
    return launch >= 0 && launch < plan->n_launches ? plan->problems[launch] : NULL;
}

/* The budget b of a launch's samples: at most b of what its validation
 * simulates, the sub-grids and the six policies' whole runs. So the
 * distinct sub-grids together hold at most 6b / (1 - b) of the launch's
 * warp instructions, each of five at most a fifth of that. */
static double budget_of_launch(double b) { return 6 * b / (1 - b); }

/* The windows of warp instructions of a launch's distinct sub-grids
 * (same[k] == k; insts[k] what their TBs hold, of the launch's
 * launch_insts) under their part sub_part of budget b (the whole-GPU
 * windows take the rest): out[k] 0 (to its end) where it fits or no
 * count is known. rr's runs whole when it fits the launch's budget: every
 * gain is taken against it, and the decision falls back to it. The others
 * share what is left equally, each whole where its part holds it. */
static void window_insts(double b, double sub_part, const int same[NFIXED],
                         const double insts[NFIXED], double launch_insts, double out[NFIXED])
{
    double left = sub_part * budget_of_launch(b) * launch_insts;
    int n_left = 0;
    for (int k = 0; k < NFIXED; k++) {
        out[k] = 0;
        n_left += same[k] == k;
    }
    for (int k = 0; b > 0 && k < NFIXED; k++) {
        if (same[k] != k || !(insts[k] > 0))
            continue;
        const double part = k == 0 ? left : left / n_left;
        if (insts[k] > part)
            out[k] = ceil(part);
        left -= insts[k] > part ? part : insts[k];
        n_left--;
    }
}

/* The keys of a planned row; non-zero when a text is too long. */
static int set_keys(trapeze_sample_row *r, const char *gpu_name, const trapeze_group_launch *l,
                    const char *policy, int window_sms, double window_pct)
{
    return trapeze_row_set_text(r, "gpu", gpu_name) ||
           trapeze_row_set_text(r, "kernel", l->kernel) ||
           trapeze_row_set_text(r, "params", l->params ? l->params : "") ||
           trapeze_row_set_number(r, "launch", l->launch) ||
           trapeze_row_set_text(r, "policy", policy) ||
           trapeze_row_set_number(r, "window_sms", window_sms) ||
           trapeze_row_set_number(r, "window_pct", window_pct);
}

static trapeze_status too_long(const char *id, trapeze_error *err)
{
    return trapeze_fail(err, TRAPEZE_EINVAL, "%s: kernel, parameters or GPU name too long for "
                        "a samples row (%d characters)", id, TRAPEZE_ROW_TEXT - 1);
}

trapeze_status trapeze_group_plan_create(const char *gpu_config_path, const char *gpu_name,
                                         const trapeze_group_launch *l, int n, int with_chen,
                                         int whole, double window_share, double window_tbs,
                                         double budget, double gpu_share,
                                         trapeze_group_plan **out, trapeze_error *err)
{
    *out = NULL;
    if (!(budget >= 0 && budget <= 0.5))
        return trapeze_fail(err, TRAPEZE_ERANGE, "a samples budget of %g of the work: expected "
                            "0 (none) to 0.5", budget);
    if (!(gpu_share >= 0 && gpu_share < 1) || (gpu_share > 0 && !(budget > 0)))
        return trapeze_fail(err, TRAPEZE_ERANGE, "the whole-GPU windows' part %g of the "
                            "samples' budget: expected 0 (none) to below 1, with a budget",
                            gpu_share);
    trapeze_group_plan *plan = calloc(1, sizeof *plan);
    int np = !whole ? 0 : with_chen ? TRAPEZE_TB_NCOMPARED : NFIXED;
    int nw = window_share > 0 ? NFIXED : 0;
    int ng = nw && gpu_share > 0 ? NFIXED : 0;
    size_t nl = (size_t)(n > 0 ? n : 1), per = (size_t)(np + nw + ng + 1);
    if (!plan || !(plan->rows = calloc(nl * per, sizeof *plan->rows)) ||
        !(plan->whole_row = calloc(nl * TRAPEZE_TB_NCOMPARED, sizeof *plan->whole_row)) ||
        !(plan->window_row = calloc(nl * NFIXED, sizeof *plan->window_row)) ||
        !(plan->gpu_row = calloc(nl * NFIXED, sizeof *plan->gpu_row)) ||
        !(plan->gpu_k = calloc(nl * per, sizeof *plan->gpu_k)) ||
        !(plan->run_insts = calloc(nl * per, sizeof *plan->run_insts)) ||
        !(plan->sub_insts = calloc(nl * per, sizeof *plan->sub_insts)) ||
        !(plan->problems = calloc(nl, sizeof *plan->problems))) {
        trapeze_group_plan_destroy(plan);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    }
    snprintf(plan->gpu_path, sizeof plan->gpu_path, "%s", gpu_config_path);
    plan->n_launches = n;
    plan->n_policies = np;
    plan->n_windows = nw;
    plan->n_gpu = ng;
    plan->window_share = window_share;
    /* the sub-grids' part of the budget where a launch has whole-GPU
     * windows, all of it where it has none */
    const double sub_part = 1 - gpu_share;
    double tbs_all = window_tbs;   /* the sub-grids' share of the TBs without windows */
    int by_budget_all = 0;
    int m = 0;   /* the sub-grid's SMs: a share of the GPU's */
    int m_all = 0;   /* the GPU's: a whole-GPU window's */
    int by_budget = 0;   /* the budget set the share of the TBs */
    if (nw) {
        trapeze_config *cfg = NULL;
        trapeze_gpu gpu;
        trapeze_status gs = trapeze_config_load(gpu_config_path, &cfg, err);
        if (!gs)
            gs = trapeze_gpu_from_config(cfg, &gpu, err);
        trapeze_config_destroy(cfg);
        if (gs) {
            trapeze_group_plan_destroy(plan);
            return gs;
        }
        m_all = gpu.n_sm;
        m = (int)floor(window_share * gpu.n_sm + 0.5);
        m = m < 1 ? 1 : m > gpu.n_sm ? gpu.n_sm : m;
        /* no share given: the budget's fifth of it, where m SMs' queues
         * would hold more (GTX 480: 6.32% of the TBs, against 1 SM of 15) */
        const double fifth = budget_of_launch(budget) / NFIXED;
        if (!(window_tbs > 0) && budget > 0 && fifth < (double)m / gpu.n_sm) {
            tbs_all = fifth;
            by_budget_all = 1;
        }
        if (!(window_tbs > 0) && budget > 0 && sub_part * fifth < (double)m / gpu.n_sm) {
            window_tbs = sub_part * fifth;
            by_budget = 1;
        }
    }
    trapeze_status s = TRAPEZE_OK;
    for (int i = 0; i < n && !s; i++)
        if (strlen(l[i].kernel) > ID_PART || (l[i].params && strlen(l[i].params) > ID_PART))
            s = trapeze_fail(err, TRAPEZE_EINVAL, "%.36s...: kernel name and parameters are "
                             "limited to %d characters each in a samples log", l[i].kernel,
                             ID_PART);
    int nr = 0;
    for (int i = 0; i < n && !s; i++) {
        int same[NFIXED], gsame[NFIXED];
        long gk[NFIXED] = {0};
        double insts[NFIXED] = {0}, launch_insts = 0, run[NFIXED] = {0}, ginsts[NFIXED] = {0};
        for (int k = 0; k < NFIXED; k++)
            same[k] = gsame[k] = k;
        /* each candidate's whole-GPU window: an equal part of the windows' */
        const double gpu_frac = ng ? gpu_share * budget_of_launch(budget) / NFIXED : 0;
        double gpu_part = 0;
        long x = 0;   /* the TBs an SM runs at once */
        /* the launch's problem (its locality graph, the costliest part)
         * built once for both calls below and kept for the fit */
        trapeze_group_problem *pb = NULL;
        if (nw)
            s = trapeze_group_launch_problem(gpu_config_path, &l[i], &pb, err);
        plan->problems[i] = pb;
        if (!s && nw)
            s = distinct_windows(pb, m, window_tbs, gpu_frac, same, insts,
                                 &launch_insts, &gpu_part, gsame, gk, ginsts, &x, err);
        /* windows only where every candidate's holds a full wave, x TBs
         * a queue, within its part: a shorter one measures a launch's start
         * (GTX 480 matmul n=256, cut to the first 3.2% of a wave and
         * extrapolated: every candidate's factor 0.64; Jacobi 512^2, 2 TBs
         * a queue of 6 resident: rr 0.69, the others 0.92-1.27, and the
         * held-out u of a gain over the 12 launches 5.78% -> 17.05%); else
         * the whole budget to the sub-grids, as without windows */
        for (int c = 0; c < NFIXED; c++)
            plan->gpu_row[i * NFIXED + c] = -1;   /* none, unless planned below */
        int lg = ng;
        for (int c = 0; c < NFIXED && lg; c++)
            lg = gk[c] >= x && ginsts[c] > 0 && ginsts[c] <= gpu_part;
        const double lw_tbs = lg ? window_tbs : tbs_all;
        const int l_by = lg ? by_budget : by_budget_all;
        if (!s && nw && !lg && ng)
            s = distinct_windows(pb, m, lw_tbs, 0, same, insts,
                                 &launch_insts, &gpu_part, gsame, gk, ginsts, &x, err);
        if (!s)
            window_insts(budget, lg ? sub_part : 1, same, insts, launch_insts, run);
        for (int k = 0; k < np + nw + (lg ? ng : 0) && !s; k++) {
            int win = k >= np && k < np + nw, gwin = k >= np + nw, c = k - np - (gwin ? nw : 0);
            if (win && same[c] != c) {   /* an earlier policy's run serves */
                plan->window_row[i * NFIXED + c] = plan->window_row[i * NFIXED + same[c]];
                continue;
            }
            if (gwin && gsame[c] != c) {
                plan->gpu_row[i * NFIXED + c] = plan->gpu_row[i * NFIXED + gsame[c]];
                continue;
            }
            if (gwin) {
                plan->gpu_row[i * NFIXED + c] = nr;
                plan->gpu_k[nr] = gk[c];
                plan->sub_insts[nr] = ginsts[c];
                trapeze_sample_row *r = &plan->rows[nr++];
                char id[sizeof r->id], pid[96];
                /* ...POLICY.gK: every queue's first K TBs */
                snprintf(pid, sizeof pid, "%s.g%ld", fixed_name(c), gk[c]);
                make_id(id, sizeof id, &l[i], pid);
                trapeze_row_init(r, &trapeze_group_sample_schema, id, "sim");
                if (set_keys(r, gpu_name, &l[i], fixed_name(c), m_all, 0))
                    s = too_long(id, err);
                continue;
            }
            const char *pol = win ? fixed_name(c) : with_chen ? policy_names[k] : fixed_name(k);
            if (win)
                plan->window_row[i * NFIXED + c] = nr;
            else
                plan->whole_row[i * np + k] = nr;
            if (win) {
                plan->sub_insts[nr] = insts[c];
                plan->run_insts[nr] = run[c];
            }
            const double wi = plan->run_insts[nr];
            trapeze_sample_row *r = &plan->rows[nr++];
            char id[sizeof r->id], pid[96], tbs[24] = "", tail[40] = "";
            if (lw_tbs > 0 && !l_by)   /* ...POLICY.wMtPCT: a share of the TBs given */
                snprintf(tbs, sizeof tbs, "t%g", 100 * lw_tbs);
            if ((l_by || wi > 0) && lg)   /* ...POLICY.wM[tPCT]bBgG: what budget B% made
                                           * of it, G% of it the whole-GPU windows' */
                snprintf(tail, sizeof tail, "b%gg%g", 100 * budget, 100 * gpu_share);
            else if (l_by || wi > 0)      /* ...POLICY.wM[tPCT]bB */
                snprintf(tail, sizeof tail, "b%g", 100 * budget);
            if (!win)
                snprintf(pid, sizeof pid, "%s", pol);
            else
                snprintf(pid, sizeof pid, "%s.w%d%s%s", pol, m, tbs, tail);
            make_id(id, sizeof id, &l[i], pid);
            trapeze_row_init(r, &trapeze_group_sample_schema, id, "sim");
            if (set_keys(r, gpu_name, &l[i], pol, win ? m : 0, win ? 100 * lw_tbs : 0))
                s = too_long(id, err);
        }
    }
    plan->n_rows = nr;
    plan->sim_threads = 1;
    plan->set = (trapeze_sample_set){&trapeze_group_sample_schema, nr, plan->rows, run_row, plan,
                                     NULL, &plan->sim_threads};
    if (s) {
        trapeze_group_plan_destroy(plan);
        return s;
    }
    *out = plan;
    return TRAPEZE_OK;
}

const trapeze_sample_set *trapeze_group_plan_set(const trapeze_group_plan *plan)
{
    return &plan->set;
}

trapeze_status trapeze_group_plan_measured(const trapeze_group_plan *plan,
                                           const trapeze_sample_log *log, int launch,
                                           trapeze_group_measured sim[TRAPEZE_TB_NCOMPARED],
                                           trapeze_error *err)
{
    memset(sim, 0, TRAPEZE_TB_NCOMPARED * sizeof *sim);
    for (int k = 0; k < plan->n_policies; k++) {
        const trapeze_sample_row *planned = &plan->rows[plan->whole_row[launch * plan->n_policies + k]];
        const trapeze_sample_row *r = trapeze_sample_log_find_row(log, planned->id);
        if (!r)
            return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s is not in the log", planned->id);
        const char *pol = trapeze_row_text(r, "policy");
        int slot = trapeze_tb_policy_find(pol);
        if (slot < 0 || slot >= TRAPEZE_TB_NCOMPARED)
            return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s: policy '%s' is not one the "
                                "grouping model compares", planned->id, pol);
        sim[slot].cycles = trapeze_row_number(r, "cycles");
        sim[slot].l2_accesses = trapeze_row_number(r, "l2_accesses");
        sim[slot].dram_reads = trapeze_row_number(r, "dram_reads");
        sim[slot].l1_hits = trapeze_row_number(r, "l1_hits");
        sim[slot].warp_instructions = trapeze_row_number(r, "warp_instructions");
        sim[slot].tbs = trapeze_row_number(r, "tbs");
    }
    return TRAPEZE_OK;
}

/* A window of a sub-grid's warp instructions stands for the whole
 * sub-grid: its cycles and accesses times the sub-grid's instructions over
 * the window's (the TBs' rate taken as steady); the work stays what ran. */
static void extrapolate(const trapeze_group_plan *plan, int row, trapeze_group_measured *m)
{
    const double ran = m->warp_instructions, all = plan->sub_insts[row];
    if (!(plan->run_insts[row] > 0) || !(ran > 0) || ran >= all)
        return;
    const double k = all / ran;
    m->cycles *= k;
    m->l2_accesses *= k;
    m->dram_reads *= k;
    m->l1_hits *= k;
}

trapeze_status trapeze_group_plan_windows(const trapeze_group_plan *plan,
                                          const trapeze_sample_log *log, int launch,
                                          trapeze_group_measured meas[TRAPEZE_TB_NFIXED],
                                          int *window_sms, double *window_share, double *work,
                                          trapeze_error *err)
{
    memset(meas, 0, NFIXED * sizeof *meas);
    *window_sms = 0;
    *window_share = 0;
    *work = 0;
    if (!plan->n_windows)
        return trapeze_fail(err, TRAPEZE_EINVAL, "the plan has no sub-grid samples");
    for (int k = 0; k < NFIXED; k++) {
        const trapeze_sample_row *planned = &plan->rows[plan->window_row[launch * NFIXED + k]];
        const trapeze_sample_row *r = trapeze_sample_log_find_row(log, planned->id);
        if (!r)
            return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s is not in the log", planned->id);
        meas[k].cycles = trapeze_row_number(r, "cycles");
        meas[k].l2_accesses = trapeze_row_number(r, "l2_accesses");
        meas[k].dram_reads = trapeze_row_number(r, "dram_reads");
        meas[k].l1_hits = trapeze_row_number(r, "l1_hits");
        meas[k].warp_instructions = trapeze_row_number(r, "warp_instructions");
        meas[k].tbs = trapeze_row_number(r, "tbs");   /* not extrapolated: a rate per TB */
        extrapolate(plan, plan->window_row[launch * NFIXED + k], &meas[k]);
        *window_sms = (int)trapeze_row_number(r, "window_sms");
        *window_share = trapeze_row_number(r, "window_pct") / 100;
        int first = 1;   /* a run shared by several policies counts once */
        for (int j = 0; j < k; j++)
            first &= plan->window_row[launch * NFIXED + j] !=
                     plan->window_row[launch * NFIXED + k];
        if (first)
            *work += meas[k].warp_instructions;
    }
    return TRAPEZE_OK;
}

trapeze_status trapeze_group_plan_gpu_windows(const trapeze_group_plan *plan,
                                              const trapeze_sample_log *log, int launch,
                                              trapeze_group_measured meas[TRAPEZE_TB_NFIXED],
                                              long k[TRAPEZE_TB_NFIXED], double *work,
                                              trapeze_error *err)
{
    memset(meas, 0, NFIXED * sizeof *meas);
    memset(k, 0, NFIXED * sizeof *k);
    *work = 0;
    for (int c = 0; plan->n_gpu && c < NFIXED; c++) {
        const int row = plan->gpu_row[launch * NFIXED + c];
        if (row < 0)   /* the launch has none */
            continue;
        const trapeze_sample_row *r = trapeze_sample_log_find_row(log, plan->rows[row].id);
        if (!r)
            return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s is not in the log",
                                plan->rows[row].id);
        meas[c].cycles = trapeze_row_number(r, "cycles");
        meas[c].l2_accesses = trapeze_row_number(r, "l2_accesses");
        meas[c].dram_reads = trapeze_row_number(r, "dram_reads");
        meas[c].l1_hits = trapeze_row_number(r, "l1_hits");
        meas[c].warp_instructions = trapeze_row_number(r, "warp_instructions");
        extrapolate(plan, row, &meas[c]);
        k[c] = plan->gpu_k[row];
        int first = 1;   /* a run shared by several policies counts once */
        for (int j = 0; j < c; j++)
            first &= plan->gpu_row[launch * NFIXED + j] != row;
        if (first)
            *work += meas[c].warp_instructions;
    }
    return TRAPEZE_OK;
}
