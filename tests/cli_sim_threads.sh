#!/bin/sh
# `trapeze sim --sim-threads N`: one simulation split across threads gives
# the bytes one thread gives (summary, CSV, per-SM CSV, idle histograms)
# for N = 1, 2, 4 and 8, on compute-bound, memory-bound, barrier/atomic and
# shared-memory kernels, a trace (its text read through the line memo, and a
# kept block), the power model with sleep policies, both interconnects
# (GTX 480's flit crossbar from its .icnt file, V100's iSLIP crossbar) and
# Accel-Sim's own config folders and the H100 preset folder; bad counts
# are refused.
# Sizes: the smallest that keep every SM and memory partition busy at once
# for a few thousand cycles, so that threads run SMs side by side.
# Usage: sh tests/cli_sim_threads.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config
V=data/gpus/v100.config
QV=tests/configs/accelsim/SM7_QV100
FERMI=tests/configs/accelsim/SM2_GTX480

# same NAME ARGS...: the run at 1 thread, then at 2, 4 and 8, compared byte
# for byte (stdout, --csv, --per-sm-csv, and --idle-csv when asked)
same() {
    name=$1
    shift
    for n in 1 2 4 8; do
        mkdir -p "$D/$n"
        # a --workload run has no per-SM CSV
        sm=""
        case "$*" in *--workload*) ;; *) sm="--per-sm-csv $D/$n/sm.csv" ;; esac
        if ! "$T" sim "$@" --sim-threads $n --csv "$D/$n/k.csv" $sm >"$D/$n/out" 2>"$D/$n/err"; then
            fail "$name, $n threads: exit status: $(cat "$D/$n/err")"
            continue
        fi
        [ -s "$D/$n/k.csv" ] || fail "$name, $n threads: no CSV"
        [ $n = 1 ] && continue
        for f in out k.csv sm.csv idle.csv; do
            [ -e "$D/1/$f" ] || continue
            cmp -s "$D/1/$f" "$D/$n/$f" || fail "$name: $f at $n threads differs from 1 thread"
        done
    done
    rm -rf "$D/1" "$D/2" "$D/4" "$D/8"
}

same "jacobi gtx480" --gpu $G jacobi nx=256 ny=128 iters=2
same "fma gtx480" --gpu $G fma iters=16
same "copy gtx480" --gpu $G copy n=262144
same "gbarrier gtx480" --gpu $G gbarrier tiles=60 stages=2
same "matmul_tiled gtx480" --gpu $G matmul_tiled n=64
same "jacobi v100" --gpu $V jacobi nx=256 ny=256 iters=1
same "fma v100" --gpu $V fma iters=8
same "syrk qv100 folder" --gpu $QV syrk n=64
same "jacobi h100 preset" --gpu data/gpus/h100 jacobi nx=256 ny=256 iters=1
same "fma h100 preset" --gpu data/gpus/h100 fma iters=4
same "jacobi fermi folder (.icnt file)" --gpu $FERMI jacobi nx=128 ny=128 iters=1
# the idle CSV is written by the same run: the shards' histograms summed
mkdir -p "$D/1"
for n in 1 2 4 8; do
    mkdir -p "$D/$n"
    "$T" sim --gpu $V jacobi nx=256 ny=128 iters=2 --power v100 --sleep-l1d snooze \
        --sleep-rf drowsy --sleep-l2 snooze:line --idle-csv "$D/$n/idle.csv" --sim-threads $n \
        --csv "$D/$n/k.csv" --per-sm-csv "$D/$n/sm.csv" >"$D/$n/out" 2>"$D/$n/err" \
        || fail "power, $n threads: $(cat "$D/$n/err")"
    [ $n = 1 ] && continue
    for f in out k.csv sm.csv idle.csv; do
        cmp -s "$D/1/$f" "$D/$n/$f" || fail "power and sleep v100: $f at $n threads differs"
    done
done
rm -rf "$D/1" "$D/2" "$D/4" "$D/8"

# traces: the shipped one and an exported stencil (their blocks read
# through the line memo that the SMs' threads share: tests/test_sim_threads.c
# reads every block as text)
same "vecadd trace" --gpu $G --trace data/traces/vecadd
"$T" trace export --gpu $G jacobi nx=128 ny=96 bx=16 by=8 iters=2 --out "$D/jt" >/dev/null \
    || fail "trace export"
same "jacobi trace" --gpu $G --trace "$D/jt"

# the ideal memory runs on one thread (its functional words are shared):
# the same bytes whatever the count
same "ideal memory" --gpu $G jacobi nx=128 ny=64 iters=1 --ideal-memory 100

for bad in 0 65 two -1; do
    MAX_ERR_LINES=2 expect_failure "--sim-threads $bad" "--sim-threads $bad: expected a whole number from 1 to 64" \
        "$D/x.csv" "$T" sim --gpu $G fma --sim-threads $bad --csv "$D/x.csv"
done

# a ghost-zone workload run (sim --workload) takes the option too
same "hotspot workload, fence" --gpu $G --workload hotspot --size 64x64 --iterations 2 --sync fence
expect_failure "workload --sim-threads 0" "--sim-threads 0: expected a whole number from 1 to 64" \
    "$D/x.csv" "$T" sim --gpu $G --workload hotspot --sim-threads 0 --csv "$D/x.csv"

finish cli_sim_threads
