#!/bin/sh
# End-to-end tests of `trapeze sim --workload`: presets by name, both sync
# modes, the summary and CPL line, CSV rows per launch, and bad input (h
# violating Eq. 5.20, h < 1, bad sync, bad size, missing file, bad INI),
# which must give one clear message, a non-zero exit and no CSV left.
# Usage: sh tests/cli_sim_workload.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

expect_error() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/out.csv" "$T" sim "$@" --csv "$D/out.csv"; }

# --- relaunch: 5 iterations at h = 2 are ceil(5/2) = 3 launches of 7x7 = 49 tiles
# (a 100x100 grid, output tile edge 20 - 2x2 = 16)
"$T" sim --gpu $G --workload hotspot --size 100x100 --iterations 5 --h 2 --csv "$D/r.csv" \
    >"$D/out" 2>"$D/err" || fail "relaunch exit status: $(cat "$D/err")"
[ "$(grep -c '^HotSpot_stage[0-2]: [0-9]* cycles, [0-9]* warp instructions, IPC [0-9.]*, 49 blocks' "$D/out")" -eq 3 ] \
    || fail "relaunch: 3 launches of 49 blocks: $(cat "$D/out")"
grep -q '^HotSpot, relaunch, h = 2: 5 iterations in 3 stages of 49 tiles (output tile edge 16)' "$D/out" \
    || fail "relaunch description line"
grep -q '64 and 52 instructions per stencil op and per thread setup' "$D/out" \
    || fail "HotSpot's profiled instruction counts (16645 and 13488 x 30 / 250000 x 32)"
cycles=$(sed -n 's/^run cycles per loop: [0-9.]* (\([0-9]*\) cycles \/ 5 iterations, warm-up included)$/\1/p' "$D/out")
[ -n "$cycles" ] || fail "run cycles per loop line: $(cat "$D/out")"
# run cycles per loop = cycles / iterations; the total is the CSV's cycles plus launch latencies
sum=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "cycles") c = i; if ($i == "launch_cycles") l = i } }
               NR > 1 { s += $c + $l } END { print s }' "$D/r.csv")
[ "$sum" = "$cycles" ] || fail "CSV cycles + launch cycles $sum != $cycles"
cpl=$(sed -n 's/^run cycles per loop: \([0-9.]*\) (.*/\1/p' "$D/out")
awk -v c="$cycles" -v p="$cpl" 'BEGIN { d = c / 5 - p; exit !(d < 0.051 && d > -0.051) }' \
    || fail "run cycles per loop $cpl != $cycles / 5"
[ "$(wc -l <"$D/r.csv")" -eq 4 ] || fail "CSV rows: $(wc -l <"$D/r.csv")"
head -n 1 "$D/r.csv" | grep -q '^kernel,cycles,warp_instructions,ipc,' || fail "CSV header"
! ls "$D" | grep -q "^r\.csv\..*\.tmp$" || fail "temporary CSV left behind"
grep -q 'cycle [0-9]*, ' "$D/err" && fail "progress written to a non-terminal"

# --- fence: one persistent kernel of 3 blocks/SM x 15 SMs = 45 blocks for 49 tiles
"$T" sim --gpu $G --workload hotspot --size 100x100 --iterations 5 --h 2 --sync fence \
    >"$D/out" 2>"$D/err" || fail "fence exit status: $(cat "$D/err")"
grep -q '^HotSpot_persistent: [0-9]* cycles, .* 45 blocks (3 per SM at most)' "$D/out" \
    || fail "fence: persistent kernel of 45 blocks: $(cat "$D/out")"
grep -q '45 persistent blocks (3 per SM, limited by threads)' "$D/out" || fail "fence sizing line"

# --- every preset by name, small, and a spec by path; the same bytes twice
for w in pathfinder poisson cell; do
    case $w in pathfinder) s=600 ;; poisson) s=40x40 ;; cell) s=12x12x12 ;; esac
    "$T" sim --gpu $G --workload $w --size $s --iterations 2 --sync fence --quiet \
        || fail "preset $w"
done
"$T" sim --gpu $G --workload data/workloads/poisson.ini --size 40x40 --iterations 3 --h 3 \
    --csv "$D/p1.csv" --quiet || fail "spec by path"
"$T" sim --gpu $G --workload poisson --size 40x40 --iterations 3 --h 3 --csv "$D/p2.csv" --quiet
cmp -s "$D/p1.csv" "$D/p2.csv" || fail "the preset and its file differ, or two runs differ"
"$T" sim --workload hotspot --help | grep -q 'usage: trapeze sim --gpu FILE --workload' \
    || fail "--help with --workload"
"$T" sim --help | grep -q -- '--workload SPEC' || fail "--help lacks --workload"

# --- the seeds' kernels: listed with their parameters, and they run
"$T" sim --list >"$D/list" || fail "--list exit status"
for k in matmul matmul_tiled atax bicg gesummv mvt syrk syr2k; do
    grep -q "^$k " "$D/list" || fail "--list lacks $k"
done
grep -q '^    tile=16 ' "$D/list" && grep -q '^    by=8 ' "$D/list" || fail "--list lacks seed parameters"
"$T" sim --gpu $G atax n=64 block=32 >"$D/out" 2>&1 || fail "atax: $(cat "$D/out")"
grep -q '^atax_kernel1: ' "$D/out" && grep -q '^atax_kernel2: ' "$D/out" || fail "atax: two launches"
"$T" sim --gpu $G matmul_tiled n=48 tile=16 --quiet || fail "matmul_tiled n=48"
expect_error "tiled n not a multiple" "matmul_tiled: n=40 is not a multiple of tile=16" \
    --gpu $G matmul_tiled n=40 tile=16

# --- bad input
expect_error "h violates 5.20" "HotSpot: h = 10 violates Eq. 5.20 (block 20, halo 2): largest valid h is 9" \
    --gpu $G --workload hotspot --size 40x40 --h 10
 # shape and per-array halos: one message naming file, line and field
sed 's/^halo = 2x2/halo = 2x2\nshape = round/' data/workloads/hotspot.ini >"$D/shape.ini"
line=$(grep -n '^shape' "$D/shape.ini" | cut -d: -f1)
expect_error "bad shape" "shape.ini:$line: [workload] shape: expected box or star, got 'round'" --gpu $G --workload "$D/shape.ini"
sed 's/^halo = 2x2/halo = 2x2\naux_halo = 4/' data/workloads/hotspot.ini >"$D/aux.ini"
line=$(grep -n '^aux_halo' "$D/aux.ini" | cut -d: -f1)
expect_error "aux halo wider" "aux.ini:$line: [workload] aux_halo: 4 is wider than the halo 2" --gpu $G --workload "$D/aux.ini"
sed 's/^halo = 2x2/halo = 2x2\naux_halo = 2,0/' data/workloads/hotspot.ini >"$D/aux2.ini"
expect_error "aux halo count" "[workload] aux_halo: 2 widths given for 1 extra arrays" --gpu $G --workload "$D/aux2.ini"
expect_error "h = 0" "--h 0: expected a whole number from 1" --gpu $G --workload hotspot --h 0
expect_error "h not a number" "--h two: expected a whole number" --gpu $G --workload hotspot --h two
expect_error "bad sync" "--sync barrier: expected relaunch or fence" --gpu $G --workload hotspot --sync barrier
expect_error "bad size" "--size 40: expected 2 positive whole number(s)" --gpu $G --workload hotspot --size 40
expect_error "size with a zero" "--size 40x0" --gpu $G --workload hotspot --size 40x0
expect_error "no such preset" "--workload nosuch: no such preset" --gpu $G --workload nosuch
expect_error "missing file" "$D/none.ini" --gpu $G --workload "$D/none.ini"
printf '[workload]\nname = Bad\ndimensions = 2\nsize = 40x40\nblock = 16x16\nhalo = 2\nstencils = 2\n[profile]\ninput_elements = 100\n' >"$D/bad.ini"
expect_error "unknown INI key" "bad.ini:7: [workload] stencils: unknown key" --gpu $G --workload "$D/bad.ini"
printf '[workload]\nname = Frac\ndimensions = 1\nsize = 100.5\nblock = 32\n[profile]\ninput_elements = 100\n' >"$D/frac.ini"
expect_error "fractional size" "Frac: size 100.5 in dimension 1 is not a whole number" --gpu $G --workload "$D/frac.ini"
expect_error "no --gpu" "--gpu FILE is required" --workload hotspot
expect_error "bad option" "unknown option '--list'" --gpu $G --workload hotspot --list
expect_error "missing config" "nope.config" --gpu "$D/nope.config" --workload hotspot

finish cli_sim_workload
