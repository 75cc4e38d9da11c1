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

# --- bad input
expect_error "missing workload" "$D/nope.ini: cannot open" "$D/nope.ini"
expect_error "missing gpu" "$D/nope.config: cannot open" --gpu "$D/nope.config"
expect_error "bad --sync" "--sync: expected relaunch, fence or best, got 'sideways'" --sync sideways
expect_error "bad --height" "--height: expected a positive integer, got '-3'" --height -3
expect_error "unknown option" "unknown option '--frobnicate'" --frobnicate

sed 's/^elem_per_op = 1/elemperop = 1/' data/workloads/pathfinder.ini >"$D/unknown.ini"
expect_error "unknown workload key" "$D/unknown.ini:12: [workload] elemperop: unknown key" "$D/unknown.ini"

sed 's/^size = 1000000/size = -1000000/' data/workloads/pathfinder.ini >"$D/negative.ini"
expect_error "negative size" "$D/negative.ini:8: [workload] size: size -1e+06 must be positive" "$D/negative.ini"

sed 's/^iterations = 100/iterations = lots/' data/workloads/pathfinder.ini >"$D/malformed.ini"
expect_error "malformed value" "$D/malformed.ini:14: [workload] iterations: expected an integer, got 'lots'" "$D/malformed.ini"

printf '%s\n' "$(cat data/workloads/pathfinder.ini)" | sed 's/^iterations = 100/iterations = 100\nheight = 128/' >"$D/tall.ini"
expect_error "height violates 5.20" "$D/tall.ini:15: [workload] height: 128 violates Eq. 5.20" "$D/tall.ini"
expect_error "--height violates 5.20" "h = 128 violates Eq. 5.20" --height 128 data/workloads/pathfinder.ini

sed 's/^-gpgpu_clock_domains .*/-gpgpu_clock_domains 1300.0:fast:650.0:1107.0/' data/gpus/gtx280.config >"$D/bad.config"
line=$(grep -n gpgpu_clock_domains "$D/bad.config" | tail -1 | cut -d: -f1)
expect_error "malformed gpu option" "$D/bad.config:$line: option -gpgpu_clock_domains: 'fast' is not a number" --gpu "$D/bad.config"

printf '[ghostzone]\nsigma = 5\nmu = 2\n' >"$D/cal.ini"
expect_error "calibration out of range" "$D/cal.ini:3: [ghostzone] mu: 2 is outside [0, 1]" --calibration "$D/cal.ini"

# a failure after rows were written still leaves no file
expect_error "late failure" "$D/nope.ini: cannot open" data/workloads/pathfinder.ini "$D/nope.ini"

finish cli_ghostzone
