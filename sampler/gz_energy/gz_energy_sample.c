/*
 * gz_energy_sample.c - the samples the energy-aware ghost-zone model is
 * calibrated on: a short window of a stencil workload (a grid of about four
 * waves of tiles, two stages) simulated at one (sync, h) with the GPU's
 * power description, every structure always on, so that its dynamic
 * energy, leakage and idle periods are those the model's counts and the
 * sleep model read. Joins sim/ and the neutral sample struct; owns no
 * model and no format.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/sim.h"

/* The sleep model's unit of each structure (TRAPEZE_PS_* order). */
static const struct {
    sim_unit_kind kind;
    const char *structure, *granularity;
} units[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT] = {{SIM_UNIT_L1_LINE, "l1d", "line"},
                                {SIM_UNIT_L2_LINE, "l2", "line"},
                                {SIM_UNIT_REG, "rf", "warp_reg"}};

void trapeze_ghostzone_energy_window(const trapeze_gpu *gpu, const trapeze_workload *w, int h,
                                     trapeze_workload *window)
{
    *window = *w;
    int occ = trapeze_ghostzone_occupancy(gpu, w, w->blk_len);
    double tiles = 4.0 * gpu->n_sm * (occ > 0 ? occ : 1);
    double per_dim = ceil(pow(tiles, 1.0 / w->dims) - 1e-9);
    for (int i = 0; i < w->dims; i++) {
        double edge = w->blk_len - (double)w->halo[i] * h;
        double len = per_dim * (edge > 1 ? edge : 1);
        window->data_len[i] = len < w->data_len[i] ? len : w->data_len[i];
    }
    window->iterations = 2 * h;
}


static void collect(sim_gpu *g, const sim_stencil_result *r, const trapeze_power *pw,
                    trapeze_ghostzone_energy_sample *out)
{
    const sim_core_config *c = sim_gpu_config(g);
    double cycles = 0;
    for (int i = 0; i < r->n_stats; i++) {
        const sim_energy *e = &r->stats[i].energy;
        cycles += (double)r->stats[i].cycles;
        out->seconds += e->seconds;
        out->dyn_compute_j += e->j[SIM_EN_DYN_CORE] + e->j[SIM_EN_DYN_RF] +
                              e->j[SIM_EN_DYN_SHMEM] + e->j[SIM_EN_DYN_L1D];
        out->dyn_memory_j += e->j[SIM_EN_DYN_L2] + e->j[SIM_EN_DYN_ICNT] + e->j[SIM_EN_DYN_DRAM] +
                             e->j[SIM_EN_DYN_TAG];
        static const sim_energy_part leak[TRAPEZE_PS_COUNT] = {
            SIM_EN_LEAK_L1D, SIM_EN_LEAK_L2, SIM_EN_LEAK_RF, SIM_EN_LEAK_SHMEM,
            SIM_EN_LEAK_SM_OTHER};
        for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
            out->leak_w[x] += e->j[leak[x]];   /* joules here, watts below */
    }
    for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
        out->leak_w[x] = out->seconds > 0 ? out->leak_w[x] / out->seconds : 0;
    out->cycles = (double)r->cycles;
    out->warp_instructions = (double)r->warp_insts;
    out->constant_w = pw->constant_w;
    out->idle_sm_w = pw->idle_sm_w * c->gpu.n_sm;
    const sim_energy_geometry *geo = sim_gpu_energy_geometry(g);
    for (int u = 0; u < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; u++) {
        trapeze_idle_hist *h = &out->hist[u];
        trapeze_idle_hist_init(h, c->gpu.name, r->stencil && r->n_stats ? r->stats[0].name : "",
                               units[u].structure, units[u].granularity);
        h->cycles = cycles;
        h->requesters = c->gpu.n_sm;
        /* periods run on the run's clock, launch latencies included */
        out->unit_cycles[u] = geo->physical_units[units[u].kind] * (double)r->cycles;
    }
    for (int i = 0; i < sim_gpu_idle_count(g); i++) {
        const sim_idle_hist *kinds = sim_gpu_idle(g, i, NULL);
        for (int u = 0; u < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; u++)
            sim_idle_export_add(&out->hist[u], &kinds[units[u].kind]);
    }
}

/* The sample on `threads` simulation threads (the same results for any). */
static trapeze_status sample_run(const trapeze_config *cfg, const trapeze_power *pw,
                                 const trapeze_workload *w, trapeze_sync sync, int h, int threads,
                                 trapeze_ghostzone_energy_sample *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    trapeze_gpu gpu;
    trapeze_status s = trapeze_gpu_from_config(cfg, &gpu, err);
    if (s)
        return s;
    trapeze_workload win;
    trapeze_ghostzone_energy_window(&gpu, w, h, &win);
    sim_sleep_config always_on;
    sim_gpu_options opt;
    sim_idle_window_options(pw, &always_on, &opt);
    opt.threads = threads;
    sim_gpu *g = NULL;
    sim_stencil_result *r = NULL;
    sim_stencil_spec spec = {.workload = &win, .h = h, .sync = sync,
                             .iterations = win.iterations};
    if (!(s = sim_gpu_create(cfg, &opt, &g, err)) && !(s = sim_stencil_run(g, &spec, &r, err))) {
        out->sync = sync;
        out->h = h;
        memcpy(out->data_len, win.data_len, sizeof out->data_len);
        out->iterations = r->iterations;
        collect(g, r, pw, out);
    }
    sim_stencil_result_destroy(r);
    sim_gpu_destroy(g);
    return s;
}

trapeze_status trapeze_ghostzone_energy_sample_run(const trapeze_config *cfg, const trapeze_power *pw,
                                                   const trapeze_workload *w, trapeze_sync sync, int h,
                                                   trapeze_ghostzone_energy_sample *out, trapeze_error *err)
{
    return sample_run(cfg, pw, w, sync, h, 1, out, err);
}

/* ---- the samples log: planned, run in threads, resumed (sampler/run.c) ---- */

static const char *const sync_names[] = {"relaunch", "fence", NULL};
static const char *const energy_kinds[] = {"energy", NULL};
#define BIG 1e300

/* Inputs: what a sample runs; outputs: what the calibration and the sleep
 * choice need (the histograms themselves stay out: the thresholds chosen on
 * them, their saving and penalty are logged instead). */
enum {
    E_WORKLOAD, E_GPU, E_SYNC, E_H, E_SIZE, E_ITERATIONS, E_MAX_PENALTY,
    E_WARP_INSTS, E_DYN_COMPUTE, E_DYN_MEMORY, E_LEAK0,
    E_SAVING0 = E_LEAK0 + TRAPEZE_PS_COUNT,
    E_PENALTY0 = E_SAVING0 + TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT,
    E_THETA0 = E_PENALTY0 + TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT,
    E_NFIELDS = E_THETA0 + TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT
};

static const trapeze_field energy_fields[] = {
    {"workload", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"gpu", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"sync", TRAPEZE_FIELD_TEXT, 0, 0, 0, sync_names},
    {"h", TRAPEZE_FIELD_INT, 0, 1, 2147483647.0, NULL},
    {"size", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"iterations", TRAPEZE_FIELD_INT, 0, 1, 2147483647.0, NULL},
    {"max_penalty", TRAPEZE_FIELD_REAL, 0, 0, 1, NULL},
    {"warp_instructions", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"dyn_compute_j", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"dyn_memory_j", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"leak_l1d_w", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"leak_l2_w", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"leak_rf_w", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"leak_shmem_w", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"leak_sm_other_w", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l1d_saving", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"l2_saving", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"rf_saving", TRAPEZE_FIELD_REAL, 1, 0, 1, NULL},
    {"l1d_penalty", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l2_penalty", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"rf_penalty", TRAPEZE_FIELD_REAL, 1, 0, BIG, NULL},
    {"l1d_thresholds", TRAPEZE_FIELD_TEXT, 1, 0, 0, NULL},
    {"l2_thresholds", TRAPEZE_FIELD_TEXT, 1, 0, 0, NULL},
    {"rf_thresholds", TRAPEZE_FIELD_TEXT, 1, 0, 0, NULL},
};
_Static_assert(E_NFIELDS == sizeof energy_fields / sizeof energy_fields[0], "energy fields");
_Static_assert(E_NFIELDS <= TRAPEZE_ROW_MAX_FIELDS, "energy fields fit a row");

const trapeze_row_schema trapeze_ghostzone_energy_schema = {
    .model = "gz_energy",
    .nfields = E_NFIELDS,
    .fields = energy_fields,
    .program_kinds = energy_kinds,
};

#define MAX_PLAN 6   /* 3 heights x 2 sync modes */

struct trapeze_ghostzone_energy_plan {
    const trapeze_config *cfg;
    trapeze_power pw;
    trapeze_workload spec;
    double clock_hz;
    trapeze_sample_row rows[MAX_PLAN];
    trapeze_sample_set set;
    int sim_threads;   /* each row's share of the run's threads (set.sim_threads) */
};

static void size_text(const trapeze_workload *w, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < w->dims && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%.0f", i ? "x" : "", w->data_len[i]);
}

/* Runs planned row i: the window simulated, then each structure's
 * thresholds chosen on its histograms. */
static trapeze_status run_row(const void *ctx, int i, trapeze_sample_row *out, trapeze_error *err)
{
    const trapeze_ghostzone_energy_plan *p = ctx;
    const trapeze_sample_row *in = &p->rows[i];
    trapeze_sync sync = strcmp(in->text[E_SYNC], "fence") ? TRAPEZE_SYNC_RELAUNCH
                                                          : TRAPEZE_SYNC_FENCE;
    trapeze_ghostzone_energy_sample *s = malloc(sizeof *s);
    trapeze_ghostzone_sleep sl;
    if (!s)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    trapeze_status st = sample_run(p->cfg, &p->pw, &p->spec, sync, (int)in->value[E_H],
                                   p->sim_threads, s, err);
    if (!st)
        st = trapeze_ghostzone_energy_sleep(&p->pw, p->clock_hz, s, in->value[E_MAX_PENALTY], &sl, err);
    if (!st) {
        *out = *in;
        out->value[E_WARP_INSTS] = s->warp_instructions;
        out->value[E_DYN_COMPUTE] = s->dyn_compute_j;
        out->value[E_DYN_MEMORY] = s->dyn_memory_j;
        for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
            out->value[E_LEAK0 + x] = s->leak_w[x];
        for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
            out->value[E_SAVING0 + x] = sl.saving[x];
            out->value[E_PENALTY0 + x] = sl.penalty[x];
            char *t = out->text[E_THETA0 + x];
            size_t used = 0;
            t[0] = '\0';
            for (int m = 0; m < sl.n_modes[x] && used < TRAPEZE_ROW_TEXT; m++)
                used += (size_t)snprintf(t + used, TRAPEZE_ROW_TEXT - used, "%s%.0f",
                                         m ? "/" : "", sl.theta[x][m]);
        }
    }
    free(s);
    return st;
}

trapeze_status trapeze_ghostzone_energy_plan_create(const trapeze_config *cfg, const trapeze_power *pw,
                                                    const trapeze_workload *spec,
                                                    const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                                    int n_modes, double max_penalty,
                                                    trapeze_ghostzone_energy_plan **out, trapeze_error *err)
{
    *out = NULL;
    trapeze_ghostzone_energy_plan *p = calloc(1, sizeof *p);
    if (!p)
        return trapeze_fail(err, TRAPEZE_ENOMEM, "out of memory");
    p->cfg = cfg;
    p->pw = *pw;
    p->spec = *spec;
    const trapeze_gpu *gpu = trapeze_ghostzone_gpu(m);
    p->clock_hz = gpu->core_clock_hz;
    int heights[3], nh = trapeze_ghostzone_energy_sample_heights(m, heights), n = 0;
    for (int k = 0; k < n_modes && k < 2; k++)
        for (int j = 0; j < nh; j++) {
            trapeze_sample_row *r = &p->rows[n++];
            trapeze_workload win;
            char id[96];
            trapeze_ghostzone_energy_window(gpu, spec, heights[j], &win);
            snprintf(id, sizeof id, "%.40s-%s-h%d", spec->name, trapeze_sync_name(modes[k]),
                     heights[j]);
            trapeze_row_init(r, &trapeze_ghostzone_energy_schema, id, "energy");
            snprintf(r->text[E_WORKLOAD], TRAPEZE_ROW_TEXT, "%s", spec->name);
            snprintf(r->text[E_GPU], TRAPEZE_ROW_TEXT, "%s", gpu->name);
            snprintf(r->text[E_SYNC], TRAPEZE_ROW_TEXT, "%s", trapeze_sync_name(modes[k]));
            size_text(&win, r->text[E_SIZE], TRAPEZE_ROW_TEXT);
            r->value[E_H] = heights[j];
            r->value[E_ITERATIONS] = win.iterations;
            r->value[E_MAX_PENALTY] = max_penalty;
        }
    p->set = (trapeze_sample_set){.schema = &trapeze_ghostzone_energy_schema, .count = n,
                                  .rows = p->rows, .run = run_row, .ctx = p,
                                  .sim_threads = &p->sim_threads};
    p->sim_threads = 1;
    *out = p;
    return TRAPEZE_OK;
}

void trapeze_ghostzone_energy_plan_destroy(trapeze_ghostzone_energy_plan *p) { free(p); }
const trapeze_sample_set *trapeze_ghostzone_energy_plan_set(const trapeze_ghostzone_energy_plan *p)
{
    return &p->set;
}

trapeze_status trapeze_ghostzone_energy_from_row(const trapeze_sample_row *row, const trapeze_power *pw,
                                                 int n_sm, trapeze_ghostzone_energy_sample *s,
                                                 trapeze_ghostzone_sleep *sl, trapeze_error *err)
{
    if (row->schema != &trapeze_ghostzone_energy_schema)
        return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s: a %s row, not an energy one",
                            row->id, row->schema ? row->schema->model : "?");
    memset(s, 0, sizeof *s);
    memset(sl, 0, sizeof *sl);
    s->sync = strcmp(row->text[E_SYNC], "fence") ? TRAPEZE_SYNC_RELAUNCH : TRAPEZE_SYNC_FENCE;
    s->h = (int)row->value[E_H];
    s->iterations = (int)row->value[E_ITERATIONS];
    const char *t = row->text[E_SIZE];
    for (int d = 0; d < TRAPEZE_MAX_DIMS && *t; d++) {
        char *end;
        s->data_len[d] = strtod(t, &end);
        if (end == t || (*end && *end != 'x') || !(s->data_len[d] >= 1))
            return trapeze_fail(err, TRAPEZE_EPARSE, "sample %s: size '%s' is not AxBxC",
                                row->id, row->text[E_SIZE]);
        t = *end ? end + 1 : end;
    }
    s->warp_instructions = row->value[E_WARP_INSTS];
    s->dyn_compute_j = row->value[E_DYN_COMPUTE];
    s->dyn_memory_j = row->value[E_DYN_MEMORY];
    for (int x = 0; x < TRAPEZE_PS_COUNT; x++)
        s->leak_w[x] = row->value[E_LEAK0 + x];
    s->constant_w = pw->constant_w;
    s->idle_sm_w = pw->idle_sm_w * n_sm;
    sl->valid = 1;
    for (int x = 0; x < TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT; x++) {
        sl->saving[x] = row->value[E_SAVING0 + x];
        sl->penalty[x] = row->value[E_PENALTY0 + x];
        const char *p = row->text[E_THETA0 + x];
        while (*p && sl->n_modes[x] < TRAPEZE_SLEEP_MAX_MODES) {
            char *end;
            sl->theta[x][sl->n_modes[x]++] = strtod(p, &end);
            if (end == p || (*end && *end != '/'))
                return trapeze_fail(err, TRAPEZE_EPARSE, "sample %s: thresholds '%s' are not "
                                    "A/B/C", row->id, row->text[E_THETA0 + x]);
            p = *end ? end + 1 : end;
        }
    }
    return TRAPEZE_OK;
}
