#!/bin/sh
# wake-costs.sh - writes the transition_j of every sleep mode of a power
# description (data/power/NAME.ini) from the circuit inputs in the file's
# own comments, the way CACTI-P (CACTI 7.0, powergating.cc and mat.cc)
# derives a power-gated array's wake-up. It owns that arithmetic only: the
# CACTI-P figures themselves are inputs written in the file, with the
# configuration that printed them (CACTI is not a dependency).
#
# A wake-up recharges every capacitance on the gated rails: the cells'
# drains on the array rail (CACTI-P's c_wakeup_array, one sleep transistor
# per column), the wordline drivers (WL gating) and the floated bitlines
# with their sense-amplifier and mux drains (bitline floating). CACTI-P
# prints each as an energy C x Vdd x dV at its own rail swing:
#   array  dV = Vdd - Vcc_min(cell) = 0.35 Vdd   (parameter.cc: 0.65 Vdd)
#   WL     dV = Vdd - Vcc_min(peri) = 0.65 Vdd   (0.35 Vdd)
#   BL     dV = Vdd - Vbitfloating  = 0.30 Vdd   (0.7 Vbitpre)
# so the capacitance it charges is
#   C_cacti = (e_array / 0.35 + e_wl / 0.65 + e_bl / 0.30) / vdd_cacti^2
# (the sleep transistors' own drains are in e_array and e_wl). A structure
# of another size or node scales it by bits and feature size (C ~ width):
#   C = C_cacti x (bits / cacti_bits) x (feature_um / cacti_feature_um)
# and a round trip to a mode whose rail sits at v_mode costs
#   E_tr = C x Vdd x (Vdd - v_mode)      (no 1/2: CACTI-P pairs the entry
#                                         and exit halves)
# for the whole structure of [leakage_w] (an SM's L1D or register file, an
# L2 slice); a unit pays its share, as of the leakage. Inputs, as comments:
#   ; circuit: vdd=V feature_um=F          once, before the mode sections
#   ; cacti: struct=S bits=N feature_um=F vdd=V e_array_j=E e_wl_j=E e_bl_j=E
#                                          per structure S (l1d, l2, rf)
#   ; circuit: bits=N v_mode=V             in each [mode.S.NAME]
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
function die(msg) { printf "wake-costs.sh: %s:%d: %s\n", file, NR, msg > "/dev/stderr"; exit 2 }
function inputs(line, tag, into,    n, i, kv, parts) {
    sub("^;[ \t]*" tag ":[ \t]*", "", line)
    n = split(line, parts, /[ \t]+/)
    for (i = 1; i <= n; i++) {
        if (parts[i] == "") continue
        if (split(parts[i], kv, "=") != 2 || (kv[1] != "struct" && kv[2] !~ /^[0-9.]+([eE][-+]?[0-9]+)?$/))
            die(tag " input \"" parts[i] "\" is not name=number")
        into[kv[1]] = kv[1] == "struct" ? kv[2] : kv[2] + 0
    }
}
/^\[/ { insec = $0; delete m; in_mode = ($0 ~ /^\[mode\./) }
/^;[ \t]*circuit:/ {
    if (in_mode) inputs($0, "circuit", m); else inputs($0, "circuit", g)
}
/^;[ \t]*cacti:/ {
    delete c; inputs($0, "cacti", c)
    split("struct bits feature_um vdd e_array_j e_wl_j e_bl_j", need, " ")
    for (k in need) if (!(need[k] in c)) die("cacti line without " need[k])
    if (c["bits"] <= 0 || c["feature_um"] <= 0 || c["vdd"] <= 0) die("cacti bits, feature_um and vdd must be positive")
    s = c["struct"]
    ccap[s] = (c["e_array_j"] / 0.35 + c["e_wl_j"] / 0.65 + c["e_bl_j"] / 0.30) / (c["vdd"] * c["vdd"])
    cbits[s] = c["bits"]; cfeat[s] = c["feature_um"]
}
in_mode && /^transition_j[ \t]*=/ && ("bits" in m) {
    if (!("v_mode" in m)) die(insec " has bits but no v_mode")
    if (!("vdd" in g) || !("feature_um" in g)) die("no global circuit input vdd and feature_um")
    if (m["v_mode"] > g["vdd"]) die(insec " v_mode above vdd")
    s = insec; sub(/^\[mode\./, "", s); sub(/\..*$/, "", s)
    if (!(s in ccap)) die(insec ": no cacti line for " s " above it")
    cap = ccap[s] * (m["bits"] / cbits[s]) * (g["feature_um"] / cfeat[s])
    printf "transition_j = %.4g\n", cap * g["vdd"] * (g["vdd"] - m["v_mode"])
    next
}
{ print }
' "$f")
case $mode in
print) printf '%s\n' "$out" ;;
--write) printf '%s\n' "$out" >"$f.tmp" && mv "$f.tmp" "$f" ;;
--check) printf '%s\n' "$out" | cmp -s - "$f" || { echo "wake-costs.sh: $f: transition_j not as its circuit inputs give (run --write)" >&2; exit 1; } ;;
esac
