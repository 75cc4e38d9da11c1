#!/usr/bin/env python3
"""Why the fence kernel issues more slowly than the relaunch kernel: the
simulator's scheduler slots per reason, both kernels of a workload at one h.

For each WORKLOAD:SIZE, simulates the fence and the relaunch kernel (`trapeze
sim --workload`, --h H, two stages: 2 H iterations) and sums each launch's
row of --csv: cycles, warp instructions and the stalled slots per reason
(memory, compute, fence, barrier, idle). A scheduler slot either issues one
warp instruction or is stalled for one reason, so slots = warp instructions +
stalls (the script checks that they are the launches' cycles times the GPU's
schedulers, and prints that count). Prints per workload the slots a warp
instruction in each mode, their ratio (what the model's fence_issue prices
as 1 + eta) and the share of the slots each reason takes. Writes nothing
under data/.

Usage: python3 scripts/gz-fence-stalls.py TRAPEZE GPU WORKLOAD:SIZE [WORKLOAD:SIZE ...] [--h N]
  e.g. python3 scripts/gz-fence-stalls.py build/trapeze gtx480 pathfinder:15240 hotspot:144x144
"""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_args  # noqa: E402

REASONS = ["memory", "compute", "fence", "barrier", "idle"]


def simulate(trapeze, gpu, workload, size, h, sync, tmp):
    """The summed counters of the kernel's launches."""
    out = os.path.join(tmp, f"{workload}-{sync}.csv")
    cmd = [trapeze, "sim", "--gpu", f"data/gpus/{gpu}.config", "--workload",
           f"data/workloads/{workload}.ini", "--size", size, "--h", str(h), "--sync", sync,
           "--iterations", str(2 * h), "--quiet", "--csv", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        sys.exit(f"gz-fence-stalls: {' '.join(cmd)}: {p.stdout.strip()}")
    rows = list(csv.DictReader(open(out)))
    keys = ["cycles", "warp_instructions"] + ["stall_" + r for r in REASONS]
    return {k: sum(int(float(r[k])) for r in rows) for k in keys}


def slots(t):
    return t["warp_instructions"] + sum(t["stall_" + r] for r in REASONS)


def main(argv):
    opts = {"--h": "2"}
    pos = script_args.split(argv, opts)
    if len(pos) < 3 or any(":" not in p for p in pos[2:]):
        sys.exit(__doc__.strip().split("\n\n")[-1])
    trapeze, gpu, h = pos[0], pos[1], int(opts["--h"])
    print("| workload (size) | fence: cycles, warp insts | relaunch | slots a warp inst, fence / relaunch |"
          " fence slots: " + " / ".join(REASONS) + " | relaunch slots: " + " / ".join(REASONS) + " |")
    print("|---|---|---|---|---|---|")
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        for arg in pos[2:]:
            workload, size = arg.split(":", 1)
            t = {s: simulate(trapeze, gpu, workload, size, h, s, tmp) for s in ("fence", "relaunch")}
            per = {s: slots(t[s]) / t[s]["warp_instructions"] for s in t}
            share = {s: " / ".join("%.1f" % (100.0 * t[s]["stall_" + r] / slots(t[s])) for r in REASONS) + "%"
                     for s in t}
            print(f"| {workload} ({size}) | {t['fence']['cycles']:,}, {t['fence']['warp_instructions']:,} | "
                  f"{t['relaunch']['cycles']:,}, {t['relaunch']['warp_instructions']:,} | "
                  f"{per['fence']:.3f} / {per['relaunch']:.3f} = {per['fence'] / per['relaunch']:.3f} | "
                  f"{share['fence']} | {share['relaunch']} |")
            for s in t:
                if slots(t[s]) % t[s]["cycles"]:
                    sys.exit(f"gz-fence-stalls: {workload} {s}: {slots(t[s])} slots are not a whole "
                             f"number of schedulers times {t[s]['cycles']} cycles")
                notes.append(f"{workload} {s}: {slots(t[s]) // t[s]['cycles']} scheduler slots a cycle")
    print("\n" + "\n".join(notes))


if __name__ == "__main__":
    main(sys.argv[1:])
