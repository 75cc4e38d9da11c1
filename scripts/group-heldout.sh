#!/bin/sh
# The grouping model's held-out validation (docs/grouping.md): the launches of
# data/validation/group-heldout-launches.txt (built-in kernels at sizes, and
# generated traces, that no calibration was fitted to), decided as a user's
# launch is: the uncertainty u of a gain and the DRAM contention are the GPU's
# shipped calibration's (data/calibrations/GPU-group.ini, --calibration),
# none fitted over the other held-out launches; the constants are each
# launch's own sub-grids'. Writes data/validation/group-heldout-GPU-samples.csv
# (a rerun resumes it) and group-heldout-GPU.csv; with OPTIONS (more
# options of validate, e.g. --gpu-window 50) the two files go under
# build/heldout-OPT/ instead (OPT the options' letters and digits), so that
# the shipped ones stay what the defaults make.
# GROUP_CALIBRATION=FILE replaces the shipped calibration (one made by
# calibrate --model group --l2-contention, for --l2-contention; or
# --l2-measured, for --l2-measured).
# Usage: sh scripts/group-heldout.sh GPU [THREADS [OPTIONS...]]   (GPU: gtx480, v100)
set -eu
G=${1:?usage: group-heldout.sh GPU [THREADS [OPTIONS...]]}
J=${2:-1}
shift $(($# < 2 ? $# : 2))
T=${TRAPEZE:-build/trapeze}
D=data/validation
if [ $# -gt 0 ]; then
    D=build/heldout-$(printf '%s' "$*" | tr -cd 'a-z0-9')
    mkdir -p "$D"
fi
TR=build/ht
mkdir -p "$TR"
[ -f "$TR/mm128/kernelslist.g" ] || python3 scripts/fidelity/gen_kernels.py matmul 128 "$TR/mm128"
[ -f "$TR/jac512/kernelslist.g" ] || python3 scripts/fidelity/gen_jacobi_trace.py 512 "$TR/jac512"
[ -f "$TR/str32/kernelslist.g" ] || python3 scripts/fidelity/gen_kernels.py strided 32 "$TR/str32" --n 65536
LOG=$D/group-heldout-$G-samples.csv
# shellcheck disable=SC2046
"$T" validate --model group --gpu "$G" --threads "$J" --samples "$LOG" --csv "$D/group-heldout-$G.csv" \
    --calibration "${GROUP_CALIBRATION:-data/calibrations/$G-group.ini}" "$@" \
    $(grep -v '^#' data/validation/group-heldout-launches.txt)
