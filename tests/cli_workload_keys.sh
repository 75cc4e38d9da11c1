#!/bin/sh
# The workload spec as a user writes it from docs/formats.md: every key the
# parser reads (its own table, `trapeze ghostzone --list-keys`) is documented
# there and the reference names no key the parser lacks; specs without
# [profile] (a 13-point 2-D star of radius 3, a 1-D radius-3 stencil, at a few
# million points) run as written, say where their instruction counts come
# from and, in 2-D without a shape, which shape was assumed; a spec error
# prints no table header; absurd [profile] counts are refused with the figure.
# Usage: sh tests/cli_workload_keys.sh build/trapeze
MAX_ERR_LINES=1
. "$(dirname "$0")/lib/cli.sh"

# --- the reference and the parser agree, key by key
"$T" ghostzone --list-keys >"$D/keys" || fail "--list-keys exit status"
[ "$(wc -l <"$D/keys")" -ge 20 ] || fail "--list-keys printed $(wc -l <"$D/keys") keys"
grep -qx '\[workload\] shape' "$D/keys" || fail "--list-keys lacks shape"
grep -qx '\[workload\] aux_halo' "$D/keys" || fail "--list-keys lacks aux_halo"
grep -qx '\[workload\] registers' "$D/keys" || fail "--list-keys lacks registers"
while read -r section key; do
    grep -q "^| \`$key\` | " docs/formats.md || fail "docs/formats.md does not document $section $key"
done <"$D/keys"
awk '/^\| key \| meaning/ {on = 1; next} on && /^\| `/ {print} on && !/^\|/ {on = 0}' docs/formats.md \
    | sed 's/^| `\([a-z_]*\)`.*/\1/' >"$D/documented"
[ "$(wc -l <"$D/documented")" -ge 20 ] || fail "found $(wc -l <"$D/documented") documented keys"
while read -r key; do
    grep -q " $key\$" "$D/keys" || fail "docs/formats.md documents '$key', which the parser does not read"
done <"$D/documented"

# --- two stencils written from the reference, without [profile]
cat >"$D/star13.ini" <<'EOF'
[workload]
name = Star13
dimensions = 2
size = 2048x2048
block = 32x32
shape = star
radius = 3
EOF
cat >"$D/r3.ini" <<'EOF'
[workload]
name = R3
dimensions = 1
size = 4194304
block = 256
radius = 3
EOF
"$T" ghostzone "$D/star13.ini" "$D/r3.ini" >"$D/out" 2>"$D/err" || fail "user specs: $(cat "$D/err")"
grep -Eq '^Star13 +gtx280 +relaunch ' "$D/out" || fail "Star13 row: $(cat "$D/out")"
grep -Eq '^R3 +gtx280 +fence ' "$D/out" || fail "R3 row: $(cat "$D/out")"
[ "$(grep -c '^workload ' "$D/out")" -eq 1 ] || fail "header count: $(cat "$D/out")"
# 13 + 13 + 1 and 7 + 7 + 1 per point; setup 4 x D + 2 (docs/formats.md)
grep -qF 'Star13: instruction counts: spec-derived, 27 warp instructions per point and loop (13 shared loads, 0 global, 13 arithmetic, 0 special-function, 1 store) and 10 of setup' "$D/err" \
    || fail "Star13 counts note: $(cat "$D/err")"
grep -qF 'R3: instruction counts: spec-derived, 15 warp instructions per point and loop (7 shared loads, 0 global, 7 arithmetic, 0 special-function, 1 store) and 6 of setup' "$D/err" \
    || fail "R3 counts note: $(cat "$D/err")"
! grep -q 'no shape given' "$D/err" || fail "a shape note for a star: $(cat "$D/err")"
# the same star without its shape is a 7 x 7 box, and stderr says so
grep -v '^shape' "$D/star13.ini" >"$D/noshape.ini"
"$T" ghostzone "$D/noshape.ini" >"$D/out2" 2>"$D/err2" || fail "no shape: $(cat "$D/err2")"
grep -qF 'Star13: no shape given: assumed a box, all 49 points within the halo (shape = star reads the 13 on the axes' "$D/err2" \
    || fail "shape note: $(cat "$D/err2")"
grep -qF '99 warp instructions per point' "$D/err2" || fail "box counts: $(cat "$D/err2")"
"$T" sim --gpu gtx480 --workload "$D/noshape.ini" --size 64x64 --iterations 1 >/dev/null 2>"$D/err4" \
    || fail "sim --workload: $(cat "$D/err4")"
grep -qF 'Star13: no shape given: assumed a box, all 49 points' "$D/err4" || fail "sim shape note: $(cat "$D/err4")"
[ "$(awk '$3 == "relaunch" { print $7 }' "$D/out2")" != "$(awk '$1 == "Star13" && $3 == "relaunch" { print $7 }' "$D/out")" ] \
    || fail "the box and the star predict the same CPL"
# with --gpu the kernel generated from those counts is profiled on that GPU
"$T" ghostzone --gpu gtx480 "$D/r3.ini" >"$D/out3" 2>"$D/err3" || fail "--gpu: $(cat "$D/err3")"
grep -qF 'R3: instruction counts: profiled generated kernel (no [profile.R3] in the calibration: the kernel generated from the spec-derived counts' "$D/err3" \
    || fail "profiling note: $(cat "$D/err3")"
grep -Eq '^R3 +gtx480 +relaunch ' "$D/out3" || fail "--gpu row: $(cat "$D/out3")"

# --- an error prints no header, even after a good spec
printf '[workload]\ndimensions = 1\nsize = 1000\nblock = 64\nradius = 2\nhalo = 4\n' >"$D/bad.ini"
expect_failure "halo and radius" "bad.ini:6: [workload] halo: give halo or radius, not both" \
    "$D/none" "$T" ghostzone "$D/r3.ini" "$D/bad.ini"
[ ! -s "$D/stdout" ] || fail "stdout before the error: $(cat "$D/stdout")"
# Meng's counts for N = 1 element: 16 x 30 / 1 x 32 = 15360 per point
{ cat "$D/r3.ini"; printf '[profile]\ninput_elements = 1\ninsts_per_sm_mc = 16\ninsts_per_sm_ic = 16\n'; } >"$D/absurd.ini"
expect_failure "absurd profile" "absurd.ini:8: [profile] input_elements: 1 with insts_per_sm_ic = 16 and insts_per_sm_mc = 16 (Meng's GTX 280 counts, per SM of 30) implies 15360 warp instructions per point and loop" \
    "$D/none" "$T" ghostzone --gpu gtx480 "$D/absurd.ini"
[ ! -s "$D/stdout" ] || fail "stdout before the absurd error: $(cat "$D/stdout")"
finish cli_workload_keys
