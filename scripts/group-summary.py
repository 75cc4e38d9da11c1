#!/usr/bin/env python3
"""Summary of `trapeze group --csv` files (scripts/group-validate.sh): per
kernel, the model's own pick (row `model`: chosen by prediction alone, before
the simulations ranked the candidates; `optimized` in files without it)
simulated, against the best of the six policies, round-robin and RB-TS, and the model's errors (predicted against
simulated L2 accesses and cycles, mean absolute % over the policies' predicted
rows), then how many launches are within 2% of the best and 1% of rr.
Usage: python3 scripts/group-summary.py FILE.csv..."""
import csv
import sys

print("| kernel | launch | model's pick vs best of six | vs rr | vs RB-TS | simulation changed it | L2 error (mean, max) | cycles error (mean, max) |")
print("|---|---|---|---|---|---|---|---|")
counts = [0, 0, 0, 0]
for path in sys.argv[1:]:
    rows = {r["policy"]: r for r in csv.DictReader(open(path))}
    sim = {p: float(r["sim_cycles"]) for p, r in rows.items() if r["sim_cycles"] != ""}
    six = min(sim[p] for p in ("rr", "bcs", "chen", "mst", "kway", "rbts"))
    pick = "model" if "model" in sim else "optimized"
    opt = sim[pick]
    changed = pick == "model" and any(
        rows["model"][c] != rows["optimized"][c] for c in ("pred_cycles", "sim_cycles"))
    l2e, cye = [], []
    for p, r in rows.items():
        if r["pred_cycles"] == "" or p in ("optimized", "chen-static", "model"):
            continue
        l2e.append(100 * abs(float(r["pred_l2_accesses"]) / float(r["sim_l2_accesses"]) - 1))
        cye.append(100 * abs(float(r["pred_cycles"]) / float(r["sim_cycles"]) - 1))
    k = rows["rr"]
    counts[0] += opt <= six * 1.02
    counts[1] += opt <= sim["rr"] * 1.01
    counts[2] += 1
    counts[3] += changed
    print("| %s | %s | %+.2f%% | %+.2f%% | %+.2f%% | %s | %.1f%%, %.1f%% | %.1f%%, %.1f%% |" % (
        k["kernel"], k["launch"], 100 * (opt / six - 1), 100 * (opt / sim["rr"] - 1),
        100 * (opt / sim["rbts"] - 1), "yes" if changed else "no", sum(l2e) / len(l2e), max(l2e),
        sum(cye) / len(cye), max(cye)))
print("\nthe model's pick within 2%% of the best of the six: %d of %d; no more than 1%% behind rr: "
      "%d of %d; simulation changed the pick on %d" % (counts[0], counts[2], counts[1], counts[2],
                                                       counts[3]))
