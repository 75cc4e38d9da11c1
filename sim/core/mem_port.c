/*
 * mem_port.c - the ideal memory behind the SM's memory port
 * (sim_mem_port, gpu_sim.h): every request answered a fixed latency after
 * it is accepted, nothing refused; used by tests and `--ideal-memory` to
 * isolate the SM. The adapter to the real memory system is mem_real.c.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "sim/core/sm.h"

/* ---------------------------------------------------------------- ideal */

typedef struct ideal_q {
    sim_mem_request *r;
    uint64_t *due;
    size_t head, n, cap;
} ideal_q;

typedef struct ideal_mem {
    int n_sm, latency;
    ideal_q *q;
    uint64_t outstanding;
    /* functional words: open addressing, power-of-two capacity */
    uint64_t *key;
    uint32_t *val;
    size_t words, wcap;
} ideal_mem;

static uint32_t *word_slot(ideal_mem *m, uint64_t addr, int create)
{
    if (create && (m->words + 1) * 2 > m->wcap) {
        size_t cap = m->wcap ? m->wcap * 2 : 64;
        uint64_t *key = malloc(cap * sizeof *key);
        uint32_t *val = calloc(cap, sizeof *val);
        if (!key || !val) {
            free(key);
            free(val);
            return NULL;
        }
        for (size_t i = 0; i < cap; i++)
            key[i] = UINT64_MAX;
        for (size_t i = 0; i < m->wcap; i++) {
            if (m->key[i] == UINT64_MAX)
                continue;
            size_t h = (size_t)(m->key[i] * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
            while (key[h] != UINT64_MAX)
                h = (h + 1) & (cap - 1);
            key[h] = m->key[i];
            val[h] = m->val[i];
        }
        free(m->key);
        free(m->val);
        m->key = key;
        m->val = val;
        m->wcap = cap;
    }
    if (!m->wcap)
        return NULL;
    size_t h = (size_t)(addr * 0x9E3779B97F4A7C15ull >> 20) & (m->wcap - 1);
    while (m->key[h] != UINT64_MAX) {
        if (m->key[h] == addr)
            return &m->val[h];
        h = (h + 1) & (m->wcap - 1);
    }
    if (!create)
        return NULL;
    m->key[h] = addr;
    m->words++;
    return &m->val[h];
}

static sim_mem_outcome ideal_access(void *self, const sim_mem_request *req, uint64_t cycle,
                                    sim_fail_cause *cause)
{
    ideal_mem *m = self;
    ideal_q *q = &m->q[req->sm];
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 64;
        sim_mem_request *r = malloc(cap * sizeof *r);
        uint64_t *due = malloc(cap * sizeof *due);
        if (!r || !due) {
            free(r);
            free(due);
            *cause = SIM_FAIL_MISS_QUEUE;
            return SIM_MEM_RESERVATION_FAIL;
        }
        for (size_t i = 0; i < q->n; i++) {
            r[i] = q->r[(q->head + i) % q->cap];
            due[i] = q->due[(q->head + i) % q->cap];
        }
        free(q->r);
        free(q->due);
        q->r = r;
        q->due = due;
        q->head = 0;
        q->cap = cap;
    }
    size_t at = (q->head + q->n++) % q->cap;
    q->r[at] = *req;
    q->due[at] = cycle + (uint64_t)m->latency;
    if (req->op == SIM_MEM_ATOMIC) {
        uint32_t *w = word_slot(m, req->addr, 1);
        q->r[at].value = w ? *w : 0;
        if (w)
            *w += req->value;
    } else if (req->op == SIM_MEM_LOAD && (req->flags & SIM_MEM_VOLATILE)) {
        uint32_t *w = word_slot(m, req->addr, 0);
        q->r[at].value = w ? *w : 0;
    }
    m->outstanding++;
    *cause = SIM_FAIL_NONE;
    return req->op == SIM_MEM_LOAD ? SIM_MEM_MISS : SIM_MEM_SENT;
}

static int ideal_pop(void *self, int sm, uint64_t cycle, sim_mem_request *done)
{
    ideal_mem *m = self;
    ideal_q *q = &m->q[sm];
    if (!q->n || q->due[q->head] > cycle)
        return 0;
    *done = q->r[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    m->outstanding--;
    return 1;
}

static int ideal_pop_next(void *self, int from, uint64_t cycle, sim_mem_request *done)
{
    int n_sm = ((ideal_mem *)self)->n_sm;
    for (int s = from < 0 ? 0 : from; s < n_sm; s++)
        if (ideal_pop(self, s, cycle, done))
            return s;
    return n_sm;
}

static void ideal_cycle(void *self, uint64_t cycle)
{
    (void)self;
    (void)cycle;
}

static uint64_t ideal_outstanding(const void *self)
{
    return ((const ideal_mem *)self)->outstanding;
}

static uint64_t ideal_next(const void *self, uint64_t cycle)
{
    const ideal_mem *m = self;
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < m->n_sm; s++) {
        const ideal_q *q = &m->q[s];
        if (q->n && q->due[q->head] < best)
            best = q->due[q->head];
    }
    return best <= cycle ? cycle + 1 : best;
}

static void ideal_poke(void *self, uint64_t addr, uint32_t value)
{
    uint32_t *w = word_slot(self, addr, 1);
    if (w)
        *w = value;
}

static uint32_t ideal_peek(const void *self, uint64_t addr)
{
    uint32_t *w = word_slot((ideal_mem *)self, addr, 0);
    return w ? *w : 0;
}

static void ideal_nop(void *self)
{
    (void)self;
}

static void ideal_destroy(void *self)
{
    ideal_mem *m = self;
    if (!m)
        return;
    for (int s = 0; s < m->n_sm; s++) {
        free(m->q[s].r);
        free(m->q[s].due);
    }
    free(m->q);
    free(m->key);
    free(m->val);
    free(m);
}

static const sim_mem_port_ops ideal_ops = {ideal_access, ideal_pop_next, ideal_cycle,
                                           ideal_outstanding, ideal_next, ideal_poke,
                                           ideal_peek, ideal_nop, ideal_nop, NULL,
                                           ideal_destroy, NULL, NULL, NULL};

trapeze_status sim_mem_port_ideal(int n_sm, int latency, sim_mem_port *out, trapeze_error *err)
{
    ideal_mem *m = calloc(1, sizeof *m);
    if (m)
        m->q = calloc((size_t)(n_sm > 0 ? n_sm : 1), sizeof *m->q);
    if (!m || !m->q) {
        free(m);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "ideal memory: out of memory");
    }
    m->n_sm = n_sm;
    m->latency = latency < 1 ? 1 : latency;
    out->ops = &ideal_ops;
    out->self = m;
    return TRAPEZE_OK;
}
