/*
 * test_miss_class.c - the L1D's miss contention classes (sim/mem/l1d.c,
 * -trapeze_contention_counters): a load miss that evicts a valid line is
 * intra-warp (IW) when the same warp brought that line, cross-warp (XW)
 * when another warp of the same block did, cross-block (XB) otherwise
 * (the seed's Fig. 3.4 classes); a miss into an empty way is none of them.
 */
#include <string.h>

#include "check.h"
#include "sim/mem/mem_stats.h"
#include "sim/memsys.h"

/* One 128-byte load of tag t in set 0 of the 32-set baseline L1D by
 * `origin` (block id << 8 | warp slot), run until it is back. */
static sim_mem_outcome load(sim_memsys *m, int t, uint32_t origin, uint64_t *now)
{
    sim_mem_request r, done;
    memset(&r, 0, sizeof r);
    r.addr = (uint64_t)t * 32 * 128;
    r.sector_mask = 0xf;
    r.bytes = 128;
    r.op = SIM_MEM_LOAD;
    r.origin = origin;
    sim_mem_outcome o = sim_memsys_access(m, &r, (*now)++, NULL);
    for (; sim_memsys_outstanding(m) && *now < 100000; (*now)++) {
        sim_memsys_cycle(m, *now);
        while (sim_memsys_pop(m, 0, *now, &done))
            ;
    }
    return o;
}

static sim_memsys *memsys(const char *extra)
{
    char text[256];
    snprintf(text, sizeof text, "-gpgpu_cache:dl1 32:128:4,L:L:m:N:L,A:32:8,8\n%s", extra);
    trapeze_config *cfg = NULL;
    sim_memsys *m = NULL;
    trapeze_error err;
    CHECK_OK(trapeze_config_parse(text, "class.config", &cfg, &err));
    if (cfg)
        CHECK_OK(sim_memsys_create(cfg, 1, NULL, &m, &err));
    trapeze_config_destroy(cfg);
    return m;
}

/* Block 1's warp 0 fills the 4 ways of set 0 with tags 0-3 (no class: the
 * ways were empty). Then, LRU taking tags 0, 1, 2, 3, 4 in turn: warp 0
 * itself loads tag 4 (IW), block 1's warp 1 tag 5 (XW), block 2's warp 0
 * tags 6 and 7 (XB, XB), block 1's warp 0 tag 8, evicting its own tag 4
 * (IW). A hit (tag 8 again) is no miss. IW 2, XW 1, XB 2 of 9 misses. */
static void test_classes(void)
{
    sim_memsys *m = memsys("-trapeze_contention_counters 1\n");
    if (!m)
        return;
    uint64_t now = 0;
    for (int t = 0; t < 4; t++)
        CHECK(load(m, t, 0x100, &now) == SIM_MEM_MISS);
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    CHECK(s->miss_iw == 0 && s->miss_xw == 0 && s->miss_xb == 0);
    CHECK(load(m, 4, 0x100, &now) == SIM_MEM_MISS);
    CHECK(s->miss_iw == 1);
    CHECK(load(m, 5, 0x101, &now) == SIM_MEM_MISS);
    CHECK(s->miss_xw == 1);
    CHECK(load(m, 6, 0x200, &now) == SIM_MEM_MISS && load(m, 7, 0x200, &now) == SIM_MEM_MISS);
    CHECK(s->miss_xb == 2);
    CHECK(load(m, 8, 0x100, &now) == SIM_MEM_MISS);
    CHECK(load(m, 8, 0x100, &now) == SIM_MEM_HIT);
    CHECK(s->miss_iw == 2 && s->miss_xw == 1 && s->miss_xb == 2);
    CHECK(s->misses == 9 && s->evictions == 5);
    sim_memsys_destroy(m);
}

/* Without the option nothing is counted (and no per-frame origin kept). */
static void test_off(void)
{
    sim_memsys *m = memsys("");
    if (!m)
        return;
    uint64_t now = 0;
    for (int t = 0; t < 6; t++)
        load(m, t, (uint32_t)t << 8, &now);
    const sim_cache_stats *s = sim_memsys_l1_stats(m, 0);
    CHECK(s->evictions == 2 && s->miss_iw + s->miss_xw + s->miss_xb == 0);
    sim_memsys_destroy(m);
}

int main(void)
{
    test_classes();
    test_off();
    return check_report("test_miss_class");
}
