#!/bin/sh
# `trapeze sim --csv` rows combine across runs: each ends with the GPU's name
# (the config's, not its file's), the run that made it (built-in kernel and
# parameters, workload with h, sync, size and iterations, or trace) and the
# time in seconds, cycles / core clock (GTX 480: 700 MHz, hand-checked here).
# Usage: sh tests/cli_sim_csv.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config
"$T" sim --gpu $G vecadd n=8192 --csv "$D/k.csv" --quiet 2>/dev/null || fail "built-in run"
"$T" sim --gpu $G --workload hotspot --h 2 --sync fence --size 200x200 --iterations 4 \
    --csv "$D/w.csv" --quiet 2>/dev/null || fail "workload run"
"$T" sim --gpu $G --trace data/traces/vecadd/kernelslist.g --csv "$D/t.csv" --quiet 2>/dev/null || fail "trace run"
for f in k w t; do
    head -1 "$D/$f.csv" | grep -q ',gpu,run,time_s$' || fail "$f: header does not end with gpu,run,time_s"
done
check_row() { # FILE EXPECTED_RUN
    awk -F, -v run="$2" 'NR == 2 {
        t = $(NF); r = $(NF - 1); g = $(NF - 2); c = $2
        if (g != "gtx480") { print "gpu " g; exit 1 }
        if (r != run) { print "run " r; exit 1 }
        if (t < 0.999999 * c / 7e8 || t > 1.000001 * c / 7e8) { print "time_s " t " for " c " cycles"; exit 1 }
    }' "$1" || fail "$1: row does not end as expected ($2)"
}
check_row "$D/k.csv" "vecadd n=8192"
check_row "$D/w.csv" "HotSpot h=2 sync=fence size=200x200 iterations=4"
check_row "$D/t.csv" "trace data/traces/vecadd/kernelslist.g"
finish cli_sim_csv
