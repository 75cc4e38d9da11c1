#!/bin/sh
# One behaviour in every command (cli/args.c): a misspelt option is a usage
# error (exit 2) naming the nearest option, a repeated option is a usage
# error, an option missing its value too; each is one message on stderr and
# nothing on stdout.
# Usage: sh tests/cli_behaviour.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

# usage_error NAME EXPECTED_TEXT ARGS...: exit 2, the text, one message, empty stdout
usage_error() {
    name=$1 text=$2
    shift 2
    "$T" "$@" >"$D/out" 2>"$D/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2 ($(cat "$D/err"))"
    grep -qF -- "$text" "$D/err" || fail "$name: stderr lacks '$text': $(cat "$D/err")"
    [ "$(wc -l <"$D/err")" -le "$MAX_ERR_LINES" ] || fail "$name: more than one message"
    [ -s "$D/out" ] && fail "$name: stdout before the error: $(head -2 "$D/out")"
}

usage_error "ghostzone misspelt" "unknown option '--gpuu'; did you mean '--gpu'?" ghostzone --gpuu gtx480
usage_error "ghostzone misspelt 2" "did you mean '--height'?" ghostzone --heigth 3
usage_error "ghostzone repeated" "--gpu given twice" ghostzone --gpu gtx480 --gpu v100
usage_error "ghostzone no value" "--csv needs a value" ghostzone --csv
usage_error "ghostzone far off" "unknown option '--frobnicate'" ghostzone --frobnicate
usage_error "import misspelt" "did you mean '--samples'?" import ncu x.csv --sample s.csv
usage_error "import repeated" "--h given twice" import ncu x.csv --h 1 --h 2
usage_error "group misspelt" "did you mean '--margin'?" group --gpu data/gpus/gtx480.config --margn 2 syrk
usage_error "group repeated" "--out given twice" group --gpu data/gpus/gtx480.config --out a --out b syrk
usage_error "locality misspelt" "did you mean '--trace'?" locality --tracee x
usage_error "locality repeated" "--gpu given twice" locality --gpu a --gpu b matmul
usage_error "locality no value" "--launch needs a value" locality --gpu data/gpus/gtx480.config matmul --launch
usage_error "sim misspelt" "did you mean '--gpu'?" sim --gpuu data/gpus/gtx480.config vecadd
usage_error "sim repeated" "--csv given twice" sim --gpu data/gpus/gtx480.config --csv a --csv b vecadd
usage_error "sim workload option" "did you mean '--h'?" sim --gpu data/gpus/gtx480.config --workload hotspot --hh 2
usage_error "calibrate misspelt" "did you mean '--budget'?" calibrate --gpu gtx480 --buget 3
usage_error "validate repeated" "--calibration given twice" validate --gpu gtx480 --calibration a --calibration b
usage_error "trace export misspelt" "did you mean '--out'?" trace export --gpu data/gpus/gtx480.config --outt x vecadd
usage_error "sleep misspelt" "unknown option '--max-penalt'" sleep --gpu gtx480 --max-penalt 0.01
# a negative number is a value, not an option (and then refused by the command)
usage_error "negative value" "--height: expected a positive integer, got '-3'" ghostzone --height -3

# An output that cannot be written (a missing folder, a folder for a file)
# fails before the work (outputs.c): exit 1, one message naming it, nothing
# on stdout, no PATH.tmp left. Each of these runs for seconds to minutes
# when its output is writable; a later check of the output let
# `validate --csv` and `calibrate --out` simulate for minutes first.
output_error() {
    name=$1 text=$2
    shift 2
    "$T" "$@" >"$D/out" 2>"$D/err"
    rc=$?
    [ "$rc" -eq 1 ] || fail "$name: exit $rc, expected 1 ($(cat "$D/err"))"
    grep -qF -- "$text" "$D/err" || fail "$name: stderr lacks '$text': $(cat "$D/err")"
    [ "$(wc -l <"$D/err")" -eq 1 ] || fail "$name: more than one message: $(cat "$D/err")"
    [ -s "$D/out" ] && fail "$name: stdout before the error: $(head -2 "$D/out")"
}
NO="$D/no-such-folder"
mkdir "$D/folder"
output_error "sim --csv" "$NO/x.csv.tmp: cannot create" sim --gpu gtx480 --csv "$NO/x.csv" matmul
output_error "sim --per-sm-csv folder" "$D/folder: is a folder" sim --gpu gtx480 --per-sm-csv "$D/folder" matmul
output_error "sim --idle-csv" "$NO/i.csv.tmp" sim --gpu gtx480 --idle-csv "$NO/i.csv" --workload hotspot
output_error "group --out" "$NO/g.tmp" group --gpu gtx480 --out "$NO/g" matmul
output_error "group --csv folder" "is a folder" group --gpu gtx480 --csv "$D/folder" matmul
output_error "locality --footprint-csv" "$NO/f.csv.tmp" locality --gpu gtx480 --footprint-csv "$NO/f.csv" matmul
output_error "ghostzone --csv folder" "is a folder" ghostzone --gpu gtx480 --csv "$D/folder" hotspot
output_error "ghostzone --group-out" "$NO/g.tmp" ghostzone --gpu gtx480 --group --group-out "$NO/g" hotspot
output_error "sleep --csv" "$NO/s.csv.tmp" sleep --gpu gtx480 --csv "$NO/s.csv" matmul
output_error "calibrate --out" "$NO/c.ini.tmp" calibrate --gpu gtx480 --samples "$D/s.csv" --out "$NO/c.ini"
output_error "validate --curve" "$NO/v.csv.tmp" validate --gpu gtx480 --calibration data/calibrations/gtx480.ini --curve "$NO/v.csv" hotspot
output_error "calibrate sleep --out" "$NO/c.ini.tmp" calibrate --model sleep --gpu gtx480 --out "$NO/c.ini" matmul
output_error "validate sleep --csv" "$NO/v.csv.tmp" validate --model sleep --gpu gtx480 --csv "$NO/v.csv" matmul
output_error "calibrate group --out" "$NO/c.ini.tmp" calibrate --model group --gpu gtx480 --samples "$D/g.csv" --out "$NO/c.ini" matmul
output_error "validate group --csv" "$NO/v.csv.tmp" validate --model group --gpu gtx480 --samples "$D/g.csv" --csv "$NO/v.csv" matmul
[ -e "$D/folder.tmp" ] && fail "a folder's probe left $D/folder.tmp"
[ -e "$D/s.csv" ] && fail "calibrate made its samples log before refusing its output"
finish cli_behaviour
