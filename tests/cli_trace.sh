#!/bin/sh
# End-to-end tests of Accel-Sim traces: `trapeze trace export|check|opcodes`
# and `trapeze sim --trace`. An exported built-in simulates to the same CSV
# bytes as the built-in itself; malformed or truncated traces give one
# message naming file, line and what was expected, a non-zero exit and no
# CSV; value-dependent kernels are refused.
# Usage: sh tests/cli_trace.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
# Two sim CSV files equal in every column but `run` (second to last), which
# names how each was made (a built-in kernel, a workload, a trace path).
same_but_run() {
    strip() { awk -F, 'BEGIN { OFS = "," } { $(NF - 1) = ""; print }' "$1"; }
    [ "$(strip "$1")" = "$(strip "$2")" ]
}
G=data/gpus/gtx480.config

expect_error() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/out.csv" "$T" sim --gpu $G "$@" --csv "$D/out.csv"; }

# --- export, then the trace and the built-in give the same CSV bytes
"$T" trace export --gpu $G jacobi nx=48 ny=40 bx=16 by=8 iters=2 --out "$D/j" >"$D/out" 2>"$D/err" \
    || fail "export exit status: $(cat "$D/err")"
grep -q 'and 2 kernel traces' "$D/out" || fail "export summary: $(cat "$D/out")"
[ "$(cat "$D/j/kernelslist.g")" = "$(printf 'kernel-1.traceg\nkernel-2.traceg')" ] || fail "kernelslist.g"
ls "$D/j" | grep -q '\.tmp$' && fail "temporary file left by export"
"$T" sim --gpu $G jacobi nx=48 ny=40 bx=16 by=8 iters=2 --csv "$D/builtin.csv" --quiet || fail "built-in run"
"$T" sim --gpu $G --trace "$D/j/kernelslist.g" --csv "$D/trace.csv" --quiet 2>"$D/err" \
    || fail "trace run: $(cat "$D/err")"
same_but_run "$D/builtin.csv" "$D/trace.csv" || fail "trace CSV differs from the built-in's"
head -c 60 "$D/j/kernel-1.traceg" | grep -q '^-kernel name = jacobi2d' || fail "header"

# --- a ghost-zone stencil (--workload, relaunch mode): the trace simulates to
# the same CSV bytes as trapeze sim --workload
"$T" trace export --gpu $G --workload hotspot --size 100x100 --iterations 4 --h 2 --out "$D/hs" \
    >"$D/out" 2>"$D/err" || fail "workload export: $(cat "$D/err")"
grep -q 'and 2 kernel traces (HotSpot, h = 2, 2 stages' "$D/out" || fail "workload summary: $(cat "$D/out")"
"$T" sim --gpu $G --workload hotspot --size 100x100 --iterations 4 --h 2 --csv "$D/wl.csv" --quiet \
    || fail "workload run"
"$T" sim --gpu $G --trace "$D/hs/kernelslist.g" --csv "$D/wltrace.csv" --quiet 2>/dev/null \
    || fail "workload trace run"
same_but_run "$D/wl.csv" "$D/wltrace.csv" || fail "workload trace CSV differs from the workload run's"
"$T" trace export --gpu $G --workload nosuch --out "$D/x" >"$D/out" 2>"$D/err" && fail "unknown preset accepted"
grep -q 'no such preset' "$D/err" || fail "unknown preset message: $(cat "$D/err")"
"$T" trace export --gpu $G jacobi --workload hotspot --out "$D/x" 2>"$D/err" && fail "KERNEL and --workload"
grep -q 'not both' "$D/err" || fail "KERNEL and --workload message: $(cat "$D/err")"

# check: one line per kernel with its warp instructions
"$T" trace check "$D/j/kernelslist.g" >"$D/check" || fail "check exit status"
[ "$(grep -c 'jacobi2d, grid (3,5,1), block (16,8,1), [0-9]* warp instructions, 0 with' "$D/check")" -eq 2 ] \
    || fail "check output: $(cat "$D/check")"
# the shipped example reads and runs
"$T" trace check data/traces/vecadd/kernelslist.g | grep -q 'vecadd, grid (8,1,1), block (128,1,1)' \
    || fail "shipped example"
"$T" sim --gpu $G --trace data/traces/vecadd/kernelslist.g 2>/dev/null | grep -q '^vecadd: [0-9]* cycles' \
    || fail "shipped example run"
# the opcode table
"$T" trace opcodes | grep -q '^FFMA  *fp  *MAD' || fail "opcodes lacks FFMA"
"$T" trace --help | grep -q 'trapeze trace export' || fail "--help"

# --- malformed traces: file, line, what was expected
cp -r "$D/j" "$D/t"
head -n 40 "$D/j/kernel-1.traceg" >"$D/t/kernel-1.traceg"
expect_error "truncated" "kernel-1.traceg:41: truncated: expected" --trace "$D/t/kernelslist.g"
cp -r "$D/j" "$D/h"
# the header is 16 lines; then #BEGIN_TB, thread block, warp, insts (with blank lines)
sed '23s/^\([0-9a-f]*\) ffffffff/\1 ffgfffff/' "$D/j/kernel-1.traceg" >"$D/h/kernel-1.traceg"
expect_error "bad hex" "kernel-1.traceg:23: expected an active mask (hex, at most 8 digits), got 'ffgfffff'" \
    --trace "$D/h/kernelslist.g"
cp -r "$D/j" "$D/c"
sed '22s/^insts = .*/insts = 99/' "$D/j/kernel-2.traceg" >"$D/c/kernel-2.traceg"
expect_error "insts mismatch" "kernel-2.traceg:" --trace "$D/c/kernelslist.g"
grep -q "that insts = announced" "$D/stderr" || fail "insts mismatch message: $(cat "$D/stderr")"
# a three-line header declaring 2^31 - 1 blocks is refused before any
# per-block table is allocated (it asked for 16 GB); a dimension past int is
# refused, not wrapped (sscanf read 4294967297 as 1)
mkdir -p "$D/big"
printf 'kernel-1.traceg\n' >"$D/big/kernelslist.g"
printf -- '-kernel name = big\n-grid dim = (2147483647,1,1)\n-block dim = (32,1,1)\n#BEGIN_TB\n' \
    >"$D/big/kernel-1.traceg"
expect_error "huge grid" "kernel-1.traceg: a grid of 2147483647 blocks, but a file of 80 bytes holds at most 2 thread blocks" \
    --trace "$D/big/kernelslist.g"
sed 's/^-grid dim = .*/-grid dim = (4294967297,1,1)/' "$D/j/kernel-1.traceg" >"$D/big/kernel-1.traceg"
expect_error "grid past int" "kernel-1.traceg:3: expected -grid dim = (x,y,z)" --trace "$D/big/kernelslist.g"
# block and grid dimensions whose product overflows int (block) or 64 bits
# (grid) are refused by name; the product itself was undefined behaviour
# (CI's fuzzer found the block case under UBSan)
sed 's/^-block dim = .*/-block dim = (65536,65536,65536)/' "$D/j/kernel-1.traceg" >"$D/big/kernel-1.traceg"
expect_error "block product past int" "kernel-1.traceg:4: expected -block dim = (x,y,z), at most 2048 threads" \
    --trace "$D/big/kernelslist.g"
sed 's/^-grid dim = .*/-grid dim = (2147483647,2147483647,2147483647)/' "$D/j/kernel-1.traceg" >"$D/big/kernel-1.traceg"
expect_error "grid product past 64 bits" "(at most 2^31)" --trace "$D/big/kernelslist.g"
expect_error "missing list" "nolist.g" --trace "$D/nolist.g"
printf 'kernel-1.traceg\nkernel-7.traceg\n' >"$D/j/missing.g"
expect_error "missing kernel file" "kernel-7.traceg: cannot open" --trace "$D/j/missing.g"
"$T" sim --gpu $G vecadd --trace "$D/j/kernelslist.g" >/dev/null 2>"$D/err" && fail "kernel and trace: exit 0"
grep -q 'not both' "$D/err" || fail "kernel and trace: message"

# --- what is not a trace file is said at once, in bounded memory: a folder
# (it was "read error after line 0"), a link to /dev/zero (it grew to 2 GB),
# a file with a line longer than the 1 MiB chunk
for bad in dir zero long; do
    mkdir "$D/$bad"
    cp "$D/j/kernelslist.g" "$D/j/kernel-2.traceg" "$D/$bad/"
done
mkdir "$D/dir/kernel-1.traceg"
ln -s /dev/zero "$D/zero/kernel-1.traceg"
head -c 1100000 /dev/zero | tr '\0' a >"$D/long/kernel-1.traceg"
expect_error "trace kernel is a folder" "dir/kernel-1.traceg: is a folder, not a trace file" \
    --trace "$D/dir/kernelslist.g"
expect_error "trace kernel is /dev/zero" "zero/kernel-1.traceg: not a regular file" \
    --trace "$D/zero/kernelslist.g"
expect_error "trace line past 1 MiB" "long/kernel-1.traceg:1: a line longer than 1048576 bytes" \
    --trace "$D/long/kernelslist.g"

# --- SIGTERM during an export: the process ends by the signal, and the file
# it was writing (a temporary file of its own) is removed
"$T" trace export --gpu $G vecadd n=16000000 --out "$D/sigterm" >/dev/null 2>&1 &
pid=$!
tries=0
while ! ls "$D/sigterm" 2>/dev/null | grep -q '\.tmp$' && [ $tries -lt 400 ]; do
    sleep 0.05; tries=$((tries + 1))
done
ls "$D/sigterm" | grep -q '\.tmp$' || fail "SIGTERM: no temporary file seen during the export"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM: exit status $rc, expected 143 (ended by the signal)"
ls "$D/sigterm" | grep -q '\.tmp$' && fail "SIGTERM left a temporary file: $(ls "$D/sigterm")"
[ -e "$D/sigterm/kernel-1.traceg" ] && fail "SIGTERM: a whole trace file for an unfinished export"
rm -rf "$D/sigterm"

# --- export refusals and usage
if "$T" trace export --gpu $G gbarrier tiles=30 --out "$D/g" >"$D/out" 2>"$D/err"; then
    fail "gbarrier export: exit status 0"
fi
grep -q 'spin loop' "$D/err" || fail "gbarrier message: $(cat "$D/err")"
[ ! -e "$D/g/kernelslist.g" ] || fail "gbarrier export left a kernelslist.g"
"$T" trace export --gpu $G vecadd >/dev/null 2>"$D/err"
[ $? -eq 2 ] || fail "export without --out: exit status"
grep -q -- '--out DIR is required' "$D/err" || fail "export without --out: message"
"$T" trace export --gpu $G nosuch --out "$D/n" 2>"$D/err" >/dev/null && fail "bad kernel exit status"
grep -q "no built-in kernel 'nosuch'" "$D/err" || fail "bad kernel message"
"$T" trace frob 2>/dev/null && fail "unknown subcommand exit status"

finish cli_trace
