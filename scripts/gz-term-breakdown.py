#!/usr/bin/env python3
"""The ghost-zone model's six per-loop terms against the simulator's runs,
without simulating: which term a miss comes from.

For each workload, reads its reference grid and the simulated runs from a
sweep log (data/validation/G-sweep.csv by default; a size sweep's log with
--size-log works too, one grid per workload), evaluates the calibrated model
at every logged (sync, h) with `trapeze ghostzone --csv` on the workload's
spec at that grid, and prints per run: the simulated CPL, the model's CPL and
its error, the six terms (GlbSync, LoadSten, Commit, IterMem, MiscComp,
IterComp, cycles per loop), and the simulator's warp instructions per loop
over the model's compute terms (the model's compute stepping where the
simulator's instructions do not shows as a step in the ratio). Then, per
workload and sync mode, how much each term moves from the first to the last
h shown against how much the simulated and modelled CPL move: a term that
rises where the simulated CPL falls is the one whose structure is wrong.
Last, each stage's cycles (CPL x h) fitted by least squares as a + b h, for
the simulator, the model and each term: a stage that costs the same per
loop whatever h has a >= 0; a term whose a is negative grows faster than h
(more tiles, more loads per loop as the tiles shrink). Where the busiest
SM's tiles n = ceil(T / M) take two values or more, the simulated stage is
also fitted as a + b h + c n, c with its standard error: a stage that steps
with each whole tile the busiest SM gains has c well above its error.

Usage: python3 scripts/gz-term-breakdown.py TRAPEZE GPU CALIBRATION WORKLOAD [WORKLOAD ...]
         [--log SWEEP.csv] [--hmin N] [--hmax N]
  e.g. python3 scripts/gz-term-breakdown.py build/trapeze gtx480 data/calibrations/gtx480.ini pathfinder
"""
import csv
import importlib.util
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_args  # noqa: E402

TERMS = ["glbsync", "loadsten", "commit", "itermem", "misccomp", "itercomp"]


def args(argv):
    opts = {"--log": None, "--hmin": "1", "--hmax": "100000"}
    pos = script_args.split(argv, opts)
    if len(pos) < 4:
        sys.exit(__doc__.split("\n\n")[-1])
    return pos[0], pos[1], pos[2], pos[3:], opts


def logged_runs(log, name):
    """{(sync, h): (cpl_sim, warp_instructions per loop)} and the grid of workload name."""
    runs, grid = {}, None
    for r in csv.DictReader(open(log)):
        if r["kind"] != "sim" or r["workload"].lower() != name.lower():
            continue
        g = tuple(int(r[f"size_{i}"]) for i in range(3))
        if grid is None:
            grid = g
        if g != grid:
            continue  # a size sweep's other grids
        h, stages = int(r["h"]), int(r["stages"])
        runs[(r["sync"], h)] = (float(r["cpl_cycles"]), float(r["warp_instructions"]) / (stages * h))
    return runs, grid


def spec_at(workload, grid, tmp):
    """The shipped spec with its grid replaced by the sweep's."""
    src = f"data/workloads/{workload}.ini"
    if not os.path.exists(src):
        sys.exit(f"{src}: no such workload spec")
    lines, dims = open(src).read().splitlines(), 1
    for line in lines:
        if line.split("=")[0].strip() == "dimensions":
            dims = int(line.split("=")[1].split(";")[0])
    size = "x".join(str(n) for n in grid[:dims])
    out = [f"size = {size}" if l.split("=")[0].strip() == "size" else l for l in lines]
    path = os.path.join(tmp, f"{workload}.ini")
    open(path, "w").write("\n".join(out) + "\n")
    return path


def stage_line(hs, ys):
    """(a, b) of the least-squares line ys = a + b hs."""
    n = len(hs)
    mh, my = sum(hs) / n, sum(ys) / n
    b = sum((h - mh) * (y - my) for h, y in zip(hs, ys)) / sum((h - mh) ** 2 for h in hs)
    return my - b * mh, b


def n_sm(gpu):
    """M, read as gz-fence-identify.py reads it."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gz-fence-identify.py")
    spec = importlib.util.spec_from_file_location("gz_fence_identify", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.n_sm(gpu)


def solve(a, b):
    """x of the square system a x = b, by Gauss-Jordan elimination with pivoting."""
    n = len(b)
    m = [list(row) + [v] for row, v in zip(a, b)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[r][n] / m[r][r] for r in range(n)]


def tile_step(hs, ns, ys):
    """(c, its standard error, rms residual) of ys = a + b hs + c ns by least squares."""
    xs = [(1.0, h, n) for h, n in zip(hs, ns)]
    xtx = [[sum(x[i] * x[j] for x in xs) for j in range(3)] for i in range(3)]
    coef = solve(xtx, [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(3)])
    res = [y - sum(c * v for c, v in zip(coef, x)) for x, y in zip(xs, ys)]
    s2 = sum(r * r for r in res) / (len(ys) - 3)
    var_c = solve(xtx, [0.0, 0.0, 1.0])[2]  # (X'X)^-1's last diagonal entry
    return coef[2], math.sqrt(s2 * var_c), math.sqrt(sum(r * r for r in res) / len(ys))


def model_rows(trapeze, gpu, calib, spec, tmp):
    out = os.path.join(tmp, "m.csv")
    p = subprocess.run([trapeze, "ghostzone", "--gpu", gpu, "--calibration", calib, "--spec-counts",
                        "--csv", out, spec], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        sys.exit(f"ghostzone failed: {p.stdout.strip()}")
    return {(r["sync"], int(r["h"])): r for r in csv.DictReader(open(out))}


def main():
    trapeze, gpu, calib, workloads, opts = args(sys.argv[1:])
    log = opts["--log"] or f"data/validation/{gpu}-sweep.csv"
    hmin, hmax = int(opts["--hmin"]), int(opts["--hmax"])
    sms = n_sm(gpu)
    with tempfile.TemporaryDirectory() as tmp:
        for w in workloads:
            runs, grid = logged_runs(log, w)
            if not runs:
                sys.exit(f"{log}: no run of {w}")
            model = model_rows(trapeze, gpu, calib, spec_at(w, grid, tmp), tmp)
            print(f"## {w} on {gpu}, grid {'x'.join(map(str, grid))} ({log})")
            print("sync h cpl_sim cpl_model err% " + " ".join(TERMS) + " insts/comp")
            for sync in ("relaunch", "fence"):
                pts = [(h, runs[(s, h)], model[(s, h)]) for (s, h) in sorted(runs)
                       if s == sync and (s, h) in model and hmin <= h <= hmax]
                for h, (sim, insts), m in pts:
                    cpl = float(m["cpl_cycles"])
                    terms = [float(m[t + "_cycles"]) for t in TERMS]
                    comp = terms[4] + terms[5]
                    print(f"{sync} {h} {sim:.0f} {cpl:.0f} {100 * (cpl - sim) / sim:+.1f} "
                          + " ".join(f"{t:.0f}" for t in terms)
                          + f" {insts / comp if comp > 0 else float('nan'):.2f}")
                if len(pts) < 2:
                    continue
                (h0, (sim0, _), m0), (h1, (sim1, _), m1) = pts[0], pts[-1]
                moves = ", ".join(f"{t} {float(m1[t + '_cycles']) - float(m0[t + '_cycles']):+.0f}" for t in TERMS)
                print(f"{w} {sync} h {h0} -> {h1}: simulated {sim1 - sim0:+.0f}, model "
                      f"{float(m1['cpl_cycles']) - float(m0['cpl_cycles']):+.0f} ({moves})")
                hs = [h for h, _, _ in pts]
                line = lambda ys: "%.0f / %.0f" % stage_line(hs, [y * h for y, h in zip(ys, hs)])
                terms = ", ".join(f"{t} {line([float(m[t + '_cycles']) for _, _, m in pts])}" for t in TERMS)
                print(f"{w} {sync} stage = a + b h, a / b: simulated {line([s for _, (s, _), _ in pts])}, "
                      f"model {line([float(m['cpl_cycles']) for _, _, m in pts])} ({terms})")
                ns = [math.ceil(float(m["trapezoids"]) / sms) for _, _, m in pts]
                if len(set(ns)) > 1 and len(pts) > 3:
                    c, se, rms = tile_step(hs, ns, [s * h for h, (s, _), _ in pts])
                    print(f"{w} {sync} simulated stage = a + b h + c n (n = ceil(T / {sms}), "
                          f"{min(ns)}-{max(ns)}): c = {c:.0f} +- {se:.0f} cycles a tile, rms residual {rms:.0f}")
            print()


if __name__ == "__main__":
    main()
