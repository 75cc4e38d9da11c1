#!/bin/sh
# `trapeze ghostzone --verify` as a user waits for it, stderr not a terminal:
# a progress line per candidate (its stage, the candidate, warp instructions
# done of the estimated total, the time left) and a last "done" line; the
# model's table is on stdout before verification starts (a run killed with
# SIGKILL mid-verification keeps it); SIGINT prints what was verified so far
# and the fastest, exit status 130.
# Usage: sh tests/cli_gz_verify.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
GZ="$T ghostzone --gpu data/gpus/gtx480.config --calibration data/calibrations/gtx480.ini"

# --- progress lines: on this grid the model's 3 best, then one searched (cli_ghostzone.sh)
sed 's/^size = 2000x2000/size = 148x148/' data/workloads/hotspot.ini >"$D/small.ini"
$GZ --verify 2 --stages 1 "$D/small.ini" >"$D/out" 2>"$D/err" || fail "verify: $(cat "$D/err")"
grep -q '^workload ' "$D/out" && grep -q '^HotSpot .* verified: ' "$D/out" || fail "stdout: $(cat "$D/out")"
n=$(grep -c ' verify: ' "$D/out")
[ "$(grep -c '^HotSpot --verify: ' "$D/err")" -eq $((n + 1)) ] || fail "one progress line per candidate and a last one: $(cat "$D/err")"
grep -Eq "^HotSpot --verify: 0/[0-9]+ warp instructions, [0-9]+s elapsed, about .* left  model's best 1 of 3: fence h=2$" "$D/err" \
    || fail "first progress line: $(cat "$D/err")"
grep -Eq "^HotSpot --verify: [0-9]+/[0-9]+ warp instructions, .* model's best 3 of 3: relaunch h=2$" "$D/err" \
    || fail "third candidate's line: $(cat "$D/err")"
grep -Eq "^HotSpot --verify: [0-9]+/[0-9]+ warp instructions, .* search along h, run 1: fence h=3$" "$D/err" \
    || fail "the search's line: $(cat "$D/err")"
# the last line: all the estimated work done; the estimates grow with each candidate
last=$(tail -1 "$D/err")
echo "$last" | grep -Eq '^HotSpot --verify: ([0-9]+)/\1 warp instructions, .* done$' || fail "last line: $last"
awk -F'[ /]' '/^HotSpot --verify: / { if ($3 + 0 < prev) bad = 1; prev = $3 + 0 } END { exit bad }' "$D/err" \
    || fail "done decreases: $(cat "$D/err")"
# with two threads the model's best run as batches of two, the same rows
$GZ --verify 2 --stages 1 --threads 2 "$D/small.ini" >"$D/out2" 2>"$D/err2" || fail "threads: $(cat "$D/err2")"
cmp -s "$D/out" "$D/out2" || fail "--threads 2 changes stdout"
grep -q "model's best 1-2 of 3: fence h=2, fence h=1$" "$D/err2" || fail "batch line: $(cat "$D/err2")"

# --- interrupted: a grid where each candidate takes seconds
if ! env --default-signal=INT true 2>/dev/null; then
    echo "SKIP SIGINT: this env cannot reset SIGINT for a background job"
else
    sed 's/^size = 2000x2000/size = 250x250/' data/workloads/hotspot.ini >"$D/mid.ini"
    # waits until the first candidate is done (the second's line), then signals
    run_until_second() {
        # the last run's files go first: the loop below must not read its lines
        # before the new job's redirections truncate them
        rm -f "$D/iout" "$D/ierr"
        env --default-signal=INT $GZ --verify 3 --stages 1 "$D/mid.ini" >"$D/iout" 2>"$D/ierr" &
        pid=$!
        i=0
        while [ $i -lt 3000 ] && ! grep -q "model's best 2 of" "$D/ierr" 2>/dev/null; do
            sleep 0.1
            i=$((i + 1))
        done
        kill "-$1" "$pid"
        { wait "$pid"; } 2>/dev/null
        rc=$?
    }
    run_until_second INT
    [ "$rc" -eq 130 ] || fail "SIGINT exit status $rc: $(cat "$D/ierr")"
    grep -q '^HotSpot .* relaunch ' "$D/iout" || fail "interrupted: no table: $(cat "$D/iout")"
    v=$(grep -c ' verify: ' "$D/iout")
    [ "$v" -ge 1 ] || fail "interrupted: nothing verified printed: $(cat "$D/iout")"
    fastest=$(awk '/ verify: / { if (!b || $6 < b) { b = $6; m = $3; h = $4 } } END { print m " " h }' "$D/iout")
    grep -q "^HotSpot      interrupted: the fastest so far is $fastest (cpl_sim " "$D/iout" \
        || fail "interrupted summary, want $fastest: $(cat "$D/iout")"
    ! grep -q ' verified: ' "$D/iout" || fail "an interrupted run claims a decision"
    # killed outright: the table was flushed before verification began
    run_until_second KILL
    grep -q '^HotSpot .* fence ' "$D/iout" && grep -q '^HotSpot      best: ' "$D/iout" \
        || fail "SIGKILL lost the table: $(cat "$D/iout")"
fi
finish cli_gz_verify
