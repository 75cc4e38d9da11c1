/*
 * opcodes.c - the SASS opcode table: which simulator instruction class and
 * ALU sub-op each trace opcode runs as, in one const array (printed in the
 * README and by `trapeze trace opcodes`), and the per-opcode details the
 * table does not hold (access width, volatile loads). Knows nothing of
 * files or lines.
 */
#include <string.h>

#include "sim/trace/trace.h"

#define R(mn, mod, op, alu, ex, note) {mn, mod, SIM_OP_##op, SIM_ALU_##alu, ex, note, 0}
/* a row Accel-Sim runs on its specialized unit `unit` (2: texture, 3: tensor,
 * 4: uniform datapath; Turing's and Ampere's maps, and Volta's for 2 and 3):
 * there when the config enables the unit, else on the class's units */
#define RU(unit, mn, mod, op, alu, ex, note) {mn, mod, SIM_OP_##op, SIM_ALU_##alu, ex, note, unit}

/* First match wins: rows with a modifier come before the bare mnemonic.
 * The rows marked 1 are the names the exporter writes, one per
 * (class, sub-op), so that an exported trace reads back to the same
 * instructions. */
static const sim_trace_opcode table[] = {
    /* integer */
    R("IMAD", NULL, INT, MAD, 1, "integer multiply-add (also IMAD.MOV, IMAD.WIDE)"),
    R("IADD3", NULL, INT, ADD, 1, "integer add"),
    R("IADD", NULL, INT, ADD, 0, ""),
    R("IADD32I", NULL, INT, ADD, 0, ""),
    R("IMNMX", NULL, INT, MAX, 1, "integer min/max"),
    R("IMUL", NULL, INT, MUL, 1, "integer multiply"),
    R("IMUL32I", NULL, INT, MUL, 0, ""),
    R("ISCADD", NULL, INT, ADD, 0, ""),
    R("LEA", NULL, INT, ADD, 0, "address arithmetic"),
    R("LOP3", NULL, INT, ADD, 0, "logic"),
    R("LOP", NULL, INT, ADD, 0, ""),
    R("LOP32I", NULL, INT, ADD, 0, ""),
    R("ISETP", NULL, INT, ADD, 0, "integer compare"),
    R("SHF", NULL, INT, ADD, 0, "shifts"),
    R("SHL", NULL, INT, ADD, 0, ""),
    R("SHR", NULL, INT, ADD, 0, ""),
    R("MOV", NULL, INT, ADD, 0, "moves"),
    R("MOV32I", NULL, INT, ADD, 0, ""),
    R("SEL", NULL, INT, ADD, 0, ""),
    R("PRMT", NULL, INT, ADD, 0, ""),
    R("S2R", NULL, INT, ADD, 0, "special registers"),
    R("CS2R", NULL, INT, ADD, 0, ""),
    R("POPC", NULL, INT, ADD, 0, ""),
    R("FLO", NULL, INT, ADD, 0, ""),
    R("LDC", NULL, INT, ADD, 0, "constant cache: not modelled, runs as INT"),
    /* FP32 and half precision (FP units) */
    R("FFMA", NULL, FP, MAD, 1, "FP32 fused multiply-add"),
    R("FFMA32I", NULL, FP, MAD, 0, ""),
    R("FADD", NULL, FP, ADD, 1, "FP32 add"),
    R("FADD32I", NULL, FP, ADD, 0, ""),
    R("FMUL", NULL, FP, MUL, 1, "FP32 multiply"),
    R("FMUL32I", NULL, FP, MUL, 0, ""),
    R("FMNMX", NULL, FP, MAX, 1, "FP32 min/max"),
    R("FSETP", NULL, FP, ADD, 0, "FP32 compare"),
    R("FSEL", NULL, FP, ADD, 0, ""),
    R("HADD2", NULL, FP, ADD, 0, "half precision"),
    R("HMUL2", NULL, FP, MUL, 0, ""),
    R("HFMA2", NULL, FP, MAD, 0, ""),
    RU(3, "HMMA", NULL, FP, MAD, 1, "tensor core (specialized unit 3; else an FP32 FMA)"),
    /* FP64 */
    R("DFMA", NULL, DP, MAD, 1, "FP64 fused multiply-add"),
    R("DADD", NULL, DP, ADD, 1, "FP64 add"),
    R("DMUL", NULL, DP, MUL, 1, "FP64 multiply"),
    R("DMNMX", NULL, DP, MAX, 1, "FP64 min/max"),
    R("DSETP", NULL, DP, ADD, 0, "FP64 compare"),
    /* special functions (SFU units; the sub-op picks the configured latency) */
    R("MUFU", "RCP", SFU, DIV, 1, "reciprocal (sub-op DIV)"),
    R("MUFU", "RSQ", SFU, DIV, 0, ""),
    R("MUFU", "SQRT", SFU, DIV, 0, ""),
    R("MUFU", "EX2", SFU, ADD, 1, "exponential (sub-op ADD)"),
    R("MUFU", "LG2", SFU, MAX, 1, "logarithm (sub-op MAX)"),
    R("MUFU", "SIN", SFU, MUL, 1, "sine (sub-op MUL)"),
    R("MUFU", "COS", SFU, MAD, 1, "cosine (sub-op MAD)"),
    R("MUFU", NULL, SFU, ADD, 0, "other special functions"),
    R("I2F", NULL, SFU, ADD, 0, "conversions"),
    R("F2I", NULL, SFU, ADD, 0, ""),
    R("F2F", NULL, SFU, ADD, 0, ""),
    R("I2I", NULL, SFU, ADD, 0, ""),
    R("FRND", NULL, SFU, ADD, 0, ""),
    /* memory */
    R("LDG", NULL, LD_GLOBAL, ADD, 1, "global load (volatile with .STRONG.GPU/.STRONG.SYS)"),
    R("LD", NULL, LD_GLOBAL, ADD, 0, "generic load: shared inside the shared window, else global"),
    R("LDL", NULL, LD_GLOBAL, ADD, 0, "local load, as global"),
    R("LDGSTS", NULL, LD_GLOBAL, ADD, 0, "asynchronous copy, as a global load"),
    R("STG", NULL, ST_GLOBAL, ADD, 1, "global store"),
    R("ST", NULL, ST_GLOBAL, ADD, 0, "generic store: shared inside the shared window, else global"),
    R("STL", NULL, ST_GLOBAL, ADD, 0, "local store, as global"),
    R("LDS", NULL, LD_SHARED, ADD, 1, "shared load"),
    R("LDSM", NULL, LD_SHARED, ADD, 0, ""),
    R("STS", NULL, ST_SHARED, ADD, 1, "shared store"),
    R("ATOMS", NULL, LD_SHARED, ADD, 0, "shared atomic, timed as a shared access"),
    R("ATOMG", NULL, ATOMIC, ADD, 1, "global atomic (operand taken as 1)"),
    R("ATOM", NULL, ATOMIC, ADD, 0, ""),
    R("RED", NULL, ATOMIC, ADD, 0, "reduction (atomic without result)"),
    /* synchronization and control */
    R("BAR", NULL, BAR, ADD, 1, "__syncthreads"),
    R("MEMBAR", NULL, FENCE, ADD, 1, "__threadfence"),
    R("EXIT", NULL, EXIT, ADD, 1, "end of the warp"),
    R("BRA", NULL, BRANCH, ADD, 1, "branches and reconvergence"),
    R("BRX", NULL, BRANCH, ADD, 0, ""),
    R("JMP", NULL, BRANCH, ADD, 0, ""),
    R("JMX", NULL, BRANCH, ADD, 0, ""),
    R("CALL", NULL, BRANCH, ADD, 0, ""),
    R("RET", NULL, BRANCH, ADD, 0, ""),
    R("BSSY", NULL, BRANCH, ADD, 0, ""),
    R("BSYNC", NULL, BRANCH, ADD, 0, ""),
    R("BREAK", NULL, BRANCH, ADD, 0, ""),
    R("WARPSYNC", NULL, BRANCH, ADD, 0, ""),
    R("SSY", NULL, BRANCH, ADD, 0, ""),
    R("SYNC", NULL, BRANCH, ADD, 0, ""),
    R("PBK", NULL, BRANCH, ADD, 0, ""),
    R("BRK", NULL, BRANCH, ADD, 0, ""),
    /* Volta, Turing and Ampere opcodes of Accel-Sim's ISA tables (ISA_Def, volta/turing/ampere_opcode.h)
     * that the rows above do not name, by the unit Accel-Sim runs them on */
    R("B2R", NULL, INT, ADD, 0, "Accel-Sim's ALU ops (moves, conversions, predicates, SHFL, DEPBAR, ...): INT pipe"),
    R("CCTL", NULL, INT, ADD, 0, ""),
    R("CCTLL", NULL, INT, ADD, 0, ""),
    R("CCTLT", NULL, INT, ADD, 0, ""),
    R("CSMTEST", NULL, INT, ADD, 0, ""),
    R("DEPBAR", NULL, INT, ADD, 0, ""),
    R("ERRBAR", NULL, INT, ADD, 0, ""),
    R("F2IP", NULL, INT, ADD, 0, ""),
    R("GETLMEMBASE", NULL, INT, ADD, 0, ""),
    R("I2FP", NULL, INT, ADD, 0, ""),
    R("I2IP", NULL, INT, ADD, 0, ""),
    R("LDGDEPBAR", NULL, INT, ADD, 0, ""),
    R("LEPC", NULL, INT, ADD, 0, ""),
    R("MATCH", NULL, INT, ADD, 0, ""),
    R("MOVM", NULL, INT, ADD, 0, ""),
    R("NOP", NULL, INT, ADD, 0, ""),
    R("P2R", NULL, INT, ADD, 0, ""),
    R("PLOP3", NULL, INT, ADD, 0, ""),
    R("PMTRIG", NULL, INT, ADD, 0, ""),
    R("PSETP", NULL, INT, ADD, 0, ""),
    R("QSPC", NULL, INT, ADD, 0, ""),
    R("R2B", NULL, INT, ADD, 0, ""),
    R("R2P", NULL, INT, ADD, 0, ""),
    R("SETCTAID", NULL, INT, ADD, 0, ""),
    R("SETLMEMBASE", NULL, INT, ADD, 0, ""),
    R("SGXT", NULL, INT, ADD, 0, ""),
    R("SHFL", NULL, INT, ADD, 0, ""),
    R("SUATOM", NULL, INT, ADD, 0, ""),
    R("SULD", NULL, INT, ADD, 0, ""),
    R("SUQUERY", NULL, INT, ADD, 0, ""),
    R("SURED", NULL, INT, ADD, 0, ""),
    R("SUST", NULL, INT, ADD, 0, ""),
    R("VOTE", NULL, INT, ADD, 0, ""),
    R("VOTE_VTG", NULL, INT, ADD, 0, ""),
    R("BMSK", NULL, INT, ADD, 0, "Accel-Sim's integer ops: INT pipe"),
    R("BREV", NULL, INT, ADD, 0, ""),
    R("IABS", NULL, INT, ADD, 0, ""),
    R("IDP", NULL, INT, ADD, 0, ""),
    R("IDP4A", NULL, INT, ADD, 0, ""),
    R("ISCADD32I", NULL, INT, ADD, 0, ""),
    R("VABSDIFF", NULL, INT, ADD, 0, ""),
    R("VABSDIFF4", NULL, INT, ADD, 0, ""),
    R("FCHK", NULL, FP, ADD, 0, "Accel-Sim's SP ops: FP32/half pipe"),
    R("FSET", NULL, FP, ADD, 0, ""),
    R("FSWZADD", NULL, FP, ADD, 0, ""),
    R("HADD2_32I", NULL, FP, ADD, 0, ""),
    R("HFMA2_32I", NULL, FP, MAD, 0, ""),
    R("HMNMX2", NULL, FP, MAX, 0, ""),
    R("HMUL2_32I", NULL, FP, MUL, 0, ""),
    R("HSET2", NULL, FP, ADD, 0, ""),
    R("HSETP2", NULL, FP, ADD, 0, ""),
    R("BMOV", NULL, BRANCH, ADD, 0, "Accel-Sim's specialized unit 1 (control): branches"),
    R("BPT", NULL, BRANCH, ADD, 0, ""),
    R("BRXU", NULL, BRANCH, ADD, 0, ""),
    R("JMXU", NULL, BRANCH, ADD, 0, ""),
    R("NANOSLEEP", NULL, BRANCH, ADD, 0, ""),
    R("RPCMOV", NULL, BRANCH, ADD, 0, ""),
    R("RTT", NULL, BRANCH, ADD, 0, ""),
    R("YIELD", NULL, BRANCH, ADD, 0, ""),
    RU(2, "TEX", NULL, SFU, ADD, 1, "texture (Accel-Sim's specialized unit 2; else the SFU pipe)"),
    RU(2, "TLD", NULL, SFU, ADD, 0, ""),
    RU(2, "TLD4", NULL, SFU, ADD, 0, ""),
    RU(2, "TMML", NULL, SFU, ADD, 0, ""),
    RU(2, "TXD", NULL, SFU, ADD, 0, ""),
    RU(2, "TXQ", NULL, SFU, ADD, 0, ""),
    RU(3, "BMMA", NULL, FP, MAD, 0, "tensor cores (Accel-Sim's specialized unit 3; else the FP pipe, as HMMA)"),
    RU(3, "DMMA", NULL, FP, MAD, 0, ""),
    RU(3, "IMMA", NULL, FP, MAD, 0, ""),
    RU(3, "KILL", NULL, FP, MAD, 0, "Turing's and Ampere's unit (Volta's map: the branch unit)"),
    RU(4, "R2UR", NULL, INT, ADD, 0, "uniform datapath (Accel-Sim's specialized unit 4; else the INT pipe)"),
    RU(4, "REDUX", NULL, INT, ADD, 0, ""),
    RU(4, "S2UR", NULL, INT, ADD, 0, ""),
    RU(4, "UBMSK", NULL, INT, ADD, 0, ""),
    RU(4, "UBREV", NULL, INT, ADD, 0, ""),
    RU(4, "UCLEA", NULL, INT, ADD, 0, ""),
    RU(4, "UF2FP", NULL, INT, ADD, 0, ""),
    RU(4, "UFLO", NULL, INT, ADD, 0, ""),
    RU(4, "UIADD3", NULL, INT, ADD, 1, ""),
    RU(4, "UIMAD", NULL, INT, ADD, 0, ""),
    RU(4, "UISETP", NULL, INT, ADD, 0, ""),
    RU(4, "ULDC", NULL, INT, ADD, 0, ""),
    RU(4, "ULEA", NULL, INT, ADD, 0, ""),
    RU(4, "ULOP", NULL, INT, ADD, 0, ""),
    RU(4, "ULOP3", NULL, INT, ADD, 0, ""),
    RU(4, "ULOP32I", NULL, INT, ADD, 0, ""),
    RU(4, "UMOV", NULL, INT, ADD, 0, ""),
    RU(4, "UP2UR", NULL, INT, ADD, 0, ""),
    RU(4, "UPLOP3", NULL, INT, ADD, 0, ""),
    RU(4, "UPOPC", NULL, INT, ADD, 0, ""),
    RU(4, "UPRMT", NULL, INT, ADD, 0, ""),
    RU(4, "UPSETP", NULL, INT, ADD, 0, ""),
    RU(4, "UR2UP", NULL, INT, ADD, 0, ""),
    RU(4, "USEL", NULL, INT, ADD, 0, ""),
    RU(4, "USGXT", NULL, INT, ADD, 0, ""),
    RU(4, "USHF", NULL, INT, ADD, 0, ""),
    RU(4, "USHL", NULL, INT, ADD, 0, ""),
    RU(4, "USHR", NULL, INT, ADD, 0, ""),
    RU(4, "VOTEU", NULL, INT, ADD, 0, ""),
};

const sim_trace_opcode *sim_trace_opcodes(int *n)
{
    *n = (int)(sizeof table / sizeof table[0]);
    return table;
}

/* 1 when the '.'-separated token tok (length n) is among opcode's modifiers. */
static int has_token(const char *mods, const char *end, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = mods; p < end;) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        const char *e = dot ? dot : end;
        if ((size_t)(e - p) == n && !memcmp(p, tok, n))
            return 1;
        p = e + 1;
    }
    return 0;
}

/* Accel-Sim's width rule: the first modifier that is a number of bits
 * (64, 128) or U<bits> (U8, U16) gives the width; otherwise 4 bytes. */
static int width_from_modifiers(const char *mods, const char *end)
{
    for (const char *p = mods; p < end;) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        const char *e = dot ? dot : end;
        const char *d = p < e && *p == 'U' ? p + 1 : p;
        int bits = 0, digits = 0;
        while (d < e && *d >= '0' && *d <= '9' && bits < 100000) {
            bits = bits * 10 + (*d++ - '0');
            digits++;
        }
        if (digits && d == e && bits >= 8)
            return bits / 8 > 255 ? 255 : bits / 8;
        p = e + 1;
    }
    return 4;
}

void sim_trace_classify(const char *opcode, size_t len, sim_trace_class *out)
{
    const char *end = opcode + len;
    const char *dot = memchr(opcode, '.', len);
    size_t base = dot ? (size_t)(dot - opcode) : len;
    const char *mods = dot ? dot + 1 : end;
    memset(out, 0, sizeof *out);
    out->op = SIM_OP_INT;
    out->alu = SIM_ALU_ADD;
    out->size = (uint8_t)width_from_modifiers(mods, end);
    for (size_t i = 0; base && i < sizeof table / sizeof table[0]; i++) {
        const sim_trace_opcode *r = &table[i];
        /* the first letter rules out most rows without a strlen (every
         * instruction of a trace comes through here) */
        if (r->mnemonic[0] != opcode[0] || strlen(r->mnemonic) != base ||
            memcmp(r->mnemonic, opcode, base))
            continue;
        if (r->modifier && !has_token(mods, end, r->modifier))
            continue;
        out->op = r->op;
        out->alu = r->alu;
        out->unit = r->unit;
        out->known = 1;
        out->generic = !strcmp(r->mnemonic, "LD") || !strcmp(r->mnemonic, "ST");
        break;
    }
    if (out->op == SIM_OP_LD_GLOBAL && has_token(mods, end, "STRONG") &&
        (has_token(mods, end, "GPU") || has_token(mods, end, "SYS")))
        out->flags = SIM_INST_VOLATILE;
}
