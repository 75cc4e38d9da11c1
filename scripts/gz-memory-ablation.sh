#!/bin/sh
# The memory-term variants of the ghost-zone model on the size sweeps (no
# simulation: the logs hold every run). Each variant, "STRUCTURE" or
# "STRUCTURE/FIT" (FIT: the --fit list; parameters left out keep their
# start, e.g. sigma = 1), is fitted to the same samples and judged on the
# extrapolation hold-out and on every workload and size of the sweep logs.
# Cells: MAPE (model-alone pick ratio; "!" where the sync mode is wrong).
# Usage: VARIANTS="a b/c ..." scripts/gz-memory-ablation.sh TRAPEZE GPU SAMPLES SIZES SWEEP:WORKLOAD,... ...
T=$1 G=$2 S=$3 SIZES=$4
shift 4
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
: "${VARIANTS:=at-size}"
printf '| variant | fitted | CV MAPE | extrapolation MAPE |'
for set in "$@"; do
    for w in $(echo "${set#*:}" | tr , ' '); do
        for f in $(echo "$SIZES" | tr , ' '); do printf ' %s %sx |' "$w" "$f"; done
    done
done
printf '\n'
for v in $VARIANTS; do
    st=${v%%/*} fit=
    [ "$st" != "$v" ] && fit="--fit ${v#*/}"
    cp "$S" "$D/s.csv"
    # shellcheck disable=SC2086
    "$T" calibrate --gpu "$G" --samples "$D/s.csv" --out "$D/c.ini" --structure "$st" $fit >"$D/cal" 2>&1 ||
        { echo "| $v | fit failed |"; continue; }
    fitted=$(sed -n 's/.* \([0-9]*\) parameters fitted.*/\1/p' "$D/cal")
    cv=$(sed -n 's/.*CV MAPE \([0-9.]*\)%.*/\1/p' "$D/cal")
    ex=$(sed -n 's/^extrapolation:.*MAPE \([0-9.]*\)%.*/\1/p' "$D/cal")
    printf '| %s | %s | %s%% | %s%% |' "$v" "$fitted" "$cv" "$ex"
    for set in "$@"; do
        cp "${set%%:*}" "$D/sz.csv"
        for w in $(echo "${set#*:}" | tr , ' '); do
            timeout 60 "$T" validate --gpu "$G" --calibration "$D/c.ini" --sweep-stages 1 --sizes "$SIZES" \
                --sweep-log "$D/sz.csv" --csv "$D/v.csv" "$w" >/dev/null 2>&1 ||
                { for f in $(echo "$SIZES" | tr , ' '); do printf ' - |'; done; continue; }
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                     NR > 1 { printf " %.2f%% (%.3f%s) |", $c["mape_pct"], $c["pick_ratio"], $c["sync_right"] == 1 ? "" : "!" }' "$D/v.csv"
        done
    done
    printf '\n'
done
