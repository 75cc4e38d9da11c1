#!/bin/sh
# The uncertainty u of a gain corrected by whole-GPU windows, measured on
# launches that get windows (docs/grouping.md, "The windows' own launches"):
# calibrate --model group --gpu-window PCT over three built-in launches a GPU
# (none validated or held out; chosen before any was run) whose every
# candidate's window holds a full wave, then the held-out launches decided
# with --gpu-window PCT and that u (the shipped calibration with
# gpu_window_gain_uncertainty added; scripts/group-heldout.sh, whose files
# go under build/heldout-gpuwindowPCT/), then their summary. Writes under
# build/gwin-GPU/ (one samples log for every PCT: the whole runs are shared;
# a rerun resumes). Copy the shipped held-out log into
# build/heldout-gpuwindowPCT/ first, so that only the windows are simulated.
# Usage: sh scripts/group-window-u.sh GPU PCT [THREADS]   (GPU: gtx480, v100)
set -eu
G=${1:?usage: group-window-u.sh GPU PCT [THREADS]}
P=${2:?usage: group-window-u.sh GPU PCT [THREADS]}
J=${3:-1}
T=${TRAPEZE:-build/trapeze}
D=build/gwin-$G
mkdir -p "$D"
case $G in
gtx480) L="jacobi,nx=1024,ny=1024 filter,w=1024,h=1024 strided,stride=4,n=1048576" ;;
v100) L="jacobi,nx=2560,ny=2560 filter,w=2560,h=2560 strided,stride=4,n=6291456" ;;
*) echo "group-window-u.sh: no window launches for $G" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
"$T" calibrate --model group --gpu "$G" --threads "$J" --gpu-window "$P" --samples "$D/samples.csv" \
    --out "$D/$G-gw$P.ini" $L >"$D/calibrate-$P.txt"
grep 'whole-GPU windows\|uncertainty of a gain' "$D/calibrate-$P.txt"
u=$(awk -F' = ' '$1 == "gpu_window_gain_uncertainty" { print $2 }' "$D/$G-gw$P.ini")
[ -n "$u" ] || { echo "group-window-u.sh: no launch got windows at $P%" >&2; exit 1; }
{ cat "data/calibrations/$G-group.ini"; echo "gpu_window_gain_uncertainty = $u"; } >"$D/$G-group-gw$P.ini"
GROUP_CALIBRATION=$D/$G-group-gw$P.ini sh scripts/group-heldout.sh "$G" "$J" --gpu-window "$P" \
    >"$D/heldout-$P.txt"
grep 'chosen\|whole-GPU\|share of' "$D/heldout-$P.txt"
H=build/heldout-gpuwindow$P
python3 scripts/group-heldout-summary.py data/validation/group-heldout-launches.txt \
    "$H/group-heldout-$G.csv" "$H/group-heldout-$G-samples.csv"
