#!/usr/bin/env python3
"""The grouping model's held-out launches (data/validation/group-heldout-launches.txt)
out of a `validate --model group` CSV and its samples log (scripts/group-heldout.sh
writes both): per launch the cheap decision's simulated cycles against the best of the
six policies and against round-robin, the predicted whole-launch cycles' error (the
decision's own, and the mean over rr, bcs, mst, kway and rbts), the samples' share of
the launch's simulated work (its sub-grids over the sub-grids and the six whole runs),
then the targets of docs/grouping.md.

usage: group-heldout-summary.py LAUNCHES CSV SAMPLES_LOG
"""
import csv
import sys

FIXED = ("rr", "bcs", "mst", "kway", "rbts")
SIX = FIXED + ("chen",)


def key_of(text):
    launch = 0
    if "@" in text:
        text, at = text.rsplit("@", 1)
        launch = int(at)
    kernel, _, params = text.partition(",")
    return kernel, params.replace(",", " "), str(launch)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    launches = [key_of(l.strip()) for l in open(argv[1]) if l.strip() and not l.startswith("#")]
    rows = {}
    for r in csv.DictReader(open(argv[2])):
        rows.setdefault((r["kernel"], r["params"], r["launch"]), {})[r["policy"]] = r
    work = {}
    for r in csv.DictReader(open(argv[3])):
        k = (r["kernel"], r["params"], r["launch"])
        sub = int(r["window_sms"]) > 0
        if sub or r["policy"] in SIX:
            w = work.setdefault(k, [0.0, 0.0])
            w[0 if sub else 1] += float(r["warp_instructions"])
    gpu = next(iter(rows.values()))["rr"]["gpu"] if rows else "?"
    print("%s: %d held-out launches" % (gpu, len(launches)))
    print("%-44s %10s %10s %9s %9s %9s %9s %8s" % ("launch", "opt_sim", "best_sim", "vs_best",
                                                   "vs_rr", "opt_err", "mean_err", "samples"))
    n = best2 = rr1 = cyc10 = 0
    sub_all = tot_all = 0.0
    missing = []
    for k in launches:
        p = rows.get(k)
        if not p or "optimized" not in p:
            missing.append(" ".join(k))
            continue
        sim = {q: float(p[q]["sim_cycles"]) for q in SIX + ("optimized",)}
        best = min(sim[q] for q in SIX)
        opt = p["optimized"]
        vs_best = 100 * (sim["optimized"] / best - 1)
        vs_rr = 100 * (sim["optimized"] / sim["rr"] - 1)
        opt_err = 100 * (float(opt["pred_cycles"]) / sim["optimized"] - 1) if opt["pred_cycles"] else float("nan")
        errs = [abs(float(p[q]["pred_cycles"]) / sim[q] - 1) for q in FIXED if p[q]["pred_cycles"]]
        mean_err = 100 * sum(errs) / len(errs) if errs else float("nan")
        sub, whole = work.get(k, [0.0, 0.0])
        share = 100 * sub / (sub + whole) if sub + whole > 0 else float("nan")
        name = " ".join(x for x in k[:2] if x) + " @" + k[2]
        print("%-44s %10.0f %10.0f %+8.2f%% %+8.2f%% %+8.1f%% %8.1f%% %7.2f%%" % (
            name[-44:], sim["optimized"], best, vs_best, vs_rr, opt_err, mean_err, share))
        n += 1
        best2 += vs_best <= 2
        rr1 += vs_rr <= 1
        cyc10 += abs(opt_err) <= 10
        sub_all += sub
        tot_all += sub + whole
    print("targets over %d held-out launches:" % n)
    print("  the cheap decision within 2%% of the best of the six: %d of %d" % (best2, n))
    print("  never more than 1%% behind round-robin: %d of %d" % (rr1, n))
    print("  the decision's predicted whole-launch cycles within 10%%: %d of %d" % (cyc10, n))
    print("  samples' share of the simulated work: %.2f%% (target 5%%)" %
          (100 * sub_all / tot_all if tot_all else float("nan")))
    if missing:
        print("not in the CSV: " + ", ".join(missing))


if __name__ == "__main__":
    main(sys.argv)
