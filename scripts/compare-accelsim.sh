#!/bin/sh
# Runs the Accel-Sim reference traces through Trapeze's simulator and prints,
# per trace and GPU, the cycle error and the counter ratios (Trapeze / Accel-Sim),
# then the mean and worst |cycle error| per GPU, on Accel-Sim's shipped configs
# (data/fidelity/*.gpgpusim.config; --trapeze-configs: data/gpus). Traces are generated
# into build/fidelity/ the first time (a few seconds each). See docs/fidelity.md.
#   scripts/compare-accelsim.sh [--only jacobi_512,strided_s1] [--csv OUT] [--trapeze-configs]
set -e
cd "$(dirname "$0")/.."
[ -x build/trapeze ] || make -j2 >/dev/null
exec python3 scripts/fidelity/compare.py "$@"
