#!/bin/sh
# End-to-end tests of `trapeze sim`: a small run with CSV output, --list,
# --help, and bad input (kernel name, parameter, config), which must give a
# clear message, a non-zero exit and no CSV (nor its temporary) left behind.
# Usage: sh tests/cli_sim.sh build/trapeze
set -u
T=${1:-build/trapeze}
G=data/gpus/gtx480.config
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_error NAME EXPECTED_TEXT ARGS...
expect_error() {
    name=$1 text=$2
    shift 2
    rm -f "$D/out.csv" "$D/out.csv.tmp"
    if "$T" sim "$@" --csv "$D/out.csv" >"$D/stdout" 2>"$D/stderr"; then
        fail "$name: exit status 0"
    fi
    grep -qF -- "$text" "$D/stderr" || fail "$name: stderr lacks '$text': $(cat "$D/stderr")"
    [ ! -e "$D/out.csv" ] && [ ! -e "$D/out.csv.tmp" ] || fail "$name: output file left behind"
}

# --- a small run: summary on stdout, one CSV row per launch
"$T" sim --gpu $G jacobi nx=64 ny=64 iters=2 --csv "$D/j.csv" >"$D/out" 2>"$D/err" \
    || fail "jacobi exit status: $(cat "$D/err")"
grep -q '^jacobi2d: [0-9]* cycles, [0-9]* warp instructions, IPC' "$D/out" || fail "summary line"
[ "$(wc -l <"$D/j.csv")" -eq 3 ] || fail "CSV rows: $(wc -l <"$D/j.csv")"
head -n 1 "$D/j.csv" | grep -q '^kernel,cycles,warp_instructions,ipc,' || fail "CSV header"
sed -n 2p "$D/j.csv" | grep -q '^"jacobi2d",[0-9][0-9]*,[0-9][0-9]*,[0-9.]*,' || fail "CSV row"
[ ! -e "$D/j.csv.tmp" ] || fail "temporary CSV left behind"
# no progress output when stderr is not a terminal
grep -q 'cycle [0-9]*, ' "$D/err" && fail "progress written to a non-terminal"

# the same run twice: the same bytes
"$T" sim --gpu $G jacobi nx=64 ny=64 iters=2 --csv "$D/j2.csv" >/dev/null 2>&1
cmp -s "$D/j.csv" "$D/j2.csv" || fail "two runs differ"

# every built-in runs on every shipped GPU (small sizes)
for g in data/gpus/gtx280.config data/gpus/gtx480.config data/gpus/v100.config; do
    "$T" sim --gpu $g vecadd n=5000 >/dev/null 2>"$D/err" || fail "vecadd on $g: $(cat "$D/err")"
    "$T" sim --gpu $g gbarrier tiles=200 stages=2 >/dev/null 2>"$D/err" || fail "gbarrier on $g: $(cat "$D/err")"
done
"$T" sim --gpu $G chase steps=10 --ideal-memory 50 >"$D/out" 2>&1 || fail "ideal memory"

# --list and --help
"$T" sim --list >"$D/list" || fail "--list exit status"
for k in vecadd copy chase jacobi strided gbarrier relaunch; do
    grep -q "^$k " "$D/list" || fail "--list lacks $k"
done
grep -q 'stride=' "$D/list" || fail "--list lacks parameters"
"$T" sim --help | grep -q 'usage: trapeze sim' || fail "--help"

# --- bad input
expect_error "bad kernel" "no built-in kernel 'nosuch'" --gpu $G nosuch
expect_error "bad parameter name" "no parameter 'bogus'" --gpu $G jacobi bogus=3
expect_error "bad parameter value" "parameter nx=abc" --gpu $G jacobi nx=abc
expect_error "zero parameter" "parameter stride=0" --gpu $G strided stride=0
expect_error "not name=value" "expected name=value" --gpu $G jacobi 17
expect_error "missing config" "nope.config" --gpu "$D/nope.config" vecadd
expect_error "no --gpu" "--gpu FILE is required" vecadd
expect_error "unknown option" "unknown option --frobnicate" --gpu $G vecadd --frobnicate
printf -- '-gpgpu_n_clusters 15\n-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_num_sp_units two\n' >"$D/bad1.config"
expect_error "malformed option" "bad1.config:3: option -gpgpu_num_sp_units" --gpu "$D/bad1.config" vecadd
printf -- '-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_scheduler fifo\n' >"$D/bad2.config"
expect_error "unknown scheduler" "bad2.config:2: option -gpgpu_scheduler" --gpu "$D/bad2.config" vecadd
expect_error "block too big" "does not fit on an SM" --gpu $G vecadd block=2048

[ "$fails" -eq 0 ] && echo "cli_sim: all passed"
[ "$fails" -eq 0 ]
