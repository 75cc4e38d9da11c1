#!/bin/sh
# The grouping validation of docs/grouping.md: `trapeze group` on every seed
# kernel and a stencil, GTX 480 (or the config given), one CSV per kernel
# under OUT (default build/group-validation), then the summary table.
# Usage: sh scripts/group-validate.sh [GPU_CONFIG] [OUT]
set -eu
G=${1:-data/gpus/gtx480.config}
O=${2:-build/group-validation}
T=${TRAPEZE:-build/trapeze}
mkdir -p "$O"
for spec in "matmul" "matmul_tiled" "syrk" "syr2k" "atax" "atax --launch 1" "bicg" \
            "bicg --launch 1" "gesummv" "mvt" "mvt --launch 1" "jacobi nx=512 ny=512"; do
    name=$(echo "$spec" | tr ' =' '__')
    # shellcheck disable=SC2086
    "$T" group --gpu "$G" $spec --csv "$O/$name.csv" >"$O/$name.txt"
done
python3 scripts/group-summary.py "$O"/*.csv
