#!/bin/sh
# `make run`, the main job on built-in defaults (scripts/run-main-job.sh): a
# short calibration against the simulator, then the best height and sync
# mode of the four benchmarks and their CSV. Checks that every step ran,
# that the calibration records the GPU it was made for, that the CSV holds
# every valid height of both modes (PathFinder 127, HotSpot and Poisson 9,
# Cell 3 on the GTX 480's block sizes), and that no figure printed is NaN
# (a too-small hold-out once printed "MAPE nan%"), and that the table's markers
# and the margins' uncertainty are explained.
# With a sanitizer build (CI's second pass) the main job itself is left
# out: its calibration alone took over 3 CPU minutes there without
# finishing (the sanitizers multiply the simulator's CPU several times
# over), and its two steps run at small sizes under the
# sanitizers in their own groups (cli_calibrate.sh: calibrate with stencil
# samples; cli_ghostzone.sh: ghostzone with a calibration and --csv). That
# `make run` works as shipped is the plain build's check.
# Usage: sh tests/cli_run.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
B=$(dirname "$T")
# it builds with a job per core unless make was given -j (serially a fresh clone took 2 min 23 s)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n run 2>/dev/null | head -1 >"$D/make-n"
grep -q -- "^make .*-j$(nproc) all" "$D/make-n" || fail "make run builds serially: $(cat "$D/make-n")"
if ldd "$B/libtrapeze.so" 2>/dev/null | grep -q libasan; then
    finish "cli_run (sanitizer build: the main job is the plain build's check)"
    exit
fi
scripts/run-main-job.sh "$B" >"$D/out" 2>&1 || fail "run-main-job exit status: $(tail -5 "$D/out")"
for w in PathFinder HotSpot Poisson Cell; do
    grep -Eq "^$w +best: (relaunch|fence) h=[0-9]+" "$D/out" || fail "no decision for $w"
done
# the parameter table's markers and the headlines' margins are explained, once each
[ "$(grep -c '^(stderr 0: held, not fitted.*AT BOUND: .*|r| with P: ' "$D/out")" -eq 1 ] \
    || fail "no legend under the parameter table"
[ "$(grep -c '^(margin +X% +- Y%: .*standard deviation' "$D/out")" -eq 1 ] \
    || fail "no legend for the margins"
grep -qi 'nan' "$D/out" && fail "a NaN printed: $(grep -i nan "$D/out" | head -2)"
grep -q '^gpu = gtx480$' "$B/run/gtx480.ini" || fail "calibration does not record its GPU"
[ "$(wc -l <"$B/run/ghostzone.csv")" -eq $((1 + 2 * (127 + 9 + 9 + 3))) ] \
    || fail "CSV rows: $(wc -l <"$B/run/ghostzone.csv")"
[ "$(wc -l <"$B/run/samples.csv")" -gt 24 ] || fail "samples log: $(wc -l <"$B/run/samples.csv") rows"
finish cli_run
