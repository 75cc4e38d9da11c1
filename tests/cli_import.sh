#!/bin/sh
# `trapeze import ncu`: an Nsight Compute CSV export (`ncu --csv --page raw`,
# written here in that format: a header of metric names, a units row, one
# row per launch, numbers with thousands separators) becomes one
# kind=measured row of the samples log, with hand-computed values; bad
# input gets one message naming file, line and field, and appends nothing.
# Usage: sh tests/cli_import.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

cat >"$D/run.csv" <<'CSV'
==PROF== Connected to process 4242 (/home/u/hotspot)
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes_read.sum","dram__bytes_write.sum","gpc__cycles_elapsed.max","l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum","smsp__inst_executed.sum"
"","","","","","","","","","","","byte","byte","cycle","","inst"
"0","4242","hotspot","h","calculate_temp(int, float *, float *)","1","7","(16, 16, 1)","(43, 43, 1)","0","2.0","1,000,000","500,000","100,000","10","2,000,000"
"1","4242","hotspot","h","init_kernel(float *)","1","7","(256, 1, 1)","(100, 1, 1)","0","2.0","9","9","999,999","0","9"
"2","4242","hotspot","h","calculate_temp(int, float *, float *)","1","7","(16, 16, 1)","(43, 43, 1)","0","2.0","1,100,000","600,000","120,000","20","2,100,000"
"3","4242","hotspot","h","calculate_temp(int, float *, float *)","1","7","(16, 16, 1)","(43, 43, 1)","0","2.0","1,200,000","700,000","130,500","30","2,200,000"
CSV

# relaunch, h = 2: kernel filter drops init_kernel, --skip 1 drops launch 0:
# cycles 120,000 + 130,500 + 2 gaps x 3,500 = 257,500 over 2 stages,
# cpl = 257,500 / (2 x 2) = 64,375
"$T" import ncu "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 2 \
    --kernel calculate_temp --skip 1 --relaunch-gap 3500 --samples "$D/s.csv" >"$D/out" 2>"$D/err" \
    || fail "import exit status: $(cat "$D/err")"
grep -q "2 launches of HotSpot" "$D/out" || fail "summary line: $(cat "$D/out")"
grep -q "DRAM 2300000 bytes read, 1300000 written" "$D/out" || fail "DRAM bytes: $(cat "$D/out")"
row=$(sed -n 2p "$D/s.csv")
echo "$row" | grep -q ',measured,HotSpot,gtx480,relaunch,2,' || fail "row identity: $row"
cyc=$(echo "$row" | cut -d, -f12) cpl=$(echo "$row" | cut -d, -f13)
inst=$(echo "$row" | cut -d, -f14) bc=$(echo "$row" | cut -d, -f15) st=$(echo "$row" | cut -d, -f11)
[ "$cyc" = 257500 ] || fail "cycles $cyc, expected 257500"
[ "$cpl" = 64375 ] || fail "cpl_cycles $cpl, expected 64375"
[ "$inst" = 4300000 ] || fail "warp instructions $inst, expected 4300000"
[ "$bc" = 50 ] || fail "bank conflicts $bc, expected 50"
[ "$st" = 2 ] || fail "stages $st, expected 2"

# importing the same run twice appends nothing
cp "$D/s.csv" "$D/s.before"
"$T" import ncu "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 2 \
    --kernel calculate_temp --skip 1 --relaunch-gap 3500 --samples "$D/s.csv" >/dev/null 2>"$D/err" \
    && fail "second import of one run exit status 0"
grep -q "already holds sample" "$D/err" || fail "duplicate message: $(cat "$D/err")"
cmp -s "$D/s.csv" "$D/s.before" || fail "duplicate import changed the log"

# fence: one persistent launch over 10 stages at h = 3: 130,500 / 30 = 4350
sed '/init_kernel/d; /"0","4242"/d; /"2","4242"/d' "$D/run.csv" >"$D/fence.csv"
"$T" import ncu "$D/fence.csv" --gpu gtx480 --workload hotspot --sync fence --h 3 --stages 10 \
    --size 500x500 --samples "$D/s.csv" >/dev/null 2>"$D/err" || fail "fence import: $(cat "$D/err")"
row=$(sed -n 3p "$D/s.csv")
[ "$(echo "$row" | cut -d, -f13)" = 4350 ] || fail "fence cpl: $row"
echo "$row" | grep -q ',fence,3,20,500,500,1,10,' || fail "fence row size and stages: $row"

# --- bad input: one message, nothing appended
cp "$D/s.csv" "$D/s.before"
bad() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/none" "$T" import ncu "$@" --samples "$D/s.csv"; cmp -s "$D/s.csv" "$D/s.before" || fail "$n: log changed"; }
printf 'a,b\n1,2\n' >"$D/foreign.csv"
bad "foreign CSV" "$D/foreign.csv:1: not an Nsight Compute CSV export" "$D/foreign.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
sed 's/gpc__cycles_elapsed.max/gpc__foo/' "$D/run.csv" >"$D/nocyc.csv"
bad "no cycle metric" "$D/nocyc.csv:2: no cycle metric" "$D/nocyc.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
sed 's/"120,000"/"12o,000"/' "$D/run.csv" >"$D/badnum.csv"
bad "bad number" "$D/badnum.csv:6: cycles: expected a non-negative number, got '12o,000'" "$D/badnum.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
bad "no kernel" "no launch of kernel 'nope' left to import" "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1 --kernel nope
bad "fence without stages" "--stages is required with --sync fence" "$D/run.csv" --gpu gtx480 --workload hotspot --sync fence --h 1
bad "misspelt preset" "--gpu gtx48: no such preset; did you mean 'gtx480'?" "$D/run.csv" --gpu gtx48 --workload hotspot --sync relaunch --h 1
bad "repeated option" "--h given twice" "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1 --h 2
bad "missing file" "$D/absent.csv" "$D/absent.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
"$T" import --help | grep -q -- "--relaunch-gap" || fail "--help"
finish cli_import
