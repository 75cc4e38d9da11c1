#!/bin/sh
# End-to-end tests of `trapeze ghostzone --trace DIR` and `--ncu FILE`: a spec
# that says only what a run cannot (the radius) takes the grid, the block, the
# arithmetic per point and the shape from an Accel-Sim trace, or an Nsight
# Compute export, of the stencil as its author wrote it (one thread per point,
# global loads). The traces are written here by a small generator, with counts
# chosen by hand, and the export (tests/data/ncu/stencil-raw.csv) by hand, so
# every value the command reports is known in advance.
# Usage: sh tests/cli_ghostzone_trace.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"

# naive DIR GX GY BX BY LOADS FP SFU [SHARED [LAUNCHES]]: a kernelslist.g and
# LAUNCHES (1) kernels of GXxGY blocks of BXxBY threads, each warp running two
# index IMADs, LOADS global loads, FP FFMAs, SFU MUFU.RSQs, SHARED (0) shared
# loads, a store and EXIT.
naive() {
    mkdir -p "$1"
    : >"$1/kernelslist.g"
    k=1
    while [ $k -le "${10:-1}" ]; do
        echo "kernel-$k.traceg" >>"$1/kernelslist.g"
        awk -v gx="$2" -v gy="$3" -v bx="$4" -v by="$5" -v ld="$6" -v fp="$7" -v sfu="$8" \
            -v sh="${9:-0}" -v id=$k 'BEGIN {
            printf "-kernel name = naive\n-kernel id = %d\n-grid dim = (%d,%d,1)\n", id, gx, gy
            printf "-block dim = (%d,%d,1)\n-shmem = 0\n-nregs = 16\n-binary version = 70\n", bx, by
            printf "-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
            printf "-local mem base_addr = 0x00007f0001000000\n-nvbit version = none\n"
            printf "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
            warps = int((bx * by + 31) / 32); n = 0
            for (y = 0; y < gy; y++) for (x = 0; x < gx; x++) {
                printf "#BEGIN_TB\n\nthread block = %d,%d,0\n\n", x, y
                for (w = 0; w < warps; w++) {
                    printf "warp = %d\ninsts = %d\n", w, 4 + ld + fp + sfu + sh
                    printf "0000 ffffffff 1 R0 IMAD 0 0\n0010 ffffffff 1 R1 IMAD 0 0\n"
                    pc = 32; a = 268435456 + n * 128; n++
                    for (i = 0; i < ld; i++) { printf "%04x ffffffff 1 R2 LDG.E 1 R0 4 1 0x%x 4\n", pc, a + i * 4; pc += 16 }
                    for (i = 0; i < sh; i++) { printf "%04x ffffffff 1 R2 LDS 1 R0 4 1 0x%x 4\n", pc, i * 4; pc += 16 }
                    for (i = 0; i < fp; i++) { printf "%04x ffffffff 1 R3 FFMA 2 R2 R3 0\n", pc; pc += 16 }
                    for (i = 0; i < sfu; i++) { printf "%04x ffffffff 1 R3 MUFU.RSQ 1 R3 0\n", pc; pc += 16 }
                    printf "%04x ffffffff 0 STG.E 2 R3 R0 4 1 0x%x 4\n", pc, 536870912 + n * 128
                    printf "%04x ffffffff 0 EXIT 0 0\n\n", pc + 16
                }
                printf "#END_TB\n\n"
            }
        }' >"$1/kernel-$k.traceg"
        k=$((k + 1))
    done
}
spec() { printf '[workload]\nname = %s\n%s\n' "$1" "$2" >"$D/$1.ini"; }
run() { "$T" ghostzone --gpu gtx480 --spec-counts "$@" >"$D/out" 2>"$D/err"; }
# same_as_full NAME KEYS: the last run's table ($D/out, of spec NAME) equals the
# table of NAME_full, the same stencil written out in full with the counts by hand
same_as_full() {
    spec "$1_full" "$2"
    "$T" ghostzone --gpu gtx480 --spec-counts "$D/$1_full.ini" >"$D/full" 2>/dev/null \
        || fail "$1_full run"
    [ "$(sed "s/^$1_full/$(printf '%-*s' $((${#1} + 5)) "$1")/" "$D/full")" = "$(cat "$D/out")" ] \
        || fail "$1: the run's prediction differs from the hand-written spec's: $(diff "$D/full" "$D/out")"
}

# --- a 2-D 13-point star of radius 3, as a user writes it: 13 loads, 14 FMAs,
# one rsqrt per point; the spec gives the radius only. The trace's 8x4 blocks
# of 16x16 threads make the size 128x64 and the block edge 16; 13 loads are
# the star's count (the box of radius 3 reads 49), so the star is taken.
naive "$D/star" 8 4 16 16 13 14 1
spec star 'radius = 3'
run --trace "$D/star" "$D/star.ini" || fail "star: exit status: $(cat "$D/err")"
grep -q '1 launch of 8x4 blocks of 16x16 threads; per point and sweep 13 global loads, 14 FP and 1 special-function' "$D/err" \
    || fail "star: the trace's counts: $(cat "$D/err")"
grep -q 'shape star reading 13 values per point as the run does' "$D/err" || fail "star: shape: $(cat "$D/err")"
# spec-derived per point: 13 shared loads + 14 FP + 1 SFU + the store = 29
grep -q "the spec's with the run's arithmetic, 29 warp instructions per point" "$D/err" \
    || fail "star: counts source and per-point instructions: $(cat "$D/err")"
grep -q 'no shape given' "$D/err" && fail "star: the shape note still says a box was assumed"
grep -q '^star .*gtx480' "$D/out" || fail "star: no table: $(cat "$D/out")"

# the same stencil written out in full, with the counts by hand: the same
# prediction, byte for byte
same_as_full star 'dimensions = 2
size = 128x64
block = 16
radius = 3
shape = star
flops_per_point = 14
sfu_per_point = 1'

# --- the spec's shape wins and a disagreement is said: a box of radius 3
# reads 49 values, the trace 13
spec starbox 'radius = 3
shape = box'
run --trace "$D/star" "$D/starbox.ini" || fail "starbox: exit status"
grep -q "shape box reading 49 values per point: NOT the run's count" "$D/err" \
    || fail "starbox: the disagreement: $(cat "$D/err")"
# the spec's size wins over the trace's, and says so
spec big 'radius = 3
size = 2048x2048'
run --trace "$D/star" "$D/big.ini" || fail "big: exit status"
grep -q "size: the spec's, not the run's (128 threads in dimension 1)" "$D/err" || fail "big: $(cat "$D/err")"
grep -q "the run's arithmetic" "$D/err" || fail "big: counts source"

# --- 1-D radius 3 over three launches (three sweeps): per point 7 loads, 7 FP
naive "$D/r3" 16 1 128 1 7 7 0 0 3
spec r3 'radius = 3'
run --trace "$D/r3" "$D/r3.ini" || fail "r3: exit status: $(cat "$D/err")"
grep -q '3 launches of 16 blocks of 128 threads; per point and sweep 7 global loads, 7 FP' "$D/err" \
    || fail "r3: counts: $(cat "$D/err")"
grep -q '^r3 ' "$D/out" || fail "r3: no table"

# --- what --trace refuses: a tiled kernel (shared loads), launches of
# different shapes, a missing trace, two workloads
naive "$D/tiled" 2 2 16 16 5 5 0 5
spec j 'radius = 1'
expect_failure tiled "reads shared memory (160 warp instructions)" "$D/none" \
    "$T" ghostzone --gpu gtx480 --spec-counts --trace "$D/tiled" "$D/j.ini"
naive "$D/mixed" 2 2 16 16 5 5 0 0 2
naive "$D/other" 4 2 16 16 5 5 0
cp "$D/other/kernel-1.traceg" "$D/mixed/kernel-2.traceg"
expect_failure mixed "launch 2 has another grid or block than launch 1" "$D/none" \
    "$T" ghostzone --gpu gtx480 --spec-counts --trace "$D/mixed" "$D/j.ini"
expect_failure missing "$D/nothere" "$D/none" \
    "$T" ghostzone --gpu gtx480 --spec-counts --trace "$D/nothere" "$D/j.ini"
"$T" ghostzone --trace "$D/star" "$D/j.ini" "$D/r3.ini" >/dev/null 2>"$D/err"
[ $? -eq 2 ] || fail "two workloads with --trace: exit status 2 expected"
grep -q -- '--trace describes one stencil' "$D/err" || fail "two workloads: $(cat "$D/err")"
# a rectangular block cannot be the tile's edge
naive "$D/rect" 2 2 32 8 5 5 0
expect_failure rect "blocks are 32x8 threads, not square" "$D/none" \
    "$T" ghostzone --gpu gtx480 --spec-counts --trace "$D/rect" "$D/j.ini"

# --- an Nsight Compute raw page of a naive 5-point Jacobi at 1024x1024 (with
# the program's output, ==PROF== lines, units rows in inst, Kinst and Minst, and
# a warm-up kernel of another grid): per thread (4.18e6 + 1,044,480) /
# 1,048,576 = 4.98 FP operations, per warp 163,710 / 32,768 = 4.996 loads
N=tests/data/ncu/stencil-raw.csv
spec j5 'radius = 1'
run --ncu $N --kernel jacobi5 "$D/j5.ini" --json "$D/j5.json" || fail "ncu: exit status: $(cat "$D/err")"
grep -q "from the Nsight Compute export $N: 3 launches of 64x64 blocks of 16x16 threads; per point and sweep 5 global loads, 4.98 FP and 0 special-function" "$D/err" \
    || fail "ncu: counts: $(cat "$D/err")"
grep -q 'shape star reading 5 values per point as the run does' "$D/err" || fail "ncu: shape: $(cat "$D/err")"
grep -q '"counts": "ncu"' "$D/j5.json" || fail "ncu: --json's counts: $(cat "$D/j5.json")"
same_as_full j5 'dimensions = 2
size = 1024x1024
block = 16
radius = 1
shape = star
flops_per_point = 5
sfu_per_point = 0'
# without --kernel the warm-up launch's grid is not the sweeps'
expect_failure ncu-mixed "$N:12: another Grid Size or Block Size than the first launch's" "$D/none" \
    "$T" ghostzone --gpu gtx480 --spec-counts --ncu $N "$D/j5.ini"
# an export without the instruction mix says which metrics to collect
expect_failure ncu-metrics "no FP32 adds metric (smsp__sass_thread_inst_executed_op_fadd_pred_on.sum): export with ncu --csv --page raw --metrics smsp__sass_thread_inst_executed_op_fadd_pred_on.sum," "$D/none" \
    "$T" ghostzone --gpu gtx480 --spec-counts --ncu tests/data/ncu/raw-units.csv "$D/j5.ini"
"$T" ghostzone --trace "$D/star" --ncu $N "$D/j5.ini" >/dev/null 2>"$D/err"
[ $? -eq 2 ] && grep -q -- '--trace and --ncu exclude each other' "$D/err" || fail "--trace with --ncu: $(cat "$D/err")"

[ $fails -eq 0 ] && echo "cli_ghostzone_trace: all passed"
exit $fails
