#!/bin/sh
# The SASS opcodes of Volta, Turing and Ampere traces: every opcode of
# Accel-Sim's ISA tables for those GPUs (gpu-simulator/ISA_Def/volta_opcode.h,
# turing_opcode.h, ampere_opcode.h; the names are listed here) is in
# `trapeze trace opcodes`, each on the unit Accel-Sim runs it on; and a
# trace's mangled C++ kernel name is shown demangled.
# Usage: sh tests/cli_trace_opcodes.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
"$T" trace opcodes >"$D/ops" || fail "trace opcodes"
for op in ATOM ATOMG ATOMS B2R BAR BMMA BMOV BMSK BPT BRA BREAK BREV BRX BRXU BSSY BSYNC CALL CCTL CCTLL CCTLT CS2R CSMTEST DADD DEPBAR DFMA DMMA DMUL DSETP ERRBAR EXIT F2F F2I F2IP FADD FADD32I FCHK FFMA FFMA32I FLO FMNMX FMUL FMUL32I FRND FSEL FSET FSETP FSWZADD GETLMEMBASE HADD2 HADD2_32I HFMA2 HFMA2_32I HMMA HMNMX2 HMUL2 HMUL2_32I HSET2 HSETP2 I2F I2FP I2I I2IP IABS IADD IADD3 IADD32I IDP IDP4A IMAD IMMA IMNMX IMUL IMUL32I ISCADD ISCADD32I ISETP JMP JMX JMXU KILL LD LDC LDG LDGDEPBAR LDGSTS LDL LDS LDSM LEA LEPC LOP LOP3 LOP32I MATCH MEMBAR MOV MOV32I MOVM MUFU NANOSLEEP NOP P2R PLOP3 PMTRIG POPC PRMT PSETP QSPC R2B R2P R2UR RED REDUX RET RPCMOV RTT S2R S2UR SEL SETCTAID SETLMEMBASE SGXT SHF SHFL SHL SHR ST STG STL STS SUATOM SULD SUQUERY SURED SUST TEX TLD TLD4 TMML TXD TXQ UBMSK UBREV UCLEA UF2FP UFLO UIADD3 UIMAD UISETP ULDC ULEA ULOP ULOP3 ULOP32I UMOV UP2UR UPLOP3 UPOPC UPRMT UPSETP UR2UP USEL USGXT USHF USHL USHR VABSDIFF VABSDIFF4 VOTE VOTEU VOTE_VTG WARPSYNC YIELD; do
    grep -q "^$op " "$D/ops" || fail "opcode $op not in trapeze trace opcodes"
done
# the unit of a few, as Accel-Sim maps them (SP_OP, DP_OP, SFU_OP, ALU_OP,
# specialized units 1 to 4, LOAD_OP)
for pair in FADD:fp HFMA2:fp DFMA:dp MUFU:sfu SHFL:int DEPBAR:int BRA:branch BSSY:branch \
            TEX:sfu HMMA:fp IMMA:fp UIADD3:int ULDC:int LDGSTS:ld.global STS:st.shared; do
    op=${pair%%:*} unit=${pair#*:}
    grep -Eq "^$op +$unit " "$D/ops" || fail "$op should run as $unit: $(grep "^$op " "$D/ops")"
done

# demangling: the trace names its kernel _Z12vecAddKernelPfS_S_i
mkdir "$D/t"
cp data/traces/vecadd/kernelslist.g "$D/t/"
sed 's/^-kernel name = .*/-kernel name = _Z12vecAddKernelPfS_S_i/' data/traces/vecadd/kernel-1.traceg >"$D/t/kernel-1.traceg"
"$T" sim --gpu data/gpus/gtx480.config --trace "$D/t/kernelslist.g" --csv "$D/t.csv" >"$D/out" 2>/dev/null \
    || fail "sim of the mangled trace"
grep -q '^vecAddKernel(float\*, float\*, float\*, int): ' "$D/out" || fail "summary not demangled: $(head -1 "$D/out")"
grep -q '^"vecAddKernel(float\*, float\*, float\*, int)",' "$D/t.csv" || fail "CSV not demangled: $(sed -n 2p "$D/t.csv")"
finish cli_trace_opcodes
