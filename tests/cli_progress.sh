#!/bin/sh
# Progress on a terminal, silence elsewhere: `trapeze sim` names the launch
# running and its number of how many (a three-stage relaunch run shows
# launch 1/3, 2/3 and 3/3 with their kernels), with blocks done, elapsed
# time, rate and time left; with stderr not a terminal it prints nothing on
# stderr at all. The terminal is util-linux's script(1), a pseudo-terminal.
# Usage: sh tests/cli_progress.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
command -v script >/dev/null || { echo "cli_progress: script(1) missing (util-linux)"; exit 1; }

run="$T sim --gpu gtx480 --workload hotspot --size 148x148 --iterations 3 --h 1 --sync relaunch"
script -qec "$run" /dev/null >"$D/tty" 2>&1 || fail "run on a terminal: $(tail -3 "$D/tty")"
tr '\r' '\n' <"$D/tty" >"$D/lines"
for k in 1 2 3; do
    grep -aq "^launch $k/3 HotSpot_stage$((k - 1)): 0/[0-9]* blocks, 0s elapsed" "$D/lines" \
        || fail "no line for launch $k/3: $(grep -a launch "$D/lines" | head -5)"
done
grep -aq "launch 4/" "$D/lines" && fail "a launch numbered past the run's three"
grep -aq "about .* left" "$D/lines" || fail "no time left in the progress line"

# not a terminal: results only, nothing on stderr
$run >"$D/out" 2>"$D/err" || fail "run off a terminal"
[ -s "$D/err" ] && fail "stderr not empty off a terminal: $(head -c 200 "$D/err")"
grep -q "cycles" "$D/out" || fail "no results: $(cat "$D/out")"
finish cli_progress
