#!/usr/bin/env python3
"""Choo's cache-contention mechanisms against the seed's baseline.

Runs the column-strided PolyBench kernels (atax, bicg, gesummv, mvt, syrk,
syr2k) on data/gpus/choo-baseline.config with each mechanism's options added
(selective caching, LASC, per-warp request queues, and the comparison points
BypassAll, IndXor and MRPB)
(docs/simulator.md, "Cache contention") and prints, per kernel, the speed-up
over the baseline (total cycles of the benchmark's launches; the instruction
count is the same, so it is the IPC ratio) and the counters behind it (LDST
stalled: refused cycles over SM cycles with a block; warps waiting: warps
parked on the LDST unit per refused cycle; evicted unread: the seed's
Reuse0), then the geometric means beside the seed's.

The seed's geometric means (seed 003 section 8) are over its chapter's 12
to 15 benchmarks, of which only these six gain much; were the others at
1.0 and the six equal, each would gain seed^(N/6) (2.25 over 12 -> 5.1),
printed as "seed per strided kernel": an estimate, not a figure the seed
states.

With --sensitivity it also prints loc's speed-up on atax n=256 under each
warp scheduler and L1D associativity (16 KB), beside what the seed states.

  scripts/contention-trends.py [--quick] [--only atax,mvt] [--sensitivity]
                               [--trapeze build/trapeze]
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "data", "gpus", "choo-baseline.config")
DL1 = "32:128:4,L:L:m:N:{idx},A:32:8,8"

# name, extra options, seed's geometric mean (None: not stated) and its
# chapter's benchmark count (Ch. 4: 12, Ch. 5: 15, Ch. 6: 14)
MECHANISMS = [
    ("bypass_all", ["-trapeze_l1d_select bypass_all"], None, 12),
    ("indxor", ["-gpgpu_cache:dl1 " + DL1.format(idx="X")], 2.25 / 1.09, 12),
    ("ind", ["-trapeze_l1d_select ind"], None, 12),
    ("loc", ["-trapeze_l1d_select loc"], 2.25, 12),
    ("lasc", ["-trapeze_l1d_lasc 1"], 1.39, 15),
    ("lasc+loc", ["-trapeze_l1d_lasc 1", "-trapeze_l1d_select loc"], 2.01, 15),
    ("mrpb", ["-trapeze_ldst_sched fixed", "-trapeze_ldst_probes 1",
              "-trapeze_l1d_bypass_on_stall 1"], 2.25 / 1.12, 12),
    ("memsched", ["-trapeze_ldst_sched grr"], 1.95, 14),
    ("memsched+loc", ["-trapeze_ldst_sched grr", "-trapeze_l1d_select loc"], 2.06, 14),
]

# kernel, parameters. full: the vector kernels at PolyBench/GPU's column
# stride class (4 KB: a warp's 32 lines in one set); syrk and syr2k at
# n=256 (1 KB: 8 lines a set), the smallest that overflows a set's 4 ways
# (n=1024 takes hours). quick: the vector kernels at n=256 (8 a set) only.
KERNELS = {
    "full": [("atax", "n=1024"), ("bicg", "n=1024"), ("gesummv", "n=1024"),
             ("mvt", "n=1024"), ("syrk", "n=256"), ("syr2k", "n=256")],
    "quick": [("atax", "n=256"), ("bicg", "n=256"), ("gesummv", "n=256"),
              ("mvt", "n=256")],
}

COUNTERS = ["cycles", "warp_instructions", "ldst_refused_cycles", "sm_active_cycles",
            "l1_accesses", "l1_hits", "l1_bypasses", "l1_evictions", "l1_evicted_unused",
            "ldst_stall_ready_warps"]


def run(trapeze, kernel, params, extra, tmp):
    path = os.path.join(tmp, "extra.config")
    with open(path, "w") as f:
        f.write("\n".join(["-trapeze_contention_counters 1"] + extra) + "\n")
    gpu = BASE + "," + path
    out = os.path.join(tmp, "out.csv")
    subprocess.run([trapeze, "sim", "--gpu", gpu, kernel] + params.split() +
                   ["--csv", out, "--quiet"], check=True)
    total = dict.fromkeys(COUNTERS, 0)
    with open(out) as f:
        for row in csv.DictReader(f):
            for c in COUNTERS:
                total[c] += int(row[c])
    return total


def pct(a, b):
    return f"{100.0 * a / b:.0f}%" if b else "-"


def ratio(a, b):
    return f"{a / b:.1f}" if b else "-"


# (label, options of both runs, what the seed states)
SENSITIVITY = [
    ("GTO", ["-gpgpu_scheduler gto"], "smallest gain with GTO"),
    ("LRR", ["-gpgpu_scheduler lrr"], "largest gain with RR"),
    ("two-level (6 active)", ["-gpgpu_scheduler two_level_active:6:0:1"], "in between"),
    ("2-way, 64 sets", ["-gpgpu_cache:dl1 64:128:2,L:L:m:N:L,A:32:8,8"], "2-way gains most"),
    ("4-way, 32 sets", [], "2.25x (all benchmarks)"),
    ("8-way, 16 sets", ["-gpgpu_cache:dl1 16:128:8,L:L:m:N:L,A:32:8,8"], "8-way still ~1.77x"),
]


def sensitivity(trapeze, tmp):
    print()
    print("| atax n=256 | baseline cycles | loc cycles | loc speed-up | seed |")
    print("|---|---|---|---|---|")
    for label, extra, seed in SENSITIVITY:
        base = run(trapeze, "atax", "n=256", extra, tmp)["cycles"]
        loc = run(trapeze, "atax", "n=256", extra + ["-trapeze_l1d_select loc"], tmp)["cycles"]
        print(f"| {label} | {base} | {loc} | {base / loc:.2f} | {seed} |")


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the small sizes (seconds, not minutes)")
    ap.add_argument("--only", help="comma-separated kernels (empty: none, e.g. with --sensitivity)")
    ap.add_argument("--sensitivity", action="store_true",
                    help="also loc under each scheduler and associativity (atax n=256)")
    ap.add_argument("--trapeze", default=os.path.join(ROOT, "build", "trapeze"))
    a = ap.parse_args()
    kernels = KERNELS["quick" if a.quick else "full"]
    if a.only is not None:
        want = a.only.split(",")
        kernels = [k for k in kernels if k[0] in want]
    speed = {m[0]: [] for m in MECHANISMS}
    with tempfile.TemporaryDirectory() as tmp:
        print("| kernel | mechanism | cycles | speed-up | LDST stalled | warps waiting | "
              "L1D accesses | L1D hits | bypassed | evicted unread |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for kernel, params in kernels:
            base = run(a.trapeze, kernel, params, [], tmp)
            rows = [("baseline", base)]
            for name, extra, _, _ in MECHANISMS:
                got = run(a.trapeze, kernel, params, extra, tmp)
                if got["warp_instructions"] != base["warp_instructions"]:
                    sys.exit(f"{kernel} {name}: instruction count changed")
                speed[name].append(base["cycles"] / got["cycles"])
                rows.append((name, got))
            for name, r in rows:
                print(f"| {kernel} {params} | {name} | {r['cycles']} | "
                      f"{base['cycles'] / r['cycles']:.2f} | "
                      f"{pct(r['ldst_refused_cycles'], r['sm_active_cycles'])} | "
                      f"{ratio(r['ldst_stall_ready_warps'], r['ldst_refused_cycles'])} | "
                      f"{r['l1_accesses']} | {r['l1_hits']} | {r['l1_bypasses']} | "
                      f"{pct(r['l1_evicted_unused'], r['l1_evictions'])} |")
        if a.sensitivity:
            sensitivity(a.trapeze, tmp)
    if not kernels:
        return
    print()
    print("| mechanism | Trapeze geomean | seed geomean | seed per strided kernel |")
    print("|---|---|---|---|")
    for name, _, seed, n in MECHANISMS:
        s = f"{seed:.2f}" if seed else "-"
        s6 = f"{seed ** (n / 6):.1f}" if seed else "-"
        print(f"| {name} | {geomean(speed[name]):.2f} | {s} | {s6} |")


if __name__ == "__main__":
    main()
