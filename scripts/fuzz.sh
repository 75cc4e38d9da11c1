#!/bin/sh
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each (make fuzz;
# FUZZ_SECONDS, default 30), with ASan and UBSan, from a seed corpus made of
# the shipped data (each target's fuzz_seeds) plus what earlier runs found
# (BUILD/corpus/NAME, kept between runs). A crash, a leak, a timeout or a
# failed invariant stops with the reproducer's path: copy it to
# tests/fuzz/NAME/ so that `make test` replays it forever after. The targets
# run FUZZ_JOBS at a time (default: the machine's cores), each for SECONDS of
# wall time in its own folders; their lines are printed in a fixed order.
# Usage: scripts/fuzz.sh BUILD SECONDS
set -u
B=${1:-build-fuzz}
S=${2:-30}

# --one BUILD SECONDS TARGET: fuzzes one target; what it says goes to
# BUILD/fuzz-NAME.result, and a failure leaves BUILD/fuzz-NAME.failed.
if [ "$B" = --one ]; then
    B=$2 S=$3 f=$4
    name=${f##*/fuzz_}
    rm -f "$B/fuzz-$name.failed"
    exec >"$B/fuzz-$name.result" 2>&1
    corpus="$B/corpus/$name"
    seeds="$B/seeds/$name"
    rm -rf "$seeds"
    mkdir -p "$corpus" "$seeds"
    log="$B/fuzz-$name.log"
    tmp="$B/tmp/$name"   # the targets' input files (fuzz/util.c)
    rm -rf "$tmp"
    mkdir -p "$tmp"
    if TMPDIR="$tmp" TRAPEZE_FUZZ_SEED_DIR="$seeds" "$f" -max_total_time="$S" -timeout=20 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$B/crash-$name-" \
        "$corpus" "$seeds" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz $name: ${S}s, $runs inputs, no failure"
    else
        echo "FAIL fuzz $name: see $log; reproducer: $(ls "$B"/crash-"$name"-* "$B"/leak-"$name"-* \
            "$B"/timeout-"$name"-* 2>/dev/null | head -1)"
        grep -E 'ERROR|invariant|SUMMARY' "$log" | head -5
        touch "$B/fuzz-$name.failed"
        exit 0
    fi
    rm -rf "$tmp"
    exit 0
fi

targets=""
for f in "$B"/fuzz/fuzz_*; do
    [ -x "$f" ] && targets="$targets $f"
done
printf '%s\n' $targets | xargs -P "${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}" -I{} sh "$0" --one "$B" "$S" {}
fail=0
for f in $targets; do
    name=${f##*/fuzz_}
    cat "$B/fuzz-$name.result"
    [ -e "$B/fuzz-$name.failed" ] && fail=1
done
[ "$fail" -eq 0 ]
