#!/bin/sh
# End-to-end tests of `trapeze locality`: PAVER's matrix multiply gives its
# SpScore and the 3200/1600 edge weights in the CSV (header per
# CONTRACTS.md), the footprint CSV lists every TB, a trace of a kernel gives
# the same CSV as the kernel; bad command lines and launches give one message
# and no CSV.
# Usage: sh tests/cli_locality.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

"$T" locality --gpu $G matmul n=200 block=16 --locality-csv "$D/e.csv" --footprint-csv "$D/f.csv" \
    >"$D/out" 2>"$D/err" || fail "matmul exit status: $(cat "$D/err")"
grep -q '^SpScore: 0.85799$' "$D/out" || fail "SpScore: $(cat "$D/out")"
grep -q '169 TBs (grid 13 x 13 x 1)' "$D/out" || fail "summary: $(cat "$D/out")"
[ "$(head -n 1 "$D/e.csv")" = "tb_i,tb_j,shared_elements,shared_lines" ] || fail "edge header"
[ "$(head -n 1 "$D/f.csv")" = "tb,bx,by,bz,elements,lines" ] || fail "footprint header"
# TB 0 and TB 1 (one grid row) share 3200 elements; TB 12 and 25 (last column) 1600
grep -q '^0,1,3200,' "$D/e.csv" || fail "edge 0-1"
grep -q '^12,25,1600,' "$D/e.csv" || fail "edge 12-25"
[ "$(awk -F, 'NR > 1 && $3 > 0' "$D/e.csv" | wc -l)" -eq 2028 ] || fail "edges sharing elements"
[ "$(wc -l <"$D/f.csv")" -eq 170 ] || fail "footprint rows"
grep -q '^168,12,12,0,3200,' "$D/f.csv" || fail "footprint of the corner TB"

# a trace of the kernel: the same graph
"$T" trace export --gpu $G jacobi nx=64 ny=48 iters=2 --out "$D/j" >/dev/null 2>&1 || fail "export"
"$T" locality --gpu $G jacobi nx=64 ny=48 iters=2 --launch 1 --locality-csv "$D/b.csv" --quiet \
    || fail "built-in launch 1"
"$T" locality --trace "$D/j/kernelslist.g" --launch 1 --locality-csv "$D/t.csv" --quiet \
    || fail "trace launch 1"
cmp -s "$D/b.csv" "$D/t.csv" || fail "trace graph differs from the built-in's"
"$T" locality --help | grep -q -- '--locality-csv FILE' || fail "--help"

# trapeze sim --grouping: the explicit dispatch policy runs a grouping file
printf 'tb,group,order\n3,0,0\n2,0,1\n1,1,0\n0,1,1\n' >"$D/g.csv"
"$T" sim --gpu $G matmul n=32 block=16 --grouping "$D/g.csv" --csv "$D/s.csv" --quiet \
    || fail "sim --grouping"
[ "$(sed -n 2p "$D/s.csv" | cut -d, -f1)" = "matmul" ] || fail "sim --grouping CSV"
printf 'tb,group,order\n3,0,0\n2,0,1\n1,1,0\n' >"$D/g.csv"
expect_failure "grouping misses a TB" "g.csv: TB 0 missing" "$D/s.csv" \
    "$T" sim --gpu $G matmul n=32 block=16 --grouping "$D/g.csv" --csv "$D/s.csv"

expect_failure "launch past the end" "jacobi has 1 launch, no launch 3" "$D/x.csv" \
    "$T" locality --gpu $G jacobi --launch 3 --locality-csv "$D/x.csv"
expect_failure "unknown kernel" "no built-in kernel 'nope'" "$D/x.csv" \
    "$T" locality --gpu $G nope --locality-csv "$D/x.csv"
MAX_ERR_LINES=2 expect_failure "no gpu" "--gpu FILE is required" "$D/x.csv" \
    "$T" locality matmul --locality-csv "$D/x.csv"
expect_failure "bad parameter" "matmul: no parameter 'm'" "$D/x.csv" \
    "$T" locality --gpu $G matmul m=3 --locality-csv "$D/x.csv"
expect_failure "unwritable CSV" "/nonexistent/x.csv" "$D/x.csv" \
    "$T" locality --gpu $G matmul n=32 --locality-csv /nonexistent/x.csv
finish cli_locality
