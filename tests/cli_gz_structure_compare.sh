#!/bin/sh
# scripts/gz-structure-compare.py on the shipped GTX 480 data (no simulation):
# the shipped structure refitted on the shipped samples is the shipped
# calibration, so --changed prints no row and both tallies agree (22 of 29
# entries at pick ratio >= 0.97, 17 at >= 0.99); the structure before
# partial_round and loop_reread moves the PathFinder relaunch reference row
# back from h = 43 (0.997) to 19 (0.854), and partial_round alone to 31
# (0.952). A pick a size log lacks is reported "not logged", not dropped
# (round_compute's PathFinder size picks). Without round_latency (a partial
# round's floor set by its loads' latency) the V100's PathFinder relaunch
# reference row goes back from h = 31 (1.000, MAPE 5.32%) to 26 (0.962,
# 6.91%). With round_compute (the partial round computes one tile-iteration
# after its loads) the V100's PathFinder 1x pick moves from relaunch 31
# (0.986) to 32 (1.000); the GTX 480's relaunch pick goes to h = 51 (0.935).
# With round_staging and loop_once (a fence stage waits one latency a round)
# the GTX 480's Poisson 16x pick goes to fence 1 (1.000) and its Multi1D 16x
# sync mode is right; the V100's PathFinder fence reference row goes from
# h = 20 (0.954) to 31 (0.974). With lone_round (a one-round PathFinder
# stage, n <= k tiles a SM, waits its loads' latency too) the fits' errors
# fall on both GPUs (CV 6.55 -> 6.46%, 7.04 -> 6.73%) and the GTX 480's
# PathFinder fence reference pick goes from h = 43 (0.986) to 42 (0.990).
# scripts/gz-fence-identify.py: on the V100's samples psi's Jacobian column
# is exactly 0 at h = 1 and on PathFinder's fence samples (fence_iter_hidden:
# its loop loads from device memory every iteration), non-zero on 13 of 30,
# lambda's on none (held); PathFinder's one-round sample (h = 25, 3 tiles a
# SM) runs 14.7% above the model. scripts/gz-extra-samples.sh reruns two of
# the plan's own samples to their rows (cycles, CPL, warp instructions), and
# gz-structure-compare.py --extra refits with four PathFinder samples the
# plan lacks (GTX 480, 25,146 points, h = 30 and 40: 9 and 10 tiles a SM on 6
# resident, made by that script): the reference PathFinder fence pick goes
# from h = 43 (0.986) to 42 (0.990), the relaunch MAPE from 7.46% to 5.53%.
# gz-fence-identify.py reads a folder preset's SM count (the A100's 108). gz-fence-identify.py
# on a log with calibrate --identify's fence pair measures psi from its
# instructions (hand-checked below).
# Usage: sh tests/cli_gz_structure_compare.sh build/trapeze  (from the repository root)
. "$(dirname "$0")/lib/cli.sh"

python3 scripts/gz-structure-compare.py --changed "$T" at-size gtx480 >"$D/same" 2>&1 \
    || fail "at-size: exit status: $(cat "$D/same")"
[ "$(grep -c '^| gtx480 ' "$D/same")" -eq 0 ] || fail "at-size moved rows: $(cat "$D/same")"
grep -qx 'gtx480: shipped 22/29 at >= 0.97, 17 at >= 0.99 (CV 6.55%); at-size: 22/29 at >= 0.97, 17 at >= 0.99 (CV 6.55%, extrapolation 7.44%)' "$D/same" \
    || fail "at-size tallies: $(tail -1 "$D/same")"

# From here to the a100 check: other structures' refits and the V100's Jacobian columns
# (about 480 of this group's 690 program runs), plain build only. What they check is the
# numbers the scripts report, the same bytes in both builds; the program code they run
# (calibrate --structure, validate --logged-only, ghostzone) runs under the sanitizers in the
# check above and the ones below, and every switch in test_gz_atsize and test_ghostzone.
san=0
case "$T" in *build-san*) san=1 ;; esac
if [ $san -eq 0 ]; then   # (not indented: the checks as they were)
BEFORE=occupancy,fence_overlap,fence_staging,row_penalty,fence_iter,persistent_fence,barrier_max
python3 scripts/gz-structure-compare.py --changed "$T" $BEFORE gtx480 >"$D/old" 2>&1 \
    || fail "before: exit status: $(cat "$D/old")"
grep -qF '| gtx480 | reference relaunch | PathFinder | 7.46% 43 (0.997) | 6.76% 19 (0.854) | 41 |' "$D/old" \
    || fail "before: PathFinder relaunch row: $(grep PathFinder "$D/old")"
python3 scripts/gz-structure-compare.py --changed "$T" $BEFORE,partial_round gtx480 >"$D/pr" 2>&1 \
    || fail "partial_round: exit status: $(cat "$D/pr")"
grep -qF '| gtx480 | reference relaunch | PathFinder | 7.46% 43 (0.997) | 5.56% 31 (0.952) | 41 |' "$D/pr" \
    || fail "partial_round: PathFinder relaunch row: $(grep PathFinder "$D/pr")"
python3 scripts/gz-structure-compare.py --changed "$T" at-size,loop_once gtx480 >"$D/lo" 2>&1 \
    || fail "loop_once: exit status: $(cat "$D/lo")"
[ "$(grep -c '^| gtx480 ' "$D/lo")" -eq 0 ] \
    || fail "loop_once moved rows where the fitted rho_L is 0.006: $(cat "$D/lo")"
python3 scripts/gz-structure-compare.py --changed "$T" $BEFORE,partial_round,loop_reread v100 >"$D/rl" 2>&1 \
    || fail "without round_latency: exit status: $(cat "$D/rl")"
grep -qF '| v100 | reference relaunch | PathFinder | 5.32% 31 (1.000) | 6.91% 26 (0.962) | 31 |' "$D/rl" \
    || fail "without round_latency: V100 PathFinder relaunch row: $(grep PathFinder "$D/rl")"
python3 scripts/gz-structure-compare.py --changed "$T" at-size,round_compute gtx480 v100 >"$D/rc" 2>&1 \
    || fail "round_compute: exit status: $(cat "$D/rc")"
grep -qF '| v100 | 1x | PathFinder | 5.01% relaunch 31 (0.986) | 4.87% relaunch 32 (1.000) | relaunch 32 |' "$D/rc" \
    || fail "round_compute: V100 PathFinder 1x row: $(grep PathFinder "$D/rc")"
grep -qF '| gtx480 | reference relaunch | PathFinder | 7.46% 43 (0.997) | 6.24% 51 (0.935) | 41 |' "$D/rc" \
    || fail "round_compute: GTX 480 PathFinder relaunch row: $(grep PathFinder "$D/rc")"
grep -qF '| gtx480 | 1x | PathFinder | 5.83% fence 43 (0.996) | not logged | fence 42 |' "$D/rc" \
    || fail "round_compute: the unlogged PathFinder pick: $(grep PathFinder "$D/rc")"
python3 scripts/gz-structure-compare.py --changed "$T" at-size,loop_once,round_staging gtx480 v100 >"$D/rs" 2>&1 \
    || fail "round_staging: exit status: $(cat "$D/rs")"
grep -qF '| v100 | reference fence | PathFinder | 7.90% 20 (0.954) | 10.63% 31 (0.974) | 26 |' "$D/rs" \
    || fail "round_staging: V100 PathFinder fence row: $(grep PathFinder "$D/rs")"
grep -qF '| gtx480 | 16x | Poisson | 4.01% fence 2 (0.920) | 4.93% fence 1 (1.000) | fence 1 |' "$D/rs" \
    || fail "round_staging: GTX 480 Poisson 16x row: $(grep Poisson "$D/rs")"
grep -qF '| gtx480 | 16x | Multi1D | 4.91% fence 5 (0.880) | 5.05% relaunch 6 (1.000) | relaunch 5 |' "$D/rs" \
    || fail "round_staging: GTX 480 Multi1D 16x row: $(grep Multi1D "$D/rs")"
python3 scripts/gz-structure-compare.py --changed "$T" at-size,lone_round gtx480 v100 >"$D/lr" 2>&1 \
    || fail "lone_round: exit status: $(cat "$D/lr")"
grep -qF '| gtx480 | reference fence | PathFinder | 6.81% 43 (0.986) | 6.87% 42 (0.990) | 37 |' "$D/lr" \
    || fail "lone_round: GTX 480 PathFinder fence row: $(grep PathFinder "$D/lr")"
grep -qF 'at-size,lone_round: 22/29 at >= 0.97, 17 at >= 0.99 (CV 6.46%, extrapolation 6.41%)' "$D/lr" \
    || fail "lone_round: GTX 480 tallies: $(grep '^gtx480:' "$D/lr")"
grep -qF 'at-size,lone_round: 23/29 at >= 0.97, 21 at >= 0.99 (CV 6.73%, extrapolation 4.34%)' "$D/lr" \
    || fail "lone_round: V100 tallies: $(grep '^v100:' "$D/lr")"

# fence_overlap_loads (the fence omega for PathFinder's loop alone; every other fence stage
# takes the relaunch omega): the GTX 480's Poisson 16x pick goes from fence 2 (0.920) to fence
# 1 (1.000) and its Multi1D 100x to fence 5 (0.853); the Poisson reference row stays at 0.967
python3 scripts/gz-structure-compare.py --changed "$T" at-size,fence_overlap_loads gtx480 >"$D/fol" 2>&1 \
    || fail "fence_overlap_loads: exit status: $(cat "$D/fol")"
grep -q '^| gtx480 | 16x | Poisson | 4.01% fence 2 (0.920) | 4.18% fence 1 (1.000) | fence 1 |$' "$D/fol" \
    || fail "fence_overlap_loads: Poisson 16x: $(grep Poisson "$D/fol")"
grep -q '^| gtx480 | 100x | Multi1D | .* fence 5 (0.853) | relaunch 5 |$' "$D/fol" \
    || fail "fence_overlap_loads: Multi1D 100x: $(grep Multi1D "$D/fol")"
grep -q 'reference fence | Poisson' "$D/fol" && fail "fence_overlap_loads moved the Poisson reference row: $(cat "$D/fol")"
grep -qF 'at-size,fence_overlap_loads: 23/29 at >= 0.97, 18 at >= 0.99 (CV 6.99%, extrapolation 9.29%)' "$D/fol" \
    || fail "fence_overlap_loads: tallies: $(grep '^gtx480:' "$D/fol")"

python3 scripts/gz-fence-identify.py "$T" v100 data/calibrations/v100.ini >"$D/id" 2>&1 \
    || fail "identify: exit status: $(cat "$D/id")"
grep -qx 'v100/PathFinder/09:fence:h25:48329:s2 25 3 561.6 478.9 -14.7 0.0000 0.0117 -0.6279 0.0000' "$D/id" \
    || fail "identify: the one-round PathFinder sample: $(grep h25 "$D/id")"
grep -q '^fence_iter_fraction: 1.123e-12 +- 0.0728; column non-zero on 13 of 30 samples' "$D/id" \
    || fail "identify: psi's column: $(grep '^fence_iter' "$D/id")"
grep -q "^partial_round_fraction: 0.2394 stderr 0 (held, or at a range's edge); column non-zero on 0 of 30 samples" "$D/id" \
    || fail "identify: lambda's column: $(grep '^partial_round' "$D/id")"
awk '$1 ~ /:fence:/ && $2 == 1 && $7 != "0.0000" { bad = bad " " $1 } END { exit bad != "" }' "$D/id" \
    || fail "identify: psi moves an h = 1 sample: $(cat "$D/id")"
awk '$1 ~ /PathFinder\/.*:fence:/ && $7 != "0.0000" { bad = bad " " $1 } END { exit bad != "" }' "$D/id" \
    || fail "identify: psi moves a PathFinder fence sample (fence_iter_hidden): $(cat "$D/id")"
fi   # [ $san -eq 0 ]

# a folder preset (the A100's, data/gpus/a100/): its SM count from the folder's gpgpusim.config,
# 108, so the tall fence row at h = 20 on 220,320 points has 220,320 / (256 - 2 x 20) = 1,020
# tiles, ceil(1,020 / 108) = 10 on the busiest SM (no Jacobian columns, --params "": the SM
# count is the point here, and each column costs two ghostzone runs a sample)
python3 scripts/gz-fence-identify.py "$T" a100 data/calibrations/a100.ini --params "" >"$D/ida" 2>&1 \
    || fail "identify a100: exit status: $(cat "$D/ida")"
grep -q '^a100/PathFinder/tall:fence:h20:220320:s2 20 10 1886.5 ' "$D/ida" \
    || fail "identify a100: the tall fence row: $(grep tall "$D/ida")"

# the size tables are read back at their shipped area factors: the A100's and H100's sweeps stop
# at 16x (A100_SIZES=1,16), so asking for 100x of them found no run and left their rows out
f=$(cd scripts && python3 -c 'import importlib.util as u; s = u.spec_from_file_location("c", "gz-structure-compare.py")
m = u.module_from_spec(s); s.loader.exec_module(m); import os; os.chdir("..")
print(m.shipped_factors("a100", "main"), m.shipped_factors("v100", "unseen"))') || fail "factors: $f"
[ "$f" = "1,16 1,16,100" ] || fail "size factors: $f"

# calibrate --identify's fence profiling pair (GTX 480 PathFinder, 15,240 points, its rows as
# simulated): a tile-loop of the fence kernel is (132,141 / 61 - 85,647 / 60) / 4 = 184.7 warp
# instructions (61 and 60 tiles at h = 2 and 1; each row counts 3 + 1 stages), the relaunch
# pair's 34,644 / 61 - 23,040 / 60 = 183.9 (8 warps x 23): psi +0.004 as the instructions
# measure it, against the fitted 0.115 (both read from the log and the calibration: no Jacobian
# column, --params "", whose two ghostzone runs a fence sample the line does not use)
cp data/calibrations/gtx480-samples.csv "$D/pair.csv"
cat >>"$D/pair.csv" <<'ROWS'
gtx480/PathFinder/pair:fence:h1:15240:s2,sim,PathFinder,gtx480,fence,1,256,15240,1,1,2,3014,1507,85647,0
gtx480/PathFinder/pair:fence:h2:15240:s2,sim,PathFinder,gtx480,fence,2,256,15240,1,1,2,4083,1020.75,132141,0
ROWS
python3 scripts/gz-fence-identify.py "$T" gtx480 data/calibrations/gtx480.ini --samples "$D/pair.csv" \
    --params "" >"$D/pair" 2>&1 || fail "fence pair: exit status: $(cat "$D/pair")"
grep -qx 'PathFinder: fence 184.7, relaunch 183.9 a tile-loop: psi +0.004 measured, 0.115 fitted' "$D/pair" \
    || fail "fence pair: $(tail -3 "$D/pair")"

sh scripts/gz-extra-samples.sh "$T" gtx480 pathfinder 9611 3 >"$D/x3" 2>&1 || fail "extra samples: $(cat "$D/x3")"
sh scripts/gz-extra-samples.sh "$T" gtx480 pathfinder 8082 14 >"$D/x14" 2>&1 || fail "extra samples: $(cat "$D/x14")"
[ "$(grep ',fence,3,' "$D/x3" | cut -d, -f2-)" = \
  "$(grep '^gtx480/PathFinder/11:fence:h3:9611:s2,' data/calibrations/gtx480-samples.csv | cut -d, -f2- | sed 's/^sim,/measured,/')" ] \
    || fail "extra samples: the fence row is not the plan's: $(cat "$D/x3")"
[ "$(grep ',relaunch,14,' "$D/x14" | cut -d, -f2-)" = \
  "$(grep '^gtx480/PathFinder/05:relaunch:h14:8082:s2,' data/calibrations/gtx480-samples.csv | cut -d, -f2- | sed 's/^sim,/measured,/')" ] \
    || fail "extra samples: the relaunch row is not the plan's: $(cat "$D/x14")"
cat >"$D/tall.csv" <<'ROWS'
sample_id,kind,workload,gpu,sync,h,blk_len,size_0,size_1,size_2,stages,cycles,cpl_cycles,warp_instructions,bank_conflicts
extra/gtx480/PathFinder/relaunch:h30:25146:s2,measured,PathFinder,gtx480,relaunch,30,256,25146,1,1,2,70798,1179.9666666666667,2213625,0
extra/gtx480/PathFinder/relaunch:h40:25146:s2,measured,PathFinder,gtx480,relaunch,40,256,25146,1,1,2,98228,1227.8499999999999,3242382,0
extra/gtx480/PathFinder/fence:h30:25146:s2,measured,PathFinder,gtx480,fence,30,256,25146,1,1,2,64559,1075.9833333333333,2963611,0
extra/gtx480/PathFinder/fence:h40:25146:s2,measured,PathFinder,gtx480,fence,40,256,25146,1,1,2,89296,1116.2,4337317,0
ROWS
python3 scripts/gz-structure-compare.py --changed --extra "$D/tall.csv" "$T" at-size gtx480 >"$D/ex" 2>&1 \
    || fail "extra: exit status: $(cat "$D/ex")"
grep -qF '| gtx480 | reference fence | PathFinder | 6.81% 43 (0.986) | 6.80% 42 (0.990) | 37 |' "$D/ex" \
    || fail "extra: GTX 480 PathFinder fence row: $(grep PathFinder "$D/ex")"
grep -qF '| gtx480 | reference relaunch | PathFinder | 7.46% 43 (0.997) | 5.53% 43 (0.997) | 41 |' "$D/ex" \
    || fail "extra: GTX 480 PathFinder relaunch row: $(grep PathFinder "$D/ex")"
tail -n +2 "$D/tall.csv" >"$D/noheader.csv"
python3 scripts/gz-structure-compare.py --extra "$D/noheader.csv" "$T" at-size gtx480 >"$D/out" 2>&1 \
    && fail "extra without a header: exit status 0"
grep -q "expected a samples log's header" "$D/out" || fail "extra without a header: $(cat "$D/out")"
sh scripts/gz-extra-samples.sh "$T" gtx480 pathfinder >"$D/out" 2>&1 && fail "extra samples without heights: exit status 0"
grep -q '^Usage:' "$D/out" || fail "extra samples: no usage: $(cat "$D/out")"

# scripts/gz-term-breakdown.py: the model at the sweep's own grid (22,860 points, not the
# spec's 1,000,000), so its CPL is validate's curve value, and the six terms add up to it
python3 scripts/gz-term-breakdown.py "$T" gtx480 data/calibrations/gtx480.ini pathfinder \
    --hmin 32 --hmax 40 >"$D/bd" 2>&1 || fail "breakdown: exit status: $(cat "$D/bd")"
want=$(awk -F, '$1 == "PathFinder" && $2 == "relaunch" && $3 == 32 { printf "%.0f %.0f", $4, $5 }' \
       data/validation/gtx480-curve.csv)
got=$(awk '$1 == "relaunch" && $2 == 32 { print $3, $4 }' "$D/bd")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "breakdown h=32: '$got', the curve says '$want'"
awk '$1 == "relaunch" || $1 == "fence" { s = $6 + $7 + $8 + $9 + $10 + $11
     if (s < $4 - 3 || s > $4 + 3) bad = bad " " $1 $2 } END { exit bad != "" }' "$D/bd" \
    || fail "the terms do not add up to the CPL: $(cat "$D/bd")"
grep -q '^pathfinder fence h 32 -> 40: simulated ' "$D/bd" || fail "no per-term moves: $(cat "$D/bd")"
# the busiest SM's tiles: 22,860 / (256 - 64) -> 120 tiles on 15 SMs at h = 32 (8 each), 121 at
# h = 33 (9 on one), 130 at h = 40 (9)
grep -q '^pathfinder fence simulated stage = a + b h + c n (n = ceil(T / 15), 8-9): c = ' "$D/bd" \
    || fail "no tile-step fit over n = 8-9: $(cat "$D/bd")"

# scripts/gz-fence-stalls.py: a slot issues or stalls, so the slots are the
# GTX 480's 15 SMs x 2 schedulers = 30 a cycle in both modes; PathFinder's
# fence kernel at h = 2 (4 iterations, 15,240 points) runs fewer warp
# instructions than the relaunch kernel (its setup once), yet more slots each
python3 scripts/gz-fence-stalls.py "$T" gtx480 pathfinder:15240 >"$D/st" 2>&1 || fail "stalls: $(cat "$D/st")"
[ "$(grep -c '^pathfinder [a-z]*: 30 scheduler slots a cycle$' "$D/st")" = 2 ] || fail "stalls: slots: $(cat "$D/st")"
awk -F' [|] ' '$1 == "| pathfinder (15240)" { split($2, f, ", "); split($3, r, ", "); gsub(",", "", f[2]); gsub(",", "", r[2])
    split($4, q, " = "); ok = f[2] + 0 < r[2] + 0 && q[2] + 0 > 1 } END { exit !ok }' "$D/st" \
    || fail "stalls: fence insts not below relaunch's, or slots a warp inst not above: $(cat "$D/st")"

expect_status() { "$@" >"$D/out" 2>&1 && fail "$*: exit status 0"; }
expect_status python3 scripts/gz-structure-compare.py "$T"
grep -q '^Usage:' "$D/out" || fail "no usage without a structure: $(cat "$D/out")"
expect_status python3 scripts/gz-structure-compare.py "$T" no_such_switch gtx480
grep -q "no extension named 'no_such_switch'" "$D/out" || fail "bad structure: $(cat "$D/out")"
expect_status python3 scripts/gz-fence-identify.py "$T" v100
grep -q '^Usage:' "$D/out" || fail "identify: no usage without a calibration: $(cat "$D/out")"
expect_status python3 scripts/gz-fence-identify.py "$T" v100 data/calibrations/v100.ini --params no_such_param
grep -q 'no \[ghostzone\] no_such_param' "$D/out" || fail "identify: bad parameter: $(cat "$D/out")"
expect_status python3 scripts/gz-fence-stalls.py "$T" gtx480 pathfinder
grep -q '^Usage:' "$D/out" || fail "stalls: no usage without WORKLOAD:SIZE: $(cat "$D/out")"

finish cli_gz_structure_compare
