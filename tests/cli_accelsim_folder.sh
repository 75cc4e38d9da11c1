#!/bin/sh
# Accel-Sim's SM2_GTX480 folder, loaded unchanged (gpgpusim.config naming
# -network_mode 1 and config_fermi_islip.icnt beside it), gives the same
# counters, byte for byte, as the comparison's hand-built chain
# (data/fidelity: the same options plus gtx480.icnt.config, the .icnt file
# translated into Trapeze's options by hand) on two reference traces. Without
# the .icnt file the cycles differ (it is what drives the crossbar), and a
# named but missing .icnt file is an error naming the option and the file.
# Usage: sh tests/cli_accelsim_folder.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
F=data/fidelity
A=tests/configs/accelsim/SM2_GTX480
echo "-trapeze_gpu_name gtx480" >"$D/name.config"
TAIL=$F/gtx480.trace.config,$F/reference-run.config,$F/gpgpusim4-quirks.config,$D/name.config
HAND=$F/SM2_GTX480.gpgpusim.config,$F/gtx480.trace.config,$F/gtx480.icnt.config,$F/reference-run.config,$F/gpgpusim4-quirks.config,$D/name.config
python3 scripts/fidelity/gen_jacobi_trace.py 512 "$D/jacobi_512" >/dev/null
python3 scripts/fidelity/gen_kernels.py matmul 128 "$D/matmul_128" >/dev/null
for tr in jacobi_512 matmul_128; do
    "$T" sim --gpu "$HAND" --trace "$D/$tr/kernelslist.g" --csv "$D/hand.csv" --quiet 2>/dev/null \
        || fail "$tr: the hand-built chain does not run"
    "$T" sim --gpu "$A,$TAIL" --trace "$D/$tr/kernelslist.g" --csv "$D/folder.csv" --quiet \
        2>/dev/null || fail "$tr: the SM2_GTX480 folder does not run"
    cmp -s "$D/hand.csv" "$D/folder.csv" \
        || fail "$tr: the folder's counters differ: $(cat "$D/hand.csv" "$D/folder.csv")"
done
# the same folder without its .icnt line: the simple ports, other cycles
mkdir "$D/noicnt"
grep -v '^-inter_config_file' $A/gpgpusim.config >"$D/noicnt/gpgpusim.config"
"$T" sim --gpu "$D/noicnt,$TAIL" --trace "$D/matmul_128/kernelslist.g" --csv "$D/simple.csv" \
    --quiet 2>/dev/null || fail "no .icnt line: does not run"
cyc() { python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["cycles"])' "$1"; }
[ "$(cyc "$D/simple.csv")" != "$(cyc "$D/folder.csv")" ] \
    || fail "the .icnt file changes no cycle: $(cyc "$D/simple.csv")"
# named but missing: the option, the config's line and the missing file
mkdir "$D/missing"
cp $A/gpgpusim.config "$D/missing/"
line=$(grep -n '^-inter_config_file' $A/gpgpusim.config | cut -d: -f1)
expect_failure "missing .icnt" \
    "$D/missing/gpgpusim.config:$line: option -inter_config_file: $D/missing/config_fermi_islip.icnt" \
    "$D/out.csv" "$T" sim --gpu "$D/missing" vecadd --csv "$D/out.csv"
finish cli_accelsim_folder
