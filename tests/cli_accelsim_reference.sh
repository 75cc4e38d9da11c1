#!/bin/sh
# data/fidelity/accelsim-reference.csv, Accel-Sim's counters that the comparison
# (scripts/fidelity/compare.py) divides by: its columns, one row per trace and
# GPU, a GPU compare.py has a config for, whole non-negative counts, misses no
# more than accesses, and the warp instructions of a trace the same on every GPU
# (Accel-Sim counts them from the trace alone: a row pasted from the wrong run
# or trace differs). Runs no simulator.
# Usage: sh tests/cli_accelsim_reference.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
R="$(dirname "$0")/.."
python3 - "$R/data/fidelity/accelsim-reference.csv" "$R/scripts/fidelity" >"$D/out" 2>&1 <<'PY' \
    || fail "accelsim-reference.csv: $(cat "$D/out")"
import csv, sys
sys.path.insert(0, sys.argv[2])
from compare import GPUS
HEAD = ["trace", "gpu", "cycles", "winst", "l1a", "l1m", "l1p", "l1r", "l2a", "l2m",
        "dram_rd_B", "dram_wr_B"]
bad, seen, winst = [], set(), {}
with open(sys.argv[1], newline="") as f:
    rows = list(csv.reader(f))
if rows[0] != HEAD:
    bad.append("header %s" % rows[0])
for n, r in enumerate(rows[1:], start=2):
    where = "line %d (%s)" % (n, ",".join(r[:2]))
    if len(r) != len(HEAD):
        bad.append("%s: %d fields" % (where, len(r)))
        continue
    row = dict(zip(HEAD, r))
    if row["gpu"] not in GPUS:
        bad.append("%s: gpu not one of %s" % (where, ", ".join(GPUS)))
    if (row["trace"], row["gpu"]) in seen:
        bad.append("%s: a second row" % where)
    seen.add((row["trace"], row["gpu"]))
    if not all(row[c].isdigit() for c in HEAD[2:]):
        bad.append("%s: a count that is not a whole number" % where)
        continue
    v = {c: int(row[c]) for c in HEAD[2:]}
    if v["cycles"] == 0 or v["winst"] == 0:
        bad.append("%s: no cycles or no warp instructions" % where)
    if v["l1m"] > v["l1a"] or v["l2m"] > v["l2a"]:
        bad.append("%s: more misses than accesses" % where)
    first = winst.setdefault(row["trace"], (v["winst"], row["gpu"]))
    if first[0] != v["winst"]:
        bad.append("%s: %d warp instructions, %d on %s" % (where, v["winst"], *first))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
finish cli_accelsim_reference
