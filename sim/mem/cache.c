/*
 * cache.c - tag array, replacement, set index functions and MSHR table
 * (GPGPU-Sim's tag_array and mshr_table, minus sectors). Owns line states;
 * must not send packets or count statistics.
 *
 * Invariant (checked by TRAPEZE_ASSERT at every lookup in the sanitizer
 * build): tag[i] == lines[i].addr while lines[i].state != INVALID, and
 * tag[i] == SIM_TAG_NONE while it is INVALID. Only sim_cache_install,
 * sim_cache_invalidate, sim_cache_invalidate_valid and sim_cache_reset
 * move a line into or out of INVALID or change its address, each through
 * set_tag. In a cache with a tag index (SIM_CACHE_INDEX_WAYS ways or more,
 * SIM_IDTAB_MAX_IDS frames or fewer),
 * by_tag holds exactly the frames whose tag is not SIM_TAG_NONE (idtab.h's
 * invariant), and bit w of a set's none_bits is set exactly while way
 * w < assoc is INVALID. by_key holds exactly the MSHR entries in use. In
 * a cache with a recency list (SIM_CACHE_RECENCY_WAYS ways or more), each
 * set's list holds exactly its frames whose tag is not SIM_TAG_NONE, in
 * increasing stamp: a stamp is only ever set to the cache's clock just
 * advanced (install, touch), which moves the line to the list's end, so
 * the stamps of the lines in a set are distinct and the list is sorted.
 */
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "sim/mem/cache.h"

int sim_cache_init(sim_cache *c, const sim_cache_cfg *cfg)
{
    memset(c, 0, sizeof *c);
    c->cfg = *cfg;
    c->alloc_assoc = cfg->assoc;
    size_t n_lines = (size_t)cfg->sets * (size_t)cfg->assoc;
    size_t n_mshr = (size_t)cfg->mshr_entries;
    c->lines = calloc(n_lines, sizeof *c->lines);
    c->tag = malloc(n_lines * sizeof *c->tag);
    c->mshr = calloc(n_mshr, sizeof *c->mshr);
    c->wait_row = calloc((size_t)cfg->mshr_merge, sizeof *c->wait_row);
    c->free_ids = calloc(n_mshr, sizeof *c->free_ids);
    c->used_ids = calloc(n_mshr, sizeof *c->used_ids);
    /* the MSHR keys are the entries' lines, two words apart */
    int key_ok = c->mshr && n_mshr <= SIM_IDTAB_MAX_IDS && sim_idtab_init(&c->by_key, (uint32_t)n_mshr, &c->mshr[0].line,
                                           (uint32_t)(sizeof *c->mshr / sizeof(uint64_t)));
    c->memo = malloc(sizeof *c->memo);
    if (c->memo)
        *c->memo = (struct sim_set_memo){SIM_TAG_NONE, 0};
    int ix_ok = 1;
    if (cfg->assoc >= SIM_CACHE_RECENCY_WAYS) {
        c->rec_link = malloc(n_lines * 2 * sizeof *c->rec_link);
        c->rec_end = malloc((size_t)cfg->sets * 2 * sizeof *c->rec_end);
        ix_ok = c->rec_link && c->rec_end;
    }
    /* a cache of more frames than an id table holds scans its sets instead */
    if (cfg->assoc >= SIM_CACHE_INDEX_WAYS && n_lines <= SIM_IDTAB_MAX_IDS) {
        c->none_words = (cfg->assoc + 63) / 64;
        c->none_bits = malloc((size_t)cfg->sets * (size_t)c->none_words * sizeof *c->none_bits);
        ix_ok = ix_ok && c->tag && c->none_bits && sim_idtab_init(&c->by_tag, (uint32_t)n_lines, c->tag, 1);
    }
    if (!c->lines || !c->tag || !c->mshr || !c->wait_row || !c->free_ids || !c->used_ids ||
        !key_ok || !c->memo || !ix_ok) {
        sim_cache_free(c);
        return 0;
    }
    sim_cache_reset(c, cfg->assoc);   /* every tag SIM_TAG_NONE */
    /* Hand out low ids first so runs do not depend on anything but order. */
    for (int i = 0; i < cfg->mshr_entries; i++)
        c->free_ids[i] = cfg->mshr_entries - 1 - i;
    c->n_free = cfg->mshr_entries;
    return 1;
}

void sim_cache_free(sim_cache *c)
{
    free(c->memo);
    free(c->lines);
    free(c->tag);
    free(c->mshr);
    for (int k = 0; c->wait_row && k < c->cfg.mshr_merge; k++)
        free(c->wait_row[k]);
    free(c->wait_row);
    free(c->free_ids);
    free(c->used_ids);
    sim_idtab_free(&c->by_key);
    sim_idtab_free(&c->by_tag);
    free(c->none_bits);
    free(c->rec_link);
    free(c->rec_end);
    memset(c, 0, sizeof *c);
}

void sim_cache_reset(sim_cache *c, int assoc)
{
    size_t n = (size_t)c->cfg.sets * (size_t)c->alloc_assoc;
    TRAPEZE_ASSERT(assoc >= 1 && assoc <= c->alloc_assoc);
    memset(c->lines, 0, n * sizeof *c->lines);
    for (size_t i = 0; i < n; i++)
        c->tag[i] = SIM_TAG_NONE;
    c->cfg.assoc = assoc;
    if (c->rec_end)   /* every list empty */
        memset(c->rec_end, 0xff, (size_t)c->cfg.sets * 2 * sizeof *c->rec_end);
    if (!c->by_tag.slot)
        return;
    sim_idtab_clear(&c->by_tag);
    /* every way of every set INVALID; no bit at or past assoc */
    for (int set = 0; set < c->cfg.sets; set++)
        for (int k = 0; k < c->none_words; k++) {
            int left = assoc - 64 * k;
            c->none_bits[(size_t)set * (size_t)c->none_words + (size_t)k] =
                left >= 64 ? ~(uint64_t)0 : left <= 0 ? 0 : ((uint64_t)1 << left) - 1;
        }
}

/* ---- the recency lists (frames are indices into lines) ---- */

static void rec_unlink(sim_cache *c, size_t set, int32_t i)
{
    int32_t *l = c->rec_link, *e = &c->rec_end[2 * set];
    int32_t prev = l[2 * i], next = l[2 * i + 1];
    if (prev >= 0)
        l[2 * prev + 1] = next;
    else
        e[0] = next;
    if (next >= 0)
        l[2 * next] = prev;
    else
        e[1] = prev;
}

static void rec_append(sim_cache *c, size_t set, int32_t i)
{
    int32_t *l = c->rec_link, *e = &c->rec_end[2 * set];
    int32_t last = e[1];
    l[2 * i] = last;
    l[2 * i + 1] = -1;
    if (last >= 0)
        l[2 * last + 1] = i;
    else
        e[0] = i;
    e[1] = i;
}

/* Frame i (a line in its set's list) was given the newest stamp. */
static void rec_newest(sim_cache *c, size_t i)
{
    size_t set = i / (size_t)c->cfg.assoc;
    if (c->rec_end[2 * set + 1] == (int32_t)i)
        return;
    rec_unlink(c, set, (int32_t)i);
    rec_append(c, set, (int32_t)i);
}

/* The one writer of the tag array past a reset: frame i's tag becomes tag
 * (SIM_TAG_NONE: the frame is INVALID), the index, the INVALID bitmap and
 * the recency list's membership with it (a frame joins at the end: its
 * caller, sim_cache_install, gives it the newest stamp). A line is never
 * in two frames of its set. */
static void set_tag(sim_cache *c, size_t i, uint64_t tag)
{
    uint64_t old = c->tag[i];
    if (old == tag)
        return;
    TRAPEZE_ASSERT(tag == SIM_TAG_NONE ||
                   sim_cache_tag_way(c, i - i % (size_t)c->cfg.assoc, tag) < 0);
    if (c->rec_link && (old == SIM_TAG_NONE) != (tag == SIM_TAG_NONE)) {
        size_t set = i / (size_t)c->cfg.assoc;
        if (old == SIM_TAG_NONE)
            rec_append(c, set, (int32_t)i);
        else
            rec_unlink(c, set, (int32_t)i);
    }
    if (!c->by_tag.slot) {
        c->tag[i] = tag;
        return;
    }
    size_t set = i / (size_t)c->cfg.assoc, way = i % (size_t)c->cfg.assoc;
    uint64_t *bits = &c->none_bits[set * (size_t)c->none_words + way / 64];
    if (old != SIM_TAG_NONE) {   /* out under its old key, before the key changes */
        sim_idtab_remove(&c->by_tag, old, (int32_t)i);
        *bits |= (uint64_t)1 << (way % 64);
    }
    c->tag[i] = tag;
    if (tag != SIM_TAG_NONE) {
        sim_idtab_insert(&c->by_tag, tag, (int32_t)i);
        *bits &= ~((uint64_t)1 << (way % 64));
    }
}

/* The first INVALID way of the set at lines[base], or -1. */
static int first_invalid(const sim_cache *c, size_t base)
{
    if (!c->by_tag.slot)
        return sim_cache_tag_way(c, base, SIM_TAG_NONE);
    const uint64_t *bits = &c->none_bits[base / (size_t)c->cfg.assoc * (size_t)c->none_words];
    for (int k = 0; k < c->none_words; k++)
        if (bits[k])
            return 64 * k + __builtin_ctzll(bits[k]);
    return -1;
}

void sim_cache_invalidate(sim_cache *c, uint64_t line, int way)
{
    size_t i = (size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc + (size_t)way;
    c->lines[i].state = SIM_LINE_INVALID;
    set_tag(c, i, SIM_TAG_NONE);
}

/* The way of the set at lines[base] whose tag is line, or -1 (the
 * invariant above checked); the set index computed once per probe. */
static int find_way(const sim_cache *c, size_t base, uint64_t line)
{
    int w = sim_cache_tag_way(c, base, line);
    TRAPEZE_ASSERT(w < 0 || (c->lines[base + (size_t)w].state != SIM_LINE_INVALID &&
                             c->lines[base + (size_t)w].addr == line));
    return w;
}

/* A miss's victim in the set at base: the first INVALID way, else the least
 * recently used line that may be replaced (VALID; sectored: no sector
 * pending), else -1. The tag array holds SIM_TAG_NONE exactly for the
 * INVALID ways (the invariant above), so the search scans 8-byte tags and
 * reads the lines only when the set is full. */
static int replaceable(const sim_line *l, int sectored)
{
    return sectored ? !l->sect_pend : l->state == SIM_LINE_VALID;
}

static int victim_scan(const sim_cache *c, size_t base, int sectored)
{
    const sim_line *set = &c->lines[base];
    int lru = -1;
    for (int w = 0; w < c->cfg.assoc; w++)
        if (replaceable(&set[w], sectored) && (lru < 0 || set[w].stamp < set[lru].stamp))
            lru = w;
    return lru;
}

/* With a recency list: the first replaceable line from its front. The
 * stamps are distinct and in list order (the file comment), so it is the
 * scan's answer; it reads the few lines that are pending, not the set. */
static int victim_listed(const sim_cache *c, size_t base, int sectored)
{
    size_t set = base / (size_t)c->cfg.assoc;
    for (int32_t i = c->rec_end[2 * set]; i >= 0; i = c->rec_link[2 * i + 1])
        if (replaceable(&c->lines[i], sectored))
            return (int)((size_t)i - base);
    return -1;
}

static int victim(const sim_cache *c, size_t base, int sectored)
{
    int w = first_invalid(c, base);
    TRAPEZE_ASSERT(w < 0 || c->lines[base + (size_t)w].state == SIM_LINE_INVALID);
    if (w >= 0)
        return w;
    if (c->rec_link) {
        w = victim_listed(c, base, sectored);
        TRAPEZE_ASSERT(w == victim_scan(c, base, sectored));
        return w;
    }
    return victim_scan(c, base, sectored);
}

sim_probe sim_cache_probe(const sim_cache *c, uint64_t line, int *way)
{
    size_t base = (size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc;
    const sim_line *set = &c->lines[base];
    int hit = find_way(c, base, line);
    if (hit >= 0) {
        *way = hit;
        return set[hit].state == SIM_LINE_RESERVED ? SIM_PROBE_HIT_RESERVED : SIM_PROBE_HIT;
    }
    *way = victim(c, base, 0);
    return *way < 0 ? SIM_PROBE_FAIL : SIM_PROBE_MISS;
}

void sim_cache_touch(sim_cache *c, sim_line *l)
{
    c->clock++;
    if (c->cfg.rep != SIM_REP_LRU)
        return;
    l->stamp = c->clock;
    size_t i = (size_t)(l - c->lines);
    if (c->rec_link && c->tag[i] != SIM_TAG_NONE)
        rec_newest(c, i);
}

int sim_cache_fill_victim(const sim_cache *c, uint64_t line)
{
    int way;
    sim_probe p = sim_cache_probe(c, line, &way);
    if (p == SIM_PROBE_HIT)
        return way;
    return p == SIM_PROBE_MISS ? way : -1;
}

sim_line sim_cache_install(sim_cache *c, uint64_t line, int way, int state)
{
    sim_line *l = sim_cache_line(c, line, way);
    sim_line old = *l;
    c->clock++;
    size_t i = (size_t)(l - c->lines);
    set_tag(c, i, state == SIM_LINE_INVALID ? SIM_TAG_NONE : line);
    if (c->rec_link && state != SIM_LINE_INVALID)
        rec_newest(c, i);
    l->addr = line;
    l->stamp = c->clock;
    l->mshr = -1;
    l->state = (uint8_t)state;
    l->dirty = 0;
    l->sect_valid = l->sect_pend = l->sect_dirty = 0;
    return old;
}

void sim_cache_invalidate_valid(sim_cache *c)
{
    size_t n = (size_t)c->cfg.sets * (size_t)c->cfg.assoc;
    for (size_t i = 0; i < n; i++)
        if (c->lines[i].state == SIM_LINE_VALID) {
            c->lines[i].state = SIM_LINE_INVALID;
            set_tag(c, i, SIM_TAG_NONE);
        }
}

sim_probe sim_cache_probe_sector(const sim_cache *c, uint64_t line, int sector, int *way)
{
    size_t base = (size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc;
    const sim_line *set = &c->lines[base];
    uint8_t bit = (uint8_t)(1u << sector);
    int hit = find_way(c, base, line);
    if (hit >= 0) {
        *way = hit;
        return (set[hit].sect_valid & bit) ? SIM_PROBE_HIT
               : (set[hit].sect_pend & bit) ? SIM_PROBE_HIT_RESERVED : SIM_PROBE_SECTOR_MISS;
    }
    *way = victim(c, base, 1);
    return *way < 0 ? SIM_PROBE_FAIL : SIM_PROBE_MISS;
}

int sim_cache_mshr_lookup(const sim_cache *c, uint64_t key)
{
    return sim_idtab_find(&c->by_key, key);
}

int sim_cache_mshr_find(const sim_cache *c, uint64_t line)
{
    if (c->cfg.sectored)
        return sim_cache_mshr_lookup(c, line);
    if (c->cfg.alloc == SIM_ALLOC_ON_MISS) {
        /* Allocate-on-miss: a pending line is a RESERVED line that names its entry. */
        int way;
        if (sim_cache_probe(c, line, &way) != SIM_PROBE_HIT_RESERVED)
            return -1;
        return c->lines[(size_t)sim_cache_set(c, line) * (size_t)c->cfg.assoc + (size_t)way].mshr;
    }
    return sim_cache_mshr_lookup(c, line);
}

/* MSHR invariants (TRAPEZE_CHECKS builds): every entry is either free or
 * in use (n_free + n_used = entries); an entry in use sits at its
 * used_slot of the used list and holds 1..mshr_merge waiting requests once
 * its first miss joined; a released entry holds none. A RESERVED line's
 * mshr is an entry in use for that line. */
static void check_entry(const sim_cache *c, int id)
{
    TRAPEZE_ASSERT(id >= 0 && id < c->cfg.mshr_entries);
    TRAPEZE_ASSERT(c->n_free + c->n_used == c->cfg.mshr_entries);
    TRAPEZE_ASSERT(c->mshr[id].n >= 0 && c->mshr[id].n <= c->cfg.mshr_merge);
    TRAPEZE_ASSERT(c->mshr[id].used_slot < c->n_used &&
                   c->used_ids[c->mshr[id].used_slot] == id);
}

int sim_cache_mshr_alloc(sim_cache *c, uint64_t line)
{
    TRAPEZE_ASSERT(c->n_free > 0); /* callers check sim_cache_mshr_full first */
    int id = c->free_ids[--c->n_free];
    c->mshr[id].line = line;
    c->mshr[id].n = 0;
    c->mshr[id].used_slot = c->n_used;
    c->used_ids[c->n_used++] = id;
    check_entry(c, id);
    sim_idtab_insert(&c->by_key, line, id);
    return id;
}

void sim_cache_mshr_add(sim_cache *c, int id, const sim_pkt *p)
{
    TRAPEZE_ASSERT(c->mshr[id].n < c->cfg.mshr_merge); /* sim_cache_mshr_can_merge */
    int k = c->mshr[id].n++;
    if (!c->wait_row[k]) {   /* out of memory mid-cycle: as sim_ring_grow */
        c->wait_row[k] = malloc((size_t)c->cfg.mshr_entries * sizeof *c->wait_row[k]);
        if (!c->wait_row[k])
            sim_mem_out_of_memory();
    }
    c->wait_row[k][id] = *p;
    check_entry(c, id);
}

void sim_cache_mshr_release(sim_cache *c, int id)
{
    check_entry(c, id);
    /* Keep the used list dense: move its last element into the hole. */
    sim_idtab_remove(&c->by_key, c->mshr[id].line, id);
    int slot = c->mshr[id].used_slot, last = c->used_ids[--c->n_used];
    c->used_ids[slot] = last;
    c->mshr[last].used_slot = slot;
    c->mshr[id].n = 0;
    c->free_ids[c->n_free++] = id;
    TRAPEZE_ASSERT(c->n_free + c->n_used == c->cfg.mshr_entries);
}

sim_fail_cause sim_cache_miss_entry(const sim_cache *c, uint64_t line, sim_probe probe, int way,
                                    int *id)
{
    /* allocate-on-miss: the probe already found the pending line */
    *id = c->cfg.alloc != SIM_ALLOC_ON_MISS ? sim_cache_mshr_find(c, line)
          : probe == SIM_PROBE_HIT_RESERVED ? c->lines[(size_t)sim_cache_set(c, line) *
                                                         (size_t)c->cfg.assoc + (size_t)way].mshr
                                            : -1;
    if (*id >= 0)
        return sim_cache_mshr_can_merge(c, *id) ? SIM_FAIL_NONE : SIM_FAIL_MSHR_MERGE;
    return sim_cache_mshr_full(c) ? SIM_FAIL_MSHR_ENTRY : SIM_FAIL_NONE;
}

sim_line *sim_cache_miss_merge(sim_cache *c, int id, const sim_pkt *w, uint64_t line,
                               sim_probe probe, int way)
{
    sim_cache_mshr_add(c, id, w);
    if (probe != SIM_PROBE_HIT_RESERVED)
        return NULL;
    sim_line *l = sim_cache_line(c, line, way);
    sim_cache_touch(c, l);
    return l;
}

sim_line sim_cache_miss_alloc(sim_cache *c, const sim_pkt *w, uint64_t line, int way,
                              sim_line **reserved)
{
    int id = sim_cache_mshr_alloc(c, line);
    sim_cache_mshr_add(c, id, w);
    sim_line old = {0};
    *reserved = NULL;
    if (c->cfg.alloc == SIM_ALLOC_ON_MISS) {
        old = sim_cache_install(c, line, way, SIM_LINE_RESERVED);
        /* a reservation never evicts a line whose fill is still pending */
        TRAPEZE_ASSERT(old.state != SIM_LINE_RESERVED);
        *reserved = sim_cache_line(c, line, way);
        (*reserved)->mshr = id;
    }
    return old;
}

int sim_cache_fill_way(sim_cache *c, uint64_t line)
{
    if (c->cfg.alloc != SIM_ALLOC_ON_MISS)
        return sim_cache_fill_victim(c, line);
    int way;
    if (sim_cache_probe(c, line, &way) == SIM_PROBE_HIT_RESERVED) {
        sim_line *l = sim_cache_line(c, line, way);
        /* the fill answers the entry that reserved the line */
        TRAPEZE_ASSERT(l->mshr >= 0 && l->mshr < c->cfg.mshr_entries &&
                       c->mshr[l->mshr].line == line);
        l->state = SIM_LINE_VALID;
    }
    return -1;
}
