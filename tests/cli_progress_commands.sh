#!/bin/sh
# Progress on every command that can run long, off a terminal: with
# TRAPEZE_PROGRESS=0 (a plain line per update instead of one every 10 s)
# each prints its lines on stderr, "done/total UNIT, E elapsed, about T
# left" (samples with their share of the planned work: calibrate and
# validate of every model; simulations: group; steps: sleep; launches: sim;
# MB read: trace check; kernels written: trace export); stdout holds the same bytes as with --no-progress,
# which prints no progress line; TRAPEZE_PROGRESS=off is --no-progress; a
# setting that is neither says so. The estimator's arithmetic and the
# weighting are unit-tested (tests/test_progress.c).
# Usage: sh tests/cli_progress_commands.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"

LEFT=', [0-9hms]+ elapsed, about ([0-9hms]+|\?) left'
# check NAME PATTERN CMD...: the command twice, each after `eval "$RESET"`
# (the outputs it would reuse removed)
RESET=:
check() {
    name=$1 pat=$2
    shift 2
    eval "$RESET"
    TRAPEZE_PROGRESS=0 "$@" >"$D/on.out" 2>"$D/on.err" || fail "$name: $(tail -3 "$D/on.err")"
    grep -Eq "$pat$LEFT" "$D/on.err" || fail "$name: no progress line: $(head -c 300 "$D/on.err")"
    eval "$RESET"
    TRAPEZE_PROGRESS=0 "$@" --no-progress >"$D/off.out" 2>"$D/off.err" \
        || fail "$name --no-progress: $(tail -3 "$D/off.err")"
    grep -Eq "elapsed, about" "$D/off.err" && fail "$name --no-progress: $(head -c 300 "$D/off.err")"
    cmp -s "$D/on.out" "$D/off.out" || fail "$name: stdout differs with progress"
    [ -s "$D/on.out" ] || fail "$name: nothing on stdout"
}

check "sim stencil" '^launch [123]/3 HotSpot_stage[012]: [0-9]+/81 blocks' \
    $T sim --gpu gtx480 --workload hotspot --size 148x148 --iterations 3 --h 1 --sync relaunch
check "sim kernel" '^launch 1/1 vecadd: [0-9]+/[0-9]+ blocks' $T sim --gpu gtx480 vecadd n=65536

# The smallest plan whose runs still show progress lines: 13 micro-benchmarks
# and profiles, 8 samples and a validation sweep of 2 runs (5 with --sizes)
# on a reference grid of 5e5 warp instructions (5e6 cost each calibrate 2.6
# times and each validate 12 times as much CPU, for the same lines).
PLAN="--gpu gtx480 --budget 8 --stages 1 --sweep-budget 5e5 --max-h 3"
RESET='rm -f "$D/s.csv"'
check "calibrate" '^[0-9]+/21 samples \([0-9]+% of the work\)' \
    $T calibrate $PLAN --samples "$D/s.csv" --out "$D/c.ini" poisson
RESET='rm -f "$D/sweep.csv"'
check "validate" '^[0-9]+/[0-9]+ samples \([0-9]+% of the work\)' \
    $T validate $PLAN --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sweep.csv" poisson
check "validate --sizes" '^[0-9]+/[0-9]+ samples \([0-9]+% of the work\)' \
    $T validate $PLAN --calibration "$D/c.ini" --samples "$D/s.csv" --sweep-log "$D/sweep.csv" \
    --sizes 1 --sweep-stages 1 poisson

# SYRK 32 (4 TBs): the grouping commands' progress lines as SYRK 64's, for a
# ninth of the CPU (SYRK 64's validate took 13 s under the sanitizers)
G=data/gpus/gtx480.config
RESET='rm -f "$D/g.csv"'
check "calibrate --model group" '^[0-9]+/2 samples \([0-9]+% of the work\)' \
    $T calibrate --model group --gpu $G --samples "$D/g.csv" --out "$D/g.ini" syrk,n=32
check "validate --model group" '^[0-9]+/8 samples \([0-9]+% of the work\)' \
    $T validate --model group --gpu $G --samples "$D/g.csv" syrk,n=32
RESET='rm -f "$D/l.csv"'
# vecadd n=16384 and HotSpot 64x64: the same lines as n=65536 and 148x148
# for a quarter of the CPU or less
check "calibrate --model sleep" '^calibrate: 1/1 jobs \(100% of the work\)' \
    $T calibrate --model sleep --gpu gtx480 --window 3000 "vecadd n=16384" --samples "$D/l.csv" \
    --out "$D/l.out"
RESET=:
check "validate --model sleep" '^validate: [0-9]+/[0-9]+ runs' \
    $T validate --model sleep --gpu gtx480 --window 3000 "matmul n=32"
check "group" '^group: [0-9]/9 simulations' $T group --gpu $G syrk n=32
check "sleep" '^sleep: [0-7]/7 steps' $T sleep --gpu gtx480 vecadd n=16384 --whole
RESET='rm -rf "$D/tr"'
check "trace export" '^trace export: [0-3]/3 kernels written' \
    $T trace export --gpu gtx480 --out "$D/tr" --workload hotspot --size 64x64 --iterations 3
check "trace export KERNEL" '^trace export: 1/1 kernels written' \
    $T trace export --gpu gtx480 --out "$D/tr" vecadd n=65536
RESET=:
check "trace check" '^trace check: [0-9.]+/[0-9.]+ MB' $T trace check "$D/tr"

# the last line of a run says all of it is done
TRAPEZE_PROGRESS=0 $T trace check "$D/tr" 2>"$D/err" >/dev/null
total=$(sed -n 's|^trace check: \([0-9.]*\)/\([0-9.]*\) MB.*|\1 \2|p' "$D/err" | tail -1)
[ "${total% *}" = "${total#* }" ] || fail "trace check: the last line is not all the bytes: $total"

# TRAPEZE_PROGRESS=off is --no-progress; a bad setting is named once
TRAPEZE_PROGRESS=off $T trace check "$D/tr" >/dev/null 2>"$D/err"
[ -s "$D/err" ] && fail "TRAPEZE_PROGRESS=off: $(cat "$D/err")"
TRAPEZE_PROGRESS=often $T trace check "$D/tr" >/dev/null 2>"$D/err"
grep -q "TRAPEZE_PROGRESS='often' is neither 'off' nor a number" "$D/err" \
    || fail "bad TRAPEZE_PROGRESS: $(cat "$D/err")"
# a long period: a run shorter than it shows nothing
TRAPEZE_PROGRESS=1000 $T trace check "$D/tr" >/dev/null 2>"$D/err"
[ -s "$D/err" ] && fail "a run shorter than the period printed: $(cat "$D/err")"
finish cli_progress_commands
