#!/bin/sh
# One --threads budget for every command that runs several simulations:
# samples side by side, the threads left over splitting each simulation
# (sampler_share). Each command runs one small case at 1 and 2 threads and
# must print and write the same bytes: sleep validation (one job: its window
# on 2 simulation threads, then its whole runs two at a time), the sleep
# calibration (one sample, on 2 simulation threads), trapeze sleep
# --sim-threads 2 on the V100, and trapeze group --threads 2 and trapeze cache
# --verify --threads 2 and cache --window-share 0.25 --threads 2 (each of their
# simulations on 2 threads). The split itself is tests/test_sample_rows.c's.
# Usage: sh tests/cli_thread_budget.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"

# same NAME OPT CMD...: CMD with OPT 1, then OPT 2: its stdout and every file
# it wrote as $D/out.* the same bytes
same() {
    name=$1
    opt=$2
    shift 2
    for n in 1 2; do
        (cd "$D" && mkdir -p "t$n")
        "$T" "$@" "$opt" "$n" >"$D/t$n/stdout" 2>"$D/err" || fail "$name at $n: $(cat "$D/err")"
        for f in "$D"/out.*; do
            [ -e "$f" ] && mv "$f" "$D/t$n/"
        done
    done
    diff -r "$D/t1" "$D/t2" >/dev/null || fail "$name: bytes differ between 1 and 2 threads"
    [ -s "$D/t1/stdout" ] || fail "$name: printed nothing"
    rm -rf "$D/t1" "$D/t2"
}

same "validate --model sleep" --threads validate --model sleep --gpu gtx480 --window 3000 \
    "matmul n=32" --csv "$D/out.csv"
same "calibrate --model sleep" --threads calibrate --model sleep --gpu gtx480 --window 3000 \
    "matmul n=32" --samples "$D/out.samples.csv" --out "$D/out.csv"
same "sleep" --sim-threads sleep --gpu v100 "matmul n=64" --csv "$D/out.csv"
same "group" --threads group --gpu gtx480 syrk n=32 --csv "$D/out.csv"
same "cache --verify" --threads cache --gpu choo-baseline matmul n=64 --verify --json "$D/out.json"
same "cache --window-share" --threads cache --gpu gtx480 matmul n=64 --window-share 0.25 --json "$D/out.json"

"$T" sleep --gpu v100 matmul --sim-threads 0 >/dev/null 2>"$D/err" && fail "--sim-threads 0 accepted"
grep -q 'sleep: --sim-threads 0: expected a whole number from 1 to 64' "$D/err" || fail "sleep message: $(cat "$D/err")"
"$T" group --gpu gtx480 syrk --threads x >/dev/null 2>"$D/err" && fail "--threads x accepted"
grep -q 'group: --threads x: expected 1 to 64' "$D/err" || fail "group message: $(cat "$D/err")"
"$T" cache --gpu choo-baseline atax --threads 65 >/dev/null 2>"$D/err" && fail "--threads 65 accepted"
grep -q 'cache: --threads 65: expected 1 to 64' "$D/err" || fail "cache message: $(cat "$D/err")"

finish cli_thread_budget
