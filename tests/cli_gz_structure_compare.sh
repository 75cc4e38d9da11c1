#!/bin/sh
# scripts/gz-structure-compare.py on the shipped GTX 480 data (no simulation):
# the shipped structure refitted on the shipped samples is the shipped
# calibration, so --changed prints no row and both tallies agree (18 of 29
# entries at pick ratio >= 0.97, 14 at >= 0.99); with partial_round the
# PathFinder relaunch reference row moves from h = 31 (0.952) to 35 (0.986),
# and a pick the size log lacks is reported "not logged", not dropped.
# Usage: sh tests/cli_gz_structure_compare.sh build/trapeze  (from the repository root)
. "$(dirname "$0")/lib/cli.sh"

python3 scripts/gz-structure-compare.py --changed "$T" at-size gtx480 >"$D/same" 2>&1 \
    || fail "at-size: exit status: $(cat "$D/same")"
[ "$(grep -c '^| gtx480 ' "$D/same")" -eq 0 ] || fail "at-size moved rows: $(cat "$D/same")"
grep -qx 'gtx480: shipped 18/29 at >= 0.97, 14 at >= 0.99 (CV 7.05%); at-size: 18/29 at >= 0.97, 14 at >= 0.99 (CV 7.05%, extrapolation 9.10%)' "$D/same" \
    || fail "at-size tallies: $(tail -1 "$D/same")"

python3 scripts/gz-structure-compare.py --changed "$T" at-size,partial_round gtx480 >"$D/pr" 2>&1 \
    || fail "partial_round: exit status: $(cat "$D/pr")"
grep -qF '| gtx480 | reference relaunch | PathFinder | 8.85% 31 (0.952) | 6.25% 35 (0.986) | 41 |' "$D/pr" \
    || fail "partial_round: PathFinder relaunch row: $(grep PathFinder "$D/pr")"
grep -qF '| gtx480 | 1x | PathFinder | 12.01% fence 18 (0.938) | not logged | fence 44 |' "$D/pr" \
    || fail "partial_round: the unlogged PathFinder pick: $(grep PathFinder "$D/pr")"

expect_status() { "$@" >"$D/out" 2>&1 && fail "$*: exit status 0"; }
expect_status python3 scripts/gz-structure-compare.py "$T"
grep -q '^Usage:' "$D/out" || fail "no usage without a structure: $(cat "$D/out")"
expect_status python3 scripts/gz-structure-compare.py "$T" no_such_switch gtx480
grep -q "no extension named 'no_such_switch'" "$D/out" || fail "bad structure: $(cat "$D/out")"

finish cli_gz_structure_compare
