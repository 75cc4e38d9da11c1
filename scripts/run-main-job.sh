#!/bin/sh
# `make run`: Trapeze's main job end to end on built-in defaults, in about a
# minute on two cores: a short calibration of the ghost-zone model against the
# simulator for the GTX 480 (6 samples per workload, one timed stage each, a
# small reference grid), then the predicted best height and sync mode of the
# four shipped benchmarks with that calibration, and the CSV of every height.
# The shipped, fuller calibration is data/calibrations/gtx480.ini
# (trapeze ghostzone --gpu gtx480 uses it); this run shows how one is made.
# Usage: scripts/run-main-job.sh [BUILD_DIR]
set -eu
B=${1:-build}
out="$B/run"
mkdir -p "$out"
rm -f "$out/samples.csv" "$out/gtx480.ini" "$out/ghostzone.csv"
echo "== 1. calibrating the model against the simulator (GTX 480, short samples)"
"$B/trapeze" calibrate --gpu gtx480 --threads 2 --budget 6 --stages 1 --sweep-budget 1e8 \
    --samples "$out/samples.csv" --out "$out/gtx480.ini"
echo
echo "== 2. the best ghost-zone height and sync mode with that calibration"
"$B/trapeze" ghostzone --gpu gtx480 --calibration "$out/gtx480.ini" --csv "$out/ghostzone.csv"
echo
echo "== written: $out/samples.csv (the samples), $out/gtx480.ini (the calibration),"
echo "   $out/ghostzone.csv (CPL of every height, both sync modes)"
