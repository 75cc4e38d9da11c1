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
bad "foreign CSV" "$D/foreign.csv: not an Nsight Compute CSV export" "$D/foreign.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
sed 's/gpc__cycles_elapsed.max/gpc__foo/' "$D/run.csv" >"$D/nocyc.csv"
bad "no cycle metric" "$D/nocyc.csv:2: no cycle metric" "$D/nocyc.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
sed 's/"120,000"/"12o,000"/' "$D/run.csv" >"$D/badnum.csv"
bad "bad number" "$D/badnum.csv:6: gpc__cycles_elapsed.max (cycles): '12o,000' is not a number" "$D/badnum.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
bad "no kernel" "no launch of kernel 'nope' left to import" "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1 --kernel nope
bad "fence without stages" "--stages is required with --sync fence" "$D/run.csv" --gpu gtx480 --workload hotspot --sync fence --h 1
bad "misspelt preset" "--gpu gtx48: no such preset; did you mean 'gtx480'?" "$D/run.csv" --gpu gtx48 --workload hotspot --sync relaunch --h 1
bad "repeated option" "--h given twice" "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1 --h 2
bad "missing file" "$D/absent.csv" "$D/absent.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 1
"$T" import --help | grep -q -- "--relaunch-gap" || fail "--help"

# --- exports as ncu writes them (tests/data/ncu/README.md names each layout)
N=tests/data/ncu
field() { sed -n "${2}p" "$1" | cut -d, -f"$3"; }
imp() { "$T" import ncu "$@" >"$D/out" 2>"$D/err"; }

# raw page, redirected stdout: 2 lines of program output and 5 ==PROF== lines
# skipped; units row applied: Mcycle, Minst, Mbyte. Relaunch h = 2 over 3
# launches: cycles 1.21 + 1.19 + 1.20 Mcycle = 3,600,000, cpl 3,600,000 / 6
# = 600,000; 3 x 2.50 Minst = 7,500,000; DRAM 54.06 and 50.34 Mbyte
imp $N/raw-units.csv --gpu v100 --workload hotspot --sync relaunch --h 2 --samples "$D/u.csv" \
    || fail "raw page import: $(cat "$D/err")"
grep -q "skipped 2 lines of program output and 5 ==PROF== lines" "$D/err" || fail "skip note: $(cat "$D/err")"
grep -q "DRAM 54060000 bytes read, 50340000 written" "$D/out" || fail "raw DRAM: $(cat "$D/out")"
[ "$(field "$D/u.csv" 2 12)" = 3600000 ] || fail "raw cycles (Mcycle): $(sed -n 2p "$D/u.csv")"
[ "$(field "$D/u.csv" 2 13)" = 600000 ] || fail "raw cpl: $(sed -n 2p "$D/u.csv")"
[ "$(field "$D/u.csv" 2 14)" = 7500000 ] || fail "raw instructions (Minst): $(sed -n 2p "$D/u.csv")"
# one launch: 18.02 Mbyte is 18,020,000 bytes; fence, 10 stages of h = 2:
# 1,210,000 / 20 = 60,500
sed '/^"[12]","30817"/d' $N/raw-units.csv >"$D/one.csv"
imp "$D/one.csv" --gpu v100 --workload hotspot --sync fence --stages 10 --h 2 --samples "$D/u.csv" \
    || fail "one launch: $(cat "$D/err")"
grep -q "DRAM 18020000 bytes read, 16780000 written" "$D/out" || fail "18.02 Mbyte: $(cat "$D/out")"
[ "$(field "$D/u.csv" 3 13)" = 60500 ] || fail "one launch cpl: $(sed -n 3p "$D/u.csv")"

# details page with --metrics: cycles 312,548 + 310,452 = 623,000 at h = 1,
# cpl 311,500; 2 x 1,642,368 instructions; 4.72 + 4.71 Mbyte read, 2 x
# 4,194.30 Kbyte = 8,388,600 bytes written
imp $N/details-metrics.csv --gpu v100 --workload hotspot --sync relaunch --h 1 --samples "$D/d.csv" \
    || fail "details page import: $(cat "$D/err")"
[ "$(field "$D/d.csv" 2 12)" = 623000 ] || fail "details cycles: $(sed -n 2p "$D/d.csv")"
[ "$(field "$D/d.csv" 2 13)" = 311500 ] || fail "details cpl: $(sed -n 2p "$D/d.csv")"
[ "$(field "$D/d.csv" 2 14)" = 3284736 ] || fail "details instructions: $(sed -n 2p "$D/d.csv")"
grep -q "DRAM 9430000 bytes read, 8388600 written" "$D/out" || fail "details DRAM: $(cat "$D/out")"
# the default sections (ncu 2022 layout): Elapsed Cycles 98,305 + 97,695 at
# h = 4: 196,000 / 8 = 24,500
imp $N/details-default.csv --gpu v100 --workload pathfinder --sync relaunch --h 4 --samples "$D/d.csv" \
    || fail "default details import: $(cat "$D/err")"
[ "$(field "$D/d.csv" 3 12)" = 196000 ] || fail "Elapsed Cycles: $(sed -n 3p "$D/d.csv")"
[ "$(field "$D/d.csv" 3 13)" = 24500 ] || fail "default details cpl: $(sed -n 3p "$D/d.csv")"
grep -q "skipped 0 lines of program output and 4 ==PROF== lines" "$D/err" || fail "details note: $(cat "$D/err")"

# a file name with a comma is quoted in the log, which reads back (the
# second import finds the row); one with a line break is refused
cp $N/details-metrics.csv "$D/a,b.csv"
imp "$D/a,b.csv" --gpu v100 --workload hotspot --sync relaunch --h 1 --samples "$D/d.csv" || fail "comma name: $(cat "$D/err")"
imp "$D/a,b.csv" --gpu v100 --workload hotspot --sync relaunch --h 1 --samples "$D/d.csv" && fail "comma name imported twice"
grep -q "already holds sample" "$D/err" || fail "comma name re-read: $(cat "$D/err")"
nl="$D/run
.csv"
cp $N/details-metrics.csv "$nl"
cp "$D/d.csv" "$D/d.before"
imp "$nl" --gpu v100 --workload hotspot --sync relaunch --h 1 --samples "$D/d.csv" && fail "line break in name: exit 0"
grep -q "field sample_id: .* holds a line break" "$D/err" || fail "line break message: $(cat "$D/err")"
cmp -s "$D/d.csv" "$D/d.before" || fail "line break in name: log changed"

# --- values no log may hold, refused with file, line and column; the log unchanged
R=$N/raw-units.csv
cp "$D/s.csv" "$D/s.before"
raw() { bad "$1" "$2" "$D/v.csv" --gpu v100 --workload hotspot --sync relaunch --h 2; }
sed 's/"1\.21"/"0"/' $R >"$D/v.csv"
raw "zero cycles" "v.csv:10: gpc__cycles_elapsed.max (cycles): '0' is 0 cycle, outside [1, 1e+15]"
sed 's/"Mcycle"/"cycle"/; s/"1\.21"/"1e-300"/' $R >"$D/v.csv"
raw "1e-300 cycles" "v.csv:10: gpc__cycles_elapsed.max (cycles): '1e-300' is 1e-300 cycle, outside [1, 1e+15]"
sed 's/"Mcycle"/"cycle"/; s/"1\.21"/"1e308"/; s/"1\.19"/"1.7e308"/' $R >"$D/v.csv"
raw "1e308 cycles" "v.csv:10: gpc__cycles_elapsed.max (cycles): '1e308' is 1e+308 cycle, outside [1, 1e+15]"
sed 's/"1\.21"/"-1.21"/' $R >"$D/v.csv"
raw "negative cycles" "v.csv:10: gpc__cycles_elapsed.max (cycles): '-1.21' is negative"
# three launches of 5e14 cycles each are in range; their sum is not
sed 's/"Mcycle"/"Tcycle"/; s/"1\.21"/"500"/; s/"1\.19"/"500"/; s/"1\.20"/"500"/' $R >"$D/v.csv"
raw "sum out of range" "v.csv:12: field cycles: 1.5e+15 is outside [1, 1e+15]"
# a Windows export: a byte-order mark and CRLF line ends
printf '\357\273\277' >"$D/win.csv"
sed 's/$/\r/' $N/details-metrics.csv >>"$D/win.csv"
imp "$D/win.csv" --gpu v100 --workload hotspot --sync relaunch --h 1 --samples "$D/w.csv" || fail "CRLF export: $(cat "$D/err")"
[ "$(field "$D/w.csv" 2 12)" = 623000 ] || fail "CRLF export cycles: $(sed -n 2p "$D/w.csv")"
sed 's/"1\.21"/"n\/a"/' $R >"$D/v.csv"
raw "n/a" "v.csv:10: gpc__cycles_elapsed.max (cycles): 'n/a' is not a number"
sed 's/"1\.21"/"1,2,3,,4"/' $R >"$D/v.csv"
raw "stray commas" "v.csv:10: gpc__cycles_elapsed.max (cycles): '1,2,3,,4' is not a number"
sed 's/"Mcycle"/"cycle"/; s/"1\.21"/"1,234,567"/' "$D/one.csv" >"$D/v.csv"
"$T" import ncu "$D/v.csv" --gpu v100 --workload hotspot --sync relaunch --h 1 --samples "$D/t.csv" >/dev/null 2>&1 || fail "1,234,567 refused"
[ "$(field "$D/t.csv" 2 12)" = 1234567 ] || fail "1,234,567 cycles: $(sed -n 2p "$D/t.csv")"
sed 's/"Mcycle"/"Mfurlong"/' $R >"$D/v.csv"
raw "unknown unit" "v.csv:9: gpc__cycles_elapsed.max: unit 'Mfurlong' is not one this reader knows"
sed 's/"Mcycle"/"usecond"/' $R >"$D/v.csv"
raw "unit of another kind" "v.csv:9: gpc__cycles_elapsed.max: unit 'usecond' is not cycle"
sed 's/"Minst"/"Mbyte"/' $R >"$D/v.csv"
raw "instructions in bytes" "v.csv:9: smsp__inst_executed.sum: unit 'Mbyte' is not inst"
sed 's/"cycle"/"cycle\/nsecond"/' $N/details-metrics.csv >"$D/v.csv"
raw "details unit" "v.csv:10: gpc__cycles_elapsed.max: unit 'cycle/nsecond' is not cycle"
sed '/"1","30817"/s/^"1"/""/' $R >"$D/v.csv"
raw "row without ID" "v.csv:11: a row without a launch ID"
sed '/"1","30817"/s/,"2.50"$//' $R >"$D/v.csv"
raw "short row" "v.csv:11: 15 fields, the header has 16"
sed '/"1","30817"/s/"2.50"$/"2.50/' $R >"$D/v.csv"
raw "open quote" "v.csv:11: malformed CSV"
sed '/Elapsed Cycles/d' $N/details-default.csv >"$D/v.csv"
bad "details without cycles" "v.csv:6: launch ID 0 has no cycle metric" "$D/v.csv" --gpu v100 --workload pathfinder --sync relaunch --h 1
finish cli_import
