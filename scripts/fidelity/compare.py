#!/usr/bin/env python3
"""Compare Trapeze's simulator with Accel-Sim's counters (a reference CSV in the
format of data/fidelity/accelsim-reference.csv).

For every (trace, gpu) row of the reference: generate the trace if it is not in
WORK yet (scripts/fidelity/gen_*.py, fix_exit.py, `trapeze trace export`), run
`trapeze sim --trace` on the GPU's config (Accel-Sim's shipped gpgpusim.config
and trace.config, data/fidelity/SM2_GTX480.gpgpusim.config or
SM7_QV100.gpgpusim.config and SM7_QV100.trace.config, the reference runs'
command line, data/fidelity/reference-run.config, and GPGPU-Sim 4's quirks,
data/fidelity/gpgpusim4-quirks.config; with --trapeze-configs
Trapeze's own data/gpus/X.config instead of gpgpusim.config), and print the cycle error and the
counter ratios (Trapeze / Accel-Sim), then per GPU the mean and worst |cycle error| and the
range of the warp instruction, L2 and DRAM ratios,
the held-out kernels (HELD_OUT: added to the reference before Trapeze was run on
them) apart from the others, as the out-of-sample result. A GPU whose config
Trapeze refuses is reported as such, with Trapeze's message, and left out of the
summary.

With --accelsim CMD it also runs Accel-Sim on every trace (CMD with {gpu} and
{trace}: the reference's GPU name and the kernelslist.g path) and prints, beside
the counters, both simulators' CPU seconds (user + system of the child, so a
loaded machine slows both alike), their warp instructions per CPU second and the
speedup (Accel-Sim's CPU time over Trapeze's), then the smallest and the median
speedup per GPU. --repeat N runs each simulator N times per trace, taking turns
(Trapeze, Accel-Sim, Trapeze, ...), and keeps each one's least CPU time (best of
N, as the issue measured Accel-Sim): on a shared machine one run's time moves by
tens of percent, for seconds at a time. Trapeze runs with malloc on huge pages
set in its environment (trapeze_env).

usage: compare.py [--trapeze build/trapeze] [--work build/fidelity]
                  [--ref data/fidelity/accelsim-reference.csv] [--only T1,T2]
                  [--gpus G1,G2] [--csv OUT] [--trapeze-configs]
                  [--config GPU=FILE[,FILE...]] [--accelsim CMD [--repeat N]]
                  [--no-quirks] [--generate]
"""
import argparse, csv, os, resource, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "scripts", "fidelity")

# reference gpu name -> configs, in order: Accel-Sim's shipped gpgpusim.config
# and trace.config (SM7_QV100's unchanged; Accel-Sim ships none for SM2_GTX480,
# gtx480.trace.config holds the reference run's four lines), gtx480.icnt.config
# (SM2_GTX480's booksim .icnt file in Trapeze's options), the reference runs'
# command line (reference-run.config) and GPGPU-Sim 4's behaviours that change
# its counters (gpgpusim4-quirks.config; --no-quirks leaves them out)
QUIRKS = "data/fidelity/gpgpusim4-quirks.config"
RUN = "data/fidelity/reference-run.config"
# The newer GPUs are Accel-Sim's tested-config folders as shipped (gpgpusim.config,
# then trace.config, each .icnt file read beside it); the RTX 3070 is its preset,
# that folder plus trapeze.config (GPGPU-Sim's DRAM latency queue, which Trapeze
# leaves off by default for the fingerprinted presets; docs/fidelity.md).
GPUS = {
    "gtx480": ("data/fidelity/SM2_GTX480.gpgpusim.config", "data/fidelity/gtx480.trace.config",
               "data/fidelity/gtx480.icnt.config", RUN, QUIRKS),
    "qv100": ("data/fidelity/SM7_QV100.gpgpusim.config", "data/fidelity/SM7_QV100.trace.config",
              RUN, QUIRKS),
    "rtx3070": ("data/gpus/rtx3070", RUN, QUIRKS),
    "h100": ("tests/configs/accelsim/SM90_H100", RUN, "data/fidelity/h100-run.config", QUIRKS),
    "a100": ("data/gpus/a100", RUN, QUIRKS),
}
# --trapeze-configs: Trapeze's own (the other GPUs' rows are skipped)
TRAPEZE_GPUS = {
    "gtx480": ("data/gpus/gtx480.config", "data/fidelity/gtx480.trace.config", RUN),
    "qv100": ("data/gpus/v100.config", "data/fidelity/SM7_QV100.trace.config", RUN),
}
# DRAM atom (bytes per column command: burst length x bus width x chips).
# Accel-Sim's dram_rd_B / dram_wr_B are column commands x 32 bytes; Trapeze's
# dram_bytes_* are commands x atom, so they compare after x 32 / atom.
ATOM = {"gtx480": 64, "qv100": 32, "rtx3070": 32, "h100": 16, "a100": 32}

# The kernels added to the reference before Trapeze was ever run on them
# (gen_kernels.py reduce, atomics, branchy, gather): reported apart, out of sample.
HELD_OUT = ("reduce_", "atomics_", "branchy_", "gather_")

# reference column -> Trapeze --csv column
COUNTERS = [("winst", "warp_instructions"), ("l1a", "l1_accesses"), ("l1m", "l1_misses"),
            ("l2a", "l2_accesses"), ("l2m", "l2_misses"), ("dram_rd_B", "dram_bytes_read"),
            ("dram_wr_B", "dram_bytes_written")]


def gen(trace, work, trapeze):
    """Writes WORK/TRACE/kernelslist.g (quietly) unless it is there."""
    out = os.path.join(work, trace)
    if os.path.exists(os.path.join(out, "kernelslist.g")):
        return out
    py = [sys.executable]
    quiet = dict(stdout=subprocess.DEVNULL, check=True)
    if trace.endswith("_nx"):
        base = gen(trace[:-3], work, trapeze)
        subprocess.run(py + [os.path.join(HERE, "fix_exit.py"), base, out], **quiet)
    elif trace.startswith("jacobi_"):
        subprocess.run(py + [os.path.join(HERE, "gen_jacobi_trace.py"), trace[7:], out], **quiet)
    elif trace.startswith("strided_s"):
        subprocess.run(py + [os.path.join(HERE, "gen_kernels.py"), "strided", trace[9:], out],
                       **quiet)
    elif trace.startswith("matmul_"):
        subprocess.run(py + [os.path.join(HERE, "gen_kernels.py"), "matmul", trace[7:], out],
                       **quiet)
    elif trace.startswith("dp_"):
        subprocess.run(py + [os.path.join(HERE, "gen_kernels.py"), "dp", trace[3:], out],
                       **quiet)
    elif trace.startswith("units_"):
        subprocess.run(py + [os.path.join(HERE, "gen_kernels.py"), "units", trace[6:], out],
                       **quiet)
    elif trace.startswith(HELD_OUT):
        kind, _, blocks = trace.partition("_")
        subprocess.run(py + [os.path.join(HERE, "gen_kernels.py"), kind, blocks, out], **quiet)
    elif trace.startswith("tz_"):
        kernel, params = {
            "tz_jacobi_512": ("jacobi", ["nx=512", "ny=512"]),
            "tz_strided_s8": ("strided", ["stride=8"]),
            "tz_vecadd": ("vecadd", []),
            "tz_matmul_tiled_128": ("matmul_tiled", ["n=128"]),
            "tz_matmul_tiled_256": ("matmul_tiled", ["n=256"]),
        }[trace]
        subprocess.run([trapeze, "trace", "export", "--gpu",
                        os.path.join(ROOT, "data/gpus/v100.config"), kernel] + params +
                       ["--out", out], **quiet)
    else:
        raise SystemExit("compare.py: no generator for trace '%s'" % trace)
    return out


def cpu_seconds():
    """User + system CPU seconds of the finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(run, *args):
    """(run's result, the CPU seconds of the children it ran)."""
    c0 = cpu_seconds()
    out = run(*args)
    return out, cpu_seconds() - c0


def timed_runs(runs, repeat):
    """Each (run, args) of runs `repeat` times, taking turns (a, b, a, b, ...),
    so that a slow spell of the machine, which lasts seconds, meets one run
    of the short simulator, not all of its repeats: [(the first run's
    result, the least CPU seconds over its repeats), ...]."""
    best = [None] * len(runs)
    for _ in range(repeat):
        for i, (run, args) in enumerate(runs):
            out, s = timed(run, *args)
            best[i] = (out, s) if best[i] is None else (best[i][0], min(best[i][1], s))
    return best


def accelsim(template, gpu, trace_dir):
    """Runs Accel-Sim's command line for one trace, its output discarded."""
    cmd = template.format(gpu=gpu, trace=os.path.join(trace_dir, "kernelslist.g"))
    p = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        last = (p.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        raise SystemExit("compare.py: --accelsim on %s (%s) exited %d: %s" %
                         (trace_dir, gpu, p.returncode, last[-200:]))


def trapeze_env():
    """Trapeze's environment: malloc on huge pages set already, as make bench
    runs it, so that the program does not re-execute itself to set it
    (cli/hugepages.c: about 10 ms of exec and loading a run, 6-7% of the
    shortest trace's time); a GLIBC_TUNABLES of the caller's is kept."""
    env = dict(os.environ)
    if "GLIBC_TUNABLES" not in env and env.get("TRAPEZE_HUGEPAGES") != "0":
        env["GLIBC_TUNABLES"] = "glibc.malloc.hugetlb=1"
    return env


def simulate(trapeze, gpu, trace_dir, tmp):
    # the files in order as one --gpu list: each file's -inter_config_file is
    # read beside it
    """Trapeze's counters summed over the trace's launches, or the last line of
    its message where it refuses the run (a config it does not load)."""
    cfg_path = ",".join(os.path.join(ROOT, part) for part in GPUS[gpu])
    out = os.path.join(tmp, "run.csv")
    p = subprocess.run([trapeze, "sim", "--gpu", cfg_path, "--trace",
                        os.path.join(trace_dir, "kernelslist.g"), "--csv", out, "--quiet"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=trapeze_env())
    if p.returncode != 0:
        msg = p.stderr.decode(errors="replace").strip().splitlines() or ["exit %d" % p.returncode]
        return msg[-1].replace(ROOT + "/", "").replace("|", "/")
    rows = list(csv.DictReader(open(out)))
    total = {}
    for r in rows:   # sum over launches (one per trace here)
        for k, v in r.items():
            try:
                total[k] = total.get(k, 0) + float(v)
            except ValueError:
                pass
    return total


# the ratio's text where Accel-Sim counts none and Trapeze some (no ratio exists)
REF_ZERO = "- (Accel-Sim 0)"


def ratio(t, r):
    return "-" if r == 0 and t == 0 else (REF_ZERO if r == 0 else "%.2f" % (t / r))


# the summary's counter columns: reference columns whose ratios it gives as a range
SUMMARY = [("winst", ("winst",)), ("L2 accesses, misses", ("l2a", "l2m")),
           ("DRAM read, written", ("dram_rd_B", "dram_wr_B"))]


def ratio_range(rows, cols):
    """The smallest and largest of the rows' ratios in cols as "lo-hi" (both
    counted as 0 is no ratio), so that a GPU's line shows at once whether a
    counter target holds; each row where Accel-Sim counts none and Trapeze
    some is named after it, with Trapeze's count (rows carry "trace" and
    Trapeze's counts in "tz_COLUMN")."""
    vals = [float(r[c]) for r in rows for c in cols if r[c] not in ("-", REF_ZERO)]
    text = "-" if not vals else "%.2f" % min(vals) if min(vals) == max(vals) else \
        "%.2f-%.2f" % (min(vals), max(vals))
    zero = ["%s %s: Accel-Sim 0, Trapeze %d" % (r["trace"], c, r["tz_" + c])
            for r in rows for c in cols if r[c] == REF_ZERO]
    return "; ".join([text] + zero)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trapeze", default=os.path.join(ROOT, "build/trapeze"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build/fidelity"))
    ap.add_argument("--ref", default=os.path.join(ROOT, "data/fidelity/accelsim-reference.csv"))
    ap.add_argument("--only", default="")
    ap.add_argument("--gpus", default="", help="only these reference GPUs (comma-separated)")
    ap.add_argument("--generate", action="store_true",
                    help="only generate the selected traces into --work and print their "
                         "kernelslist.g paths")
    ap.add_argument("--csv", default="")
    ap.add_argument("--config", action="append", default=[], metavar="GPU=FILE[,FILE...]",
                    help="run GPU (gtx480, qv100) on these config files instead of Trapeze's "
                         "(e.g. Accel-Sim's gpgpusim.config,trace.config)")
    ap.add_argument("--trapeze-configs", action="store_true",
                    help="run Trapeze's data/gpus configs instead of Accel-Sim's shipped ones")
    ap.add_argument("--accelsim", default="", metavar="CMD",
                    help="also run Accel-Sim (CMD with {gpu} and {trace}) and print both "
                         "simulators' CPU seconds and the speedup")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="with --accelsim: run both simulators N times per trace and keep "
                         "the least CPU time of each (best of N)")
    ap.add_argument("--no-quirks", action="store_true",
                    help="leave GPGPU-Sim 4's quirks (%s) out of the shipped configs" % QUIRKS)
    a = ap.parse_args()
    if a.repeat < 1:
        raise SystemExit("compare.py: --repeat %d: expected at least 1" % a.repeat)
    if a.no_quirks:
        for g in GPUS:
            GPUS[g] = tuple(f for f in GPUS[g] if f != QUIRKS)
    if a.trapeze_configs:
        GPUS.update(TRAPEZE_GPUS)
    for c in a.config:
        gpu, _, files = c.partition("=")
        if gpu not in GPUS or not files:
            raise SystemExit("compare.py: --config %s: expected GPU=FILE[,FILE...], GPU one of %s"
                             % (c, ", ".join(GPUS)))
        GPUS[gpu] = tuple(os.path.abspath(f) for f in files.split(","))
    only = set(a.only.split(",")) if a.only else None
    os.makedirs(a.work, exist_ok=True)
    gpus = set(a.gpus.split(",")) if a.gpus else None
    ref = [r for r in csv.DictReader(open(a.ref)) if (not only or r["trace"] in only) and
           (not gpus or r["gpu"] in gpus)]
    for r in ref:
        if r["gpu"] not in GPUS:
            raise SystemExit("compare.py: %s: gpu '%s' has no config (known: %s)" %
                             (a.ref, r["gpu"], ", ".join(GPUS)))
    if a.generate:
        for t in dict.fromkeys(r["trace"] for r in ref):
            print(os.path.join(gen(t, a.work, a.trapeze), "kernelslist.g"))
        return
    if a.trapeze_configs:
        skipped = sorted({r["gpu"] for r in ref} - set(TRAPEZE_GPUS))
        if skipped:
            print("compare.py: no Trapeze config for %s: rows skipped" % ", ".join(skipped),
                  file=sys.stderr)
        ref = [r for r in ref if r["gpu"] in TRAPEZE_GPUS]
    errs = {}
    ratios_of = {}   # (part, gpu) -> each row's {reference column: ratio text}
    refused = {}
    out_rows = []
    head = ["trace", "gpu", "ref_cycles", "tz_cycles", "cycle_err_%"] + \
           [c for c, _ in COUNTERS]
    speed = {}
    if a.accelsim:
        head += ["tz_cpu_s", "as_cpu_s", "tz_winst_per_s", "as_winst_per_s", "speedup"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    with tempfile.TemporaryDirectory() as tmp:
        for r in ref:
            gpu = r["gpu"]
            tdir = gen(r["trace"], a.work, a.trapeze)
            runs = [(simulate, (a.trapeze, gpu, tdir, tmp))]
            if a.accelsim:
                runs.append((accelsim, (a.accelsim, gpu, tdir)))
            timings = timed_runs(runs, a.repeat if a.accelsim else 1)
            tz, tz_s = timings[0]
            rc = float(r["cycles"])
            if isinstance(tz, str):
                refused[gpu] = tz
                print("| %s | %s | %d | refused: %s |" % (r["trace"], gpu, rc, tz), flush=True)
                continue
            err = 100.0 * (tz["cycles"] - rc) / rc
            part = "held-out" if r["trace"].startswith(HELD_OUT) else "reference"
            errs.setdefault((part, gpu), []).append((abs(err), r["trace"]))
            ratios = {}
            ratios_of.setdefault((part, gpu), []).append(ratios)
            for t in ("dram_bytes_read", "dram_bytes_written"):
                tz[t] = tz[t] * 32 / ATOM[gpu]
            if True:
                # Accel-Sim's L1 (write-no-allocate on both GPUs) counts every
                # global store as an access and a miss; Trapeze's L1 counts
                # stores (and atomics) as accesses only
                tz["l1_misses"] += tz["l1_accesses"] - tz["l1_hits"] - tz["l1_misses"] - \
                    tz["l1_merges"]
            ratios.update((c, ratio(tz[t], float(r[c]))) for c, t in COUNTERS)
            row = [r["trace"], gpu, "%d" % rc, "%d" % tz["cycles"], "%+.1f" % err] + \
                  [ratios[c] for c, _ in COUNTERS]
            ratios.update(("tz_" + c, round(tz[t])) for c, t in COUNTERS)
            ratios["trace"] = r["trace"]
            if a.accelsim:
                as_s = timings[1][1]
                w = tz["warp_instructions"]
                up = as_s / max(tz_s, 1e-9)
                speed.setdefault(gpu, []).append((up, r["trace"]))
                row += ["%.2f" % tz_s, "%.2f" % as_s, "%.0f" % (w / max(tz_s, 1e-9)),
                        "%.0f" % (w / max(as_s, 1e-9)), "%.1f" % up]
            out_rows.append(row)
            print("| " + " | ".join(row) + " |", flush=True)
    print()
    print("| kernels | GPU | count | mean \\|cycle error\\| | worst | " +
          " | ".join(name for name, _ in SUMMARY) + " |")
    print("|---|---|---|---|---|" + "---|" * len(SUMMARY))
    for part in ("reference", "held-out"):
        for gpu in GPUS:
            e = errs.get((part, gpu))
            if e:
                worst = max(e)
                print("| %s | %s | %d | %.1f%% | %.1f%% (%s) | %s |" %
                      (part, gpu, len(e), sum(x for x, _ in e) / len(e), worst[0], worst[1],
                       " | ".join(ratio_range(ratios_of[(part, gpu)], cols)
                                  for _, cols in SUMMARY)))
    for gpu, msg in refused.items():
        print("| all | %s | - | Trapeze refuses the config: %s | |" % (gpu, msg))
    if speed:
        print()
        print("| GPU | kernels | smallest speedup | median speedup |")
        print("|---|---|---|---|")
        for gpu, e in speed.items():
            e.sort()
            print("| %s | %d | %.1fx (%s) | %.1fx |" % (gpu, len(e), e[0][0], e[0][1],
                                                      e[len(e) // 2][0]))
    if a.csv:
        with open(a.csv + ".tmp", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(out_rows)
        os.replace(a.csv + ".tmp", a.csv)


if __name__ == "__main__":
    main()
