#!/bin/sh
# trapeze cache (docs/cache.md): the decision of which loads to cache.
# Usage: sh tests/cli_cache.sh build/trapeze
MAX_ERR_LINES=2   # a usage error's message and its "try --help" line
. "$(dirname "$0")/lib/cli.sh"

# get FILE EXPR: a value of a JSON document, as Python prints it
get() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# No contention (matmul: no load sends more lines to a set than it has
# ways): of the other policies only memsched (a request order) is sampled,
# and the baseline is kept.
"$T" cache --gpu choo-baseline matmul n=64 --json "$D/mm.json" >"$D/mm.txt" 2>"$D/err" \
    || fail "matmul: $(cat "$D/err")"
[ "$(get "$D/mm.json" 'd["choice"], d["contended"]')" = "('none', False)" ] \
    || fail "matmul: $(get "$D/mm.json" 'd["choice"], d["contended"]')"
[ "$(get "$D/mm.json" '[p["sample_cycles"] is None for p in d["policies"]]')" = \
    "[False, True, True, True, True, False, True, True]" ] || fail "matmul: policies sampled"
grep -q "^none .*<- chosen$" "$D/mm.txt" || fail "matmul text: $(cat "$D/mm.txt")"

# Where a sample's window ends: matmul n=64's one launch is 41,728 warp
# instructions; a window of 30,000 would leave 11,728, less than one more
# window, so the samples run it to its end; one of 20,000 leaves 21,728 and
# stops there (its first cycle at or past 20,000).
for w in 30000 20000; do
    "$T" cache --gpu choo-baseline matmul n=64 --window $w --quiet --json "$D/w$w.json" \
        2>"$D/err" || fail "matmul --window $w: $(cat "$D/err")"
done
[ "$(get "$D/w30000.json" 'd["policies"][0]["sample_warp_insts"]')" = 41728 ] \
    || fail "--window 30000: $(get "$D/w30000.json" 'd["policies"][0]["sample_warp_insts"]')"
awk -v n="$(get "$D/w20000.json" 'd["policies"][0]["sample_warp_insts"]')" \
    'BEGIN { exit !(n >= 20000 && n < 20100) }' || fail "--window 20000: not windowed"

# Sized windows: a quarter of matmul n=64's 41,728 warp instructions is
# 10,432, above --window 5,000 and leaving more than one more window: its
# sample stops at its first cycle at or past 10,432, a quarter of the run
"$T" cache --gpu choo-baseline matmul n=64 --window 5000 --window-share 0.25 \
    --json "$D/sh.json" >"$D/sh.txt" 2>"$D/err" || fail "--window-share: $(cat "$D/err")"
awk -v n="$(get "$D/sh.json" 'd["policies"][0]["sample_warp_insts"]')" \
    'BEGIN { exit !(n >= 10432 && n < 10532) }' || fail "--window-share 0.25: not a quarter"
[ "$(get "$D/sh.json" 'd["run_warp_insts"], round(d["policies"][0]["sample_share"], 2)')" = \
    "(41728, 0.25)" ] || fail "--window-share: $(get "$D/sh.json" 'd["run_warp_insts"]')"
grep -q "the baseline's sample 25.0% of the run's 41728 warp instructions" "$D/sh.txt" \
    || fail "--window-share text: $(cat "$D/sh.txt")"
# its whole run predicted from the window's second half (one launch): the
# window's cycles plus the rest of the launch at the second half's cycles a
# warp instruction, at the slowest SM's pace
get "$D/sh.json" '[abs(p["predicted_cycles"] - (p["sample_cycles"] + (d["run_warp_insts"] - p["sample_warp_insts"]) * (p["sample_cycles"] - p["sample_mid_cycles"]) / (p["sample_warp_insts"] - p["sample_mid_warp_insts"])) * p["sample_slowest_cycles"] / p["sample_cycles"]) < 1e-6 * p["predicted_cycles"] and p["sample_mid_warp_insts"] >= 5216 for p in d["policies"] if p["sample_cycles"] is not None]' >"$D/ex.txt"
[ "$(cat "$D/ex.txt")" = "[True, True]" ] || fail "--window-share: predicted runs $(cat "$D/ex.txt")"
# without it, no field of the sized samples
[ "$(get "$D/mm.json" '"window_share" in d or "sample_share" in d["policies"][0]')" = False ] \
    || fail "fields of --window-share without it"

# A decision that could be wrong: atax n=256 (column-strided, its L1D
# refusing lines in 65% of the windows' SM cycles), checked against every
# policy's whole run: the choice within 5% of the fastest (memsched+loc,
# 5.13x, chosen; from 5,000-instruction windows lasc would be, 16% behind).
"$T" cache --gpu choo-baseline atax n=256 --verify --json "$D/atax.json" \
    >"$D/atax.txt" 2>"$D/err" || fail "atax: $(cat "$D/err")"
behind=$(get "$D/atax.json" 'd["choice_behind"]')
awk -v b="$behind" 'BEGIN { exit !(b >= 0 && b <= 0.05) }' \
    || fail "atax: the choice $(get "$D/atax.json" 'd["choice"]') is $behind behind the fastest"
[ "$(get "$D/atax.json" 'd["contended"]')" = True ] || fail "atax: not contended"
grep -q "^verified: $(get "$D/atax.json" 'd["choice"]') " "$D/atax.txt" || fail "atax text"
# pcs: atax n=256's every load has its evicted lines never re-read and no
# line is read by two blocks on one SM (its graphs), so pcs lists every load PC and its
# sample is bypass_all's, cycle for cycle
[ "$(get "$D/atax.json" 'd["bypass_pcs"] == [l["pc"] for l in d["loads"]] and len(d["loads"]) == 3')" = True ] \
    || fail "atax: pcs $(get "$D/atax.json" 'd["bypass_pcs"], d["loads"]')"
[ "$(get "$D/atax.json" '[p["sample_cycles"] for p in d["policies"] if p["policy"] in ("pcs", "bypass_all")]')" = \
    "[149081, 149081]" ] || fail "atax: pcs against bypass_all"
grep -q "^pcs bypasses: $(get "$D/atax.json" '",".join(d["bypass_pcs"])')$" "$D/atax.txt" \
    || fail "atax: pcs text"
# the same input, the same bytes
"$T" cache --gpu choo-baseline atax n=256 --quiet --json "$D/atax2.json" \
    || fail "atax again"
[ "$(get "$D/atax2.json" '[p["sample_cycles"] for p in d["policies"]]')" = \
    "$(get "$D/atax.json" '[p["sample_cycles"] for p in d["policies"]]')" ] || fail "not deterministic"

# Bad input: one message, exit 2 for the command line, 1 at run time
expect_failure "window" "--window 0: expected warp instructions >= 1" "" \
    "$T" cache --gpu choo-baseline atax --window 0
"$T" cache --gpu choo-baseline atax --window x >/dev/null 2>&1
[ $? = 2 ] || fail "--window x: exit 2"
expect_failure "share" "--window-share 0.5: expected a share above 0 and below 0.5" "" \
    "$T" cache --gpu choo-baseline atax --window-share 0.5
expect_failure "cap" "--window-cap 1000: only with --window-share" "" \
    "$T" cache --gpu choo-baseline atax --window-cap 1000
expect_failure "cap" "--window-cap 1000: expected warp instructions at least --window's" "" \
    "$T" cache --gpu choo-baseline atax --window-share 0.2 --window-cap 1000
expect_failure "no gpu" "--gpu FILE is required" "" "$T" cache atax
expect_failure "kernel" "no built-in kernel 'atx'" "$D/k.json" "$T" cache --gpu choo-baseline atx \
    --json "$D/k.json"
printf -- '-trapeze_l1d_select lru\n' >"$D/bad.config"
expect_failure "config" "option -trapeze_l1d_select: unknown policy 'lru'" "$D/c.json" \
    "$T" cache --gpu "data/gpus/choo-baseline.config,$D/bad.config" atax n=256 --json "$D/c.json"
"$T" cache --help | grep -q -- "--verify" || fail "--help"
# the help says what is sampled as the decision does (trapeze_cache_sampled)
"$T" cache --help | grep -q "memsched is always sampled" || fail "--help: what is sampled"
# validate --model cache is cache --verify; calibrate has nothing to fit
"$T" validate --model cache --gpu choo-baseline matmul n=64 >"$D/val.txt" 2>"$D/err" \
    || fail "validate --model cache: $(cat "$D/err")"
grep -q "^verified: none 1.00x" "$D/val.txt" || fail "validate --model cache: $(cat "$D/val.txt")"
expect_failure "calibrate" "--model cache: nothing to calibrate" "" \
    "$T" calibrate --model cache --gpu choo-baseline matmul
finish cli_cache
