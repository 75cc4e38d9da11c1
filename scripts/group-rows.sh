#!/bin/sh
# The DRAM rows' cost fitted on more than the 12 validated launches
# (docs/grouping.md, "The DRAM rows a grouping scatters"): calibrate --model
# group --dram-rows on the 12 and the micro-benchmarks of
# data/validation/group-row-launches.txt (their sub-grids under the same 5%
# budget, and their six whole runs), then the held-out launches decided with
# that calibration and --dram-rows (scripts/group-heldout.sh), then their
# summary; and the 12 with the micro-benchmarks validated with --dram-rows,
# each launch's cost and u held out over the other 13 (validate.txt). Writes under build/rows-GPU/ (the shipped logs copied there
# first, so only what they lack is simulated; a rerun resumes).
# Usage: sh scripts/group-rows.sh GPU [THREADS]   (GPU: gtx480, v100)
set -eu
G=${1:?usage: group-rows.sh GPU [THREADS]}
J=${2:-1}
T=${TRAPEZE:-build/trapeze}
D=build/rows-$G
H=build/heldout-dramrows
mkdir -p "$D" "$H"
[ -f "$D/samples.csv" ] || cp "data/validation/group-$G-samples.csv" "$D/samples.csv"
[ -f "$H/group-heldout-$G-samples.csv" ] ||
    cp "data/validation/group-heldout-$G-samples.csv" "$H/group-heldout-$G-samples.csv"
"$T" calibrate --model group --gpu "$G" --threads "$J" --samples "$D/samples.csv" --dram-rows \
    --extra data/validation/group-row-launches.txt --out "$D/$G-rows.ini" >"$D/calibrate.txt"
grep 'DRAM rows\|uncertainty of a gain' "$D/calibrate.txt"
"$T" validate --model group --gpu "$G" --threads "$J" --samples "$D/samples.csv" --dram-rows \
    --extra data/validation/group-row-launches.txt --csv "$D/validate.csv" >"$D/validate.txt"
GROUP_CALIBRATION=$D/$G-rows.ini sh scripts/group-heldout.sh "$G" "$J" --dram-rows \
    >"$D/heldout.txt"
python3 scripts/group-heldout-summary.py data/validation/group-heldout-launches.txt \
    "$H/group-heldout-$G.csv" "$H/group-heldout-$G-samples.csv"
