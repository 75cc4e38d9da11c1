/*
 * test_selcache.c - Choo's selective caching (sim/mem/selcache.c) on cases
 * worked by hand: the per-set bypass decision of the seed's Fig. 4.5d, the
 * locality degree's victim or bypass, LASC's reuse table turning a PC to
 * bypass and back, a bypassed request whose line is in the L1D, the
 * options' errors, a bypassed load in the memory
 * system (counted, never allocated), MRPB's bypass instead of a refusal,
 * and the contention counters (per-set contention, reuse per evicted line).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/mem/cache.h"
#include "sim/mem/mem_config.h"
#include "sim/mem/mem_stats.h"
#include "sim/mem/memsys_impl.h"
#include "sim/mem/selcache.h"
#include "sim/memsys.h"

#define BASE "data/gpus/choo-baseline.config"

/* A 32-set cache of `assoc` ways, 128-byte lines, linear index. */
static void cache(sim_cache *c, int assoc)
{
    sim_cache_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.enabled = 1;
    cfg.sets = 32;
    cfg.line = 128;
    cfg.assoc = assoc;
    cfg.mshr_entries = 32;
    cfg.mshr_merge = 8;
    cfg.miss_queue = 8;
    if (!sim_cache_init(c, &cfg))
        exit(1);
}

/* The address of tag t in set s of that cache. */
static uint64_t at(int s, int t) { return (uint64_t)s * 128 + (uint64_t)t * 32 * 128; }

static void plan(const sim_mem_config *cfg, const sim_sel_state *st, const sim_cache *c,
                 sim_mem_request *r, int n)
{
    sim_mem_request *p[32];
    for (int i = 0; i < n; i++)
        p[i] = &r[i];
    sim_sel_plan(cfg, st, c, p, n);
}

/* Fig. 4.5d: 8 requests, 5 to set i and 3 to set k, 2 ways: set i caches
 * its last 2 and bypasses 3, set k caches its last 2 and bypasses 1. */
static void test_plan(void)
{
    sim_cache c;
    cache(&c, 2);
    sim_mem_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.l1_select = SIM_SEL_IND;
    sim_sel_state st;
    memset(&st, 0, sizeof st);
    int set[8] = {5, 9, 5, 5, 9, 5, 9, 5};   /* i = 5, k = 9, interleaved */
    int bypass[8] = {1, 1, 1, 1, 0, 0, 0, 0};
    sim_mem_request r[8];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 8; i++)
        r[i].addr = at(set[i], i);
    plan(&cfg, &st, &c, r, 8);
    for (int i = 0; i < 8; i++) {
        CHECK(!!(r[i].flags & SIM_MEM_BYPASS_L1) == bypass[i]);
        CHECK(!!(r[i].flags & SIM_MEM_SEL_CACHE) == !bypass[i]);
    }
    /* D = 2 <= assoc: a convergent enough load is cached as it is */
    memset(r, 0, sizeof r);
    r[0].addr = at(5, 0);
    r[1].addr = at(5, 1);
    plan(&cfg, &st, &c, r, 2);
    CHECK(r[0].flags == 0 && r[1].flags == 0);
    /* bypass_all: every request, whatever its divergence */
    cfg.l1_select = SIM_SEL_BYPASS_ALL;
    plan(&cfg, &st, &c, r, 1);
    CHECK(r[0].flags == SIM_MEM_BYPASS_L1 && r[1].flags == 0);
    sim_cache_free(&c);
}

/* The locality degree: a set of two valid lines re-referenced 3 and 1
 * times. A PC never evicted caches over the less used line; one whose
 * evicted lines averaged 1 is not higher than 1 and bypasses; 2 is. */
static void test_victim(void)
{
    sim_cache c;
    cache(&c, 2);
    sim_mem_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.l1_select = SIM_SEL_LOC;
    sim_sel_state st;
    memset(&st, 0, sizeof st);
    int way;
    CHECK(sim_cache_probe(&c, at(3, 0), &way) == SIM_PROBE_MISS);
    CHECK(sim_sel_victim(&st, &c, at(3, 0), 0x40, way) == way);   /* invalid: taken as it is */
    for (int t = 0; t < 2; t++) {
        sim_cache_probe(&c, at(3, t), &way);
        sim_line *l = sim_cache_line(&c, at(3, t), way);
        sim_cache_install(&c, at(3, t), way, SIM_LINE_VALID);
        sim_sel_insert(l, 0x10);
        for (int h = 0; h < (t ? 1 : 3); h++)
            sim_sel_hit(l);
    }
    int lru;
    CHECK(sim_cache_probe(&c, at(3, 7), &lru) == SIM_PROBE_MISS);
    CHECK(lru == 0);   /* LRU would evict tag 0, the line used 3 times */
    int less = sim_cache_find(&c, at(3, 1));
    CHECK(sim_sel_victim(&st, &c, at(3, 7), 0x40, lru) == less);
    /* PC 0x40's evicted lines: re-referenced 0 and 2 times, average 1 */
    sim_line ev;
    memset(&ev, 0, sizeof ev);
    sim_sel_insert(&ev, 0x40);
    sim_sel_evict(&cfg, &st, &ev);
    ev.reuse = 2;
    sim_sel_evict(&cfg, &st, &ev);
    CHECK(sim_sel_victim(&st, &c, at(3, 7), 0x40, lru) == -1);
    ev.reuse = 4;   /* average (0 + 2 + 4) / 3 = 2 > 1 */
    sim_sel_evict(&cfg, &st, &ev);
    CHECK(sim_sel_victim(&st, &c, at(3, 7), 0x40, lru) == less);
    /* the counter saturates at 4 bits */
    sim_line *l = sim_cache_line(&c, at(3, 0), sim_cache_find(&c, at(3, 0)));
    for (int h = 0; h < 20; h++)
        sim_sel_hit(l);
    CHECK(l->reuse == 15);
    sim_cache_free(&c);
}

/* LASC's 1-bit table: a PC with no entry is cached; once one of its lines
 * is evicted unreused its loads bypass; a reused line evicted later ORs
 * the entry to reuse and they are cached again (and stay so). */
static void test_lasc(void)
{
    sim_cache c;
    cache(&c, 4);
    sim_mem_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.lasc = 1;
    cfg.lasc_entries = 64;
    sim_sel_state st;
    memset(&st, 0, sizeof st);
    sim_mem_request r[2];
    memset(r, 0, sizeof r);
    r[0].pc = r[1].pc = 0x230;
    r[1].addr = 128;
    plan(&cfg, &st, &c, r, 2);
    CHECK(r[0].flags == 0 && r[1].flags == 0);
    sim_line ev;
    memset(&ev, 0, sizeof ev);
    sim_sel_insert(&ev, 0x230);
    sim_sel_evict(&cfg, &st, &ev);
    plan(&cfg, &st, &c, r, 2);
    CHECK(r[0].flags == SIM_MEM_BYPASS_L1 && r[1].flags == SIM_MEM_BYPASS_L1);
    /* another PC is not affected (unless it aliases: 0x230 and 0x240 do not) */
    CHECK((sim_sel_hash(0x230) & 63) != (sim_sel_hash(0x240) & 63));
    r[0].flags = r[1].flags = 0;
    r[0].pc = r[1].pc = 0x240;
    plan(&cfg, &st, &c, r, 2);
    CHECK(r[0].flags == 0);
    sim_sel_hit(&ev);
    sim_sel_evict(&cfg, &st, &ev);
    sim_sel_insert(&ev, 0x230);
    sim_sel_evict(&cfg, &st, &ev);   /* unreused again: the OR keeps reuse */
    r[0].pc = r[1].pc = 0x230;
    plan(&cfg, &st, &c, r, 2);
    CHECK(r[0].flags == 0 && r[1].flags == 0);
    sim_cache_free(&c);
}

static trapeze_config *config(const char *extra)
{
    char text[256];
    snprintf(text, sizeof text, "-gpgpu_cache:dl1 32:128:4,L:L:m:N:L,A:32:8,8\n%s", extra);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    if (trapeze_config_parse(text, "sel.config", &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    return cfg;
}

/* The one-SM memory system of config(extra), or NULL (the failure counted). */
static sim_memsys *memsys(const char *extra)
{
    trapeze_config *cfg = config(extra);
    sim_memsys *m = NULL;
    trapeze_error err;
    CHECK_OK(sim_memsys_create(cfg, 1, NULL, &m, &err));
    trapeze_config_destroy(cfg);
    return m;
}

/* A whole-line (4-sector) load of addr. */
static sim_mem_request line_load(uint64_t addr)
{
    sim_mem_request r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.sector_mask = 0xf;
    r.bytes = 128;
    r.op = SIM_MEM_LOAD;
    return r;
}

static void test_options(void)
{
    static const struct { const char *text, *want; } bad[] = {
        {"-trapeze_l1d_select lru\n",
         "sel.config:2: option -trapeze_l1d_select: unknown policy 'lru' (none, bypass_all, ind, loc)"},
        {"-trapeze_l1d_lasc_entries 48\n",
         "sel.config:2: option -trapeze_l1d_lasc_entries: 48 is not a power of two"},
        {"-trapeze_l1d_lasc 2\n", "sel.config:2: option -trapeze_l1d_lasc: 2 is outside [0, 1]"},
        {"-trapeze_l1_bypass_pcs 0x30,0x5g\n",
         "sel.config:2: option -trapeze_l1_bypass_pcs: '0x5g' is not a PC"},
        {"-trapeze_l1_bypass_pcs 0x100000000\n",
         "sel.config:2: option -trapeze_l1_bypass_pcs: '0x100000000' is not a PC"},
        {"-trapeze_l1_bypass_pcs 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n",
         "sel.config:2: option -trapeze_l1_bypass_pcs: more than 16 PCs"},
    };
    trapeze_error err;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        trapeze_config *cfg = config(bad[i].text);
        sim_mem_config c;
        CHECK(sim_mem_config_read(cfg, 1, &c, &err) != TRAPEZE_OK);
        if (!strstr(err.message, bad[i].want))
            fprintf(stderr, "got: %s\nwant: %s\n", err.message, bad[i].want);
        CHECK(strstr(err.message, bad[i].want) != NULL);
        trapeze_config_destroy(cfg);
    }
    trapeze_config *cfg = config("-trapeze_l1d_select loc\n-trapeze_l1d_lasc 1\n");
    sim_mem_config c;
    CHECK_OK(sim_mem_config_read(cfg, 1, &c, &err));
    CHECK(c.l1_select == SIM_SEL_LOC && c.lasc == 1 && c.lasc_entries == 64);
    trapeze_config_destroy(cfg);
    cfg = config("");
    CHECK_OK(sim_mem_config_read(cfg, 1, &c, &err));
    CHECK(c.l1_select == SIM_SEL_NONE && !c.lasc && !sim_sel_on(&c) && c.n_bypass_pcs == 0);
    trapeze_config_destroy(cfg);
    cfg = config("-trapeze_l1_bypass_pcs 0x30,88\n");
    CHECK_OK(sim_mem_config_read(cfg, 1, &c, &err));
    CHECK(c.n_bypass_pcs == 2 && c.bypass_pcs[0] == 0x30 && c.bypass_pcs[1] == 0x58);
    CHECK(sim_sel_on(&c));
    trapeze_config_destroy(cfg);
}

/* In the memory system: a column-strided warp load of 6 lines in set 0
 * under ind on the 4-way baseline L1. Its first 2 requests bypass (counted
 * as bypasses, never in the L1), its last 4 miss and are allocated; once
 * all are back, the last 4 hit. */
static void test_memsys(void)
{
    sim_memsys *m = memsys("-trapeze_l1d_select ind\n-gpgpu_n_mem 6\n");
    if (!m)
        return;
    sim_mem_request r[6], *p[6];
    for (int i = 0; i < 6; i++) {
        r[i] = line_load(at(0, i));
        r[i].pc = 0x80;
        p[i] = &r[i];
    }
    sim_memsys_select(m, p, 6);
    CHECK((r[0].flags & SIM_MEM_BYPASS_L1) && (r[1].flags & SIM_MEM_BYPASS_L1));
    CHECK(!(r[2].flags & SIM_MEM_BYPASS_L1) && (r[5].flags & SIM_MEM_SEL_CACHE));
    uint64_t t = 0;
    for (int i = 0; i < 6; i++)
        CHECK(sim_memsys_access(m, &r[i], t++, NULL) != SIM_MEM_RESERVATION_FAIL);
    sim_mem_request done;
    int got = 0;
    for (; got < 6 && t < 100000; t++) {
        sim_memsys_cycle(m, t);
        while (sim_memsys_pop(m, 0, t, &done))
            got++;
    }
    CHECK(got == 6);
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    CHECK(s->bypasses == 2 && s->misses == 4 && s->hits == 0);
    for (int i = 2; i < 6; i++)   /* the cached lines again: all 4 are there */
        sim_memsys_access(m, &r[i], t++, NULL);
    CHECK(s->hits == 4 && s->misses == 4 && s->bypasses == 2);
    for (; sim_memsys_outstanding(m) && t < 200000; t++) {
        sim_memsys_cycle(m, t);
        while (sim_memsys_pop(m, 0, t, &done))
            ;
    }
    CHECK(sim_memsys_outstanding(m) == 0);
    sim_memsys_destroy(m);
}

/* MRPB's bypass: a fifth miss to a set whose 4 ways are all reserved is
 * refused on the baseline (line allocation) but bypasses with
 * -trapeze_l1d_bypass_on_stall 1. */
static void test_bypass_on_stall(void)
{
    for (int on = 0; on <= 1; on++) {
        sim_memsys *m = memsys(on ? "-trapeze_l1d_bypass_on_stall 1\n" : "");
        if (!m)
            return;
        sim_mem_request r = line_load(0);
        for (int i = 0; i < 4; i++) {
            r.addr = at(0, i);
            CHECK(sim_memsys_access(m, &r, (uint64_t)i, NULL) == SIM_MEM_MISS);
        }
        sim_fail_cause why = SIM_FAIL_NONE;
        r.addr = at(0, 4);
        sim_mem_outcome o = sim_memsys_access(m, &r, 4, &why);
        CHECK(on ? o == SIM_MEM_SENT : (o == SIM_MEM_RESERVATION_FAIL && why == SIM_FAIL_LINE_ALLOC));
        CHECK(sim_memsys_l1_stats(m, 0)->bypasses == (uint64_t)on);
        sim_mem_request done;
        for (uint64_t t = 5; sim_memsys_outstanding(m) && t < 100000; t++) {
            sim_memsys_cycle(m, t);
            while (sim_memsys_pop(m, 0, t, &done))
                ;
        }
        CHECK(sim_memsys_outstanding(m) == 0);
        sim_memsys_destroy(m);
    }
}

/* Drains the memory system from cycle *t until nothing is outstanding. */
static void drain(sim_memsys *m, uint64_t *t)
{
    sim_mem_request done;
    for (; sim_memsys_outstanding(m) && *t < 100000; (*t)++) {
        sim_memsys_cycle(m, *t);
        while (sim_memsys_pop(m, 0, *t, &done))
            ;
    }
}

/* LASC's bypass of a request whose line is in the L1D anyway: PC 0x240
 * misses on line 0; PC 0x230, already predicted not to be reused, loads
 * the same line once while its fill is pending and once after. Read as
 * the text is (-trapeze_l1d_lasc_serve_hits 0) both go to L2 (2 bypasses);
 * served by the L1 they merge into the fill and then hit (0 bypasses: what
 * kept jacobi 128x128 18% slower than the baseline at threshold 1.0).
 * Either way the line's reuse bit is set, so 0x240 stays cached. */
static void test_lasc_found_line(void)
{
    for (int serve = 0; serve <= 1; serve++) {
        sim_memsys *m = memsys(serve ? "-trapeze_l1d_lasc 1\n"
                                     : "-trapeze_l1d_lasc 1\n-trapeze_l1d_lasc_serve_hits 0\n");
        if (!m)
            return;
        m->sm[0].sel.rft_seen[sim_sel_hash(0x230) & 63] = 1;   /* 0x230: no reuse seen */
        sim_mem_request b = line_load(0), a, *pa = &a, *pb = &b;
        b.pc = 0x240;
        a = b;
        a.pc = 0x230;
        sim_memsys_select(m, &pb, 1);
        sim_memsys_select(m, &pa, 1);
        CHECK(b.flags == 0 && a.flags == SIM_MEM_BYPASS_L1);
        uint64_t t = 0;
        CHECK(sim_memsys_access(m, &b, t++, NULL) == SIM_MEM_MISS);
        CHECK(sim_memsys_access(m, &a, t++, NULL) == (serve ? SIM_MEM_MERGED : SIM_MEM_SENT));
        drain(m, &t);
        CHECK(sim_memsys_access(m, &a, t++, NULL) == (serve ? SIM_MEM_HIT : SIM_MEM_SENT));
        drain(m, &t);
        const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
        CHECK(s->bypasses == (serve ? 0u : 2u) && s->hits == (uint64_t)serve &&
              s->merges == (uint64_t)serve && s->misses == 1);
        sim_cache *c = &m->sm[0].l1;
        int way = sim_cache_find(c, 0);
        CHECK(way >= 0 && sim_cache_line(c, 0, way)->reuse > 0);
        sim_memsys_destroy(m);
    }
}

/* Tag-only probes, by hand. A load LASC bypasses (PC 0x230, no reuse
 * seen) whose line is not in the L1D: its tags are checked on the way, one
 * tag probe, and no data read (no L1 access, hit or miss). Served by the L1
 * (its line pending), it is a merge: a read, no tag probe. On the baseline,
 * a fifth line for a set of 4 reserved ways is refused: a tag probe, and
 * the same refusal offered again (the LDST unit's retry) one more. */
static void test_tag_probes(void)
{
    sim_memsys *m = memsys("-trapeze_l1d_lasc 1\n");
    if (!m)
        return;
    m->sm[0].sel.rft_seen[sim_sel_hash(0x230) & 63] = 1;
    sim_mem_request a = line_load(at(0, 0)), *pa = &a;
    a.pc = 0x230;
    sim_memsys_select(m, &pa, 1);
    CHECK(a.flags == SIM_MEM_BYPASS_L1);
    uint64_t t = 0;
    CHECK(sim_memsys_access(m, &a, t++, NULL) == SIM_MEM_SENT);
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    CHECK(s->tag_probes == 1 && s->bypasses == 1 && s->accesses == 0 && s->hits == 0 &&
          s->misses == 0 && s->merges == 0);
    sim_mem_request b = line_load(at(1, 0));   /* PC 0: cached; a then merges into it */
    CHECK(sim_memsys_access(m, &b, t++, NULL) == SIM_MEM_MISS);
    a.addr = b.addr;
    CHECK(sim_memsys_access(m, &a, t++, NULL) == SIM_MEM_MERGED);
    CHECK(s->tag_probes == 1 && s->accesses == 2 && s->merges == 1);
    drain(m, &t);
    sim_memsys_destroy(m);

    m = memsys("");
    if (!m)
        return;
    s = sim_memsys_l1_stats(m, 0);
    sim_mem_request r = line_load(0);
    for (int i = 0; i < 4; i++) {
        r.addr = at(0, i);
        CHECK(sim_memsys_access(m, &r, t, NULL) == SIM_MEM_MISS);
    }
    r.addr = at(0, 4);
    for (int k = 1; k <= 2; k++) {
        CHECK(sim_memsys_access(m, &r, t, NULL) == SIM_MEM_RESERVATION_FAIL);
        CHECK(s->tag_probes == (uint64_t)k && s->reservation_fails == (uint64_t)k);
    }
    CHECK(s->accesses == 4);
    t = 0;
    drain(m, &t);
    sim_memsys_destroy(m);
}

/* Per-PC bypass: two loads, PC 0x30 listed and PC 0x58 not, each of two
 * lines (sets 1 and 2), run twice. The first pass: 0x30's 2 requests
 * bypass (no fill), 0x58's 2 miss and fill; the second: 0x30 bypasses
 * again (its lines were never brought in), 0x58 hits both. */
static void test_bypass_pcs(void)
{
    sim_memsys *m = memsys("-trapeze_l1_bypass_pcs 0x30\n-gpgpu_n_mem 6\n");
    if (!m)
        return;
    sim_mem_request a[2], b[2], *pa[2] = {&a[0], &a[1]}, *pb[2] = {&b[0], &b[1]};
    for (int i = 0; i < 2; i++) {
        a[i] = line_load(at(1, i));
        a[i].pc = 0x30;
        b[i] = line_load(at(2, i));
        b[i].pc = 0x58;
    }
    uint64_t t = 0;
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    for (int pass = 0; pass < 2; pass++) {
        sim_memsys_select(m, pa, 2);
        sim_memsys_select(m, pb, 2);
        CHECK((a[0].flags & SIM_MEM_BYPASS_L1) && (a[1].flags & SIM_MEM_BYPASS_L1));
        CHECK(!(b[0].flags & SIM_MEM_BYPASS_L1) && !(b[1].flags & SIM_MEM_BYPASS_L1));
        for (int i = 0; i < 2; i++) {
            CHECK(sim_memsys_access(m, &a[i], t++, NULL) == SIM_MEM_SENT);
            CHECK(sim_memsys_access(m, &b[i], t++, NULL) == (pass ? SIM_MEM_HIT : SIM_MEM_MISS));
        }
        drain(m, &t);
        a[0].flags = a[1].flags = b[0].flags = b[1].flags = 0;
    }
    CHECK(s->bypasses == 4 && s->misses == 2 && s->hits == 2 && s->fills == 2);
    sim_memsys_destroy(m);
}

/* Per-PC counters with -trapeze_contention_counters and 0x30 listed to
 * bypass: PC 0x58 fills lines 0-3 of set 0 and re-reads line 0 twice and
 * line 1 once (7 accesses, 4 misses); PC 0x40 fills lines 4-7 of the set,
 * evicting 0x58's four (2 + 1 + 0 + 0 = 3 re-reads, 2 never re-read); PC
 * 0x30 loads line 8 twice, past the L1 (2 bypasses). The sum is in
 * ascending PC order. */
static void test_pc_counters(void)
{
    sim_memsys *m = memsys("-trapeze_contention_counters 1\n-trapeze_l1_bypass_pcs 0x30\n");
    if (!m)
        return;
    sim_mem_request r = line_load(0), *pr = &r;
    uint64_t t = 0;
    r.pc = 0x58;
    for (int i = 0; i < 4; i++) {
        r.addr = at(0, i);
        CHECK(sim_memsys_access(m, &r, t++, NULL) == SIM_MEM_MISS);
    }
    drain(m, &t);
    int reads[4] = {2, 1, 0, 0};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < reads[i]; k++) {
            r.addr = at(0, i);
            CHECK(sim_memsys_access(m, &r, t++, NULL) == SIM_MEM_HIT);
        }
    r.pc = 0x40;
    for (int i = 0; i < 4; i++) {
        r.addr = at(0, 4 + i);
        CHECK(sim_memsys_access(m, &r, t++, NULL) == SIM_MEM_MISS);
    }
    drain(m, &t);
    r.pc = 0x30;
    r.addr = at(1, 8);
    for (int k = 0; k < 2; k++) {
        r.flags = 0;
        sim_memsys_select(m, &pr, 1);
        CHECK(sim_memsys_access(m, &r, t++, NULL) == SIM_MEM_SENT);
        drain(m, &t);
    }
    const sim_mem_stats *st = sim_memsys_stats(m);
    CHECK(st->n_pcs == 3);
    const sim_pc_stats *a = &st->pcs[0], *b = &st->pcs[1], *c = &st->pcs[2];
    CHECK(a->pc == 0x30 && a->bypasses == 2 && a->accesses == 0 && a->evictions == 0);
    CHECK(b->pc == 0x40 && b->accesses == 4 && b->misses == 4 && b->evictions == 0);
    CHECK(c->pc == 0x58 && c->accesses == 7 && c->misses == 4 && c->bypasses == 0);
    CHECK(c->evictions == 4 && c->evicted_unused == 2 && c->evicted_reuse == 3);
    sim_memsys_destroy(m);
}

/* -trapeze_contention_counters on the 4-way, 32-set baseline L1D: a warp
 * load with 6 requests in set 0 and 2 in set 3 (most in one set 6, over
 * the 4 ways: an overflow) and one with 3 in set 1 and 1 in set 2 (3): 9
 * summed, 1 overflow. Then lines 0-3 of set 0 are filled, line 0 read
 * twice and line 1 once, and four new lines of the set evict all four:
 * 2 + 1 + 0 + 0 = 3 re-reads, 2 lines never re-read. */
static void test_contention_counters(void)
{
    sim_memsys *m = memsys("-trapeze_contention_counters 1\n");
    if (!m)
        return;
    sim_mem_request r[8], *p[8];
    int set1[8] = {0, 0, 3, 0, 0, 3, 0, 0}, set2[4] = {1, 2, 1, 1};
    for (int i = 0; i < 8; i++) {
        r[i] = line_load(at(set1[i], i));
        p[i] = &r[i];
    }
    sim_memsys_select(m, p, 8);
    for (int i = 0; i < 4; i++)
        r[i].addr = at(set2[i], i);
    sim_memsys_select(m, p, 4);
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    CHECK(s->load_set_max == 9 && s->load_set_overflows == 1);
    CHECK(r[0].flags == 0);   /* counted only: nothing bypasses without a policy */
    uint64_t t = 0;
    for (int i = 0; i < 4; i++) {
        r[i].addr = at(0, i);
        CHECK(sim_memsys_access(m, &r[i], t++, NULL) == SIM_MEM_MISS);
    }
    drain(m, &t);
    int reads[4] = {2, 1, 0, 0};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < reads[i]; k++)
            CHECK(sim_memsys_access(m, &r[i], t++, NULL) == SIM_MEM_HIT);
    drain(m, &t);
    for (int i = 0; i < 4; i++) {
        r[i].addr = at(0, 4 + i);
        CHECK(sim_memsys_access(m, &r[i], t++, NULL) == SIM_MEM_MISS);
    }
    drain(m, &t);
    CHECK(s->evictions == 4 && s->evicted_reuse == 3 && s->evicted_unused == 2);
    sim_memsys_destroy(m);
}

int main(void)
{
    test_bypass_pcs();
    test_pc_counters();
    test_contention_counters();
    test_tag_probes();
    test_bypass_on_stall();
    test_plan();
    test_victim();
    test_lasc();
    test_lasc_found_line();
    test_options();
    test_memsys();
    return check_report("test_selcache");
}
