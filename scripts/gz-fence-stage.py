#!/usr/bin/env python3
"""What one fence stage of a 1-D ghost-zone workload costs in the simulator,
split by how it scales, beside the calibrated model's terms at the same runs.

For each height H and three tile counts, simulates the persistent (fence)
kernel with one stage and with three (`trapeze sim --workload`, iterations H
and 3 H) and takes their difference over two: one stage in steady state, its
launch and first fill removed as the calibration's fence samples remove them.
The tile counts, at grids of whole tiles (T x (blk - halo H) points):
  lone       T = M: one tile an SM, M persistent blocks: the barrier of M
             blocks, a tile staged, looped and committed by a block alone;
  full       T = k M: one full round of the k resident blocks an SM, the
             barrier of k M blocks;
  reference  the workload's reference grid (data/validation/G-sweep.csv):
             the full round and the partial round its T - k M tiles make.
Per run it prints the stage's cycles, its warp instructions, atomics and
DRAM reads, and its scheduler slots per reason (memory, compute, fence,
barrier, idle), then the model's stage (CPL x H) and its six terms (GlbSync
is the barrier); per tile count, each stage fitted as a + b H by least
squares (a: what a stage costs whatever H, the barrier, the staging and the
commit; b: one iteration of the loop), for the simulator and each term.
The barrier alone is the `fencebar` micro-benchmark of the samples log
(persistent blocks doing nothing but barriers), printed for M and k M
blocks. With --past J1,J2,..., the partial round alone, in both modes: at
the first height, T = k M + J M (J tiles an SM past the resident blocks)
against T = k M, fence and relaunch (the relaunch stage is the sum of its
launches' cycles, the same difference), printed as cycles an iteration of
the partial round and the fence's over the relaunch's; S = k M - J M
persistent blocks spin at the barrier while the fence's partial round runs.
Writes nothing under data/.

Usage: python3 scripts/gz-fence-stage.py TRAPEZE GPU CALIBRATION [--workload W] [--heights H1,H2,...]
         [--past J1,J2,...]
  e.g. python3 scripts/gz-fence-stage.py build/trapeze a100 data/calibrations/a100.ini --heights 14,20,26
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

_spec = importlib.util.spec_from_file_location(
    "gz_fence_identify", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gz-fence-identify.py"))
identify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(identify)

TERMS = ["glbsync", "loadsten", "commit", "itermem", "misccomp", "itercomp"]
REASONS = ["memory", "compute", "fence", "barrier", "idle"]
COUNTERS = ["cycles", "warp_instructions", "atomics", "dram_reads"] + ["stall_" + r for r in REASONS]


def gpu_arg(gpu):
    path = f"data/gpus/{gpu}.config"
    return path if os.path.exists(path) else f"data/gpus/{gpu}"


def simulate(trapeze, gpu, workload, size, h, stages, tmp, sync="fence"):
    """The counters of a run of `stages` stages summed over its launches, and its resident blocks an SM."""
    out = os.path.join(tmp, "s.csv")
    cmd = [trapeze, "sim", "--gpu", gpu_arg(gpu), "--workload", f"data/workloads/{workload}.ini",
           "--size", str(size), "--h", str(h), "--sync", sync, "--iterations", str(stages * h),
           "--quiet", "--csv", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        sys.exit(f"gz-fence-stage: {' '.join(cmd)}: {p.stdout.strip()}")
    rows = list(csv.DictReader(open(out)))
    return {k: sum(float(r[k]) for r in rows) for k in COUNTERS}, int(rows[0]["resident_blocks_per_sm"])


def stage(trapeze, gpu, workload, size, h, tmp, sync="fence"):
    """One steady stage: (3 stages - 1 stage) / 2, and the resident blocks an SM."""
    one, k = simulate(trapeze, gpu, workload, size, h, 1, tmp, sync)
    three, _ = simulate(trapeze, gpu, workload, size, h, 3, tmp, sync)
    return {c: (three[c] - one[c]) / 2 for c in COUNTERS}, k


def model_stage(trapeze, gpu, calib, workload, size, h, tmp):
    """The model's stage terms (per-loop term x h) at (size, h), fences."""
    spec = identify.spec_at(workload, (size, 1, 1), tmp)
    out = os.path.join(tmp, "m.csv")
    p = subprocess.run([trapeze, "ghostzone", "--gpu", gpu, "--calibration", calib, "--spec-counts",
                        "--sync", "fence", "--csv", out, spec],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        sys.exit(f"ghostzone failed: {p.stdout.strip()}")
    for r in csv.DictReader(open(out)):
        if int(r["h"]) == h:
            return {t: float(r[t + "_cycles"]) * h for t in TERMS + ["cpl"]}
    sys.exit(f"ghostzone: no row at h = {h}")


def line(hs, ys):
    n = len(hs)
    mh, my = sum(hs) / n, sum(ys) / n
    b = sum((h - mh) * (y - my) for h, y in zip(hs, ys)) / sum((h - mh) ** 2 for h in hs)
    return my - b * mh, b


def spec_keys(workload):
    """(block, halo) of a shipped 1-D workload spec (gz-fence-identify's spec_shape)."""
    dims, blk, halo = identify.spec_shape(workload)
    if dims != 1:
        sys.exit(f"gz-fence-stage: {workload} is not 1-D")
    return blk[0], halo[0]


def fencebar(gpu):
    """{blocks: barrier cycles} of the samples log's fencebar rows at block 256."""
    out = {}
    for r in csv.DictReader(open(f"data/calibrations/{gpu}-samples.csv")):
        if r["workload"] == "fencebar" and r["blk_len"] == "256":
            out[int(r["size_0"])] = float(r["cpl_cycles"])
    return out


def reference_grid(gpu, workload):
    for r in csv.DictReader(open(f"data/validation/{gpu}-sweep.csv")):
        if r["kind"] == "sim" and r["workload"].lower() == workload and r["sync"] == "fence":
            return int(r["size_0"])
    sys.exit(f"data/validation/{gpu}-sweep.csv: no fence run of {workload}")


def main(argv):
    opts = {"--workload": "pathfinder", "--heights": None, "--past": None}
    pos = script_args.split(argv, opts)
    if len(pos) != 3 or not opts["--heights"]:
        sys.exit(__doc__.strip().split("\n\n")[-1])
    trapeze, gpu, calib = pos
    workload, heights = opts["--workload"].lower(), [int(x) for x in opts["--heights"].split(",")]
    blk, halo = spec_keys(workload)
    m, ref = identify.n_sm(gpu), reference_grid(gpu, workload)
    bar = fencebar(gpu)
    print(f"# {gpu}: {workload} fence stages, M = {m} SMs, reference grid {ref}")
    print("| tiles | h | size | T | sim stage | warp insts | atomics | DRAM reads | slots mem / comp / fence / "
          "bar / idle % | model stage | " + " / ".join(TERMS) + " |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    fits, k = {}, None
    with tempfile.TemporaryDirectory() as tmp:
        for config in ("reference", "full", "lone"):
            for h in heights:
                edge = blk - halo * h
                if config == "reference":
                    size = ref
                else:
                    size = edge * m * (k if config == "full" else 1)
                tiles = math.ceil(size / edge)
                s, k_run = stage(trapeze, gpu, workload, size, h, tmp)
                k = k if k else k_run
                mod = model_stage(trapeze, gpu, calib, workload, size, h, tmp)
                slots = s["warp_instructions"] + sum(s["stall_" + r] for r in REASONS)
                share = " / ".join("%.1f" % (100 * s["stall_" + r] / slots) for r in REASONS)
                print(f"| {config} | {h} | {size} | {tiles} | {s['cycles']:.0f} | {s['warp_instructions']:.0f} | "
                      f"{s['atomics']:.0f} | {s['dram_reads']:.0f} | {share} | {mod['cpl']:.0f} | "
                      + " / ".join("%.0f" % mod[t] for t in TERMS) + " |")
                fits.setdefault(config, []).append((h, s["cycles"], mod))
    print(f"\nresident blocks an SM k = {k}; fencebar barrier (samples log): "
          + ", ".join(f"{b} blocks {c:.0f}" for b, c in sorted(bar.items())))
    for config, pts in fits.items() if len(heights) > 1 else ():
        hs = [p[0] for p in pts]
        fit = lambda ys: "%.0f + %.0f h" % line(hs, ys)
        terms = ", ".join(f"{t} {fit([p[2][t] for p in pts])}" for t in TERMS)
        print(f"{config}: simulated stage {fit([p[1] for p in pts])}; model {fit([p[2]['cpl'] for p in pts])} "
              f"({terms})")
    if opts["--past"]:
        partial_rounds(trapeze, gpu, workload, heights[0], blk - halo * heights[0], m, k,
                       [int(j) for j in opts["--past"].split(",")])


def partial_rounds(trapeze, gpu, workload, h, edge, m, k, past):
    """The partial round's cycles an iteration in both modes, J tiles an SM past k."""
    print(f"\npartial rounds at h = {h}: cycles an iteration past T = k M = {k * m}, fence / relaunch")
    with tempfile.TemporaryDirectory() as tmp:
        full = {s: stage(trapeze, gpu, workload, edge * k * m, h, tmp, s)[0]["cycles"] for s in ("fence", "relaunch")}
        for j in past:
            size = edge * (k + j) * m
            cost = {s: (stage(trapeze, gpu, workload, size, h, tmp, s)[0]["cycles"] - full[s]) / h
                    for s in ("fence", "relaunch")}
            print(f"J = {j} (T = {(k + j) * m}, S = {(k - j) * m} spinning): fence {cost['fence']:.0f}, "
                  f"relaunch {cost['relaunch']:.0f}, ratio {cost['fence'] / cost['relaunch']:.3f} "
                  f"(1 + S / (k M) = {1 + (k - j) / k:.3f})")


if __name__ == "__main__":
    main(sys.argv[1:])
