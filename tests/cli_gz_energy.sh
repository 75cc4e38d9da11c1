#!/bin/sh
# `trapeze ghostzone --objective time|energy|edp`: a small 1-D stencil on
# the GTX 480 (six simulated samples, about a second of CPU). Each pick is
# the argmin of its own objective over every (sync, h) row of the CSV; each
# row's energy is the sum of its parts and its EDP energy x seconds; the
# rows do not depend on the objective (same samples, same bytes); bad
# options get one message and leave no CSV behind.
# Usage: sh tests/cli_gz_energy.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

# Under the sanitizers the blocks are 32 wide, not 64: every check below
# holds at any block (heights 1 .. 15 then, samples at 1, 8 and 15), and the
# three whole runs' samples of heights up to 31 cost about 20 CPU s each
# with ASan and UBSan.
blk=64 hmid=16 hmax=31
case "$T" in *build-san*) blk=32 hmid=8 hmax=15 ;; esac
cat >"$D/tiny.ini" <<INI
[workload]
name = Tiny1D
dimensions = 1
size = 16384
halo = 2
block = $blk
stencil_arrays = 1
elem_per_op = 1
element_bytes = 4
iterations = 8

[profile]
input_elements = 16384
insts_per_sm_mc = 200
insts_per_sm_ic = 180
bank_conflict_rate = 0
INI

"$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" --csv "$D/e.csv" >"$D/out" 2>"$D/err" \
    || fail "ghostzone --objective energy: $(cat "$D/err")"
for what in "by time" "by energy" "by edp" "chosen (energy)" "sleep at the pick" \
    "6 samples (relaunch h=1, relaunch h=$hmid, relaunch h=$hmax, fence h=1, fence h=$hmid, fence h=$hmax"; do
    grep -qF "$what" "$D/out" || fail "stdout lacks '$what': $(cat "$D/out")"
done
head -1 "$D/e.csv" | grep -q ',speedup_vs_h1,energy_j_per_loop,dynamic_j,sync_j,leakage_j,saved_j,edp_js,cpl_sleep_cycles,l1d_saving,l2_saving,rf_saving,penalty_fraction,l1d_thresholds,l2_thresholds,rf_thresholds$' \
    || fail "CSV header: $(head -1 "$D/e.csv")"
# h = 1 .. hmax (blk - 2h >= 1) for both sync modes
[ "$(wc -l <"$D/e.csv")" -eq $((2 * hmax + 1)) ] || fail "CSV rows: $(wc -l <"$D/e.csv")"

# argmin COLUMN: "sync h" of the row with the lowest value (the first on a tie)
argmin() {
    awk -F, -v col="$1" 'NR == 1 { for (i = 1; i <= NF; i++) ix[$i] = i; next }
        best == "" || $ix[col] + 0 < v { v = $ix[col] + 0; best = $3 " " $4 }
        END { print best }' "$D/e.csv"
}
# pick LABEL: "sync h" of the line "NAME by LABEL SYNC h=H ..."
pick() { awk -v l="$1" '$2 == "by" && $3 == l { sub("h=", "", $5); print $4 " " $5 }' "$D/out"; }
[ "$(pick time)" = "$(argmin cpl_sleep_cycles)" ] || fail "time pick $(pick time) != $(argmin cpl_sleep_cycles)"
[ "$(pick energy)" = "$(argmin energy_j_per_loop)" ] || fail "energy pick $(pick energy) != $(argmin energy_j_per_loop)"
[ "$(pick edp)" = "$(argmin edp_js)" ] || fail "edp pick $(pick edp) != $(argmin edp_js)"
chosen=$(awk '$2 == "chosen" { sub("h=", "", $5); print $4 " " $5 }' "$D/out")
[ "$chosen" = "$(pick energy)" ] || fail "chosen $chosen is not the energy pick $(pick energy)"

# energy = dynamic + sync + leakage; edp = energy x cpl_sleep / 700 MHz
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) ix[$i] = i; next }
    { e = $ix["energy_j_per_loop"]; s = $ix["dynamic_j"] + $ix["sync_j"] + $ix["leakage_j"];
      d = e * $ix["cpl_sleep_cycles"] / 700e6;
      if ((e - s) ^ 2 > (1e-9 * e) ^ 2 || ($ix["edp_js"] - d) ^ 2 > (1e-9 * d) ^ 2) print NR }' "$D/e.csv")
[ -z "$bad" ] || fail "rows whose parts do not add up: $bad"

# (One run checks three things, each a difference it would show: the other
# objective, 3 threads and a samples log written.)
"$T" ghostzone --gpu gtx480 --objective time "$D/tiny.ini" --energy-samples "$D/l2.csv" --threads 3 \
    --csv "$D/t.csv" >"$D/out2" 2>"$D/err" || fail "ghostzone --objective time: $(cat "$D/err")"
cmp -s "$D/e.csv" "$D/t.csv" \
    || fail "the rows depend on the objective, the thread count or a samples log (or the run is not deterministic)"
grep -q "chosen (time): $(pick time | sed 's/ / h=/')\$" "$D/out2" || fail "time choice: $(grep chosen "$D/out2")"

# the samples log: the same bytes whatever the thread count (and objective);
# a resumed run skips the logged samples (a value changed by hand stays) and
# runs only the missing one (the log comes back byte for byte)
"$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" --energy-samples "$D/l1.csv" \
    --csv "$D/s1.csv" >/dev/null 2>"$D/err" || fail "--energy-samples: $(cat "$D/err")"
cmp -s "$D/l1.csv" "$D/l2.csv" || fail "samples log depends on the thread count"
cmp -s "$D/e.csv" "$D/s1.csv" || fail "rows differ with a samples log"
[ "$(wc -l <"$D/l1.csv")" -eq 7 ] || fail "samples log rows: $(wc -l <"$D/l1.csv")"
head -1 "$D/l1.csv" | grep -q '^sample_id,kind,model,workload,gpu,sync,h,size,iterations,max_penalty,' \
    || fail "samples log header: $(head -1 "$D/l1.csv")"
head -n 6 "$D/l1.csv" >"$D/l3.csv"
"$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" --energy-samples "$D/l3.csv" \
    >/dev/null 2>"$D/err" || fail "resume: $(cat "$D/err")"
cmp -s "$D/l1.csv" "$D/l3.csv" || fail "resumed log differs"
# Tiny1D-fence-h1's dyn_compute_j (column 12) doubled by hand: kept, and the
# fence calibration (its nJ per instruction) moves
awk -F, -v OFS=, '$1 == "Tiny1D-fence-h1" { $12 = 2 * $12 } { print }' "$D/l1.csv" >"$D/l4.csv"
"$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" --energy-samples "$D/l4.csv" \
    >"$D/out4" 2>"$D/err" || fail "resume edited: $(cat "$D/err")"
cmp -s "$D/l1.csv" "$D/l4.csv" && fail "a logged sample was run again"
a=$(awk '$3 == "fence" && $2 == "calibrated" { print $4 }' "$D/out")
b=$(awk '$3 == "fence" && $2 == "calibrated" { print $4 }' "$D/out4")
[ -n "$a" ] && [ "$a" != "$b" ] || fail "edited sample not read: fence nJ/inst $a then $b"

# a log edited into nonsense: one message naming the file and the field
awk -F, -v OFS=, '$1 == "Tiny1D-fence-h1" { $25 = "0/x" } { print }' "$D/l1.csv" >"$D/bad1.csv"
expect_failure "bad thresholds" "$D/bad1.csv: sample Tiny1D-fence-h1: thresholds '0/x' are not A/B/C" \
    "$D/x.csv" "$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" \
    --energy-samples "$D/bad1.csv" --csv "$D/x.csv"
awk -F, -v OFS=, '$1 == "Tiny1D-fence-h1" { $19 = "1.5" } { print }' "$D/l1.csv" >"$D/bad2.csv"
expect_failure "saving out of range" "bad2.csv:5: field l1d_saving: 1.5 is outside [0, 1]" \
    "$D/x.csv" "$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" \
    --energy-samples "$D/bad2.csv" --csv "$D/x.csv"
# a logged row whose inputs are not the planned sample's (iterations, column
# 9): the message names the energy log itself, not "samples.csv"
awk -F, -v OFS=, '$1 == "Tiny1D-fence-h1" { $9 = 99 } { print }' "$D/l1.csv" >"$D/bad3.csv"
expect_failure "log row not planned" "$D/bad3.csv: row Tiny1D-fence-h1 does not match the planned sample" \
    "$D/x.csv" "$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini" \
    --energy-samples "$D/bad3.csv" --csv "$D/x.csv"

expect_failure "bad objective" "--objective: expected time, energy or edp, got 'power'" "$D/x.csv" \
    "$T" ghostzone --gpu gtx480 --objective power "$D/tiny.ini" --csv "$D/x.csv"
expect_failure "power without objective" "--power, --max-penalty and --energy-samples need" "$D/x.csv" \
    "$T" ghostzone --gpu gtx480 --power gtx480 "$D/tiny.ini" --csv "$D/x.csv"
expect_failure "objective with height" "--objective ranks every height" "$D/x.csv" \
    "$T" ghostzone --gpu gtx480 --objective edp --height 3 "$D/tiny.ini" --csv "$D/x.csv"
expect_failure "bad budget" "--max-penalty: expected a fraction in (0, 1), got '2'" "$D/x.csv" \
    "$T" ghostzone --gpu gtx480 --objective energy --max-penalty 2 "$D/tiny.ini" --csv "$D/x.csv"
MAX_ERR_LINES=1
expect_failure "no power description" "power/gtx280.ini" "$D/x.csv" \
    "$T" ghostzone --objective energy "$D/tiny.ini" --csv "$D/x.csv"
finish cli_gz_energy
