#!/usr/bin/env python3
"""Validation of the sleep-threshold model against full simulation (issue 14, item 6).

For each GPU and built-in kernel: one always-on simulation writes the idle-period CSV;
`trapeze sleep` picks thresholds from it (line-level L1D and L2 under Snooze, warp-register RF
under Slumber) and predicts saving and stall for its choice and the seed's; then the simulator
runs the model's thresholds, the seed's, and a sweep of thresholds with those policies in the
timing, one structure's policy at a time (the others always on). Printed per kernel and structure: predicted and simulated leakage saving (a fraction of
the tracked unit-cycles' leakage always ON) and wake-up stall (a fraction of cycles x SMs), for
the model, the seed and the best swept thresholds within the budget, and the cost.

usage: scripts/validate-sleep.py [--trapeze build/trapeze] [--budget 0.01] [--out FILE.csv]
       [--gpus gtx480,v100] [--kernels 'jacobi nx=512 ny=512;matmul n=128;...']
       [--samples 'jacobi nx=256 ny=256;...']  (thresholds from these smaller runs instead)
       scripts/validate-sleep.py --summary FILE.csv     (the table of docs/sleep.md)
Needs the simulator's power model and sleep policies (`trapeze sim --power --sleep-*
--idle-csv`).
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

KERNELS = ["jacobi nx=512 ny=512", "matmul n=128", "vecadd n=262144", "atax n=512",
           "gesummv n=512", "syrk n=128"]
MODES = {"l1d": {"sleep": 0.228, "off": 0.015}, "l2": {"sleep": 0.228, "off": 0.015},
         "rf": {"shallow": 0.94, "deep": 0.42, "gated": 0.0}}
POLICY = {"l1d": "snooze:line", "l2": "snooze:line", "rf": "slumber"}
GRAN = {"l1d": "line", "l2": "line", "rf": "warp_reg"}
SNOOZE_SWEEP = [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64]
SLUMBER_SWEEP = [(s, d, g) for s in (4, 12, 1000) for d in (13, 14, 20)
                 for g in (16, 21, 32, 1000) if s <= d <= g]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout


class Sim:
    def __init__(self, trapeze, gpu, kernel, tmp):
        self.trapeze, self.gpu, self.kernel, self.tmp = trapeze, gpu, kernel.split(), tmp
        self.cfg = os.path.join(os.path.dirname(trapeze), "..", "data", "gpus", gpu + ".config")
        self.base = open(self.cfg).read()
        self.runs = 0
        self.warp_insts = 0

    def simulate(self, thresholds=None, idle_csv=None, only=None):
        """thresholds: {'l1d': t, 'l2': t, 'rf': (s, d, g)}; None = always on. only: the one
        structure whose policy runs (the others stay on, so that no other policy's stalls
        move its periods)."""
        cfg = os.path.join(self.tmp, "gpgpusim.config")
        extra = ""
        cmd = [self.trapeze, "sim", "--gpu", cfg] + self.kernel + ["--power", self.gpu]
        if thresholds:
            extra = ("-trapeze_sleep_threshold_l1d %d\n-trapeze_sleep_threshold_l2 %d\n"
                     "-trapeze_slumber_shallow %d\n-trapeze_slumber_deep %d\n"
                     "-trapeze_slumber_gated %d\n" %
                     ((thresholds["l1d"], thresholds["l2"]) + tuple(thresholds["rf"])))
            for s in ("l1d", "l2", "rf"):
                if only in (None, s):
                    cmd += ["--sleep-" + s, POLICY[s]]
        if idle_csv:
            cmd += ["--idle-csv", idle_csv]
        with open(cfg, "w") as f:
            f.write(self.base + "\n" + extra)
        out = run(cmd)
        self.runs += 1
        if idle_csv:   # one policy serves every kernel of the run: one histogram each
            rows = list(csv.reader(open(idle_csv)))
            with open(idle_csv, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(rows[0])
                w.writerows(r[:1] + ["all"] + r[2:] for r in rows[1:])
        launches = re.findall(r": (\d+) cycles, (\d+) warp instructions", out)
        cycles = sum(int(c) for c, _ in launches)
        insts = sum(int(i) for _, i in launches)
        total = re.search(r"total: \d+ launches, (\d+) cycles", out)
        if total:
            cycles = int(total.group(1))
        self.warp_insts += insts
        res = {"cycles": cycles}
        for s in MODES:
            line = re.search(r"sleep %s\s+\S+\s+unit-cycles (.*?);.*wake stall (\d+)" % s, out)
            cyc = dict((k, float(v)) for k, v in re.findall(r"(\w+) (\d+)", line.group(1))
                       if k in MODES[s] or k == "on")
            total = sum(cyc.values())
            leak = cyc.get("on", 0) + sum(MODES[s][k] * cyc.get(k, 0) for k in MODES[s])
            res[s] = {"saving": 1 - leak / total, "stall": float(line.group(2))}
        return res


def model(trapeze, gpu, idle_csv, cycles, budget, tmp):
    out_csv = os.path.join(tmp, "sleep.csv")
    t0 = time.time()
    run([trapeze, "sleep", "--gpu", gpu, "--idle-csv", idle_csv, "--cycles", str(cycles),
         "--max-penalty", str(budget), "--csv", out_csv])
    elapsed = time.time() - t0
    pred = {}
    for r in csv.DictReader(open(out_csv)):
        if r["granularity"] != GRAN[r["structure"]]:
            continue
        p = pred.setdefault(r["structure"], {}).setdefault(r["choice"], {"theta": []})
        if r["threshold_cycles"]:
            p["theta"].append(int(float(r["threshold_cycles"])))
        p["saving"] = float(r["saving_fraction"])
        p["penalty"] = float(r["penalty_fraction"])
    return pred, elapsed


def thresholds_of(pred, choice):
    return {"l1d": pred["l1d"][choice]["theta"][0], "l2": pred["l2"][choice]["theta"][0],
            "rf": tuple(pred["rf"][choice]["theta"])}


def summary(path, budget):
    """One line per GPU, kernel and structure: the targets of issue 14, item 6."""
    rows = list(csv.DictReader(open(path)))
    by = {}
    for r in rows:
        by.setdefault((r["gpu"], r["kernel"], r["structure"]), {})[r["choice"]] = r
    print("| gpu | kernel | structure | model thresholds | saving pred / sim | stall pred / sim "
          "| seed saving pred / sim | seed stall pred / sim | model / best swept |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = {"saving": 0, "stall": 0, "ratio": 2}
    for (gpu, kernel, s), c in by.items():
        m, sd, b = c["model"], c["seed"], c["best_swept"]
        pct = lambda x: "%.2f" % (100 * float(x))
        ratio = float(m["sim_saving"]) / float(b["sim_saving"])
        for r in (m, sd):
            worst["saving"] = max(worst["saving"], abs(float(r["pred_saving"]) -
                                                       float(r["sim_saving"])))
            worst["stall"] = max(worst["stall"], abs(float(r["pred_stall"]) -
                                                     float(r["sim_stall"])))
        worst["ratio"] = min(worst["ratio"], ratio)
        print("| %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s / %s | %.4f%s |" % (
            gpu, kernel, s, m["thresholds"], pct(m["pred_saving"]), pct(m["sim_saving"]),
            pct(m["pred_stall"]), pct(m["sim_stall"]), pct(sd["pred_saving"]),
            pct(sd["sim_saving"]), pct(sd["pred_stall"]), pct(sd["sim_stall"]), ratio,
            "" if float(m["sim_stall"]) <= budget else " (over budget)"))
    print("\nworst |saving pred - sim| %.2f points, worst |stall pred - sim| %.2f points, "
          "worst model / best swept %.4f" % (100 * worst["saving"], 100 * worst["stall"],
                                              worst["ratio"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--summary")
    ap.add_argument("--trapeze", default="build/trapeze")
    ap.add_argument("--budget", type=float, default=0.01)
    ap.add_argument("--gpus", default="gtx480,v100")
    ap.add_argument("--kernels", default=";".join(KERNELS))
    ap.add_argument("--out")
    ap.add_argument("--samples", help="one kernel spec per kernel: the sample the thresholds "
                    "come from (default: the always-on run of the kernel itself)")
    a = ap.parse_args()
    if a.summary:
        return summary(a.summary, a.budget)
    n_sm = {}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for gpu in a.gpus.split(","):
            samples = a.samples.split(";") if a.samples else [None] * len(a.kernels.split(";"))
            for kernel, sample in zip(a.kernels.split(";"), samples):
                sim = Sim(os.path.abspath(a.trapeze), gpu, kernel, tmp)
                idle = os.path.join(tmp, "idle.csv")
                base = sim.simulate(idle_csv=None if sample else idle)
                sample_insts = sim.warp_insts
                sample_cycles = base["cycles"]
                if sample:
                    probe = Sim(os.path.abspath(a.trapeze), gpu, sample, tmp)
                    sample_cycles = probe.simulate(idle_csv=idle)["cycles"]
                    sample_insts = probe.warp_insts
                if gpu not in n_sm:
                    text = open(sim.cfg).read()
                    n_sm[gpu] = int(re.search(r"-gpgpu_n_clusters (\d+)", text).group(1)) * int(
                        re.search(r"-gpgpu_n_cores_per_cluster (\d+)", text).group(1))
                pred, model_s = model(a.trapeze, gpu, idle, sample_cycles, a.budget, tmp)
                sm_cycles = lambda r: r["cycles"] * n_sm[gpu]
                sims = {(c, s): sim.simulate(thresholds_of(pred, c), only=s)
                        for c in ("model", "seed") for s in MODES}
                # the sweep: each structure alone, judged within the budget
                best = {s: None for s in MODES}
                default = {"l1d": 0, "l2": 0, "rf": (4, 13, 16)}
                for s in MODES:
                    for t in (SLUMBER_SWEEP if s == "rf" else SNOOZE_SWEEP):
                        th = dict(default, **{s: t})
                        r = sim.simulate(th, only=s)
                        pen = r[s]["stall"] / sm_cycles(r)
                        if pen <= a.budget and (best[s] is None or
                                                r[s]["saving"] > best[s][1]["saving"]):
                            best[s] = (t, r[s], pen)
                sweep_insts = sim.warp_insts - (0 if sample else sample_insts)
                for s in MODES:
                    for c in ("model", "seed"):
                        r = sims[(c, s)]
                        rows.append([gpu, kernel.split()[0], s, c,
                                     "/".join(map(str, pred[s][c]["theta"])),
                                     pred[s][c]["saving"], r[s]["saving"], pred[s][c]["penalty"],
                                     r[s]["stall"] / sm_cycles(r),
                                     (r["cycles"] - base["cycles"]) / base["cycles"]])
                    b = best[s]
                    rows.append([gpu, kernel.split()[0], s, "best_swept",
                                 "/".join(map(str, b[0] if isinstance(b[0], tuple) else [b[0]])),
                                 "", b[1]["saving"], "", b[2], ""])
                print("%s %s: sample %d warp instructions = %.1f%% of the %d simulations "
                      "after it (%d warp instructions); model %.2f s" %
                      (gpu, kernel, sample_insts, 100.0 * sample_insts / sweep_insts,
                       sim.runs - (0 if sample else 1), sweep_insts, model_s), file=sys.stderr)
    head = ["gpu", "kernel", "structure", "choice", "thresholds", "pred_saving", "sim_saving",
            "pred_stall", "sim_stall", "cycles_change"]
    w = csv.writer(open(a.out, "w") if a.out else sys.stdout)
    w.writerow(head)
    w.writerows(rows)


if __name__ == "__main__":
    main()
