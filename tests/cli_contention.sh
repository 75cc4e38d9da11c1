#!/bin/sh
# Choo's cache contention (docs/simulator.md, "Cache contention"): the
# seed's baseline config and its column-strided PolyBench kernels.
# Usage: sh tests/cli_contention.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"

# col KERNEL COLUMN FILE: the column of KERNEL's row in a --csv file
col() {
    awk -F, -v k="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == k { print $(h[c]) }' "$3"
}

# The baseline: linear set index, 4 ways. atax n=256 (a row per thread, rows
# 1 KB apart): kernel1's warp load touches 32 lines in 4 sets, 8 a set over
# 4 ways, so a line is evicted before the next iteration's load reaches it
# (the only hits: the warp-uniform x[j], one new line in 32 iterations). The
# config loads with two notes only: nothing else of it is left unread.
"$T" sim --gpu choo-baseline atax n=256 --csv "$D/base.csv" >/dev/null 2>"$D/err" \
    || fail "baseline run: $(cat "$D/err")"
h1=$(col atax_kernel1 l1_hits "$D/base.csv") a1=$(col atax_kernel1 l1_accesses "$D/base.csv")
awk -v h="$h1" -v a="$a1" 'BEGIN { exit !(a > 60000 && h < a / 100) }' \
    || fail "baseline atax_kernel1: $h1 hits of $a1 L1 accesses, expected under 1%"
grep -q "not modelled: -gpgpu_max_insn_issue_per_warp -gpgpu_dram_scheduler$" "$D/err" \
    || fail "baseline notes: $(cat "$D/err")"

finish cli_contention
