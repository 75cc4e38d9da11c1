#!/usr/bin/env python3
"""counters.py TRACE GPU [LOG]: the row of data/fidelity/accelsim-reference.csv that
Accel-Sim's output (LOG, or stdin) gives for TRACE on GPU, printed as CSV.

cycles: gpu_tot_sim_cycle; winst: gpgpu_n_tot_w_icount; l1a, l1m, l1p, l1r:
L1D_total_cache_{accesses,misses,pending_hits,reservation_fails}; l2a, l2m:
L2_total_cache_{accesses,misses}; dram_rd_B, dram_wr_B: the sums over the DRAM
channels (the `DRAM[i]:` reports) of n_rd and n_wr_bk, times 32 bytes. The last value
printed wins (one kernel per trace). Exits 1, naming the counter, if one is missing:
a run that did not finish gives no row.
"""
import re, sys

SCALARS = [("cycles", "gpu_tot_sim_cycle"), ("winst", "gpgpu_n_tot_w_icount"),
           ("l1a", "L1D_total_cache_accesses"), ("l1m", "L1D_total_cache_misses"),
           ("l1p", "L1D_total_cache_pending_hits"),
           ("l1r", "L1D_total_cache_reservation_fails"),
           ("l2a", "L2_total_cache_accesses"), ("l2m", "L2_total_cache_misses")]


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit("usage: counters.py TRACE GPU [LOG]")
    text = open(sys.argv[3]).read() if len(sys.argv) == 4 else sys.stdin.read()
    row = {}
    for col, name in SCALARS:
        found = re.findall(r"^\s*%s = (\d+)\s*$" % name, text, re.M)
        if not found:
            raise SystemExit("counters.py: %s: no '%s = N' line" % (sys.argv[1], name))
        row[col] = int(found[-1])
    rd, wr, ch = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"DRAM\[(\d+)\]:", line)
        if m:
            ch = int(m.group(1))
        m = re.search(r"\bn_rd=(\d+) .*\bn_wr_bk=(\d+)", line)
        if m and ch is not None:
            rd[ch], wr[ch] = int(m.group(1)), int(m.group(2))
    if not rd:
        raise SystemExit("counters.py: %s: no DRAM channel report (n_rd, n_wr_bk)" % sys.argv[1])
    row["dram_rd_B"] = 32 * sum(rd.values())
    row["dram_wr_B"] = 32 * sum(wr.values())
    cols = [c for c, _ in SCALARS] + ["dram_rd_B", "dram_wr_B"]
    print(",".join([sys.argv[1], sys.argv[2]] + [str(row[c]) for c in cols]))


if __name__ == "__main__":
    main()
