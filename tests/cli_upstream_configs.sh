#!/bin/sh
# GPGPU-Sim's and Accel-Sim's tested configs load unchanged: each folder of
# tests/configs/accelsim (gpgpusim.config, its booksim .icnt file, Accel-Sim's
# trace.config; PROVENANCE names repository, commit and path) is given to
# --gpu as it is, and runs the built-in vecadd and the data/traces/vecadd
# trace. Each run's occupancy is hand-computed from the config: a 256-thread
# vecadd block fits min(threads per SM / 256, -gpgpu_shader_cta) times per
# SM; the trace's warp instructions are its own count (the sum of its
# "insts = N" lines). The "not modelled" note reaches the terminal before
# any result, and the GPU is named after the config's folder.
# Usage: sh tests/cli_upstream_configs.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
U=tests/configs/accelsim
TR=data/traces/vecadd
winst=$(sed -n 's/^insts = //p' $TR/kernel-1.traceg | awk '{s += $1} END {print s}')
# What each needed: SM3_KEPLER_TITAN DP units fed by their own collector units
# (no generic ones), SM6_TITANX -gpgpu_memory_partition_indexing 4 and an L2
# merge limit (64) above its L2->icnt queue (32), SM75_RTX2060_S a single-set
# 512-way L1, SM2_GTX480 / SM3_KEPLER_TITAN / SM6_TITANX their .icnt files.
# SM90_H100 -gpgpu_memory_partition_indexing 2 over 80 x 2 sub-partitions
# (IPOLY over 256, then modulo 160).
# NAME:blocks per SM  (1536/256 = 6; 1024/256 = 4; 2048/256 = 8; CTA limits 8, 16, 32 do not bind)
for case in SM2_GTX480:6 SM3_KEPLER_TITAN:8 SM6_TITANX:8 SM7_QV100:8 SM7_TITANV:8 SM75_RTX2060:4 \
            SM75_RTX2060_S:4 SM86_RTX3070:6 SM80_A100:8 SM90_H100:8; do
    name=${case%%:*} per_sm=${case#*:}
    cfg=$U/$name
    "$T" sim --gpu "$cfg" vecadd n=65536 >"$D/out" 2>"$D/both" || fail "$name: exit status: $(cat "$D/both")"
    grep -q "($per_sm per SM at most)" "$D/out" || fail "$name: expected $per_sm blocks per SM: $(head -1 "$D/out")"
    "$T" sim --gpu "$cfg" --trace $TR/kernelslist.g --csv "$D/tr.csv" --quiet 2>"$D/both" \
        || fail "$name: the trace does not run: $(cat "$D/both")"
    got=$(python3 -c 'import csv,sys; print(sum(int(r["warp_instructions"]) for r in csv.DictReader(open(sys.argv[1]))))' "$D/tr.csv")
    [ "$got" = "$winst" ] || fail "$name: $got warp instructions, the trace has $winst"
    # on a terminal (script(1)), where stdout is line-buffered: the note first
    script -qec "$T sim --gpu $cfg vecadd n=65536" /dev/null >"$D/merged" 2>&1
    tr '\r' '\n' <"$D/merged" | grep -av '^ *$' | grep -av '^launch ' | head -1 \
        | grep -q '^note: [0-9]* option(s) of .* not modelled' \
        || fail "$name: the note does not come first on a terminal: $(head -3 "$D/merged")"
    "$T" ghostzone --gpu "$cfg" --calibration v100 --force-calibration pathfinder >"$D/gz" 2>/dev/null \
        || fail "$name: ghostzone"
    grep -Eq "^PathFinder +$name " "$D/gz" || fail "$name: GPU not named after its folder: $(cat "$D/gz")"
done
# double precision on Kepler: through the DP collector units, every
# instruction of the trace retired; without DP in ports, no way in: refused
python3 scripts/fidelity/gen_kernels.py dp 16 "$D/dp" >/dev/null
want=$(sed -n 's/^insts = //p' "$D/dp/kernel-1.traceg" | awk '{s += $1} END {print s}')
"$T" sim --gpu $U/SM3_KEPLER_TITAN --trace "$D/dp/kernelslist.g" --csv "$D/dp.csv" --quiet \
    2>"$D/both" || fail "Kepler DP trace: $(cat "$D/both")"
got=$(python3 -c 'import csv,sys; print(sum(int(r["warp_instructions"]) for r in csv.DictReader(open(sys.argv[1]))))' "$D/dp.csv")
[ "$got" = "$want" ] || fail "Kepler DP trace: $got warp instructions, the trace has $want"
echo "-gpgpu_operand_collector_num_in_ports_dp 0" >"$D/nodp.config"
MAX_ERR_LINES=2 expect_failure "Kepler without DP ports" \
    "gpgpusim.config:55: option -gpgpu_num_dp_units: with the operand collector" "$D/x.csv" \
    "$T" sim --gpu "$U/SM3_KEPLER_TITAN,$D/nodp.config" vecadd --csv "$D/x.csv"
# The presets a100, h100, rtx3070 are those folders: Accel-Sim's files byte
# for byte, plus trapeze.config (launch latency 0, as the comparison runs);
# each runs a built-in kernel at the hand-computed occupancy and the trace
# with all its warp instructions, and is named after its folder.
mkdir "$D/two" && cp $TR/kernel-1.traceg "$D/two/" && printf 'kernel-1.traceg\nkernel-1.traceg\n' >"$D/two/kernelslist.g"
for case in a100:SM80_A100:8 h100:SM90_H100:8 rtx3070:SM86_RTX3070:6; do
    p=${case%%:*} rest=${case#*:}
    name=${rest%%:*} per_sm=${rest#*:}
    for f in $U/$name/*; do
        [ "${f##*/}" = PROVENANCE ] || cmp -s "$f" "data/gpus/$p/${f##*/}" \
            || fail "$p: ${f##*/} differs from $U/$name's"
    done
    grep -q "commit [0-9a-f]\{40\}" "data/gpus/$p/PROVENANCE" || fail "$p: PROVENANCE names no commit"
    "$T" sim --gpu $p vecadd n=65536 >"$D/out" 2>"$D/both" || fail "$p: exit status: $(cat "$D/both")"
    grep -q "($per_sm per SM at most)" "$D/out" || fail "$p: expected $per_sm blocks per SM: $(head -1 "$D/out")"
    "$T" sim --gpu $p --trace $TR/kernelslist.g --csv "$D/tr.csv" --quiet 2>"$D/both" \
        || fail "$p: the trace does not run: $(cat "$D/both")"
    got=$(python3 -c 'import csv,sys; print(sum(int(r["warp_instructions"]) for r in csv.DictReader(open(sys.argv[1]))))' "$D/tr.csv")
    [ "$got" = "$winst" ] || fail "$p: $got warp instructions, the trace has $winst"
    # trapeze.config is read after Accel-Sim's files: a second launch waits
    # 0 cycles (-gpgpu_kernel_launch_latency 0), in the bare folder 5000
    for cfg_launch in "$p:0" "$U/$name:5000"; do
        "$T" sim --gpu "${cfg_launch%:*}" --trace "$D/two/kernelslist.g" --csv "$D/two.csv" \
            --quiet 2>/dev/null || fail "${cfg_launch%:*}: two launches"
        got=$(python3 -c 'import csv,sys; print([r["launch_cycles"] for r in csv.DictReader(open(sys.argv[1]))][1])' "$D/two.csv")
        [ "$got" = "${cfg_launch##*:}" ] || fail "${cfg_launch%:*}: second launch waits $got cycles"
    done
done
# The rtx3070 preset's GPGPU-Sim DRAM latency queue (trapeze.config): a stride-8
# copy keeps the GDDR6 busy. In the bare folder each request waits its 254-cycle
# -dram_latency in the 64-entry L2->DRAM queues, 2 x 64 = 128 a channel in flight,
# 128 / 254 = 0.50 requests a core cycle against the 0.77 (one 32-byte atom per
# tCCD = 4 cycles at 3500.5 MHz, core 1132 MHz) the channel serves: at most 65%.
peak() { "$T" sim --gpu "$1" strided n=131072 stride=8 2>/dev/null | sed -n 's/.*(\([0-9]*\)% of peak).*/\1/p'; }
p_preset=$(peak rtx3070) p_folder=$(peak $U/SM86_RTX3070)
[ "${p_folder:-100}" -le 65 ] || fail "SM86_RTX3070 folder: DRAM ${p_folder}% of peak, above the bounded queue's 65%"
[ "${p_preset:-0}" -ge 85 ] || fail "rtx3070 preset: DRAM ${p_preset}% of peak with the latency queue, expected 85% or more"
# the six-value latency line is read, not skipped: a seventh value is an error naming it
sed 's/^-ptx_opcode_latency_int .*/-ptx_opcode_latency_int 4,13,4,5,145,32,7/' $U/SM7_QV100/gpgpusim.config >"$D/seven.config"
"$T" sim --gpu "$D/seven.config" vecadd >/dev/null 2>"$D/err" && fail "seven latency values accepted"
grep -q "ptx_opcode_latency_int" "$D/err" || fail "seven values: message does not name the option: $(cat "$D/err")"
# H100 options beyond SM90_H100's: the simple DRAM model is read (no
# activate; not in the note), the chiplet and L2-coalescer options, which no
# GPGPU-Sim in reach accepts, are named as not modelled
printf -- '-gpgpu_simple_dram_model 1\n-gpgpu_n_chiplet_partition 2\n-gpgpu_lrc_enable 1\n' >"$D/h100x.config"
"$T" sim --gpu "$U/SM90_H100,$D/h100x.config" vecadd n=65536 --csv "$D/simple.csv" >/dev/null 2>"$D/err" \
    || fail "simple DRAM: $(cat "$D/err")"
grep -q -- "-gpgpu_simple_dram_model" "$D/err" && fail "simple DRAM model reported as not modelled"
grep -q -- "-gpgpu_n_chiplet_partition -gpgpu_lrc_enable$" "$D/err" || fail "chiplet/lrc not named: $(cat "$D/err")"
got=$(python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1])))[0]; print(r["dram_reads"], r["dram_row_hits"], r["dram_row_misses"])' "$D/simple.csv")
case "$got" in "0 "*|*" "[1-9]*) fail "simple DRAM: reads, row hits, row misses $got" ;; esac
finish cli_upstream_configs
