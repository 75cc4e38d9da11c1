#!/bin/sh
# End-to-end tests of `trapeze ghostzone`: the main job's output, and bad
# input, which must give one message naming file, line and field, a non-zero
# exit, and no output file (nor its temporary) left behind.
# Usage: sh tests/cli_ghostzone.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

expect_error() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/out.csv" "$T" ghostzone --csv "$D/out.csv" "$@"; }

# --- the main job: the dissertation's predictions on the GTX 280
"$T" ghostzone --csv "$D/gz.csv" >"$D/out" 2>"$D/err" || fail "main job exit status"
grep -Eq '^PathFinder +gtx280 +relaunch +12\.[0-9]+ +12 ' "$D/out" || fail "PathFinder relaunch h=12"
grep -Eq '^PathFinder +gtx280 +fence +19\.[0-9]+ +19 +20 ' "$D/out" || fail "PathFinder fence h=19, argmin 20"
grep -Eq '^Cell .* fence$' "$D/out" || fail "Cell chooses fences"
[ "$(head -1 "$D/gz.csv")" = "workload,gpu,sync,h,trapezoids,cpl_cycles,glbsync_cycles,loadsten_cycles,commit_cycles,itermem_cycles,misccomp_cycles,itercomp_cycles,speedup_vs_h1" ] || fail "CSV header"
# valid heights: PathFinder 127, HotSpot 9, Poisson 9, Cell 3, each in two modes; plus header
[ "$(wc -l <"$D/gz.csv")" -eq $((1 + 2 * (127 + 9 + 9 + 3))) ] || fail "CSV row count $(wc -l <"$D/gz.csv")"
"$T" ghostzone --help | grep -q -- "--calibration" || fail "--help"
"$T" --help | grep -q ghostzone || fail "trapeze --help"
# --help wins wherever it stands, as in every command's option table: not
# taken as --csv's value (a file named --help written in the current folder)
Tabs=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
(cd "$D" && "$Tabs" ghostzone --csv --help >help.out 2>&1) || fail "--csv --help exit status"
grep -q -- "--calibration" "$D/help.out" && [ ! -e "$D/--help" ] || fail "--csv --help: $(cat "$D/help.out")"

# --- the headline: the best integer (mode, h) and its margin over the runner-up
"$T" ghostzone --gpu data/gpus/gtx480.config --calibration data/calibrations/gtx480.ini \
    data/workloads/hotspot.ini >"$D/hl" 2>&1 || fail "headline: $(cat "$D/hl")"
# the best is the lower h_argmin CPL of the two mode rows, in the chosen mode
want=$(awk '$3 == "relaunch" || $3 == "fence" { if (!b || $7 < b) { b = $7; m = $3; h = $6 } } END { print m " h=" h }' "$D/hl")
grep -q "^HotSpot *best: $want " "$D/hl" || fail "headline names $want: $(cat "$D/hl")"
grep -Eq 'runner-up (relaunch|fence) h=[0-9]+: \+[0-9.]+% \+- [0-9.]+%' "$D/hl" || fail "margin: $(cat "$D/hl")"
# the sync mode's own margin, when the runner-up is of the best's mode: the
# other mode's best row (its h_argmin and CPL) against the best
mode=${want% *}
best_cpl=$(awk -v m="$mode" '$2 == "gtx480" && $3 == m { print $7 }' "$D/hl")
other=$(awk -v m="$mode" -v b="$best_cpl" '$2 == "gtx480" && $3 != m {
    printf "%s'"'"'s best, h=%d: %+.2f%%", $3, $6, 100 * ($7 / b - 1) }' "$D/hl")
if grep -q "runner-up $mode " "$D/hl"; then
    grep -qF "sync mode: $other" "$D/hl" || fail "sync mode margin, want '$other': $(cat "$D/hl")"
else
    ! grep -q "sync mode:" "$D/hl" || fail "a sync mode line where the runner-up is the other mode"
fi

# --- a stencil the calibration never saw is profiled on the GPU first, as
# `validate` profiles it, so the CPL printed is the one the validation measured
# (before, the spec's GTX 280 counts gave 7088.1 where validate's model said 1919.3)
sed 's/^size = .*/size = 26040/' data/workloads/multi1d.ini >"$D/m1d.ini"
"$T" ghostzone --gpu gtx480 --sync relaunch --height 5 "$D/m1d.ini" >"$D/p" 2>"$D/perr" \
    || fail "profiled: $(cat "$D/perr")"
grep -q "^Multi1D: instruction counts: profiled generated kernel (no \[profile.Multi1D\] in the calibration: the kernel generated from the spec's \[profile\] override, profiled on this GPU in four short simulations, " "$D/perr" \
    || fail "profiling note: $(cat "$D/perr")"
want=$(awk -F, '$1 == "Multi1D" && $2 == 1 && $3 == "relaunch" && $4 == 5 { printf "%.1f", $6 }' \
       data/validation/gtx480-sizes-unseen-points.csv)
[ -n "$want" ] || fail "no Multi1D 1x relaunch h=5 row in the validation"
[ "$(awk '$3 == "relaunch" { print $7 }' "$D/p")" = "$want" ] \
    || fail "profiled CPL $(awk '$3 == "relaunch" { print $7 }' "$D/p"), validate's model $want"
"$T" ghostzone --gpu gtx480 --sync relaunch --height 5 --spec-counts "$D/m1d.ini" >"$D/p2" 2>"$D/perr2" \
    || fail "--spec-counts: $(cat "$D/perr2")"
grep -q "the spec's instruction counts (Meng's GTX 280, per SM of 30)" "$D/perr2" || fail "--spec-counts note"
[ "$(awk '$3 == "relaunch" { print $7 }' "$D/p2")" != "$want" ] || fail "--spec-counts still profiled"
# the calibrated benchmarks carry their profile: nothing simulated, no note
"$T" ghostzone --gpu gtx480 hotspot >/dev/null 2>"$D/perr3" || fail "hotspot"
[ ! -s "$D/perr3" ] || fail "hotspot profiled: $(cat "$D/perr3")"

# --- --verify: the 2 best simulated at the workload's own grid, decided by simulation
sed 's/^size = 2000x2000/size = 148x148/' data/workloads/hotspot.ini >"$D/small.ini"
"$T" ghostzone --gpu data/gpus/gtx480.config --calibration data/calibrations/gtx480.ini \
    --verify 2 --stages 1 "$D/small.ini" >"$D/v" 2>&1 || fail "verify: $(cat "$D/v")"
# the 2 best, and the other mode's best as a third when those two are one mode
k=$(grep ' verify: ' "$D/v" | grep -vc '(searched)')
same=$(awk '/ verify: / { m[++k] = $3 } END { print (m[1] == m[2]) }' "$D/v")
[ "$k" -eq $((2 + same)) ] || fail "two candidates (+1 when one mode): $(cat "$D/v")"
[ "$(awk '/ verify: / { print $3 }' "$D/v" | sort -u | wc -l)" -eq 2 ] || fail "both modes verified: $(cat "$D/v")"
# then the search along h: hand-traced on this grid, fence 2 is the fastest and
# the model's first, fence 1 simulated below it (slower) and nothing above, so a
# step of half its h probes fence 3, which is slower, and the search stops
grep -q 'verify: fence *h=3 .*(searched)$' "$D/v" || fail "search probes fence 3: $(cat "$D/v")"
n=$(grep -c ' verify: ' "$D/v")
[ "$n" -eq $((k + 1)) ] || fail "one searched: $(cat "$D/v")"
fastest=$(awk '/ verify: / { if (!b || $6 < b) { b = $6; m = $3; h = $4 } } END { print m " " h }' "$D/v")
grep -q "verified: $fastest, the fastest of $n simulated (the model's $k best, 1 searched along h; 1 stages each" "$D/v" || fail "verified pick: $(cat "$D/v")"
# a fence candidate's CPL is the simulator's: (cycles of warm-up + 1 stage - warm-up alone) / h
set -- $(awk '/ verify: fence/ { sub("h=", "", $4); print $4, $6; exit }' "$D/v")
[ -n "$1" ] || fail "no fence candidate: $(cat "$D/v")"
cycles() { "$T" sim --gpu data/gpus/gtx480.config --workload "$D/small.ini" --sync fence --h "$1" \
    --iterations "$2" | sed -n 's/.*(\([0-9]*\) cycles.*/\1/p'; }
want=$(awk -v a="$(cycles "$1" $(($1 * 2)))" -v b="$(cycles "$1" "$1")" -v h="$1" 'BEGIN { printf "%.1f", (a - b) / h }')
[ "$2" = "$want" ] || fail "fence h=$1: cpl_sim $2, simulator $want"

# --- bad input
expect_error "missing workload" "$D/nope.ini: cannot open" "$D/nope.ini"
expect_error "missing gpu" "$D/nope.config: cannot open" --gpu "$D/nope.config"
expect_error "bad --sync" "--sync: expected relaunch, fence or best, got 'sideways'" --sync sideways
expect_error "bad --height" "--height: expected a positive integer, got '-3'" --height -3
expect_error "unknown option" "unknown option '--frobnicate'" --frobnicate
expect_error "verify with height" "--verify decides among both modes' heights" --verify 2 --height 2
expect_error "bad verify" "--verify: expected a positive integer up to 1000, got '0'" --verify 0

sed 's/^elem_per_op = 1/elemperop = 1/' data/workloads/pathfinder.ini >"$D/unknown.ini"
expect_error "unknown workload key" "$D/unknown.ini:12: [workload] elemperop: unknown key" "$D/unknown.ini"

sed 's/^size = 1000000/size = -1000000/' data/workloads/pathfinder.ini >"$D/negative.ini"
expect_error "negative size" "$D/negative.ini:8: [workload] size: -1000000 is outside [1, 1e+15]" "$D/negative.ini"

sed 's/^iterations = 100/iterations = lots/' data/workloads/pathfinder.ini >"$D/malformed.ini"
expect_error "malformed value" "$D/malformed.ini:14: [workload] iterations: expected an integer in [1, 1000000000], got 'lots'" "$D/malformed.ini"

printf '%s\n' "$(cat data/workloads/pathfinder.ini)" | sed 's/^iterations = 100/iterations = 100\nheight = 128/' >"$D/tall.ini"
expect_error "height violates 5.20" "$D/tall.ini:15: [workload] height: 128 violates Eq. 5.20" "$D/tall.ini"
expect_error "--height violates 5.20" "h = 128 violates Eq. 5.20" --height 128 data/workloads/pathfinder.ini

sed 's/^-gpgpu_clock_domains .*/-gpgpu_clock_domains 1300.0:fast:650.0:1107.0/' data/gpus/gtx280.config >"$D/bad.config"
line=$(grep -n gpgpu_clock_domains "$D/bad.config" | tail -1 | cut -d: -f1)
expect_error "malformed gpu option" "$D/bad.config:$line: option -gpgpu_clock_domains: 'fast' is not a number" --gpu "$D/bad.config"

printf '[ghostzone]\nsigma = 5\nmu = 2\n' >"$D/cal.ini"
expect_error "calibration out of range" "$D/cal.ini:3: [ghostzone] mu: 2 is outside [0, 1]" --calibration "$D/cal.ini"

# numbers out of range are refused with the range, never cast (each
# of these used to exit 0 with h* = 5.5e67, h = -2147483648 or CPL = inf)
bad_hotspot() { sed "s/^$1 = .*/$1 = $2/" data/workloads/hotspot.ini >"$D/range.ini"; }
bad_hotspot halo 3000000000x3000000000
expect_error "huge halo" "range.ini:8: [workload] halo: 3000000000 is outside [1, 1e+06]" "$D/range.ini"
bad_hotspot halo 4294967298
expect_error "halo past 2^32" "range.ini:8: [workload] halo: 4294967298 is outside [1, 1e+06]" "$D/range.ini"
bad_hotspot halo 0.5x0.5
expect_error "fractional halo" "range.ini:8: [workload] halo: '0.5' is not an integer" "$D/range.ini"
bad_hotspot block 6333333331
expect_error "huge block" "range.ini:9: [workload] block: 6333333331 is outside [1, 1e+06]" "$D/range.ini"
printf '[workload]\nname = x\000y\n' >"$D/nul.ini"
expect_error "NUL byte in a workload" "nul.ini:2: a NUL byte: not a text file" "$D/nul.ini"
cfg_with() { grep -v -- "^-$1 " data/gpus/gtx280.config >"$D/range.config"; echo "-$1 $2" >>"$D/range.config"; }
last=$(($(grep -vc -- '^-gpgpu_n_clusters ' data/gpus/gtx280.config) + 1))
cfg_with gpgpu_n_clusters 4294967311
expect_error "SM count past 2^32" "range.config:$last: option -gpgpu_n_clusters: 4294967311 is outside [1, " --gpu "$D/range.config"
cfg_with gpgpu_shader_registers 4294967296
expect_error "registers past 2^32" "option -gpgpu_shader_registers: 4294967296 is outside [1, " --gpu "$D/range.config"
cfg_with gpgpu_shader_core_pipeline 1e10:32
expect_error "pipeline 1e10" "option -gpgpu_shader_core_pipeline: '1e10' is not an integer" --gpu "$D/range.config"
cfg_with gpgpu_shader_core_pipeline 10000000000:32
expect_error "pipeline past int" "option -gpgpu_shader_core_pipeline: 10000000000 is outside [1, " --gpu "$D/range.config"
# raw bytes in a value are shown escaped, never echoed to the terminal
cfg_with gpgpu_n_clusters "$(printf '\001\377x')"
expect_error "binary value" "option -gpgpu_n_clusters: expected an integer in [1, 4096], got '\\x01\\xffx'" \
    --gpu "$D/range.config"
# a calibration file that sets nothing is refused (it was taken as all defaults)
: >"$D/empty.ini"
expect_error "empty calibration" "empty.ini: sets nothing" --calibration "$D/empty.ini"
printf '; only a comment\n[meta]\nsource = x\n' >"$D/empty.ini"
expect_error "calibration of comments" "empty.ini: sets nothing" --calibration "$D/empty.ini"

# a failure after rows were written still leaves no file
expect_error "late failure" "$D/nope.ini: cannot open" data/workloads/pathfinder.ini "$D/nope.ini"

finish cli_ghostzone
