#!/bin/sh
# End-to-end tests of `trapeze validate --model group` and `trapeze
# calibrate --model group` (cli/calib_group.c, sampler/group/group_samples.c) on
# two small launches on the GTX 480: the simulated columns agree with
# `trapeze group` (the same whole runs); the predictions come from the
# sub-grid samples only (whole runs altered in the log change no
# prediction); the samples' share is the sub-grids' warp instructions over
# all the log's; a rerun takes every sample from the log; a log cut short
# resumes with only the missing samples and ends byte-identical; the targets
# summary counts what the tables print; the calibration file written
# predicts what validate predicted.
# Usage: sh tests/cli_calib_group.sh build/trapeze
MAX_ERR_LINES=2
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

"$T" validate --model group --gpu $G --samples "$D/s.csv" --csv "$D/v.csv" --threads 2 \
    matmul,n=96,block=16 syrk,n=64 >"$D/out" 2>"$D/err" || fail "validate: $(cat "$D/err")"
# per launch 6 whole runs and the distinct sub-grids of rr bcs mst kway rbts
# (one SM of 15: ids .w1), 8 here (matmul's MST-TS and syrk's RB-TS share
# another's). The budget (5% of the validation's work: each sub-grid at most
# 6/5 x 5/95 = 6.3158% of the TBs, window_pct) cuts a queue to its first
# 6.3158% of 36 = 2.27 TBs (matmul), 1.01 (syrk): two, the co-resident
# floor (ids .w1b5). The distinct sub-grids together hold at most 6 x 5/95 of
# the launch's warp instructions: rr's whole (2 of syrk's 16 TBs), syrk's
# three others share the rest, each windowed to ceil of its third
grep -q '^samples: 20 planned, 20 run now, 0 from the log$' "$D/out" || fail "first run: $(head -1 "$D/out")"
[ "$(wc -l <"$D/s.csv")" -eq 21 ] || fail "log rows"
[ "$(grep -c '\.w1b5,' "$D/s.csv")" -eq 8 ] || fail "sub-grid rows"
[ "$(awk -F, 'NR > 1 && $9 > 0 && ($10 != 6.3157894736842106 || $16 != 2)' "$D/s.csv")" = "" ] \
    || fail "window_pct"
bad=$(awk -F, '$1 == "syrk.n=64.l0.rr" { L = $15 } $1 == "syrk.n=64.l0.rr.w1b5" { r = $15 }
    $1 ~ /^syrk.n=64.l0.(bcs|mst|kway).w1b5$/ { ran[$1] = $15 }
    END { w = (6 * 5 / 95 * L - r) / 3; w = w == int(w) ? w : int(w) + 1
          if (!(r > 0 && r <= 6 * 5 / 95 * L)) print "rr ran " r " of " L
          for (k in ran) if (ran[k] < w || ran[k] >= w + 4) print k " ran " ran[k] ", window " w }' "$D/s.csv")
[ -z "$bad" ] || fail "budget windows: $bad"
# --window-tbs 4 with no budget: at most 4% of the TBs, 1 of matmul's 36 and of syrk's 16,
# but never fewer than two co-resident TBs: the first two of a queue (ids
# .w1t4), 8 distinct, beside the same whole runs: its log starts with the
# budget run's 12 whole runs, which it takes (a log row is taken only as the
# planned run of its id, inputs and all) instead of simulating them again
# (half this group's CPU under the sanitizers)
grep -v '\.w1' "$D/s.csv" >"$D/t.csv"
"$T" validate --model group --gpu $G --samples "$D/t.csv" --window-tbs 4 --budget 0 \
    matmul,n=96,block=16 syrk,n=64 >"$D/outt" 2>&1 || fail "--window-tbs: $(cat "$D/outt")"
grep -q '^samples: 20 planned, 8 run now, 12 from the log$' "$D/outt" || fail "--window-tbs: $(head -1 "$D/outt")"
[ "$(grep -c '\.w1t4,' "$D/t.csv")" -eq 8 ] || fail "--window-tbs rows"
[ "$(awk -F, 'NR > 1 && $9 > 0 && ($10 != 4 || $16 != 2)' "$D/t.csv")" = "" ] || fail "--window-tbs share"
[ "$(grep -v '\.w1' "$D/t.csv")" = "$(grep -v '\.w1' "$D/s.csv")" ] || fail "--window-tbs whole runs"
[ "$(wc -l <"$D/v.csv")" -eq 15 ] || fail "csv rows"
# the same whole runs as trapeze group (policy, simulated cycles and L2)
"$T" group --gpu $G matmul n=96 block=16 --csv "$D/g.csv" >/dev/null 2>&1 || fail "group"
a=$(awk -F, 'NR > 1 && $4 != "optimized" && $4 != "chen-static" && $4 != "model" { print $4, $8, $9 }' "$D/g.csv")
b=$(awk -F, 'NR > 1 && $2 == "matmul" && $5 != "optimized" { print $5, $7, $9 }' "$D/v.csv")
[ "$a" = "$b" ] || fail "validate and group differ:
$a
--
$b"
# the share printed: the sub-grids' warp instructions over the log's (no
# chosen grouping outside the policies was simulated here)
if ! grep -q '^optimized.*vs the best' "$D/out"; then fail "no summary"; fi
share=$(awk -F, 'NR > 1 { all += $15; if ($9 > 0) w += $15 } END { printf "%.1f", 100 * w / all }' "$D/s.csv")
grep -q "share of the simulated work.*: $share% (target 5%)" "$D/out" || fail "share $share: $(tail -1 "$D/out")"
# the summary counts the launches' own lines
n2=$(awk '/^optimized: / { v = $2; sub("%", "", v); if (v + 0 <= 2) n++ } END { print n + 0 }' "$D/out")
grep -q "within 2% of the best of the six policies: $n2 of 2" "$D/out" || fail "summary: $(tail -7 "$D/out")"

# a rerun runs nothing and prints the same
cp "$D/s.csv" "$D/full.csv"
"$T" validate --model group --gpu $G --samples "$D/s.csv" matmul,n=96,block=16 syrk,n=64 \
    >"$D/out2" 2>&1 || fail "rerun"
grep -q '^samples: 20 planned, 0 run now, 20 from the log$' "$D/out2" || fail "rerun: $(head -1 "$D/out2")"
[ "$(tail -n +2 "$D/out2")" = "$(tail -n +2 "$D/out")" ] || fail "rerun prints differently"
cmp -s "$D/s.csv" "$D/full.csv" || fail "rerun changed the log"
# whole runs made twice as slow in the log: the predictions do not move
awk -F, 'BEGIN { OFS = "," } NR > 1 && $9 == 0 { $11 = 2 * $11 } { print }' "$D/full.csv" >"$D/slow.csv"
"$T" validate --model group --gpu $G --samples "$D/slow.csv" --csv "$D/v4.csv" \
    matmul,n=96,block=16 syrk,n=64 >/dev/null 2>&1 || fail "validate on altered runs"
[ "$(cut -d, -f6,8 "$D/v4.csv")" = "$(cut -d, -f6,8 "$D/v.csv")" ] || fail "predictions use the whole runs"
[ "$(cut -d, -f7 "$D/v4.csv")" != "$(cut -d, -f7 "$D/v.csv")" ] || fail "altered runs not read"
# a log cut after 16 samples (a killed run): the 4 others run, the log ends the same
head -17 "$D/full.csv" >"$D/s.csv"
"$T" validate --model group --gpu $G --samples "$D/s.csv" matmul,n=96,block=16 syrk,n=64 \
    >"$D/out3" 2>&1 || fail "resume"
grep -q '^samples: 20 planned, 4 run now, 16 from the log$' "$D/out3" || fail "resume: $(head -1 "$D/out3")"
cmp -s "$D/s.csv" "$D/full.csv" || fail "resumed log differs"

# calibrate reuses the log's samples and writes constants that predict the same
"$T" calibrate --model group --gpu $G --samples "$D/s.csv" --out "$D/c.ini" syrk,n=64 \
    >"$D/cal" 2>&1 || fail "calibrate: $(cat "$D/cal")"
grep -q '^samples: 4 planned, 0 run now, 4 from the log$' "$D/cal" || fail "calibrate samples: $(head -1 "$D/cal")"
grep -q '^\[group\]' "$D/c.ini" || fail "calibration file"
"$T" group --gpu $G syrk n=64 --calibration "$D/c.ini" --no-sim --csv "$D/q.csv" >/dev/null 2>&1 \
    || fail "group --calibration"
[ "$(awk -F, '$4 == "rr" { print $5 }' "$D/q.csv")" = "$(awk -F, '$2 == "syrk" && $5 == "rr" { print $6 }' "$D/v.csv")" ] \
    || fail "calibration predicts rr differently"
"$T" validate --model group --help | grep -q 'LAUNCH is KERNEL' || fail "--help"

# MPI: calibrate's grouping samples over 2 ranks on loopback, the same log
# and constants as one process (as tests/cli_calibrate.sh for ghost zones)
if mpi_usable; then
    "$T" calibrate --model group --gpu $G --samples "$D/ser.csv" --out "$D/ser.ini" syrk,n=64 \
        >/dev/null 2>&1 || fail "serial calibrate"
    mpirun2 calibrate --model group --gpu $G --samples "$D/mpi.csv" \
        --out "$D/mpi.ini" syrk,n=64 >"$D/mpi.out" 2>&1 || fail "mpirun -n 2: $(cat "$D/mpi.out")"
    grep -q '^samples: 4 planned, 4 run now, 0 from the log$' "$D/mpi.out" || fail "mpi: $(cat "$D/mpi.out")"
    [ "$(grep -c '^samples:' "$D/mpi.out")" -eq 1 ] || fail "a rank other than 0 printed"
    cmp -s "$D/ser.csv" "$D/mpi.csv" && cmp -s "$D/ser.ini" "$D/mpi.ini" || fail "MPI changed the output"
fi

expect_failure "bad model" "--model foo: expected ghostzone, group, sleep or cache" "$D/none" \
    "$T" validate --model foo --gpu $G
expect_failure "calibrate needs --out" "--model group needs --out FILE" "$D/none" \
    "$T" calibrate --model group --gpu $G syrk
expect_failure "bad --window-tbs" "--window-tbs 0: expected a percentage in (0, 100]" "$D/none" \
    "$T" validate --model group --gpu $G --window-tbs 0
expect_failure "bad --budget" "--budget 60: expected a percentage in [0, 50]" "$D/none" \
    "$T" validate --model group --gpu $G --budget 60
expect_failure "bad launch" "syrk@x: expected KERNEL" "$D/none" \
    "$T" validate --model group --gpu $G --samples "$D/s.csv" syrk@x
expect_failure "unknown kernel" "no built-in kernel 'nope'" "$D/v2.csv" \
    "$T" validate --model group --gpu $G --samples "$D/s2.csv" --csv "$D/v2.csv" nope
expect_failure "id too long" "limited to 36 characters each" "$D/v3.csv" \
    "$T" validate --model group --gpu $G --samples "$D/s3.csv" --csv "$D/v3.csv" \
    jacobi,nx=512,ny=512,bx=16,by=16,iters=1,nx=512,ny=512
# the shipped GTX 480 log (every sample in it, nothing runs), two launches:
# none held out, so the uncertainty of a gain is the GPU calibration's, the
# one it measured with each launch fitted to its own sub-grids, as here
# (subgrid_gain_uncertainty, 5.77%; the one set of constants' 30.54%,
# measured at other constants than these, kept every launch on rr).
# syrk: its sub-grids' model predicts MST-TS faster than rr by more than
# that, and its launch runs 25% faster: MST-TS, as with u held out over the
# twelve launches below. Jacobi 512^2: RB-TS's sub-grid is 3% faster than
# round-robin's, its launch 7% slower: rr.
cp data/validation/group-gtx480-samples.csv "$D/ship.csv"
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" syrk jacobi,nx=512,ny=512 \
    >"$D/ship" 2>&1 || fail "shipped log: $(cat "$D/ship")"
grep -q '^samples: 22 planned, 0 run now, 22 from the log$' "$D/ship" || fail "shipped: $(head -1 "$D/ship")"
grep -q '^syrk launch 0: chosen mst;' "$D/ship" || fail "syrk: $(grep chosen "$D/ship")"
u=$(awk -F' = ' '$1 == "subgrid_gain_uncertainty" { printf "%.2f", 100 * $2 }' data/calibrations/gtx480-group.ini)
b=$(awk -F' = ' '$1 == "subgrid_dram_contention" { printf "%.4g", $2 }' data/calibrations/gtx480-group.ini)
[ "$(grep -c "^uncertainty of a predicted gain over rr: $u% (the GPU's calibration .*); DRAM contention $b\$" "$D/ship")" -eq 2 ] \
    || fail "two launches' uncertainty $u, beta $b: $(grep uncertainty "$D/ship")"
grep -q '^jacobi nx=512 ny=512 launch 0: chosen rr;' "$D/ship" || fail "jacobi: $(grep chosen "$D/ship")"
# the budget on a launch of 4 TBs of 41,000 warp instructions (atax): rr's
# sub-grid, TB 0, runs whole (41,000 <= 6 x 5/95 x 164,000 = 51,789.5); BCS's
# pair, 82,000, runs its first ceil(51,789.5 - 41,000) = 10,790 (it stops at
# the first cycle reaching them: two schedulers issue at most 2 a cycle)
[ "$(awk -F, '$1 == "atax.l0.rr.w1b5" { print $15 }' "$D/ship.csv")" = 41000 ] || fail "atax rr sub-grid"
awk -F, '$1 == "atax.l0.bcs.w1b5" { exit !($15 >= 10790 && $15 < 10792) }' "$D/ship.csv" \
    || fail "atax bcs window: $(grep '^atax.l0.bcs.w1b5' "$D/ship.csv")"
# The held-out uncertainty of each launch in a validate CSV: the rms over
# the other launches' bcs, mst, kway and rbts of the gain error in FORM
# (ratio: (pred_c / pred_rr) / (sim_c / sim_rr) - 1; difference:
# sim_c / sim_rr - pred_c / pred_rr), in percent, one per launch.
held_out_u() { # FORM CSV
    awk -F, -v form="$1" 'NR > 1 { k = $2 "," $3 "," $4 }
    NR > 1 && $5 == "rr" { pr[k] = $6; sr[k] = $7; if (!(k in seen)) { seen[k] = 1; keys[n++] = k } }
    NR > 1 && ($5 == "bcs" || $5 == "mst" || $5 == "kway" || $5 == "rbts") { p[k, $5] = $6; s[k, $5] = $7 }
    END { split("bcs mst kway rbts", c, " ")
          for (i = 0; i < n; i++) { sum = 0; cnt = 0
              for (j = 0; j < n; j++) if (j != i) for (q = 1; q <= 4; q++) {
                  kj = keys[j]
                  e = form == "ratio" ? (p[kj, c[q]] / pr[kj]) / (s[kj, c[q]] / sr[kj]) - 1 \
                                      : s[kj, c[q]] / sr[kj] - p[kj, c[q]] / pr[kj]
                  sum += e * e; cnt++ }
              printf "%.2f ", 100 * sqrt(sum / cnt) } }' "$2"
}
# The twelve launches of the shipped log: each launch's uncertainty of a
# predicted gain over rr is held out, the rms over the eleven others of
# (pred_c / pred_rr) / (sim_c / sim_rr) - 1 for bcs, mst, kway and rbts,
# recomputed here from the CSV's predicted and simulated cycles. A grouping
# replaces rr only when predicted faster by more: syrk's MST-TS is (the
# model's gain 4.9% and more), the other launches keep rr or a policy the
# model predicts faster by more than their uncertainty, so none is more
# than 1% behind rr.
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --csv "$D/ship12.csv" \
    matmul matmul_tiled syrk syr2k atax atax@1 bicg bicg@1 gesummv mvt mvt@1 jacobi,nx=512,ny=512 \
    >"$D/ship12" 2>&1 || fail "shipped log, 12 launches: $(cat "$D/ship12")"
want=$(held_out_u ratio "$D/ship12.csv")
got=$(awk '/^uncertainty of a predicted gain over rr: .*other launches/ { v = $8; sub("%", "", v); printf "%s ", v }' "$D/ship12")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "held-out uncertainty: printed $got, from the CSV $want"
grep -q '^syrk launch 0: chosen mst;' "$D/ship12" || fail "syrk: $(grep chosen "$D/ship12")"
grep -q '^  never worse than rr by more than 1%: 12 of 12$' "$D/ship12" || fail "rr: $(tail -7 "$D/ship12")"
# (plain build only: test_group_decide runs gain_error.c's forms under the
# sanitizers; the printed figures are this build's to check)
if ! echo "$T" | grep -q build-san; then
# --gain-difference: u is the rms of the predicted gain minus the simulated
# one, sim_c / sim_rr - pred_c / pred_rr, recomputed here the same way; on
# the GTX 480 it is larger (7.90% over all 12, against 5.77%), so syr2k's
# RB-TS (a predicted gain of 7.7%) no longer clears it and rr stays.
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --gain-difference \
    matmul matmul_tiled syrk syr2k atax atax@1 bicg bicg@1 gesummv mvt mvt@1 jacobi,nx=512,ny=512 \
    >"$D/diff12" 2>&1 || fail "--gain-difference: $(cat "$D/diff12")"
want=$(held_out_u difference "$D/ship12.csv")
got=$(awk '/^uncertainty of a predicted gain over rr: .*other launches/ { v = $8; sub("%", "", v); printf "%s ", v }' "$D/diff12")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "--gain-difference u: printed $got, from the CSV $want"
grep -q '^uncertainty of a predicted gain over rr, all 12 launches: 7.90% (rms of sim/sim_rr - pred/pred_rr' "$D/diff12" \
    || fail "--gain-difference, all 12: $(grep 'all 12' "$D/diff12")"
grep -q '^syr2k launch 0: chosen rr;' "$D/diff12" || fail "syr2k paired: $(grep chosen "$D/diff12")"
fi
grep -q '^syr2k launch 0: chosen rbts;' "$D/ship12" || fail "syr2k ratio: $(grep chosen "$D/ship12")"
# --calibration FILE: every launch's u and DRAM contention beta are the
# file's sub-grid pair (subgrid_gain_uncertainty, subgrid_dram_contention:
# measured where each launch is fitted to its own sub-grids, as here), not
# its gain_uncertainty and dram_contention (group --no-sim's, at its own
# constants; set to other values to show they are not read), even with
# three launches, where they would be held out over the others. C(N, Tg; beta) is
# symmetric in N and Tg: at beta 0 it is max(N, Tg), at 1 N + Tg, so the two
# runs give N and Tg of each fixed policy, and at beta 1/4 each prediction is
# ((N + Tg) + sqrt((N - Tg)^2 + N Tg)) / 2, recomputed here (Jacobi 512^2's
# Tg is over half its N on the GTX 480, so the root matters there).
for b in 0 1 0.25; do
    sed -e "s/^subgrid_dram_contention = .*/subgrid_dram_contention = $b/" \
        -e 's/^subgrid_gain_uncertainty = .*/subgrid_gain_uncertainty = 0.1234/' \
        -e 's/^dram_contention = .*/dram_contention = 0.5/' \
        -e 's/^gain_uncertainty = .*/gain_uncertainty = 0.9/' \
        data/calibrations/gtx480-group.ini >"$D/b$b.ini"
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --csv "$D/b$b.csv" \
        --calibration "$D/b$b.ini" syrk atax jacobi,nx=512,ny=512 >"$D/b$b" 2>&1 \
        || fail "--calibration beta $b: $(cat "$D/b$b")"
    [ "$(grep -c "^uncertainty of a predicted gain over rr: 12.34% (the calibration $D/b$b.ini); DRAM contention $b\$" "$D/b$b")" -eq 3 ] \
        || fail "--calibration beta $b: $(grep uncertainty "$D/b$b")"
done
bad=$(awk -F, 'FNR == 1 { f++ } FNR > 1 && $5 ~ /^(rr|bcs|mst|kway|rbts)$/ { k = $2 $3 $5; p[f, k] = $6; keys[k] = 1 }
    END { for (k in keys) { hi = p[1, k]; lo = p[2, k] - hi; want = ((hi + lo) + sqrt((hi - lo) ^ 2 + hi * lo)) / 2
              if (!(lo > 0 && hi >= lo) || (p[3, k] - want) ^ 2 > (1e-9 * want) ^ 2) print k, hi, lo, p[3, k], want
              if (lo > hi / 2) big++ }
          if (!big) print "no launch with Tg over half its N" }' "$D/b0.csv" "$D/b1.csv" "$D/b0.25.csv")
[ -z "$bad" ] || fail "--calibration beta: $bad"
# a file without the sub-grid pair (made before it was measured) gives its
# gain_uncertainty and dram_contention instead
grep -v '^subgrid_' "$D/b0.25.ini" >"$D/old.ini"
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/old.ini" \
    syrk >"$D/old" 2>&1 || fail "--calibration without the sub-grid pair: $(cat "$D/old")"
grep -q "^uncertainty of a predicted gain over rr: 90.00% (the calibration $D/old.ini); DRAM contention 0.5\$" \
    "$D/old" || fail "--calibration without the sub-grid pair: $(grep uncertainty "$D/old")"
printf '[group]\nmu = 1\nsubgrid_dram_contention = 2\n' >"$D/bad.ini"
expect_failure "sub-grid contention out of range" "bad.ini:3: [group] subgrid_dram_contention" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/bad.ini" syrk
expect_failure "missing --calibration" "$D/nope.ini" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/nope.ini" syrk
# calibrate over the twelve launches (the default) on the shipped log:
# nothing runs, and the file is the shipped GPU calibration (less the
# simulator stamp scripts/regenerate-data.sh adds), its gain_uncertainty
# the held-out rms printed
"$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" --out "$D/c12.ini" \
    >"$D/cal12" 2>&1 || fail "calibrate 12: $(cat "$D/cal12")"
grep -q '^samples: 111 planned, 0 run now, 111 from the log$' "$D/cal12" || fail "cal12: $(head -1 "$D/cal12")"
[ "$(grep -v '^simulator = ' data/calibrations/gtx480-group.ini)" = "$(cat "$D/c12.ini")" ] \
    || fail "shipped gtx480-group.ini not reproduced: $(diff data/calibrations/gtx480-group.ini "$D/c12.ini")"
u=$(awk -F' = ' '$1 == "gain_uncertainty" { printf "%.2f", 100 * $2 }' "$D/c12.ini")
grep -q "^uncertainty of a predicted gain over rr: $u% (rms of the errors above" "$D/cal12" \
    || fail "cal12 uncertainty $u: $(grep uncertainty "$D/cal12")"
# its sub-grid pair is what validate holds out over the same twelve launches
# without --calibration: u the rms over all of them, beta fitted to their
# whole runs at each launch's own constants; Jacobi 512^2 is the one launch
# whose Tg reaches half its N, so syrk's held-out beta (the other eleven) is
# the same and not 0 (the one set of constants above fits 0: none reaches)
u=$(awk -F' = ' '$1 == "subgrid_gain_uncertainty" { printf "%.2f", 100 * $2 }' "$D/c12.ini")
grep -q "^uncertainty of a predicted gain over rr, all 12 launches: $u% " "$D/ship12" \
    || fail "sub-grid uncertainty $u: $(grep 'all 12' "$D/ship12")"
b=$(awk -F' = ' '$1 == "subgrid_dram_contention" { printf "%.4g", $2 }' "$D/c12.ini")
awk -v b="$b" 'BEGIN { exit !(b > 0.01) }' || fail "sub-grid DRAM contention $b: not above 0.01"
[ "$(awk '/^syrk launch 0:/ { s = 1 } s && /^uncertainty of a predicted gain/ { print $NF; exit }' "$D/ship12")" = "$b" ] \
    || fail "sub-grid DRAM contention $b: $(grep -A12 '^syrk launch 0:' "$D/ship12" | grep uncertainty)"
[ "$(grep -c 'held out: gain errors' "$D/cal12")" -eq 12 ] || fail "cal12: held-out rows"
# (plain build only: test_group_decide runs gain_error.c's forms under the
# sanitizers; the printed figures are this build's to check)
if ! echo "$T" | grep -q build-san; then
# --gain-difference goes with the u it measured: calibrate writes
# gain_difference = 1 beside its sub-grid u in that form (7.90% over the
# twelve, as validate printed above), and a validate of syr2k on that
# calibration (its u the file's: --calibration holds none out) says which
# form its u is, and keeps rr as --gain-difference did
"$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" --gain-difference \
    --out "$D/c12d.ini" >"$D/cal12d" 2>&1 || fail "calibrate --gain-difference: $(cat "$D/cal12d")"
grep -q '^gain_difference = 1$' "$D/c12d.ini" || fail "c12d.ini: no gain_difference line"
[ "$(awk -F' = ' '$1 == "subgrid_gain_uncertainty" { printf "%.2f", 100 * $2 }' "$D/c12d.ini")" = 7.90 ] \
    || fail "c12d.ini subgrid_gain_uncertainty: $(grep gain_uncertainty "$D/c12d.ini")"
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/c12d.ini" syr2k \
    >"$D/diff12c" 2>&1 || fail "validate on c12d.ini: $(cat "$D/diff12c")"
grep -q "^uncertainty of a predicted gain over rr: 7.90% (the calibration $D/c12d.ini, measured as gain differences)" "$D/diff12c" \
    || fail "validate on c12d.ini: $(grep uncertainty "$D/diff12c" | head -1)"
grep -q '^syr2k launch 0: chosen rr;' "$D/diff12c" || fail "syr2k on c12d.ini: $(grep chosen "$D/diff12c")"
fi
# A trace as a launch (the shipped vecadd trace, 8 TBs): its whole runs and
# sub-grids planned and run as a built-in kernel's (6 + 2 distinct), the
# log naming the trace; its rr run is trapeze group --trace's; one launch
# alone holds none out, so the uncertainty is the GPU calibration's.
"$T" validate --model group --gpu gtx480 --samples "$D/tr.csv" --trace data/traces/vecadd \
    --csv "$D/trv.csv" >"$D/trv" 2>&1 || fail "validate --trace: $(cat "$D/trv")"
grep -q '^samples: 8 planned, 8 run now, 0 from the log$' "$D/trv" || fail "trace samples: $(head -1 "$D/trv")"
[ "$(awk -F, 'NR > 1 && $5 != "data/traces/vecadd"' "$D/tr.csv")" = "" ] || fail "trace log rows"
grep -q '^data/traces/vecadd launch 0: chosen rr;' "$D/trv" || fail "trace: $(grep chosen "$D/trv")"
u=$(awk -F' = ' '$1 == "subgrid_gain_uncertainty" { printf "%.2f", 100 * $2 }' data/calibrations/gtx480-group.ini)
b=$(awk -F' = ' '$1 == "subgrid_dram_contention" { printf "%.4g", $2 }' data/calibrations/gtx480-group.ini)
grep -q "^uncertainty of a predicted gain over rr: $u% (the GPU's calibration .*gtx480-group.ini); DRAM contention $b\$" \
    "$D/trv" || fail "trace uncertainty $u, beta $b: $(grep uncertainty "$D/trv")"
"$T" group --gpu gtx480 --trace data/traces/vecadd --csv "$D/trg.csv" >/dev/null 2>&1 || fail "group --trace"
[ "$(awk -F, '$5 == "rr" { print $7 }' "$D/trv.csv")" = "$(awk -F, '$4 == "rr" { print $8 }' "$D/trg.csv")" ] \
    || fail "trace rr run: validate $(awk -F, '$5 == "rr" { print $7 }' "$D/trv.csv"), group $(awk -F, '$4 == "rr" { print $8 }' "$D/trg.csv")"
# calibrate on the trace's sub-grids: from the log, nothing runs
"$T" calibrate --model group --gpu gtx480 --samples "$D/tr.csv" --trace data/traces/vecadd \
    --out "$D/trc.ini" >"$D/trc" 2>&1 || fail "calibrate --trace: $(cat "$D/trc")"
grep -q '^samples: 2 planned, 0 run now, 2 from the log$' "$D/trc" || fail "calibrate --trace: $(head -1 "$D/trc")"
grep -q '^source = trapeze calibrate --model group on gtx480: data/traces/vecadd launch 0$' "$D/trc.ini" \
    || fail "calibrate --trace source: $(grep source "$D/trc.ini")"
expect_failure "bad --trace" "--trace nope: expected DIR/ or DIR/kernelslist.g" "$D/none" \
    "$T" validate --model group --gpu $G --trace nope
# whole-GPU windows (--gpu-window): a queue of these launches holds
# under a wave (6 TBs) within a window's part, so none is planned and the
# sub-grids keep the whole budget: the same rows, all from the log
"$T" validate --model group --gpu $G --samples "$D/s.csv" --gpu-window 50 \
    matmul,n=96,block=16 syrk,n=64 >"$D/gw" 2>&1 || fail "--gpu-window: $(tail -2 "$D/gw")"
grep -q '^samples: 20 planned, 0 run now, 20 from the log$' "$D/gw" || fail "--gpu-window: $(head -1 "$D/gw")"
# two tiny launches that do get windows (128 TBs, 8 or 9 a queue: at a
# budget of 50% and 75% of it to the windows, each candidate's window may
# hold 0.75 x 6 x 0.5 / 0.5 / 5 = 90% of the launch, 7 TBs a queue, over a
# wave of 6): the windowed u is recomputed from the printed model cycles,
# factors and runs, the rms over both launches of (m_c f_c / m_rr f_rr) /
# (s_c / s_rr) - 1, and is what the calibration writes
"$T" calibrate --model group --gpu $G --samples "$D/gw2.csv" --budget 50 --gpu-window 75 \
    --out "$D/gw2.ini" vecadd,n=32768 strided,stride=2,n=32768 >"$D/gw2" 2>&1 \
    || fail "calibrate --gpu-window: $(tail -2 "$D/gw2")"
[ "$(grep -c '\.g7,' "$D/gw2.csv")" -eq 10 ] || fail "--gpu-window rows: $(grep -c '\.g' "$D/gw2.csv")"
want=$(awk '/whole-GPU windows, DRAM contention/ { sub(/.*run: /, ""); n = split($0, c, ", ")
    for (i = 1; i <= n; i++) { split(c[i], f, " "); p[i] = f[2] * f[4]; r[i] = f[6] }
    for (i = 2; i <= n; i++) { e = (p[i] / p[1]) / (r[i] / r[1]) - 1; sum += e * e; cnt++ } }
    END { if (cnt == 8) printf "%.4f", 100 * sqrt(sum / cnt) }' "$D/gw2")
got=$(awk '/corrected by its whole-GPU window: uncertainty of a gain/ { v = $NF; sub("%", "", v); print v }' "$D/gw2")
ini=$(awk -F' = ' '$1 == "gpu_window_gain_uncertainty" { printf "%.2f", 100 * $2 }' "$D/gw2.ini")
awk -v w="$want" -v g="$got" -v i="$ini" 'BEGIN { d = w - g; e = w - i
    exit !(w != "" && g != "" && d < 0.006 && d > -0.006 && e < 0.006 && e > -0.006) }' \
    || fail "windowed u: by hand $want, printed $got, written $ini"
# under that windowed calibration a launch that gets no window keeps the
# calibration's sub-grid u: nothing corrects its gains (it had taken the
# windowed u)
"$T" validate --model group --gpu $G --samples "$D/s.csv" --gpu-window 50 --calibration "$D/gw2.ini" \
    matmul,n=96,block=16 >"$D/gw3" 2>&1 || fail "--gpu-window --calibration: $(tail -2 "$D/gw3")"
sub=$(awk -F' = ' '$1 == "subgrid_gain_uncertainty" { printf "%.2f", 100 * $2 }' "$D/gw2.ini")
got=$(awk '/^uncertainty of a predicted gain over rr: / { v = $8; sub("%", "", v); print v; exit }' "$D/gw3")
[ -n "$sub" ] && [ "$got" = "$sub" ] && [ "$sub" != "$ini" ] \
    || fail "windowless launch's u: printed $got, sub-grid $sub, windowed $ini"
expect_failure "bad --gpu-window" "--gpu-window 100: expected a percentage of the budget" "$D/none" \
    "$T" validate --model group --gpu $G --gpu-window 100
expect_failure "--gpu-window without a budget" "--gpu-window 50: expected a percentage of the budget" \
    "$D/none" "$T" validate --model group --gpu $G --budget 0 --gpu-window 50
# the whole GPU's L2 time (--l2-contention, off by default): calibrate over
# the twelve fits beta2 to their whole runs at each launch's own constants
# (the GTX 480's Jacobi, matmul, syrk and syr2k have an L2 time of half
# their N or more at 12 accesses a cycle), writes it beside the same
# constants, and holds the sub-grid u out with it; validate takes it from
# --calibration, refuses a file without it, and without the option the
# file's l2_contention is not used: the same lines as the shipped file's
# fitted_option OPTION KEY NAME LO HI CALIBRATE_LINE VALIDATE_LINE VALIDATE_REST
# [CORRECTIONS_LINE]: calibrate with OPTION into $D/NAME.ini, its fitted
# constant (KEY, in (LO, HI)) left in $b2; the calibrate line and the
# validate line "VALIDATE_LINE $b2 VALIDATE_REST" printed as given, and the
# corrections line where one is named; no other constant moved
fitted_option() {
    "$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" "$1" \
        --out "$D/$3.ini" >"$D/cal-$3" 2>&1 || fail "calibrate $1: $(tail -2 "$D/cal-$3")"
    b2=$(awk -F' = ' -v k="$2" '$1 == k { printf "%.4g", $2 }' "$D/$3.ini")
    awk -v b="$b2" -v lo="$4" -v hi="$5" 'BEGIN { exit !(b > lo && b < hi) }' || fail "$1: $2 '$b2'"
    grep -q "^$6 $b2 " "$D/cal-$3" || fail "calibrate $1: $(grep "$6" "$D/cal-$3")"
    [ "$(grep -v "^subgrid_gain_uncertainty\|^$2" "$D/$3.ini")" = \
      "$(grep -v '^subgrid_gain_uncertainty' "$D/c12.ini")" ] || fail "$1 moved other constants"
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/$3.ini" \
        "$1" syrk >"$D/v$3" 2>&1 || fail "validate $1: $(tail -2 "$D/v$3")"
    grep -q "^$7 $b2 $8" "$D/v$3" || fail "validate $1: $(grep "$7" "$D/v$3")"
    [ -z "${9:-}" ] || grep -q "^$9: rr 1.000 " "$D/v$3" \
        || fail "validate $1 corrections: $(grep 'rr 1.000' "$D/v$3")"
}
# Under the sanitizers the fits of --l2-contention and --l2-measured (each a
# calibration over the twelve launches, their locality graphs built again:
# 25 s of CPU there) are left to the plain build: the three options run one
# path (cli/calib_group.c's l2_contention_without, the file's key, the
# validate line), --memory-measured below runs it under the sanitizers, and
# what tells them apart, the L2 time each prices, runs there in
# test_group_l2_measured (the measured L2 and memory times and the
# decisions that correct by them) and test_group_model (the model's L2 time
# at an l2_contention).
san=0
case "$T" in *build-san*) san=1 ;; esac
nol2m="$D/c12.ini"   # a calibration without l2_measured_contention
if [ $san -eq 0 ]; then
fitted_option --l2-contention l2_contention l2 0.01 1 \
    "... with the whole GPU's L2 time: L2 contention" "L2 contention" \
    "(the whole GPU's L2 time priced)\$"
nol2m="$D/l2.ini"
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/l2.ini" \
    syrk >"$D/vnol2" 2>&1 || fail "validate without --l2-contention: $(tail -2 "$D/vnol2")"
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/c12.ini" \
    syrk >"$D/vc12" 2>&1 || fail "validate c12: $(tail -2 "$D/vc12")"
[ "$(grep -v 'uncertainty' "$D/vnol2")" = "$(grep -v 'uncertainty' "$D/vc12")" ] \
    || fail "l2_contention used without --l2-contention"
fi
expect_failure "--l2-contention without a measured beta2" "has no l2_contention" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/c12.ini" \
    --l2-contention syrk
# the same time from the sub-grids (--l2-measured, off by default): each
# candidate's L2 accesses per TB as its sub-grid measured them, times the
# launch's TBs; calibrate fits beta2 to the twelve's whole runs (GTX 480
# 0.1965) and writes it as l2_measured_contention beside the same
# constants; validate prints each candidate's correction, takes beta2 from
# --calibration and refuses a file without it, and the two counts together
if [ $san -eq 0 ]; then
fitted_option --l2-measured l2_measured_contention l2m 0 1 \
    "... with the whole GPU's L2 time of the sub-grids' L2 accesses per TB: L2 contention" \
    "L2 contention" "(the whole GPU's L2 time priced, each candidate's L2 accesses per TB" \
    "the sub-grids' measured L2 time (corrected / model cycles, over rr's)"
b2m=$b2
awk -v b="$b2m" 'BEGIN { exit !(b > 0.01) }' || fail "measured L2 contention '$b2m'"
fi
expect_failure "--l2-measured without a measured beta2" "has no l2_measured_contention" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$nol2m" \
    --l2-measured syrk
expect_failure "both L2 counts" "--l2-contention and --l2-measured" "$D/none" \
    "$T" validate --model group --gpu gtx480 --l2-contention --l2-measured syrk
# the L2's and the DRAM's time together (--memory-measured, off by default):
# each candidate's sub-grid DRAM reads per TB beside its L2 accesses; a beta2
# of its own (GTX 480 0.0282, the L2's alone 0.1965: a fit that dropped the
# DRAM side would give that back), written as memory_measured_contention
# beside the same constants; validate prints the corrections and refuses a
# calibration with only the L2's beta2
fitted_option --memory-measured memory_measured_contention mem 0 1 \
    "... with the whole GPU's L2 time and DRAM's of the sub-grids' L2 accesses and DRAM reads per TB: L2 contention" \
    "L2 contention" "(the whole GPU's L2 time priced, with its DRAM time" \
    "the sub-grids' measured L2 and DRAM time (corrected / model cycles, over rr's)"
[ $san -eq 1 ] || [ "$b2" != "$b2m" ] || fail "memory contention '$b2' (the L2's alone $b2m)"
[ $san -eq 1 ] || nol2m="$D/l2m.ini"   # one with only the L2's beta2
expect_failure "--memory-measured without its beta2" "has no memory_measured_contention" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$nol2m" \
    --memory-measured syrk
expect_failure "two counts" "--l2-measured and --memory-measured" "$D/none" \
    "$T" validate --model group --gpu gtx480 --l2-measured --memory-measured syrk
# the DRAM rows a grouping scatters (--dram-rows, off by default): calibrate
# fits their cost to the twelve's whole-run gains (GTX 480 0.029, from
# Jacobi 512^2's k-way-TS and RB-TS, the one launch whose reads pass a 384
# KiB stripe) and writes it as dram_rows_cost beside the same constants;
# validate prints it and refuses a calibration without it
fitted_option --dram-rows dram_rows_cost rows 0.01 4 \
    "... with the DRAM rows each grouping scatters: cost" "DRAM rows' cost" "" \
    "the DRAM rows' time (corrected / model cycles, over rr's)"
expect_failure "--dram-rows without its cost" "has no dram_rows_cost" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/c12.ini" \
    --dram-rows syrk
# ... and names the launches whose gains the cost moves, how far at cost 1
# (8 of the 12 on the GTX 480, Jacobi 512^2 the most), or says that none does
# (syrk, atax@1, bicg, mvt@1: their candidates' rows' time over their cycles
# are rr's): the fit is flat there and its 0 no measurement
grep -q "cost $b2 (fitted .* on the 8 of 12 launches whose gains it moves, the most at cost 1: .*jacobi nx=512 ny=512@0 1[0-9]\.[0-9][0-9]%;" \
    "$D/cal-rows" || fail "the rows' launches: $(grep 'DRAM rows' "$D/cal-rows")"
"$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" --dram-rows --out "$D/r4.ini" \
    syrk atax@1 bicg mvt@1 >"$D/cal-r4" 2>&1 || fail "calibrate --dram-rows on four: $(tail -2 "$D/cal-r4")"
grep -q "cost 0 (not identified: no launch of the 4 reads past" "$D/cal-r4" \
    || fail "unidentified rows' cost: $(grep 'DRAM rows' "$D/cal-r4")"
# --extra FILE: the same launches, two of them from a file (a comment, a
# blank line, blanks around one), give the same calibration; a line that is
# not a LAUNCH is refused by file and line
printf '# two launches\n\n  bicg\t# the first\nmvt@1\n' >"$D/extra.txt"
"$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" --dram-rows --out "$D/r4x.ini" \
    --extra "$D/extra.txt" syrk atax@1 >"$D/cal-r4x" 2>&1 || fail "--extra: $(tail -2 "$D/cal-r4x")"
cmp -s "$D/r4.ini" "$D/r4x.ini" || fail "--extra: another calibration"
printf 'bicg\nmvt@x\n' >"$D/extra-bad.txt"
expect_failure "--extra with a bad line" "extra-bad.txt:2: LAUNCH mvt@x: expected" "$D/none" \
    "$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" --out "$D/none" \
    --extra "$D/extra-bad.txt" syrk
# L1 sharing counted in what the L1 fetches (--l1-fetch, off by default): a
# 16 x 16 Jacobi tile finds half its 36 lines in L1 beside its left
# neighbour, where its elements share 16 of 320; rr's queue shares none, so
# fitted in elements the sub-grids' mu credits k-way-TS with what the lines
# give and predicts rr's L2 accesses on the GTX 480's Jacobi 512^2 22.3%
# under its run; in lines 2.8%. calibrate writes l1_by_fetch = 1, which
# validate then uses unasked (the same predicted L2 accesses); a value
# outside 0 or 1 is refused by file and line
rr_l2() {   # rr's row: predicted L2 accesses and their error, in %
    awk '$1 == "rr" && NF == 7 { e = $7; sub("%", "", e); print $5, e; exit }' "$1"
}
for f in "" --l1-fetch; do
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/c12.ini" \
        $f jacobi,nx=512,ny=512 >"$D/vl1$f" 2>&1 || fail "validate $f: $(tail -2 "$D/vl1$f")"
done
rr_l2 "$D/vl1" | awk '{ exit !($2 < -15) }' || fail "rr's L2 in elements: $(rr_l2 "$D/vl1")"
rr_l2 "$D/vl1--l1-fetch" | awk '{ exit !($2 > -5 && $2 < 5) }' \
    || fail "rr's L2 in lines: $(rr_l2 "$D/vl1--l1-fetch")"
"$T" calibrate --model group --gpu gtx480 --samples "$D/ship.csv" --l1-fetch \
    --out "$D/l1.ini" >"$D/cal-l1" 2>&1 || fail "calibrate --l1-fetch: $(tail -2 "$D/cal-l1")"
grep -q '^l1_by_fetch = 1$' "$D/l1.ini" || fail "calibrate --l1-fetch wrote no l1_by_fetch"
"$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/l1.ini" \
    jacobi,nx=512,ny=512 >"$D/vl1c" 2>&1 || fail "validate l1.ini: $(tail -2 "$D/vl1c")"
[ "$(rr_l2 "$D/vl1c")" = "$(rr_l2 "$D/vl1--l1-fetch")" ] || fail "l1_by_fetch not read: $(rr_l2 "$D/vl1c")"
printf '[group]\nl1_by_fetch = 2\n' >"$D/l1bad.ini"
expect_failure "l1_by_fetch 2" "l1bad.ini:2: [group] l1_by_fetch: 2 is outside [0, 1]" "$D/none" \
    "$T" validate --model group --gpu gtx480 --samples "$D/ship.csv" --calibration "$D/l1bad.ini" syrk
finish cli_calib_group
