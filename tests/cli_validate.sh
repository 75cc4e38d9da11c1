#!/bin/sh
# End-to-end tests of `trapeze validate` on a tiny sweep: one CSV row per
# workload and mode with the documented header, curve rows for every h, the
# sweep log reused by a rerun (same bytes, nothing simulated again) and
# refused when its rows are not the planned runs, and bad
# input giving one message, a non-zero exit and no output file.
# Usage: sh tests/cli_validate.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

PLAN="--gpu gtx480 --budget 10 --stages 1 --sweep-budget 4e6 --max-h 3"
# Under the sanitizers the calibration validated is the shipped one less its
# HotSpot profile (the checks below hold for any calibration without it), not
# one made here: a third of this group's CPU there, and cli_calibrate.sh runs
# calibrate under the sanitizers; that validate reads what calibrate writes
# is the plain build's check.
case "$T" in
*build-san*)
    awk '/^\[/ { skip = $0 == "[profile.HotSpot]" } !skip' data/calibrations/gtx480.ini >"$D/c.ini"
    cp data/calibrations/gtx480-samples.csv "$D/s.csv" ;;
*)
    "$T" calibrate $PLAN --samples "$D/s.csv" --out "$D/c.ini" poisson >/dev/null 2>"$D/err" \
        || fail "calibrate: $(cat "$D/err")" ;;
esac
"$T" validate $PLAN --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sweep.csv" \
    --csv "$D/v.csv" --curve "$D/curve.csv" poisson >"$D/out" 2>"$D/err" || fail "validate: $(cat "$D/err")"
[ "$(head -1 "$D/v.csv")" = "workload,sync,mape_pct,max_ape_pct,h_model,h_sim_best,pick_ratio,sample_warp_instructions,sweep_warp_instructions" ] \
    || fail "csv header: $(head -1 "$D/v.csv")"
[ "$(tail -n +2 "$D/v.csv" | cut -d, -f1,2 | tr '\n' ' ')" = "Poisson,relaunch Poisson,fence " ] \
    || fail "csv rows: $(cat "$D/v.csv")"
# --max-h 3: h = 1, 2, 3 in both modes, and the sweep log holds the same 6 runs
[ "$(tail -n +2 "$D/curve.csv" | cut -d, -f2,3 | tr '\n' ' ')" = "relaunch,1 relaunch,2 relaunch,3 fence,1 fence,2 fence,3 " ] \
    || fail "curve rows: $(cat "$D/curve.csv")"
[ "$(tail -n +2 "$D/sweep.csv" | wc -l)" -eq 6 ] || fail "sweep log rows"
awk -F, 'NR > 1 && !($7 > 0 && $7 <= 1 && $3 >= 0 && $4 >= $3 && $9 > 0) { exit 1 }' "$D/v.csv" \
    || fail "pick ratio in (0, 1], max >= mean error, sweep cost > 0: $(cat "$D/v.csv")"
# the summary's sweep cost is the sum of the curve's
sum=$(awk -F, 'NR > 1 && $2 == "fence" { s += $6 } END { printf "%.0f", s }' "$D/curve.csv")
[ "$sum" = "$(awk -F, '$2 == "fence" { printf "%.0f", $9 }' "$D/v.csv")" ] || fail "sweep cost sum"
grep -q '^Poisson *relaunch' "$D/out" || fail "table: $(cat "$D/out")"

# a rerun reuses the sweep log: same bytes, the log untouched
cp "$D/sweep.csv" "$D/sweep.before"
"$T" validate $PLAN --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sweep.csv" \
    --csv "$D/v2.csv" poisson >/dev/null 2>&1 || fail "rerun"
cmp -s "$D/v.csv" "$D/v2.csv" && cmp -s "$D/sweep.csv" "$D/sweep.before" || fail "rerun changed bytes"

# a workload the calibration never saw (HotSpot; c.ini holds Poisson's profile only) is
# profiled first, its pair kept in the sweep log, and validated with the counts that
# `ghostzone` uses for it at the same grid (before, the spec's GTX 280 counts)
"$T" validate $PLAN --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/hs.csv" \
    --csv "$D/hs-v.csv" --curve "$D/hs-c.csv" hotspot >/dev/null 2>"$D/err" || fail "validate unseen: $(cat "$D/err")"
[ "$(grep -c '/HotSpot/profile:h[12],profile,' "$D/hs.csv")" -eq 2 ] || fail "profiling pair not logged: $(cat "$D/hs.csv")"
size=$(awk -F, '$2 == "sim" { print $8 "x" $9; exit }' "$D/hs.csv")
sed "s/^size = .*/size = $size/" data/workloads/hotspot.ini >"$D/hs.ini"
"$T" ghostzone --gpu gtx480 --calibration "$D/c.ini" --sync relaunch --height 2 "$D/hs.ini" >"$D/hs.out" 2>/dev/null \
    || fail "ghostzone unseen"
# (within 0.1%: this grid is smaller than the profiling grid, 144 x 144, so ghostzone
# profiles on the grid itself; the spec's counts give 13% less)
want=$(awk -F, '$2 == "relaunch" && $3 == 2 { print $5 }' "$D/hs-c.csv")
got=$(awk '$3 == "relaunch" { print $7 }' "$D/hs.out")
awk -v a="$want" -v b="$got" 'BEGIN { exit !(a > 0 && b > 0 && (a - b) / a < 1e-3 && (b - a) / a < 1e-3) }' \
    || fail "validate's model $want, ghostzone's $got at $size"

# --sizes: one row per size, the curve's heights are plausible ones (--max-h 3:
# 1..3 in both modes, the model's pick among them), the reference at 1x.
# Twice the area, not four times: the same rows and checks for 56% of the
# CPU (the larger grid's six runs are most of this group's).
"$T" validate $PLAN --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sz.csv" \
    --sizes 1,2 --sweep-stages 1 --csv "$D/sz-v.csv" --curve "$D/sz-c.csv" poisson >"$D/out" 2>"$D/err" \
    || fail "validate --sizes: $(cat "$D/err")"
[ "$(head -1 "$D/sz-v.csv")" = "workload,area_factor,size_0,size_1,size_2,points,mape_pct,bias_relaunch_pct,bias_fence_pct,sync_model,h_model,sync_sim_best,h_sim_best,sync_right,pick_ratio,sweep_warp_instructions,verify3_pick_ratio,verify3_sync_right,verify3_warp_instructions" ] \
    || fail "sizes header: $(head -1 "$D/sz-v.csv")"
[ "$(tail -n +2 "$D/sz-v.csv" | cut -d, -f1,2,6 | tr '\n' ' ')" = "Poisson,1,6 Poisson,2,6 " ] \
    || fail "sizes rows: $(cat "$D/sz-v.csv")"
# the 2x grid's edges are the 1x grid's times sqrt(2), to the nearest cell
awk -F, 'NR == 2 { a = sqrt(2) * $3 } NR == 3 && ($3 < a - 0.5 || $3 > a + 0.5 || $4 != $3) { exit 1 }' \
    "$D/sz-v.csv" || fail "2x edges: $(cat "$D/sz-v.csv")"
# pick ratio in (0, 1]; sync_right says whether the two picks' modes agree
awk -F, 'NR > 1 && !($15 > 0 && $15 <= 1 && $14 == ($10 == $12)) { exit 1 }' "$D/sz-v.csv" \
    || fail "pick ratio / sync_right: $(cat "$D/sz-v.csv")"
# the pick ratio is the best simulated CPL over the model's pick's, from the curve
awk -F, 'NR == FNR && FNR > 1 && $2 == 1 { if (!b || $5 < b) b = $5; c[$3 ":" $4] = $5; next }
         FNR == 2 { r = b / c[$10 ":" $11]; if (r < $15 - 1e-9 || r > $15 + 1e-9) exit 1 }' \
    "$D/sz-c.csv" "$D/sz-v.csv" || fail "pick ratio from the curve"
[ "$(tail -n +2 "$D/sz-c.csv" | wc -l)" -eq 12 ] || fail "sizes curve rows: $(cat "$D/sz-c.csv")"
# --verify 3 on the same runs: never worse than the model's pick, never better than the best,
# and it costs at most the sweep
awk -F, 'NR > 1 && !($17 >= $15 && $17 <= 1 && $19 > 0 && $19 <= $16) { exit 1 }' "$D/sz-v.csv" \
    || fail "verify3 columns: $(cat "$D/sz-v.csv")"
grep -q 'Poisson .*right\|Poisson .*WRONG' "$D/out" || fail "sizes table: $(cat "$D/out")"

expect_error() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/x.csv" "$T" validate "$@" --csv "$D/x.csv"; }
expect_error "no calibration" "--calibration FILE is required" $PLAN poisson
printf '[ghostzone]\ncpi = -1\n' >"$D/bad.ini"
expect_error "bad calibration" "bad.ini:2: [ghostzone] cpi" $PLAN --calibration "$D/bad.ini" poisson
printf '[profile.Poisson]\ninsts_per_sm_ic = many\n' >"$D/bad2.ini"
expect_error "bad profile" "bad2.ini:2: [profile.Poisson] insts_per_sm_ic" $PLAN --calibration "$D/bad2.ini" poisson
expect_error "bad max-h" "--max-h: expected a number" --gpu gtx480 --budget 10 --stages 1 --sweep-budget 4e6 --max-h x --calibration "$D/c.ini" poisson
# a NUL byte in row 3 of the sweep log: refused, the log unchanged (it was cut to 2 rows)
cp "$D/sweep.before" "$D/sweep.nul"
printf '\000' | dd of="$D/sweep.nul" bs=1 seek=$(($(head -n 3 "$D/sweep.before" | wc -c) + 2)) \
    conv=notrunc 2>/dev/null
cp "$D/sweep.nul" "$D/sweep.nul.before"
expect_error "NUL in sweep log" "sweep.nul:4: a NUL byte in the row" $PLAN --calibration "$D/c.ini" \
    --samples "$D/s.csv" --sweep-log "$D/sweep.nul" poisson
cmp -s "$D/sweep.nul" "$D/sweep.nul.before" || fail "NUL in sweep log: the log was changed"
# a sweep log row whose inputs are not the planned run of its id (made by
# another plan) is refused, for both sweeps, not silently reused as that run
cp "$D/sweep.before" "$D/sweep.other"
sed -i '2s/,relaunch,1,/,fence,1,/' "$D/sweep.other"
grep -q ',fence,1,' "$D/sweep.other" || fail "sweep.other: the edit missed"
expect_error "foreign sweep row" "sweep.other: row gtx480/sweep/Poisson/relaunch:h1" $PLAN \
    --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sweep.other" poisson
cp "$D/sz.csv" "$D/sz.other"
sed -i '2s/,\(relaunch\|fence\),\([0-9]*\),/,\1,9\2,/' "$D/sz.other"
expect_error "foreign size-sweep row" "does not match the planned run of that id" $PLAN \
    --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sz.other" --sizes 1,2 \
    --sweep-stages 1 poisson
expect_error "bad sizes" "--sizes: expected up to 16 positive area factors" $PLAN --sizes 1,-4 --calibration "$D/c.ini" poisson
expect_error "bad sweep stages" "--sweep-stages: expected 1 to 32" $PLAN --sweep-stages 0 --sizes 1 --calibration "$D/c.ini" poisson
# --logged-only: the shipped size sweep read back without a run. Every point
# is logged, so the tables are the shipped ones to the byte and the log is
# not touched; with the model's pick (HotSpot 1x fence 2) taken out of a copy,
# that point is left out (9 of 10) and still nothing is simulated
V=data/validation/gtx480-sizes-main
cp "$V-sweep.csv" "$D/lo.csv"
"$T" validate --gpu gtx480 --calibration data/calibrations/gtx480.ini --sweep-stages 1 \
    --sizes 1,16,100 --sweep-log "$D/lo.csv" --logged-only --csv "$D/lo-rows.csv" \
    --curve "$D/lo-pts.csv" hotspot poisson >/dev/null 2>&1 || fail "--logged-only failed"
cmp -s "$D/lo-rows.csv" "$V.csv" && cmp -s "$D/lo-pts.csv" "$V-points.csv" \
    || fail "--logged-only: not the shipped tables"
cmp -s "$D/lo.csv" "$V-sweep.csv" || fail "--logged-only: the sweep log was changed"
# a subset whose rows are not first in the log: read back, not reordered
cp "$V-sweep.csv" "$D/lo3.csv"
"$T" validate --gpu gtx480 --calibration data/calibrations/gtx480.ini --sweep-stages 1 \
    --sizes 1 --sweep-log "$D/lo3.csv" --logged-only poisson >/dev/null 2>&1 \
    || fail "--logged-only on poisson failed"
cmp -s "$D/lo3.csv" "$V-sweep.csv" || fail "--logged-only on a subset: the sweep log was reordered"
grep -v '^gtx480/sweep/HotSpot/fence:h2:21904:s1,' "$V-sweep.csv" >"$D/lo2.csv"
cp "$D/lo2.csv" "$D/lo2.before"
"$T" validate --gpu gtx480 --calibration data/calibrations/gtx480.ini --sweep-stages 1 \
    --sizes 1 --sweep-log "$D/lo2.csv" --logged-only --csv "$D/lo2-rows.csv" hotspot \
    >/dev/null 2>&1 || fail "--logged-only with a point missing failed"
cmp -s "$D/lo2.csv" "$D/lo2.before" || fail "--logged-only: simulated the missing point"
[ "$(cut -d, -f6 "$D/lo2-rows.csv" | tail -n 1)" = 9 ] || fail "--logged-only: $(cat "$D/lo2-rows.csv")"
expect_error "logged-only without a sweep" "--logged-only needs --sizes and the --sweep-log" \
    $PLAN --calibration "$D/c.ini" --sizes 1 --logged-only poisson
"$T" validate --help | grep -q '^usage: trapeze validate' || fail "--help"

finish cli_validate
