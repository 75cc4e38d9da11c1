/*
 * test_ldst_sched.c - the per-warp request queues' probe units
 * (sim/core/ldst_sched.c) on schedules worked by hand: which warp's head is
 * served in each cycle under grr, rr and fixed when some heads are refused,
 * and what a cycle with every probe refused counts.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/core/sm.h"
#include "sim/mem/mem_stats.h"
#include "sim/memsys.h"

enum { WARPS = 8, DEPTH = 32 };

/* A port that refuses requests to blocked addresses and logs the others. */
typedef struct port {
    uint64_t blocked[WARPS];
    int n_blocked, probes;
    int served[16], n_served;
} port;

static sim_mem_outcome p_probe(void *m, const sim_mem_request *req, uint64_t c,
                               sim_fail_cause *cause)
{
    (void)c;
    port *p = m;
    p->probes++;
    for (int i = 0; i < p->n_blocked; i++)
        if (p->blocked[i] == req->addr) {
            *cause = SIM_FAIL_LINE_ALLOC;
            return SIM_MEM_RESERVATION_FAIL;
        }
    if (p->n_served < 16)
        p->served[p->n_served++] = (int)req->tag;
    return SIM_MEM_MISS;
}

static const sim_mem_port_ops ops = {.access = p_probe};

typedef struct rig {
    sim_core_config cfg;
    sim_sm sm;
    sim_mem_port mem;
    port p;
    sim_mem_request lq[WARPS * DEPTH];
    uint64_t at[WARPS * DEPTH];
    uint8_t last[WARPS * DEPTH];
    int head[WARPS], n[WARPS];
} rig;

/* One request (address 1000 + w, tag w) queued for each warp of `warps`. */
static void setup(rig *r, sim_ldst_sched policy, const int *warps, int count)
{
    memset(r, 0, sizeof *r);
    r->cfg.max_warps = WARPS;
    r->cfg.ldst_sched = policy;
    r->cfg.ldst_depth = DEPTH;
    r->cfg.ldst_probes = 4;
    r->mem.ops = &ops;
    r->mem.self = &r->p;
    r->sm.cfg = &r->cfg;
    r->sm.mem = &r->mem;
    r->sm.lq = r->lq;
    r->sm.lq_at = r->at;
    r->sm.lq_last = r->last;
    r->sm.wq_head = r->head;
    r->sm.wq_n = r->n;
    for (int i = 0; i < count; i++) {
        int w = warps[i], e = sim_lq_index(&r->sm, w, 0);
        r->lq[e].addr = 1000 + (uint64_t)w;
        r->lq[e].tag = (uint64_t)w;
        r->lq[e].issue_cycle = SIM_NEVER;
        r->last[e] = 1;
        r->n[w] = 1;
        r->sm.lq_n++;
        r->sm.lq_insts++;
    }
}

static void block(rig *r, int w) { r->p.blocked[r->p.n_blocked++] = 1000 + (uint64_t)w; }

static void steps(rig *r, int from, int to)
{
    for (int t = from; t < to; t++)
        sim_ldst_sched_step(&r->sm, (uint64_t)t);
}

/* Warps 0, 1, 2, 3 and 5 have a head; 0's and 1's are refused.
 * grr, k = 4: cycle 0 probes {0,1,2,3}, serves 2, the group pointer moves
 * to 4; cycle 1 probes {5,0,1,3}, serves 5; cycle 2 {0,1,3} serves 3;
 * cycle 3 {0,1}: both refused, a refused cycle (line allocation); once 1 is
 * unblocked, cycle 4 serves it. */
static void test_grr(void)
{
    static rig r;
    const int warps[] = {0, 1, 2, 3, 5};
    setup(&r, SIM_LDST_GRR, warps, 5);
    block(&r, 0);
    block(&r, 1);
    steps(&r, 0, 4);
    CHECK(r.p.n_served == 3 && r.p.served[0] == 2 && r.p.served[1] == 5 && r.p.served[2] == 3);
    CHECK(r.p.probes == 3 + 1 + 3 + 2);
    CHECK(r.sm.st.ldst_refused == 1 && r.sm.st.refused[SIM_FAIL_LINE_ALLOC] == 1);
    CHECK(r.sm.st.mem_requests == 3 && r.sm.lq_n == 2 && r.sm.lq_insts == 2);
    r.p.n_blocked = 1;   /* warp 1's line is free now */
    steps(&r, 4, 5);
    CHECK(r.p.n_served == 4 && r.p.served[3] == 1 && r.n[1] == 0 && r.n[0] == 1);
}

/* rr probes one head a cycle, slot after slot: 0 and 1 refused (cycles 0,
 * 1), then 2, 3 and 5 served in cycles 2, 3, 4. fixed, k = 4, always from
 * slot 0: {0,1,2,3} serves 2, {0,1,3,5} serves 3, {0,1,5} serves 5. */
static void test_rr_fixed(void)
{
    static rig r;
    const int warps[] = {0, 1, 2, 3, 5};
    setup(&r, SIM_LDST_RR, warps, 5);
    block(&r, 0);
    block(&r, 1);
    steps(&r, 0, 5);
    CHECK(r.p.n_served == 3 && r.p.served[0] == 2 && r.p.served[1] == 3 && r.p.served[2] == 5);
    CHECK(r.p.probes == 5 && r.sm.st.ldst_refused == 2);
    setup(&r, SIM_LDST_FIXED, warps, 5);
    block(&r, 0);
    block(&r, 1);
    steps(&r, 0, 3);
    CHECK(r.p.n_served == 3 && r.p.served[0] == 2 && r.p.served[1] == 3 && r.p.served[2] == 5);
    CHECK(r.p.probes == 3 + 3 + 3 && r.sm.st.ldst_refused == 0);
}

/* A request not yet offerable (lq_at in the future) is not probed. */
static void test_not_yet(void)
{
    static rig r;
    const int warps[] = {4};
    setup(&r, SIM_LDST_GRR, warps, 1);
    int e = sim_lq_index(&r.sm, 4, 0);
    r.at[e] = 7;
    steps(&r, 0, 7);
    CHECK(r.p.probes == 0 && r.sm.st.ldst_refused == 0);
    steps(&r, 7, 8);
    CHECK(r.p.n_served == 1 && r.p.served[0] == 4 && r.lq[e].issue_cycle == 7);
}

/* The probe units on the real memory system (one SM, the 4-way 32-set
 * baseline L1D): lines 0-3 of set 0 are pending, so each of the 4 warps'
 * heads (lines 4-7 of set 0) is refused for line allocation. One grr step
 * with k = 4 probes all 4 heads: 4 tag probes (each looked up, no data
 * read), no L1 access, one refused LDST cycle; a second step 4 more. */
static void test_probe_units_charge(void)
{
    static rig r;
    const int warps[] = {0, 1, 2, 3};
    setup(&r, SIM_LDST_GRR, warps, 4);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse("-gpgpu_cache:dl1 32:128:4,L:L:m:N:L,A:32:8,8\n", "q.config",
                                  &cfg, &err));
    sim_mem_port real;
    CHECK_OK(sim_mem_port_real(cfg, 1, NULL, &real, &err));
    trapeze_config_destroy(cfg);
    r.sm.mem = &real;
    sim_memsys *m = real.self;
    sim_mem_request q;
    memset(&q, 0, sizeof q);
    q.sector_mask = 0xf;
    q.bytes = 128;
    q.op = SIM_MEM_LOAD;
    for (int i = 0; i < 4; i++) {
        q.addr = (uint64_t)i * 32 * 128;   /* set 0, tag i */
        CHECK(sim_memsys_access(m, &q, 0, NULL) == SIM_MEM_MISS);
        r.lq[sim_lq_index(&r.sm, i, 0)].addr = (uint64_t)(4 + i) * 32 * 128;
    }
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    steps(&r, 1, 2);
    CHECK(s->tag_probes == 4 && s->accesses == 4 && r.sm.st.ldst_refused == 1 &&
          r.sm.st.refused[SIM_FAIL_LINE_ALLOC] == 1);
    steps(&r, 2, 3);
    CHECK(s->tag_probes == 8 && s->accesses == 4 && r.sm.lq_n == 4);
    real.ops->destroy(real.self);
}

#define HEAD "-gpgpu_clock_domains 700:700:700:924\n-gpgpu_ptx_force_max_capability 20\n"

static void test_options(void)
{
    static const struct { const char *text, *want; } bad[] = {
        {HEAD "-trapeze_ldst_sched lifo\n",
         "q.config:3: option -trapeze_ldst_sched: unknown policy 'lifo' (fifo, fixed, rr, grr)"},
        {HEAD "-trapeze_ldst_queue_depth 16\n",
         "q.config:3: option -trapeze_ldst_queue_depth: 16 is outside [32, 1024]"},
    };
    trapeze_error err;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        trapeze_config *cfg = NULL;
        CHECK_OK(trapeze_config_parse(bad[i].text, "q.config", &cfg, &err));
        sim_core_config c;
        CHECK(sim_core_config_read(cfg, &c, &err) != TRAPEZE_OK);
        if (!strstr(err.message, bad[i].want))
            fprintf(stderr, "got: %s\nwant: %s\n", err.message, bad[i].want);
        CHECK(strstr(err.message, bad[i].want) != NULL);
        trapeze_config_destroy(cfg);
    }
    trapeze_config *cfg = NULL;
    CHECK_OK(trapeze_config_parse(HEAD "-trapeze_ldst_sched grr\n", "q.config", &cfg, &err));
    sim_core_config c;
    CHECK_OK(sim_core_config_read(cfg, &c, &err));
    CHECK(c.ldst_sched == SIM_LDST_GRR && c.ldst_depth == 32 && c.ldst_probes == 4);
    trapeze_config_destroy(cfg);
}

int main(void)
{
    test_options();
    test_grr();
    test_rr_fixed();
    test_not_yet();
    test_probe_units_charge();
    return check_report("test_ldst_sched");
}
