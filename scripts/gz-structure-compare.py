#!/usr/bin/env python3
"""A ghost-zone model structure against the shipped calibrations, on every
validation table, without simulating.

Refits each GPU's calibration with `trapeze calibrate --structure STRUCTURE`
on a copy of its shipped samples log, then reads back, for the shipped
calibration and the refit alike, the reference sweep (data/validation/G-sweep.csv:
MAPE and pick ratio per workload and sync mode) and the size tables
(data/validation/G-sizes-SET-sweep.csv with --logged-only, at the shipped table's
factors: MAPE and the
model-alone pick ratio per workload and size). Prints one row per table entry
(all, or with --changed only those whose MAPE moves by 0.3 points or whose
pick changes), the fit's CV and extrapolation errors, and per GPU the count
of entries at pick ratio >= 0.97 and >= 0.99. An entry whose new pick the
sweep log lacks is marked "not logged" (it would need a simulation:
`trapeze validate` without --logged-only). With --extra FILE, the rows of
FILE (samples-log rows of kind measured, any GPU's, or the rows `trapeze
calibrate --identify` adds to a copy of the log) join each GPU's refit:
what samples the plan lacks would do, before the plan makes them. Nothing
under data/ is written.

Usage: python3 scripts/gz-structure-compare.py [--changed] [--extra FILE] TRAPEZE STRUCTURE [GPU ...]
  e.g. python3 scripts/gz-structure-compare.py --changed build/trapeze at-size,partial_round gtx480 v100 gtx280
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIZE_SETS = {"main": ["hotspot", "poisson"], "unseen": ["box9", "star7", "multi1d"],
             "others": ["pathfinder", "cell"]}


def run(cmd, out=None):
    """Runs cmd; returns (status, stdout+stderr)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def reference(trapeze, gpu, calib, tmp):
    """{(workload, sync): (mape, pick, best, ratio)} of the reference sweep."""
    samples, sweep, table = (os.path.join(tmp, n) for n in ("s.csv", "sw.csv", "ref.csv"))
    shutil.copy(f"data/calibrations/{gpu}-samples.csv", samples)
    shutil.copy(f"data/validation/{gpu}-sweep.csv", sweep)
    rc, out = run([trapeze, "validate", "--gpu", gpu, "--calibration", calib, "--samples", samples,
                   "--sweep-log", sweep, "--csv", table])
    if rc:
        sys.exit(f"validate {gpu} (reference) failed: {out.strip()}")
    return {(r["workload"], r["sync"]): (float(r["mape_pct"]), r["h_model"], r["h_sim_best"],
                                         float(r["pick_ratio"]))
            for r in csv.DictReader(open(table))}


def shipped_factors(gpu, group):
    """The area factors of the shipped size table (the A100's and H100's
    sweeps stop at 16x): 1,16,100 when there is none."""
    table = f"data/validation/{gpu}-sizes-{group}.csv"
    if not os.path.exists(table):
        return "1,16,100"
    seen = []
    for r in csv.DictReader(open(table)):
        if r["area_factor"] not in seen:
            seen.append(r["area_factor"])
    return ",".join(seen) or "1,16,100"


def sizes(trapeze, gpu, calib, tmp):
    """{(workload, 'Nx'): (mape, pick, best, ratio) or None when not logged}."""
    rows = {}
    for group, workloads in SIZE_SETS.items():
        log = f"data/validation/{gpu}-sizes-{group}-sweep.csv"
        if not os.path.exists(log):
            continue
        factors = shipped_factors(gpu, group)
        for w in workloads:
            sweep, table = os.path.join(tmp, "sz.csv"), os.path.join(tmp, "sz-out.csv")
            shutil.copy(log, sweep)
            if os.path.exists(table):
                os.remove(table)
            rc, _ = run([trapeze, "validate", "--gpu", gpu, "--calibration", calib, "--sweep-stages", "1",
                         "--sizes", factors, "--sweep-log", sweep, "--logged-only", "--csv", table, w])
            if rc or not os.path.exists(table):
                rows[(w, "*")] = None  # the model's pick is not in the log
                continue
            for r in csv.DictReader(open(table)):
                rows[(r["workload"], r["area_factor"] + "x")] = (
                    float(r["mape_pct"]), f'{r["sync_model"]} {r["h_model"]}',
                    f'{r["sync_sim_best"]} {r["h_sim_best"]}', float(r["pick_ratio"]))
    return rows


def extra_rows(path, gpu):
    """The lines of path (a samples log, header first) whose gpu column is gpu."""
    lines = open(path).read().splitlines()
    if not lines or not lines[0].startswith("sample_id,"):
        sys.exit(f"{path}: expected a samples log's header")
    col = lines[0].split(",").index("gpu")
    return [l for l in lines[1:] if l and l.split(",")[col] == gpu]


def fit(trapeze, gpu, structure, tmp, extra=None):
    """Refits on a copy of the shipped samples (and extra's rows for gpu);
    returns (calibration path, summary)."""
    samples, calib = os.path.join(tmp, "fit-s.csv"), os.path.join(tmp, f"{gpu}.ini")
    shutil.copy(f"data/calibrations/{gpu}-samples.csv", samples)
    if extra:
        rows = extra_rows(extra, gpu)
        with open(samples, "a") as f:
            f.write("".join(r + "\n" for r in rows))
    rc, out = run([trapeze, "calibrate", "--gpu", gpu, "--samples", samples, "--structure", structure,
                   "--out", calib])
    if rc:
        sys.exit(f"calibrate {gpu} --structure {structure} failed: {out.strip()}")
    cv = re.search(r"CV MAPE ([0-9.]+)%", out)
    ex = re.search(r"^extrapolation:.*MAPE ([0-9.]+)%", out, re.M)
    return calib, f"CV {cv.group(1) if cv else '?'}%, extrapolation {ex.group(1) if ex else '?'}%"


def fmt(e):
    return "not logged" if e is None else f"{e[0]:.2f}% {e[1]} ({e[3]:.3f})"


def main():
    args = sys.argv[1:]
    changed = "--changed" in args
    args = [a for a in args if a != "--changed"]
    extra = None
    if "--extra" in args:
        i = args.index("--extra")
        if i + 1 >= len(args):
            sys.exit("--extra needs a file")
        extra = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    trapeze, structure, gpus = args[0], args[1], args[2:] or ["gtx480", "v100", "gtx280"]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"| GPU | table | workload | shipped: MAPE pick (ratio) | {structure}: MAPE pick (ratio) | best |")
        print("|---|---|---|---|---|---|")
        counts = []
        for g in gpus:
            shipped = f"data/calibrations/{g}.ini"
            calib, summary = fit(trapeze, g, structure, tmp, extra)
            base_cv = re.search(r"CV MAPE ([0-9.]+)%", open(shipped).read())
            a = {("ref",) + k: v for k, v in reference(trapeze, g, shipped, tmp).items()}
            b = {("ref",) + k: v for k, v in reference(trapeze, g, calib, tmp).items()}
            a.update({("size",) + k: v for k, v in sizes(trapeze, g, shipped, tmp).items()})
            b.update({("size",) + k: v for k, v in sizes(trapeze, g, calib, tmp).items()})
            for k in a:
                if k[-1] == "*":
                    continue
                x, y = a[k], b.get(k)
                moved = x is None or y is None or x[1] != y[1] or abs(x[0] - y[0]) >= 0.3
                if changed and not moved:
                    continue
                table = k[2] if k[0] == "size" else f"reference {k[2]}"
                print(f"| {g} | {table} | {k[1]} | {fmt(x)} | {fmt(y)} | {x[2] if x else '-'} |")
            def tally(d):
                r = [v[3] for v in d.values() if v]
                return f"{sum(x >= 0.97 for x in r)}/{len(r)} at >= 0.97, {sum(x >= 0.99 for x in r)} at >= 0.99"
            counts.append(f"{g}: shipped {tally(a)} (CV {base_cv.group(1) if base_cv else '?'}%); "
                          f"{structure}: {tally(b)} ({summary})")
        print()
        for c in counts:
            print(c)


if __name__ == "__main__":
    main()
