#!/bin/sh
# Dynamic Warp Subdivision from the command line: the policy overlays of
# data/dws/ run, print their DWS line, and give the same cycles and splits
# on a built-in kernel as on its exported trace (a trace's per-instruction
# masks give the splits its static program gives); a policy name the
# simulator does not have is one message naming file, line and option.
# Usage: sh tests/cli_dws.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

"$T" trace export --gpu $G filter w=64 h=64 --out "$D/f" >/dev/null 2>"$D/err" \
    || fail "export: $(cat "$D/err")"
for p in branch-only revive-memonly aggress lazy revive-limited revive; do
    "$T" sim --gpu $G,data/dws/$p.config filter w=64 h=64 >"$D/prog" 2>/dev/null \
        || fail "$p: built-in run"
    "$T" sim --gpu $G,data/dws/$p.config --trace "$D/f" >"$D/trace" 2>/dev/null \
        || fail "$p: trace run"
    grep -q '^  DWS: [0-9]* branch splits, [0-9]* memory splits' "$D/prog" || fail "$p: no DWS line"
    a=$(grep -E 'cycles|DWS' "$D/prog") b=$(grep -E 'cycles|DWS' "$D/trace")
    [ "$a" = "$b" ] || fail "$p: trace and built-in differ: $a / $b"
done
# the branch split happens on the trace too (not only zero counts agreeing)
grep -q 'DWS: [1-9][0-9]* branch splits' "$D/trace" || fail "no branch split on the trace"

printf -- '-trapeze_dws_mem often\n' >"$D/bad.config"
expect_failure "bad policy" "bad.config:1: option -trapeze_dws_mem: 'often' is not a subdivision policy" \
    "$D/out.csv" "$T" sim --gpu $G,"$D/bad.config" filter w=64 h=64 --csv "$D/out.csv"
finish cli_dws
