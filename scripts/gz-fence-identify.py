#!/usr/bin/env python3
"""Which calibration samples identify the ghost-zone model's fence-mode
constants: the fit's Jacobian columns on the samples log, without simulating.

For every fence-mode stencil sample of a calibration's samples log
(data/calibrations/G-samples.csv by default), evaluates the calibrated model
at the sample's grid and h with `trapeze ghostzone --csv` and prints: h, the
busiest SM's tiles n = ceil(T / M), the simulated and modelled CPL and the
error, and for each parameter named the relative Jacobian column the fit
sees, d ln CPL / d theta (central differences on a copy of the calibration
file). A column that is 0 on every sample is a parameter no sample moves
(the fit holds it, standard error 0); one that is non-zero on many samples,
with a standard error small against the range the parameter would need, is
identified, whatever value the fit gives it. Last, per workload and mode,
the mean and RMS error of every sample: a mode or workload whose samples
the model misses in one direction is a structure the parameters cannot
absorb. With a log made by `trapeze calibrate --identify`, the fence
profiling pair's instructions: per workload, the fence kernel's warp
instructions a tile-loop (its h = 2 row less its h = 1 row, per tile and
stage; a fence row counts its 1 + stages and 1 stage runs) over the relaunch
profiling pair's, less 1: psi as the instructions measure it, beside the
fit's.

Usage: python3 scripts/gz-fence-identify.py TRAPEZE GPU CALIBRATION [--samples FILE]
         [--params a,b,...] [--sync fence|relaunch]
  e.g. python3 scripts/gz-fence-identify.py build/trapeze v100 data/calibrations/v100.ini
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_args  # noqa: E402

PARAMS = "fence_iter_fraction,fence_misc_fraction,overlap_fence,partial_round_fraction"


def args(argv):
    opts = {"--samples": None, "--params": PARAMS, "--sync": "fence"}
    pos = script_args.split(argv, opts)
    if len(pos) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    return pos, opts


def n_sm(gpu):
    """M: clusters x cores per cluster of the GPU's config (a preset's .config,
    or a folder preset's gpgpusim.config: a100, h100)."""
    path = f"data/gpus/{gpu}.config"
    text = open(path if os.path.exists(path) else f"data/gpus/{gpu}/gpgpusim.config").read()
    get = lambda k: int(re.search(rf"^-{k}\s+(\d+)", text, re.M).group(1))
    return get("gpgpu_n_clusters") * get("gpgpu_n_cores_per_cluster")


def calib_values(path):
    """{name: (value, stderr)} of the [ghostzone] section."""
    vals, section = {}, ""
    for line in open(path):
        line = line.split(";")[0].strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line and section == "ghostzone":
            k, v = (s.strip() for s in line.split("=", 1))
            vals[k] = v
    out = {}
    for k, v in vals.items():
        if not k.endswith("_stderr"):
            try:
                out[k] = (float(v), float(vals.get(k + "_stderr", "nan")))
            except ValueError:
                pass
    return out


def with_value(src, name, value, dst):
    """A copy of calibration src with [ghostzone] name = value."""
    lines, section, done = [], "", False
    for line in open(src):
        s = line.strip()
        if s.startswith("["):
            section = s.strip("[]")
        if section == "ghostzone" and s.split("=")[0].strip() == name:
            line, done = f"{name} = {value!r}\n", True
        lines.append(line)
    if not done:
        sys.exit(f"{src}: no [ghostzone] {name}")
    open(dst, "w").write("".join(lines))


def spec_at(workload, grid, tmp):
    src = f"data/workloads/{workload.lower()}.ini"
    if not os.path.exists(src):
        sys.exit(f"{src}: no such workload spec")
    lines = open(src).read().splitlines()
    dims = int(next(l.split("=")[1].split(";")[0] for l in lines if l.split("=")[0].strip() == "dimensions"))
    size = "x".join(str(n) for n in grid[:dims])
    out = [f"size = {size}" if l.split("=")[0].strip() == "size" else l for l in lines]
    path = os.path.join(tmp, f"{workload.lower()}.ini")
    open(path, "w").write("\n".join(out) + "\n")
    return path


def model_cpl(trapeze, gpu, calib, spec, sync, h, tmp, must=True):
    """(CPL, trapezoids) of the model at (sync, h); None when the calibration
    is refused and must is false (a perturbed value past its range)."""
    out = os.path.join(tmp, "gz.csv")
    p = subprocess.run([trapeze, "ghostzone", "--gpu", gpu, "--calibration", calib, "--sync", sync,
                        "--csv", out, spec], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        if not must:
            return None
        sys.exit(f"ghostzone failed: {p.stdout.strip()}")
    for r in csv.DictReader(open(out)):
        if int(r["h"]) == h:
            return float(r["cpl_cycles"]), float(r["trapezoids"])
    sys.exit(f"ghostzone: no row at h = {h}")


def spec_shape(workload):
    """(dims, block edges, halo per h) of a shipped workload spec."""
    keys = {}
    for line in open(f"data/workloads/{workload.lower()}.ini"):
        line = line.split(";")[0]
        if "=" in line:
            k, v = line.split("=", 1)
            keys[k.strip()] = v.strip()
    dims = int(keys["dimensions"])
    edge = lambda v: [int(x) for x in v.split("x")] * (dims if "x" not in v else 1)
    return dims, edge(keys["block"]), edge(keys["halo"])


def per_tile(r, stage_runs):
    """Warp instructions a tile and stage of row r."""
    dims, blk, halo = spec_shape(r["workload"])
    tiles = 1
    for d in range(dims):
        tiles *= math.ceil(int(r[f"size_{d}"]) / (blk[d] - halo[d] * int(r["h"])))
    return float(r["warp_instructions"]) / tiles / stage_runs


def fence_pair(samples, psi):
    """The fence profiling pair's psi, per workload, from the instructions."""
    rows = {r["sample_id"]: r for r in csv.DictReader(open(samples))}
    found = False
    for sid, r in rows.items():
        if "/pair:fence:h1:" not in sid:
            continue
        h2 = rows.get(sid.replace(":h1:", ":h2:"))
        base = sid.split("/pair:")[0]
        p1, p2 = rows.get(base + "/profile:h1"), rows.get(base + "/profile:h2")
        if not (h2 and p1 and p2):
            continue
        if not found:
            print("\n# the fence profiling pair: warp instructions a tile-loop, fence / relaunch")
            found = True
        runs = int(r["stages"]) + 2  # the timed run's 1 + stages, then the warm-up run's 1
        fence = per_tile(h2, runs) - per_tile(r, runs)
        relaunch = per_tile(p2, 1) - per_tile(p1, 1)
        print(f"{r['workload']}: fence {fence:.1f}, relaunch {relaunch:.1f} a tile-loop: "
              f"psi {fence / relaunch - 1:+.3f} measured, {psi} fitted")


def main():
    (trapeze, gpu, calib), opts = args(sys.argv[1:])
    samples = opts["--samples"] or f"data/calibrations/{gpu}-samples.csv"
    names = [n for n in opts["--params"].split(",") if n]
    values, m = calib_values(calib), n_sm(gpu)
    for n in names:
        if n not in values:
            sys.exit(f"{calib}: no [ghostzone] {n}")
    rows = [r for r in csv.DictReader(open(samples)) if r["kind"] in ("sim", "measured")]
    errors, cols = {}, {n: [] for n in names}
    print(f"# {gpu}: {opts['--sync']}-mode samples of {samples}, d ln CPL / d parameter")
    print("sample h n cpl_sim cpl_model err% " + " ".join(names))
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            grid = tuple(int(r[f"size_{i}"]) for i in range(3))
            spec, h, sync = spec_at(r["workload"], grid, tmp), int(r["h"]), r["sync"]
            model, tiles = model_cpl(trapeze, gpu, calib, spec, sync, h, tmp)
            sim = float(r["cpl_cycles"])
            errors.setdefault((r["workload"], sync), []).append(100 * (model / sim - 1))
            if sync != opts["--sync"]:
                continue
            jac = []
            for n in names:
                v = values[n][0]
                step = 1e-4 * max(abs(v), 1e-2)
                side = {}
                for sgn in (1, -1):  # central differences, one-sided at a range's edge
                    path = os.path.join(tmp, "c.ini")
                    with_value(calib, n, v + sgn * step, path)
                    e = model_cpl(trapeze, gpu, path, spec, sync, h, tmp, must=False)
                    side[sgn] = e[0] if e else None
                hi, lo = side[1], side[-1]
                span = (2 if hi is not None and lo is not None else 1) * step
                hi, lo = (model if hi is None else hi), (model if lo is None else lo)
                jac.append((hi - lo) / span / model)
                cols[n].append(jac[-1])
            print(f"{r['sample_id']} {h} {math.ceil(tiles / m - 1e-9)} {sim:.1f} {model:.1f} "
                  f"{100 * (model / sim - 1):+.1f} " + " ".join(f"{j:.4f}" for j in jac))
    print(f"\n# the fit's report ({calib}: value, standard error)")
    for n in names:
        c = cols[n]
        moved = sum(abs(x) > 1e-9 for x in c)
        err = ("stderr 0 (held, or at a range's edge)" if math.isnan(values[n][1]) or values[n][1] == 0
               else f"+- {values[n][1]:.3g}")
        print(f"{n}: {values[n][0]:.4g} {err}; column non-zero on {moved} of {len(c)} "
              f"samples, largest |d ln CPL / d {n}| {max((abs(x) for x in c), default=0):.3f}")
    print("\n# per workload and mode: mean / RMS error of the model on its samples")
    for (w, s), e in sorted(errors.items()):
        rms = math.sqrt(sum(x * x for x in e) / len(e))
        print(f"{w} {s}: mean {sum(e) / len(e):+.2f}%, RMS {rms:.2f}%, {len(e)} samples")
    psi = values.get("fence_iter_fraction", (float("nan"),))[0]
    fence_pair(samples, f"{psi:.3f}")


if __name__ == "__main__":
    main()
