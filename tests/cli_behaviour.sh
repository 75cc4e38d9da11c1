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
output_error "sim --csv" "$NO/x.csv: cannot create a temporary file" sim --gpu gtx480 --csv "$NO/x.csv" matmul
output_error "sim --per-sm-csv folder" "$D/folder: is a folder" sim --gpu gtx480 --per-sm-csv "$D/folder" matmul
output_error "sim --idle-csv" "$NO/i.csv: cannot create a temporary file" sim --gpu gtx480 --idle-csv "$NO/i.csv" --workload hotspot
output_error "group --out" "$NO/g: cannot create a temporary file" group --gpu gtx480 --out "$NO/g" matmul
output_error "group --csv folder" "is a folder" group --gpu gtx480 --csv "$D/folder" matmul
output_error "locality --footprint-csv" "$NO/f.csv: cannot create a temporary file" locality --gpu gtx480 --footprint-csv "$NO/f.csv" matmul
output_error "ghostzone --csv folder" "is a folder" ghostzone --gpu gtx480 --csv "$D/folder" hotspot
output_error "ghostzone --group-out" "$NO/g: cannot create a temporary file" ghostzone --gpu gtx480 --group --group-out "$NO/g" hotspot
output_error "sleep --csv" "$NO/s.csv: cannot create a temporary file" sleep --gpu gtx480 --csv "$NO/s.csv" matmul
output_error "calibrate --out" "$NO/c.ini: cannot create a temporary file" calibrate --gpu gtx480 --samples "$D/s.csv" --out "$NO/c.ini"
output_error "validate --curve" "$NO/v.csv: cannot create a temporary file" validate --gpu gtx480 --calibration data/calibrations/gtx480.ini --curve "$NO/v.csv" hotspot
output_error "calibrate sleep --out" "$NO/c.ini: cannot create a temporary file" calibrate --model sleep --gpu gtx480 --out "$NO/c.ini" matmul
output_error "validate sleep --csv" "$NO/v.csv: cannot create a temporary file" validate --model sleep --gpu gtx480 --csv "$NO/v.csv" matmul
output_error "calibrate group --out" "$NO/c.ini: cannot create a temporary file" calibrate --model group --gpu gtx480 --samples "$D/g.csv" --out "$NO/c.ini" matmul
output_error "validate group --csv" "$NO/v.csv: cannot create a temporary file" validate --model group --gpu gtx480 --samples "$D/g.csv" --csv "$NO/v.csv" matmul
[ -e "$D/folder.tmp" ] && fail "a folder's probe left $D/folder.tmp"

# What an output path is decides how it is written (common/outfile.c): a
# file is replaced through a temporary file of the run's own; a character
# device or FIFO is written in place and stays what it is; a symbolic link
# is refused; a planted PATH.tmp is never opened.
sim_csv() { "$T" sim --gpu gtx480 vecadd n=64 --quiet --csv "$@"; }
# a private node where mknod is allowed (root), else /dev/null itself
if mknod "$D/null" c 1 3 2>/dev/null; then DEV="$D/null"; else DEV=/dev/null; fi
sim_csv "$DEV" >"$D/out" 2>"$D/err" || fail "--csv $DEV: $(cat "$D/err")"
[ -c "$DEV" ] || fail "--csv $DEV replaced the character device"
# a full disk: a private /dev/full node (never the system's: a broken build
# run as root would replace it). --no-sim: the grouping file is written the
# same way from the model alone, for a thirtieth of the CPU of simulating
# matmul's seven groupings (12 s, ten times that under the sanitizers).
if mknod "$D/full" c 1 7 2>/dev/null; then
    "$T" group --gpu gtx480 --no-sim --out "$D/full" matmul >"$D/out" 2>"$D/err" && fail "group --out FULL: exit 0"
    grep -q "$D/full: cannot write: No space left on device" "$D/err" \
        || fail "group --out FULL: $(cat "$D/err")"
    [ -c "$D/full" ] || fail "group --out FULL replaced the device"
fi
mkfifo "$D/fifo"
timeout 60 cat "$D/fifo" >"$D/fifo.out" &   # bounded: a build that renames over the FIFO never opens it
sim_csv "$D/fifo" 2>"$D/err" || fail "--csv FIFO: $(cat "$D/err")"
wait
[ -p "$D/fifo" ] || fail "--csv FIFO replaced the FIFO"
head -1 "$D/fifo.out" | grep -q '^kernel,' || fail "--csv FIFO: the reader got $(head -c 80 "$D/fifo.out")"
# /dev/stdout is this run's own output, whatever the shell made it: a
# redirection to a file gets the CSV after what was printed, the file stays
# a file; never opened through its link (which would cut the file)
sim_csv /dev/stdout >"$D/stdout.csv" 2>"$D/err" || fail "--csv /dev/stdout > FILE: $(cat "$D/err")"
[ -f "$D/stdout.csv" ] && [ ! -L "$D/stdout.csv" ] || fail "--csv /dev/stdout: the redirection is no longer a file"
[ "$(grep -c '^kernel,' "$D/stdout.csv")" = 1 ] && [ "$(grep -c '^vecadd,' "$D/stdout.csv")" = 1 ] \
    || fail "--csv /dev/stdout > FILE: $(head -c 200 "$D/stdout.csv")"
echo first >"$D/append.csv"
sim_csv /dev/stdout >>"$D/append.csv" 2>"$D/err" || fail "--csv /dev/stdout >> FILE: $(cat "$D/err")"
[ "$(head -1 "$D/append.csv")" = first ] && grep -q '^vecadd,' "$D/append.csv" \
    || fail "--csv /dev/stdout >> FILE: $(head -c 200 "$D/append.csv")"
echo precious >"$D/victim"
ln -s "$D/victim" "$D/link.csv"
sim_csv "$D/link.csv" 2>"$D/err" && fail "--csv through a symbolic link: exit 0"
grep -q 'link.csv: is a symbolic link' "$D/err" || fail "--csv link: $(cat "$D/err")"
[ -L "$D/link.csv" ] && [ "$(cat "$D/victim")" = precious ] || fail "--csv link: the link or its file changed"
ln -s "$D/victim" "$D/o.csv.tmp"
sim_csv "$D/o.csv" 2>"$D/err" || fail "--csv beside a planted o.csv.tmp: $(cat "$D/err")"
[ "$(cat "$D/victim")" = precious ] || fail "the planted o.csv.tmp link was written through"
head -1 "$D/o.csv" | grep -q '^kernel,' || fail "--csv beside a planted .tmp: no CSV"
# two runs given the same output at once: each writes a temporary file of
# its own, so both succeed and the file is one run's whole CSV
sim_csv "$D/one.csv" 2>/dev/null
sim_csv "$D/both.csv" 2>"$D/err1" & p1=$!
sim_csv "$D/both.csv" 2>"$D/err2" & p2=$!
wait $p1 || fail "first of two runs on one output: $(cat "$D/err1")"
wait $p2 || fail "second of two runs on one output: $(cat "$D/err2")"
cut -d, -f1-87 "$D/one.csv" >"$D/one.cut"
cut -d, -f1-87 "$D/both.csv" >"$D/both.cut"
cmp -s "$D/one.cut" "$D/both.cut" || fail "two runs on one output: not one run's whole CSV"
ls "$D" | grep -q '\.[a-z0-9]\{6\}\.tmp$' && fail "temporary files left: $(ls "$D")"

# "-" is standard output (common/outfile.c), never a file named "-" (the
# runs below work in $D, where such a file would appear): taken by one
# output where the command prints nothing else there (sim --quiet), refused
# before the work elsewhere, beside another, beside --json -, for a
# samples log and for a trace's folder (cli/outputs.c).
TA=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
G="$(pwd)/data/gpus/gtx480.config"
(cd "$D" && "$TA" sim --gpu "$G" vecadd n=64 --quiet --csv -) >"$D/dash.out" 2>"$D/err" \
    || fail "sim --quiet --csv -: $(cat "$D/err")"
[ "$(grep -c '^kernel,' "$D/dash.out")" = 1 ] && [ "$(grep -c '^vecadd,' "$D/dash.out")" = 1 ] \
    || fail "sim --quiet --csv -: stdout $(head -c 200 "$D/dash.out")"
[ -e "$D/-" ] && fail "sim --csv -: wrote a file named '-'"
dash_error() {
    name=$1 text=$2
    shift 2
    (cd "$D" && "$TA" "$@") >"$D/out" 2>"$D/err" && fail "$name: exit 0"
    grep -qF -- "$text" "$D/err" || fail "$name: stderr lacks '$text': $(cat "$D/err")"
    [ "$(wc -l <"$D/err")" -eq 1 ] || fail "$name: more than one message: $(cat "$D/err")"
    [ -s "$D/out" ] && fail "$name: stdout: $(head -2 "$D/out")"
    [ -e "$D/-" ] && fail "$name: left a file named '-'"
    rm -f "$D/-"
}
dash_error "sim --csv - with its summary" \
    "--csv -: standard output carries this command's report; give a file name (or --quiet)" \
    sim --gpu "$G" --csv - vecadd n=64
dash_error "two outputs on -" "--per-sm-csv -: standard output is already --csv's" \
    sim --gpu "$G" --quiet --csv - --per-sm-csv - vecadd n=64
dash_error "--csv - beside --json -" "--idle-csv /dev/stdout: standard output is already --json's" \
    sim --gpu "$G" --quiet --json - --idle-csv /dev/stdout vecadd n=64
dash_error "group --csv -" "--csv -: standard output carries this command's report; give a file name" \
    group --gpu "$G" --csv - matmul
dash_error "calibrate --out -" "--out -: standard output carries" \
    calibrate --gpu "$G" --samples s.csv --out - poisson
dash_error "validate --curve -" "--curve -: standard output carries" \
    validate --gpu "$G" --calibration c.ini --curve - poisson
dash_error "samples log -" "-: a samples log is a file the run reads back and rewrites" \
    calibrate --model group --gpu "$G" --samples - --out c.ini syrk,n=64
dash_error "trace export --out -" "-: a trace is a folder" \
    trace export --gpu "$G" --out - vecadd n=64
[ -e "$D/s.csv" ] && fail "calibrate made its samples log before refusing its output"
finish cli_behaviour
