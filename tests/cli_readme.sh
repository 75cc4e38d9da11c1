#!/bin/sh
# Every command the README shows runs: each line of its ```sh blocks that
# starts with build/trapeze, and its ```python block, run in a scratch copy
# of the tree (data/ copied, since calibrate and validate append to the logs
# they are given), each with exit status 0 and no "nan" in what it prints.
# With a sanitizer build (CI's second pass) the commands that simulate for
# minutes there are left out, each path run at a small size by its own
# group under the sanitizers too: --verify (cli_gz_verify.sh), sim
# --workload (cli_sim_workload.sh: HotSpot 100x100 with fences), group on
# a built-in and sim --grouping, which reads its output (cli_group.sh),
# --objective energy (cli_gz_energy.sh and cli_json.sh: Tiny1D with blocks
# of 32; 24 of this group's 57 CPU seconds there), ghostzone --group
# (cli_gz_group.sh: Box9 96x96 with --group-out), and validate --model
# group on the shipped log (cli_calib_group.sh: the same log, the same
# twelve launches, named).
# What the sanitizers look for is the same at those sizes; that the
# README's commands run as printed is the plain build's check.
# Usage: sh tests/cli_readme.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
B=$(cd "$(dirname "$T")" && pwd)
root=$(pwd)
mkdir -p "$D/tree/build"
cp -R data "$D/tree/data"
ln -s "$B/trapeze" "$D/tree/build/trapeze"
for f in "$B"/libtrapeze.so*; do ln -s "$f" "$D/tree/build/$(basename "$f")"; done
ln -s "$root/python" "$D/tree/python"
awk '/^```sh$/ {on = 1; next} /^```/ {on = 0} on && /^build\/trapeze / {print}' README.md >"$D/commands"
[ "$(wc -l <"$D/commands")" -ge 10 ] || fail "found only $(wc -l <"$D/commands") commands in README.md"
san=0 skipped=0
ldd "$B/libtrapeze.so" 2>/dev/null | grep -q libasan && san=1
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    if [ "$san" -eq 1 ]; then
        case $cmd in
        *" --verify "* | "build/trapeze sim "*" --workload "* | "build/trapeze group "* | *" --grouping "* | \
            *" --objective energy "* | *" --group "* | "build/trapeze validate --model group "*)
            skipped=$((skipped + 1))
            continue ;;
        esac
    fi
    if ! (cd "$D/tree" && sh -c "$cmd" >"$D/out.$n" 2>&1); then
        fail "README command failed: $cmd: $(tail -3 "$D/out.$n")"
    elif grep -qiw 'nan' "$D/out.$n"; then
        fail "README command printed nan: $cmd"
    fi
done <"$D/commands"
awk '/^```python$/ {on = 1; next} /^```/ {on = 0} on {print}' README.md >"$D/example.py"
if [ "$san" -eq 1 ]; then
    : # a sanitizer build's library cannot be loaded into Python
elif ! (cd "$D/tree" && PYTHONPATH=python TRAPEZE_LIB="$B/libtrapeze.so" TRAPEZE_PROGRAM="$B/trapeze" \
        /usr/bin/python3 "$D/example.py" >"$D/py.out" 2>&1); then
    fail "README Python example: $(tail -3 "$D/py.out")"
fi
finish "cli_readme ($((n - skipped)) of $n commands)"
