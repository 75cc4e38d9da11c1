#!/usr/bin/env python3
"""What `trapeze ghostzone` predicts for the unseen stencils at the validated
grids, profiled on the GPU (the default) and with --spec-counts, against the
simulated CPL of data/validation/GPU-sizes-unseen-points.csv: MAPE per
workload and size. Usage: scripts/profile-vs-spec-counts.py [GPU ...]"""
import csv
import os
import re
import subprocess
import sys
import tempfile

T = os.environ.get("TRAPEZE", "build/trapeze")


def predictions(gpu, spec, extra, tmp):
    out = os.path.join(tmp, "gz.csv")
    subprocess.run([T, "ghostzone", "--gpu", gpu, "--csv", out, *extra, spec], check=True,
                   capture_output=True)
    return {(r["sync"], r["h"]): float(r["cpl_cycles"]) for r in csv.DictReader(open(out))}


def main(gpus):
    print("gpu,workload,area_factor,points,mape_profiled_pct,mape_spec_counts_pct")
    for gpu in gpus:
        base = f"data/validation/{gpu}-sizes-unseen"
        pts = list(csv.DictReader(open(base + "-points.csv")))
        for row in csv.DictReader(open(base + ".csv")):
            w, a = row["workload"], row["area_factor"]
            src = open(f"data/workloads/{w.lower()}.ini").read()
            dims = int(re.search(r"(?m)^dimensions = (\d)", src).group(1))
            size = "x".join(row[f"size_{d}"] for d in range(dims))
            with tempfile.TemporaryDirectory() as tmp:
                spec = os.path.join(tmp, w + ".ini")
                open(spec, "w").write(re.sub(r"(?m)^size = .*$", "size = " + size, src))
                got = [predictions(gpu, spec, [], tmp), predictions(gpu, spec, ["--spec-counts"], tmp)]
            mine = [p for p in pts if p["workload"] == w and p["area_factor"] == a]
            mape = [100 * sum(abs(g[(p["sync"], p["h"])] / float(p["cpl_sim"]) - 1) for p in mine)
                    / len(mine) for g in got]
            print(f"{gpu},{w},{a},{len(mine)},{mape[0]:.2f},{mape[1]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["gtx480", "v100"])
