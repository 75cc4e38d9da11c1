#!/bin/sh
# wake-costs.sh - writes the transition_j of every sleep mode of a power
# description (data/power/NAME.ini) from the circuit inputs in the file's
# own comments, the way CACTI-P / McPAT 1.3 derive a wake-up's energy
# (cacti/powergating.cc, Sleep_tx::compute_penalty):
#
#   E_tr = (C_circuit + C_sleep_tx) x Vdd x dV     (no 1/2: the entry and
#          exit halves of a round trip are paired)
#   C_circuit = bits x cell_width_f x feature_um x c_drain_f_per_um
#          (the drains on the gated rail: an SRAM cell's 3 PMOS + 1 NMOS
#          drains, 3 x 1.23 F + 2.08 F = 5.77 F of width, as CACTI's
#          c_wakeup_array sums them per column)
#   C_sleep_tx = sleep_tx_share x C_circuit
#   dV = Vdd - v_mode (the mode's rail: retention voltage, or 0 when gated)
#
# for the whole structure of [leakage_w] (an SM's L1D or register file, an
# L2 slice); a unit pays its share, as of the leakage. Inputs, as comments:
#   ; circuit: vdd=V feature_um=F c_drain_f_per_um=C cell_width_f=W sleep_tx_share=S
#       (once, before the mode sections), and in each [mode.S.NAME]:
#   ; circuit: bits=N v_mode=V
# A mode with no circuit line keeps its transition_j.
#
# Usage: sh scripts/wake-costs.sh FILE.ini           the file, rewritten, on stdout
#        sh scripts/wake-costs.sh --write FILE.ini   in place
#        sh scripts/wake-costs.sh --check FILE.ini   exit 1 if the file is not what it writes
set -eu
mode=print
case ${1:-} in --write|--check) mode=$1; shift ;; esac
[ $# -eq 1 ] || { echo "usage: wake-costs.sh [--write|--check] FILE.ini" >&2; exit 2; }
f=$1
[ -r "$f" ] || { echo "wake-costs.sh: $f: cannot read" >&2; exit 2; }
out=$(awk -v file="$f" '
function die(msg) { printf "wake-costs.sh: %s:%d: %s\n", file, NR, msg > "/dev/stderr"; bad = 1; exit 2 }
function inputs(line, into,    n, i, kv, parts) {
    sub(/^;[ \t]*circuit:[ \t]*/, "", line)
    n = split(line, parts, /[ \t]+/)
    for (i = 1; i <= n; i++) {
        if (parts[i] == "") continue
        if (split(parts[i], kv, "=") != 2 || kv[2] !~ /^[0-9.]+([eE][-+]?[0-9]+)?$/)
            die("circuit input \"" parts[i] "\" is not name=number")
        into[kv[1]] = kv[2] + 0
    }
}
/^\[/ { insec = $0; delete m; in_mode = ($0 ~ /^\[mode\./) }
/^;[ \t]*circuit:/ {
    if (in_mode) inputs($0, m); else inputs($0, g)
}
in_mode && /^transition_j[ \t]*=/ && ("bits" in m) {
    if (!("v_mode" in m)) die(insec " has bits but no v_mode")
    split("vdd feature_um c_drain_f_per_um cell_width_f sleep_tx_share", need, " ")
    for (k in need) if (!(need[k] in g)) die("no global circuit input " need[k])
    if (m["v_mode"] > g["vdd"]) die(insec " v_mode above vdd")
    c = m["bits"] * g["cell_width_f"] * g["feature_um"] * g["c_drain_f_per_um"]
    e = c * (1 + g["sleep_tx_share"]) * g["vdd"] * (g["vdd"] - m["v_mode"])
    printf "transition_j = %.4g\n", e
    next
}
{ print }
' "$f")
case $mode in
print) printf '%s\n' "$out" ;;
--write) printf '%s\n' "$out" >"$f.tmp" && mv "$f.tmp" "$f" ;;
--check) printf '%s\n' "$out" | cmp -s - "$f" || { echo "wake-costs.sh: $f: transition_j not as its circuit inputs give (run --write)" >&2; exit 1; } ;;
esac
