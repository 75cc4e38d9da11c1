#!/bin/sh
# scripts/fidelity/compare.py, the comparison with Accel-Sim, on one trace of
# the reference (tz_vecadd, exported by trapeze, on every GPU's shipped
# configs): the warp instruction count agrees with Accel-Sim's exactly, the
# cycle error is the one its two cycle columns give, and --accelsim runs its
# command on the trace's kernelslist.g, counts that command's CPU time (a
# stand-in that burns some) and divides; a failing command stops it with one
# message naming the trace and no CSV.
# Usage: sh tests/cli_compare.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
C="$(dirname "$0")/../scripts/fidelity/compare.py"
REF="$(dirname "$0")/../data/fidelity/accelsim-reference.csv"
# the stand-in for Accel-Sim: fails unless {trace} is a kernelslist.g, then
# burns 0.2 s of its own CPU time on any host (a fixed amount of work took
# 0.05 s on a fast one, under the check's floor)
BURN="python3 -c 'import sys, time; open(sys.argv[1]).close(); t = time.process_time(); all(time.process_time() - t < 0.2 for _ in iter(int, 1))' {trace}"
python3 "$C" --trapeze "$T" --work "$D/work" --only tz_vecadd --csv "$D/out.csv" \
    --accelsim "$BURN" >"$D/stdout" 2>"$D/stderr" || fail "compare: exit status: $(cat "$D/stderr")"
python3 - "$D/out.csv" <<'PY' || fail "compare: $(cat "$D/out.csv.check" 2>/dev/null)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
GPUS_WITH_ROWS = ["a100", "gtx480", "h100", "qv100", "rtx3070"]   # tz_vecadd's rows
bad = []
if sorted(r["gpu"] for r in rows) != GPUS_WITH_ROWS:
    bad.append("rows for %s, not %s" % ([r["gpu"] for r in rows], GPUS_WITH_ROWS))
for r in rows:
    ref, tz = float(r["ref_cycles"]), float(r["tz_cycles"])
    if abs(float(r["cycle_err_%"]) - 100 * (tz - ref) / ref) > 0.051:
        bad.append("%s cycle error %s" % (r["gpu"], r["cycle_err_%"]))
    if r["winst"] != "1.00":   # Accel-Sim counted 229376 warp instructions on each
        bad.append("%s warp instructions ratio %s" % (r["gpu"], r["winst"]))
    t, a = float(r["tz_cpu_s"]), float(r["as_cpu_s"])
    if not (t > 0 and a >= 0.2):
        bad.append("%s CPU seconds %s / %s" % (r["gpu"], t, a))
    if t > 0 and abs(float(r["speedup"]) - a / t) > 0.05 + 0.05 * a / t:
        bad.append("%s speedup %s for %s / %s" % (r["gpu"], r["speedup"], a, t))
open(sys.argv[1] + ".check", "w").write("; ".join(bad))
sys.exit(1 if bad else 0)
PY
grep -q "smallest speedup" "$D/stdout" || fail "compare: no speedup summary"
# a counter Accel-Sim counts as 0 where Trapeze counts some has no ratio: the
# row says so and the summary names the trace, the counter and Trapeze's
# count (tz_vecadd's reference row on the GTX 480, the cheapest of its five
# simulations, with its written bytes set to 0; Trapeze writes the output back)
{ head -1 "$REF"; grep '^tz_vecadd,gtx480,' "$REF" | awk -F, -v OFS=, '{$12 = 0; print}'; } >"$D/zero.csv"
python3 "$C" --trapeze "$T" --work "$D/work" --ref "$D/zero.csv" >"$D/zero.out" 2>"$D/stderr" ||
    fail "compare on a 0 reference count: $(cat "$D/stderr")"
grep -q '^| tz_vecadd | gtx480 | .* | 1.00 | - (Accel-Sim 0) |$' "$D/zero.out" ||
    fail "compare: the row of a 0 reference count: $(grep '^| tz_vecadd' "$D/zero.out")"
grep -q '| 1.00; tz_vecadd dram_wr_B: Accel-Sim 0, Trapeze [1-9][0-9]* |$' "$D/zero.out" ||
    fail "compare: the summary of a 0 reference count: $(grep '^| reference' "$D/zero.out")"
expect_failure "compare --accelsim false" "--accelsim on $D/work/tz_vecadd (gtx480) exited 1" \
    "$D/bad.csv" python3 "$C" --trapeze "$T" --work "$D/work" --only tz_vecadd \
    --csv "$D/bad.csv" --accelsim false
# --repeat 3: each simulator three times per trace, taking turns (a slow
# spell of the machine then meets one of Trapeze's short runs, not all three:
# a wrapper logs T for Trapeze, the stand-in A for Accel-Sim), the least CPU
# time kept; Trapeze started with malloc on huge pages set (no re-execution);
# --repeat 0 refused. Two GPUs' rows are enough for the order. The sanitizer build leaves this to the plain build:
# what it checks is compare.py's order of runs, the environment it gives
# Trapeze and its refusal of --repeat 0, and its six runs of Trapeze repeat two of
# the first check's runs exactly (60% of this group's CPU there, for
# nothing new to look at).
case "$T" in *build-san*)
    finish "cli_compare (--repeat: the plain build's check)"
    exit ;;
esac
COUNT="sh -c 'echo A >>$D/runs' {trace}"
TZ_ABS="$(cd "$(dirname "$T")" && pwd)/$(basename "$T")"
printf '#!/bin/sh\necho "T ${GLIBC_TUNABLES:-unset}" >>"%s"\nexec "%s" "$@"\n' "$D/runs" "$TZ_ABS" >"$D/tz"
chmod +x "$D/tz"
python3 "$C" --trapeze "$D/tz" --work "$D/work" --only tz_vecadd --gpus gtx480,qv100 \
    --csv "$D/rep.csv" --accelsim "$COUNT" --repeat 3 >/dev/null 2>"$D/stderr" || fail "compare --repeat: $(cat "$D/stderr")"
order=$(cut -c1 "$D/runs" | tr -d '\n')
[ "$order" = TATATATATATA ] || fail "compare --repeat 3: runs in the order $order, not taking turns for 2 traces"
grep -q '^T glibc.malloc.hugetlb=1$' "$D/runs" || fail "compare: Trapeze's GLIBC_TUNABLES: $(grep '^T' "$D/runs" | head -1)"
expect_failure "compare --repeat 0" "--repeat 0: expected at least 1" "$D/rep0.csv" \
    python3 "$C" --trapeze "$T" --work "$D/work" --only tz_vecadd --csv "$D/rep0.csv" \
    --accelsim "$COUNT" --repeat 0
finish cli_compare
