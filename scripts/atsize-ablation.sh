#!/bin/sh
# The at-size structure, one switch at a time: each variant is fitted to the
# same spanning samples and judged on the extrapolation hold-out, the
# reference sweep and the size sweep (no simulation: the logs hold every run;
# a variant whose pick falls outside them is stopped and marked "-").
# Usage: [STRUCTURES="a b ..."] scripts/atsize-ablation.sh TRAPEZE GPU SAMPLES REF_SWEEP SIZE_SWEEP SIZES WORKLOAD...
T=$1 G=$2 S=$3 REF=$4 SZ=$5 SIZES=$6
shift 6
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
printf '| structure | fitted | CV MAPE | extrapolation MAPE | reference MAPE |'
for w in "$@"; do for f in $(echo "$SIZES" | tr , ' '); do printf ' %s %sx |' "$w" "$f"; done; done
printf '\n'
# STRUCTURES (environment) replaces the variants compared
: "${STRUCTURES:=meng occupancy,waves,persistent_fence,fence_overlap,fence_staging \
waves,persistent_fence,fence_overlap,fence_staging occupancy,persistent_fence,fence_overlap,fence_staging \
occupancy,waves,fence_overlap,fence_staging occupancy,waves,persistent_fence,fence_staging \
occupancy,waves,persistent_fence,fence_overlap occupancy,fence_overlap,fence_staging \
occupancy,fence_overlap,fence_staging,fence_iter occupancy,fence_overlap,fence_staging,row_penalty at-size}"
for st in $STRUCTURES; do
    cp "$S" "$D/s.csv"; cp "$REF" "$D/ref.csv"; cp "$SZ" "$D/sz.csv"
    "$T" calibrate --gpu "$G" --samples "$D/s.csv" --out "$D/c.ini" --structure "$st" >"$D/cal" 2>&1 || { echo "| $st | fit failed |"; continue; }
    fitted=$(sed -n 's/.* \([0-9]*\) parameters fitted.*/\1/p' "$D/cal")
    cv=$(sed -n 's/.*CV MAPE \([0-9.]*\)%.*/\1/p' "$D/cal")
    ex=$(sed -n 's/^extrapolation:.*MAPE \([0-9.]*\)%.*/\1/p' "$D/cal")
    timeout 60 "$T" validate --gpu "$G" --calibration "$D/c.ini" --samples "$D/s.csv" \
        --sweep-log "$D/ref.csv" --curve "$D/rc.csv" pathfinder hotspot poisson cell >/dev/null 2>&1
    ref=$(awk -F, 'NR > 1 { s += ($5 > $4 ? $5 - $4 : $4 - $5) / $4; n++ } END { if (n) printf "%.2f%%", 100 * s / n; else printf "-" }' "$D/rc.csv" 2>/dev/null)
    printf '| %s | %s | %s%% | %s%% | %s |' "$st" "$fitted" "$cv" "$ex" "$ref"
    for w in "$@"; do
        timeout 60 "$T" validate --gpu "$G" --calibration "$D/c.ini" --sweep-stages 1 --sizes "$SIZES" \
            --sweep-log "$D/sz.csv" --csv "$D/v.csv" "$w" >/dev/null 2>&1 || { for f in $(echo "$SIZES" | tr , ' '); do printf ' - |'; done; continue; }
        awk -F, 'NR > 1 { printf " %.2f%% (%.3f) |", $7, $15 }' "$D/v.csv"
    done
    printf '\n'
done
