#!/bin/sh
# Robust SIMD from the command line: fixed and adapted (width x depth) run,
# print their Robust SIMD line, and give the same cycles on a built-in
# kernel as on its exported trace (a trace's per-instruction masks give
# each slice the path its static program gives); an option outside its
# range or RobustDWS without a DWS policy is one message naming file and
# line.
# Usage: sh tests/cli_rsimd.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

"$T" trace export --gpu $G filter w=64 h=64 --out "$D/f" >/dev/null 2>"$D/err" \
    || fail "export: $(cat "$D/err")"
printf -- '-trapeze_rsimd_width 16\n' >"$D/w16.config"
printf -- '-trapeze_rsimd_width 8\n-trapeze_rsimd_depth 12\n' >"$D/w8d12.config"
printf -- '-trapeze_rsimd_adapt 1\n-trapeze_rsimd_interval 64\n-trapeze_rsimd_min_intervals 1\n' \
    >"$D/adapt.config"
for c in w16 w8d12 adapt; do
    "$T" sim --gpu $G,"$D/$c.config" filter w=64 h=64 >"$D/prog" 2>/dev/null \
        || fail "$c: built-in run"
    "$T" sim --gpu $G,"$D/$c.config" --trace "$D/f" >"$D/trace" 2>/dev/null \
        || fail "$c: trace run"
    grep -q '^  Robust SIMD: width [0-9]* x depth [0-9]*' "$D/prog" || fail "$c: no Robust SIMD line"
    a=$(grep -E 'cycles|Robust' "$D/prog") b=$(grep -E 'cycles|Robust' "$D/trace")
    [ "$a" = "$b" ] || fail "$c: trace and built-in differ: $a / $b"
done
# the adaptation sampled intervals (not only zero counts agreeing)
grep -q 'Robust SIMD: .* [1-9][0-9]* intervals sampled' "$D/trace" || fail "no interval sampled"

printf -- '-trapeze_rsimd_width 64\n' >"$D/bad.config"
expect_failure "width out of range" "bad.config:1: option -trapeze_rsimd_width" \
    "$D/out.csv" "$T" sim --gpu $G,"$D/bad.config" filter w=64 h=64 --csv "$D/out.csv"
printf -- '\n-trapeze_rsimd_dws 1\n' >"$D/nodws.config"
expect_failure "RobustDWS alone" "nodws.config:2: option -trapeze_rsimd_dws: RobustDWS needs a DWS policy" \
    "$D/out.csv" "$T" sim --gpu $G,"$D/nodws.config" filter w=64 h=64 --csv "$D/out.csv"
finish cli_rsimd
