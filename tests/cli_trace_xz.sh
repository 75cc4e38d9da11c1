#!/bin/sh
# Accel-Sim traces as people store them: kernelslist.g naming kernel-N.traceg
# beside kernel-N.traceg.xz runs the compressed trace, with byte-identical
# results to the plain one; a truncated .xz and a gzip'd trace each get one
# message naming the file; a plain trace still runs.
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

cp data/traces/vecadd/kernelslist.g "$D/cut/"
head -c 200 "$D/xz/kernel-1.traceg.xz" >"$D/cut/kernel-1.traceg.xz"
expect_failure "truncated xz" "$D/cut/kernel-1.traceg.xz: truncated compressed data" "$D/cut.csv" \
    "$T" sim --gpu $G --trace "$D/cut/kernelslist.g" --csv "$D/cut.csv"

cp data/traces/vecadd/kernelslist.g "$D/gz/"
gzip -c data/traces/vecadd/kernel-1.traceg >"$D/gz/kernel-1.traceg"
expect_failure "gzip trace" "$D/gz/kernel-1.traceg: compressed with gzip; Trapeze reads plain traces and .xz" \
    "$D/gz.csv" "$T" sim --gpu $G --trace "$D/gz/kernelslist.g" --csv "$D/gz.csv"
finish cli_trace_xz
