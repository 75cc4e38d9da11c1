#!/bin/sh
# sim-golden.sh - the simulator's every output on a fixed set of runs, as one
# md5 line per run, so that a change meant to make the simulator faster can be
# shown to leave every byte as it was: run it before the change and after, and
# diff the two outputs.
#
# A run's line hashes its stdout (and its stderr when it fails), --csv,
# --per-sm-csv (built-in kernels), --json and, where the power model is on,
# --idle-csv. The runs: built-in kernels (memory-bound, compute-bound,
# barrier/atomic, shared-memory) on the gtx480 and v100 presets and the a100,
# h100 and rtx3070 folders, the power model with sleep policies on each, both
# crossbars, workloads, and the Accel-Sim reference traces of
# scripts/compare-accelsim.sh (generated into build/fidelity by that script;
# those not there are left out, and said so on stderr) on the GPUs that script
# runs them on.
#
# Usage: sh scripts/sim-golden.sh [build/trapeze] >after.md5
#        diff before.md5 after.md5
set -u
cd "$(dirname "$0")/.."
T=${1:-build/trapeze}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# huge pages as `make bench` runs (the bytes do not depend on it)
GLIBC_TUNABLES=glibc.malloc.hugetlb=1
export GLIBC_TUNABLES

# run NAME ARGS...: one md5 line for the run's outputs
run() {
    name=$1
    shift
    rm -f "$D"/*
    sm=""
    case "$*" in *--workload*|*--trace*) ;; *) sm="--per-sm-csv $D/sm.csv" ;; esac
    idle=""
    case "$*" in *--power*) idle="--idle-csv $D/idle.csv" ;; esac
    # shellcheck disable=SC2086 # $sm and $idle are option pairs or nothing
    "$T" sim "$@" --csv "$D/k.csv" --json "$D/k.json" $sm $idle >"$D/out" 2>"$D/err" \
        || { echo "exit $?: $(cat "$D/err")" >>"$D/out"; echo "sim-golden.sh: $name: $(tail -1 "$D/err")" >&2; }
    # stderr is left out: a slow run (a busy machine) adds progress lines
    rm -f "$D/err"
    printf '%s  %s\n' "$(cat "$D"/* | md5sum | cut -d' ' -f1)" "$name"
}

G=data/gpus/gtx480.config
V=data/gpus/v100.config
for gpu in $G $V data/gpus/a100 data/gpus/h100 data/gpus/rtx3070; do
    n=$(basename "$gpu" .config)
    run "$n jacobi 512" --gpu "$gpu" jacobi nx=512 ny=512
    run "$n jacobi 256 iters=2" --gpu "$gpu" jacobi nx=256 ny=256 iters=2
    run "$n fma" --gpu "$gpu" fma iters=16
    run "$n copy" --gpu "$gpu" copy n=262144
    run "$n gbarrier" --gpu "$gpu" gbarrier tiles=60 stages=2
    run "$n matmul_tiled" --gpu "$gpu" matmul_tiled n=64
    run "$n strided 8" --gpu "$gpu" strided n=131072 stride=8
    run "$n power" --gpu "$gpu" jacobi nx=256 ny=256 --power "data/power/$n.ini"
    run "$n power sleep" --gpu "$gpu" jacobi nx=256 ny=128 iters=2 --power "data/power/$n.ini" \
        --sleep-l1d snooze --sleep-rf drowsy --sleep-l2 snooze:line
done
run "gtx480 flit crossbar" --gpu $G,data/fidelity/gtx480.icnt.config jacobi nx=256 ny=256
run "gtx480 workload hotspot" --gpu $G --workload hotspot --h 2 --iterations 4 --size 256x256
run "v100 workload fence" --gpu $V --workload poisson --h 2 --sync fence --iterations 4 --size 256x256
run "qv100 folder syrk" --gpu tests/configs/accelsim/SM7_QV100 syrk n=64
run "vecadd trace" --gpu $G --trace data/traces/vecadd

# the reference traces on the configs scripts/fidelity/compare.py runs them on
RUN=data/fidelity/reference-run.config
Q=data/fidelity/gpgpusim4-quirks.config
F=build/fidelity
for t in "$F"/*/kernelslist.g; do
    [ -e "$t" ] || { echo "sim-golden.sh: no traces in $F (run scripts/compare-accelsim.sh)" >&2; break; }
    n=$(basename "$(dirname "$t")")
    run "$n gtx480" --gpu data/fidelity/SM2_GTX480.gpgpusim.config,data/fidelity/gtx480.trace.config,data/fidelity/gtx480.icnt.config,$RUN,$Q --trace "$t"
    run "$n qv100" --gpu data/fidelity/SM7_QV100.gpgpusim.config,data/fidelity/SM7_QV100.trace.config,$RUN,$Q --trace "$t"
    case $n in
    jacobi_512|jacobi_512_nx|strided_s1|matmul_128|reduce_*|atomics_*|branchy_*|gather_*)
        run "$n rtx3070" --gpu data/gpus/rtx3070,$RUN,$Q --trace "$t" ;;
    esac
    case $n in
    jacobi_512|reduce_*|atomics_*|branchy_*|gather_*)
        run "$n h100" --gpu tests/configs/accelsim/SM90_H100,$RUN,data/fidelity/h100-run.config,$Q --trace "$t" ;;
    esac
done
