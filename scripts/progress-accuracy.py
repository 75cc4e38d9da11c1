#!/usr/bin/env python3
"""How right the progress display's time left is: runs `trapeze calibrate` from
an empty samples log with a progress line per sample (TRAPEZE_PROGRESS=0),
stamps each line with the clock, and at 10%, 25%, 50% and 75% of the run's wall
time prints the time left the line showed (work-weighted: each sample's
estimated warp instructions) and the time left a count of samples would give,
each over the time that actually remained. Timings depend on the machine's
load; run it on a quiet one.
Usage: scripts/progress-accuracy.py [BUILD_DIR] [calibrate options...]
       (default: build, --gpu gtx480 --threads 1: 73 samples, about 3 minutes)"""
import os
import re
import subprocess
import sys
import tempfile
import time

LINE = re.compile(r"(\d+)/(\d+) samples \(\d+% of the work\), \S+ elapsed, about (\S+) left")


def seconds(text):
    if text == "?":
        return None
    return sum(int(n) * {"h": 3600, "m": 60, "s": 1}[u] for n, u in re.findall(r"(\d+)([hms])", text))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    options = sys.argv[2:] or ["--gpu", "gtx480", "--threads", "1"]
    with tempfile.TemporaryDirectory() as d:
        cmd = [os.path.join(build, "trapeze"), "calibrate", *options,
               "--samples", os.path.join(d, "s.csv"), "--out", os.path.join(d, "c.ini")]
        env = dict(os.environ, TRAPEZE_PROGRESS="0")
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=env)
        lines = []
        for line in p.stderr:
            m = LINE.match(line)
            if m:
                lines.append((time.monotonic(), int(m.group(1)), int(m.group(2)), m.group(3)))
        end = time.monotonic()
        if p.wait() != 0 or not lines:
            sys.exit("calibrate failed or printed no progress line")
    t0, d0 = lines[0][0], lines[0][1]
    print(f"{lines[-1][2]} samples, {end - t0:.0f} s from the first line to the end")
    for frac in (0.10, 0.25, 0.50, 0.75):
        t, done, total, left = min(lines, key=lambda r: abs(r[0] - (t0 + frac * (end - t0))))
        actual = end - t
        shown = seconds(left)
        by_count = (total - done) * (t - t0) / (done - d0) if done > d0 else None
        fmt = lambda v: "?" if v is None else f"{v / actual:.2f}x"
        print(f"at {100 * frac:.0f}% (sample {done}/{total}): {actual:.0f} s remained; shown "
              f"{fmt(shown)}, by count {fmt(by_count)}")


if __name__ == "__main__":
    main()
