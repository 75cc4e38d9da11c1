/*
 * cmd_sleep.c - `trapeze sleep`: argument parsing and printing for the
 * sleep-threshold model. Reads idle-period histograms, picks each
 * structure's policy preset (Snooze for the caches, Slumber for the
 * register file, as the simulator runs them), and prints the thresholds the
 * library chooses next to the seed's and the oracle's. Every computation is
 * a library call.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/calib_sleep.h"
#include "cli/commands.h"
#include "common/text.h"
#include "trapeze.h"

#define MAX_PARAMS 16

typedef struct {
    const char *gpu, *power, *idle_csv, *csv, *kernel, *json;
    const char *sample_csv;             /* --sample-csv: the sample's histograms */
    trapeze_json_out *j;                /* --json's document (NULL: none) */
    char *params[MAX_PARAMS];   /* name=value settings of a built-in KERNEL */
    int nparams;
    int want[TRAPEZE_PS_SLEEPABLE];
    double max_penalty, cycles, lead;   /* lead < 0: the preset's */
    double window;                      /* cycles of the run sampled; 0: whole */
    double spread;                      /* later windows: spread/5 in every spread; 0: none */
    int fit, sampled;                   /* sampled: histograms from a window here */
    int jump;                           /* a jump sample where it is cheaper (--no-jump: 0) */
    double cap;                         /* --cap: the jump sample's share of the run (0: none) */
    int any_gpu;                        /* --any-gpu: an --idle-csv of another GPU */
    int sim_threads;                    /* --sim-threads: the simulation's threads */
    int warm;                           /* --warm: the capped sample's later windows warm */
} sleep_args;

static void usage(FILE *out)
{
    fprintf(out,
"usage: trapeze sleep --gpu NAME|FILE KERNEL|WORKLOAD [name=value ...] [options]\n"
"       trapeze sleep --gpu NAME|FILE --idle-csv FILE [KERNEL] [options]\n"
"\n"
"Chooses the sleep thresholds of the L1D, L2 and register file that save the\n"
"most leakage with the exposed wake-up penalty within a budget, from the\n"
"idle-period histograms of a simulation (the break-even model of docs/sleep.md:\n"
"smooth in the thresholds, exact gradients, NLopt SLSQP from several starts).\n"
"Caches follow Snooze (time-out, woken by the request queue 3 cycles ahead;\n"
"gated only when dead), the register file Slumber (predicted length, deep and\n"
"gated woken by a countdown, shallow by the 3-warp look-ahead). Printed next\n"
"to the seed's fixed thresholds (Snooze 2; Slumber 4/13/16) and the oracle.\n"
"\n"
"options:\n"
"  --gpu NAME|FILE      GPU config (gtx480, v100, ...): SM count and clock\n"
"  --power NAME|FILE    power description with the sleep modes (default:\n"
"                       data/power/GPU.ini; an Accel-Sim folder SMnn_NAME reads\n"
"                       NAME in lower case: SM86_RTX3070 -> rtx3070.ini)\n"
"  --idle-csv FILE      idle-period histograms (trapeze sim --idle-csv): columns\n"
"                       gpu,kernel,structure,granularity,length_min_cycles,\n"
"                       length_max_cycles,next_access,count; every row's gpu\n"
"                       must be --gpu's name\n"
"  --any-gpu            use an --idle-csv made on another GPU\n"
"  KERNEL [name=value]  without --idle-csv: simulate a short window of this\n"
"                       built-in kernel (trapeze sim --list) always on and use its\n"
"                       idle periods and cycles; with --idle-csv: only this\n"
"                       kernel's histograms\n"
"  WORKLOAD [size=AxB iters=N h=N sync=relaunch|fence]  a stencil (preset or\n"
"                       INI) instead of a built-in kernel\n"
"  --window N           cycles of the first window (default 20000): a period\n"
"                       still open at the cut ends as the completed periods\n"
"                       longer than it did; one older than all of them is dead,\n"
"                       or a write for the L2 frames that the footprint not yet\n"
"                       fetched will take; the fit's goodness (Kolmogorov-\n"
"                       Smirnov) is printed\n"
"  --jump               (default) a jump sample where it costs under half the\n"
"                       run (at the first window's rate): the first window,\n"
"                       then 8 windows of 2000 cycles whose simulation starts\n"
"                       at a later block, loop trip or launch (4000 cycles\n"
"                       warm-up, not recorded) and the end of up to 4\n"
"                       launches, weighted by warp instructions, the warp\n"
"                       tails stretched from the ends (docs/sleep.md); else\n"
"                       the spread sample\n"
"  --cap F              a jump sample of at most the share F of the run (0.25:\n"
"                       a quarter), planned at the first window's rate: fewer\n"
"                       windows and ends, the first window shortened, where\n"
"                       the whole plan costs more; on a short run the windows\n"
"                       halved (to 500 + 250 cycles at least); a run too\n"
"                       short even then is simulated whole, the sample\n"
"                       it prints, with what the least plan would cost\n"
"                       (docs/sleep.md)\n"
"  --warm               with --cap, on one launch of 8 waves or more: the later\n"
"                       windows warm, the first window (a tenth of the run's\n"
"                       work) continued with its dispatcher moved on, a\n"
"                       block's life of warm-up and one recorded, as many as\n"
"                       fit the cap (docs/sleep.md)\n"
"  --no-jump            the spread sample always\n"
"  --spread N           the spread sample: then a window of N/5 cycles in every\n"
"                       N cycles to the run's end; a period counts if it\n"
"                       overlaps a window, weighted by the inverse of its\n"
"                       chance to, so that one longer than the gaps counts\n"
"                       once (default 2500; the run is simulated through, its\n"
"                       cost; 0: the first window only, cut there)\n"
"  --whole              simulate the whole run instead of a window\n"
"  --sim-threads N      split each simulated cycle across N threads (1-64;\n"
"                       default 1): the same bytes as one thread\n"
"  --structures LIST    comma-separated subset of l1d,l2,rf (default: all)\n"
"  --max-penalty F      budget of exposed wake-up cycles, a fraction of the SM\n"
"                       cycles (default 0.01: 1%%)\n"
"  --cycles N           cycles the histograms cover (default: estimated, one\n"
"                       instance per dead period); at least their longest period\n"
"  --lead N             cycles of warning before an access (default 3)\n"
"  --fit                optimize on the fitted distribution (short periods as\n"
"                       observed, a two-log-normal tail) and print its fit\n"
"  --sample-csv FILE    the sampled histograms as an idle-period CSV (the\n"
"                       columns of --idle-csv; counts weighted, so not whole):\n"
"                       --idle-csv FILE --cycles N reads them back, N the\n"
"                       cycles the sample stands for (printed)\n"
"  --csv FILE           one row per kernel, structure, granularity, choice\n"
"                       (model, seed, oracle) and mode: threshold_cycles,\n"
"                       break_even_cycles, mode_cycles_fraction, saving_fraction,\n"
"                       penalty_fraction\n"
"  --json FILE          the choices as one JSON document (docs/json.md); - for\n"
"                       stdout (the text then on stderr)\n"
"  -h, --help           show this help\n");
}

static int parse_structures(const char *v, sleep_args *a)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    memset(a->want, 0, sizeof a->want);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
            if (!strcmp(t, trapeze_power_structure_name((trapeze_power_structure)s)))
                a->want[s] = found = 1;
        if (!found)
            return cli_usage_error("sleep", "--structures: '%s' is not l1d, l2 or rf", t);
    }
    return -1;
}

/* A number option's text into *out, checked: 0; else the usage error's status. */
static int number(const char *opt, const char *text, double lo, int lo_open, const char *want,
                  double *out)
{
    if (!text || (trapeze_parse_double(text, out) && (lo_open ? *out > lo : *out >= lo)))
        return 0;
    return cli_usage_error("sleep", "%s: expected %s, got '%s'", opt, want, text);
}

/* Returns -1 when parsed, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, sleep_args *a)
{
    const char *structures = NULL, *penalty = NULL, *cycles = NULL, *lead = NULL,
               *window = NULL, *spread = NULL, *cap = NULL, *threads = NULL;
    int whole = 0, jump = 0, no_jump = 0;
    const cli_field fields[] = {
        {"--gpu", &a->gpu, NULL}, {"--power", &a->power, NULL},
        {"--idle-csv", &a->idle_csv, NULL}, {"--csv", &a->csv, NULL},
        {"--structures", &structures, NULL}, {"--max-penalty", &penalty, NULL},
        {"--cycles", &cycles, NULL}, {"--lead", &lead, NULL}, {"--fit", NULL, &a->fit},
        {"--window", &window, NULL}, {"--spread", &spread, NULL}, {"--whole", NULL, &whole},
        {"--jump", NULL, &jump}, {"--no-jump", NULL, &no_jump}, {"--cap", &cap, NULL},
        {"--warm", NULL, &a->warm}, {"--any-gpu", NULL, &a->any_gpu}, {"--json", &a->json, NULL},
        {"--sim-threads", &threads, NULL}, {"--sample-csv", &a->sample_csv, NULL},
        {NULL, NULL, NULL}};
    const char **ops = calloc((size_t)argc + 1, sizeof *ops);
    int n_ops = 0;
    if (!ops)
        return 2;
    int rc = cli_parse_options("sleep", argc, argv, 1, fields, ops, argc, &n_ops, usage);
    for (int i = 0; rc < 0 && i < n_ops; i++) {
        if (!a->kernel)
            a->kernel = ops[i];
        else if (a->nparams < MAX_PARAMS && strchr(ops[i], '='))
            a->params[a->nparams++] = (char *)ops[i];
        else
            rc = cli_usage_error("sleep", "'%s': one KERNEL and its name=value settings", ops[i]);
    }
    free(ops);
    if (rc >= 0)
        return rc;
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        a->want[s] = 1;
    a->max_penalty = 0.01;
    a->lead = -1;
    a->window = 20000;
    a->spread = TRAPEZE_SLEEP_SPREAD_DEFAULT;
    if (structures && (rc = parse_structures(structures, a)) >= 0)
        return rc;
    if ((rc = number("--max-penalty", penalty, 0, 0, "a fraction in [0, 1]", &a->max_penalty)) ||
        (a->max_penalty > 1 && (rc = cli_usage_error("sleep", "--max-penalty: expected a "
                                                     "fraction in [0, 1], got '%s'", penalty))) ||
        (rc = number("--cycles", cycles, 0, 1, "a positive number", &a->cycles)) ||
        (rc = number("--lead", lead, 0, 0, "cycles >= 0", &a->lead)) ||
        (rc = number("--window", window, 1, 0, "cycles >= 1", &a->window)) ||
        (rc = number("--spread", spread, 0, 0, "cycles >= 0", &a->spread)) ||
        (rc = number("--cap", cap, 0, 1, "a fraction in (0, 1]", &a->cap)) ||
        (a->cap > 1 && (rc = cli_usage_error("sleep", "--cap: expected a fraction in (0, 1], "
                                             "got '%s'", cap))))
        return rc;
    long n_threads = 1;
    if (threads && (!trapeze_parse_long(threads, &n_threads) || n_threads < 1 || n_threads > 64))
        return cli_usage_error("sleep", "--sim-threads %s: expected a whole number from 1 to 64",
                               threads);
    a->sim_threads = (int)n_threads;
    int window_given = window || spread, jump_given = jump | (no_jump << 1);
    if (!a->gpu)
        return cli_usage_error("sleep", "--gpu is required");
    if (!a->idle_csv && !a->kernel)
        return cli_usage_error("sleep", "a built-in KERNEL to simulate, or --idle-csv FILE");
    if (whole && window_given)
        return cli_usage_error("sleep", "--window or --spread and --whole: one or the other");
    if (a->idle_csv && (whole || window_given))
        return cli_usage_error("sleep", "--window and --whole simulate a KERNEL, not with "
                               "--idle-csv");
    if (a->sample_csv && a->idle_csv)
        return cli_usage_error("sleep", "--sample-csv writes a KERNEL's sample, not with "
                               "--idle-csv");
    if (a->any_gpu && !a->idle_csv)
        return cli_usage_error("sleep", "--any-gpu is for an --idle-csv made on another GPU");
    if (jump_given == 3)
        return cli_usage_error("sleep", "--jump and --no-jump: one or the other");
    a->jump = jump_given != 2;
    if (a->cap > 0 && (!a->jump || whole || a->idle_csv))
        return cli_usage_error("sleep", "--cap is for a jump sample: not with --no-jump, --whole "
                               "or --idle-csv");
    if (a->warm && !(a->cap > 0))
        return cli_usage_error("sleep", "--warm is for the capped sample's later windows: "
                               "with --cap");
    if (whole)
        a->window = 0;
    if (a->idle_csv && a->nparams)
        return cli_usage_error("sleep", "'%s': settings only for a KERNEL simulated here, not "
                               "with --idle-csv", a->params[0]);
    return -1;
}

/* The simulator's policy for each structure (sim/power/snooze.c, slumber.c). */
static void preset(trapeze_power_structure s, const trapeze_sleep_structure *st,
                   const sleep_args *a, trapeze_sleep_options *o, const char **name)
{
    *name = trapeze_sleep_options_preset(s, st, o);
    if (a->lead >= 0)
        o->lead_cycles = a->lead;
}

static const char *const csv_columns[] = {
    "gpu", "kernel", "structure", "granularity", "policy", "choice", "mode", "threshold_cycles",
    "break_even_cycles", "mode_cycles_fraction", "saving_fraction", "penalty_fraction"};

static trapeze_status write_rows(trapeze_csv_out *csv, const trapeze_idle_hist *h,
                                 const char *policy, const trapeze_sleep_structure *st,
                                 const trapeze_sleep_choice *c, trapeze_error *err)
{
    static const char *const choice[] = {"model", "seed", "oracle"};
    const trapeze_sleep_eval *ev[] = {&c->chosen, &c->seed, &c->oracle};
    const double *theta[] = {c->theta_int, c->seed_theta, NULL};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < st->n_modes; i++) {
            trapeze_csv_text(csv, h->gpu);
            trapeze_csv_text(csv, h->kernel);
            trapeze_csv_text(csv, h->structure);
            trapeze_csv_text(csv, h->granularity);
            trapeze_csv_text(csv, policy);
            trapeze_csv_text(csv, choice[k]);
            trapeze_csv_text(csv, st->mode[i].name);
            if (theta[k])
                trapeze_csv_number(csv, theta[k][i]);
            else
                trapeze_csv_text(csv, "");
            trapeze_csv_number(csv, trapeze_sleep_break_even(&st->mode[i]));
            trapeze_csv_number(csv, ev[k]->mode_cycles[i + 1] / ev[k]->idle_cycles);
            trapeze_csv_number(csv, ev[k]->saving_fraction);
            trapeze_csv_number(csv, ev[k]->penalty_fraction);
            trapeze_status s = trapeze_csv_end_row(csv, err);
            if (s)
                return s;
        }
    return TRAPEZE_OK;
}

static void print_choice(const trapeze_idle_hist *h, const char *policy,
                         const trapeze_sleep_options *o, const trapeze_sleep_structure *st,
                         const trapeze_sleep_choice *c, double budget)
{
    printf("%s %s %s/%s: %s (%s, lead %g), %.0f idle periods, %.1f%% of the cycles idle\n",
           h->gpu, h->kernel, h->structure, h->granularity, policy,
           trapeze_sleep_policy_name(o->policy), o->lead_cycles, c->chosen.periods,
           100 * c->chosen.idle_cycles / c->chosen.leak_on_cycles);
    /* E/dP: the energy break-even E_tr / (P_on - P_off) in cycles; T_be adds
     * the cycles the wake-up loses */
    printf("  %-8s %7s %6s %6s %8s %9s %7s\n", "mode", "E/dP", "T_be", "seed", "model",
           "(theta*)", "cycles");
    for (int i = 0; i < st->n_modes; i++)
        printf("  %-8s %7.2f %6.2f %6g %8g %9.2f %6.1f%%\n", st->mode[i].name,
               trapeze_sleep_energy_break_even(&st->mode[i]),
               trapeze_sleep_break_even(&st->mode[i]), c->seed_theta[i], c->theta_int[i],
               c->theta[i], 100 * c->chosen.mode_cycles[i + 1] / c->chosen.idle_cycles);
    printf("  leakage saved: model %.2f%%, seed %.2f%%, oracle %.2f%%; penalty: model %.3f%% "
           "+- %.3f%% (held to %.3f%%), seed %.3f%% (budget %.3g%%)\n",
           100 * c->chosen.saving_fraction, 100 * c->seed.saving_fraction,
           100 * c->oracle.saving_fraction, 100 * c->chosen.penalty_fraction,
           100 * c->chosen.penalty_sigma, 100 * c->held_penalty, 100 * c->seed.penalty_fraction,
           100 * budget);
    if (!c->feasible)
        printf("  BUDGET NOT MET: the least penalty found is held to %.3f%%, %.3f points over the "
               "%.3g%% budget\n", 100 * c->held_penalty, 100 * (c->held_penalty - budget),
               100 * budget);
}

/* One structure's choice in the document (an object of "choices"). */
static void json_choice(trapeze_json_out *j, const trapeze_idle_hist *h, const char *policy,
                        const trapeze_sleep_options *o, const trapeze_sleep_structure *st,
                        const trapeze_sleep_choice *c, double budget)
{
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "gpu", h->gpu);
    trapeze_json_text(j, "kernel", h->kernel);
    trapeze_json_text(j, "structure", h->structure);
    trapeze_json_text(j, "granularity", h->granularity);
    trapeze_json_text(j, "policy", policy);
    trapeze_json_text(j, "preset", trapeze_sleep_policy_name(o->policy));
    trapeze_json_number(j, "lead_cycles", o->lead_cycles);
    trapeze_json_number(j, "idle_periods", c->chosen.periods);
    trapeze_json_number(j, "idle_fraction", c->chosen.idle_cycles / c->chosen.leak_on_cycles);
    trapeze_json_array(j, "modes");
    for (int i = 0; i < st->n_modes; i++) {
        trapeze_json_object(j, NULL);
        trapeze_json_text(j, "mode", st->mode[i].name);
        trapeze_json_number(j, "energy_break_even_cycles",
                            trapeze_sleep_energy_break_even(&st->mode[i]));
        trapeze_json_number(j, "break_even_cycles", trapeze_sleep_break_even(&st->mode[i]));
        trapeze_json_number(j, "seed_threshold", c->seed_theta[i]);
        trapeze_json_number(j, "threshold", c->theta_int[i]);
        trapeze_json_number(j, "threshold_continuous", c->theta[i]);
        trapeze_json_number(j, "idle_cycles_fraction",
                            c->chosen.mode_cycles[i + 1] / c->chosen.idle_cycles);
        trapeze_json_end(j);
    }
    trapeze_json_end(j);
    trapeze_json_number(j, "saving", c->chosen.saving_fraction);
    trapeze_json_number(j, "seed_saving", c->seed.saving_fraction);
    trapeze_json_number(j, "oracle_saving", c->oracle.saving_fraction);
    trapeze_json_number(j, "penalty", c->chosen.penalty_fraction);
    trapeze_json_number(j, "penalty_sd", c->chosen.penalty_sigma);
    trapeze_json_number(j, "held_penalty", c->held_penalty);
    trapeze_json_number(j, "seed_penalty", c->seed.penalty_fraction);
    trapeze_json_number(j, "max_penalty", budget);
    trapeze_json_bool(j, "budget_met", c->feasible);
    trapeze_json_end(j);
}

static void print_fit(const trapeze_idle_fit *f)
{
    printf("  fit: periods 1..%d as observed; tail:", f->short_max);
    for (int k = 0; k < TRAPEZE_NEXT_N; k++) {
        if (!f->fitted[k]) {
            if (f->tail_periods[k] > 0)
                printf(" %s as observed (%.0f periods);",
                       trapeze_next_access_name((trapeze_next_access)k), f->tail_periods[k]);
            continue;
        }
        printf(" %s %.2f x LN(%.2f, %.2f) + %.2f x LN(%.2f, %.2f), KS %.4f;",
               trapeze_next_access_name((trapeze_next_access)k), f->weight[k], f->mu[k][0],
               f->sigma[k][0], 1 - f->weight[k], f->mu[k][1], f->sigma[k][1], f->ks[k]);
    }
    printf(" KS over all %.4f\n", f->ks_all);
}

static int structure_of(const char *name)
{
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        if (!strcmp(name, trapeze_power_structure_name((trapeze_power_structure)s)))
            return s;
    return -1;
}

/* One histogram: the structure's model, its optimum, printed and logged. */
static int run_one(const sleep_args *a, const trapeze_gpu *gpu, const trapeze_power *pw,
                   trapeze_idle_hist *h, trapeze_csv_out *csv, cli_progress *bar,
                   trapeze_error *err)
{
    int s = structure_of(h->structure);
    trapeze_sleep_structure st;
    if (trapeze_sleep_structure_from_power(pw, (trapeze_power_structure)s, gpu->core_clock_hz,
                                           &st, err))
        return 1;
    h->requesters = gpu->n_sm;
    if (a->cycles > 0)
        h->cycles = a->cycles;
    trapeze_sleep_options o;
    const char *policy;
    preset((trapeze_power_structure)s, &st, a, &o, &policy);
    trapeze_idle_fit fit;
    trapeze_idle_hist *use = h, *smooth = NULL;
    if (a->fit || a->sampled) {
        smooth = malloc(sizeof *smooth);
        if (!smooth || trapeze_idle_hist_fit(h, 8, 50, &fit, smooth, err)) {
            free(smooth);
            return 1;
        }
        use = a->fit ? smooth : h;
    }
    trapeze_sleep_model *m;
    trapeze_sleep_choice c;
    int rc = 1;
    if (!trapeze_sleep_create(&st, use, &o, &m, err)) {
        if (!trapeze_sleep_optimize(m, a->max_penalty, &c, err)) {
            cli_progress_end(bar, 1); /* the results below, not beside, the line */
            print_choice(h, policy, &o, &st, &c, a->max_penalty);
            json_choice(a->j, h, policy, &o, &st, &c, a->max_penalty);
            if (a->fit || a->sampled)
                print_fit(&fit);
            rc = csv && write_rows(csv, h, policy, &st, &c, err) ? 1 : 0;
        }
        trapeze_sleep_destroy(m);
    }
    free(smooth);
    return rc;
}

/* The KERNEL or WORKLOAD's window (or whole run) simulated always on: its
 * histograms, cycles, and a line saying what was simulated. */
/* --sample-csv: the sample's histograms as the idle-period CSV that
 * --idle-csv reads back (the model then sees what it saw here). */
static int write_sample(const char *path, const trapeze_idle_hist *h, trapeze_error *err)
{
    trapeze_csv_out *csv = NULL;
    if (trapeze_csv_create(path, trapeze_idle_csv_columns, trapeze_idle_csv_ncolumns, &csv, err))
        return 1;
    for (int i = 0; i < TRAPEZE_SLEEP_NUNITS; i++)
        if (trapeze_idle_hist_write_rows(&h[i], csv, err)) {
            trapeze_csv_abort(csv);
            return 1;
        }
    if (trapeze_csv_finish(csv, err))
        return 1;
    return trapeze_csv_commit(csv, err) ? 1 : 0;
}

static int sample(sleep_args *a, const trapeze_config *cfg, const trapeze_power *pw,
                  trapeze_idle_hist **h, int *n, double *cycles, cli_progress *bar,
                  trapeze_error *err)
{
    char spec[TRAPEZE_ROW_TEXT];
    size_t used = (size_t)snprintf(spec, sizeof spec, "%s", a->kernel);
    for (int i = 0; i < a->nparams && used < sizeof spec; i++)
        used += (size_t)snprintf(spec + used, sizeof spec - used, " %s", a->params[i]);
    if (used >= sizeof spec)
        return cli_usage_error("sleep", "'%s ...': settings too long", a->kernel);
    trapeze_sleep_job *j = malloc(sizeof *j);
    trapeze_sleep_run *r = malloc(sizeof *r);
    int rc = j && r ? cli_sleep_job("sleep", spec, j, err) : 1;
    if (!j || !r)
        snprintf(err->message, sizeof err->message, "out of memory");
    double stride = cli_sleep_stride(a->spread, a->jump);
    if (!rc) {
        j->threads = a->sim_threads;
        j->warm = a->warm;
    }
    if (!rc && (a->cap > 0 ? trapeze_sleep_window_capped(cfg, pw, j, a->window, stride, a->cap,
                                                         r, err)
                           : trapeze_sleep_window(cfg, pw, j, a->window, stride, r, err)))
        rc = 1;
    if (!rc && !(*h = malloc(sizeof r->hist))) {
        snprintf(err->message, sizeof err->message, "out of memory");
        rc = 1;
    }
    if (!rc && a->sample_csv && write_sample(a->sample_csv, r->hist, err))
        rc = 1;
    if (!rc) {
        memcpy(*h, r->hist, sizeof r->hist);
        *n = TRAPEZE_SLEEP_NUNITS;
        *cycles = r->cycles;
        a->sampled = 1;
        cli_progress_end(bar, 1);
        if (r->jumped && r->warm)
            printf("%s: jump sample, the first window to a tenth of the run's work, then %d "
                   "warm windows (the first window's GPU continued, its dispatcher moved on) "
                   "of a block's life, %.0f cycles, warm-up and as many recorded: %.0f cycles "
                   "recorded, %.0f simulated (%.0f warp instructions, %.1f%% of the run's "
                   "%.0f), standing for %.0f cycles\n", spec, r->jump_windows, r->jump_warm,
                   r->recorded, r->simulated, r->warp_insts,
                   100 * r->warp_insts / r->run_insts, r->run_insts, r->cycles);
        else if (r->jumped)
            printf("%s: jump sample, the first %.0f cycles (or fewer, capped), then windows "
                   "of %.0f cycles whose simulation starts later in the run (%.0f warm-up) and "
                   "launch ends: %.0f "
                   "cycles recorded, %.0f simulated (%.0f warp instructions, %.1f%% of the "
                   "run's %.0f), standing for %.0f cycles\n", spec, a->window,
                   r->jump_record, r->jump_warm, r->recorded, r->simulated,
                   r->warp_insts, 100 * r->warp_insts / r->run_insts, r->run_insts, r->cycles);
        else if (r->cap_smallest > 0 && !(r->cycles > a->window))
            printf("%s: the whole run is the sample, %.0f cycles (%.0f warp instructions): the "
                   "least jump sample (a first window and one of %.0f + %.0f cycles) would cost "
                   "%.1f%% of the run at the first window's rate, over the %.1f%% --cap %g "
                   "plans, and a first window alone is too short to stand for it "
                   "(docs/sleep.md)\n", spec, r->cycles, r->warp_insts, r->jump_warm,
                   r->jump_record,
                   100 * r->cap_smallest, 100 * TRAPEZE_SLEEP_CAP_PLAN * a->cap, a->cap);
        else if (r->spread && r->cycles > a->window)
            printf("%s: spread sample, the first %.0f cycles and %.0f in every %.0f after them "
                   "to the run's end (%.0f of %.0f cycles recorded; %.0f warp instructions "
                   "simulated)\n", spec, a->window, a->spread / 5, a->spread, r->recorded,
                   r->cycles, r->warp_insts);
        else if (r->cut)
            printf("%s: window of the first %.0f cycles (%.0f warp instructions), %.0f periods "
                   "open at the cut, ending as the longer completed ones did (--whole: the whole run)\n", spec,
                   r->cycles, r->warp_insts, r->censored);
        else
            printf("%s: the whole run, %.0f cycles (%.0f warp instructions)%s\n", spec,
                   r->cycles, r->warp_insts,
                   a->window > 0 ? ", shorter than the window" : " (--whole)");
    }
    free(j);
    free(r);
    return rc;
}

/* --cycles N must cover the longest idle period of h: a run holds it. */
static int check_cycles(const sleep_args *a, const trapeze_idle_hist *h, double cycles,
                        trapeze_error *err)
{
    double longest = trapeze_idle_hist_longest(h);
    if (cycles >= longest)
        return 0;
    /* names shown cut: the message has 768 bytes */
    snprintf(err->message, sizeof err->message, "--cycles %g: fewer than the longest idle "
             "period of %.63s %.200s %s/%s (at least %.0f cycles) in %.200s", cycles, h->gpu,
             h->kernel, h->structure, h->granularity, longest,
             a->idle_csv ? a->idle_csv : "the simulation");
    return 1;
}

/* The GPU (cfg stays loaded for a simulation) and its power description. */
static int load_gpu_and_power(const sleep_args *a, trapeze_config **cfg, trapeze_gpu *gpu,
                              trapeze_power *pw, trapeze_error *err)
{
    char path[4096];
    if (cli_resolve_preset("sleep", "--gpu", "gpus", ".config", a->gpu, path, sizeof path))
        return 2;
    if (trapeze_config_load(path, cfg, err))
        return 1;
    if (trapeze_gpu_from_config(*cfg, gpu, err))
        return 1;
    char dflt[64];
    if (cli_resolve_preset("sleep", "--power", "power", ".ini",
                           a->power ? a->power : cli_power_default(gpu->name, dflt, sizeof dflt),
                           path, sizeof path))
        return 2;
    return trapeze_power_load(path, pw, err) ? 1 : 0;
}

int cli_sleep(int argc, char **argv)
{
    sleep_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    trapeze_error err = {0};
    trapeze_gpu gpu;
    trapeze_power pw;
    trapeze_config *cfg = NULL;
    const cli_output outputs[] = {{"--csv", a.csv}, {"--sample-csv", a.sample_csv}};
    cli_json json = {0};
    if (cli_check_outputs(outputs, 2, CLI_STDOUT_REPORT, a.json, &err) ||
        cli_json_open(&json, "sleep", a.json, &err)) {
        fprintf(stderr, "trapeze sleep: %s\n", err.message);
        return 1;
    }
    a.j = json.j;
    rc = load_gpu_and_power(&a, &cfg, &gpu, &pw, &err);
    trapeze_idle_hist *h = NULL;
    int n = 0;
    double cycles = 0;
    double cycles_given = a.cycles;
    trapeze_status ls = TRAPEZE_OK;
    if (!rc && a.idle_csv &&
        (ls = trapeze_idle_csv_load_gpu(a.idle_csv, a.any_gpu ? NULL : gpu.name, &h, &n, &err)))
        rc = 1;
    /* steps: the window simulated (when no --idle-csv), then each
     * histogram's fit and thresholds, weighed alike */
    cli_progress bar = {.prefix = "sleep"};
    int sim_step = !a.idle_csv;
    if (!rc && !a.idle_csv) {
        cli_progress_update(&bar, 0, 1 + TRAPEZE_SLEEP_NUNITS, "steps", "simulating the window");
        rc = sample(&a, cfg, &pw, &h, &n, &cycles, &bar, &err);
    }
    trapeze_config_destroy(cfg);
    if (rc) {
        cli_json_abort(&json);
        if (rc == 1)
            fprintf(stderr, "trapeze sleep: %s%s\n", err.message,
                    ls == TRAPEZE_EINVAL ? "; --any-gpu uses them anyway" : "");
        return rc;
    }
    if (!a.idle_csv) {
        a.kernel = NULL;   /* the simulated run is all there is */
        if (a.cycles <= 0)
            a.cycles = cycles;
    }
    trapeze_csv_out *csv = NULL;
    if (a.csv && trapeze_csv_create(a.csv, csv_columns, (int)(sizeof csv_columns /
                                                              sizeof csv_columns[0]),
                                    &csv, &err)) {
        fprintf(stderr, "trapeze sleep: %s\n", err.message);
        cli_json_abort(&json);
        free(h);
        return 1;
    }
    int used = 0;
    rc = 0;
    trapeze_json_bool(a.j, "sampled", a.sampled);
    trapeze_json_array(a.j, "choices");
    for (int i = 0; i < n && !rc; i++) {
        if (!a.want[structure_of(h[i].structure)] || (a.kernel && strcmp(a.kernel, h[i].kernel)))
            continue;
        used++;
        char detail[96];
        snprintf(detail, sizeof detail, "fitting %s %s", h[i].structure, h[i].granularity);
        cli_progress_update(&bar, sim_step + i, sim_step + n, "steps", detail);
        rc = cycles_given > 0 ? check_cycles(&a, &h[i], cycles_given, &err) : 0;
        if (!rc)
            rc = run_one(&a, &gpu, &pw, &h[i], csv, &bar, &err);
    }
    if (!rc)
        cli_progress_update(&bar, sim_step + n, sim_step + n, "steps", "done");
    cli_progress_end(&bar, !rc);
    if (!rc && !used) {
        snprintf(err.message, sizeof err.message, "%s: no histogram of %s%s",
                 a.idle_csv ? a.idle_csv : "simulation",
                 a.kernel ? "kernel " : "the structures asked for", a.kernel ? a.kernel : "");
        rc = 1;
    }
    trapeze_json_end(a.j);
    if (!rc && csv && trapeze_csv_finish(csv, &err)) {
        csv = NULL;   /* freed */
        rc = 1;
    }
    if (!rc)
        rc = cli_json_commit(&json, &err) ? 1 : 0;
    if (!rc && csv)
        rc = trapeze_csv_commit(csv, &err) ? 1 : 0;
    else
        trapeze_csv_abort(csv);
    cli_json_abort(&json);
    if (rc)
        fprintf(stderr, "trapeze sleep: %s\n", err.message);
    free(h);
    return rc;
}
