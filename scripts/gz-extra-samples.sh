#!/bin/sh
# Stencil samples the calibration plan does not make, as samples-log rows of
# kind measured: for each sync mode and height, two `trapeze sim` runs of the
# workload at the given grid, 1 + 2 stages and 1 stage, and the samples'
# timing by difference (cycles(3 stages) - cycles(1 stage) over 2 h: the first
# stage runs the same cycles in both, so this is the plan's "end of the first
# kernel to the end of the last" and its fence warm-up removal alike, to the
# cycle: a plan's sample reruns to its own row), and the warp instructions
# the plan counts as its cost (relaunch: one run of 3 stages, its kernel ends
# timed; fence: both runs). The rows go to stdout,
# header first; scripts/gz-structure-compare.py --extra
# refits with them, scripts/gz-fence-identify.py --samples shows what they
# identify. Simulates; writes nothing else.
#
# Usage: sh scripts/gz-extra-samples.sh TRAPEZE GPU WORKLOAD GRID H [H ...]
#   e.g. sh scripts/gz-extra-samples.sh build/trapeze gtx480 pathfinder 25146 30 40
set -eu
[ $# -ge 5 ] || { grep -A1 '^# Usage:' "$0" | sed 's/^# //' >&2; exit 2; }
T=$1 G=$2 W=$3 N=$4
shift 4
CONFIG=data/gpus/$G.config SPEC=data/workloads/$W.ini
[ -f "$CONFIG" ] || { echo "$CONFIG: no such GPU config" >&2; exit 1; }
[ -f "$SPEC" ] || { echo "$SPEC: no such workload spec" >&2; exit 1; }
NAME=$(sed -n 's/^name *= *\([^ ;]*\).*/\1/p' "$SPEC" | head -n 1)
BLK=$(sed -n 's/^block *= *\([0-9]*\).*/\1/p' "$SPEC" | head -n 1)
DIMS=$(echo "$N" | awk -Fx '{ print $1 "," ($2 ? $2 : 1) "," ($3 ? $3 : 1) }')

# run H SYNC ITERATIONS: the run's cycles and warp instructions (every kernel's), "C W"
run() {
    "$T" sim --gpu "$CONFIG" --workload "$SPEC" --size "$N" --h "$1" --sync "$2" --iterations "$3" 2>&1 |
        awk '/^run cycles per loop:/ { c = $0; sub(/.*\(/, "", c); sub(/ cycles.*/, "", c) }
             / warp instructions,/ { for (i = 1; i < NF; i++) if ($(i + 1) == "warp") w += $i }
             END { if (c == "") exit 1; print c, w + 0 }'
}

echo "sample_id,kind,workload,gpu,sync,h,blk_len,size_0,size_1,size_2,stages,cycles,cpl_cycles,warp_instructions,bank_conflicts"
HEIGHTS=$*
for S in relaunch fence; do
    for H in $HEIGHTS; do
        ONE=$(run "$H" "$S" "$H") THREE=$(run "$H" "$S" $((3 * H)))
        echo "$ONE $THREE" | awk -v id="extra/$G/$NAME/$S:h$H:$N:s2" -v w="$NAME" -v g="$G" -v s="$S" \
            -v h="$H" -v b="$BLK" -v d="$DIMS" \
            '{ printf "%s,measured,%s,%s,%s,%d,%d,%s,2,%d,%.17g,%d,0\n", id, w, g, s, h, b, d, $3 - $1,
               ($3 - $1) / (2 * h), $4 + (s == "fence" ? $2 : 0) }'
    done
done
