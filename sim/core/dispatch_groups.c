/*
 * dispatch_groups.c - PAVER's runtime (Tripathy 2021 §3.4, Fig. 3.9 and
 * Algorithm 2): TB groups in a global queue, one group per SM at a time.
 * At launch SM i takes group i; an SM with room issues the next block of
 * its group (its `next`) and, when the group is done, takes the next group
 * from the global queue. When the queue is empty, an SM with room and no
 * waiting block steals from the tail of the SM with the most waiting
 * blocks (the first such SM): max - floor(mean over all SMs) blocks.
 * The groups come from the locality graph (MST-TS, k-way-TS, RB-TS:
 * sim/locality/order.c) or from a grouping file (explicit: group g is SM
 * g's queue, in the file's order).
 * A sample's sub-grid (-trapeze_window_groups N) runs groups 0..N-1 on SMs
 * 0..N-1 only (they steal among themselves); the other SMs stay idle. Its
 * grouping file may hold one group more than the SMs, never dispatched: the
 * TBs a window of all N = SMs queues' prefixes leaves out.
 * Invariants: next[s] <= tail[s]; every block lies in exactly one of the
 * ranges [next, tail) of the SMs, a group not yet taken, or was placed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/sm.h"
#include "sim/locality/locality.h"
#include "sim/memsys.h"

typedef struct groups_state {
    sim_tb_groups g;
    int n_sm, first, taken;   /* taken: groups handed out from the queue */
    int window;               /* -trapeze_window_groups: only SMs 0..window-1 run (and
                               * steal), each its group; 0: off */
    long *next, *tail;        /* per SM: its range of g.ids still to issue */
    uint64_t stolen;
} groups_state;

static void groups_destroy(void *self)
{
    groups_state *s = self;
    if (!s)
        return;
    sim_tb_groups_free(&s->g);
    free(s->next);
    free(s->tail);
    free(s);
}

/* A grouping file named by a GPU config was refused: the message says which
 * option and where (FILE:LINE), never what the file holds: a config can name
 * any file (/etc/passwd), and whoever runs it may not be allowed to read it
 * otherwise. The file's own reader gives the reason (trapeze sim --grouping). */
static trapeze_status from_config_failed(const char *path, trapeze_status s, trapeze_error *err)
{
    size_t n = strlen(path);
    long line = 0;
    if (err && !strncmp(err->message, path, n) && err->message[n] == ':')
        line = strtol(err->message + n + 1, NULL, 10);
    char where[32] = "";
    if (line > 0)
        snprintf(where, sizeof where, ":%ld", line);
    return trapeze_fail(err, s, "option -trapeze_tb_grouping: %s%s: not read as a grouping "
                        "file (tb,group,order); its contents are not shown (see why with "
                        "trapeze sim --grouping FILE)", path, where);
}

/* The explicit grouping file as groups: group g = SM g, in file order
 * (under a window, one group more: the TBs it never dispatches). */
static trapeze_status from_file(const sim_dispatch_ctx *c, sim_tb_groups *out,
                                trapeze_error *err)
{
    trapeze_grouping f;
    long n = sim_kernel_blocks(c->k);
    const int ng = c->n_sm + (c->cfg->window_groups > 0);
    trapeze_status s = trapeze_grouping_load(c->cfg->tb_grouping, n, ng, &f, err);
    if (s && c->cfg->tb_grouping_named_by_config)
        return from_config_failed(c->cfg->tb_grouping, s, err);
    if (s)
        return s;
    memset(out, 0, sizeof *out);
    out->n_groups = ng;
    out->gstart = calloc((size_t)ng + 1, sizeof *out->gstart);
    out->ids = malloc((size_t)n * sizeof *out->ids);
    if (!out->gstart || !out->ids) {
        trapeze_grouping_free(&f);
        sim_tb_groups_free(out);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    for (long t = 0; t < n; t++)
        out->gstart[f.group[t] + 1]++;
    for (int g = 0; g < ng; g++)
        out->gstart[g + 1] += out->gstart[g];
    for (long t = 0; t < n; t++)   /* the loader checked the orders */
        out->ids[out->gstart[f.group[t]] + f.order[t]] = (uint32_t)t;
    trapeze_grouping_free(&f);
    return TRAPEZE_OK;
}

static trapeze_status from_graph(const sim_dispatch_ctx *c, sim_tb_groups *out,
                                 trapeze_error *err)
{
    trapeze_locality_graph g;
    sim_locality_adj a;
    trapeze_status s = sim_locality_build(c->k, SIM_LINE_BYTES, &g, err);
    if (s)
        return s;
    s = sim_locality_adj_build(&g, &a, err);
    trapeze_locality_graph_free(&g);
    if (s)
        return s;
    switch (c->cfg->tb_dispatch) {
    case SIM_TB_MST:
        s = sim_locality_mst_ts(&a, c->n_sm, c->per_sm, out, err);
        break;
    case SIM_TB_KWAY:
        s = sim_locality_kway_ts(&a, c->n_sm, out, err);
        break;
    default:
        s = sim_locality_rb_ts(&a, c->per_sm, out, err);
        break;
    }
    sim_locality_adj_free(&a);
    return s;
}

static trapeze_status groups_create(const sim_dispatch_ctx *c, void **self, trapeze_error *err)
{
    groups_state *s = calloc(1, sizeof *s);
    if (s) {
        s->next = calloc((size_t)c->n_sm, sizeof *s->next);
        s->tail = calloc((size_t)c->n_sm, sizeof *s->tail);
    }
    if (!s || !s->next || !s->tail) {
        groups_destroy(s);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "simulator: out of memory");
    }
    trapeze_status st = c->cfg->tb_dispatch == SIM_TB_EXPLICIT ? from_file(c, &s->g, err)
                                                                : from_graph(c, &s->g, err);
    if (st) {
        free(s->next);
        free(s->tail);
        free(s);
        return st;
    }
    s->n_sm = c->n_sm;
    /* a sample's sub-grid: only the first window_groups groups exist */
    if (c->cfg->window_groups > 0) {
        if (c->cfg->window_groups < s->g.n_groups)
            s->g.n_groups = (int)c->cfg->window_groups;
        s->window = s->g.n_groups;
    }
    for (int i = 0; i < c->n_sm && s->taken < s->g.n_groups; i++, s->taken++) {
        s->next[i] = s->g.gstart[s->taken];
        s->tail[i] = s->g.gstart[s->taken + 1];
    }
    *self = s;
    return TRAPEZE_OK;
}

static int groups_first(void *self)
{
    return ((groups_state *)self)->first;
}

/* Algorithm 2: the donor (most waiting, first of equals) and how many. */
static void steal(groups_state *s, int to)
{
    long most = 0, sum = 0;
    int donor = -1;
    for (int i = 0; i < s->n_sm; i++) {
        long w = s->tail[i] - s->next[i];
        if (w > most) {
            most = w;
            donor = i;
        }
        sum += w;
    }
    long count = most - sum / s->n_sm;
    if (donor < 0 || count < 1)
        return;
    s->tail[to] = s->tail[donor];
    s->tail[donor] -= count;
    s->next[to] = s->tail[donor];
    s->stolen += (uint64_t)count;
}

static long groups_next(void *self, int sm, int room)
{
    (void)room;
    groups_state *s = self;
    if (s->window && sm >= s->window)   /* outside the sub-grid: idle */
        return -1;
    while (s->next[sm] == s->tail[sm] && s->taken < s->g.n_groups) {
        s->next[sm] = s->g.gstart[s->taken];
        s->tail[sm] = s->g.gstart[++s->taken];
    }
    if (s->next[sm] == s->tail[sm])
        steal(s, sm);
    return s->next[sm] < s->tail[sm] ? (long)s->g.ids[s->next[sm]] : -1;
}

static void groups_placed(void *self, int sm, long block)
{
    groups_state *s = self;
    (void)block;
    s->next[sm]++;
    s->first = (sm + 1) % s->n_sm;
}

static uint64_t groups_stolen(const void *self)
{
    return ((const groups_state *)self)->stolen;
}

static long groups_blocks(const void *self)
{
    const groups_state *s = self;
    return s->g.gstart[s->g.n_groups];
}

const sim_dispatch_ops sim_dispatch_groups = {"groups", groups_create, groups_destroy,
                                              groups_first, groups_next, groups_placed,
                                              groups_stolen, groups_blocks, NULL};
