#!/bin/sh
# The grouping model's held-out validation (docs/grouping.md): the launches of
# data/validation/group-heldout-launches.txt (built-in kernels at sizes, and
# generated traces, that no calibration was fitted to), decided as a user's
# launch is: the uncertainty u of a gain and the DRAM contention are the GPU's
# shipped calibration's (data/calibrations/GPU-group.ini, --calibration),
# none fitted over the other held-out launches; the constants are each
# launch's own sub-grids'. Writes data/validation/group-heldout-GPU-samples.csv
# (a rerun resumes it) and group-heldout-GPU.csv.
# Usage: sh scripts/group-heldout.sh GPU [THREADS]     (GPU: gtx480, v100)
set -eu
G=${1:?usage: group-heldout.sh GPU [THREADS]}
J=${2:-1}
T=${TRAPEZE:-build/trapeze}
D=data/validation
TR=build/ht
mkdir -p "$TR"
[ -f "$TR/mm128/kernelslist.g" ] || python3 scripts/fidelity/gen_kernels.py matmul 128 "$TR/mm128"
[ -f "$TR/jac512/kernelslist.g" ] || python3 scripts/fidelity/gen_jacobi_trace.py 512 "$TR/jac512"
[ -f "$TR/str32/kernelslist.g" ] || python3 scripts/fidelity/gen_kernels.py strided 32 "$TR/str32" --n 65536
LOG=$D/group-heldout-$G-samples.csv
# shellcheck disable=SC2046
"$T" validate --model group --gpu "$G" --threads "$J" --samples "$LOG" --csv "$D/group-heldout-$G.csv" \
    --calibration "data/calibrations/$G-group.ini" $(grep -v '^#' "$D/group-heldout-launches.txt")
