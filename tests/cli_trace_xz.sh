#!/bin/sh
# Accel-Sim traces as people store them: kernelslist.g naming kernel-N.traceg
# beside kernel-N.traceg.xz runs the compressed trace, with byte-identical
# results to the plain one, also for a trace of several megabytes compressed
# as two concatenated streams; a truncated .xz and a gzip'd trace each get
# one message naming the file (and the line, for the .xz); a plain trace
# still runs.
# Usage: sh tests/cli_trace_xz.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
# Two sim CSV files equal in every column but `run` (second to last), which
# names how each was made (a built-in kernel, a workload, a trace path).
same_but_run() {
    strip() { awk -F, 'BEGIN { OFS = "," } { $(NF - 1) = ""; print }' "$1"; }
    [ "$(strip "$1")" = "$(strip "$2")" ]
}
command -v xz >/dev/null || { echo "cli_trace_xz: xz missing (scripts/install-deps.sh build)"; exit 1; }
G=data/gpus/gtx480.config
"$T" sim --gpu $G --trace data/traces/vecadd/kernelslist.g --csv "$D/plain.csv" --quiet || fail "plain trace"
mkdir "$D/xz" "$D/gz" "$D/cut"
cp data/traces/vecadd/kernelslist.g "$D/xz/"
xz -c data/traces/vecadd/kernel-1.traceg >"$D/xz/kernel-1.traceg.xz"
"$T" sim --gpu $G --trace "$D/xz/kernelslist.g" --csv "$D/xz.csv" --quiet 2>"$D/err" || fail "xz trace: $(cat "$D/err")"
same_but_run "$D/plain.csv" "$D/xz.csv" || fail "xz trace gave other results than the plain one"
"$T" trace check "$D/xz/kernelslist.g" >/dev/null 2>"$D/err" || fail "trace check on xz: $(cat "$D/err")"

# vecadd's 8 blocks repeated 400 times (3.8 MB), split in two xz streams
mkdir "$D/big" "$D/bigxz"
awk -v R=400 '
    /^-grid dim = / { print "-grid dim = (" 8 * R ",1,1)"; next }
    /^#BEGIN_TB/ { in_tb = 1; n++ }
    !in_tb { print; next }
    { tb[n] = tb[n] $0 "\n" }
    END {
        for (r = 0; r < R; r++)
            for (b = 1; b <= n; b++) {
                s = tb[b]
                sub(/thread block = [0-9]+/, "thread block = " (b - 1 + 8 * r), s)
                printf "%s", s
            }
    }' data/traces/vecadd/kernel-1.traceg >"$D/big/kernel-1.traceg"
cp data/traces/vecadd/kernelslist.g "$D/big/"
cp data/traces/vecadd/kernelslist.g "$D/bigxz/"
[ "$(wc -c <"$D/big/kernel-1.traceg")" -gt 3000000 ] || fail "scaled trace too small"
head -c 1000000 "$D/big/kernel-1.traceg" | xz -1 >"$D/bigxz/kernel-1.traceg.xz"
tail -c +1000001 "$D/big/kernel-1.traceg" | xz -1 >>"$D/bigxz/kernel-1.traceg.xz"
"$T" sim --gpu $G --trace "$D/big/kernelslist.g" --csv "$D/big.csv" --quiet || fail "scaled trace"
"$T" sim --gpu $G --trace "$D/bigxz/kernelslist.g" --csv "$D/bigxz.csv" --quiet 2>"$D/err" \
    || fail "scaled xz trace: $(cat "$D/err")"
same_but_run "$D/big.csv" "$D/bigxz.csv" || fail "scaled xz trace gave other results"
grep -q ',3200,' "$D/big.csv" || fail "scaled trace: not 3200 blocks: $(cat "$D/big.csv")"

cp data/traces/vecadd/kernelslist.g "$D/cut/"
head -c 200 "$D/xz/kernel-1.traceg.xz" >"$D/cut/kernel-1.traceg.xz"
expect_failure "truncated xz" "$D/cut/kernel-1.traceg.xz:11: truncated compressed data" "$D/cut.csv" \
    "$T" sim --gpu $G --trace "$D/cut/kernelslist.g" --csv "$D/cut.csv"

cp data/traces/vecadd/kernelslist.g "$D/gz/"
gzip -c data/traces/vecadd/kernel-1.traceg >"$D/gz/kernel-1.traceg"
expect_failure "gzip trace" "$D/gz/kernel-1.traceg: compressed with gzip; Trapeze reads plain traces and .xz" \
    "$D/gz.csv" "$T" sim --gpu $G --trace "$D/gz/kernelslist.g" --csv "$D/gz.csv"
# the same refusal where the compressed bytes lie inside the .xz (before,
# the decoded gzip header was read as a trace line and named as a bad header)
mkdir -p "$D/gzxz"
cp data/traces/vecadd/kernelslist.g "$D/gzxz/"
gzip -c data/traces/vecadd/kernel-1.traceg | xz -c >"$D/gzxz/kernel-1.traceg.xz"
expect_failure "gzip inside xz" \
    "$D/gzxz/kernel-1.traceg.xz: compressed with gzip; Trapeze reads plain traces and .xz" \
    "$D/gzxz.csv" "$T" sim --gpu $G --trace "$D/gzxz/kernelslist.g" --csv "$D/gzxz.csv"
xz -c "$D/xz/kernel-1.traceg.xz" >"$D/gzxz/kernel-1.traceg.xz"
expect_failure "xz inside xz" "$D/gzxz/kernel-1.traceg.xz: compressed twice with xz" \
    "$D/gzxz.csv" "$T" sim --gpu $G --trace "$D/gzxz/kernelslist.g" --csv "$D/gzxz.csv"
# a small .xz claiming 2^31 blocks is bounded by its decoded length (read
# from its index) before any per-block table exists, as a plain file is by
# its size (before, tens of GB of tables were asked for)
sed 's/^-grid dim = .*/-grid dim = (65536,32768,1)/' data/traces/vecadd/kernel-1.traceg |
    xz -c >"$D/gzxz/kernel-1.traceg.xz"
expect_failure "huge grid in a small xz" \
    "kernel-1.traceg.xz: a grid of 2147483648 blocks, but a decoded text of" \
    "$D/gzxz.csv" "$T" sim --gpu $G --trace "$D/gzxz/kernelslist.g" --csv "$D/gzxz.csv"
finish cli_trace_xz
