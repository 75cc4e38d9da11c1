#!/bin/sh
# Progress on a terminal, silence elsewhere: `trapeze sim` names the launch
# running and its number of how many (a three-stage relaunch run shows
# launch 1/3, 2/3 and 3/3 with their kernels), with blocks done, elapsed
# time and time left; a command that prints results between updates
# (trace check) erases the line before each; with stderr not a terminal a
# run shorter than the 10 s between plain lines prints nothing on stderr at
# all. The terminal is util-linux's script(1), a pseudo-terminal.
# Usage: sh tests/cli_progress.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
command -v script >/dev/null || { echo "cli_progress: script(1) missing (util-linux)"; exit 1; }

run="$T sim --gpu gtx480 --workload hotspot --size 148x148 --iterations 3 --h 1 --sync relaunch"
script -qec "$run" /dev/null >"$D/tty" 2>&1 || fail "run on a terminal: $(tail -3 "$D/tty")"
tr '\r' '\n' <"$D/tty" >"$D/lines"
for k in 1 2 3; do
    grep -aEq "^launch $k/3 HotSpot_stage$((k - 1)): 0/[0-9]+ blocks, [0-9]+s elapsed" "$D/lines" \
        || fail "no line for launch $k/3: $(grep -a launch "$D/lines" | head -5)"
done
grep -aq "launch 4/" "$D/lines" && fail "a launch numbered past the run's three"
grep -aq "about .* left" "$D/lines" || fail "no time left in the progress line"

# a command printing results between updates: on a terminal each result line
# starts clean (the progress line erased before it), and the run ends with
# the last progress line, all the bytes read
$T trace export --gpu gtx480 --out "$D/tr" --workload hotspot --size 148x148 --iterations 3 \
    >/dev/null 2>&1 || fail "trace export"
script -qec "$T trace check $D/tr" /dev/null >"$D/tty" 2>&1 || fail "trace check on a terminal"
tr '\r' '\n' <"$D/tty" | grep -a . >"$D/lines"
[ "$(grep -ac '^/.*kernel-[123].traceg: HotSpot_stage' "$D/lines")" -eq 3 ] \
    || fail "result lines not at the line's start: $(cat "$D/lines")"
grep -aEq '^trace check: ([0-9.]+)/\1 MB, .* about 0s left' "$D/lines" \
    || fail "no last progress line: $(cat "$D/lines")"

# not a terminal: results only, nothing on stderr
$run >"$D/out" 2>"$D/err" || fail "run off a terminal"
[ -s "$D/err" ] && fail "stderr not empty off a terminal: $(head -c 200 "$D/err")"
grep -q "cycles" "$D/out" || fail "no results: $(cat "$D/out")"
finish cli_progress
