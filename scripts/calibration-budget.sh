#!/bin/sh
# Error against sample budget: calibrates one GPU with several budgets (each
# with its own samples log, so a budget sees only its own samples) and
# validates each against the same sweep (reused from its sweep log, so only
# the samples are simulated). Writes OUT.csv: budget, then the columns of
# `trapeze validate --csv`, plus the calibration's cross-validated MAPE.
# Usage: scripts/calibration-budget.sh TRAPEZE GPU SWEEP_LOG OUT.csv [BUDGET ...]
set -eu
T=$1 GPU=$2 SWEEP=$3 OUT=$4
shift 4
[ $# -gt 0 ] || set -- 2 4 8 16
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
printf 'budget,cv_mape_pct,workload,sync,mape_pct,max_ape_pct,h_model,h_sim_best,pick_ratio,sample_warp_instructions,sweep_warp_instructions\n' >"$D/out.csv"
for b in "$@"; do
    "$T" calibrate --gpu "$GPU" --threads 2 --budget "$b" --samples "$D/s$b.csv" --out "$D/c$b.ini" >"$D/c$b.out"
    cv=$(sed -n 's/.*CV MAPE \([0-9.na]*\)%.*/\1/p' "$D/c$b.out")
    "$T" validate --gpu "$GPU" --threads 2 --budget "$b" --calibration "$D/c$b.ini" --samples "$D/s$b.csv" \
        --sweep-log "$SWEEP" --csv "$D/v$b.csv" >/dev/null
    tail -n +2 "$D/v$b.csv" | sed "s/^/$b,$cv,/" >>"$D/out.csv"
    echo "budget $b: CV MAPE $cv%" >&2
done
mv "$D/out.csv" "$OUT"
