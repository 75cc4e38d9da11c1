#!/usr/bin/env python3
"""The uncertainty u of a predicted gain over round-robin, measured several ways
on a `validate --model group` CSV (docs/grouping.md, "Is u the right gate"): the
rms over every launch and candidate (bcs, mst, kway, rbts) of
  unpaired    pred_c / sim_c - 1 (absolute cycles, rr included)
  ratio       (pred_c / pred_rr) / (sim_c / sim_rr) - 1 (the shipped u)
  difference  the predicted gain minus the simulated, sim_c/sim_rr - pred_c/pred_rr
                                                       (validate --gain-difference)
then the difference over the candidates predicted no slower than rr, its
one-sided part (the predicted gain's excess only) and its 80th and 90th
percentiles in magnitude. Over all launches, none held out (validate prints
the held-out figures). No simulation: the CSV's cycles only.

usage: group-gain-u.py CSV...
"""
import csv
import math
import sys

FIXED = ("rr", "bcs", "mst", "kway", "rbts")


def rms(v):
    return math.sqrt(sum(x * x for x in v) / len(v)) if v else float("nan")


def quantile(v, f):
    s = sorted(abs(x) for x in v)
    return s[int(f * (len(s) - 1) + 0.5)] if s else float("nan")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    print("%-36s %9s %9s %9s %9s %9s %9s %9s" % ("csv", "unpaired", "ratio", "diff", "diff_g>=0",
                                                 "one-side", "|diff|80", "|diff|90"))
    for path in argv[1:]:
        launches = {}
        for r in csv.DictReader(open(path)):
            launches.setdefault((r["kernel"], r["params"], r["launch"]), {})[r["policy"]] = r
        unpaired, ratio, diff, gaining = [], [], [], []
        for p in launches.values():
            pred = {q: float(p[q]["pred_cycles"]) for q in FIXED}
            sim = {q: float(p[q]["sim_cycles"]) for q in FIXED}
            unpaired += [pred[q] / sim[q] - 1 for q in FIXED]
            for q in FIXED[1:]:
                rp, rs = pred[q] / pred["rr"], sim[q] / sim["rr"]
                ratio.append(rp / rs - 1)
                diff.append(rs - rp)
                if rp <= 1:
                    gaining.append(rs - rp)
        print("%-36s %8.2f%% %8.2f%% %8.2f%% %8.2f%% %8.2f%% %8.2f%% %8.2f%%" % (
            path[-36:], 100 * rms(unpaired), 100 * rms(ratio), 100 * rms(diff), 100 * rms(gaining),
            100 * rms([max(0.0, e) for e in diff]), 100 * quantile(diff, 0.8),
            100 * quantile(diff, 0.9)))


if __name__ == "__main__":
    main(sys.argv)
