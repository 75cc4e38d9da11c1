#!/bin/sh
# The grouping model's held-out validation (docs/grouping.md): the launches of
# data/validation/group-heldout-launches.txt (built-in kernels at sizes, and
# generated traces, that no calibration was fitted to), decided beside the 12
# launches of the shipped validation, whose rows come from the shipped log (so
# each held-out launch's uncertainty is measured on the 12 and the others).
# Writes data/validation/group-heldout-GPU-samples.csv (started from the
# shipped log; a rerun resumes it) and group-heldout-GPU.csv.
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
[ -f "$LOG" ] || cp "$D/group-$G-samples.csv" "$LOG"
# shellcheck disable=SC2046
"$T" validate --model group --gpu "$G" --threads "$J" --samples "$LOG" --csv "$D/group-heldout-$G.csv" \
    matmul matmul_tiled syrk syr2k atax atax@1 bicg bicg@1 gesummv mvt mvt@1 jacobi,nx=512,ny=512 \
    $(grep -v '^#' "$D/group-heldout-launches.txt")
