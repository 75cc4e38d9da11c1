#!/usr/bin/env python3
"""Whether `trapeze ghostzone` calls its sync-mode choice certain at each point of
the shipped size tables (data/validation/GPU-sizes-*.csv), against whether the
simulator agreed (the table's sync_right, the model alone). The sync margin is
the 'sync mode:' line's, or the headline's when the runner-up is the other mode;
'not certain' means within two standard deviations of the fit's covariance.
Usage: scripts/sync-certainty.py GPU [GPU ...]   (runs ghostzone once per point;
a stencil the calibration never saw is profiled first, seconds to a minute)"""
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

T = os.environ.get("TRAPEZE", "build/trapeze")


def flag(gpu, workload, row):
    src = open(f"data/workloads/{workload.lower()}.ini").read()
    dims = int(re.search(r"(?m)^dimensions = (\d)", src).group(1))
    size = "x".join(str(int(float(row[f"size_{d}"]))) for d in range(dims))
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, workload + ".ini")
        open(spec, "w").write(re.sub(r"(?m)^size = .*$", "size = " + size, src))
        out = subprocess.run([T, "ghostzone", "--gpu", gpu, spec], capture_output=True,
                             text=True, check=True).stdout
    sync = [l for l in out.splitlines() if " sync mode: " in l]
    line = sync[0] if sync else [l for l in out.splitlines() if " best: " in l][0]
    return "not certain" if "within the calibration's uncertainty" in line else "certain"


def main(gpus):
    print("gpu,workload,area_factor,sync_right,sync_choice")
    tally = {}
    for gpu in gpus:
        for path in sorted(glob.glob(f"data/validation/{gpu}-sizes-*.csv")):
            if path.endswith(("-points.csv", "-sweep.csv")):
                continue
            for row in csv.DictReader(open(path)):
                f = flag(gpu, row["workload"], row)
                key = (f, row["sync_right"])
                tally[key] = tally.get(key, 0) + 1
                print(f"{gpu},{row['workload']},{row['area_factor']},{row['sync_right']},{f}")
    for f in ("certain", "not certain"):
        print(f"# {f}: {tally.get((f, '1'), 0)} right, {tally.get((f, '0'), 0)} wrong",
              file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:] or ["gtx480", "v100"])
