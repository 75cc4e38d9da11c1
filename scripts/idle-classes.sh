#!/bin/sh
# Two idle-period CSVs side by side (trapeze sleep --sample-csv, trapeze sim
# --idle-csv): for one structure and granularity, each next access's
# periods by length class (1-16, 17-128, 129-1024, 1025-2048, 2049-4096,
# 4097-8192, past 8192 cycles), their number in each file and their share
# of the file's idle cycles (a bucket's periods at its models' length: the
# exact length, or a log2 bucket's middle). docs/sleep.md, "The
# register-file misses, period by period".
# Usage: sh scripts/idle-classes.sh STRUCTURE GRANULARITY A.csv B.csv
set -eu
[ $# -eq 4 ] || { echo "usage: sh scripts/idle-classes.sh STRUCTURE GRANULARITY A.csv B.csv" >&2; exit 2; }
for f in "$3" "$4"; do
    [ -r "$f" ] || { echo "idle-classes.sh: cannot read $f" >&2; exit 1; }
done
awk -F, -v st="$1" -v gr="$2" '
BEGIN { split("16 128 1024 2048 4096 8192", top, " "); nk = split("read write dead", kind, " ") }
FNR == 1 { file++; next }
$3 == st && $4 == gr {
    len = ($5 == $6) ? $5 : ($5 + $6) / 2
    c = 7
    for (i = 1; i <= 6; i++) if ($5 <= top[i]) { c = i; break }
    n[file, $7, c] += $8; cyc[file, $7, c] += $8 * len; all[file] += $8 * len; seen = 1
}
END {
    if (!seen) { print "idle-classes.sh: no " st " " gr " rows" > "/dev/stderr"; exit 1 }
    printf "%-6s %-11s %14s %14s %9s %9s\n", "next", "cycles", "periods A", "periods B", "A %", "B %"
    for (k = 1; k <= nk; k++)
        for (c = 1; c <= 7; c++) {
            a = n[1, kind[k], c] + 0; b = n[2, kind[k], c] + 0
            if (a == 0 && b == 0) continue
            lo = c == 1 ? 1 : top[c - 1] + 1
            printf "%-6s %-11s %14.0f %14.0f %8.2f%% %8.2f%%\n", kind[k],
                   c == 7 ? ">" top[6] : lo "-" top[c], a, b,
                   all[1] ? 100 * cyc[1, kind[k], c] / all[1] : 0,
                   all[2] ? 100 * cyc[2, kind[k], c] / all[2] : 0
        }
    printf "idle cycles: A %.4g, B %.4g\n", all[1], all[2]
}' "$3" "$4"
