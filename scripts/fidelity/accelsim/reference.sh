#!/bin/bash
# reference.sh GPU TRACE... : Accel-Sim's rows of data/fidelity/accelsim-reference.csv for
# TRACEs (the reference's trace names) on GPU (gtx480, qv100, rtx3070, h100, a100), printed as
# CSV on stdout: each trace generated into build/fidelity/ as compare-accelsim.sh does,
# run by speed.sh (run.sh: the GPU's run folder and binary version), its counters read by
# counters.py. Accel-Sim's full output is kept in $ACCELSIM_DIR/logs/GPU/TRACE.log.
# A run that fails or does not finish prints no row and makes the exit status non-zero.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
LOGS=${ACCELSIM_DIR:-$ROOT/build/accelsim}/logs
gpu=$1; shift
mkdir -p "$LOGS/$gpu"
rc=0
for t in "$@"; do
    kl=$(python3 "$ROOT/scripts/fidelity/compare.py" --generate --only "$t" --gpus "" \
         --ref <(echo "trace,gpu"; echo "$t,$gpu")) || { rc=1; continue; }
    log=$LOGS/$gpu/$t.log
    if "$HERE/speed.sh" "$gpu" "$kl" > "$log" 2>&1; then
        python3 "$HERE/counters.py" "$t" "$gpu" "$log" || rc=1
    else
        echo "reference.sh: $t on $gpu: Accel-Sim exited $? (see $log)" >&2; rc=1
    fi
done
exit $rc
