#!/bin/sh
# validate-gz-energy.sh - energy per loop of a ghost-zone workload, predicted
# by `trapeze ghostzone --objective energy` and simulated (always on) at
# each (sync, h), so that the energy-optimal and time-optimal heights can be
# compared in model and simulation (docs/sleep.md, notebooks/sleep.ipynb).
#
# Usage: scripts/validate-gz-energy.sh GPU WORKLOAD SIZE ITERATIONS "H1 H2 ..." OUT_PREFIX
#   writes OUT_PREFIX-model.csv (ghostzone's CSV, every h) and
#   OUT_PREFIX-sim.csv: gpu,workload,size,sync,h,iterations,sim_cycles_per_loop,
#   sim_energy_j_per_loop,sim_seconds (the simulator's energy covers its
#   launches, not the launch latency between them).
# Example (the shipped data/validation/gz-energy-*.csv):
#   scripts/validate-gz-energy.sh gtx480 data/validation/gz-energy/tiny1d.ini 16384 64 \
#       "1 2 3 4 5 6 7 8 9 10 11 12 14 16 20 24 31" data/validation/gz-energy-tiny1d
set -eu
[ $# -eq 6 ] || { sed -n '2,16p' "$0"; exit 2; }
gpu=$1 spec=$2 size=$3 iters=$4 heights=$5 out=$6
T=${TRAPEZE:-build/trapeze}
case $spec in */*) ;; *) spec=data/workloads/$spec.ini ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the workload at SIZE: the model predicts for the grid the simulator runs
sed "s/^size *=.*/size = $size/" "$spec" >"$tmp/w.ini"
"$T" ghostzone --gpu "$gpu" --objective energy "$tmp/w.ini" --csv "$out-model.csv" >"$tmp/pick" 2>/dev/null
name=$(sed -n 's/^name *= *//p' "$tmp/w.ini" | head -1)
echo "gpu,workload,size,sync,h,iterations,sim_cycles_per_loop,sim_energy_j_per_loop,sim_seconds" >"$out-sim.csv.tmp"
for sync in relaunch fence; do
    for h in $heights; do
        "$T" sim --gpu "data/gpus/$gpu.config" --workload "$tmp/w.ini" --h "$h" --sync "$sync" \
            --iterations "$iters" --power "$gpu" >"$tmp/sim" 2>&1 || { echo "sim failed: $sync h=$h" >&2; cat "$tmp/sim" >&2; exit 1; }
        awk -v g="$gpu" -v w="$name" -v s="$size" -v y="$sync" -v h="$h" -v it="$iters" '
            /^run cycles per loop:/ { cpl = $5 }
            /^energy:/ { e = $2; sec = $5 }
            END { printf "%s,%s,%s,%s,%s,%s,%s,%.9g,%.9g\n", g, w, s, y, h, it, cpl, e / it, sec }' \
            "$tmp/sim" >>"$out-sim.csv.tmp"
    done
done
mv "$out-sim.csv.tmp" "$out-sim.csv"
cat "$tmp/pick" | grep -E "by |chosen"
