#!/bin/sh
# A GPU and its calibration go together: --gpu NAME uses the calibration
# shipped for that GPU (its recorded fingerprint must match the config's,
# or the shipped file would be refused), a calibration recorded for another
# GPU is refused unless forced, the fingerprint follows the options, not the
# name, GPGPU-Sim's gpgpusim.config takes its folder's name, and a misspelt
# preset names the nearest one, before anything reaches stdout.
# Usage: sh tests/cli_presets.sh build/trapeze
MAX_ERR_LINES=1
. "$(dirname "$0")/lib/cli.sh"

# --gpu v100 alone gives exactly what the V100 calibration gives
"$T" ghostzone --gpu v100 pathfinder >"$D/auto" 2>"$D/err" || fail "--gpu v100: $(cat "$D/err")"
"$T" ghostzone --gpu data/gpus/v100.config --calibration data/calibrations/v100.ini pathfinder \
    >"$D/explicit" 2>&1 || fail "explicit v100 calibration"
cmp -s "$D/auto" "$D/explicit" || fail "--gpu v100 did not use data/calibrations/v100.ini"
# ... and not the GTX 280's constants (the old silent default): Meng's file
# with the V100's measured PathFinder counts added, so that only the
# constants differ and no profiling simulation runs (four of them on the
# V100 were most of this test's time)
{ cat data/calibrations/gtx280-meng2010.ini; echo
  sed -n '/^\[profile.PathFinder\]/,/^$/p' data/calibrations/v100.ini; } >"$D/meng-v100-counts.ini"
grep -q '^insts_per_sm_mc' "$D/meng-v100-counts.ini" || fail "test setup: no V100 counts"
"$T" ghostzone --gpu v100 --calibration "$D/meng-v100-counts.ini" --force-calibration pathfinder \
    >"$D/meng" 2>"$D/err" || fail "Meng's constants on the V100: $(cat "$D/err")"
grep -q 'profil' "$D/err" && fail "Meng's constants with the V100's counts still profiled: $(cat "$D/err")"
cmp -s "$D/auto" "$D/meng" && fail "--gpu v100 gave the GTX 280 constants' answer"
grep -Eq '^PathFinder +v100 +relaunch' "$D/auto" || fail "gpu column: $(cat "$D/auto")"
# --gpu a100 and --gpu h100, folder presets, alone use data/calibrations/G.ini
# (before they were shipped: "no calibration shipped"): the bytes of naming it,
# the PathFinder counts read from its [profile.PathFinder] (no profiling run),
# and a relaunch priced at 1e9 cycles in a copy makes fence the choice
for g in a100 h100; do
    "$T" ghostzone --gpu $g pathfinder >"$D/$g" 2>"$D/err" || fail "--gpu $g: $(cat "$D/err")"
    grep -q 'profil' "$D/err" && fail "--gpu $g profiled PathFinder: $(cat "$D/err")"
    "$T" ghostzone --gpu data/gpus/$g --calibration data/calibrations/$g.ini pathfinder \
        >"$D/$g-explicit" 2>&1 || fail "explicit $g calibration"
    cmp -s "$D/$g" "$D/$g-explicit" || fail "--gpu $g did not use data/calibrations/$g.ini"
    grep -Eq "^PathFinder +$g +relaunch .* relaunch\$" "$D/$g" || fail "$g rows: $(cat "$D/$g")"
    sed 's/^relaunch_cycles = .*/relaunch_cycles = 1e9/' data/calibrations/$g.ini >"$D/$g-slow.ini"
    "$T" ghostzone --gpu $g --calibration "$D/$g-slow.ini" pathfinder >"$D/$g-slow" 2>&1 \
        || fail "$g, slow relaunch: $(cat "$D/$g-slow")"
    grep -Eq "^PathFinder +$g +relaunch .* fence\$" "$D/$g-slow" \
        || fail "$g: a 1e9-cycle relaunch chosen: $(cat "$D/$g-slow")"
done

# another GPU's calibration: refused (exit 1, one message, nothing on stdout), or forced
"$T" ghostzone --gpu v100 --calibration gtx480 pathfinder >"$D/out" 2>"$D/err" && fail "mismatch accepted"
grep -q "made for GPU gtx480 (fingerprint [0-9a-f]*), not for v100" "$D/err" || fail "mismatch message: $(cat "$D/err")"
[ -s "$D/out" ] && fail "stdout before the mismatch error"
"$T" ghostzone --gpu v100 --calibration gtx480 --force-calibration pathfinder >/dev/null 2>&1 || fail "--force-calibration"

"$T" validate --gpu gtx480 --calibration data/calibrations/v100.ini hotspot >"$D/out" 2>"$D/err" \
    && fail "validate accepted another GPU's calibration"
grep -q "v100.ini: made for GPU v100" "$D/err" || fail "validate mismatch message: $(cat "$D/err")"

# the fingerprint is the options': an Accel-Sim-style folder with the V100's
# options under another name is accepted and named after its folder; one
# option changed is refused
mkdir -p "$D/SM7_MINE" "$D/SM7_OTHER"
cp data/gpus/v100.config "$D/SM7_MINE/gpgpusim.config"
"$T" ghostzone --gpu "$D/SM7_MINE/gpgpusim.config" --calibration v100 pathfinder >"$D/out" 2>"$D/err" \
    || fail "same options, other name refused: $(cat "$D/err")"
grep -Eq '^PathFinder +SM7_MINE ' "$D/out" || fail "gpgpusim.config not named after its folder: $(cat "$D/out")"
sed 's/^-gpgpu_n_clusters .*/-gpgpu_n_clusters 40/' data/gpus/v100.config >"$D/SM7_OTHER/gpgpusim.config"
grep -q '^-gpgpu_n_clusters 40' "$D/SM7_OTHER/gpgpusim.config" || fail "test setup: n_clusters not changed"
"$T" ghostzone --gpu "$D/SM7_OTHER/gpgpusim.config" --calibration v100 pathfinder >/dev/null 2>"$D/err" \
    && fail "changed options accepted"
grep -q "not for SM7_OTHER" "$D/err" || fail "changed-options message: $(cat "$D/err")"
# a GPU with no shipped calibration: an error, never another GPU's constants
"$T" ghostzone --gpu "$D/SM7_OTHER/gpgpusim.config" pathfinder >"$D/out" 2>"$D/err" && fail "uncalibrated GPU accepted"
grep -q "no calibration shipped for GPU SM7_OTHER" "$D/err" || fail "uncalibrated message: $(cat "$D/err")"

# misspelt presets: usage error (2), the nearest name, nothing on stdout;
# a folder preset (data/gpus/h100/) is a name like a file preset
for args in "--gpu gtx48 pathfinder:--gpu gtx48: no such preset; did you mean 'gtx480'?" \
            "hotspt:workload hotspt: no such preset; did you mean 'hotspot'?" \
            "--gpu gtx480 --calibration v10 hotspot:--calibration v10: no such preset; did you mean 'v100'?" \
            "--gpu h10 pathfinder:--gpu h10: no such preset; did you mean 'h100'? (presets: a100, choo-baseline, gtx280, gtx480, h100, rtx3070, v100)"; do
    a=${args%%:*} want=${args#*:}
    # shellcheck disable=SC2086
    "$T" ghostzone $a >"$D/out" 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$a: exit $rc, expected 2"
    grep -qF -- "$want" "$D/err" || fail "$a: stderr lacks '$want': $(cat "$D/err")"
    [ -s "$D/out" ] && fail "$a: stdout before the error"
done

# every command takes the same preset names wherever it takes a file: a
# shipped name runs, a misspelt one is a usage error naming the nearest
# (found when sim, sim --workload, group, locality, trace export and the
# workloads of calibrate took only paths)
for args in "sim --gpu gtx48 jacobi:'gtx480'" \
            "sim --gpu gtx480 --workload hotspt --iterations 2:'hotspot'" \
            "group --gpu gtx48 jacobi --no-sim:'gtx480'" \
            "locality --gpu v10 jacobi:'v100'" \
            "trace export --gpu gtx48 jacobi --out $D/tr:'gtx480'" \
            "calibrate --gpu gtx480 --samples $D/s.csv hotspt:'hotspot'" \
            "validate --gpu gtx4800 --calibration gtx480 hotspot:'gtx480'"; do
    a=${args%%:*} want="did you mean ${args#*:}"
    # shellcheck disable=SC2086
    "$T" $a >"$D/out" 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$a: exit $rc, expected 2 ($(cat "$D/err"))"
    grep -qF -- "$want" "$D/err" || fail "$a: stderr lacks \"$want\": $(cat "$D/err")"
    [ -s "$D/out" ] && fail "$a: stdout before the error"
done
"$T" sim --gpu gtx480 jacobi nx=64 ny=64 --csv "$D/preset.csv" >/dev/null 2>"$D/err" || fail "sim --gpu gtx480: $(cat "$D/err")"
"$T" sim --gpu data/gpus/gtx480.config jacobi nx=64 ny=64 --csv "$D/file.csv" >/dev/null 2>&1
cmp -s "$D/preset.csv" "$D/file.csv" || fail "sim --gpu gtx480 differs from the config file"
"$T" locality --gpu v100 jacobi --quiet >/dev/null 2>"$D/err" || fail "locality --gpu v100: $(cat "$D/err")"
"$T" trace export --gpu gtx480 jacobi nx=64 ny=64 --out "$D/tr" >/dev/null 2>"$D/err" || fail "trace export --gpu gtx480: $(cat "$D/err")"
finish cli_presets
