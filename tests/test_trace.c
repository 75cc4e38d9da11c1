/*
 * test_trace.c - reading Accel-Sim traces: the opcode table's classes,
 * widths and volatile loads; instruction lines with the three address
 * compression modes decompressed by hand; registers folded onto the
 * scoreboard; generic accesses in the shared window; a hand-written trace
 * simulated to a hand-computed cycle count; and malformed or truncated
 * traces, each refused with file, line and what was expected; and the
 * decoded blocks the opening pass keeps, read back as the lines parse.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim/trace/parse.h"

static char dir[64];

static const char *const header =
    "-kernel name = _Z4testPf\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n"
    "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
    "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0001000000\n"
    "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
    "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num "
    "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n";

static const sim_trace_format fmt = {4, 0, 0x00007f0000000000ull, 0x00007f0001000000ull};

static const char *parse(const char *line, sim_warp_inst *in, sim_trace_class *c)
{
    const char *at;
    memset(in, 0, sizeof *in);
    return sim_trace_parse_inst(&fmt, NULL, line, line + strlen(line), in, c, &at);
}

/* The opcode cache gives what classifying every time gives: every opcode of
 * the table (more than the cache's slots, so entries are replaced), bare
 * and with modifiers that change the class or width, in three passes over
 * one cache, as instruction lines. */
static void opcode_cache(void)
{
    int n;
    const sim_trace_opcode *ops = sim_trace_opcodes(&n);
    CHECK(n > SIM_TRACE_OPCACHE_SLOTS);
    static const char *const mods[] = {"", ".64", ".E.STRONG.GPU", ".U16"};
    sim_trace_memo cache;
    memset(&cache, 0, sizeof cache);
    int hits = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) {
                char op[64], line[160];
                snprintf(op, sizeof op, "%s%s", ops[(i * 7 + pass) % n].mnemonic, mods[k]);
                snprintf(line, sizeof line, "0010 ffffffff 0 %s 0 0", op);
                sim_trace_class want, got;
                sim_trace_classify(op, strlen(op), &want);
                sim_warp_inst in;
                const char *at;
                memset(&in, 0, sizeof in);
                const char *what = sim_trace_parse_inst(&fmt, &cache, line, line + strlen(line),
                                                        &in, &got, &at);
                if (what) {   /* a memory opcode needs a width and addresses */
                    CHECK(want.op >= SIM_OP_LD_GLOBAL && want.op <= SIM_OP_ATOMIC);
                    continue;
                }
                CHECK(!memcmp(&want, &got, sizeof want));
                uint32_t h = 2166136261u;
                for (const char *c = op; *c; c++)
                    h = (h ^ (uint8_t)*c) * 16777619u;
                hits += cache.slot[h % SIM_TRACE_OPCACHE_SLOTS].len == strlen(op);
            }
    CHECK(hits > 0);
}

/* The memo of mode 2's delta lists gives what reading every time gives:
 * the same delta text under different masks (a memo keyed on the text alone
 * would give the lanes of the first), texts longer than a slot, a delta
 * past the fast path's 13 digits and negative ones, more texts than slots,
 * three passes over one memo; and a bad delta is still reported. */
static void delta_memo(void)
{
    static sim_trace_memo memo;
    memset(&memo, 0, sizeof memo);
    static const uint32_t masks[] = {0xffffffffu, 0x0000ffffu, 0xffff0000u, 0x00f0f00fu, 1u};
    int lines = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int v = 0; v < 300; v++)
            for (int mi = 0; mi < 5; mi++) {
                char line[1024];
                int len = snprintf(line, sizeof line, "0010 %08x 1 R4 LDG.E 1 R0 4 2 0x%x",
                                   masks[mi], 0x1000 + 64 * v);
                int deltas = __builtin_popcount(masks[mi]) - 1;
                for (int d = 0; d < deltas; d++)   /* v % 150: 150 distinct texts a mask */
                    len += snprintf(line + len, sizeof line - (size_t)len, " %lld",
                                    v % 150 == 7 && d == 3   ? 12345678901234LL
                                    : v % 150 == 8 && d == 5 ? -(long long)(v + d)
                                    : v % 150 > 100          ? 100000LL * (v % 150) + d
                                                             : (long long)(v % 150 + (d == 15) * 448));
                sim_warp_inst want, got;
                sim_trace_class cw, cg;
                const char *at;
                memset(&want, 0, sizeof want);
                memset(&got, 0, sizeof got);
                const char *ew = sim_trace_parse_inst(&fmt, NULL, line, line + strlen(line),
                                                      &want, &cw, &at);
                const char *eg = sim_trace_parse_inst(&fmt, &memo, line, line + strlen(line),
                                                      &got, &cg, &at);
                lines += !ew;
                CHECK(!ew == !eg);
                if (!ew && !eg)
                    CHECK(!memcmp(want.addr, got.addr, sizeof want.addr) &&
                          want.active == got.active && want.op == got.op);
            }
    CHECK(lines == 3 * 300 * 5);   /* every line read */
    int filled = 0;
    for (int k = 0; k < SIM_TRACE_DELTA_SLOTS; k++)
        filled += memo.delta[k].len > 0;
    CHECK(filled > SIM_TRACE_DELTA_SLOTS / 2);   /* the memo was used */
    /* a bad delta after the memo has seen the good one is still an error */
    const char *good = "0010 0000000f 1 R4 LDG.E 1 R0 4 2 0x1000 4 4 4";
    const char *bad = "0010 0000000f 1 R4 LDG.E 1 R0 4 2 0x1000 4 4x 4";
    sim_warp_inst in;
    sim_trace_class c;
    const char *at;
    CHECK(sim_trace_parse_inst(&fmt, &memo, good, good + strlen(good), &in, &c, &at) == NULL);
    CHECK(in.addr[3] == 0x100c);
    const char *what = sim_trace_parse_inst(&fmt, &memo, bad, bad + strlen(bad), &in, &c, &at);
    CHECK(what != NULL && strstr(what, "delta") != NULL && at && !strncmp(at, "4x", 2));
    /* the same text under a mask of fewer lanes leaves a delta over: an error
     * (a memo keyed on the text alone would take the three lanes' reading) */
    const char *three = "0010 00000007 1 R4 LDG.E 1 R0 4 2 0x1000 4 4";
    const char *two = "0010 00000003 1 R4 LDG.E 1 R0 4 2 0x1000 4 4";
    CHECK(sim_trace_parse_inst(&fmt, &memo, three, three + strlen(three), &in, &c, &at) == NULL);
    CHECK(sim_trace_parse_inst(&fmt, &memo, two, two + strlen(two), &in, &c, &at) != NULL);
}

static void opcode_table(void)
{
    sim_trace_class c;
#define CLASS(text, op_, alu_)                                              \
    do {                                                                    \
        sim_trace_classify(text, strlen(text), &c);                         \
        CHECK(c.op == (op_) && c.alu == (alu_));                            \
    } while (0)
    CLASS("IMAD.MOV.U32", SIM_OP_INT, SIM_ALU_MAD);
    CLASS("IADD3", SIM_OP_INT, SIM_ALU_ADD);
    CLASS("FFMA", SIM_OP_FP, SIM_ALU_MAD);
    CLASS("FMUL.FTZ", SIM_OP_FP, SIM_ALU_MUL);
    CLASS("DADD", SIM_OP_DP, SIM_ALU_ADD);
    CLASS("MUFU.RCP", SIM_OP_SFU, SIM_ALU_DIV);
    CLASS("MUFU.EX2", SIM_OP_SFU, SIM_ALU_ADD);
    CLASS("LDS.U.128", SIM_OP_LD_SHARED, SIM_ALU_ADD);
    CLASS("STG.E.SYS", SIM_OP_ST_GLOBAL, SIM_ALU_ADD);
    CLASS("RED.E.ADD.STRONG.GPU", SIM_OP_ATOMIC, SIM_ALU_ADD);
    CLASS("BAR.SYNC", SIM_OP_BAR, SIM_ALU_ADD);
    CLASS("MEMBAR.SC.GPU", SIM_OP_FENCE, SIM_ALU_ADD);
    CLASS("BSSY", SIM_OP_BRANCH, SIM_ALU_ADD);
    CLASS("EXIT", SIM_OP_EXIT, SIM_ALU_ADD);
    /* Accel-Sim's specialized units: texture 2, tensor 3, uniform 4 */
    CLASS("TLD.B.LZ", SIM_OP_SFU, SIM_ALU_ADD);
    CHECK(c.unit == 2);
    CLASS("HMMA.884.F32.F32", SIM_OP_FP, SIM_ALU_MAD);
    CHECK(c.unit == 3);
    CLASS("ULDC.64", SIM_OP_INT, SIM_ALU_ADD);
    CHECK(c.unit == 4);
    CLASS("FFMA", SIM_OP_FP, SIM_ALU_MAD);
    CHECK(c.unit == 0);
    /* LDGSTS is its own mnemonic, not LDG with modifiers */
    CLASS("LDGSTS.E.BYPASS.128", SIM_OP_LD_GLOBAL, SIM_ALU_ADD);
    /* widths from the modifiers, Accel-Sim's rule */
    sim_trace_classify("LDG.E.64.SYS", 12, &c);
    CHECK(c.size == 8 && c.flags == 0 && c.known);
    sim_trace_classify("LDG.E.128.CONSTANT.SYS", 22, &c);
    CHECK(c.size == 16);
    sim_trace_classify("STS.U8", 6, &c);
    CHECK(c.size == 1);
    sim_trace_classify("LDG.E.SYS", 9, &c);
    CHECK(c.size == 4 && c.flags == 0);
    sim_trace_classify("LDG.E.STRONG.GPU", 16, &c);
    CHECK(c.flags == SIM_INST_VOLATILE);
    /* unknown: the documented INT fallback, counted */
    sim_trace_classify("NOSUCHOP.ANY", 12, &c); /* in no Accel-Sim table either */
    CHECK(c.op == SIM_OP_INT && c.alu == SIM_ALU_ADD && !c.known);
    /* every exported (class, sub-op, unit) has exactly one row */
    static int exported[SIM_OP_COUNT][SIM_ALU_COUNT][SIM_SPEC_UNITS + 1];
    int n;
    const sim_trace_opcode *t = sim_trace_opcodes(&n);
    for (int i = 0; i < n; i++) {
        CHECK(t[i].unit <= SIM_SPEC_UNITS && t[i].unit != 1);   /* unit 1: SIM_OP_BRANCH */
        exported[t[i].op][t[i].alu][t[i].unit] += t[i].exported;
    }
    for (int op = 0; op < SIM_OP_COUNT; op++)
        for (int alu = 0; alu < SIM_ALU_COUNT; alu++)
            for (int u = 0; u <= SIM_SPEC_UNITS; u++)
                CHECK(exported[op][alu][u] <= 1);
    CHECK(exported[SIM_OP_FP][SIM_ALU_MAD][0] == 1 && exported[SIM_OP_SFU][SIM_ALU_MUL][0] == 1);
    CHECK(exported[SIM_OP_FP][SIM_ALU_MAD][3] == 1 && exported[SIM_OP_SFU][SIM_ALU_ADD][2] == 1);
    CHECK(exported[SIM_OP_INT][SIM_ALU_DIV][0] == 0);
}

/* The numbers' edges, read in one pass with their token (parse.c's
 * next_dec, next_hex): a token is a number only whole, "0x" alone is not
 * hex, leading zeros are not significant digits, a sign needs digits, tabs
 * and CR separate. */
static void number_tokens(void)
{
    sim_warp_inst in;
    sim_trace_class c;
    /* 16 significant hex digits after leading zeros: read; 17: refused */
    CHECK(parse("00c0 00000001 1 R1 LDG.E 1 R2 4 0 0x0000ffffffffffffffff", &in, &c) == NULL);
    CHECK(in.addr[0] == ~0ull);
    CHECK(strstr(parse("00c0 00000001 1 R1 LDG.E 1 R2 4 0 0x1ffffffffffffffff", &in, &c),
                 "one hex address") != NULL);
    CHECK(strstr(parse("00c0 00000001 1 R1 LDG.E 1 R2 4 0 0x", &in, &c), "one hex address") !=
          NULL);
    CHECK(strstr(parse("00c0 00000001 1 R1 LDG.E 1 R2 4 0 0x10g", &in, &c), "one hex address") !=
          NULL);
    /* the mask: at most 8 significant digits, zeros before them free */
    CHECK(parse("00c0 000000000003 0 EXIT 0 0", &in, &c) == NULL && in.active == 3);
    /* signs: '+' read, a bare sign refused, a sign inside a number refused */
    CHECK(parse("00a0 00000003 1 R7 LDG.E.SYS 1 R2 4 2 0x1000 +12", &in, &c) == NULL);
    CHECK(in.addr[1] == 0x100c);
    CHECK(strstr(parse("00a0 00000003 1 R7 LDG.E.SYS 1 R2 4 2 0x1000 -", &in, &c), "delta") !=
          NULL);
    CHECK(strstr(parse("00a0 00000003 1 R7 LDG.E.SYS 1 R2 4 2 0x1000 4-4", &in, &c), "delta") !=
          NULL);
    /* a delta past 2^48 refused; tabs and a CR separate tokens */
    CHECK(strstr(parse("00a0 00000003 1 R7 LDG.E.SYS 1 R2 4 2 0x1000 281474976710657", &in, &c),
                 "delta") != NULL);
    CHECK(parse("00a0\t00000003 1 R7 LDG.E.SYS 1 R2\t4 2 0x1000 -8\r", &in, &c) == NULL);
    CHECK(in.addr[1] == 0xff8);
    /* a count out of its range, and a digit run glued to a letter */
    CHECK(strstr(parse("00c0 ffffffff 5 R1 R2 R3 R4 R5 MOV 0 0", &in, &c), "destination count") !=
          NULL);
    CHECK(strstr(parse("00c0 ffffffff 0 EXIT 0 0x", &in, &c), "memory width") != NULL);
}

static void instruction_lines(void)
{
    sim_warp_inst in;
    sim_trace_class c;
    CHECK(parse("0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0", &in, &c) == NULL);
    CHECK(in.op == SIM_OP_INT && in.alu == SIM_ALU_MAD && in.dst == 1 && in.active == ~0u);
    CHECK(in.src[0] == SIM_NO_REG);   /* RZ is no dependence */
    /* registers fold mod 64; repeated sources count once */
    CHECK(parse("0010 0000ffff 1 R70 FFMA 3 R4 R4 R130 0", &in, &c) == NULL);
    CHECK(in.dst == 6 && in.src[0] == 4 && in.src[1] == 2 && in.src[2] == SIM_NO_REG);
    CHECK(in.active == 0xffff);
    /* mode 0: one address per active lane (lanes 0, 2, 5) */
    CHECK(parse("0080 00000025 1 R4 LDG.E.SYS 1 R2 4 0 0x100 0x7f1234560000 0x20c", &in,
                &c) == NULL);
    CHECK(in.op == SIM_OP_LD_GLOBAL && in.size == 4);
    CHECK(in.addr[0] == 0x100 && in.addr[2] == 0x7f1234560000ull && in.addr[5] == 0x20c);
    CHECK(in.addr[1] == 0);
    /* mode 1: lanes 4..11 from 0x2000, 8 bytes apart */
    CHECK(parse("0090 00000ff0 1 R6 LDG.E.64.SYS 1 R2 8 1 0x2000 8", &in, &c) == NULL);
    CHECK(in.size == 8 && in.addr[4] == 0x2000 && in.addr[5] == 0x2008 &&
          in.addr[11] == 0x2038 && in.addr[12] == 0);
    /* mode 1 with a negative stride */
    CHECK(parse("0090 00000003 0 STG.E.SYS 2 R2 R3 4 1 0x2000 -4", &in, &c) == NULL);
    CHECK(in.op == SIM_OP_ST_GLOBAL && in.addr[0] == 0x2000 && in.addr[1] == 0x1ffc);
    /* mode 2: base, then a delta from the previous active lane (lanes 0,1,3,4) */
    CHECK(parse("00a0 0000001b 1 R7 LDG.E.SYS 1 R2 4 2 0x1000 4 8 -4", &in, &c) == NULL);
    CHECK(in.addr[0] == 0x1000 && in.addr[1] == 0x1004 && in.addr[3] == 0x100c &&
          in.addr[4] == 0x1008);
    /* a single active lane in mode 2: the base only */
    CHECK(parse("00a0 00000100 1 R7 LDG.E.SYS 1 R2 4 2 0x1000", &in, &c) == NULL);
    CHECK(in.addr[8] == 0x1000);
    /* generic LD inside the shared window: a shared load at the offset */
    CHECK(parse("00b0 00000001 1 R8 LD.E 1 R2 4 0 0x00007f0000000040", &in, &c) == NULL);
    CHECK(in.op == SIM_OP_LD_SHARED && in.addr[0] == 0x40);
    CHECK(parse("00b0 00000001 1 R8 LD.E 1 R2 4 0 0x10000040", &in, &c) == NULL);
    CHECK(in.op == SIM_OP_LD_GLOBAL && in.addr[0] == 0x10000040);
    /* errors: what was expected */
    CHECK(strstr(parse("00c0 fffffffff 0 EXIT 0 0", &in, &c), "active mask") != NULL);
    CHECK(strstr(parse("00c0 ffffffff 0 EXIT 0", &in, &c), "memory width") != NULL);
    CHECK(strstr(parse("00c0 ffffffff 0 EXIT 0 0 7", &in, &c), "end of the line") != NULL);
    CHECK(strstr(parse("00c0 ffffffff 1 X1 MOV 0 0", &in, &c), "destination register") != NULL);
    CHECK(strstr(parse("00c0 00000005 1 R1 LDG.E 1 R2 4 1 0x10 4", &in, &c), "contiguous") !=
          NULL);
    CHECK(strstr(parse("00c0 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4", &in, &c), "delta") != NULL);
    CHECK(strstr(parse("00c0 00000001 1 R1 LDG.E 1 R2 0", &in, &c), "width > 0") != NULL);
    CHECK(strstr(parse("00c0 00000001 1 R1 LDG.E 1 R2 4 3 0x10", &in, &c), "address mode") !=
          NULL);
    number_tokens();
}

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Writes dir/name: the test header made a grid of one block of `block` ("(32,1,1)"),
 * then body; its path goes to path. */
static void write_one_block_trace(const char *name, const char *block, const char *body,
                                  char *path, size_t n)
{
    char text[8192];
    snprintf(text, sizeof text, "%s", header);
    char *g = strstr(text, "(2,1,1)"), *b = strstr(text, "(64,1,1)");
    memcpy(g, "(1,1,1)", 7);
    memcpy(b, block, 8);
    strcat(text, body);
    write_file(name, text);
    snprintf(path, n, "%s/%s", dir, name);
}

/* Opens dir/name and returns the error message ("" when it opened). */
static const char *open_error(const char *name, const char *body)
{
    static trapeze_error err;
    char text[8192], path[128];
    snprintf(text, sizeof text, "%s%s", header, body);
    write_file(name, text);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sim_trace_kernel *t = NULL;
    memset(&err, 0, sizeof err);
    trapeze_status s = sim_trace_kernel_open(path, &t, &err);
    sim_trace_kernel_close(t);
    return s ? err.message : "";
}

#define TB(x, warps) "#BEGIN_TB\nthread block = " #x ",0,0\n" warps "#END_TB\n"
#define EXIT_WARP(w) "warp = " #w "\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n"

static void malformed_traces(void)
{
    const char *m;
    /* a good one first */
    m = open_error("good.traceg", TB(0, EXIT_WARP(0) EXIT_WARP(1)) TB(1, EXIT_WARP(1) EXIT_WARP(0)));
    CHECK(!strcmp(m, ""));
    /* truncated inside a block: the header is 16 lines, the first block 17-25 */
    m = open_error("trunc.traceg", TB(0, EXIT_WARP(0) EXIT_WARP(1)) "#BEGIN_TB\nthread block = 1,0,0\n"
                   "warp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n");
    CHECK(strstr(m, "trunc.traceg:31: truncated: expected 1 more instruction lines of warp 0") != NULL);
    m = open_error("trunc2.traceg", TB(0, EXIT_WARP(0) EXIT_WARP(1)) "#BEGIN_TB\nthread block = 1,0,0\n"
                   EXIT_WARP(0));
    CHECK(strstr(m, "trunc2.traceg:31: truncated: expected #END_TB of the thread block begun "
                    "at line 26") != NULL);
    /* a whole block missing at the end */
    m = open_error("noblock.traceg", TB(0, EXIT_WARP(0) EXIT_WARP(1)));
    CHECK(strstr(m, "noblock.traceg:26: truncated: expected thread block 1,0,0") != NULL);
    /* bad hex in the mask, line 19 */
    m = open_error("hex.traceg", TB(0, "warp = 0\ninsts = 1\n0000 ffffzfff 0 EXIT 0 0\n"));
    CHECK(strstr(m, "hex.traceg:21: expected an active mask (hex, at most 8 digits), got "
                    "'ffffzfff'") != NULL);
    /* insts = 2 but one line before the next warp */
    m = open_error("short.traceg", TB(0, "warp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n"
                                       EXIT_WARP(1)));
    CHECK(strstr(m, "short.traceg:22: expected instruction 2 of the 2 that insts = announced, "
                    "got 'warp = 1'") != NULL);
    /* insts = 1 but two lines */
    m = open_error("long.traceg", TB(0, "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n"
                                      "0000 ffffffff 0 EXIT 0 0\n"));
    CHECK(strstr(m, "long.traceg:22: expected 'warp = N' or #END_TB: warp 0 has more "
                    "instruction lines than its insts = 1") != NULL);
    /* a warp the block does not have (64 threads: warps 0 and 1) */
    m = open_error("warp.traceg", TB(0, EXIT_WARP(2)));
    CHECK(strstr(m, "warp.traceg:19: warp 2: a block of 64 threads has warps 0 to 1") != NULL);
    /* a block outside the grid, and one twice */
    m = open_error("grid.traceg", TB(2, EXIT_WARP(0)));
    CHECK(strstr(m, "grid.traceg:18: thread block 2,0,0 is outside the grid (2,1,1)") != NULL);
    m = open_error("twice.traceg", TB(0, EXIT_WARP(0)) TB(0, EXIT_WARP(0)));
    CHECK(strstr(m, "twice.traceg:24: thread block 0,0,0 appears twice (first at line 17)") !=
          NULL);
    /* lines read in chunks (reader.c scan_file): a 3 MB comment line, longer
     * than a chunk and across its end, then the hex error two blocks on at
     * line 17 + 9 + 5 = 31, its number and text right */
    size_t big = 3u << 20, hl = strlen(header);
    const char *rest = TB(0, EXIT_WARP(0) EXIT_WARP(1))
        TB(1, "warp = 0\ninsts = 1\n0000 ffffzfff 0 EXIT 0 0\n");
    char *text = malloc(hl + big + strlen(rest) + 2);
    if (text) {
        memcpy(text, header, hl);
        text[hl] = '#';
        memset(text + hl + 1, 'x', big - 1);
        text[hl + big] = '\n';
        strcpy(text + hl + big + 1, rest);
        write_file("bigline.traceg", text);
        free(text);
        char bpath[128];
        snprintf(bpath, sizeof bpath, "%s/bigline.traceg", dir);
        sim_trace_kernel *bt = NULL;
        trapeze_error berr;
        CHECK(sim_trace_kernel_open(bpath, &bt, &berr) == TRAPEZE_EPARSE);
        CHECK(strstr(berr.message, "bigline.traceg:31: expected an active mask") != NULL);
        sim_trace_kernel_close(bt);
    }
    /* a missing file */
    sim_trace_kernel *t = NULL;
    trapeze_error err;
    CHECK(sim_trace_kernel_open("/nonexistent/kernel-1.traceg", &t, &err) == TRAPEZE_EIO);
    CHECK(strstr(err.message, "/nonexistent/kernel-1.traceg: cannot open") != NULL);
    /* kernelslist: memcpy lines accepted, garbage refused with its line */
    sim_trace_list l;
    char path[128];
    write_file("kernelslist.g", "MemcpyHtoD,0x00007efe7b500000,2052\n\nkernel-1.traceg\n"
                                "kernel-2.traceg\n");
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    CHECK_OK(sim_trace_list_read(path, &l, &err));
    CHECK(l.n == 2 && strstr(l.kernels[1], "/kernel-2.traceg") && l.kernels[1][0] == '/');
    sim_trace_list_free(&l);
    write_file("kernelslist.g", "kernel-1.traceg\nMemcpyHtoD,zz,1\n");
    CHECK(sim_trace_list_read(path, &l, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "kernelslist.g:2: expected a kernel trace file name") != NULL);
}

/* One GTX 480 SM (the hand-computed trace runs). */
static const char *const sm_config =
    "-gpgpu_ptx_force_max_capability 20\n-gpgpu_n_clusters 1\n-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 1\n-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_shader_registers 32768\n"
    "-gpgpu_shader_core_pipeline 1536:32\n-gpgpu_shmem_size 49152\n-gpgpu_shader_cta 8\n"
    "-gpgpu_num_sp_units 2\n-gpgpu_num_sfu_units 1\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n-ptx_opcode_initiation_fp 1,2,1,1,4\n"
    "-gpgpu_num_sched_per_core 2\n-gpgpu_scheduler gto\n";

/* Runs the trace at `path` on the one-SM config above with ideal memory
 * (latency 100) and checks its cycles, warp and thread instructions. */
static void run_one_sm_trace(const char *path, uint64_t cycles, uint64_t warp_insts,
                             uint64_t thread_insts)
{
    trapeze_config *cfg = NULL;
    trapeze_error err;
    sim_gpu_options opt = {0};
    sim_gpu *gpu = NULL;
    sim_trace_kernel *t = NULL;
    sim_kernel_stats st;
    CHECK_OK(trapeze_config_parse(sm_config, "test.config", &cfg, &err));
    CHECK_OK(sim_mem_port_ideal(1, 100, &opt.mem, &err));
    CHECK_OK(sim_gpu_create(cfg, &opt, &gpu, &err));
    CHECK_OK(sim_trace_kernel_open(path, &t, &err));
    if (gpu && t && !sim_gpu_run(gpu, sim_trace_kernel_sim(t), &st, &err)) {
        CHECK(st.cycles == cycles);
        CHECK(st.total.warp_insts == warp_insts);
        CHECK(st.total.thread_insts == thread_insts);
        sim_kernel_stats_free(&st);
    } else {
        CHECK(!"ran");
    }
    sim_trace_kernel_close(t);
    sim_gpu_destroy(gpu);
    trapeze_config_destroy(cfg);
}

/* Ten dependent FFMAs then EXIT on one GTX 480 SM with ideal memory:
 * FP MAD latency 5, so issue at 1, 6, ..., 46; EXIT at 51; the warp
 * finishes when the last result is written (51) -> 52 cycles, as the
 * built-in program gives (tests/test_sim_core.c). */
static void simulate_hand_trace(void)
{
    char body[4096] = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 11\n";
    for (int i = 0; i < 10; i++)
        strcat(body, "0010 ffffffff 1 R1 FFMA 3 R1 R2 R3 0\n");
    strcat(body, "0020 ffffffff 0 EXIT 0 0\n#END_TB\n");
    char path[128];
    write_one_block_trace("ffma.traceg", "(32,1,1)", body, path, sizeof path);
    run_one_sm_trace(path, 52, 11, 11 * 32);
}

/* Accel-Sim's EXIT: a lane retires when it executes an EXIT, a warp when
 * all its lanes have; a predicated-off EXIT (mask 0) retires nothing. One
 * block of 48 threads on the GTX 480 SM above (FP MAD latency 5), ideal
 * memory. Warp 0 (32 lanes):
 *   t=1  EXIT mask 0          nothing retires, the warp goes on
 *   t=2  FFMA R1 <- R1        result at 7
 *   t=3  EXIT 0000ffff        lanes 0-15 retire, 16-31 live
 *   t=7  FFMA R1 <- R1 (ffff0000) waits for R1 (7), result at 12
 *   t=8  EXIT ffff0000        no lane left: the warp ends once R1 is
 *                             written (12) -> 13 cycles.
 * Warp 1 has lanes 0-15 only (48 threads): its one EXIT 0000ffff retires
 * every lane it has, so no implicit EXIT follows. 6 warp instructions,
 * thread instructions 0+32+16+16+16 + 16 = 96. Ending a warp at its first
 * EXIT gave 2 cycles and 2 warp instructions. */
static void exit_retires_lanes(void)
{
    static const char *const body =
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
        "0000 00000000 0 EXIT 0 0\n"
        "0010 ffffffff 1 R1 FFMA 3 R1 R2 R3 0\n"
        "0020 0000ffff 0 EXIT 0 0\n"
        "0030 ffff0000 1 R1 FFMA 3 R1 R2 R3 0\n"
        "0040 ffff0000 0 EXIT 0 0\n"
        "warp = 1\ninsts = 1\n"
        "0040 0000ffff 0 EXIT 0 0\n#END_TB\n";
    char path[128];
    write_one_block_trace("exit.traceg", "(48,1,1)", body, path, sizeof path);
    run_one_sm_trace(path, 13, 6, 96);
}

/* A warp's RED on SM7_QV100 (write-through sectored L1): the 20 lanes of
 * test_sim_mem's test_coalesce_atomic, segments A = 0x10001000, B =
 * 0x10001040, C = 0x10002000, A's first word three times and its second
 * twice. GPGPU-Sim's rule gives 5 requests (A three, B, C), 5 L2 sector
 * accesses, none at the L1; 20 words added to, A's first by 3, its second
 * by 2. A request per lane gave 20 L1 and 20 L2 accesses. */
static void atomics_coalesce_and_bypass(void)
{
    char body[1024] = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 000fffff 0 RED.E.ADD.STRONG.GPU 2 R2 R3 4 0";
    static const unsigned lane_off[20] = {0x1000, 0x1004, 0x1008, 0x100c, 0x1010, 0x1014,
                                          0x1018, 0x101c, 0x1040, 0x1044, 0x1048, 0x104c,
                                          0x1050, 0x1054, 0x1058, 0x105c, 0x1000, 0x2000,
                                          0x1000, 0x1004};
    for (int l = 0; l < 20; l++)
        snprintf(body + strlen(body), sizeof body - strlen(body), " 0x%x",
                 0x10000000u + lane_off[l]);
    strcat(body, "\n#END_TB\n");
    char path[128];
    write_one_block_trace("red.traceg", "(32,1,1)", body, path, sizeof path);
    trapeze_config *cfg = NULL;
    trapeze_error err;
    sim_gpu *gpu = NULL;
    sim_trace_kernel *t = NULL;
    sim_kernel_stats st;
    CHECK_OK(trapeze_config_load("data/fidelity/SM7_QV100.gpgpusim.config", &cfg, &err));
    CHECK_OK(sim_gpu_create(cfg, NULL, &gpu, &err));
    CHECK_OK(sim_trace_kernel_open(path, &t, &err));
    if (gpu && t && !sim_gpu_run(gpu, sim_trace_kernel_sim(t), &st, &err)) {
        CHECK(st.mem_stats_valid);
        CHECK(st.mem.l1.accesses == 0 && st.mem.l1.atomics == 5);
        CHECK(st.mem.l2.accesses == 5 && st.mem.l2.atomics == 5);
        CHECK(st.mem.atomics_performed == 20);
        CHECK(sim_gpu_peek(gpu, 0x10001000) == 3 && sim_gpu_peek(gpu, 0x10001004) == 2 &&
              sim_gpu_peek(gpu, 0x1000101c) == 1 && sim_gpu_peek(gpu, 0x1000105c) == 1 &&
              sim_gpu_peek(gpu, 0x10002000) == 1 && sim_gpu_peek(gpu, 0x10001020) == 0);
        sim_kernel_stats_free(&st);
    } else {
        CHECK(!"ran");
    }
    sim_trace_kernel_close(t);
    sim_gpu_destroy(gpu);
    trapeze_config_destroy(cfg);
}

/* ------------------------------------------------------------ kept blocks */

static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 11;
}

/* One random instruction line: a non-memory op, or a load or store in each
 * address mode with a random mask (mode 1 a contiguous run), addresses near
 * and far apart (each of the kept form's kinds), global and in the shared
 * window, including an empty mask. */
static void random_line(FILE *f, int pc, uint64_t *x)
{
    int kind = (int)(lcg(x) % 8);
    uint32_t mask = lcg(x) % 4 == 0 ? 0xffffffffu : (uint32_t)lcg(x);
    if (kind == 6)
        mask = 0;
    uint64_t base = lcg(x) % 2 ? 0x00007f0000000100ull + (lcg(x) % 4096) * 4
                               : 0x10000000ull + (lcg(x) % 65536) * 4;
    const char *op = lcg(x) % 3 ? "LDG.E" : "ST.E";
    const char *dst = op[0] == 'L' ? "1 R4" : "0";
    if (kind == 0) {   /* an ALU op: on the FP pipe, specialized unit 2 or 3 */
        static const char *const alu[3] = {"FFMA", "TEX.B", "HMMA.884.F32.F32"};
        fprintf(f, "%04x %08x 1 R1 %s 3 R2 R3 R1 0\n", pc, mask, alu[lcg(x) % 3]);
        return;
    }
    if (kind == 1) {   /* mode 1: a contiguous run of lanes */
        int first = (int)(lcg(x) % 32), len = 1 + (int)(lcg(x) % (32 - first));
        mask = (uint32_t)(((len == 32 ? 0 : 1ull << len) - 1) << first);
        if (len == 32)
            mask = 0xffffffffu;
        long long stride = (long long)(lcg(x) % 33) - 16;
        fprintf(f, "%04x %08x %s %s 1 R0 4 1 0x%llx %lld\n", pc, mask, dst, op,
                (unsigned long long)base, stride * 4);
        return;
    }
    fprintf(f, "%04x %08x %s %s 1 R0 4 %d", pc, mask, dst, op, kind == 2 || kind == 3 ? 2 : 0);
    int first = 1;
    /* kind 7: runs of equal steps (a 16x16 block's rows), a step changing
     * at 1 to 3 random lanes, steps near or past 2^32 */
    long long step = ((long long)(lcg(x) % 9) - 4) * 4;
    uint64_t at = base;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        if (kind == 2 || kind == 3) {   /* mode 2: base, then deltas small or past 2^32 */
            long long d = kind == 2 ? (long long)(lcg(x) % 64) - 32
                                    : (long long)(lcg(x) % (1ull << 40)) - (1ll << 39);
            if (first)
                fprintf(f, " 0x%llx", (unsigned long long)base);
            else
                fprintf(f, " %lld", d * 4);
        } else if (kind == 7) {
            if (!first && lcg(x) % 10 == 0)
                step = lcg(x) % 8 ? (long long)(lcg(x) % 4096) * 4 - 8192 : 1ll << 33;
            at += first ? 0 : (uint64_t)step;
            fprintf(f, " 0x%llx", (unsigned long long)at);
        } else {   /* mode 0: every address */
            fprintf(f, " 0x%llx", (unsigned long long)(base + (lcg(x) % 1024) * 4));
        }
        first = 0;
    }
    fputc('\n', f);
}

/* A random trace of `blocks` blocks of 2 warps, each of up to 60 lines;
 * with repeat > 0, block b's lines are those of block b % repeat (the seed
 * restarts per block), each warp of 20 to 60 random lines and one whose
 * opcode Trapeze does not know. */
static void write_random_trace(const char *path, int blocks, uint64_t seed, int repeat)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    const char *g = strstr(header, "(2,1,1)");
    fprintf(f, "%.*s(%d,1,1)%s", (int)(g - header), header, blocks, g + 7);
    for (int b = 0; b < blocks; b++) {
        uint64_t block_seed = seed + (uint64_t)(repeat ? b % repeat : 0);
        uint64_t *x = repeat ? &block_seed : &seed;
        fprintf(f, "#BEGIN_TB\n\nthread block = %d,0,0\n", b);
        for (int w = 0; w < 2; w++) {
            int n = repeat ? 20 + (int)(lcg(x) % 41) : (int)(lcg(x) % 61);
            fprintf(f, "warp = %d\ninsts = %d\n", w, n + !!repeat);
            for (int i = 0; i < n; i++)
                random_line(f, i * 16, x);
            if (repeat)
                fprintf(f, "%04x ffffffff 0 NOTANOP.X 0 0\n", n * 16);
        }
        fprintf(f, "#END_TB\n\n");
    }
    fclose(f);
}

/* Every warp's instructions of t, as the simulator reads them, into out
 * (at most max); their number. */
static int read_stream(sim_trace_kernel *t, sim_warp_inst *out, int max)
{
    const sim_kernel *k = sim_trace_kernel_sim(t);
    static sim_warp_cursor cur;
    uint32_t regs[64] = {0};
    int n = 0;
    for (int b = 0; b < k->grid.x; b++)
        for (int w = 0; w < 2; w++) {
            memset(&cur, 0, sizeof cur);
            k->source->warp_start(k->source_self, k, &cur, b, 0, 0, w);
            sim_warp_inst in;
            memset(&in, 0, sizeof in);
            while (n < max && k->source->next(k->source_self, k, &cur, regs, &in)) {
                if (!sim_trace_op_is_memory(in.op))   /* their addresses are not read */
                    memset(in.addr, 0, sizeof in.addr);
                out[n++] = in;
            }
            k->source->warp_end(k->source_self, &cur);
        }
    return n;
}

/* 0: not a memory access; its active lanes' addresses 1: in arithmetic
 * progression, 4: not, but in at most 4 runs of equal steps, each step
 * within 2^31, 2: neither, within 2^31 of the first, 3: farther. */
static int address_form(const sim_warp_inst *in)
{
    if (!sim_trace_op_is_memory(in->op))
        return 0;
    uint64_t a[32];
    int n = 0, stride = 1, far = 0, runs = 1, far_step = 0;
    for (int l = 0; l < 32; l++)
        if (in->active >> l & 1)
            a[n++] = in->addr[l];
    for (int k = 2; k < n; k++) {
        stride &= a[k] - a[k - 1] == a[1] - a[0];
        runs += a[k] - a[k - 1] != a[k - 1] - a[k - 2];
    }
    for (int k = 1; k < n; k++) {
        far |= llabs((long long)(a[k] - a[0])) > (1ll << 31);
        far_step |= llabs((long long)(a[k] - a[k - 1])) > (1ll << 31);
    }
    return stride ? 1 : runs <= 4 && !far_step && n > 8 ? 4 : far ? 3 : 2;
}

/* SIM_INST_SPAN is optional (kept blocks set it, lines parsed alone do
 * not); where set, its bounds must be those of the active lanes. */
static int span_right(const sim_warp_inst *in)
{
    if (!(in->flags & SIM_INST_SPAN))
        return 1;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int l = 0; l < 32; l++)
        if (in->active >> l & 1) {
            lo = in->addr[l] < lo ? in->addr[l] : lo;
            hi = in->addr[l] > hi ? in->addr[l] : hi;
        }
    return !in->active || (in->addr_bound[0] == lo && in->addr_bound[1] == hi);
}

static int same_inst(const sim_warp_inst *a, const sim_warp_inst *b)
{
    int f = ~SIM_INST_SPAN;
    return a->op == b->op && a->alu == b->alu && (a->flags & f) == (b->flags & f) &&
           span_right(a) && span_right(b) && a->dst == b->dst &&
           !memcmp(a->src, b->src, sizeof a->src) && a->size == b->size &&
           a->active == b->active && a->value == b->value && a->pc == b->pc &&
           a->unit == b->unit && !memcmp(a->addr, b->addr, sizeof a->addr);
}

/* The decoded blocks the opening pass keeps give the simulator exactly the
 * instructions that parsing the lines again gives: all blocks kept, none,
 * and a budget that runs out part way (a block either kept or read). */
static void kept_blocks(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/random.traceg", dir);
    write_random_trace(path, 40, 12345, 0);
    enum { MAX = 40 * 2 * 61 };
    static sim_warp_inst want[MAX], got[MAX];
    sim_trace_kernel *t = NULL;
    trapeze_error err;
    CHECK_OK(sim_trace_kernel_open_keep(path, 0, &t, &err));
    if (!t)
        return;
    int n = read_stream(t, want, MAX);
    CHECK(n > 1000 && (uint64_t)n == sim_trace_kernel_warp_insts(t));
    CHECK(sim_trace_kernel_kept_bytes(t) == 0);
    sim_trace_kernel_close(t);
    int kinds[5] = {0};   /* non-memory, stride, near, far, runs: each kind met */
    for (int i = 0; i < n; i++)
        kinds[address_form(&want[i])]++;
    CHECK(kinds[0] > 50 && kinds[1] > 50 && kinds[2] > 50 && kinds[3] > 50 && kinds[4] > 50);
    /* all, half of all (runs out part way), 16 bytes (below one block) */
    size_t budgets[] = {SIM_TRACE_KEEP_DEFAULT, 0, 16};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(sim_trace_kernel_open_keep(path, budgets[i], &t, &err));
        if (!t)
            continue;
        size_t kept = sim_trace_kernel_kept_bytes(t);
        if (i == 0)
            budgets[1] = kept / 2;
        CHECK(kept <= budgets[i]);
        CHECK(i == 2 ? kept == 0 : kept > 0);
        int m = read_stream(t, got, MAX);
        CHECK(m == n);
        int same = m == n;
        for (int j = 0; same && j < n; j++)
            same = same_inst(&want[j], &got[j]);
        CHECK(same);
        /* the kept forms' bounds: set on the strides and runs that do not
         * pass 2^64 (right where set: same_inst) */
        int spans = 0;
        for (int j = 0; j < m; j++)
            spans += (got[j].flags & SIM_INST_SPAN) != 0;
        CHECK(spans > 100);
        /* and again on the same open: the kept blocks stay */
        m = read_stream(t, got, MAX);
        same = m == n;
        for (int j = 0; same && j < n; j++)
            same = same_inst(&want[j], &got[j]);
        CHECK(same);
        CHECK(sim_trace_kernel_kept_bytes(t) == kept);
        sim_trace_kernel_close(t);
    }
    remove(path);
}

/* Lines read again come from the memo of lines (linememo.h): the simulator
 * gets what parsing every line on its own gives, kept or streamed, and the
 * unknown opcodes are counted on every line. */
static void line_memo(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/repeat.traceg", dir);
    write_random_trace(path, 24, 1000, 3);
    enum { MAX = 24 * 2 * 61 };
    static sim_warp_inst want[MAX], got[MAX];
    /* the reference: every instruction line parsed alone, without memos */
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[4096];
    int n = 0, distinct = 0, unknown = 0;
    long long left = 0;
    static char seen[MAX][200];
    while (fgets(line, sizeof line, f) && n < MAX) {
        line[strcspn(line, "\n")] = 0;
        if (left == 0) {
            sscanf(line, "insts = %lld", &left);
            continue;
        }
        left--;
        sim_trace_class c;
        CHECK(parse(line, &want[n], &c) == NULL);
        unknown += !c.known;
        if (!sim_trace_op_is_memory(want[n].op))
            memset(want[n].addr, 0, sizeof want[n].addr);
        int again = 0;
        for (int i = 0; i < distinct && !again; i++)
            again = !strcmp(seen[i], line);
        if (!again && strlen(line) < sizeof seen[0])
            memcpy(seen[distinct++], line, strlen(line) + 1);
        n++;
    }
    fclose(f);
    CHECK(n > 1000 && distinct < n / 4 && unknown == 24 * 2);
    size_t budgets[] = {SIM_TRACE_KEEP_DEFAULT, 0};
    for (int i = 0; i < 2; i++) {
        sim_trace_kernel *t = NULL;
        trapeze_error err;
        CHECK_OK(sim_trace_kernel_open_keep(path, budgets[i], &t, &err));
        if (!t)
            continue;
        CHECK(sim_trace_kernel_unknown_opcodes(t) == (uint64_t)unknown);
        int m = read_stream(t, got, MAX);
        int same = m == n;
        for (int j = 0; same && j < n; j++)
            same = same_inst(&want[j], &got[j]);
        CHECK(same);
        sim_trace_kernel_close(t);
    }
    remove(path);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/trapeze-trace-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    opcode_table();
    opcode_cache();
    delta_memo();
    instruction_lines();
    malformed_traces();
    simulate_hand_trace();
    exit_retires_lanes();
    atomics_coalesce_and_bypass();
    kept_blocks();
    line_memo();
    static const char *const files[] = {"good", "trunc", "trunc2", "noblock", "hex", "short",
                                        "long", "warp", "grid", "twice", "ffma", "exit"};
    char path[128];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s.traceg", dir, files[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    remove(path);
    rmdir(dir);
    return check_report("test_trace");
}
