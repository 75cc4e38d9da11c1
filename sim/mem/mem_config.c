/*
 * mem_config.c - reads the memory options of a gpgpusim.config into
 * struct sim_mem_config. Owns option names, GPGPU-Sim's defaults for absent
 * options, and validation (a malformed value is TRAPEZE_EPARSE naming file,
 * line and option). It must not model timing.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "sim/mem/icnt_file.h"
#include "sim/mem/idtab.h"
#include "sim/mem/mem_config.h"
#include "sim/mem/setindex.h"
#include "sim/memsys.h"

/* GPGPU-Sim's default timing is positional and dated; when the option is
 * absent we use the GTX 480's (Hynix GDDR5) instead, documented. */
#define DEFAULT_TIMING "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"
#define DEFAULT_MAPPING "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"

/* Every memory-side option: one row each (common/options.h). The channel
 * count, chips, bus width and clocks are the hardware summary's
 * (trapeze_gpu_options, common/gpu.c): read through that table. */
const trapeze_opt sim_mem_options[] = {
    {"gpgpu_cache:dl1", OPT_TEXT, "none", 0, 0,
     "L1D: [N|S:]sets:line:assoc,rep:wr:alloc:wr_alloc[:idx],mshr:entries:merge,queue"},
    {"gpgpu_cache:dl2", OPT_TEXT, "none", 0, 0, "L2 slice per sub-partition, same form"},
    {"gpgpu_gmem_skip_L1D", OPT_INT, "0", 0, 1, "1: global accesses bypass the L1"},
    {"gpgpu_adaptive_cache_config", OPT_INT, "0", 0, 1,
     "1: Volta's L1/shared carve-out, L1 ways from the shared memory a kernel leaves"},
    {"gpgpu_shmem_option", OPT_LIST, "0", 0, 65536,
     "carve-out: the shared memory sizes (KB) a kernel may be given, the least that fits"},
    {"gpgpu_unified_l1d_size", OPT_INT, "0", 0, 65536,
     "carve-out: KB of L1D + shared memory (a multiple of the dl1 size); 0: 4x the dl1"},
    {"gpgpu_l1_latency", OPT_INT, "1", 1, 100000,
     "L1 latency: stages of the per-bank queue an access waits in before its tag probe"},
    {"gpgpu_l1_banks", OPT_INT, "1", 1, 64, "L1 banks (a latency queue each; power of two)"},
    {"gpgpu_l1_banks_byte_interleaving", OPT_INT, "32", 1, 4096,
     "bytes of consecutive addresses per L1 bank (power of two)"},
    {"gpgpu_l1_banks_hashing_function", OPT_INT, "0", 0, 0, "L1 bank function (0: linear)"},
    {"trapeze_l1d_select", OPT_TEXT, "none", 0, 0,
     "selective caching of global loads at the L1D (Choo): none, bypass_all, ind (a divergent "
     "load caches its last assoc requests per set), loc (ind plus the locality degree)"},
    {"trapeze_contention_counters", OPT_INT, "0", 0, 1,
     "1: --csv gains l1_evicted_unused (L1D lines evicted never re-read), "
     "ldst_stall_ready_warps (warps waiting for the LDST unit, summed over its refused cycles) "
     "l1_miss_iw, l1_miss_xw, l1_miss_xb (load misses evicting a line of the same warp, "
     "another warp of its block, another block), l1_evicted_reuse (re-reads of evicted lines, "
     "up to 15 a line), l1_load_set_max (per global load, the most of its requests in one "
     "L1D set, summed) and l1_load_set_overflows (loads where that exceeds the ways)"},
    {"trapeze_l1d_bypass_on_stall", OPT_INT, "0", 0, 1,
     "1: a load the L1D refuses for a line or an MSHR entry bypasses it instead (MRPB's "
     "bypass, with -trapeze_ldst_sched fixed for its per-warp queues)"},
    {"trapeze_l1d_lasc", OPT_INT, "0", 0, 1,
     "1: LASC, loads of a PC whose evicted L1D lines were never reused bypass the L1D"},
    {"trapeze_l1d_lasc_entries", OPT_INT, "64", 1, 1024,
     "LASC: entries of the reuse frequency table, per SM (power of two)"},
    {"trapeze_l1d_lasc_serve_hits", OPT_INT, "1", 0, 1,
     "LASC: 1, a request predicted not to be reused that finds its line valid in the L1D is "
     "served by it; 0, it still reads the line from below (the seed's literal text)"},
    {"trapeze_l1_bypass_pcs", OPT_TEXT, "(none)", 0, 0,
     "per-PC bypass: the global loads at these PCs (e.g. 0x30,0x58) skip the L1D; the others "
     "are cached as -trapeze_l1d_select says"},
    {"gpgpu_l2_rop_latency", OPT_INT, "85", 0, 100000, "L2 (ROP) latency, core cycles"},
    {"trapeze_gs_upper_half_write", OPT_INT, "0", 0, 1,
     "1: as GPGPU-Sim 4's sectored L2 does, a 64-byte write to a line's upper half writes "
     "sectors 2-3 of the next line (for comparisons with Accel-Sim only)"},
    {"dram_latency", OPT_INT, "30", 0, 100000, "DRAM latency beyond timing, core cycles"},
    {"gpgpu_dram_partition_queues", OPT_LIST, "8:8:8:8", 1, 100000,
     "icnt_L2:L2_dram:dram_L2:L2_icnt queue sizes"},
    {"gpgpu_n_sub_partition_per_mchannel", OPT_INT, "1", 1, 64,
     "L2 sub-partitions per channel (power of two)"},
    {"gpgpu_dram_burst_length", OPT_INT, "4", 1, 1024, "DRAM burst length"},
    {"gpgpu_frfcfs_dram_sched_queue_size", OPT_INT, "16", 0, 100000,
     "FR-FCFS queue per channel (0: unlimited)"},
    {"gpgpu_dram_return_queue_size", OPT_INT, "0", 0, 100000,
     "DRAM return queue (0: unlimited)"},
    {"gpgpu_dram_timing_opt", OPT_TEXT, "GTX 480's", 0, 0,
     "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:..."},
    {"gpgpu_mem_addr_mapping", OPT_TEXT, "GTX 480's", 0, 0,
     "dramid@N; then the D/B/R/C/S bit mask, most significant bit first"},
    {"dram_bnkgrp_indexing_policy", OPT_INT, "0", 0, 1,
     "a bank's group from its high bits (0) or low bits (1)"},
    {"dram_dual_bus_interface", OPT_INT, "0", 0, 1,
     "1: separate row and column command buses (HBM): an ACT or PRE and a READ or WRITE "
     "may issue in the same DRAM cycle"},
    {"trapeze_dram_latency_queue", OPT_INT, "0", 0, 1,
     "1: GPGPU-Sim's DRAM latency queue: a request leaves the L2->DRAM queue at once, one a "
     "DRAM cycle while its channel has credits (FR-FCFS plus return queue) and then waits "
     "-dram_latency; 0: it waits -dram_latency in the bounded L2->DRAM queue"},
    {"trapeze_l2_miss_queue", OPT_INT, "0", 0, 1,
     "1: GPGPU-Sim's L2 miss queue: what the L2 sends to DRAM waits in the dl2 spec's "
     "miss queue, which passes one a cycle to the L2->DRAM queue, and a read miss or merge "
     "needs two free entries, a write one; 0: the L2 sends to the L2->DRAM queue"},
    {"gpgpu_simple_dram_model", OPT_INT, "0", 0, 1,
     "1: GPGPU-Sim's simple DRAM: no banks or timing; each channel serves one request per "
     "DRAM cycle, -dram_latency after it left the L2"},
    {"gpgpu_memory_partition_indexing", OPT_INT, "0", 0, 5,
     "sub-partition indexing (0: consecutive, 2: IPOLY, 4: random per chunk)"},
    {"icnt_flit_size", OPT_INT, "32", 4, 4096, "interconnect flit, bytes"},
    {"trapeze_icnt_latency", OPT_INT, "8", 1, 100000, "interconnect latency, icnt cycles"},
    {"trapeze_icnt_flits_per_cycle", OPT_INT, "1", 1, 64, "flits per icnt cycle per port"},
    {"trapeze_sm_queue", OPT_INT, "8", 1, 100000, "SM port queue when there is no L1"},
    {"network_mode", OPT_INT, "1", 1, 2,
     "interconnect: 1 fixed latency and port bandwidth (Trapeze's stand-in for booksim), "
     "2 GPGPU-Sim's local crossbar (xbar.c)"},
    {"inter_config_file", OPT_TEXT, "none", 0, 0,
     "with -network_mode 1: booksim's .icnt file, read relative to the config file that names "
     "it: sets the flit-level crossbar's switch, pipeline, buffers and flit size"},
    {"trapeze_icnt_booksim", OPT_INT, "0", 0, 1,
     "with -network_mode 1: booksim's one-router fly as a flit-level crossbar (xbar.c): "
     "the -icnt_* buffer limits in flits, -trapeze_icnt_latency its pipeline "
     "(default 1 when -inter_config_file is set)"},
    {"icnt_in_buffer_limit", OPT_INT, "64", 1, 1000000,
     "local crossbar (-network_mode 2): packets an input buffer holds"},
    {"icnt_out_buffer_limit", OPT_INT, "64", 1, 1000000,
     "local crossbar: packets an output buffer holds"},
    {"icnt_subnets", OPT_INT, "2", 1, 2, "local crossbar: 1 or 2 subnets (same timing here)"},
    {"icnt_arbiter_algo", OPT_INT, "1", 0, 1, "local crossbar arbiter: 0 round robin, 1 iSLIP"},
    {"icnt_grant_cycles", OPT_INT, "1", 1, 1000000,
     "local crossbar iSLIP: cycles an output keeps its grant pointer"},
    {"gpgpu_n_cluster_ejection_buffer_size", OPT_INT, "8", 1, 1000000,
     "local crossbar: replies an SM's ejection buffer holds"},
    {NULL, OPT_INT, NULL, 0, 0, NULL}};

const char *const sim_l1_select_names[SIM_SEL_COUNT] = {"none", "bypass_all", "ind", "loc"};

static int is_pow2(long v) { return v > 0 && (v & (v - 1)) == 0; }

/* Splits s at any of seps into at most max fields (in place). */
static int split(char *s, const char *seps, char **fields, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(s, seps, &save); t; t = strtok_r(NULL, seps, &save)) {
        if (n == max)
            return max + 1;
        fields[n++] = t;
    }
    return n;
}

static int parse_uint(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0 || v > 1000000000)
        return 0;
    *out = (int)v;
    return 1;
}

/* A one-letter field: its position in `letters` (the enum's order). */
static int letter(const char *s, const char *letters, int *out)
{
    if (!s[0] || s[1] || !strchr(letters, s[0]))
        return 0;
    *out = (int)(strchr(letters, s[0]) - letters);
    return 1;
}

static int one_char(const char *s, const char *allowed, char *out)
{
    if (!s[0] || s[1] || !strchr(allowed, s[0]))
        return 0;
    *out = s[0];
    return 1;
}

/* Geometry "[N|S:]sets:line:assoc"; returns a message or NULL. */
static const char *parse_geometry(char *text, sim_cache_cfg *c)
{
    char *f[5];
    int n = split(text, ":", f, 4);
    int i = 0;
    if (n == 4) {
        if (strcmp(f[0], "N") && strcmp(f[0], "S"))
            return "the prefix of sets:line:assoc must be N or S";
        c->sectored = f[0][0] == 'S';
        i = 1;
    } else if (n != 3) {
        return "expected [N|S:]sets:line:assoc";
    }
    if (!parse_uint(f[i], &c->sets) || !parse_uint(f[i + 1], &c->line) ||
        !parse_uint(f[i + 2], &c->assoc))
        return "sets, line and assoc must be integers";
    if (!is_pow2(c->sets))
        return "the number of sets must be a power of two";
    if (c->line != SIM_LINE_BYTES)
        return "only 128-byte lines are modelled";
    /* any way count: a fully associative single set (SM75_RTX2060_S's
     * S:1:128:512) is a tag index lookup (cache.c); the bound keeps the
     * tag array of a typo finite */
    if (c->assoc < 1 || c->assoc > 65536)
        return "associativity must be 1..65536";
    return NULL;
}

static const char *parse_policy(char *text, sim_cache_cfg *c)
{
    char *f[6];
    int n = split(text, ":", f, 5);
    if (n < 4 || n > 5)
        return "expected rep:wr:alloc:wr_alloc[:set_index]";
    int v[5] = {0, 0, 0, 0, SIM_SETIDX_LINEAR};
    if (!letter(f[0], "LF", &v[0]))
        return "replacement must be L (LRU) or F (FIFO)";
    if (!letter(f[1], "RBTEL", &v[1]))
        return "write policy must be R, B, T, E or L";
    if (!letter(f[2], "mfs", &v[2]))
        return "allocation must be m (on miss), f (on fill) or s (streaming)";
    if (!letter(f[3], "NWFL", &v[3]))
        return "write allocation must be N, W, F or L";
    if (n == 5 && !letter(f[4], "LHPXC", &v[4]))
        return "set index function must be L, H, P, X or C";
    /* each v[i] is a position in its letter string: a value of its enum */
    c->rep = (sim_cache_rep)v[0];
    c->wr = (sim_cache_write)v[1];
    c->alloc = (sim_cache_alloc)v[2];
    c->wr_alloc = (sim_cache_write_alloc)v[3];
    c->set_index = (sim_set_index_fn)v[4];
    return NULL;
}

static const char *parse_mshr(char *text, sim_cache_cfg *c)
{
    char *f[4];
    char type;
    if (split(text, ":", f, 3) != 3 || !one_char(f[0], "AFTS", &type))
        return "expected mshr_type:entries:max_merge (type A, F, T or S)";
    if (!parse_uint(f[1], &c->mshr_entries) || !parse_uint(f[2], &c->mshr_merge) ||
        c->mshr_entries < 1 || c->mshr_merge < 1)
        return "MSHR entries and max merge must be positive integers";
    if (c->mshr_entries > SIM_IDTAB_MAX_IDS)   /* the entries' id table (idtab.h) */
        return "at most 32768 MSHR entries";
    return NULL;
}

trapeze_status sim_cache_cfg_parse(const trapeze_config *cfg, const char *option,
                                   const char *text, sim_cache_cfg *out, trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(text, "none") == 0)
        return TRAPEZE_OK;
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return trapeze_config_fail(cfg, option, err, "cache spec too long");
    snprintf(buf, sizeof buf, "%s", text);
    char *g[6];
    int n = split(buf, ",", g, 5);
    if (n < 4 || n > 5)
        return trapeze_config_fail(cfg, option, err,
                                   "expected [N|S:]sets:line:assoc,rep:wr:alloc:wr_alloc[:idx],"
                                   "mshr:entries:merge,miss_queue[:...] or none, got '%s'", text);
    const char *why = parse_geometry(g[0], out);
    if (!why)
        why = parse_policy(g[1], out);
    if (!why)
        why = sim_set_index_check(out->set_index, (unsigned)out->sets);
    if (!why)
        why = parse_mshr(g[2], out);
    if (!why) {
        char *f[3];
        int m = split(g[3], ":", f, 2);
        if (m < 1 || m > 2 || !parse_uint(f[0], &out->miss_queue) || out->miss_queue < 2)
            why = "the miss queue size must be an integer of at least 2";
    }
    if (why)
        return trapeze_config_fail(cfg, option, err, "%s (in '%s')", why, text);
    out->enabled = 1;
    return TRAPEZE_OK;
}

static trapeze_status parse_timing(const trapeze_config *cfg, const char *text,
                                   sim_dram_timing *t, trapeze_error *err)
{
    static const char *keys[] = {"nbk", "CCD", "RRD", "RCD", "RAS", "RP", "RC",
                                 "CL",  "WL",  "CDLR", "WR", "nbkgrp", "CCDL", "RTPL"};
    int *slots[] = {&t->nbk, &t->CCD, &t->RRD, &t->RCD, &t->RAS, &t->RP, &t->RC,
                    &t->CL,  &t->WL,  &t->CDLR, &t->WR, &t->nbkgrp, &t->CCDL, &t->RTPL};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ":", &save); kv; kv = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return trapeze_config_fail(cfg, "gpgpu_dram_timing_opt", err,
                                       "expected key=value pairs such as CL=12, got '%s'", kv);
        *eq = '\0';
        size_t k = 0;
        while (k < sizeof keys / sizeof *keys && strcmp(keys[k], kv) != 0)
            k++;
        if (k == sizeof keys / sizeof *keys)
            return trapeze_config_fail(cfg, "gpgpu_dram_timing_opt", err,
                                       "unknown timing parameter '%s'", kv);
        if (!parse_uint(eq + 1, slots[k]) || *slots[k] > 100000)
            return trapeze_config_fail(cfg, "gpgpu_dram_timing_opt", err,
                                       "%s must be a non-negative integer, got '%s'", kv, eq + 1);
    }
    if (t->nbk < 1 || t->nbkgrp < 1 || t->nbk % t->nbkgrp || t->nbk > 64)
        return trapeze_config_fail(cfg, "gpgpu_dram_timing_opt", err,
                                   "nbk must be 1..64 and a multiple of nbkgrp");
    return TRAPEZE_OK;
}

/* An integer option of sim_mem_options (or of the GPU summary's table):
 * default and range from its row; the value fits an int by that range. */
static trapeze_status get_int(const trapeze_config *cfg, const char *name, int *out,
                              trapeze_error *err)
{
    long v;
    const trapeze_opt *table =
        trapeze_opt_find(sim_mem_options, name) ? sim_mem_options : trapeze_gpu_options;
    trapeze_status s = trapeze_opt_int(cfg, table, name, &v, err);
    if (!s)
        *out = (int)v;
    return s;
}

static trapeze_status read_clocks(const trapeze_config *cfg, sim_mem_config *c,
                                  trapeze_error *err)
{
    double mhz[SIM_CLK_COUNT] = {500.0, 2000.0, 2000.0, 2000.0}; /* GPGPU-Sim's default */
    double got[SIM_CLK_COUNT];
    int n = 0;
    trapeze_status s = trapeze_config_get_doubles(cfg, "gpgpu_clock_domains", ":", got,
                                                  SIM_CLK_COUNT, &n, err);
    if (s)
        return s;
    if (n != 0 && n != SIM_CLK_COUNT)
        return trapeze_config_fail(cfg, "gpgpu_clock_domains", err,
                                   "expected core:icnt:l2:dram in MHz");
    for (int i = 0; i < n; i++)
        mhz[i] = got[i];
    for (int i = 0; i < SIM_CLK_COUNT; i++) {
        if (!(mhz[i] >= 0.001 && mhz[i] <= 1e6))
            return trapeze_config_fail(cfg, "gpgpu_clock_domains", err,
                                       "clock %d must be between 0.001 and 1e6 MHz", i + 1);
        c->clock_khz[i] = (uint64_t)llround(mhz[i] * 1000.0);
    }
    return TRAPEZE_OK;
}

/* -trapeze_l1_bypass_pcs 0x30,0x58: the PCs (hex with 0x, else decimal, as
 * the kernel's SASS PCs, 16 bytes an instruction) parsed once into the config. */
static trapeze_status read_bypass_pcs(const trapeze_config *cfg, sim_mem_config *c,
                                      trapeze_error *err)
{
    const char *text;
    trapeze_config_get_string(cfg, "trapeze_l1_bypass_pcs", "", &text);
    c->n_bypass_pcs = 0;
    char buf[512];
    if (strlen(text) >= sizeof buf)
        return trapeze_config_fail(cfg, "trapeze_l1_bypass_pcs", err, "value too long");
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(t, &end, 0);
        if (end == t || *end || errno || *t == '-' || v > UINT32_MAX)
            return trapeze_config_fail(cfg, "trapeze_l1_bypass_pcs", err,
                                       "'%s' is not a PC (0x30 or 48, at most 32 bits)", t);
        if (c->n_bypass_pcs == SIM_MAX_BYPASS_PCS)
            return trapeze_config_fail(cfg, "trapeze_l1_bypass_pcs", err,
                                       "more than %d PCs", SIM_MAX_BYPASS_PCS);
        c->bypass_pcs[c->n_bypass_pcs++] = (uint32_t)v;
    }
    return TRAPEZE_OK;
}

/* -trapeze_l1d_select NAME and LASC's table, parsed into the enum once. */
static trapeze_status read_select(const trapeze_config *cfg, sim_mem_config *c,
                                  trapeze_error *err)
{
    const char *name;
    trapeze_config_get_string(cfg, "trapeze_l1d_select", "none", &name);
    int found = -1;
    for (int i = 0; i < SIM_SEL_COUNT; i++)
        if (!strcmp(name, sim_l1_select_names[i]))
            found = i;
    if (found < 0)
        return trapeze_config_fail(cfg, "trapeze_l1d_select", err,
                                   "unknown policy '%s' (none, bypass_all, ind, loc)", name);
    c->l1_select = (sim_l1_select)found;
    trapeze_status s;
    if ((s = get_int(cfg, "trapeze_contention_counters", &c->contention_counters, err)) ||
        (s = get_int(cfg, "trapeze_l1d_bypass_on_stall", &c->bypass_on_stall, err)) ||
        (s = get_int(cfg, "trapeze_l1d_lasc", &c->lasc, err)) ||
        (s = get_int(cfg, "trapeze_l1d_lasc_entries", &c->lasc_entries, err)) ||
        (s = get_int(cfg, "trapeze_l1d_lasc_serve_hits", &c->lasc_serve_hits, err)))
        return s;
    if (!is_pow2(c->lasc_entries))
        return trapeze_config_fail(cfg, "trapeze_l1d_lasc_entries", err,
                                   "%d is not a power of two", c->lasc_entries);
    return read_bypass_pcs(cfg, c, err);
}

/* The adaptive carve-out's choices (GPGPU-Sim's shader.h and gpu-cache.h):
 * the L1 may grow to -gpgpu_unified_l1d_size over its dl1 size (which must
 * divide it, as GPGPU-Sim asserts), or 4x without it; the sizes of
 * -gpgpu_shmem_option, sorted. */
static trapeze_status read_carveout(const trapeze_config *cfg, sim_mem_config *c,
                                    trapeze_error *err)
{
    c->l1_max_assoc = c->l1.assoc;
    /* read (and checked) even when unused, as every option row is */
    trapeze_status s = get_int(cfg, "gpgpu_unified_l1d_size", &c->unified_kb, err);
    long opt[SIM_MAX_SHMEM_OPTIONS];
    int n = 0;
    if (!s)
        s = trapeze_config_get_ints(cfg, "gpgpu_shmem_option", ",", 0, 65536, opt,
                                    SIM_MAX_SHMEM_OPTIONS, &n, err);
    if (s)
        return s;
    if (!c->adaptive_l1 || !c->l1.enabled) {
        c->unified_kb = 0;   /* no carve-out: the L1 keeps the dl1's ways */
        return TRAPEZE_OK;
    }
    long spec_kb = (long)c->l1.sets * c->l1.assoc * c->l1.line / 1024;
    if (c->unified_kb == 0) {
        c->l1_max_assoc = 4 * c->l1.assoc;   /* MAX_DEFAULT_CACHE_SIZE_MULTIBLIER */
        return TRAPEZE_OK;
    }
    if (spec_kb == 0 || c->unified_kb % spec_kb != 0)
        return trapeze_config_fail(cfg, "gpgpu_unified_l1d_size", err,
                                   "%d KB is not a multiple of the dl1's %ld KB", c->unified_kb,
                                   spec_kb);
    c->l1_max_assoc = (int)(c->unified_kb / spec_kb) * c->l1.assoc;
    if (n == 0) {
        opt[0] = 0;
        n = 1;
    }
    for (int i = 0; i < n; i++) {
        if (opt[i] > c->unified_kb)
            return trapeze_config_fail(cfg, "gpgpu_shmem_option", err,
                                       "%ld KB is more than -gpgpu_unified_l1d_size (%d KB)",
                                       opt[i], c->unified_kb);
        int j = i;
        for (; j > 0 && c->shmem_opt_kb[j - 1] > opt[i]; j--)
            c->shmem_opt_kb[j] = c->shmem_opt_kb[j - 1];
        c->shmem_opt_kb[j] = (int)opt[i];
    }
    c->n_shmem_opt = n;
    return TRAPEZE_OK;
}

static trapeze_status read_caches(const trapeze_config *cfg, sim_mem_config *c,
                                  trapeze_error *err)
{
    const char *l1, *l2;
    trapeze_status s;
    trapeze_config_get_string(cfg, "gpgpu_cache:dl1", "none", &l1);
    trapeze_config_get_string(cfg, "gpgpu_cache:dl2", "none", &l2);
    if ((s = sim_cache_cfg_parse(cfg, "gpgpu_cache:dl1", l1, &c->l1, err)) ||
        (s = sim_cache_cfg_parse(cfg, "gpgpu_cache:dl2", l2, &c->l2, err)) ||
        (s = get_int(cfg, "gpgpu_gmem_skip_L1D", &c->skip_l1d, err)) ||
        (s = get_int(cfg, "gpgpu_adaptive_cache_config", &c->adaptive_l1, err)) ||
        (s = get_int(cfg, "gpgpu_shmem_size", &c->shmem_size, err)) ||
        (s = get_int(cfg, "gpgpu_l1_latency", &c->l1_latency, err)) ||
        (s = get_int(cfg, "gpgpu_l1_banks", &c->l1_banks, err)) ||
        (s = get_int(cfg, "gpgpu_l1_banks_byte_interleaving", &c->l1_bank_bytes, err)) ||
        (s = get_int(cfg, "gpgpu_l1_banks_hashing_function", &c->l1_bank_hash, err)) ||
        (s = get_int(cfg, "gpgpu_l2_rop_latency", &c->rop_latency, err)) ||
        (s = get_int(cfg, "trapeze_gs_upper_half_write", &c->gs_upper_half_quirk, err)) ||
        (s = get_int(cfg, "dram_latency", &c->dram_latency, err)))
        return s;
    if (!is_pow2(c->l1_banks))
        return trapeze_config_fail(cfg, "gpgpu_l1_banks", err, "%d is not a power of two",
                                   c->l1_banks);
    if ((s = read_select(cfg, c, err)))
        return s;
    if (!is_pow2(c->l1_bank_bytes))
        return trapeze_config_fail(cfg, "gpgpu_l1_banks_byte_interleaving", err,
                                   "%d is not a power of two", c->l1_bank_bytes);
    return read_carveout(cfg, c, err);
}

static trapeze_status read_queues(const trapeze_config *cfg, sim_mem_config *c,
                                  trapeze_error *err)
{
    double q[4] = {8, 8, 8, 8}; /* GPGPU-Sim's default "8:8:8:8" */
    int n = 0;
    trapeze_status s = trapeze_config_get_doubles(cfg, "gpgpu_dram_partition_queues", ":", q,
                                                  4, &n, err);
    if (s)
        return s;
    if (n != 0 && n != 4)
        return trapeze_config_fail(cfg, "gpgpu_dram_partition_queues", err,
                                   "expected icnt_L2:L2_dram:dram_L2:L2_icnt queue sizes");
    for (int i = 0; i < 4; i++)
        if (!(q[i] >= 1 && q[i] <= 100000 && q[i] == floor(q[i])))
            return trapeze_config_fail(cfg, "gpgpu_dram_partition_queues", err,
                                       "queue sizes must be integers 1..100000");
    c->q_icnt_l2 = (int)q[0];
    c->q_l2_dram = (int)q[1];
    c->q_dram_l2 = (int)q[2];
    c->q_l2_icnt = (int)q[3];
    return TRAPEZE_OK;
}

static trapeze_status read_dram(const trapeze_config *cfg, sim_mem_config *c,
                                trapeze_error *err)
{
    trapeze_status s;
    const char *timing, *mapping;
    if ((s = get_int(cfg, "gpgpu_n_mem", &c->n_mem, err)) ||
        (s = get_int(cfg, "gpgpu_n_sub_partition_per_mchannel", &c->n_sub, err)) ||
        (s = get_int(cfg, "gpgpu_n_mem_per_ctrlr", &c->n_mem_per_ctrlr, err)) ||
        (s = get_int(cfg, "gpgpu_dram_buswidth", &c->buswidth, err)) ||
        (s = get_int(cfg, "gpgpu_dram_burst_length", &c->burst_length, err)) ||
        (s = get_int(cfg, "dram_data_command_freq_ratio", &c->freq_ratio, err)) ||
        (s = get_int(cfg, "gpgpu_frfcfs_dram_sched_queue_size", &c->sched_queue, err)) ||
        (s = get_int(cfg, "gpgpu_dram_return_queue_size", &c->return_queue, err)))
        return s;
    if (!is_pow2(c->n_sub))
        return trapeze_config_fail(cfg, "gpgpu_n_sub_partition_per_mchannel", err,
                                   "must be a power of two");
    if (c->burst_length % c->freq_ratio)
        return trapeze_config_fail(cfg, "gpgpu_dram_burst_length", err,
                                   "must be a multiple of -dram_data_command_freq_ratio (%d)",
                                   c->freq_ratio);
    /* GPGPU-Sim's arbitration_metadata: a credit per request between the
     * L2->DRAM queue and the DRAM->L2 queue, one private to each sub-partition,
     * the rest shared; unlimited (0) when either DRAM queue is */
    c->dram_credits = c->sched_queue && c->return_queue
                          ? c->sched_queue + c->return_queue - (c->n_sub - 1) : 0;
    if (c->sched_queue == 0) /* GPGPU-Sim: 0 = unlimited */
        c->sched_queue = 4096;
    if (c->return_queue == 0)
        c->return_queue = 4096;
    c->atom_bytes = c->burst_length * c->buswidth * c->n_mem_per_ctrlr;
    c->burst_cycles = c->burst_length / c->freq_ratio;
    trapeze_config_get_string(cfg, "gpgpu_dram_timing_opt", DEFAULT_TIMING, &timing);
    sim_dram_timing t = {16, 2, 6, 12, 28, 12, 40, 12, 4, 5, 12, 4, 3, 2};
    if ((s = parse_timing(cfg, timing, &t, err)))
        return s;
    c->t = t;
    if ((s = get_int(cfg, "dram_bnkgrp_indexing_policy", &c->bnkgrp_lower, err)) ||
        (s = get_int(cfg, "dram_dual_bus_interface", &c->dual_bus, err)) ||
        (s = get_int(cfg, "gpgpu_simple_dram_model", &c->simple_dram, err)) ||
        (s = get_int(cfg, "trapeze_dram_latency_queue", &c->latency_queue, err)) ||
        (s = get_int(cfg, "trapeze_l2_miss_queue", &c->l2_miss_queue, err)))
        return s;
    if (!c->l2.enabled)   /* no cache, no miss queue: requests go to the L2->DRAM queue */
        c->l2_miss_queue = 0;
    if (c->simple_dram)   /* its requests wait their latency in the L2->DRAM queue */
        c->latency_queue = 0;
    trapeze_config_get_string(cfg, "gpgpu_mem_addr_mapping", DEFAULT_MAPPING, &mapping);
    const char *why = sim_addrmap_parse(mapping, c->n_mem, c->n_sub, t.nbk, &c->map);
    if (why)
        return trapeze_config_fail(cfg, "gpgpu_mem_addr_mapping", err, "%s", why);
    if (c->map.gap < 0 && !is_pow2(c->n_mem))
        return trapeze_config_fail(cfg, "gpgpu_mem_addr_mapping", err,
                                   "D bits need a power-of-two -gpgpu_n_mem; use dramid@N");
    if ((s = get_int(cfg, "gpgpu_memory_partition_indexing", &c->map.indexing, err)))
        return s;
    if (c->map.indexing != SIM_AM_CONSECUTIVE && c->map.indexing != SIM_AM_IPOLY &&
        c->map.indexing != SIM_AM_RANDOM)
        return trapeze_config_fail(cfg, "gpgpu_memory_partition_indexing", err,
                                   "%d is not modelled: 0 (consecutive), 2 (IPOLY) or 4 "
                                   "(random)", c->map.indexing);
    if (c->map.indexing == SIM_AM_RANDOM && c->map.random_shift < 0)
        return trapeze_config_fail(cfg, "gpgpu_memory_partition_indexing", err,
                                   "random (4) needs dramid@N with N at least log2 of "
                                   "-gpgpu_n_sub_partition_per_mchannel");
    if (c->map.indexing == SIM_AM_IPOLY) {
        unsigned n = 1;
        while (n < (unsigned)c->n_mem)
            n <<= 1;
        n *= (unsigned)c->n_sub;
        /* hashing.cc has 16, 32 and 64 and asserts on more; 128 and 256
         * (the H100's 80 x 2 rounds up to 256) carry its tables on */
        if (c->map.gap < 0 || n < 16 || n > 256)
            return trapeze_config_fail(cfg, "gpgpu_memory_partition_indexing", err,
                                       "IPOLY (2) needs dramid@N and 16 to 256 "
                                       "sub-partitions (channels rounded up to a power of two)");
    }
    return TRAPEZE_OK;
}

/* -inter_config_file's path: relative to the file whose line names it. */
static void icnt_file_path(const trapeze_config *cfg, char *out, size_t room)
{
    const char *value = "", *from = trapeze_config_file(cfg, "inter_config_file");
    trapeze_config_get_string(cfg, "inter_config_file", "", &value);
    const char *slash = strrchr(from, '/');
    if (value[0] == '/' || !slash)
        snprintf(out, room, "%s", value);
    else
        snprintf(out, room, "%.*s/%s", (int)(slash - from), from, value);
}

/* With -network_mode 1, the booksim file GPGPU-Sim would read drives the
 * flit-level crossbar; an option the config sets itself wins over the
 * file's value (as a command-line option would), except the flit size,
 * which GPGPU-Sim's booksim takes from the file (-icnt_flit_size is its
 * local crossbar's). */
static trapeze_status read_icnt_file(const trapeze_config *cfg, sim_mem_config *c,
                                     trapeze_error *err)
{
    char path[4096];
    sim_icnt_file f;
    icnt_file_path(cfg, path, sizeof path);
    trapeze_status s = sim_icnt_file_read(path, c->n_sm + c->n_mem * c->n_sub, &f, err);
    if (s == TRAPEZE_EIO)
        return trapeze_config_fail(cfg, "inter_config_file", err, "%s", err->message);
    if (s)
        return s;
    if (!trapeze_config_has(cfg, "trapeze_icnt_booksim"))
        c->xbar_flits = 1;
    if (!trapeze_config_has(cfg, "trapeze_icnt_latency"))
        c->icnt_latency = f.latency;
    if (!trapeze_config_has(cfg, "icnt_in_buffer_limit"))
        c->xbar_in_limit = f.in_buffer;
    if (!trapeze_config_has(cfg, "icnt_out_buffer_limit"))
        c->xbar_out_limit = f.out_buffer;
    if (!trapeze_config_has(cfg, "icnt_arbiter_algo"))
        c->xbar_islip = f.islip;
    if (f.flit_size)
        c->flit_size = f.flit_size;
    return TRAPEZE_OK;
}

static trapeze_status read_icnt(const trapeze_config *cfg, sim_mem_config *c,
                                trapeze_error *err)
{
    trapeze_status s;
    if ((s = get_int(cfg, "icnt_flit_size", &c->flit_size, err)) ||
        (s = get_int(cfg, "trapeze_icnt_latency", &c->icnt_latency, err)) ||
        (s = get_int(cfg, "trapeze_icnt_flits_per_cycle", &c->icnt_flits_per_cycle, err)) ||
        (s = get_int(cfg, "trapeze_sm_queue", &c->sm_queue, err)) ||
        (s = get_int(cfg, "network_mode", &c->network_mode, err)) ||
        (s = get_int(cfg, "icnt_in_buffer_limit", &c->xbar_in_limit, err)) ||
        (s = get_int(cfg, "icnt_out_buffer_limit", &c->xbar_out_limit, err)) ||
        (s = get_int(cfg, "icnt_arbiter_algo", &c->xbar_islip, err)) ||
        (s = get_int(cfg, "icnt_grant_cycles", &c->xbar_grant_cycles, err)) ||
        (s = get_int(cfg, "gpgpu_n_cluster_ejection_buffer_size", &c->xbar_ejection, err)))
        return s;
    int subnets;
    if ((s = get_int(cfg, "icnt_subnets", &subnets, err)) ||
        (s = get_int(cfg, "trapeze_icnt_booksim", &c->xbar_flits, err)))
        return s;
    if (c->network_mode == 1 && trapeze_config_has(cfg, "inter_config_file") &&
        (s = read_icnt_file(cfg, c, err)))
        return s;
    if (c->network_mode == 2)
        c->xbar_flits = 0;   /* GPGPU-Sim's local crossbar moves packets */
    c->use_xbar = c->network_mode == 2 || c->xbar_flits;
    return TRAPEZE_OK;
}

trapeze_status sim_mem_config_read(const trapeze_config *cfg, int n_sm, sim_mem_config *out,
                                   trapeze_error *err)
{
    memset(out, 0, sizeof *out);
    if (n_sm < 1 || n_sm > 65535)
        return trapeze_config_fail(cfg, "gpgpu_n_clusters", err, "need 1..65535 SMs, got %d",
                                   n_sm);
    out->n_sm = n_sm;
    trapeze_status s;
    if ((s = read_clocks(cfg, out, err)) || (s = read_caches(cfg, out, err)) ||
        (s = read_queues(cfg, out, err)) || (s = read_dram(cfg, out, err)) ||
        (s = read_icnt(cfg, out, err)))
        return s;
    /* An L2 fill answers all its merged requests at once: they must fit in
     * the L2->icnt queue, so a larger merge limit (SM6_TITANX: 64 over a
     * 32-entry queue; GPGPU-Sim returns them one a cycle) is cut to the
     * queue's size, as documented in docs/simulator.md. */
    if (out->l2.enabled && out->q_l2_icnt < out->l2.mshr_merge)
        out->l2.mshr_merge = out->q_l2_icnt;
    return TRAPEZE_OK;
}
