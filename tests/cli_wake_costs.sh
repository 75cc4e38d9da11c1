#!/bin/sh
# scripts/wake-costs.sh: a transition energy worked out by hand from the
# circuit inputs of a small power description, the shipped descriptions as
# the script writes them, and bad inputs refused with file and line.
# Usage: sh tests/cli_wake_costs.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
W="$(dirname "$0")/../scripts/wake-costs.sh"
P="$(dirname "$0")/../data/power"
cat >"$D/p.ini" <<'INI'
; circuit: vdd=1.0 feature_um=0.020
; cacti: struct=l2 bits=524288 feature_um=0.040 vdd=0.5 e_array_j=35e-12 e_wl_j=6.5e-12 e_bl_j=3e-12
[mode.l2.sleep]
; circuit: bits=262144 v_mode=0.3
leak_fraction = 0.228
transition_j = 0
[mode.l2.off]
leak_fraction = 0.015
transition_j = 0
INI
# CACTI's energies at their swings: 35/0.35 + 6.5/0.65 + 3/0.30 = 120 pF V^2,
# over its Vdd^2 0.25: 480 pF; half the bits and half the feature size:
# 120 pF; x 1.0 V x (1.0 - 0.3) V = 84 pJ. The mode without a circuit line
# keeps its 0.
sh "$W" "$D/p.ini" >"$D/out" 2>"$D/err" || fail "script: $(cat "$D/err")"
[ "$(grep -c '^transition_j = 8.4e-11$' "$D/out")" = 1 ] || fail "l2 sleep: $(grep transition "$D/out")"
[ "$(grep -c '^transition_j = 0$' "$D/out")" = 1 ] || fail "l2 off kept: $(grep transition "$D/out")"
sh "$W" --check "$D/p.ini" 2>/dev/null && fail "--check passed a stale file"
sh "$W" --write "$D/p.ini" && sh "$W" --check "$D/p.ini" || fail "--write then --check"
# the shipped descriptions are what the script writes; the seed profiles
# keep the seeds' zero transition energies
for g in gtx480 v100 a100 h100 rtx3070; do
    sh "$W" --check "$P/$g.ini" || fail "$g.ini is not what wake-costs.sh writes"
done
for g in gtx480 v100; do
    [ "$(grep -c '^transition_j = 0$' "$P/$g-seed.ini")" = 7 ] || fail "$g-seed.ini has transitions"
    [ "$(grep -c '^transition_j = 0$' "$P/$g.ini")" = 0 ] || fail "$g.ini has a zero transition"
done
# bad input: file and line
sed 's/bits=262144/bits=lots/' "$D/p.ini" >"$D/bad.ini"
expect_failure "bad number" "bad.ini:4: circuit input \"bits=lots\" is not name=number" "$D/none" \
    sh "$W" "$D/bad.ini"
sed 's/v_mode=0.3/v_mode=1.3/' "$D/p.ini" >"$D/bad.ini"
expect_failure "rail above vdd" "bad.ini:6: [mode.l2.sleep] v_mode above vdd" "$D/none" \
    sh "$W" "$D/bad.ini"
grep -v '^; cacti:' "$D/p.ini" >"$D/bad.ini"
expect_failure "no CACTI figures" "bad.ini:5: [mode.l2.sleep]: no cacti line for l2 above it" "$D/none" \
    sh "$W" "$D/bad.ini"
sed 's/ e_bl_j=3e-12//' "$D/p.ini" >"$D/bad.ini"
expect_failure "a CACTI figure missing" "bad.ini:2: cacti line without e_bl_j" "$D/none" \
    sh "$W" "$D/bad.ini"
finish cli_wake_costs
