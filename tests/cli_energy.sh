#!/bin/sh
# End-to-end tests of the energy options of `trapeze sim`: --power prints a
# breakdown whose parts add up to the total and adds _j columns; --idle-csv
# writes the contract's long table (whose per-kernel counts match the
# kernel's idle periods); sleep policies; bad power files and policies give
# one clear message and no output file.
# Usage: sh tests/cli_energy.sh build/trapeze
MAX_ERR_LINES=2   # the message and a note on unmodelled options
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

"$T" sim --gpu $G jacobi nx=128 ny=128 --power gtx480 --csv "$D/k.csv" --per-sm-csv "$D/s.csv" \
    --idle-csv "$D/idle.csv" >"$D/out" 2>"$D/err" || fail "power run: $(cat "$D/err")"
grep -q '^energy: [0-9.e+-]* J over [0-9.e+-]* s, average [0-9.]* W$' "$D/out" || fail "energy line"
for p in dyn_core dyn_rf dyn_dram leak_rf leak_l1d leak_l2 constant idle_sm; do
    grep -q "^  $p " "$D/out" || fail "breakdown lacks $p"
done
# the parts add up to the total (printed with 6 significant digits)
awk '/^energy:/ {t = $2} /^  [a-z0-9_]+ +[0-9.e+-]+ J/ {s += $2}
     END {d = s - t; if (d < 0) d = -d; exit !(t > 0 && d <= 1e-5 * t)}' "$D/out" \
    || fail "breakdown does not add up to the total"
head -n 1 "$D/k.csv" | grep -q ',dyn_core_j,.*,total_j,' || fail "kernel CSV lacks _j columns"
head -n 1 "$D/s.csv" | grep -q ',idle_sm_j,dyn_inst_issue_j,dyn_shmem_j$' || fail "per-SM _j columns"
[ "$(head -n 1 "$D/idle.csv")" = "gpu,kernel,structure,granularity,length_min_cycles,length_max_cycles,next_access,count" ] \
    || fail "idle CSV header: $(head -n 1 "$D/idle.csv")"
for sg in l1d,line l1d,bank l2,line l2,slice rf,warp_reg rf,bank; do
    grep -q "^[a-zA-Z0-9 ]*,jacobi2d,$sg," "$D/idle.csv" || fail "idle CSV lacks $sg"
done
# exact lengths have min = max up to 1024; buckets [2^k+1, 2^(k+1)] above
awk -F, 'NR > 1 && ($5 <= 1024 ? $5 != $6 : ($6 != 2 * ($5 - 1) || $5 - 1 < 1024)) {bad = 1}
         NR > 1 && $7 != "read" && $7 != "write" && $7 != "dead" {bad = 1}
         END {exit bad}' "$D/idle.csv" || fail "idle CSV buckets or next_access"

# sleep policies: Slumber on the register file, Snooze on both caches
"$T" sim --gpu $G jacobi nx=128 ny=128 --power gtx480 --sleep-rf slumber --sleep-l1d snooze:bank \
    --sleep-l2 snooze:line >"$D/out2" 2>"$D/err" || fail "policy run: $(cat "$D/err")"
grep -q '^  sleep rf  slumber:warp_reg .* gated [1-9]' "$D/out2" || fail "slumber line"
grep -q '^  sleep l1d snooze:bank .* sleep [1-9]' "$D/out2" || fail "snooze line"

# a workload run: the same options
"$T" sim --gpu $G --workload hotspot --size 64x64 --iterations 2 --power gtx480 --sleep-rf drowsy \
    --idle-csv "$D/w.csv" >"$D/out3" 2>"$D/err" || fail "workload run: $(cat "$D/err")"
grep -q '^  sleep rf  drowsy:warp_reg .* deep [1-9]' "$D/out3" || fail "workload energy lines"
grep -q '^[a-zA-Z0-9 ]*,HotSpot[a-z_0-9]*,rf,warp_reg,' "$D/w.csv" || fail "workload idle CSV"

# bad input
printf '[event_j]\ninst_issue = x\n' >"$D/bad.ini"
expect_failure "bad power value" "$D/bad.ini:2: [event_j] inst_issue: expected a number" \
    "$D/o.csv" "$T" sim --gpu $G vecadd n=1024 --power "$D/bad.ini" --csv "$D/o.csv"
expect_failure "power file missing" "data/power/gtx999.ini: cannot open" "$D/o.csv" \
    "$T" sim --gpu $G vecadd n=1024 --power gtx999 --csv "$D/o.csv"
expect_failure "rf policy" "'snooze' is not one of always_on, drowsy, slumber, oracle" "$D/o.csv" \
    "$T" sim --gpu $G vecadd n=1024 --power gtx480 --sleep-rf snooze --csv "$D/o.csv"
expect_failure "policy without power" "needs a power description (--power)" "$D/o.csv" \
    "$T" sim --gpu $G vecadd n=1024 --sleep-rf slumber --csv "$D/o.csv"
printf -- '-trapeze_sleep_l2 snooze:bank\n' >"$D/pol.config"
cat $G "$D/pol.config" >"$D/g.config"
expect_failure "config policy" "g.config:" "$D/o.csv" \
    "$T" sim --gpu "$D/g.config" vecadd n=1024 --power gtx480 --csv "$D/o.csv"
# sleep options in the config are read (never "not modelled") and range-checked
cat $G >"$D/s.config"
printf -- '-trapeze_sleep_rf slumber\n-trapeze_sleep_lookahead_rf 4\n' >>"$D/s.config"
"$T" sim --gpu "$D/s.config" vecadd n=4096 --power gtx480 >"$D/out4" 2>"$D/err" \
    || fail "config policy run: $(cat "$D/err")"
grep -q 'sleep rf  slumber:warp_reg' "$D/out4" || fail "config policy not applied"
grep -q 'trapeze_sleep' "$D/err" && fail "sleep options reported as not modelled: $(cat "$D/err")"
"$T" sim --options | grep -q '^  -trapeze_slumber_gated  *int  *16  *\[1, 1024\]' \
    || fail "--options lacks -trapeze_slumber_gated"
printf -- '-trapeze_sleep_lookahead_rf 2000\n' >>"$D/s.config"
expect_failure "lookahead range" "option -trapeze_sleep_lookahead_rf: 2000 is outside [0, 1024]" \
    "$D/o.csv" "$T" sim --gpu "$D/s.config" vecadd n=1024 --power gtx480 --csv "$D/o.csv"
finish cli_energy
