#!/usr/bin/env python3
"""A workload's share of the calibration's samples against an exhaustive
sweep (every valid h, both modes) at each validated size: its stencil
samples, half its profiling rows and a 1/n share of the micro-benchmarks,
over the size sweep's logged runs plus, for the heights the thinned sweep
skipped, tiles(h) x per-tile warp instructions fitted linear in h to the
logged runs of that mode. Usage:
  scripts/samples-vs-exhaustive.py GPU SET WORKLOAD ...   (SET: main, unseen, others)"""
import csv
import math
import sys


def share(samples, workload, n_workloads):
    cost = 0.0
    for r in samples:
        wi = float(r["warp_instructions"])
        if r["kind"] == "micro":
            cost += wi / n_workloads
        elif r["workload"] == workload and r["kind"] == "profile":
            cost += wi / 2
        elif r["workload"] == workload and r["kind"] == "sim":
            cost += wi
    return cost


def exhaustive(points, size, blk, halo, dims):
    tiles = lambda h: math.ceil(size / (blk - halo * h)) ** dims
    total = 0.0
    for mode in ("relaunch", "fence"):
        logged = {int(p["h"]): float(p["warp_instructions"]) for p in points if p["sync"] == mode}
        xs = sorted(logged)
        ys = [logged[h] / tiles(h) for h in xs]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        for h in range(1, (blk - 1) // halo + 1):
            total += logged.get(h, tiles(h) * (my + b * (h - mx)))
    return total


def main(gpu, set_, workloads):
    samples = list(csv.DictReader(open(f"data/calibrations/{gpu}-samples.csv")))
    n_workloads = len({r["workload"] for r in samples if r["kind"] == "sim"})
    base = f"data/validation/{gpu}-sizes-{set_}"
    pts = list(csv.DictReader(open(base + "-points.csv")))
    sweep = list(csv.DictReader(open(base + "-sweep.csv")))
    print("gpu,workload,area_factor,samples_warp_instructions,exhaustive_warp_instructions,share_pct")
    for row in csv.DictReader(open(base + ".csv")):
        w = row["workload"]
        if w.lower() not in workloads:
            continue
        spec = open(f"data/workloads/{w.lower()}.ini").read()
        dims = int(spec.split("dimensions = ")[1].split()[0])
        halo = int(spec.split("halo = ")[1].split()[0].split("x")[0])
        blk = int([r for r in sweep if r["workload"] == w][0]["blk_len"])
        mine = [p for p in pts if p["workload"] == w and p["area_factor"] == row["area_factor"]]
        s = share(samples, w, n_workloads)
        e = exhaustive(mine, int(row["size_0"]), blk, halo, dims)
        print(f"{gpu},{w},{row['area_factor']},{s:.4g},{e:.4g},{100 * s / e:.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], [w.lower() for w in sys.argv[3:]])
